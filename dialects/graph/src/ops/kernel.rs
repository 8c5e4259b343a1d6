//! The compiler's own kernel ops: convolution and pooling in the blocked `NCHW[x]c`
//! layout, matmul with a pre-packed right operand, and `graph.yield`, which ends the
//! epilogue region such an op may carry.
//!
//! Blocked shapes are plain tensor shapes; the layout is implied by the op. An
//! activation in `NCHW{b}c` is `[N, C/b, H, W, b]`, a filter in `OIHW{i}i{o}o` is
//! `[O/o, I/i, KH, KW, i, o]`, a packed matmul operand in `NK{n}n` is `[N/n, K, n]`
//! (see `layout.rs`). Channel counts that are not a multiple of the block are padded
//! with zero lanes; the ops compute over the padded channels (padded filters are zero,
//! so padded outputs are zero too), and the passes that create them keep that so.
//!
//! An op may carry an *epilogue*: one region whose block takes the op's raw result and
//! the op's extra operands and yields the final result through elementwise graph ops
//! (bias, scale, activation, residual add), applied to the result while it is in
//! registers. The reference semantics evaluate the region on whole tensors. The op's
//! result is what the region yields: the raw result's type, or bf16 where a bf16 dot
//! kernel's epilogue ends by rounding its f32 result (its stored activations).
//!
//! The `config` attribute is the kernel configuration the lowering follows (register
//! tile, template; typed in [`crate::config`]); `configure-kernels` writes it and a lit
//! test may write it by hand:
//!
//! ```mlir
//! %y = graph.conv2d_nchwc %x, %w, %b {pads = [1, 1, 1, 1],
//!        config = {template = "direct", tile_w = 6, tile_oc = 2}}
//!      : (tensor<1x2x8x8x4xf32>, tensor<2x2x3x3x4x4xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x8x8x4xf32> ({
//! ^bb0(%acc: tensor<1x2x8x8x4xf32>, %bias: tensor<1x2x1x1x4xf32>):
//!   %0 = graph.add %acc, %bias : (tensor<1x2x8x8x4xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x8x8x4xf32>
//!   graph.yield %0 : tensor<1x2x8x8x4xf32>
//! })
//! ```

use tcc_ir::lexer::TokenKind;
use tcc_ir::{
    Arity, AttrDefault, AttrKind, AttrSpec, Diagnostic, Module, Op, OpDef, OperationState, Parser, Printer, ScalarType,
    Signature, Syntax, Traits, Type,
};

use crate::config::{CONFIG_SOURCE_SPEC, CONFIG_SPEC, KernelConfig};
use crate::infer::{FLOATS, same_elem, tensor, tensor_of};
use crate::interp::kernel as k;
use crate::layout::{Layout, transform_sizes};
use crate::ops::nn::{conv2d_output_shape, pool2d_output_shape};
use crate::{GraphOp, GraphSemantics, LayoutClass, Pool, canonical, semantics};

const KERNEL: Traits =
    Traits::PURE.union(Traits::COMPUTE_INTENSIVE).union(Traits::SINGLE_BLOCK).union(Traits::REGION_RESULT);

fn parse_yield(p: &mut Parser<'_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    let uses = p.parse_value_uses()?;
    p.expect(TokenKind::Colon, "before the yielded types")?;
    let types = p.parse_type_list()?;
    p.bind_operands(state, &uses, &types)
}

fn print_yield(p: &mut Printer<'_>, op: Op) -> std::fmt::Result {
    let m = p.module();
    let operands = m.operands(op).to_vec();
    p.write("graph.yield ");
    p.print_values(&operands);
    p.write(" : ");
    let types: Vec<Type> = operands.iter().map(|&v| m.value_type(v).clone()).collect();
    p.print_types(&types);
    Ok(())
}

fn verify_yield(m: &Module, op: Op) -> Result<(), String> {
    let parent = m.parent_op(op).ok_or("must be inside a kernel op's epilogue region")?;
    let results: Vec<Type> = m.results(parent).iter().map(|&r| m.value_type(r).clone()).collect();
    let yielded: Vec<Type> = m.operands(op).iter().map(|&v| m.value_type(v).clone()).collect();
    if results != yielded {
        return Err(format!(
            "yields {} value(s) of types ({}), but '{}' produces ({})",
            yielded.len(),
            list(&yielded),
            m.name(parent),
            list(&results)
        ));
    }
    Ok(())
}

