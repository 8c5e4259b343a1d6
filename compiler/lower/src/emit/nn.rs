//! Matmul, conv2d, pooling, reductions and softmax as plain loop nests.
//!
//! Convolution and pooling compute, per output row, the range of kernel taps that land
//! inside the input (index arithmetic instead of a padding test per tap), and
//! accumulate along the output row, whose loop has unit stride: with stride 1 the
//! input row is walked contiguously too, so the vectorizer can take the innermost loop.
//! Matmul accumulates rows of the output (`out[i, :] += a[i, k] * b[k, :]`) for the same
//! reason. Accumulation is in the element type (f32); the reference interpreter uses
//! f64, hence the tolerance of the tests comparing them.

use tcc_dialect_graph::ops::nn::reduction_axes;
use tcc_dialect_graph::{GraphOp, Pool, Reduce};
use tcc_ir::scalar::{Compare, Identity, MathFn, ScalarFn};
use tcc_ir::{ScalarType, Type, Value};

use super::{OpLowering, PARALLEL_MIN_WORK, broadcast_index, nest, numel};
use crate::builder::Builder;

/// Runs `body(row)` for `rows` rows, on the pool when `work` is large.
fn rows_loop(b: &mut Builder, rows: i64, work: i64, body: impl FnOnce(&mut Builder, Value)) {
    if rows >= 2 && work >= PARALLEL_MIN_WORK {
        b.parallel(rows, body);
    } else {
        b.range_n(rows, body);
    }
}

/// acc + x * y (fused for floats).
fn mul_acc(b: &mut Builder, elem: ScalarType, x: Value, y: Value, acc: Value) -> Value {
    if elem.is_float() {
        b.fma(x, y, acc)
    } else {
        let p = b.bin(ScalarFn::Mul, x, y);
        b.bin(ScalarFn::Add, acc, p)
    }
}

/// The range `[lo, hi)` of `i < count` whose position `i * step + base - pad` lies in
/// `[0, size)`: a convolution's kernel taps (or output columns) that read real input.
pub(crate) fn inside_range(
    b: &mut Builder,
    base: Value,
    pad: Value,
    size: i64,
    step: i64,
    count: i64,
) -> (Value, Value) {
    let t = b.sub(pad, base);
    let lo = ceil_div_pos(b, t, step);
    let last = b.index(size - 1);
    let u0 = b.add(last, pad);
    let u = b.sub(u0, base);
    (lo, floor_bound(b, u, step, count))
}

/// ceil(max(t, 0) / s) for index values.
fn ceil_div_pos(b: &mut Builder, t: Value, s: i64) -> Value {
    let zero = b.index(0);
    let t = b.max(t, zero);
    let bias = b.index(s - 1);
    let num = b.add(t, bias);
    let sv = b.index(s);
    b.div(num, sv)
}

/// The first index past the last `i < limit` with `i * s <= u`: `min(limit, floor(u / s) + 1)`,
/// or 0 when `u < 0`.
fn floor_bound(b: &mut Builder, u: Value, s: i64, limit: i64) -> Value {
    let zero = b.index(0);
    let one = b.index(1);
    let sv = b.index(s);
    let lim = b.index(limit);
    let q = b.div(u, sv);
    let q1 = b.add(q, one);
    let hi = b.min(q1, lim);
    let neg = b.cmp(Compare::Lt, u, zero);
    b.select(neg, zero, hi)
}

