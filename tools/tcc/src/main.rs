//! `tcc`, the compiler driver.
//!
//! - `tcc run MODEL.mlir --input A.npy ... [--output Y.npy ...] [--expect R.npy ...]`:
//!   JIT-compile and run; with `--expect`, compare the outputs with reference ones.
//! - `tcc MODEL.mlir --emit=graph|loop|vector|clif|llvm|asm|dot [-o FILE]`: show the
//!   model after each compilation level (optimized graph, naive loops, vectorized loops
//!   ready for code generation, Cranelift or LLVM IR, assembly, a Graphviz picture).
//! - `--backend cranelift|llvm` (LLVM with `--features llvm`), `--cpu`, `--target`;
//!   `--isa avx512|avx2|sse|none` (or `TCC_ISA`): the microkernels Cranelift's code calls.
//! - `--precision fp32|bf16`: what convolutions and matmuls compute in (bf16: inputs and
//!   weights rounded to bf16, sums in f32; the model's interface stays as it is).
//! - `--threads N` (1 to 256; default `TCC_NUM_THREADS`, else one per physical core)
//!   and `--max-memory SIZE` (the memory budget a model must fit in).
//! - `tcc MODEL.mlir --emit=obj [-o OUT.o] [--name NAME]`: an object file and `OUT.h`;
//!   `--emit=staticlib [-o libNAME.a]`: a static library holding the model and the
//!   runtime, and `NAME.h` next to it.
//! - `tcc --print-runtime-lib`: the path of `libtcc_runtime.a` to link objects with;
//!   `tcc --print-backends`: the code generators of this build; `tcc --print-target`:
//!   what the chosen one generates code for.
//! - `tcc bench MODEL.mlir [--runs N] [--warmup N] [--json] [--plot FILE.svg]`: latency,
//!   GFLOP/s, compile time and a per-kernel profile on random inputs, also drawn.
//!
//! Errors (bad model, bad inputs, failed run-time checks) are printed as located
//! diagnostics and exit with status 1; usage errors exit with status 2.

mod npy;
mod plot;
mod tune;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use tcc::{Backend, Options};

#[derive(Parser, Debug)]
#[command(name = "tcc", version, about = "A tensor compiler for CPU inference", args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The model (MLIR: graph dialect, or TOSA as torch-mlir exports it) to compile.
    model: Option<PathBuf>,
    /// What to produce; without it, a summary of the model (inputs, outputs, ops,
    /// parameters) and what `--emit` offers.
    #[arg(long, value_enum)]
    emit: Option<Emit>,
    /// Print constants of any size in `--emit=graph|loop|vector` (by default those of
    /// more than 64 elements print as `dense_resource<__elided__>`).
    #[arg(long)]
    print_constants: bool,
    /// Output file (`-` for standard output; for `--emit=obj`, default `<model>.o`; for
    /// `--emit=staticlib`, default `lib<model>.a`).
    #[arg(short, long)]
    output: Option<String>,
    /// The model's name in an object file and header, its functions' prefix (a C
    /// identifier; default: the output's name, `-o NAME.o` or `-o libNAME.a`, else the
    /// model file's, made into one).
    #[arg(long)]
    name: Option<String>,
    /// Print the path of the runtime library to link objects with, and exit.
    #[arg(long)]
    print_runtime_lib: bool,
    /// Print the code generators this build has (one per line), and exit.
    #[arg(long)]
    print_backends: bool,
    /// Print what the chosen backend generates code for (CPU, vector width and
    /// registers, FMA, cores), and exit.
    #[arg(long)]
    print_target: bool,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug, Clone)]