pub static YIELD: OpDef = OpDef {
    name: "graph.yield",
    summary: "Ends an epilogue region, giving the kernel op's result",
    description: "```mlir\ngraph.yield %0 : tensor<1x2x8x8x4xf32>\n```",
    operands: Arity::AtLeast(1),
    results: Arity::Exactly(0),
    traits: Traits::TERMINATOR,
    verify: Some(verify_yield),
    syntax: Syntax::Custom { parse: parse_yield, print: print_yield },
    ..OpDef::DEFAULT
};

/// Checks the epilogue region of a kernel op: absent when there are no extra operands;
/// otherwise one block taking the raw result and the extra operands, holding only
/// elementwise graph ops whose results broadcast into the result's shape.
pub fn verify_epilogue(m: &Module, op: Op) -> Result<(), String> {
    let from = semantics(m.def(op)).and_then(|s| s.epilogue_from).ok_or("not a kernel op")?;
    let extra: Vec<Type> = m.operands(op).iter().skip(from).map(|&v| m.value_type(v).clone()).collect();
    let result = m.value_type(m.result(op, 0)).clone();
    let Some(&region) = m.regions(op).first() else {
        if !extra.is_empty() {
            return Err(format!("has {} epilogue operand(s) but no epilogue region", extra.len()));
        }
        return Ok(());
    };
    let [block] = m.region_blocks(region) else { return Err("the epilogue region must have one block".into()) };
    let args: Vec<Type> = m.block_args(*block).iter().map(|&a| m.value_type(a).clone()).collect();
    // The raw result (its type inferred from the operands: the verifier checks it) has
    // the result's shape; the epilogue may narrow its element type (f32 to bf16, the
    // bf16 dot kernels' stored activations).
    let raw = args.first().cloned().unwrap_or_else(|| result.clone());
    let same_shape = |a: &Type, b: &Type| a.as_tensor().map(|t| t.shape()) == b.as_tensor().map(|t| t.shape());
    let narrowing = raw.as_tensor().map(|t| t.elem()) == Some(ScalarType::F32)
        && result.as_tensor().map(|t| t.elem()) == Some(ScalarType::BF16);
    if !same_shape(&raw, &result) || (raw != result && !narrowing) {
        return Err(format!(
            "the epilogue must take a raw result of type {result} (or f32, narrowed to bf16), not {raw}"
        ));
    }
    let mut want = vec![raw];
    want.extend(extra);
    if args != want {
        return Err(format!(
            "the epilogue block must take the raw result and the epilogue operands ({}), not ({})",
            list(&want),
            list(&args)
        ));
    }
    for inner in m.block_ops(*block) {
        let def = m.def(inner);
        let ok = def.has(Traits::ELEMENTWISE) || std::ptr::eq(def, &YIELD);
        if !ok {
            return Err(format!("an epilogue holds elementwise ops only, not '{}'", def.name));
        }
        if !def.has(Traits::ELEMENTWISE) {
            continue;
        }
        // An intermediate value may be one that broadcasts into the result (a mask
        // computed from per-channel operands), applied lane by lane like them.
        let shape = |t: &Type| t.as_tensor().map(|t| t.shape().to_vec());
        let (Some(inner), Some(full)) = (shape(m.value_type(m.result(inner, 0))), shape(&result)) else {
            return Err(format!("epilogue op '{}' must compute a tensor", def.name));
        };
        if crate::infer::broadcast_shapes(&inner, &full).as_ref() != Ok(&full) {
            return Err(format!("epilogue op '{}' changes the result's shape", def.name));
        }
    }
    Ok(())
}

/// Whether `op` is a bf16 dot kernel: a packed matmul of bf16 pairs (`[N/n, K/2, n,
/// 2]`) or a blocked convolution with a bf16 pair filter (`[O/o, I/i, KH, KW, i/2, o,
/// 2]`), whose sums are f32.
pub fn takes_bf16_pairs(m: &Module, op: Op) -> bool {
    let rank = if m.is(op, &MATMUL_PACKED) {
        4
    } else if m.is(op, &CONV2D_NCHWC) {
        7
    } else {
        return false;
    };
    m.value_type(m.operand(op, 1)).as_tensor().is_some_and(|w| w.rank() == rank && w.elem() == ScalarType::BF16)
}