pub fn matmul(b: &mut Builder, c: &OpLowering) {
    c.mark_naive();
    let (sa, sb) = (c.in_shape(0), c.in_shape(1));
    let (a_vec, b_vec) = (sa.len() == 1, sb.len() == 1);
    let (m, k) = if a_vec { (1, sa[0]) } else { (sa[sa.len() - 2], sa[sa.len() - 1]) };
    let n = if b_vec { 1 } else { sb[sb.len() - 1] };
    let batch_a = if sa.len() > 2 { sa[..sa.len() - 2].to_vec() } else { vec![] };
    let batch_b = if sb.len() > 2 { sb[..sb.len() - 2].to_vec() } else { vec![] };
    let rank = batch_a.len().max(batch_b.len());
    let pad = |v: &[i64]| [vec![1; rank - v.len()], v.to_vec()].concat();
    let batch: Vec<i64> = pad(&batch_a).iter().zip(pad(&batch_b)).map(|(&x, y)| x.max(y)).collect();
    let elem = c.out_elem(0);
    let (a, bb, out) = (c.ins[0], c.ins[1], c.outs[0]);
    let rows = numel(&batch) * m;
    rows_loop(b, rows, rows * n * k, |b, row| {
        let mut dims = batch.clone();
        dims.push(m);
        let idx = b.unflatten(row, &dims);
        let (bi, i) = (&idx[..batch.len()], idx[batch.len()]);
        let a_batch = broadcast_index(b, bi, &batch_a);
        let b_batch = broadcast_index(b, bi, &batch_b);
        let out_at = |j: Value| {
            let mut o = bi.to_vec();
            if !a_vec {
                o.push(i);
            }
            if !b_vec {
                o.push(j);
            }
            o
        };
        let zero = b.scalar(elem, 0.0);
        b.range_n(n, |b, j| b.store(zero, out, &out_at(j)));
        b.range_n(k, |b, p| {
            let mut ai = a_batch.clone();
            if !a_vec {
                ai.push(i);
            }
            ai.push(p);
            let av = b.load(a, &ai);
            b.range_n(n, |b, j| {
                let mut bidx = b_batch.clone();
                bidx.push(p);
                if !b_vec {
                    bidx.push(j);
                }
                let bv = b.load(bb, &bidx);
                let o = out_at(j);
                let acc = b.load(out, &o);
                let r = mul_acc(b, elem, av, bv, acc);
                b.store(r, out, &o);
            });
        });
    });
}

pub fn conv2d(b: &mut Builder, c: &OpLowering) {
    c.mark_naive();
    let (xs, ws, os) = (c.in_shape(0), c.in_shape(1), c.out_shape(0));
    let (h, w) = (xs[2], xs[3]);
    let (o_ch, cg, kh_n, kw_n) = (ws[0], ws[1], ws[2], ws[3]);
    let (oh, ow) = (os[2], os[3]);
    let (s, p, d) = (c.ints("strides"), c.ints("pads"), c.ints("dilations"));
    let og = o_ch / c.int("groups");
    let elem = c.out_elem(0);
    let (x, wt, out) = (c.ins[0], c.ins[1], c.outs[0]);
    let bias = c.ins.get(2).copied();
    let rows = os[0] * o_ch * oh;
    rows_loop(b, rows, numel(&os) * cg * kh_n * kw_n, |b, row| {
        let idx = b.unflatten(row, &[os[0], o_ch, oh]);
        let (n, o, y) = (idx[0], idx[1], idx[2]);
        let init = match bias {
            Some(bv) => b.load(bv, &[o]),
            None => b.scalar(elem, 0.0),
        };
        b.range_n(ow, |b, xo| b.store(init, out, &[n, o, y, xo]));
        // Kernel rows landing inside the input: y*sh + kh*dh - pt in [0, H).
        let ysh = b.scale(y, s[0]);
        let pt = b.index(p[0]);
        let (kh_lo, kh_hi) = inside_range(b, ysh, pt, h, d[0], kh_n);
        let ogv = b.index(og);
        let grp = b.div(o, ogv);
        let c_base = b.scale(grp, cg);
        b.range_n(cg, |b, ci| {
            let ic = b.add(c_base, ci);
            b.range(kh_lo, kh_hi, |b, kh| {
                let khd = b.mul_add(kh, d[0], ysh);
                let iy = b.sub(khd, pt);
                b.range_n(kw_n, |b, kw| {
                    let wv = b.load(wt, &[o, ci, kh, kw]);
                    // Output columns whose tap lands inside: x*sw + kw*dw - pl in [0, W).
                    let kwd = b.scale(kw, d[1]);
                    let pl = b.index(p[1]);
                    let (x_lo, x_hi) = inside_range(b, kwd, pl, w, s[1], ow);
                    let off = b.sub(kwd, pl);
                    b.range(x_lo, x_hi, |b, xo| {
                        let ix = b.mul_add(xo, s[1], off);
                        let xv = b.load(x, &[n, ic, iy, ix]);
                        let acc = b.load(out, &[n, o, y, xo]);
                        let r = mul_acc(b, elem, xv, wv, acc);
                        b.store(r, out, &[n, o, y, xo]);
                    });
                });
            });
        });
    });
}

