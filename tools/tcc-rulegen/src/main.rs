//! `tcc-rulegen`, the tool for the graph dialect's rewrite rules (TASO's generator).
//!
//! - `check PATH...` parses and checks rule files (directories are searched for
//!   `*.rules`; files under a directory named `canonical` are canonicalization rules,
//!   which the shadowing check applies to) exactly as the dialect's build script does,
//!   and reports the first error with its file, line and column.
//! - `generate` enumerates graphs ([`enumerate`]), groups them by fingerprint, prunes
//!   ([`emit`]), re-checks on floats, proves with Z3 ([`verify`]) under validated axioms
//!   ([`axioms`]) and writes `dialects/graph/rules/generated/*.rules`, printing the
//!   count at each stage.
//! - `axioms` validates the axioms ([`validate`]) and lists them with the number of
//!   shape combinations each was checked on.
//! - `verify` (also `--verify`) re-proves every generated rule that is checked in, read
//!   back from the rule files.

mod axioms;
mod emit;
mod enumerate;
mod generate;
mod spec;
mod sym;
mod terms;
mod validate;
mod verify;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "tcc-rulegen", version, about = "Generates, verifies and checks graph rewrite rules")]
struct Cli {
    /// Re-prove every generated rule checked in (the same as `tcc-rulegen verify`)
    #[arg(long)]
    verify: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The dialect's rule directory in this source tree.
fn rules_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../dialects/graph/rules")
}

#[derive(Subcommand)]
enum Command {
    /// Parse and check rule files as the build does; prints the number of rules
    Check {
        /// Rule files, or directories searched for `*.rules`
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Enumerate, fingerprint, prune, verify and write the generated rules
    Generate {
        /// Operators per graph at most (the checked-in rules are from 3, about 9 minutes
        /// on 2 cores; 2 takes seconds; 4 needs --max-graphs)
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=4))]
        max_ops: u32,
        /// Graphs enumerated per world at most: graphs of fewer than --max-ops ops are
        /// all kept, those of --max-ops sampled uniformly to fit
        #[arg(long)]
        max_graphs: Option<usize>,
        /// Where to write `<world>.rules` (default: the dialect's rules/generated)
        #[arg(long)]
        out: Option<PathBuf>,
        /// Milliseconds Z3 may spend on one candidate (proofs take a few; candidates the
        /// axioms do not entail run into it)
        #[arg(long, default_value_t = 300)]
        timeout_ms: u32,
    },
    /// Validate the axioms on every small shape, listing each with the shape
    /// combinations it was checked on
    Axioms,
    /// Re-prove generated rules (default: every rule file of the dialect)
    Verify {
        /// Rule files, or directories searched for `*.rules`
        paths: Vec<PathBuf>,
        /// Milliseconds Z3 may spend on one rule
        #[arg(long, default_value_t = 10_000)]
        timeout_ms: u32,
    },
}

/// The axioms, each first validated on every small shape.
fn checked_axioms() -> Result<Vec<axioms::Axiom>, String> {
    let start = std::time::Instant::now();
    let all = axioms::parse_axioms(axioms::AXIOMS)?;
    let v = validate::validate_all(&all, threads(), 10_000)?;
    eprintln!(
        "{} axioms validated on every small shape: {} instances, {} of them by Z3 ({:.1} s)",
        all.len(),
        v.instances,
        v.by_solver,
        start.elapsed().as_secs_f64()
    );
    Ok(all)
}

#[cfg(feature = "z3")]
fn prover(timeout_ms: u32) -> Result<Box<dyn verify::Prover>, String> {
    Ok(Box::new(verify::Z3Prover { timeout_ms }))
}

#[cfg(not(feature = "z3"))]
fn prover(_: u32) -> Result<Box<dyn verify::Prover>, String> {
    let _ = verify::NoProver;
    Err("tcc-rulegen was built without Z3: build it with `--features z3` (needs libz3-dev)".into())
}