/// The type a kernel op computes before its epilogue: the epilogue block's first
/// argument, or the result without an epilogue (they differ where the epilogue narrows
/// f32 to bf16).
pub fn raw_result(m: &Module, op: Op) -> Type {
    let block = m.regions(op).first().and_then(|&r| m.region_blocks(r).first().copied());
    match block.and_then(|b| m.block_args(b).first().copied()) {
        Some(raw) => m.value_type(raw).clone(),
        None => m.value_type(m.result(op, 0)).clone(),
    }
}

fn list(types: &[Type]) -> String {
    types.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ")
}

// -- conv2d_nchwc ---------------------------------------------------------------------

/// The plain (NCHW) shape of a blocked `[N, C/b, H, W, b]` activation.
pub fn plain_activation(s: &[i64]) -> Vec<i64> {
    vec![s[0], s[1] * s[4], s[2], s[3]]
}

/// A packed filter's input and output channel blocks `(i, o)`: of `[O/o, I/i, KH, KW, i,
/// o]`, or of bf16 pairs `[O/o, I/i, KH, KW, i/2, o, 2]` (`OIHW{i/2}i{o}o2i`, for the
/// bf16 dot kernels).
pub fn filter_blocks(s: &[i64]) -> (i64, i64) {
    if s.len() == 7 { (s[4] * s[6], s[5]) } else { (s[4], s[5]) }
}

/// `(k, b)` for a blocked depthwise convolution with a channel multiplier `k > 1`
/// (input `x` `[N, C/b, H, W, b]`, filter `w` `[k * C/b, 1, KH, KW, 1, b]`, `groups` =
/// `C`) whose blocks are `b > 1` channels wide: its filter's output channels go by
/// multiple within each input block, packed output channel `(i * k + j) * b + l` being
/// output channel `(i * b + l) * k + j`, so that input block `i` times filter block
/// `i * k + j` is multiple `j` of that block's channels (the depthwise template computes
/// one such vector product per multiple and interleaves them into the output's blocks).
/// `None` for every other convolution, whose packed filters keep the channel order.
pub fn multiplier_blocks(x: &[i64], w: &[i64], groups: i64) -> Option<(i64, i64)> {
    let b = *x.get(4)?;
    let channels = x[1] * b;
    let per_block = w.len() == 6 && w[4] == 1 && w[1] == 1 && w[5] == b;
    let k = (w[0] * b) / channels.max(1);
    (b > 1 && per_block && groups == channels && k > 1 && w[0] * b == k * channels).then_some((k, b))
}

/// The layout of a packed filter of shape `s` ([`filter_blocks`]).
pub fn filter_layout(s: &[i64]) -> Layout {
    let (i, o) = filter_blocks(s);
    if s.len() == 7 { Layout::oihw_pairs(i, o) } else { Layout::oihw_packed(i, o) }
}

/// The plain (OIHW) shape of a packed filter ([`filter_blocks`]).
pub fn plain_filter(s: &[i64]) -> Vec<i64> {
    let (i, o) = filter_blocks(s);
    vec![s[0] * o, s[1] * i, s[2], s[3]]
}

/// A blocked convolution's operands: one float type for input, filter and result, or
/// bf16 input and pair-packed bf16 filter with an f32 result (the bf16 dot kernels).
fn infer_conv2d_nchwc(sig: &Signature) -> Result<Vec<Type>, String> {
    let x = tensor_of(sig, 0, FLOATS)?;
    let w = tensor_of(sig, 1, FLOATS)?;
    let elem = same_elem(sig, 0..2)?;
    let pairs = w.rank() == 7 && w.shape()[6] == 2 && elem == ScalarType::BF16;
    if x.rank() != 5 || (w.rank() != 6 && !pairs) {
        return Err(format!(
            "conv2d_nchwc expects a 5-D NCHW[x]c input and a 6-D OIHW[x]i[y]o filter (or, bf16, a 7-D \
             OIHW[x/2]i[y]o2i one), got {x} and {w}"
        ));
    }
    let plain = conv2d_output_shape(sig, &plain_activation(x.shape()), &plain_filter(w.shape()))?;
    let ob = w.shape()[5];
    let elem = if pairs { ScalarType::F32 } else { elem };
    Ok(vec![tensor(vec![plain[0], plain[1] / ob, plain[2], plain[3], ob], elem)?])
}

