//! The FMA ceiling of each ISA level: independent chains of vector FMAs on registers,
//! compiled like the microkernels, so that `tcc bench` states the microkernels'
//! efficiency against what their own instructions reach on this core.

use crate::Isa;

/// Independent chains: 4-cycle latency x 2 pipes needs 8; 12 leave room for slower
/// FMAs and fit in the 16 registers of the smaller levels.
pub const CHAINS: usize = 12;

macro_rules! chains {
    ($name:ident, $feature:literal, $vec:ty, $set1:path, $fma:expr, $store:path, $lanes:expr) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $feature)]
        unsafe fn $name(steps: i64) -> f32 {
            #[allow(unused_imports)]
            use std::arch::x86_64::*;
            // SAFETY: the caller checked the level; the stores go to a local array.
            unsafe {
                let (a, c) = ($set1(0.999_999), $set1(1e-6));
                let mut acc: [$vec; CHAINS] = std::array::from_fn(|k| $set1(k as f32));
                for _ in 0..steps {
                    for x in acc.iter_mut() {
                        *x = $fma(*x, a, c);
                    }
                }
                let mut sum = 0.0;
                let mut lanes = [0f32; $lanes];
                for x in acc {
                    $store(lanes.as_mut_ptr(), x);
                    sum += lanes.iter().sum::<f32>();
                }
                sum
            }
        }
    };
}

chains!(chains_avx512, "avx512f", __m512, _mm512_set1_ps, super::tile::fma512, _mm512_storeu_ps, 16);
chains!(chains_avx2, "avx2,fma", __m256, _mm256_set1_ps, super::tile::fma256, _mm256_storeu_ps, 8);
chains!(chains_sse, "sse2", __m128, _mm_set1_ps, super::tile::fma128, _mm_storeu_ps, 4);

/// Runs `steps` iterations of [`CHAINS`] vector FMAs of level `isa` (`2 * steps *
/// CHAINS * lanes` FLOPs) and returns a sum of the results (so nothing is optimized
/// away); `None` if this CPU does not run the level.
pub fn fma_chains(isa: Isa, steps: i64) -> Option<f32> {
    if !isa.is_supported() {
        return None;
    }
    // SAFETY: the level is supported.
    Some(unsafe {
        match isa {
            Isa::Avx512 => chains_avx512(steps),
            Isa::Avx2 => chains_avx2(steps),
            Isa::Sse => chains_sse(steps),
        }
    })
}
