//! The bf16 dot tile: `rows` x `vectors` f32 accumulators over a reduction of bf16
//! pairs, the register tile of reduced-precision convolutions and matmuls (issue 29).
//!
//! Inputs and weights are bf16 (their bits, `u16`); the reduction runs over pairs of
//! adjacent elements, which is what AVX512_BF16's `vdpbf16ps` multiplies: each step
//! broadcasts one pair of a row's inputs (32 bits) and, per vector, loads `L` lanes of
//! weight pairs (the weights packed with the two elements of a pair side by side, lane
//! by lane). Each lane adds the pair's odd product, then its even one, to its f32
//! accumulator: bf16 products are exact in f32, so each addition is the only rounding,
//! as in `vdpbf16ps` (which also treats subnormal inputs and results as zero: the same
//! values for every input without subnormals). Four levels: AMX tiles ([`amx`]:
//! `tdpbf16ps`, which sums each chunk's even and odd products apart first,
//! [`amx_definition`]), `avx512bf16` (the dot instruction), `avx512` (the pairs widened
//! to f32, two FMAs), and a portable scalar loop for every other CPU ([`run_dot`]
//! picks the best this CPU runs).
//!
//! Generated code calls it through the C entry points `tcc_uk_dot_<isa>`, which take
//! the broadcast tile's 35 arguments ([`crate::Tile`]'s fields; the input and weights
//! as bf16 addresses, `inner` counting pairs): the AVX-512 one runs the best level
//! this CPU has, the others the scalar loop (the compiler calls the dot tile only on
//! AVX-512 targets; the others exist so that every level has the same symbols).

use crate::tile::{Activation, Epilogue, Level};

#[cfg(target_arch = "x86_64")]
pub mod amx;

/// A bf16 dot tile. Offsets and strides of `x` and `w` count bf16 elements, of `o`, the
/// epilogue's operands and the groups' output stride elements (f32, or bf16 with
/// `narrow`).
///
/// Accumulator `(r, v)` lane `l` is the sum, over every iteration of the levels
/// (outermost first) and then the `pairs` steps `j`, of `x[xi + 1] * w[wi + 2l + 1]`
/// and then `x[xi] * w[wi + 2l]`, where `xi = r * x_row + levels' x offsets + 2j` and
/// `wi = wv(v) + levels' w offsets + j * w_step`; it starts from zero, or from the
/// output with `accumulate`. Vector `v` is vector `q = v % group_vectors` of group
/// `g = v / group_vectors`: `wv(v) = g * w_group + q * 2L`, `ov(v) = g * o_group + q *
/// L` for `L` = [`LANES`]. The result, after the [`Epilogue`] (as the f32 tile
/// applies it, with the same `g` and `q`), is stored at `o[r * o_row + ov(v) + l]`
/// (rounded to bf16 with `narrow`).
#[derive(Copy, Clone, Debug)]
pub struct DotTile {
    pub x: *const u16,
    pub w: *const u16,
    pub o: *mut f32,
    pub rows: i64,
    pub vectors: i64,
    pub accumulate: bool,
    /// `o` holds bf16 values: the result, after the epilogue, is rounded to nearest even
    /// (as `graph.cast` rounds; never with `accumulate`).
    pub narrow: bool,
    /// The epilogue's residual holds bf16 values, widened where they are added (laid
    /// out as the output, its offsets counting bf16 elements).
    pub bf16_residual: bool,
    pub x_row: i64,
    pub o_row: i64,
    pub group_vectors: i64,
    pub w_group: i64,
    pub o_group: i64,
    pub pairs: i64,
    pub w_step: i64,
    /// Outermost first.
    pub levels: [Level; 3],
    /// If not 0: at each step of the first sub-tile of rows, ask for the weights this
    /// many elements past the ones read to be brought into L2 (as [`crate::Tile`]'s).
    pub prefetch: i64,
    pub epilogue: Epilogue,
}

