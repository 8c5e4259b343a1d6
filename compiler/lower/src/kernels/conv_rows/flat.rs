//! Flat rows: the row template's stride-1 convolutions whose rows are not whole vectors,
//! vectorized along the output map read as one long row. A 56-pixel row in 16 lanes is
//! four vectors with the last one overlapping (56 of 64 lanes busy: groups of 4 at 56
//! pixels ran at 76% of the peak where the same groups at 64 pixels ran at 87%); two
//! such rows are seven vectors, every lane busy.
//!
//! The row template reads an explicitly padded input (`block-layouts` moves the padding
//! into a `graph.pad`), whose rows are `W = OW + (KW - 1) * dw` wide. Output pixel `q`
//! of a block of rows (row `q / OW`, column `q % OW`) reads, at a kernel tap, the input
//! element `q + (q / OW) * (W - OW)` past the tap's: consecutive pixels of one row read
//! consecutive elements, and a vector whose lanes reach into the next row is loaded in
//! one piece per row it touches, the pieces merged by a shuffle. Which lanes are in
//! which row repeats every `lcm(OW, lanes)` pixels, so the map is covered in **cycles**
//! of that many pixels (`OW / gcd(OW, lanes)` vectors, whole rows), whose vectors'
//! pieces are known when the template is compiled; the rows after the last whole cycle
//! take the row template's rows. Every load reads only input elements between the first
//! and the last its vector needs.

use tcc_ir::{AttrDict, Attribute, ScalarType, Value};

use super::{Rows, Tile, tile_channels, tile_shape};
use crate::builder::Builder;
use crate::kernels::{apply_epilogue, work_blocks};

/// Vectors a cycle has at most (its code is unrolled: each vector of a cycle has its
/// own blends).
const MAX_CYCLE: i64 = 8;

/// The flat part of a convolution's output rows: from row 0, `cycles` cycles.
pub(super) struct Flat {
    /// Output rows a cycle covers, and the number of cycles.
    rows_per_cycle: i64,
    cycles: i64,
    /// Vectors a cycle covers.
    vectors: i64,
    /// The register tile: output channels x at most `tile.vectors` of a cycle's vectors
    /// (a cycle as one row: a 28-pixel row's tile holds two vectors, a cycle of seven
    /// takes four).
    tile: Tile,
    /// The epilogue's operands viewed over the flat map (`[N, O, OH * OW]`, or `[.., 1]`
    /// broadcast over it).
    epilogue: Vec<(Value, Vec<i64>)>,
}

