//! tcc: a tensor compiler for CPU inference.
//!
//! Load a model written in MLIR (the `graph` dialect), compile it to native code and
//! run it:
//!
//! ```
//! # fn main() -> Result<(), tcc::Error> {
//! let model = tcc::Runtime::load_str(r#"
//!   func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
//!     %0 = graph.relu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
//!     return %0 : tensor<2x3xf32>
//!   }"#)?;
//! let x = tcc::Tensor::from_slice(&[-1.0f32, 2.0, -3.0, 4.0, -5.0, 6.0], &[2, 3])?;
//! let y = model.run(&[x])?;
//! assert_eq!(y[0].as_slice::<f32>().unwrap(), &[0.0, 2.0, 0.0, 4.0, 0.0, 6.0]);
//! # Ok(())
//! # }
//! ```
//!
//! [`Runtime::builder`] chooses the backend, the thread count and the memory budget;
//! [`pipeline`] exposes each compilation stage for tools (`tcc-opt`, `tcc --emit=...`).
//!
//! Nothing a model or its inputs ask for aborts the process: a model whose memory plan
//! exceeds the budget ([`memory`]) is refused before anything is allocated, and every
//! allocation sized by the model is fallible.

pub mod backend;
pub mod dot;
pub mod memory;
#[cfg(feature = "mlir")]
pub mod mlir_import;
pub mod model_file;
pub mod pipeline;
pub mod runtime_lib;
pub mod search;
pub mod summary;
pub mod tune;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub use model_file::{ModelBytes, read_model_file};
pub use pipeline::Session;
pub use runtime_lib::{runtime_library, static_library};
pub use summary::model_summary;
pub use tcc_codegen::{self as codegen, CompiledModel, Isa};
pub use tcc_dialect_graph as graph;
pub use tcc_dialect_loop as loop_dialect;
pub use tcc_dialect_tosa as tosa;
pub use tcc_graph_opt as graph_opt;
pub use tcc_graph_opt::search::{
    DEFAULT_BUDGET as DEFAULT_SEARCH_BUDGET, DEFAULT_TIME_LIMIT as DEFAULT_SEARCH_TIME_LIMIT, Mode as SearchMode,
};
pub use tcc_graph_opt::winograd::Winograd;
pub use tcc_ir as ir;
pub use tcc_lower as lower;
pub use tcc_lower::reduce_precision::Precision;
pub use tcc_rules as rules;
pub use tcc_runtime as runtime;
pub use tcc_runtime::{BF16, DType, F16, Tensor, TensorSpec};
pub use tcc_target as target;

use tcc_ir::internal_error::{catch_internal_error, inject_panic, internal_error};
use tcc_ir::{Diagnostics, Module, PassRegistry, Registry};
use tcc_runtime::{ThreadPool, Workspace};

/// A registry with every dialect tcc knows.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    tcc_dialect_graph::register(&mut r);
    tcc_dialect_loop::register(&mut r);
    tcc_dialect_vector::register(&mut r);
    tcc_dialect_tosa::register(&mut r);
    r
}

/// Parses a model file's bytes (`name` locates errors): graph dialect or TOSA; a file
/// that is not MLIR text (a NumPy array, an ONNX model, any binary) is refused. Built
/// with the `mlir` feature, a file tcc's parser rejects is handed to MLIR 22 instead
/// (see `mlir_import`); if MLIR cannot read it either, tcc's own error is reported with
/// MLIR's as a note.
pub fn parse_model(name: &str, bytes: impl Into<ModelBytes>) -> Result<Module, Diagnostics> {
    let registry = registry();
    let bytes = bytes.into();
    if let Some(what) = model_file::not_mlir_text(&bytes) {
        return Err(Diagnostics::error(tcc_ir::Location::whole_file(name), model_file::not_mlir_text_error(what)));
    }
    let text = match bytes.into_text() {
        Ok(text) => text,
        // Not UTF-8: the parser reports where.
        Err((bytes, _)) => return tcc_ir::parse_chunk(name, &bytes, 1, &registry),
    };
    let file = tcc_ir::SourceFile::from_text(name, text, 1);
    #[cfg(feature = "mlir")]
    return tcc_ir::parse_source(file.clone(), &registry).or_else(|mut native| {
        mlir_import::parse(name, file.text(), &registry).map_err(|mlir| {
            // tcc's error first (the file is meant for it); MLIR's as a note.
            if let (Some(first), Some(m)) = (native.0.first_mut(), mlir.0.first()) {
                let note = format!("MLIR's parser also rejects the file: {}", m.message);
                *first = first.clone().with_note(m.loc.clone(), note);
            }
            native
        })
    });
    #[cfg(not(feature = "mlir"))]
    tcc_ir::parse_source(file, &registry)
}