struct Common {
    /// Code generator: cranelift (always built) or llvm (built with `--features llvm`).
    #[arg(long, default_value = "cranelift")]
    backend: Backend,
    /// LLVM backend: the CPU to generate code for (`native` or an LLVM x86-64 CPU name
    /// such as x86-64-v3, skylake-avx512, znver4; default: this machine's).
    #[arg(long)]
    cpu: Option<String>,
    /// LLVM backend: the target triple, e.g. x86_64-unknown-linux-gnu (default: this
    /// machine's; others only for --emit=obj|asm|llvm).
    #[arg(long)]
    target: Option<String>,
    /// Cranelift backend: the ISA level of the ahead-of-time microkernels the code calls
    /// for convolution and matmul tiles: avx512, avx2, sse, or none (generated code
    /// only). Default: TCC_ISA if set, else the best level this CPU runs.
    #[arg(long, value_name = "LEVEL")]
    isa: Option<String>,
    /// What convolutions and matmuls compute in: fp32 (exact) or bf16 (their inputs and
    /// weights rounded to bf16, sums in f32, with AVX512_BF16 dot products where the
    /// CPU has them; every other op stays f32, and so do the model's inputs and outputs).
    #[arg(long, value_name = "P", default_value = "fp32", value_parser = parse_precision)]
    precision: tcc::Precision,
    /// Stride-1 3x3 convolutions as Winograd convolutions where they pay (64 channels or
    /// more, maps of 32 output tiles or more): auto (the default: 4x4 under fp32, direct
    /// under bf16), off (direct), 2x2 (F(2x2,3x3): 2.25x fewer products, relative error
    /// ~3e-6; fp32 only) or 4x4 (F(4x4,3x3): 4x fewer, relative error ~6e-6; fp32 only).
    #[arg(long, value_name = "TILE", default_value = "auto", value_parser = parse_winograd)]
    winograd: tcc::Winograd,
    /// Threads for parallel loops, 1 to 256 (default: TCC_NUM_THREADS if set, else one
    /// per physical core).
    #[arg(long, value_parser = parse_threads, allow_negative_numbers = true)]
    threads: Option<usize>,
    /// The most memory a model may need to run (inputs, outputs, intermediate tensors,
    /// expanded constants), e.g. 512M or 16G; a model needing more is refused before
    /// anything is allocated (default: three quarters of physical memory).
    #[arg(long, value_name = "SIZE", value_parser = tcc::memory::parse_size, allow_negative_numbers = true)]
    max_memory: Option<u64>,
    /// Print the IR after every pass (to stderr).
    #[arg(long)]
    print_ir_after_all: bool,
    /// Print a per-pass timing table and the rewrite search's report: costs, the rules
    /// that made candidates and those on the way to the kept graph (to stderr).
    #[arg(long)]
    timing: bool,
    /// The rewrite search on the graph: off, greedy, taso (a cost-based backtracking
    /// search; it merges parallel matmuls and convolutions where that is faster) or
    /// eqsat (equality saturation: reaches graphs behind costlier intermediate ones).
    #[arg(long, value_name = "MODE", default_value = "taso", value_parser = parse_search_mode)]
    rewrite_search: tcc::SearchMode,
    /// Graphs the rewrite search expands at most.
    #[arg(long, value_name = "N", default_value_t = tcc::DEFAULT_SEARCH_BUDGET)]
    search_budget: usize,
    /// Seconds after which the rewrite search stops with the best graph found so far.
    #[arg(long, value_name = "SECONDS", default_value_t = tcc::DEFAULT_SEARCH_TIME_LIMIT.as_secs_f64(),
          value_parser = parse_seconds)]
    search_time: f64,
    /// The database of measured op costs the search reads and extends (default:
    /// costs.json in tcc's cache directory, ~/.cache/tcc).
    #[arg(long, value_name = "FILE.json")]
    cost_db: Option<PathBuf>,
    /// Rank rewrites by the analytical estimate only (FLOPs and bytes against the
    /// target's ceilings): no op is compiled and timed.
    #[arg(long)]
    estimate_costs: bool,
    /// The tuning database whose kernel configurations (`tcc tune`) come before the
    /// untuned ones (default: tuning.json in tcc's cache directory, ~/.cache/tcc).
    #[arg(long, value_name = "FILE.json")]
    tuning_db: Option<PathBuf>,
    /// Compile with the untuned kernel configurations only (the I/O bound's optimum or
    /// the analytic default; no tuning database).
    #[arg(long, conflicts_with = "tuning_db")]
    untuned: bool,
}

/// `--precision`: fp32 or bf16.
fn parse_precision(text: &str) -> Result<tcc::Precision, String> {
    text.parse()
}

/// `--winograd`: auto, off, 2x2 or 4x4.
fn parse_winograd(text: &str) -> Result<tcc::Winograd, String> {
    text.parse()
}

