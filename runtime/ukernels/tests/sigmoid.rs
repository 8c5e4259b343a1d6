//! The scalar and vector sigmoids ([`tcc_ukernels::sigmoid`]) against f64 and against
//! each other. (An integration test, so that `cargo test` does not compile the crate's
//! many kernels a second time for unit tests.)

use tcc_ukernels::sigmoid::*;

#[test]
fn the_sigmoid_is_close_to_f64s() {
    // Relative error where the result is a normal f32 (f32's own rounding is 6e-8).
    let mut worst = (0.0f64, 0.0f32);
    for i in -17_000..=20_000 {
        let x = i as f32 * 0.005;
        let want = 1.0 / (1.0 + (-(x as f64)).exp());
        let error = (sigmoid(x) as f64 - want).abs() / want;
        if error > worst.0 {
            worst = (error, x);
        }
    }
    assert!(worst.0 < 4e-7, "relative error {} at {}", worst.0, worst.1);
    assert_eq!(sigmoid(200.0), 1.0);
    assert_eq!(sigmoid(f32::INFINITY), 1.0);
    // Saturated below: the clamp's bound gives a subnormal, not 0.
    for x in [-200.0, f32::NEG_INFINITY] {
        assert!((0.0..1e-38).contains(&sigmoid(x)), "sigmoid({x}) = {}", sigmoid(x));
    }
    assert!(sigmoid(f32::NAN).is_nan());
}

#[cfg(target_arch = "x86_64")]
#[test]
fn every_level_computes_the_same_sigmoid() {
    use std::arch::x86_64::*;
    let xs: Vec<f32> = (-400..400).map(|i| i as f32 * 0.25 + 0.013).chain([f32::NAN, -0.0, 0.0]).collect();
    let check = |lanes: &[f32], from: &[f32]| {
        for (&got, &x) in lanes.iter().zip(from) {
            let want = sigmoid(x);
            assert!(got == want || (got.is_nan() && want.is_nan()), "sigmoid({x}): {got} against {want}");
        }
    };
    for chunk in xs.chunks_exact(4) {
        // SAFETY: SSE2 is baseline on x86-64; the arrays hold 4 lanes.
        let v = unsafe { sigmoid128(_mm_loadu_ps(chunk.as_ptr())) };
        let mut out = [0.0f32; 4];
        unsafe { _mm_storeu_ps(out.as_mut_ptr(), v) };
        check(&out, chunk);
    }
    if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        for chunk in xs.chunks_exact(8) {
            let mut out = [0.0f32; 8];
            // SAFETY: the CPU has AVX2; the arrays hold 8 lanes.
            unsafe { _mm256_storeu_ps(out.as_mut_ptr(), sigmoid256(_mm256_loadu_ps(chunk.as_ptr()))) };
            check(&out, chunk);
        }
    }
    if is_x86_feature_detected!("avx512f") {
        for chunk in xs.chunks_exact(16) {
            let mut out = [0.0f32; 16];
            // SAFETY: the CPU has AVX-512F; the arrays hold 16 lanes.
            unsafe { _mm512_storeu_ps(out.as_mut_ptr(), sigmoid512(_mm512_loadu_ps(chunk.as_ptr()))) };
            check(&out, chunk);
        }
    }
}
