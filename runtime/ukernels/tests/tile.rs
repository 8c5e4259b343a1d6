//! Every ISA level's broadcast tile against a scalar evaluation of its definition, on
//! random tiles: rows and vectors past one sub-tile (so the splitting runs), groups of
//! vectors, three strided levels, broadcast and vector (depthwise) inputs, maxima and
//! sums (pools, with NaNs and signed zeros) and divisors, accumulation
//! into partial sums, epilogues (bias, residual, clamps) on NaNs and signed zeros (a
//! third of them plain: a bias and the clamp, applied without conditions),
//! depthwise squares (whole 3x3 and 5x5 kernels at strides 1 and 2) and edge columns,
//! tiles repeated over output rows.

use tcc_ukernels::sigmoid::sigmoid;
use tcc_ukernels::{Activation, Epilogue, Isa, Level, Reduce, Tile, run};

mod common;

use common::Rng;

/// Tile values: multiples of 1/4 in [-2, 2], whose products and sums of a few hundred
/// are exact.
trait Values {
    fn value(&mut self) -> f32;
}

impl Values for Rng {
    fn value(&mut self) -> f32 {
        self.range(-8, 8) as f32 / 4.0
    }
}

/// IEEE 754-2019 maximum (`max`) or minimum: NaN propagates, -0 < +0.
fn ieee(a: f32, b: f32, max: bool) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else if a == b {
        if (a.is_sign_negative() && max) || (b.is_sign_negative() && !max) { b } else { a }
    } else if (a > b) == max {
        a
    } else {
        b
    }
}

