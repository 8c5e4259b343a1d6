//! `block-layouts`: convolutions, pools and constant-weight matmuls to kernel ops in
//! blocked layouts (NeoCPU), at the vector width of the target's kernels
//! ([`Target::kernel_target`]: the microkernels' when the code calls them).
//!
//! - `conv2d(x, w, b)` (f32) becomes
//!   `layout_transform(conv2d_nchwc(layout_transform(x, NCHW -> NCHW{i}c),
//!   layout_transform(w, OIHW -> OIHW{i}i{o}o)) + bias, NCHW{o}c -> NCHW)` with
//!   `o` = the f32 lanes and `i` = `o` (or 1 for inputs with fewer channels than lanes,
//!   the first layer's 3 colours). Channel counts round up to whole blocks; the padded
//!   filter and bias lanes are zero, and the epilogue zeroes the padded outputs (which
//!   an infinite input would make NaN). Depthwise convolutions
//!   keep one input channel per output channel (filter `OIHW1i{o}o`), and so do those
//!   with a channel multiplier `k` (a power of two below the lanes, on whole blocks of
//!   input channels) where the target does not call microkernels, their filter blocks
//!   reordered so that each holds one multiple of an input block's channels (the
//!   depthwise template interleaves them); other grouped convolutions are blocked only when each group holds whole blocks, or with each
//!   group's output channels padded to whole blocks when that wastes fewer lanes than
//!   the row template. The others take blocks of one channel (`NCHW1c`, the same
//!   memory as NCHW) for the row template, their padding moved into a `graph.pad` of
//!   the input (so every output column reads the same kernel taps). The bias becomes
//!   the epilogue's `add`. A strided 1x1 convolution (a ResNet downsample) reads its
//!   input through a strided `slice` first and becomes a stride-1 pointwise one. On
//!   targets with the bf16 dot microkernel, a convolution of a widened bf16 input (the
//!   bf16 precision policy rounds it so) with a constant filter of bf16 values and
//!   blocks that split in pairs takes the bf16 input itself and the filter cast to bf16 and packed with
//!   pairs of input channels side by side (`OIHW{i/2}i{o}o2i`), with an f32 result.
//!   On targets whose dot microkernel runs on AMX tiles (`Target::amx_bf16`), such a
//!   convolution takes blocks of two vectors (32 channels) for its input and its
//!   output where the channels fill them and no layout transform would sit beside
//!   them (an input some kernel stores in blocks of one vector; an output some kernel
//!   reads in them, a depthwise or grouped convolution), and a pool reading them keeps
//!   them.
//! - `max_pool2d` / `avg_pool2d` become their `_nchwc` forms between transforms.
//! - `matmul(a, B)` with a constant `B` of shape `[K, N]` (or with leading extents 1)
//!   becomes `matmul_packed(a, layout_transform(B, KN -> NK{n}n))`, `n` the column block
//!   the kernel configuration chooses (or the matmul's `rhs_block`, a layout the rewrite
//!   search chose); a matmul of two activations with equal batch
//!   dimensions (attention), or of an activation by a batch of constants (a Winograd
//!   convolution's transformed filters), becomes `batch_matmul`. On targets with the bf16 dot
//!   microkernel (`Target::bf16_dot`), a matmul whose left operand is a widened bf16
//!   value (the bf16 precision policy rounds it so) takes that bf16 value itself and
//!   `B` cast to bf16 and packed in pairs of rows, `NK{n}n2k`, with an f32 result,
//!   when `B` holds bf16 values (the policy rounded it, or the model's weights are bf16:
//!   the cast is exact), K is even and N a multiple of the dot's 16 lanes (then `n`
//!   divides N).
//!
//! The transforms of constants are folded by canonicalization afterwards, so filters
//! are packed once, at compile time.

use tcc_dialect_graph::canonical::constant_value;
use tcc_dialect_graph::config::{ConvClass, classify_conv};
use tcc_dialect_graph::layout::{Layout, transform_layouts};
use tcc_dialect_graph::ops as g;
use tcc_dialect_graph::ops::kernel::LOGICAL_CHANNELS;
use tcc_ir::builtin::func_entry;
use tcc_ir::{
    AttrDict, Attribute, DenseElements, Diagnostics, Module, Op, Pass, PassInfo, ScalarType, TensorType, Type, Value,
};
use tcc_target::{BF16_DOT_LANES, BF16_STEM_CHANNELS, Target};