pub fn pool2d(b: &mut Builder, c: &OpLowering) {
    c.mark_naive();
    let is_max = matches!(tcc_dialect_graph::kind(c.g.def(c.op)), Some(GraphOp::Pool2d(Pool::Max)));
    let include_pad = !is_max && c.flag("count_include_pad");
    let (xs, os) = (c.in_shape(0), c.out_shape(0));
    let (h, w) = (xs[2], xs[3]);
    let (oh, ow) = (os[2], os[3]);
    let (k, s, p) = (c.ints("kernel"), c.ints("strides"), c.ints("pads"));
    let elem = c.out_elem(0);
    let (x, out) = (c.ins[0], c.outs[0]);
    let rows = os[0] * os[1] * oh;
    rows_loop(b, rows, numel(&os) * k[0] * k[1], |b, row| {
        let idx = b.unflatten(row, &[os[0], os[1], oh]);
        let (n, ch, y) = (idx[0], idx[1], idx[2]);
        let ysh = b.scale(y, s[0]);
        let pt = b.index(p[0]);
        let t = b.sub(pt, ysh);
        let kh_lo = b.max_const(t, 0);
        let hp = b.index(h + p[0]);
        let u = b.sub(hp, ysh);
        let kh_hi = b.min_const(u, k[0]);
        b.range_n(ow, |b, xo| {
            let xsw = b.scale(xo, s[1]);
            let pl = b.index(p[1]);
            let t = b.sub(pl, xsw);
            let kw_lo = b.max_const(t, 0);
            let wp = b.index(w + p[1]);
            let u = b.sub(wp, xsw);
            let kw_hi = b.min_const(u, k[1]);
            let init = b.scalar(elem, if is_max { f64::NEG_INFINITY } else { 0.0 });
            let one = b.index(1);
            let acc = b.for_loop(kh_lo, kh_hi, one, &[init], |b, kh, acc| {
                let khy = b.add(ysh, kh);
                let iy = b.sub(khy, pt);
                b.for_loop(kw_lo, kw_hi, one, acc, |b, kw, acc| {
                    let kwx = b.add(xsw, kw);
                    let ix = b.sub(kwx, pl);
                    let v = b.load(x, &[n, ch, iy, ix]);
                    vec![b.bin(if is_max { ScalarFn::Max } else { ScalarFn::Add }, acc[0], v)]
                })
            })[0];
            let r = if is_max {
                acc
            } else {
                let count = if include_pad {
                    b.index(k[0] * k[1])
                } else {
                    let rows_in = b.sub(kh_hi, kh_lo);
                    let cols_in = b.sub(kw_hi, kw_lo);
                    b.mul(rows_in, cols_in)
                };
                let cnt = b.cast(count, Type::Scalar(elem));
                b.bin(ScalarFn::Div, acc, cnt)
            };
            b.store(r, out, &[n, ch, y, xo]);
        });
    });
}

pub fn reduce(b: &mut Builder, c: &OpLowering) {
    if c.scratch.is_some() {
        return super::fused::emit_split_reduction(b, c);
    }
    let group = super::fused::Group::of_reduction(c);
    if let Some(sums) = super::column_sums::plan(b, &group) {
        return super::column_sums::emit(b, &group, &sums);
    }
    let x = c.ins[0];
    reduce_with(b, c, c.outs[0], &|b: &mut Builder, idx: &[Value], lanes: u32| b.vload(x, idx, lanes), true);
}

/// The element `element(b, index, lanes)` gives at an index of a reduction's input: a
/// scalar for one lane, else the vector of `lanes` elements from there along the
/// innermost dimension.
pub type Element<'a> = &'a dyn Fn(&mut Builder, &[Value], u32) -> Value;

