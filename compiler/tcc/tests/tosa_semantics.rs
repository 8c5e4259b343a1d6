//! TOSA ops whose import is more than a one-to-one mapping, compiled and run, against
//! values worked out by hand from the TOSA 1.0 specification: float -> int cast
//! (round half to even, saturate), `nan_mode = "IGNORE"`, avg_pool2d's divisor at the
//! border, max_pool2d padding, depthwise channel multipliers, batched gather, tile,
//! pad, reduce_all/any, and greater_equal with NaN; and two exports that once failed
//! (count_nonzero's mask constant, dependent matmuls in the rewrite search). Every
//! backend of the build runs each case.

use tcc::{Runtime, Tensor};

/// Runs `src` with every backend this build has; they must agree bit for bit (these
/// are exact computations). Returns the outputs.
fn run(src: &str, inputs: &[Tensor]) -> Vec<Tensor> {
    let mut first: Option<Vec<Tensor>> = None;
    for backend in tcc::backend::compiled_backends() {
        let model =
            Runtime::builder().backend(backend).load_str(src).unwrap_or_else(|e| panic!("{backend:?}: {e}\n{src}"));
        let out = model.run(inputs).unwrap();
        if let Some(f) = &first {
            for (a, b) in f.iter().zip(&out) {
                assert_eq!(a.bytes(), b.bytes(), "{backend:?} differs from Cranelift");
            }
        } else {
            first = Some(out);
        }
    }
    first.expect("at least one backend")
}

/// `run` on 1 and 2 threads as well: every backend and thread count must agree bit for
/// bit. Returns the outputs.
fn run_threads(src: &str, inputs: &[Tensor]) -> Vec<Tensor> {
    let mut first: Option<Vec<Tensor>> = None;
    for backend in tcc::backend::compiled_backends() {
        for threads in [1, 2] {
            let model = Runtime::builder()
                .backend(backend)
                .threads(threads)
                .load_str(src)
                .unwrap_or_else(|e| panic!("{backend:?}: {e}\n{src}"));
            let out = model.run(inputs).unwrap();
            match &first {
                Some(f) => {
                    for (a, b) in f.iter().zip(&out) {
                        assert_eq!(a.bytes(), b.bytes(), "{backend:?}, {threads} thread(s) differ\n{src}");
                    }
                }
                None => first = Some(out),
            }
        }
    }
    first.expect("at least one backend")
}

/// Numbers in `lo..=hi` drawn from a linear congruential generator seeded with `seed`.
fn draws(seed: u64) -> impl FnMut(i64, i64) -> i64 {
    let mut state = seed;
    move |lo, hi| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        lo + ((state >> 33) % (hi - lo + 1) as u64) as i64
    }
}

/// `count` quarters in -2..=2 from `next`: their products summed stay exact in f32.
fn quarters(count: i64, next: &mut impl FnMut(i64, i64) -> i64) -> Vec<f32> {
    (0..count).map(|_| next(-8, 8) as f32 / 4.0).collect()
}

/// `tensor<AxBx..xf32>`.
fn f32_type(shape: &[i64]) -> String {
    format!("tensor<{}xf32>", shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x"))
}

fn f32s(t: &Tensor) -> Vec<f32> {
    t.to_vec::<f32>().unwrap()
}

fn same(got: &[f32], want: &[f32]) -> bool {
    got.len() == want.len() && got.iter().zip(want).all(|(a, b)| a == b || (a.is_nan() && b.is_nan()))
}

#[test]
fn cast_rounds_half_to_even_and_saturates() {
    let src = r#"
      func.func @main(%x: tensor<12xf32>) -> tensor<12xi32> {
        %0 = tosa.cast %x : (tensor<12xf32>) -> tensor<12xi32>
        return %0 : tensor<12xi32>
      }"#;
    let x = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999998, -2.5000002, 0.49999997, 1e10, -1e10, 16777215.0f32];
    let out = run(src, &[Tensor::from_slice(&x, &[12]).unwrap()]);
    let want = [0, 2, 2, 0, -2, -2, 2, -3, 0, i32::MAX, i32::MIN, 16777215];
    assert_eq!(out[0].to_vec::<i32>().unwrap(), want);
}

