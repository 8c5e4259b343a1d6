//! Minima and maxima against constants (ReLU, clamps, `graph.max`/`graph.min` with a
//! splat) on the values where their definition is delicate: NaN (which propagates),
//! zeros of both signs (`-0 < +0`) and infinities, bit for bit against the interpreter
//! on every code generator and every microkernel level. The LLVM backend emits them as
//! x86 `maxps`/`minps` with the constant first, which returns the other operand's NaN
//! but not the IEEE sign of zero: `max(x, +0)` adds `+0` after it, `min(x, -0)` keeps
//! the generic form.

use tcc::graph::{Data, Tensor as ITensor, run_function};

mod common;

/// 64 values: each special value several times, at every place in a vector of any
/// width, among ordinary ones.
fn inputs() -> Vec<f32> {
    let special = [0.0, -0.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -1.5, 1.5, 7.0, -7.0, 0.25, 6.0, -6.0];
    (0..64).map(|i| special[(i * 5 + i / 12) % special.len()]).collect()
}

/// A model applying `body` (which reads `%x` and defines `%y`, both `tensor<64xf32>`).
fn model(body: &str) -> String {
    let t = "tensor<64xf32>";
    format!("func.func @main(%x: {t}) -> {t} {{\n{body}\n  return %y : {t}\n}}\n")
}

/// A splat constant `%c` of `value` (an MLIR float literal), then `%y = op`.
fn with_constant(value: &str, op: &str) -> String {
    let t = "tensor<64xf32>";
    model(&format!(
        "  %c = graph.constant {{value = dense<{value}> : {t}}} : () -> {t}\n  %y = {op} : ({t}, {t}) -> {t}"
    ))
}

#[test]
fn extrema_against_constants_keep_nans_and_signed_zeros() {
    let t = "tensor<64xf32>";
    let mut models = vec![
        model(&format!("  %y = graph.relu %x : ({t}) -> {t}")),
        model(&format!("  %y = graph.clamp %x {{min = 0.0, max = 6.0}} : ({t}) -> {t}")),
        model(&format!("  %y = graph.clamp %x {{min = -0.0, max = 0.0}} : ({t}) -> {t}")),
    ];
    for value in ["0.0", "-0.0", "1.5", "0x7F800000", "0xFF800000"] {
        models.push(with_constant(value, "graph.max %x, %c"));
        models.push(with_constant(value, "graph.max %c, %x"));
        models.push(with_constant(value, "graph.min %x, %c"));
        models.push(with_constant(value, "graph.min %c, %x"));
    }
    let xs = inputs();
    let bits = |v: f32| if v.is_nan() { u32::MAX } else { v.to_bits() };
    for (i, text) in models.iter().enumerate() {
        let m = tcc::parse_model("<case>", text.as_bytes().to_vec()).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let x = ITensor::new(vec![64], Data::F32(xs.clone())).unwrap();
        let want = run_function(&m, m.func("main").unwrap(), &[x]).unwrap_or_else(|e| panic!("{e}\n{text}"));
        // (f32 to f64 and back keeps every value's bits, signed zeros included.)
        let want: Vec<f32> = want[0].to_f64s().iter().map(|&v| v as f32).collect();
        // Every microkernel level in turn (`code_generators` picks one by seed).
        for seed in 0..8 {
            for (backend, builder) in common::code_generators(seed) {
                let compiled = builder.load_str(text).unwrap_or_else(|e| panic!("{backend}: {e}\n{text}"));
                let got = compiled.run(&[tcc::Tensor::from_slice(&xs, &[64]).unwrap()]).unwrap();
                let got = got[0].as_slice::<f32>().unwrap();
                for (j, (&g, &w)) in got.iter().zip(&want).enumerate() {
                    assert_eq!(bits(g), bits(w), "case {i}, {backend}: element {j} of {}: {g} vs {w}\n{text}", xs[j]);
                }
            }
        }
    }
}
