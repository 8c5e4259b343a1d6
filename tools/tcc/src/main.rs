//! `tcc`, the compiler driver.
//!
//! - `tcc run MODEL.mlir --input A.npy ... [--output Y.npy ...]`: JIT-compile and run.
//! - `tcc MODEL.mlir --emit=graph|loop|clif|asm [-o FILE]`: show the model after each
//!   compilation level (optimized graph, loops and vectors, Cranelift IR, machine code).
//!
//! Errors (bad model, bad inputs, failed run-time checks) are printed as located
//! diagnostics and exit with status 1; usage errors exit with status 2.

mod npy;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use tcc::{Backend, Options};

#[derive(Parser, Debug)]
#[command(name = "tcc", version, about = "A tensor compiler for CPU inference", args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// The model (MLIR, graph dialect) to compile.
    model: Option<PathBuf>,
    /// What to print: the optimized graph, the loop/vector IR, Cranelift IR, or assembly.
    #[arg(long, value_enum, default_value = "graph")]
    emit: Emit,
    /// Output file (`-` for standard output).
    #[arg(short, long, default_value = "-")]
    output: String,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug, Clone)]
struct Common {
    /// Code generator.
    #[arg(long, default_value = "cranelift")]
    backend: Backend,
    /// Threads for parallel loops (default: one per physical core, or TCC_NUM_THREADS).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Print the IR after every pass (to stderr).
    #[arg(long)]
    print_ir_after_all: bool,
    /// Print a per-pass timing table (to stderr).
    #[arg(long)]
    timing: bool,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Compile a model and run it on .npy inputs.
    Run {
        /// The model (MLIR, graph dialect).
        model: PathBuf,
        /// An input tensor (.npy), bound to the model's arguments in order.
        #[arg(long = "input", short = 'i')]
        inputs: Vec<PathBuf>,
        /// Where to save an output (.npy), in the order of the model's results.
        #[arg(long = "output", short = 'o')]
        outputs: Vec<PathBuf>,
        #[command(flatten)]
        common: Common,
    },
}

#[derive(Copy, Clone, Debug, ValueEnum)]
enum Emit {
    Graph,
    Loop,
    Clif,
    Asm,
}

fn options(c: &Common) -> Options {
    Options {
        backend: c.backend,
        threads: c.threads.map(|t| t as usize),
        print_ir_after_all: c.print_ir_after_all,
        timing: c.timing,
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Some(Command::Run { model, inputs, outputs, common }) => run(model, inputs, outputs, common),
        None => match &cli.model {
            Some(model) => emit(model, cli.emit, &cli.output, &cli.common),
            None => {
                eprintln!("tcc: error: no model given (see `tcc --help`)");
                return ExitCode::from(2);
            }
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
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

fn parse(model: &PathBuf) -> Result<tcc::ir::Module, String> {
    let bytes = std::fs::read(model).map_err(|e| format!("cannot read '{}': {e}", model.display()))?;
    tcc::ir::parse_owned(&model.display().to_string(), bytes, &tcc::registry()).map_err(|d| d.to_string())
}

fn run(model: &PathBuf, inputs: &[PathBuf], outputs: &[PathBuf], common: &Common) -> Result<(), String> {
    let module = parse(model)?;
    let compiled = tcc::Model::compile(module, &options(common)).map_err(|e| e.to_string())?;
    if inputs.len() != compiled.inputs().len() {
        let specs: Vec<String> = compiled.inputs().iter().map(|s| s.to_string()).collect();
        return Err(format!(
            "the model takes {} inputs ({}), {} given with --input",
            specs.len(),
            specs.join(", "),
            inputs.len()
        ));
    }
    if outputs.len() > compiled.outputs().len() {
        return Err(format!(
            "the model has {} outputs, {} --output files given",
            compiled.outputs().len(),
            outputs.len()
        ));
    }
    let tensors: Vec<tcc::Tensor> = inputs.iter().map(|p| npy::read(p)).collect::<Result<_, _>>()?;
    let results = compiled.run(&tensors).map_err(|e| e.to_string())?;
    for (i, t) in results.iter().enumerate() {
        match outputs.get(i) {
            Some(path) => npy::write(path, t)?,
            None => println!("output #{i}: {}", npy::summary(t)),
        }
    }
    Ok(())
}

fn emit(model: &PathBuf, what: Emit, output: &str, common: &Common) -> Result<(), String> {
    let mut module = parse(model)?;
    let opts = options(common);
    let text = match what {
        Emit::Graph => {
            tcc::pipeline::optimize_graph(&mut module, &opts).map_err(|d| d.to_string())?;
            tcc::ir::print_module(&module, Default::default())
        }
        Emit::Loop => {
            tcc::pipeline::optimize_graph(&mut module, &opts).map_err(|d| d.to_string())?;
            tcc::pipeline::lower(&mut module, &opts).map_err(|d| d.to_string())?;
            tcc::ir::print_module(&module, Default::default())
        }
        Emit::Clif | Emit::Asm => {
            let compiled = tcc::compile(module, &opts, true).map_err(|e| e.to_string())?;
            let mut out = String::new();
            for f in &compiled.listings {
                if matches!(what, Emit::Clif) {
                    out += &format!("; {}\n{}\n", f.name, f.clif);
                } else {
                    out += &format!("{}:\n{}\n", f.name, tcc_codegen::disassemble(&f.code));
                }
            }
            out
        }
    };
    if output == "-" {
        let _ = std::io::stdout().lock().write_all(text.as_bytes());
        Ok(())
    } else {
        std::fs::write(output, text).map_err(|e| format!("cannot write '{output}': {e}"))
    }
}