/// Every pass tcc knows, by pipeline name.
pub fn pass_registry() -> PassRegistry {
    pipeline::pass_registry()
}

/// Everything that can go wrong loading or running a model.
#[derive(Debug)]
pub enum Error {
    /// The model could not be read.
    Io(String),
    /// The model is malformed or uses something tcc cannot compile (located).
    Compile(Diagnostics),
    /// The inputs do not match the model, or a run-time check failed.
    Run(String),
    /// An option is out of range (a thread count, `TCC_NUM_THREADS`).
    InvalidOption(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io(m) => write!(f, "{m}"),
            Error::Compile(d) => write!(f, "{}", d.to_string().trim_end()),
            Error::Run(m) => write!(f, "{m}"),
            Error::InvalidOption(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<Diagnostics> for Error {
    fn from(d: Diagnostics) -> Self {
        Error::Compile(d)
    }
}

impl From<String> for Error {
    fn from(m: String) -> Self {
        Error::Run(m)
    }
}

/// Code generators.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// Cranelift: pure Rust, 128-bit vectors. The default.
    #[default]
    Cranelift,
    /// LLVM with the host's full vector width (cargo feature `llvm`).
    Llvm,
}

impl Backend {
    /// The name `--backend` takes.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Cranelift => "cranelift",
            Backend::Llvm => "llvm",
        }
    }
}

impl std::str::FromStr for Backend {
    type Err = String;
    fn from_str(s: &str) -> Result<Backend, String> {
        match s {
            "cranelift" => Ok(Backend::Cranelift),
            "llvm" => Ok(Backend::Llvm),
            other => Err(format!("unknown backend '{other}' (expected cranelift or llvm)")),
        }
    }
}

/// Compilation and execution options.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub backend: Backend,
    /// Threads for parallel loops (the caller counts as one), 1 to
    /// [`tcc_runtime::threads::MAX_THREADS`]; default: `TCC_NUM_THREADS`, else one per
    /// physical core.
    pub threads: Option<usize>,
    /// The most memory (bytes) a model may need to run: workspace, materialized
    /// constants and outputs; a model needing more is refused when it is compiled.
    /// Default: [`memory::default_budget`] (three quarters of physical memory).
    pub max_memory: Option<u64>,
    /// Print the IR after every pass (to stderr).
    pub print_ir_after_all: bool,
    /// Print per-pass timing (to stderr).
    pub timing: bool,
    /// Compile profiling markers into the model (see [`tcc_runtime::profile`]).
    pub profile: bool,
    /// LLVM backend: the CPU to generate code for (an LLVM CPU name; default the host).
    pub cpu: Option<String>,
    /// LLVM backend: the target triple (default the host's; other targets only for
    /// object files and listings).
    pub target: Option<String>,
    /// The rewrite search (TASO) on the graph: off, greedy, taso or eqsat (see [`search`]).
    pub rewrite_search: tcc_graph_opt::search::Mode,
    /// Graphs the search expands at most (default
    /// [`tcc_graph_opt::search::DEFAULT_BUDGET`]).
    pub search_budget: Option<usize>,
    /// When the search stops (default [`tcc_graph_opt::search::DEFAULT_TIME_LIMIT`]).
    pub search_time_limit: Option<std::time::Duration>,
    /// The database of measured op costs (default [`search::default_cost_db`]).
    pub cost_db: Option<PathBuf>,
    /// The tuning database, whose kernel configurations come before the analytic
    /// defaults (default [`tune::default_tuning_db`]; see [`tune`]).
    pub tuning_db: Option<PathBuf>,
    /// Compile with the untuned kernel configurations only (the I/O bound's optimum or
    /// the analytic default; no tuning database).
    pub untuned: bool,
    /// Rank rewrites by the analytical estimate alone: nothing is measured.
    pub estimate_costs_only: bool,
    /// Cranelift backend: the ISA level of the microkernels the code calls (`avx512`,
    /// `avx2`, `sse`, or `none` for generated code only); default: `TCC_ISA`, else the
    /// best level this CPU runs. A level the CPU does not run is refused.
    pub isa: Option<String>,
    /// What convolutions and matmuls compute in (see [`Precision`]): fp32 (the
    /// default, exact) or bf16 (inputs and weights rounded to bf16, sums in f32).
    /// Model inputs and outputs keep their types either way.
    pub precision: Precision,
    /// Which stride-1 3x3 convolutions become Winograd convolutions, with which tile
    /// (see [`Winograd`]): auto (the default: 4x4 where it pays under fp32, none under
    /// bf16), off, 2x2 or 4x4 (these two fp32 only).
    pub winograd: Winograd,
}

