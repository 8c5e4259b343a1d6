//! Reference kernels of matmul, conv2d, pooling, reductions and softmax. Float
//! accumulation is in f64 with one rounding at the end; integers wrap.

use super::EvalArgs;
use super::elementwise::broadcast_map;
use super::tensor::{Tensor, for_each_index, strides};
use crate::ops::nn::{bilinear_taps, reduction_axes};

type R = Result<Vec<Tensor>, String>;

pub fn matmul(a: &EvalArgs) -> R {
    let (x, y) = (a.input(0), a.input(1));
    // numpy: promote 1-D operands to matrices.
    let sa: Vec<usize> = if x.rank() == 1 { vec![1, x.shape()[0]] } else { x.shape().to_vec() };
    let sb: Vec<usize> = if y.rank() == 1 { vec![y.shape()[0], 1] } else { y.shape().to_vec() };
    let (m, k, n) = (sa[sa.len() - 2], sa[sa.len() - 1], sb[sb.len() - 1]);
    let (batch_a, batch_b) = (&sa[..sa.len() - 2], &sb[..sb.len() - 2]);
    let rank = batch_a.len().max(batch_b.len());
    let pad = |b: &[usize]| {
        let mut v = vec![1; rank - b.len()];
        v.extend_from_slice(b);
        v
    };
    let (pa, pb) = (pad(batch_a), pad(batch_b));
    let batch: Vec<usize> = pa.iter().zip(&pb).map(|(&p, &q)| p.max(q)).collect();
    let (map_a, map_b) = (broadcast_map(&batch, batch_a), broadcast_map(&batch, batch_b));
    let nb = map_a.len();
    let out_dims = a.result_dims(0);
    if x.is_float() {
        let (xv, yv) = (x.to_f64s(), y.to_f64s());
        let mut out = vec![0.0; nb * m * n];
        for bi in 0..nb {
            let (ao, bo) = (map_a[bi] * m * k, map_b[bi] * k * n);
            for i in 0..m {
                for j in 0..n {
                    let mut acc = 0.0;
                    for p in 0..k {
                        acc += xv[ao + i * k + p] * yv[bo + p * n + j];
                    }
                    out[(bi * m + i) * n + j] = acc;
                }
            }
        }
        Ok(vec![Tensor::from_f64s(a.result_elem(0), out_dims, out)?])
    } else {
        let (xv, yv) = (x.to_i64s(), y.to_i64s());
        let mut out = vec![0i64; nb * m * n];
        for bi in 0..nb {
            let (ao, bo) = (map_a[bi] * m * k, map_b[bi] * k * n);
            for i in 0..m {
                for j in 0..n {
                    let mut acc = 0i64;
                    for p in 0..k {
                        acc = acc.wrapping_add(xv[ao + i * k + p].wrapping_mul(yv[bo + p * n + j]));
                    }
                    out[(bi * m + i) * n + j] = acc;
                }
            }
        }
        Ok(vec![Tensor::from_i64s(a.result_elem(0), out_dims, out)?])
    }
}

fn usizes(v: Vec<i64>) -> Vec<usize> {
    v.into_iter().map(|x| x as usize).collect()
}

pub fn conv2d(a: &EvalArgs) -> R {
    let (x, w) = (a.input(0), a.input(1));
    let bias = a.inputs.get(2).map(|b| b.to_f64s());
    let s = usizes(a.sig.ints("strides")?);
    let p = usizes(a.sig.ints("pads")?);
    let d = usizes(a.sig.ints("dilations")?);
    let groups = a.sig.int("groups")? as usize;
    let (xs, ws) = (x.shape(), w.shape());
    let (n, c, h, wd) = (xs[0], xs[1], xs[2], xs[3]);
    let (o, cg, kh, kw) = (ws[0], ws[1], ws[2], ws[3]);
    let out_dims = a.result_dims(0);
    let (oh, ow) = (out_dims[2], out_dims[3]);
    let og = o / groups;
    let (xv, wv) = (x.to_f64s(), w.to_f64s());
    let mut out = vec![0.0; n * o * oh * ow];
    for b in 0..n {
        for oc in 0..o {
            let g = oc / og;
            for y in 0..oh {
                for xo in 0..ow {
                    let mut acc = bias.as_ref().map_or(0.0, |bv| bv[oc]);
                    for ci in 0..cg {
                        let ic = g * cg + ci;
                        for ky in 0..kh {
                            // Input row: y*sh - top + ky*dh, skipped when in the padding.
                            let iy = (y * s[0] + ky * d[0]) as isize - p[0] as isize;
                            if iy < 0 || iy >= h as isize {
                                continue;
                            }
                            for kx in 0..kw {
                                let ix = (xo * s[1] + kx * d[1]) as isize - p[1] as isize;
                                if ix < 0 || ix >= wd as isize {
                                    continue;
                                }
                                let xi = ((b * c + ic) * h + iy as usize) * wd + ix as usize;
                                let wi = ((oc * cg + ci) * kh + ky) * kw + kx;
                                acc += xv[xi] * wv[wi];
                            }
                        }
                    }
                    out[((b * o + oc) * oh + y) * ow + xo] = acc;
                }
            }
        }
    }
    Ok(vec![Tensor::from_f64s(a.result_elem(0), out_dims, out)?])
}

