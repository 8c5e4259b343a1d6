//! The row template for `graph.conv2d` (NCHW, f32): the convolutions the blocked
//! templates do not take, vectorized along each output row instead of along channels.
//! These are groups whose channels do not fill vector blocks (RegNet's and ResNeXt's
//! at any width, a block spanning groups would multiply zeros) and depthwise
//! convolutions with a channel multiplier (`M` output channels per input channel, so a
//! block of output channels would need each input lane `M` times).
//!
//! A task is one output row of `tile_oc` channels of one group. The row splits into
//! runs of columns with the same in-bounds kernel columns ([`row_runs`]); a run is
//! covered by register tiles of `tile_oc` channels x `vectors` vectors of consecutive
//! output pixels, the rest of the run by one more tile whose last vector overlaps the
//! one before it (narrower vectors, then scalars, only for runs narrower than a
//! vector). A tile's accumulators are loop-carried across the group's input channels
//! and the in-bounds kernel rows; kernel columns are unrolled. The innermost step loads each pixel
//! vector once (at stride 2: two loads and a shuffle keeping the even lanes) and
//! broadcasts one weight per channel for `vectors` FMAs, so every channel of the tile
//! shares the input loads. The bias is added in registers before the single store.
//!
//! No channel is padded and nothing is multiplied by zero, whatever the group width;
//! the price is an NCHW input and output, which `propagate-layouts` converts to and from
//! the blocked layouts of the neighbouring kernels.

use tcc_ir::{AttrDict, Attribute, ScalarType, Value};

use super::{Run, row_runs};
use crate::builder::Builder;
use crate::emit::OpLowering;
use crate::emit::nn::inside_range;

/// Largest stride the template vectorizes along a row (a stride-2 vector is two loads
/// and a shuffle; wider strides run with scalar columns).
const VECTOR_STRIDE: i64 = 2;

/// Vectors of pixels per register tile at most.
const MAX_VECTORS: i64 = 4;

/// A convolution as the template reads it.
struct Rows {
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
    /// The target's f32 lanes, and the tile: output channels x vectors of pixels.
    lanes: u32,
    tile_oc: i64,
    vectors: i64,
    x: Value,
    filter: Value,
    bias: Option<Value>,
    out: Value,
}

/// The register tile for `gout` channels per group on a target with `registers`
/// vector registers and output rows of `ow` pixels in vectors of `lanes`: channels (a
/// divisor of `gout`, so tiles never cross a group) x vectors of pixels. A tile holds
/// its accumulators, its pixel vectors and one broadcast weight per channel in
/// registers (LLVM re-reads the broadcasts from memory for every FMA otherwise: groups
/// of 40 at 56 pixels ran at 75% of the peak in 8 x 3 tiles, 81% in 5 x 4). Of the
/// tiles that fit, the one with the fewest loads per FMA over the whole row (each tile's
/// broadcasts, each vector's pixels), then the most accumulators: a row covered by one
/// tile beats a tile and a rest (groups of 8 at 28 pixels: 62% in 8 x 1 tiles, 81% in
/// one 8 x 2; a multiplier of 4 at 56 pixels: 52% in 4 x 3, 71% in 4 x 4).
pub fn tile_shape(gout: i64, ow: i64, lanes: u32, registers: u32) -> (i64, i64) {
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
    best.map_or((1, 1), |(tile, _)| tile)
}