/// `x.to(torch.int8).to(torch.float32)` and the same through int16 (which once panicked
/// in the Cranelift backend); integer narrowing keeps the low bits.
#[test]
fn casts_through_narrow_integers_round_saturate_and_wrap() {
    let src = r#"
      func.func @main(%x: tensor<8xf32>, %n: tensor<4xi32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<4xi8>, tensor<4xi16>) {
        %0 = tosa.cast %x : (tensor<8xf32>) -> tensor<8xi8>
        %1 = tosa.cast %0 : (tensor<8xi8>) -> tensor<8xf32>
        %2 = tosa.cast %x : (tensor<8xf32>) -> tensor<8xi16>
        %3 = tosa.cast %2 : (tensor<8xi16>) -> tensor<8xf32>
        %4 = tosa.cast %n : (tensor<4xi32>) -> tensor<4xi8>
        %5 = tosa.cast %n : (tensor<4xi32>) -> tensor<4xi16>
        return %1, %3, %4, %5 : tensor<8xf32>, tensor<8xf32>, tensor<4xi8>, tensor<4xi16>
      }"#;
    let x = [2.5f32, -3.5, 127.4, 127.6, -128.6, 300.0, -40000.0, f32::NAN];
    let n = [200i32, -129, 65537, -1];
    let out = run(src, &[Tensor::from_slice(&x, &[8]).unwrap(), Tensor::from_slice(&n, &[4]).unwrap()]);
    assert!(same(&f32s(&out[0]), &[2.0, -4.0, 127.0, 127.0, -128.0, 127.0, -128.0, 0.0]), "{:?}", f32s(&out[0]));
    assert!(same(&f32s(&out[1]), &[2.0, -4.0, 127.0, 128.0, -129.0, 300.0, -32768.0, 0.0]), "{:?}", f32s(&out[1]));
    assert_eq!(out[2].to_vec::<i8>().unwrap(), [-56, 127, 1, -1]);
    assert_eq!(out[3].to_vec::<i16>().unwrap(), [200, -129, 1, -1]);
}

#[test]
fn nan_mode_ignore_picks_the_number() {
    let src = r#"
      func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
        %0 = tosa.maximum %a, %b {nan_mode = "IGNORE"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
        %1 = tosa.minimum %a, %b {nan_mode = "IGNORE"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
        %2 = tosa.maximum %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
        %3 = tosa.clamp %a {min_val = -1.0 : f32, max_val = 1.0 : f32, nan_mode = "IGNORE"} : (tensor<4xf32>) -> tensor<4xf32>
        return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
      }"#;
    let nan = f32::NAN;
    let a = Tensor::from_slice(&[nan, 2.0, nan, 5.0f32], &[4]).unwrap();
    let b = Tensor::from_slice(&[3.0, nan, nan, -4.0f32], &[4]).unwrap();
    let out = run(src, &[a, b]);
    assert!(same(&f32s(&out[0]), &[3.0, 2.0, nan, 5.0]), "{:?}", f32s(&out[0]));
    assert!(same(&f32s(&out[1]), &[3.0, 2.0, nan, -4.0]), "{:?}", f32s(&out[1]));
    assert!(same(&f32s(&out[2]), &[nan, nan, nan, 5.0]), "{:?}", f32s(&out[2]));
    assert!(same(&f32s(&out[3]), &[-1.0, 1.0, -1.0, 1.0]), "{:?}", f32s(&out[3]));
}

#[test]
fn greater_equal_is_false_on_nan() {
    let src = r#"
      func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
        %0 = tosa.greater_equal %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
        return %0 : tensor<4xi1>
      }"#;
    let a = Tensor::from_slice(&[1.0, 2.0, f32::NAN, 0.0f32], &[4]).unwrap();
    let b = Tensor::from_slice(&[1.0, 3.0, 1.0, -1.0f32], &[4]).unwrap();
    assert_eq!(run(src, &[a, b])[0].to_vec::<bool>().unwrap(), [true, false, false, true]);
}

