//! The bf16 dot tile on x86-64: register tiles of `vdpbf16ps` (AVX512_BF16) or of the
//! same products widened to f32 FMAs (AVX-512F), and the epilogue every x86 level
//! applies to a vector of sums (also AMX's, on the sums it stores): bias, mask,
//! residual (f32 or bf16), activation, clamp, then the store (rounded to bf16 with
//! `narrow`); a plain epilogue without a condition per vector.

use std::arch::x86_64::*;

use super::{Activation, DotTile, Epilogue, Level};

/// The most rows of a sub-tile of `c` vectors: the accumulators, the weights and
/// every row's broadcast in 32 registers (LLVM loads all of a step's broadcasts
/// first: 13 rows x 2 vectors spilled and ran at 47% of the dot peak, 10 x 2 at 96%,
/// Zen 5).
const fn max_rows(c: usize) -> usize {
    (32 - c) / (c + 1)
}

/// (tile, the sub-tile's input rows, output, first row, first vector, prefetch
/// distance in bytes or 0)
type Kernel = unsafe fn(&DotTile, *const u16, *mut f32, isize, isize, isize);

/// `[f::<r, C>, ..]` over the listed row counts (the last repeated to 16 entries:
/// never used, [`run`] asks for at most [`max_rows`] rows).
macro_rules! table {
    ($f:ident, $c:literal, $x:literal; $($r:literal)*) => {
        [$($f::<$r, $c, $x> as Kernel),*]
    };
}

/// Bytes of weights the sub-tiles of a chunk of the reduction share in L1 (a third
/// of a 48 KiB L1, half of a 32 KiB one).
const L1_SHARE: i64 = 16 << 10;

/// The row stride the kernels of [`KERNELS`]`[1]` have built in: a blocked
/// convolution's 16 channels at stride 1 (its rows are pixels).
const FIXED_X_ROW: i64 = 16;

macro_rules! kernels {
    ($x:literal) => {
        [
            [
                table!(widen_kernel, 1, $x; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 15),
                table!(widen_kernel, 2, $x; 1 2 3 4 5 6 7 8 9 10 10 10 10 10 10 10),
                table!(widen_kernel, 3, $x; 1 2 3 4 5 6 7 7 7 7 7 7 7 7 7 7),
                table!(widen_kernel, 4, $x; 1 2 3 4 5 5 5 5 5 5 5 5 5 5 5 5),
            ],
            [
                table!(dot_kernel, 1, $x; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 15),
                table!(dot_kernel, 2, $x; 1 2 3 4 5 6 7 8 9 10 10 10 10 10 10 10),
                table!(dot_kernel, 3, $x; 1 2 3 4 5 6 7 7 7 7 7 7 7 7 7 7),
                table!(dot_kernel, 4, $x; 1 2 3 4 5 5 5 5 5 5 5 5 5 5 5 5),
            ],
        ]
    };
}

/// By row stride (any, [`FIXED_X_ROW`]), dot instruction (false, true), vectors and
/// rows.
static KERNELS: [[[[Kernel; 16]; 4]; 2]; 2] = [kernels!(0), kernels!(16)];

