//! Reference kernels of the elementwise ops.

use super::EvalArgs;
use super::tensor::{Tensor, for_each_pair};
use tcc_ir::ScalarType;

type R = Result<Vec<Tensor>, String>;

/// For each flat index of `out`, the flat index of the element of `input` (numpy
/// broadcasting: `input`'s dimensions align to the right, extent-1 dims repeat).
pub fn broadcast_map(out: &[usize], input: &[usize]) -> Vec<usize> {
    super::tensor::strided_offsets(out, &broadcast_strides(out, input))
}

/// The strides with which a broadcast `input` is read along each dimension of `out`
/// (0 where it repeats).
pub fn broadcast_strides(out: &[usize], input: &[usize]) -> Vec<usize> {
    let offset = out.len() - input.len();
    let in_strides = super::tensor::strides(input);
    (0..out.len()).map(|d| if d < offset || input[d - offset] == 1 { 0 } else { in_strides[d - offset] }).collect()
}

fn binary(a: &EvalArgs, f: impl Fn(f64, f64) -> f64, fi: impl Fn(i64, i64) -> Result<i64, String>) -> R {
    let (x, y) = (a.input(0), a.input(1));
    let out = a.result_dims(0);
    if let (Some(xv), Some(yv), ScalarType::F32) = (x.as_f32s(), y.as_f32s(), a.result_elem(0)) {
        // The same f64 arithmetic, without f64 copies of large f32 operands (weights)
        // or index maps.
        let mut v = Vec::with_capacity(out.iter().product());
        let (sx, sy) = (broadcast_strides(&out, x.shape()), broadcast_strides(&out, y.shape()));
        for_each_pair(&out, &sx, &sy, |i, j| v.push(f(xv[i] as f64, yv[j] as f64) as f32));
        return Ok(vec![Tensor::new(out, super::tensor::Data::F32(v))?]);
    }
    let (ix, iy) = (broadcast_map(&out, x.shape()), broadcast_map(&out, y.shape()));
    if x.is_float() {
        let (xv, yv) = (x.to_f64s(), y.to_f64s());
        let v = ix.iter().zip(&iy).map(|(&i, &j)| f(xv[i], yv[j])).collect();
        Ok(vec![Tensor::from_f64s(a.result_elem(0), out, v)?])
    } else {
        let (xv, yv) = (x.to_i64s(), y.to_i64s());
        let v = ix.iter().zip(&iy).map(|(&i, &j)| fi(xv[i], yv[j])).collect::<Result<_, _>>()?;
        Ok(vec![Tensor::from_i64s(a.result_elem(0), out, v)?])
    }
}

/// IEEE 754-2019 `maximum`: NaN if either is NaN, and -0 < +0 (as the compiled code's
/// `fmax`), so the result does not depend on the operand order.
pub fn maximum(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x == y {
        if x.is_sign_negative() { y } else { x }
    } else if x > y {
        x
    } else {
        y
    }
}

/// IEEE 754-2019 `minimum`: NaN if either is NaN, and -0 < +0.
pub fn minimum(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x == y {
        if x.is_sign_negative() { x } else { y }
    } else if x < y {
        x
    } else {
        y
    }
}

pub fn add(a: &EvalArgs) -> R {
    binary(a, |x, y| x + y, |x, y| Ok(x.wrapping_add(y)))
}
pub fn sub(a: &EvalArgs) -> R {
    binary(a, |x, y| x - y, |x, y| Ok(x.wrapping_sub(y)))
}
pub fn mul(a: &EvalArgs) -> R {
    binary(a, |x, y| x * y, |x, y| Ok(x.wrapping_mul(y)))
}
pub fn div(a: &EvalArgs) -> R {
    binary(a, |x, y| x / y, |x, y| if y == 0 { Err("integer division by zero".into()) } else { Ok(x.wrapping_div(y)) })
}
pub fn max(a: &EvalArgs) -> R {
    binary(a, maximum, |x, y| Ok(x.max(y)))
}
pub fn min(a: &EvalArgs) -> R {
    binary(a, minimum, |x, y| Ok(x.min(y)))
}
pub fn pow(a: &EvalArgs) -> R {
    binary(a, f64::powf, |_, _| Err("pow is defined on floats only".into()))
}

/// A binary op on integers only (`f` gets the element type).
fn integer_binary(a: &EvalArgs, f: impl Fn(ScalarType, i64, i64) -> Result<i64, String>) -> R {
    let elem = a.input(0).elem();
    if !elem.is_integer() {
        return Err(format!("not defined for element type {elem}"));
    }
    binary(a, |_, _| f64::NAN, |x, y| f(elem, x, y))
}

