//! Pooling template for `graph.max_pool2d_nchwc` and `graph.avg_pool2d_nchwc`:
//! parallel over (batch, channel block, output row); each row split into runs of columns
//! with the same in-bounds window columns, covered by tiles of `tile_w` columns whose
//! vectors of channels stay in registers across the window. With a target that calls
//! microkernels, each run is one call over a group of channel blocks ([`microkernel`]).

use tcc_dialect_graph::config::PoolConfig;
use tcc_ir::scalar::ScalarFn;
use tcc_ir::{ScalarType, Type, Value};

use super::{MicrokernelTile, TileInput, VectorReduce, for_each_tile, reference, row_runs, vector_width};
use crate::builder::Builder;
use crate::emit::OpLowering;
use crate::emit::nn::inside_range;

pub fn emit_max(b: &mut Builder, c: &OpLowering) {
    emit(b, c, true)
}

pub fn emit_avg(b: &mut Builder, c: &OpLowering) {
    emit(b, c, false)
}

fn emit(b: &mut Builder, c: &OpLowering, is_max: bool) {
    let (xs, os) = (c.in_shape(0), c.out_shape(0));
    if let Some(isa) = c.ukernels.filter(|isa| xs[4] % isa.lanes() as i64 == 0 && c.out_elem(0) == ScalarType::F32) {
        return microkernel(b, c, is_max, isa);
    }
    let Some(width) = vector_width(c.lanes, xs[4]) else { return reference::pool2d_nchwc(b, c, is_max) };
    let vectors = xs[4] / width as i64;
    let (k, s, p) = (c.ints("kernel"), c.ints("strides"), c.ints("pads"));
    let include_pad = !is_max && c.flag("count_include_pad");
    let tile_w = PoolConfig::of(c.g, c.op).tile_w();
    let elem = c.out_elem(0);
    let (x, out) = (c.ins[0], c.outs[0]);
    let runs = row_runs(os[3], xs[3], k[1], s[1], 1, p[1]);
    let combine = if is_max { ScalarFn::Max } else { ScalarFn::Add };
    let dims = [os[0], os[1], os[2]];
    b.parallel(dims.iter().product(), |b, flat| {
        let idx = b.unflatten(flat, &dims);
        let (n, cb, oh) = (idx[0], idx[1], idx[2]);
        let (ohs, pt) = (b.scale(oh, s[0]), b.index(p[0]));
        let (kh_lo, kh_hi) = inside_range(b, ohs, pt, xs[2], 1, k[0]);
        let ih0 = b.sub(ohs, pt);
        for run in &runs {
            for_each_tile(b, *run, tile_w, |b, ow0, cols| {
                let init_s = b.scalar(elem, if is_max { f64::NEG_INFINITY } else { 0.0 });
                let init = b.splat(init_s, width);
                let accs = vec![init; (cols * vectors) as usize];
                let ows = b.scale(ow0, s[1]);
                let pl = b.index(p[1]);
                let iw0 = b.sub(ows, pl);
                let one = b.index(1);
                let accs = b.for_loop(kh_lo, kh_hi, one, &accs, |b, kh, accs| {
                    let ih = b.add(ih0, kh);
                    let mut accs = accs.to_vec();
                    for kw in run.taps.0..run.taps.1 {
                        for col in 0..cols {
                            let off = b.index(col * s[1] + kw);
                            let iw = b.add(iw0, off);
                            for v in 0..vectors {
                                let lane = b.index(v * width as i64);
                                let xv = b.load_input(x, &[n, cb, ih, iw, lane], width);
                                let a = (col * vectors + v) as usize;
                                accs[a] = b.bin(combine, accs[a], xv);
                            }
                        }
                    }
                    accs
                });
                let divisor: Option<Value> = (!is_max).then(|| {
                    let count = if include_pad {
                        b.index(k[0] * k[1])
                    } else {
                        let rows = b.sub(kh_hi, kh_lo);
                        b.scale(rows, run.taps.1 - run.taps.0)
                    };
                    let cnt = b.cast(count, Type::Scalar(elem));
                    b.splat(cnt, width)
                });
                for col in 0..cols {
                    let colv = b.index(col);
                    let ow = b.add(ow0, colv);
                    for v in 0..vectors {
                        let lane = b.index(v * width as i64);
                        let mut r = accs[(col * vectors + v) as usize];
                        if let Some(d) = divisor {
                            r = b.bin(ScalarFn::Div, r, d);
                        }
                        b.vstore(r, out, &[n, cb, oh, ow, lane]);
                    }
                }
            });
        }
    });
}

/// The pool on `isa`'s microkernel: parallel over (image, group of channel blocks,
/// output row); each run of columns with the same window taps is one call over the
/// group's blocks (the maximum or the sum of vector inputs, the sum divided by the
/// window's size), which tiles the columns itself. Groups are as large as leave 16
/// tasks or more.
fn microkernel(b: &mut Builder, c: &OpLowering, is_max: bool, isa: tcc_target::Isa) {
    let (xs, os) = (c.in_shape(0), c.out_shape(0));
    let (k, s, p) = (c.ints("kernel"), c.ints("strides"), c.ints("pads"));
    let include_pad = !is_max && c.flag("count_include_pad");
    let [n_n, cb_n, h, w, cb] = [xs[0], xs[1], xs[2], xs[3], xs[4]];
    let [oh_n, ow_n] = [os[2], os[3]];
    let (x, out) = (c.ins[0], c.outs[0]);
    let runs = row_runs(ow_n, w, k[1], s[1], 1, p[1]);
    let group = (1..=cb_n).rev().find(|&g| cb_n % g == 0 && n_n * (cb_n / g) * oh_n >= 16).unwrap_or(1);
    let lanes = isa.lanes() as i64;
    let dims = [n_n, cb_n / group, oh_n];
    b.parallel(dims.iter().product(), |b, flat| {
        let idx = b.unflatten(flat, &dims);
        let (n, g, oh) = (idx[0], idx[1], idx[2]);
        let cb0 = b.scale(g, group);
        let (ohs, pt) = (b.scale(oh, s[0]), b.index(p[0]));
        let (kh_lo, kh_hi) = inside_range(b, ohs, pt, xs[2], 1, k[0]);
        let ih = b.sub(ohs, pt);
        let ih = b.add(ih, kh_lo);
        let rows = b.sub(kh_hi, kh_lo);
        let (zero, one) = (b.index(0), b.index(1));
        for run in &runs {
            let (lo, hi) = run.taps;
            let ow0 = b.index(run.start);
            let iw = b.index(run.start * s[1] - p[1] + lo);
            let divisor = (!is_max).then(|| if include_pad { b.index(k[0] * k[1]) } else { b.scale(rows, hi - lo) });
            MicrokernelTile {
                x: b.address(x, &[n, cb0, ih, iw, zero]),
                w: zero,
                o: b.address(out, &[n, cb0, oh, ow0, zero]),
                rows: b.index(run.len),
                vectors: group * cb / lanes,
                accumulate: false,
                x_row: s[1] * cb,
                o_row: cb,
                group_vectors: cb / lanes,
                w_group: 0,
                o_group: oh_n * ow_n * cb,
                inner: hi - lo,
                w_step: 0,
                levels: [(one, 0, 0), (one, 0, 0), (rows, w * cb, 0)],
                prefetch: zero,
                epilogue: None,
                out_rows: None,
                input: TileInput::Vectors {
                    step: cb,
                    group: h * w * cb,
                    reduce: if is_max { VectorReduce::Max } else { VectorReduce::Sum },
                    divisor,
                },
            }
            .call(b, isa);
        }
    });
}