/// Splits the tile into sub-tiles of at most 4 vectors and [`max_rows`] rows, as
/// even as possible, and runs each.
///
/// # Safety
/// As [`super::run_dot`], for the level `DOT` names.
pub(super) unsafe fn run<const DOT: bool>(t: &DotTile) {
    let (rows, vectors) = (t.rows.max(0) as usize, t.vectors.max(0) as usize);
    let [outer, l1, l0] = t.levels;
    let mut v0 = 0;
    while v0 < vectors {
        let left = vectors - v0;
        let c = if left <= 4 { left } else { left.div_ceil(left.div_ceil(4)) };
        let most = max_rows(c);
        let parts = rows.div_ceil(most);
        // The weights a sub-tile reads per iteration of the outermost level: when the
        // whole reduction's overflow a share of L1 and several sub-tiles read them,
        // the outermost level runs in chunks whose weights stay in L1 for every
        // sub-tile, the partial sums going through the output and the epilogue
        // applied after the last chunk.
        let per_outer = c as i64 * l1.count.max(1) * l0.count.max(1) * t.pairs.max(1) * 64;
        // (Partial sums cannot go through a bf16 output.)
        let chunk = if parts > 1 && !t.narrow { (L1_SHARE / per_outer).max(1) } else { outer.count };
        let mut first = 0;
        loop {
            let n = chunk.min(outer.count - first).max(0);
            let last = first + n >= outer.count;
            let part = if n == outer.count {
                *t
            } else {
                DotTile {
                    // SAFETY: inside the tile's reduction (the caller's contract).
                    x: unsafe { t.x.offset((first * outer.x) as isize) },
                    w: unsafe { t.w.offset((first * outer.w) as isize) },
                    accumulate: t.accumulate || first > 0,
                    levels: [Level { count: n, ..outer }, l1, l0],
                    epilogue: if last { t.epilogue } else { Epilogue::NONE },
                    ..*t
                }
            };
            let mut r0 = 0;
            for p in 0..parts {
                let r = rows / parts + usize::from(p < rows % parts);
                let kernel = KERNELS[usize::from(t.x_row == FIXED_X_ROW)][usize::from(DOT)][c - 1][r - 1];
                // The first sub-tile of each vector group asks for the next weights.
                let prefetch = if p == 0 { t.prefetch as isize * 2 } else { 0 };
                let x = part.x.wrapping_offset(r0 as isize * t.x_row as isize);
                // SAFETY: the caller's contract; the sub-tile stays inside the tile.
                unsafe { kernel(&part, x, t.o, r0 as isize, v0 as isize, prefetch) };
                r0 += r;
            }
            first += n;
            if last {
                break;
            }
        }
        v0 += c;
    }
}

/// [`body`] with `vdpbf16ps`.
#[target_feature(enable = "avx512f,avx512bf16")]
unsafe fn dot_kernel<const R: usize, const C: usize, const XROW: usize>(
    t: &DotTile,
    x: *const u16,
    o: *mut f32,
    r0: isize,
    v0: isize,
    prefetch: isize,
) {
    // SAFETY: the caller's contract.
    unsafe { body::<R, C, true, XROW>(t, x, o, r0, v0, prefetch) }
}

/// [`body`] with widening FMAs (AVX-512F only).
#[target_feature(enable = "avx512f")]
unsafe fn widen_kernel<const R: usize, const C: usize, const XROW: usize>(
    t: &DotTile,
    x: *const u16,
    o: *mut f32,
    r0: isize,
    v0: isize,
    prefetch: isize,
) {
    // SAFETY: the caller's contract.
    unsafe { body::<R, C, false, XROW>(t, x, o, r0, v0, prefetch) }
}

