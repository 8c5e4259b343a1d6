//! The reference interpreter against PyTorch.
//!
//! `tests/reference/gen_reference.py` writes, per case, a graph-dialect function
//! `tests/reference/models/<case>.mlir` and `.npy` files `tests/reference/data/<case>.in<i>.npy`
//! (the arguments of `@main`) and `<case>.out<i>.npy` (its results, as computed by
//! PyTorch). Every case found by listing `models/` is parsed, verified and run through
//! [`tcc_dialect_graph::run_function`]; each result must satisfy
//! `max |got - want| <= 1e-4 * max(1, max |want|)`.
//!
//! `op_cases` runs the one-op cases; `small_cnn`, `attention_block` and
//! `group_norm_block` the whole models. `cargo test -p tcc-dialect-graph --test reference
//! -- --nocapture` prints the error of every case.

use std::fs;
use std::path::{Path, PathBuf};

use tcc_dialect_graph::{Data, Tensor};

/// The whole-model cases; every other `.mlir` file is an op case.
const MODELS: [&str; 3] = ["small_cnn", "attention_block", "group_norm_block"];

/// Relative tolerance: `max |got - want| <= REL_TOL * max(1, max |want|)`.
const REL_TOL: f64 = 1e-4;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("reference")
}

/// Every case: the stem of each `models/*.mlir`, sorted. Panics when there is none, so a
/// missing or misplaced data directory cannot pass silently.
fn all_cases() -> Vec<String> {
    let dir = root().join("models");
    let entries = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e} (run tests/reference/gen_reference.py)", dir.display()));
    let mut cases: Vec<String> = entries
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .map(|p| p.file_stem().expect("file name").to_string_lossy().into_owned())
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no reference cases in {} (run tests/reference/gen_reference.py)", dir.display());
    cases
}

/// Reads a C-order `.npy` file of f32, f64, i32 or i64 as an interpreter tensor.
fn load_npy(path: &Path) -> Result<Tensor, String> {
    let bytes = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let npy = npyz::NpyFile::new(&bytes[..]).map_err(|e| format!("{}: {e}", path.display()))?;
    let shape: Vec<usize> = npy.shape().iter().map(|&d| d as usize).collect();
    if shape.len() > 1 && npy.order() != npyz::Order::C {
        return Err(format!("{}: Fortran-order arrays are not supported", path.display()));
    }
    let dtype = match npy.dtype() {
        npyz::DType::Plain(t) => t.to_string(),
        other => return Err(format!("{}: unsupported dtype {}", path.display(), other.descr())),
    };
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let data = match dtype.as_str() {
        "<f4" => Data::F32(npy.into_vec::<f32>().map_err(err)?),
        "<f8" => Data::F64(npy.into_vec::<f64>().map_err(err)?),
        "<i4" => Data::I32(npy.into_vec::<i32>().map_err(err)?),
        "<i8" => Data::I64(npy.into_vec::<i64>().map_err(err)?),
        other => return Err(format!("{}: unsupported dtype {other}", path.display())),
    };
    Tensor::new(shape, data).map_err(|e| format!("{}: {e}", path.display()))
}

/// `data/<case>.<kind>0.npy`, `<kind>1.npy`, ... until the first missing index.
fn load_numbered(case: &str, kind: &str) -> Result<Vec<Tensor>, String> {
    let data = root().join("data");
    let mut out = Vec::new();
    loop {
        let path = data.join(format!("{case}.{kind}{}.npy", out.len()));
        if !path.exists() {
            return Ok(out);
        }
        out.push(load_npy(&path)?);
    }
}

fn unravel(mut flat: usize, shape: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        idx[d] = flat % shape[d].max(1);
        flat /= shape[d].max(1);
    }
    idx
}

/// How one result compares: the worst element and the allowed error.
struct Comparison {
    max_err: f64,
    tol: f64,
    worst: Option<(Vec<usize>, f64, f64)>,
}

