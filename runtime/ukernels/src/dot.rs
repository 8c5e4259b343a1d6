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
mod x86;