#[test]
fn every_level_computes_its_definition() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for isa in Isa::ALL.into_iter().filter(|i| i.is_supported()) {
        let lanes = isa.lanes() as i64;
        for case in 0..600 {
            // No rows at all too (a task's empty share of a row): nothing is written.
            // Some single rows (a depthwise convolution's edge column).
            let rows = if case % 9 == 4 { 1 } else { rng.range(0, 33) };
            // Some depthwise squares: a whole `J x J` kernel at stride `S` on vectors
            // one vector apart (the square kernels).
            let square = case % 8 == 5;
            let (square_j, square_s) = ([3, 5][rng.range(0, 1) as usize], rng.range(1, 2));
            let group_vectors = if square { 1 } else { rng.range(1, 3) };
            let vectors = rng.range(1, 9);
            // Some vector inputs a step apart as rows are, over 3 or 5 steps (the window
            // kernels of depthwise convolutions at stride 1).
            let window = case % 8 == 1;
            let inner = if window { [3, 5][(case / 8 % 2) as usize] } else { rng.range(0, 7) };
            let inner = if square { square_j } else { inner };
            let w_step = if square { lanes } else { rng.range(1, 3) * lanes * group_vectors };
            let counts = [rng.range(1, 3), rng.range(0, 3), rng.range(1, 2)];
            let counts = if square { [1, 1, square_j] } else { counts };
            let x_row = if square { square_s * lanes } else { rng.range(1, 40) };
            // Vector inputs (depthwise): each group's input at its own offset, steps of
            // any stride.
            // Pools: the maximum or the sum of vector inputs, sometimes divided.
            let reduce = [Reduce::Fma, Reduce::Fma, Reduce::Max, Reduce::Sum][(case % 8 / 2) as usize];
            let reduce = if square { Reduce::Fma } else { reduce };
            let x_vector = case % 4 == 1 || reduce != Reduce::Fma || square;
            // A third of the tiles with a plain epilogue (a bias per channel, then the
            // clamp, on sums from zero), which the kernels apply without conditions.
            let plain = rng.range(0, 2) == 0;
            let divisor = if case % 5 == 0 && !plain { rng.range(1, 9) } else { 0 };
            let (x_step, x_group) = (rng.range(1, 3 * lanes), rng.range(0, 50));
            let x_step = if window {
                x_row
            } else if square {
                lanes
            } else {
                x_step
            };
            let groups = (vectors + group_vectors - 1) / group_vectors;
            // Level strides: input levels past the rows' spans, weight levels past the steps.
            let mut x_extent = if x_vector {
                rows * x_row + inner * x_step + groups * x_group + lanes * group_vectors
            } else {
                rows * x_row + inner
            };
            let mut w_extent = inner * w_step + 4 * lanes * group_vectors * (vectors / group_vectors + 1);
            let mut levels = [Level::default(); 3];
            for l in (0..3).rev() {
                levels[l] = Level { count: counts[l], x: x_extent + rng.range(0, 3), w: w_extent + rng.range(0, 3) };
                // A square's kernel rows: the weights' `J` steps apart.
                if square && l == 2 {
                    levels[l].w = inner * lanes;
                }
                x_extent = levels[l].x * counts[l].max(1);
                w_extent = levels[l].w * counts[l].max(1);
            }
            let mut w_group = w_extent + rng.range(0, 5);
            // Some 3 x 3 windows whose kernel rows are as far apart in the input as the
            // vector groups (output rows of the row template at stride 1: the
            // shared-rows kernels) of one input channel, dilated or not.
            let shared = case % 8 == 3 && inner > 0;
            let (inner, w_step) = if shared { (3, rng.range(1, 2)) } else { (inner, w_step) };
            if shared {
                w_group = lanes * group_vectors + 2 * w_step + rng.range(0, 20);
                levels[2] = Level { count: 1, x: rng.range(0, 3), w: rng.range(0, 3) };
                levels[1] = Level { count: 3, x: 3 + rng.range(0, 3), w: w_group };
                levels[0] = Level { count: 1, x: 3 * levels[1].x + rng.range(0, 3), w: (groups + 3) * w_group };
                x_extent = levels[0].x * 2 + 1;
            }
            let x_row = if shared { x_extent + rng.range(0, 3) } else { x_row };
            let x_extent = if shared { rows * x_row + x_extent } else { x_extent };
            // The input the shared-rows tiles read, past the vector groups' spans.
            let shared_w_len = if shared { levels[0].w * 2 + w_group } else { 0 };
            let counts = if shared { levels.map(|l| l.count) } else { counts };
            let o_row = if square { lanes } else { rng.range(1, 2) * lanes * group_vectors };
            let o_group = rows * o_row + rng.range(0, 5);
            // Some tiles over several output rows, each past the previous one's input
            // and output.
            // (A single row over many output rows: a convolution's edge column, which runs
            // as a tile of the output rows.)
            let out_rows = match case % 3 {
                1 if rows == 1 => rng.range(2, 40),
                1 => rng.range(2, 4),
                _ => 1,
            };
            let (x_out_row, o_out_row) = (x_extent + rng.range(0, 40), o_group * groups + rng.range(0, 5));
            let x_extent = x_extent + (out_rows - 1) * x_out_row;
            // Inputs include NaNs and zeros of both signs for the maximum.
            let x: Vec<f32> = (0..x_extent + 64)
                .map(|_| match rng.range(0, 40) {
                    0 if reduce == Reduce::Max => f32::NAN,
                    1 | 2 if reduce == Reduce::Max => -0.0,
                    _ => rng.value(),
                })
                .collect();
            let w: Vec<f32> = (0..(w_group * groups).max(shared_w_len) + 64).map(|_| rng.value()).collect();
            let o0: Vec<f32> = (0..o_group * groups + (out_rows - 1) * o_out_row + 64).map(|_| rng.value()).collect();
            let accumulate = case % 3 == 0 && !plain;
            // Epilogue: a bias per channel, a residual laid out as the output, a clamp
            // (ReLU, ReLU6 or none); residual values include NaN and zeros of both signs.
            // Sometimes one bias value per row (rows are channels, vectors pixels).
            let bias_row = if case % 7 == 3 && !plain { 1 + case % 3 } else { 0 };
            let bias_len = (groups * lanes * group_vectors).max(rows * bias_row);
            // Zeros of both signs among the biases: a maximum of -0s plus -0 is -0, which
            // a clamp at +0 makes +0.
            let bias: Vec<f32> = (0..bias_len + 8)
                .map(|_| match rng.range(0, 8) {
                    0 => -0.0,
                    1 => 0.0,
                    _ => rng.value(),
                })
                .collect();
            let residual: Vec<f32> = (0..o0.len())
                .map(|_| match rng.range(0, 12) {
                    0 => f32::NAN,
                    1 => -0.0,
                    _ => rng.value(),
                })
                .collect();
            let with_bias = rng.range(0, 1) == 1 || plain;
            // A channel mask of 1s and 0s (padded channels).
            let mask: Vec<f32> = (0..bias.len()).map(|_| rng.range(0, 1) as f32).collect();
            let with_mask = rng.range(0, 2) == 1 && !plain;
            let with_residual = rng.range(0, 1) == 1 && !plain;
            let (lo, hi) = [(f32::NEG_INFINITY, f32::INFINITY), (0.0, f32::MAX), (0.0, 6.0), (-0.5, 1.0)]
                [rng.range(0, 3) as usize];
            let activation = [Activation::None, Activation::Sigmoid, Activation::Silu][rng.range(0, 2) as usize];
            let activation = if plain { Activation::None } else { activation };
            let bias_group = lanes * group_vectors;
            let mut expected = o0.clone();
            for (out_row, r) in (0..out_rows).flat_map(|i| (0..rows).map(move |r| (i, r))) {
                let (xr, or) = (out_row * x_out_row, out_row * o_out_row);
                for v in 0..vectors {
                    let (g, q) = (v / group_vectors, v % group_vectors);
                    for lane in 0..lanes {
                        let at = (or + r * o_row + g * o_group + q * lanes + lane) as usize;
                        let start = if reduce == Reduce::Max { f32::NEG_INFINITY } else { 0.0 };
                        let mut sum = if accumulate { o0[at] } else { start };
                        for i2 in 0..counts[0] {
                            for i1 in 0..counts[1] {
                                for i0 in 0..counts[2] {
                                    let xo = i2 * levels[0].x + i1 * levels[1].x + i0 * levels[2].x;
                                    let wo = i2 * levels[0].w + i1 * levels[1].w + i0 * levels[2].w;
                                    for j in 0..inner {
                                        let xv = if x_vector {
                                            x[(xr + r * x_row + g * x_group + q * lanes + xo + j * x_step + lane)
                                                as usize]
                                        } else {
                                            x[(xr + r * x_row + xo + j) as usize]
                                        };
                                        let wv = w[(g * w_group + q * lanes + wo + j * w_step + lane) as usize];
                                        sum = match reduce {
                                            Reduce::Fma => sum + xv * wv,
                                            Reduce::Max => ieee(sum, xv, true),
                                            Reduce::Sum => sum + xv,
                                        };
                                    }
                                }
                            }
                        }
                        if divisor != 0 {
                            sum /= divisor as f32;
                        }
                        if with_bias && bias_row != 0 {
                            sum += bias[(r * bias_row) as usize];
                        } else if with_bias {
                            sum += bias[(g * bias_group + q * lanes + lane) as usize];
                        }
                        if with_mask && mask[(g * bias_group + q * lanes + lane) as usize] <= 0.0 {
                            sum = 0.0;
                        }
                        if with_residual {
                            sum += residual[at];
                        }
                        match activation {
                            Activation::None => {}
                            Activation::Sigmoid => sum = sigmoid(sum),
                            Activation::Silu => sum *= sigmoid(sum),
                        }
                        expected[at] = ieee(ieee(sum, lo, true), hi, false);
                    }
                }
            }
            let mut o = o0.clone();
            let tile = Tile {
                x: x.as_ptr(),
                w: w.as_ptr(),
                o: o.as_mut_ptr(),
                rows,
                vectors,
                accumulate,
                narrow: false,
                bf16_residual: false,
                x_row,
                o_row,
                group_vectors,
                w_group,
                o_group,
                inner,
                w_step,
                levels,
                // Any distance: a hint that must not change the result.
                prefetch: if case % 2 == 0 { 0 } else { rng.range(-64, 4096) },
                x_vector,
                x_step,
                x_group,
                reduce,
                divisor,
                out_rows,
                x_out_row,
                o_out_row,
                epilogue: Epilogue {
                    bias: if with_bias { bias.as_ptr() } else { std::ptr::null() },
                    bias_group,
                    bias_row,
                    mask: if with_mask { mask.as_ptr() } else { std::ptr::null() },
                    residual: if with_residual { residual.as_ptr() } else { std::ptr::null() },
                    lo,
                    hi,
                    activation,
                },
            };
            // SAFETY: the level is supported; the buffers cover every offset above.
            unsafe { run(isa, &tile) };
            // Bitwise, so that NaNs compare equal and zeros keep their signs.
            let bits =
                |v: &[f32]| v.iter().map(|x| if x.is_nan() { u32::MAX } else { x.to_bits() }).collect::<Vec<_>>();
            assert_eq!(bits(&o), bits(&expected), "{isa}, case {case}: {tile:?}");
        }
    }
}

#[test]
fn levels_are_named_and_ordered() {
    for isa in Isa::ALL {
        assert_eq!(Isa::from_name(isa.name()), Some(isa));
    }
    assert!(Isa::Sse.is_supported());
    assert!(Isa::host_best().is_some_and(|b| b >= Isa::Sse));
    assert_eq!(Isa::from_name("avx"), None);
}
