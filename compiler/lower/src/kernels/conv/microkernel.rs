//! The direct and pointwise templates' register tiles as microkernel calls: with a
//! target that calls the runtime's microkernels, each tile of uniform kernel taps is one
//! `loop.microkernel` call over the whole reduction (input-channel blocks, in-bounds
//! kernel rows, kernel columns and channels), and the epilogue, if any, runs in
//! generated code on the stored tile while it is in L1.

use tcc_ir::Value;
use tcc_target::Isa;

use super::super::MicrokernelTile;
use super::{Conv, Tile, load_tile, store_tile};
use crate::builder::Builder;
use crate::emit::OpLowering;

/// The microkernel level that computes `k`'s tiles, if the target calls microkernels
/// and the output blocks are whole vectors of that level.
pub(super) fn level(c: &OpLowering, k: &Conv) -> Option<Isa> {
    c.ukernels.filter(|isa| k.o[4] % isa.lanes() as i64 == 0)
}

/// Tile `t` of `cols` columns from `ow0`, every column reading kernel columns `taps`,
/// as one call of `isa`'s microkernel.
pub(super) fn tile(
    b: &mut Builder,
    c: &OpLowering,
    k: &Conv,
    isa: Isa,
    t: &Tile,
    ow0: Value,
    cols: i64,
    taps: (i64, i64),
) {
    let [_, _, h, w, ib] = k.x;
    let [_, wicb, kh_n, kw_n, wib, ob] = k.w;
    let [_, _, oh_n, ow_n, _] = k.o;
    let ([_, sw], [dh, dw]) = (k.stride, k.dilation);
    let (lo, hi) = taps;
    let iw = {
        let s = b.scale(ow0, sw);
        let first = b.index(lo * dw - k.pad[1]);
        b.add(s, first)
    };
    let ih = {
        let d = b.scale(t.kh.0, dh);
        b.add(t.ih0, d)
    };
    let xcb = b.add(t.icb_base, t.icb.0);
    let zero = b.index(0);
    let lo_v = b.index(lo);
    let x = b.address(k.xb, &[t.n, xcb, ih, iw, zero]);
    let wp = b.address(k.wb, &[t.ob0, t.icb.0, t.kh.0, lo_v, zero, zero]);
    let o = b.address(k.ob, &[t.n, t.ob0, t.oh, ow0, zero]);
    let icbs = b.sub(t.icb.1, t.icb.0);
    let khs = b.sub(t.kh.1, t.kh.0);
    let filter_row = kw_n * wib * ob;
    // Unit dilation: a kernel row's columns and channels are one contiguous run of the
    // input row and of the filter row.
    let (kws, inner) = if dw == 1 { (b.index(1), (hi - lo) * ib) } else { (b.index(hi - lo), ib) };
    let lanes = isa.lanes() as i64;
    MicrokernelTile {
        x,
        w: wp,
        o,
        rows: cols,
        vectors: k.tile_oc * ob / lanes,
        accumulate: !t.first,
        x_row: sw * ib,
        o_row: ob,
        group_vectors: ob / lanes,
        w_group: wicb * kh_n * filter_row,
        o_group: oh_n * ow_n * ob,
        inner,
        w_step: ob,
        levels: [(icbs, h * w * ib, kh_n * filter_row), (khs, dh * w * ib, filter_row), (kws, dw * ib, wib * ob)],
    }
    .call(b, isa);
    if t.last && !c.g.regions(c.op).is_empty() {
        let accs = load_tile(b, k, t, ow0, cols);
        store_tile(b, c, k, t.n, t.ob0, t.oh, ow0, cols, k.tile_oc, &accs, true);
    }
}
