//! The depthwise template (one input channel per output channel): a tile of `tile_w`
//! columns x one block, multiplying input vectors by filter vectors lane by lane; on a
//! target that calls microkernels, their depthwise runs ([`super::microkernel`]).

use super::{Conv, kernel_rows, microkernel, reduce_range, row_runs, store_tile, tasks};
use crate::builder::Builder;
use crate::emit::OpLowering;
use crate::kernels::for_each_tile;

pub(super) fn depthwise(b: &mut Builder, c: &OpLowering, k: &Conv) {
    if let Some(isa) = microkernel::level(c, k).filter(|_| microkernel::depthwise_fits(c, k)) {
        return microkernel::depthwise(b, c, k, isa);
    }
    let [n_n, _, h, w, _] = k.x;
    let [_, _, kh_n, kw_n, _, _] = k.w;
    let [_, ob_n, oh_n, ow_n, _] = k.o;
    let runs = row_runs(ow_n, w, kw_n, k.stride[1], k.dilation[1], k.pad[1]);
    tasks(b, [n_n, ob_n, oh_n, 1], |b, [n, cb, oh, _]| {
        let ohs = b.scale(oh, k.stride[0]);
        let pt = b.index(k.pad[0]);
        let (kh_lo, kh_hi) = kernel_rows(b, k, ohs, pt, h, kh_n);
        let ih0 = b.sub(ohs, pt);
        for run in &runs {
            for_each_tile(b, *run, k.tile_w, |b, ow0, cols| {
                let zero_s = b.scalar(tcc_ir::ScalarType::F32, 0.0);
                let zero = b.splat(zero_s, k.width);
                let accs = vec![zero; (cols * k.vectors) as usize];
                let iw0 = {
                    let s = b.scale(ow0, k.stride[1]);
                    let pl = b.index(k.pad[1]);
                    b.sub(s, pl)
                };
                let accs = reduce_range(b, kh_lo, kh_hi, accs, |b, kh, accs| {
                    let khd = b.scale(kh, k.dilation[0]);
                    let ih = b.add(ih0, khd);
                    let zero = b.index(0);
                    let mut accs = accs.to_vec();
                    for kw in run.taps.0..run.taps.1 {
                        let kwv = b.index(kw);
                        let iw = b.index(kw * k.dilation[1]);
                        let iw = b.add(iw0, iw);
                        for v in 0..k.vectors {
                            let lane = b.index(v * k.width as i64);
                            let wv = b.load_input(k.wb, &[cb, zero, kh, kwv, zero, lane], k.width);
                            for col in 0..cols {
                                let off = b.index(col * k.stride[1]);
                                let x_col = b.add(iw, off);
                                let xv = b.load_input(k.xb, &[n, cb, ih, x_col, lane], k.width);
                                let a = (col * k.vectors + v) as usize;
                                accs[a] = b.fma(xv, wv, accs[a]);
                            }
                        }
                    }
                    accs
                });
                store_tile(b, c, k, n, cb, oh, ow0, cols, 1, &accs, true);
            });
        }
    });
}