/// Reduction op `c` (its attributes and input shape) into `out`, reading its input
/// through `element` (`vectors`: `element` can give vectors).
///
/// When the innermost (contiguous) dimension is kept and holds whole float vectors (a
/// reduction over the pixels of a blocked NCHW[x]c tensor), the accumulators run along
/// it: vector accumulators, the reduced dimensions looped over outside; or, when
/// `element` gives scalars only, the output row accumulates in memory with the kept
/// dimension innermost, for `vectorize`. Otherwise one accumulator per output element,
/// the reduced dimensions innermost.
pub fn reduce_with(b: &mut Builder, c: &OpLowering, out: Value, element: Element, vectors: bool) {
    let reduction = reduction_of(c);
    let mean = reduction == Reduce::Mean;
    let combine = reduction.combine();
    let xs = c.in_shape(0);
    let axes = reduction_axes(&c.sig(), xs.len()).expect("verified axes");
    let keep = c.flag("keepdims");
    let elem = c.out_elem(0);
    let kept: Vec<usize> = (0..xs.len()).filter(|d| !axes.contains(d)).collect();
    let kept_shape: Vec<i64> = kept.iter().map(|&d| xs[d]).collect();
    let reduced: Vec<i64> = axes.iter().map(|&d| xs[d]).collect();
    let count = numel(&reduced);
    // The output index of the input index `full` (kept dimensions set).
    let out_index = |b: &mut Builder, full: &[Option<Value>]| -> Vec<Value> {
        let zero = b.index(0);
        if keep {
            (0..xs.len()).map(|d| full[d].filter(|_| !axes.contains(&d)).unwrap_or(zero)).collect()
        } else {
            kept.iter().map(|&d| full[d].expect("kept dimensions have indices")).collect()
        }
    };
    let last = xs.len() - 1;
    let width = c.lanes as i64 * 4 / elem.byte_size().max(1) as i64;
    if elem.is_float() && !axes.contains(&last) && width >= 2 && xs[last] % width == 0 {
        if !vectors {
            return reduce_rows_in_memory(b, c, out, element, (&axes, &reduced, &kept), combine, &out_index);
        }
        // The vectors across the innermost dimension (a channel block) accumulate
        // together, up to 8: one pass over the input, each cache line read whole (a
        // loop per vector read a 16-lane block's lines four times on 4-lane targets).
        let group = (1..=8).rev().find(|&g| xs[last] % (g * width) == 0).unwrap_or(1);
        let mut chunks = kept_shape.clone();
        *chunks.last_mut().expect("the last dimension is kept") /= width * group;
        let chunk = |b: &mut Builder, kidx: &[Value]| {
            let mut full: Vec<Option<Value>> = vec![None; xs.len()];
            for (k, &d) in kept.iter().enumerate() {
                full[d] = Some(kidx[k]);
            }
            let lane0 = b.scale(kidx[kept.len() - 1], width * group);
            let vector_at: Vec<Value> = (0..group)
                .map(|g| {
                    let offset = b.index(g * width);
                    b.add(lane0, offset)
                })
                .collect();
            let init_s = identity(b, combine, elem);
            let acc = b.splat(init_s, width as u32);
            // Four partial accumulators per vector along the last reduced dimension when
            // it is long enough and the vectors are few, so the combining's latency does
            // not bound the loop (the pixels of a blocked tensor, summed per channel).
            let parts = if group < 4 && reduced.last().is_some_and(|&n| n >= 8) { 4 } else { 1 };
            let sums =
                reduce_parts(b, element, (&axes, &reduced), &full, Some((last, &vector_at)), acc, combine, parts);
            for (mut r, lane) in sums.into_iter().zip(vector_at) {
                if mean {
                    let n = b.scalar(elem, count as f64);
                    let n = b.splat(n, width as u32);
                    r = b.bin(ScalarFn::Div, r, n);
                }
                let mut at = full.clone();
                at[last] = Some(lane);
                let oidx = out_index(b, &at);
                b.vstore(r, out, &oidx);
            }
        };
        // Few chunks that each reduce many elements (a group norm's channel sums in f64
        // on 128-bit vectors: 8 chunks of 16 channels over 3,136 pixels) are the tasks.
        let n_chunks = numel(&chunks);
        if n_chunks * CHUNK_TASK_MIN_WORK <= numel(&xs) {
            rows_loop(b, n_chunks, numel(&xs), |b, flat| {
                let kidx = b.unflatten(flat, &chunks);
                chunk(b, &kidx);
            });
        } else {
            nest(b, &chunks, numel(&xs), |b, kidx| chunk(b, kidx));
        }
        return;
    }
    nest(b, &kept_shape, numel(&xs), |b, kidx| {
        let init = identity(b, combine, elem);
        let mut full: Vec<Option<Value>> = vec![None; xs.len()];
        for (k, &d) in kept.iter().enumerate() {
            full[d] = Some(kidx[k]);
        }
        // Scalar elements along a contiguous reduced dimension (the group mixes element
        // types, so `vectorize` leaves it): four partial accumulators, so the
        // combining's latency does not bound the loop (a layer norm's f64 sums).
        let split = !vectors && axes.last() == Some(&(xs.len() - 1)) && xs[xs.len() - 1] >= 16;
        let parts = if split { 4 } else { 1 };
        let mut r = reduce_parts(b, element, (&axes, &reduced), &full, None, init, combine, parts)[0];
        if mean {
            let n = b.scalar(elem, count as f64);
            r = b.bin(ScalarFn::Div, r, n);
        }
        let oidx = out_index(b, &full);
        b.store(r, out, &oidx);
    });
}

