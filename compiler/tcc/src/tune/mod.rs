//! Tuning (`tcc tune`, NeoCPU's local search): each distinct kernel of a model (a
//! convolution, matmul or pool with its shapes and attributes: a [`KernelKey`]) has
//! candidate configurations ([`tcc_graph_opt::candidates::candidates`]: the untuned
//! one (the "default": the I/O bound's optimum or the analytic default), register
//! tiles around it within a factor of the I/O bound's best, edge placement, task order,
//! passes, padding), measured in rounds of the whole model, each timed back to back
//! with the defaults' ([`tune`], [`time_round`]); its three fastest are then
//! confirmed against the default in rounds of timings one after another ([`confirm`]),
//! and the fastest there goes to the tuning database ([`TuningDb`]), which every later
//! compile with the same backend, microkernel level and threads on this CPU reads
//! before the default ([`load_tuning_db`]). Kernels already in it are not measured
//! again (unless asked to). Under a Winograd policy, which convolutions become Winograd
//! convolutions is measured first ([`winograd`]).

mod winograd;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tcc_dialect_graph::config::{CONFIG_ATTR, KernelConfig, KernelKey, takes_config};
use tcc_graph_opt::candidates::{Candidates, candidates};
use tcc_graph_opt::tuning::{Tuned, TuningDb};
use tcc_ir::builtin::func_entry;
use tcc_ir::{Module, Op};

use crate::pipeline::{self, Session};
use crate::{Error, Options, Winograd};

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

/// How a tuning run goes.
#[derive(Clone, Debug)]
pub struct TuneSettings {
    /// The time to spend (the defaults' round always runs).
    pub budget: Duration,
    /// Measure kernels the database already has again.
    pub again: bool,
    /// Measure every candidate, none pruned by the I/O bound.
    pub exhaustive: bool,
}

impl Default for TuneSettings {
    fn default() -> TuneSettings {
        TuneSettings { budget: Duration::from_secs(300), again: false, exhaustive: false }
    }
}

/// Where a tuning run is, for a progress display: after each round.
pub struct Progress {
    /// Rounds done (each one compile and timing of the model), of `rounds`.
    pub round: usize,
    pub rounds: usize,
    /// Kernels being tuned (the others come from the database).
    pub kernels: usize,
    /// Seconds per run of the tuned kernels, summed: with the defaults (the first
    /// round), and with the best configuration of each so far.
    pub default_seconds: Option<f64>,
    pub best_seconds: Option<f64>,
    /// What is left of the budget.
    pub left: Duration,
}

/// One kernel's outcome.
#[derive(Clone, Debug)]
pub struct TunedKernel {
    /// The op at its (first) location.
    pub kernel: String,
    pub key: KernelKey,
    /// Its ops in the model.
    pub instances: usize,
    /// Configurations it has, measured now (0: found in the database), and pruned by
    /// the I/O bound.
    pub candidates: usize,
    pub measured: usize,
    pub pruned: usize,
    /// Seconds per run of all its instances in the model, with the untuned configuration and
    /// with the chosen configuration (from the database when it was found there).
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
    /// Under a Winograd policy, each eligible convolution's choice: its time direct
    /// (`default_seconds`) and as chosen (`best_seconds`), `{winograd = true|false}`.
    pub winograd: Vec<TunedKernel>,
    pub kernels: Vec<TunedKernel>,
    /// Rounds run, of those the candidates called for.
    pub rounds: usize,
    pub rounds_wanted: usize,
    pub elapsed: Duration,
}

/// A distinct kernel of the model being tuned.
struct Kernel {
    key: KernelKey,
    name: String,
    ops: Vec<Op>,
    configs: Vec<KernelConfig>,
    pruned: usize,
    /// The database's configuration (not measured).
    found: Option<KernelConfig>,
    /// Seconds per run of all its instances with each configuration measured.
    times: Vec<Option<f64>>,
}

impl Kernel {
    fn best(&self) -> Option<(f64, usize)> {
        self.times.iter().enumerate().filter_map(|(i, t)| t.map(|t| (t, i))).min_by(|a, b| a.0.total_cmp(&b.0))
    }

    /// Its `n`-th fastest measured candidate other than the default (its index), if it
    /// has that many.
    fn ranked(&self, n: usize) -> Option<usize> {
        let mut measured: Vec<(f64, usize)> =
            self.times.iter().enumerate().skip(1).filter_map(|(i, t)| t.map(|t| (t, i))).collect();
        measured.sort_by(|a, b| a.0.total_cmp(&b.0));
        measured.get(n).map(|m| m.1)
    }