impl From<crate::Tile<u16>> for DotTile {
    /// The dot tile of an entry point's arguments (`inner` counts pairs; the input is
    /// broadcast and summed whatever `x_vector` and `reduce` say).
    fn from(t: crate::Tile<u16>) -> DotTile {
        DotTile {
            x: t.x,
            w: t.w,
            o: t.o,
            rows: t.rows,
            vectors: t.vectors,
            accumulate: t.accumulate,
            narrow: t.narrow,
            bf16_residual: t.bf16_residual,
            x_row: t.x_row,
            o_row: t.o_row,
            group_vectors: t.group_vectors,
            w_group: t.w_group,
            o_group: t.o_group,
            pairs: t.inner,
            w_step: t.w_step,
            levels: t.levels,
            prefetch: t.prefetch,
            epilogue: t.epilogue,
        }
    }
}

/// A tile repeated over output rows ([`crate::Tile::out_rows`]): row `i` reads `x + i *
/// x` and writes `o + i * o` (its residual as the output), strides counting elements as
/// the tile's offsets do.
#[derive(Copy, Clone, Debug)]
pub struct OutRows {
    pub count: i64,
    pub x: i64,
    pub o: i64,
}

impl OutRows {
    /// One output row.
    pub const ONE: OutRows = OutRows { count: 1, x: 0, o: 0 };
}

impl DotTile {
    /// Output row `i` of `rows`, alone.
    pub fn out_row(&self, rows: OutRows, i: i64) -> DotTile {
        let o = (i * rows.o) as isize;
        // (bf16 elements with `narrow`.)
        let out = if self.narrow { self.o.cast::<u16>().wrapping_offset(o).cast() } else { self.o.wrapping_offset(o) };
        DotTile {
            x: self.x.wrapping_offset((i * rows.x) as isize),
            o: out,
            epilogue: Epilogue { residual: self.residual_at(o), ..self.epilogue },
            ..*self
        }
    }

    /// The residual `offset` elements past the epilogue's (elements of its type; null
    /// stays null: none).
    fn residual_at(&self, offset: isize) -> *const f32 {
        let residual = self.epilogue.residual;
        if residual.is_null() {
            residual
        } else if self.bf16_residual {
            residual.cast::<u16>().wrapping_offset(offset).cast()
        } else {
            residual.wrapping_offset(offset)
        }
    }

    /// The residual's element `at`, as f32.
    ///
    /// # Safety
    /// The residual is not null and holds element `at`.
    unsafe fn residual(&self, at: isize) -> f32 {
        // SAFETY: the caller's.
        unsafe {
            if self.bf16_residual {
                widen(*self.epilogue.residual.cast::<u16>().offset(at))
            } else {
                *self.epilogue.residual.offset(at)
            }
        }
    }

    /// Vector `v`'s offsets: `(weights, output, bias and mask)`.
    fn vector_offsets(&self, v: isize) -> (isize, isize, isize) {
        let gv = self.group_vectors.max(1) as isize;
        let (g, q) = (v / gv, v % gv);
        let lanes = LANES as isize;
        (
            g * self.w_group as isize + q * 2 * lanes,
            g * self.o_group as isize + q * lanes,
            g * self.epilogue.bias_group as isize + q * lanes,
        )
    }
}

/// Lanes of a vector: the layout of the packed weights (`L` pairs per step and vector)
/// is the same on every level.
pub const LANES: usize = 16;

/// The fewest rows a tile runs on AMX tiles with (fewer run `vdpbf16ps`).
pub const AMX_ROWS: i64 = 4;

/// The code that runs a dot tile.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DotLevel {
    /// AMX-BF16's `tdpbf16ps` on tiles of up to 16 x 16 accumulators ([`amx`]), for
    /// tiles of at least [`AMX_ROWS`] rows (the others run `vdpbf16ps`).
    Amx,
    /// AVX512_BF16's `vdpbf16ps`.
    Avx512Bf16,
    /// AVX-512F: pairs widened to f32, two FMAs.
    Avx512,
    /// Scalar code, any CPU.
    Scalar,
}

