//! The MLIR text parser: structure (operations, regions, blocks, SSA names, aliases,
//! the resource section). Types and attributes are in `parse_attr.rs`.
//!
//! It reads MLIR's generic form for any op, the pretty forms registered ops define
//! ([`Syntax`]), `#alias = ..` / `!alias = ..` definitions and the trailing
//! `{-# dialect_resources: { builtin: { .. } } #-}` blob section. Every failure is a
//! located [`Diagnostic`], never a panic: input is validated as UTF-8 first, nesting is
//! bounded by [`MAX_DEPTH`] (so a 100k-deep file cannot overflow the stack), and every
//! number is range-checked.

use std::collections::HashMap;
use std::sync::Arc;

use smallvec::SmallVec;

use crate::builtin;
use crate::dense::Resource;
use crate::diagnostics::{Diagnostic, Diagnostics, Location, SourceFile};
use crate::lexer::{Lexer, Token, TokenKind, unescape};
pub use crate::module::OperationState;
use crate::module::{Block, Module, Op, Region, Value};
use crate::opdef::{OpDef, Registry, Syntax, Traits, unregistered};
use crate::types::{TensorType, Type};

/// Deepest nesting of regions, attributes and types the parser accepts.
pub const MAX_DEPTH: u32 = 100;

/// Parses a whole file. `bytes` may be anything: invalid UTF-8, truncation and every
/// other defect are reported as errors located in `name`.
pub fn parse_bytes(name: &str, bytes: &[u8], registry: &Registry) -> Result<Module, Diagnostics> {
    parse_chunk(name, bytes, 1, registry)
}

/// Parses a whole file, taking ownership of its bytes (no copy of the text is made).
pub fn parse_owned(name: &str, bytes: Vec<u8>, registry: &Registry) -> Result<Module, Diagnostics> {
    match String::from_utf8(bytes) {
        Ok(text) => parse_source(SourceFile::new(name, text), registry),
        Err(e) => parse_chunk(name, e.as_bytes(), 1, registry),
    }
}

/// Parses text that starts at line `first_line` of file `name` (for split files).
pub fn parse_chunk(name: &str, bytes: &[u8], first_line: u32, registry: &Registry) -> Result<Module, Diagnostics> {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let valid = &bytes[..e.valid_up_to()];
            let line = first_line + valid.iter().filter(|&&b| b == b'\n').count() as u32;
            let col = valid.len() - valid.iter().rposition(|&b| b == b'\n').map(|p| p + 1).unwrap_or(0) + 1;
            let lossy = String::from_utf8_lossy(bytes).into_owned();
            let file = SourceFile::with_first_line(name, lossy, first_line);
            return Err(Diagnostics::error(Location::new(file, line, col as u32), "input is not valid UTF-8"));
        }
    };
    parse_source(SourceFile::with_first_line(name, text, first_line), registry)
}

/// Parses `file`'s text.
pub fn parse_source(file: Arc<SourceFile>, registry: &Registry) -> Result<Module, Diagnostics> {
    let text: &str = file.text();
    let mut p = Parser::new(file.clone(), text, registry).map_err(Diagnostics::from)?;
    p.parse_file().map_err(Diagnostics::from)?;
    Ok(p.module)
}

struct Scope {
    values: HashMap<String, SmallVec<[Value; 1]>>,
    isolated: bool,
}

/// The parser state. Custom op parsers ([`Syntax::Custom`]) use its `pub` methods.
pub struct Parser<'a> {
    lex: Lexer<'a>,
    tok: Token,
    prev_end: usize,
    file: Arc<SourceFile>,
    pub(crate) module: Module,
    registry: &'a Registry,
    scopes: Vec<Scope>,
    depth: u32,
    pub(crate) type_aliases: HashMap<String, Type>,
    pub(crate) attr_aliases: HashMap<String, crate::Attribute>,
    pub(crate) resources: HashMap<String, Arc<Resource>>,
    /// Every `dense_resource` use, checked against its blob once the section is read.
    pub(crate) resource_uses: Vec<(Location, Arc<Resource>, TensorType)>,
}

type PResult<T> = Result<T, Diagnostic>;

