//! The bf16 dot tile on every level this CPU runs against its scalar definition, bit
//! for bit: random tiles (rows and vectors past one sub-tile, so the splitting runs;
//! three strided levels; weights laid out vector-major or step-major), random bf16
//! values without subnormals (whose products and sums are then never subnormal, where
//! `vdpbf16ps` would flush them), vectors in groups, reductions in L1-sized chunks, accumulation into partial sums,
//! the epilogue: bias per channel or per row, channel mask, residual and clamps, and
//! bf16 outputs (rounded to nearest even).
//! Tiles repeated over output rows (a convolution's rows, which AMX runs as one sequence
//! of positions where the rows are evenly spaced) against the definition row by row.
//! The C entry point of the AVX-512 level runs the same tiles.

use tcc_ukernels::dot::{AMX_ROWS, DotLevel, DotTile, LANES, OutRows, amx_definition, narrow, run_dot_rows, scalar};
use tcc_ukernels::{Activation, Epilogue, Level};

mod common;

use common::Rng;

/// A bf16 of either sign with a random 7-bit mantissa and an exponent within 2^-8..2^8
/// (or zero): products and sums stay far from subnormals.
fn bf16(r: &mut Rng) -> u16 {
    if r.range(0, 15) == 0 {
        return 0;
    }
    let sign = (r.range(0, 1) as u16) << 15;
    let exponent = (127 + r.range(-8, 8)) as u16;
    sign | (exponent << 7) | r.range(0, 127) as u16
}

/// Bytes each offset may reach: the largest offset of a level nest plus `extra`.
fn extent(levels: &[Level; 3], of: impl Fn(&Level) -> i64, extra: i64) -> usize {
    (levels.iter().map(|l| (l.count - 1).max(0) * of(l)).sum::<i64>() + extra) as usize
}

