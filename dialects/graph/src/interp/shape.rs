//! Reference kernels of the data-movement ops. Each computes, for every output
//! element in row-major order, the flat index of the input element it copies.

use super::EvalArgs;
use super::elementwise::broadcast_strides;
use super::tensor::{Tensor, for_each_index, strides};
use crate::infer::normalize_axis;
use crate::layout::{TransformPlan, transform_layouts_sig};

type R = Result<Vec<Tensor>, String>;

pub fn constant(a: &EvalArgs) -> R {
    let value = a.sig.attrs.get("value").and_then(|v| v.as_dense()).ok_or("missing 'value'")?;
    Ok(vec![Tensor::from_dense(value)?])
}

pub fn reshape(a: &EvalArgs) -> R {
    Ok(vec![a.input(0).reshaped(a.result_dims(0))?])
}

pub fn transpose(a: &EvalArgs) -> R {
    let x = a.input(0);
    let perm = a.sig.ints("perm")?;
    let in_strides = strides(x.shape());
    let out = a.result_dims(0);
    // Output dimension k walks input dimension perm[k].
    let walk: Vec<usize> = perm.iter().map(|&p| in_strides[p as usize]).collect();
    Ok(vec![x.view(out, 0, &walk)])
}

pub fn broadcast_to(a: &EvalArgs) -> R {
    let x = a.input(0);
    let out = a.result_dims(0);
    let walk = broadcast_strides(&out, x.shape());
    Ok(vec![x.view(out, 0, &walk)])
}

pub fn concat(a: &EvalArgs) -> R {
    let axis = normalize_axis(a.sig.int("axis")?, a.input(0).rank())?;
    let parts: Vec<&Tensor> = a.inputs.iter().collect();
    Ok(vec![Tensor::concat(&parts, axis, a.result_dims(0))?])
}

pub fn split(a: &EvalArgs) -> R {
    let x = a.input(0);
    let axis = normalize_axis(a.sig.int("axis")?, x.rank())?;
    let s = strides(x.shape());
    let mut start = 0;
    let mut results = Vec::new();
    for r in 0..a.result_types.len() {
        let out = a.result_dims(r);
        let extent = out[axis];
        results.push(x.view(out, start * s[axis], &s));
        start += extent;
    }
    Ok(results)
}

pub fn slice(a: &EvalArgs) -> R {
    let x = a.input(0);
    let shape: Vec<i64> = x.shape().iter().map(|&d| d as i64).collect();
    let (starts, _, steps) = crate::ops::shape::slice_params(&a.sig, &shape)?;
    let s = strides(x.shape());
    let offset = starts.iter().zip(&s).map(|(&b, &s)| b as usize * s).sum();
    let walk: Vec<usize> = steps.iter().zip(&s).map(|(&k, &s)| k as usize * s).collect();
    Ok(vec![x.view(a.result_dims(0), offset, &walk)])
}

pub fn pad(a: &EvalArgs) -> R {
    let x = a.input(0);
    let low = a.sig.ints("low")?;
    let value = a.sig.float("value")?;
    // The padding value sits just past the input's elements.
    let fill = Tensor::from_f64s(x.elem(), vec![1], vec![value])?;
    let all = Tensor::concat_flat(&[x, &fill])?;
    let s = strides(x.shape());
    let out = a.result_dims(0);
    let mut idx = Vec::with_capacity(out.iter().product());
    for_each_index(&out, |j, _| {
        let mut flat = 0;
        for (d, &v) in j.iter().enumerate() {
            let i = v as i64 - low[d];
            if i < 0 || i >= x.shape()[d] as i64 {
                idx.push(x.numel());
                return;
            }
            flat += i as usize * s[d];
        }
        idx.push(flat);
    });
    Ok(vec![all.gather_flat(out, &idx)])
}

pub fn gather(a: &EvalArgs) -> R {
    let (x, ind) = (a.input(0), a.input(1));
    let axis = normalize_axis(a.sig.int("axis")?, x.rank())?;
    let extent = x.shape()[axis] as i64;
    let indices = ind
        .to_i64s()
        .into_iter()
        .map(|i| {
            let j = if i < 0 { i + extent } else { i };
            if (0..extent).contains(&j) {
                Ok(j as usize)
            } else {
                Err(format!("index {i} is out of range for axis {axis} of extent {extent}"))
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let s = strides(x.shape());
    let ir = ind.rank();
    let out = a.result_dims(0);
    let ind_strides = strides(ind.shape());
    let mut idx = Vec::with_capacity(out.iter().product());
    for_each_index(&out, |j, _| {
        let pick: usize = (0..ir).map(|t| j[axis + t] * ind_strides[t]).sum();
        let mut flat = indices[pick] * s[axis];
        for d in 0..axis {
            flat += j[d] * s[d];
        }
        for d in axis + 1..x.rank() {
            flat += j[d + ir - 1] * s[d];
        }
        idx.push(flat);
    });
    Ok(vec![x.gather_flat(out, &idx)])
}

/// `values` with rows `indices[n, w]` replaced by `input[n, w]`, in `w` order.
pub fn scatter(a: &EvalArgs) -> R {
    let (values, indices, input) = (a.input(0), a.input(1), a.input(2));
    let (n, k, c) = (values.shape()[0], values.shape()[1], values.shape()[2]);
    let w = indices.shape()[1];
    let rows = indices
        .to_i64s()
        .into_iter()
        .map(|i| {
            let j = if i < 0 { i + k as i64 } else { i };
            if (0..k as i64).contains(&j) {
                Ok(j as usize)
            } else {
                Err(format!("index {i} is out of range for a dimension of extent {k}"))
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let at = |ni: usize, wi: usize, ci: usize| ((ni * w + wi) * c + ci, (ni * k + rows[ni * w + wi]) * c + ci);
    let dims = values.shape().to_vec();
    if values.is_float() {
        let (mut out, src) = (values.to_f64s(), input.to_f64s());
        for (ni, wi, ci) in (0..n).flat_map(|ni| (0..w).flat_map(move |wi| (0..c).map(move |ci| (ni, wi, ci)))) {
            let (from, to) = at(ni, wi, ci);
            out[to] = src[from];
        }
        Ok(vec![Tensor::from_f64s(values.elem(), dims, out)?])
    } else {
        let (mut out, src) = (values.to_i64s(), input.to_i64s());
        for (ni, wi, ci) in (0..n).flat_map(|ni| (0..w).flat_map(move |wi| (0..c).map(move |ci| (ni, wi, ci)))) {
            let (from, to) = at(ni, wi, ci);
            out[to] = src[from];
        }
        Ok(vec![Tensor::from_i64s(values.elem(), dims, out)?])
    }
}

pub fn layout_transform(a: &EvalArgs) -> R {
    let x = a.input(0);
    let (src, dst) = transform_layouts_sig(&a.sig)?;
    let out = a.result_dims(0);
    let to_i64 = |s: &[usize]| s.iter().map(|&d| d as i64).collect::<Vec<_>>();
    let plan = TransformPlan::new(&src, &dst, &to_i64(x.shape()), &to_i64(&out))?;
    Ok(vec![x.relayout(&plan, out)])
}
