//! The `vector` dialect: SIMD values of the target's width.
//!
//! A `vector<Nxf32>` holds N lanes; N comes from the target description (4 x f32 for
//! Cranelift's 128-bit vectors, 16 for AVX-512), never from this dialect. Arithmetic
//! on vectors uses the `loop` dialect's ops, which are defined for scalars and vectors
//! alike; this dialect adds what is vector-specific: contiguous loads and stores along
//! a buffer's innermost (unit-stride) dimension, splats, horizontal reductions and lane
//! access. Loop tails are handled by the vectorizer with a scalar remainder loop.
//!
//! ```mlir
//! %v = vector.load %buf[%i, %j] : buffer<4x64xf32>, vector<4xf32>
//! %s = vector.splat %x : (f32) -> vector<4xf32>
//! %r = loop.fma %v, %s, %acc : vector<4xf32>
//! vector.store %r, %out[%i, %j] : buffer<4x64xf32>, vector<4xf32>
//! %t = vector.reduce %r {kind = "add"} : (vector<4xf32>) -> f32
//! ```

use tcc_ir::indexed::{indexed_buffer, indexed_types, parse_indexed, print_indexed};
use tcc_ir::lexer::TokenKind;
use tcc_ir::scalar::ScalarFn;
use tcc_ir::{
    Arity, AttrKind, AttrSpec, Attribute, Diagnostic, Module, Op, OpDef, OperationState, Parser, Printer, Registry,
    Signature, Syntax, Traits, Type,
};

/// Checks a vector access: buffer operand `buffer_operand` with its indices, unit
/// innermost stride, and a vector type whose elements match the buffer.
fn check_access(m: &Module, op: Op, buffer_operand: usize, vector: &Type) -> Result<(), String> {
    let b = indexed_buffer(m, op, buffer_operand)?;
    let v = vector.as_vector().ok_or_else(|| format!("expected a vector type, got {vector}"))?;
    if v.elem != b.elem() {
        return Err(format!("vector element type {} differs from the buffer's {}", v.elem, b.elem()));
    }
    if b.strides().last().is_some_and(|&s| s != 1) || b.shape().is_empty() {
        return Err("vector access needs a buffer whose innermost dimension has unit stride".into());
    }
    Ok(())
}

fn verify_load(m: &Module, op: Op) -> Result<(), String> {
    check_access(m, op, 0, m.value_type(m.result(op, 0)))
}

fn verify_store(m: &Module, op: Op) -> Result<(), String> {
    check_access(m, op, 1, m.value_type(m.operand(op, 0)))
}

/// After `: buffer<..>`: `, vector<..>`.
fn parse_vector_suffix(p: &mut Parser<'_>) -> Result<Type, Diagnostic> {
    p.expect(TokenKind::Comma, "before the vector type")?;
    p.parse_type()
}

fn parse_load(p: &mut Parser<'_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    let (uses, ty) = parse_indexed(p, &mut state.attrs)?;
    let vector = parse_vector_suffix(p)?;
    p.bind_operands(state, &uses, &indexed_types(&uses, &ty))?;
    state.result_types.push(vector);
    Ok(())
}

fn print_load(p: &mut Printer<'_>, op: Op) -> std::fmt::Result {
    let m = p.module();
    p.write("vector.load ");
    print_indexed(p, op, m.operands(op));
    p.write(" : ");
    p.print_type(m.value_type(m.operand(op, 0)));
    p.write(", ");
    p.print_type(m.value_type(m.result(op, 0)));
    Ok(())
}

fn parse_store(p: &mut Parser<'_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    let value = p.parse_value_use()?;
    p.expect(TokenKind::Comma, "after the stored vector")?;
    let (mut uses, ty) = parse_indexed(p, &mut state.attrs)?;
    let vector = parse_vector_suffix(p)?;
    let mut types = vec![vector];
    types.extend(indexed_types(&uses, &ty));
    uses.insert(0, value);
    p.bind_operands(state, &uses, &types)
}

