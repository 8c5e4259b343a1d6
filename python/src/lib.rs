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
    use tcc::DType::*;
    [F32, F64, I32, I64, Bool]
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

fn options(backend: &str, threads: Option<usize>) -> PyResult<tcc::Options> {
    let backend: tcc::Backend = backend.parse().map_err(PyValueError::new_err)?;
    Ok(tcc::Options { backend, threads, ..Default::default() })
}

/// Compiles the model in the file at `path`.
#[pyfunction]
#[pyo3(signature = (path, backend = "cranelift", threads = None))]
fn compile_file(
    py: Python<'_>,
    path: std::path::PathBuf,
    backend: &str,
    threads: Option<usize>,
) -> PyResult<NativeModel> {
    let builder = tcc::Runtime::builder().options(options(backend, threads)?);
    let model = py.detach(|| builder.load(&path)).map_err(to_python)?;
    Ok(NativeModel { model })
}

/// Compiles a model given as MLIR text.
#[pyfunction]
#[pyo3(signature = (text, backend = "cranelift", threads = None))]
fn compile_text(py: Python<'_>, text: String, backend: &str, threads: Option<usize>) -> PyResult<NativeModel> {
    let builder = tcc::Runtime::builder().options(options(backend, threads)?);
    let model = py.detach(|| builder.load_str(&text)).map_err(to_python)?;
    Ok(NativeModel { model })
}

/// `tcc bench --json` on the model file at `path` (compiled again, with profiling).
#[pyfunction]
#[pyo3(signature = (path, backend = "cranelift", threads = None, runs = 20, warmup = 3))]
fn bench_file(
    py: Python<'_>,
    path: std::path::PathBuf,
    backend: &str,
    threads: Option<usize>,
    runs: usize,
    warmup: usize,
) -> PyResult<String> {
    let (options, settings) = (options(backend, threads)?, bench_settings(runs, warmup)?);
    py.detach(|| tcc::bench::bench(&path, options, &settings, None)).map_err(CompileError::new_err)
}

/// The same for a model given as MLIR text.
#[pyfunction]
#[pyo3(signature = (text, backend = "cranelift", threads = None, runs = 20, warmup = 3))]
fn bench_text(
    py: Python<'_>,
    text: String,
    backend: &str,
    threads: Option<usize>,
    runs: usize,
    warmup: usize,
) -> PyResult<String> {
    let (options, settings) = (options(backend, threads)?, bench_settings(runs, warmup)?);
    let start = std::time::Instant::now();
    py.detach(|| tcc::bench::bench_bytes("<string>", text.into_bytes(), start, options, &settings, None))
        .map_err(CompileError::new_err)
}

fn bench_settings(runs: usize, warmup: usize) -> PyResult<tcc::bench::Settings> {
    if runs == 0 {
        return Err(PyValueError::new_err("runs must be at least 1"));
    }
    Ok(tcc::bench::Settings { runs, warmup, json: true })
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
    m.add_function(wrap_pyfunction!(compile_file, m)?)?;
    m.add_function(wrap_pyfunction!(compile_text, m)?)?;
    m.add_function(wrap_pyfunction!(bench_file, m)?)?;
    m.add_function(wrap_pyfunction!(bench_text, m)?)?;
    m.add_function(wrap_pyfunction!(backends, m)?)?;
    Ok(())
}
