//! `tcc._tcc`, the native half of the `tcc` Python package: compile a model (a file or
//! MLIR text) and run it on raw tensor bytes. The Python half (`tcc/__init__.py`)
//! turns numpy arrays into bytes and back and checks dtypes and shapes first, so this
//! module needs no numpy API (and builds as one abi3 wheel for every Python >= 3.9).
//!
//! Errors are Python exceptions carrying tcc's own messages (located diagnostics for
//! a bad model): `CompileError` for a model that cannot be read or compiled, `RunError`
//! for a run that fails (bad inputs, a failed run-time check), `ValueError` for a bad
//! option. Compiling and running release the GIL.

use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyByteArray;

pyo3::create_exception!(_tcc, TccError, PyException, "Base class of tcc's errors.");
pyo3::create_exception!(_tcc, CompileError, TccError, "The model cannot be read or compiled.");
pyo3::create_exception!(_tcc, RunError, TccError, "A run of a compiled model failed.");

fn to_python(e: tcc::Error) -> PyErr {
    match e {
        tcc::Error::Io(m) => CompileError::new_err(m),
        tcc::Error::Compile(d) => CompileError::new_err(d.to_string()),
        tcc::Error::Run(m) => RunError::new_err(m),
        tcc::Error::InvalidOption(m) => PyValueError::new_err(m),
    }
}

/// A compiled model.
#[pyclass(frozen, module = "tcc._tcc")]
struct NativeModel {
    model: tcc::Model,
}

/// `(dtype name, shape)` of each tensor.
fn specs(specs: &[tcc::TensorSpec]) -> Vec<(&'static str, Vec<usize>)> {
    specs.iter().map(|s| (s.dtype.name(), s.shape.clone())).collect()
}

fn dtype_named(name: &str) -> PyResult<tcc::DType> {
    tcc::DType::ALL
        .into_iter()
        .find(|d| d.name() == name)
        .ok_or_else(|| PyValueError::new_err(format!("unknown element type '{name}'")))
}

#[pymethods]
impl NativeModel {
    /// `(dtype name, shape)` of each input, in order.
    fn inputs(&self) -> Vec<(&'static str, Vec<usize>)> {
        specs(self.model.inputs())
    }

    /// `(dtype name, shape)` of each output, in order.
    fn outputs(&self) -> Vec<(&'static str, Vec<usize>)> {
        specs(self.model.outputs())
    }

    fn threads(&self) -> usize {
        self.model.threads()
    }

    /// Runs the model on `(dtype name, shape, bytes)` per input (little-endian,
    /// row-major); returns the outputs the same way, their bytes in bytearrays.
    fn run<'py>(
        &self,
        py: Python<'py>,
        inputs: Vec<(String, Vec<usize>, Vec<u8>)>,
    ) -> PyResult<Vec<(&'static str, Vec<usize>, Bound<'py, PyByteArray>)>> {
        let tensors = inputs
            .iter()
            .enumerate()
            .map(|(i, (dtype, shape, bytes))| {
                tcc::Tensor::from_bytes(dtype_named(dtype)?, shape, bytes)
                    .map_err(|e| RunError::new_err(format!("input #{i}: {e}")))
            })
            .collect::<PyResult<Vec<_>>>()?;
        let outputs = py.detach(|| self.model.run(&tensors)).map_err(to_python)?;
        Ok(outputs.iter().map(|t| (t.dtype().name(), t.shape().to_vec(), PyByteArray::new(py, t.bytes()))).collect())
    }
}