impl Options {
    /// The Winograd policy these options make: [`Options::winograd`] resolved for
    /// their precision ([`Winograd::resolve`]).
    pub fn winograd_policy(&self) -> Winograd {
        self.winograd.resolve(self.precision == Precision::Fp32)
    }
}

/// Entry points for loading models.
pub struct Runtime;

impl Runtime {
    /// Parses, optimizes and JIT-compiles the model in `path` with default options.
    pub fn load(path: impl AsRef<Path>) -> Result<Model, Error> {
        Runtime::builder().load(path)
    }

    /// The same from MLIR text.
    pub fn load_str(text: &str) -> Result<Model, Error> {
        Runtime::builder().load_str(text)
    }

    pub fn builder() -> RuntimeBuilder {
        RuntimeBuilder { options: Options::default() }
    }
}

/// Loads models with chosen options.
#[derive(Clone, Debug)]
pub struct RuntimeBuilder {
    options: Options,
}

impl RuntimeBuilder {
    pub fn backend(mut self, backend: Backend) -> Self {
        self.options.backend = backend;
        self
    }
    /// Threads for parallel loops: 1 to [`tcc_runtime::threads::MAX_THREADS`]
    /// (others are refused when the model is loaded).
    pub fn threads(mut self, threads: usize) -> Self {
        self.options.threads = Some(threads);
        self
    }
    /// The memory budget in bytes (see [`Options::max_memory`]).
    pub fn max_memory(mut self, bytes: u64) -> Self {
        self.options.max_memory = Some(bytes);
        self
    }
    /// The microkernels' ISA level (see [`Options::isa`]): `"avx512"`, `"avx2"`,
    /// `"sse"` or `"none"`.
    pub fn isa(mut self, level: impl Into<String>) -> Self {
        self.options.isa = Some(level.into());
        self
    }
    /// The precision policy (see [`Options::precision`]).
    pub fn precision(mut self, precision: Precision) -> Self {
        self.options.precision = precision;
        self
    }
    /// The Winograd policy (see [`Options::winograd`]).
    pub fn winograd(mut self, winograd: Winograd) -> Self {
        self.options.winograd = winograd;
        self
    }
    /// The tuning database (see [`Options::tuning_db`]).
    pub fn tuning_db(mut self, path: impl Into<PathBuf>) -> Self {
        self.options.tuning_db = Some(path.into());
        self
    }
    /// The untuned kernel configurations only (see [`Options::untuned`]).
    pub fn untuned(mut self) -> Self {
        self.options.untuned = true;
        self
    }
    pub fn options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// Tunes the kernels of the model in `path` for this builder's options within
    /// `budget` (see [`tune::tune`]), writing the tuning database that later loads with
    /// the same options read.
    pub fn tune(&self, path: impl AsRef<Path>, budget: std::time::Duration) -> Result<tune::TuneReport, Error> {
        let path = path.as_ref();
        let bytes = read_model_file(path).map_err(Error::Io)?;
        let module = parse_model(&path.display().to_string(), bytes)?;
        let settings = tune::TuneSettings { budget, ..Default::default() };
        tune::tune(module, &self.options, &settings, &mut |_| {})
    }