impl Flat {
    /// The first output row after the flat ones.
    pub fn end(&self) -> i64 {
        self.rows_per_cycle * self.cycles
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The flat rows of `k`, or `None` when the convolution is not flat: tiles of several
/// rows, channel multipliers, a stride other than 1, padding of its own (not moved into
/// its input), rows that are whole vectors (nothing to gain), tiles that are microkernel
/// calls, cycles longer than [`MAX_CYCLE`] vectors, fewer rows than a cycle, or an
/// epilogue operand broadcast along only one of the map's dimensions.
pub(super) fn plan(b: &mut Builder, k: &Rows) -> Option<Flat> {
    let (lanes, ow) = (k.lanes as i64, k.ow);
    let unpadded = k.pad == [0, 0] && k.w == ow + (k.kw - 1) * k.dilation[1];
    // Tiles of several rows share their input rows' loads between them, which flat
    // tiles do not: a multiplier of 2 at 56 pixels (2 rows of 2 x 4 a tile) ran at 61%
    // of the peak as rows, 47-50% flat (LLVM, Zen 5).
    // Nor for channel multipliers (one input channel a group), whose tiles' nine taps
    // do not pay for the flat tile's pieces: a multiplier of 4 at 56 pixels (one row of
    // 4 x 4 a tile) 60-66% as rows, 50% flat.
    let one_row = k.tile_oh == 1 && k.gin > 1;
    if k.microkernel.is_some() || !one_row || k.stride != [1, 1] || !unpadded || lanes == 1 || ow % lanes == 0 {
        return None;
    }
    let vectors = ow / gcd(ow, lanes);
    let rows_per_cycle = vectors * lanes / ow;
    let cycles = k.oh / rows_per_cycle;
    // (The flat rows' kernel rows all inside the input.)
    let inside = rows_per_cycle * cycles - 1 + (k.kh - 1) * k.dilation[0] < k.h;
    if vectors > MAX_CYCLE || cycles == 0 || !inside {
        return None;
    }
    let map = k.oh * ow;
    let mut epilogue = Vec::new();
    for (buf, shape) in &k.epilogue {
        let [n, o, oh, w] = shape[..] else { return None };
        let flat = match (oh, w) {
            (1, 1) => 1,
            _ if oh == k.oh && w == ow => map,
            _ => return None,
        };
        let shape = vec![n, o, flat];
        epilogue.push((b.view(*buf, &shape), shape));
    }
    let tile = tile_shape(k.gout, [1, vectors * lanes], 1, [k.kh, k.kw], [1, k.dilation[0]], k.lanes, k.c.registers);
    Some(Flat { rows_per_cycle, cycles, vectors, tile, epilogue })
}

/// Emits the flat rows' tasks: one per image, tile of output channels and cycle, whose
/// vectors are split into register tiles of at most the tile's vectors.
pub(super) fn emit(b: &mut Builder, k: &Rows, f: &Flat) {
    let channels_in = k.gin * (k.o / k.gout);
    let x = b.view(k.x, &[k.n, channels_in, k.h * k.w]);
    let out = b.view(k.out, &[k.n, k.o, k.oh * k.ow]);
    let parts = (f.vectors + f.tile.vectors - 1) / f.tile.vectors;
    let dims = [k.n, k.o / f.tile.channels, f.cycles];
    b.parallel_in_blocks(dims.iter().product(), work_blocks(k.flops(f.end())), |b, flat| {
        let idx = b.unflatten(flat, &dims);
        let (n, tile, cycle) = (idx[0], idx[1], idx[2]);
        let (oc0, ic0) = tile_channels(b, k, tile, f.tile.channels);
        let row0 = b.scale(cycle, f.rows_per_cycle);
        let (x0, f0) = (b.scale(row0, k.w), b.scale(row0, k.ow));
        let at = Place { n, oc0, ic0, x0, f0, x, out };
        let mut start = 0;
        for p in 0..parts {
            let count = f.vectors / parts + i64::from(p < f.vectors % parts);
            flat_tile(b, k, f, &at, (start..start + count).collect());
            start += count;
        }
    });
}

/// Where a flat task is: image, first output channel, its group's first input channel,
/// the cycle's first input element and first output pixel, and the input and output
/// viewed flat.
struct Place {
    n: Value,
    oc0: Value,
    ic0: Value,
    x0: Value,
    f0: Value,
    x: Value,
    out: Value,
}

/// One register tile: the cycle's vectors `positions` x the tile's output channels,
/// reduced over the group's input channels and every tap, then biased, through the
/// epilogue and stored.
fn flat_tile(b: &mut Builder, k: &Rows, f: &Flat, at: &Place, positions: Vec<i64>) {
    let lanes = k.lanes;
    let (channels, count) = (f.tile.channels as usize, positions.len());
    let zero = b.scalar(ScalarType::F32, 0.0);
    let zero = b.splat(zero, lanes);
    let accs = vec![zero; channels * count];
    let (lo, one) = (b.index(0), b.index(1));
    let gin = b.index(k.gin);
    let accs = b.for_loop(lo, gin, one, &accs, |b, ci, accs| {
        let ic = b.add(at.ic0, ci);
        let kh_end = b.index(k.kh);
        b.for_loop(lo, kh_end, one, accs, |b, kh, accs| {
            let mut accs = accs.to_vec();
            let row = b.scale(kh, k.dilation[0] * k.w);
            let base = b.add(at.x0, row);
            for kw in 0..k.kw {
                let tap = b.index(kw * k.dilation[1]);
                let tap = b.add(base, tap);
                let pixels: Vec<Value> = positions.iter().map(|&p| load_vector(b, k, at, ic, tap, p)).collect();
                let kwv = b.index(kw);
                for t in 0..channels {
                    let tv = b.index(t as i64);
                    let oc = b.add(at.oc0, tv);
                    let weight = b.load_input(k.filter, &[oc, ci, kh, kwv], 1);
                    let weight = b.splat(weight, lanes);
                    for (j, &x) in pixels.iter().enumerate() {
                        let a = t * count + j;
                        accs[a] = b.fma(x, weight, accs[a]);
                    }
                }
            }
            accs
        })
    });
    for t in 0..channels {
        let tv = b.index(t as i64);
        let oc = b.add(at.oc0, tv);
        let bias = k.bias.map(|bias| {
            let s = b.vload(bias, &[oc], 1);
            b.splat(s, lanes)
        });
        for (j, &p) in positions.iter().enumerate() {
            let mut acc = accs[t * count + j];
            if let Some(bias) = bias {
                acc = b.bin(tcc_ir::scalar::ScalarFn::Add, acc, bias);
            }
            let off = b.index(p * lanes as i64);
            let pixel = b.add(at.f0, off);
            let idx = [at.n, oc, pixel];
            let acc = apply_epilogue(b, k.c, &f.epilogue, acc, &idx);
            b.vstore(acc, at.out, &idx);
        }
    }
}

/// The input pixels of a cycle's vector `p` at a kernel tap whose element for the
/// cycle's first output pixel is `tap`: one load per output row its lanes are in (each
/// row's lanes `W - OW` elements further on than the row before's), merged lane by lane.
fn load_vector(b: &mut Builder, k: &Rows, at: &Place, ic: Value, tap: Value, p: i64) -> Value {
    let lanes = k.lanes as i64;
    let row_of = |l: i64| (p * lanes + l) / k.ow;
    let skip = k.w - k.ow;
    let mut v: Option<Value> = None;
    for row in row_of(0)..=row_of(lanes - 1) {
        let off = b.index(p * lanes + row * skip);
        let first = b.add(tap, off);
        let piece = b.load_input(at.x, &[at.n, ic, first], k.lanes);
        v = Some(match v {
            None => piece,
            Some(v) => {
                let mask: Vec<i64> = (0..lanes).map(|l| if row_of(l) == row { lanes + l } else { l }).collect();
                b.op(
                    &tcc_dialect_vector::SHUFFLE,
                    &[v, piece],
                    AttrDict::new().with("mask", Attribute::i64_list(&mask)),
                )
            }
        });
    }
    v.expect("a vector has lanes")
}