    /// Its configuration in round `r`: the database's, else candidate `r`, else the
    /// best measured so far.
    fn config_in_round(&self, r: usize) -> &KernelConfig {
        match &self.found {
            Some(c) => c,
            None if r < self.configs.len() => &self.configs[r],
            None => &self.configs[self.best().map_or(0, |b| b.1)],
        }
    }
}

/// Tunes the kernels of `module` (graph dialect or TOSA) for `options` (backend,
/// threads, microkernel level, precision) as `settings` say, writing the
/// configurations to the tuning database (`options.tuning_db`, else the default).
/// `progress` is told after each round.
///
/// Kernels are measured where they run: in round `r` every kernel takes its `r`-th
/// candidate (the untuned one in round 0; a kernel out of candidates its best so
/// far), the whole model is compiled with profiling and timed, and each kernel's time
/// is read from the profile (summed over its instances). So a configuration is timed
/// with its inputs coming from the kernels before it, in the caches they leave, not on
/// a warm copy of its own.
pub fn tune(
    mut module: Module,
    options: &Options,
    settings: &TuneSettings,
    progress: &mut dyn FnMut(&Progress),
) -> Result<TuneReport, Error> {
    let start = Instant::now();
    let mut session = Session::for_module(&module, options)?;
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
    pipeline::to_rewritten_graph(&mut module, &session)?;
    // Which convolutions are Winograd convolutions comes first: it decides which
    // kernels there are.
    let mut winograd = Vec::new();
    if options.winograd_policy() != Winograd::Off {
        winograd = winograd::choose(&module, options, &mut db, settings.again)?;
        session.tuned = Some(Arc::new(db.clone()));
    }
    pipeline::run(&mut module, pipeline::graph_to_kernel_ops(&session), options)?;
    let (mut kernels, owners) = kernels_of(&module, &session, &db, settings);
    let mut round_options = options.clone();
    round_options.untuned = true;
    round_options.profile = true;
    round_options.rewrite_search = tcc_graph_opt::search::Mode::Off;
    round_options.print_ir_after_all = false;
    round_options.timing = false;
    let tuned: Vec<usize> = (0..kernels.len()).filter(|&k| kernels[k].found.is_none()).collect();
    // As many rounds as the most candidates a kernel has (none when the database has
    // every kernel).
    let rounds_wanted = tuned.iter().map(|&k| kernels[k].configs.len().max(1)).max().unwrap_or(0);
    let deadline = start + settings.budget;
    let mut rounds = 0;
    let mut defaults = None;
    for r in 0..rounds_wanted {
        if r > 0 && Instant::now() >= deadline {
            break;
        }
        let mut m = module.clone();
        for k in &kernels {
            let config = k.config_in_round(r).clone();
            for &op in &k.ops {
                config.set_on(&mut m, op);
            }
        }
        let per_kernel = match time_round(m, r, &mut defaults, &round_options, &owners, kernels.len()) {
            Ok(t) => t,
            // The defaults must compile; a candidate that does not is left unmeasured.
            Err(e) if r == 0 => return Err(e),
            Err(_) => vec![None; kernels.len()],
        };
        for (k, seconds) in kernels.iter_mut().zip(per_kernel) {
            if k.found.is_none() && r < k.configs.len() {
                k.times[r] = seconds;
            }
        }
        rounds += 1;
        let sum = |pick: &dyn Fn(&Kernel) -> Option<f64>| tuned.iter().map(|&k| pick(&kernels[k])).sum::<Option<f64>>();
        progress(&Progress {
            round: rounds,
            rounds: rounds_wanted,
            kernels: tuned.len(),
            default_seconds: sum(&|k| k.times[0]),
            best_seconds: sum(&|k| k.best().map(|b| b.0)),
            left: deadline.saturating_duration_since(Instant::now()),
        });
    }
    let confirmed = if rounds > 1 { confirm(&module, &kernels, &round_options, &owners) } else { None };
    let mut report = Vec::new();
    for (index, k) in kernels.into_iter().enumerate() {
        let measured = k.times.iter().filter(|t| t.is_some()).count();
        // The confirmation decides where it measured the kernel: of its fastest
        // candidates, the one whose paired timings beat the default's most, by the
        // margin, else the default.
        let choice = match &confirmed {
            Some(confirmed) if k.ranked(0).is_some() => match &confirmed[index] {
                Some(Confirmed { default, ratio, candidate }) if *ratio < 1.0 - CONFIRM_MARGIN => {
                    Some((default * ratio, *candidate, Some(*default)))
                }
                Some(Confirmed { default, .. }) => Some((*default, 0, Some(*default))),
                None => k.best().map(|(s, i)| (s, i, k.times[0])),
            },
            _ => k.best().map(|(s, i)| (s, i, k.times[0])),
        };
        let (default_seconds, best, config) = match (&k.found, choice) {
            (Some(found), _) => {
                let entry = &db.kernels[&k.key.0];
                (Some(entry.default_seconds), Some(entry.seconds), Some(found.to_dict().to_string()))
            }
            (None, Some((seconds, i, default))) => {
                if let Some(d) = default {
                    db.kernels.insert(k.key.0.clone(), Tuned::new(&k.configs[i], seconds, d, measured));
                }
                (default, Some(seconds), Some(k.configs[i].to_dict().to_string()))
            }
            (None, None) => (None, None, None),
        };
        report.push(TunedKernel {
            kernel: k.name,
            key: k.key,
            instances: k.ops.len(),
            candidates: k.configs.len() + k.pruned,
            measured: if k.found.is_some() { 0 } else { measured },
            pruned: k.pruned,
            default_seconds,
            best_seconds: best,
            config,
        });
    }
    db.save(&database).map_err(Error::Io)?;
    Ok(TuneReport { database, machine, winograd, kernels: report, rounds, rounds_wanted, elapsed: start.elapsed() })
}

