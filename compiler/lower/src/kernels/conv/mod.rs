//! Convolution templates for `graph.conv2d_nchwc` (NeoCPU's schedule).
//!
//! - **direct** (any KxK, stride, dilation, groups whose channels fill whole blocks):
//!   parallel over (batch, group of `tile_oc` output-channel blocks, output row, column
//!   chunk). Each output row is split at compile time into runs of columns with the same
//!   in-bounds `kw` taps ([`super::row_runs`]); a run is covered by register tiles of
//!   `tile_w` columns x `tile_oc` blocks, whose accumulators are loop-carried vectors
//!   across the input-channel blocks, the in-bounds `kh` taps and the `kw` taps. The
//!   innermost step broadcasts one input element and issues one FMA per accumulator
//!   column against the filter vectors it loaded once. With `chunk_ic`, a task is one
//!   channel-block group instead, running all its rows once per pass over `chunk_ic`
//!   input-channel blocks, the partial sums kept in the output between passes.
//! - **pointwise** (1x1, stride 1, no padding): the direct template on the flattened
//!   `H x W` row, so tiles never stop at a row's end and there are no edges.
//! - **depthwise** (one input channel per output channel): a tile of `tile_w` columns x
//!   one block, multiplying input vectors by filter vectors lane by lane; with a channel
//!   multiplier `k`, one input block by `k` filter blocks, interleaved into `k` output
//!   blocks.
//!
//! The direct and pointwise templates' register tile in generated code is
//! [`register_tile`]; with a target that calls microkernels, the direct, pointwise and
//! depthwise tiles are calls ([`microkernel`]).
//!
//! The epilogue runs on the accumulators before the single store. Shapes a template does
//! not fit (blocks that are not a multiple of the vector width, groups that split a
//! block) use the scalar reference nest.

use tcc_dialect_graph::config::{ConvClass, ConvConfig, ConvTemplate, Edges, classify_conv};
use tcc_dialect_graph::ops::kernel::multiplier_blocks;
use tcc_ir::Value;
use tcc_ir::scalar::Compare;
use tcc_target::BF16_DOT_LANES;

use super::{
    Run, edge_tiles, epilogue_operands_with_bias, for_each_tile, in_last_chunk, once_if, reference, row_runs,
    vector_width, work_blocks,
};
use crate::builder::Builder;
use crate::emit::OpLowering;
use crate::emit::nn::inside_range;

mod depthwise;
mod microkernel;
mod register_tile;

use depthwise::depthwise;
use register_tile::{direct_tile, load_tile, store_tile};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Template {
    Direct,
    Pointwise,
    Depthwise,
}

/// Everything a template needs, read once from the op.
#[derive(Clone)]
struct Conv {
    template: Template,
    /// Input `[N, ICB, H, W, ib]`, filter `[OB, WICB, KH, KW, wib, ob]`, output
    /// `[N, OB, OH, OW, ob]` (for pointwise: `H = OH = 1`, `W = OW = H x W`).
    x: [i64; 5],
    w: [i64; 6],
    o: [i64; 5],
    stride: [i64; 2],
    pad: [i64; 2],
    dilation: [i64; 2],
    groups: i64,
    /// Depthwise template: output blocks per input block (a channel multiplier; 1 for
    /// depthwise).
    multiplier: i64,
    /// Vector width and vectors per output-channel block.
    width: u32,
    vectors: i64,
    tile_w: i64,
    /// Output-channel blocks per tile. It need not divide a channel group's blocks:
    /// each group's last tile then takes the blocks left ([`Conv::tail`]).
    tile_oc: i64,
    unroll_kw: bool,
    unroll_ic: i64,
    /// Edge columns in tiles of their own (uniform taps everywhere) rather than in the
    /// first and last whole tiles (kernel columns unrolled there).
    split_edges: bool,
    /// Input-channel blocks per pass (all of them when absent). With passes, a task
    /// covers every row of its output-channel group, pass by pass: the filters of one
    /// pass are reused by all rows from L1 and streamed from memory once, evenly,
    /// instead of in a burst at the start of each row's task; partial sums go through
    /// the output.
    chunk_ic: Option<i64>,
    /// Prefetch the next channel group's filters into L2 while this group's run (when
    /// the filters stream from memory).
    prefetch: bool,
    /// Direct template: prefetch the input rows the next output row reads (an input
    /// that comes cold from the caller, read a few rows apart).
    prefetch_input: bool,
    /// Output columns per task (a whole row when absent or when the row has edge
    /// columns), the tasks over the same columns running one after another for every
    /// channel group; absent: a channel group's tasks run one after another.
    task_w: Option<i64>,
    /// bf16 input and pair filter (`[.., i/2, o, 2]`, `wb` a view of it as `[.., i,
    /// o]`): every tile is a call of the bf16 dot microkernel.
    pairs: bool,
    /// Buffers as the template indexes them (views for pointwise) and the epilogue
    /// operands with the shapes they are indexed with.
    xb: Value,
    wb: Value,
    ob: Value,
    /// The input as `[N, ICB, H, W * ib]` and the filter as `[OB, WICB, KH, KW * wib, ob]`:
    /// a kernel row's columns and channels as one contiguous run.
    xrow: Value,
    wrow: Value,
    epilogue: Vec<(Value, Vec<i64>)>,
}