/// `R x C` accumulators from row `r0` (of `x`, the sub-tile's first input row) and
/// vector `v0` over the whole reduction, then the epilogue. Always inlined into the
/// kernels, which enable the features it needs (`DOT`: AVX512_BF16).
// (Indexed loops over constant bounds: the register tile's rows and vectors, which
// LLVM unrolls.)
#[allow(clippy::needless_range_loop)]
#[inline(always)]
unsafe fn body<const R: usize, const C: usize, const DOT: bool, const XROW: usize>(
    t: &DotTile,
    x: *const u16,
    o: *mut f32,
    r0: isize,
    v0: isize,
    prefetch: isize,
) {
    let (x_row, o_row, w_step) = (t.x_row as isize, t.o_row as isize, t.w_step as isize);
    let offsets: [(isize, isize, isize); C] = std::array::from_fn(|c| t.vector_offsets(v0 + c as isize));
    // SAFETY: the tile's addresses are valid (the caller's contract).
    unsafe {
        // (Elements of the output's type: bf16 with `narrow`.)
        let o = if t.narrow { o.cast::<u16>().offset(r0 * o_row).cast() } else { o.offset(r0 * o_row) };
        let mut acc = [[_mm512_setzero_ps(); C]; R];
        if t.accumulate {
            for r in 0..R {
                for c in 0..C {
                    acc[r][c] = _mm512_loadu_ps(o.offset(r as isize * o_row + offsets[c].1));
                }
            }
        }
        let high = _mm512_set1_epi32(0xffff_0000u32 as i32);
        // Rows `x_row` apart: a constant when `XROW` is not 0 (one base register for
        // every row's broadcasts instead of one per row).
        let x_row = if XROW != 0 { XROW as isize } else { x_row };
        let [l2, l1, l0] = t.levels;
        for i2 in 0..l2.count as isize {
            for i1 in 0..l1.count as isize {
                for i0 in 0..l0.count as isize {
                    let xp = x.offset(i2 * l2.x as isize + i1 * l1.x as isize + i0 * l0.x as isize);
                    let wl = i2 * l2.w as isize + i1 * l1.w as isize + i0 * l0.w as isize;
                    let wp: [*const u16; C] = std::array::from_fn(|c| t.w.offset(offsets[c].0 + wl));
                    for j in 0..t.pairs as isize {
                        if prefetch != 0 {
                            for c in 0..C {
                                crate::tile::prefetch_l2(wp[c].offset(j * w_step).cast(), prefetch);
                            }
                        }
                        let mut wv = [_mm512_setzero_si512(); C];
                        for c in 0..C {
                            wv[c] = _mm512_loadu_si512(wp[c].offset(j * w_step).cast());
                        }
                        for r in 0..R {
                            let pair = (xp.offset(r as isize * x_row + 2 * j) as *const i32).read_unaligned();
                            let b = _mm512_set1_epi32(pair);
                            for c in 0..C {
                                acc[r][c] = if DOT {
                                    // (The same 512 bits, read as 32 bf16 values.)
                                    let (b, wc) = (
                                        std::mem::transmute::<__m512i, __m512bh>(b),
                                        std::mem::transmute::<__m512i, __m512bh>(wv[c]),
                                    );
                                    _mm512_dpbf16_ps(acc[r][c], b, wc)
                                } else {
                                    // The odd elements are the high halves of the 32-bit
                                    // lanes, the even ones the low halves shifted up.
                                    let odd = _mm512_fmadd_ps(
                                        _mm512_castsi512_ps(_mm512_and_si512(b, high)),
                                        _mm512_castsi512_ps(_mm512_and_si512(wv[c], high)),
                                        acc[r][c],
                                    );
                                    _mm512_fmadd_ps(
                                        _mm512_castsi512_ps(_mm512_slli_epi32::<16>(b)),
                                        _mm512_castsi512_ps(_mm512_slli_epi32::<16>(wv[c])),
                                        odd,
                                    )
                                };
                            }
                        }
                    }
                }
            }
        }
        // (A copy: the epilogue indexes it, which would keep `acc` itself in memory
        // through the reduction, stored at every step.)
        let sums = acc;
        store::<R, C>(t, o, r0, &offsets, &sums);
    }
}

/// `v` rounded to bf16, to nearest even, as [`super::narrow`] rounds each lane
/// (integer arithmetic: `vcvtneps2bf16` would flush subnormals).
#[target_feature(enable = "avx512f")]
#[inline]
fn narrow(v: __m512) -> __m256i {
    let bits = _mm512_castps_si512(v);
    let odd = _mm512_and_si512(_mm512_srli_epi32::<16>(bits), _mm512_set1_epi32(1));
    let rounded = _mm512_add_epi32(_mm512_add_epi32(bits, _mm512_set1_epi32(0x7fff)), odd);
    let nan = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(v, v);
    let quiet = _mm512_or_si512(bits, _mm512_set1_epi32(0x0040_0000));
    let bits = _mm512_mask_mov_epi32(rounded, nan, quiet);
    _mm512_cvtepi32_epi16(_mm512_srli_epi32::<16>(bits))
}

