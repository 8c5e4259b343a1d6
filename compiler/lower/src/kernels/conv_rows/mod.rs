//! The row template for `graph.conv2d` (NCHW, f32): the convolutions the blocked
//! templates do not take, vectorized along each output row instead of along channels.
//! These are groups whose channels do not fill vector blocks (RegNet's and ResNeXt's
//! at any width, a block spanning groups would multiply zeros) and depthwise
//! convolutions with a channel multiplier (`M` output channels per input channel, so a
//! block of output channels would need each input lane `M` times).
//!
//! A task is `tile_oh` output rows of `tile_oc` channels of one group. A row splits
//! into runs of columns with the same in-bounds kernel columns ([`row_runs`]); a run is
//! covered by register tiles of `tile_oc` channels x `vectors` vectors of consecutive
//! output pixels x the task's rows, the rest of the run by one more tile whose last
//! vector overlaps the one before it (narrower vectors, then scalars, only for runs
//! narrower than a vector); the map's last block of rows overlaps the one before it
//! the same way. A tile's accumulators are loop-carried across the group's input
//! channels and, for one row, the in-bounds kernel rows; kernel columns (and, for
//! several rows, kernel rows) are unrolled. The innermost step loads each pixel vector
//! once (at stride 2: two loads and a shuffle keeping the even lanes) and broadcasts
//! one weight per channel for `vectors` FMAs, so every channel of the tile shares the
//! input loads; the rows of a tile share its broadcasts and each input row they read.
//! The bias is added in registers before the single store.
//!
//! With a target that calls microkernels, the runs at least a vector wide at stride 1
//! are microkernel calls instead, a task then covering up to 8 output rows
//! ([`microkernel`]).
//!
//! No channel is padded and nothing is multiplied by zero, whatever the group width;
//! the price is an NCHW input and output, which `propagate-layouts` converts to and from
//! the blocked layouts of the neighbouring kernels.

use tcc_ir::{AttrDict, Attribute, ScalarType, Value};

use super::{Run, apply_epilogue, epilogue_operands, row_runs, work_blocks};
use crate::builder::Builder;
use crate::emit::OpLowering;
use crate::emit::nn::inside_range;

mod flat;
mod microkernel;

/// Largest stride the template vectorizes along a row (a stride-2 vector is two loads
/// and a shuffle; wider strides run with scalar columns).
const VECTOR_STRIDE: i64 = 2;

/// Vectors of pixels per register tile at most, and output rows per tile at most.
const MAX_VECTORS: i64 = 4;
const MAX_ROWS: i64 = 4;

/// Output rows a task covers at most when its tiles are microkernel calls.
const MICROKERNEL_ROWS: i64 = 8;

/// Output rows a task covers at most when its tiles are microkernel calls of the
/// shared-rows kernels (3 x 3 kernels).
const SHARED_MICROKERNEL_ROWS: i64 = 32;

/// Kernel rows a tile of several output rows unrolls at most.
const MAX_UNROLLED_ROWS: i64 = 7;

/// A convolution as the template reads it.
struct Rows<'c, 'g> {
    /// The op: `graph.conv2d`, or `graph.conv2d_nchwc` in blocks of one channel (whose
    /// epilogue the tile applies before its stores).
    c: &'c OpLowering<'g>,
    /// Input `[N, C, H, W]`, output `[N, O, OH, OW]`, kernel `[KH, KW]`.
    n: i64,
    h: i64,
    w: i64,
    o: i64,
    oh: i64,
    ow: i64,
    kh: i64,
    kw: i64,
    stride: [i64; 2],
    /// Top and left padding.
    pad: [i64; 2],
    dilation: [i64; 2],
    /// Input and output channels per group.
    gin: i64,
    gout: i64,
    /// The target's f32 lanes, and the tile: output channels x vectors of pixels x
    /// output rows.
    lanes: u32,
    tile_oc: i64,
    vectors: i64,
    tile_oh: i64,
    /// The buffers as NCHW, OIHW and NCHW views; `graph.conv2d`'s bias; the epilogue's
    /// operands viewed without the trailing block of one channel (so the innermost
    /// dimension is the output column).
    x: Value,
    filter: Value,
    bias: Option<Value>,
    out: Value,
    epilogue: Vec<(Value, Vec<i64>)>,
    /// Runs of a vector or more as microkernel calls.
    microkernel: Option<microkernel::Plan>,
}

