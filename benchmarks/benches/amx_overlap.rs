//! Whether the AMX unit and 512-bit vector arithmetic run at the same time, one thread:
//! four `tdpbf16ps` on whole tiles (no loads); 128 `vmulps` in eight chains of 16
//! (throughput-bound: both 512-bit ports busy, as in an epilogue) or in two chains of
//! 64 (latency-bound: the ports busy a quarter of the time); and each with the
//! products in one loop. Where the pair takes about as long as the longer alone, they
//! overlap; where it takes the sum, an AMX tile's epilogue (AVX-512 on the stored
//! accumulators) cannot hide behind the next tile's products, and every vector
//! operation it saves counts in full. Only on CPUs with AMX-BF16 (skipped elsewhere). Results in
//! benchmarks/RESULTS.md.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

#[cfg(target_arch = "x86_64")]
mod lab {
    use std::arch::asm;
    use std::arch::x86_64::*;

    /// A 64-byte tile configuration (`ldtilecfg`'s operand).
    #[repr(C, align(64))]
    struct Config([u8; 64]);

    /// Configures the tiles and fills the input ones with small bf16 values.
    ///
    /// # Safety
    /// The process has AMX tile state (`tcc_ukernels::dot::amx::available`).
    pub unsafe fn configure() {
        // Palette 1; tiles 0-7 of 64 bytes per row (bytes 16-31, two each) and 16 rows
        // (bytes 48-55).
        let mut c = Config([0; 64]);
        c.0[0] = 1;
        for t in 0..8 {
            c.0[16 + 2 * t] = 64;
            c.0[48 + t] = 16;
        }
        let ones = [0x3c00u16; 16 * 32];
        // SAFETY: a valid configuration and 1 KiB tiles read from `ones` (the caller's
        // contract for the tile state).
        unsafe {
            asm!("ldtilecfg [{}]", in(reg) &c, options(nostack, readonly));
            asm!("tilezero tmm0", "tilezero tmm1", "tilezero tmm2", "tilezero tmm3", options(nostack, nomem));
            asm!(
                "tileloadd tmm4, [{p} + {s}]", "tileloadd tmm5, [{p} + {s}]",
                "tileloadd tmm6, [{p} + {s}]", "tileloadd tmm7, [{p} + {s}]",
                p = in(reg) ones.as_ptr(), s = in(reg) 64isize, options(nostack, readonly)
            );
        }
    }

    /// `steps` iterations of four products (`tiles`) and/or 128 multiplies in `CHAINS`
    /// dependent chains (`vectors`).
    ///
    /// # Safety
    /// [`configure`] ran on this thread.
    #[target_feature(enable = "avx512f")]
    pub unsafe fn run<const CHAINS: usize>(steps: usize, tiles: bool, vectors: bool) -> f32 {
        let mut acc = [_mm512_set1_ps(1.0); CHAINS];
        let m = _mm512_set1_ps(0.999);
        for _ in 0..steps {
            if tiles {
                // SAFETY: the tiles are configured (the caller's contract).
                unsafe {
                    asm!(
                        "tdpbf16ps tmm0, tmm4, tmm6",
                        "tdpbf16ps tmm1, tmm4, tmm7",
                        "tdpbf16ps tmm2, tmm5, tmm6",
                        "tdpbf16ps tmm3, tmm5, tmm7",
                        options(nostack, nomem)
                    )
                };
            }
            if vectors {
                for _ in 0..128 / CHAINS {
                    for a in &mut acc {
                        *a = _mm512_mul_ps(*a, m);
                    }
                }
            }
        }
        let sum = acc.iter().fold(_mm512_setzero_ps(), |s, &a| _mm512_add_ps(s, a));
        _mm512_reduce_add_ps(sum)
    }
}

fn overlap(c: &mut Criterion) {
    #[cfg(target_arch = "x86_64")]
    if tcc_ukernels::dot::amx::available() {
        let mut group = c.benchmark_group("amx_overlap");
        // SAFETY (of each `lab::run`): AMX implies AVX-512F, and each iteration below
        // configures the tiles on this thread first.
        let runs: [(&str, bool, bool, fn(usize, bool, bool) -> f32); 5] = [
            ("tdpbf16ps_x4", true, false, |n, t, v| unsafe { lab::run::<8>(n, t, v) }),
            ("vmulps_x128_ports_busy", false, true, |n, t, v| unsafe { lab::run::<8>(n, t, v) }),
            ("both_ports_busy", true, true, |n, t, v| unsafe { lab::run::<8>(n, t, v) }),
            ("vmulps_x128_latency_bound", false, true, |n, t, v| unsafe { lab::run::<2>(n, t, v) }),
            ("both_latency_bound", true, true, |n, t, v| unsafe { lab::run::<2>(n, t, v) }),
        ];
        for (name, tiles, vectors, run) in runs {
            group.bench_function(name, |b| {
                // SAFETY: AMX is available (its tile state granted by `available`).
                b.iter(|| {
                    unsafe { lab::configure() };
                    run(black_box(1000), tiles, vectors)
                })
            });
        }
        group.finish();
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = c;
}

criterion_group!(benches, overlap);
criterion_main!(benches);