/// Rounds of timings of [`confirm`].
const CONFIRM_ROUNDS: usize = 8;

/// How many of each kernel's fastest candidates [`confirm`] times against its default:
/// the fastest of many noisy timings is often not the fastest candidate.
const CONFIRM_CANDIDATES: usize = 3;

/// How much faster than the default a kernel's candidate must confirm (the median of its
/// paired ratios) to be kept: less is within the timings' noise.
const CONFIRM_MARGIN: f64 = 0.02;

/// A kernel's confirmation: the median of its default's seconds, and the candidate
/// (index) with the lowest median ratio to the default, that ratio.
#[derive(Clone, Debug, PartialEq)]
struct Confirmed {
    default: f64,
    ratio: f64,
    candidate: usize,
}

/// The best of many noisy timings is optimistic (and may be noise, or a phase of the
/// machine: a shared core runs at half speed for seconds to minutes, so timings minutes
/// apart do not compare): the model is compiled once with every kernel at its default
/// and once with every kernel at its `n`-th fastest candidate, for each `n` below
/// [`CONFIRM_CANDIDATES`] (a kernel with fewer at its default), and the models are timed
/// one after another in [`CONFIRM_ROUNDS`] rounds, each round's order the previous one's
/// rotated (so a drift favours none). Per kernel: its default's median, and its
/// candidate with the lowest median ratio to the default timed in the same round
/// ([`paired_ratio`]). `None` if a model does not compile or run.
fn confirm(module: &Module, kernels: &[Kernel], options: &Options, owners: &Owners) -> Option<Vec<Option<Confirmed>>> {
    // Model 0 the defaults, model `n + 1` every kernel at its `n`-th candidate.
    let pick = |k: &Kernel, model: usize| match &k.found {
        Some(found) => found.clone(),
        None if model == 0 => k.configs[0].clone(),
        None => k.configs[k.ranked(model - 1).unwrap_or(0)].clone(),
    };
    let mut models = Vec::new();
    for model in 0..=CONFIRM_CANDIDATES {
        if model > 0 && kernels.iter().all(|k| k.found.is_some() || k.ranked(model - 1).is_none()) {
            break;
        }
        let mut m = module.clone();
        for k in kernels {
            let config = pick(k, model);
            for &op in &k.ops {
                config.set_on(&mut m, op);
            }
        }
        models.push(Timed::compile(m, options).ok()?);
    }
    // pairs[model - 1][kernel]: (default, candidate) timed in the same round.
    let mut pairs: Vec<Vec<Vec<(f64, f64)>>> = vec![vec![Vec::new(); kernels.len()]; models.len() - 1];
    for round in 0..CONFIRM_ROUNDS {
        let mut times = vec![Vec::new(); models.len()];
        for turn in 0..models.len() {
            let model = (turn + round) % models.len();
            times[model] = models[model].per_kernel(owners, kernels.len()).ok()?;
        }
        for (model, candidate_times) in times.iter().enumerate().skip(1) {
            for (k, (&d, &c)) in times[0].iter().zip(candidate_times).enumerate() {
                if let (Some(d), Some(c)) = (d, c) {
                    pairs[model - 1][k].push((d, c));
                }
            }
        }
    }
    Some(
        (0..kernels.len())
            .map(|k| {
                let mut best: Option<Confirmed> = None;
                for (n, model_pairs) in pairs.iter().enumerate() {
                    let Some(candidate) = kernels[k].ranked(n) else { continue };
                    let Some((default, ratio)) = paired_ratio(&model_pairs[k]) else { continue };
                    if best.as_ref().is_none_or(|b| ratio < b.ratio) {
                        best = Some(Confirmed { default, ratio, candidate });
                    }
                }
                best
            })
            .collect(),
    )
}

