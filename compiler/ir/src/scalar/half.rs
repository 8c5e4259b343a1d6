//! The 16-bit floats to and from single precision in integer arithmetic, on scalars and
//! vectors alike, for targets without conversion instructions (Cranelift has none):
//! IEEE half precision (`f16`) with the same values as [`crate::dense::f16_to_f32`] and
//! [`crate::dense::f32_to_f16`] (exact widening; narrowing rounds to nearest even,
//! overflows to infinity, keeps the sign of zeros and NaNs, and makes every NaN the
//! quiet NaN `0x7e00`), and `bf16` with those of [`crate::dense::bf16_to_f32`] and
//! [`crate::dense::f32_to_bf16`] (the high half of the f32 bits, rounded to nearest
//! even; a NaN keeps its sign and high payload and is made quiet). [`widen_to_f32`],
//! [`narrow_from_f32`] and [`round_in_f32`] take the format as a type.

use super::{Compare, ScalarBuilder, ScalarFn};
use crate::module::Value;
use crate::types::ScalarType;

fn int(b: &mut dyn ScalarBuilder, like: Value, x: i64) -> Value {
    b.int_like(like, ScalarType::I32, x)
}

fn op(b: &mut dyn ScalarBuilder, f: ScalarFn, x: Value, c: i64) -> Value {
    let c = int(b, x, c);
    b.binary(f, x, c)
}

/// `h` (values of the 16-bit float type `half`) as f32 values, exactly.
pub fn widen_to_f32(b: &mut dyn ScalarBuilder, h: Value, half: ScalarType) -> Value {
    if half == ScalarType::BF16 { widen_bf16(b, h) } else { widen(b, h) }
}

/// `x` (f32 values) rounded to the 16-bit float type `half`, to nearest even.
pub fn narrow_from_f32(b: &mut dyn ScalarBuilder, x: Value, half: ScalarType) -> Value {
    if half == ScalarType::BF16 { narrow_bf16(b, x) } else { narrow(b, x) }
}

/// `x` (f32 values) rounded to the nearest value of the 16-bit float type `half`, as
/// f32: [`widen_to_f32`] of [`narrow_from_f32`] without the 16-bit packing.
pub fn round_in_f32(b: &mut dyn ScalarBuilder, x: Value, half: ScalarType) -> Value {
    if half == ScalarType::BF16 { round_bf16(b, x) } else { round(b, x) }
}

/// `h` (bf16 values) as f32 values: their bits as the high half.
fn widen_bf16(b: &mut dyn ScalarBuilder, h: Value) -> Value {
    let bits = b.reinterpret(h, ScalarType::I16);
    let bits = b.convert(bits, ScalarType::I32);
    let bits = op(b, ScalarFn::Shl, bits, 16);
    b.reinterpret(bits, ScalarType::F32)
}

/// The f32 bits of `x` rounded to nearest even at bit 16 (the low half zero, a carry
/// into the exponent being the right result: the largest finite values round to
/// infinity), and for NaNs the bits kept with the quiet bit set.
fn bf16_bits_in_f32(b: &mut dyn ScalarBuilder, x: Value) -> Value {
    let bits = b.reinterpret(x, ScalarType::I32);
    let odd = op(b, ScalarFn::Shr, bits, 16);
    let odd = op(b, ScalarFn::And, odd, 1);
    let t = op(b, ScalarFn::Add, bits, 0x7fff);
    let t = b.add(t, odd);
    let rounded = op(b, ScalarFn::And, t, 0xffff_0000u32 as i32 as i64);
    let quiet = op(b, ScalarFn::Or, bits, 0x0040_0000);
    let quiet = op(b, ScalarFn::And, quiet, 0xffff_0000u32 as i32 as i64);
    let magnitude = op(b, ScalarFn::And, bits, 0x7fff_ffff);
    let c = int(b, magnitude, 0x7f80_0000);
    let is_nan = b.compare(Compare::Gt, magnitude, c);
    b.select(is_nan, quiet, rounded)
}

/// `x` (f32 values) rounded to bf16, to nearest even.
fn narrow_bf16(b: &mut dyn ScalarBuilder, x: Value) -> Value {
    let r = bf16_bits_in_f32(b, x);
    let r = op(b, ScalarFn::Shr, r, 16);
    let r = b.convert(r, ScalarType::I16);
    b.reinterpret(r, ScalarType::BF16)
}

/// `x` (f32 values) rounded to the nearest bf16 value, as f32.
fn round_bf16(b: &mut dyn ScalarBuilder, x: Value) -> Value {
    let r = bf16_bits_in_f32(b, x);
    b.reinterpret(r, ScalarType::F32)
}

/// `h` (f16 values) as f32 values, exactly.
pub fn widen(b: &mut dyn ScalarBuilder, h: Value) -> Value {
    let bits = b.reinterpret(h, ScalarType::I16);
    let bits = b.convert(bits, ScalarType::I32);
    let bits = op(b, ScalarFn::And, bits, 0xffff);
    let sign = op(b, ScalarFn::And, bits, 0x8000);
    let sign = op(b, ScalarFn::Shl, sign, 16);
    let magnitude = op(b, ScalarFn::And, bits, 0x7fff);
    let shifted = op(b, ScalarFn::Shl, magnitude, 13);
    // Normal numbers: the exponent rebiased from 15 to 127.
    let normal = op(b, ScalarFn::Add, shifted, 0x3800_0000);
    // Infinities and NaNs: the exponent all ones, the mantissa kept.
    let special = op(b, ScalarFn::Or, shifted, 0x7f80_0000);
    // Zeros and subnormals: the mantissa times 2^-24 (exact, a normal f32).
    let m = b.convert(magnitude, ScalarType::F32);
    let scale = b.float_like(m, 2f64.powi(-24));
    let small = b.mul(m, scale);
    let small = b.reinterpret(small, ScalarType::I32);
    let c = int(b, magnitude, 0x7c00);
    let is_special = b.compare(Compare::Ge, magnitude, c);
    let c = int(b, magnitude, 0x0400);
    let is_small = b.compare(Compare::Lt, magnitude, c);
    let r = b.select(is_special, special, normal);
    let r = b.select(is_small, small, r);
    let r = b.binary(ScalarFn::Or, r, sign);
    b.reinterpret(r, ScalarType::F32)
}

