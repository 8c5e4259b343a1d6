//! Arithmetic of the `loop` dialect, shared by scalars and vectors.
//!
//! Like MLIR's `arith`, each op works elementwise on a scalar or on a vector of the
//! same element type, so the vectorizer turns a scalar loop body into a vector one by
//! changing types, not ops. Integer ops (including `index`) wrap; `div` and `rem` on
//! integers are signed and truncate toward zero (the lowering guards zero divisors);
//! `cmp` compares floats ordered (false on NaN) and integers signed. The math
//! functions (`exp`, `log`, `tanh`, `erf`, `pow`, ...) are expanded into polynomials by
//! the `expand-math` pass before code generation, so every backend computes them alike.

use std::sync::LazyLock;

use tcc_ir::scalar::{Compare, Operands, ScalarFn};
use tcc_ir::{
    Arity, AttrKind, AttrSpec, Attribute, Diagnostic, Module, Op, OpDef, OperationState, Parser, Printer, ScalarType,
    Signature, Syntax, Traits, Type, VectorType,
};

use crate::LoopOp;

const PURE: Traits = Traits::PURE.union(Traits::ELEMENTWISE);

/// The element type of a scalar or vector type.
pub fn elem_of(t: &Type) -> Option<ScalarType> {
    match t {
        Type::Scalar(s) => Some(*s),
        Type::Vector(v) => Some(v.elem),
        _ => None,
    }
}

/// `t` with its element type replaced (scalar stays scalar, vector keeps its lanes).
pub fn with_elem(t: &Type, elem: ScalarType) -> Type {
    match t {
        Type::Vector(v) => Type::Vector(VectorType { lanes: v.lanes, elem }),
        _ => Type::Scalar(elem),
    }
}

fn check_class(t: &Type, class: Operands) -> Result<ScalarType, String> {
    let e = elem_of(t).ok_or_else(|| format!("expected a scalar or vector type, got {t}"))?;
    if !class.accepts(e) {
        return Err(format!("expected {} type, got {t}", class.describe()));
    }
    Ok(e)
}

fn same_type(sig: &Signature, class: Operands) -> Result<Vec<Type>, String> {
    let first = sig.operand(0)?;
    check_class(first, class)?;
    if let Some((i, t)) = sig.operands.iter().enumerate().find(|(_, t)| *t != first) {
        return Err(format!("operand #{i} has type {t}, expected {first} like operand #0"));
    }
    Ok(vec![first.clone()])
}

fn infer_cmp(sig: &Signature) -> Result<Vec<Type>, String> {
    let t = &same_type(sig, Operands::Number)?[0];
    Ok(vec![with_elem(t, ScalarType::I1)])
}

fn infer_select(sig: &Signature) -> Result<Vec<Type>, String> {
    let (c, a, b) = (sig.operand(0)?, sig.operand(1)?, sig.operand(2)?);
    if a != b {
        return Err(format!("select arms differ: {a} vs {b}"));
    }
    if *c != with_elem(a, ScalarType::I1) {
        return Err(format!("condition must be {}, got {c}", with_elem(a, ScalarType::I1)));
    }
    Ok(vec![a.clone()])
}

fn lanes(t: &Type) -> Option<u32> {
    t.as_vector().map(|v| v.lanes)
}

fn verify_cast(m: &Module, op: Op) -> Result<(), String> {
    let (from, to) = (m.value_type(m.operand(op, 0)), m.value_type(m.result(op, 0)));
    check_class(from, Operands::Number).or_else(|_| check_class(from, Operands::Integer))?;
    check_class(to, Operands::Number).or_else(|_| check_class(to, Operands::Integer))?;
    if lanes(from) != lanes(to) {
        return Err(format!("cannot cast {from} to {to}: lane counts differ"));
    }
    Ok(())
}

fn verify_bitcast(m: &Module, op: Op) -> Result<(), String> {
    let (from, to) = (m.value_type(m.operand(op, 0)), m.value_type(m.result(op, 0)));
    let bits = |t: &Type| elem_of(t).map(|e| e.byte_size() as u32 * lanes(t).unwrap_or(1));
    if lanes(from) != lanes(to) || bits(from).is_none() || bits(from) != bits(to) {
        return Err(format!("cannot bitcast {from} to {to}: sizes differ"));
    }
    Ok(())
}

// -- constants -----------------------------------------------------------------------------

fn infer_const(sig: &Signature) -> Result<Vec<Type>, String> {
    match sig.attrs.get("value") {
        Some(Attribute::Int(_, t)) => Ok(vec![Type::Scalar(*t)]),
        Some(Attribute::Float(_, t)) => Ok(vec![Type::Scalar(*t)]),
        Some(Attribute::Bool(_)) => Ok(vec![Type::Scalar(ScalarType::I1)]),
        _ => Err("attribute 'value' must be a typed integer, float or bool".into()),
    }
}

