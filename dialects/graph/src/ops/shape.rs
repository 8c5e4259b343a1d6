//! Data-movement graph ops: constant, reshape, transpose, broadcast_to, concat, split,
//! slice, pad, gather and layout_transform.

use tcc_ir::{Arity, AttrDefault, AttrKind, AttrSpec, Module, Op, OpDef, Signature, Syntax, Traits, Type};

use crate::canonical;
use crate::infer::{
    ANY, INDICES, broadcast_shapes, check_all, fmt_shape, normalize_axis, same_elem, supported_element, tensor,
    tensor_of,
};
use crate::interp::shape as k;
use crate::layout::{transform_layouts_of, transform_sizes};
use crate::{GraphOp, GraphSemantics, LayoutClass};

const MOVE: Traits = Traits::PURE.union(Traits::DATA_MOVEMENT);

fn infer_constant(sig: &Signature) -> Result<Vec<Type>, String> {
    let value =
        sig.attrs.get("value").and_then(|a| a.as_dense()).ok_or("requires attribute 'value' (dense elements)")?;
    supported_element(value.elem())?;
    Ok(vec![Type::from_tensor(value.ty().clone())])
}

/// The reshape target with a single `-1` resolved.
pub fn resolve_reshape(numel: i64, target: &[i64]) -> Result<Vec<i64>, String> {
    let unknown = target.iter().filter(|&&d| d == -1).count();
    if unknown > 1 || target.iter().any(|&d| d < -1) {
        return Err(format!("invalid reshape target {} (at most one -1, no other negatives)", fmt_shape(target)));
    }
    let known =
        target.iter().filter(|&&d| d != -1).try_fold(1i64, |acc, &d| acc.checked_mul(d)).ok_or("shape too large")?;
    let mut out = target.to_vec();
    if unknown == 1 {
        if known == 0 || numel % known != 0 {
            return Err(format!("cannot reshape {numel} elements to {}", fmt_shape(target)));
        }
        *out.iter_mut().find(|d| **d == -1).expect("one -1") = numel / known;
    } else if known != numel {
        return Err(format!("cannot reshape {numel} elements to {}", fmt_shape(target)));
    }
    Ok(out)
}

fn infer_reshape(sig: &Signature) -> Result<Vec<Type>, String> {
    let x = tensor_of(sig, 0, ANY)?;
    let shape = resolve_reshape(x.numel() as i64, &sig.ints("shape")?)?;
    Ok(vec![tensor(shape, x.elem())?])
}

/// Checks that `perm` is a permutation of `0..rank`.
pub fn check_perm(perm: &[i64], rank: usize) -> Result<(), String> {
    let mut seen = vec![false; rank];
    if perm.len() != rank {
        return Err(format!("permutation {} does not match rank {rank}", fmt_shape(perm)));
    }
    for &p in perm {
        if p < 0 || p as usize >= rank || std::mem::replace(&mut seen[p as usize], true) {
            return Err(format!("{} is not a permutation of 0..{rank}", fmt_shape(perm)));
        }
    }
    Ok(())
}

fn infer_transpose(sig: &Signature) -> Result<Vec<Type>, String> {
    let x = tensor_of(sig, 0, ANY)?;
    let perm = sig.ints("perm")?;
    check_perm(&perm, x.rank())?;
    Ok(vec![tensor(perm.iter().map(|&p| x.shape()[p as usize]).collect(), x.elem())?])
}

fn infer_broadcast_to(sig: &Signature) -> Result<Vec<Type>, String> {
    let x = tensor_of(sig, 0, ANY)?;
    let shape = sig.ints("shape")?;
    check_all("shape", &shape, 0)?;
    if x.rank() > shape.len() || broadcast_shapes(x.shape(), &shape)? != shape {
        return Err(format!("cannot broadcast {} to {}", fmt_shape(x.shape()), fmt_shape(&shape)));
    }
    Ok(vec![tensor(shape, x.elem())?])
}