/// The fewest elements a chunk of vectors reduces for the chunks to be the parallel
/// tasks of a reduction (else [`nest`] splits the chunks themselves).
const CHUNK_TASK_MIN_WORK: i64 = 1 << 12;

/// The identity of a reduction's combining function for `elem`: 0 for sums, -inf or
/// +inf for float maxima and minima, an integer type's extremes for integer ones.
pub(super) fn identity(b: &mut Builder, combine: ScalarFn, elem: ScalarType) -> Value {
    match combine.reduction_identity(elem).expect("a reduction's combining function") {
        Identity::Float(v) => b.scalar(elem, v),
        Identity::Int(v) => b.int(elem, v),
    }
}

/// Which reduction the op being lowered is.
pub(super) fn reduction_of(c: &OpLowering) -> Reduce {
    match tcc_dialect_graph::kind(c.g.def(c.op)) {
        Some(GraphOp::Reduce(r)) => r,
        _ => unreachable!("'{}' is not a reduction", c.name()),
    }
}

/// A float reduction keeping its innermost dimension, accumulated in the output row:
/// per row of the kept outer dimensions, the row is set to the initial value, then for
/// each reduced index combined with the input along the innermost dimension (a
/// contiguous loop `vectorize` turns into vector code), and divided for a mean.
fn reduce_rows_in_memory(
    b: &mut Builder,
    c: &OpLowering,
    out: Value,
    element: Element,
    (axes, reduced, kept): (&[usize], &[i64], &[usize]),
    combine: ScalarFn,
    out_index: &dyn Fn(&mut Builder, &[Option<Value>]) -> Vec<Value>,
) {
    let xs = c.in_shape(0);
    let elem = c.out_elem(0);
    let last = xs.len() - 1;
    let outer: Vec<usize> = kept.iter().copied().filter(|&d| d != last).collect();
    let outer_shape: Vec<i64> = outer.iter().map(|&d| xs[d]).collect();
    let mean = reduction_of(c) == Reduce::Mean;
    nest(b, &outer_shape, numel(&xs), |b, kidx| {
        let mut full: Vec<Option<Value>> = vec![None; xs.len()];
        for (k, &d) in outer.iter().enumerate() {
            full[d] = Some(kidx[k]);
        }
        let (zero, row) = (b.index(0), b.index(xs[last]));
        let start = identity(b, combine, elem);
        b.range(zero, row, |b, l| {
            let mut at = full.clone();
            at[last] = Some(l);
            let o = out_index(b, &at);
            b.store(start, out, &o);
        });
        let frame = full.clone();
        reduced_nest(b, axes, reduced, &frame, Vec::new(), &mut |b, full, _| {
            let (zero, row) = (b.index(0), b.index(xs[last]));
            b.range(zero, row, |b, l| {
                let mut at = full.to_vec();
                at[last] = Some(l);
                let idx: Vec<Value> = at.iter().map(|v| v.expect("every dimension has an index")).collect();
                let v = element(b, &idx, 1);
                let o = out_index(b, &at);
                let acc = b.load(out, &o);
                let r = b.bin(combine, acc, v);
                b.store(r, out, &o);
            });
            Vec::new()
        });
        if mean {
            let n = b.scalar(elem, numel(reduced) as f64);
            b.range(zero, row, |b, l| {
                let mut at = full.clone();
                at[last] = Some(l);
                let o = out_index(b, &at);
                let acc = b.load(out, &o);
                let r = b.bin(ScalarFn::Div, acc, n);
                b.store(r, out, &o);
            });
        }
    });
}

