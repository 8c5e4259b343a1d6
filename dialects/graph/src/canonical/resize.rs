//! `bilinear-resize`: torch-mlir's export of bilinear resizing (`F.interpolate(x, ..,
//! mode="bilinear")`, the last op of every torchvision segmentation model) becomes one
//! `graph.resize_bilinear`. The export gathers the four corner pixels of every output
//! pixel from the flattened image with index tensors as large as the output (four
//! 1M-element gathers for 21 classes at 224x224), then blends them along W and along H:
//!
//! ```text
//! top    = g00 + (g01 - g00) * wx      g_yx = reshape(gather(reshape(x), i_yx))
//! bottom = g10 + (g11 - g10) * wx
//! out    = top + (bottom - top) * wy
//! ```
//!
//! The pattern matches that shape at the last `add` (either operand order of each add
//! and mul), evaluates the four index tensors (constants, or expressions of constants,
//! which it evaluates with the reference interpreter) and the weights, and rewrites only
//! when they are exactly what `graph.resize_bilinear` computes for one of its two
//! coordinate conventions ([`bilinear_taps`]): the rewrite is checked on the numbers,
//! not trusted on the shape.

use tcc_ir::{AttrDict, Attribute, Op, Pattern, Rewriter, ScalarType, Traits, Value};

use super::{FOLD_MAX_INDEX_ELEMENTS, build, constant_value};
use crate::interp::eval_op;
use crate::interp::tensor::Tensor;
use crate::ops;
use crate::ops::nn::{Tap, bilinear_taps};

pub static BILINEAR_RESIZE: Pattern = Pattern { name: "bilinear-resize", apply: bilinear_resize };

fn bilinear_resize(rw: &mut Rewriter, op: Op) -> bool {
    try_bilinear_resize(rw, op).is_some()
}

fn try_bilinear_resize(rw: &mut Rewriter, op: Op) -> Option<()> {
    let (top, bottom, wy) = blend(rw, rw.result(op, 0))?;
    let (g00, g01, wx) = blend(rw, top)?;
    let (g10, g11, wx_bottom) = blend(rw, bottom)?;
    if wx_bottom != wx {
        return None;
    }
    let out = shape(rw, rw.result(op, 0))?;
    let corners =
        [g00, g01, g10, g11].iter().map(|&g| gathered(rw, g, &out)).collect::<Option<Vec<(Value, Value)>>>()?;
    let x = corners[0].0;
    if corners.iter().any(|&(xc, _)| xc != x) {
        return None;
    }
    let xs = shape(rw, x)?;
    let empty = xs.len() != 4 || xs[2] == 0 || xs[3] == 0;
    if empty || xs[..2] != out[..2] || rw.value_type(x).as_tensor()?.elem() != ScalarType::F32 {
        return None;
    }
    // The weights: along W on the inner blends, along H on the outer one.
    let wx = axis_weights(rw, wx, &out, 3)?;
    let wy = axis_weights(rw, wy, &out, 2)?;
    let (h, w, planes) = (xs[2] as usize, xs[3] as usize, (xs[0] * xs[1]) as usize);
    let taps = |align| (bilinear_taps(h, out[2] as usize, align), bilinear_taps(w, out[3] as usize, align));
    let weighs = |(rows, cols): &(Vec<Tap>, Vec<Tap>)| {
        rows.iter().map(|t| t.w).eq(wy.iter().copied()) && cols.iter().map(|t| t.w).eq(wx.iter().copied())
    };
    let conventions: Vec<bool> = [false, true].into_iter().filter(|&align| weighs(&taps(align))).collect();
    if conventions.is_empty() {
        return None;
    }
    // The four corners' flat indices: (row, column) of (lo, lo), (lo, hi), (hi, lo), (hi, hi).
    let indices =
        corners.iter().map(|&(_, i)| Some(evaluate(rw, i, 0)?.to_i64s())).collect::<Option<Vec<Vec<i64>>>>()?;
    let picks: [(fn(&Tap) -> usize, fn(&Tap) -> usize); 4] =
        [(|t| t.lo, |t| t.lo), (|t| t.lo, |t| t.hi), (|t| t.hi, |t| t.lo), (|t| t.hi, |t| t.hi)];
    let align_corners = conventions.into_iter().find(|&align| {
        let (rows, cols) = &taps(align);
        indices.iter().zip(picks).all(|(indices, (row, col))| {
            let expected = (0..planes).flat_map(|p| {
                rows.iter().flat_map(move |r| cols.iter().map(move |c| ((p * h + row(r)) * w + col(c)) as i64))
            });
            indices.iter().copied().eq(expected)
        })
    })?;
    let attrs = AttrDict::new()
        .with("size", Attribute::i64_list(&out[2..]))
        .with("align_corners", Attribute::Bool(align_corners));
    let r = build(rw, op, &ops::RESIZE_BILINEAR, &[x], attrs)?;
    if rw.value_type(r) != rw.value_type(rw.result(op, 0)) {
        return None;
    }
    rw.replace_op(op, &[r]);
    Some(())
}

