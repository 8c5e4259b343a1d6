//! Canonicalization patterns of the graph dialect.
//!
//! - `constant-fold`: an op whose operands are all small constants is evaluated by the
//!   reference interpreter and replaced by `graph.constant`s.
//! - `*-identity`: ops that provably return their operand unchanged (reshape or
//!   broadcast to the same type, identity transpose, full slice, zero pad, same-type
//!   cast, single-operand concat, single-result split, same-layout transform) are
//!   replaced by the operand; `arith-identity` removes `x * 1`, `x / 1`, `x - 0` and
//!   `x + (-0)` (not `x + 0`: `-0 + 0` is `+0`).
//! - `transpose-of-transpose` and `reshape-of-reshape` compose a pair into one op.
//!
//! Each op's `OpDef::patterns` lists the patterns that apply to it.

use tcc_ir::{Attribute, Op, OperationState, Pattern, Rewriter, Scalar, Value};

use crate::interp::eval_op;
use crate::interp::tensor::Tensor;
use crate::ops;

/// Largest result (in elements) constant folding will materialize.
pub const FOLD_MAX_RESULT_ELEMENTS: usize = 1 << 16;
/// Largest total operand size (in elements) constant folding will read.
pub const FOLD_MAX_INPUT_ELEMENTS: usize = 1 << 20;

pub static CONSTANT_FOLD: Pattern = Pattern { name: "constant-fold", apply: constant_fold };
pub static ARITH_IDENTITY: Pattern = Pattern { name: "arith-identity", apply: arith_identity };
pub static SAME_TYPE_IDENTITY: Pattern = Pattern { name: "same-type-identity", apply: same_type_identity };
pub static TRANSPOSE_IDENTITY: Pattern = Pattern { name: "transpose-identity", apply: transpose_identity };
pub static TRANSPOSE_OF_TRANSPOSE: Pattern = Pattern { name: "transpose-of-transpose", apply: transpose_of_transpose };
pub static RESHAPE_OF_RESHAPE: Pattern = Pattern { name: "reshape-of-reshape", apply: reshape_of_reshape };
pub static CONCAT_SINGLE: Pattern = Pattern { name: "concat-single", apply: concat_single };
pub static SPLIT_SINGLE: Pattern = Pattern { name: "split-single", apply: split_single };
pub static LAYOUT_IDENTITY: Pattern = Pattern { name: "layout-identity", apply: layout_identity };

pub static FOLD_ONLY: &[Pattern] = &[CONSTANT_FOLD];
pub static ELEMENTWISE: &[Pattern] = &[CONSTANT_FOLD, ARITH_IDENTITY];
pub static CAST: &[Pattern] = &[CONSTANT_FOLD, SAME_TYPE_IDENTITY];
pub static RESHAPE: &[Pattern] = &[CONSTANT_FOLD, SAME_TYPE_IDENTITY, RESHAPE_OF_RESHAPE];
pub static TRANSPOSE: &[Pattern] = &[CONSTANT_FOLD, TRANSPOSE_IDENTITY, TRANSPOSE_OF_TRANSPOSE];
pub static BROADCAST: &[Pattern] = &[CONSTANT_FOLD, SAME_TYPE_IDENTITY];
pub static SLICE: &[Pattern] = &[CONSTANT_FOLD, SAME_TYPE_IDENTITY];
pub static PAD: &[Pattern] = &[CONSTANT_FOLD, SAME_TYPE_IDENTITY];
pub static CONCAT: &[Pattern] = &[CONSTANT_FOLD, CONCAT_SINGLE];
pub static SPLIT: &[Pattern] = &[CONSTANT_FOLD, SPLIT_SINGLE];
pub static LAYOUT: &[Pattern] = &[CONSTANT_FOLD, LAYOUT_IDENTITY];

/// The constant behind `v`, if `v` is produced by `graph.constant`.
pub fn constant_value(rw: &Rewriter, v: Value) -> Option<tcc_ir::DenseElements> {
    let def = rw.defining_op(v)?;
    if !rw.is(def, &ops::CONSTANT) {
        return None;
    }
    rw.attr(def, "value")?.as_dense().cloned()
}

fn constant_fold(rw: &mut Rewriter, op: Op) -> bool {
    if rw.is(op, &ops::CONSTANT) || rw.operands(op).is_empty() {
        return false;
    }
    let Some(values) = rw.operands(op).iter().map(|&v| constant_value(rw, v)).collect::<Option<Vec<_>>>() else {
        return false;
    };
    let input_elems: usize = values.iter().map(|d| d.numel()).sum();
    let result_types: Vec<_> = rw.results(op).iter().map(|&r| rw.value_type(r).clone()).collect();
    let small = result_types
        .iter()
        .all(|t| t.as_tensor().is_some_and(|t| t.numel() <= FOLD_MAX_RESULT_ELEMENTS && t.encoding().is_none()));
    if input_elems > FOLD_MAX_INPUT_ELEMENTS || !small {
        return false;
    }
    let Ok(inputs) = values.iter().map(Tensor::from_dense).collect::<Result<Vec<_>, _>>() else {
        return false;
    };
    // An op that fails to evaluate (say, integer division by zero) is left for run time.
    let Ok(outputs) = eval_op(rw, op, &inputs) else {
        return false;
    };
    let loc = rw.loc(op).clone();
    let mut replacements = Vec::new();
    for (t, ty) in outputs.iter().zip(result_types) {
        let mut state = OperationState::new(&ops::CONSTANT, loc.clone());
        state.attrs.set("value", Attribute::Dense(t.to_dense()));
        state.result_types.push(ty);
        let c = rw.create_before(op, state);
        replacements.push(rw.result(c, 0));
    }
    rw.replace_op(op, &replacements);
    true
}