    pub fn load(self, path: impl AsRef<Path>) -> Result<Model, Error> {
        let path = path.as_ref();
        let bytes = read_model_file(path).map_err(Error::Io)?;
        let module = parse_model(&path.display().to_string(), bytes)?;
        Model::compile(module, &self.options)
    }

    pub fn load_str(self, text: &str) -> Result<Model, Error> {
        let module = parse_model("<string>", text.as_bytes().to_vec())?;
        Model::compile(module, &self.options)
    }
}

/// Optimizes, lowers and JIT-compiles a graph-dialect module; `keep_listings` keeps
/// the backend's IR and machine code (for `--emit=clif|llvm|asm`).
pub fn compile(mut module: Module, options: &Options, keep_listings: bool) -> Result<CompiledModel, Error> {
    let session = Session::for_module(&module, options)?;
    optimize_and_lower(&mut module, &session)?;
    code_generation(&module, || session.generator.jit(&module, keep_listings))
}

/// Runs a backend; its panic (a bug) is an internal compiler error, not an abort.
/// `TCC_INJECT_PANIC=codegen` forces one, for tests.
fn code_generation<T>(module: &Module, generate: impl FnOnce() -> Result<T, Diagnostics>) -> Result<T, Error> {
    let generated = catch_internal_error(|| {
        inject_panic("codegen");
        generate()
    });
    let loc = module.loc(module.top()).in_file();
    Ok(generated.map_err(|message| internal_error(loc, "code generation", &message))??)
}

/// Optimizes and lowers a graph-dialect module, then checks its memory plan against
/// the budget (before anything the model needs is allocated).
fn optimize_and_lower(module: &mut Module, session: &Session) -> Result<(), Diagnostics> {
    let budget = session.options.max_memory.unwrap_or_else(memory::default_budget);
    memory::check_weights(module, budget)?;
    pipeline::optimize_graph(module, session)?;
    pipeline::lower(module, session)?;
    memory::check(module, budget)
}

/// Optimizes, lowers and compiles a graph-dialect module to an object file and C header
/// for a model named `name` (a C identifier); `source` names the model in the header.
pub fn compile_object(
    mut module: Module,
    options: &Options,
    name: &str,
    source: &str,
) -> Result<tcc_codegen::ObjectCode, Error> {
    let session = Session::for_module(&module, options)?;
    optimize_and_lower(&mut module, &session)?;
    code_generation(&module, || session.generator.object(&module, name, source))
}

/// Optimizes and lowers a graph-dialect module and prints the backend's IR or assembly.
pub fn compile_listing(mut module: Module, options: &Options, what: backend::Listing) -> Result<String, Error> {
    let session = Session::for_module(&module, options)?;
    pipeline::optimize_graph(&mut module, &session)?;
    pipeline::lower(&mut module, &session)?;
    code_generation(&module, || session.generator.listing(&module, what))
}

/// The reference interpreter's tensor as a runtime tensor with the same shape and
/// elements: a compiled model runs on what the interpreter ran.
pub fn runtime_tensor(t: &graph::Tensor) -> Result<Tensor, String> {
    use graph::Data;
    match t.data() {
        Data::F32(v) => Tensor::from_slice(v, t.shape()),
        Data::F64(v) => Tensor::from_slice(v, t.shape()),
        Data::F16(v) => Tensor::from_slice(&v.iter().map(|&h| tcc_runtime::F16(h)).collect::<Vec<_>>(), t.shape()),
        Data::BF16(v) => Tensor::from_slice(&v.iter().map(|&h| tcc_runtime::BF16(h)).collect::<Vec<_>>(), t.shape()),
        Data::I8(v) => Tensor::from_slice(v, t.shape()),
        Data::I16(v) => Tensor::from_slice(v, t.shape()),
        Data::I32(v) => Tensor::from_slice(v, t.shape()),
        Data::I64(v) => Tensor::from_slice(v, t.shape()),
        Data::I1(v) => Tensor::from_slice(v, t.shape()),
    }
}