fn dims<const N: usize>(v: Vec<i64>) -> [i64; N] {
    v.try_into().expect("verified rank")
}

impl Conv {
    /// The template plan for `c`, or `None` when only the reference nest fits.
    fn new(b: &mut Builder, c: &OpLowering) -> Option<Conv> {
        // bf16 pairs (`[.., i/2, o, 2]`) are the packed blocks `[.., i, o]` they hold,
        // read only by the bf16 dot microkernel: a kernel column's channels of one
        // block take as many elements, so every stride is the same (and an element
        // address at a block's start too, through a view of that shape).
        let pairs = c.in_shape(1).len() == 7;
        let (x, o): ([i64; 5], [i64; 5]) = (dims(c.in_shape(0)), dims(c.out_shape(0)));
        let w: [i64; 6] = match c.in_shape(1)[..] {
            [ob, icb, kh, kw, half, o, 2] => [ob, icb, kh, kw, 2 * half, o],
            _ => dims(c.in_shape(1)),
        };
        let (s, p, d) = (c.ints("strides"), c.ints("pads"), c.ints("dilations"));
        let groups = c.int("groups");
        let cfg = ConvConfig::of(c.g, c.op);
        let width = vector_width(c.lanes, o[4])?;
        let (ib, wib, ob) = (x[4], w[4], w[5]);
        let class = classify_conv(c.g, c.op).expect("a convolution");
        // The depthwise template reads input and output blocks of one width; a channel
        // multiplier's (a power of two up to the vector's lanes, blocks of one vector)
        // `multiplier` output blocks per input block, its filter packed by multiple.
        let multiplier = multiplier_blocks(&x, &w, groups).map_or(1, |(k, _)| k);
        let depthwise = match class {
            ConvClass::Depthwise => ib == ob,
            ConvClass::Multiplier => {
                multiplier > 1
                    && o[4] == width as i64
                    && (multiplier as u64).is_power_of_two()
                    && multiplier <= width as i64
            }
            _ => false,
        };
        let template = match cfg.template {
            Some(ConvTemplate::Reference | ConvTemplate::Rows) => return None,
            Some(ConvTemplate::Depthwise) => Template::Depthwise,
            Some(ConvTemplate::Pointwise) => Template::Pointwise,
            Some(ConvTemplate::Direct) => Template::Direct,
            None => match class {
                ConvClass::Depthwise | ConvClass::Multiplier => Template::Depthwise,
                ConvClass::Pointwise => Template::Pointwise,
                ConvClass::Direct => Template::Direct,
            },
        };
        let pointwise = class == ConvClass::Pointwise;
        let fits = match template {
            Template::Depthwise => depthwise && !pairs,
            // Whole input-channel blocks per group, whole tiles of output blocks per group.
            Template::Direct | Template::Pointwise => {
                wib == ib && x[1] % groups == 0 && x[1] / groups == w[1] && o[1] % groups == 0
            }
        } && (template != Template::Pointwise || pointwise);
        // Pairs only in the dot microkernel's calls (AVX-512), whose vectors are the
        // blocks'.
        let dot = c.bf16_dot && o[4] % BF16_DOT_LANES == 0 && ib % 2 == 0;
        if !fits || (pairs && !dot) {
            return None;
        }
        let tile_oc = if template == Template::Depthwise { 1 } else { cfg.tile_oc().min(o[1] / groups) };
        let mut conv = Conv {
            template,
            x,
            w,
            o,
            stride: [s[0], s[1]],
            pad: [p[0], p[1]],
            dilation: [d[0], d[1]],
            groups,
            multiplier: if template == Template::Depthwise { multiplier } else { 1 },
            width,
            vectors: o[4] / width as i64,
            tile_w: cfg.tile_w(),
            tile_oc,
            unroll_kw: cfg.unroll_kw(),
            unroll_ic: cfg.unroll_ic(),
            split_edges: cfg.edges() == Edges::Split,
            chunk_ic: cfg.chunk_ic,
            prefetch: cfg.prefetch(),
            prefetch_input: cfg.prefetch_input(),
            task_w: cfg.task_w,
            xb: c.ins[0],
            wb: if pairs { b.view(c.ins[1], &w) } else { c.ins[1] },
            ob: c.outs[0],
            pairs,
            xrow: c.ins[0],
            wrow: c.ins[1],
            epilogue: epilogue_operands_with_bias(b, c, &[1, o[1], 1, 1, o[4]]),
        };
        if template == Template::Pointwise {
            conv.flatten(b)?;
        }
        let [n, icb, h, w_, ib] = conv.x;
        conv.xrow = b.view(conv.xb, &[n, icb, h, w_ * ib]);
        conv.wrow = b.view(conv.wb, &[w[0], w[1], w[2], w[3] * w[4], w[5]]);
        Some(conv)
    }

