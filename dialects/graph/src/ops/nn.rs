//! Compute-intensive and reduction graph ops: matmul, conv2d, pooling, bilinear
//! resizing, reductions and softmax. Activations are NCHW, conv filters OIHW (PyTorch/ONNX conventions).

use tcc_ir::{Arity, AttrDefault, AttrKind, AttrSpec, OpDef, Signature, Syntax, Traits, Type};

use crate::canonical;
use crate::infer::{FLOATS, NUMBERS, broadcast_shapes, check_all, normalize_axis, same_elem, tensor, tensor_of};
use crate::interp::nn as k;
use crate::{GraphOp, GraphSemantics, LayoutClass, Pool, Reduce};

const COMPUTE: Traits = Traits::PURE.union(Traits::COMPUTE_INTENSIVE);
const REDUCE: Traits = Traits::PURE.union(Traits::REDUCTION);

fn infer_matmul(sig: &Signature) -> Result<Vec<Type>, String> {
    let a = tensor_of(sig, 0, NUMBERS)?;
    let b = tensor_of(sig, 1, NUMBERS)?;
    let elem = same_elem(sig, 0..2)?;
    if a.rank() == 0 || b.rank() == 0 {
        return Err("matmul operands must have rank >= 1".into());
    }
    // numpy: a 1-D `a` gets a leading 1, a 1-D `b` a trailing 1, removed afterwards.
    let (sa, sb) = (a.shape(), b.shape());
    let ka = sa[sa.len() - 1];
    let kb = if sb.len() == 1 { sb[0] } else { sb[sb.len() - 2] };
    if ka != kb {
        return Err(format!("contraction dimensions differ: {ka} (a) vs {kb} (b)"));
    }
    let batch_a = if sa.len() > 2 { &sa[..sa.len() - 2] } else { &[][..] };
    let batch_b = if sb.len() > 2 { &sb[..sb.len() - 2] } else { &[][..] };
    let mut shape = broadcast_shapes(batch_a, batch_b).map_err(|e| format!("batch dimensions: {e}"))?;
    if sa.len() >= 2 {
        shape.push(sa[sa.len() - 2]);
    }
    if sb.len() >= 2 {
        shape.push(sb[sb.len() - 1]);
    }
    Ok(vec![tensor(shape, elem)?])
}

/// Output extent of a window op: floor((in + pads - dilation*(k-1) - 1) / stride) + 1.
fn window_out(
    input: i64,
    pad_lo: i64,
    pad_hi: i64,
    kernel: i64,
    stride: i64,
    dilation: i64,
    dim: &str,
) -> Result<i64, String> {
    let too_large = || format!("window or padding of the {dim} is too large");
    let span = dilation.checked_mul(kernel - 1).and_then(|s| s.checked_add(1)).ok_or_else(too_large)?;
    let padded = input.checked_add(pad_lo).and_then(|p| p.checked_add(pad_hi)).ok_or_else(too_large)?;
    if padded < span {
        return Err(format!("window of extent {span} does not fit the padded {dim} of {padded}"));
    }
    Ok((padded - span) / stride + 1)
}

fn infer_conv2d(sig: &Signature) -> Result<Vec<Type>, String> {
    let x = tensor_of(sig, 0, FLOATS)?;
    let w = tensor_of(sig, 1, FLOATS)?;
    let elem = same_elem(sig, 0..sig.operands.len())?;
    if x.rank() != 4 || w.rank() != 4 {
        return Err(format!("conv2d expects a 4-D input (NCHW) and 4-D filter (OIHW), got {x} and {w}"));
    }
    if sig.operands.len() == 3 {
        let b = tensor_of(sig, 2, FLOATS)?;
        if b.shape() != [w.shape()[0]] {
            return Err(format!("bias must have shape [{}], got {b}", w.shape()[0]));
        }
    }
    Ok(vec![tensor(conv2d_output_shape(sig, x.shape(), w.shape())?, elem)?])
}