#[test]
fn pools_at_the_border() {
    // x[h, w] = 4h + w + 1 on a 4x4 single-channel NHWC image.
    let src = r#"
      func.func @main(%x: tensor<1x4x4x1xf32>) -> (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) {
        %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
        %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x4x4x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
        %1 = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32>
        return %0, %1 : tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>
      }"#;
    let x: Vec<f32> = (1..=16).map(|v| v as f32).collect();
    let out = run(src, &[Tensor::from_slice(&x, &[1, 4, 4, 1]).unwrap()]);
    // Top-left window covers rows 0-1, cols 0-1 (4 cells): (1 + 2 + 5 + 6) / 4 = 3.5;
    // top-right rows 0-1, cols 1-3 (6 cells): (2+3+4+6+7+8) / 6 = 5; bottom-left rows
    // 1-3, cols 0-1: (5+6+9+10+13+14) / 6 = 9.5; bottom-right 9 cells: 11.
    assert_eq!(f32s(&out[0]), [3.5, 5.0, 9.5, 11.0]);
    // Max over the same windows (padding never wins).
    assert_eq!(f32s(&out[1]), [6.0, 8.0, 14.0, 16.0]);
}

#[test]
fn depthwise_output_channel_is_c_times_m_plus_m() {
    // 1x1 kernel, C = 2 channels, M = 3 multipliers: out[c*3 + m] = x[c] * w[c, m] + b.
    let src = r#"
      func.func @main(%x: tensor<1x1x1x2xf32>) -> tensor<1x1x1x6xf32> {
        %w = "tosa.const"() <{values = dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]]> : tensor<1x1x2x3xf32>}> : () -> tensor<1x1x2x3xf32>
        %b = "tosa.const"() <{values = dense<[0.0, 0.0, 0.0, 0.0, 0.0, 0.5]> : tensor<6xf32>}> : () -> tensor<6xf32>
        %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
        %0 = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x1x2xf32>, tensor<1x1x2x3xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x1x6xf32>
        return %0 : tensor<1x1x1x6xf32>
      }"#;
    let out = run(src, &[Tensor::from_slice(&[10.0f32, 100.0], &[1, 1, 1, 2]).unwrap()]);
    assert_eq!(f32s(&out[0]), [10.0, 20.0, 30.0, 400.0, 500.0, 600.5]);
}

