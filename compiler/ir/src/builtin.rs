//! The builtin ops every file uses: `builtin.module`, `func.func` and `func.return`,
//! with MLIR's pretty syntax, verifiers, and helpers to build and inspect functions.

use std::fmt;

use crate::attributes::{AttrDict, Attribute};
use crate::diagnostics::{Diagnostic, Location};
use crate::lexer::TokenKind;
use crate::module::{Block, Module, Op, OperationState, Value};
use crate::opdef::{Arity, AttrDefault, AttrKind, AttrSpec, OpDef, Syntax, Traits};
use crate::parser::Parser;
use crate::printer::Printer;
use crate::types::{FunctionType, Type};

pub static MODULE: OpDef = OpDef {
    name: "builtin.module",
    summary: "A compilation unit holding functions",
    description: "`module [@name] [attributes {..}] { .. }`: the top-level container. A file without \
                  an explicit module is wrapped in one.",
    results: Arity::Exactly(0),
    regions: Arity::Exactly(1),
    attrs: &[AttrSpec::optional("sym_name", AttrKind::String, AttrDefault::Optional, "the module's name")],
    traits: Traits::ISOLATED_FROM_ABOVE.union(Traits::NO_TERMINATOR).union(Traits::SINGLE_BLOCK),
    syntax: Syntax::Custom { parse: parse_module, print: print_module },
    verify: Some(verify_module),
    ..OpDef::DEFAULT
};

pub static FUNC: OpDef = OpDef {
    name: "func.func",
    summary: "A function: the model's entry point is `@main`",
    description: "```mlir\nfunc.func @main(%arg0: tensor<1x3xf32>) -> tensor<1x3xf32> {\n  \
                  %0 = graph.relu %arg0 : (tensor<1x3xf32>) -> tensor<1x3xf32>\n  \
                  return %0 : tensor<1x3xf32>\n}\n```\nArguments are the inputs, the operands of \
                  `return` the outputs. A function without a body is a declaration.",
    results: Arity::Exactly(0),
    regions: Arity::Exactly(1),
    attrs: &[
        AttrSpec::required("sym_name", AttrKind::String, "the function's name"),
        AttrSpec::required("function_type", AttrKind::Type, "the signature"),
        AttrSpec::optional(
            "sym_visibility",
            AttrKind::Enum(&["public", "private", "nested"]),
            AttrDefault::Optional,
            "visibility",
        ),
        AttrSpec::optional("arg_attrs", AttrKind::Any, AttrDefault::Optional, "per-argument dictionaries"),
        AttrSpec::optional("res_attrs", AttrKind::Any, AttrDefault::Optional, "per-result dictionaries"),
    ],
    traits: Traits::ISOLATED_FROM_ABOVE,
    syntax: Syntax::Custom { parse: parse_func, print: print_func },
    verify: Some(verify_func),
    ..OpDef::DEFAULT
};

pub static RETURN: OpDef = OpDef {
    name: "func.return",
    summary: "Returns the function's results",
    description: "`return %a, %b : tensor<..>, tensor<..>` (plain `return` inside a function).",
    operands: Arity::AtLeast(0),
    results: Arity::Exactly(0),
    traits: Traits::TERMINATOR,
    syntax: Syntax::Custom { parse: parse_return, print: print_return },
    verify: Some(verify_return),
    ..OpDef::DEFAULT
};

pub static OPS: &[&OpDef] = &[&MODULE, &FUNC, &RETURN];

// -- helpers -----------------------------------------------------------------------------

pub fn func_name(m: &Module, func: Op) -> &str {
    m.attr(func, "sym_name").and_then(|a| a.as_str()).unwrap_or("")
}

pub fn func_type(m: &Module, func: Op) -> Option<&FunctionType> {
    m.attr(func, "function_type")?.as_type()?.as_function()
}

/// The entry block of a function with a body.
pub fn func_entry(m: &Module, func: Op) -> Option<Block> {
    m.region_blocks(*m.regions(func).first()?).first().copied()
}

/// Appends `func.func @name` with an empty entry block to the module; returns the
/// function and its entry block (add ops, then a `return`).
pub fn create_func(m: &mut Module, name: &str, inputs: Vec<Type>, results: Vec<Type>, loc: Location) -> (Op, Block) {
    let region = m.new_region();
    let entry = m.append_block(region, &inputs);
    let mut state = OperationState::new(&FUNC, loc);
    state.result_types.clear();
    state.attrs.set("sym_name", Attribute::string(name));
    state.attrs.set("function_type", Attribute::Type(Type::function(inputs, results)));
    state.regions.push(region);
    let func = m.create_op(state);
    let body = m.body();
    m.append_op(body, func);
    (func, entry)
}

/// Appends `return values` to `block`.
pub fn create_return(m: &mut Module, block: Block, values: &[Value], loc: Location) -> Op {
    let mut state = OperationState::new(&RETURN, loc);
    state.operands = values.to_vec();
    let op = m.create_op(state);
    m.append_op(block, op);
    op
}

