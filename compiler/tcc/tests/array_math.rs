//! `exp` and `erf` computed by the runtime's array math (`offload-math`, Cranelift with
//! AVX2 or AVX-512 microkernels) give exactly the values of their inline expansion:
//! every code generator and microkernel level, bit for bit against Cranelift without
//! microkernels (softmaxes within rounding: their sums are added in other orders), on
//! special values (NaN, infinities, signed zeros, subnormals, the
//! clamps' bounds and their neighbours) and on values spread over the whole f32 range,
//! in rows long enough for whole chunks and a remainder. Also against the interpreter,
//! within the expansions' error.

use tcc::graph::{Data, Tensor as ITensor, run_function};

mod common;

const ROWS: usize = 3;
/// Elementwise rows: two chunks of 64 and a remainder that is not a whole vector.
const COLS: usize = 2 * 64 + 37;
/// Softmax rows (a stitched group's loops, four vectors an iteration): two chunks of 64
/// and a remainder of whole iterations.
const SOFTMAX_COLS: usize = 11 * 16;

fn inputs(cols: usize) -> Vec<f32> {
    let special = [
        0.0,
        -0.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MIN_POSITIVE / 4.0,
        88.722_83,
        88.722_84,
        -87.336_54,
        -87.336_55,
        -103.9,
        4.0,
        -4.0,
        3.999_999_8,
        0.5,
        -0.5,
        1e-20,
        f32::MAX,
    ];
    let mut seed = 0x2545_f491_u64;
    (0..ROWS * cols)
        .map(|i| {
            if i % 7 == 3 {
                return special[(i / 7) % special.len()];
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Magnitudes from 2^-20 to 2^7, either sign.
            let scale = 2f32.powi((seed % 28) as i32 - 20);
            let unit = ((seed >> 8) % 2001) as f32 / 1000.0 - 1.0;
            unit * scale
        })
        .collect()
}

fn model(cols: usize, body: &str) -> (usize, String) {
    let t = format!("tensor<{ROWS}x{cols}xf32>");
    let r = format!("tensor<{ROWS}x1xf32>");
    (
        cols,
        format!(
            "func.func @main(%x: {t}) -> {t} {{\n{}\n  return %y : {t}\n}}\n",
            body.replace("T", &t).replace("R", &r)
        ),
    )
}

#[test]
fn array_math_matches_the_inline_expansion_bit_for_bit() {
    let stitched_softmax = "  %m = graph.reduce_max %x {axes = [1], keepdims = true} : (T) -> R
  %s = graph.sub %x, %m : (T, R) -> T
  %e = graph.exp %s : (T) -> T
  %z = graph.reduce_sum %e {axes = [1], keepdims = true} : (T) -> R
  %y = graph.div %e, %z : (T, R) -> T";
    let models = [
        model(COLS, "  %y = graph.exp %x : (T) -> T"),
        model(COLS, "  %e = graph.erf %x : (T) -> T\n  %y = graph.mul %e, %x : (T, T) -> T"),
        model(COLS, "  %y = graph.softmax %x {axis = 1} : (T) -> T"),
        model(SOFTMAX_COLS, stitched_softmax),
    ];
    let bits = |v: f32| if v.is_nan() { u32::MAX } else { v.to_bits() };
    for (cols, text) in &models {
        let xs = inputs(*cols);
        let run = |builder: tcc::RuntimeBuilder, text: &str| -> Vec<f32> {
            let compiled = builder.load_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let got = compiled.run(&[tcc::Tensor::from_slice(&xs, &[ROWS, *cols]).unwrap()]).unwrap();
            got[0].as_slice::<f32>().unwrap().to_vec()
        };
        let inline = run(tcc::Runtime::builder().backend(tcc::Backend::Cranelift).isa("none"), text);
        // Within the expansions' error of the interpreter (f64 routines), where finite.
        let m = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap();
        let x = ITensor::new(vec![ROWS, *cols], Data::F32(xs.clone())).unwrap();
        let want = run_function(&m, m.func("main").unwrap(), &[x]).unwrap()[0].to_f64s();
        for (j, (&g, &w)) in inline.iter().zip(&want).enumerate() {
            let close = (g as f64 - w).abs() <= 1e-6 * w.abs().max(1e-30) + 1e-30 || (g.is_nan() && w.is_nan());
            assert!(close || g as f64 == w, "inline element {j} of {}: {g} vs interpreter {w}\n{text}", xs[j]);
        }
        // A row's sums come in other orders on LLVM, and on the levels that take rows of
        // a stitched group one at a time (those with array math): not the same bits, but
        // within a few rounding errors of the row's values.
        let sums = text.contains("softmax") || text.contains("reduce_");
        for seed in 0..4 {
            for (backend, builder) in common::code_generators(seed) {
                let got = run(builder, text);
                for (j, (&g, &w)) in got.iter().zip(&inline).enumerate() {
                    let same = bits(g) == bits(w) || sums && (g - w).abs() <= 1e-5 * w.abs() + 1e-12;
                    assert!(same, "{backend}: element {j} of {}: {g} vs inline {w}\n{text}", xs[j]);
                }
            }
        }
    }
}
