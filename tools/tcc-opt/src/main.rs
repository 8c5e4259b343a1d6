//! `tcc-opt`: parse an MLIR file, verify it, run a pass pipeline, print the result.
//!
//! The tool behind the lit tests, modelled on `mlir-opt`: `--pass-pipeline`,
//! `--split-input-file` (chunks separated by `// -----`), `--verify-diagnostics`,
//! `--print-ir-after-all`, `--timing`, generic printing. Errors go to stderr as
//! `file:line:col: error: ...` with the source line; the exit status is non-zero.

mod expectations;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use tcc::ir::{Diagnostics, Module, PassManager, PrintOptions, Timing, parse_chunk, parse_owned, print_module, verify};

#[derive(Parser, Debug)]
#[command(name = "tcc-opt", version, about = "Run tcc passes on an MLIR file and print the result")]
struct Args {
    /// Input file (`-` for standard input).
    #[arg(default_value = "-")]
    input: String,
    /// Comma-separated passes, e.g. `canonicalize,cse` or `canonicalize{max-iterations=4}`.
    #[arg(long, default_value = "")]
    pass_pipeline: String,
    /// Run the rewrite search first (off, greedy, taso or eqsat; by the analytical cost
    /// estimate): the same as starting the pipeline with `rewrite-search{mode=MODE}`.
    #[arg(long, value_name = "MODE", value_parser = ["off", "greedy", "taso", "eqsat"])]
    rewrite_search: Option<String>,
    /// Graphs the rewrite search expands at most (with --rewrite-search).
    #[arg(long, value_name = "N", requires = "rewrite_search")]
    search_budget: Option<usize>,
    /// Output file (`-` for standard output).
    #[arg(short, long, default_value = "-")]
    output: String,
    /// Treat each `// -----`-separated chunk as its own file.
    #[arg(long)]
    split_input_file: bool,
    /// Check diagnostics against `// expected-error@+N {{..}}` annotations.
    #[arg(long)]
    verify_diagnostics: bool,
    /// Print the IR (to stderr) after every pass.
    #[arg(long)]
    print_ir_after_all: bool,
    /// Print a table of the time spent in each step (to stderr).
    #[arg(long)]
    timing: bool,
    /// Print every op in MLIR's generic form.
    #[arg(long, alias = "mlir-print-op-generic")]
    print_op_generic: bool,
    /// Print dense constants of more than N elements as `dense_resource<__elided__>`
    /// (the output then does not parse back).
    #[arg(long = "mlir-elide-elementsattrs-if-larger", value_name = "N")]
    elide_elements_above: Option<usize>,
    /// Accept ops no dialect defines (generic form only).
    #[arg(long)]
    allow_unregistered_dialect: bool,
    /// Verify after each pass (default: on in debug builds).
    #[arg(long)]
    verify_each: Option<bool>,
    /// List the available passes and exit.
    #[arg(long)]
    list_passes: bool,
    /// Print Markdown documentation of every registered op and exit.
    #[arg(long)]
    print_op_docs: bool,
    /// Print the Markdown list of the TOSA ops tcc imports (docs/tosa.md) and exit.
    #[arg(long)]
    print_tosa_docs: bool,
    /// List the graph rewrite rules (name, use, where they are written, provenance) and exit.
    #[arg(long)]
    list_rules: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    tcc::ir::internal_error::quiet_panics();
    let result = tcc::ir::internal_error::catch_internal_error(|| run(&args))
        .unwrap_or_else(|m| Err(format!("internal compiler error: {m} (a bug in tcc; please report it)")));
    match result {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("tcc-opt: error: {msg}");
            ExitCode::FAILURE
        }
    }
}

fn read_input(path: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    if path == "-" {
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("cannot read standard input: {e}"))?;
    } else {
        bytes = tcc::read_model_file(std::path::Path::new(path))?.into_vec();
    }
    Ok(bytes)
}

/// Splits at lines that are exactly `// -----`; returns (chunk, first line number).
fn split_chunks(bytes: &[u8]) -> Vec<(&[u8], u32)> {
    let mut chunks = Vec::new();
    let (mut start, mut line, mut chunk_line) = (0, 1u32, 1u32);
    let mut pos = 0;
    while pos < bytes.len() {
        let end = bytes[pos..].iter().position(|&b| b == b'\n').map(|e| pos + e + 1).unwrap_or(bytes.len());
        let text = &bytes[pos..end];
        let trimmed = text.strip_suffix(b"\n").unwrap_or(text);
        let trimmed = trimmed.strip_suffix(b"\r").unwrap_or(trimmed);
        if trimmed.trim_ascii() == b"// -----" {
            chunks.push((&bytes[start..pos], chunk_line));
            start = end;
            chunk_line = line + 1;
        }
        line += 1;
        pos = end;
    }
    chunks.push((&bytes[start..], chunk_line));
    chunks
}

/// The pipeline to run: `--pass-pipeline`, after the search `--rewrite-search` asks for.
fn pipeline(args: &Args) -> String {
    let Some(mode) = &args.rewrite_search else { return args.pass_pipeline.clone() };
    let budget = args.search_budget.map_or(String::new(), |b| format!(" budget={b}"));
    let search = format!("rewrite-search{{mode={mode}{budget}}}");
    if args.pass_pipeline.trim().is_empty() { search } else { format!("{search},{}", args.pass_pipeline) }
}

