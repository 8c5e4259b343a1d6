//! The logistic sigmoid `1 / (1 + exp(-x))` on each ISA level's vectors, for the
//! epilogues that end in a sigmoid or a SiLU (`x * sigmoid(x)`: EfficientNet's
//! activations, the squeeze-and-excitation gates of EfficientNet and RegNet-Y). `exp`
//! is Cephes' `expf`: `-x` clamped to +-88.38 (so the sigmoid saturates at 1 and at a
//! subnormal below 5e-39, and never overflows), split into `n ln 2 + r` with `|r| <= ln
//! 2 / 2` (`n` rounded to nearest, `ln 2` in two parts), a degree-7 polynomial for
//! `exp(r)` (relative error about 1e-7) scaled by `2^n` built in the exponent bits. A
//! NaN stays a NaN: the clamps take the value as their second operand, which `minps`
//! and `maxps` return when either is NaN.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{__m128, __m256, __m512};

/// Cephes' coefficients of `exp(r)` on `[-ln 2 / 2, ln 2 / 2]`, highest degree first
/// (then `r^2 * p + r + 1`).
const EXP_POLY: [f32; 6] = [1.987_569_2e-4, 1.398_199_9e-3, 8.333_452e-3, 4.166_579_6e-2, 0.166_666_65, 0.5];
const LOG2E: f32 = std::f32::consts::LOG2_E;
/// `ln 2` as a high part exact in few bits and the rest.
const LN2_HI: f32 = 0.693_359_4;
const LN2_LO: f32 = -2.121_944_4e-4;
/// Beyond this `exp` leaves f32's range.
const EXP_BOUND: f32 = 88.376_26;

/// The sigmoid of one value, as the vector versions compute it lane by lane (for the
/// microkernels' portable reference paths).
pub fn sigmoid(x: f32) -> f32 {
    let e = (-x).clamp(-EXP_BOUND, EXP_BOUND);
    if e.is_nan() {
        return x;
    }
    let n = (e * LOG2E).round_ties_even();
    let r = e - n * LN2_HI - n * LN2_LO;
    let mut p = EXP_POLY[0];
    for &c in &EXP_POLY[1..] {
        // (Not fused: the vectors multiply and add apart.)
        p = p * r + c;
    }
    let exp = (p * r * r + r + 1.0) * f32::from_bits(((n as i32 + 127) << 23) as u32);
    1.0 / (1.0 + exp)
}

/// `sigmoid_<bits>(x)` for one ISA level's vector type and intrinsics.
macro_rules! vector_sigmoid {
    (
        $name:ident, $feature:literal, $vec:ty, $set1:ident, $min:ident, $max:ident, $sub:ident, $mul:ident,
        $add:ident, $div:ident, $round:path, $to_int:ident, $int_add:ident, $int_set1:ident, $shift:ident,
        $as_float:ident
    ) => {
        /// [`sigmoid`] on each lane.
        ///
        /// # Safety
        /// The CPU runs this level's instructions.
        #[target_feature(enable = $feature)]
        #[inline]
        pub unsafe fn $name(x: $vec) -> $vec {
            use std::arch::x86_64::*;
            // SAFETY: the caller's contract.
            unsafe {
                let e = $sub($set1(0.0), x);
                let e = $max($set1(-EXP_BOUND), $min($set1(EXP_BOUND), e));
                let n = $round($mul(e, $set1(LOG2E)));
                let r = $sub($sub(e, $mul(n, $set1(LN2_HI))), $mul(n, $set1(LN2_LO)));
                let mut p = $set1(EXP_POLY[0]);
                for &c in &EXP_POLY[1..] {
                    p = $add($mul(p, r), $set1(c));
                }
                let poly = $add($add($mul($mul(p, r), r), r), $set1(1.0));
                let scale = $as_float($shift::<23>($int_add($to_int(n), $int_set1(127))));
                let exp = $mul(poly, scale);
                $div($set1(1.0), $add($set1(1.0), exp))
            }
        }
    };
}

/// Each lane rounded to the nearest integer, ties to even.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn round512(v: std::arch::x86_64::__m512) -> std::arch::x86_64::__m512 {
    use std::arch::x86_64::*;
    _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(v)
}

/// Each lane rounded to the nearest integer, ties to even.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn round256(v: std::arch::x86_64::__m256) -> std::arch::x86_64::__m256 {
    use std::arch::x86_64::*;
    _mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(v)
}

/// Each lane rounded to the nearest integer, ties to even: SSE2 has no rounding
/// instruction, so the conversion to integers (which rounds so in MXCSR's default mode;
/// the lanes are within +-128) and back.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
unsafe fn round128(v: std::arch::x86_64::__m128) -> std::arch::x86_64::__m128 {
    use std::arch::x86_64::*;
    _mm_cvtepi32_ps(_mm_cvtps_epi32(v))
}

#[cfg(target_arch = "x86_64")]
vector_sigmoid!(
    sigmoid512,
    "avx512f",
    __m512,
    _mm512_set1_ps,
    _mm512_min_ps,
    _mm512_max_ps,
    _mm512_sub_ps,
    _mm512_mul_ps,
    _mm512_add_ps,
    _mm512_div_ps,
    round512,
    _mm512_cvtps_epi32,
    _mm512_add_epi32,
    _mm512_set1_epi32,
    _mm512_slli_epi32,
    _mm512_castsi512_ps
);
#[cfg(target_arch = "x86_64")]
vector_sigmoid!(
    sigmoid256,
    "avx2,fma",
    __m256,
    _mm256_set1_ps,
    _mm256_min_ps,
    _mm256_max_ps,
    _mm256_sub_ps,
    _mm256_mul_ps,
    _mm256_add_ps,
    _mm256_div_ps,
    round256,
    _mm256_cvtps_epi32,
    _mm256_add_epi32,
    _mm256_set1_epi32,
    _mm256_slli_epi32,
    _mm256_castsi256_ps
);
#[cfg(target_arch = "x86_64")]
vector_sigmoid!(
    sigmoid128,
    "sse2",
    __m128,
    _mm_set1_ps,
    _mm_min_ps,
    _mm_max_ps,
    _mm_sub_ps,
    _mm_mul_ps,
    _mm_add_ps,
    _mm_div_ps,
    round128,
    _mm_cvtps_epi32,
    _mm_add_epi32,
    _mm_set1_epi32,
    _mm_slli_epi32,
    _mm_castsi128_ps
);
