//! The rewrite search as the compiler runs it: TASO's search (`tcc_graph_opt::search`)
//! with costs measured on this machine.
//!
//! An op whose cost the search needs (one a rewrite removes or creates) is measured
//! once: it is compiled alone, as a function of its non-constant operands with its
//! constant operands kept (so weights are packed as in the model), with the same
//! backend and threads, and timed (the median of repeated runs after a warm-up). The
//! results go to a cost database, `~/.cache/tcc/costs.json` by default, under a key
//! naming the CPU, backend and threads, and later compiles reuse them. A graph the
//! search rewrote is kept only if it is also faster as a whole, compiled and timed
//! against the input (alternating, the median of five rounds).

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

use tcc_graph_opt::cost::{Ceilings, CostDb, CostModel, folds_to_constant};
use tcc_graph_opt::search::{self, Mode, SearchConfig, SearchStats};
use tcc_ir::builtin::{create_func, create_return};
use tcc_ir::{Block, Diagnostics, Location, Module, Op, OperationState, Type, Value};

use crate::Options;

/// The default cost database: `costs.json` in tcc's cache directory.
pub fn default_cost_db() -> PathBuf {
    crate::runtime_lib::cache_dir().join("costs.json")
}

/// What the measurements of `options` are valid for.
fn machine_key(options: &Options) -> String {
    let threads = crate::resolve_threads(options).unwrap_or(1);
    format!("{} / {:?} / {} threads", crate::peak::cpu_model(), options.backend, threads)
}

/// `op` of `m` alone: a module whose function takes its non-constant operands and
/// returns its results, its constant operands copied with what computes them from
/// constants (a concatenation of weights a merge built, which compiling folds), so
/// weights are packed as in the model.
fn standalone(m: &Module, op: Op) -> Module {
    let mut one = Module::new(Location::unknown());
    let operands = m.operands(op).to_vec();
    let folded = |v: Value| m.defining_op(v).is_some_and(|d| folds_to_constant(m, d));
    let args: Vec<Type> = operands.iter().filter(|&&v| !folded(v)).map(|&v| m.value_type(v).clone()).collect();
    let results: Vec<Type> = m.results(op).iter().map(|&r| m.value_type(r).clone()).collect();
    let (_, entry) = create_func(&mut one, "main", args, results, Location::unknown());
    let mut next_arg = one.block_args(entry).to_vec().into_iter();
    let mut copied = HashMap::new();
    let mut new_operands = Vec::new();
    for &v in &operands {
        if folded(v) {
            new_operands.push(copy_producers(m, v, &mut one, entry, &mut copied));
        } else {
            new_operands.push(next_arg.next().expect("one argument per non-constant operand"));
        }
    }
    let copy = copy_op(m, op, new_operands, &mut one, entry);
    let outs = one.results(copy).to_vec();
    create_return(&mut one, entry, &outs, Location::unknown());
    one
}

/// A copy of `op` with `operands`, appended to `entry` of `one`.
fn copy_op(m: &Module, op: Op, operands: Vec<Value>, one: &mut Module, entry: Block) -> Op {
    let mut state = OperationState::new(m.def(op), m.loc(op).clone());
    state.operands = operands;
    state.attrs = m.attrs(op).clone();
    state.result_types = m.results(op).iter().map(|&r| m.value_type(r).clone()).collect();
    let copy = one.create_op(state);
    one.append_op(entry, copy);
    copy
}

/// `v` of `m` in `one`: the ops computing it from constants copied (once each).
fn copy_producers(m: &Module, v: Value, one: &mut Module, entry: Block, copied: &mut HashMap<Value, Value>) -> Value {
    if let Some(&c) = copied.get(&v) {
        return c;
    }
    let d = m.defining_op(v).expect("a value folding to a constant has a defining op");
    let operands = m.operands(d).to_vec().into_iter().map(|o| copy_producers(m, o, one, entry, copied)).collect();
    let copy = copy_op(m, d, operands, one, entry);
    for (&r, &c) in m.results(d).iter().zip(one.results(copy)) {
        copied.insert(r, c);
    }
    copied[&v]
}