/// Emits the row template for `graph.conv2d` `c`; `false` (nothing emitted) for
/// convolutions it does not take (element types other than f32).
pub fn emit(b: &mut Builder, c: &OpLowering) -> bool {
    if c.out_elem(0) != ScalarType::F32 {
        return false;
    }
    let (xs, ws, os) = (c.in_shape(0), c.in_shape(1), c.out_shape(0));
    let (s, p, d) = (c.ints("strides"), c.ints("pads"), c.ints("dilations"));
    let groups = c.int("groups");
    let lanes = c.lanes.max(1);
    let gout = ws[0] / groups;
    let (tile_oc, vectors) = tile_shape(gout, os[3], lanes, c.registers);
    let k = Rows {
        n: os[0],
        h: xs[2],
        w: xs[3],
        o: ws[0],
        oh: os[2],
        ow: os[3],
        kh: ws[2],
        kw: ws[3],
        stride: [s[0], s[1]],
        pad: [p[0], p[1]],
        dilation: [d[0], d[1]],
        gin: ws[1],
        gout,
        lanes,
        tile_oc,
        vectors,
        x: c.ins[0],
        filter: c.ins[1],
        bias: c.ins.get(2).copied(),
        out: c.outs[0],
    };
    if k.n * k.o * k.oh * k.ow == 0 {
        return true;
    }
    let runs = row_runs(k.ow, k.w, k.kw, k.stride[1], k.dilation[1], k.pad[1]);
    let dims = [k.n, k.o / k.tile_oc, k.oh];
    b.parallel(dims.iter().product(), |b, flat| {
        let idx = b.unflatten(flat, &dims);
        let (n, tile, oh) = (idx[0], idx[1], idx[2]);
        let oc0 = b.scale(tile, k.tile_oc);
        let gout = b.index(k.gout);
        let group = b.div(oc0, gout);
        let ic0 = b.scale(group, k.gin);
        let ohs = b.scale(oh, k.stride[0]);
        let pt = b.index(k.pad[0]);
        let (kh_lo, kh_hi) = if k.pad[0] == 0 && (k.oh - 1) * k.stride[0] + (k.kh - 1) * k.dilation[0] < k.h {
            (b.index(0), b.index(k.kh))
        } else {
            inside_range(b, ohs, pt, k.h, k.dilation[0], k.kh)
        };
        let ih0 = b.sub(ohs, pt);
        let row = Row { n, oc0, oh, ic0, ih0, kh: (kh_lo, kh_hi) };
        for run in &runs {
            cover_run(b, &k, &row, run);
        }
    });
    true
}