// -- module ------------------------------------------------------------------------------

fn parse_module(p: &mut Parser<'_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    if p.kind() == TokenKind::AtIdent {
        let name = p.parse_symbol_name()?;
        state.attrs.set("sym_name", Attribute::string(&name));
    }
    if p.consume_keyword("attributes")? {
        p.parse_attr_dict_into(&mut state.attrs)?;
    }
    let region = p.parse_region(true, &[])?;
    state.regions.push(region);
    Ok(())
}

fn print_module(p: &mut Printer<'_>, op: Op) -> fmt::Result {
    let m = p.module();
    p.write("module");
    if let Some(name) = m.attr(op, "sym_name").and_then(|a| a.as_str()) {
        p.write(" ");
        p.print_attr(&Attribute::SymbolRef(name.into()));
    }
    let rest: AttrDict = m.attrs(op).iter().filter(|(k, _)| *k != "sym_name").map(|(k, v)| (k, v.clone())).collect();
    if !rest.is_empty() {
        p.write(" attributes");
        p.print_attr_dict(&rest, &[]);
    }
    p.write(" ");
    p.print_region(m.regions(op)[0], false);
    Ok(())
}

fn verify_module(m: &Module, op: Op) -> Result<(), String> {
    let blocks = m.region_blocks(m.regions(op)[0]);
    if blocks.len() != 1 || !m.block_args(blocks[0]).is_empty() {
        return Err("expects one block without arguments".into());
    }
    Ok(())
}

// -- func --------------------------------------------------------------------------------

fn parse_func(p: &mut Parser<'_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    for vis in ["private", "public", "nested"] {
        if p.consume_keyword(vis)? {
            state.attrs.set("sym_visibility", Attribute::string(vis));
        }
    }
    let name = p.parse_symbol_name()?;
    state.attrs.set("sym_name", Attribute::string(&name));
    p.expect(TokenKind::LParen, "to start the argument list")?;
    let mut args: Vec<(String, Type, Location)> = Vec::new();
    let mut arg_types = Vec::new();
    let mut arg_attrs = Vec::new();
    if !p.consume_if(TokenKind::RParen)? {
        loop {
            if p.kind() == TokenKind::PercentIdent {
                let arg = p.parse_typed_argument()?;
                arg_types.push(arg.1.clone());
                args.push(arg);
            } else {
                if !args.is_empty() {
                    return p.error("expected a named argument like '%arg0: type'");
                }
                arg_types.push(p.parse_type()?);
            }
            arg_attrs.push(if p.kind() == TokenKind::LBrace { p.parse_attr_dict()? } else { AttrDict::new() });
            p.parse_trailing_location()?;
            if !p.consume_if(TokenKind::Comma)? {
                break;
            }
        }
        p.expect(TokenKind::RParen, "to end the argument list")?;
    }
    let mut results = Vec::new();
    let mut res_attrs = Vec::new();
    if p.consume_if(TokenKind::Arrow)? {
        if p.consume_if(TokenKind::LParen)? {
            if !p.consume_if(TokenKind::RParen)? {
                loop {
                    results.push(p.parse_type()?);
                    res_attrs.push(if p.kind() == TokenKind::LBrace { p.parse_attr_dict()? } else { AttrDict::new() });
                    if !p.consume_if(TokenKind::Comma)? {
                        break;
                    }
                }
                p.expect(TokenKind::RParen, "to end the result list")?;
            }
        } else {
            results.push(p.parse_type()?);
            res_attrs.push(AttrDict::new());
        }
    }
    if p.consume_keyword("attributes")? {
        p.parse_attr_dict_into(&mut state.attrs)?;
    }
    let as_attr = |dicts: Vec<AttrDict>| Attribute::Array(dicts.into_iter().map(Attribute::Dict).collect());
    if arg_attrs.iter().any(|d| !d.is_empty()) {
        state.attrs.set("arg_attrs", as_attr(arg_attrs));
    }
    if res_attrs.iter().any(|d| !d.is_empty()) {
        state.attrs.set("res_attrs", as_attr(res_attrs));
    }
    state.attrs.set("function_type", Attribute::Type(Type::function(arg_types.clone(), results)));
    let region = if p.kind() == TokenKind::LBrace {
        if args.len() != arg_types.len() {
            return p.error("a function with a body needs named arguments");
        }
        let body_loc = p.loc();
        let region = p.parse_region(true, &args)?;
        if p.module().region_blocks(region).is_empty() {
            return Err(Diagnostic::error(body_loc, "function body is empty: expected at least a 'return'"));
        }
        region
    } else {
        p.module().new_region()
    };
    state.regions.push(region);
    Ok(())
}