pub fn and(a: &EvalArgs) -> R {
    integer_binary(a, |_, x, y| Ok(x & y))
}
pub fn or(a: &EvalArgs) -> R {
    integer_binary(a, |_, x, y| Ok(x | y))
}
pub fn xor(a: &EvalArgs) -> R {
    integer_binary(a, |_, x, y| Ok(x ^ y))
}
pub fn not(a: &EvalArgs) -> R {
    let x = a.input(0);
    let complement = if x.elem() == ScalarType::I1 { |v: i64| v ^ 1 } else { |v: i64| !v };
    unary(a, |_| f64::NAN, Some(complement))
}

/// The bit width of an integer element type, with `amount` checked to be below it.
fn shift_width(elem: ScalarType, amount: i64) -> Result<u32, String> {
    let bits = elem.int_bits().unwrap_or(64);
    if !(0..bits as i64).contains(&amount) {
        return Err(format!("shift amount {amount} is outside [0, {bits}) for {elem}"));
    }
    Ok(bits)
}
pub fn shift_left(a: &EvalArgs) -> R {
    // Computed in 64 bits and wrapped to the element type by the result tensor.
    integer_binary(a, |e, x, y| shift_width(e, y).map(|_| x.wrapping_shl(y as u32)))
}
pub fn shift_right(a: &EvalArgs) -> R {
    integer_binary(a, |e, x, y| shift_width(e, y).map(|_| x >> y))
}
pub fn shift_right_logical(a: &EvalArgs) -> R {
    integer_binary(a, |e, x, y| {
        // The value's bits as unsigned of the element's width, shifted.
        let bits = shift_width(e, y)?;
        let unsigned = if bits == 64 { x as u64 } else { (x as u64) & ((1u64 << bits) - 1) };
        Ok((unsigned >> y) as i64)
    })
}

fn compare(a: &EvalArgs, f: fn(f64, f64) -> bool, fi: fn(i64, i64) -> bool) -> R {
    let (x, y) = (a.input(0), a.input(1));
    let out = a.result_dims(0);
    let (ix, iy) = (broadcast_map(&out, x.shape()), broadcast_map(&out, y.shape()));
    let v: Vec<i64> = if x.is_float() {
        let (xv, yv) = (x.to_f64s(), y.to_f64s());
        ix.iter().zip(&iy).map(|(&i, &j)| f(xv[i], yv[j]) as i64).collect()
    } else {
        let (xv, yv) = (x.to_i64s(), y.to_i64s());
        ix.iter().zip(&iy).map(|(&i, &j)| fi(xv[i], yv[j]) as i64).collect()
    };
    Ok(vec![Tensor::from_i64s(ScalarType::I1, out, v)?])
}

pub fn greater(a: &EvalArgs) -> R {
    compare(a, |x, y| x > y, |x, y| x > y)
}
pub fn less(a: &EvalArgs) -> R {
    compare(a, |x, y| x < y, |x, y| x < y)
}
pub fn equal(a: &EvalArgs) -> R {
    compare(a, |x, y| x == y, |x, y| x == y)
}

pub fn select(a: &EvalArgs) -> R {
    let (c, x, y) = (a.input(0), a.input(1), a.input(2));
    let out = a.result_dims(0);
    let (ic, ix, iy) = (broadcast_map(&out, c.shape()), broadcast_map(&out, x.shape()), broadcast_map(&out, y.shape()));
    let cv = c.to_i64s();
    let pick = |k: usize| if cv[ic[k]] != 0 { (true, ix[k]) } else { (false, iy[k]) };
    let n = ic.len();
    if x.is_float() {
        let (xv, yv) = (x.to_f64s(), y.to_f64s());
        let v = (0..n)
            .map(|k| match pick(k) {
                (true, i) => xv[i],
                (false, j) => yv[j],
            })
            .collect();
        Ok(vec![Tensor::from_f64s(a.result_elem(0), out, v)?])
    } else {
        let (xv, yv) = (x.to_i64s(), y.to_i64s());
        let v = (0..n)
            .map(|k| match pick(k) {
                (true, i) => xv[i],
                (false, j) => yv[j],
            })
            .collect();
        Ok(vec![Tensor::from_i64s(a.result_elem(0), out, v)?])
    }
}

/// `f` applied to every element of the one input (floats, in f64), or `fi` on integers
/// (an error for integer inputs when there is none).
pub fn unary(a: &EvalArgs, f: impl Fn(f64) -> f64, fi: Option<fn(i64) -> i64>) -> R {
    let x = a.input(0);
    let out = x.shape().to_vec();
    if x.is_float() {
        let v = x.to_f64s().into_iter().map(f).collect();
        Ok(vec![Tensor::from_f64s(x.elem(), out, v)?])
    } else {
        let fi = fi.ok_or_else(|| format!("not defined for element type {}", x.elem()))?;
        Ok(vec![Tensor::from_i64s(x.elem(), out, x.to_i64s().into_iter().map(fi).collect())?])
    }
}