/// The thread count `options` ask for (or `TCC_NUM_THREADS`, or one per physical
/// core), validated.
pub fn resolve_threads(options: &Options) -> Result<usize, Error> {
    tcc_runtime::threads::resolve_threads(options.threads).map_err(Error::InvalidOption)
}

/// A compiled model, ready to run.
pub struct Model {
    compiled: CompiledModel,
    pool: Option<Arc<ThreadPool>>,
    workspace: Mutex<Workspace>,
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Model({:?})", self.compiled)
    }
}

impl Model {
    /// Optimizes, lowers and compiles a parsed graph-dialect module.
    /// The thread count is checked first (an invalid one, or an invalid
    /// `TCC_NUM_THREADS`, is an error).
    pub fn compile(module: Module, options: &Options) -> Result<Model, Error> {
        let threads = resolve_threads(options)?;
        let compiled = compile(module, options, false)?;
        Model::from_compiled(compiled, threads)
    }

    /// Wraps code compiled elsewhere, to run on `threads` threads (1 to
    /// [`tcc_runtime::threads::MAX_THREADS`]); an error when its workspace cannot be
    /// allocated.
    pub fn from_compiled(compiled: CompiledModel, threads: usize) -> Result<Model, Error> {
        let threads = tcc_runtime::threads::validate_threads(threads).map_err(Error::InvalidOption)?;
        let workspace = Workspace::try_new(compiled.workspace_size)
            .map_err(|e| Error::Run(format!("cannot load the model: {e}")))?;
        Ok(Model { pool: tcc_runtime::pool::shared(threads), compiled, workspace: Mutex::new(workspace) })
    }

    pub fn inputs(&self) -> &[TensorSpec] {
        &self.compiled.signature.inputs
    }
    pub fn outputs(&self) -> &[TensorSpec] {
        &self.compiled.signature.outputs
    }
    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, |p| p.threads())
    }
    pub fn compiled(&self) -> &CompiledModel {
        &self.compiled
    }

    /// Runs the model. Inputs are checked (count, element type, shape) before any
    /// compiled code runs; concurrent calls on one model take turns. A panic around
    /// the compiled code (a bug; `TCC_INJECT_PANIC=run` forces one) is an error.
    pub fn run(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>, Error> {
        let ran = catch_internal_error(|| {
            inject_panic("run");
            self.run_checked(inputs)
        });
        ran.map_err(|m| Error::Run(format!("internal error in the runtime: {m} (a bug in tcc; please report it)")))?
    }

    fn run_checked(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>, Error> {
        tcc_runtime::validate(&self.compiled.signature, inputs).map_err(Error::Run)?;
        let mut outputs: Vec<Tensor> = self
            .outputs()
            .iter()
            .enumerate()
            .map(|(i, s)| Tensor::zeros(s.dtype, &s.shape).map_err(|e| format!("output #{i}: {e}")))
            .collect::<Result<_, _>>()
            .map_err(Error::Run)?;
        let mut args: Vec<*mut u8> = inputs.iter().map(|t| t.as_ptr() as *mut u8).collect();
        args.extend(outputs.iter_mut().map(|t| t.as_mut_ptr()));
        let mut workspace = self.workspace.lock().unwrap_or_else(|e| e.into_inner());
        let pool = self.pool.as_ref().map_or(std::ptr::null(), |p| p.handle());
        let mut status = 0u32;
        // SAFETY: the arguments match the compiled signature (validated above): one
        // pointer per input (only read) and per output buffer of the declared sizes, a
        // workspace of the planned size, a live pool or null, and a status slot.
        unsafe { (self.compiled.entry)(args.as_ptr(), workspace.as_mut_ptr(), pool, &mut status) };
        if status != 0 {
            let message = self.compiled.asserts.get(status as usize - 1).cloned().unwrap_or_default();
            return Err(Error::Run(format!("run-time check failed: {message}")));
        }
        Ok(outputs)
    }
}