/// `--rewrite-search`: off, greedy, taso or eqsat.
fn parse_search_mode(text: &str) -> Result<tcc::SearchMode, String> {
    text.parse()
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..=1e6).contains(&s) => Ok(s),
        _ => Err(format!("`{text}` is not a number of seconds from 0 to 1000000")),
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Compile a model and run it on .npy inputs.
    Run {
        /// The model (MLIR: graph dialect or TOSA).
        model: PathBuf,
        /// An input tensor (.npy), bound to the model's arguments in order.
        #[arg(long = "input", short = 'i')]
        inputs: Vec<PathBuf>,
        /// Where to save an output (.npy), in the order of the model's results.
        #[arg(long = "output", short = 'o')]
        outputs: Vec<PathBuf>,
        /// A reference output (.npy), in the order of the model's results: prints the
        /// max error and fails if it exceeds the tolerance.
        #[arg(long = "expect", short = 'e')]
        expected: Vec<PathBuf>,
        /// Largest accepted max |error| relative to the reference's max |value| (a
        /// finite number >= 0; default 1e-4, and 1e-3 for f16 outputs: one
        /// half-precision ulp).
        #[arg(long, value_parser = parse_tolerance, allow_negative_numbers = true)]
        tolerance: Option<f64>,
        #[command(flatten)]
        common: Common,
    },
    /// Compile a model and time it on random inputs, with a per-kernel profile.
    Bench {
        /// The model (MLIR: graph dialect or TOSA).
        model: PathBuf,
        /// Timed runs.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..), allow_negative_numbers = true)]
        runs: u32,
        /// Untimed runs before them.
        #[arg(long, default_value_t = 3, allow_negative_numbers = true)]
        warmup: u32,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
        /// Also draw the profile as an SVG: a roofline of the compute kernels, the
        /// memory-bound kernels against each memory level's bandwidth, and time per kernel.
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<PathBuf>,
        #[command(flatten)]
        common: Common,
    },
    /// Tune a model's kernels on this machine: rounds of the whole model compiled and
    /// timed with each distinct convolution, matmul and pool at its next candidate
    /// configuration, each kernel's time read from the profile, its best confirmed
    /// against its default; they go to the tuning database, which later compiles with
    /// the same backend, microkernel level and threads read.
    Tune {
        /// The model (MLIR: graph dialect or TOSA).
        model: PathBuf,
        /// The time to spend, e.g. 90s, 5m or 1h (at least the defaults are measured).
        #[arg(long, default_value = "5m", value_parser = parse_duration, allow_hyphen_values = true)]
        budget: std::time::Duration,
        /// Measure kernels the database already has again.
        #[arg(long)]
        again: bool,
        /// Measure every candidate configuration, none pruned by the I/O bound.
        #[arg(long)]
        exhaustive: bool,
        #[command(flatten)]
        common: Common,
    },
}

/// `--budget`: a number of seconds, minutes or hours (`90s`, `5m`, `1h`; a bare number
/// counts seconds).
fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let t = text.trim();
    let (number, unit) = match t.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => (&t[..i], &t[i..]),
        None => (t, "s"),
    };
    let scale = match unit {
        "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => return Err(format!("unknown unit `{unit}` (expected s, m or h)")),
    };
    match number.trim().parse::<f64>() {
        Ok(n) if n.is_finite() && n > 0.0 && n * scale <= 1e7 => Ok(std::time::Duration::from_secs_f64(n * scale)),
        _ => Err(format!("`{text}` is not a positive duration such as 90s, 5m or 1h")),
    }
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum Emit {
    /// The optimized graph dialect.
    Graph,
    /// Loop nests over buffers, as lowered (before vectorization).
    Loop,
    /// Vectorized loops with math expanded: what code generation consumes.
    Vector,
    /// Cranelift IR of every function (Cranelift backend).
    Clif,
    /// LLVM IR of the optimized module (implies --backend llvm).
    Llvm,
    /// Assembly of every function (the chosen backend's).
    Asm,
    /// An ELF object file and its C header.
    Obj,
    /// A static library (`libNAME.a`: the model and the runtime) and its C header.
    Staticlib,
    /// Graphviz DOT of the optimized graph.
    Dot,
}

