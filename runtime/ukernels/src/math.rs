//! Transcendental functions over arrays of f32, in place, on the wide vectors of the
//! AVX-512 and AVX2 levels: `exp` and `erf` exactly as `expand-math` expands them
//! (`tcc_ir::scalar::MathFn::expand_f32`: Cephes' `expf`, Eigen's rational `erf`), the
//! same operations in the same order, fused multiply-adds where it fuses, so every
//! value equals what generated code computes inline. Generated code with narrow vectors
//! (Cranelift's 128 bits) computes a chunk's arguments into memory, calls
//! `tcc_uk_math_<isa>` on it and reads the results back (`offload-math`): the
//! polynomials, 20 to 30 operations per vector, then run on 16 or 8 lanes instead of 4.
//!
//! There is no SSE level: its vectors are no wider than the generated code's, and
//! without FMA it could not fuse what the expansion fuses.

use tcc_runtime_abi::approximations::{
    ERF_BOUND, ERF_P, ERF_Q, EXP_HI, EXP_LO, EXP_POLY, LN2_HI_NEG, LN2_LO, SMALL_INT_MAGIC, SMALL_INT_MAGIC_BITS,
};
use tcc_runtime_abi::{MATH_ERF, MATH_EXP};

/// One level's in-place array functions over its vector type and intrinsics.
macro_rules! math_level {
    (
        $module:ident, $symbol:ident, $feature:literal, $vec:ty, $lanes:literal, $set1:ident, $loadu:ident,
        $storeu:ident, $min:ident, $max:ident, $add:ident, $mul:ident, $div:ident, $fmadd:ident, $round:path,
        $gt:path, $lt:path, $select:path, $cast_int:ident, $cast_float:ident, $int_set1:ident, $int_add:ident,
        $int_sub:ident, $srai:ident, $slli:ident
    ) => {
        #[cfg(target_arch = "x86_64")]
        pub mod $module {
            use std::arch::x86_64::*;

            use super::*;

            /// `v` rounded to f32 in every lane (as the expansion rounds its constants).
            #[target_feature(enable = $feature)]
            #[inline]
            fn c(v: f64) -> $vec {
                $set1(v as f32)
            }

            /// The expansion's `exp`, lane by lane.
            #[target_feature(enable = $feature)]
            #[inline]
            fn exp(x: $vec) -> $vec {
                let hi = c(EXP_HI);
                let lo = c(EXP_LO);
                // `min(x, hi)` and `max(., lo)` that keep a NaN `x` (the constant first:
                // the instruction returns its second operand when either is NaN).
                let xc = $max(lo, $min(hi, x));
                let n = $round($mul(xc, c(std::f64::consts::LOG2_E)));
                let r = $fmadd(n, c(LN2_HI_NEG), xc);
                let r = $fmadd(n, c(LN2_LO), r);
                let mut p = c(EXP_POLY[0]);
                for &k in &EXP_POLY[1..] {
                    p = $fmadd(p, r, c(k));
                }
                let y = $fmadd(p, $mul(r, r), $add(r, c(1.0)));
                // y * 2^n as y * 2^(n/2) * 2^(n - n/2), through the exponent bits.
                let ni = $int_sub($cast_int($add(n, c(SMALL_INT_MAGIC))), $int_set1(SMALL_INT_MAGIC_BITS as i32));
                let half = $srai::<1>(ni);
                let rest = $int_sub(ni, half);
                let s1 = $cast_float($slli::<23>($int_add(half, $int_set1(127))));
                let s2 = $cast_float($slli::<23>($int_add(rest, $int_set1(127))));
                let y = $mul($mul(y, s1), s2);
                let y = $select($gt(x, hi), c(f64::INFINITY), y);
                $select($lt(x, lo), c(0.0), y)
            }

            /// The expansion's `erf`, lane by lane.
            #[target_feature(enable = $feature)]
            #[inline]
            fn erf(x: $vec) -> $vec {
                let xc = $max(c(-ERF_BOUND), $min(c(ERF_BOUND), x));
                let x2 = $mul(xc, xc);
                let mut p = c(ERF_P[0]);
                for &k in &ERF_P[1..] {
                    p = $fmadd(p, x2, c(k));
                }
                let p = $mul(xc, p);
                let mut q = c(ERF_Q[0]);
                for &k in &ERF_Q[1..] {
                    q = $fmadd(q, x2, c(k));
                }
                $div(p, q)
            }

            macro_rules! over_slice {
                ($name:ident, $f:ident) => {
                    #[target_feature(enable = $feature)]
                    fn $name(x: &mut [f32]) {
                        let mut chunks = x.chunks_exact_mut($lanes);
                        for chunk in &mut chunks {
                            // SAFETY: a chunk holds one vector.
                            unsafe {
                                let p = chunk.as_mut_ptr();
                                $storeu(p, $f($loadu(p)));
                            }
                        }
                        let tail = chunks.into_remainder();
                        if !tail.is_empty() {
                            let mut lanes = [0.0f32; $lanes];
                            lanes[..tail.len()].copy_from_slice(tail);
                            // SAFETY: `lanes` holds one vector.
                            unsafe { $storeu(lanes.as_mut_ptr(), $f($loadu(lanes.as_ptr()))) };
                            tail.copy_from_slice(&lanes[..tail.len()]);
                        }
                    }
                };
            }
            over_slice!(exp_slice, exp);
            over_slice!(erf_slice, erf);

            /// `tcc_uk_math_<isa>(function, x, n)`: the function `MATH_*` names over the
            /// `n` f32 at `x`, in place (nothing for an unknown function or `n <= 0`).
            ///
            /// # Safety
            /// The CPU runs this level; `x` is valid for reads and writes of `n` f32.
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn $symbol(function: i64, x: *mut f32, n: i64) {
                if n <= 0 {
                    return;
                }
                // SAFETY: the caller's contract.
                let x = unsafe { std::slice::from_raw_parts_mut(x, n as usize) };
                match function {
                    // SAFETY: the CPU runs this level (the caller's contract).
                    MATH_EXP => unsafe { exp_slice(x) },
                    MATH_ERF => unsafe { erf_slice(x) },
                    _ => {}
                }
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
fn round512(v: std::arch::x86_64::__m512) -> std::arch::x86_64::__m512 {
    use std::arch::x86_64::*;
    _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(v)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
fn round256(v: std::arch::x86_64::__m256) -> std::arch::x86_64::__m256 {
    use std::arch::x86_64::*;
    _mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(v)
}

/// `a > b` (ordered: false with a NaN), as a mask.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
fn gt512(a: std::arch::x86_64::__m512, b: std::arch::x86_64::__m512) -> std::arch::x86_64::__mmask16 {
    use std::arch::x86_64::*;
    _mm512_cmp_ps_mask::<_CMP_GT_OQ>(a, b)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
fn lt512(a: std::arch::x86_64::__m512, b: std::arch::x86_64::__m512) -> std::arch::x86_64::__mmask16 {
    use std::arch::x86_64::*;
    _mm512_cmp_ps_mask::<_CMP_LT_OQ>(a, b)
}

/// `if mask { a } else { b }` per lane.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
fn select512(
    mask: std::arch::x86_64::__mmask16,
    a: std::arch::x86_64::__m512,
    b: std::arch::x86_64::__m512,
) -> std::arch::x86_64::__m512 {
    use std::arch::x86_64::*;
    _mm512_mask_blend_ps(mask, b, a)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
fn gt256(a: std::arch::x86_64::__m256, b: std::arch::x86_64::__m256) -> std::arch::x86_64::__m256 {
    use std::arch::x86_64::*;
    _mm256_cmp_ps::<_CMP_GT_OQ>(a, b)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
fn lt256(a: std::arch::x86_64::__m256, b: std::arch::x86_64::__m256) -> std::arch::x86_64::__m256 {
    use std::arch::x86_64::*;
    _mm256_cmp_ps::<_CMP_LT_OQ>(a, b)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
fn select256(
    mask: std::arch::x86_64::__m256,
    a: std::arch::x86_64::__m256,
    b: std::arch::x86_64::__m256,
) -> std::arch::x86_64::__m256 {
    use std::arch::x86_64::*;
    _mm256_blendv_ps(b, a, mask)
}

math_level!(
    avx512,
    tcc_uk_math_avx512,
    "avx512f",
    __m512,
    16,
    _mm512_set1_ps,
    _mm512_loadu_ps,
    _mm512_storeu_ps,
    _mm512_min_ps,
    _mm512_max_ps,
    _mm512_add_ps,
    _mm512_mul_ps,
    _mm512_div_ps,
    _mm512_fmadd_ps,
    round512,
    gt512,
    lt512,
    select512,
    _mm512_castps_si512,
    _mm512_castsi512_ps,
    _mm512_set1_epi32,
    _mm512_add_epi32,
    _mm512_sub_epi32,
    _mm512_srai_epi32,
    _mm512_slli_epi32
);
math_level!(
    avx2,
    tcc_uk_math_avx2,
    "avx2,fma",
    __m256,
    8,
    _mm256_set1_ps,
    _mm256_loadu_ps,
    _mm256_storeu_ps,
    _mm256_min_ps,
    _mm256_max_ps,
    _mm256_add_ps,
    _mm256_mul_ps,
    _mm256_div_ps,
    _mm256_fmadd_ps,
    round256,
    gt256,
    lt256,
    select256,
    _mm256_castps_si256,
    _mm256_castsi256_ps,
    _mm256_set1_epi32,
    _mm256_add_epi32,
    _mm256_sub_epi32,
    _mm256_srai_epi32,
    _mm256_slli_epi32
);