/// A register tile: output channels (a divisor of the group's, so tiles never cross a
/// group) x vectors of consecutive pixels x output rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    pub channels: i64,
    pub vectors: i64,
    pub rows: i64,
}

/// The register tile for `gout` channels per group on a target with `registers`
/// vector registers, for an output map of `[OH, OW]` pixels in vectors of `lanes`
/// (`max_rows` rows per tile at most) and a kernel of `[KH, KW]` taps whose rows are
/// `vertical` = `[stride, dilation]` apart.
///
/// A row's tile holds its accumulators, its pixel vectors and one broadcast weight per
/// channel in registers (LLVM re-reads the broadcasts from memory for every FMA
/// otherwise: groups of 40 at 56 pixels ran at 75% of the peak in 8 x 3 tiles, 81% in 5
/// x 4). Of the tiles that fit, the one with the fewest loads per FMA over the whole
/// row (each tile's broadcasts, each vector's pixels), then the most accumulators: a
/// row covered by one tile beats a tile and a rest (groups of 8 at 28 pixels: 62% in 8 x
/// 1 tiles, 81% in one 8 x 2; a multiplier of 4 at 56 pixels: 52% in 4 x 3, 71% in 4 x
/// 4). Then rows are added while the registers hold them and they save loads: rows of
/// one tile share its broadcasts and every input row they read ([`tile`]), and narrow
/// tiles get enough independent accumulators to hide the FMA latency (a multiplier of 2
/// at 28 pixels, one 2 x 2 tile a row: 45% of the peak in one row, 67% in four; at 56
/// pixels, 2 x 4 tiles: 51% in one row, 69% in two, 54% in four rows of 2 x 2 tiles).
pub fn tile_shape(
    gout: i64,
    [oh, ow]: [i64; 2],
    max_rows: i64,
    [kh, kw]: [i64; 2],
    vertical: [i64; 2],
    lanes: u32,
    registers: u32,
) -> Tile {
    let registers = registers as i64;
    // Vectors a row takes (the last one overlapping the one before it).
    let row = ((ow + lanes as i64 - 1) / lanes as i64).max(1);
    let mut best: Option<((i64, i64), (f64, i64))> = None;
    for vectors in 1..=row.min(MAX_VECTORS) {
        let fits = |t: i64| t * vectors + vectors + t <= registers;
        let Some(channels) = (1..=gout).rev().find(|&t| gout % t == 0 && fits(t)) else { continue };
        let tiles = (row + vectors - 1) / vectors;
        let loads_per_fma = (tiles * channels + row) as f64 / (row * channels) as f64;
        let key = (loads_per_fma, -(channels * vectors));
        if best.is_none_or(|(_, k)| key < k) {
            best = Some(((channels, vectors), key));
        }
    }
    let Some(((channels, vectors), _)) = best else { return Tile { channels: 1, vectors: 1, rows: 1 } };
    // Loads per useful FMA with `rows` rows a tile over the whole map: each tile's
    // broadcasts once, each input row's pixel vectors once per kernel column; a last,
    // overlapping block of rows computes rows again.
    let oh = oh.max(1);
    let cost = |rows: i64| {
        let blocks = (oh + rows - 1) / rows;
        let tiles = (row + vectors - 1) / vectors;
        let input_rows = input_rows(rows, kh, vertical).len() as i64;
        let loads = blocks * (tiles * channels * kh * kw + input_rows * kw * row);
        let fmas = blocks * rows * row * channels * kh * kw;
        (loads + fmas) as f64 / (oh * row * channels * kh * kw) as f64
    };
    let mut rows = 1;
    while rows < max_rows.min(oh).min(MAX_ROWS)
        && (rows + 1) * (channels * vectors + vectors) + channels <= registers
        && cost(rows + 1) < cost(rows)
    {
        rows += 1;
    }
    Tile { channels, vectors, rows }
}