/// Applies the epilogue to a sub-tile's sums and stores them (`o` at the sub-tile's
/// first row).
#[target_feature(enable = "avx512f")]
#[inline(never)]
#[allow(clippy::needless_range_loop)]
pub(super) unsafe fn store<const R: usize, const C: usize>(
    t: &DotTile,
    o: *mut f32,
    r0: isize,
    offsets: &[(isize, isize, isize); C],
    sums: &[[__m512; C]; R],
) {
    let o_row = t.o_row as isize;
    // SAFETY: the tile's addresses are valid (the caller's contract).
    unsafe {
        for c in 0..C {
            let channel = per_channel(t, offsets[c].2);
            for r in 0..R {
                let at = r as isize * o_row + offsets[c].1;
                finish_vector(t, sums[r][c], r0 + r as isize, offsets[c].1, channel, o, at);
            }
        }
    }
}

/// The epilogue's bias and mask vectors of the channels `at` elements past their
/// first (zeros without them).
///
/// # Safety
/// The epilogue's pointers are valid there.
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) unsafe fn per_channel(t: &DotTile, at: isize) -> [__m512; 2] {
    let e = &t.epilogue;
    let load = |p: *const f32| {
        // SAFETY: the caller's.
        if p.is_null() { _mm512_setzero_ps() } else { unsafe { _mm512_loadu_ps(p.offset(at)) } }
    };
    [load(e.bias), load(e.mask)]
}

/// Whether `t`'s epilogue is plain: no mask, no activation and a bias (if any) per
/// vector, so that [`finish_plain`] applies it.
pub(super) fn is_plain(t: &DotTile) -> bool {
    let e = &t.epilogue;
    e.mask.is_null() && e.activation == Activation::None && e.bias_row == 0
}

/// [`finish_vector`] for a plain epilogue ([`is_plain`]), with no condition between
/// its steps: `bias` (-0 without one, which changes nothing), the residual
/// (`RESIDUAL`: none, f32 or bf16, as [`NO_RESIDUAL`] and its siblings say), the
/// clamp to `lo` and, unless `hi` is `None` (no upper bound), `hi`, then stored as
/// bf16 with `NARROW`. Only on CPUs with AVX512_BF16 and AVX512DQ (AMX's): rounding is
/// `vcvtneps2bf16`'s, except for vectors holding a subnormal, which it would flush to
/// zero ([`narrow_exact`]); 512-bit integer and shuffle operations share two ports, so
/// every one saved per vector counts (the integer rounding took 9 of the plain
/// epilogue's 15).
///
/// # Safety
/// As [`finish_vector`]'s; the CPU has AVX512_BF16 and AVX512DQ.
#[target_feature(enable = "avx512f,avx512bf16,avx512dq")]
#[inline]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn finish_plain<const RESIDUAL: u8, const NARROW: bool>(
    t: &DotTile,
    v: __m512,
    row: isize,
    ov: isize,
    bias: __m512,
    (lo, hi): (__m512, Option<__m512>),
    o: *mut f32,
    at: isize,
) {
    let e = &t.epilogue;
    // SAFETY: the caller's.
    unsafe {
        let mut v = _mm512_add_ps(v, bias);
        if RESIDUAL != NO_RESIDUAL {
            v = _mm512_add_ps(v, residual(e, RESIDUAL == BF16_RESIDUAL, row * t.o_row as isize + ov));
        }
        // max then min with the value as the second operand: NaN comes through (and
        // `min(+inf, v)` is `v`, so no upper bound needs no `min`).
        v = _mm512_max_ps(lo, v);
        if let Some(hi) = hi {
            v = _mm512_min_ps(hi, v);
        }
        if NARROW {
            _mm256_storeu_si256(o.cast::<u16>().offset(at).cast(), narrow_exact(v));
        } else {
            _mm512_storeu_ps(o.offset(at), v);
        }
    }
}