fn verify_conv2d_nchwc(m: &Module, op: Op) -> Result<(), String> {
    KernelConfig::verify(m, op)?;
    if let Some(logical) = m.attr(op, LOGICAL_CHANNELS) {
        let [c, o] = logical
            .as_i64_list()
            .and_then(|v| <[i64; 2]>::try_from(v).ok())
            .ok_or_else(|| format!("attribute '{LOGICAL_CHANNELS}' must be [in, out], got {logical}"))?;
        let shape = |v| m.value_type(v).as_tensor().map(|t| t.shape().to_vec()).unwrap_or_default();
        let (x, y) = (shape(m.operand(op, 0)), shape(m.result(op, 0)));
        let (cp, op_) = (x[1] * x[4], y[1] * y[4]);
        if !(1..=cp).contains(&c) || !(1..=op_).contains(&o) {
            return Err(format!(
                "'{LOGICAL_CHANNELS}' [{c}, {o}] exceeds the padded channels [{cp}, {op_}] (or is not positive)"
            ));
        }
    }
    verify_epilogue(m, op)
}

/// The attribute of `graph.conv2d_nchwc` holding the convolution's channels before they
/// were padded to whole blocks: `[in, out]`.
pub const LOGICAL_CHANNELS: &str = "logical_channels";

pub static CONV2D_NCHWC: OpDef = OpDef {
    name: "graph.conv2d_nchwc",
    summary: "Convolution in the blocked NCHW[x]c layout with a pre-packed OIHW[x]i[y]o filter and an optional epilogue",
    description: "x: `[N, C/x, H, W, x]`, w: `[O/y, (C/groups)/x', KH, KW, x', y]`, result `[N, O/y, OH, OW, y]`; \
                  channels are the padded ones. With a bf16 input, w may be bf16 pairs `[O/y, (C/groups)/x', \
                  KH, KW, x'/2, y, 2]` (`OIHW{x'/2}i{y}o2i`) and the result f32 (the bf16 dot kernels; bf16 where the epilogue ends by rounding it, `narrow-outputs`). \
                  A depthwise convolution with a channel multiplier k on blocks x = y > 1 (groups = C, \
                  w `[k*C/y, 1, KH, KW, 1, y]`) packs its filter's output channels by multiple within each \
                  input block: packed output channel (i*k + j)*y + l is output channel (i*y + l)*k + j. \
                  Semantics: unpack (and reorder such a filter's output channels), `graph.conv2d`, pack, then the epilogue. \
                  `config` configures the lowering: `template` (direct, pointwise, depthwise, rows: blocks of one \
                  channel, vectors along output rows; reference), \
                  `tile_w` (output pixels per register tile), `tile_oc` (output-channel blocks per tile), \
                  `unroll_kw` (kernel columns unrolled), `unroll_ic` (input channels per step), `edges` \
                  (`merged`: edge columns in whole tiles with the kernel columns unrolled; `split`: in tiles \
                  of their own), `chunk_ic` (input-channel blocks per pass: a task then covers all rows of \
                  its channel group pass by pass, partial sums in the output), `pad_input` (`materialize-padding` \
                  moves the padding into a `graph.pad` of the input, so that a row's columns all read every \
                  kernel tap), `prefetch` (prefetch the next \
                  channel group's filters into L2), `prefetch_input` (the direct template prefetches the input rows \
                  of the next output row: for an input that comes cold from the caller), `task_w` (output \
                  columns per task, of the flattened rows \
                  for pointwise; the tasks over the same columns run one after another for every channel \
                  group, so the input they read stays in cache; without it, a channel group's tasks run one \
                  after another).\n\n```mlir\n\
                  %y = graph.conv2d_nchwc %x, %w {pads = [1, 1, 1, 1], config = {tile_w = 4, tile_oc = 1}}\n     \
                  : (tensor<1x2x8x8x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x8x8x4xf32>\n```",
    operands: Arity::AtLeast(2),
    regions: Arity::Between(0, 1),
    attrs: &[
        AttrSpec::optional("strides", AttrKind::IntList, AttrDefault::Ints(&[1, 1]), "[sh, sw]"),
        AttrSpec::optional("pads", AttrKind::IntList, AttrDefault::Ints(&[0, 0, 0, 0]), "[top, left, bottom, right]"),
        AttrSpec::optional("dilations", AttrKind::IntList, AttrDefault::Ints(&[1, 1]), "[dh, dw]"),
        AttrSpec::optional("groups", AttrKind::Int, AttrDefault::Int(1), "channel groups (of the padded channels)"),
        AttrSpec::optional(
            LOGICAL_CHANNELS,
            AttrKind::IntList,
            AttrDefault::Optional,
            "[in, out]: the channels before padding to whole blocks (what the convolution computes; for FLOP counts)",
        ),
        CONFIG_SPEC,
        CONFIG_SOURCE_SPEC,
    ],
    traits: KERNEL.union(Traits::ISOLATED_FROM_ABOVE),
    infer: Some(infer_conv2d_nchwc),
    verify: Some(verify_conv2d_nchwc),
    syntax: Syntax::Functional,
    patterns: canonical::FOLD_ONLY,
    dialect_data: Some(&GraphSemantics::with_epilogue(GraphOp::Conv2dNchwc, LayoutClass::Tolerant, k::conv2d_nchwc, 2)),
    ..OpDef::DEFAULT
};