impl DotLevel {
    /// The best level this CPU runs.
    pub fn host_best() -> DotLevel {
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx512bf16") && is_x86_feature_detected!("avx512f") {
                if amx::available() {
                    return DotLevel::Amx;
                }
                return DotLevel::Avx512Bf16;
            }
            if is_x86_feature_detected!("avx512f") {
                return DotLevel::Avx512;
            }
        }
        DotLevel::Scalar
    }

    /// Whether this CPU runs the level.
    pub fn is_supported(self) -> bool {
        match self {
            DotLevel::Scalar => true,
            DotLevel::Avx512 => DotLevel::host_best() != DotLevel::Scalar,
            DotLevel::Avx512Bf16 => matches!(DotLevel::host_best(), DotLevel::Amx | DotLevel::Avx512Bf16),
            DotLevel::Amx => DotLevel::host_best() == DotLevel::Amx,
        }
    }
}

/// Runs `t` with `level`.
///
/// # Safety
/// `level` is supported by this CPU; every address the tile reaches is valid (readable
/// for `x`, `w` and `bias`, readable and writable for `o`).
pub unsafe fn run_dot(level: DotLevel, t: &DotTile) {
    // SAFETY: the caller's contract.
    unsafe {
        match level {
            #[cfg(target_arch = "x86_64")]
            DotLevel::Amx if t.rows >= AMX_ROWS => amx::run(t, OutRows::ONE),
            #[cfg(target_arch = "x86_64")]
            DotLevel::Avx512Bf16 | DotLevel::Amx => x86::run::<true>(t),
            #[cfg(target_arch = "x86_64")]
            DotLevel::Avx512 => x86::run::<false>(t),
            _ => scalar(t),
        }
    }
}

/// Runs `t` over `rows` with `level`: on AMX tiles as one sequence of positions where
/// that fills tiles better ([`amx::spans_rows`]), else row by row.
///
/// # Safety
/// As [`run_dot`], for every output row.
pub unsafe fn run_dot_rows(level: DotLevel, t: &DotTile, rows: OutRows) {
    #[cfg(target_arch = "x86_64")]
    if level == DotLevel::Amx && amx::spans_rows(t, rows) {
        // SAFETY: the caller's contract.
        return unsafe { amx::run(t, rows) };
    }
    for i in 0..rows.count {
        // SAFETY: the caller's contract.
        unsafe { run_dot(level, &t.out_row(rows, i)) }
    }
}

/// The C entry points, one per [`crate::Isa`] level (symbols `tcc_uk_dot_<isa>`), with
/// the broadcast tile's arguments (`tcc_runtime_abi::TILE_ARGUMENTS`): `x` and `w` are
/// bf16 addresses and `inner` counts pairs. The input is always broadcast and summed
/// (`x_vector`, `x_step`, `x_group`, `reduce` and `divisor` must be 0). The AVX-512 entry runs the best [`DotLevel`] this CPU has,
/// the others the scalar loop.
macro_rules! dot_entry {
    ($symbol:ident, $level:expr) => {
        crate::entry::entry_point!(
            /// # Safety
            /// As [`run_dot`], for the tile the arguments describe.
            $symbol,
            u16,
            |t| {
                let rows = OutRows { count: t.out_rows, x: t.x_out_row, o: t.o_out_row };
                // SAFETY: the caller's contract; the level runs on this CPU.
                unsafe { run_dot_rows($level, &DotTile::from(t), rows) }
            }
        );
    };
}

dot_entry!(tcc_uk_dot_sse, DotLevel::Scalar);
dot_entry!(tcc_uk_dot_avx2, DotLevel::Scalar);
dot_entry!(tcc_uk_dot_avx512, best_avx512());

/// The best level of an AVX-512 CPU (the AVX-512 entry runs only on those), detected
/// once.
fn best_avx512() -> DotLevel {
    static BEST: std::sync::OnceLock<DotLevel> = std::sync::OnceLock::new();
    *BEST.get_or_init(DotLevel::host_best)
}