fn check(level: DotLevel, seed: u64) {
    let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    // Long reductions sometimes: their weights overflow the L1 share, so the outermost
    // level runs in chunks (partial sums through the output, the epilogue once).
    let pairs = if r.range(0, 3) == 0 { r.range(30, 70) } else { r.range(1, 9) };
    let rows = if r.range(0, 4) == 0 { r.range(20, 70) } else { r.range(1, 20) };
    let vectors = r.range(1, 6);
    let levels = [
        Level { count: r.range(1, 3), x: r.range(0, 40), w: 0 },
        Level { count: r.range(1, 3), x: r.range(0, 40), w: 0 },
        Level { count: r.range(1, 2), x: r.range(0, 40), w: 0 },
    ];
    // Vectors come in groups of `group_vectors`, each group's weights and outputs at
    // their own strides; a step's vectors of a group lie side by side. One vector per
    // group and the groups one after another is the vector-major layout.
    let lanes = LANES as i64;
    let group_vectors = if r.range(0, 1) == 1 { 1 } else { r.range(1, vectors) };
    let groups = (vectors + group_vectors - 1) / group_vectors;
    let w_step = group_vectors * 2 * lanes;
    let group_block = pairs * w_step;
    let (c1, c0) = (levels[1].count, levels[2].count);
    let level_block = group_block * c1 * c0 * levels[0].count;
    let levels = [
        Level { w: group_block * c1 * c0, ..levels[0] },
        Level { w: group_block * c0, ..levels[1] },
        Level { w: group_block, ..levels[2] },
    ];
    let w_group = level_block + r.range(0, 3) * 2 * lanes;
    let o_vector = lanes;
    let o_group = group_vectors * o_vector + r.range(0, 1) * 3;
    let o_row = groups * o_group + r.range(0, 7);
    // Rows 16 elements apart (a blocked convolution's pixels) have kernels of their own.
    let x_row = if 2 * pairs <= 16 && r.range(0, 2) == 0 { 16 } else { 2 * pairs + r.range(0, 5) };
    // Some tiles repeat over output rows: the input rows `period` positions apart (or
    // not a whole number of positions: row by row), the output rows one row's
    // positions and some more apart.
    let out_rows = if r.range(0, 2) == 0 {
        let period = rows + r.range(0, 3);
        let x = period * x_row + if r.range(0, 5) == 0 { 1 } else { 0 };
        OutRows { count: r.range(2, 6), x, o: rows * o_row + r.range(0, 2) * o_row }
    } else {
        OutRows::ONE
    };
    let (x_rows, o_rows) = ((out_rows.count - 1) * out_rows.x, (out_rows.count - 1) * out_rows.o);
    let x: Vec<u16> = (0..extent(&levels, |l| l.x, x_rows + rows * x_row + 2 * pairs)).map(|_| bf16(&mut r)).collect();
    let w: Vec<u16> = (0..(groups * w_group + level_block) as usize).map(|_| bf16(&mut r)).collect();
    let bias_group = group_vectors * lanes + r.range(0, 2);
    let channels = (groups * bias_group + rows) as usize;
    let bias: Vec<f32> = (0..channels).map(|i| (i % 7) as f32 - 3.0).collect();
    let mask: Vec<f32> = (0..channels).map(|_| r.range(0, 1) as f32).collect();
    let residual: Vec<f32> = (0..o_rows + rows * o_row + lanes).map(|i| (i % 3) as f32 - 1.0).collect();
    let start: Vec<f32> = (0..o_rows + rows * o_row + lanes).map(|i| (i % 5) as f32 * 0.5).collect();
    let accumulate = r.range(0, 1) == 1;
    // A bf16 output (into the same buffer, read as bf16 elements) when not accumulating.
    let narrow = !accumulate && r.range(0, 1) == 1;
    let bias_row = if r.range(0, 2) == 0 { 1 } else { 0 };
    let with = |r: &mut Rng| r.range(0, 1) == 1;
    let (with_bias, with_mask, with_residual) = (with(&mut r), with(&mut r), with(&mut r));
    // Some residuals are bf16: the result must be the one of their values widened to an
    // f32 residual.
    let bf16_residual = with_residual && r.range(0, 1) == 1;
    let residual16: Vec<u16> = (0..residual.len()).map(|_| bf16(&mut r)).collect();
    let widened: Vec<f32> = residual16.iter().map(|&h| f32::from_bits((h as u32) << 16)).collect();
    let (lo, hi) = if r.range(0, 1) == 1 { (-2.0, 3.0) } else { (f32::NEG_INFINITY, f32::INFINITY) };
    let activation = [Activation::None, Activation::Sigmoid, Activation::Silu][r.range(0, 2) as usize];
    let prefetch_distance = if r.range(0, 1) == 1 { w_group } else { 0 };
    let pointer = |on: bool, v: &Vec<f32>| if on { v.as_ptr() } else { std::ptr::null() };
    let tile = |o: &mut Vec<f32>| DotTile {
        x: x.as_ptr(),
        w: w.as_ptr(),
        o: o.as_mut_ptr(),
        rows,
        vectors,
        accumulate,
        narrow,
        bf16_residual,
        x_row,
        o_row,
        group_vectors,
        w_group,
        o_group,
        pairs,
        w_step,
        levels,
        // (A hint only: any distance, the values are the same.)
        prefetch: prefetch_distance,
        epilogue: Epilogue {
            bias: pointer(with_bias, &bias),
            bias_group,
            bias_row,
            mask: pointer(with_mask, &mask),
            residual: if bf16_residual { residual16.as_ptr().cast() } else { pointer(with_residual, &residual) },
            lo,
            hi,
            activation,
        },
    };
    let (mut want, mut got) = (start.clone(), start.clone());
    // SAFETY: the buffers cover every offset the tile reaches (sized above).
    unsafe {
        let t = tile(&mut want);
        #[cfg(target_arch = "x86_64")]
        let spans = level == DotLevel::Amx && tcc_ukernels::dot::amx::spans_rows(&t, out_rows);
        #[cfg(not(target_arch = "x86_64"))]
        let spans = false;
        for i in 0..out_rows.count {
            if level == DotLevel::Amx && (rows >= AMX_ROWS || spans) {
                amx_definition(&t.out_row(out_rows, i));
            } else {
                scalar(&t.out_row(out_rows, i));
            }
        }
        run_dot_rows(level, &tile(&mut got), out_rows);
    }
    if level != DotLevel::Scalar {
        // The C entry point (the best level of this CPU) on the same tile.
        let mut entry = start.clone();
        let t = tile(&mut entry);
        let [l2, l1, l0] = t.levels;
        let e = t.epilogue;
        // SAFETY: as above.
        unsafe {
            tcc_ukernels::dot::tcc_uk_dot_avx512(
                t.x,
                t.w,
                t.o,
                t.rows,
                t.vectors,
                t.accumulate as i64
                    + 2 * t.narrow as i64
                    + tcc_runtime_abi::OUTPUT_BF16_RESIDUAL * t.bf16_residual as i64
                    + match e.activation {
                        Activation::None => 0,
                        Activation::Sigmoid => tcc_runtime_abi::OUTPUT_SIGMOID,
                        Activation::Silu => tcc_runtime_abi::OUTPUT_SILU,
                    },
                t.x_row,
                t.o_row,
                t.group_vectors,
                t.w_group,
                t.o_group,
                t.pairs,
                t.w_step,
                l2.count,
                l2.x,
                l2.w,
                l1.count,
                l1.x,
                l1.w,
                l0.count,
                l0.x,
                l0.w,
                0,
                e.bias,
                e.bias_group,
                e.bias_row,
                e.mask,
                e.residual,
                e.lo.to_bits() as i64,
                e.hi.to_bits() as i64,
                0,
                0,
                0,
                0,
                0,
                out_rows.count,
                out_rows.x,
                out_rows.o,
            );
        }
        let best = DotLevel::host_best();
        if best == level {
            assert!(entry.iter().zip(&got).all(|(a, b)| a.to_bits() == b.to_bits()), "seed {seed}: the entry point");
        }
    }
    if bf16_residual {
        let mut same = start.clone();
        let t = tile(&mut same);
        let t = DotTile { bf16_residual: false, epilogue: Epilogue { residual: widened.as_ptr(), ..t.epilogue }, ..t };
        // SAFETY: as above (the widened residual has the bf16 one's elements).
        unsafe { run_dot_rows(level, &t, out_rows) };
        assert!(
            same.iter().zip(&got).all(|(a, b)| a.to_bits() == b.to_bits()),
            "{level:?}, seed {seed}: the bf16 residual against its values as f32"
        );
    }
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(
            g.to_bits(),
            w.to_bits(),
            "{level:?}, seed {seed}: element {i}: {g} against the definition's {w} \
             ({rows} rows, {vectors} vectors, {pairs} pairs, levels {levels:?}, {out_rows:?})"
        );
    }
}

