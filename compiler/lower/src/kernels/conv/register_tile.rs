//! The direct template's register tile in generated code: `tile_w` columns x
//! `tile_oc` output-channel blocks of accumulators, loaded from the output (a later
//! pass over the input channels) or zeroed, carried through the loops over the input
//! channel blocks and the in-bounds kernel taps (one broadcast and one FMA per
//! accumulator each step, or a widening dot step on bf16 pairs), then through the
//! epilogue and stored once. With a target that calls microkernels the tile is a call
//! instead ([`super::microkernel`]).

use tcc_ir::Value;

use super::super::apply_epilogue;
use super::{Conv, Tile, microkernel, reduce_range};
use crate::builder::Builder;
use crate::emit::OpLowering;

/// One register tile of the direct template: `cols` output columns from `ow0` x
/// `tile_oc` output-channel blocks; column `i` reads kernel columns `taps[i]`. Columns
/// with different taps (a tile across a row's edge) need the kernel columns unrolled:
/// each tap then skips the columns it does not reach.
pub(super) fn direct_tile(b: &mut Builder, c: &OpLowering, k: &Conv, t: &Tile, ow0: Value, taps: &[(i64, i64)]) {
    let cols = taps.len() as i64;
    let uniform = taps.iter().all(|&tp| tp == taps[0]);
    if let Some(isa) = microkernel::level(c, k).filter(|_| cols > 0)
        && microkernel::tile(b, c, k, isa, t, ow0, taps)
    {
        return;
    }
    let span = (taps.iter().map(|t| t.0).min().unwrap_or(0), taps.iter().map(|t| t.1).max().unwrap_or(0));
    let [_, _, _, _, ib] = k.x;
    let (width, vectors, tile_oc) = (k.width, k.vectors, k.tile_oc);
    let per_col = (tile_oc * vectors) as usize;
    let accs = if t.first {
        let zero_s = b.scalar(tcc_ir::ScalarType::F32, 0.0);
        let zero = b.splat(zero_s, width);
        vec![zero; cols as usize * per_col]
    } else {
        load_tile(b, k, t, ow0, cols)
    };
    let iw0 = {
        let s = b.scale(ow0, k.stride[1]);
        let pl = b.index(k.pad[1]);
        b.sub(s, pl)
    };
    let accs = reduce_range(b, t.icb.0, t.icb.1, accs, |b, icb, accs| {
        let xcb = b.add(t.icb_base, icb);
        reduce_range(b, t.kh.0, t.kh.1, accs.to_vec(), |b, kh, accs| {
            let khd = b.scale(kh, k.dilation[0]);
            let ih = b.add(t.ih0, khd);
            // One input channel `ic` of kernel column `kw` (`kw_known` when unrolled, so
            // the columns it misses are skipped): filter vectors, then per column one
            // broadcast and an FMA per vector.
            let channel = |b: &mut Builder, kw: Value, kw_known: Option<i64>, ic: Value, accs: &mut Vec<Value>| {
                let mut wv = Vec::with_capacity(per_col);
                for oc in 0..tile_oc {
                    let ocv = b.index(oc);
                    let ocb = b.add(t.ob0, ocv);
                    for v in 0..vectors {
                        let lane = b.index(v * width as i64);
                        wv.push(b.load_input(k.wb, &[ocb, icb, kh, kw, ic, lane], width));
                    }
                }
                prefetch_next_group(
                    b,
                    k,
                    t,
                    |ocb, b| {
                        let zero = b.index(0);
                        vec![ocb, icb, kh, kw, ic, zero]
                    },
                    k.wb,
                );
                let kwd = b.scale(kw, k.dilation[1]);
                let iw = b.add(iw0, kwd);
                for col in 0..cols {
                    let (lo, hi) = taps[col as usize];
                    if kw_known.is_some_and(|kw| kw < lo || kw >= hi) {
                        continue;
                    }
                    let off = b.index(col * k.stride[1]);
                    let x_col = b.add(iw, off);
                    let xs = b.load_input(k.xb, &[t.n, xcb, ih, x_col, ic], 1);
                    let xv = b.splat(xs, width);
                    for (j, &wj) in wv.iter().enumerate() {
                        let a = col as usize * per_col + j;
                        accs[a] = b.fma(xv, wj, accs[a]);
                    }
                }
            };
            // `count` steps from 0, `unroll` per loop iteration, the rest after the loop.
            let unroll = k.unroll_ic.max(1);
            let steps =
                |b: &mut Builder, count: i64, accs: Vec<Value>, step: &dyn Fn(&mut Builder, Value, &mut Vec<Value>)| {
                    let unroll = unroll.min(count).max(1);
                    let body = |b: &mut Builder, first: Value, accs: &[Value]| {
                        let mut accs = accs.to_vec();
                        for u in 0..unroll {
                            let uv = b.index(u);
                            let i = b.add(first, uv);
                            step(b, i, &mut accs);
                        }
                        accs
                    };
                    // A loop even for one iteration: each loop body is its own block, which
                    // keeps Cranelift from scheduling consecutive unrolled steps as one long
                    // dependence chain per accumulator (and spilling).
                    let whole = count / unroll * unroll;
                    let mut accs = if whole >= unroll {
                        let (lo, hi, st) = (b.index(0), b.index(whole), b.index(unroll));
                        b.for_loop(lo, hi, st, &accs, body)
                    } else {
                        accs
                    };
                    for i in whole..count {
                        let iv = b.index(i);
                        step(b, iv, &mut accs);
                    }
                    accs
                };
            if uniform && !k.unroll_kw && k.dilation[1] == 1 {
                // Kernel columns and input channels are one contiguous run of the input
                // row and of the filter row: one loop over `kw * ib + ic`.
                let first = b.index(span.0 * ib);
                return steps(b, (span.1 - span.0) * ib, accs.to_vec(), &|b, j, accs| {
                    let j = b.add(first, j);
                    merged_channel(b, k, t, icb, xcb, kh, ih, iw0, cols, per_col, j, accs);
                });
            }
            let mut accs = accs.to_vec();
            if k.unroll_kw || !uniform {
                for kw in span.0..span.1 {
                    let kwv = b.index(kw);
                    accs = steps(b, ib, accs, &|b, ic, accs| channel(b, kwv, Some(kw), ic, accs));
                }
                accs
            } else {
                let (lo, hi) = (b.index(span.0), b.index(span.1));
                reduce_range(b, lo, hi, accs, |b, kw, accs| {
                    steps(b, ib, accs.to_vec(), &|b, ic, accs| channel(b, kw, None, ic, accs))
                })
            }
        })
    });
    store_tile(b, c, k, t.n, t.ob0, t.oh, ow0, cols, tile_oc, &accs, t.last);
}