fn parse_const(p: &mut Parser<'_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    let value = p.parse_attribute()?;
    state.attrs.set("value", value);
    if p.kind() == tcc_ir::lexer::TokenKind::LBrace {
        p.parse_attr_dict_into(&mut state.attrs)?;
    }
    state.result_types = infer_const(&Signature { def: &CONST, operands: &[], attrs: &state.attrs })
        .map_err(|m| Diagnostic::error(state.loc.clone(), m))?;
    Ok(())
}

fn print_const(p: &mut Printer<'_>, op: Op) -> std::fmt::Result {
    let m = p.module();
    p.write("loop.const ");
    if let Some(v) = m.attr(op, "value") {
        p.print_constant_value(v);
    }
    p.print_attr_dict(m.attrs(op), &["value"]);
    Ok(())
}

pub static CONST: OpDef = OpDef {
    name: "loop.const",
    summary: "A scalar constant: `%c = loop.const 4 : index`, `loop.const 1.5 : f32`",
    attrs: &[AttrSpec::required("value", AttrKind::Any, "a typed integer, float or bool")],
    traits: Traits::PURE.union(Traits::CONSTANT_LIKE),
    infer: Some(infer_const),
    syntax: Syntax::Custom { parse: parse_const, print: print_const },
    dialect_data: Some(&LoopOp::Const),
    ..OpDef::DEFAULT
};

/// The `loop.<name>` op of every [`ScalarFn`], in [`ScalarFn::all`]'s order.
static ARITH: LazyLock<Vec<OpDef>> = LazyLock::new(|| ScalarFn::all().map(arith_def).collect());

fn arith_def(f: ScalarFn) -> OpDef {
    let info = f.info();
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let operands = ["%a", "%a, %b", "%a, %b, %c"][info.arity - 1];
    let name = leak(format!("loop.{}", info.name));
    let kind: &'static LoopOp = Box::leak(Box::new(LoopOp::Arith(f)));
    OpDef {
        name,
        summary: info.summary,
        description: leak(format!(
            "{}. Works on scalars and on vectors.\n\n```mlir\n%r = {name} {operands} : f32\n```",
            info.summary
        )),
        operands: Arity::Exactly(info.arity),
        traits: if info.commutative { PURE.union(Traits::COMMUTATIVE) } else { PURE },
        infer: Some(infer_arith),
        syntax: Syntax::SameType,
        dialect_data: Some(kind),
        ..OpDef::DEFAULT
    }
}

/// The `loop` op computing `f` (`loop.add` for [`ScalarFn::Add`]).
pub fn arith(f: ScalarFn) -> &'static OpDef {
    &ARITH[f.index()]
}

/// Every `loop.<name>` arithmetic op.
pub fn arith_ops() -> impl Iterator<Item = &'static OpDef> {
    ARITH.iter()
}

fn infer_arith(sig: &Signature) -> Result<Vec<Type>, String> {
    match crate::op_kind(sig.def) {
        Some(LoopOp::Arith(f)) => same_type(sig, f.info().operands),
        _ => Err(format!("'{}' is not a loop arithmetic op", sig.def.name)),
    }
}

pub static CMP: OpDef = OpDef {
    name: "loop.cmp",
    summary: "Compares: `pred` is eq, ne, lt, le, gt or ge; floats ordered (false on NaN but for ne), integers signed",
    description: "```mlir\n%c = loop.cmp %a, %b {pred = \"lt\"} : (f32, f32) -> i1\n```",
    operands: Arity::Exactly(2),
    attrs: &[AttrSpec::required("pred", AttrKind::Enum(&Compare::NAMES), "the comparison")],
    traits: PURE,
    infer: Some(infer_cmp),
    syntax: Syntax::Functional,
    dialect_data: Some(&LoopOp::Compare),
    ..OpDef::DEFAULT
};

pub static SELECT: OpDef = OpDef {
    name: "loop.select",
    summary: "cond ? a : b (per lane for vectors)",
    description: "```mlir\n%r = loop.select %c, %a, %b : (i1, f32, f32) -> f32\n```",
    operands: Arity::Exactly(3),
    traits: PURE,
    infer: Some(infer_select),
    syntax: Syntax::Functional,
    dialect_data: Some(&LoopOp::Select),
    ..OpDef::DEFAULT
};

pub static CAST: OpDef = OpDef {
    name: "loop.cast",
    summary: "Converts to the result type: float -> int truncates toward zero and saturates (NaN -> 0), int -> int wraps or sign-extends, x -> i1 is x != 0",
    description: "```mlir\n%i = loop.cast %x : (f32) -> i32\n```",
    operands: Arity::Exactly(1),
    traits: PURE,
    verify: Some(verify_cast),
    syntax: Syntax::Functional,
    dialect_data: Some(&LoopOp::Cast),
    ..OpDef::DEFAULT
};

pub static BITCAST: OpDef = OpDef {
    name: "loop.bitcast",
    summary: "Reinterprets the bits as another type of the same size",
    description: "```mlir\n%b = loop.bitcast %x : (vector<4xf32>) -> vector<4xi32>\n```",
    operands: Arity::Exactly(1),
    traits: PURE,
    verify: Some(verify_bitcast),
    syntax: Syntax::Functional,
    dialect_data: Some(&LoopOp::Bitcast),
    ..OpDef::DEFAULT
};