use crate::epilogue_fusion::new_epilogue;
use crate::{Inserter, shape, tensor_type};

pub static BLOCK_LAYOUTS: PassInfo = PassInfo {
    name: "block-layouts",
    summary: "Convert convolutions, pools and constant-weight matmuls to blocked kernel ops (NCHW[x]c, packed filters)",
    options: tcc_target::PASS_OPTIONS,
    create: |opts| Ok(Box::new(BlockLayouts { target: crate::target_from(opts)? })),
};

pub struct BlockLayouts {
    pub target: Target,
}

impl BlockLayouts {
    /// The row template's speed per lane next to the blocked templates' for a
    /// convolution of column stride `stride_w`. Where the target calls microkernels,
    /// they run the row template's tiles at stride 1 at their own width (measured on Zen
    /// 5, AVX-512, one grouped 3x3 conv each, rows against groups padded to 16: groups of
    /// 40 at 56 pixels 1.33 ms against 1.54, 24 at 28 0.84 and 1.03, 8 at 28 0.061 and
    /// 0.132, 4 at 56 0.28 and 1.31). At other strides the row template is the
    /// backend's own code while the blocked templates run in microkernels of wider
    /// vectors: half the lanes' ratio is what it keeps, its narrow vectors being busier
    /// (Cranelift's 4 lanes: groups of 40 at 56 pixels 6.97 ms in rows, 1.53 padded; 24
    /// at 28 3.33 and 1.03; 8 at 28 0.209 and 0.120; but 4 at 56 0.68 and 1.25).
    fn row_speed(&self, stride_w: i64) -> f64 {
        let target = &self.target;
        if target.ukernels.is_some() && stride_w == 1 {
            return 1.0;
        }
        (2.0 * target.f32_lanes() as f64 / target.kernel_target().f32_lanes() as f64).min(1.0)
    }
}

impl Pass for BlockLayouts {
    fn name(&self) -> &'static str {
        "block-layouts"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        for func in m.funcs() {
            let Some(entry) = func_entry(m, func) else { continue };
            let ops: Vec<Op> = m.block_ops(entry).collect();
            for op in ops {
                if !is_f32(m, m.result_or_none(op)) {
                    if m.is(op, &g::CONV2D) {
                        let elem = m.value_type(m.result(op, 0)).as_tensor().map(|t| t.elem().name()).unwrap_or("?");
                        let why = format!("{elem} elements: the scalar reference nest (templates are f32)");
                        m.set_attr(op, g::nn::UNBLOCKED, Attribute::string(&why));
                    }
                    continue;
                }
                if m.is(op, &g::CONV2D) {
                    let stride_w = m.attr_or_default(op, "strides").and_then(|a| a.as_i64_list()).map_or(1, |s| s[1]);
                    let lanes = self.target.kernel_target().f32_lanes();
                    // The depthwise template computes channel multipliers in the
                    // backend's own code, the row template in microkernels.
                    let multipliers = self.target.ukernels.is_none();
                    let dot = match (self.target.bf16_dot, self.target.amx_bf16) {
                        (false, _) => Dot::None,
                        (true, false) => Dot::Vector,
                        (true, true) => Dot::Amx,
                    };
                    block_conv(m, op, lanes, self.row_speed(stride_w), dot, multipliers);
                } else if m.is(op, &g::MAX_POOL2D) || m.is(op, &g::AVG_POOL2D) {
                    block_pool(m, op, self.target.kernel_target().f32_lanes());
                } else if m.is(op, &g::MATMUL) {
                    pack_matmul(m, op, &self.target.kernel_target());
                }
            }
        }
        Ok(())
    }
}

trait ResultOrNone {
    fn result_or_none(&self, op: Op) -> Option<Value>;
}

impl ResultOrNone for Module {
    fn result_or_none(&self, op: Op) -> Option<Value> {
        self.results(op).first().copied()
    }
}

fn is_f32(m: &Module, v: Option<Value>) -> bool {
    v.and_then(|v| m.value_type(v).as_tensor().map(|t| t.elem())) == Some(ScalarType::F32)
}

/// The steps of a blocked convolution's initial epilogue.
#[derive(Copy, Clone)]
enum Epilogue {
    /// `+ bias` (one operand, per channel).
    Bias,
    /// `select(mask > 0, y, 0)` (operands: the per-channel mask, 1 for real channels and
    /// 0 for padding, and a scalar zero).
    ZeroPadding,
}

impl Epilogue {
    fn operands(self) -> usize {
        match self {
            Epilogue::Bias => 1,
            Epilogue::ZeroPadding => 2,
        }
    }
}

