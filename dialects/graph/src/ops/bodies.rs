//! The scalar bodies of the elementwise ops that take more than one scalar function:
//! activations spelled in arithmetic (sigmoid, gelu, clamp), and the integer division
//! and shifts, which are guarded: a zero divisor or a shift amount outside the bit
//! width fails the run with a located message instead of trapping (or, for LLVM, being
//! poison), and `MIN / -1` wraps like the reference interpreter.

use tcc_ir::scalar::{Compare, MathFn, ScalarBuilder, ScalarFn};
use tcc_ir::{ScalarType, Value};

use crate::BodyContext;

/// a / b: floats divide, integers divide without trapping.
pub fn div(b: &mut dyn ScalarBuilder, cx: &BodyContext, x: &[Value]) -> Value {
    if b.elem(x[0]).is_float() { b.div(x[0], x[1]) } else { int_div(b, cx, x[0], x[1]) }
}

/// Signed division that never traps: a zero divisor fails the run-time check (and
/// divides by one instead), and `MIN / -1` gives `MIN`.
fn int_div(b: &mut dyn ScalarBuilder, cx: &BodyContext, a: Value, d: Value) -> Value {
    let elem = b.elem(a);
    let zero = b.int_like(a, elem, 0);
    let one = b.int_like(a, elem, 1);
    let minus_one = b.int_like(a, elem, -1);
    let min = b.int_like(a, elem, elem.int_range().0);
    let nonzero = b.compare(Compare::Ne, d, zero);
    b.check(nonzero, format!("integer division by zero in {}", cx.location));
    let is_zero = b.compare(Compare::Eq, d, zero);
    let a_min = b.compare(Compare::Eq, a, min);
    let d_m1 = b.compare(Compare::Eq, d, minus_one);
    let overflow = b.binary(ScalarFn::And, a_min, d_m1);
    let bad = b.binary(ScalarFn::Or, is_zero, overflow);
    let safe = b.select(bad, one, d);
    b.div(a, safe)
}

/// 1 / (1 + e^-x)
pub fn sigmoid(b: &mut dyn ScalarBuilder, _: &BodyContext, x: &[Value]) -> Value {
    let one = b.float_like(x[0], 1.0);
    let nx = b.unary(ScalarFn::Neg, x[0]);
    let e = b.unary(ScalarFn::Math(MathFn::Exp), nx);
    let d = b.add(one, e);
    b.div(one, d)
}

/// x * Phi(x): exact (with erf) or with PyTorch's tanh approximation.
pub fn gelu(b: &mut dyn ScalarBuilder, cx: &BodyContext, args: &[Value]) -> Value {
    let x = args[0];
    let half = b.float_like(x, 0.5);
    let one = b.float_like(x, 1.0);
    let inner = if cx.string("approximate") == "tanh" {
        // tanh(sqrt(2/pi) * (x + 0.044715 x^3))
        let k = b.float_like(x, (2.0 / std::f64::consts::PI).sqrt());
        let c = b.float_like(x, 0.044715);
        let x2 = b.mul(x, x);
        let x3 = b.mul(x2, x);
        let t = b.mul(c, x3);
        let s = b.add(x, t);
        let a = b.mul(k, s);
        b.unary(ScalarFn::Math(MathFn::Tanh), a)
    } else {
        // erf(x / sqrt 2)
        let k = b.float_like(x, std::f64::consts::FRAC_1_SQRT_2);
        let a = b.mul(x, k);
        b.unary(ScalarFn::Math(MathFn::Erf), a)
    };
    let s = b.add(one, inner);
    let hx = b.mul(half, x);
    b.mul(hx, s)
}

/// min(max(x, lo), hi); integer bounds round inward and saturate to the type's range,
/// as the reference interpreter does.
pub fn clamp(b: &mut dyn ScalarBuilder, cx: &BodyContext, args: &[Value]) -> Value {
    let x = args[0];
    let elem = b.elem(x);
    let (lo, hi) = (cx.float("min"), cx.float("max"));
    let (lo, hi) = if elem.is_float() {
        (b.float_like(x, lo), b.float_like(x, hi))
    } else {
        let (tmin, tmax) = elem.int_range();
        let lo_i = (lo.ceil() as i64).clamp(tmin, tmax);
        let hi_i = (hi.floor() as i64).clamp(tmin, tmax);
        (b.int_like(x, elem, lo_i), b.int_like(x, elem, hi_i))
    };
    let m = b.binary(ScalarFn::Max, x, lo);
    b.binary(ScalarFn::Min, m, hi)
}

/// ~x: x xor all ones (on i1, logical not).
pub fn not(b: &mut dyn ScalarBuilder, _: &BodyContext, x: &[Value]) -> Value {
    let elem = b.elem(x[0]);
    let ones = b.int_like(x[0], elem, if elem == ScalarType::I1 { 1 } else { -1 });
    b.binary(ScalarFn::Xor, x[0], ones)
}

pub fn shift_left(b: &mut dyn ScalarBuilder, cx: &BodyContext, x: &[Value]) -> Value {
    let amount = shift_amount(b, cx, x[0], x[1]);
    b.binary(ScalarFn::Shl, x[0], amount)
}

pub fn shift_right(b: &mut dyn ScalarBuilder, cx: &BodyContext, x: &[Value]) -> Value {
    let amount = shift_amount(b, cx, x[0], x[1]);
    b.binary(ScalarFn::Shr, x[0], amount)
}

/// (x >> b) & (2 << (bits - 1 - b)) - 1: the arithmetic shift with the copies of the
/// sign bit cleared (2 << (bits - 1) wraps to 0, so b = 0 keeps every bit).
pub fn shift_right_logical(b: &mut dyn ScalarBuilder, cx: &BodyContext, x: &[Value]) -> Value {
    let elem = b.elem(x[0]);
    let amount = shift_amount(b, cx, x[0], x[1]);
    let shifted = b.binary(ScalarFn::Shr, x[0], amount);
    let top = b.int_like(x[0], elem, bit_width(elem) - 1);
    let rest = b.sub(top, amount);
    let two = b.int_like(x[0], elem, 2);
    let one = b.int_like(x[0], elem, 1);
    let bound = b.binary(ScalarFn::Shl, two, rest);
    let mask = b.sub(bound, one);
    b.binary(ScalarFn::And, shifted, mask)
}

fn bit_width(elem: ScalarType) -> i64 {
    elem.int_bits().unwrap_or(64) as i64
}

/// A shift amount that is checked: outside `[0, bits)` it fails the run-time check (and
/// shifts by zero instead).
fn shift_amount(b: &mut dyn ScalarBuilder, cx: &BodyContext, x: Value, amount: Value) -> Value {
    let elem = b.elem(x);
    let zero = b.int_like(x, elem, 0);
    let bits = b.int_like(x, elem, bit_width(elem));
    let not_negative = b.compare(Compare::Ge, amount, zero);
    let below = b.compare(Compare::Lt, amount, bits);
    let ok = b.binary(ScalarFn::And, not_negative, below);
    b.check(ok, format!("shift amount outside [0, {}) in {}", bit_width(elem), cx.location));
    b.select(ok, amount, zero)
}