/// The input rows `rows` output rows read with a kernel of `kh` rows `vertical` =
/// `[stride, dilation]` apart: each row's offset from the first output row's kernel row 0,
/// in order, with the (output row, kernel row) pairs that read it.
fn input_rows(rows: i64, kh: i64, [stride, dilation]: [i64; 2]) -> Vec<(i64, Vec<(usize, i64)>)> {
    let mut reads: Vec<(i64, Vec<(usize, i64)>)> = Vec::new();
    for r in 0..rows {
        for tap in 0..kh {
            let offset = r * stride + tap * dilation;
            match reads.iter_mut().find(|(o, _)| *o == offset) {
                Some((_, pairs)) => pairs.push((r as usize, tap)),
                None => reads.push((offset, vec![(r as usize, tap)])),
            }
        }
    }
    reads.sort_by_key(|&(o, _)| o);
    reads
}

/// Emits the row template for `graph.conv2d` `c`; `false` (nothing emitted) for
/// convolutions it does not take (element types other than f32).
pub fn emit(b: &mut Builder, c: &OpLowering) -> bool {
    if c.out_elem(0) != ScalarType::F32 {
        return false;
    }
    let (mut xs, mut ws, mut os) = (c.in_shape(0), c.in_shape(1), c.out_shape(0));
    let (mut x, mut filter, mut out) = (c.ins[0], c.ins[1], c.outs[0]);
    let (mut bias, mut epilogue) = (c.ins.get(2).copied(), Vec::new());
    if xs.len() == 5 {
        // `conv2d_nchwc` in blocks of one channel: the same memory as NCHW and OIHW.
        if xs[4] != 1 || ws[4] != 1 || ws[5] != 1 {
            return false;
        }
        (xs, ws, os) = (xs[..4].to_vec(), ws[..4].to_vec(), os[..4].to_vec());
        (x, filter, out) = (b.view(x, &xs), b.view(filter, &ws), b.view(out, &os));
        bias = None;
        for (buf, shape) in epilogue_operands(c) {
            // Operands broadcast into `[N, O, OH, OW, 1]`: their last extent is 1.
            let plain = shape[..shape.len().saturating_sub(1)].to_vec();
            epilogue.push((b.view(buf, &plain), plain));
        }
    }
    let (s, p, d) = (c.ints("strides"), c.ints("pads"), c.ints("dilations"));
    let groups = c.int("groups");
    let lanes = c.lanes.max(1);
    let gout = ws[0] / groups;
    let (h, oh, kh) = (xs[2], os[2], ws[2]);
    // Whether every output row reads all kernel rows in bounds: then a tile may take
    // several rows with one loop over the kernel rows.
    let all_rows_inside = p[0] == 0 && (oh - 1) * s[0] + (kh - 1) * d[0] < h;
    // Several rows a tile unroll the kernel rows.
    let max_rows = if all_rows_inside && kh <= MAX_UNROLLED_ROWS { oh } else { 1 };
    let plan = microkernel::plan(b, c, s[1], bias, &epilogue, &os);
    // Under microkernels, tiles of their vectors and registers.
    let (tile_lanes, registers) = plan.as_ref().map_or((lanes, c.registers), |p| (p.isa.lanes(), p.isa.registers()));
    let mut shape = tile_shape(gout, [oh, os[3]], max_rows, [kh, ws[3]], [s[0], d[0]], tile_lanes, registers);
    if plan.is_some() {
        // The microkernel tiles a call's vectors itself: more rows a task are more work a
        // call (a multiplier of 2 at 56 pixels: 8% of the peak with one row a task, 15%
        // with eight; sixteen are no better).
        // Channel multipliers with 3 x 3 kernels whose rows are as far apart as the
        // output rows' take the microkernels' shared-rows kernels, which keep a
        // channel pair's weights in registers for all of a call's rows: longer calls
        // (a multiplier of 2 at 28 pixels: 20% of the 512-bit peak in tasks of 8 rows,
        // 28% in 28).
        let shared = ws[1] == 1 && kh == 3 && ws[3] == 3 && s[0] == d[0];
        shape.rows = max_rows.clamp(1, if shared { SHARED_MICROKERNEL_ROWS } else { MICROKERNEL_ROWS });
    }
    let k = Rows {
        c,
        n: os[0],
        h,
        w: xs[3],
        o: ws[0],
        oh,
        ow: os[3],
        kh,
        kw: ws[3],
        stride: [s[0], s[1]],
        pad: [p[0], p[1]],
        dilation: [d[0], d[1]],
        gin: ws[1],
        gout,
        lanes,
        tile_oc: shape.channels,
        vectors: shape.vectors,
        tile_oh: shape.rows,
        x,
        filter,
        bias,
        out,
        epilogue,
        microkernel: plan,
    };
    if k.n * k.o * k.oh * k.ow == 0 {
        return true;
    }
    let runs = row_runs(k.ow, k.w, k.kw, k.stride[1], k.dilation[1], k.pad[1]);
    // Flat rows from the first, then the rest as rows.
    let flat = flat::plan(b, &k);
    let first = flat.as_ref().map_or(0, |f| f.end());
    if first < k.oh {
        row_tasks(b, &k, &runs, all_rows_inside, (first, k.oh));
    }
    if let Some(f) = &flat {
        flat::emit(b, &k, f);
    }
    true
}