    /// Tiles of `tile_oc` output-channel blocks per channel group, the last one
    /// partial when `tile_oc` does not divide the group's blocks.
    fn tiles_per_group(&self) -> i64 {
        let blocks = self.o[1] / self.groups;
        (blocks + self.tile_oc - 1) / self.tile_oc
    }

    /// The plan of each channel group's last tile when it is partial: a tile of the
    /// blocks left (RegNet-Y 16GF's 1232 channels, 77 blocks: 19 tiles of 4 and one of
    /// 1, where only 1, 7 and 11 divide).
    fn tail(&self) -> Option<Conv> {
        let left = (self.o[1] / self.groups) % self.tile_oc;
        (left > 0).then(|| Conv { tile_oc: left, ..self.clone() })
    }

    /// Views the spatial dimensions of the input, output and epilogue operands as one
    /// row of `H x W` columns.
    fn flatten(&mut self, b: &mut Builder) -> Option<()> {
        let [n, icb, h, w, ib] = self.x;
        let [_, ob_n, oh, ow, ob] = self.o;
        let mut epilogue = Vec::new();
        for (buf, shape) in &self.epilogue {
            // Operands that vary over a spatial dimension must vary over both.
            let r = shape.len();
            let spatial: Vec<i64> = (0..2).map(|k| if r >= 3 - k { shape[r - 3 + k] } else { 1 }).collect();
            let flat = match spatial[..] {
                [1, 1] => 1,
                [a, c] if a == oh && c == ow => oh * ow,
                _ => return None,
            };
            let mut s = shape.clone();
            if r >= 3 {
                s[r - 3] = 1;
                s[r - 2] = flat;
            }
            let v = if s == *shape { *buf } else { b.view(*buf, &s) };
            epilogue.push((v, s));
        }
        self.xb = b.view(self.xb, &[n, icb, 1, h * w, ib]);
        self.ob = b.view(self.ob, &[self.o[0], ob_n, 1, oh * ow, ob]);
        self.x = [n, icb, 1, h * w, ib];
        self.o = [self.o[0], ob_n, 1, oh * ow, ob];
        self.epilogue = epilogue;
        Some(())
    }
}

pub fn emit(b: &mut Builder, c: &OpLowering) {
    if c.out_elem(0) == tcc_ir::ScalarType::BF16 {
        // A narrowed output (`narrow-outputs`): the dot tile where each output tile is one
        // call; the generated depthwise template (one store, after the whole epilogue).
        match Conv::new(b, c) {
            Some(conv) if microkernel::narrows(c, &conv) => direct(b, c, &conv),
            Some(conv) if conv.template == Template::Depthwise => depthwise(b, c, &conv),
            _ => reference::conv2d_nchwc(b, c),
        }
        return;
    }
    if ConvConfig::of(c.g, c.op).template == Some(ConvTemplate::Rows) && super::conv_rows::emit(b, c) {
        return;
    }
    match Conv::new(b, c) {
        None => reference::conv2d_nchwc(b, c),
        Some(conv) if conv.template == Template::Depthwise => depthwise(b, c, &conv),
        Some(conv) => direct(b, c, &conv),
    }
}

