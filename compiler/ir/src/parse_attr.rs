//! Parsing of types and attributes (the parser's second half).
//!
//! Shapes are read digit by digit through the lexer (MLIR's `1x3xf32` is not made of
//! ordinary tokens), every integer is range-checked against its type, dense literals
//! must match their tensor's shape exactly, and floats are parsed directly at their
//! element width so printed values re-parse bit for bit.

use std::sync::Arc;

use crate::attributes::{AttrDict, Attribute};
use crate::dense::{AlignedBytes, DenseElements, Resource, Scalar, encode};
use crate::diagnostics::{Diagnostic, Location};
use crate::lexer::{TokenKind, unescape};
use crate::parse_resources::decode_hex_aligned;
use crate::parser::{Parser, parse_int_literal};
use crate::types::{BufferType, ScalarType, TensorType, Type, VectorType};

type PResult<T> = Result<T, Diagnostic>;

/// One element of a dense literal, kept as written until the element type is known.
enum Lit<'a> {
    Int { text: &'a str, negative: bool },
    Float { text: &'a str, negative: bool },
    Bool(bool),
}

impl<'a> Parser<'a> {
    // -- types ---------------------------------------------------------------------------

    pub fn parse_type(&mut self) -> PResult<Type> {
        self.enter()?;
        let r = self.parse_type_inner();
        self.leave();
        r
    }

    fn parse_type_inner(&mut self) -> PResult<Type> {
        let loc = self.loc();
        match self.kind() {
            TokenKind::BareIdent => {
                let name = self.text();
                if let Some(s) = ScalarType::from_name(name) {
                    self.advance()?;
                    return Ok(Type::Scalar(s));
                }
                match name {
                    "none" => {
                        self.advance()?;
                        Ok(Type::None)
                    }
                    "tensor" => self.parse_tensor_type(),
                    "buffer" => self.parse_buffer_type(),
                    "vector" => self.parse_vector_type(),
                    "memref" | "tuple" | "complex" | "opaque" => {
                        self.error(format!("type '{name}' is not supported by tcc"))
                    }
                    _ if is_other_int_or_float(name) => {
                        self.error(format!("element type '{name}' is not supported by tcc"))
                    }
                    _ => self.error(format!("unknown type '{name}'")),
                }
            }
            TokenKind::LParen => self.parse_function_type(),
            TokenKind::BangIdent => {
                let name = self.text().to_string();
                let tok = self.current_token();
                let has_body = self.lexer().text().as_bytes().get(tok.end) == Some(&b'<');
                if has_body {
                    let (s, e) = self
                        .lexer()
                        .lex_balanced()
                        .map_err(|e| Diagnostic::error(self.loc_at(e.line, e.col), e.message))?;
                    let body = self.lexer().slice(s, e).to_string();
                    self.relex()?;
                    return Ok(Type::Opaque(format!("{name}{body}").into()));
                }
                self.advance()?;
                if let Some(t) = self.type_aliases.get(&name) {
                    return Ok(t.clone());
                }
                if name.contains('.') {
                    return Ok(Type::Opaque(name.into()));
                }
                Err(Diagnostic::error(loc, format!("undefined type alias '!{name}'")))
            }
            _ => self.error("expected a type"),
        }
    }

    /// After `tensor`/`buffer`/`vector`: `<` then a dimension list; returns the dims
    /// and leaves the parser at the element type.
    fn parse_shape_prefix(&mut self, what: &str) -> PResult<Vec<i64>> {
        self.advance()?; // the keyword
        if self.kind() != TokenKind::Less {
            return self.error(format!("expected '<' after '{what}'"));
        }
        // The lexer sits just after '<': read dimensions character by character.
        let mut dims = Vec::new();
        if self.lexer().text().as_bytes().get(self.current_token().end) == Some(&b'*') {
            return self.error(format!("unranked {what} types are not supported (tcc needs static shapes)"));
        }
        while let Some((text, line, col)) = self.lexer().lex_dimension() {
            let loc = self.loc_at(line, col);
            if text == "?" {
                return Err(Diagnostic::error(loc, "dynamic dimensions are not supported (tcc needs static shapes)"));
            }
            let d: i64 =
                text.parse().map_err(|_| Diagnostic::error(loc.clone(), format!("dimension {text} is too large")))?;
            dims.push(d);
            if dims.len() > crate::types::MAX_RANK {
                return Err(Diagnostic::error(loc, format!("rank exceeds the maximum of {}", crate::types::MAX_RANK)));
            }
        }
        self.relex()?;
        Ok(dims)
    }

    fn parse_element_type(&mut self, what: &str) -> PResult<ScalarType> {
        let loc = self.loc();
        match self.parse_type()? {
            Type::Scalar(s) => Ok(s),
            other => Err(Diagnostic::error(loc, format!("{what} element type must be a scalar, found {other}"))),
        }
    }

    fn parse_tensor_type(&mut self) -> PResult<Type> {
        let loc = self.loc();
        let dims = self.parse_shape_prefix("tensor")?;
        let elem = self.parse_element_type("tensor")?;
        let encoding = if self.consume_if(TokenKind::Comma)? { Some(self.parse_attribute()?) } else { None };
        self.expect(TokenKind::Greater, "to end the tensor type")?;
        TensorType::with_encoding(dims, elem, encoding)
            .map(Type::from_tensor)
            .map_err(|m| Diagnostic::error(loc, format!("invalid tensor type: {m}")))
    }

    fn parse_buffer_type(&mut self) -> PResult<Type> {
        let loc = self.loc();
        let dims = self.parse_shape_prefix("buffer")?;
        let elem = self.parse_element_type("buffer")?;
        let mut strides = None;
        if self.consume_if(TokenKind::Comma)? {
            let sloc = self.loc();
            strides = Some(
                self.parse_attribute()?
                    .as_i64_list()
                    .ok_or_else(|| Diagnostic::error(sloc, "buffer strides must be a list of integers"))?,
            );
        }
        self.expect(TokenKind::Greater, "to end the buffer type")?;
        BufferType::new(dims, elem, strides)
            .map(|b| Type::Buffer(Arc::new(b)))
            .map_err(|m| Diagnostic::error(loc, format!("invalid buffer type: {m}")))
    }

    fn parse_vector_type(&mut self) -> PResult<Type> {
        let loc = self.loc();
        let dims = self.parse_shape_prefix("vector")?;
        let elem = self.parse_element_type("vector")?;
        self.expect(TokenKind::Greater, "to end the vector type")?;
        match dims[..] {
            [lanes] if (1..=1024).contains(&lanes) => Ok(Type::Vector(VectorType { lanes: lanes as u32, elem })),
            [_] => Err(Diagnostic::error(loc, "vector lane count must be between 1 and 1024")),
            _ => Err(Diagnostic::error(loc, "only 1-D vectors are supported")),
        }
    }

    fn parse_function_type(&mut self) -> PResult<Type> {
        let inputs = self.parse_paren_type_list()?;
        self.expect(TokenKind::Arrow, "in function type")?;
        let results =
            if self.kind() == TokenKind::LParen { self.parse_paren_type_list()? } else { vec![self.parse_type()?] };
        Ok(Type::function(inputs, results))
    }

    /// `(T, ..)`, possibly empty.
    pub fn parse_paren_type_list(&mut self) -> PResult<Vec<Type>> {
        self.expect(TokenKind::LParen, "to start a type list")?;
        let mut types = Vec::new();
        if !self.consume_if(TokenKind::RParen)? {
            loop {
                types.push(self.parse_type()?);
                if !self.consume_if(TokenKind::Comma)? {
                    break;
                }
            }
            self.expect(TokenKind::RParen, "to end the type list")?;
        }
        Ok(types)
    }

    /// A comma-separated type list without parentheses (at least one).
    pub fn parse_type_list(&mut self) -> PResult<Vec<Type>> {
        let mut types = vec![self.parse_type()?];
        while self.consume_if(TokenKind::Comma)? {
            types.push(self.parse_type()?);
        }
        Ok(types)
    }

    // -- attributes ----------------------------------------------------------------------

    pub fn parse_attribute(&mut self) -> PResult<Attribute> {
        self.enter()?;
        let r = self.parse_attribute_inner();
        self.leave();
        r
    }

    fn parse_attribute_inner(&mut self) -> PResult<Attribute> {
        let loc = self.loc();
        match self.kind() {
            TokenKind::BareIdent => match self.text() {
                "true" | "false" => {
                    let b = self.text() == "true";
                    self.advance()?;
                    Ok(Attribute::Bool(b))
                }
                "unit" => {
                    self.advance()?;
                    Ok(Attribute::Unit)
                }
                "dense" => self.parse_dense(),
                "dense_resource" => self.parse_dense_resource(),
                "array" => self.parse_dense_array(),
                "loc" => {
                    // Location aliases (`#loc1 = loc("x.py":3:4)`) are kept verbatim;
                    // tcc locates ops by their position in the parsed file.
                    let tok = self.current_token();
                    if self.lexer().text().as_bytes().get(tok.end) != Some(&b'(') {
                        return self.error("expected '(' after 'loc'");
                    }
                    let (s, e) = self
                        .lexer()
                        .lex_balanced()
                        .map_err(|e| Diagnostic::error(self.loc_at(e.line, e.col), e.message))?;
                    let body = self.lexer().slice(s, e).to_string();
                    self.relex()?;
                    Ok(Attribute::Opaque(format!("loc{body}").into()))
                }
                "affine_map" | "affine_set" | "strided" | "distinct" | "sparse" | "opaque" => {
                    self.error(format!("attribute '{}' is not supported by tcc", self.text()))
                }
                _ => Ok(Attribute::Type(self.parse_type()?)),
            },
            TokenKind::Integer | TokenKind::Float | TokenKind::Minus => self.parse_number_attr(),
            TokenKind::String => Ok(Attribute::String(self.parse_string("")?.into())),
            TokenKind::LSquare => {
                self.advance()?;
                let mut items = Vec::new();
                if !self.consume_if(TokenKind::RSquare)? {
                    loop {
                        items.push(self.parse_attribute()?);
                        if !self.consume_if(TokenKind::Comma)? {
                            break;
                        }
                    }
                    self.expect(TokenKind::RSquare, "to end the array")?;
                }
                Ok(Attribute::Array(items.into()))
            }
            TokenKind::LBrace => Ok(Attribute::Dict(self.parse_attr_dict()?)),
            TokenKind::AtIdent => Ok(Attribute::SymbolRef(self.parse_symbol_name()?.into())),
            TokenKind::HashIdent => {
                let name = self.text().to_string();
                let tok = self.current_token();
                if self.lexer().text().as_bytes().get(tok.end) == Some(&b'<') {
                    let (s, e) = self
                        .lexer()
                        .lex_balanced()
                        .map_err(|e| Diagnostic::error(self.loc_at(e.line, e.col), e.message))?;
                    let body = self.lexer().slice(s, e).to_string();
                    self.relex()?;
                    return Ok(Attribute::Opaque(format!("{name}{body}").into()));
                }
                self.advance()?;
                if let Some(a) = self.attr_aliases.get(&name) {
                    return Ok(a.clone());
                }
                if name.contains('.') {
                    return Ok(Attribute::Opaque(name.into()));
                }
                Err(Diagnostic::error(loc, format!("undefined attribute alias '#{name}'")))
            }
            TokenKind::LParen | TokenKind::BangIdent => Ok(Attribute::Type(self.parse_type()?)),
            _ => self.error("expected an attribute value"),
        }
    }

    /// `{name = attr, unitname, "quoted" = attr}`
    pub fn parse_attr_dict(&mut self) -> PResult<AttrDict> {
        let mut dict = AttrDict::new();
        self.parse_attr_dict_into(&mut dict)?;
        Ok(dict)
    }

    /// Parses a dictionary, adding its entries to `dict` (duplicates are errors).
    pub fn parse_attr_dict_into(&mut self, dict: &mut AttrDict) -> PResult<()> {
        self.expect(TokenKind::LBrace, "to start an attribute dictionary")?;
        self.enter()?;
        let r = self.parse_attr_entries(dict);
        self.leave();
        r?;
        self.expect(TokenKind::RBrace, "to end the attribute dictionary")?;
        Ok(())
    }

    fn parse_attr_entries(&mut self, dict: &mut AttrDict) -> PResult<()> {
        if self.kind() == TokenKind::RBrace {
            return Ok(());
        }
        loop {
            let loc = self.loc();
            let name = match self.kind() {
                TokenKind::BareIdent => {
                    let n = self.text().to_string();
                    self.advance()?;
                    n
                }
                TokenKind::String => self.parse_string("")?,
                _ => return self.error("expected attribute name"),
            };
            let value = if self.consume_if(TokenKind::Equal)? { self.parse_attribute()? } else { Attribute::Unit };
            if dict.set(&name, value).is_some() {
                return Err(Diagnostic::error(loc, format!("duplicate attribute '{name}'")));
            }
            if !self.consume_if(TokenKind::Comma)? {
                return Ok(());
            }
        }
    }

    fn parse_number_attr(&mut self) -> PResult<Attribute> {
        let loc = self.loc();
        let lit = self.parse_literal()?;
        let ty = if self.consume_if(TokenKind::Colon)? {
            let tloc = self.loc();
            match self.parse_type()? {
                Type::Scalar(s) => Some(s),
                other => {
                    return Err(Diagnostic::error(tloc, format!("expected a scalar type for a number, found {other}")));
                }
            }
        } else {
            None
        };
        let ty = ty.unwrap_or(match lit {
            Lit::Float { .. } => ScalarType::F64,
            _ => ScalarType::I64,
        });
        let v = lit_to_scalar(&lit, ty).map_err(|m| Diagnostic::error(loc, m))?;
        Ok(match v {
            Scalar::Float(f) => Attribute::Float(f, ty),
            Scalar::Int(i) => Attribute::Int(i, ty),
        })
    }

    /// A number (optionally negative) or `true`/`false`.
    fn parse_literal(&mut self) -> PResult<Lit<'a>> {
        if self.is_keyword("true") || self.is_keyword("false") {
            let b = self.text() == "true";
            self.advance()?;
            return Ok(Lit::Bool(b));
        }
        let negative = self.consume_if(TokenKind::Minus)?;
        let text = self.text();
        match self.kind() {
            TokenKind::Integer => {
                self.advance()?;
                Ok(Lit::Int { text, negative })
            }
            TokenKind::Float => {
                self.advance()?;
                Ok(Lit::Float { text, negative })
            }
            _ => self.error("expected a number"),
        }
    }

    /// `array<i64: 1, 2>`, `array<f32: 1.0>`, `array<i32>`.
    fn parse_dense_array(&mut self) -> PResult<Attribute> {
        self.advance()?;
        self.expect(TokenKind::Less, "after 'array'")?;
        let elem = self.parse_element_type("array")?;
        let mut lits = Vec::new();
        if self.consume_if(TokenKind::Colon)? {
            loop {
                let loc = self.loc();
                let lit = self.parse_literal()?;
                lits.push((lit_to_scalar(&lit, elem).map_err(|m| Diagnostic::error(loc, m))?, ()));
                if !self.consume_if(TokenKind::Comma)? {
                    break;
                }
            }
        }
        self.expect(TokenKind::Greater, "to end the array")?;
        Ok(if elem.is_float() {
            Attribute::DenseFloats(elem, lits.iter().map(|(s, _)| s.as_f64()).collect())
        } else {
            Attribute::DenseInts(elem, lits.iter().map(|(s, _)| s.as_i64()).collect())
        })
    }

    /// `dense<..> : tensor<..>`
    fn parse_dense(&mut self) -> PResult<Attribute> {
        let loc = self.loc();
        self.advance()?;
        self.expect(TokenKind::Less, "after 'dense'")?;
        enum Body<'a> {
            Empty,
            Hex(&'a str, Location),
            Splat(Lit<'a>, Location),
            List(Vec<(Lit<'a>, Location)>, Vec<i64>),
        }
        let body = match self.kind() {
            TokenKind::Greater => Body::Empty,
            TokenKind::String => {
                let sloc = self.loc();
                let text = self.text();
                self.advance()?;
                match text.strip_prefix("0x") {
                    Some(hex) => Body::Hex(hex, sloc),
                    None => return Err(Diagnostic::error(sloc, "dense string data must be hex starting with \"0x\"")),
                }
            }
            TokenKind::LSquare => {
                let mut elems = Vec::new();
                let shape = self.parse_dense_list(&mut elems)?;
                Body::List(elems, shape)
            }
            _ => {
                let l = self.loc();
                Body::Splat(self.parse_literal()?, l)
            }
        };
        self.expect(TokenKind::Greater, "to end the dense elements")?;
        let ty = self.parse_dense_type()?;
        let elem = ty.elem();
        let result = match body {
            Body::Empty if ty.numel() == 0 => DenseElements::from_bytes(ty, AlignedBytes::zeroed(0)),
            Body::Empty => Err(format!("empty dense elements for {ty}, which has {} elements", ty.numel())),
            Body::Splat(lit, l) => {
                let v = lit_to_scalar(&lit, elem).map_err(|m| Diagnostic::error(l, m))?;
                Ok(DenseElements::splat(ty, v))
            }
            Body::Hex(hex, l) => {
                let bytes = decode_hex_aligned(hex).map_err(|m| Diagnostic::error(l.clone(), m))?;
                let size = elem.byte_size();
                if bytes.len() == size && ty.numel() != 1 {
                    Ok(DenseElements::splat(ty, crate::dense::decode(elem, bytes.as_slice())))
                } else {
                    DenseElements::from_bytes(ty, bytes).map_err(|m| format!("hex data does not match the type: {m}"))
                }
            }
            Body::List(elems, shape) => {
                if shape != ty.shape() {
                    return Err(Diagnostic::error(
                        loc,
                        format!("dense literal has shape [{}] but the type is {ty}", join(&shape)),
                    ));
                }
                let size = elem.byte_size();
                let mut bytes = AlignedBytes::zeroed(elems.len() * size);
                let out = bytes.as_mut_slice();
                let mut tmp = [0u8; 8];
                for (i, (lit, l)) in elems.iter().enumerate() {
                    let v = lit_to_scalar(lit, elem).map_err(|m| Diagnostic::error(l.clone(), m))?;
                    encode(elem, v, &mut tmp);
                    out[i * size..(i + 1) * size].copy_from_slice(&tmp[..size]);
                }
                DenseElements::from_bytes(ty, bytes)
            }
        };
        result.map(Attribute::Dense).map_err(|m| Diagnostic::error(loc, m))
    }

    fn parse_dense_type(&mut self) -> PResult<TensorType> {
        self.expect(TokenKind::Colon, "and a tensor type after dense elements")?;
        let tloc = self.loc();
        match self.parse_type()? {
            Type::Tensor(t) => Ok((*t).clone()),
            other => Err(Diagnostic::error(tloc, format!("dense elements need a tensor type, found {other}"))),
        }
    }

    /// `[a, b]` or `[[..], [..]]`; returns the shape.
    fn parse_dense_list(&mut self, out: &mut Vec<(Lit<'a>, Location)>) -> PResult<Vec<i64>> {
        self.enter()?;
        let r = self.parse_dense_list_inner(out);
        self.leave();
        r
    }

    fn parse_dense_list_inner(&mut self, out: &mut Vec<(Lit<'a>, Location)>) -> PResult<Vec<i64>> {
        self.expect(TokenKind::LSquare, "")?;
        let mut count = 0i64;
        let mut inner: Option<Vec<i64>> = None;
        if !self.consume_if(TokenKind::RSquare)? {
            loop {
                let loc = self.loc();
                let shape = if self.kind() == TokenKind::LSquare {
                    self.parse_dense_list(out)?
                } else {
                    out.push((self.parse_literal()?, loc.clone()));
                    Vec::new()
                };
                match &inner {
                    None => inner = Some(shape),
                    Some(s) if *s == shape => {}
                    Some(_) => return Err(Diagnostic::error(loc, "dense literal is not rectangular")),
                }
                count += 1;
                if !self.consume_if(TokenKind::Comma)? {
                    break;
                }
            }
            self.expect(TokenKind::RSquare, "to end the dense list")?;
        }
        let mut shape = vec![count];
        shape.extend(inner.unwrap_or_default());
        Ok(shape)
    }

    /// `dense_resource<name> : tensor<..>`
    fn parse_dense_resource(&mut self) -> PResult<Attribute> {
        let loc = self.loc();
        self.advance()?;
        self.expect(TokenKind::Less, "after 'dense_resource'")?;
        let name = match self.kind() {
            TokenKind::BareIdent => {
                let n = self.text().to_string();
                self.advance()?;
                n
            }
            TokenKind::String => {
                let l = self.loc();
                let raw = self.text();
                self.advance()?;
                unescape(raw).map_err(|m| Diagnostic::error(l, m))?
            }
            _ => return self.error("expected resource name"),
        };
        self.expect(TokenKind::Greater, "to end the resource reference")?;
        let ty = self.parse_dense_type()?;
        let res = self.resources.entry(name.clone()).or_insert_with(|| Resource::new(&name)).clone();
        self.resource_uses.push((loc.clone(), res.clone(), ty.clone()));
        DenseElements::from_resource(ty, res).map(Attribute::Dense).map_err(|m| Diagnostic::error(loc, m))
    }
}

fn join(v: &[i64]) -> String {
    v.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")
}

/// MLIR integer/float types tcc does not model (`ui8`, `si32`, `i4`, `f8E4M3FN`, ...).
fn is_other_int_or_float(name: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    name.strip_prefix('i').is_some_and(digits)
        || name.strip_prefix("ui").is_some_and(digits)
        || name.strip_prefix("si").is_some_and(digits)
        || name.starts_with("f8")
        || name == "tf32"
        || name == "f80"
        || name == "f128"
}

/// Converts a literal to a value of `ty`, checking range and kind.
fn lit_to_scalar(lit: &Lit<'_>, ty: ScalarType) -> Result<Scalar, String> {
    match *lit {
        Lit::Bool(b) => {
            if ty.is_integer() {
                Ok(Scalar::Int(b as i64))
            } else {
                Err(format!("boolean literal for element type {ty}"))
            }
        }
        Lit::Float { text, negative } => {
            if !ty.is_float() {
                return Err(format!("floating point literal {text} for integer type {ty}"));
            }
            let v = if ty == ScalarType::F32 {
                text.parse::<f32>().map(|v| v as f64).map_err(|e| e.to_string())?
            } else {
                text.parse::<f64>().map_err(|e| e.to_string())?
            };
            if v.is_infinite() || (ty == ScalarType::F32 && v.abs() > f32::MAX as f64) {
                return Err(format!("float literal {text} is out of range for {ty} (write infinities as hex bits)"));
            }
            Ok(Scalar::Float(if negative { -v } else { v }))
        }
        Lit::Int { text, negative } => {
            let v = parse_int_literal(text).ok_or_else(|| format!("integer literal {text} is out of range"))?;
            let is_hex = text.starts_with("0x");
            if ty.is_float() {
                if is_hex {
                    if negative {
                        return Err("hexadecimal float literal cannot be negative".into());
                    }
                    let bits = v as u64;
                    let (ok, value) = match ty {
                        ScalarType::F64 => (true, f64::from_bits(bits)),
                        ScalarType::F32 => (bits <= u32::MAX as u64, f32::from_bits(bits as u32) as f64),
                        ScalarType::F16 => (bits <= 0xffff, crate::dense::f16_to_f32(bits as u16) as f64),
                        _ => (bits <= 0xffff, f32::from_bits((bits as u32) << 16) as f64),
                    };
                    if !ok {
                        return Err(format!("hexadecimal literal {text} is too wide for {ty}"));
                    }
                    return Ok(Scalar::Float(value));
                }
                let v = if negative { -v } else { v };
                return Ok(Scalar::Float(v as f64));
            }
            let v = if negative { -v } else { v };
            let bits = ty.int_bits().unwrap_or(64);
            let (min, max) = if bits == 64 {
                (i64::MIN as i128, u64::MAX as i128)
            } else if bits == 1 {
                (-1, 1)
            } else {
                (-(1i128 << (bits - 1)), (1i128 << bits) - 1)
            };
            if v < min || v > max {
                return Err(format!("integer {v} is out of range for {ty}"));
            }
            // Store two's complement sign-extended to i64.
            let truncated = if bits >= 64 { v as i64 } else { ((v as i64) << (64 - bits)) >> (64 - bits) };
            Ok(Scalar::Int(if bits == 1 { (v != 0) as i64 } else { truncated }))
        }
    }
}