/// The tasks of output rows `first..end`, in blocks of up to `tile_oh` rows; the last
/// block ends at the last row, overlapping the one before it (its rows computed again,
/// bit for bit the same).
fn row_tasks(b: &mut Builder, k: &Rows, runs: &[Run], all_rows_inside: bool, (first, end): (i64, i64)) {
    let (len, tile_oh) = (end - first, k.tile_oh.min(end - first));
    let dims = [k.n, k.o / k.tile_oc, (len + tile_oh - 1) / tile_oh];
    b.parallel_in_blocks(dims.iter().product(), work_blocks(k.flops(len)), |b, flat| {
        let idx = b.unflatten(flat, &dims);
        let (n, tile, block) = (idx[0], idx[1], idx[2]);
        let (oc0, ic0) = tile_channels(b, k, tile, k.tile_oc);
        let start = b.index(first);
        let block_first = b.mul_add(block, tile_oh, start);
        let block_first = if len % tile_oh == 0 { block_first } else { b.min_const(block_first, end - tile_oh) };
        let pt = b.index(k.pad[0]);
        let rows: Vec<(Value, Value)> = (0..tile_oh)
            .map(|r| {
                let rv = b.index(r);
                let oh = b.add(block_first, rv);
                let ohs = b.scale(oh, k.stride[0]);
                (oh, b.sub(ohs, pt))
            })
            .collect();
        let kh = if all_rows_inside {
            (b.index(0), b.index(k.kh))
        } else {
            let ohs = b.scale(block_first, k.stride[0]);
            inside_range(b, ohs, pt, k.h, k.dilation[0], k.kh)
        };
        let row = Row { n, oc0, ic0, rows, kh };
        for run in runs {
            cover_run(b, k, &row, run);
        }
    });
}

impl Rows<'_, '_> {
    /// The FLOPs of `rows` output rows.
    fn flops(&self, rows: i64) -> i64 {
        2 * self.n * self.o * rows * self.ow * self.gin * self.kh * self.kw
    }
}

