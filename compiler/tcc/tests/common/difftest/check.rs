//! The check: the interpreter as the oracle, every backend and thread count compared
//! with it, each result by its standard.

use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};

use tcc::graph::{Data, Tensor as ITensor, run_function};

use super::generator::{Case, Elem, Expect};

/// What a case did.
#[derive(Debug, Default)]
pub struct Stats {
    /// (backend, threads) combinations that compiled, ran and agreed.
    pub agreed: usize,
    /// Compile errors (a clean `Err`), one message per failed combination.
    pub compile_errors: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The generator wrote something the parser, verifier or interpreter rejects: a bug
    /// of the generator, not of the compiler.
    Generator,
    /// Compiling or running panicked.
    Panic,
    /// The compiled model failed at run time where the interpreter did not.
    RunError,
    /// A result differs from the interpreter's beyond its standard.
    Mismatch,
}

/// A disagreement, with what it takes to reproduce it.
#[derive(Debug)]
pub struct Finding {
    pub kind: Kind,
    pub backend: Option<tcc::Backend>,
    pub threads: usize,
    pub message: String,
    pub text: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.backend {
            Some(b) => write!(f, "{:?} on {b:?} with {} thread(s): ", self.kind, self.threads)?,
            None => write!(f, "{:?}: ", self.kind)?,
        }
        write!(f, "{}\n--- model ---\n{}", self.message, self.text)
    }
}

/// Compiler bugs this check has found and that are not fixed yet, recognized by the
/// model and the finding, so that the property test and the fuzzer go on finding
/// others; each has a regression file marked `// XFAIL: name` in `codegen_fuzz/`.
/// Returns the issue's name. None is open: the two found so far
/// (`cranelift-i1-vector-cast`, `padded-conv-channels-nan`) are fixed; an entry is a
/// `(name, recognizer)` pair here while one is.
pub fn known_issue(case: &Case, f: &Finding) -> Option<&'static str> {
    KNOWN_ISSUES.iter().find(|(_, recognizes)| recognizes(case, f)).map(|(name, _)| *name)
}

type Recognizer = fn(&Case, &Finding) -> bool;

const KNOWN_ISSUES: &[(&str, Recognizer)] = &[];

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default()
}

/// Runs `case` on the interpreter and on every backend in `backends` with each thread
/// count in `threads`, comparing results. With `catch_panics`, a panic becomes a
/// `Finding` (the test reports it with the model); without, it propagates (libFuzzer
/// records the input).
pub fn check(case: &Case, backends: &[tcc::Backend], threads: &[usize], catch_panics: bool) -> Result<Stats, Finding> {
    let finding =
        |kind, backend, threads, message: String| Finding { kind, backend, threads, message, text: case.text.clone() };
    let m = tcc::parse_model("<generated>", case.text.as_bytes().to_vec())
        .map_err(|e| finding(Kind::Generator, None, 0, format!("does not parse: {e}")))?;
    tcc::ir::verify(&m).map_err(|e| finding(Kind::Generator, None, 0, format!("does not verify: {e}")))?;
    let func = m.func("main").ok_or_else(|| finding(Kind::Generator, None, 0, "no @main".into()))?;
    let want = run_function(&m, func, &case.inputs)
        .map_err(|e| finding(Kind::Generator, None, 0, format!("interpreter: {e}")))?;
    if want.len() != case.outputs.len() {
        return Err(finding(Kind::Generator, None, 0, "result count".into()));
    }
    let inputs: Vec<tcc::Tensor> =
        case.inputs.iter().map(|t| tcc::runtime_tensor(t).expect("interpreter tensors are valid")).collect();
    let mut stats = Stats::default();
    for &backend in backends {
        for &t in threads {
            let compile_and_run = || -> Result<Result<Vec<tcc::Tensor>, (bool, String)>, String> {
                let model = match tcc::Runtime::builder().backend(backend).threads(t).load_str(&case.text) {
                    Ok(model) => model,
                    Err(e) => return Ok(Err((true, e.to_string()))),
                };
                Ok(model.run(&inputs).map_err(|e| (false, e.to_string())))
            };
            let outcome = if catch_panics {
                catch_unwind(AssertUnwindSafe(compile_and_run)).unwrap_or_else(|p| Err(panic_message(&*p)))
            } else {
                compile_and_run()
            };
            let got = match outcome {
                Err(panic) => return Err(finding(Kind::Panic, Some(backend), t, format!("panicked: {panic}"))),
                Ok(Err((true, e))) => {
                    stats.compile_errors.push(format!("{backend:?}: {e}"));
                    continue;
                }
                Ok(Err((false, e))) => {
                    return Err(finding(Kind::RunError, Some(backend), t, format!("{e}\ninputs: {:?}", case.inputs)));
                }
                Ok(Ok(got)) => got,
            };
            if got.len() != want.len() {
                return Err(finding(
                    Kind::Mismatch,
                    Some(backend),
                    t,
                    format!("{} results, expected {}", got.len(), want.len()),
                ));
            }
            for (i, ((g, w), expect)) in got.iter().zip(&want).zip(&case.outputs).enumerate() {
                if let Err(e) = compare(g, w, expect) {
                    let message = format!("result {i} ({}): {e}\ninputs: {:?}", standard(expect), case.inputs);
                    return Err(finding(Kind::Mismatch, Some(backend), t, message));
                }
            }
            stats.agreed += 1;
        }
    }
    Ok(stats)
}

