//! `tcc-rulegen`, the tool for the graph dialect's rewrite rules.
//!
//! `tcc-rulegen check PATH...` parses and checks rule files (directories are searched
//! for `*.rules`; files under a directory named `canonical` are canonicalization
//! rules, which the shadowing check applies to) exactly as the dialect's build script
//! does, and reports the first error with its file, line and column. The
//! superoptimizer (enumeration, fingerprints, Z3 verification, pruning; TASO) is not
//! built yet: it arrives with the rest of the rewrite-rules issue.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "tcc-rulegen", version, about = "Checks (and, later, generates and verifies) graph rewrite rules")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and check rule files as the build does; prints the number of rules
    Check {
        /// Rule files, or directories searched for `*.rules`
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: error: {e}", path.display()))?;
    if !meta.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| format!("{}: error: {e}", path.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() || p.extension().is_some_and(|e| e == "rules") {
            collect(&p, out)?;
        }
    }
    Ok(())
}

fn check(paths: &[PathBuf]) -> Result<String, String> {
    let mut files = Vec::new();
    for p in paths {
        collect(p, &mut files)?;
    }
    let mut sources = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{}: error: {e}", f.display()))?;
        let canonical = f.components().any(|c| c.as_os_str() == "canonical");
        sources.push(tcc_rules::Source { path: f.display().to_string(), text, canonical });
    }
    let n = tcc_rules::check_sources(&sources)?;
    Ok(format!("{n} rules in {} files: ok", files.len()))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Check { paths } => check(paths),
    };
    match result {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
