//! The rewrite search as the compiler runs it: TASO's search (`tcc_graph_opt::search`,
//! a pass of the graph pipeline) with costs measured on this machine, which this module
//! injects ([`MeasuredCosts`]).
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
use tcc_graph_opt::search::{self, Mode, RewriteSearch, SearchConfig, SearchCosts, WholeModelCheck};
use tcc_ir::builtin::{create_func, create_return};
use tcc_ir::{Block, Location, Module, Op, OperationState, Type, Value};

use crate::Options;

/// The default cost database: `costs.json` in tcc's cache directory.
pub fn default_cost_db() -> PathBuf {
    crate::runtime_lib::cache_dir().join("costs.json")
}

/// What the measurements of `options` are valid for.
fn machine_key(options: &Options) -> String {
    let threads = crate::resolve_threads(options).unwrap_or(1);
    format!("{} / {:?} / {} threads", tcc_target::host::cpu_model(), options.backend, threads)
}

/// `op` of `m` alone: a module whose function takes its non-constant operands and
/// returns its results, its constant operands copied with what computes them from
/// constants (a concatenation of weights a merge built, which compiling folds), so
/// weights are packed as in the model; and the copy of `op`.
pub fn standalone(m: &Module, op: Op) -> (Module, Op) {
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
    (one, copy)
}

/// A copy of `op` with `operands` (and its regions, which use only their own values: a
/// kernel op's epilogue), appended to `entry` of `one`.
fn copy_op(m: &Module, op: Op, operands: Vec<Value>, one: &mut Module, entry: Block) -> Op {
    let mut state = OperationState::new(m.def(op), m.loc(op).clone());
    state.operands = operands;
    state.attrs = m.attrs(op).clone();
    state.result_types = m.results(op).iter().map(|&r| m.value_type(r).clone()).collect();
    state.regions = m.regions(op).iter().map(|&r| copy_region(m, r, one)).collect();
    let copy = one.create_op(state);
    one.append_op(entry, copy);
    copy
}

/// A detached copy in `one` of region `r` of `m`.
fn copy_region(m: &Module, r: tcc_ir::Region, one: &mut Module) -> tcc_ir::Region {
    let region = one.new_region();
    let mut values: HashMap<Value, Value> = HashMap::new();
    for &block in m.region_blocks(r) {
        let types: Vec<Type> = m.block_args(block).iter().map(|&a| m.value_type(a).clone()).collect();
        let copy = one.append_block(region, &types);
        values.extend(m.block_args(block).iter().copied().zip(one.block_args(copy).to_vec()));
        for inner in m.block_ops(block).collect::<Vec<_>>() {
            let operands = m.operands(inner).iter().map(|v| *values.get(v).unwrap_or(v)).collect();
            let c = copy_op(m, inner, operands, one, copy);
            values.extend(m.results(inner).iter().copied().zip(one.results(c).to_vec()));
        }
    }
    region
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
    let model = crate::Model::compile(standalone(m, op).0, &alone).ok()?;
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

/// The search's costs as the compiler measures them on this machine, for `options`:
/// the cost database (`options.cost_db`, else the default), op costs measured when
/// missing (unless `options.estimate_costs_only`), and the whole-model check.
pub struct MeasuredCosts {
    pub options: Options,
    pub target: tcc_codegen::Target,
}

impl MeasuredCosts {
    fn path(&self) -> PathBuf {
        self.options.cost_db.clone().unwrap_or_else(default_cost_db)
    }
}

impl SearchCosts for MeasuredCosts {
    fn model(&self) -> Result<CostModel<'_>, String> {
        let machine = machine_key(&self.options);
        let db = match CostDb::load(&self.path(), &machine) {
            Ok(db) => db,
            // A database the user named must be readable; the default one is a cache,
            // which is started afresh (and rewritten) when it is not.
            Err(e) if self.options.cost_db.is_some() => return Err(e),
            Err(e) => {
                eprintln!("tcc: warning: {e}; starting a new cost database");
                CostDb::new(&machine)
            }
        };
        // The estimate only ranks ops no rewrite touches (they cost the same in every
        // candidate); nominal ceilings do for that.
        let ceilings = Ceilings::new(Ceilings::nominal_gflops(&self.target), 20.0);
        let cost = CostModel::new(ceilings, db);
        if self.options.estimate_costs_only {
            return Ok(cost);
        }
        let options = &self.options;
        Ok(cost.with_measure(Box::new(move |g: &Module, op: Op| measure(g, op, options))))
    }

    fn whole_model(&self, before: &Module, after: &Module) -> WholeModelCheck {
        if self.options.estimate_costs_only {
            return WholeModelCheck::Skipped;
        }
        match end_to_end(before, after, &self.options) {
            Some((before, after)) => WholeModelCheck::Measured { before, after },
            None => WholeModelCheck::Failed,
        }
    }

    fn finish(&self, model: &CostModel<'_>) {
        if model.measured > 0 {
            // A database that cannot be written costs only the next compile's time.
            if let Err(e) = model.db.save(&self.path()) {
                eprintln!("tcc: warning: cost database not saved: {e}");
            }
        }
    }
}

/// The rewrite search `options` ask for, as a pass with measured costs for `target`.
pub fn rewrite_search(options: &Options, target: &tcc_codegen::Target) -> RewriteSearch {
    let config = SearchConfig {
        mode: options.rewrite_search,
        budget: options.search_budget.unwrap_or(search::DEFAULT_BUDGET),
        time_limit: options.search_time_limit.unwrap_or(search::DEFAULT_TIME_LIMIT),
        layouts: Some(*target),
        ..SearchConfig::default()
    };
    let costs = MeasuredCosts { options: options.clone(), target: *target };
    RewriteSearch { config, costs: Box::new(costs), clean_up: true, report: options.timing }
}