/// The kernel rows `[lo, hi)` that land inside the input for the output row at
/// `ohs = oh * stride`: constants when every row has all of them (no vertical padding
/// reached), so no loop is made for a single row (1x1 convs).
fn kernel_rows(b: &mut Builder, k: &Conv, ohs: Value, pt: Value, h: i64, kh_n: i64) -> (Value, Value) {
    let (oh_n, sh, dh) = (k.o[2], k.stride[0], k.dilation[0]);
    let all_inside = k.pad[0] == 0 && (oh_n - 1) * sh + (kh_n - 1) * dh < h;
    if all_inside {
        return (b.index(0), b.index(kh_n));
    }
    inside_range(b, ohs, pt, h, dh, kh_n)
}

/// Loops `lo..hi` carrying `accs`; no loop when the range is one known value.
fn reduce_range(
    b: &mut Builder,
    lo: Value,
    hi: Value,
    accs: Vec<Value>,
    body: impl FnOnce(&mut Builder, Value, &[Value]) -> Vec<Value>,
) -> Vec<Value> {
    let (l, h) = (const_index(b, lo), const_index(b, hi));
    if let (Some(l), Some(h)) = (l, h) {
        if h <= l {
            return accs;
        }
        if h == l + 1 {
            let iv = b.index(l);
            return body(b, iv, &accs);
        }
    }
    let one = b.index(1);
    b.for_loop(lo, hi, one, &accs, body)
}

fn const_index(b: &Builder, v: Value) -> Option<i64> {
    let op = b.m.defining_op(v)?;
    if tcc_dialect_loop::kind_of(b.m, op) != Some(tcc_dialect_loop::LoopOp::Const) {
        return None;
    }
    b.m.attr(op, "value")?.as_i64()
}

/// The parallel task loop over `dims`, outermost first, of convolution `k`'s tiles (its
/// blocks as [`work_blocks`] gives them for its FLOPs).
fn tasks(b: &mut Builder, k: &Conv, dims: [i64; 4], body: impl FnOnce(&mut Builder, [Value; 4])) {
    let total: i64 = dims.iter().product();
    let run = |b: &mut Builder, flat: Value| {
        let idx = b.unflatten(flat, &dims);
        body(b, [idx[0], idx[1], idx[2], idx[3]]);
    };
    if total > 1 {
        let [_, icb, kh, kw, ib, _] = k.w;
        let flops = 2 * k.o.iter().product::<i64>() * icb * kh * kw * ib;
        b.parallel_in_blocks(total, work_blocks(flops), run);
    } else {
        let zero = b.index(0);
        run(b, zero);
    }
}