fn round_up(n: i64, b: i64) -> i64 {
    (n + b - 1) / b * b
}

fn ints(m: &Module, op: Op, name: &str) -> Vec<i64> {
    m.attr_or_default(op, name).and_then(|a| a.as_i64_list()).expect("verified attribute")
}

/// The bf16 dot microkernel a target has: none, on vectors, or on AMX tiles.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Dot {
    None,
    Vector,
    Amx,
}

fn block_conv(m: &mut Module, op: Op, lanes: i64, row_speed: f64, dot: Dot, multipliers: bool) {
    let bf16_dot = dot != Dot::None;
    let (xs, ws, ys) = (shape(m, m.operand(op, 0)), shape(m, m.operand(op, 1)), shape(m, m.result(op, 0)));
    let groups = m.attr_or_default(op, "groups").and_then(|a| a.as_i64()).unwrap_or(1);
    let (c, o, per_group) = (xs[1], ws[0], ws[1]);
    let class = classify_conv(m, op);
    let depthwise = class == Some(ConvClass::Depthwise);
    // A channel multiplier the depthwise template computes: a power of two below the
    // lanes, whose outputs it interleaves from one vector per multiple, on whole blocks
    // of input channels (each makes whole output blocks, none of padding only).
    let multiplier = Some(o / c).filter(|&k| {
        multipliers
            && class == Some(ConvClass::Multiplier)
            && (k as u64).is_power_of_two()
            && k < lanes
            && c % lanes == 0
    });
    // (input block, filter input block, output block, groups in padded channels)
    let (ib, wib, ob, padded_groups) = if depthwise || multiplier.is_some() {
        (lanes, 1, lanes, round_up(c, lanes))
    } else if groups == 1 {
        // Few input channels (an image's colours) stay unblocked, unless the input
        // comes blocked from another kernel anyway, or the bf16 dot kernels read them
        // (in two pairs: the colours padded to 4).
        let ib = if c < lanes && !from_kernel(m, m.operand(op, 0), lanes) {
            let dot_stem = bf16_dot
                && c <= BF16_STEM_CHANNELS
                && widened_bf16(m, m.operand(op, 0)).is_some()
                && holds_bf16_values(m, m.operand(op, 1));
            if dot_stem { BF16_STEM_CHANNELS } else { 1 }
        } else {
            lanes
        };
        // On AMX tiles, blocks of two vectors of channels, where they divide the
        // channels: one `tdpbf16ps` takes 16 pairs of a row's input channels, which
        // blocks of 16 channels give only 8 of (a 1x1 convolution's step; 24 for a
        // 3x3's kernel row, in chunks of 12) at the cost of 16. Not where a layout
        // transform would sit between this kernel and another: an input a kernel
        // stores in blocks of 16, an output some kernel reads in blocks of 16.
        let (x, y) = (m.operand(op, 0), m.result(op, 0));
        let amx = dot == Dot::Amx && ib % 2 == 0 && amx_blocks(m, op);
        let ib = if amx && c % (2 * lanes) == 0 && !from_kernel(m, x, lanes) { 2 * lanes } else { ib };
        let ob = if amx && o % (2 * lanes) == 0 && feeds_amx_blocks(m, y, lanes, 0) { 2 * lanes } else { lanes };
        (ib, ib, ob, 1)
    } else if per_group % lanes == 0 && (o / groups) % lanes == 0 {
        (lanes, lanes, lanes, groups)
    } else if group_padding_pays(o / groups, ys[3], lanes, row_speed) {
        block_group_padded(m, op, lanes);
        return;
    } else {
        // Groups that fill no block, or a channel multiplier: blocks of one channel (NCHW
        // viewed as NCHW1c) for the row template, which vectorizes whole rows when the
        // padding is in the input.
        crate::pad_input(m, op);
        (1, 1, 1, groups)
    };
    // bf16 operands for the bf16 dot kernels: the input's bf16 value itself (the policy
    // rounded it) and the constant filter cast to bf16 and packed in pairs of input
    // channels, when the blocks split in pairs.
    let bf16_input = widened_bf16(m, m.operand(op, 0))
        .filter(|_| bf16_dot && !depthwise && ib == wib && ib % 2 == 0 && holds_bf16_values(m, m.operand(op, 1)));
    if let Some(x16) = bf16_input {
        m.set_operand(op, 0, x16);
    }
    // The input (padded above for the row template).
    let xs = shape(m, m.operand(op, 0));
    let cp = round_up(c, ib);
    let op_ = if depthwise { cp } else { round_up(o, ob) };
    let (x, w) = (m.operand(op, 0), m.operand(op, 1));
    let bias = m.operands(op).get(2).copied();
    let mut strides = ints(m, op, "strides");
    let mut ins = Inserter::before(m, op);
    // A strided 1x1 convolution reads every s-th pixel: the input is subsampled first
    // (a copy of the pixels it reads), so the pointwise template runs over whole
    // flattened rows instead of short strided ones.
    let pointwise_filter = ws[2] == 1 && ws[3] == 1 && groups == 1;
    let unpadded = ints(ins.m, op, "pads").iter().all(|&p| p == 0) && ints(ins.m, op, "dilations") == [1, 1];
    let (x, xs) = if pointwise_filter && unpadded && strides != [1, 1] {
        let sizes = vec![xs[0], xs[1], ys[2], ys[3]];
        let attrs = AttrDict::new()
            .with("starts", Attribute::i64_list(&[0, 0, 0, 0]))
            .with("sizes", Attribute::i64_list(&sizes))
            .with("steps", Attribute::i64_list(&[1, 1, strides[0], strides[1]]));
        strides = vec![1, 1];
        (ins.inferred(&g::SLICE, &[x], attrs), sizes)
    } else {
        (x, xs)
    };
    let xb = ins.layout(x, &Layout::nchw(), &Layout::nchwc(ib), vec![xs[0], cp / ib, xs[2], xs[3], ib]);
    let wshape = vec![op_ / ob, round_up(per_group, wib) / wib, ws[2], ws[3], wib, ob];
    // A multiplier's filter in the order the template computes: the output channels of
    // a block of input channels, one block per multiple.
    let w = match multiplier {
        Some(k) => multiplier_order(&mut ins, w, &ws, c, k, lanes),
        None => w,
    };
    let wb = if bf16_input.is_some() {
        let cast = ins.op(&g::CAST, &[w], AttrDict::new(), vec![tensor_type(ws.clone(), ScalarType::BF16)]);
        let w16 = ins.m.result(cast, 0);
        let pairs = [&wshape[..4], &[wib / 2, ob, 2]].concat();
        ins.layout(w16, &Layout::oihw(), &Layout::oihw_pairs(wib, ob), pairs)
    } else {
        ins.layout(w, &Layout::oihw(), &Layout::oihw_packed(wib, ob), wshape)
    };
    let raw = tensor_type(vec![ys[0], op_ / ob, ys[2], ys[3], ob], ScalarType::F32);
    let mut attrs = AttrDict::new();
    attrs.set("strides", Attribute::i64_list(&strides));
    for name in ["pads", "dilations"] {
        let v = ints(ins.m, op, name);
        attrs.set(name, Attribute::i64_list(&v));
    }
    attrs.set("groups", Attribute::i64(padded_groups));
    attrs.set(LOGICAL_CHANNELS, Attribute::i64_list(&[c, o]));
    let mut operands = vec![xb, wb];
    let mut extra = Vec::new();
    if let Some(b) = bias {
        let b4 = ins.reshape(b, vec![1, o, 1, 1]);
        operands.push(ins.layout(b4, &Layout::nchw(), &Layout::nchwc(ob), vec![1, op_ / ob, 1, 1, ob]));
        extra.push(Epilogue::Bias);
    }
    // The padded output channels are sums of products with zero filter lanes, which an
    // infinite or NaN input makes NaN: they are set to zero, so the next convolution's
    // zero filter lanes read zeros. (A depthwise convolution's padded channels multiply
    // padded input channels, which are zero.)
    if op_ != o && !depthwise {
        zero_padded_channels(&mut ins, &mut operands, &mut extra, op_ / ob, ob, |ch| ch < o);
    }
    let yb = blocked_conv(&mut ins, op, operands, extra, attrs, raw);
    let y = ins.layout(yb, &Layout::nchwc(ob), &Layout::nchw(), ys);
    m.replace_op(op, &[y]);
}

