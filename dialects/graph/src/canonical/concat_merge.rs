//! A concat of like ops becomes one op over a concat: the per-group convolutions
//! exporters write for grouped convolutions merge back into one.
//!
//! torch-mlir lowers `nn.Conv2d(groups = G)` to TOSA as G channel slices of the input,
//! G convolutions and a concat of their results, each in NHWC between transposes. A
//! RegNet is then ~400 small convolutions instead of ~20, each its own kernel: slow to
//! run and to compile. Two patterns on `graph.concat` undo it:
//!
//! - `concat-of-transposes`: `concat(T(a1), ..., T(an), axis)` ->
//!   `T(concat(a1, ..., an, perm[axis]))` when every operand is a single-use transpose
//!   with the same permutation; the transpose then meets the one after the concat
//!   (`transpose-of-transpose`).
//! - `concat-of-convs`: `concat(conv(slice_1(x), w1, b1), ..., conv(slice_n(x), wn, bn),
//!   axis = 1)` -> `conv(x, concat(w_i), concat(b_i), groups = n * g)` when the slices
//!   cut `x`'s channels into n equal consecutive pieces in order (and nothing else), and
//!   the convolutions have the same attributes, `groups = g` and weight shapes, and
//!   each feeds only the concat. Output channel `o` of piece `i` reads the same input
//!   channels with the same weights before and after, so the result is the same
//!   element for element.

use tcc_ir::{AttrDict, Attribute, Op, Pattern, Rewriter, Value};

use super::build;
use crate::ops;

pub static CONCAT_OF_TRANSPOSES: Pattern = Pattern { name: "concat-of-transposes", apply: concat_of_transposes };
pub static CONCAT_OF_CONVS: Pattern = Pattern { name: "concat-of-convs", apply: concat_of_convs };

/// The concat's axis in `0..rank`.
fn concat_axis(rw: &Rewriter, op: Op) -> Option<usize> {
    let rank = rw.value_type(rw.result(op, 0)).as_tensor()?.rank() as i64;
    let axis = rw.attr(op, "axis")?.as_i64()?;
    let axis = if axis < 0 { axis + rank } else { axis };
    (0..rank).contains(&axis).then_some(axis as usize)
}

/// The ops defining every operand of `op`, when each is a `def` used only by `op`
/// (once).
fn single_use_producers(rw: &Rewriter, op: Op, def: &tcc_ir::OpDef) -> Option<Vec<Op>> {
    let operands = rw.operands(op);
    if operands.len() < 2 {
        return None;
    }
    operands
        .iter()
        .map(|&v| rw.defining_op(v).filter(|&d| rw.is(d, def) && rw.uses(v).len() == 1 && rw.results(d).len() == 1))
        .collect()
}

fn concat_of_transposes(rw: &mut Rewriter, op: Op) -> bool {
    let Some(axis) = concat_axis(rw, op) else { return false };
    let Some(transposes) = single_use_producers(rw, op, &ops::TRANSPOSE) else { return false };
    let perm = rw.attr(transposes[0], "perm").and_then(|a| a.as_i64_list());
    let Some(perm) = perm.filter(|_| transposes.iter().all(|&t| rw.attr(t, "perm") == rw.attr(transposes[0], "perm")))
    else {
        return false;
    };
    let inputs: Vec<Value> = transposes.iter().map(|&t| rw.operand(t, 0)).collect();
    let mut a = AttrDict::new();
    a.set("axis", Attribute::i64(perm[axis]));
    let Some(c) = build(rw, op, &ops::CONCAT, &inputs, a) else { return false };
    let mut a = AttrDict::new();
    a.set("perm", Attribute::i64_list(&perm));
    let Some(t) = build(rw, op, &ops::TRANSPOSE, &[c], a) else { return false };
    rw.replace_op(op, &[t]);
    true
}

/// The convolution attributes that must agree for the merge.
const CONV_ATTRS: [&str; 4] = ["strides", "pads", "dilations", "groups"];

fn concat_of_convs(rw: &mut Rewriter, op: Op) -> bool {
    if concat_axis(rw, op) != Some(1) {
        return false;
    }
    let Some(convs) = single_use_producers(rw, op, &ops::CONV2D) else { return false };
    let first = convs[0];
    let n = convs.len();
    let same = |c: Op| {
        CONV_ATTRS.iter().all(|name| rw.attr_or_default(c, name) == rw.attr_or_default(first, name))
            && rw.operands(c).len() == rw.operands(first).len()
            && rw.value_type(rw.operand(c, 1)) == rw.value_type(rw.operand(first, 1))
    };
    if !convs.iter().all(|&c| same(c)) {
        return false;
    }
    // The inputs: slices of one x along the channels, n equal pieces in order.
    let Some(slices) = convs
        .iter()
        .map(|&c| rw.defining_op(rw.operand(c, 0)).filter(|&s| rw.is(s, &ops::SLICE)))
        .collect::<Option<Vec<_>>>()
    else {
        return false;
    };
    let x = rw.operand(slices[0], 0);
    let Some(shape) = rw.value_type(x).as_tensor().map(|t| t.shape().to_vec()) else { return false };
    if shape.len() != 4 || shape[1] % n as i64 != 0 {
        return false;
    }
    let piece = shape[1] / n as i64;
    let cuts_piece = |i: usize, s: Op| {
        let list = |name: &str| rw.attr_or_default(s, name).and_then(|a| a.as_i64_list());
        let unit_steps = list("steps").is_none_or(|st| st.iter().all(|&k| k == 1));
        let starts = [0, i as i64 * piece, 0, 0];
        let sizes = [shape[0], piece, shape[2], shape[3]];
        rw.operand(s, 0) == x
            && unit_steps
            && list("starts").as_deref() == Some(&starts[..])
            && list("sizes").as_deref() == Some(&sizes[..])
    };
    if !slices.iter().enumerate().all(|(i, &s)| cuts_piece(i, s)) {
        return false;
    }
    let Some(groups) = rw.attr_or_default(first, "groups").and_then(|a| a.as_i64()) else { return false };
    let mut operands = vec![x];
    for k in 1..rw.operands(first).len() {
        let pieces: Vec<Value> = convs.iter().map(|&c| rw.operand(c, k)).collect();
        let mut a = AttrDict::new();
        a.set("axis", Attribute::i64(0));
        let Some(joined) = build(rw, op, &ops::CONCAT, &pieces, a) else { return false };
        operands.push(joined);
    }
    let mut a = rw.attrs(first).clone();
    a.set("groups", Attribute::i64(groups * n as i64));
    let Some(conv) = build(rw, op, &ops::CONV2D, &operands, a) else { return false };
    if rw.value_type(conv) != rw.value_type(rw.result(op, 0)) {
        return false;
    }
    rw.replace_op(op, &[conv]);
    true
}