/// Replaces `op` by its operand `i` if their types are equal.
fn forward_operand(rw: &mut Rewriter, op: Op, i: usize) -> bool {
    let x = rw.operand(op, i);
    let r = rw.result(op, 0);
    if rw.results(op).len() != 1 || rw.value_type(x) != rw.value_type(r) {
        return false;
    }
    rw.replace_op(op, &[x]);
    true
}

/// Whether `v` is a constant whose every element equals `target` (bitwise for floats,
/// so `-0.0` and `+0.0` differ).
fn is_splat_of(rw: &Rewriter, v: Value, target: f64) -> bool {
    let Some(d) = constant_value(rw, v) else { return false };
    if d.numel() == 0 || !d.all_equal() {
        return false;
    }
    match d.get(0) {
        Scalar::Float(x) => x.to_bits() == target.to_bits(),
        Scalar::Int(x) => x as f64 == target,
    }
}

fn arith_identity(rw: &mut Rewriter, op: Op) -> bool {
    if ![&ops::ADD, &ops::SUB, &ops::MUL, &ops::DIV].iter().any(|d| rw.is(op, d)) {
        return false;
    }
    let (a, b) = (rw.operand(op, 0), rw.operand(op, 1));
    let is_int = rw.value_type(a).elem().is_some_and(|e| e.is_integer());
    let zero = |rw: &Rewriter, v, negative: bool| is_splat_of(rw, v, if negative && !is_int { -0.0 } else { 0.0 });
    if rw.is(op, &ops::ADD) {
        (zero(rw, b, true) && forward_operand(rw, op, 0)) || (zero(rw, a, true) && forward_operand(rw, op, 1))
    } else if rw.is(op, &ops::SUB) {
        zero(rw, b, false) && forward_operand(rw, op, 0)
    } else if rw.is(op, &ops::MUL) {
        (is_splat_of(rw, b, 1.0) && forward_operand(rw, op, 0))
            || (is_splat_of(rw, a, 1.0) && forward_operand(rw, op, 1))
    } else if rw.is(op, &ops::DIV) {
        is_splat_of(rw, b, 1.0) && forward_operand(rw, op, 0)
    } else {
        false
    }
}

fn same_type_identity(rw: &mut Rewriter, op: Op) -> bool {
    forward_operand(rw, op, 0)
}

fn perm_of(rw: &Rewriter, op: Op) -> Option<Vec<i64>> {
    rw.attr(op, "perm")?.as_i64_list()
}

fn transpose_identity(rw: &mut Rewriter, op: Op) -> bool {
    let identity = perm_of(rw, op).is_some_and(|p| p.iter().enumerate().all(|(i, &v)| v == i as i64));
    identity && forward_operand(rw, op, 0)
}

fn transpose_of_transpose(rw: &mut Rewriter, op: Op) -> bool {
    let Some(inner) = rw.defining_op(rw.operand(op, 0)).filter(|&d| rw.is(d, &ops::TRANSPOSE)) else { return false };
    let (Some(outer_perm), Some(inner_perm)) = (perm_of(rw, op), perm_of(rw, inner)) else { return false };
    // out dim k = inner dim outer[k] = x dim inner[outer[k]].
    let composed: Vec<i64> = outer_perm.iter().map(|&k| inner_perm[k as usize]).collect();
    let x = rw.operand(inner, 0);
    rw.set_operand(op, 0, x);
    rw.set_attr(op, "perm", Attribute::i64_list(&composed));
    true
}

fn reshape_of_reshape(rw: &mut Rewriter, op: Op) -> bool {
    let Some(inner) = rw.defining_op(rw.operand(op, 0)).filter(|&d| rw.is(d, &ops::RESHAPE)) else { return false };
    let x = rw.operand(inner, 0);
    rw.set_operand(op, 0, x);
    true
}

fn concat_single(rw: &mut Rewriter, op: Op) -> bool {
    rw.operands(op).len() == 1 && forward_operand(rw, op, 0)
}

fn split_single(rw: &mut Rewriter, op: Op) -> bool {
    rw.results(op).len() == 1 && forward_operand(rw, op, 0)
}

fn layout_identity(rw: &mut Rewriter, op: Op) -> bool {
    let same = rw.attr(op, "src").is_some() && rw.attr(op, "src") == rw.attr(op, "dst");
    same && forward_operand(rw, op, 0)
}