/// The median of the defaults' seconds and the median of the ratios candidate /
/// default of `pairs` (each a default and a candidate timed in the same round): a
/// phase of the machine that slows one or two rounds moves neither. `None` without
/// pairs.
fn paired_ratio(pairs: &[(f64, f64)]) -> Option<(f64, f64)> {
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied()
    };
    let default = median(pairs.iter().map(|p| p.0).collect())?;
    let ratio = median(pairs.iter().filter(|p| p.0 > 0.0).map(|p| p.1 / p.0).collect())?;
    Some((default, ratio))
}

/// Which tuned kernel a profiled kernel counts for, by its op's name, its location and
/// its ordinal among the kernels of that name at that location in program order (a
/// Winograd convolution's three matmuls share its location).
type Owners = HashMap<(String, String, usize), usize>;

/// The distinct kernels of `m` (at the kernel-op stage), the most FLOPs first, with
/// their candidates (or the database's configuration, unless `settings.again`); and which
/// kernel each profiled kernel belongs to.
fn kernels_of(m: &Module, session: &Session, db: &TuningDb, settings: &TuneSettings) -> (Vec<Kernel>, Owners) {
    let mut kernels: Vec<Kernel> = Vec::new();
    let mut index: HashMap<KernelKey, usize> = HashMap::new();
    let mut ordinals: HashMap<(String, String), usize> = HashMap::new();
    let mut places: HashMap<Op, (String, String, usize)> = HashMap::new();
    for func in m.funcs() {
        let Some(entry) = func_entry(m, func) else { continue };
        for op in m.block_ops(entry) {
            if !takes_config(m, op) {
                continue;
            }
            let (name, loc) = (m.name(op).to_string(), m.loc(op).to_string());
            let ordinal = ordinals.entry((name.clone(), loc.clone())).or_default();
            places.insert(op, (name, loc, *ordinal));
            *ordinal += 1;
            if m.attr(op, CONFIG_ATTR).is_some() {
                continue;
            }
            let key = KernelKey::of(m, op);
            match index.get(&key) {
                Some(&k) => kernels[k].ops.push(op),
                None => {
                    let Candidates { configs, pruned } =
                        candidates(m, op, &session.target, session.threads, settings.exhaustive);
                    let found = db.kernels.get(&key.0).filter(|_| !settings.again).and_then(|t| t.config_for(&key));
                    index.insert(key.clone(), kernels.len());
                    kernels.push(Kernel {
                        name: format!("{} at {}", m.name(op), m.loc(op)),
                        times: vec![None; configs.len()],
                        key,
                        ops: vec![op],
                        configs,
                        pruned,
                        found,
                    });
                }
            }
        }
    }
    let flops = |k: &Kernel| k.ops.iter().map(|&op| tcc_dialect_graph::cost::flops(m, op)).sum::<u64>();
    kernels.sort_by_key(|k| std::cmp::Reverse(flops(k)));
    let mut owners = Owners::new();
    for (k, kernel) in kernels.iter().enumerate() {
        for op in &kernel.ops {
            owners.insert(places.remove(op).expect("every kernel op has its place"), k);
        }
    }
    (kernels, owners)
}

