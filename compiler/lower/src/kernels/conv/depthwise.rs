//! The depthwise template (one input channel per output channel): a tile of `tile_w`
//! columns x one block, multiplying input vectors by filter vectors lane by lane; on a
//! target that calls microkernels, their depthwise runs ([`super::microkernel`]). The
//! edge columns go in the row's first and last tiles, each column with its own kernel
//! columns (or, with `edges = "split"`, in tiles of their own); the rows whose kernel
//! rows all land inside the input are compiled apart, with those rows known.
//!
//! With a channel multiplier `k` (output channel `c * k + j` reads input channel `c`),
//! a tile is `tile_w` columns of one input block: each input vector is multiplied by
//! `k` filter vectors, filter block `b * k + j` holding multiple `j` of input block
//! `b`'s channels (`block-layouts` packs it so), and the `k` products of a column are
//! interleaved into the `k` output blocks they make up before the epilogue and store.

use tcc_ir::scalar::{Compare, ScalarFn};
use tcc_ir::{AttrDict, Attribute, Value};

use super::{Conv, kernel_rows, microkernel, reduce_range, row_runs, store_tile, tasks};
use crate::builder::Builder;
use crate::emit::OpLowering;
use crate::kernels::{edge_tiles, for_each_tile, once_if};

pub(super) fn depthwise(b: &mut Builder, c: &OpLowering, k: &Conv) {
    if k.multiplier == 1
        && let Some(isa) = microkernel::level(c, k).filter(|_| microkernel::depthwise_fits(c, k))
    {
        return microkernel::depthwise(b, c, k, isa);
    }
    let [n_n, ib_n, h, w, _] = k.x;
    let [_, _, kh_n, kw_n, _, _] = k.w;
    let [_, _, oh_n, ow_n, _] = k.o;
    let runs = row_runs(ow_n, w, kw_n, k.stride[1], k.dilation[1], k.pad[1]);
    // Output rows whose kernel rows all land inside the input: their tiles are
    // compiled with the kernel rows known (no bounds, every row unrolled), the others'
    // with the in-bounds rows computed.
    let (sh, dh, ph) = (k.stride[0], k.dilation[0], k.pad[0]);
    let inner = ((ph + sh - 1) / sh, ((h - 1 - (kh_n - 1) * dh + ph).div_euclid(sh) + 1).min(oh_n));
    tasks(b, k, [n_n, ib_n, oh_n, 1], |b, [n, cb, oh, _]| {
        let ohs = b.scale(oh, sh);
        let pt = b.index(ph);
        let ih0 = b.sub(ohs, pt);
        let row = |b: &mut Builder, kh: (Value, Value)| {
            let at = At { n, cb, oh, ih0, kh };
            if k.split_edges {
                for run in &runs {
                    let taps = run.taps;
                    for_each_tile(b, *run, k.tile_w, |b, ow0, cols| {
                        tile(b, c, k, &at, ow0, &vec![taps; cols as usize])
                    });
                }
            } else {
                edge_tiles(b, k.tile_w, &runs, |_, _, _, _| false, |b, ow0, taps| tile(b, c, k, &at, ow0, taps));
            }
        };
        let edge_rows = |b: &mut Builder| {
            let kh = kernel_rows(b, k, ohs, pt, h, kh_n);
            row(b, kh)
        };
        if inner.0 >= inner.1 || inner == (0, oh_n) {
            return edge_rows(b);
        }
        let (lo, hi) = (b.index(inner.0), b.index(inner.1));
        let (above, below) = (b.cmp(Compare::Ge, oh, lo), b.cmp(Compare::Lt, oh, hi));
        let inside = b.bin(ScalarFn::And, above, below);
        once_if(b, inside, true, |b| {
            let all = (b.index(0), b.index(kh_n));
            row(b, all)
        });
        once_if(b, inside, false, edge_rows);
    });
}

/// Where a task's tiles are: batch, input block, output row, the input row of kernel
/// row 0 (may be negative) and the kernel rows inside the input.
struct At {
    n: Value,
    cb: Value,
    oh: Value,
    ih0: Value,
    kh: (Value, Value),
}