/// The filter `w` (`[c * k, 1, kh, kw]`) of a convolution with channel multiplier `k` on
/// `c` input channels (whole blocks of `lanes`), its output channels in the order of a
/// blocked multiplier's packed filter (`ops::kernel::multiplier_blocks`): channel
/// `(i * k + j) * lanes + l` is output channel `(i * lanes + l) * k + j`.
fn multiplier_order(ins: &mut Inserter, w: Value, ws: &[i64], c: i64, k: i64, lanes: i64) -> Value {
    let taps = ws[2] * ws[3];
    let split = ins.reshape(w, vec![c / lanes, lanes, k, taps]);
    let attrs = AttrDict::new().with("perm", Attribute::i64_list(&[0, 2, 1, 3]));
    let reordered = ins.inferred(&g::TRANSPOSE, &[split], attrs);
    ins.reshape(reordered, vec![c * k, 1, ws[2], ws[3]])
}

/// Appends the epilogue step that zeroes padded output channels (`real(channel)` is
/// false for them) of `blocks` blocks of `block`: the mask and the scalar zero. A padded
/// channel is a sum of products with zero filter lanes, which an infinite or NaN input
/// makes NaN; zeroed, the next convolution's zero filter lanes read zeros.
fn zero_padded_channels(
    ins: &mut Inserter,
    operands: &mut Vec<Value>,
    extra: &mut Vec<Epilogue>,
    blocks: i64,
    block: i64,
    real: impl Fn(i64) -> bool,
) {
    let mask: Vec<f32> = (0..blocks * block).map(|ch| if real(ch) { 1.0 } else { 0.0 }).collect();
    let f32s = |shape: Vec<i64>, values: &[f32]| {
        let ty = TensorType::new(shape, ScalarType::F32).expect("a valid shape");
        DenseElements::from_f32s(ty, values).expect("one value per element")
    };
    let (mask, zero) = (f32s(vec![1, blocks, 1, 1, block], &mask), f32s(vec![], &[0.0]));
    operands.push(ins.constant(mask));
    operands.push(ins.constant(zero));
    extra.push(Epilogue::ZeroPadding);
}