pub fn neg(a: &EvalArgs) -> R {
    unary(a, |x| -x, Some(i64::wrapping_neg))
}
pub fn abs(a: &EvalArgs) -> R {
    unary(a, f64::abs, Some(i64::wrapping_abs))
}
pub fn exp(a: &EvalArgs) -> R {
    unary(a, f64::exp, None)
}
pub fn log(a: &EvalArgs) -> R {
    unary(a, f64::ln, None)
}
pub fn sqrt(a: &EvalArgs) -> R {
    unary(a, f64::sqrt, None)
}
pub fn rsqrt(a: &EvalArgs) -> R {
    unary(a, |x| 1.0 / x.sqrt(), None)
}
pub fn reciprocal(a: &EvalArgs) -> R {
    unary(a, |x| 1.0 / x, None)
}
pub fn tanh(a: &EvalArgs) -> R {
    unary(a, f64::tanh, None)
}
pub fn sigmoid(a: &EvalArgs) -> R {
    unary(a, |x| 1.0 / (1.0 + (-x).exp()), None)
}
pub fn erf(a: &EvalArgs) -> R {
    unary(a, libm::erf, None)
}
pub fn floor(a: &EvalArgs) -> R {
    unary(a, f64::floor, None)
}
pub fn ceil(a: &EvalArgs) -> R {
    unary(a, f64::ceil, None)
}
pub fn relu(a: &EvalArgs) -> R {
    unary(a, |x| if x.is_nan() || x > 0.0 { x } else { 0.0 }, Some(|x| x.max(0)))
}

pub fn gelu(a: &EvalArgs) -> R {
    if a.sig.string("approximate")? == "tanh" {
        let k = (2.0 / std::f64::consts::PI).sqrt();
        unary(a, move |x| 0.5 * x * (1.0 + (k * (x + 0.044715 * x * x * x)).tanh()), None)
    } else {
        unary(a, |x| 0.5 * x * (1.0 + libm::erf(x / std::f64::consts::SQRT_2)), None)
    }
}

pub fn clamp(a: &EvalArgs) -> R {
    let (lo, hi) = (a.sig.float("min")?, a.sig.float("max")?);
    let x = a.input(0);
    if x.is_float() {
        return unary(a, move |v| minimum(maximum(v, lo), hi), None);
    }
    // Integer bounds round inward and saturate to the element type's range. If no
    // integer lies between them, min(max(x, lo), hi) gives hi, as for floats.
    let (tmin, tmax) = x.elem().int_range();
    let (lo, hi) = ((lo.ceil() as i64).clamp(tmin, tmax), (hi.floor() as i64).clamp(tmin, tmax));
    let v = x.to_i64s().into_iter().map(|v| v.max(lo).min(hi)).collect();
    Ok(vec![Tensor::from_i64s(x.elem(), x.shape().to_vec(), v)?])
}

pub fn cast(a: &EvalArgs) -> R {
    let x = a.input(0);
    let to = a.result_elem(0);
    // Between f32 and the 16-bit floats without f64 values (folding a model's weights
    // to bf16 touched gigabytes of them).
    if let Some(t) = x.float_cast(to) {
        return Ok(vec![t]);
    }
    let shape = x.shape().to_vec();
    let t = match (x.is_float(), to) {
        (_, ScalarType::I1) if x.is_float() => {
            Tensor::from_i64s(to, shape, x.to_f64s().into_iter().map(|v| (v != 0.0) as i64).collect())
        }
        (true, _) if to.is_integer() => {
            // Toward zero, saturating to the type's range (NaN is 0), as the compiled
            // code's conversions.
            let (lo, hi) = to.int_range();
            let v = x.to_f64s().into_iter().map(|v| (v as i64).clamp(lo, hi)).collect();
            Tensor::from_i64s(to, shape, v)
        }
        (true, _) => Tensor::from_f64s(to, shape, x.to_f64s()),
        (false, ScalarType::F32) => {
            // Round i64 to f32 directly (via f64 could round twice).
            let v: Vec<f32> = x.to_i64s().into_iter().map(|v| v as f32).collect();
            Tensor::f32(&shape, v)
        }
        (false, ScalarType::I1) => {
            Tensor::from_i64s(to, shape, x.to_i64s().into_iter().map(|v| (v != 0) as i64).collect())
        }
        (false, _) => Tensor::from_i64s(to, shape, x.to_i64s()),
    }?;
    Ok(vec![t])
}