pub fn standard(e: &Expect) -> String {
    if e.exact {
        format!("{}, bit for bit", e.elem.name())
    } else {
        format!("{}, within {:.3e} (scale {:.3e})", e.elem.name(), e.tol, e.scale)
    }
}

/// Compares one result with the interpreter's by its standard.
pub fn compare(got: &tcc::Tensor, want: &ITensor, expect: &Expect) -> Result<(), String> {
    if got.shape() != want.shape() {
        return Err(format!("shape {:?}, expected {:?}", got.shape(), want.shape()));
    }
    let bad = |k: usize, g: String, w: String| {
        Err(format!("element {k} (of {}): compiled {g}, interpreter {w}", want.numel()))
    };
    match (want.data(), expect.elem) {
        (Data::F32(w), Elem::F32) => {
            let g = got.as_slice::<f32>().ok_or("element type differs")?;
            for (k, (&g, &w)) in g.iter().zip(w).enumerate() {
                if !float_ok(g as f64, w as f64, g.to_bits() as u64 == w.to_bits() as u64, expect) {
                    return bad(k, format!("{g:e} ({:#010x})", g.to_bits()), format!("{w:e} ({:#010x})", w.to_bits()));
                }
            }
        }
        (Data::F64(w), Elem::F64) => {
            let g = got.as_slice::<f64>().ok_or("element type differs")?;
            for (k, (&g, &w)) in g.iter().zip(w).enumerate() {
                if !float_ok(g, w, g.to_bits() == w.to_bits(), expect) {
                    return bad(k, format!("{g:e}"), format!("{w:e}"));
                }
            }
        }
        (Data::I32(w), Elem::I32) => {
            let g = got.as_slice::<i32>().ok_or("element type differs")?;
            if let Some(k) = g.iter().zip(w).position(|(a, b)| a != b) {
                return bad(k, g[k].to_string(), w[k].to_string());
            }
        }
        (Data::I64(w), Elem::I64) => {
            let g = got.as_slice::<i64>().ok_or("element type differs")?;
            if let Some(k) = g.iter().zip(w).position(|(a, b)| a != b) {
                return bad(k, g[k].to_string(), w[k].to_string());
            }
        }
        (Data::I1(w), Elem::I1) => {
            let g = got.as_slice::<bool>().ok_or("element type differs")?;
            if let Some(k) = g.iter().zip(w).position(|(a, b)| a != b) {
                return bad(k, g[k].to_string(), w[k].to_string());
            }
        }
        (d, e) => return Err(format!("the interpreter's result {d:?} is not of {e:?}")),
    }
    Ok(())
}

fn float_ok(g: f64, w: f64, same_bits: bool, expect: &Expect) -> bool {
    if g.is_nan() || w.is_nan() {
        return g.is_nan() && w.is_nan();
    }
    if expect.exact {
        return same_bits;
    }
    if !g.is_finite() || !w.is_finite() {
        return g == w;
    }
    (g - w).abs() <= expect.tol + f32::MIN_POSITIVE as f64
}

/// The ops of the optimized graph (as `tcc --emit=graph` shows it) that say which
/// kernels and groups formed: blocked convs and pools, packed and batch matmuls, fused
/// epilogues, fusion groups.
pub fn optimized_forms(text: &str, backend: tcc::Backend) -> Vec<&'static str> {
    const FORMS: &[&str] = &[
        "graph.conv2d_nchwc",
        "graph.max_pool2d_nchwc",
        "graph.avg_pool2d_nchwc",
        "graph.matmul_packed",
        "graph.batch_matmul",
        "graph.fused",
        "graph.layout_transform",
        // Ends a kernel's epilogue or a fusion group's body.
        "graph.yield",
    ];
    let Ok(mut m) = tcc::parse_model("<generated>", text.as_bytes().to_vec()) else { return vec![] };
    let options = tcc::Options { backend, ..Default::default() };
    let Ok(session) = tcc::Session::new(&options) else { return vec![] };
    if tcc::pipeline::optimize_graph(&mut m, &session).is_err() {
        return vec![];
    }
    let printed = tcc::ir::print_module(&m, tcc::ir::PrintOptions::default());
    let mut out = Vec::new();
    for f in FORMS {
        for _ in 0..printed.matches(&format!("{f} ")).count() {
            out.push(*f);
        }
    }
    out
}
