//! Column sums of a strided f32 matrix on the wide vectors of the AVX-512 and AVX2
//! levels: the statistics of a normalization over the outer dimensions of a
//! channels-last tensor (a group norm's means and variances as torch-mlir exports
//! them: `sum(f64(x + bias))`, `sum((f64(x + bias) - mean)^2)`). Column `c`'s sum is
//! that over the rows of `x[r][c] + bias[c]` in f32, widened to f64 with
//! `COLUMN_SUMS_WIDEN`, minus `center[c]`, squared with `COLUMN_SUMS_SQUARE`, the rows
//! added in order, each column in one lane: the order of a column reduction's vector
//! loops in generated code, whose narrow vectors (Cranelift's 128 bits) call
//! `tcc_uk_column_sums_<isa>` instead (`emit::column_sums` in `tcc-lower`).
//!
//! A block of columns keeps its sums (and its bias and center) in registers over all
//! rows; the columns a vector does not fill are summed one at a time, with the same
//! operations in the same order.

use tcc_runtime_abi::{COLUMN_SUMS_SQUARE, COLUMN_SUMS_WIDEN};

/// One column's sum, one scalar at a time (the columns no vector fills).
///
/// # Safety
/// As [`avx512::tcc_uk_column_sums_avx512`]'s, for column `c`.
#[allow(clippy::too_many_arguments)]
unsafe fn column<T: Copy + std::ops::Add<Output = T> + std::ops::Sub<Output = T> + std::ops::Mul<Output = T>>(
    widen: &impl Fn(f32) -> T,
    square: bool,
    x: *const f32,
    rows: usize,
    row_stride: usize,
    bias: *const f32,
    center: *const T,
    out: *mut T,
    zero: T,
) {
    // SAFETY: the caller's contract: `x[r * row_stride]` for every row, `bias[0]`,
    // `center[0]` (when not null) and `out[0]` are valid.
    unsafe {
        let b = (!bias.is_null()).then(|| *bias);
        let m = (!center.is_null()).then(|| *center);
        let mut sum = zero;
        for r in 0..rows {
            let mut v = *x.add(r * row_stride);
            if let Some(b) = b {
                v += b;
            }
            let mut w = widen(v);
            if let Some(m) = m {
                w = w - m;
            }
            if square {
                w = w * w;
            }
            sum = sum + w;
        }
        *out = sum;
    }
}

/// A block's arguments: its first input column, the rows, the row stride, its bias,
/// center and output (bias and center may be null).
type Block<T> = (*const f32, usize, usize, *const f32, *const T, *mut T);

/// `p + c`, or null for a null `p`.
fn at<T>(p: *const T, c: usize) -> *const T {
    if p.is_null() { p } else { p.wrapping_add(c) }
}

/// The columns of `args` (from its first) in blocks of 8, 4, 2 or 1 vectors of `lanes`
/// (at most `most` vectors), each summed by `block(vectors, its arguments)`, then the
/// columns no vector fills one at a time by [`column`].
///
/// # Safety
/// As the entry points', for `columns` columns.
unsafe fn by_blocks<T>(
    (x, rows, row_stride, bias, center, out): Block<T>,
    columns: usize,
    lanes: usize,
    most: usize,
    square: bool,
    widen: impl Fn(f32) -> T,
    block: impl Fn(usize, Block<T>),
) where
    T: Copy + Default + std::ops::Add<Output = T> + std::ops::Sub<Output = T> + std::ops::Mul<Output = T>,
{
    let mut c = 0;
    while c + lanes <= columns {
        let vectors = match ((columns - c) / lanes).min(most) {
            8.. => 8,
            4..=7 => 4,
            2 | 3 => 2,
            _ => 1,
        };
        block(vectors, (x.wrapping_add(c), rows, row_stride, at(bias, c), at(center, c), out.wrapping_add(c)));
        c += vectors * lanes;
    }
    for c in c..columns {
        // SAFETY: the caller's contract, for column `c`.
        unsafe {
            let (b, m) = (at(bias, c), at(center, c));
            column(&widen, square, x.add(c), rows, row_stride, b, m, out.add(c), T::default());
        }
    }
}

/// `$kernel::<$u, BIAS, CENTER, SQUARE>(args)` for the bias and center `args` has (not
/// null) and `square`.
macro_rules! by_flags {
    ($kernel:ident, $u:literal, $square:expr, $args:expr) => {
        match (!$args.3.is_null(), !$args.4.is_null(), $square) {
            (false, false, false) => $kernel::<$u, false, false, false>($args),
            (false, false, true) => $kernel::<$u, false, false, true>($args),
            (false, true, false) => $kernel::<$u, false, true, false>($args),
            (false, true, true) => $kernel::<$u, false, true, true>($args),
            (true, false, false) => $kernel::<$u, true, false, false>($args),
            (true, false, true) => $kernel::<$u, true, false, true>($args),
            (true, true, false) => $kernel::<$u, true, true, false>($args),
            (true, true, true) => $kernel::<$u, true, true, true>($args),
        }
    };
}

