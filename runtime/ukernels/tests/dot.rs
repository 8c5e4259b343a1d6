//! The bf16 dot tile on every level this CPU runs against its scalar definition, bit
//! for bit: random tiles (rows and vectors past one sub-tile, so the splitting runs;
//! three strided levels; weights laid out vector-major or step-major), random bf16
//! values without subnormals (whose products and sums are then never subnormal, where
//! `vdpbf16ps` would flush them), accumulation into partial sums, bias and clamps.

use tcc_ukernels::Level;
use tcc_ukernels::dot::{DotLevel, DotTile, LANES, run_dot, scalar};

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
    let (rows, vectors, pairs) = (r.range(1, 20), r.range(1, 6), r.range(1, 9));
    let levels = [
        Level { count: r.range(1, 3), x: r.range(0, 40), w: 0 },
        Level { count: r.range(1, 3), x: r.range(0, 40), w: 0 },
        Level { count: r.range(1, 2), x: r.range(0, 40), w: 0 },
    ];
    // Weights of one level iteration: `pairs` steps of `vectors` vectors, vector-major
    // or step-major; the levels' iterations one after another.
    let vector_major = r.range(0, 1) == 1;
    let (w_vector, w_step) = if vector_major {
        (pairs * 2 * LANES as i64, 2 * LANES as i64)
    } else {
        (2 * LANES as i64, vectors * 2 * LANES as i64)
    };
    let block = pairs * vectors * 2 * LANES as i64;
    let (c1, c0) = (levels[1].count, levels[2].count);
    let levels = [
        Level { w: block * c1 * c0, ..levels[0] },
        Level { w: block * c0, ..levels[1] },
        Level { w: block, ..levels[2] },
    ];
    let x_row = 2 * pairs + r.range(0, 5);
    let o_vector = LANES as i64 + r.range(0, 1) * 3;
    let o_row = vectors * o_vector + r.range(0, 7);
    let x: Vec<u16> = (0..extent(&levels, |l| l.x, rows * x_row + 2 * pairs)).map(|_| bf16(&mut r)).collect();
    let w: Vec<u16> = (0..extent(&levels, |l| l.w, block)).map(|_| bf16(&mut r)).collect();
    let bias: Vec<f32> = (0..vectors * LANES as i64).map(|i| (i % 7) as f32 - 3.0).collect();
    let start: Vec<f32> = (0..rows * o_row + LANES as i64).map(|i| (i % 5) as f32 * 0.5).collect();
    let accumulate = r.range(0, 1) == 1;
    let with_bias = r.range(0, 1) == 1;
    let (lo, hi) = if r.range(0, 1) == 1 { (-2.0, 3.0) } else { (f32::NEG_INFINITY, f32::INFINITY) };
    let tile = |o: &mut Vec<f32>| DotTile {
        x: x.as_ptr(),
        w: w.as_ptr(),
        o: o.as_mut_ptr(),
        rows,
        vectors,
        accumulate,
        x_row,
        o_row,
        w_vector,
        o_vector,
        pairs,
        w_step,
        levels,
        bias: if with_bias { bias.as_ptr() } else { std::ptr::null() },
        lo,
        hi,
    };
    let (mut want, mut got) = (start.clone(), start.clone());
    // SAFETY: the buffers cover every offset the tile reaches (sized above).
    unsafe {
        scalar(&tile(&mut want));
        run_dot(level, &tile(&mut got));
    }
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(
            g.to_bits(),
            w.to_bits(),
            "{level:?}, seed {seed}: element {i}: {g} against the definition's {w} \
             ({rows} rows, {vectors} vectors, {pairs} pairs, levels {levels:?})"
        );
    }
}

#[test]
fn every_level_matches_the_definition_bit_for_bit() {
    let levels: Vec<DotLevel> =
        [DotLevel::Avx512Bf16, DotLevel::Avx512, DotLevel::Scalar].into_iter().filter(|l| l.is_supported()).collect();
    println!("levels this CPU runs: {levels:?}");
    for level in levels {
        for seed in 0..300 {
            check(level, seed);
        }
    }
}
