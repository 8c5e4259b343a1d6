//! Shape-inference helpers shared by the graph ops: broadcasting, axis normalization,
//! element type checks. Each returns a message on failure; the verifier locates it.

use tcc_ir::{ScalarType, Signature, TensorType, Type};

use crate::interp::tensor::GRAPH_ELEMENT_TYPES;

/// f16 and bf16 are storage types: the interpreter and `widen-half` compute their ops
/// in f32.
pub const FLOATS: &[ScalarType] = &[ScalarType::F32, ScalarType::F64, ScalarType::F16, ScalarType::BF16];
pub const NUMBERS: &[ScalarType] = &[
    ScalarType::F32,
    ScalarType::F64,
    ScalarType::F16,
    ScalarType::BF16,
    ScalarType::I8,
    ScalarType::I16,
    ScalarType::I32,
    ScalarType::I64,
];
pub const ANY: &[ScalarType] = &GRAPH_ELEMENT_TYPES;
pub const INDICES: &[ScalarType] = &[ScalarType::I32, ScalarType::I64];
/// Element types of the bitwise ops (`i1`: the logical ones).
pub const INTEGERS: &[ScalarType] =
    &[ScalarType::I1, ScalarType::I8, ScalarType::I16, ScalarType::I32, ScalarType::I64];

/// Refuses an element type the graph dialect lacks (one TOSA or MLIR text may use).
pub fn supported_element(elem: ScalarType) -> Result<(), String> {
    if ANY.contains(&elem) {
        return Ok(());
    }
    Err(format!("tcc does not support element type {elem} yet (it has {})", names(ANY)))
}

fn names(types: &[ScalarType]) -> String {
    types.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ")
}

/// Operand `i` as a tensor whose element type is one of `allowed`.
pub fn tensor_of<'a>(sig: &Signature<'a>, i: usize, allowed: &[ScalarType]) -> Result<&'a TensorType, String> {
    let t = sig.tensor(i)?;
    if !allowed.contains(&t.elem()) {
        return Err(format!("operand #{i} has element type {}, expected one of {}", t.elem(), names(allowed)));
    }
    Ok(t)
}

pub fn tensor(shape: Vec<i64>, elem: ScalarType) -> Result<Type, String> {
    Type::tensor(shape, elem)
}

/// numpy broadcasting of two shapes.
pub fn broadcast_shapes(a: &[i64], b: &[i64]) -> Result<Vec<i64>, String> {
    let rank = a.len().max(b.len());
    let mut out = vec![0; rank];
    for i in 0..rank {
        let da = if i + a.len() >= rank { a[i + a.len() - rank] } else { 1 };
        let db = if i + b.len() >= rank { b[i + b.len() - rank] } else { 1 };
        out[i] = match (da, db) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => return Err(format!("shapes {} and {} are not broadcast-compatible", fmt_shape(a), fmt_shape(b))),
        };
    }
    Ok(out)
}

pub fn fmt_shape(s: &[i64]) -> String {
    format!("[{}]", s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "))
}

/// Maps `axis` in `[-rank, rank)` to `[0, rank)`.
pub fn normalize_axis(axis: i64, rank: usize) -> Result<usize, String> {
    let r = rank as i64;
    if axis < -r || axis >= r {
        return Err(format!("axis {axis} is out of range for rank {rank}"));
    }
    Ok(if axis < 0 { (axis + r) as usize } else { axis as usize })
}

/// All operands share one element type; returns it.
pub fn same_elem(sig: &Signature, operands: std::ops::Range<usize>) -> Result<ScalarType, String> {
    let first = sig.tensor(operands.start)?.elem();
    for i in operands {
        let e = sig.tensor(i)?.elem();
        if e != first {
            return Err(format!("operand element types differ: {first} vs {e}"));
        }
    }
    Ok(first)
}

/// Checks that every entry of an attribute list is positive (`> 0`) or non-negative.
pub fn check_all(name: &str, values: &[i64], min: i64) -> Result<(), String> {
    if let Some(v) = values.iter().find(|&&v| v < min) {
        let what = if min > 0 { "positive" } else { "non-negative" };
        return Err(format!("attribute '{name}' must be {what}, got {v}"));
    }
    Ok(())
}