fn print_store(p: &mut Printer<'_>, op: Op) -> std::fmt::Result {
    let m = p.module();
    p.write("vector.store ");
    p.print_value(m.operand(op, 0));
    p.write(", ");
    print_indexed(p, op, &m.operands(op)[1..]);
    p.write(" : ");
    p.print_type(m.value_type(m.operand(op, 1)));
    p.write(", ");
    p.print_type(m.value_type(m.operand(op, 0)));
    Ok(())
}

fn verify_splat(m: &Module, op: Op) -> Result<(), String> {
    let (s, v) = (m.value_type(m.operand(op, 0)), m.value_type(m.result(op, 0)));
    match (s.as_scalar(), v.as_vector()) {
        (Some(e), Some(vt)) if e == vt.elem => Ok(()),
        _ => Err(format!("cannot splat {s} into {v}")),
    }
}

fn lane_types(m: &Module, op: Op, vector_operand: usize, scalar: &Type) -> Result<(), String> {
    let v = m.value_type(m.operand(op, vector_operand));
    let vt = v.as_vector().ok_or_else(|| format!("expected a vector, got {v}"))?;
    if *scalar != Type::Scalar(vt.elem) {
        return Err(format!("lane type {scalar} differs from the element type of {v}"));
    }
    if let Some(i) = m.attr(op, "index").and_then(|a| a.as_i64())
        && (i < 0 || i >= vt.lanes as i64)
    {
        return Err(format!("lane {i} is out of range for {v}"));
    }
    Ok(())
}

fn verify_reduce(m: &Module, op: Op) -> Result<(), String> {
    lane_types(m, op, 0, m.value_type(m.result(op, 0)))
}

fn verify_extract(m: &Module, op: Op) -> Result<(), String> {
    lane_types(m, op, 0, m.value_type(m.result(op, 0)))
}

fn infer_insert(sig: &Signature) -> Result<Vec<Type>, String> {
    Ok(vec![sig.operand(1)?.clone()])
}

fn verify_insert(m: &Module, op: Op) -> Result<(), String> {
    lane_types(m, op, 1, m.value_type(m.operand(op, 0)))
}

pub static LOAD: OpDef = OpDef {
    name: "vector.load",
    summary: "Loads N consecutive elements along the innermost dimension, starting at the indices",
    description: "`{readonly}` as for `loop.load`.",
    operands: Arity::AtLeast(1),
    attrs: tcc_ir::indexed::LOAD_ATTRS,
    verify: Some(verify_load),
    syntax: Syntax::Custom { parse: parse_load, print: print_load },
    dialect_data: Some(&VectorOp::Load),
    ..OpDef::DEFAULT
};

pub static STORE: OpDef = OpDef {
    name: "vector.store",
    summary: "Stores N consecutive elements along the innermost dimension, starting at the indices",
    operands: Arity::AtLeast(2),
    results: Arity::Exactly(0),
    verify: Some(verify_store),
    syntax: Syntax::Custom { parse: parse_store, print: print_store },
    dialect_data: Some(&VectorOp::Store),
    ..OpDef::DEFAULT
};

pub static SPLAT: OpDef = OpDef {
    name: "vector.splat",
    summary: "A vector with every lane equal to the scalar",
    operands: Arity::Exactly(1),
    traits: Traits::PURE,
    verify: Some(verify_splat),
    syntax: Syntax::Functional,
    dialect_data: Some(&VectorOp::Splat),
    ..OpDef::DEFAULT
};

pub static REDUCE: OpDef = OpDef {
    name: "vector.reduce",
    summary: "Combines the lanes with `kind` (add, mul, max, min; max/min propagate NaN)",
    operands: Arity::Exactly(1),
    attrs: &[AttrSpec::required("kind", AttrKind::Enum(&["add", "mul", "max", "min"]), "the combining operation")],
    traits: Traits::PURE.union(Traits::REDUCTION),
    verify: Some(verify_reduce),
    syntax: Syntax::Functional,
    dialect_data: Some(&VectorOp::Reduce),
    ..OpDef::DEFAULT
};