fn infer_concat(sig: &Signature) -> Result<Vec<Type>, String> {
    let first = tensor_of(sig, 0, ANY)?;
    let elem = same_elem(sig, 0..sig.operands.len())?;
    let axis = normalize_axis(sig.int("axis")?, first.rank())?;
    let mut shape = first.shape().to_vec();
    for i in 1..sig.operands.len() {
        let t = sig.tensor(i)?;
        if t.rank() != first.rank() || (0..t.rank()).any(|d| d != axis && t.shape()[d] != first.shape()[d]) {
            return Err(format!(
                "operand #{i} of shape {} does not match {} outside axis {axis}",
                fmt_shape(t.shape()),
                fmt_shape(first.shape())
            ));
        }
        shape[axis] = shape[axis].checked_add(t.shape()[axis]).ok_or("concatenated shape is too large")?;
    }
    Ok(vec![tensor(shape, elem)?])
}

fn infer_split(sig: &Signature) -> Result<Vec<Type>, String> {
    let x = tensor_of(sig, 0, ANY)?;
    let axis = normalize_axis(sig.int("axis")?, x.rank())?;
    let sizes = sig.ints("sizes")?;
    check_all("sizes", &sizes, 0)?;
    let total = sizes.iter().try_fold(0i64, |acc, &s| acc.checked_add(s));
    if sizes.is_empty() || total != Some(x.shape()[axis]) {
        return Err(format!("sizes {} must sum to the axis extent {}", fmt_shape(&sizes), x.shape()[axis]));
    }
    sizes
        .iter()
        .map(|&s| {
            let mut shape = x.shape().to_vec();
            shape[axis] = s;
            tensor(shape, x.elem())
        })
        .collect()
}

/// Starts, sizes and steps of a slice, checked against the input shape.
pub fn slice_params(sig: &Signature, shape: &[i64]) -> Result<(Vec<i64>, Vec<i64>, Vec<i64>), String> {
    let rank = shape.len();
    let starts = sig.ints_n("starts", rank)?;
    let sizes = sig.ints_n("sizes", rank)?;
    let steps = match sig.attrs.get("steps") {
        Some(_) => sig.ints_n("steps", rank)?,
        None => vec![1; rank],
    };
    check_all("steps", &steps, 1)?;
    check_all("sizes", &sizes, 0)?;
    for d in 0..rank {
        let (s, n, st) = (starts[d], sizes[d], steps[d]);
        let last = n.checked_sub(1).and_then(|k| k.checked_mul(st)).and_then(|k| k.checked_add(s));
        let in_range = s >= 0 && s <= shape[d] && (n == 0 || last.is_some_and(|l| l < shape[d]));
        if !in_range {
            return Err(format!(
                "slice of dimension {d} (start {s}, size {n}, step {st}) is out of bounds for extent {}",
                shape[d]
            ));
        }
    }
    Ok((starts, sizes, steps))
}

fn infer_slice(sig: &Signature) -> Result<Vec<Type>, String> {
    let x = tensor_of(sig, 0, ANY)?;
    let (_, sizes, _) = slice_params(sig, x.shape())?;
    Ok(vec![tensor(sizes, x.elem())?])
}

