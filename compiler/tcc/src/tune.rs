//! Tuning (`tcc tune`, NeoCPU's local search): each distinct kernel of a model (a
//! convolution, matmul or pool with its shapes and attributes: a [`KernelKey`]) is
//! compiled alone with each of its candidate configurations
//! ([`tcc_graph_opt::tuning::candidates`]: the analytic default, register tiles around
//! it, edge placement, task order) and timed on this machine, the three fastest then
//! timed again against the default in alternating rounds; the fastest goes to the
//! tuning database ([`TuningDb`]), which every later compile with the same backend,
//! microkernel level and threads on this CPU reads before the default
//! ([`load_tuning_db`]). The kernels are tuned largest first, each within an even share
//! of what is left of the time budget; the database is written after each kernel, so an
//! interrupted run keeps what it measured, and kernels already in it are not measured
//! again (unless asked to).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use tcc_dialect_graph::config::{KernelConfig, KernelKey, takes_config};
use tcc_graph_opt::tuning::{Tuned, TuningDb, candidates};
use tcc_ir::Module;
use tcc_ir::builtin::func_entry;

use crate::pipeline::{self, Session};
use crate::search::{compile_alone, standalone, time_runs};
use crate::{Error, Options};

/// The default tuning database: `tuning.json` in tcc's cache directory.
pub fn default_tuning_db() -> PathBuf {
    crate::runtime_lib::cache_dir().join("tuning.json")
}

/// What configurations tuned with `options` for `target` are valid for: the CPU
/// model, backend, microkernel level and threads.
pub fn machine_key(options: &Options, target: &tcc_codegen::Target) -> String {
    let threads = crate::resolve_threads(options).unwrap_or(1);
    let isa = target.ukernels.map_or("generated code", |i| i.name());
    format!("{} / {:?} / {isa} / {threads} threads", tcc_target::host::cpu_model(), options.backend)
}

/// The tuning database of `options` (`options.tuning_db`, else the default) for this
/// machine, or `None` when it has nothing for it or `options.untuned`. A database the
/// user named must be readable; the default one is a cache, ignored with a warning
/// when it is not.
pub(crate) fn load_tuning_db(options: &Options, target: &tcc_codegen::Target) -> Result<Option<TuningDb>, String> {
    if options.untuned {
        return Ok(None);
    }
    let path = options.tuning_db.clone().unwrap_or_else(default_tuning_db);
    match TuningDb::load(&path, &machine_key(options, target)) {
        Ok(db) => Ok((!db.kernels.is_empty()).then_some(db)),
        Err(e) if options.tuning_db.is_some() => Err(e),
        Err(e) => {
            eprintln!("tcc: warning: {e}; compiling with the default kernel configurations");
            Ok(None)
        }
    }
}

/// `op` of `m` alone with `config`.
fn candidate(m: &Module, op: tcc_ir::Op, config: &KernelConfig) -> Module {
    let (mut one, copy) = standalone(m, op);
    config.set_on(&mut one, copy);
    one
}

/// Rounds of timing of the fastest candidates against each other and the default.
const CONFIRM_ROUNDS: usize = 5;

/// The fastest configuration of those `times` has (seconds, index into `configs`,
/// each timed once, the default at index 0) and the default's seconds: the three
/// fastest and the default are compiled again and timed in [`CONFIRM_ROUNDS`]
/// alternating rounds, each keeping its median, so that one lucky timing does not
/// decide (this machine's timings of a short kernel move by several percent from one
/// run to the next).
fn confirm(
    m: &Module,
    op: tcc_ir::Op,
    configs: &[KernelConfig],
    mut times: Vec<(f64, usize)>,
    options: &Options,
) -> (Option<(f64, usize)>, Option<f64>) {
    let default = times.iter().find(|t| t.1 == 0).map(|t| t.0);
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut finalists: Vec<usize> = times.iter().take(3).map(|t| t.1).collect();
    if default.is_some() && !finalists.contains(&0) {
        finalists.push(0);
    }
    let compiled: Vec<_> =
        finalists.iter().filter_map(|&i| Some((i, compile_alone(candidate(m, op, &configs[i]), options)?))).collect();
    if compiled.len() < 2 {
        return (times.first().copied(), default);
    }
    let mut rounds: Vec<Vec<f64>> = vec![Vec::new(); compiled.len()];
    for _ in 0..CONFIRM_ROUNDS {
        for (j, (_, c)) in compiled.iter().enumerate() {
            if let Some(s) = time_runs(c, 0.02) {
                rounds[j].push(s);
            }
        }
    }
    let medians: Vec<(f64, usize)> = compiled
        .iter()
        .zip(&mut rounds)
        .filter(|(_, r)| !r.is_empty())
        .map(|((i, _), r)| {
            r.sort_by(f64::total_cmp);
            (r[r.len() / 2], *i)
        })
        .collect();
    let best = medians.iter().copied().min_by(|a, b| a.0.total_cmp(&b.0));
    let default = medians.iter().find(|t| t.1 == 0).map(|t| t.0).or(default);
    (best, default)
}