/// Loops over the reduced dimensions `axes` (extents `reduced`; innermost = the last),
/// combining each element (or, for a vector `init`, the vector of elements from there
/// on) into accumulators starting from `init` (the identity); `full` holds the kept
/// dimensions' indices. One result per index of `group` (dimension and its indices:
/// several vectors side by side, read at each step), or one for `full` as it is. With
/// `parts` above 1, each result is `parts` partial results along the last reduced
/// dimension (its steps in turn, a rest to the first), combined at the end.
#[allow(clippy::too_many_arguments)]
fn reduce_parts(
    b: &mut Builder,
    element: Element,
    (axes, reduced): (&[usize], &[i64]),
    full: &[Option<Value>],
    group: Option<(usize, &[Value])>,
    init: Value,
    combine: ScalarFn,
    parts: i64,
) -> Vec<Value> {
    let lanes = b.ty(init).as_vector().map_or(1, |v| v.lanes);
    let frames: Vec<Vec<Option<Value>>> = match group {
        Some((dim, at)) => at
            .iter()
            .map(|&i| {
                let mut f = full.to_vec();
                f[dim] = Some(i);
                f
            })
            .collect(),
        None => vec![full.to_vec()],
    };
    let vectors = frames.len();
    let (&n, outer) = reduced.split_last().expect("a reduced dimension");
    let last = *axes.last().expect("a reduced axis");
    // Accumulator `p * vectors + v`: part `p` of vector `v`.
    let combine_at = |b: &mut Builder, acc: Value, frame: &[Option<Value>], i: Value| {
        let mut at = frame.to_vec();
        at[last] = Some(i);
        let idx: Vec<Value> = at.iter().map(|v| v.expect("every dimension has an index")).collect();
        let v = element(b, &idx, lanes);
        b.bin(combine, acc, v)
    };
    let mut inner = |b: &mut Builder, outer_at: &[Option<Value>], accs: Vec<Value>| -> Vec<Value> {
        let frames: Vec<Vec<Option<Value>>> =
            frames.iter().map(|f| f.iter().zip(outer_at).map(|(own, o)| own.or(*o)).collect()).collect();
        let (zero, one) = (b.index(0), b.index(1));
        let (whole, step) = (b.index(n / parts), b.index(parts));
        let mut accs = b.for_loop(zero, whole, one, &accs, |b, j, accs| {
            let base = b.mul(j, step);
            (0..accs.len())
                .map(|a| {
                    let (p, v) = (a / vectors, a % vectors);
                    let offset = b.index(p as i64);
                    let i = b.add(base, offset);
                    combine_at(b, accs[a], &frames[v], i)
                })
                .collect()
        });
        for i in n / parts * parts..n {
            let iv = b.index(i);
            for (v, frame) in frames.iter().enumerate() {
                accs[v] = combine_at(b, accs[v], frame, iv);
            }
        }
        accs
    };
    let accs = vec![init; parts as usize * vectors];
    let accs = reduced_nest(b, &axes[..axes.len() - 1], outer, full, accs, &mut inner);
    // Each vector's parts, pairwise: (0 + 1) + (2 + 3) for four.
    (0..vectors)
        .map(|v| {
            let mut level: Vec<Value> = (0..parts as usize).map(|p| accs[p * vectors + v]).collect();
            while level.len() > 1 {
                level = level.chunks(2).map(|c| if c.len() == 2 { b.bin(combine, c[0], c[1]) } else { c[0] }).collect();
            }
            level[0]
        })
        .collect()
}