/// The blocked convolution of `op` (`graph.conv2d_nchwc`) on `operands` (input, filter,
/// then the epilogue's), with the epilogue `extra` describes; its raw result.
fn blocked_conv(
    ins: &mut Inserter,
    op: Op,
    operands: Vec<Value>,
    extra: Vec<Epilogue>,
    attrs: AttrDict,
    raw: Type,
) -> Value {
    let mut regions = Vec::new();
    if !extra.is_empty() {
        let loc = ins.m.loc(op).clone();
        let types: Vec<_> = operands[2..].iter().map(|&v| ins.m.value_type(v).clone()).collect();
        regions.push(new_epilogue(ins.m, &loc, &raw, &types, |m, block, acc, args| {
            let mut at = 0;
            let mut r = acc;
            for step in extra {
                let mut append = |def, operands: &[Value]| {
                    let op = m.append_inferred(block, def, operands, AttrDict::new(), loc.clone());
                    m.result(op.expect("broadcastable epilogue operands"), 0)
                };
                r = match step {
                    Epilogue::Bias => append(&g::ADD, &[r, args[at]]),
                    Epilogue::ZeroPadding => {
                        let keep = append(&g::GREATER, &[args[at], args[at + 1]]);
                        append(&g::SELECT, &[keep, r, args[at + 1]])
                    }
                };
                at += step.operands();
            }
            r
        }));
    }
    let conv = ins.op_with_regions(&g::CONV2D_NCHWC, &operands, attrs, vec![raw], regions);
    ins.m.result(conv, 0)
}

/// Whether padding each group's output channels to whole blocks of `lanes` (the blocked
/// templates then take the convolution, multiplying `gout_p / gout` times the work)
/// beats the row template on output rows of `ow` pixels (its vectors along a row: as
/// many full ones as cover it, the last overlapping the one before, when the row holds
/// a full one; else the widest that fit, then narrower ones, then scalars, each costing
/// about what a full one does). `row_speed` is the row template's speed per lane next
/// to the blocked templates': below 1 when they run in microkernels of wider vectors
/// than the backend's own code, which runs the row template.
fn group_padding_pays(gout: i64, ow: i64, lanes: i64, row_speed: f64) -> bool {
    let padded = gout as f64 / round_up(gout, lanes) as f64;
    let vectors = if ow >= lanes {
        (ow + lanes - 1) / lanes
    } else {
        let (mut rest, mut width, mut vectors) = (ow, lanes, 0);
        while rest > 0 {
            let w = if width >= 4 { width } else { 1 };
            vectors += rest / w;
            rest %= w;
            width /= 2;
        }
        vectors
    };
    let rows = (ow as f64 / lanes as f64) / vectors.max(1) as f64;
    padded > rows * row_speed
}