fn print_func(p: &mut Printer<'_>, op: Op) -> fmt::Result {
    let m = p.module();
    p.write("func.func ");
    if let Some(vis) = m.attr(op, "sym_visibility").and_then(|a| a.as_str()) {
        p.write(vis);
        p.write(" ");
    }
    p.print_attr(&Attribute::SymbolRef(func_name(m, op).into()));
    let ty = func_type(m, op).cloned().unwrap_or(FunctionType { inputs: vec![], results: vec![] });
    let entry = func_entry(m, op);
    if let Some(b) = entry {
        p.name_block_args(b);
    }
    let dicts = |name: &str| -> Vec<AttrDict> {
        m.attr(op, name)
            .and_then(|a| a.as_array())
            .map(|items| items.iter().map(|a| a.as_dict().cloned().unwrap_or_default()).collect())
            .unwrap_or_default()
    };
    let arg_attrs = dicts("arg_attrs");
    p.write("(");
    for (i, t) in ty.inputs.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        if let Some(b) = entry
            && let Some(&a) = m.block_args(b).get(i)
        {
            p.print_value(a);
            p.write(": ");
        }
        p.print_type(t);
        if let Some(d) = arg_attrs.get(i) {
            p.print_attr_dict(d, &[]);
        }
    }
    p.write(")");
    let res_attrs = dicts("res_attrs");
    if !ty.results.is_empty() {
        p.write(" -> ");
        let simple = ty.results.len() == 1
            && res_attrs.iter().all(|d| d.is_empty())
            && !matches!(ty.results[0], Type::Function(_));
        if simple {
            p.print_type(&ty.results[0]);
        } else {
            p.write("(");
            for (i, t) in ty.results.iter().enumerate() {
                if i > 0 {
                    p.write(", ");
                }
                p.print_type(t);
                if let Some(d) = res_attrs.get(i) {
                    p.print_attr_dict(d, &[]);
                }
            }
            p.write(")");
        }
    }
    let skip = ["sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"];
    if m.attrs(op).iter().any(|(k, _)| !skip.contains(&k)) {
        p.write(" attributes");
        p.print_attr_dict(m.attrs(op), &skip);
    }
    if entry.is_some() {
        p.write(" ");
        p.print_region(m.regions(op)[0], false);
    }
    Ok(())
}

fn verify_func(m: &Module, op: Op) -> Result<(), String> {
    let ty = func_type(m, op).ok_or("attribute 'function_type' must be a function type")?;
    for (what, attr, n) in [("arg_attrs", "argument", ty.inputs.len()), ("res_attrs", "result", ty.results.len())] {
        if let Some(a) = m.attr(op, what) {
            let ok = a.as_array().is_some_and(|items| items.len() == n && items.iter().all(|d| d.as_dict().is_some()));
            if !ok {
                return Err(format!("'{what}' must hold one dictionary per {attr}"));
            }
        }
    }
    if let Some(entry) = func_entry(m, op) {
        let arg_types: Vec<&Type> = m.block_args(entry).iter().map(|&a| m.value_type(a)).collect();
        if arg_types.len() != ty.inputs.len() || arg_types.iter().zip(&ty.inputs).any(|(a, b)| *a != b) {
            return Err("entry block arguments do not match the function signature".into());
        }
    }
    Ok(())
}

// -- return ------------------------------------------------------------------------------

fn parse_return(p: &mut Parser<'_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    let uses = p.parse_value_uses()?;
    let types = if uses.is_empty() {
        Vec::new()
    } else {
        p.expect(TokenKind::Colon, "before the returned types")?;
        p.parse_type_list()?
    };
    p.bind_operands(state, &uses, &types)
}

fn print_return(p: &mut Printer<'_>, op: Op) -> fmt::Result {
    let m = p.module();
    p.write("return");
    let operands = m.operands(op).to_vec();
    if !operands.is_empty() {
        p.write(" ");
        p.print_values(&operands);
        p.write(" : ");
        let types: Vec<Type> = operands.iter().map(|&v| m.value_type(v).clone()).collect();
        p.print_types(&types);
    }
    p.print_attr_dict(m.attrs(op), &[]);
    Ok(())
}

fn verify_return(m: &Module, op: Op) -> Result<(), String> {
    let parent = m.parent_op(op).filter(|&f| m.is(f, &FUNC)).ok_or("expects parent op 'func.func'")?;
    let ty = func_type(m, parent).ok_or("enclosing function has no valid type")?;
    let operands = m.operands(op);
    if operands.len() != ty.results.len() {
        return Err(format!(
            "has {} operands, but enclosing function (@{}) returns {}",
            operands.len(),
            func_name(m, parent),
            ty.results.len()
        ));
    }
    for (i, (&v, want)) in operands.iter().zip(&ty.results).enumerate() {
        if m.value_type(v) != want {
            return Err(format!(
                "type of return operand {i} ({}) doesn't match function result type ({want}) in function @{}",
                m.value_type(v),
                func_name(m, parent)
            ));
        }
    }
    Ok(())
}