/// Loops over the dimensions `axes` (extents `reduced`), threading the values `parts`
/// through them; `inner` runs at each index (`frame` with those dimensions set).
pub(super) fn reduced_nest(
    b: &mut Builder,
    axes: &[usize],
    reduced: &[i64],
    frame: &[Option<Value>],
    parts: Vec<Value>,
    inner: &mut dyn FnMut(&mut Builder, &[Option<Value>], Vec<Value>) -> Vec<Value>,
) -> Vec<Value> {
    let Some((&n, rest)) = reduced.split_first() else {
        return inner(b, frame, parts);
    };
    let (lb, ub, one) = (b.index(0), b.index(n), b.index(1));
    let axis = axes[0];
    b.for_loop(lb, ub, one, &parts, |b, i, parts| {
        let mut inner_frame = frame.to_vec();
        inner_frame[axis] = Some(i);
        reduced_nest(b, &axes[1..], rest, &inner_frame, parts.to_vec(), inner)
    })
}

/// `graph.argmax`: per output element, a loop along the axis carrying the best value
/// and its index, taking an element greater than the best, or a NaN over a number (so
/// the first of equal maxima, and the first NaN, win).
pub fn argmax(b: &mut Builder, c: &OpLowering) {
    let (xs, os) = (c.in_shape(0), c.out_shape(0));
    let axis = tcc_dialect_graph::infer::normalize_axis(c.int("axis"), xs.len()).expect("verified axis");
    let float = c.in_elem(0).is_float();
    nest(b, &os, numel(&xs), |b, idx| {
        let at = |b: &mut Builder, j: Value| {
            let mut src = idx[..axis].to_vec();
            src.push(j);
            src.extend_from_slice(&idx[axis..]);
            b.load(c.ins[0], &src)
        };
        let zero = b.index(0);
        let first = at(b, zero);
        let (one, n) = (b.index(1), b.index(xs[axis]));
        let best = b.for_loop(one, n, one, &[first, zero], |b, j, carried| {
            let (best, best_j) = (carried[0], carried[1]);
            let v = at(b, j);
            let mut take = b.cmp(Compare::Gt, v, best);
            if float {
                // v is NaN and best is not: v != v and best == best.
                let v_nan = b.cmp(Compare::Ne, v, v);
                let best_number = b.cmp(Compare::Eq, best, best);
                let nan_over_number = b.bin(ScalarFn::And, v_nan, best_number);
                take = b.bin(ScalarFn::Or, take, nan_over_number);
            }
            vec![b.select(take, v, best), b.select(take, j, best_j)]
        })[1];
        let r = b.cast(best, Type::Scalar(ScalarType::I64));
        b.store(r, c.outs[0], idx);
    });
}

pub fn softmax(b: &mut Builder, c: &OpLowering) {
    let shape = c.in_shape(0);
    let axis = tcc_dialect_graph::infer::normalize_axis(c.int("axis"), shape.len()).expect("verified axis");
    let (before, len, after) = (&shape[..axis], shape[axis], &shape[axis + 1..]);
    let elem = c.out_elem(0);
    let (x, out) = (c.ins[0], c.outs[0]);
    let rows = numel(before) * numel(after);
    rows_loop(b, rows, numel(&shape) * 16, |b, row| {
        let mut dims = before.to_vec();
        dims.extend_from_slice(after);
        let rest = b.unflatten(row, &dims);
        let at = |j: Value| {
            let mut v = rest[..before.len()].to_vec();
            v.push(j);
            v.extend_from_slice(&rest[before.len()..]);
            v
        };
        let (lb, ub, one) = (b.index(0), b.index(len), b.index(1));
        let ninf = b.scalar(elem, f64::NEG_INFINITY);
        let m = b.for_loop(lb, ub, one, &[ninf], |b, j, acc| {
            let v = b.load(x, &at(j));
            vec![b.bin(ScalarFn::Max, acc[0], v)]
        })[0];
        let zero = b.scalar(elem, 0.0);
        let sum = b.for_loop(lb, ub, one, &[zero], |b, j, acc| {
            let v = b.load(x, &at(j));
            let d = b.bin(ScalarFn::Sub, v, m);
            let e = b.un(ScalarFn::Math(MathFn::Exp), d);
            b.store(e, out, &at(j));
            vec![b.bin(ScalarFn::Add, acc[0], e)]
        })[0];
        b.range(lb, ub, |b, j| {
            let e = b.load(out, &at(j));
            let r = b.bin(ScalarFn::Div, e, sum);
            b.store(r, out, &at(j));
        });
    });
}
