//! The broadcast tile's dispatch for one ISA level, as a macro that each level's module
//! expands: the kernel tables by mode, vectors and rows, the plans that pick a kernel
//! for a tile (square and window kernels for depthwise convolutions, shared-rows
//! kernels for the row template's channel multipliers, the broadcast
//! kernels with constant strides when rows are one vector apart), `run`, which splits a
//! tile into balanced sub-tiles the register file holds, and the C entry point.

macro_rules! tile_dispatch {
    ($registers:expr, $symbol:ident) => {
        /// The most rows of a sub-tile of `c` vectors: accumulators, weight
        /// vectors, a broadcast and [`tcc_runtime_abi::TILE_SPARE_REGISTERS`] fit the
        /// register file.
        fn max_rows(c: usize) -> usize {
            MOST_ROWS[c]
        }

        /// [`max_rows`] by vectors.
        const MOST_ROWS: [usize; MAX_VECTORS as usize + 1] = {
            const fn rows(c: usize) -> usize {
                let r = (($registers as usize) - c - 1 - tcc_runtime_abi::TILE_SPARE_REGISTERS) / c;
                if r < 1 {
                    1
                } else if r > MAX_ROWS {
                    MAX_ROWS
                } else {
                    r
                }
            }
            [0, rows(1), rows(2), rows(3), rows(4)]
        };

        /// The window kernels' steps (3x3 and 5x5 depthwise kernels' rows), and
        /// by steps, vectors and rows the kernels.
        const WINDOW_STEPS: [i64; 2] = [3, 5];
        static WINDOWS: [[[Kernel; WINDOW_ROWS]; MAX_VECTORS as usize]; 2] = [
            [
                rows_1_to_8!(window, 1, 3; window_rows(3)),
                rows_1_to_8!(window, 2, 3; window_rows(3)),
                rows_1_to_8!(window, 3, 3; window_rows(3)),
                rows_1_to_8!(window, 4, 3; window_rows(3)),
            ],
            [
                rows_1_to_8!(window, 1, 5; window_rows(5)),
                rows_1_to_8!(window, 2, 5; window_rows(5)),
                rows_1_to_8!(window, 3, 5; window_rows(5)),
                rows_1_to_8!(window, 4, 5; window_rows(5)),
            ],
        ];

        /// The square kernels, by steps (3 and 5, as [`WINDOW_STEPS`]), stride (1
        /// and 2) and rows.
        static SQUARES: [[[SquareKernel; SQUARE_ROWS]; 2]; 2] = [
            [rows_1_to_12!(square, 3, 1, false; square_most(3)), rows_1_to_12!(square, 3, 2, false; square_most(3))],
            [rows_1_to_12!(square, 5, 1, false; square_most(5)), rows_1_to_12!(square, 5, 2, false; square_most(5))],
        ];
        /// [`SQUARES`] for a plain epilogue ([`plain_epilogue`]).
        static PLAIN_SQUARES: [[[SquareKernel; SQUARE_ROWS]; 2]; 2] = [
            [rows_1_to_12!(square, 3, 1, true; square_most(3)), rows_1_to_12!(square, 3, 2, true; square_most(3))],
            [rows_1_to_12!(square, 5, 1, true; square_most(5)), rows_1_to_12!(square, 5, 2, true; square_most(5))],
        ];

        /// The most rows of a square sub-tile over `j` steps: the accumulators, a
        /// kernel row's weights and the few input vectors live at a time fit the
        /// registers, and at most [`SQUARE_ROWS`]; none if fewer than 4 would.
        fn square_rows(j: usize) -> Option<usize> {
            let r = square_most(j);
            (r >= 4).then_some(r)
        }

        /// [`square_rows`] before its lower limit.
        const fn square_most(j: usize) -> usize {
            let r = ($registers as usize).saturating_sub(j + 5);
            if r < SQUARE_ROWS { r } else { SQUARE_ROWS }
        }

        /// The most rows of a window sub-tile over `j` steps: a vector's
        /// accumulators, the step's weights and an input vector fit the registers,
        /// and at most [`WINDOW_ROWS`] (LLVM does not unroll a longer loop over the
        /// inputs, and its accumulators would then live in memory).
        const fn window_rows(j: usize) -> usize {
            let r = ($registers as usize).saturating_sub(j + 1);
            if r < 1 {
                1
            } else if r > WINDOW_ROWS {
                WINDOW_ROWS
            } else {
                r
            }
        }

        /// The shared-rows kernels (3 x 3 kernels), by channels (1 and 2) and output
        /// rows.
        static SHARED: [[Kernel; SHARED_ROWS]; 2] = [rows_1_to_8!(shared_rows, 1, 3; shared_rows_most(1)), rows_1_to_8!(shared_rows, 2, 3; shared_rows_most(2))];

        /// The most output rows of a shared-rows kernel of `channels` channels: its
        /// accumulators, the channels' nine weights and an input vector fit the
        /// registers with five to spare for the epilogue, and at most
        /// [`SHARED_ROWS`]; 0 if fewer than 2 would. (Two channels in 4 rows on
        /// AVX-512: 135-145 GFLOP/s alone in L1 on Zen 5, in 5 rows 107-112, in 6
        /// rows, which spilled, 94-115; 1 channel in 8 rows 88.)
        const fn shared_rows_most(channels: usize) -> usize {
            let r = ($registers as usize).saturating_sub(6 + 9 * channels) / channels;
            if r < 2 {
                0
            } else if r > SHARED_ROWS {
                SHARED_ROWS
            } else {
                r
            }
        }

        /// Whether `t` is a row template's tile that the shared-rows kernels compute:
        /// broadcast weights over pixel vectors, one input channel (a channel
        /// multiplier), a 3 x 3 kernel (three kernel rows around three steps), each
        /// kernel row as far from the next in the input as each vector group (an
        /// output row) from the next, several output rows. (Narrow groups of several
        /// input channels stay with [`kernel`], whose rows reuse each pixel load for
        /// more channels: 3 groups of 40 at 56 pixels ran at 72% of the 512-bit peak
        /// there, at 50% here.)
        fn shared_rows_plan(t: &Tile) -> bool {
            let [l2, l1, l0] = t.levels;
            let rows_apart = l1.w == t.w_group && t.group_vectors > 0 && t.vectors % t.group_vectors == 0;
            !t.x_vector
                && t.reduce == super::Reduce::Fma
                && l2.count == 1
                && l0.count == 1
                && l1.count == 3
                && t.inner == 3
                && rows_apart
                && t.vectors / t.group_vectors >= 2
                && shared_rows_most(1) > 0
        }

        /// By mode ([`BROADCAST`], [`VECTOR`], [`MAX`], [`SUM`],
        /// [`BROADCAST_UNIT`]), vectors and rows.
        static KERNELS: [[[Kernel; MAX_ROWS]; MAX_VECTORS as usize]; 5] = [
            [
                rows_1_to_16!(kernel, 1, 0; MOST_ROWS[1]),
                rows_1_to_16!(kernel, 2, 0; MOST_ROWS[2]),
                rows_1_to_16!(kernel, 3, 0; MOST_ROWS[3]),
                rows_1_to_16!(kernel, 4, 0; MOST_ROWS[4]),
            ],
            [
                rows_1_to_16!(kernel, 1, 1; MOST_ROWS[1]),
                rows_1_to_16!(kernel, 2, 1; MOST_ROWS[2]),
                rows_1_to_16!(kernel, 3, 1; MOST_ROWS[3]),
                rows_1_to_16!(kernel, 4, 1; MOST_ROWS[4]),
            ],
            [
                rows_1_to_16!(kernel, 1, 2; MOST_ROWS[1]),
                rows_1_to_16!(kernel, 2, 2; MOST_ROWS[2]),
                rows_1_to_16!(kernel, 3, 2; MOST_ROWS[3]),
                rows_1_to_16!(kernel, 4, 2; MOST_ROWS[4]),
            ],
            [
                rows_1_to_16!(kernel, 1, 3; MOST_ROWS[1]),
                rows_1_to_16!(kernel, 2, 3; MOST_ROWS[2]),
                rows_1_to_16!(kernel, 3, 3; MOST_ROWS[3]),
                rows_1_to_16!(kernel, 4, 3; MOST_ROWS[4]),
            ],
            [
                rows_1_to_16!(kernel, 1, 4; MOST_ROWS[1]),
                rows_1_to_16!(kernel, 2, 4; MOST_ROWS[2]),
                rows_1_to_16!(kernel, 3, 4; MOST_ROWS[3]),
                rows_1_to_16!(kernel, 4, 4; MOST_ROWS[4]),
            ],
        ];

        /// Whether `t` is a depthwise convolution's interior that a square kernel
        /// computes: its step count (as an index of [`WINDOW_STEPS`]), its stride
        /// (an index: 1 or 2) and the most rows of its sub-tiles.
        fn square_plan(t: &Tile) -> Option<(usize, usize, usize)> {
            let [l2, l1, l0] = t.levels;
            if !t.x_vector || t.reduce != super::Reduce::Fma || l2.count != 1 || l1.count != 1 {
                return None;
            }
            let j = WINDOW_STEPS.iter().position(|&j| j == t.inner && j == l0.count)?;
            // Steps, weights and output rows one vector apart, kernel rows `inner`
            // steps apart in the weights.
            let vector_apart = t.x_step == LANES && t.w_step == LANES && t.o_row == LANES;
            if !vector_apart || l0.w != t.inner * LANES {
                return None;
            }
            let stride = [1, 2].iter().position(|&s| t.x_row == s * t.x_step)?;
            Some((j, stride, square_rows(t.inner as usize)?))
        }

        /// The input, output and the epilogue's per-row pointers of the sub-tile
        /// from row `r0`.
        ///
        /// # Safety
        /// Row `r0` is in the tile.
        unsafe fn sub_tile(t: &Tile, r0: i64) -> (*const f32, *mut f32, [*const f32; 2]) {
            let rows = r0 as isize * t.o_row as isize;
            let e = &t.epilogue;
            // SAFETY: the caller's contract.
            unsafe {
                let residual = if e.residual.is_null() { e.residual } else { e.residual.offset(rows) };
                let row_bias = if e.bias_row == 0 || e.bias.is_null() {
                    e.bias
                } else {
                    e.bias.offset(r0 as isize * e.bias_row as isize)
                };
                (t.x.offset(r0 as isize * t.x_row as isize), t.o.offset(rows), [residual, row_bias])
            }
        }

        /// Runs `t`, split into sub-tiles the register file holds.
        ///
        /// # Safety
        /// The CPU supports this level; the tile's addresses are valid.
        pub unsafe fn run(t: &Tile) {
            if t.out_rows == 0 {
                return;
            }
            // A depthwise convolution's interior: the square kernels, a vector at
            // a time.
            if let Some((j, stride, most)) = square_plan(t) {
                let squares = if plain_epilogue(t) { &PLAIN_SQUARES } else { &SQUARES };
                for (r0, rs, chunks) in balanced_runs(t.rows, most as i64) {
                    // SAFETY: as below.
                    unsafe {
                        let (x, o, rows_at) = sub_tile(t, r0);
                        squares[j][stride][rs as usize - 1](t, x, t.w, o, rows_at, chunks as usize);
                    }
                }
                return;
            }
            // One row of vector inputs over many vectors (a depthwise convolution's
            // edge column): one call for all of them.
            if t.rows == 1 && t.x_vector && t.reduce == super::Reduce::Fma && (t.vectors > MAX_VECTORS || t.out_rows > 1) {
                // SAFETY: as below.
                unsafe {
                    let (x, o, rows_at) = sub_tile(t, 0);
                    column(t, x, t.w, o, rows_at);
                }
                return;
            }
            // One broadcast row over several output rows (a convolution's edge column
            // down its rows): the output rows are the tile's rows, so that they share
            // each weight load and their sums are independent chains (one at a time,
            // each row waited for its FMAs' latency).
            if t.out_rows > 1 && t.rows == 1 && !t.x_vector && t.epilogue.bias_row == 0 {
                let rows = Tile { rows: t.out_rows, x_row: t.x_out_row, o_row: t.o_out_row, out_rows: 1, ..*t };
                // SAFETY: the same addresses: row `i` of `rows` is output row `i` of `t`.
                unsafe { run(&rows) };
                return;
            }
            // Other tiles one output row at a time.
            if t.out_rows > 1 {
                for i in 0..t.out_rows {
                    // SAFETY: the caller's contract, for each output row.
                    unsafe { run(&t.out_row(i)) };
                }
                return;
            }
            // A row template's channels over several output rows: the shared-rows
            // kernels, two channels (or one) and a vector at a time.
            if shared_rows_plan(t) {
                let lanes = LANES as isize;
                let groups = t.vectors / t.group_vectors;
                let pair = if shared_rows_most(2) > 0 { 2 } else { 1 };
                for q in 0..t.group_vectors as isize {
                    let mut r0 = 0;
                    while r0 < t.rows {
                        let channels = (t.rows - r0).min(pair) as usize;
                        for (g, rs, count) in balanced_runs(groups, shared_rows_most(channels) as i64) {
                            let g = g as isize;
                            let at = Offsets {
                                x: [0; 4],
                                w: [0; 4],
                                o: [g * t.o_group as isize + q * lanes, 0, 0, 0],
                                bias: [g * t.epilogue.bias_group as isize + q * lanes, 0, 0, 0],
                            };
                            let kernel = SHARED[channels - 1][rs as usize - 1];
                            // SAFETY: the caller's contract; sub-tiles stay inside the tile.
                            unsafe {
                                let (x, o, rows_at) = sub_tile(t, r0);
                                let w = t.w.offset(g * t.w_group as isize + q * lanes);
                                kernel(t, x, w, o, rows_at, &at, count as usize);
                            }
                        }
                        r0 += channels as i64;
                    }
                }
                return;
            }
            let mut walk = VectorWalk::default();
            for (_, vs) in balanced(t.vectors, MAX_VECTORS) {
                let at = walk.next(t, vs as usize);
                // Vector inputs a step apart as rows are: the window kernels.
                let window = (t.x_vector && t.reduce == super::Reduce::Fma && t.x_step == t.x_row)
                    .then(|| WINDOW_STEPS.iter().position(|&j| j == t.inner))
                    .flatten();
                let most = match window {
                    Some(i) => window_rows(WINDOW_STEPS[i] as usize),
                    None => max_rows(vs as usize),
                };
                let unit = t.x_row == LANES && t.o_row == LANES && t.w_step == LANES;
                let mode = match t.reduce {
                    super::Reduce::Fma if t.x_vector => VECTOR,
                    super::Reduce::Fma if unit => BROADCAST_UNIT,
                    super::Reduce::Fma => BROADCAST,
                    super::Reduce::Max => MAX,
                    super::Reduce::Sum => SUM,
                } as usize;
                // The balanced sub-tiles are of two heights: one call for each. The
                // first sub-tile asks for the next weights ([`Tile::prefetch`]).
                let later = Tile { prefetch: 0, ..*t };
                for (r0, rs, chunks) in balanced_runs(t.rows, most as i64) {
                    let kernel = match window {
                        Some(i) => WINDOWS[i][vs as usize - 1][rs as usize - 1],
                        None => KERNELS[mode][vs as usize - 1][rs as usize - 1],
                    };
                    let t = if r0 == 0 { t } else { &later };
                    // SAFETY: the caller's contract; sub-tiles stay inside the tile.
                    unsafe {
                        let (x, o, rows_at) = sub_tile(t, r0);
                        kernel(t, x, t.w, o, rows_at, &at, chunks as usize);
                    }
                }
            }
        }

        crate::entry::entry_point!(
            /// The C entry point: [`Tile`]'s fields in order, the levels and the
            /// epilogue flattened (its bounds as f32 bits), as
            /// `tcc_runtime_abi::TILE_ARGUMENTS` lists them.
            ///
            /// # Safety
            /// As [`run`].
            $symbol,
            f32,
            |t| {
                // SAFETY: the caller's contract.
                unsafe { run(&t) }
            }
        );
    };
}