/// A grouped convolution whose groups fill no whole block, blocked with the input in
/// blocks of `ib = gcd(gin, lanes)` channels (`NCHW{ib}c`: each group is whole blocks,
/// none padded) and each group's output channels padded to whole blocks of `lanes`
/// (`NGCHW{lanes}c` viewed as `NCHW{lanes}c` of `G x ceil(gout / lanes)` blocks; the
/// filter `GOIHW{ib}i{lanes}o`), so that the direct template's groups hold whole blocks.
fn block_group_padded(m: &mut Module, op: Op, lanes: i64) {
    let (xs, ws, ys) = (shape(m, m.operand(op, 0)), shape(m, m.operand(op, 1)), shape(m, m.result(op, 0)));
    let groups = m.attr_or_default(op, "groups").and_then(|a| a.as_i64()).unwrap_or(1);
    let (gin, gout) = (ws[1], ws[0] / groups);
    let ib = (1..=lanes).rev().find(|b| gin % b == 0 && lanes % b == 0).unwrap_or(1);
    let (gin_b, gout_b) = (gin / ib, round_up(gout, lanes) / lanes);
    let layout = |text: String| Layout::parse(&text).expect("a valid layout");
    let (x, w) = (m.operand(op, 0), m.operand(op, 1));
    let bias = m.operands(op).get(2).copied();
    let mut ins = Inserter::before(m, op);
    let xb = ins.layout(x, &Layout::nchw(), &Layout::nchwc(ib), vec![xs[0], xs[1] / ib, xs[2], xs[3], ib]);
    let xg = layout(format!("NGCHW{lanes}c"));
    let w5 = ins.reshape(w, vec![groups, gout, gin, ws[2], ws[3]]);
    let wg = layout(format!("GOIHW{ib}i{lanes}o"));
    let wb = ins.layout(w5, &layout("GOIHW".into()), &wg, vec![groups, gout_b, gin_b, ws[2], ws[3], ib, lanes]);
    let wb = ins.reshape(wb, vec![groups * gout_b, gin_b, ws[2], ws[3], ib, lanes]);
    let mut attrs = AttrDict::new();
    for name in ["strides", "pads", "dilations"] {
        let v = ints(ins.m, op, name);
        attrs.set(name, Attribute::i64_list(&v));
    }
    attrs.set("groups", Attribute::i64(groups));
    attrs.set(LOGICAL_CHANNELS, Attribute::i64_list(&[xs[1], ws[0]]));
    let blocks = groups * gout_b;
    let mut operands = vec![xb, wb];
    let mut extra = Vec::new();
    if let Some(b) = bias {
        let b2 = ins.reshape(b, vec![groups, gout]);
        let bb = ins.layout(b2, &layout("GC".into()), &layout(format!("GC{lanes}c")), vec![groups, gout_b, lanes]);
        operands.push(ins.reshape(bb, vec![1, blocks, 1, 1, lanes]));
        extra.push(Epilogue::Bias);
    }
    if gout % lanes != 0 {
        zero_padded_channels(&mut ins, &mut operands, &mut extra, blocks, lanes, |ch| ch % (gout_b * lanes) < gout);
    }
    let raw = tensor_type(vec![ys[0], blocks, ys[2], ys[3], lanes], ScalarType::F32);
    let yb = blocked_conv(&mut ins, op, operands, extra, attrs, raw);
    let y6 = ins.reshape(yb, vec![ys[0], groups, gout_b, ys[2], ys[3], lanes]);
    let y5 = ins.layout(y6, &xg, &layout("NGCHW".into()), vec![ys[0], groups, gout, ys[2], ys[3]]);
    let y = ins.reshape(y5, ys);
    m.replace_op(op, &[y]);
}

/// Whether `v` is computed, through elementwise ops, from a kernel's result in
/// `NCHW{lanes}c` (a transform from that layout).
fn from_kernel(m: &Module, v: Value, lanes: i64) -> bool {
    let mut v = v;
    while let Some(d) = m.defining_op(v) {
        if let Some((src, _)) = transform_layouts(m, d) {
            return src == Layout::nchwc(lanes);
        }
        if !m.has_trait(d, tcc_ir::Traits::ELEMENTWISE) || m.operands(d).is_empty() {
            return false;
        }
        v = m.operand(d, 0);
    }
    false
}