/// [`narrow`] with `vcvtneps2bf16` where it rounds the same: on every vector without a
/// subnormal (it flushes those to zero; NaNs become quiet NaNs as [`narrow`] makes them).
#[target_feature(enable = "avx512f,avx512bf16,avx512dq")]
#[inline]
fn narrow_exact(v: __m512) -> __m256i {
    const SUBNORMAL: i32 = 0x20;
    if _mm512_fpclass_ps_mask::<SUBNORMAL>(v) != 0 {
        return narrow(v);
    }
    // SAFETY: `__m256bh` and `__m256i` are 256 bits.
    unsafe { std::mem::transmute::<__m256bh, __m256i>(_mm512_cvtneps_pbh(v)) }
}

/// [`finish_plain`]'s residuals.
pub(super) const NO_RESIDUAL: u8 = 0;
pub(super) const F32_RESIDUAL: u8 = 1;
pub(super) const BF16_RESIDUAL: u8 = 2;

/// Vector `v` of output row `row` (at `ov` in the row) through the epilogue, with
/// its channels' `[bias, mask]` ([`per_channel`]), stored at `o + at` (elements of
/// the output's type).
///
/// # Safety
/// The tile's addresses are valid for the vector.
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) unsafe fn finish_vector(
    t: &DotTile,
    mut v: __m512,
    row: isize,
    ov: isize,
    [bias, mask]: [__m512; 2],
    o: *mut f32,
    at: isize,
) {
    let e = &t.epilogue;
    // SAFETY: the caller's.
    unsafe {
        let zero = _mm512_setzero_ps();
        let per_row = |p: *const f32, lanes: __m512| {
            if e.bias_row != 0 { _mm512_set1_ps(*p.offset(row * e.bias_row as isize)) } else { lanes }
        };
        if !e.bias.is_null() {
            v = _mm512_add_ps(v, per_row(e.bias, bias));
        }
        if !e.mask.is_null() {
            let m = per_row(e.mask, mask);
            v = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask::<_CMP_GT_OQ>(m, zero), v);
        }
        if !e.residual.is_null() {
            v = _mm512_add_ps(v, residual(e, t.bf16_residual, row * t.o_row as isize + ov));
        }
        match e.activation {
            Activation::None => {}
            Activation::Sigmoid => v = crate::sigmoid::sigmoid512(v),
            Activation::Silu => v = _mm512_mul_ps(v, crate::sigmoid::sigmoid512(v)),
        }
        clamp_and_store(e, v, t.narrow, o, at);
    }
}

/// The residual's 16 values from element `at` (bf16 ones widened with `bf16`).
///
/// # Safety
/// The residual holds them.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn residual(e: &Epilogue, bf16: bool, at: isize) -> __m512 {
    // SAFETY: the caller's.
    unsafe {
        if bf16 {
            let bits = _mm256_loadu_si256(e.residual.cast::<u16>().offset(at).cast());
            _mm512_castsi512_ps(_mm512_slli_epi32::<16>(_mm512_cvtepu16_epi32(bits)))
        } else {
            _mm512_loadu_ps(e.residual.offset(at))
        }
    }
}

/// `v` clamped to the epilogue's bounds and stored at `o + at` (rounded to bf16, in bf16
/// elements, with `narrow`).
///
/// # Safety
/// `o + at` holds a vector of the output's type.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn clamp_and_store(e: &Epilogue, v: __m512, narrow_output: bool, o: *mut f32, at: isize) {
    // max then min with the value as the second operand: NaN comes through.
    let v = _mm512_min_ps(_mm512_set1_ps(e.hi), _mm512_max_ps(_mm512_set1_ps(e.lo), v));
    // SAFETY: the caller's.
    unsafe {
        if narrow_output {
            _mm256_storeu_si256(o.cast::<u16>().offset(at).cast(), narrow(v));
        } else {
            _mm512_storeu_ps(o.offset(at), v);
        }
    }
}