/// The partial sums of a tile from the output, in `direct_tile`'s accumulator order.
pub(super) fn load_tile(b: &mut Builder, k: &Conv, t: &Tile, ow0: Value, cols: i64) -> Vec<Value> {
    let mut accs = Vec::new();
    for col in 0..cols {
        let colv = b.index(col);
        let ow = b.add(ow0, colv);
        for blk in 0..k.tile_oc {
            let blkv = b.index(blk);
            let ocb = b.add(t.ob0, blkv);
            for v in 0..k.vectors {
                let lane = b.index(v * k.width as i64);
                accs.push(b.vload(k.ob, &[t.n, ocb, t.oh, ow, lane], k.width));
            }
        }
    }
    accs
}

/// One step `j = kw * ib + ic` of the merged kernel-column / input-channel loop, through
/// row views of the input and the filter (unit dilation): the same FMAs as one
/// `channel` of the nested loops, with one induction variable for both.
fn merged_channel(
    b: &mut Builder,
    k: &Conv,
    t: &Tile,
    icb: Value,
    xcb: Value,
    kh: Value,
    ih: Value,
    iw0: Value,
    cols: i64,
    per_col: usize,
    j: Value,
    accs: &mut [Value],
) {
    let ib = k.x[4];
    let (width, vectors) = (k.width, k.vectors);
    let mut wv = Vec::with_capacity(per_col);
    for oc in 0..k.tile_oc {
        let ocv = b.index(oc);
        let ocb = b.add(t.ob0, ocv);
        for v in 0..vectors {
            let lane = b.index(v * width as i64);
            wv.push(b.load_input(k.wrow, &[ocb, icb, kh, j, lane], width));
        }
    }
    prefetch_next_group(
        b,
        k,
        t,
        |ocb, b| {
            let zero = b.index(0);
            vec![ocb, icb, kh, j, zero]
        },
        k.wrow,
    );
    let row0 = b.scale(iw0, ib);
    let row0 = b.add(row0, j);
    for col in 0..cols {
        let off = b.index(col * k.stride[1] * ib);
        let at = b.add(row0, off);
        let xs = b.load_input(k.xrow, &[t.n, xcb, ih, at], 1);
        let xv = b.splat(xs, width);
        for (i, &wi) in wv.iter().enumerate() {
            let a = col as usize * per_col + i;
            accs[a] = b.fma(xv, wi, accs[a]);
        }
    }
}

/// With `prefetch`, asks for the next channel group's filter line of the current step
/// (the last group asks for its own): `at(ocb)` is the step's filter index for block
/// `ocb` of `filters`.
fn prefetch_next_group(
    b: &mut Builder,
    k: &Conv,
    t: &Tile,
    at: impl Fn(Value, &mut Builder) -> Vec<Value>,
    filters: Value,
) {
    if !k.prefetch {
        return;
    }
    let step = b.index(k.tile_oc);
    let next = b.add(t.ob0, step);
    let next = b.min_const(next, k.o[1] - k.tile_oc);
    for oc in 0..k.tile_oc {
        let ocv = b.index(oc);
        let ocb = b.add(next, ocv);
        let idx = at(ocb, b);
        b.prefetch(filters, &idx);
    }
}

/// Applies the epilogue to a tile's accumulators (column-major: column, block, vector)
/// and stores them.
pub(super) fn store_tile(
    b: &mut Builder,
    c: &OpLowering,
    k: &Conv,
    n: Value,
    ob0: Value,
    oh: Value,
    ow0: Value,
    cols: i64,
    blocks: i64,
    accs: &[Value],
    epilogue: bool,
) {
    let per_col = (blocks * k.vectors) as usize;
    for col in 0..cols {
        let colv = b.index(col);
        let ow = b.add(ow0, colv);
        for blk in 0..blocks {
            let blkv = b.index(blk);
            let ocb = b.add(ob0, blkv);
            for v in 0..k.vectors {
                let lane = b.index(v * k.width as i64);
                let idx = [n, ocb, oh, ow, lane];
                let acc = accs[col as usize * per_col + (blk * k.vectors + v) as usize];
                let r = if epilogue { apply_epilogue(b, c, &k.epilogue, acc, &idx) } else { acc };
                b.vstore(r, k.ob, &idx);
            }
        }
    }
}