/// The entry point of `isa`'s dot tile, for a JIT's symbol table.
pub fn dot_entry(isa: crate::Isa) -> *const u8 {
    match isa {
        crate::Isa::Sse => tcc_uk_dot_sse as *const u8,
        crate::Isa::Avx2 => tcc_uk_dot_avx2 as *const u8,
        crate::Isa::Avx512 => tcc_uk_dot_avx512 as *const u8,
    }
}

/// The iterations of the levels: `(x offset, w offset)` of each, outermost first.
fn level_offsets(levels: &[Level; 3]) -> impl Iterator<Item = (isize, isize)> + '_ {
    let [l2, l1, l0] = levels;
    (0..l2.count).flat_map(move |i2| {
        (0..l1.count).flat_map(move |i1| {
            (0..l0.count).map(move |i0| {
                let x = i2 * l2.x + i1 * l1.x + i0 * l0.x;
                let w = i2 * l2.w + i1 * l1.w + i0 * l0.w;
                (x as isize, w as isize)
            })
        })
    })
}

fn widen(h: u16) -> f32 {
    f32::from_bits((h as u32) << 16)
}

/// The definition, one element at a time: any CPU, and the tests' reference.
///
/// # Safety
/// As [`run_dot`].
pub unsafe fn scalar(t: &DotTile) {
    // SAFETY: the caller's contract.
    unsafe { definition(t, None) }
}

/// What AMX computes for `t` ([`amx`]): per iteration of the levels, the pairs in
/// chunks of [`amx_chunk`]`(pairs)` (one `tdpbf16ps` each); in a chunk, the even
/// elements' products summed in order from zero, the odd ones' likewise, then the
/// accumulator plus (even sum + odd sum). The tests' reference for the AMX level.
///
/// # Safety
/// As [`run_dot`].
pub unsafe fn amx_definition(t: &DotTile) {
    // SAFETY: the caller's contract.
    unsafe { definition(t, Some(amx_chunk(t.pairs))) }
}

/// The pairs one `tdpbf16ps` takes of a reduction step of `pairs`: the largest divisor
/// of `pairs` up to 16 (a chunk never straddles two iterations of the levels).
pub fn amx_chunk(pairs: i64) -> i64 {
    (1..=pairs.clamp(1, 16)).rev().find(|k| pairs % k == 0).unwrap_or(1)
}

/// The definition's sums in one order (`chunk`: None, or AMX's chunks).
///
/// # Safety
/// As [`run_dot`].
unsafe fn definition(t: &DotTile, chunk: Option<i64>) {
    let e = &t.epilogue;
    // SAFETY: the caller's contract.
    unsafe {
        for r in 0..t.rows as isize {
            for v in 0..t.vectors as isize {
                let (wv, ov, bv) = t.vector_offsets(v);
                for l in 0..LANES as isize {
                    let at = r * t.o_row as isize + ov + l;
                    let mut acc = if t.accumulate { *t.o.offset(at) } else { 0.0 };
                    for (xl, wl) in level_offsets(&t.levels) {
                        let (mut even, mut odd) = (0.0f32, 0.0f32);
                        for j in 0..t.pairs as isize {
                            let xi = t.x.offset(r * t.x_row as isize + xl + 2 * j);
                            let wi = t.w.offset(wv + wl + j * t.w_step as isize + 2 * l);
                            let Some(chunk) = chunk else {
                                acc += widen(*xi.add(1)) * widen(*wi.add(1));
                                acc += widen(*xi) * widen(*wi);
                                continue;
                            };
                            even += widen(*xi) * widen(*wi);
                            odd += widen(*xi.add(1)) * widen(*wi.add(1));
                            if (j + 1) as i64 % chunk == 0 {
                                acc += even + odd;
                                (even, odd) = (0.0, 0.0);
                            }
                        }
                    }
                    let channel = if e.bias_row != 0 { r * e.bias_row as isize } else { bv + l };
                    if !e.bias.is_null() {
                        acc += *e.bias.offset(channel);
                    }
                    if !e.mask.is_null() && *e.mask.offset(channel) <= 0.0 {
                        acc = 0.0;
                    }
                    if !e.residual.is_null() {
                        acc += t.residual(r * t.o_row as isize + ov + l);
                    }
                    match e.activation {
                        Activation::None => {}
                        Activation::Sigmoid => acc = crate::sigmoid::sigmoid(acc),
                        Activation::Silu => acc *= crate::sigmoid::sigmoid(acc),
                    }
                    let v = clamp(acc, e.lo, e.hi);
                    if t.narrow {
                        *t.o.cast::<u16>().offset(at) = narrow(v);
                    } else {
                        *t.o.offset(at) = v;
                    }
                }
            }
        }
    }
}