/// One level's entry point over its vector types and intrinsics: blocks of up to
/// `$units` vectors of columns (sums, bias and center in registers; 8, 4, 2 or 1), then
/// scalars. An f32 block loads `$v32` vectors; an f64 block loads half-width f32
/// vectors (`$half`) and widens them.
macro_rules! column_sums_level {
    (
        $module:ident, $symbol:ident, $feature:literal, $units:literal,
        f32: $v32:ty, $lanes32:literal, $load32:ident, $store32:ident, $zero32:ident, $add32:ident, $sub32:ident, $mul32:ident;
        f64: $half:ty, $load_half:ident, $add_half:ident, $widen:ident, $v64:ty, $lanes64:literal, $load64:ident,
        $store64:ident, $zero64:ident, $add64:ident, $sub64:ident, $mul64:ident
    ) => {
        #[cfg(target_arch = "x86_64")]
        pub mod $module {
            use std::arch::x86_64::*;

            use super::*;

            /// Column sums of the `rows` x `columns` f32 matrix at `x` (rows `row_stride`
            /// elements apart), as the module says, into `out` (f32, or f64 with
            /// `COLUMN_SUMS_WIDEN`).
            ///
            /// # Safety
            /// This CPU runs the level; `x[r * row_stride + c]` is readable for every
            /// row and column, `bias[c]` (f32) and `center[c]` (the sums' type) when not
            /// null, and `out[c]` is writable.
            #[unsafe(no_mangle)]
            #[allow(clippy::too_many_arguments)]
            pub unsafe extern "C" fn $symbol(
                flags: i64,
                x: *const f32,
                rows: i64,
                row_stride: i64,
                columns: i64,
                bias: *const f32,
                center: *const u8,
                out: *mut u8,
            ) {
                let (rows, row_stride, columns) = (rows.max(0) as usize, row_stride as usize, columns.max(0) as usize);
                let square = flags & COLUMN_SUMS_SQUARE != 0;
                // SAFETY: the caller's contract.
                unsafe {
                    if flags & COLUMN_SUMS_WIDEN != 0 {
                        let args = (x, rows, row_stride, bias, center as *const f64, out as *mut f64);
                        by_blocks(
                            args,
                            columns,
                            $lanes64,
                            $units,
                            square,
                            |v| v as f64,
                            |vectors, args| match vectors {
                                8 => by_flags!(wide_block, 8, square, args),
                                4 => by_flags!(wide_block, 4, square, args),
                                2 => by_flags!(wide_block, 2, square, args),
                                _ => by_flags!(wide_block, 1, square, args),
                            },
                        );
                    } else {
                        let args = (x, rows, row_stride, bias, center as *const f32, out as *mut f32);
                        by_blocks(
                            args,
                            columns,
                            $lanes32,
                            $units,
                            square,
                            |v| v,
                            |vectors, args| match vectors {
                                8 => by_flags!(narrow_block, 8, square, args),
                                4 => by_flags!(narrow_block, 4, square, args),
                                2 => by_flags!(narrow_block, 2, square, args),
                                _ => by_flags!(narrow_block, 1, square, args),
                            },
                        );
                    }
                }
            }

            /// `U` vectors of f32 sums; with and without a bias, a center and the square,
            /// each a loop of its own.
            #[target_feature(enable = $feature)]
            unsafe fn narrow_block<const U: usize, const BIAS: bool, const CENTER: bool, const SQUARE: bool>(
                (x, rows, row_stride, bias, center, out): Block<f32>,
            ) {
                // SAFETY: the caller's contract.
                unsafe {
                    let mut sums = [$zero32(); U];
                    let mut b = [$zero32(); U];
                    let mut m = [$zero32(); U];
                    for u in 0..U {
                        if BIAS {
                            b[u] = $load32(bias.add(u * $lanes32));
                        }
                        if CENTER {
                            m[u] = $load32(center.add(u * $lanes32));
                        }
                    }
                    for r in 0..rows {
                        let row = x.add(r * row_stride);
                        for u in 0..U {
                            let mut v = $load32(row.add(u * $lanes32));
                            if BIAS {
                                v = $add32(v, b[u]);
                            }
                            if CENTER {
                                v = $sub32(v, m[u]);
                            }
                            if SQUARE {
                                v = $mul32(v, v);
                            }
                            sums[u] = $add32(sums[u], v);
                        }
                    }
                    for u in 0..U {
                        $store32(out.add(u * $lanes32), sums[u]);
                    }
                }
            }

            /// `U` vectors of f64 sums of widened f32s (the variants as [`narrow_block`]'s).
            #[target_feature(enable = $feature)]
            unsafe fn wide_block<const U: usize, const BIAS: bool, const CENTER: bool, const SQUARE: bool>(
                (x, rows, row_stride, bias, center, out): Block<f64>,
            ) {
                // SAFETY: the caller's contract.
                unsafe {
                    let mut sums = [$zero64(); U];
                    let mut b: [$half; U] = [std::mem::zeroed(); U];
                    let mut m = [$zero64(); U];
                    for u in 0..U {
                        if BIAS {
                            b[u] = $load_half(bias.add(u * $lanes64));
                        }
                        if CENTER {
                            m[u] = $load64(center.add(u * $lanes64));
                        }
                    }
                    for r in 0..rows {
                        let row = x.add(r * row_stride);
                        for u in 0..U {
                            let mut v = $load_half(row.add(u * $lanes64));
                            if BIAS {
                                v = $add_half(v, b[u]);
                            }
                            let mut w = $widen(v);
                            if CENTER {
                                w = $sub64(w, m[u]);
                            }
                            if SQUARE {
                                w = $mul64(w, w);
                            }
                            sums[u] = $add64(sums[u], w);
                        }
                    }
                    for u in 0..U {
                        $store64(out.add(u * $lanes64), sums[u]);
                    }
                }
            }
        }
    };
}