/// Round `r`'s model `m` (configured kernel ops) compiled with `options` (profiling
/// on) and timed: each kernel's seconds per run, summed over its instances, from the
/// profile (`None` for a kernel the profile does not name unambiguously). The first
/// round's model (the defaults) stays compiled in `defaults` with its times; every later
/// round's is timed back to back with it (in turn before and after it), and each
/// kernel's time is scaled by its default's time in the first round over its default's
/// time now: a candidate measured while the machine runs slower than in the first
/// round (a shared core, for seconds to minutes) is not penalized for it, nor one
/// measured in a faster phase favoured.
fn time_round(
    m: Module,
    r: usize,
    defaults: &mut Option<(Timed, Vec<Option<f64>>)>,
    options: &Options,
    owners: &Owners,
    kernels: usize,
) -> Result<Vec<Option<f64>>, Error> {
    let timed = Timed::compile(m, options)?;
    let Some((reference, first)) = defaults.as_ref() else {
        let first = timed.per_kernel(owners, kernels)?;
        *defaults = Some((timed, first.clone()));
        return Ok(first);
    };
    let (now, reference_now) = if r.is_multiple_of(2) {
        let now = timed.per_kernel(owners, kernels)?;
        (now, reference.per_kernel(owners, kernels)?)
    } else {
        let reference_now = reference.per_kernel(owners, kernels)?;
        (timed.per_kernel(owners, kernels)?, reference_now)
    };
    Ok(rescaled(&now, &reference_now, first))
}

/// `now`'s times scaled by `first / reference_now` kernel by kernel (unscaled where a
/// reference time is missing or zero).
fn rescaled(now: &[Option<f64>], reference_now: &[Option<f64>], first: &[Option<f64>]) -> Vec<Option<f64>> {
    now.iter()
        .zip(reference_now.iter().zip(first))
        .map(|(&t, (&d, &f))| match (t, d, f) {
            (Some(t), Some(d), Some(f)) if d > 0.0 => Some(t * f / d),
            _ => t,
        })
        .collect()
}

/// A model compiled with profiling, warmed up, with zero inputs: timed once per round,
/// or again and again ([`confirm`]).
struct Timed {
    model: crate::Model,
    inputs: Vec<crate::Tensor>,
}

impl Timed {
    fn compile(m: Module, options: &Options) -> Result<Timed, Error> {
        let model = crate::Model::compile(m, options)?;
        let inputs: Vec<crate::Tensor> = model
            .inputs()
            .iter()
            .map(|s| crate::Tensor::zeros(s.dtype, &s.shape))
            .collect::<Result<_, _>>()
            .map_err(|e| Error::Run(e.to_string()))?;
        for _ in 0..2 {
            model.run(&inputs)?;
        }
        Ok(Timed { model, inputs })
    }

    /// Each profiled kernel's seconds per run over about 300 ms of runs (at least
    /// three), with its name and location.
    fn profile(&self) -> Result<Vec<(&str, &str, f64)>, Error> {
        tcc_runtime::profile::take();
        let (mut runs, start) = (0u32, Instant::now());
        while runs < 3 || (runs < 1000 && start.elapsed() < Duration::from_millis(300)) {
            self.model.run(&self.inputs)?;
            runs += 1;
        }
        let times = tcc_runtime::profile::take();
        let records = self.model.compiled().kernels.iter();
        Ok(records
            .zip(times)
            .map(|(r, t)| (r.name.as_str(), r.loc.as_str(), t.total.as_secs_f64() / runs as f64))
            .collect())
    }

    /// Each tuned kernel's seconds per run ([`Timed::profile`], summed over its
    /// instances).
    fn per_kernel(&self, owners: &Owners, kernels: usize) -> Result<Vec<Option<f64>>, Error> {
        let mut seconds: Vec<Option<f64>> = vec![None; kernels];
        let mut ordinals: HashMap<(&str, &str), usize> = HashMap::new();
        for (name, loc, time) in self.profile()? {
            let ordinal = ordinals.entry((name, loc)).or_default();
            if let Some(k) = owner(owners, name, loc, *ordinal) {
                *seconds[k].get_or_insert(0.0) += time;
            }
            *ordinal += 1;
        }
        Ok(seconds)
    }
}