/// `x` rounded to bf16, to nearest even (a NaN stays a NaN, made quiet): the bits
/// `graph.cast` gives.
pub fn narrow(x: f32) -> u16 {
    let bits = x.to_bits();
    if x.is_nan() {
        return ((bits | 0x0040_0000) >> 16) as u16;
    }
    ((bits + 0x7fff + ((bits >> 16) & 1)) >> 16) as u16
}

/// `x` clamped to `[lo, hi]`, NaN kept.
fn clamp(x: f32, lo: f32, hi: f32) -> f32 {
    if x.is_nan() { x } else { x.max(lo).min(hi) }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
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
    /// clamp (whatever its bounds: infinite ones change nothing), then stored as bf16
    /// with `NARROW`.
    ///
    /// # Safety
    /// As [`finish_vector`]'s.
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub(super) unsafe fn finish_plain<const RESIDUAL: u8, const NARROW: bool>(
        t: &DotTile,
        v: __m512,
        row: isize,
        ov: isize,
        bias: __m512,
        o: *mut f32,
        at: isize,
    ) {
        let e = &t.epilogue;
        // SAFETY: the caller's.
        unsafe {
            let mut v = _mm512_add_ps(v, bias);
            let residual_at = row * t.o_row as isize + ov;
            if RESIDUAL == F32_RESIDUAL {
                v = _mm512_add_ps(v, _mm512_loadu_ps(e.residual.offset(residual_at)));
            } else if RESIDUAL == BF16_RESIDUAL {
                let bits = _mm256_loadu_si256(e.residual.cast::<u16>().offset(residual_at).cast());
                v = _mm512_add_ps(v, _mm512_castsi512_ps(_mm512_slli_epi32::<16>(_mm512_cvtepu16_epi32(bits))));
            }
            let v = _mm512_min_ps(_mm512_set1_ps(e.hi), _mm512_max_ps(_mm512_set1_ps(e.lo), v));
            if NARROW {
                _mm256_storeu_si256(o.cast::<u16>().offset(at).cast(), narrow(v));
            } else {
                _mm512_storeu_ps(o.offset(at), v);
            }
        }
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
                let at = row * t.o_row as isize + ov;
                let residual = if t.bf16_residual {
                    let bits = _mm256_loadu_si256(e.residual.cast::<u16>().offset(at).cast());
                    _mm512_castsi512_ps(_mm512_slli_epi32::<16>(_mm512_cvtepu16_epi32(bits)))
                } else {
                    _mm512_loadu_ps(e.residual.offset(at))
                };
                v = _mm512_add_ps(v, residual);
            }
            match e.activation {
                Activation::None => {}
                Activation::Sigmoid => v = crate::sigmoid::sigmoid512(v),
                Activation::Silu => v = _mm512_mul_ps(v, crate::sigmoid::sigmoid512(v)),
            }
            // max then min with the value as the second operand: NaN comes through.
            let v = _mm512_min_ps(_mm512_set1_ps(e.hi), _mm512_max_ps(_mm512_set1_ps(e.lo), v));
            if t.narrow {
                _mm256_storeu_si256(o.cast::<u16>().offset(at).cast(), narrow(v));
            } else {
                _mm512_storeu_ps(o.offset(at), v);
            }
        }
    }
}