/// Threads for proofs: one per core.
fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn generate_rules(
    max_ops: u32,
    max_graphs: Option<usize>,
    out: Option<PathBuf>,
    timeout_ms: u32,
) -> Result<String, String> {
    if max_ops >= 4 && max_graphs.is_none() {
        return Err("error: graphs of 4 ops need a budget: add --max-graphs N (10,000,000 takes a few GB)".into());
    }
    let axioms = checked_axioms()?;
    prover(timeout_ms)?;
    let start = std::time::Instant::now();
    let make_prover = move || prover(timeout_ms).expect("the prover was built once already");
    let (rules, report) =
        generate::generate(max_ops as usize, max_graphs.unwrap_or(usize::MAX), &axioms, &make_prover, threads(), true);
    let out = out.unwrap_or_else(|| rules_dir().join("generated"));
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: error: {e}", out.display()))?;
    let mut summary = String::new();
    for (world, counts) in &report {
        let text: String = rules.iter().filter(|r| r.world == *world).map(|r| format!("{}\n", r.text)).collect();
        let header = format!(
            "; Generated by `tcc-rulegen generate --max-ops {max_ops}`: do not edit. Graphs of the {world} world\n\
             ; with equal fingerprints, pruned, re-checked on floats and proved by Z3 from the\n\
             ; axioms in tools/tcc-rulegen/src/axioms.rs. `tcc-rulegen verify` re-proves them.\n\n"
        );
        let path = out.join(format!("{world}.rules"));
        std::fs::write(&path, header + &text).map_err(|e| format!("{}: error: {e}", path.display()))?;
        summary += &format!(
            "{world}: {} graphs enumerated{}, {} distinct, {} candidate pairs; pruned {:?}; {} failed the float check, {} not proved, {} proved but false on some shapes, {} verified, {} of them instances of others -> {}\n",
            counts.graphs,
            if counts.truncated { " (those of the most ops sampled to fit the budget)" } else { "" },
            counts.distinct,
            counts.pairs,
            counts.pruned,
            counts.float_rejected,
            counts.unverified,
            counts.shape_rejected,
            counts.verified,
            counts.instances,
            path.display()
        );
    }
    summary += &format!("{} rules in {:.1} s", rules.len(), start.elapsed().as_secs_f64());
    Ok(summary)
}

fn list_axioms() -> Result<String, String> {
    let all = axioms::parse_axioms(axioms::AXIOMS)?;
    let mut out = String::new();
    for a in &all {
        let v = validate::validate(a, 10_000)?;
        out += &format!(
            "{:>6} instances{}  {}\n",
            v.instances,
            if v.by_solver > 0 { format!(" ({} by Z3)", v.by_solver) } else { String::new() },
            a.text
        );
    }
    out += &format!("{} axioms, each equal on every shape combination checked", all.len());
    Ok(out)
}

/// A checked-in rule to prove again: where it is, what it claims, and what its
/// guards fix about the shapes of its leaves.
struct Claim {
    at: String,
    vars: Vec<String>,
    source: Vec<axioms::Term>,
    target: Vec<axioms::Term>,
    fixed: Vec<(axioms::Term, validate::Fixed)>,
}