/// Tile `tile`'s first output channel, for tiles of `channels` channels, and its group's
/// first input channel.
fn tile_channels(b: &mut Builder, k: &Rows, tile: Value, channels: i64) -> (Value, Value) {
    let oc0 = b.scale(tile, channels);
    let gout = b.index(k.gout);
    let group = b.div(oc0, gout);
    (oc0, b.scale(group, k.gin))
}

/// Where a task is: image, first output channel, the group's first input channel, each
/// output row with the input row of its kernel row 0, and the in-bounds kernel rows
/// (the same for every row of a task).
struct Row {
    n: Value,
    oc0: Value,
    ic0: Value,
    rows: Vec<(Value, Value)>,
    kh: (Value, Value),
}

/// The vector widths a run's columns use, widest first: the target's lanes, halved
/// down to 4, then scalars. A stride beyond [`VECTOR_STRIDE`] uses scalars only.
fn widths(k: &Rows) -> Vec<i64> {
    let mut ws = Vec::new();
    if k.stride[1] <= VECTOR_STRIDE {
        let mut l = k.lanes as i64;
        while l >= 4 {
            ws.push(l);
            l /= 2;
        }
    }
    ws.push(1);
    ws
}

/// Whether a vector of `width` pixels starting at column `col` fits in `run` (whose
/// columns read only in-bounds input for its taps; so do the vector's loads).
fn fits(run: &Run, col: i64, width: i64) -> bool {
    col + width <= run.start + run.len
}

/// Covers a run's columns: a loop over whole tiles of `vectors` vectors of the widest
/// width the run holds, then the rest in vectors of that width too, the last ending at
/// the run's end and overlapping the columns before it (computed again, bit for bit
/// the same, and stored again by the same task): a 28-pixel row in 16 lanes is two
/// vectors, not a 16-, an 8- and a 4-lane one (58% of the lanes busy), and a 14-pixel
/// one two of 8 lanes, not an 8-, a 4-lane one and two scalars (a multiplier of 2 at
/// 14x14: 15% of the peak). Runs narrower than 4 pixels, and columns read at a stride
/// beyond [`VECTOR_STRIDE`], take scalars.
fn cover_run(b: &mut Builder, k: &Rows, row: &Row, run: &Run) {
    if let Some(plan) = &k.microkernel
        && run.len >= plan.isa.lanes() as i64
    {
        return microkernel::cover_run(b, k, plan, row, run);
    }
    let widths = widths(k);
    let Some(wide) = widths.iter().copied().find(|&w| w > 1 && w <= run.len) else {
        let most = k.vectors * k.lanes as i64;
        let mut col = run.start;
        while col < run.start + run.len {
            let count = (0..most).take_while(|&j| fits(run, col + j, 1)).count() as i64;
            let ow0 = b.index(col);
            tile(b, k, row, run, ow0, 1, &(0..count).collect::<Vec<i64>>());
            col += count;
        }
        return;
    };
    let tile_cols = wide * k.vectors;
    let mut whole = 0;
    while fits(run, run.start + (whole + 1) * tile_cols - wide, wide) {
        whole += 1;
    }
    let spaced = |count: i64| (0..count).map(|j| j * wide).collect::<Vec<i64>>();
    if whole > 1 {
        b.range_n(whole, |b, t| {
            let start = b.index(run.start);
            let ow0 = b.mul_add(t, tile_cols, start);
            tile(b, k, row, run, ow0, wide, &spaced(k.vectors));
        });
    } else if whole == 1 {
        let ow0 = b.index(run.start);
        tile(b, k, row, run, ow0, wide, &spaced(k.vectors));
    }
    let (col, end) = (run.start + whole * tile_cols, run.start + run.len);
    if col < end {
        // The rest's vectors from `col`, the last one moved back to end at `end` (at or
        // after the run's start, since the run holds a vector).
        let mut offsets = spaced((end - col + wide - 1) / wide);
        *offsets.last_mut().expect("a vector") = end - wide - col;
        let ow0 = b.index(col);
        tile(b, k, row, run, ow0, wide, &offsets);
    }
}

