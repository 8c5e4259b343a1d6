//! Scalar reference nests for the kernel ops: one loop nest over the output's elements
//! in the blocked layout, accumulating in a loop-carried scalar, epilogue applied before
//! the store. They compile any shape the op accepts; the templates fall back to them
//! and are tested against them.

use tcc_ir::scalar::ScalarFn;
use tcc_ir::{Type, Value};

use super::{apply_epilogue, epilogue_operands};
use crate::builder::Builder;
use crate::emit::nn::inside_range;
use crate::emit::{OpLowering, nest, numel};

/// `for i in lo..hi` carrying one accumulator.
fn fold(
    b: &mut Builder,
    lo: Value,
    hi: Value,
    acc: Value,
    body: impl FnOnce(&mut Builder, Value, Value) -> Value,
) -> Value {
    let one = b.index(1);
    b.for_loop(lo, hi, one, &[acc], |b, i, acc| vec![body(b, i, acc[0])])[0]
}

pub fn conv2d_nchwc(b: &mut Builder, c: &OpLowering) {
    c.mark_naive();
    let (xs, ws, os) = (c.in_shape(0), c.in_shape(1), c.out_shape(0));
    let (s, p, d) = (c.ints("strides"), c.ints("pads"), c.ints("dilations"));
    let (ib, (wib, ob)) = (xs[4], tcc_dialect_graph::ops::kernel::filter_blocks(&ws));
    let pairs = ws.len() == 7;
    let per_group_in = ws[1] * wib;
    let per_group_out = os[1] * ob / c.int("groups");
    let (x, w, out) = (c.ins[0], c.ins[1], c.outs[0]);
    let operands = epilogue_operands(c);
    let work = numel(&os) * per_group_in * ws[2] * ws[3];
    nest(b, &os, work, |b, idx| {
        let (n, obi, oh, ow, lane) = (idx[0], idx[1], idx[2], idx[3], idx[4]);
        let o = b.mul_add(obi, ob, lane);
        let per = b.index(per_group_out);
        let grp = b.div(o, per);
        let cbase = b.scale(grp, per_group_in);
        let (ohs, pt) = (b.scale(oh, s[0]), b.index(p[0]));
        let (kh_lo, kh_hi) = inside_range(b, ohs, pt, xs[2], d[0], ws[2]);
        let (ows, pl) = (b.scale(ow, s[1]), b.index(p[1]));
        let (kw_lo, kw_hi) = inside_range(b, ows, pl, xs[3], d[1], ws[3]);
        let zero = b.scalar(raw_elem(c), 0.0);
        let (lo, hi) = (b.index(0), b.index(per_group_in));
        let acc = fold(b, lo, hi, zero, |b, ci, acc| {
            let ch = b.add(cbase, ci);
            let (ibv, wibv) = (b.index(ib), b.index(wib));
            let (xcb, xl) = (b.div(ch, ibv), b.rem(ch, ibv));
            let (wcb, wl) = (b.div(ci, wibv), b.rem(ci, wibv));
            fold(b, kh_lo, kh_hi, acc, |b, kh, acc| {
                let khd = b.mul_add(kh, d[0], ohs);
                let ih = b.sub(khd, pt);
                fold(b, kw_lo, kw_hi, acc, |b, kw, acc| {
                    let kwd = b.mul_add(kw, d[1], ows);
                    let iw = b.sub(kwd, pl);
                    let xv = b.load(x, &[n, xcb, ih, iw, xl]);
                    let wv = if pairs {
                        // bf16 pairs `[.., i/2, o, 2]`, widened with the input.
                        let two = b.index(2);
                        let (pair, half) = (b.div(wl, two), b.rem(wl, two));
                        b.load(w, &[obi, wcb, kh, kw, pair, lane, half])
                    } else {
                        b.load(w, &[obi, wcb, kh, kw, wl, lane])
                    };
                    let (xv, wv) = widened(b, c, xv, wv);
                    b.fma(xv, wv, acc)
                })
            })
        });
        let r = apply_epilogue(b, c, &operands, acc, idx);
        b.store(r, out, idx);
    });
}