fn compare(got: &Tensor, want: &Tensor) -> Result<Comparison, String> {
    if got.shape() != want.shape() {
        return Err(format!("shape {:?}, expected {:?}", got.shape(), want.shape()));
    }
    if got.elem() != want.elem() {
        return Err(format!("element type {}, expected {}", got.elem(), want.elem()));
    }
    let (g, w) = (got.to_f64s(), want.to_f64s());
    let scale = w.iter().filter(|v| v.is_finite()).fold(1.0f64, |m, v| m.max(v.abs()));
    let mut cmp = Comparison { max_err: 0.0, tol: REL_TOL * scale, worst: None };
    for (i, (&gv, &wv)) in g.iter().zip(&w).enumerate() {
        let err = if gv == wv || (gv.is_nan() && wv.is_nan()) {
            0.0
        } else if gv.is_finite() && wv.is_finite() {
            (gv - wv).abs()
        } else {
            f64::INFINITY // NaN or an infinity on one side only
        };
        if err > cmp.max_err || cmp.worst.is_none() {
            cmp.max_err = err;
            cmp.worst = Some((unravel(i, want.shape()), gv, wv));
        }
    }
    Ok(cmp)
}

/// Parses, verifies and runs one case; returns a one-line report, or the failure.
fn run_case(case: &str) -> Result<String, String> {
    let path = root().join("models").join(format!("{case}.mlir"));
    let bytes = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let registry = tcc_dialect_graph::registry();
    let module = tcc_ir::parse_bytes(&path.display().to_string(), &bytes, &registry)
        .map_err(|e| format!("parse error:\n{e}"))?;
    tcc_ir::verify(&module).map_err(|e| format!("verifier error:\n{e}"))?;
    let func = module.func("main").ok_or("no func.func @main")?;
    let inputs = load_numbered(case, "in")?;
    let wants = load_numbered(case, "out")?;
    if wants.is_empty() {
        return Err(format!("no data/{case}.out0.npy"));
    }
    let gots =
        tcc_dialect_graph::run_function(&module, func, &inputs).map_err(|e| format!("interpreter error: {e}"))?;
    if gots.len() != wants.len() {
        return Err(format!("{} results, expected {}", gots.len(), wants.len()));
    }
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (i, (got, want)) in gots.iter().zip(&wants).enumerate() {
        let cmp = compare(got, want).map_err(|e| format!("result #{i}: {e}"))?;
        report.push(format!("out{i}: max err {:.3e} (tol {:.1e})", cmp.max_err, cmp.tol));
        if cmp.max_err.is_nan() || cmp.max_err > cmp.tol {
            let (idx, g, w) = cmp.worst.expect("a failing result has elements");
            failures.push(format!(
                "result #{i} {:?}: max |got - want| = {:.6e} > {:.1e}, worst at {idx:?}: got {g:.9e}, want {w:.9e}",
                want.shape(),
                cmp.max_err,
                cmp.tol
            ));
        }
    }
    if failures.is_empty() { Ok(report.join(", ")) } else { Err(failures.join("\n")) }
}

/// Runs `cases`, printing each error; panics listing every failing case.
fn run_all(cases: &[String]) {
    assert!(!cases.is_empty(), "no cases to run");
    let mut failures = Vec::new();
    for case in cases {
        match run_case(case) {
            Ok(report) => println!("ok   {case:<40} {report}"),
            Err(e) => {
                println!("FAIL {case:<40} {}", e.replace('\n', "\n     "));
                failures.push(format!("{case}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} reference cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

fn run_model(name: &str) {
    let cases = all_cases();
    assert!(cases.iter().any(|c| c == name), "missing model case models/{name}.mlir");
    run_all(&[name.to_string()]);
}

#[test]
fn op_cases() {
    let cases: Vec<String> = all_cases().into_iter().filter(|c| !MODELS.contains(&c.as_str())).collect();
    assert!(!cases.is_empty(), "no op cases in tests/reference/models");
    run_all(&cases);
}

#[test]
fn small_cnn() {
    run_model("small_cnn");
}

#[test]
fn attention_block() {
    run_model("attention_block");
}

#[test]
fn group_norm_block() {
    run_model("group_norm_block");
}