/// One register tile: vectors of `width` pixels from columns `ow0 + offsets[j]` x the
/// tile's output channels x the task's rows, reduced over the group's input channels,
/// the in-bounds kernel rows and the run's kernel columns, then biased and stored.
fn tile(b: &mut Builder, k: &Rows, row: &Row, run: &Run, ow0: Value, width: i64, offsets: &[i64]) {
    let lanes = width as u32;
    let count = offsets.len();
    let channels = k.tile_oc as usize;
    let at = |r: usize, t: usize, j: usize| accumulator(channels, count, r, t, j);
    let zero = b.scalar(ScalarType::F32, 0.0);
    let zero = b.splat(zero, lanes);
    let iw0 = {
        let s = b.scale(ow0, k.stride[1]);
        let pl = b.index(k.pad[1]);
        b.sub(s, pl)
    };
    let span = Span { ow0: iw0, width, offsets };
    let accs = vec![zero; row.rows.len() * channels * count];
    let (lo, hi, one) = (b.index(0), b.index(k.gin), b.index(1));
    let accs = b.for_loop(lo, hi, one, &accs, |b, ci, accs| {
        let channel = [ci, b.add(row.ic0, ci)];
        if row.rows.len() > 1 {
            reduce_rows(b, k, row, run, &span, channel, accs.to_vec())
        } else {
            b.for_loop(row.kh.0, row.kh.1, one, accs, |b, kh, accs| {
                reduce_row(b, k, row, run, &span, channel, kh, accs.to_vec())
            })
        }
    });
    for t in 0..channels {
        let tv = b.index(t as i64);
        let oc = b.add(row.oc0, tv);
        let bias = k.bias.map(|bias| {
            let s = b.vload(bias, &[oc], 1);
            b.splat(s, lanes)
        });
        for (r, &(oh, _)) in row.rows.iter().enumerate() {
            for (j, &col) in offsets.iter().enumerate() {
                let mut acc = accs[at(r, t, j)];
                if let Some(bias) = bias {
                    acc = b.bin(tcc_ir::scalar::ScalarFn::Add, acc, bias);
                }
                let off = b.index(col);
                let ow = b.add(ow0, off);
                let idx = [row.n, oc, oh, ow];
                let acc = apply_epilogue(b, k.c, &k.epilogue, acc, &idx);
                b.vstore(acc, k.out, &idx);
            }
        }
    }
}

/// Where a tile's accumulator of row `r`, channel `t`, vector `j` is in the carried
/// list, for tiles of `channels` channels and `count` vectors.
fn accumulator(channels: usize, count: usize, r: usize, t: usize, j: usize) -> usize {
    (r * channels + t) * count + j
}

/// A tile's columns: the input column of output column `ow0` at kernel column 0, and
/// its vectors of `width` pixels at `offsets` from there (in output columns).
struct Span<'a> {
    ow0: Value,
    width: i64,
    offsets: &'a [i64],
}

/// One input channel (`[ci, ic]`: of the group, of the input) and kernel row `kh` of a
/// one-row tile: for each kernel column, the pixel vectors are loaded, then each
/// channel's weight is broadcast and multiplied into every vector's accumulator.
#[allow(clippy::too_many_arguments)]
fn reduce_row(
    b: &mut Builder,
    k: &Rows,
    row: &Row,
    run: &Run,
    tile: &Span,
    [ci, ic]: [Value; 2],
    kh: Value,
    mut accs: Vec<Value>,
) -> Vec<Value> {
    let khd = b.scale(kh, k.dilation[0]);
    let ih = b.add(row.rows[0].1, khd);
    for kw in run.taps.0..run.taps.1 {
        let pixels = column_pixels(b, k, row, tile, [ic, ih], kw);
        let kwv = b.index(kw);
        multiply_channels(b, k, row, tile, &pixels, (0, [ci, kh, kwv]), &mut accs);
    }
    accs
}