/// Where a task is: image, first output channel, output row, the group's first input
/// channel, the input row of kernel row 0 and the in-bounds kernel rows.
struct Row {
    n: Value,
    oc0: Value,
    oh: Value,
    ic0: Value,
    ih0: Value,
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
/// width, then the rest. When the run has at least one wide vector, the rest is wide
/// vectors too, the last ending at the run's end and overlapping the columns before
/// it (computed again, bit for bit the same, and stored again by the same task): a
/// 28-pixel row in 16 lanes is two vectors, not a 16-, an 8- and a 4-lane one (58% of
/// the lanes busy). Otherwise narrower vectors (and scalars) at compile-time columns.
fn cover_run(b: &mut Builder, k: &Rows, row: &Row, run: &Run) {
    let widths = widths(k);
    let (wide, tile_cols) = (widths[0], widths[0] * k.vectors);
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
    let (mut col, end) = (run.start + whole * tile_cols, run.start + run.len);
    if col < end && run.len >= wide {
        // The rest's vectors from `col`, the last one moved back to end at `end` (at or
        // after the run's start, since the run holds a wide vector).
        let mut offsets = spaced((end - col + wide - 1) / wide);
        *offsets.last_mut().expect("a vector") = end - wide - col;
        let ow0 = b.index(col);
        tile(b, k, row, run, ow0, wide, &offsets);
        return;
    }
    while col < end {
        let width = *widths.iter().find(|&&w| fits(run, col, w)).expect("a scalar always fits");
        // As many vectors of that width as fit, up to the tile's (scalars: its columns).
        let most = if width == 1 { k.vectors * k.lanes as i64 } else { k.vectors };
        let count = (0..most).take_while(|&j| fits(run, col + j * width, width)).count() as i64;
        let ow0 = b.index(col);
        let offsets: Vec<i64> = (0..count).map(|j| j * width).collect();
        tile(b, k, row, run, ow0, width, &offsets);
        col += count * width;
    }
}

/// One register tile: vectors of `width` pixels from columns `ow0 + offsets[j]` x the
/// tile's output channels, reduced over the group's input channels, the in-bounds kernel
/// rows and the run's kernel columns, then biased and stored.
fn tile(b: &mut Builder, k: &Rows, row: &Row, run: &Run, ow0: Value, width: i64, offsets: &[i64]) {
    let lanes = width as u32;
    let count = offsets.len() as i64;
    let per = (k.tile_oc * count) as usize;
    let zero = b.scalar(ScalarType::F32, 0.0);
    let zero = b.splat(zero, lanes);
    let iw0 = {
        let s = b.scale(ow0, k.stride[1]);
        let pl = b.index(k.pad[1]);
        b.sub(s, pl)
    };
    let accs = vec![zero; per];
    let (lo, hi, one) = (b.index(0), b.index(k.gin), b.index(1));
    let accs = b.for_loop(lo, hi, one, &accs, |b, ci, accs| {
        let ic = b.add(row.ic0, ci);
        b.for_loop(row.kh.0, row.kh.1, one, accs, |b, kh, accs| {
            let khd = b.scale(kh, k.dilation[0]);
            let ih = b.add(row.ih0, khd);
            let mut accs = accs.to_vec();
            for kw in run.taps.0..run.taps.1 {
                let kwd = b.index(kw * k.dilation[1]);
                let base = b.add(iw0, kwd);
                let pixels: Vec<Value> =
                    offsets.iter().map(|&col| load_pixels(b, k, row.n, ic, ih, base, col, width)).collect();
                let kwv = b.index(kw);
                for t in 0..k.tile_oc {
                    let tv = b.index(t);
                    let oc = b.add(row.oc0, tv);
                    let weight = b.load_input(k.filter, &[oc, ci, kh, kwv], 1);
                    let weight = b.splat(weight, lanes);
                    for (j, &x) in pixels.iter().enumerate() {
                        let a = t as usize * count as usize + j;
                        accs[a] = b.fma(x, weight, accs[a]);
                    }
                }
            }
            accs
        })
    });
    for t in 0..k.tile_oc {
        let tv = b.index(t);
        let oc = b.add(row.oc0, tv);
        let bias = k.bias.map(|bias| {
            let s = b.vload(bias, &[oc], 1);
            b.splat(s, lanes)
        });
        for j in 0..count {
            let mut acc = accs[(t * count + j) as usize];
            if let Some(bias) = bias {
                acc = b.bin(tcc_ir::scalar::ScalarFn::Add, acc, bias);
            }
            let off = b.index(offsets[j as usize]);
            let ow = b.add(ow0, off);
            b.vstore(acc, k.out, &[row.n, oc, row.oh, ow]);
        }
    }
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
        // 512-bit vectors, 32 registers, a 56-pixel row (4 vectors, the last
        // overlapping): 40 channels per group in 5 x 4 tiles, one per row (20
        // accumulators, 4 pixel vectors, 5 broadcasts).
        assert_eq!(tile_shape(40, 56, 16, 32), (5, 4));
        // A multiplier of 2: two channels share an input channel; one tile a row.
        assert_eq!(tile_shape(2, 56, 16, 32), (2, 4));
        // Groups of 8 at 28 pixels: one 8 x 2 tile, not two 8 x 1.
        assert_eq!(tile_shape(8, 28, 16, 32), (8, 2));
        // 128-bit vectors, 16 registers, a long row: 3 x 3 tiles (0.69 loads per FMA)
        // beat 2 x 4 and 4 x 2 (0.75).
        assert_eq!(tile_shape(24, 112, 4, 16), (3, 3));
        // Groups of 3 channels: 3 x 3 rather than 1 x 4.
        assert_eq!(tile_shape(3, 16, 4, 16), (3, 3));
        // Rows narrower than a vector still have one.
        assert_eq!(tile_shape(7, 3, 16, 32), (7, 1));
    }
}