/// The options of a compile or bench call: a backend this build has (else `ValueError`,
/// not a compile error pointing into the model), threads, the memory budget and the
/// microkernels' ISA level (a level this CPU runs, or "none"; else `ValueError`), the
/// precision policy ("fp32" or "bf16"; else `ValueError`) and the rewrite search
/// ("off", "greedy", "taso" or "eqsat"; else `ValueError`) and the Winograd policy
/// ("auto", "off", "2x2" or "4x4", the last two with fp32 only; else `ValueError`).
fn options(
    backend: &str,
    threads: Option<usize>,
    max_memory: Option<u64>,
    isa: Option<String>,
    precision: &str,
    rewrite_search: &str,
    winograd: &str,
) -> PyResult<tcc::Options> {
    let backend: tcc::Backend = backend.parse().map_err(PyValueError::new_err)?;
    if !tcc::backend::compiled_backends().contains(&backend) {
        return Err(PyValueError::new_err(format!(
            "backend '{}' is not in this build of tcc (it has: {})",
            backend.name(),
            backends().join(", ")
        )));
    }
    if max_memory == Some(0) {
        return Err(PyValueError::new_err("max_memory must be at least 1 byte"));
    }
    if let Some(level) = &isa {
        tcc::Isa::resolve(Some(level)).map_err(|e| PyValueError::new_err(format!("isa: {e}")))?;
    }
    let precision: tcc::Precision = precision.parse().map_err(PyValueError::new_err)?;
    let rewrite_search: tcc::SearchMode = rewrite_search.parse().map_err(PyValueError::new_err)?;
    let winograd: tcc::Winograd = winograd.parse().map_err(PyValueError::new_err)?;
    if winograd.is_explicit() && precision != tcc::Precision::Fp32 {
        return Err(PyValueError::new_err(format!("winograd=\"{winograd}\" needs precision=\"fp32\"")));
    }
    Ok(tcc::Options { backend, threads, max_memory, isa, precision, rewrite_search, winograd, ..Default::default() })
}

/// A model's source: a file (`kind` "file") or MLIR text (`kind` "text").
fn source_of(kind: &str, source: String) -> PyResult<(String, tcc::ModelBytes)> {
    match kind {
        "file" => {
            let bytes = tcc::read_model_file(std::path::Path::new(&source)).map_err(CompileError::new_err)?;
            Ok((source, bytes))
        }
        "text" => Ok(("<string>".into(), source.into_bytes().into())),
        other => Err(PyValueError::new_err(format!("unknown source kind '{other}' (expected file or text)"))),
    }
}

/// Compiles a model: `source` is a path (`kind` "file") or MLIR text (`kind` "text").
#[pyfunction]
#[pyo3(signature = (kind, source, backend = "cranelift", threads = None, max_memory = None, isa = None, precision = "fp32", rewrite_search = "taso", winograd = "auto"))]
#[allow(clippy::too_many_arguments)]
fn compile(
    py: Python<'_>,
    kind: &str,
    source: String,
    backend: &str,
    threads: Option<usize>,
    max_memory: Option<u64>,
    isa: Option<String>,
    precision: &str,
    rewrite_search: &str,
    winograd: &str,
) -> PyResult<NativeModel> {
    let options = options(backend, threads, max_memory, isa, precision, rewrite_search, winograd)?;
    let (name, bytes) = source_of(kind, source)?;
    let model = py
        .detach(|| {
            tcc::parse_model(&name, bytes).map_err(tcc::Error::from).and_then(|m| tcc::Model::compile(m, &options))
        })
        .map_err(to_python)?;
    Ok(NativeModel { model })
}

/// `tcc bench --json` on a model given as for [`compile`] (compiled again, with
/// profiling).
#[pyfunction(name = "bench")]
#[pyo3(signature = (kind, source, backend = "cranelift", threads = None, runs = 20, warmup = 3, max_memory = None, isa = None, precision = "fp32", rewrite_search = "taso", winograd = "auto"))]
#[allow(clippy::too_many_arguments)]
fn bench_model(
    py: Python<'_>,
    kind: &str,
    source: String,
    backend: &str,
    threads: Option<usize>,
    runs: usize,
    warmup: usize,
    max_memory: Option<u64>,
    isa: Option<String>,
    precision: &str,
    rewrite_search: &str,
    winograd: &str,
) -> PyResult<String> {
    let options = options(backend, threads, max_memory, isa, precision, rewrite_search, winograd)?;
    let settings = bench_settings(runs, warmup)?;
    let start = std::time::Instant::now();
    let (name, bytes) = source_of(kind, source)?;
    py.detach(|| tcc_bench::bench_bytes(&name, bytes, start, options, &settings, None)).map_err(CompileError::new_err)
}