/// The NCHW output shape of a convolution of an NCHW input by an OIHW filter, with the
/// `strides`, `pads`, `dilations` and `groups` of `sig`; checks them all.
pub fn conv2d_output_shape(sig: &Signature, x: &[i64], w: &[i64]) -> Result<Vec<i64>, String> {
    let strides = sig.ints_n("strides", 2)?;
    let pads = sig.ints_n("pads", 4)?;
    let dilations = sig.ints_n("dilations", 2)?;
    let groups = sig.int("groups")?;
    check_all("strides", &strides, 1)?;
    check_all("dilations", &dilations, 1)?;
    check_all("pads", &pads, 0)?;
    if groups < 1 {
        return Err(format!("attribute 'groups' must be positive, got {groups}"));
    }
    let (n, c, h, wd) = (x[0], x[1], x[2], x[3]);
    let (o, i, kh, kw) = (w[0], w[1], w[2], w[3]);
    if c % groups != 0 || o % groups != 0 {
        return Err(format!("input channels ({c}) and output channels ({o}) must be divisible by groups ({groups})"));
    }
    if c / groups != i {
        return Err(format!(
            "filter expects {i} input channels per group, but the input has {c} channels in {groups} group(s)"
        ));
    }
    if kh < 1 || kw < 1 {
        return Err("filter spatial dimensions must be positive".into());
    }
    let oh = window_out(h, pads[0], pads[2], kh, strides[0], dilations[0], "height")?;
    let ow = window_out(wd, pads[1], pads[3], kw, strides[1], dilations[1], "width")?;
    Ok(vec![n, o, oh, ow])
}

fn infer_pool(sig: &Signature) -> Result<Vec<Type>, String> {
    let x = tensor_of(sig, 0, FLOATS)?;
    if x.rank() != 4 {
        return Err(format!("pooling expects a 4-D input (NCHW), got {x}"));
    }
    Ok(vec![tensor(pool2d_output_shape(sig, x.shape())?, x.elem())?])
}

/// The NCHW output shape of pooling an NCHW input with the `kernel`, `strides` and
/// `pads` of `sig`; checks them all.
pub fn pool2d_output_shape(sig: &Signature, s: &[i64]) -> Result<Vec<i64>, String> {
    let kernel = sig.ints_n("kernel", 2)?;
    let strides = sig.ints_n("strides", 2)?;
    let pads = sig.ints_n("pads", 4)?;
    check_all("kernel", &kernel, 1)?;
    check_all("strides", &strides, 1)?;
    check_all("pads", &pads, 0)?;
    if pads[0] >= kernel[0] || pads[2] >= kernel[0] || pads[1] >= kernel[1] || pads[3] >= kernel[1] {
        return Err("padding must be smaller than the kernel (a window could hold only padding)".into());
    }
    let oh = window_out(s[2], pads[0], pads[2], kernel[0], strides[0], 1, "height")?;
    let ow = window_out(s[3], pads[1], pads[3], kernel[1], strides[1], 1, "width")?;
    Ok(vec![s[0], s[1], oh, ow])
}

/// Normalized, sorted, unique reduction axes.
pub fn reduction_axes(sig: &Signature, rank: usize) -> Result<Vec<usize>, String> {
    let raw = sig.ints("axes")?;
    if raw.is_empty() {
        return Err("attribute 'axes' must not be empty".into());
    }
    let mut axes = raw.iter().map(|&a| normalize_axis(a, rank)).collect::<Result<Vec<_>, _>>()?;
    axes.sort_unstable();
    if axes.windows(2).any(|w| w[0] == w[1]) {
        return Err("attribute 'axes' has duplicates".into());
    }
    Ok(axes)
}

fn infer_reduce(sig: &Signature, allowed: &[tcc_ir::ScalarType]) -> Result<Vec<Type>, String> {
    let x = tensor_of(sig, 0, allowed)?;
    let axes = reduction_axes(sig, x.rank())?;
    let keep = sig.bool("keepdims")?;
    let extremum = std::ptr::eq(sig.def, &REDUCE_MAX) || std::ptr::eq(sig.def, &REDUCE_MIN);
    if extremum && axes.iter().any(|&a| x.shape()[a] == 0) {
        return Err("cannot take the maximum or minimum over an empty dimension".into());
    }
    let mut shape = Vec::new();
    for (i, &d) in x.shape().iter().enumerate() {
        if !axes.contains(&i) {
            shape.push(d);
        } else if keep {
            shape.push(1);
        }
    }
    Ok(vec![tensor(shape, x.elem())?])
}
fn infer_reduce_number(sig: &Signature) -> Result<Vec<Type>, String> {
    infer_reduce(sig, NUMBERS)
}
fn infer_reduce_float(sig: &Signature) -> Result<Vec<Type>, String> {
    infer_reduce(sig, FLOATS)
}

fn infer_softmax(sig: &Signature) -> Result<Vec<Type>, String> {
    let x = tensor_of(sig, 0, FLOATS)?;
    normalize_axis(sig.int("axis")?, x.rank())?;
    Ok(vec![Type::from_tensor(x.clone())])
}

