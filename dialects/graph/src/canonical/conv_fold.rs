//! `fold-into-conv`: batch norm after a convolution, folded into its weights and bias.
//!
//! Exporters write inference batch norm as `sub`, `mul`, `mul`, `add` by per-channel
//! constants of shape [1, O, 1, 1] after the conv. When the conv's weights and bias are
//! constants and its result feeds only the op, each of these becomes part of the conv:
//!
//! - `conv(x, W, b) + c` -> `conv(x, W, b + c)` (and `-`: `b - c`)
//! - `conv(x, W, b) * c` -> `conv(x, W * c[o], b * c)`
//!
//! The new weights and bias are built as graph ops on constants, which constant folding
//! then evaluates, so the arithmetic is the reference interpreter's. Unlike the other
//! patterns this one is not bit-exact: `(x * w) * c` becomes `x * (w * c)`, which
//! rounds differently in the last bits and may flip the sign of an exact zero result.

use tcc_ir::{AttrDict, Attribute, Op, Pattern, Rewriter, Value};

use super::{build, constant_value};
use crate::ops;

pub static FOLD_INTO_CONV: Pattern = Pattern { name: "fold-into-conv", apply: fold_into_conv };

#[derive(Copy, Clone, PartialEq)]
enum Affine {
    Add,
    Sub,
    Mul,
}

fn fold_into_conv(rw: &mut Rewriter, op: Op) -> bool {
    let kind = if rw.is(op, &ops::ADD) {
        Affine::Add
    } else if rw.is(op, &ops::SUB) {
        Affine::Sub
    } else if rw.is(op, &ops::MUL) {
        Affine::Mul
    } else {
        return false;
    };
    // conv - c folds; c - conv would need a negated conv: left alone.
    let sides: &[usize] = if kind == Affine::Sub { &[0] } else { &[0, 1] };
    for &side in sides {
        let (y, c) = (rw.operand(op, side), rw.operand(op, 1 - side));
        if let Some(conv) = foldable_conv(rw, op, y, c) {
            return fold(rw, op, conv, c, kind);
        }
    }
    false
}

/// The conv producing `y` if `op` = `y (+-*) c` can fold into it: `y` has no other
/// use, the conv's weights and bias are constants, and `c` is a constant that varies
/// at most along the output channels without broadcasting `y`.
fn foldable_conv(rw: &Rewriter, op: Op, y: Value, c: Value) -> Option<Op> {
    let conv = rw.defining_op(y).filter(|&d| rw.is(d, &ops::CONV2D))?;
    if rw.uses(y).len() != 1 || rw.value_type(y) != rw.value_type(rw.result(op, 0)) {
        return None;
    }
    if !rw.operands(conv)[1..].iter().all(|&v| constant_value(rw, v).is_some()) {
        return None;
    }
    let cd = constant_value(rw, c)?;
    // A zero or non-finite scale is left alone: moving it into the weights would
    // change how NaN, infinities and signed zeros come out.
    if rw.is(op, &ops::MUL) && cd.to_f64s().iter().any(|v| *v == 0.0 || !v.is_finite()) {
        return None;
    }
    let out = rw.value_type(y).as_tensor()?;
    let channels = out.shape()[1];
    let shape = cd.ty().shape();
    if shape.len() > out.rank() {
        return None;
    }
    let offset = out.rank() - shape.len();
    let per_channel = shape.iter().enumerate().all(|(i, &d)| d == 1 || (i + offset == 1 && d == channels));
    per_channel.then_some(conv)
}

fn fold(rw: &mut Rewriter, op: Op, conv: Op, c: Value, kind: Affine) -> bool {
    let none = AttrDict::new;
    let shape_attr = |shape: &[i64]| {
        let mut a = AttrDict::new();
        a.set("shape", Attribute::i64_list(shape));
        a
    };
    let y = rw.result(conv, 0);
    let channels = rw.value_type(y).as_tensor().map_or(0, |t| t.shape()[1]);
    let numel = rw.value_type(c).as_tensor().map_or(0, |t| t.numel()) as i64;
    // c as a vector over the output channels.
    let Some(mut cv) = build(rw, op, &ops::RESHAPE, &[c], shape_attr(&[numel])) else { return false };
    if numel != channels {
        let mut a = AttrDict::new();
        a.set("shape", Attribute::i64_list(&[channels]));
        let Some(b) = build(rw, op, &ops::BROADCAST_TO, &[cv], a) else { return false };
        cv = b;
    }
    let operands = rw.operands(conv).to_vec();
    let (x, mut w, bias) = (operands[0], operands[1], operands.get(2).copied());
    let new_bias = match (kind, bias) {
        (Affine::Add, Some(b)) => build(rw, op, &ops::ADD, &[b, cv], none()),
        (Affine::Add, None) => Some(cv),
        (Affine::Sub, Some(b)) => build(rw, op, &ops::SUB, &[b, cv], none()),
        (Affine::Sub, None) => build(rw, op, &ops::NEG, &[cv], none()),
        (Affine::Mul, Some(b)) => build(rw, op, &ops::MUL, &[b, cv], none()),
        (Affine::Mul, None) => None,
    };
    if kind == Affine::Mul {
        let Some(scale) = build(rw, op, &ops::RESHAPE, &[cv], shape_attr(&[channels, 1, 1, 1])) else { return false };
        let Some(scaled) = build(rw, op, &ops::MUL, &[w, scale], none()) else { return false };
        w = scaled;
    }
    let mut new_operands = vec![x, w];
    new_operands.extend(new_bias);
    if new_operands.len() == 2 && bias.is_some() {
        return false;
    }
    let attrs = rw.attrs(conv).clone();
    let Some(r) = build(rw, op, &ops::CONV2D, &new_operands, attrs) else { return false };
    rw.replace_op(op, &[r]);
    true
}