// -- pooling --------------------------------------------------------------------------

fn infer_pool_nchwc(sig: &Signature) -> Result<Vec<Type>, String> {
    let x = tensor_of(sig, 0, FLOATS)?;
    if x.rank() != 5 {
        return Err(format!("blocked pooling expects a 5-D NCHW[x]c input, got {x}"));
    }
    let s = x.shape();
    let plain = pool2d_output_shape(sig, &[s[0], s[1], s[2], s[3]])?;
    Ok(vec![tensor(vec![s[0], s[1], plain[2], plain[3], s[4]], x.elem())?])
}

fn verify_pool_nchwc(m: &Module, op: Op) -> Result<(), String> {
    KernelConfig::verify(m, op)
}

pub static MAX_POOL2D_NCHWC: OpDef = OpDef {
    name: "graph.max_pool2d_nchwc",
    summary: "Max pooling in the blocked NCHW[x]c layout",
    description: "`graph.max_pool2d` on `[N, C/x, H, W, x]`; `config = {tile_w = ..}` sets the output pixels \
                  per register tile.\n\n```mlir\n\
                  %r = graph.max_pool2d_nchwc %x {kernel = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]}\n     \
                  : (tensor<1x2x8x8x4xf32>) -> tensor<1x2x4x4x4xf32>\n```",
    operands: Arity::Exactly(1),
    attrs: &[
        AttrSpec::required("kernel", AttrKind::IntList, "[kh, kw]"),
        AttrSpec::required("strides", AttrKind::IntList, "[sh, sw]"),
        AttrSpec::optional("pads", AttrKind::IntList, AttrDefault::Ints(&[0, 0, 0, 0]), "[top, left, bottom, right]"),
        CONFIG_SPEC,
        CONFIG_SOURCE_SPEC,
    ],
    traits: Traits::PURE,
    infer: Some(infer_pool_nchwc),
    verify: Some(verify_pool_nchwc),
    syntax: Syntax::Functional,
    patterns: canonical::FOLD_ONLY,
    dialect_data: Some(&GraphSemantics::new(
        GraphOp::Pool2dNchwc(Pool::Max),
        LayoutClass::Tolerant,
        k::max_pool2d_nchwc,
    )),
    ..OpDef::DEFAULT
};