/// Broadcasts each of the tile's channels' weight at `[ci, kh, kw]` and multiplies it
/// into the accumulators of output row `r` for every vector of `pixels`.
fn multiply_channels(
    b: &mut Builder,
    k: &Rows,
    row: &Row,
    tile: &Span,
    pixels: &[Value],
    (r, at): (usize, [Value; 3]),
    accs: &mut [Value],
) {
    let (channels, count) = (k.tile_oc as usize, tile.offsets.len());
    for t in 0..channels {
        let weight = broadcast_weight(b, k, row, t, at, tile.width);
        for (j, &x) in pixels.iter().enumerate() {
            let a = accumulator(channels, count, r, t, j);
            accs[a] = b.fma(x, weight, accs[a]);
        }
    }
}

/// One input channel (`[ci, ic]`: of the group, of the input) of a tile of several
/// rows, the kernel rows unrolled: every input row the rows read is loaded once per
/// kernel column, and its pixel vectors feed the FMAs of every (output row, kernel row)
/// pair that reads it.
fn reduce_rows(
    b: &mut Builder,
    k: &Rows,
    row: &Row,
    run: &Run,
    tile: &Span,
    [ci, ic]: [Value; 2],
    mut accs: Vec<Value>,
) -> Vec<Value> {
    for (offset, pairs) in input_rows(row.rows.len() as i64, k.kh, [k.stride[0], k.dilation[0]]) {
        let offset = b.index(offset);
        let ih = b.add(row.rows[0].1, offset);
        for kw in run.taps.0..run.taps.1 {
            let pixels = column_pixels(b, k, row, tile, [ic, ih], kw);
            let kwv = b.index(kw);
            for &(r, kh) in &pairs {
                let khv = b.index(kh);
                multiply_channels(b, k, row, tile, &pixels, (r, [ci, khv, kwv]), &mut accs);
            }
        }
    }
    accs
}

/// The tile's pixel vectors that kernel column `kw` reads from input channel `ic`, row
/// `ih`.
fn column_pixels(b: &mut Builder, k: &Rows, row: &Row, tile: &Span, [ic, ih]: [Value; 2], kw: i64) -> Vec<Value> {
    let kwd = b.index(kw * k.dilation[1]);
    let base = b.add(tile.ow0, kwd);
    tile.offsets.iter().map(|&col| load_pixels(b, k, row.n, ic, ih, base, col, tile.width)).collect()
}

/// The weight of the tile's channel `t` at `[ci, kh, kw]`, broadcast to `width` lanes.
fn broadcast_weight(b: &mut Builder, k: &Rows, row: &Row, t: usize, [ci, kh, kw]: [Value; 3], width: i64) -> Value {
    let tv = b.index(t as i64);
    let oc = b.add(row.oc0, tv);
    let weight = b.load_input(k.filter, &[oc, ci, kh, kw], 1);
    b.splat(weight, width as u32)
}