pub static MATMUL: OpDef = OpDef {
    name: "graph.matmul",
    summary: "Matrix product with numpy `matmul` semantics",
    description: "Batched: leading dimensions broadcast; a 1-D operand is treated as a row (a) or \
                  column (b) vector and that dimension is dropped from the result.\n\n```mlir\n\
                  %r = graph.matmul %a, %b : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>\n```\n\n\
                  `rhs_block`, a layout choice (the rewrite search makes it for matmuls it \
                  creates): the column block `n` a constant right operand is packed in \
                  (`NK{n}n`); ignored unless it is a positive multiple of the target's f32 \
                  lanes and the right operand is constant. Without it the kernel \
                  configuration chooses.",
    operands: Arity::Exactly(2),
    attrs: &[AttrSpec::optional(
        "rhs_block",
        AttrKind::Int,
        AttrDefault::Optional,
        "column block of the packed constant right operand",
    )],
    traits: COMPUTE,
    infer: Some(infer_matmul),
    syntax: Syntax::Functional,
    patterns: canonical::FOLD_ONLY,
    dialect_data: Some(&GraphSemantics::new(GraphOp::Matmul, LayoutClass::Dependent, k::matmul)),
    ..OpDef::DEFAULT
};

/// The attribute in which `block-layouts` says why a convolution stays in NCHW.
pub const UNBLOCKED: &str = "unblocked";

pub static CONV2D: OpDef = OpDef {
    name: "graph.conv2d",
    summary: "2-D convolution (cross-correlation), NCHW input, OIHW filter, optional bias",
    description: "out[n, o, y, x] = bias[o] + sum over c in o's group, kh, kw of \
                  in[n, c, y*sh - top + kh*dh, x*sw - left + kw*dw] * w[o, c, kh, kw], with zero \
                  padding. Depthwise is groups = C.\n\n```mlir\n\
                  %y = graph.conv2d %x, %w, %b {strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], groups = 1}\n     \
                  : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x32x32xf32>\n```",
    operands: Arity::Between(2, 3),
    attrs: &[
        AttrSpec::optional("strides", AttrKind::IntList, AttrDefault::Ints(&[1, 1]), "[sh, sw]"),
        AttrSpec::optional("pads", AttrKind::IntList, AttrDefault::Ints(&[0, 0, 0, 0]), "[top, left, bottom, right]"),
        AttrSpec::optional("dilations", AttrKind::IntList, AttrDefault::Ints(&[1, 1]), "[dh, dw]"),
        AttrSpec::optional("groups", AttrKind::Int, AttrDefault::Int(1), "channel groups"),
        AttrSpec::optional(
            UNBLOCKED,
            AttrKind::String,
            AttrDefault::Optional,
            "why `block-layouts` left it in NCHW, and what lowers it (no effect on what it computes)",
        ),
    ],
    traits: COMPUTE,
    infer: Some(infer_conv2d),
    syntax: Syntax::Functional,
    patterns: canonical::FOLD_ONLY,
    dialect_data: Some(&GraphSemantics::new(GraphOp::Conv2d, LayoutClass::Tolerant, k::conv2d)),
    ..OpDef::DEFAULT
};

const POOL_ATTRS: &[AttrSpec] = &[
    AttrSpec::required("kernel", AttrKind::IntList, "[kh, kw]"),
    AttrSpec::required("strides", AttrKind::IntList, "[sh, sw]"),
    AttrSpec::optional("pads", AttrKind::IntList, AttrDefault::Ints(&[0, 0, 0, 0]), "[top, left, bottom, right]"),
];

pub static MAX_POOL2D: OpDef = OpDef {
    name: "graph.max_pool2d",
    summary: "2-D max pooling over NCHW; padded cells never win (NaN propagates)",
    description: "```mlir\n%r = graph.max_pool2d %x {kernel = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]}\n     \
                  : (tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32>\n```",
    operands: Arity::Exactly(1),
    attrs: POOL_ATTRS,
    traits: Traits::PURE,
    infer: Some(infer_pool),
    syntax: Syntax::Functional,
    patterns: canonical::FOLD_ONLY,
    dialect_data: Some(&GraphSemantics::new(GraphOp::Pool2d(Pool::Max), LayoutClass::Tolerant, k::max_pool2d)),
    ..OpDef::DEFAULT
};

