//! Every PyTorch reference case (dialects/graph/tests/reference) compiled with the JIT
//! of every backend this build has and run on 1 and 2 threads: results match PyTorch
//! within 1e-4 of the output's scale, and the two thread counts agree bit for bit.

mod common;

use common::*;

#[test]
fn jit_matches_pytorch_on_every_reference_case() {
    let dir = reference_dir();
    let cases = mlir_stems(&dir.join("models"));
    assert!(cases.len() > 50, "reference cases missing");
    let mut failures = Vec::new();
    for backend in tcc::backend::compiled_backends() {
        for case in &cases {
            check_case(&dir, case, backend, &mut failures);
        }
    }
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// Compiles and runs one reference case with `backend`; appends what went wrong.
fn check_case(dir: &std::path::Path, case: &str, backend: tcc::Backend, failures: &mut Vec<String>) {
    let (inputs, wants) =
        (load_npys(&dir.join(format!("data/{case}.in"))), load_npys(&dir.join(format!("data/{case}.out"))));
    let path = dir.join(format!("models/{case}.mlir"));
    let mut results = Vec::new();
    for threads in [1, 2] {
        let model = match tcc::Runtime::builder().backend(backend).threads(threads).load(&path) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{backend:?} {case}: compile error: {e}"));
                break;
            }
        };
        match model.run(&inputs) {
            Ok(out) => results.push(out),
            Err(e) => failures.push(format!("{backend:?} {case}: run error: {e}")),
        }
    }
    let Some(one) = results.first() else { return };
    for (i, (got, want)) in one.iter().zip(&wants).enumerate() {
        let (g, w) = (to_f64s(got), to_f64s(want));
        match max_error(&g, &w) {
            Ok(err) if err <= 1e-4 * scale(&w) => println!("{backend:?} {case} result {i}: max error {err:.3e}"),
            Ok(err) => {
                failures.push(format!("{backend:?} {case} result {i}: max error {err:.3e} > {:.3e}", 1e-4 * scale(&w)))
            }
            Err(e) => failures.push(format!("{backend:?} {case} result {i}: {e}")),
        }
    }
    if let [a, b] = &results[..] {
        for (x, y) in a.iter().zip(b) {
            if x.bytes() != y.bytes() {
                failures.push(format!("{backend:?} {case}: 1 and 2 threads differ"));
            }
        }
    }
}