fn run(args: &Args) -> Result<ExitCode, String> {
    let passes_reg = tcc::pass_registry();
    if args.list_passes {
        for p in passes_reg.passes() {
            println!("{:<16} {}", p.name, p.summary);
            for (opt, doc) in p.options {
                println!("    {opt}: {doc}");
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.list_rules {
        for r in tcc::graph::rules::all() {
            let used = if r.canonical { "canonical" } else { "search" };
            let by = match &r.provenance {
                tcc::graph::rules::matching::Provenance::Hand => "hand-written".to_string(),
                tcc::graph::rules::matching::Provenance::Generated { fingerprint, verified } => {
                    format!("generated {fingerprint}, verified by {verified}")
                }
            };
            println!("{:<28} {used:<9} {}:{} ({by})", r.name, r.file, r.line);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut registry = tcc::registry();
    if args.print_op_docs {
        println!("# Op reference\n\nGenerated from the op definitions by `tcc-opt --print-op-docs > docs/ops.md`;");
        println!("a test fails when this file falls behind them. Blocked layouts (`NCHW[x]c`, packed");
        println!("filters and matmul operands) and the kernel ops' epilogues and configurations are");
        println!("described in [layouts.md](layouts.md).\n");
        for def in registry.ops() {
            println!("{}", def.markdown());
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.print_tosa_docs {
        print!("{}", tosa_reference(&registry));
        return Ok(ExitCode::SUCCESS);
    }
    registry.allow_unregistered = args.allow_unregistered_dialect;
    // Validate the pipeline once up front so a typo fails before any input is read.
    passes_reg.parse_pipeline(&pipeline(args))?;

    let bytes = read_input(&args.input)?;
    let name = if args.input == "-" { "<stdin>".to_string() } else { args.input.clone() };
    let mut timing = args.timing.then(Timing::default);

    let mut outputs = Vec::new();
    let mut failed = false;
    if !args.split_input_file && !args.verify_diagnostics {
        // The whole file goes to the parser by value: large weight blobs are not copied.
        let parsed = timed(&mut timing, "parse", || parse_owned(&name, bytes, &registry));
        match process(args, parsed, &mut timing) {
            Ok(text) => outputs.push(text),
            Err(diags) => {
                eprint!("{diags}");
                failed = true;
            }
        }
    } else {
        let chunks = if args.split_input_file { split_chunks(&bytes) } else { vec![(&bytes[..], 1)] };
        for (chunk, first_line) in chunks {
            let parsed = timed(&mut timing, "parse", || parse_chunk(&name, chunk, first_line, &registry));
            let result = process(args, parsed, &mut timing);
            if args.verify_diagnostics {
                let diags = result.as_ref().err().map(|d| d.0.clone()).unwrap_or_default();
                let problems = expectations::check(&String::from_utf8_lossy(chunk), first_line, &name, &diags);
                for p in &problems {
                    eprintln!("{p}");
                }
                failed |= !problems.is_empty();
                if let Ok(text) = result {
                    outputs.push(text);
                }
            } else {
                match result {
                    Ok(text) => outputs.push(text),
                    Err(diags) => {
                        eprint!("{diags}");
                        failed = true;
                    }
                }
            }
        }
    }
    if let Some(t) = &timing {
        eprint!("{t}");
    }
    let text = outputs.join("// -----\n");
    if failed && outputs.is_empty() {
        // Nothing to write: leave any existing output file alone.
    } else if args.output == "-" {
        let mut out = std::io::stdout().lock();
        // A closed pipe (`| head`) is not an error worth reporting.
        let _ = out.write_all(text.as_bytes());
    } else {
        let path = PathBuf::from(&args.output);
        std::fs::write(&path, text).map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
    }
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

fn timed<T>(timing: &mut Option<Timing>, name: &str, f: impl FnOnce() -> T) -> T {
    match timing {
        Some(t) => t.time(name, f),
        None => f(),
    }
}

/// Verifies, runs the pipeline and prints one parsed module.
fn process(
    args: &Args,
    parsed: Result<Module, Diagnostics>,
    timing: &mut Option<Timing>,
) -> Result<String, Diagnostics> {
    let mut module = parsed?;
    timed(timing, "verify", || verify(&module))?;
    let passes = tcc::pass_registry().parse_pipeline(&pipeline(args)).expect("validated before reading input");
    let mut pm = PassManager::new(passes);
    pm.print_ir_after_all = args.print_ir_after_all;
    pm.print_options = print_options(args);
    if let Some(v) = args.verify_each {
        pm.verify_each = v;
    }
    pm.timing = timing.take();
    let result = pm.run(&mut module);
    *timing = pm.timing.take();
    result?;
    Ok(timed(timing, "print", || print_module(&module, print_options(args))))
}

fn print_options(args: &Args) -> PrintOptions {
    PrintOptions { generic: args.print_op_generic, elide_elements_above: args.elide_elements_above }
}

/// The TOSA ops tcc imports, as Markdown: what `docs/tosa.md` holds.
fn tosa_reference(registry: &tcc::ir::Registry) -> String {
    let mut out = String::from(
        "# TOSA ops tcc reads\n\n\
         Generated from the TOSA op definitions by `tcc-opt --print-tosa-docs > docs/tosa.md`; a test\n\
         fails when this file falls behind them. tcc reads TOSA as torch-mlir exports it\n\
         (`torch_mlir.fx.export_and_import(..., output_type=\"tosa\")`) and imports each op into\n\
         the graph dialect ([ops.md](ops.md)); any other TOSA op is an error naming it.\n\n\
         | op | operands | what tcc computes |\n|---|---|---|\n",
    );
    for def in registry.ops() {
        if tcc::tosa::ops::op_kind(def).is_none() {
            continue;
        }
        out += &format!("| `{}` | {} | {} |\n", def.name, def.operands, def.summary.replace('|', "\\|"));
    }
    out
}