pub static EXTRACT: OpDef = OpDef {
    name: "vector.extract",
    summary: "Lane `index` of a vector",
    operands: Arity::Exactly(1),
    attrs: &[AttrSpec::required("index", AttrKind::Int, "the lane")],
    traits: Traits::PURE,
    verify: Some(verify_extract),
    syntax: Syntax::Functional,
    dialect_data: Some(&VectorOp::Extract),
    ..OpDef::DEFAULT
};

pub static INSERT: OpDef = OpDef {
    name: "vector.insert",
    summary: "The vector with lane `index` replaced by the scalar",
    operands: Arity::Exactly(2),
    attrs: &[AttrSpec::required("index", AttrKind::Int, "the lane")],
    traits: Traits::PURE,
    infer: Some(infer_insert),
    verify: Some(verify_insert),
    syntax: Syntax::Functional,
    dialect_data: Some(&VectorOp::Insert),
    ..OpDef::DEFAULT
};

fn verify_shuffle(m: &Module, op: Op) -> Result<(), String> {
    let (a, b, r) = (m.value_type(m.operand(op, 0)), m.value_type(m.operand(op, 1)), m.value_type(m.result(op, 0)));
    let va = a.as_vector().ok_or_else(|| format!("expected vectors, got {a}"))?;
    if a != b || a != r {
        return Err(format!("operands and result must have one vector type, got {a}, {b} -> {r}"));
    }
    let mask = m.attr(op, "mask").and_then(|x| x.as_i64_list()).ok_or("requires attribute 'mask'")?;
    if mask.len() != va.lanes as usize || mask.iter().any(|&i| i < 0 || i >= 2 * va.lanes as i64) {
        return Err(format!("mask must have {} lanes, each below {}", va.lanes, 2 * va.lanes));
    }
    Ok(())
}

fn infer_shuffle(sig: &Signature) -> Result<Vec<Type>, String> {
    Ok(vec![sig.operand(0)?.clone()])
}

pub static SHUFFLE: OpDef = OpDef {
    name: "vector.shuffle",
    summary: "Lane `i` of the result is lane `mask[i]` of the concatenation of the two operands",
    description: "```mlir
%lo = vector.shuffle %a, %b {mask = [0, 4, 1, 5]} : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
```",
    operands: Arity::Exactly(2),
    attrs: &[AttrSpec::required("mask", AttrKind::IntList, "source lane of each result lane")],
    traits: Traits::PURE,
    infer: Some(infer_shuffle),
    verify: Some(verify_shuffle),
    syntax: Syntax::Functional,
    dialect_data: Some(&VectorOp::Shuffle),
    ..OpDef::DEFAULT
};

pub static ALL: &[&OpDef] = &[&LOAD, &STORE, &SPLAT, &REDUCE, &EXTRACT, &INSERT, &SHUFFLE];

pub fn register(registry: &mut Registry) {
    registry.register_all(ALL);
}

/// The kind of a vector-dialect op, carried on its definition.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum VectorOp {
    Load,
    Store,
    Splat,
    Reduce,
    Extract,
    Insert,
    Shuffle,
}

/// The kind of a vector-dialect op definition; `None` for ops of other dialects.
pub fn op_kind(def: &OpDef) -> Option<VectorOp> {
    def.data::<VectorOp>().copied()
}

/// The combining function of a `vector.reduce` (its `kind`: add, mul, max or min).
pub fn reduce_combine(m: &Module, op: Op) -> ScalarFn {
    match m.attr(op, "kind").and_then(|a| a.as_str()) {
        Some("mul") => ScalarFn::Mul,
        Some("max") => ScalarFn::Max,
        Some("min") => ScalarFn::Min,
        _ => ScalarFn::Add,
    }
}

/// The `kind` attribute of a `vector.reduce` combining with `f` (add, mul, max or min).
pub fn reduce_kind(f: ScalarFn) -> Attribute {
    Attribute::string(f.name())
}