/// `x` (f32 values) rounded to f16, to nearest even.
pub fn narrow(b: &mut dyn ScalarBuilder, x: Value) -> Value {
    let bits = b.reinterpret(x, ScalarType::I32);
    let sign = op(b, ScalarFn::Shr, bits, 16);
    let sign = op(b, ScalarFn::And, sign, 0x8000);
    let magnitude = op(b, ScalarFn::And, bits, 0x7fff_ffff);
    // Normal halves: rebias, then drop 13 mantissa bits rounding to nearest even (a
    // carry into the exponent is the right result).
    let t = op(b, ScalarFn::Sub, magnitude, 0x3800_0000);
    let normal = round_off_13_bits(b, t);
    let normal = op(b, ScalarFn::Shr, normal, 13);
    // Below 2^-14: the subnormal mantissa |x| * 2^24, rounded to nearest even (f32
    // subnormals round to zero either way).
    let (_, rounded) = subnormal_mantissa(b, magnitude);
    let small = b.convert(rounded, ScalarType::I32);
    // From 65520 up (infinity included): infinity. NaN: the quiet NaN.
    let r = by_range(b, magnitude, [small, normal], [0x7c00, 0x7e00]);
    let r = b.binary(ScalarFn::Or, r, sign);
    let r = b.convert(r, ScalarType::I16);
    b.reinterpret(r, ScalarType::F16)
}

/// `x` (f32 values) rounded to the nearest f16 value, as f32: [`widen`] of [`narrow`],
/// in one pass over the f32 bits (a rounded value that is only widened again need not
/// be packed into 16 bits and out).
pub fn round(b: &mut dyn ScalarBuilder, x: Value) -> Value {
    let bits = b.reinterpret(x, ScalarType::I32);
    let sign = op(b, ScalarFn::And, bits, i32::MIN as i64);
    let magnitude = op(b, ScalarFn::And, bits, 0x7fff_ffff);
    // Normal halves: 13 mantissa bits dropped, to nearest even (the rebias of `narrow`
    // is a multiple of 2^13, so the kept bits and the carry are the same here).
    let normal = round_off_13_bits(b, magnitude);
    // Below 2^-14: to a multiple of 2^-24, to nearest even.
    let (abs, rounded) = subnormal_mantissa(b, magnitude);
    let down = b.float_like(abs, 2f64.powi(-24));
    let small = b.mul(rounded, down);
    let small = b.reinterpret(small, ScalarType::I32);
    let r = by_range(b, magnitude, [small, normal], [0x7f80_0000, 0x7fc0_0000]);
    let r = b.binary(ScalarFn::Or, r, sign);
    b.reinterpret(r, ScalarType::F32)
}

/// `t` with its 13 low bits rounded off to nearest even (zeroed, the rest in place).
fn round_off_13_bits(b: &mut dyn ScalarBuilder, t: Value) -> Value {
    let odd = op(b, ScalarFn::Shr, t, 13);
    let odd = op(b, ScalarFn::And, odd, 1);
    let t = op(b, ScalarFn::Add, t, 0x0fff);
    let t = b.add(t, odd);
    op(b, ScalarFn::And, t, !0x1fff)
}

/// `|x|` (from its f32 bits `magnitude`) and `|x| * 2^24` rounded to nearest even: the
/// mantissa of the f16 subnormal nearest `|x|` (exact scaling).
fn subnormal_mantissa(b: &mut dyn ScalarBuilder, magnitude: Value) -> (Value, Value) {
    let abs = b.reinterpret(magnitude, ScalarType::F32);
    let up = b.float_like(abs, 2f64.powi(24));
    let scaled = b.mul(abs, up);
    (abs, b.unary(ScalarFn::Round, scaled))
}

/// The result by the range of `magnitude` (the f32 bits of |x|): `small` below 2^-14,
/// `normal` below 65520, then infinity, and for NaNs the quiet NaN (`[inf, nan]`: bits).
fn by_range(b: &mut dyn ScalarBuilder, magnitude: Value, [small, normal]: [Value; 2], [inf, nan]: [i64; 2]) -> Value {
    let c = int(b, magnitude, 0x3880_0000);
    let is_small = b.compare(Compare::Lt, magnitude, c);
    let r = b.select(is_small, small, normal);
    let c = int(b, magnitude, 0x477f_f000);
    let overflows = b.compare(Compare::Ge, magnitude, c);
    let inf = int(b, magnitude, inf);
    let r = b.select(overflows, inf, r);
    let c = int(b, magnitude, 0x7f80_0000);
    let is_nan = b.compare(Compare::Gt, magnitude, c);
    let nan = int(b, magnitude, nan);
    b.select(is_nan, nan, r)
}
