//! The torch-mlir export corpus (`tests/exports`, written by `gen_exports.py`): small
//! PyTorch modules whose ops or element types tcc once refused or got wrong (scatter,
//! argmax, reverse, reduce_product, transpose_conv2d, conv3d, i8/i16 arithmetic, f16
//! and bf16 models, count_nonzero's mask constant, dependent matmuls in the rewrite
//! search), compiled with every backend of the build and run on 1 and 2 threads.
//! Integer and boolean results equal PyTorch's, f32 and f64 ones are within 1e-5 of the
//! output's scale (f16 ones within 1e-3, bf16 ones within 1e-2), and the two thread
//! counts agree bit for bit.

mod common;

use common::*;

#[test]
fn exports_match_pytorch() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/exports");
    let cases = mlir_stems(&dir);
    assert!(cases.len() >= 30, "export cases missing: {cases:?}");
    let mut failures = Vec::new();
    for backend in tcc::backend::compiled_backends() {
        for case in &cases {
            let (inputs, wants) =
                (load_npys(&dir.join(format!("{case}.in"))), load_npys(&dir.join(format!("{case}.out"))));
            let mut results = Vec::new();
            for threads in [1, 2] {
                let model =
                    tcc::Runtime::builder().backend(backend).threads(threads).load(dir.join(format!("{case}.mlir")));
                match model.and_then(|m| m.run(&inputs)) {
                    Ok(out) => results.push(out),
                    Err(e) => failures.push(format!("{backend:?} {case}, {threads} thread(s): {e}")),
                }
            }
            let Some(first) = results.first() else { continue };
            for (i, (got, want)) in first.iter().zip(&wants).enumerate() {
                if got.dtype() != want.dtype() || got.shape() != want.shape() {
                    failures.push(format!(
                        "{backend:?} {case} result {i}: {:?} {:?}, PyTorch {:?} {:?}",
                        got.dtype(),
                        got.shape(),
                        want.dtype(),
                        want.shape()
                    ));
                    continue;
                }
                let (g, w) = (to_f64s(got), to_f64s(want));
                // 16-bit results are f32 results rounded: a summation order apart, they
                // may round to neighbouring values (2^-11 relative in f16, 2^-8 in bf16).
                let tolerance = match want.dtype() {
                    tcc::DType::F32 | tcc::DType::F64 => Some(1e-5),
                    tcc::DType::F16 => Some(1e-3),
                    tcc::DType::BF16 => Some(1e-2),
                    _ => None,
                };
                let ok = match tolerance {
                    None => g == w,
                    Some(t) => max_error(&g, &w).is_ok_and(|e| e <= t * scale(&w)),
                };
                if !ok {
                    failures.push(format!("{backend:?} {case} result {i}: {g:?}, PyTorch {w:?}"));
                }
            }
            if let [a, b] = &results[..]
                && a.iter().zip(b).any(|(x, y)| x.bytes() != y.bytes())
            {
                failures.push(format!("{backend:?} {case}: 1 and 2 threads differ"));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