/// Calls `f(output flat index, input values in the window)` for each pooling window.
fn pool(a: &EvalArgs, mut f: impl FnMut(&[f64], usize) -> f64) -> R {
    let x = a.input(0);
    let k = usizes(a.sig.ints("kernel")?);
    let s = usizes(a.sig.ints("strides")?);
    let p = usizes(a.sig.ints("pads")?);
    let xs = x.shape();
    let (h, w) = (xs[2], xs[3]);
    let out_dims = a.result_dims(0);
    let (oh, ow) = (out_dims[2], out_dims[3]);
    let xv = x.to_f64s();
    let mut out = Vec::with_capacity(out_dims.iter().product());
    let mut window = Vec::with_capacity(k[0] * k[1]);
    for plane in 0..xs[0] * xs[1] {
        for y in 0..oh {
            for xo in 0..ow {
                window.clear();
                for ky in 0..k[0] {
                    let iy = (y * s[0] + ky) as isize - p[0] as isize;
                    for kx in 0..k[1] {
                        let ix = (xo * s[1] + kx) as isize - p[1] as isize;
                        if iy >= 0 && iy < h as isize && ix >= 0 && ix < w as isize {
                            window.push(xv[(plane * h + iy as usize) * w + ix as usize]);
                        }
                    }
                }
                out.push(f(&window, k[0] * k[1]));
            }
        }
    }
    Ok(vec![Tensor::from_f64s(a.result_elem(0), out_dims, out)?])
}

use super::elementwise::{maximum as nan_max, minimum as nan_min};

pub fn max_pool2d(a: &EvalArgs) -> R {
    pool(a, |win, _| win.iter().fold(f64::NEG_INFINITY, |m, &v| nan_max(m, v)))
}

pub fn avg_pool2d(a: &EvalArgs) -> R {
    let include_pad = a.sig.bool("count_include_pad")?;
    pool(a, |win, full| win.iter().sum::<f64>() / if include_pad { full } else { win.len() } as f64)
}

/// `graph.resize_bilinear`: along W, then along H, as `a + (b - a) * w` in f32 (f64 for
/// f64 images), each step rounded as the exported blends round it.
pub fn resize_bilinear(a: &EvalArgs) -> R {
    let x = a.input(0);
    let xs = x.shape();
    let (h, w) = (xs[2], xs[3]);
    let out_dims = a.result_dims(0);
    let align = a.sig.bool("align_corners")?;
    let (rows, cols) = (bilinear_taps(h, out_dims[2], align), bilinear_taps(w, out_dims[3], align));
    let xv = x.to_f64s();
    let mut out = Vec::with_capacity(out_dims.iter().product());
    let wide = x.elem() == tcc_ir::ScalarType::F64;
    let lerp = |p: f64, q: f64, t: f32| {
        if wide { p + (q - p) * t as f64 } else { (p as f32 + (q as f32 - p as f32) * t) as f64 }
    };
    for plane in 0..xs[0] * xs[1] {
        let at = |y: usize, x: usize| xv[(plane * h + y) * w + x];
        for r in &rows {
            for c in &cols {
                let top = lerp(at(r.lo, c.lo), at(r.lo, c.hi), c.w);
                let bottom = lerp(at(r.hi, c.lo), at(r.hi, c.hi), c.w);
                out.push(lerp(top, bottom, r.w));
            }
        }
    }
    Ok(vec![Tensor::from_f64s(a.result_elem(0), out_dims, out)?])
}