fn direct(b: &mut Builder, c: &OpLowering, k: &Conv) {
    let [n_n, _, _, w, _] = k.x;
    let [_, wicb, _, kw_n, _, _] = k.w;
    let [_, _, oh_n, ow_n, _] = k.o;
    let groups_of_tiles = k.groups * k.tiles_per_group();
    let tail = k.tail();
    let runs = row_runs(ow_n, w, kw_n, k.stride[1], k.dilation[1], k.pad[1]);
    let chunk_ic = k.chunk_ic.unwrap_or(wicb).clamp(1, wicb);
    if chunk_ic < wicb {
        // Passes over input-channel blocks, each over all rows of the group.
        let passes = (wicb + chunk_ic - 1) / chunk_ic;
        tasks(b, k, [n_n, groups_of_tiles, 1, 1], |b, [n, tg, _, _]| {
            let pass = |b: &mut Builder, lo: Value, hi: Value, first: bool, last: bool| {
                let (zero, rows) = (b.index(0), b.index(oh_n));
                b.range(zero, rows, |b, oh| {
                    let zero = b.index(0);
                    let at = Tile { icb: (lo, hi), first, last, ..row_tile(b, k, n, tg, oh) };
                    with_tail(b, k, &tail, tg, |b, k| direct_row(b, c, k, &runs, 1, zero, &at));
                });
            };
            let (lo, hi) = (b.index(0), b.index(chunk_ic));
            pass(b, lo, hi, true, false);
            if passes > 2 {
                let (lo, hi) = (b.index(1), b.index(passes - 1));
                b.range(lo, hi, |b, p| {
                    let first = b.scale(p, chunk_ic);
                    let size = b.index(chunk_ic);
                    let end = b.add(first, size);
                    pass(b, first, end, false, false);
                });
            }
            let (lo, hi) = (b.index((passes - 1) * chunk_ic), b.index(wicb));
            pass(b, lo, hi, false, true);
        });
        return;
    }
    if microkernel::direct_over_rows(b, c, k, &runs, &tail) || microkernel::edges_over_rows(b, c, k, &runs, &tail) {
        return;
    }
    // Long rows (pointwise) split into column chunks: enough tasks for every core, and
    // at most `task_w` columns per task.
    let row_tasks = n_n * groups_of_tiles * oh_n;
    let chunks = if runs.len() == 1 {
        let for_cores = if row_tasks < 32 { 32 / row_tasks } else { 1 };
        let for_cache = k.task_w.map_or(1, |t| (ow_n + t - 1) / t);
        for_cores.max(for_cache).clamp(1, (ow_n / k.tile_w).max(1))
    } else {
        1
    };
    let row = |b: &mut Builder, n: Value, tg: Value, oh: Value, chunk: Value| {
        let at = row_tile(b, k, n, tg, oh);
        if k.prefetch_input {
            prefetch_next_rows(b, k, &at);
        }
        with_tail(b, k, &tail, tg, |b, k| direct_row(b, c, k, &runs, chunks, chunk, &at));
    };
    if k.task_w.is_some() {
        tasks(b, k, [n_n, oh_n, chunks, groups_of_tiles], |b, [n, oh, chunk, tg]| row(b, n, tg, oh, chunk));
    } else {
        tasks(b, k, [n_n, groups_of_tiles, oh_n, chunks], |b, [n, tg, oh, chunk]| row(b, n, tg, oh, chunk));
    }
}

/// Emits `body` for tile `tg` with `k`, or, when each channel group's last tile is
/// partial (`tail`), with `k` for the others and with `tail` for the last.
fn with_tail(b: &mut Builder, k: &Conv, tail: &Option<Conv>, tg: Value, body: impl Fn(&mut Builder, &Conv)) {
    let Some(tail) = tail else { return body(b, k) };
    let tpg = k.tiles_per_group();
    let within = if k.groups == 1 {
        tg
    } else {
        let tpg = b.index(tpg);
        b.rem(tg, tpg)
    };
    let last = b.index(tpg - 1);
    let is_last = b.cmp(Compare::Eq, within, last);
    once_if(b, is_last, false, |b| body(b, k));
    once_if(b, is_last, true, |b| body(b, tail));
}

/// The tile position of output row `oh` of image `n` and output-channel group `tg`,
/// with every input-channel block in one pass.
fn row_tile(b: &mut Builder, k: &Conv, n: Value, tg: Value, oh: Value) -> Tile {
    let [_, _, h, _, _] = k.x;
    let [_, wicb, kh_n, _, _, _] = k.w;
    let ohs = b.scale(oh, k.stride[0]);
    let pt = b.index(k.pad[0]);
    let (kh_lo, kh_hi) = kernel_rows(b, k, ohs, pt, h, kh_n);
    let ih0 = b.sub(ohs, pt);
    // Tile `tg` is tile `within` of channel group `group`.
    let (icb_base, ob0) = if k.groups == 1 {
        (b.index(0), b.scale(tg, k.tile_oc))
    } else {
        let tpg = b.index(k.tiles_per_group());
        let (group, within) = (b.div(tg, tpg), b.rem(tg, tpg));
        let first_block = b.scale(group, k.o[1] / k.groups);
        (b.scale(group, wicb), b.mul_add(within, k.tile_oc, first_block))
    };
    let all = (b.index(0), b.index(wicb));
    Tile { n, ob0, oh, ih0, kh: (kh_lo, kh_hi), icb_base, icb: all, first: true, last: true }
}