fn bench_settings(runs: usize, warmup: usize) -> PyResult<tcc_bench::Settings> {
    if runs == 0 {
        return Err(PyValueError::new_err("runs must be at least 1"));
    }
    Ok(tcc_bench::Settings { runs, warmup, json: true })
}

/// `tcc tune` on a model given as for [`compile`] within `budget` seconds, into the
/// tuning database `tuning_db` (default: tcc's cache): the report as JSON (each
/// kernel's default and tuned seconds, configurations measured and the configuration).
#[pyfunction(name = "tune")]
#[pyo3(signature = (kind, source, budget, backend = "cranelift", threads = None, isa = None, precision = "fp32", rewrite_search = "taso", tuning_db = None, winograd = "auto"))]
#[allow(clippy::too_many_arguments)]
fn tune_model(
    py: Python<'_>,
    kind: &str,
    source: String,
    budget: f64,
    backend: &str,
    threads: Option<usize>,
    isa: Option<String>,
    precision: &str,
    rewrite_search: &str,
    tuning_db: Option<String>,
    winograd: &str,
) -> PyResult<String> {
    if !(budget.is_finite() && budget > 0.0 && budget <= 1e7) {
        return Err(PyValueError::new_err(format!("budget must be a positive number of seconds, got {budget}")));
    }
    let mut options = options(backend, threads, None, isa, precision, rewrite_search, winograd)?;
    options.tuning_db = tuning_db.map(std::path::PathBuf::from);
    let (name, bytes) = source_of(kind, source)?;
    let budget = std::time::Duration::from_secs_f64(budget);
    let report = py
        .detach(|| {
            tcc::parse_model(&name, bytes)
                .map_err(tcc::Error::from)
                .and_then(|m| {
                    let settings = tcc::tune::TuneSettings { budget, ..Default::default() };
                    tcc::tune::tune(m, &options, &settings, &mut |_| {})
                })
        })
        .map_err(to_python)?;
    let entries = |kernels: &[tcc::tune::TunedKernel]| -> Vec<serde_json::Value> {
        kernels
            .iter()
            .map(|k| {
                serde_json::json!({
                    "kernel": k.kernel,
                    "instances": k.instances,
                    "candidates": k.candidates,
                    "measured": k.measured,
                    "pruned": k.pruned,
                    "default_seconds": k.default_seconds,
                    "tuned_seconds": k.best_seconds,
                    "config": k.config,
                })
            })
            .collect()
    };
    let json = serde_json::json!({
        "database": report.database.display().to_string(),
        "machine": report.machine,
        "seconds": report.elapsed.as_secs_f64(),
        "rounds": report.rounds,
        "winograd": entries(&report.winograd),
        "kernels": entries(&report.kernels),
    });
    Ok(json.to_string())
}

/// The code generators this build has (`cranelift`, and `llvm` if built with it).
#[pyfunction]
fn backends() -> Vec<&'static str> {
    tcc::backend::compiled_backends().into_iter().map(|b| b.name()).collect()
}

#[pymodule]
fn _tcc(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TccError", m.py().get_type::<TccError>())?;
    m.add("CompileError", m.py().get_type::<CompileError>())?;
    m.add("RunError", m.py().get_type::<RunError>())?;
    m.add_class::<NativeModel>()?;
    m.add_function(wrap_pyfunction!(compile, m)?)?;
    m.add_function(wrap_pyfunction!(bench_model, m)?)?;
    m.add_function(wrap_pyfunction!(tune_model, m)?)?;
    m.add_function(wrap_pyfunction!(backends, m)?)?;
    Ok(())
}