fn verify_rules(paths: &[PathBuf], timeout_ms: u32) -> Result<String, String> {
    let axioms = checked_axioms()?;
    prover(timeout_ms)?;
    let paths = if paths.is_empty() { vec![rules_dir()] } else { paths.to_vec() };
    let mut files = Vec::new();
    for p in &paths {
        collect(p, &mut files)?;
    }
    let worlds = enumerate::worlds();
    let mut claims = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{}: error: {e}", f.display()))?;
        let file = tcc::rules::parse::parse_file(&f.display().to_string(), &text)
            .map_err(|e| e.render(&f.display().to_string(), &text))?;
        for rule in file.rules.iter().filter(|r| matches!(r.provenance, tcc::rules::Provenance::Generated { .. })) {
            // The variables of the rule's world in the world's order, as the generator
            // declared them: Z3's search is sensitive to the order of declarations.
            let mut vars: Vec<String> = worlds
                .iter()
                .find(|w| rule.name.starts_with(&format!("{}-", w.name)))
                .map(|w| w.inputs.iter().map(|i| i.name.to_string()).collect())
                .unwrap_or_default();
            let side = |ps: &[tcc::rules::Pattern], vars: &mut Vec<String>| {
                ps.iter().map(|p| terms::pattern_term(p, rule, vars)).collect::<Result<Vec<_>, _>>()
            };
            let source = side(&rule.source, &mut vars)?;
            let target = side(&rule.target, &mut vars)?;
            let leaves = (0..vars.len())
                .map(axioms::Term::Var)
                .chain(["imm", "ones"].into_iter().map(|c| axioms::Term::App(c, Vec::new())));
            let fixed = {
                let fixed_of = terms::rule_fixed(rule, &vars);
                leaves.map(|l| (l.clone(), fixed_of(&l))).collect()
            };
            claims.push(Claim {
                at: format!("{}:{}: rule `{}`", f.display(), rule.pos, rule.name),
                vars,
                source,
                target,
                fixed,
            });
        }
    }
    // One prover per thread, claims taken in turn; progress every 10 s.
    let start = std::time::Instant::now();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failed: Vec<(usize, String)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads())
            .map(|w| {
                let (next, claims, axioms) = (&next, &claims, &axioms);
                scope.spawn(move || {
                    let mut prover = prover(timeout_ms).expect("the prover was built once already");
                    let mut failed = Vec::new();
                    let mut last = std::time::Instant::now();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(c) = claims.get(k) else { break };
                        if let verify::Verdict::NotProved(why) = prover.prove(axioms, &c.vars, &c.source, &c.target) {
                            failed.push((k, format!("{}: error: not proved: {why}", c.at)));
                        } else if let Err(e) = validate::check_shapes(&c.source, &c.target, &|leaf| {
                            c.fixed.iter().find(|(l, _)| l == leaf).map(|(_, f)| f.clone()).unwrap_or_default()
                        }) {
                            failed.push((k, format!("{}: error: proved, but {e}", c.at)));
                        }
                        if w == 0 && last.elapsed().as_secs() >= 10 {
                            last = std::time::Instant::now();
                            eprintln!(
                                "{k}/{} rules proved again ({:.0} s)",
                                claims.len(),
                                start.elapsed().as_secs_f64()
                            );
                        }
                    }
                    failed
                })
            })
            .collect();
        let mut all: Vec<_> = workers.into_iter().flat_map(|w| w.join().expect("a verifier thread panicked")).collect();
        all.sort();
        all
    });
    if !failed.is_empty() {
        return Err(failed.into_iter().map(|(_, e)| e).collect::<Vec<_>>().join("\n"));
    }
    Ok(format!(
        "{} generated rules proved from {} axioms ({:.1} s)",
        claims.len(),
        axioms.len(),
        start.elapsed().as_secs_f64()
    ))
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
        sources.push(tcc::rules::Source {
            path: f.display().to_string(),
            text,
            canonical,
            include_from: f.display().to_string(),
        });
    }
    let n = tcc::rules::check_sources(&sources)?;
    Ok(format!("{n} rules in {} files: ok", files.len()))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        _ if cli.verify => verify_rules(&[], 10_000),
        Some(Command::Check { paths }) => check(&paths),
        Some(Command::Generate { max_ops, max_graphs, out, timeout_ms }) => {
            generate_rules(max_ops, max_graphs, out, timeout_ms)
        }
        Some(Command::Axioms) => list_axioms(),
        Some(Command::Verify { paths, timeout_ms }) => verify_rules(&paths, timeout_ms),
        None => Err("nothing to do: give a command (check, generate, verify) or --verify; see --help".into()),
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