/// Whether convolution `op` may take AMX's blocks of two vectors of channels:
/// ungrouped, on a widened bf16 input with a filter of bf16 values (the bf16 dot
/// kernels' case).
fn amx_blocks(m: &Module, op: Op) -> bool {
    let groups = m.attr_or_default(op, "groups").and_then(|a| a.as_i64()).unwrap_or(1);
    groups == 1 && widened_bf16(m, m.operand(op, 0)).is_some() && holds_bf16_values(m, m.operand(op, 1))
}

/// Whether every kernel that reads `v`, directly or through elementwise ops and pools
/// (casts, activations, residual additions), takes blocks of `2 * lanes` channels on
/// AMX: a convolution that [`amx_blocks`] allows, on whole blocks of them. Other ops
/// take any block (a transform to their layout either way). Walks at most 64 ops deep.
fn feeds_amx_blocks(m: &Module, v: Value, lanes: i64, depth: usize) -> bool {
    depth < 64
        && m.uses(v).iter().all(|u| {
            let op = u.op;
            if m.is(op, &g::CONV2D) {
                u.index == 0 && amx_blocks(m, op) && shape(m, v)[1] % (2 * lanes) == 0
            } else if m.has_trait(op, tcc_ir::Traits::ELEMENTWISE)
                || m.is(op, &g::MAX_POOL2D)
                || m.is(op, &g::AVG_POOL2D)
            {
                m.results(op).iter().all(|&r| feeds_amx_blocks(m, r, lanes, depth + 1))
            } else {
                true
            }
        })
}

fn block_pool(m: &mut Module, op: Op, lanes: i64) {
    let (xs, ys) = (shape(m, m.operand(op, 0)), shape(m, m.result(op, 0)));
    // In the blocks of two vectors its input comes in from a kernel (AMX's convolutions).
    let lanes = if xs[1] % (2 * lanes) == 0 && from_kernel(m, m.operand(op, 0), 2 * lanes) { 2 * lanes } else { lanes };
    let cp = round_up(xs[1], lanes);
    let def = if m.is(op, &g::MAX_POOL2D) { &g::MAX_POOL2D_NCHWC } else { &g::AVG_POOL2D_NCHWC };
    let attrs = m.attrs(op).clone();
    let x = m.operand(op, 0);
    let mut ins = Inserter::before(m, op);
    let xb = ins.layout(x, &Layout::nchw(), &Layout::nchwc(lanes), vec![xs[0], cp / lanes, xs[2], xs[3], lanes]);
    let pooled = ins.inferred(def, &[xb], attrs);
    let y = ins.layout(pooled, &Layout::nchwc(lanes), &Layout::nchw(), ys);
    m.replace_op(op, &[y]);
}

fn pack_matmul(m: &mut Module, op: Op, target: &Target) {
    let (a, b) = (m.operand(op, 0), m.operand(op, 1));
    let (sa, sb, sy) = (shape(m, a), shape(m, b), shape(m, m.result(op, 0)));
    if sa.len() < 2 || sb.len() < 2 {
        return;
    }
    let packable = sb[..sb.len() - 2].iter().all(|&d| d == 1);
    if !packable || constant_value(m, b).is_none() {
        // Two activations with the same batch dimensions (attention), or a batch of
        // constant right operands (a Winograd convolution's transformed filters): the
        // batched kernel reads the right operand as it is.
        if sa.len() == sb.len() && sa[..sa.len() - 2] == sb[..sb.len() - 2] {
            let mut ins = Inserter::before(m, op);
            let y = ins.inferred(&g::BATCH_MATMUL, &[a, b], AttrDict::new());
            m.replace_op(op, &[y]);
        }
        return;
    }
    let (k, n) = (sb[sb.len() - 2], sb[sb.len() - 1]);
    let rows: i64 = sa[..sa.len() - 1].iter().product();
    // The column block the rewrite search chose (`rhs_block`), when the target can run it.
    let chosen = m.attr(op, "rhs_block").and_then(|a| a.as_i64());
    let lanes = target.f32_lanes();
    let nb = match chosen {
        Some(b) if b > 0 && b % lanes == 0 => b,
        _ => crate::kernel_config::matmul_block(target, rows, n),
    };
    let mut out = sa.clone();
    *out.last_mut().expect("rank >= 2") = n;
    let bf16_input = widened_bf16(m, a).filter(|_| target.bf16_dot && k % 2 == 0 && holds_bf16_values(m, b));
    let mut ins = Inserter::before(m, op);
    let b2 = ins.reshape(b, vec![k, n]);
    // The dot tile stores whole vectors: a bf16 matmul computes N rounded up to them
    // (zero weights past N: a classifier's 1000 columns as 1008), sliced back to N.
    let wide = if bf16_input.is_some() { (n + BF16_DOT_LANES - 1) / BF16_DOT_LANES * BF16_DOT_LANES } else { n };
    let (a, bp) = match bf16_input {
        Some(x) => {
            // The largest block of whole dot vectors up to `nb` that divides the columns.
            let lanes = BF16_DOT_LANES;
            let nb = (1..=nb / lanes).rev().map(|v| v * lanes).find(|b| wide % b == 0).unwrap_or(lanes);
            let cast = ins.op(&g::CAST, &[b2], AttrDict::new(), vec![tensor_type(vec![k, n], ScalarType::BF16)]);
            let bq = ins.m.result(cast, 0);
            (x, ins.layout(bq, &Layout::kn(), &Layout::nk_pairs(nb), vec![wide / nb, k / 2, nb, 2]))
        }
        None => (a, ins.layout(b2, &Layout::kn(), &Layout::nk_packed(nb), vec![(n + nb - 1) / nb, k, nb])),
    };
    let mut wide_out = out.clone();
    *wide_out.last_mut().expect("rank >= 2") = wide;
    let mm = ins.op(&g::MATMUL_PACKED, &[a, bp], AttrDict::new(), vec![tensor_type(wide_out.clone(), ScalarType::F32)]);
    let mut r = ins.m.result(mm, 0);
    if wide != n {
        let attrs = AttrDict::new()
            .with("starts", Attribute::i64_list(&vec![0; out.len()]))
            .with("sizes", Attribute::i64_list(&out));
        r = ins.inferred(&g::SLICE, &[r], attrs);
    }
    let y = ins.reshape(r, sy);
    m.replace_op(op, &[y]);
}