/// `width` input pixels for output columns `j * width ..` of a tile whose kernel column
/// reads from input column `base` onwards: one load at stride 1; at stride 2 two loads,
/// the second one element early so that it ends at the last pixel needed (no read past
/// the row), a shuffle keeping the first's even lanes and the second's odd ones; at
/// wider strides (scalars only) one element.
#[allow(clippy::too_many_arguments)]
fn load_pixels(b: &mut Builder, k: &Rows, n: Value, ic: Value, ih: Value, base: Value, col: i64, width: i64) -> Value {
    let s = k.stride[1];
    let off = b.index(col * s);
    let at = b.add(base, off);
    if width == 1 || s == 1 {
        return b.load_input(k.x, &[n, ic, ih, at], width as u32);
    }
    let lanes = width as u32;
    let first = b.load_input(k.x, &[n, ic, ih, at], lanes);
    debug_assert_eq!(s, 2, "wider strides run with scalars");
    let next = b.index(width - 1);
    let next = b.add(at, next);
    let second = b.load_input(k.x, &[n, ic, ih, next], lanes);
    // Pixel l is element 2l: lane 2l of the first load for l < width / 2, else lane
    // 2l - (width - 1) of the second, lane 2l + 1 of the pair.
    let mask: Vec<i64> = (0..width).map(|l| if 2 * l < width { 2 * l } else { 2 * l + 1 }).collect();
    b.op(&tcc_dialect_vector::SHUFFLE, &[first, second], AttrDict::new().with("mask", Attribute::i64_list(&mask)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_fill_the_registers_within_a_group() {
        // One row a tile (a 3x3 kernel whose rows may not all be inside).
        let tile = |gout, ow, lanes, registers| {
            let t = tile_shape(gout, [56, ow], 1, [3, 3], [1, 1], lanes, registers);
            assert_eq!(t.rows, 1);
            (t.channels, t.vectors)
        };
        // 512-bit vectors, 32 registers, a 56-pixel row (4 vectors, the last
        // overlapping): 40 channels per group in 5 x 4 tiles, one per row (20
        // accumulators, 4 pixel vectors, 5 broadcasts).
        assert_eq!(tile(40, 56, 16, 32), (5, 4));
        // A multiplier of 2: two channels share an input channel; one tile a row.
        assert_eq!(tile(2, 56, 16, 32), (2, 4));
        // Groups of 8 at 28 pixels: one 8 x 2 tile, not two 8 x 1.
        assert_eq!(tile(8, 28, 16, 32), (8, 2));
        // 128-bit vectors, 16 registers, a long row: 3 x 3 tiles (0.69 loads per FMA)
        // beat 2 x 4 and 4 x 2 (0.75).
        assert_eq!(tile(24, 112, 4, 16), (3, 3));
        // Groups of 3 channels: 3 x 3 rather than 1 x 4.
        assert_eq!(tile(3, 16, 4, 16), (3, 3));
        // Rows narrower than a vector still have one.
        assert_eq!(tile(7, 3, 16, 32), (7, 1));
    }

    #[test]
    fn narrow_tiles_take_rows_the_registers_hold() {
        let tile = |gout, [oh, ow]: [i64; 2], max_rows, registers| {
            let t = tile_shape(gout, [oh, ow], max_rows, [3, 3], [1, 1], 16, registers);
            (t.channels, t.vectors, t.rows)
        };
        // A multiplier of 2 at 56 pixels: two rows of 2 x 4 (26 registers; a third
        // would need 38).
        assert_eq!(tile(2, [56, 56], 56, 32), (2, 4, 2));
        // At 28 pixels: four rows of 2 x 2 (the most rows a tile takes).
        assert_eq!(tile(2, [28, 28], 28, 32), (2, 2, 4));
        // A multiplier of 4 at 56 pixels fills the registers with one row.
        assert_eq!(tile(4, [56, 56], 56, 32), (4, 4, 1));
        // Not when rows read different kernel rows.
        assert_eq!(tile(2, [28, 28], 1, 32), (2, 2, 1));
        // Three output rows over two rows a tile: one more than a 2-row map needs.
        assert_eq!(tile(2, [2, 28], 2, 32), (2, 2, 2));
    }

    #[test]
    fn rows_of_a_tile_read_each_input_row_once() {
        // Two rows of a 3-row kernel, stride 1: input rows 0..4, the middle two read by
        // both output rows.
        let reads = input_rows(2, 3, [1, 1]);
        let offsets: Vec<i64> = reads.iter().map(|r| r.0).collect();
        assert_eq!(offsets, vec![0, 1, 2, 3]);
        assert_eq!(reads[1].1, vec![(0, 1), (1, 0)]);
        // Stride 2, dilation 2: rows 0, 2, 4 and 2, 4, 6.
        let offsets: Vec<i64> = input_rows(2, 3, [2, 2]).iter().map(|r| r.0).collect();
        assert_eq!(offsets, vec![0, 2, 4, 6]);
        // Stride 3 over a 2-row kernel: no row shared.
        assert_eq!(input_rows(2, 2, [3, 1]).len(), 4);
    }
}