impl<'a> Parser<'a> {
    fn new(file: Arc<SourceFile>, text: &'a str, registry: &'a Registry) -> PResult<Parser<'a>> {
        let mut lex = Lexer::new(text, file.first_line());
        let tok =
            lex.next_token().map_err(|e| Diagnostic::error(Location::new(file.clone(), e.line, e.col), e.message))?;
        let module = Module::new(Location::new(file.clone(), file.first_line(), 1));
        Ok(Parser {
            lex,
            tok,
            prev_end: 0,
            file,
            module,
            registry,
            scopes: Vec::new(),
            depth: 0,
            type_aliases: HashMap::new(),
            attr_aliases: HashMap::new(),
            resources: HashMap::new(),
            resource_uses: Vec::new(),
        })
    }

    // -- token helpers -------------------------------------------------------------------

    pub fn module(&mut self) -> &mut Module {
        &mut self.module
    }

    pub fn kind(&self) -> TokenKind {
        self.tok.kind
    }

    /// The current token's text (identifier names without sigils, string bodies raw).
    pub fn text(&self) -> &'a str {
        self.lex.slice(self.tok.start, self.tok.end)
    }

    pub fn loc(&self) -> Location {
        Location::new(self.file.clone(), self.tok.line, self.tok.col)
    }

    pub(crate) fn loc_at(&self, line: u32, col: u32) -> Location {
        Location::new(self.file.clone(), line, col)
    }

    pub fn error<T>(&self, message: impl Into<String>) -> PResult<T> {
        Err(Diagnostic::error(self.loc(), message))
    }

    pub fn advance(&mut self) -> PResult<Token> {
        let next = self.lex.next_token().map_err(|e| Diagnostic::error(self.loc_at(e.line, e.col), e.message))?;
        self.prev_end = self.tok.end;
        Ok(std::mem::replace(&mut self.tok, next))
    }

    /// Re-synchronizes after reading raw characters from the lexer.
    pub(crate) fn relex(&mut self) -> PResult<()> {
        self.tok = self.lex.next_token().map_err(|e| Diagnostic::error(self.loc_at(e.line, e.col), e.message))?;
        Ok(())
    }

    pub(crate) fn lexer(&mut self) -> &mut Lexer<'a> {
        &mut self.lex
    }

    pub(crate) fn current_token(&self) -> Token {
        self.tok
    }

    pub(crate) fn describe_current(&self) -> String {
        match self.tok.kind {
            TokenKind::Eof => "end of file".into(),
            TokenKind::String => "string".into(),
            _ => {
                let t = self.lex.slice(self.tok.start.saturating_sub(self.sigil_len()), self.tok.end);
                let t: String = t.chars().take(40).collect();
                format!("'{t}'")
            }
        }
    }

    fn sigil_len(&self) -> usize {
        match self.tok.kind {
            TokenKind::PercentIdent | TokenKind::CaretIdent | TokenKind::HashIdent | TokenKind::BangIdent => 1,
            _ => 0,
        }
    }

    pub fn expect(&mut self, kind: TokenKind, context: &str) -> PResult<Token> {
        if self.tok.kind != kind {
            return self.error(format!("expected {} {context}, found {}", kind.describe(), self.describe_current()));
        }
        self.advance()
    }

    pub fn consume_if(&mut self, kind: TokenKind) -> PResult<bool> {
        if self.tok.kind == kind {
            self.advance()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    pub fn is_keyword(&self, kw: &str) -> bool {
        self.tok.kind == TokenKind::BareIdent && self.text() == kw
    }

    pub fn consume_keyword(&mut self, kw: &str) -> PResult<bool> {
        if self.is_keyword(kw) {
            self.advance()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    pub(crate) fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.error(format!("nesting is deeper than the limit of {MAX_DEPTH}"));
        }
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// A string literal's unescaped value.
    pub fn parse_string(&mut self, context: &str) -> PResult<String> {
        let loc = self.loc();
        let tok = self.expect(TokenKind::String, context)?;
        unescape(self.lex.slice(tok.start, tok.end)).map_err(|m| Diagnostic::error(loc, m))
    }

    /// `@name` or `@"name"`.
    pub fn parse_symbol_name(&mut self) -> PResult<String> {
        let loc = self.loc();
        let tok = self.expect(TokenKind::AtIdent, "(symbol name)")?;
        let raw = self.lex.slice(tok.start, tok.end);
        // A quoted symbol's span starts after the quote.
        if tok.start > 0 && self.lex.text().as_bytes()[tok.start - 1] == b'"' {
            unescape(raw).map_err(|m| Diagnostic::error(loc, m))
        } else {
            Ok(raw.to_string())
        }
    }

    /// A non-negative integer that fits in `usize`.
    pub fn parse_usize(&mut self, context: &str) -> PResult<usize> {
        let loc = self.loc();
        let tok = self.expect(TokenKind::Integer, context)?;
        let text = self.lex.slice(tok.start, tok.end);
        parse_int_literal(text)
            .and_then(|v| usize::try_from(v).ok())
            .ok_or_else(|| Diagnostic::error(loc, format!("integer {text} is out of range")))
    }

    // -- file ----------------------------------------------------------------------------

    fn parse_file(&mut self) -> PResult<()> {
        let body = self.module.body();
        self.scopes.push(Scope { values: HashMap::new(), isolated: true });
        loop {
            match self.tok.kind {
                TokenKind::Eof => break,
                TokenKind::HashIdent => self.parse_alias_definition(false)?,
                TokenKind::BangIdent => self.parse_alias_definition(true)?,
                TokenKind::FileMetadataBegin => {
                    self.parse_file_metadata()?;
                    if self.tok.kind != TokenKind::Eof {
                        return self.error("expected end of file after the '{-# .. #-}' section");
                    }
                }
                _ => {
                    let op = self.parse_operation()?;
                    self.module.append_op(body, op);
                }
            }
        }
        self.scopes.pop();
        self.check_resources()?;
        // A file holding exactly one `module` is that module.
        let top_ops: Vec<Op> = self.module.block_ops(body).collect();
        if let [only] = top_ops[..]
            && self.module.is(only, &builtin::MODULE)
        {
            self.module.adopt_top(only);
        }
        Ok(())
    }

    fn parse_alias_definition(&mut self, is_type: bool) -> PResult<()> {
        let loc = self.loc();
        let name = self.text().to_string();
        self.advance()?;
        self.expect(TokenKind::Equal, "in alias definition")?;
        if is_type {
            let ty = self.parse_type()?;
            if self.type_aliases.insert(name.clone(), ty).is_some() {
                return Err(Diagnostic::error(loc, format!("redefinition of type alias '!{name}'")));
            }
        } else {
            let attr = self.parse_attribute()?;
            if self.attr_aliases.insert(name.clone(), attr).is_some() {
                return Err(Diagnostic::error(loc, format!("redefinition of attribute alias '#{name}'")));
            }
        }
        Ok(())
    }

    // -- SSA values ----------------------------------------------------------------------

    fn lookup_value(&self, name: &str, index: usize) -> Option<Value> {
        for scope in self.scopes.iter().rev() {
            if let Some(vals) = scope.values.get(name) {
                return vals.get(index).copied();
            }
            if scope.isolated {
                break;
            }
        }
        None
    }

    fn is_defined(&self, name: &str) -> bool {
        for scope in self.scopes.iter().rev() {
            if scope.values.contains_key(name) {
                return true;
            }
            if scope.isolated {
                break;
            }
        }
        false
    }

    /// Binds `name` to `values` in the innermost scope.
    pub fn define_value(&mut self, name: &str, values: &[Value], loc: &Location) -> PResult<()> {
        if self.is_defined(name) {
            return Err(Diagnostic::error(loc.clone(), format!("redefinition of SSA value '%{name}'")));
        }
        let scope = self.scopes.last_mut().expect("a scope is open while parsing ops");
        scope.values.insert(name.to_string(), values.iter().copied().collect());
        Ok(())
    }

    /// `%name` or `%name#N`; returns the value, its spelling and location.
    pub fn parse_value_use(&mut self) -> PResult<(Value, String, Location)> {
        let loc = self.loc();
        let tok = self.expect(TokenKind::PercentIdent, "(SSA value)")?;
        let name = self.lex.slice(tok.start, tok.end).to_string();
        let mut index = 0;
        let mut spelled = format!("%{name}");
        if self.tok.kind == TokenKind::HashIdent && self.tok.start == tok.end + 1 {
            let idx_loc = self.loc();
            let text = self.text();
            index = text
                .parse::<usize>()
                .map_err(|_| Diagnostic::error(idx_loc, format!("invalid result number '#{text}'")))?;
            spelled = format!("%{name}#{index}");
            self.advance()?;
        }
        match self.lookup_value(&name, index) {
            Some(v) => Ok((v, spelled, loc)),
            None if index > 0 && self.is_defined(&name) => {
                Err(Diagnostic::error(loc, format!("result number {index} of '%{name}' is out of range")))
            }
            None => Err(Diagnostic::error(loc, format!("use of undefined value '{spelled}'"))),
        }
    }

    /// Comma-separated value uses (possibly none, if the next token is not a value).
    pub fn parse_value_uses(&mut self) -> PResult<Vec<(Value, String, Location)>> {
        let mut out = Vec::new();
        if self.tok.kind != TokenKind::PercentIdent {
            return Ok(out);
        }
        loop {
            out.push(self.parse_value_use()?);
            if !self.consume_if(TokenKind::Comma)? {
                return Ok(out);
            }
        }
    }

    /// Checks that uses have the types a signature says, and stores them as operands.
    pub fn bind_operands(
        &mut self,
        state: &mut OperationState,
        uses: &[(Value, String, Location)],
        types: &[Type],
    ) -> PResult<()> {
        if uses.len() != types.len() {
            return Err(Diagnostic::error(
                state.loc.clone(),
                format!("{} operands present, but the type list has {} types", uses.len(), types.len()),
            ));
        }
        for ((v, name, loc), ty) in uses.iter().zip(types) {
            let actual = self.module.value_type(*v);
            if actual != ty {
                return Err(Diagnostic::error(
                    loc.clone(),
                    format!("use of value '{name}' expects different type than prior uses: '{ty}' vs '{actual}'"),
                ));
            }
            state.operands.push(*v);
        }
        Ok(())
    }

    // -- operations ----------------------------------------------------------------------

    /// One operation with its result bindings; returns it detached.
    pub fn parse_operation(&mut self) -> PResult<Op> {
        let mut groups: Vec<(String, usize, Location)> = Vec::new();
        if self.tok.kind == TokenKind::PercentIdent {
            loop {
                let loc = self.loc();
                let tok = self.expect(TokenKind::PercentIdent, "(result name)")?;
                let name = self.lex.slice(tok.start, tok.end).to_string();
                let mut count = 1;
                if self.consume_if(TokenKind::Colon)? {
                    count = self.parse_usize("(result count)")?;
                    if count == 0 || count > 1 << 16 {
                        return Err(Diagnostic::error(loc, format!("invalid result count {count}")));
                    }
                }
                groups.push((name, count, loc));
                if !self.consume_if(TokenKind::Comma)? {
                    break;
                }
            }
            self.expect(TokenKind::Equal, "after operation results")?;
        }
        let loc = self.loc();
        let op = match self.tok.kind {
            TokenKind::String => self.parse_generic_op(loc.clone())?,
            TokenKind::BareIdent => self.parse_custom_op(loc.clone())?,
            _ => return self.error(format!("expected operation name, found {}", self.describe_current())),
        };
        self.parse_trailing_location()?;
        let results = self.module.results(op).to_vec();
        let declared: usize = groups.iter().map(|g| g.1).sum();
        if !groups.is_empty() && declared != results.len() {
            return Err(Diagnostic::error(
                loc,
                format!("operation defines {} results but was provided {declared} to bind", results.len()),
            ));
        }
        let mut next = 0;
        for (name, count, gloc) in groups {
            self.define_value(&name, &results[next..next + count], &gloc)?;
            next += count;
        }
        Ok(op)
    }

    /// Skips `loc(...)` after an op or argument: locations come from the parsed file.
    pub fn parse_trailing_location(&mut self) -> PResult<()> {
        if self.is_keyword("loc") && self.lex.peek_char() == b'(' {
            self.lex.lex_balanced().map_err(|e| Diagnostic::error(self.loc_at(e.line, e.col), e.message))?;
            self.relex()?;
        }
        Ok(())
    }

    fn lookup_op(&self, name: &str, loc: &Location, generic: bool) -> PResult<&'static OpDef> {
        if let Some(d) = self.registry.lookup(name) {
            return Ok(d);
        }
        if !name.contains('.') {
            for prefix in ["func.", "builtin."] {
                if let Some(d) = self.registry.lookup(&format!("{prefix}{name}")) {
                    return Ok(d);
                }
            }
        }
        if generic && self.registry.allow_unregistered && name.contains('.') {
            return Ok(unregistered(name));
        }
        Err(Diagnostic::error(loc.clone(), self.registry.unknown_op_message(name)))
    }

    fn parse_generic_op(&mut self, loc: Location) -> PResult<Op> {
        let name = self.parse_string("(operation name)")?;
        let def = self.lookup_op(&name, &loc, true)?;
        let mut state = OperationState::new(def, loc.clone());
        self.expect(TokenKind::LParen, "to start the operand list")?;
        let uses = self.parse_value_uses()?;
        self.expect(TokenKind::RParen, "to end the operand list")?;
        if self.tok.kind == TokenKind::LSquare {
            return self.error("block successors are not supported");
        }
        if self.tok.kind == TokenKind::Less {
            self.advance()?;
            state.attrs = self.parse_attr_dict()?;
            self.expect(TokenKind::Greater, "to end the properties")?;
        }
        self.parse_region_list(&mut state)?;
        if self.tok.kind == TokenKind::LBrace {
            self.parse_attr_dict_into(&mut state.attrs)?;
        }
        self.expect(TokenKind::Colon, "before the operation's type")?;
        let (inputs, results) = self.parse_function_signature()?;
        self.bind_operands(&mut state, &uses, &inputs)?;
        state.result_types = results;
        Ok(self.create_op(state))
    }

    /// An optional `({..}, {..})` list of regions.
    fn parse_region_list(&mut self, state: &mut OperationState) -> PResult<()> {
        if self.tok.kind != TokenKind::LParen {
            return Ok(());
        }
        self.advance()?;
        loop {
            let region = self.parse_region(state.def.has(Traits::ISOLATED_FROM_ABOVE), &[])?;
            state.regions.push(region);
            if !self.consume_if(TokenKind::Comma)? {
                break;
            }
        }
        self.expect(TokenKind::RParen, "to end the region list")?;
        Ok(())
    }

    /// Creates the parsed op, giving each region of a single-block op its block.
    fn create_op(&mut self, state: OperationState) -> Op {
        if state.def.has(Traits::SINGLE_BLOCK) {
            for &r in &state.regions {
                if self.module.region_blocks(r).is_empty() {
                    self.module.append_block(r, &[]);
                }
            }
        }
        self.module.create_op(state)
    }

    fn parse_custom_op(&mut self, loc: Location) -> PResult<Op> {
        let name = self.text().to_string();
        let def = self.lookup_op(&name, &loc, false)?;
        self.advance()?;
        let mut state = OperationState::new(def, loc.clone());
        match def.syntax {
            Syntax::Generic => {
                return Err(Diagnostic::error(loc, format!("'{name}' has no custom form; write it in generic form")));
            }
            Syntax::Functional => {
                let uses = self.parse_value_uses()?;
                if self.tok.kind == TokenKind::Less {
                    self.advance()?;
                    state.attrs = self.parse_attr_dict()?;
                    self.expect(TokenKind::Greater, "to end the properties")?;
                }
                if self.tok.kind == TokenKind::LBrace {
                    self.parse_attr_dict_into(&mut state.attrs)?;
                }
                self.expect(TokenKind::Colon, "before the operation's type")?;
                let (inputs, results) = self.parse_function_signature()?;
                self.bind_operands(&mut state, &uses, &inputs)?;
                state.result_types = results;
                self.parse_region_list(&mut state)?;
            }
            Syntax::SameType => {
                let uses = self.parse_value_uses()?;
                if self.kind() == TokenKind::LBrace {
                    self.parse_attr_dict_into(&mut state.attrs)?;
                }
                self.expect(TokenKind::Colon, "before the operation's type")?;
                let ty = self.parse_type()?;
                let types = vec![ty.clone(); uses.len()];
                self.bind_operands(&mut state, &uses, &types)?;
                state.result_types = vec![ty];
            }
            Syntax::Custom { parse, .. } => parse(self, &mut state)?,
        }
        Ok(self.create_op(state))
    }

    /// `(T, ..) -> R` or `(T, ..) -> (R, ..)`.
    pub fn parse_function_signature(&mut self) -> PResult<(Vec<Type>, Vec<Type>)> {
        let loc = self.loc();
        match self.parse_type()? {
            Type::Function(f) => Ok((f.inputs.clone(), f.results.clone())),
            other => Err(Diagnostic::error(loc, format!("expected a function type '(..) -> ..', found {other}"))),
        }
    }

    // -- regions and blocks --------------------------------------------------------------

    /// `{ ops }` or `{ ^bb0(%a: T): ops ^bb1: ops }`. `entry_args` (name, type,
    /// location) are the arguments of the entry block when the op's syntax declares
    /// them outside the region (as `func.func` does).
    pub fn parse_region(&mut self, isolated: bool, entry_args: &[(String, Type, Location)]) -> PResult<Region> {
        self.expect(TokenKind::LBrace, "to start a region")?;
        self.enter()?;
        self.scopes.push(Scope { values: HashMap::new(), isolated });
        let region = self.module.new_region();
        let result = self.parse_region_body(region, entry_args);
        self.scopes.pop();
        self.leave();
        result?;
        self.expect(TokenKind::RBrace, "to end the region")?;
        Ok(region)
    }

    fn parse_region_body(&mut self, region: Region, entry_args: &[(String, Type, Location)]) -> PResult<()> {
        let mut labels: HashMap<String, Location> = HashMap::new();
        if self.tok.kind == TokenKind::RBrace && entry_args.is_empty() {
            return Ok(());
        }
        let mut first = true;
        loop {
            let block;
            if self.tok.kind == TokenKind::CaretIdent {
                if first && !entry_args.is_empty() {
                    return self.error("the entry block's arguments are declared by the op; it takes no label");
                }
                let loc = self.loc();
                let label = self.text().to_string();
                self.advance()?;
                if let Some(prev) = labels.insert(label.clone(), loc.clone()) {
                    return Err(Diagnostic::error(loc, format!("redefinition of block '^{label}'"))
                        .with_note(prev, "previously defined here"));
                }
                block = self.module.append_block(region, &[]);
                if self.consume_if(TokenKind::LParen)? {
                    if self.tok.kind != TokenKind::RParen {
                        loop {
                            let (name, ty, aloc) = self.parse_typed_argument()?;
                            let v = self.module.add_block_arg(block, ty);
                            self.define_value(&name, &[v], &aloc)?;
                            if !self.consume_if(TokenKind::Comma)? {
                                break;
                            }
                        }
                    }
                    self.expect(TokenKind::RParen, "to end the block arguments")?;
                }
                self.expect(TokenKind::Colon, "after block label")?;
            } else if first {
                let types: Vec<Type> = entry_args.iter().map(|a| a.1.clone()).collect();
                block = self.module.append_block(region, &types);
                let args = self.module.block_args(block).to_vec();
                for ((name, _, loc), v) in entry_args.iter().zip(args) {
                    self.define_value(name, &[v], loc)?;
                }
            } else {
                return self.error(format!("expected block label or '}}', found {}", self.describe_current()));
            }
            first = false;
            self.parse_block_ops(block)?;
            if self.tok.kind == TokenKind::RBrace {
                return Ok(());
            }
        }
    }

    fn parse_block_ops(&mut self, block: Block) -> PResult<()> {
        while !matches!(self.tok.kind, TokenKind::RBrace | TokenKind::CaretIdent) {
            if self.tok.kind == TokenKind::Eof {
                return self.error("unexpected end of file: expected '}' to end the region");
            }
            let op = self.parse_operation()?;
            self.module.append_op(block, op);
        }
        Ok(())
    }

    /// `%name : type` (with an optional trailing location).
    pub fn parse_typed_argument(&mut self) -> PResult<(String, Type, Location)> {
        let loc = self.loc();
        let tok = self.expect(TokenKind::PercentIdent, "(argument name)")?;
        let name = self.lex.slice(tok.start, tok.end).to_string();
        self.expect(TokenKind::Colon, "after argument name")?;
        let ty = self.parse_type()?;
        self.parse_trailing_location()?;
        Ok((name, ty, loc))
    }
}

/// Parses a decimal or `0x` hex integer literal (hex may use all 64 bits).
pub fn parse_int_literal(text: &str) -> Option<i128> {
    if let Some(hex) = text.strip_prefix("0x") {
        u64::from_str_radix(hex, 16).ok().map(|v| v as i128)
    } else {
        text.parse::<i64>().ok().map(|v| v as i128).or_else(|| text.parse::<u64>().ok().map(|v| v as i128))
    }
}

impl Module {
    /// Makes a top-level `builtin.module` op (parsed explicitly) the module itself.
    pub(crate) fn adopt_top(&mut self, op: Op) {
        let old = self.top();
        self.detach_op(op);
        self.set_top(op);
        self.erase_op(old);
    }
}
