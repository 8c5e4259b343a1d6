//! The microkernels' C entry points, said once: every entry point (`tcc_uk_tile_<isa>`,
//! `tcc_uk_dot_<isa>`) takes the 38 integer-register arguments that
//! `tcc_runtime_abi::TILE_ARGUMENTS` lists, in that order, which [`entry_point!`]
//! declares and gathers into a [`crate::Tile`] (the levels and the epilogue as their
//! structs, the clamp's bounds from their f32 bits, the reduction as its enum, the
//! output's bits as flags).

/// `entry_point!(symbol, T, |tile| body)`: a `#[no_mangle] extern "C"` function
/// `symbol` taking the entry points' arguments (input and weights as `*const T`),
/// which runs `body` with them gathered in `tile: Tile<T>`. Safety: as the tile the
/// arguments describe (the caller's contract).
macro_rules! entry_point {
    ($(#[$attr:meta])* $symbol:ident, $elem:ty, |$args:ident| $body:expr) => {
        $(#[$attr])*
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $symbol(
            x: *const $elem,
            w: *const $elem,
            o: *mut f32,
            rows: i64,
            vectors: i64,
            output: i64,
            x_row: i64,
            o_row: i64,
            group_vectors: i64,
            w_group: i64,
            o_group: i64,
            inner: i64,
            w_step: i64,
            n2: i64,
            x2: i64,
            w2: i64,
            n1: i64,
            x1: i64,
            w1: i64,
            n0: i64,
            x0: i64,
            w0: i64,
            prefetch: i64,
            bias: *const f32,
            bias_group: i64,
            bias_row: i64,
            mask: *const f32,
            residual: *const f32,
            lo: i64,
            hi: i64,
            x_vector: i64,
            x_step: i64,
            x_group: i64,
            reduce: i64,
            divisor: i64,
            out_rows: i64,
            x_out_row: i64,
            o_out_row: i64,
        ) {
            use $crate::tile::{Activation, Epilogue, Level, Reduce};
            // The bounds come as the bits of f32s in integer registers (every argument
            // of the generated call is an integer).
            let (lo, hi) = (f32::from_bits(lo as u32), f32::from_bits(hi as u32));
            let $args = $crate::tile::Tile::<$elem> {
                x,
                w,
                o,
                rows,
                vectors,
                accumulate: output & tcc_runtime_abi::OUTPUT_ACCUMULATE != 0,
                narrow: output & tcc_runtime_abi::OUTPUT_BF16 != 0,
                bf16_residual: output & tcc_runtime_abi::OUTPUT_BF16_RESIDUAL != 0,
                x_row,
                o_row,
                group_vectors: group_vectors.max(1),
                w_group,
                o_group,
                inner,
                w_step,
                levels: [
                    Level { count: n2, x: x2, w: w2 },
                    Level { count: n1, x: x1, w: w1 },
                    Level { count: n0, x: x0, w: w0 },
                ],
                prefetch,
                epilogue: Epilogue {
                    bias,
                    bias_group,
                    bias_row,
                    mask,
                    residual,
                    lo,
                    hi,
                    activation: Activation::from_output(output),
                },
                x_vector: x_vector != 0,
                x_step,
                x_group,
                reduce: Reduce::from_code(reduce).unwrap_or(Reduce::Fma),
                divisor,
                out_rows: out_rows.max(0),
                x_out_row,
                o_out_row,
            };
            $body
        }
    };
}

pub(crate) use entry_point;