/// The tile of `taps.len()` columns from `ow0`, column `i` reading kernel columns
/// `taps[i]`.
fn tile(b: &mut Builder, c: &OpLowering, k: &Conv, at: &At, ow0: Value, taps: &[(i64, i64)]) {
    let multiples = k.multiplier;
    let cols = taps.len() as i64;
    let zero_s = b.scalar(tcc_ir::ScalarType::F32, 0.0);
    let zero = b.splat(zero_s, k.width);
    // Column-major: column, multiple, vector.
    let per_col = multiples * k.vectors;
    let accs = vec![zero; (cols * per_col) as usize];
    let iw0 = {
        let s = b.scale(ow0, k.stride[1]);
        let pl = b.index(k.pad[1]);
        b.sub(s, pl)
    };
    // The first filter and output block of input block `cb`.
    let ob0 = b.scale(at.cb, multiples);
    let kw_lo = taps.iter().map(|t| t.0).min().unwrap_or(0);
    let kw_hi = taps.iter().map(|t| t.1).max().unwrap_or(0);
    let accs = reduce_range(b, at.kh.0, at.kh.1, accs, |b, kh, accs| {
        let khd = b.scale(kh, k.dilation[0]);
        let ih = b.add(at.ih0, khd);
        let zero = b.index(0);
        let mut accs = accs.to_vec();
        for kw in kw_lo..kw_hi {
            let kwv = b.index(kw);
            let iw = b.index(kw * k.dilation[1]);
            let iw = b.add(iw0, iw);
            for v in 0..k.vectors {
                let lane = b.index(v * k.width as i64);
                let wv: Vec<Value> = (0..multiples)
                    .map(|j| {
                        let jv = b.index(j);
                        let wb = b.add(ob0, jv);
                        b.load_input(k.wb, &[wb, zero, kh, kwv, zero, lane], k.width)
                    })
                    .collect();
                for (col, &(lo, hi)) in taps.iter().enumerate() {
                    if !(lo..hi).contains(&kw) {
                        continue;
                    }
                    let off = b.index(col as i64 * k.stride[1]);
                    let x_col = b.add(iw, off);
                    let xv = b.load_input(k.xb, &[at.n, at.cb, ih, x_col, lane], k.width);
                    for (j, &wj) in wv.iter().enumerate() {
                        let a = (col as i64 * per_col + j as i64 * k.vectors + v) as usize;
                        accs[a] = b.fma(xv, wj, accs[a]);
                    }
                }
            }
        }
        accs
    });
    let accs: Vec<Value> = if multiples == 1 {
        accs
    } else {
        accs.chunks(multiples as usize).flat_map(|column| interleave(b, column, k.width as i64)).collect()
    };
    store_tile(b, c, k, at.n, ob0, at.oh, ow0, cols, multiples, &accs, true);
}

/// Vectors `vs[j]` of `lanes` lanes (a power of two of them) whose lane `l` is element
/// `l * k + j` of one stream of `k = vs.len()` vectors, as that stream's vectors in order.
fn interleave(b: &mut Builder, vs: &[Value], lanes: i64) -> Vec<Value> {
    if vs.len() == 1 {
        return vs.to_vec();
    }
    // The even and odd multiples are each a stream of half as many vectors; the whole
    // is their elements taken in turn.
    let even: Vec<Value> = vs.iter().step_by(2).copied().collect();
    let odd: Vec<Value> = vs.iter().skip(1).step_by(2).copied().collect();
    let (even, odd) = (interleave(b, &even, lanes), interleave(b, &odd, lanes));
    let zip = |b: &mut Builder, x: Value, y: Value, from: i64| {
        let mask: Vec<i64> = (0..lanes).map(|l| from + l / 2 + (l % 2) * lanes).collect();
        let attrs = AttrDict::new().with("mask", Attribute::i64_list(&mask));
        b.op(&tcc_dialect_vector::SHUFFLE, &[x, y], attrs)
    };
    even.iter()
        .zip(&odd)
        .flat_map(|(&x, &y)| {
            let low = zip(b, x, y, 0);
            let high = zip(b, x, y, lanes / 2);
            [low, high]
        })
        .collect::<Vec<_>>()
}
