//! The broadcast tile's kernels for one ISA level, as a macro that each level's module
//! expands over its vector type and intrinsics: `kernel` keeps `R x C`
//! accumulators in registers over a whole reduction (broadcast or vector inputs, FMA,
//! max or sum), `window` and `square` load each input vector of a depthwise
//! convolution's kernel row once for all the accumulators that read it, `column` runs
//! a depthwise convolution's edge columns over many vectors, `shared_rows`
//! does the same for the row template's channel multipliers, and `finish`
//! applies the divisor and the epilogue in registers and stores (`finish_plain` a
//! plain epilogue, a bias and the clamp, with no condition between its steps: behind
//! `finish`'s conditions the accumulators went through memory). Every kernel runs
//! `chunks` sub-tiles of its rows, one after another, per call.

macro_rules! tile_kernels {
    (
        $feature:literal, $vec:ty, $zero:path, $load:path, $store:path, $splat:path, $fma:expr,
        $add:path, $max:path, $min:path, $nan_max:path, $div:path, $keep_above_zero:path, $mul:path,
        $sigmoid:path
    ) => {
        /// The input, output, residual and row bias `x`, `o` (the residual as the
        /// output) and `bias` elements past `x`, `o` and `rows_at`.
        #[inline(always)]
        fn moved(
            (x, o, bias): (isize, isize, isize),
            xp: *const f32,
            op: *mut f32,
            [residual, row_bias]: [*const f32; 2],
        ) -> (*const f32, *mut f32, [*const f32; 2]) {
            // (A null residual stays null: it means none.)
            let residual = if residual.is_null() { residual } else { residual.wrapping_offset(o) };
            (xp.wrapping_offset(x), op.wrapping_offset(o), [residual, row_bias.wrapping_offset(bias)])
        }

        /// Sub-tile `i`'s input, output, residual and row bias (each `i * R` rows past
        /// the first's).
        #[inline(always)]
        fn chunk<const R: usize>(
            t: &Tile,
            i: usize,
            x: *const f32,
            o: *mut f32,
            rows_at: [*const f32; 2],
        ) -> (*const f32, *mut f32, [*const f32; 2]) {
            let rows = (i * R) as isize;
            let strides = (t.x_row as isize, t.o_row as isize, t.epilogue.bias_row as isize);
            moved((rows * strides.0, rows * strides.1, rows * strides.2), x, o, rows_at)
        }

        /// Output row `i`'s input, output, residual and row bias ([`Tile::out_rows`]).
        #[inline(always)]
        fn out_row_at(
            t: &Tile,
            i: i64,
            x: *const f32,
            o: *mut f32,
            rows_at: [*const f32; 2],
        ) -> (*const f32, *mut f32, [*const f32; 2]) {
            moved(((i * t.x_out_row) as isize, (i * t.o_out_row) as isize, 0), x, o, rows_at)
        }

        /// `R x C` accumulators over the whole reduction, through the epilogue into
        /// `o` (`rows_at` are the epilogue's residual and, with a bias per row, its
        /// bias, at the sub-tile's first row), for each of `chunks` sub-tiles.
        #[target_feature(enable = $feature)]
        unsafe fn kernel<const R: usize, const C: usize, const M: u8>(
            t: &Tile,
            x: *const f32,
            w: *const f32,
            o: *mut f32,
            rows_at: [*const f32; 2],
            at: &Offsets,
            chunks: usize,
        ) {
            for i in 0..chunks {
                let (x, o, rows_at) = chunk::<R>(t, i, x, o, rows_at);
                // Only the first sub-tile asks for the weights to come: the others read
                // the same weights.
                let prefetch = if i == 0 { t.prefetch } else { 0 };
                // SAFETY: the caller's contract, for each sub-tile.
                unsafe { kernel_chunk::<R, C, M>(t, x, w, o, rows_at, at, prefetch) };
            }
        }

        /// One sub-tile of [`kernel`], asking for the weights `prefetch` elements past
        /// the ones it reads to be brought into L2 (none for 0).
        #[target_feature(enable = $feature)]
        #[inline]
        unsafe fn kernel_chunk<const R: usize, const C: usize, const M: u8>(
            t: &Tile,
            x: *const f32,
            w: *const f32,
            o: *mut f32,
            [residual, row_bias]: [*const f32; 2],
            at: &Offsets,
            prefetch: i64,
        ) {
            let (wo, oo) = (&at.w, &at.o);
            // Unit strides are constants: the rows' addresses are then offsets
            // from one register, not one register (or address computation) each.
            let (x_row, o_row, w_step) = if M == BROADCAST_UNIT {
                (LANES as isize, LANES as isize, LANES as isize)
            } else {
                (t.x_row as isize, t.o_row as isize, t.w_step as isize)
            };
            let prefetch = prefetch as isize;
            let prefetch_bytes = prefetch * 4;
            let x_step = t.x_step as isize;
            // SAFETY: the tile's addresses are valid (the caller's contract).
            unsafe {
                let init = if M == MAX { $splat(f32::NEG_INFINITY) } else { $zero() };
                let mut acc = [[init; C]; R];
                if t.accumulate {
                    for r in 0..R {
                        for c in 0..C {
                            acc[r][c] = $load(o.offset(r as isize * o_row + oo[c]));
                        }
                    }
                }
                let [l2, l1, l0] = t.levels;
                for i2 in 0..l2.count as isize {
                    for i1 in 0..l1.count as isize {
                        for i0 in 0..l0.count as isize {
                            let xp = x.offset(i2 * l2.x as isize + i1 * l1.x as isize + i0 * l0.x as isize);
                            let mut wp = w.offset(i2 * l2.w as isize + i1 * l1.w as isize + i0 * l0.w as isize);
                            for j in 0..t.inner as isize {
                                if M == MAX || M == SUM {
                                    for c in 0..C {
                                        let xq = xp.offset(at.x[c] + j * x_step);
                                        for r in 0..R {
                                            let v = $load(xq.offset(r as isize * x_row));
                                            acc[r][c] =
                                                if M == MAX { $nan_max(acc[r][c], v) } else { $add(acc[r][c], v) };
                                        }
                                    }
                                    continue;
                                }
                                if prefetch != 0 {
                                    for c in 0..C {
                                        prefetch_l2(wp.offset(wo[c]), prefetch_bytes);
                                    }
                                }
                                let mut wv = [$zero(); C];
                                for c in 0..C {
                                    wv[c] = $load(wp.offset(wo[c]));
                                }
                                if M == VECTOR {
                                    for c in 0..C {
                                        let xq = xp.offset(at.x[c] + j * x_step);
                                        for r in 0..R {
                                            let v = $load(xq.offset(r as isize * x_row));
                                            acc[r][c] = $fma(v, wv[c], acc[r][c]);
                                        }
                                    }
                                } else {
                                    for r in 0..R {
                                        let b = $splat(*xp.offset(r as isize * x_row + j));
                                        for c in 0..C {
                                            acc[r][c] = $fma(b, wv[c], acc[r][c]);
                                        }
                                    }
                                }
                                wp = wp.offset(w_step);
                            }
                        }
                    }
                }
                // A plain epilogue apart, and none at all: their paths have no
                // condition, so the accumulators stay in registers on them (with the
                // general path's conditions, LLVM spilled some around the stores).
                if plain_epilogue(t) {
                    finish_plain::<R, C>(t, &acc, o, o_row, at);
                } else if no_epilogue(t) {
                    store_tile::<R, C>(&acc, o, o_row, at);
                } else {
                    finish::<R, C>(t, acc, o, o_row, [residual, row_bias], at);
                }
            }
        }

        /// One row of vector inputs (a depthwise convolution's edge column, whose
        /// steps are a kernel row's taps inside the input) over the whole reduction,
        /// for every vector of the tile and output row in one call, 4 vectors at a
        /// time (their sums independent chains of FMAs: one at a time, each waited
        /// for the latency of the one before). In [`kernel`]'s sub-tiles, each
        /// call's setup took longer than its few FMAs (a 14x14 map's edge columns
        /// were 40% of the convolution's time). Each accumulator sees its steps in
        /// [`kernel`]'s order.
        #[target_feature(enable = $feature)]
        unsafe fn column(t: &Tile, x: *const f32, w: *const f32, o: *mut f32, rows_at: [*const f32; 2]) {
            let mut walk = VectorWalk::default();
            let mut left = t.vectors;
            while left > 0 {
                let c = left.min(4) as usize;
                let at = walk.next(t, c);
                // SAFETY: the caller's contract.
                unsafe {
                    match c {
                        4 => column_vectors::<4>(t, x, w, o, rows_at, &at),
                        3 => column_vectors::<3>(t, x, w, o, rows_at, &at),
                        2 => column_vectors::<2>(t, x, w, o, rows_at, &at),
                        _ => column_vectors::<1>(t, x, w, o, rows_at, &at),
                    }
                }
                left -= c as i64;
            }
        }

        /// [`column`] for `C` vectors at `at`, every output row.
        #[target_feature(enable = $feature)]
        #[inline]
        unsafe fn column_vectors<const C: usize>(
            t: &Tile,
            x: *const f32,
            w: *const f32,
            o: *mut f32,
            rows_at: [*const f32; 2],
            at: &Offsets,
        ) {
            let [l2, l1, l0] = t.levels;
            let (x_step, w_step) = (t.x_step as isize, t.w_step as isize);
            for row in 0..t.out_rows {
                let (x, o, rows_at) = out_row_at(t, row, x, o, rows_at);
                // SAFETY: the tile's addresses are valid (the caller's contract).
                unsafe {
                    let mut acc = [[$zero(); C]; 1];
                    if t.accumulate {
                        for c in 0..C {
                            acc[0][c] = $load(o.offset(at.o[c]));
                        }
                    }
                    for i2 in 0..l2.count as isize {
                        for i1 in 0..l1.count as isize {
                            for i0 in 0..l0.count as isize {
                                let xp = x.offset(i2 * l2.x as isize + i1 * l1.x as isize + i0 * l0.x as isize);
                                let wp = w.offset(i2 * l2.w as isize + i1 * l1.w as isize + i0 * l0.w as isize);
                                for j in 0..t.inner as isize {
                                    for c in 0..C {
                                        let v = $load(xp.offset(at.x[c] + j * x_step));
                                        acc[0][c] = $fma(v, $load(wp.offset(at.w[c] + j * w_step)), acc[0][c]);
                                    }
                                }
                            }
                        }
                    }
                    if plain_epilogue(t) {
                        finish_plain::<1, C>(t, &acc, o, t.o_row as isize, at);
                    } else {
                        finish::<1, C>(t, acc, o, t.o_row as isize, rows_at, at);
                    }
                }
            }
        }

        /// Vector inputs read at the stride of the rows (a depthwise convolution at
        /// stride 1, `x_step == x_row`) over `J = inner` steps: each input vector is
        /// loaded once and multiplied into every accumulator that reads it (row `r`
        /// step `j` reads vector `r + j`), instead of once per step. One vector at a
        /// time over the whole reduction, so that only its `R` accumulators, the
        /// step's `J` weights and an input are live (LLVM spilled interleaved
        /// vectors). Each accumulator sees its steps in the same order as in
        /// [`kernel`], so the sums are the same.
        #[target_feature(enable = $feature)]
        unsafe fn window<const R: usize, const C: usize, const J: usize>(
            t: &Tile,
            x: *const f32,
            w: *const f32,
            o: *mut f32,
            rows_at: [*const f32; 2],
            at: &Offsets,
            chunks: usize,
        ) {
            for i in 0..chunks {
                let (x, o, rows_at) = chunk::<R>(t, i, x, o, rows_at);
                // SAFETY: the caller's contract, for each sub-tile.
                unsafe { window_chunk::<R, C, J>(t, x, w, o, rows_at, at) };
            }
        }

        /// One sub-tile of [`window`].
        #[target_feature(enable = $feature)]
        #[inline]
        unsafe fn window_chunk<const R: usize, const C: usize, const J: usize>(
            t: &Tile,
            x: *const f32,
            w: *const f32,
            o: *mut f32,
            rows_at: [*const f32; 2],
            at: &Offsets,
        ) {
            let (wo, oo) = (&at.w, &at.o);
            let (x_row, o_row, w_step) = (t.x_row as isize, t.o_row as isize, t.w_step as isize);
            // SAFETY: the tile's addresses are valid (the caller's contract).
            unsafe {
                let mut acc = [[$zero(); C]; R];
                let [l2, l1, l0] = t.levels;
                for c in 0..C {
                    let mut a = [$zero(); R];
                    if t.accumulate {
                        for r in 0..R {
                            a[r] = $load(o.offset(r as isize * o_row + oo[c]));
                        }
                    }
                    for i2 in 0..l2.count as isize {
                        for i1 in 0..l1.count as isize {
                            for i0 in 0..l0.count as isize {
                                let xo = i2 * l2.x as isize + i1 * l1.x as isize + i0 * l0.x as isize;
                                let xq = x.offset(xo + at.x[c]);
                                let wo_c = i2 * l2.w as isize + i1 * l1.w as isize + i0 * l0.w as isize + wo[c];
                                let mut wv = [$zero(); J];
                                for j in 0..J {
                                    wv[j] = $load(w.offset(wo_c + j as isize * w_step));
                                }
                                for p in 0..R + J - 1 {
                                    let v = $load(xq.offset(p as isize * x_row));
                                    for j in 0..J {
                                        if p >= j && p - j < R {
                                            a[p - j] = $fma(v, wv[j], a[p - j]);
                                        }
                                    }
                                }
                            }
                        }
                    }
                    for r in 0..R {
                        acc[r][c] = a[r];
                    }
                }
                finish::<R, C>(t, acc, o, o_row, rows_at, at);
            }
        }

        /// `RB` output rows of `CH` channels on one vector of pixels, over a `J x J`
        /// kernel whose rows are as far apart in the input as the output rows' (the
        /// row template's channel multipliers at stride 1, [`shared_rows_plan`]; the
        /// kernel computes several input channels too): the channels' `CH * J * J`
        /// weights stay broadcast in registers and each of the `RB + J - 1` input
        /// rows' `J` vectors is loaded once for every (output row, kernel row) pair
        /// and channel that reads it. The broadcast [`kernel`] loads each output row's
        /// inputs again and re-broadcasts the weights per step (a multiplier of 2 at
        /// 28 pixels ran at 13% of the 512-bit peak through it). `chunks` blocks of
        /// `RB` output rows, one after another. `x`, `o` and `rows_at` are at the sub-tile's first channel, `w` at
        /// its first output row's vector, whose place in the output and bias `at`
        /// gives; each accumulator sees its steps in [`kernel`]'s order.
        #[target_feature(enable = $feature)]
        unsafe fn shared_rows<const RB: usize, const CH: usize, const J: usize>(
            t: &Tile,
            x: *const f32,
            w: *const f32,
            o: *mut f32,
            rows_at: [*const f32; 2],
            at: &Offsets,
            chunks: usize,
        ) {
            let (x_row, o_row, o_group) = (t.x_row as isize, t.o_row as isize, t.o_group as isize);
            let (w_group, w_step) = (t.w_group as isize, t.w_step as isize);
            let [l2, l1, _] = t.levels;
            // The channels' weights of input channel `i2`, broadcast.
            let weights = |i2: isize| {
                let mut wt = [[[$zero(); J]; J]; CH];
                for c in 0..CH {
                    for k in 0..J {
                        for j in 0..J {
                            let at = c as isize * x_row + i2 * l2.x as isize + k as isize * l1.x as isize + j as isize;
                            // SAFETY: the tile's addresses are valid (the caller's contract).
                            wt[c][k][j] = unsafe { $splat(*x.offset(at)) };
                        }
                    }
                }
                wt
            };
            // One input channel (a channel multiplier, the only case the plan gives this
            // kernel today): its weights stay in registers for all the chunks. (Written
            // with the weights loaded once before the chunks and no loop over input
            // channels, LLVM compiled the kernel so that multipliers ran at 18-26% of
            // the 512-bit peak instead of 27-33%; this form is kept for that.)
            let single = l2.count == 1;
            let mut wt = if single { weights(0) } else { [[[$zero(); J]; J]; CH] };
            // SAFETY: the tile's addresses are valid (the caller's contract).
            unsafe {
                for i in 0..chunks as isize {
                    let first = i * RB as isize;
                    let mut acc = [[$zero(); RB]; CH];
                    if t.accumulate {
                        for c in 0..CH {
                            for r in 0..RB {
                                let place = c as isize * o_row + at.o[0] + (first + r as isize) * o_group;
                                acc[c][r] = $load(o.offset(place));
                            }
                        }
                    }
                    for i2 in 0..l2.count as isize {
                        if !single {
                            wt = weights(i2);
                        }
                        let wp = w.offset(first * w_group + i2 * l2.w as isize);
                        // Input row `p` (of the chunk's first output row's kernel row
                        // 0) is kernel row `p - r` of output row `r`. (Visiting kernel
                        // rows outermost, loading each input row once per kernel row,
                        // ran at three quarters of the speed.)
                        for p in 0..RB + J - 1 {
                            for j in 0..J {
                                let v = $load(wp.offset(p as isize * w_group + j as isize * w_step));
                                for r in 0..RB {
                                    if p >= r && p - r < J {
                                        for c in 0..CH {
                                            acc[c][r] = $fma(wt[c][p - r][j], v, acc[c][r]);
                                        }
                                    }
                                }
                            }
                        }
                    }
                    for r in 0..RB {
                        let mut a = [[$zero(); 1]; CH];
                        for c in 0..CH {
                            a[c][0] = acc[c][r];
                        }
                        let row = first + r as isize;
                        let bias = at.bias[0] + row * t.epilogue.bias_group as isize;
                        let place = Offsets { o: [at.o[0] + row * o_group, 0, 0, 0], bias: [bias, 0, 0, 0], ..*at };
                        finish::<CH, 1>(t, a, o, o_row, rows_at, &place);
                    }
                }
            }
        }

        /// A whole `J x J` kernel at stride `S` on one vector (a depthwise
        /// convolution's interior rows: `levels` are one kernel row apart, `J` of
        /// them, the others single), over `chunks` sub-tiles: row `r` step `j` of
        /// kernel row `k` reads input vector `r * S + j` of that row, loaded once
        /// for all the accumulators that read it. Steps, weights and output rows
        /// are one vector apart ([`square_plan`]), so every address is a constant
        /// offset from a kernel row's base (with the strides in registers, the
        /// address arithmetic took as long as the FMAs). Each accumulator sees its
        /// steps in [`kernel`]'s order.
        ///
        /// Every vector of the tile and every output row ([`Tile::out_rows`]) in one
        /// call, a vector's rows one after another (a block's plane in order).
        ///
        /// With `P` (a plain epilogue, [`plain_epilogue`]), the sums start at zero
        /// and [`finish_plain`] stores them: no condition between the steps, so the
        /// accumulators stay in registers from the first FMA to the store.
        #[target_feature(enable = $feature)]
        unsafe fn square<const R: usize, const J: usize, const S: usize, const P: bool>(
            t: &Tile,
            x: *const f32,
            w: *const f32,
            o: *mut f32,
            rows_at: [*const f32; 2],
            chunks: usize,
        ) {
            let l0 = t.levels[2];
            // The steps, weights' step and output rows are one vector apart
            // ([`square_plan`]): constant offsets.
            let (x_step, w_step, o_row) = (LANES as isize, LANES as isize, LANES as isize);
            let mut walk = VectorWalk::default();
            for _ in 0..t.vectors {
                let at = &walk.next(t, 1);
                // SAFETY: the tile's addresses are valid (the caller's contract).
                unsafe {
                    for row in 0..t.out_rows {
                        let (x, o, rows_at) = out_row_at(t, row, x, o, rows_at);
                        for i in 0..chunks {
                            let (x, o, rows_at) = chunk::<R>(t, i, x, o, rows_at);
                            let mut a = [[$zero(); 1]; R];
                            if !P && t.accumulate {
                                for r in 0..R {
                                    a[r][0] = $load(o.offset(r as isize * o_row + at.o[0]));
                                }
                            }
                            for k in 0..J {
                                let xq = x.offset(at.x[0] + k as isize * l0.x as isize);
                                let mut wv = [$zero(); J];
                                for j in 0..J {
                                    wv[j] = $load(w.offset(at.w[0] + (k * J + j) as isize * w_step));
                                }
                                // (Loops without conditions, which LLVM unrolls; it then
                                // loads each input vector once.)
                                for r in 0..R {
                                    for j in 0..J {
                                        let v = $load(xq.offset((r * S + j) as isize * x_step));
                                        a[r][0] = $fma(v, wv[j], a[r][0]);
                                    }
                                }
                            }
                            if P {
                                finish_plain::<R, 1>(t, &a, o, o_row, at);
                            } else {
                                finish::<R, 1>(t, a, o, o_row, rows_at, at);
                            }
                        }
                    }
                }
            }
        }

        /// Whether `t`'s epilogue is plain: a bias per vector, then the clamp (none is
        /// `[-inf, +inf]`), on sums that start at zero; [`finish_plain`] applies it.
        fn plain_epilogue(t: &Tile) -> bool {
            let e = &t.epilogue;
            !t.accumulate
                && t.divisor == 0
                && !e.bias.is_null()
                && e.bias_row == 0
                && e.mask.is_null()
                && e.residual.is_null()
                && e.activation == Activation::None
        }

        /// Whether `t`'s sums are stored as they are: no divisor, bias, mask,
        /// residual, activation or clamp.
        fn no_epilogue(t: &Tile) -> bool {
            let e = &t.epilogue;
            t.divisor == 0
                && e.bias.is_null()
                && e.mask.is_null()
                && e.residual.is_null()
                && e.activation == Activation::None
                && e.lo == f32::NEG_INFINITY
                && e.hi == f32::INFINITY
        }

        /// The accumulators stored as they are ([`no_epilogue`]).
        #[inline(always)]
        unsafe fn store_tile<const R: usize, const C: usize>(
            acc: &[[$vec; C]; R],
            o: *mut f32,
            o_row: isize,
            at: &Offsets,
        ) {
            // SAFETY: the tile's addresses are valid (the caller's contract).
            unsafe {
                for r in 0..R {
                    for c in 0..C {
                        $store(o.offset(r as isize * o_row + at.o[c]), acc[r][c]);
                    }
                }
            }
        }

        /// [`finish`] for a plain epilogue ([`plain_epilogue`]) on one vector's `R`
        /// rows, without a condition: the bias, the clamp's two bounds and the sign of
        /// zero are applied whatever they are (`max(-inf, v)`, `min(+inf, v)` and `v +
        /// -0` are `v`, NaN included).
        #[inline(always)]
        unsafe fn finish_plain<const R: usize, const C: usize>(
            t: &Tile,
            acc: &[[$vec; C]; R],
            o: *mut f32,
            o_row: isize,
            at: &Offsets,
        ) {
            let e = &t.epilogue;
            // `maxps(lo, -0)` is -0 for `lo = +0`: adding +0 makes it +0; adding -0
            // changes nothing.
            let zero = if e.lo == 0.0 && e.lo.is_sign_positive() { 0.0 } else { -0.0 };
            // SAFETY: the tile's addresses are valid (the caller's contract).
            unsafe {
                let (lo, hi, z) = ($splat(e.lo), $splat(e.hi), $splat(zero));
                for c in 0..C {
                    let b = $load(e.bias.offset(at.bias[c]));
                    for r in 0..R {
                        let v = $max(lo, $add(acc[r][c], b));
                        $store(o.offset(r as isize * o_row + at.o[c]), $min(hi, $add(v, z)));
                    }
                }
            }
        }

        /// The accumulators' divisor and epilogue, then their stores (see
        /// [`kernel`]). Always inlined into the kernels (which enable the level's
        /// features): called, it took the accumulators through memory after a
        /// `vzeroupper`, a third of a depthwise sub-tile's time.
        #[inline(always)]
        unsafe fn finish<const R: usize, const C: usize>(
            t: &Tile,
            mut acc: [[$vec; C]; R],
            o: *mut f32,
            o_row: isize,
            [residual, row_bias]: [*const f32; 2],
            at: &Offsets,
        ) {
            let oo = &at.o;
            // SAFETY: the tile's addresses are valid (the caller's contract).
            unsafe {
                if t.divisor != 0 {
                    let d = $splat(t.divisor as f32);
                    for r in 0..R {
                        for c in 0..C {
                            acc[r][c] = $div(acc[r][c], d);
                        }
                    }
                }
                // One pass over the accumulators per step, its condition outside
                // (LLVM unrolls such loops and keeps the accumulators in registers;
                // with the conditions inside, it kept them in memory).
                let e = &t.epilogue;
                if !e.bias.is_null() && e.bias_row != 0 {
                    for r in 0..R {
                        let b = $splat(*row_bias.offset(r as isize * e.bias_row as isize));
                        for c in 0..C {
                            acc[r][c] = $add(acc[r][c], b);
                        }
                    }
                } else if !e.bias.is_null() {
                    for c in 0..C {
                        let b = $load(e.bias.offset(at.bias[c]));
                        for r in 0..R {
                            acc[r][c] = $add(acc[r][c], b);
                        }
                    }
                }
                if !e.mask.is_null() {
                    for c in 0..C {
                        let mask = $load(e.mask.offset(at.bias[c]));
                        for r in 0..R {
                            acc[r][c] = $keep_above_zero(acc[r][c], mask);
                        }
                    }
                }
                if !residual.is_null() {
                    for r in 0..R {
                        for c in 0..C {
                            acc[r][c] = $add(acc[r][c], $load(residual.offset(r as isize * o_row + oo[c])));
                        }
                    }
                }
                match e.activation {
                    Activation::None => {}
                    Activation::Sigmoid => {
                        for r in 0..R {
                            for c in 0..C {
                                acc[r][c] = $sigmoid(acc[r][c]);
                            }
                        }
                    }
                    Activation::Silu => {
                        for r in 0..R {
                            for c in 0..C {
                                acc[r][c] = $mul(acc[r][c], $sigmoid(acc[r][c]));
                            }
                        }
                    }
                }
                // maxps and minps return the second operand when either is NaN, so
                // that a bound of -inf or +inf is no step.
                if e.lo != f32::NEG_INFINITY {
                    let lo = $splat(e.lo);
                    // maxps(lo, -0) is -0 for lo = +0; adding +0 makes it +0.
                    let positive_zero = e.lo == 0.0 && e.lo.is_sign_positive();
                    for r in 0..R {
                        for c in 0..C {
                            acc[r][c] = $max(lo, acc[r][c]);
                            if positive_zero {
                                acc[r][c] = $add(acc[r][c], $zero());
                            }
                        }
                    }
                }
                if e.hi != f32::INFINITY {
                    let hi = $splat(e.hi);
                    for r in 0..R {
                        for c in 0..C {
                            acc[r][c] = $min(hi, acc[r][c]);
                        }
                    }
                }
                for r in 0..R {
                    for c in 0..C {
                        $store(o.offset(r as isize * o_row + oo[c]), acc[r][c]);
                    }
                }
            }
        }
    };
}