column_sums_level!(
    avx512, tcc_uk_column_sums_avx512, "avx512f", 8,
    f32: __m512, 16, _mm512_loadu_ps, _mm512_storeu_ps, _mm512_setzero_ps, _mm512_add_ps, _mm512_sub_ps, _mm512_mul_ps;
    f64: __m256, _mm256_loadu_ps, _mm256_add_ps, _mm512_cvtps_pd, __m512d, 8, _mm512_loadu_pd, _mm512_storeu_pd,
    _mm512_setzero_pd, _mm512_add_pd, _mm512_sub_pd, _mm512_mul_pd
);

column_sums_level!(
    avx2, tcc_uk_column_sums_avx2, "avx2", 4,
    f32: __m256, 8, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_setzero_ps, _mm256_add_ps, _mm256_sub_ps, _mm256_mul_ps;
    f64: __m128, _mm_loadu_ps, _mm_add_ps, _mm256_cvtps_pd, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd,
    _mm256_setzero_pd, _mm256_add_pd, _mm256_sub_pd, _mm256_mul_pd
);

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::Isa;

    type Entry = unsafe extern "C" fn(i64, *const f32, i64, i64, i64, *const f32, *const u8, *mut u8);

    fn levels() -> Vec<Entry> {
        let mut levels: Vec<Entry> = Vec::new();
        if Isa::Avx2.is_supported() {
            levels.push(avx2::tcc_uk_column_sums_avx2);
        }
        if Isa::Avx512.is_supported() {
            levels.push(avx512::tcc_uk_column_sums_avx512);
        }
        levels
    }

    /// Every level, flag and pointer combination, against a plain loop, bit for bit
    /// (column counts with full blocks, single vectors and scalar tails; a row stride
    /// wider than the columns).
    #[test]
    fn sums_match_the_definition() {
        let (rows, stride) = (37usize, 211usize);
        let x: Vec<f32> = (0..rows * stride).map(|i| ((i * 7919 % 1013) as f32 - 500.0) * 0.013).collect();
        let bias: Vec<f32> = (0..stride).map(|c| c as f32 * 0.37 - 3.0).collect();
        let center: Vec<f64> = (0..stride).map(|c| c as f64 * 0.11 - 1.5).collect();
        let center32: Vec<f32> = center.iter().map(|&c| c as f32).collect();
        for entry in levels() {
            for columns in [0, 1, 3, 4, 8, 13, 16, 33, 48, 64, 71, 80, 130, 200] {
                for flags in 0..4 {
                    for (with_bias, with_center) in [(false, false), (true, false), (false, true), (true, true)] {
                        let widen = flags & COLUMN_SUMS_WIDEN != 0;
                        let square = flags & COLUMN_SUMS_SQUARE != 0;
                        let b = if with_bias { bias.as_ptr() } else { std::ptr::null() };
                        let m: *const u8 = match (with_center, widen) {
                            (false, _) => std::ptr::null(),
                            (true, true) => center.as_ptr().cast(),
                            (true, false) => center32.as_ptr().cast(),
                        };
                        let (mut wide, mut narrow) = (vec![0f64; columns], vec![0f32; columns]);
                        let out: *mut u8 = if widen { wide.as_mut_ptr().cast() } else { narrow.as_mut_ptr().cast() };
                        // SAFETY: every pointer covers `rows` x `columns` at `stride`.
                        unsafe { entry(flags, x.as_ptr(), rows as i64, stride as i64, columns as i64, b, m, out) };
                        for c in 0..columns {
                            let value = |r: usize| x[r * stride + c] + if with_bias { bias[c] } else { 0.0 };
                            let got = if widen {
                                let mut s = 0f64;
                                for r in 0..rows {
                                    let mut w = value(r) as f64 - if with_center { center[c] } else { 0.0 };
                                    if square {
                                        w *= w;
                                    }
                                    s += w;
                                }
                                (wide[c].to_bits(), s.to_bits())
                            } else {
                                let mut s = 0f32;
                                for r in 0..rows {
                                    let mut w = value(r) - if with_center { center32[c] } else { 0.0 };
                                    if square {
                                        w *= w;
                                    }
                                    s += w;
                                }
                                (narrow[c].to_bits() as u64, s.to_bits() as u64)
                            };
                            assert_eq!(
                                got.0, got.1,
                                "columns {columns} flags {flags} bias {with_bias} center {with_center} column {c}"
                            );
                        }
                    }
                }
            }
        }
    }
}