/// Groups input elements by output position: for each input flat index, the flat index
/// of the output it reduces into.
fn reduce_targets(a: &EvalArgs) -> Result<(Vec<usize>, Vec<usize>, usize), String> {
    let x = a.input(0);
    let axes = reduction_axes(&a.sig, x.rank())?;
    let kept: Vec<usize> = (0..x.rank()).filter(|d| !axes.contains(d)).collect();
    let kept_shape: Vec<usize> = kept.iter().map(|&d| x.shape()[d]).collect();
    let kept_strides = strides(&kept_shape);
    let mut targets = Vec::with_capacity(x.numel());
    for_each_index(x.shape(), |idx, _| {
        targets.push(kept.iter().zip(&kept_strides).map(|(&d, &st)| idx[d] * st).sum());
    });
    let count = axes.iter().map(|&d| x.shape()[d]).product();
    Ok((targets, a.result_dims(0), count))
}

fn reduce(a: &EvalArgs, init: f64, f: fn(f64, f64) -> f64, fi: fn(i64, i64) -> i64, init_i: i64) -> R {
    let x = a.input(0);
    let (targets, out_dims, _) = reduce_targets(a)?;
    let n: usize = out_dims.iter().product();
    if x.is_float() {
        let mut acc = vec![init; n];
        for (v, &t) in x.to_f64s().into_iter().zip(&targets) {
            acc[t] = f(acc[t], v);
        }
        Ok(vec![Tensor::from_f64s(x.elem(), out_dims, acc)?])
    } else {
        let mut acc = vec![init_i; n];
        for (v, &t) in x.to_i64s().into_iter().zip(&targets) {
            acc[t] = fi(acc[t], v);
        }
        Ok(vec![Tensor::from_i64s(x.elem(), out_dims, acc)?])
    }
}

pub fn reduce_sum(a: &EvalArgs) -> R {
    reduce(a, 0.0, |acc, v| acc + v, i64::wrapping_add, 0)
}
pub fn reduce_max(a: &EvalArgs) -> R {
    reduce(a, f64::NEG_INFINITY, nan_max, i64::max, i64::MIN)
}
pub fn reduce_min(a: &EvalArgs) -> R {
    reduce(a, f64::INFINITY, nan_min, i64::min, i64::MAX)
}
/// The first index of the maximum along `axis`; a NaN is the maximum (the first one).
pub fn argmax(a: &EvalArgs) -> R {
    let x = a.input(0);
    let shape = x.shape().to_vec();
    let axis = crate::infer::normalize_axis(a.sig.int("axis")?, shape.len())?;
    let (n, inner) = (shape[axis], shape[axis + 1..].iter().product::<usize>());
    let outer: usize = shape[..axis].iter().product();
    let values = x.to_f64s();
    let mut out = Vec::with_capacity(outer * inner);
    for o in 0..outer {
        for i in 0..inner {
            let at = |j: usize| values[(o * n + j) * inner + i];
            let mut best = 0;
            for j in 1..n {
                let (v, b) = (at(j), at(best));
                if (v > b) || (v.is_nan() && !b.is_nan()) {
                    best = j;
                }
            }
            out.push(best as i64);
        }
    }
    Ok(vec![Tensor::from_i64s(tcc_ir::ScalarType::I64, a.result_dims(0), out)?])
}

pub fn reduce_prod(a: &EvalArgs) -> R {
    reduce(a, 1.0, |acc, v| acc * v, i64::wrapping_mul, 1)
}
pub fn reduce_mean(a: &EvalArgs) -> R {
    let x = a.input(0);
    let (targets, out_dims, count) = reduce_targets(a)?;
    let mut acc = vec![0.0; out_dims.iter().product()];
    for (v, &t) in x.to_f64s().into_iter().zip(&targets) {
        acc[t] += v;
    }
    let v = acc.into_iter().map(|s| s / count as f64).collect();
    Ok(vec![Tensor::from_f64s(x.elem(), out_dims, v)?])
}

pub fn softmax(a: &EvalArgs) -> R {
    let x = a.input(0);
    let axis = crate::infer::normalize_axis(a.sig.int("axis")?, x.rank())?;
    let shape = x.shape();
    let len = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let outer: usize = shape[..axis].iter().product();
    let xv = x.to_f64s();
    let mut out = vec![0.0; xv.len()];
    for o in 0..outer {
        for i in 0..inner {
            let at = |j: usize| (o * len + j) * inner + i;
            let max = (0..len).fold(f64::NEG_INFINITY, |m, j| nan_max(m, xv[at(j)]));
            let sum: f64 = (0..len).map(|j| (xv[at(j)] - max).exp()).sum();
            for j in 0..len {
                out[at(j)] = (xv[at(j)] - max).exp() / sum;
            }
        }
    }
    Ok(vec![Tensor::from_f64s(x.elem(), shape.to_vec(), out)?])
}