#[test]
fn every_level_matches_the_definition_bit_for_bit() {
    let levels: Vec<DotLevel> = [DotLevel::Amx, DotLevel::Avx512Bf16, DotLevel::Avx512, DotLevel::Scalar]
        .into_iter()
        .filter(|l| l.is_supported())
        .collect();
    println!("levels this CPU runs: {levels:?}");
    for level in levels {
        for seed in 0..300 {
            check(level, seed);
        }
    }
}

#[test]
fn narrowing_rounds_to_nearest_even_and_keeps_nans() {
    // Ties go to the even neighbour; above a tie rounds up; infinities stay.
    assert_eq!(narrow(f32::from_bits(0x3f80_8000)), 0x3f80);
    assert_eq!(narrow(f32::from_bits(0x3f81_8000)), 0x3f82);
    assert_eq!(narrow(f32::from_bits(0x3f80_8001)), 0x3f81);
    assert_eq!(narrow(f32::INFINITY), 0x7f80);
    assert_eq!(narrow(-0.0), 0x8000);
    // The largest finite values round to infinity; subnormals are kept.
    assert_eq!(narrow(f32::MAX), 0x7f80);
    assert_eq!(narrow(f32::from_bits(0x0001_8000)), 0x0002);
    // A NaN stays a NaN, made quiet.
    assert_eq!(narrow(f32::from_bits(0x7f80_0001)), 0x7fc0);
    assert_eq!(narrow(f32::from_bits(0xffc1_2345)), 0xffc1);
}