pub static AVG_POOL2D: OpDef = OpDef {
    name: "graph.avg_pool2d",
    summary: "2-D average pooling over NCHW",
    description: "Divides by the number of input cells in the window, or by kh*kw when \
                  `count_include_pad` is true.\n\n```mlir\n\
                  %r = graph.avg_pool2d %x {kernel = [2, 2], strides = [2, 2]} : (tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32>\n```",
    operands: Arity::Exactly(1),
    attrs: &[
        AttrSpec::required("kernel", AttrKind::IntList, "[kh, kw]"),
        AttrSpec::required("strides", AttrKind::IntList, "[sh, sw]"),
        AttrSpec::optional("pads", AttrKind::IntList, AttrDefault::Ints(&[0, 0, 0, 0]), "[top, left, bottom, right]"),
        AttrSpec::optional("count_include_pad", AttrKind::Bool, AttrDefault::Bool(false), "count padded cells"),
    ],
    traits: Traits::PURE,
    infer: Some(infer_pool),
    syntax: Syntax::Functional,
    patterns: canonical::FOLD_ONLY,
    dialect_data: Some(&GraphSemantics::new(GraphOp::Pool2d(Pool::Avg), LayoutClass::Tolerant, k::avg_pool2d)),
    ..OpDef::DEFAULT
};

pub static RESIZE_BILINEAR: OpDef = OpDef {
    name: "graph.resize_bilinear",
    summary: "Bilinear resizing of NCHW images to `size` = [OH, OW] (PyTorch's `interpolate`)",
    description: "Each output pixel blends the four input pixels around its source point, first \
                  along W then along H, each blend `a + (b - a) * w` in f32 (f64 for f64 images). \
                  Along an axis of `in` pixels resized to `out`, output position `o` has the source \
                  point `s = max((o + 0.5) * in / out - 0.5, 0)`, or `s = o * (in - 1) / (out - 1)` \
                  with `align_corners`, computed in f32 as PyTorch does, and blends the pixels \
                  `floor(s)` and `min(floor(s) + 1, in - 1)` with weight `s - floor(s)` on the \
                  second. torch-mlir exports it as four gathers and three blends, which \
                  canonicalization recognizes.\n\n```mlir\n\
                  %r = graph.resize_bilinear %x {size = [16, 16]} : (tensor<1x8x4x4xf32>) -> tensor<1x8x16x16xf32>\n```",
    operands: Arity::Exactly(1),
    attrs: &[
        AttrSpec::required("size", AttrKind::IntList, "[OH, OW]"),
        AttrSpec::optional("align_corners", AttrKind::Bool, AttrDefault::Bool(false), "corner pixels align"),
    ],
    traits: Traits::PURE,
    infer: Some(infer_resize),
    syntax: Syntax::Functional,
    patterns: canonical::FOLD_ONLY,
    dialect_data: Some(&GraphSemantics::new(GraphOp::Resize, LayoutClass::Dependent, k::resize_bilinear)),
    ..OpDef::DEFAULT
};

fn infer_resize(sig: &Signature) -> Result<Vec<Type>, String> {
    let x = tensor_of(sig, 0, FLOATS)?;
    if x.rank() != 4 {
        return Err(format!("resizing expects a 4-D input (NCHW), got {x}"));
    }
    let size = sig.ints_n("size", 2)?;
    check_all("size", &size, 1)?;
    let s = x.shape();
    if s[2] == 0 || s[3] == 0 {
        return Err(format!("cannot resize an empty image: {x}"));
    }
    Ok(vec![tensor(vec![s[0], s[1], size[0], size[1]], x.elem())?])
}

/// One output position's source along an axis: the input positions `lo` and `hi`
/// (`hi = min(lo + 1, in - 1)`) blended with weight `w` on `hi`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Tap {
    pub lo: usize,
    pub hi: usize,
    pub w: f32,
}

/// The source positions and weights of bilinear resizing along an axis of `input`
/// positions to `output` ones, computed in f32 as PyTorch (and torch-mlir's export of
/// it) do.
pub fn bilinear_taps(input: usize, output: usize, align_corners: bool) -> Vec<Tap> {
    let scale = if align_corners {
        if output > 1 { ((input - 1) as f64 / (output - 1) as f64) as f32 } else { 0.0 }
    } else {
        (input as f64 / output as f64) as f32
    };
    (0..output)
        .map(|o| {
            let src = if align_corners { o as f32 * scale } else { (o as f32 + 0.5) * scale - 0.5 }.max(0.0);
            let lo = (src.floor() as usize).min(input - 1);
            Tap { lo, hi: (lo + 1).min(input - 1), w: (src - lo as f32).clamp(0.0, 1.0) }
        })
        .collect()
}

const REDUCE_ATTRS: &[AttrSpec] = &[
    AttrSpec::required("axes", AttrKind::IntList, "dimensions to reduce (negative counts from the end)"),
    AttrSpec::optional("keepdims", AttrKind::Bool, AttrDefault::Bool(false), "keep reduced dimensions as 1"),
];