/// Seconds one run of `op` alone takes, compiled with `options`; `None` if it does not
/// compile or run.
fn measure(m: &Module, op: Op, options: &Options) -> Option<f64> {
    let mut alone = options.clone();
    alone.rewrite_search = Mode::Off;
    alone.print_ir_after_all = false;
    alone.timing = false;
    let model = crate::Model::compile(standalone(m, op), &alone).ok()?;
    let inputs: Vec<crate::Tensor> =
        model.inputs().iter().map(|s| crate::Tensor::zeros(s.dtype, &s.shape)).collect::<Result<_, _>>().ok()?;
    let _ = model.run(&inputs).ok()?;
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 5 || (times.len() < 200 && start.elapsed().as_secs_f64() < 0.05) {
        let t = Instant::now();
        let _ = model.run(&inputs).ok()?;
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    Some(times[times.len() / 2])
}

/// The median time of one run of `model` over `runs` runs.
fn median_run(model: &crate::Model, inputs: &[crate::Tensor], runs: usize) -> Option<f64> {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        model.run(inputs).ok()?;
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    Some(times[times.len() / 2])
}

/// Whole-model latencies (seconds) of `before` and `after`, compiled with `options`
/// and timed in alternating rounds: the check that a rewritten graph, which the
/// search costed op by op, is faster as a whole (layout changes around a split, say,
/// are seen only here).
fn end_to_end(before: &Module, after: &Module, options: &Options) -> Option<(f64, f64)> {
    let mut plain = options.clone();
    plain.rewrite_search = Mode::Off;
    plain.print_ir_after_all = false;
    plain.timing = false;
    let a = crate::Model::compile(before.clone(), &plain).ok()?;
    let b = crate::Model::compile(after.clone(), &plain).ok()?;
    let inputs: Vec<crate::Tensor> =
        a.inputs().iter().map(|s| crate::Tensor::zeros(s.dtype, &s.shape)).collect::<Result<_, _>>().ok()?;
    let one = median_run(&a, &inputs, 3)?;
    let runs = ((0.02 / one.max(1e-6)) as usize).clamp(3, 50);
    median_run(&b, &inputs, 3)?;
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        ta.push(median_run(&a, &inputs, runs)?);
        tb.push(median_run(&b, &inputs, runs)?);
    }
    ta.sort_by(f64::total_cmp);
    tb.sort_by(f64::total_cmp);
    Some((ta[2], tb[2]))
}

/// Runs the rewrite search `options` ask for on `m`, in place; `None` when it is off.
pub fn rewrite_search(m: &mut Module, options: &Options) -> Result<Option<SearchStats>, Diagnostics> {
    if options.rewrite_search == Mode::Off {
        return Ok(None);
    }
    let start = Instant::now();
    let rules = search::search_rules();
    let error = |e: String| Diagnostics::error(m.loc(m.top()).clone(), e);
    let path = options.cost_db.clone().unwrap_or_else(default_cost_db);
    let machine = machine_key(options);
    let db = match CostDb::load(&path, &machine) {
        Ok(db) => db,
        // A database the user named must be readable; the default one is a cache,
        // which is started afresh (and rewritten) when it is not.
        Err(e) if options.cost_db.is_some() => return Err(error(e)),
        Err(e) => {
            eprintln!("tcc: warning: {e}; starting a new cost database");
            CostDb::new(&machine)
        }
    };
    let target = crate::pipeline::target(m, options)?;
    // The estimate only ranks ops no rewrite touches (they cost the same in every
    // candidate); nominal ceilings do for that.
    let ceilings = Ceilings::new(Ceilings::nominal_gflops(&target), 20.0);
    let mut cost = CostModel::new(ceilings, db);
    if !options.estimate_costs_only {
        let opts = options.clone();
        cost = cost.with_measure(Box::new(move |g: &Module, op: Op| measure(g, op, &opts)));
    }
    let cfg = SearchConfig {
        mode: options.rewrite_search,
        budget: options.search_budget.unwrap_or(search::DEFAULT_BUDGET),
        layouts: Some(target),
        ..SearchConfig::default()
    };
    let (mut best, mut stats) = search::search(m, &rules, &mut cost, &cfg);
    // Measured op by op, the rewritten graph must also be faster as a whole.
    let mut checked = String::new();
    if !stats.path.is_empty() && !options.estimate_costs_only {
        match end_to_end(m, &best, options) {
            Some((before, after)) if after < before * (1.0 - cfg.min_gain) => {
                checked = format!("; whole model {:.4} -> {:.4} ms: kept", before * 1e3, after * 1e3);
            }
            measured => {
                let rules = stats.path.join(", ");
                checked = match measured {
                    Some((before, after)) => {
                        format!(
                            "; {rules} rejected: whole model {:.4} -> {:.4} ms, not faster",
                            before * 1e3,
                            after * 1e3
                        )
                    }
                    None => format!("; {rules} rejected: the whole-model check could not run"),
                };
                best = m.clone();
                stats.path.clear();
                stats.best_cost = stats.initial_cost;
            }
        }
    }
    stats.elapsed = start.elapsed();
    if cost.measured > 0 {
        // A database that cannot be written costs only the next compile's time.
        if let Err(e) = cost.db.save(&path) {
            eprintln!("tcc: warning: cost database not saved: {e}");
        }
    }
    *m = best;
    if options.timing {
        eprintln!("rewrite search: {}, {} ops measured{checked}", stats.summary(), cost.measured);
    }
    Ok(Some(stats))
}