/// The tuned kernel whose time the `ordinal`-th profiled kernel `name` at `loc` counts
/// for: the `ordinal`-th of that name at that location, and for a pad, the
/// convolution of its ordinal there (one configured with `pad_input` pays for the pad
/// `materialize-padding` puts before it; a location with several convolutions, only
/// some of them padded, would pair them wrongly).
fn owner(owners: &Owners, name: &str, loc: &str, ordinal: usize) -> Option<usize> {
    let name = if name == "graph.pad" { "graph.conv2d_nchwc" } else { name };
    owners.get(&(name.to_string(), loc.to_string(), ordinal)).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paired_timings_see_through_the_machines_phases() {
        // No gain: the machine slows to half speed from the fourth pair on (and in the
        // middle of the third, between its default and its best). Medians of each side
        // would see 1.0 against 2.0 from the fourth pair on and a 25% gain from the third.
        let pairs = [(1.0, 1.0), (1.01, 0.99), (1.0, 2.0), (2.0, 2.01), (2.02, 2.0), (1.99, 2.0)];
        let (default, ratio) = paired_ratio(&pairs).unwrap();
        assert_eq!(default, 1.99);
        assert!((ratio - 1.0).abs() < CONFIRM_MARGIN, "{ratio}");
        // A real 10% gain through the same phases, one pair disturbed.
        let pairs = [(1.0, 0.9), (1.0, 0.91), (2.0, 0.9), (2.0, 1.8), (2.0, 1.79), (2.0, 1.81)];
        let (_, ratio) = paired_ratio(&pairs).unwrap();
        assert!(ratio < 1.0 - CONFIRM_MARGIN && ratio > 0.85, "{ratio}");
        // A slower best stays slower; no pairs, no verdict.
        assert!(paired_ratio(&[(1.0, 1.2), (1.0, 1.1), (2.0, 2.3)]).unwrap().1 > 1.0);
        assert_eq!(paired_ratio(&[]), None);
    }

    #[test]
    fn a_round_is_rescaled_by_its_defaults_timed_beside_it() {
        // The machine at half speed in this round: the defaults take twice their first
        // round's time, so the candidates' times are halved; a kernel without a
        // reference time keeps its own.
        let first = [Some(1.0), Some(4.0), None];
        let reference_now = [Some(2.0), Some(8.0), Some(3.0)];
        let now = [Some(1.8), Some(8.4), Some(5.0)];
        assert_eq!(rescaled(&now, &reference_now, &first), vec![Some(0.9), Some(4.2), Some(5.0)]);
        assert_eq!(rescaled(&[None], &[Some(1.0)], &[Some(1.0)]), vec![None]);
    }

    #[test]
    fn candidates_rank_by_their_times_without_the_default() {
        let k = Kernel {
            key: KernelKey(String::new()),
            name: String::new(),
            ops: Vec::new(),
            configs: Vec::new(),
            pruned: 0,
            found: None,
            times: vec![Some(1.0), Some(3.0), None, Some(0.5), Some(2.0)],
        };
        assert_eq!((k.ranked(0), k.ranked(1), k.ranked(2), k.ranked(3)), (Some(3), Some(4), Some(1), None));
        assert_eq!(k.best(), Some((0.5, 3)));
    }

    #[test]
    fn a_pad_counts_for_the_convolution_at_its_location() {
        let at = |name: &str, loc: &str, ordinal| (name.to_string(), loc.to_string(), ordinal);
        let owners = Owners::from([
            (at("graph.conv2d_nchwc", "m.mlir:4:8", 0), 0),
            (at("graph.matmul_packed", "m.mlir:5:8", 0), 1),
            (at("graph.batch_matmul", "m.mlir:6:8", 0), 2),
            (at("graph.batch_matmul", "m.mlir:6:8", 1), 3),
        ]);
        assert_eq!(owner(&owners, "graph.conv2d_nchwc", "m.mlir:4:8", 0), Some(0));
        assert_eq!(owner(&owners, "graph.pad", "m.mlir:4:8", 0), Some(0));
        assert_eq!(owner(&owners, "graph.matmul_packed", "m.mlir:5:8", 0), Some(1));
        // Kernels of one name at one location, told apart by their order.
        assert_eq!(owner(&owners, "graph.batch_matmul", "m.mlir:6:8", 0), Some(2));
        assert_eq!(owner(&owners, "graph.batch_matmul", "m.mlir:6:8", 1), Some(3));
        // Not at another location, nor past the kernels there.
        assert_eq!(owner(&owners, "graph.pad", "m.mlir:5:8", 0), None);
        assert_eq!(owner(&owners, "graph.batch_matmul", "m.mlir:6:8", 2), None);
        assert_eq!(owner(&owners, "graph.add", "m.mlir:4:8", 0), None);
    }
}