/// Where a tuning run is, for a progress display.
pub struct Progress<'a> {
    /// Kernels finished, of `total`.
    pub done: usize,
    pub total: usize,
    /// The kernel being tuned (its op at its location).
    pub kernel: &'a str,
    /// Its configurations measured, of `candidates`.
    pub measured: usize,
    pub candidates: usize,
    /// Seconds per run with its analytic default and with the best so far.
    pub default_seconds: Option<f64>,
    pub best_seconds: Option<f64>,
    /// What is left of the budget.
    pub left: Duration,
}

/// One kernel's outcome.
#[derive(Clone, Debug)]
pub struct TunedKernel {
    /// The op at its location.
    pub kernel: String,
    pub key: KernelKey,
    /// Configurations it has, and measured now (0: found in the database).
    pub candidates: usize,
    pub measured: usize,
    /// Seconds per run, alone, with the analytic default and with the chosen
    /// configuration (from the database when it was found there).
    pub default_seconds: Option<f64>,
    pub best_seconds: Option<f64>,
    /// The chosen configuration, printed (none when nothing could be measured).
    pub config: Option<String>,
}

/// What a tuning run did.
#[derive(Clone, Debug)]
pub struct TuneReport {
    pub database: PathBuf,
    pub machine: String,
    pub kernels: Vec<TunedKernel>,
    pub elapsed: Duration,
}

/// Tunes the kernels of `module` (graph dialect or TOSA) for `options` (backend,
/// threads, microkernel level, precision) within `budget`, writing the configurations
/// to the tuning database (`options.tuning_db`, else the default). With `again`,
/// kernels the database has are measured anew. `progress` is told after every
/// configuration measured.
pub fn tune(
    mut module: Module,
    options: &Options,
    budget: Duration,
    again: bool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<TuneReport, Error> {
    let start = Instant::now();
    let session = Session::for_module(&module, options)?;
    pipeline::to_kernel_ops(&mut module, &session)?;
    let m = &module;
    let machine = machine_key(options, &session.target);
    let database = options.tuning_db.clone().unwrap_or_else(default_tuning_db);
    let mut db = match TuningDb::load(&database, &machine) {
        Ok(db) => db,
        Err(e) if options.tuning_db.is_some() => return Err(Error::Io(e)),
        Err(e) => {
            eprintln!("tcc: warning: {e}; starting a new tuning database");
            TuningDb::new(&machine)
        }
    };
    // Distinct kernels, the most FLOPs first.
    let mut kernels = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for func in m.funcs() {
        let Some(entry) = func_entry(m, func) else { continue };
        for op in m.block_ops(entry) {
            if takes_config(m, op) && m.attr(op, tcc_dialect_graph::config::CONFIG_ATTR).is_none() {
                let key = KernelKey::of(m, op);
                if seen.insert(key.clone()) {
                    kernels.push((key, op));
                }
            }
        }
    }
    kernels.sort_by_key(|&(_, op)| std::cmp::Reverse(tcc_dialect_graph::cost::flops(m, op)));
    // Candidates are compiled alone without the database (each has its configuration).
    let mut alone = options.clone();
    alone.untuned = true;
    let deadline = start + budget;
    let total = kernels.len();
    let mut report = Vec::new();
    for (done, (key, op)) in kernels.into_iter().enumerate() {
        let kernel = format!("{} at {}", m.name(op), m.loc(op));
        let configs = candidates(m, op, &session.target);
        if let Some(found) = db.kernels.get(&key.0).filter(|_| !again) {
            report.push(TunedKernel {
                kernel,
                candidates: configs.len(),
                measured: 0,
                default_seconds: Some(found.default_seconds),
                best_seconds: Some(found.seconds),
                config: found.config_for(&key).map(|c| c.to_dict().to_string()),
                key,
            });
            continue;
        }
        // An even share of what is left; the default is always measured.
        let now = Instant::now();
        let share = deadline.saturating_duration_since(now) / (total - done) as u32;
        let kernel_deadline = now + share;
        let (mut times, mut measured) = (Vec::new(), 0);
        let mut best = None::<(f64, usize)>;
        for (i, config) in configs.iter().enumerate() {
            if i > 0 && Instant::now() >= kernel_deadline {
                break;
            }
            let compiled = compile_alone(candidate(m, op, config), &alone);
            let seconds = compiled.as_ref().and_then(|c| time_runs(c, 0.05));
            measured += 1;
            if let Some(s) = seconds {
                times.push((s, i));
                best = best.filter(|&(b, _)| b <= s).or(Some((s, i)));
            }
            progress(&Progress {
                done,
                total,
                kernel: &kernel,
                measured,
                candidates: configs.len(),
                default_seconds: times.first().filter(|t| t.1 == 0).map(|t| t.0),
                best_seconds: best.map(|b| b.0),
                left: deadline.saturating_duration_since(Instant::now()),
            });
        }
        let (best, default_seconds) = confirm(m, op, &configs, times, &alone);
        if let (Some((seconds, i)), Some(default)) = (best, default_seconds) {
            db.kernels.insert(key.0.clone(), Tuned::new(&configs[i], seconds, default, measured));
            db.save(&database).map_err(Error::Io)?;
        }
        report.push(TunedKernel {
            kernel,
            key,
            candidates: configs.len(),
            measured,
            default_seconds,
            best_seconds: best.map(|b| b.0),
            config: best.map(|(_, i)| configs[i].to_dict().to_string()),
        });
    }
    Ok(TuneReport { database, machine, kernels: report, elapsed: start.elapsed() })
}