fn infer_pad(sig: &Signature) -> Result<Vec<Type>, String> {
    let x = tensor_of(sig, 0, ANY)?;
    let low = sig.ints_n("low", x.rank())?;
    let high = sig.ints_n("high", x.rank())?;
    check_all("low", &low, 0)?;
    check_all("high", &high, 0)?;
    sig.float("value")?;
    let shape = (0..x.rank())
        .map(|d| {
            x.shape()[d].checked_add(low[d]).and_then(|s| s.checked_add(high[d])).ok_or("padded shape is too large")
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(vec![tensor(shape, x.elem())?])
}

fn infer_gather(sig: &Signature) -> Result<Vec<Type>, String> {
    let x = tensor_of(sig, 0, ANY)?;
    let idx = tensor_of(sig, 1, INDICES)?;
    let axis = normalize_axis(sig.int("axis")?, x.rank())?;
    if x.shape()[axis] == 0 && idx.numel() > 0 {
        return Err("cannot gather from an empty axis".into());
    }
    let mut shape = x.shape()[..axis].to_vec();
    shape.extend_from_slice(idx.shape());
    shape.extend_from_slice(&x.shape()[axis + 1..]);
    Ok(vec![tensor(shape, x.elem())?])
}

/// The result type is written, not inferred: a blocked source can go back to any
/// plain size its blocks hold (the padding is dropped), so only consistency is checked.
fn verify_layout_transform(m: &Module, op: Op) -> Result<(), String> {
    let (x, r) = (m.value_type(m.operand(op, 0)), m.value_type(m.result(op, 0)));
    let (Some(x), Some(r)) = (x.as_tensor(), r.as_tensor()) else {
        return Err("operand and result must be tensors".into());
    };
    if x.elem() != r.elem() {
        return Err(format!("result element type {} differs from the operand's {}", r.elem(), x.elem()));
    }
    let (src, dst) = transform_layouts_of(m.attrs(op))?;
    transform_sizes(&src, &dst, x.shape(), r.shape()).map(|_| ())
}

pub static CONSTANT: OpDef = OpDef {
    name: "graph.constant",
    summary: "A constant tensor",
    description: "`value` is dense elements: a literal, a splat, hex, or a shared `dense_resource` blob.\n\n```mlir\n\
                  %c = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>\n```",
    attrs: &[AttrSpec::required("value", AttrKind::Dense, "the elements")],
    traits: Traits::PURE.union(Traits::CONSTANT_LIKE),
    infer: Some(infer_constant),
    syntax: Syntax::Functional,
    dialect_data: Some(&GraphSemantics::new(GraphOp::Constant, LayoutClass::Oblivious, k::constant)),
    ..OpDef::DEFAULT
};

pub static RESHAPE: OpDef = OpDef {
    name: "graph.reshape",
    summary: "Same elements in row-major order, new shape (one -1 may be inferred)",
    description: "```mlir\n%r = graph.reshape %x {shape = [2, -1]} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>\n```",
    operands: Arity::Exactly(1),
    attrs: &[AttrSpec::required("shape", AttrKind::IntList, "the new shape")],
    traits: MOVE,
    infer: Some(infer_reshape),
    syntax: Syntax::Functional,
    patterns: canonical::RESHAPE,
    dialect_data: Some(&GraphSemantics::new(GraphOp::Reshape, LayoutClass::Dependent, k::reshape)),
    ..OpDef::DEFAULT
};

pub static TRANSPOSE: OpDef = OpDef {
    name: "graph.transpose",
    summary: "Permutes dimensions: out[i0, ..] = x[i_perm..], numpy `transpose(x, perm)`",
    description: "Result dimension k is operand dimension perm[k].\n\n```mlir\n\
                  %r = graph.transpose %x {perm = [0, 2, 3, 1]} : (tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32>\n```",
    operands: Arity::Exactly(1),
    attrs: &[AttrSpec::required("perm", AttrKind::IntList, "the permutation")],
    traits: MOVE,
    infer: Some(infer_transpose),
    syntax: Syntax::Functional,
    patterns: canonical::TRANSPOSE,
    dialect_data: Some(&GraphSemantics::new(GraphOp::Transpose, LayoutClass::Dependent, k::transpose)),
    ..OpDef::DEFAULT
};

pub static BROADCAST_TO: OpDef = OpDef {
    name: "graph.broadcast_to",
    summary: "numpy `broadcast_to`",
    description: "```mlir\n%r = graph.broadcast_to %x {shape = [4, 3]} : (tensor<3xf32>) -> tensor<4x3xf32>\n```",
    operands: Arity::Exactly(1),
    attrs: &[AttrSpec::required("shape", AttrKind::IntList, "the target shape")],
    traits: MOVE,
    infer: Some(infer_broadcast_to),
    syntax: Syntax::Functional,
    patterns: canonical::BROADCAST,
    dialect_data: Some(&GraphSemantics::new(GraphOp::BroadcastTo, LayoutClass::Dependent, k::broadcast_to)),
    ..OpDef::DEFAULT
};

pub static CONCAT: OpDef = OpDef {
    name: "graph.concat",
    summary: "Concatenation along `axis`",
    description: "```mlir\n%r = graph.concat %a, %b {axis = 1} : (tensor<1x2xf32>, tensor<1x3xf32>) -> tensor<1x5xf32>\n```",
    operands: Arity::AtLeast(1),
    attrs: &[AttrSpec::required("axis", AttrKind::Int, "the concatenated dimension")],
    traits: MOVE,
    infer: Some(infer_concat),
    syntax: Syntax::Functional,
    patterns: canonical::CONCAT,
    dialect_data: Some(&GraphSemantics::new(GraphOp::Concat, LayoutClass::Tolerant, k::concat)),
    ..OpDef::DEFAULT
};

pub static SPLIT: OpDef = OpDef {
    name: "graph.split",
    summary: "Splits along `axis` into pieces of `sizes`; the inverse of concat",
    description: "```mlir\n%r:2 = graph.split %x {axis = 1, sizes = [2, 3]} : (tensor<1x5xf32>) -> (tensor<1x2xf32>, tensor<1x3xf32>)\n```",
    operands: Arity::Exactly(1),
    results: Arity::AtLeast(1),
    attrs: &[
        AttrSpec::required("axis", AttrKind::Int, "the split dimension"),
        AttrSpec::required("sizes", AttrKind::IntList, "extent of each piece"),
    ],
    traits: MOVE,
    infer: Some(infer_split),
    syntax: Syntax::Functional,
    patterns: canonical::SPLIT,
    dialect_data: Some(&GraphSemantics::new(GraphOp::Split, LayoutClass::Tolerant, k::split)),
    ..OpDef::DEFAULT
};

pub static SLICE: OpDef = OpDef {
    name: "graph.slice",
    summary: "Static strided slice: `sizes[d]` elements from `starts[d]` every `steps[d]`",
    description: "```mlir\n%r = graph.slice %x {starts = [0, 1], sizes = [2, 2], steps = [1, 2]} : (tensor<2x5xf32>) -> tensor<2x2xf32>\n```",
    operands: Arity::Exactly(1),
    attrs: &[
        AttrSpec::required("starts", AttrKind::IntList, "first index per dimension"),
        AttrSpec::required("sizes", AttrKind::IntList, "result extent per dimension"),
        AttrSpec::optional("steps", AttrKind::IntList, AttrDefault::Optional, "stride per dimension (default 1)"),
    ],
    traits: MOVE,
    infer: Some(infer_slice),
    syntax: Syntax::Functional,
    patterns: canonical::SLICE,
    dialect_data: Some(&GraphSemantics::new(GraphOp::Slice, LayoutClass::Dependent, k::slice)),
    ..OpDef::DEFAULT
};

pub static PAD: OpDef = OpDef {
    name: "graph.pad",
    summary: "Constant padding: `low[d]` and `high[d]` cells of `value` around each dimension",
    description: "```mlir\n%r = graph.pad %x {low = [0, 1], high = [0, 2], value = 0.0} : (tensor<2x3xf32>) -> tensor<2x6xf32>\n```",
    operands: Arity::Exactly(1),
    attrs: &[
        AttrSpec::required("low", AttrKind::IntList, "cells before, per dimension"),
        AttrSpec::required("high", AttrKind::IntList, "cells after, per dimension"),
        AttrSpec::optional("value", AttrKind::Float, AttrDefault::Float(0.0), "the padding value"),
    ],
    traits: MOVE,
    infer: Some(infer_pad),
    syntax: Syntax::Functional,
    patterns: canonical::PAD,
    dialect_data: Some(&GraphSemantics::new(GraphOp::Pad, LayoutClass::Dependent, k::pad)),
    ..OpDef::DEFAULT
};

pub static GATHER: OpDef = OpDef {
    name: "graph.gather",
    summary: "numpy `take(x, indices, axis)`; negative indices count from the end",
    description: "Result shape: x.shape[:axis] + indices.shape + x.shape[axis+1:]. An index out of \
                  range is a run-time error.\n\n```mlir\n\
                  %r = graph.gather %table, %ids {axis = 0} : (tensor<100x16xf32>, tensor<2x8xi64>) -> tensor<2x8x16xf32>\n```",
    operands: Arity::Exactly(2),
    attrs: &[AttrSpec::required("axis", AttrKind::Int, "the indexed dimension")],
    traits: Traits::PURE,
    infer: Some(infer_gather),
    syntax: Syntax::Functional,
    patterns: canonical::GATHER,
    dialect_data: Some(&GraphSemantics::new(GraphOp::Gather, LayoutClass::Dependent, k::gather)),
    ..OpDef::DEFAULT
};

fn infer_scatter(sig: &Signature) -> Result<Vec<Type>, String> {
    let values = tensor_of(sig, 0, ANY)?;
    let indices = tensor_of(sig, 1, INDICES)?;
    let input = tensor_of(sig, 2, ANY)?;
    let (vs, is, us) = (values.shape(), indices.shape(), input.shape());
    if vs.len() != 3 || is.len() != 2 || us.len() != 3 || is[0] != vs[0] || us[..2] != is[..] || us[2] != vs[2] {
        return Err(format!(
            "expected values [N, K, C], indices [N, W] and input [N, W, C], got {}, {} and {}",
            fmt_shape(vs),
            fmt_shape(is),
            fmt_shape(us)
        ));
    }
    if input.elem() != values.elem() {
        return Err(format!("input element type {} differs from the values' {}", input.elem(), values.elem()));
    }
    if vs[1] == 0 && indices.numel() > 0 {
        return Err("cannot scatter into an empty dimension".into());
    }
    Ok(vec![tensor(vs.to_vec(), values.elem())?])
}

pub static SCATTER: OpDef = OpDef {
    name: "graph.scatter",
    summary: "TOSA's scatter: `values` [N, K, C] with rows `indices[n, w]` replaced by `input[n, w]` [N, W, C]",
    description: "Negative indices count from the end; an index out of range is a run-time error; of \
                  two writes to one row the later (in `w` order) stays.\n\n```mlir\n\
                  %r = graph.scatter %values, %ids, %rows : (tensor<1x6x4xf32>, tensor<1x2xi32>, tensor<1x2x4xf32>) -> tensor<1x6x4xf32>\n```",
    operands: Arity::Exactly(3),
    attrs: &[],
    traits: Traits::PURE,
    infer: Some(infer_scatter),
    syntax: Syntax::Functional,
    patterns: canonical::FOLD_ONLY,
    dialect_data: Some(&GraphSemantics::new(GraphOp::Scatter, LayoutClass::Dependent, k::scatter)),
    ..OpDef::DEFAULT
};

pub static LAYOUT_TRANSFORM: OpDef = OpDef {
    name: "graph.layout_transform",
    summary: "Relayout between layouts such as NCHW and NCHW16c, or OIHW and OIHW4i16o",
    description: "See `layout.rs` for the layout strings.\n\n```mlir\n\
                  %r = graph.layout_transform %x {src = \"NCHW\", dst = \"NCHW16c\"} : (tensor<1x32x7x7xf32>) -> tensor<1x2x7x7x16xf32>\n```",
    operands: Arity::Exactly(1),
    attrs: &[
        AttrSpec::required("src", AttrKind::String, "the operand's layout"),
        AttrSpec::required("dst", AttrKind::String, "the result's layout"),
    ],
    traits: MOVE,
    verify: Some(verify_layout_transform),
    syntax: Syntax::Functional,
    patterns: canonical::LAYOUT,
    dialect_data: Some(&GraphSemantics::new(GraphOp::LayoutTransform, LayoutClass::Tolerant, k::layout_transform)),
    ..OpDef::DEFAULT
};

/// The constant and the data-movement ops.
pub static SHAPE_OPS: &[&OpDef] = &[
    &CONSTANT,
    &RESHAPE,
    &TRANSPOSE,
    &BROADCAST_TO,
    &CONCAT,
    &SPLIT,
    &SLICE,
    &PAD,
    &GATHER,
    &SCATTER,
    &LAYOUT_TRANSFORM,
];