/// Whether `v` is an f32 constant of bf16 values only (each element's low 16 bits
/// zero: the bf16 policy rounded it, or the model's weights were bf16), so that casting
/// it to bf16 is exact and an fp32 compile stays exact.
fn holds_bf16_values(m: &Module, v: Value) -> bool {
    let Some(d) = constant_value(m, v).filter(|d| d.elem() == ScalarType::F32) else { return false };
    match d.raw_bytes() {
        None => d.element_bytes(0)[..2] == [0, 0],
        Some(bytes) => bytes.chunks_exact(4).all(|b| b[0] == 0 && b[1] == 0),
    }
}

/// The bf16 value `v` widens, if it is `cast(x : bf16 -> f32)`.
fn widened_bf16(m: &Module, v: Value) -> Option<Value> {
    let d = m.defining_op(v).filter(|&d| m.is(d, &g::CAST))?;
    let x = m.operand(d, 0);
    let elem = |v: Value| m.value_type(v).as_tensor().map(|t| t.elem());
    (elem(x) == Some(ScalarType::BF16) && elem(v) == Some(ScalarType::F32)).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::group_padding_pays as pays;

    #[test]
    fn groups_are_padded_when_rows_are_too_narrow_for_the_row_template() {
        // RegNet-X 8GF's groups of 120 at 28, 14 and 7 pixels with 16 lanes: padded to
        // 128 they waste 6%, the row template's tails more.
        assert!(pays(120, 28, 16, 1.0));
        assert!(pays(120, 7, 16, 1.0));
        // Groups of 24 on 28-pixel rows: two overlapping vectors (28 of 32 lanes) beat
        // 24 of 32 padded lanes.
        assert!(!pays(24, 28, 16, 1.0));
        // Groups of 40 on 56-pixel rows: three whole vectors and a half, against 40
        // of 48 lanes: rows.
        assert!(!pays(40, 56, 16, 1.0));
        // Narrow groups never pay for padding to 16 lanes on whole-vector rows.
        assert!(!pays(4, 56, 16, 1.0));
        assert!(!pays(2, 112, 16, 1.0));
        // With 4 lanes, 6 of 8 padded lanes beat two overlapping vectors on a 5-pixel
        // row (5 of 8 lanes).
        assert!(pays(6, 5, 4, 1.0));
        // With AVX-512 microkernels and the row template in Cranelift's 4-lane code
        // (half speed per lane), padding 40 to 48 and 8 to 16 pays, 4 to 16 does not.
        assert!(pays(40, 56, 16, 0.5));
        assert!(pays(8, 28, 16, 0.5));
        assert!(!pays(4, 56, 16, 0.5));
    }
}