/// The plain epilogue on every level narrows what the random tiles never reach as the
/// definition does: subnormal results (which `vcvtneps2bf16`, AMX's rounding, would
/// flush to zero), NaNs, infinities, ties and signed zeros, next to ordinary values in
/// the same vectors, with and without an upper bound. The products are zero (zero
/// weights), so each output is its channel's bias, clamped and rounded.
#[test]
fn the_plain_epilogue_narrows_subnormals_nans_and_ties_as_defined() {
    let special: [u32; 12] = [
        0x0001_8000, // subnormal, a tie between two subnormal bf16s
        0x0000_0001, // the least subnormal: rounds to +0
        0x8040_8001, // negative subnormal, above a tie
        0x007f_ffff, // the largest subnormal: rounds up to the least normal
        0x7f80_0001, // signalling NaN
        0xffc1_2345, // negative quiet NaN
        0x7f80_0000, // infinity
        0x8000_0000, // -0
        0x3f80_8000, // a tie: to even
        0x3f81_8000, // a tie: up to even
        0x7f7f_ffff, // the largest finite: to infinity
        0x4040_0000, // 3.0
    ];
    let (rows, vectors, pairs) = (32i64, 2i64, 16i64);
    let channels = (vectors * LANES as i64) as usize;
    let x = vec![0u16; (rows * pairs * 2) as usize];
    let w = vec![0u16; (pairs * 2) as usize * channels];
    let bias: Vec<f32> = (0..channels).map(|c| f32::from_bits(special[c % special.len()])).collect();
    let levels: Vec<DotLevel> = [DotLevel::Amx, DotLevel::Avx512Bf16, DotLevel::Avx512, DotLevel::Scalar]
        .into_iter()
        .filter(|l| l.is_supported())
        .collect();
    for hi in [f32::INFINITY, 2.5] {
        let want: Vec<u16> = (0..rows as usize * channels)
            .map(|i| {
                // (The sums are +0, so -0 comes out as +0.)
                let v = 0.0 + bias[i % channels];
                // (max then min with the value second: NaN comes through.)
                let v = if v.is_nan() { v } else { v.max(f32::NEG_INFINITY).min(hi) };
                narrow(v)
            })
            .collect();
        for &level in &levels {
            let mut o = vec![0x5555u16; rows as usize * channels];
            let tile = DotTile {
                x: x.as_ptr(),
                w: w.as_ptr(),
                o: o.as_mut_ptr().cast(),
                rows,
                vectors,
                accumulate: false,
                narrow: true,
                bf16_residual: false,
                x_row: pairs * 2,
                o_row: channels as i64,
                group_vectors: vectors,
                w_group: 0,
                o_group: 0,
                pairs,
                w_step: channels as i64 * 2,
                levels: [Level { count: 1, x: 0, w: 0 }; 3],
                prefetch: 0,
                epilogue: Epilogue {
                    bias: bias.as_ptr(),
                    bias_group: 0,
                    bias_row: 0,
                    mask: std::ptr::null(),
                    residual: std::ptr::null(),
                    lo: f32::NEG_INFINITY,
                    hi,
                    activation: Activation::None,
                },
            };
            // SAFETY: the buffers cover the tile; the level runs on this CPU.
            unsafe { run_dot_rows(level, &tile, OutRows::ONE) };
            for (i, (&g, &w)) in o.iter().zip(&want).enumerate() {
                assert_eq!(
                    g,
                    w,
                    "{level:?}, upper bound {hi}: element {i} (bias {:#010x})",
                    bias[i % channels].to_bits()
                );
            }
        }
    }
}