/// The tiles of one output row, or of its column chunk `chunk` of `chunks`.
fn direct_row(b: &mut Builder, c: &OpLowering, k: &Conv, runs: &[Run], chunks: i64, chunk: Value, at: &Tile) {
    if chunks == 1 && k.split_edges {
        // Each run of columns with the same taps on its own: uniform tiles only.
        for run in runs {
            let taps = run.taps;
            for_each_tile(b, *run, k.tile_w, |b, ow0, cols| direct_tile(b, c, k, at, ow0, &vec![taps; cols as usize]));
        }
        return;
    }
    if chunks == 1 {
        // With microkernels, the interior is one call that tiles it.
        let level = microkernel::level(c, k);
        let interior = |b: &mut Builder, start: i64, count: i64, taps: (i64, i64)| {
            let (start, count) = (b.index(start), b.index(count));
            level.is_some_and(|isa| microkernel::run(b, c, k, isa, at, (start, count), taps, None))
        };
        edge_tiles(b, k.tile_w, runs, interior, |b, ow0, taps| direct_tile(b, c, k, at, ow0, taps));
        return;
    }
    // A chunk takes a share of the row's whole tiles; the last one also the tail.
    let run = runs[0];
    let (whole, tail) = (run.len / k.tile_w, run.len % k.tile_w);
    let (chunks_v, one) = (b.index(chunks), b.index(1));
    let first = b.scale(chunk, whole);
    let first = b.div(first, chunks_v);
    let next = b.add(chunk, one);
    let end = b.scale(next, whole);
    let end = b.div(end, chunks_v);
    let full = vec![run.taps; k.tile_w as usize];
    // With microkernels, the chunk's whole tiles are one call that tiles them.
    let one_call = |b: &mut Builder| {
        let Some(isa) = microkernel::level(c, k) else { return false };
        let start = b.index(run.start);
        let ow0 = b.mul_add(first, k.tile_w, start);
        let tiles = b.sub(end, first);
        let count = b.scale(tiles, k.tile_w);
        microkernel::run(b, c, k, isa, at, (ow0, count), run.taps, None)
    };
    if !one_call(b) {
        b.range(first, end, |b, t| {
            let start = b.index(run.start);
            let ow0 = b.mul_add(t, k.tile_w, start);
            direct_tile(b, c, k, at, ow0, &full);
        });
    }
    if tail > 0 {
        in_last_chunk(b, chunk, chunks, |b| {
            let ow0 = b.index(run.start + whole * k.tile_w);
            direct_tile(b, c, k, at, ow0, &vec![run.taps; tail as usize]);
        });
    }
}

/// Where a tile's task is.
#[derive(Clone, Copy)]
struct Tile {
    n: Value,
    /// First output-channel block of the tile.
    ob0: Value,
    oh: Value,
    /// Input row of kernel row 0 (may be negative) and the in-bounds kernel rows.
    ih0: Value,
    kh: (Value, Value),
    /// First input-channel block of the tile's group.
    icb_base: Value,
    /// The pass: input-channel blocks `icb.0..icb.1` (past `icb_base`). The first pass
    /// starts from zero, later ones from the partial sums in the output; the last one
    /// applies the epilogue.
    icb: (Value, Value),
    first: bool,
    last: bool,
}

/// With `prefetch_input`, asks for every line of the input rows the output row after
/// `at`'s reads (its kernel rows, clamped to the input; all of the group's input-channel
/// blocks), so they are in cache when the task for that row starts.
fn prefetch_next_rows(b: &mut Builder, k: &Conv, at: &Tile) {
    let [n_n, xcb, h, w, ib] = k.x;
    let [_, wicb, kh_n, _, _, _] = k.w;
    let lines = (w * ib + 15) / 16;
    let flat = b.view(k.xb, &[n_n, xcb, h, w * ib]);
    let one = b.index(1);
    let next = b.add(at.oh, one);
    let next = b.min_const(next, k.o[2] - 1);
    let first = b.scale(next, k.stride[0]);
    let pad = b.index(k.pad[0]);
    let (lo, hi) = (b.index(0), b.index(wicb));
    b.range(lo, hi, |b, icb| {
        let cb = b.add(at.icb_base, icb);
        for kh in 0..kh_n {
            // Row `first - pad + kh * dilation`, clamped to [0, h - 1] without going negative.
            let down = b.index(kh * k.dilation[0]);
            let raised = b.add(first, down);
            let clamped = b.max(raised, pad);
            let row = b.sub(clamped, pad);
            let row = b.min_const(row, h - 1);
            let (l0, l1) = (b.index(0), b.index(lines));
            b.range(l0, l1, |b, line| {
                let col = b.scale(line, 16);
                b.prefetch(flat, &[at.n, cb, row, col]);
            });
        }
    });
}