/// The shape of a plain tensor value.
fn shape(rw: &Rewriter, v: Value) -> Option<Vec<i64>> {
    rw.value_type(v).as_tensor().filter(|t| t.encoding().is_none()).map(|t| t.shape().to_vec())
}

/// The op defining `v`, if it is a `def`.
fn defined_by(rw: &Rewriter, v: Value, def: &tcc_ir::OpDef) -> Option<Op> {
    rw.defining_op(v).filter(|&o| rw.is(o, def))
}

/// `v = p + (q - p) * t` (either operand order of the add and the mul): `(p, q, t)`.
fn blend(rw: &Rewriter, v: Value) -> Option<(Value, Value, Value)> {
    let add = defined_by(rw, v, &ops::ADD)?;
    let (a, b) = (rw.operand(add, 0), rw.operand(add, 1));
    [(a, b), (b, a)].into_iter().find_map(|(p, m)| {
        let mul = defined_by(rw, m, &ops::MUL)?;
        let (m0, m1) = (rw.operand(mul, 0), rw.operand(mul, 1));
        [(m0, m1), (m1, m0)].into_iter().find_map(|(s, t)| {
            let sub = defined_by(rw, s, &ops::SUB)?;
            (rw.operand(sub, 1) == p).then(|| (p, rw.operand(sub, 0), t))
        })
    })
}

/// `g = reshape(gather(reshape(x), indices))` to the shape `out`, the gather taking one
/// element of the flattened `x` per index: `(x, indices)`.
fn gathered(rw: &Rewriter, g: Value, out: &[i64]) -> Option<(Value, Value)> {
    let reshape = defined_by(rw, g, &ops::RESHAPE)?;
    let gather = defined_by(rw, rw.operand(reshape, 0), &ops::GATHER)?;
    let (table, indices) = (rw.operand(gather, 0), rw.operand(gather, 1));
    let flat = defined_by(rw, table, &ops::RESHAPE)?;
    let x = rw.operand(flat, 0);
    let (ts, xs) = (shape(rw, table)?, shape(rw, x)?);
    let axis = rw.attr(gather, "axis")?.as_i64()?;
    let axis = usize::try_from(if axis < 0 { axis + ts.len() as i64 } else { axis }).ok()?;
    let numel = |s: &[i64]| s.iter().product::<i64>();
    let one_column = ts.get(axis) == Some(&numel(&xs)) && numel(&ts) == numel(&xs);
    let result = shape(rw, g)? == out && numel(&shape(rw, indices)?) == numel(out);
    (one_column && result).then_some((x, indices))
}

/// The f32 weights of `t`, a constant that varies along `axis` of `out` only.
fn axis_weights(rw: &Rewriter, t: Value, out: &[i64], axis: usize) -> Option<Vec<f32>> {
    let d = constant_value(rw, t)?;
    let s = d.ty().shape();
    let offset = out.len().checked_sub(s.len())?;
    let along = |k: usize| s.iter().enumerate().all(|(i, &n)| n == 1 || (i + offset == k && n == out[k]));
    if !along(axis) {
        return None;
    }
    let values = d.to_f32s()?;
    if values.len() == 1 {
        return Some(vec![values[0]; out[axis] as usize]);
    }
    Some(values)
}

/// The value of `v` if it is computed from constants only by single-result ops without
/// regions, each result at most [`FOLD_MAX_INDEX_ELEMENTS`] elements (by the reference
/// interpreter; 16 ops deep at most).
fn evaluate(rw: &Rewriter, v: Value, depth: usize) -> Option<Tensor> {
    if let Some(d) = constant_value(rw, v) {
        return Tensor::from_dense(&d).ok();
    }
    let op = rw.defining_op(v)?;
    let pure = rw.has_trait(op, Traits::PURE) && rw.regions(op).is_empty() && rw.results(op).len() == 1;
    let small = rw.value_type(v).as_tensor().is_some_and(|t| t.numel() <= FOLD_MAX_INDEX_ELEMENTS);
    if depth >= 16 || !pure || !small {
        return None;
    }
    let inputs = rw.operands(op).iter().map(|&x| evaluate(rw, x, depth + 1)).collect::<Option<Vec<_>>>()?;
    eval_op(rw, op, &inputs).ok()?.into_iter().next()
}
