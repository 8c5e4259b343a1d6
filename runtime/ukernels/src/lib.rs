//! tcc's microkernels: the inner register tiles of the blocked convolution and packed
//! matmul templates, compiled ahead of time by rustc once per x86 ISA level and called
//! by generated code (IREE's ukernels, MLAS's and XNNPACK's kernels are built the same
//! way). Code generators that cannot emit wide vectors (Cranelift: 128 bits) keep the
//! loops, edges, packing and epilogues and call a microkernel for each interior tile.
//!
//! One kernel shape covers both templates: a **broadcast tile** of `rows` x `vectors`
//! accumulators. Step `j` of the reduction loads `vectors` weight vectors and, for each
//! row, broadcasts one input element and issues one FMA per vector. The reduction is
//! three strided levels around a contiguous inner loop ([`Tile`]), which is how a
//! convolution walks its input-channel blocks, kernel rows and kernel columns, and how a
//! matmul walks `k`. Accumulators start at zero or from the output (partial sums of an
//! earlier pass) and are stored once, after the common epilogues in registers (bias,
//! residual, clamp: [`Epilogue`]; the bias is per vector, or per row when rows are
//! channels and vectors pixels, as in the row template of narrow groups).
//!
//! [`Isa`] (from `tcc-runtime-abi`, where the compiler reads it too) names the levels;
//! [`Isa::host_best`] is the best this CPU runs. The entry points `tcc_uk_tile_<isa>`
//! (C ABI, one per level) take a tile's fields as arguments; [`run`] is the same from
//! Rust. A tile larger than the level's register file is split into register-sized
//! sub-tiles. [`peak`] measures each level's FMA ceiling. [`dot`] is the bf16 tile
//! (pairs of bf16 inputs and weights into f32 accumulators), for reduced precision,
//! with entry points `tcc_uk_dot_<isa>` taking the same arguments.

pub mod column_sums;
pub mod dot;
mod entry;
pub mod math;
pub mod peak;
pub mod sigmoid;
pub mod tile;

pub use tcc_runtime_abi::Isa;
pub use tile::{Activation, Epilogue, Level, Reduce, Tile};

/// The entry point of `isa`'s broadcast tile, for a JIT's symbol table.
pub fn tile_entry(isa: Isa) -> *const u8 {
    match isa {
        Isa::Sse => tile::sse::tcc_uk_tile_sse as *const u8,
        Isa::Avx2 => tile::avx2::tcc_uk_tile_avx2 as *const u8,
        Isa::Avx512 => tile::avx512::tcc_uk_tile_avx512 as *const u8,
    }
}

/// Runs `tile` with the microkernel of `isa`.
///
/// # Safety
/// `isa` must be supported by this CPU, and every address the tile reaches (see
/// [`Tile`]) must be valid: readable for `x` and `w`, readable and writable for `o`.
pub unsafe fn run(isa: Isa, tile: &Tile) {
    // SAFETY: the caller's contract.
    unsafe {
        match isa {
            Isa::Sse => tile::sse::run(tile),
            Isa::Avx2 => tile::avx2::run(tile),
            Isa::Avx512 => tile::avx512::run(tile),
        }
    }
}

/// The microkernel entry points by symbol, for a JIT's symbol table.
pub fn symbols() -> Vec<(&'static str, *const u8)> {
    let tiles = Isa::ALL.iter().map(|&i| (i.tile_symbol(), tile_entry(i)));
    let dots = Isa::ALL.iter().map(|&i| (i.dot_symbol(), dot::dot_entry(i)));
    tiles.chain(dots).chain(wide_level_entries()).collect()
}

/// The entry points only the AVX2 and AVX-512 levels have, by symbol: the array math
/// ([`math`]) and the column sums ([`column_sums`]).
fn wide_level_entries() -> Vec<(&'static str, *const u8)> {
    #[cfg(target_arch = "x86_64")]
    {
        let entry = |symbol: Option<&'static str>, f: *const u8| symbol.map(|s| (s, f));
        [
            entry(Isa::Avx2.math_symbol(), math::avx2::tcc_uk_math_avx2 as *const u8),
            entry(Isa::Avx512.math_symbol(), math::avx512::tcc_uk_math_avx512 as *const u8),
            entry(Isa::Avx2.column_sums_symbol(), column_sums::avx2::tcc_uk_column_sums_avx2 as *const u8),
            entry(Isa::Avx512.column_sums_symbol(), column_sums::avx512::tcc_uk_column_sums_avx512 as *const u8),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
    #[cfg(not(target_arch = "x86_64"))]
    Vec::new()
}