pub static AVG_POOL2D_NCHWC: OpDef = OpDef {
    name: "graph.avg_pool2d_nchwc",
    summary: "Average pooling in the blocked NCHW[x]c layout",
    description: "`graph.avg_pool2d` on `[N, C/x, H, W, x]`.\n\n```mlir\n\
                  %r = graph.avg_pool2d_nchwc %x {kernel = [2, 2], strides = [2, 2]} \
                  : (tensor<1x2x8x8x4xf32>) -> tensor<1x2x4x4x4xf32>\n```",
    operands: Arity::Exactly(1),
    attrs: &[
        AttrSpec::required("kernel", AttrKind::IntList, "[kh, kw]"),
        AttrSpec::required("strides", AttrKind::IntList, "[sh, sw]"),
        AttrSpec::optional("pads", AttrKind::IntList, AttrDefault::Ints(&[0, 0, 0, 0]), "[top, left, bottom, right]"),
        AttrSpec::optional("count_include_pad", AttrKind::Bool, AttrDefault::Bool(false), "count padded cells"),
        CONFIG_SPEC,
        CONFIG_SOURCE_SPEC,
    ],
    traits: Traits::PURE,
    infer: Some(infer_pool_nchwc),
    verify: Some(verify_pool_nchwc),
    syntax: Syntax::Functional,
    patterns: canonical::FOLD_ONLY,
    dialect_data: Some(&GraphSemantics::new(
        GraphOp::Pool2dNchwc(Pool::Avg),
        LayoutClass::Tolerant,
        k::avg_pool2d_nchwc,
    )),
    ..OpDef::DEFAULT
};

// -- matmul with a packed right operand -----------------------------------------------

/// The layout of a packed right operand of shape `sb` for operands of `elem` and a
/// result of `result`: `NK{n}n` (`[N/n, K, n]`, one float type throughout) or, for bf16
/// operands with an f32 result (the bf16 dot kernels), `NK{n}n2k` (`[N/n, K/2, n, 2]`).
pub fn packed_rhs_layout(sb: &[i64], elem: ScalarType, result: ScalarType) -> Option<Layout> {
    match sb {
        [_, _, n] if FLOATS.contains(&elem) && elem == result => Some(Layout::nk_packed(*n)),
        [_, _, n, 2] if elem == ScalarType::BF16 && result == ScalarType::F32 => Some(Layout::nk_pairs(*n)),
        _ => None,
    }
}

/// `a` is `[.., M, K]`, the packed `b` is `[N/n, K, n]` (`layout_transform` from `KN` to
/// `NK{n}n`, columns padded with zeros) or, bf16 with an f32 result, `[N/n, K/2, n, 2]`;
/// the result `[.., M, N]` is written (N is not inferable when the columns were padded)
/// and checked.
fn verify_matmul_packed(m: &Module, op: Op) -> Result<(), String> {
    KernelConfig::verify(m, op)?;
    let ty = |v| m.value_type(v).as_tensor().cloned().ok_or("operands and result must be tensors");
    let raw = raw_result(m, op);
    let r = raw.as_tensor().cloned().ok_or("operands and result must be tensors")?;
    let (a, b) = (ty(m.operand(op, 0))?, ty(m.operand(op, 1))?);
    let (sa, sb, sr) = (a.shape(), b.shape(), r.shape());
    let layout = (a.elem() == b.elem()).then(|| packed_rhs_layout(sb, a.elem(), r.elem())).flatten();
    let (Some(layout), true) = (layout, sa.len() >= 2) else {
        return Err(format!(
            "expects a [.., M, K] operand and a packed [N/n, K, n] operand of one float type (the \
             result's), or bf16 operands packed [N/n, K/2, n, 2] with an f32 result; got {a}, {b} -> {r}"
        ));
    };
    let (batch, mk) = sa.split_at(sa.len() - 2);
    let n = *sr.last().unwrap_or(&0);
    let nk = transform_sizes(&Layout::kn(), &layout, &[mk[1], n], sb);
    if nk.is_err() || sr.len() != sa.len() || &sr[..batch.len()] != batch || sr[batch.len()] != mk[0] {
        let k = if sb.len() == 4 { format!("K <= {}", 2 * sb[1]) } else { format!("K = {}", sb[1]) };
        return Err(format!("result {r} does not match operands {a} and packed {b} ({k}, N <= {})", sb[0] * sb[2]));
    }
    verify_epilogue(m, op)
}