macro_rules! reduction {
    ($NAME:ident, $name:literal, $kind:expr, $infer:path, $eval:path, $summary:literal) => {
        pub static $NAME: OpDef = OpDef {
            name: $name,
            summary: $summary,
            description: concat!(
                $summary,
                ".\n\n```mlir\n%r = ",
                $name,
                " %x {axes = [1], keepdims = true} : (tensor<2x8xf32>) -> tensor<2x1xf32>\n```"
            ),
            operands: Arity::Exactly(1),
            attrs: REDUCE_ATTRS,
            traits: REDUCE,
            infer: Some($infer),
            syntax: Syntax::Functional,
            patterns: canonical::REDUCE,
            dialect_data: Some(&GraphSemantics::new(GraphOp::Reduce($kind), LayoutClass::Dependent, $eval)),
            ..OpDef::DEFAULT
        };
    };
}

reduction!(REDUCE_SUM, "graph.reduce_sum", Reduce::Sum, infer_reduce_number, k::reduce_sum, "Sum over `axes`");
reduction!(
    REDUCE_MEAN,
    "graph.reduce_mean",
    Reduce::Mean,
    infer_reduce_float,
    k::reduce_mean,
    "Mean over `axes` (floats)"
);
reduction!(
    REDUCE_MAX,
    "graph.reduce_max",
    Reduce::Max,
    infer_reduce_number,
    k::reduce_max,
    "Maximum over `axes` (NaN propagates)"
);
reduction!(
    REDUCE_MIN,
    "graph.reduce_min",
    Reduce::Min,
    infer_reduce_number,
    k::reduce_min,
    "Minimum over `axes` (NaN propagates)"
);
reduction!(
    REDUCE_PROD,
    "graph.reduce_prod",
    Reduce::Prod,
    infer_reduce_number,
    k::reduce_prod,
    "Product over `axes` (integers wrap)"
);

fn infer_argmax(sig: &Signature) -> Result<Vec<Type>, String> {
    let x = tensor_of(sig, 0, NUMBERS)?;
    let axis = normalize_axis(sig.int("axis")?, x.rank())?;
    if x.shape()[axis] == 0 {
        return Err("cannot take the maximum over an empty dimension".into());
    }
    let mut shape = x.shape().to_vec();
    shape.remove(axis);
    Ok(vec![tensor(shape, tcc_ir::ScalarType::I64)?])
}

pub static ARGMAX: OpDef = OpDef {
    name: "graph.argmax",
    summary: "Index of the maximum along `axis` (i64, the axis removed): the first of equal maxima; a NaN counts as the maximum (the first NaN)",
    description: "```mlir\n%r = graph.argmax %x {axis = 1} : (tensor<3x5xf32>) -> tensor<3xi64>\n```",
    operands: Arity::Exactly(1),
    attrs: &[AttrSpec::required("axis", AttrKind::Int, "the searched dimension (negative counts from the end)")],
    traits: Traits::PURE,
    infer: Some(infer_argmax),
    syntax: Syntax::Functional,
    patterns: canonical::FOLD_ONLY,
    dialect_data: Some(&GraphSemantics::new(GraphOp::ArgMax, LayoutClass::Dependent, k::argmax)),
    ..OpDef::DEFAULT
};

pub static SOFTMAX: OpDef = OpDef {
    name: "graph.softmax",
    summary: "exp(x - max) / sum(exp(x - max)) along `axis`",
    description: "```mlir\n%r = graph.softmax %x {axis = -1} : (tensor<2x12x128x128xf32>) -> tensor<2x12x128x128xf32>\n```",
    operands: Arity::Exactly(1),
    attrs: &[AttrSpec::required("axis", AttrKind::Int, "the normalized dimension")],
    traits: REDUCE,
    infer: Some(infer_softmax),
    syntax: Syntax::Functional,
    patterns: canonical::FOLD_ONLY,
    dialect_data: Some(&GraphSemantics::new(GraphOp::Softmax, LayoutClass::Dependent, k::softmax)),
    ..OpDef::DEFAULT
};

/// The neural-network ops.
pub static NN_OPS: &[&OpDef] = &[
    &MATMUL,
    &CONV2D,
    &MAX_POOL2D,
    &AVG_POOL2D,
    &RESIZE_BILINEAR,
    &REDUCE_SUM,
    &REDUCE_MEAN,
    &REDUCE_MAX,
    &REDUCE_MIN,
    &REDUCE_PROD,
    &ARGMAX,
    &SOFTMAX,
];