#[test]
fn gather_tile_pad_and_logical_reductions() {
    let src = r#"
      func.func @main(%v: tensor<2x3x2xf32>, %i: tensor<2x2xi32>, %t: tensor<2x3xf32>, %p: tensor<2x2xi1>)
          -> (tensor<2x2x2xf32>, tensor<2x6xf32>, tensor<2x4xf32>, tensor<2x1xi1>, tensor<1x2xi1>) {
        %0 = tosa.gather %v, %i : (tensor<2x3x2xf32>, tensor<2x2xi32>) -> tensor<2x2x2xf32>
        %mult = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
        %1 = tosa.tile %t, %mult : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<2x6xf32>
        %padding = tosa.const_shape {values = dense<[0, 0, 1, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
        %pv = "tosa.const"() <{values = dense<-7.0> : tensor<1xf32>}> : () -> tensor<1xf32>
        %2 = tosa.pad %t, %padding, %pv : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<2x4xf32>
        %3 = tosa.reduce_all %p {axis = 1 : i32} : (tensor<2x2xi1>) -> tensor<2x1xi1>
        %4 = tosa.reduce_any %p {axis = 0 : i32} : (tensor<2x2xi1>) -> tensor<1x2xi1>
        return %0, %1, %2, %3, %4 : tensor<2x2x2xf32>, tensor<2x6xf32>, tensor<2x4xf32>, tensor<2x1xi1>, tensor<1x2xi1>
      }"#;
    // v[n, k, c] = 100n + 10k + c.
    let v: Vec<f32> =
        (0..2).flat_map(|n| (0..3).flat_map(move |k| (0..2).map(move |c| (100 * n + 10 * k + c) as f32))).collect();
    let inputs = [
        Tensor::from_slice(&v, &[2, 3, 2]).unwrap(),
        Tensor::from_slice(&[2i32, 0, 1, 1], &[2, 2]).unwrap(),
        Tensor::from_slice(&[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap(),
        Tensor::from_slice(&[true, false, true, true], &[2, 2]).unwrap(),
    ];
    let out = run(src, &inputs);
    // out[n, w, c] = v[n, i[n, w], c]: each batch indexes its own rows.
    assert_eq!(f32s(&out[0]), [20.0, 21.0, 0.0, 1.0, 110.0, 111.0, 110.0, 111.0]);
    assert_eq!(f32s(&out[1]), [1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 4.0, 5.0, 6.0]);
    assert_eq!(f32s(&out[2]), [-7.0, 1.0, 2.0, 3.0, -7.0, 4.0, 5.0, 6.0]);
    assert_eq!(out[3].to_vec::<bool>().unwrap(), [false, true]);
    assert_eq!(out[4].to_vec::<bool>().unwrap(), [true, true]);
}

#[test]
fn sin_and_cos_are_accurate_in_f32_and_f64() {
    // Angles as rotary embeddings make them (position x frequency: thousands of radians),
    // quadrant boundaries, signed zeros and the special values.
    let x: Vec<f32> = vec![
        0.0,
        -0.0,
        0.5,
        -1.0,
        std::f32::consts::FRAC_PI_2,
        std::f32::consts::PI,
        -3.0 * std::f32::consts::FRAC_PI_4,
        10.0,
        -123.456,
        2047.0,
        4095.5,
        -30000.25,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1e-30,
    ];
    let n = x.len();
    for (ty, tolerance) in [("f32", 2e-7), ("f64", 1e-15)] {
        let src = format!(
            r#"
          func.func @main(%x: tensor<{n}x{ty}>) -> (tensor<{n}x{ty}>, tensor<{n}x{ty}>) {{
            %0 = tosa.sin %x : (tensor<{n}x{ty}>) -> tensor<{n}x{ty}>
            %1 = tosa.cos %x : (tensor<{n}x{ty}>) -> tensor<{n}x{ty}>
            return %0, %1 : tensor<{n}x{ty}>, tensor<{n}x{ty}>
          }}"#
        );
        let input = if ty == "f32" {
            Tensor::from_slice(&x, &[n]).unwrap()
        } else {
            Tensor::from_slice(&x.iter().map(|&v| v as f64).collect::<Vec<_>>(), &[n]).unwrap()
        };
        let out = run(&src, &[input]);
        for (k, f) in [f64::sin, f64::cos].into_iter().enumerate() {
            let got: Vec<f64> = if ty == "f32" {
                f32s(&out[k]).iter().map(|&v| v as f64).collect()
            } else {
                out[k].to_vec::<f64>().unwrap()
            };
            for (i, (&g, &xi)) in got.iter().zip(&x).enumerate() {
                let want = f(xi as f64);
                let ok = if want.is_nan() { g.is_nan() } else { (g - want).abs() <= tolerance };
                assert!(ok, "{ty} {} of {xi} (#{i}): got {g}, want {want}", ["sin", "cos"][k]);
            }
        }
    }
}

/// torch.count_nonzero over i64, as torch-mlir exports it: `logical_not` of `equal`
/// splats an i1 `true` into a mask of i64 lanes, which Cranelift rejected ("arg 0 has
/// type i8, expected i64") while LLVM compiled it (issue 35).
#[test]
fn count_nonzero_of_i64_splats_a_mask_constant() {
    let src = r#"
      func.func @main(%arg0: tensor<3x5xi64>) -> tensor<i64> {
        %0 = tosa.const_shape  {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
        %1 = "tosa.const"() <{values = dense<0> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
        %2 = tosa.equal %arg0, %1 : (tensor<3x5xi64>, tensor<1x1xi64>) -> tensor<3x5xi1>
        %3 = tosa.logical_not %2 : (tensor<3x5xi1>) -> tensor<3x5xi1>
        %4 = tosa.cast %3 : (tensor<3x5xi1>) -> tensor<3x5xi64>
        %5 = tosa.reduce_sum %4 {axis = 0 : i32} : (tensor<3x5xi64>) -> tensor<1x5xi64>
        %6 = tosa.reduce_sum %5 {axis = 1 : i32} : (tensor<1x5xi64>) -> tensor<1x1xi64>
        %7 = tosa.reshape %6, %0 : (tensor<1x1xi64>, !tosa.shape<0>) -> tensor<i64>
        return %7 : tensor<i64>
      }"#;
    let x: Vec<i64> = vec![0, 1, -2, 0, 0, 3, 0, 0, 7, -1, 0, 0, 0, 5, 0];
    let out = run(src, &[Tensor::from_slice(&x, &[3, 5]).unwrap()]);
    assert_eq!(out[0].to_vec::<i64>().unwrap(), [6]);
}

/// torch.mm(a, torch.mm(a, b)): two matmuls sharing their left operand, the second
/// consuming the first. The rewrite search's merge of matmuls sharing an operand took
/// them for parallel branches and panicked ("anchor op is not in a block") under the
/// default search and `greedy` (issue 35); they must compile and compute a @ (a @ b).
#[test]
fn dependent_matmuls_sharing_an_operand_are_not_merged() {
    let src = r#"
      func.func @main(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>) -> tensor<4x4xf32> {
        %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
        %1 = tosa.const_shape  {values = dense<[1, 4, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
        %2 = tosa.const_shape  {values = dense<4> : tensor<2xindex>} : () -> !tosa.shape<2>
        %3 = tosa.reshape %arg0, %1 : (tensor<4x4xf32>, !tosa.shape<3>) -> tensor<1x4x4xf32>
        %4 = tosa.reshape %arg1, %1 : (tensor<4x4xf32>, !tosa.shape<3>) -> tensor<1x4x4xf32>
        %5 = tosa.matmul %3, %4, %0, %0 : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
        %6 = tosa.matmul %3, %5, %0, %0 : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
        %7 = tosa.reshape %6, %2 : (tensor<1x4x4xf32>, !tosa.shape<2>) -> tensor<4x4xf32>
        return %7 : tensor<4x4xf32>
      }"#;
    // Small integers: every product and sum is exact in f32.
    let a: Vec<f32> = (0..16).map(|i| ((i * 7) % 5) as f32 - 2.0).collect();
    let b: Vec<f32> = (0..16).map(|i| ((i * 3) % 7) as f32 - 3.0).collect();
    let mm = |x: &[f32], y: &[f32]| -> Vec<f32> {
        (0..16).map(|e| (0..4).map(|k| x[e / 4 * 4 + k] * y[k * 4 + e % 4]).sum()).collect()
    };
    let want = mm(&a, &mm(&a, &b));
    let inputs = [Tensor::from_slice(&a, &[4, 4]).unwrap(), Tensor::from_slice(&b, &[4, 4]).unwrap()];
    let dir = std::env::temp_dir().join(format!("tcc-dependent-matmuls-{}", std::process::id()));
    for search in [tcc::SearchMode::Taso, tcc::SearchMode::Greedy] {
        for backend in tcc::backend::compiled_backends() {
            // By the cost estimate (deterministic), into a scratch cost database.
            let options = tcc::Options {
                backend,
                rewrite_search: search,
                estimate_costs_only: true,
                cost_db: Some(dir.join("costs.json")),
                ..Default::default()
            };
            let model = Runtime::builder()
                .options(options)
                .load_str(src)
                .unwrap_or_else(|e| panic!("{search:?}, {backend:?}: {e}"));
            let out = model.run(&inputs).unwrap();
            assert_eq!(f32s(&out[0]), want, "{search:?}, {backend:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tosa.reverse` (torch.flip) on random shapes and axes, then `tosa.identity`, against
/// the reversal computed by index, on every backend with 1 and 2 threads; a reverse
/// axis out of range is an error naming it.
#[test]
fn reverse_matches_reversal_by_index() {
    let mut state = 0x9E37_79B9_u64;
    let mut next = |n: u64| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) % n
    };
    for case in 0..24 {
        let rank = 1 + next(4) as usize;
        let shape: Vec<usize> = (0..rank).map(|_| 1 + next(9) as usize).collect();
        let axis = next(rank as u64) as usize;
        let t = format!("tensor<{}xf32>", shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x"));
        let src = format!(
            "func.func @main(%x: {t}) -> {t} {{\n  %0 = tosa.reverse %x {{axis = {axis} : i32}} : ({t}) -> {t}\n  \
             %1 = tosa.identity %0 : ({t}) -> {t}\n  return %1 : {t}\n}}\n"
        );
        let n: usize = shape.iter().product();
        let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
        // Element i of the result is element j of the input, j being i with its `axis`
        // coordinate c replaced by shape[axis] - 1 - c.
        let inner: usize = shape[axis + 1..].iter().product();
        let want: Vec<f32> = (0..n)
            .map(|i| {
                let c = i / inner % shape[axis];
                (i - c * inner + (shape[axis] - 1 - c) * inner) as f32
            })
            .collect();
        let out = run_threads(&src, &[Tensor::from_slice(&x, &shape).unwrap()]);
        assert_eq!(f32s(&out[0]), want, "case {case}\n{src}");
    }
    let bad = "func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {\n  \
               %0 = tosa.reverse %x {axis = 2 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>\n  \
               return %0 : tensor<2x3xf32>\n}\n";
    let Err(err) = Runtime::builder().load_str(bad) else { panic!("an axis out of range is refused") };
    let err = err.to_string();
    assert!(err.contains("axis 2 is out of range"), "{err}");
}

/// i8 as torch-mlir exports it: a matmul of i8 operands accumulates in i32 (100 x 100
/// x 4 = 40000, far beyond i8), while i8 additions and products wrap at 8 bits (100 +
/// 100 = -56, 100 x 3 = 44), on every backend.
#[test]
fn i8_matmul_accumulates_in_i32_and_i8_arithmetic_wraps() {
    let src = r#"
      func.func @main(%a: tensor<1x2x4xi8>, %b: tensor<1x4x2xi8>) -> (tensor<1x2x2xi32>, tensor<1x2x4xi8>, tensor<1x2x4xi8>) {
        %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
        %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
        %three = "tosa.const"() <{values = dense<3> : tensor<1x1x1xi8>}> : () -> tensor<1x1x1xi8>
        %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2x4xi8>, tensor<1x4x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2xi32>
        %1 = tosa.add %a, %a : (tensor<1x2x4xi8>, tensor<1x2x4xi8>) -> tensor<1x2x4xi8>
        %2 = tosa.mul %a, %three, %shift : (tensor<1x2x4xi8>, tensor<1x1x1xi8>, tensor<1xi8>) -> tensor<1x2x4xi8>
        return %0, %1, %2 : tensor<1x2x2xi32>, tensor<1x2x4xi8>, tensor<1x2x4xi8>
      }"#;
    let a: Vec<i8> = vec![100, 100, 100, 100, -1, 2, -3, 4];
    let b: Vec<i8> = vec![100, 1, 100, 1, 100, 1, 100, 1];
    let out = run(src, &[Tensor::from_slice(&a, &[1, 2, 4]).unwrap(), Tensor::from_slice(&b, &[1, 4, 2]).unwrap()]);
    assert_eq!(out[0].to_vec::<i32>().unwrap(), [40000, 400, 200, 2]);
    assert_eq!(out[1].to_vec::<i8>().unwrap(), [-56, -56, -56, -56, -2, 4, -6, 8]);
    assert_eq!(out[2].to_vec::<i8>().unwrap(), [44, 44, 44, 44, -3, 6, -9, 12]);
}

/// `tosa.transpose_conv2d` on random shapes against its TOSA definition computed here
/// (each input cell's products with the kernel added at `cell x stride + out_pad +
/// tap`, cells landing outside the output dropped): strides 1-3, kernels 1-4, out_pad
/// from `1 - kernel` (cropping) to 2, on every backend with 1 and 2 threads.
#[test]
fn transpose_conv2d_matches_its_definition() {
    let mut next = draws(0x2545_F491);
    for case in 0..16 {
        let (n, ih, iw, ic, oc) = (next(1, 2), next(1, 5), next(1, 5), next(1, 3), next(1, 4));
        let (kh, kw, sy, sx) = (next(1, 4), next(1, 4), next(1, 3), next(1, 3));
        let pad = [next(1 - kh, 2), next(1 - kh, 2), next(1 - kw, 2), next(1 - kw, 2)];
        let oh = (ih - 1) * sy + pad[0] + pad[1] + kh;
        let ow = (iw - 1) * sx + pad[2] + pad[3] + kw;
        if oh < 1 || ow < 1 {
            continue;
        }
        let x = quarters(n * ih * iw * ic, &mut next);
        let w = quarters(oc * kh * kw * ic, &mut next);
        let b = quarters(oc, &mut next);
        let mut want = vec![0f32; (n * oh * ow * oc) as usize];
        for (i, v) in want.iter_mut().enumerate() {
            *v = b[i % oc as usize];
        }
        for (bn, y, xx, o, c, ky, kx) in (0..n).flat_map(|bn| {
            (0..ih).flat_map(move |y| {
                (0..iw).flat_map(move |xx| {
                    (0..oc).flat_map(move |o| {
                        (0..ic).flat_map(move |c| {
                            (0..kh).flat_map(move |ky| (0..kw).map(move |kx| (bn, y, xx, o, c, ky, kx)))
                        })
                    })
                })
            })
        }) {
            let (oy, ox) = (y * sy + pad[0] + ky, xx * sx + pad[2] + kx);
            if (0..oh).contains(&oy) && (0..ow).contains(&ox) {
                let xv = x[(((bn * ih + y) * iw + xx) * ic + c) as usize];
                let wv = w[(((o * kh + ky) * kw + kx) * ic + c) as usize];
                want[(((bn * oh + oy) * ow + ox) * oc + o) as usize] += xv * wv;
            }
        }
        let (xt, wt, bt, yt) =
            (f32_type(&[n, ih, iw, ic]), f32_type(&[oc, kh, kw, ic]), f32_type(&[oc]), f32_type(&[n, oh, ow, oc]));
        let src = format!(
            "func.func @main(%x: {xt}, %w: {wt}, %b: {bt}) -> {yt} {{\n  \
             %zp = \"tosa.const\"() <{{values = dense<0.0> : tensor<1xf32>}}> : () -> tensor<1xf32>\n  \
             %0 = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {{acc_type = f32, out_pad = array<i64: {}, {}, {}, {}>, \
             stride = array<i64: {sy}, {sx}>}} : ({xt}, {wt}, {bt}, tensor<1xf32>, tensor<1xf32>) -> {yt}\n  \
             return %0 : {yt}\n}}\n",
            pad[0], pad[1], pad[2], pad[3]
        );
        let inputs = [
            Tensor::from_slice(&x, &[n as usize, ih as usize, iw as usize, ic as usize]).unwrap(),
            Tensor::from_slice(&w, &[oc as usize, kh as usize, kw as usize, ic as usize]).unwrap(),
            Tensor::from_slice(&b, &[oc as usize]).unwrap(),
        ];
        // Quarters times quarters summed: exact in f32 in any order.
        assert_eq!(f32s(&run_threads(&src, &inputs)[0]), want, "case {case}\n{src}");
    }
}

/// `tosa.conv3d` on random shapes against its TOSA definition computed here (`out[n, d,
/// y, x, o] = bias[o] + sum of in[n, d*sd - front + kd*dd, y*sy - top + kh*dh, x*sx -
/// left + kw*dw, c] * w[o, kd, kh, kw, c]`, zero outside the input): kernels 1-3 in each
/// dimension, strides and dilations 1-2, pads 0-2, on every backend with 1 and 2 threads.
#[test]
fn conv3d_matches_its_definition() {
    let mut next = draws(0x9E37_79B9);
    let mut cases = 0;
    while cases < 12 {
        let (n, ic, oc) = (next(1, 2), next(1, 3), next(1, 3));
        let input = [next(1, 5), next(1, 5), next(1, 5)];
        let kernel = [next(1, 3), next(1, 3), next(1, 3)];
        let (stride, dilation) = ([next(1, 2), next(1, 2), next(1, 2)], [next(1, 2), next(1, 2), next(1, 2)]);
        let pad = [next(0, 2), next(0, 2), next(0, 2), next(0, 2), next(0, 2), next(0, 2)];
        let out: Vec<i64> = (0..3)
            .map(|a| {
                (input[a] + pad[2 * a] + pad[2 * a + 1] - (kernel[a] - 1) * dilation[a] - 1).div_euclid(stride[a]) + 1
            })
            .collect();
        if out.iter().any(|&o| o < 1) {
            continue;
        }
        cases += 1;
        let [id, ih, iw] = input;
        let [kd, kh, kw] = kernel;
        let (od, oh, ow) = (out[0], out[1], out[2]);
        let x = quarters(n * id * ih * iw * ic, &mut next);
        let w = quarters(oc * kd * kh * kw * ic, &mut next);
        let b = quarters(oc, &mut next);
        let mut want = Vec::new();
        for (bn, d, y, xx, o) in (0..n).flat_map(|bn| {
            (0..od).flat_map(move |d| {
                (0..oh).flat_map(move |y| (0..ow).flat_map(move |xx| (0..oc).map(move |o| (bn, d, y, xx, o))))
            })
        }) {
            let mut acc = b[o as usize];
            for (a, c, e, ch) in (0..kd).flat_map(|a| {
                (0..kh).flat_map(move |c| (0..kw).flat_map(move |e| (0..ic).map(move |ch| (a, c, e, ch))))
            }) {
                let (zd, zy, zx) = (
                    d * stride[0] - pad[0] + a * dilation[0],
                    y * stride[1] - pad[2] + c * dilation[1],
                    xx * stride[2] - pad[4] + e * dilation[2],
                );
                if (0..id).contains(&zd) && (0..ih).contains(&zy) && (0..iw).contains(&zx) {
                    let xv = x[((((bn * id + zd) * ih + zy) * iw + zx) * ic + ch) as usize];
                    let wv = w[((((o * kd + a) * kh + c) * kw + e) * ic + ch) as usize];
                    acc += xv * wv;
                }
            }
            want.push(acc);
        }
        let (xt, wt, bt, yt) = (
            f32_type(&[n, id, ih, iw, ic]),
            f32_type(&[oc, kd, kh, kw, ic]),
            f32_type(&[oc]),
            f32_type(&[n, od, oh, ow, oc]),
        );
        let list = |v: &[i64]| v.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
        let src = format!(
            "func.func @main(%x: {xt}, %w: {wt}, %b: {bt}) -> {yt} {{\n  \
             %zp = \"tosa.const\"() <{{values = dense<0.0> : tensor<1xf32>}}> : () -> tensor<1xf32>\n  \
             %0 = tosa.conv3d %x, %w, %b, %zp, %zp {{acc_type = f32, dilation = array<i64: {}>, pad = array<i64: {}>, \
             stride = array<i64: {}>}} : ({xt}, {wt}, {bt}, tensor<1xf32>, tensor<1xf32>) -> {yt}\n  \
             return %0 : {yt}\n}}\n",
            list(&dilation),
            list(&pad),
            list(&stride)
        );
        let dims = |s: &[i64]| s.iter().map(|&d| d as usize).collect::<Vec<_>>();
        let inputs = [
            Tensor::from_slice(&x, &dims(&[n, id, ih, iw, ic])).unwrap(),
            Tensor::from_slice(&w, &dims(&[oc, kd, kh, kw, ic])).unwrap(),
            Tensor::from_slice(&b, &[oc as usize]).unwrap(),
        ];
        // Quarters times quarters summed: exact in f32 in any order.
        assert_eq!(f32s(&run_threads(&src, &inputs)[0]), want, "case {cases}\n{src}");
    }
}