pub static MATMUL_PACKED: OpDef = OpDef {
    name: "graph.matmul_packed",
    summary: "Matmul with a pre-packed right operand and an optional epilogue",
    description: "a: `[.., M, K]`, b packed from `[K, N]` to `[N/n, K, n]` (zero-padded columns), result                   `[.., M, N]`; or a and b bf16, b packed to `[N/n, K/2, n, 2]` (`NK{n}n2k`: pairs of rows                   side by side, for bf16 dot products), and an f32 result (bf16 where the epilogue ends by rounding it). Semantics: unpack b, `graph.matmul`, then the epilogue. `config`: `tile_m` rows                   and `tile_n` column blocks per register tile, `unroll_k` reduction steps per loop \
                  iteration, `prefetch` (prefetch the next column block's weights into L2).

```mlir
                  %y = graph.matmul_packed %a, %b {config = {tile_m = 4, tile_n = 1}}                   : (tensor<8x16xf32>, tensor<3x16x4xf32>) -> tensor<8x10xf32>
```",
    operands: Arity::AtLeast(2),
    regions: Arity::Between(0, 1),
    attrs: &[CONFIG_SPEC, CONFIG_SOURCE_SPEC],
    traits: KERNEL.union(Traits::ISOLATED_FROM_ABOVE),
    verify: Some(verify_matmul_packed),
    syntax: Syntax::Functional,
    patterns: canonical::FOLD_ONLY,
    dialect_data: Some(&GraphSemantics::with_epilogue(GraphOp::MatmulPacked, LayoutClass::Dependent, k::matmul_packed, 2)),
    ..OpDef::DEFAULT
};

// -- batched matmul of activations ------------------------------------------------------

fn infer_batch_matmul(sig: &Signature) -> Result<Vec<Type>, String> {
    let a = tensor_of(sig, 0, FLOATS)?;
    let b = tensor_of(sig, 1, FLOATS)?;
    let elem = same_elem(sig, 0..2)?;
    let (sa, sb) = (a.shape(), b.shape());
    if sa.len() < 2 || sa.len() != sb.len() || sa[..sa.len() - 2] != sb[..sb.len() - 2] {
        return Err(format!(
            "batch_matmul expects [.., M, K] and [.., K, N] with equal batch dimensions, got {a} and {b}"
        ));
    }
    let (k, kb) = (sa[sa.len() - 1], sb[sb.len() - 2]);
    if k != kb {
        return Err(format!("contraction dimensions differ: {k} (a) vs {kb} (b)"));
    }
    let mut shape = sa[..sa.len() - 1].to_vec();
    shape.push(sb[sb.len() - 1]);
    Ok(vec![tensor(shape, elem)?])
}

fn verify_batch_matmul(m: &Module, op: Op) -> Result<(), String> {
    KernelConfig::verify(m, op)?;
    verify_epilogue(m, op)
}

pub static BATCH_MATMUL: OpDef = OpDef {
    name: "graph.batch_matmul",
    summary: "Matmul of two activations with equal batch dimensions (attention), with an optional epilogue",
    description: "`[.., M, K] x [.., K, N] -> [.., M, N]`: `graph.matmul` without broadcasting, then the \
                  epilogue. `config`: `tile_m` rows and `tile_n` vectors of columns per register tile, \
                  `unroll_k` reduction steps per loop iteration.\n\n```mlir\n\
                  %y = graph.batch_matmul %q, %k {config = {tile_m = 4, tile_n = 2}} \
                  : (tensor<12x128x64xf32>, tensor<12x64x128xf32>) -> tensor<12x128x128xf32>\n```",
    operands: Arity::AtLeast(2),
    regions: Arity::Between(0, 1),
    attrs: &[CONFIG_SPEC, CONFIG_SOURCE_SPEC],
    traits: KERNEL.union(Traits::ISOLATED_FROM_ABOVE),
    infer: Some(infer_batch_matmul),
    verify: Some(verify_batch_matmul),
    syntax: Syntax::Functional,
    patterns: canonical::FOLD_ONLY,
    dialect_data: Some(&GraphSemantics::with_epilogue(
        GraphOp::BatchMatmul,
        LayoutClass::Dependent,
        k::batch_matmul,
        2,
    )),
    ..OpDef::DEFAULT
};

/// The compiler's kernel ops.
pub static KERNEL_OPS: &[&OpDef] =
    &[&YIELD, &CONV2D_NCHWC, &MAX_POOL2D_NCHWC, &AVG_POOL2D_NCHWC, &MATMUL_PACKED, &BATCH_MATMUL];