/// `--threads`: a whole number from 1 to the runtime's limit.
fn parse_threads(text: &str) -> Result<usize, String> {
    let max = tcc::runtime::threads::MAX_THREADS;
    let n = text.trim().parse::<usize>().map_err(|_| format!("expected a whole number from 1 to {max}"))?;
    tcc::runtime::threads::validate_threads(n)
}

/// `--tolerance`: a finite, non-negative number.
fn parse_tolerance(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(t) if t.is_finite() && t >= 0.0 => Ok(t),
        Ok(_) => Err("the tolerance must be a finite number >= 0".into()),
        Err(_) => Err("not a number".into()),
    }
}

fn options(c: &Common) -> Options {
    Options {
        backend: c.backend,
        threads: c.threads,
        max_memory: c.max_memory,
        print_ir_after_all: c.print_ir_after_all,
        timing: c.timing,
        profile: false,
        cpu: c.cpu.clone(),
        target: c.target.clone(),
        rewrite_search: c.rewrite_search,
        search_budget: Some(c.search_budget),
        search_time_limit: Some(std::time::Duration::from_secs_f64(c.search_time)),
        cost_db: c.cost_db.clone(),
        estimate_costs_only: c.estimate_costs,
        isa: c.isa.clone(),
        precision: c.precision,
        winograd: c.winograd,
        tuning_db: c.tuning_db.clone(),
        untuned: c.untuned,
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.print_runtime_lib {
        return match tcc::runtime_library() {
            Ok(p) => {
                println!("{}", p.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("tcc: error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    if cli.print_backends {
        for b in tcc::backend::compiled_backends() {
            println!("{}", b.name());
        }
        return ExitCode::SUCCESS;
    }
    if cli.print_target {
        return match tcc::backend::CodeGenerator::new(&options(&cli.common)) {
            Ok(g) => {
                println!("{}", g.describe());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("tcc: error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    tcc::ir::internal_error::quiet_panics();
    let result = tcc::ir::internal_error::catch_internal_error(|| command(&cli))
        .unwrap_or_else(|m| Err(format!("internal compiler error: {m} (a bug in tcc; please report it)")));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) if msg.is_empty() => ExitCode::from(2),
        Err(msg) => {
            let msg = msg.trim_end();
            if msg.contains(": error: ") {
                eprintln!("{msg}");
            } else {
                eprintln!("tcc: error: {msg}");
            }
            ExitCode::FAILURE
        }
    }
}

/// Runs a subcommand, or compiles or summarizes the model; `Err("")` for a usage error
/// already reported.
fn command(cli: &Cli) -> Result<(), String> {
    match &cli.command {
        Some(Command::Run { model, inputs, outputs, expected, tolerance, common }) => {
            let files = RunFiles { inputs, outputs, expected, tolerance: *tolerance };
            run(model, &files, common)
        }
        Some(Command::Bench { model, runs, warmup, json, plot, common }) => {
            if let Some(path) = plot {
                // Found out before the benchmark, not after it.
                std::fs::File::create(path).map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
            }
            let settings = tcc_bench::Settings { runs: *runs as usize, warmup: *warmup as usize, json: *json };
            let mut draw = |profile: &tcc_bench::Profile| match plot {
                Some(path) => plot::write_svg(path, profile),
                None => Ok(()),
            };
            tcc_bench::bench(model, options(common), &settings, Some(&mut draw)).map(|text| {
                let _ = std::io::stdout().lock().write_all(text.as_bytes());
            })
        }
        Some(Command::Tune { model, budget, again, exhaustive, common }) => {
            let settings = tcc::tune::TuneSettings { budget: *budget, again: *again, exhaustive: *exhaustive };
            tune::tune(model, &settings, &options(common))
        }
        None => match &cli.model {
            Some(model) => match cli.emit {
                Some(what) => {
                    let names = Names { output: cli.output.as_deref(), name: cli.name.as_deref() };
                    emit(model, what, names, cli.print_constants, &cli.common)
                }
                None => summary(model, cli.output.as_deref()),
            },
            None => {
                eprintln!("tcc: error: no model given (see `tcc --help`)");
                Err(String::new())
            }
        },
    }
}

fn parse(model: &Path) -> Result<tcc::ir::Module, String> {
    let bytes = tcc::read_model_file(model)?;
    tcc::parse_model(&model.display().to_string(), bytes).map_err(|d| d.to_string())
}

/// The files `tcc run` reads and writes.
struct RunFiles<'a> {
    inputs: &'a [PathBuf],
    outputs: &'a [PathBuf],
    expected: &'a [PathBuf],
    tolerance: Option<f64>,
}

fn run(model: &Path, files: &RunFiles, common: &Common) -> Result<(), String> {
    let module = parse(model)?;
    let compiled = tcc::Model::compile(module, &options(common)).map_err(|e| e.to_string())?;
    if files.inputs.len() != compiled.inputs().len() {
        let specs: Vec<String> = compiled.inputs().iter().map(|s| s.to_string()).collect();
        return Err(format!(
            "the model takes {} ({}), {} given with --input",
            tcc::runtime::count(specs.len(), "input"),
            specs.join(", "),
            files.inputs.len()
        ));
    }
    for (flag, n) in [("--output", files.outputs.len()), ("--expect", files.expected.len())] {
        if n > compiled.outputs().len() {
            let has = tcc::runtime::count(compiled.outputs().len(), "output");
            return Err(format!("the model has {has}, {n} {flag} files given"));
        }
    }
    let expected: Vec<tcc::Tensor> = files.expected.iter().map(|p| npy::read(p)).collect::<Result<_, _>>()?;
    let tensors: Vec<tcc::Tensor> = files.inputs.iter().map(|p| npy::read(p)).collect::<Result<_, _>>()?;
    let results = compiled.run(&tensors).map_err(|e| e.to_string())?;
    for (i, t) in results.iter().enumerate() {
        match files.outputs.get(i) {
            Some(path) => npy::write(path, t)?,
            None if expected.is_empty() => println!("output #{i}: {}", npy::summary(t)),
            None => {}
        }
    }
    let mut failures = Vec::new();
    for (i, (got, want)) in results.iter().zip(&expected).enumerate() {
        let (abs, rel) = npy::compare(got, want).map_err(|e| format!("output #{i}: {e}"))?;
        // A 16-bit float output holds 11 (f16) or 8 (bf16) significant bits.
        let default = match got.dtype() {
            tcc::DType::F16 => 1e-3,
            tcc::DType::BF16 => 1e-2,
            _ => 1e-4,
        };
        let tolerance = files.tolerance.unwrap_or(default);
        let verdict = if rel <= tolerance { "ok" } else { "MISMATCH" };
        println!("output #{i}: max error {abs:.3e} ({rel:.3e} of the reference's scale): {verdict}");
        if rel > tolerance {
            failures.push(format!("{i} (tolerance {tolerance:e})"));
        }
    }
    if !failures.is_empty() {
        return Err(format!("output(s) {} differ from the reference by more than the tolerance", failures.join(", ")));
    }
    Ok(())
}

/// Where `--emit` writes and what it names the model.
struct Names<'a> {
    output: Option<&'a str>,
    name: Option<&'a str>,
}

/// Constants of more elements than this print elided unless `--print-constants`.
const PRINTED_CONSTANT_ELEMENTS: usize = 64;

fn emit(model: &Path, what: Emit, names: Names, print_constants: bool, common: &Common) -> Result<(), String> {
    let mut module = parse(model)?;
    let opts = options(common);
    let output = names.output;
    if let Emit::Obj | Emit::Staticlib = what {
        return emit_object(model, module, names, &opts, matches!(what, Emit::Staticlib));
    }
    let print = tcc::ir::PrintOptions {
        elide_elements_above: (!print_constants).then_some(PRINTED_CONSTANT_ELEMENTS),
        ..Default::default()
    };
    let text = match what {
        Emit::Graph | Emit::Dot => {
            let session = tcc::Session::new(&opts)?;
            tcc::pipeline::optimize_graph(&mut module, &session).map_err(|d| d.to_string())?;
            if let Emit::Dot = what { tcc::dot::graph_to_dot(&module) } else { tcc::ir::print_module(&module, print) }
        }
        Emit::Loop | Emit::Vector => {
            let session = tcc::Session::new(&opts)?;
            tcc::pipeline::optimize_graph(&mut module, &session).map_err(|d| d.to_string())?;
            if let Emit::Loop = what {
                let passes = tcc::pipeline::to_loops(&session.target, opts.profile);
                tcc::pipeline::run(&mut module, passes, &opts).map_err(|d| d.to_string())?;
            } else {
                tcc::pipeline::lower(&mut module, &session).map_err(|d| d.to_string())?;
            }
            tcc::ir::print_module(&module, print)
        }
        Emit::Clif | Emit::Llvm | Emit::Asm => {
            let mut opts = opts;
            let what = match what {
                Emit::Clif if opts.backend != Backend::Cranelift => {
                    return Err("--emit=clif shows Cranelift IR; with --backend llvm use --emit=llvm".into());
                }
                Emit::Llvm => {
                    opts.backend = Backend::Llvm;
                    tcc::backend::Listing::BackendIr
                }
                Emit::Clif => tcc::backend::Listing::BackendIr,
                _ => tcc::backend::Listing::Assembly,
            };
            tcc::compile_listing(module, &opts, what).map_err(|e| e.to_string())?
        }
        Emit::Obj | Emit::Staticlib => unreachable!("handled above"),
    };
    match output.unwrap_or("-") {
        "-" => {
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
            Ok(())
        }
        path => std::fs::write(path, text).map_err(|e| format!("cannot write '{path}': {e}")),
    }
}

fn emit_object(
    model: &Path,
    module: tcc::ir::Module,
    names: Names,
    opts: &Options,
    static_library: bool,
) -> Result<(), String> {
    let stem = model.file_stem().and_then(|s| s.to_str()).unwrap_or("model");
    // The output's name (`-o NAME.o`, `-o libNAME.a`) names the model too, so the
    // header, the library and the functions agree.
    let output_stem = names
        .output
        .filter(|&o| o != "-")
        .and_then(|o| Path::new(o).file_stem()?.to_str())
        .map(|s| if static_library { s.strip_prefix("lib").unwrap_or(s) } else { s });
    let name = match names.name {
        Some(n) if tcc::codegen::header::is_c_identifier(n) => n.to_string(),
        Some(n) => return Err(format!("--name '{n}' is not a C identifier")),
        None => tcc::codegen::header::c_identifier(output_stem.unwrap_or(stem)),
    };
    let output = names.output;
    let path = PathBuf::from(match output {
        Some("-") if static_library => return Err("--emit=staticlib writes a file; give it with -o libNAME.a".into()),
        Some("-") => return Err("--emit=obj writes a file; give it with -o OUT.o".into()),
        Some(p) => p.to_string(),
        None if static_library => format!("lib{name}.a"),
        None => format!("{stem}.o"),
    });
    // An object's header is OUT.h; a library's is NAME.h for libNAME.a.
    let header_path = match path.file_stem().and_then(|s| s.to_str()) {
        Some(s) if static_library => path.with_file_name(format!("{}.h", s.strip_prefix("lib").unwrap_or(s))),
        _ => path.with_extension("h"),
    };
    let code = tcc::compile_object(module, opts, &name, &model.display().to_string()).map_err(|e| e.to_string())?;
    let bytes = if static_library { tcc::static_library(&code.object, &name)? } else { code.object };
    std::fs::write(&path, &bytes).map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
    std::fs::write(&header_path, &code.header).map_err(|e| format!("cannot write '{}': {e}", header_path.display()))?;
    Ok(())
}

/// What `tcc MODEL.mlir` prints without `--emit`: the model's inputs and outputs, its
/// ops by kind, its parameters, and what to do next; a few lines whatever the model's
/// size.
fn summary(model: &Path, output: Option<&str>) -> Result<(), String> {
    let module = parse(model)?;
    let text = tcc::model_summary(&module, &model.display().to_string());
    match output.unwrap_or("-") {
        "-" => {
            let _ = std::io::stdout().lock().write_all(text.as_bytes());
            Ok(())
        }
        path => std::fs::write(path, text).map_err(|e| format!("cannot write '{path}': {e}")),
    }
}
