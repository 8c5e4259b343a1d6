//! The FMA ceiling of each ISA level: independent chains of vector FMAs on registers,
//! compiled like the microkernels, so that `tcc bench` states the microkernels'
//! efficiency against what their own instructions reach on this core; and the bf16 dot
//! ceiling ([`dot_chains`]: chains of `vdpbf16ps`; [`amx_chains`]: AMX's `tdpbf16ps`
//! where the process runs AMX), for the bf16 dot tile.

use crate::Isa;

/// Independent chains: 4-cycle latency x 2 pipes needs 8; 12 leave room for slower
/// FMAs and fit in the 16 registers of the smaller levels.
pub const CHAINS: usize = 12;

/// Independent chains of `vdpbf16ps`, whose latency is longer than an FMA's: on a Zen 5
/// core 12 chains reached 452-499 GFLOP/s, 16 reach 535 (the roofline tool's `dot.c`,
/// 16 chains too: 549), 24 only 324-372.
pub const DOT_CHAINS: usize = 16;

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

/// Runs `steps` iterations of [`DOT_CHAINS`] AVX512_BF16 dot instructions (`vdpbf16ps`:
/// 16 lanes, each adding two products, so `4 * 16 * DOT_CHAINS * steps` FLOPs) and returns a
/// sum of the results; `None` if this CPU has no AVX512_BF16 (the dot tile then widens
/// to FMAs, whose ceiling is [`fma_chains`]'s).
pub fn dot_chains(steps: i64) -> Option<f32> {
    #[cfg(target_arch = "x86_64")]
    if crate::dot::DotLevel::Avx512Bf16.is_supported() {
        // SAFETY: the CPU has AVX512_BF16 (and AVX-512F).
        return Some(unsafe { dot_chains_avx512bf16(steps) });
    }
    let _ = steps;
    None
}

/// Runs `steps` iterations of four AMX `tdpbf16ps` on whole tiles (`crate::dot::amx`:
/// [`AMX_STEP_FLOPS`] FLOPs a step) and returns a sum of the results; `None` if this
/// process does not run AMX (no AMX-BF16, tile state not granted, or `TCC_AMX=0`).
pub fn amx_chains(steps: i64) -> Option<f32> {
    #[cfg(target_arch = "x86_64")]
    if crate::dot::DotLevel::Amx.is_supported() {
        // SAFETY: AMX runs in this process.
        return Some(unsafe { crate::dot::amx::chains(steps) });
    }
    let _ = steps;
    None
}

/// FLOPs of one step of [`amx_chains`].
#[cfg(target_arch = "x86_64")]
pub const AMX_STEP_FLOPS: f64 = crate::dot::amx::TILE_FLOPS * crate::dot::amx::CHAIN_TILES as f64;
#[cfg(not(target_arch = "x86_64"))]
pub const AMX_STEP_FLOPS: f64 = 0.0;

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bf16")]
unsafe fn dot_chains_avx512bf16(steps: i64) -> f32 {
    use std::arch::x86_64::*;
    // SAFETY: the caller checked the features; the stores go to a local array.
    unsafe {
        // Pairs of small bf16 values (0x3c00 = 2^-7): the sums grow slowly.
        let (a, b) = (
            std::mem::transmute::<__m512i, __m512bh>(_mm512_set1_epi32(0x3c00_3c00)),
            std::mem::transmute::<__m512i, __m512bh>(_mm512_set1_epi32(0x3c00_3c00)),
        );
        let mut acc: [__m512; DOT_CHAINS] = std::array::from_fn(|k| _mm512_set1_ps(k as f32));
        for _ in 0..steps {
            for x in acc.iter_mut() {
                *x = _mm512_dpbf16_ps(*x, a, b);
            }
        }
        let mut sum = 0.0;
        let mut lanes = [0f32; 16];
        for x in acc {
            _mm512_storeu_ps(lanes.as_mut_ptr(), x);
            sum += lanes.iter().sum::<f32>();
        }
        sum
    }
}