/// Max or average pooling in NCHW[x]c (`is_max`), lanes as channels.
pub fn pool2d_nchwc(b: &mut Builder, c: &OpLowering, is_max: bool) {
    c.mark_naive();
    let (xs, os) = (c.in_shape(0), c.out_shape(0));
    let (k, s, p) = (c.ints("kernel"), c.ints("strides"), c.ints("pads"));
    let include_pad = !is_max && c.flag("count_include_pad");
    let elem = c.out_elem(0);
    let (x, out) = (c.ins[0], c.outs[0]);
    nest(b, &os, numel(&os) * k[0] * k[1], |b, idx| {
        let (n, cb, oh, ow, lane) = (idx[0], idx[1], idx[2], idx[3], idx[4]);
        let (ohs, pt) = (b.scale(oh, s[0]), b.index(p[0]));
        let (kh_lo, kh_hi) = inside_range(b, ohs, pt, xs[2], 1, k[0]);
        let (ows, pl) = (b.scale(ow, s[1]), b.index(p[1]));
        let (kw_lo, kw_hi) = inside_range(b, ows, pl, xs[3], 1, k[1]);
        let init = b.scalar(elem, if is_max { f64::NEG_INFINITY } else { 0.0 });
        let combine = if is_max { ScalarFn::Max } else { ScalarFn::Add };
        let acc = fold(b, kh_lo, kh_hi, init, |b, kh, acc| {
            let khy = b.add(ohs, kh);
            let ih = b.sub(khy, pt);
            fold(b, kw_lo, kw_hi, acc, |b, kw, acc| {
                let kwx = b.add(ows, kw);
                let iw = b.sub(kwx, pl);
                let v = b.load(x, &[n, cb, ih, iw, lane]);
                b.bin(combine, acc, v)
            })
        });
        let r = if is_max {
            acc
        } else {
            let count = if include_pad {
                b.index(k[0] * k[1])
            } else {
                let rows = b.sub(kh_hi, kh_lo);
                let cols = b.sub(kw_hi, kw_lo);
                b.mul(rows, cols)
            };
            let cnt = b.cast(count, Type::Scalar(elem));
            b.bin(ScalarFn::Div, acc, cnt)
        };
        b.store(r, out, idx);
    });
}

/// The element type a kernel op computes before its epilogue: the result's, or f32
/// where the epilogue narrows it to bf16 (`narrow-outputs`).
fn raw_elem(c: &OpLowering) -> tcc_ir::ScalarType {
    tcc_dialect_graph::ops::kernel::raw_result(c.g, c.op).as_tensor().map_or(c.out_elem(0), |t| t.elem())
}

/// Input and weight elements `x` and `w` in the result's type: bf16 ones (of the bf16
/// dot kernels' ops, whose results are f32) widened, exactly.
fn widened(b: &mut Builder, c: &OpLowering, x: Value, w: Value) -> (Value, Value) {
    if c.in_elem(0) == raw_elem(c) {
        return (x, w);
    }
    let elem = Type::Scalar(raw_elem(c));
    (b.cast(x, elem.clone()), b.cast(w, elem))
}

/// `matmul_packed` (the right operand `[N/nb, K, nb]`, or bf16 `[N/nb, K/2, nb, 2]`
/// with bf16 `a` widened to the f32 result) or `batch_matmul` (`[.., K, N]`).
pub fn matmul(b: &mut Builder, c: &OpLowering) {
    c.mark_naive();
    matmul_columns(b, c, 0);
}

/// [`matmul`]'s columns from `first` on (a packed bf16 matmul's partial last block of
/// columns, which the dot tile's whole vectors would overrun).
pub fn matmul_columns(b: &mut Builder, c: &OpLowering, first: i64) {
    let (sa, sb, os) = (c.in_shape(0), c.in_shape(1), c.out_shape(0));
    let packed = matches!(tcc_dialect_graph::kind(c.g.def(c.op)), Some(tcc_dialect_graph::GraphOp::MatmulPacked));
    let kdim = sa[sa.len() - 1];
    let (a, bm, out) = (c.ins[0], c.ins[1], c.outs[0]);
    let operands = epilogue_operands(c);
    let mut cols = os.clone();
    *cols.last_mut().expect("rank >= 2") -= first;
    nest(b, &cols, numel(&cols) * kdim, |b, at| {
        let mut idx = at.to_vec();
        let last = idx.len() - 1;
        if first != 0 {
            let offset = b.index(first);
            idx[last] = b.add(idx[last], offset);
        }
        let idx = &idx[..];
        let (row, j) = idx.split_at(idx.len() - 1);
        let zero = b.scalar(raw_elem(c), 0.0);
        let (lo, hi) = (b.index(0), b.index(kdim));
        let acc = fold(b, lo, hi, zero, |b, k, acc| {
            let mut ai = row.to_vec();
            ai.push(k);
            let av = b.load(a, &ai);
            let bv = if packed {
                let nbv = b.index(sb[2]);
                let (jb, jl) = (b.div(j[0], nbv), b.rem(j[0], nbv));
                if sb.len() == 4 {
                    let two = b.index(2);
                    let (kp, ki) = (b.div(k, two), b.rem(k, two));
                    b.load(bm, &[jb, kp, jl, ki])
                } else {
                    b.load(bm, &[jb, k, jl])
                }
            } else {
                let mut bi = row[..row.len() - 1].to_vec();
                bi.push(k);
                bi.push(j[0]);
                b.load(bm, &bi)
            };
            let (av, bv) = widened(b, c, av, bv);
            b.fma(av, bv, acc)
        });
        let r = apply_epilogue(b, c, &operands, acc, idx);
        b.store(r, out, idx);
    });
}
