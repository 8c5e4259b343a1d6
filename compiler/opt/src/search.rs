//! `rewrite-search`: applies the rules that do not always pay (`rules/search/`, and the
//! generated ones in `rules/generated/`) where the cost model says they do (TASO's
//! cost-based backtracking search, SOSP 2019; `docs/rules.md`).
//!
//! - `taso`: a priority queue of graphs ordered by cost, starting with the input. The
//!   cheapest is taken out; every rule is applied at every match, each on its own copy
//!   (dead ops removed); a result not seen before is queued if its cost is below
//!   `alpha` (1.05) times the best cost so far and it has fewer than twice the input's
//!   ops. It stops when the queue is empty, `budget` graphs were expanded, [`PATIENCE`]
//!   expansions in a row found nothing cheaper, or its time limit (10 s) passed, and the
//!   cheapest graph seen wins. Results cannot have cycles: a rule's target is built
//!   where every operand is already defined and before every user of what it replaces.
//! - Joint layout (TASO): a rewrite that creates a matmul of constant weights gives one
//!   candidate per packed layout of those weights (`rhs_block`, one to four vectors of
//!   columns; the kernel configuration's default first), each costed on its own; the
//!   estimate cannot tell them apart, measurements can.
//! - `greedy`: applies the single rewrite that lowers the cost most, until none does
//!   (or `budget` steps).
//! - `eqsat`: equality saturation ([`crate::eqsat`]): every single-output rule applied
//!   everywhere in an e-graph, then the cheapest graph extracted; it reaches graphs
//!   whose every path from the input passes through costlier ones. The rules with
//!   several outputs (merges of parallel ops), which the e-graph does not apply, then
//!   run as `taso` from the extracted graph.
//! - `off`: nothing.
//!
//! The best graph is kept only if it saves `min_gain` (2%) of the cost at least: less
//! is within the noise of measured costs, and not worth a different graph.
//!
//! Graphs are identified by a structural hash (ops in order, their operands by
//! position, attributes and types; constants by identity), so weights are never
//! printed or compared. Long searches report progress on stderr.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

use tcc_dialect_graph::ops as g;
use tcc_dialect_graph::rules::{self, matching};
use tcc_ir::rewrite::is_trivially_dead;
use tcc_ir::{Attribute, Diagnostics, EntityRef, Module, Op, Pass, PassInfo, PassOptions};

use crate::cost::{Ceilings, CostDb, CostModel, folds_to_constant};
use tcc_target::Target;

/// How to search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    Off,
    Greedy,
    #[default]
    Taso,
    Eqsat,
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Mode, String> {
        match s {
            "off" => Ok(Mode::Off),
            "greedy" => Ok(Mode::Greedy),
            "taso" => Ok(Mode::Taso),
            "eqsat" => Ok(Mode::Eqsat),
            _ => Err(format!("unknown search mode `{s}` (expected off, greedy, taso or eqsat)")),
        }
    }
}

/// The search's settings.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    pub mode: Mode,
    /// Graphs expanded (taso) or rewrites applied (greedy) at most.
    pub budget: usize,
    /// Keep candidates costing less than `alpha` times the best.
    pub alpha: f64,
    /// The best graph replaces the input only if it is cheaper by this fraction at
    /// least: smaller differences are within the noise of measured costs.
    pub min_gain: f64,
    /// Report progress on stderr when the search runs longer than a second.
    pub progress: bool,
    /// The target whose layouts the matmuls a rewrite creates may take (joint layout
    /// search); `None` leaves their layouts to `block-layouts`.
    pub layouts: Option<Target>,
    /// The search stops expanding graphs (and building neighbours) when this much time
    /// has passed, keeping the best graph found so far: on a large model every
    /// expansion tries each rule at each of thousands of matches.
    pub time_limit: Duration,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            mode: Mode::Taso,
            budget: DEFAULT_BUDGET,
            alpha: 1.05,
            min_gain: 0.02,
            progress: true,
            layouts: None,
            time_limit: DEFAULT_TIME_LIMIT,
        }
    }
}

/// Graphs the default search expands.
pub const DEFAULT_BUDGET: usize = 100;

/// Graphs the backtracking search expands in a row without finding a cheaper one before
/// it stops: on a large graph each expansion matches every rule everywhere (50 ms on
/// ViT-B/16, whose transposes and concatenations give a few cost-neutral candidates at
/// each step: 100 expansions took 5 s), and the improvements found come in the first
/// few steps (the LoRA merge: one to two).
pub const PATIENCE: usize = 25;

/// The default search's time limit.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(10);

/// What a search did.
#[derive(Clone, Debug, Default)]
pub struct SearchStats {
    pub initial_cost: f64,
    pub best_cost: f64,
    /// The cheapest graph found, when it was not kept because it saved less than the
    /// minimum gain.
    pub declined_cost: Option<f64>,
    /// Graphs expanded, and candidate graphs built.
    pub expanded: usize,
    pub candidates: usize,
    /// Candidate graphs built, by the rule that made them.
    pub by_rule: std::collections::BTreeMap<String, usize>,
    /// The rules applied on the way to the best graph, in order, each with the layouts
    /// it chose for the matmuls it created.
    pub path: Vec<String>,
    pub elapsed: Duration,
    /// Whether the search stopped at its time limit.
    pub timed_out: bool,
}

impl SearchStats {
    /// Counts a candidate made by `label` (a rule's name, and the layouts it chose).
    fn count(&mut self, label: &str) {
        self.candidates += 1;
        let rule = label.split(" [").next().unwrap_or(label);
        *self.by_rule.entry(rule.to_string()).or_default() += 1;
    }

    /// Every rule that made a candidate, with how many: `name count, ...` by name.
    pub fn by_rule_list(&self) -> String {
        self.by_rule.iter().map(|(r, n)| format!("{r} {n}")).collect::<Vec<_>>().join(", ")
    }

    /// One line: costs, graphs expanded, time and the rules on the way to the best graph.
    pub fn summary(&self) -> String {
        let mut by_rule: Vec<(&String, &usize)> = self.by_rule.iter().collect();
        by_rule.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let tried: Vec<String> = by_rule.iter().take(4).map(|(r, n)| format!("{r} {n}")).collect();
        let more = if by_rule.len() > 4 { format!(" and {} more", by_rule.len() - 4) } else { String::new() };
        format!(
            "cost {:.4} -> {:.4} ms{}, {} graphs expanded{}, {} candidates{}, {:.1} ms; rules: {}",
            self.initial_cost * 1e3,
            self.best_cost * 1e3,
            match self.declined_cost {
                Some(c) => format!(" (best found {:.4} ms saves too little)", c * 1e3),
                None => String::new(),
            },
            self.expanded,
            if self.timed_out { " (stopped at the time limit)" } else { "" },
            self.candidates,
            if tried.is_empty() { String::new() } else { format!(" ({}{more})", tried.join(", ")) },
            self.elapsed.as_secs_f64() * 1e3,
            if self.path.is_empty() { "none".to_string() } else { self.path.join(", ") }
        )
    }
}

/// Erases pure ops whose results are unused, repeatedly.
pub fn erase_dead(m: &mut Module) {
    loop {
        let top = m.top();
        let dead: Vec<Op> = m.walk(top).into_iter().rev().filter(|&op| op != top && is_trivially_dead(m, op)).collect();
        if dead.is_empty() {
            return;
        }
        for op in dead {
            if !m.is_erased(op) && is_trivially_dead(m, op) {
                m.erase_op(op);
            }
        }
    }
}

/// A structural hash of `m`, a rewrite of a graph whose ops had handles below
/// `shared`: equal for graphs that compute the same way. The input's ops are named by
/// their handles (they are the same op in every rewrite); new ops by what they are.
fn graph_hash(m: &Module, shared: usize) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let mut numbering: HashMap<tcc_ir::Value, usize> = HashMap::new();
    let top = m.top();
    for op in m.walk(top) {
        if op.index() < shared {
            op.index().hash(&mut h);
        } else {
            m.name(op).hash(&mut h);
            for (k, v) in m.attrs(op).iter() {
                k.hash(&mut h);
                v.to_string().hash(&mut h);
            }
            for &r in m.results(op) {
                m.value_type(r).to_string().hash(&mut h);
            }
        }
        for v in m.operands(op) {
            numbering.get(v).copied().unwrap_or(usize::MAX).hash(&mut h);
        }
        for &r in m.results(op) {
            let n = numbering.len();
            numbering.insert(r, n);
        }
        for &region in m.regions(op) {
            for &b in m.region_blocks(region) {
                for &a in m.block_args(b) {
                    let n = numbering.len();
                    numbering.insert(a, n);
                }
            }
        }
    }
    h.finish()
}

/// Ops that do work (not constants or terminators).
fn op_count(m: &Module) -> usize {
    let top = m.top();
    m.walk(top).into_iter().filter(|&op| op != top && !m.is(op, &g::CONSTANT) && m.regions(op).is_empty()).count()
}

struct Candidate {
    cost: f64,
    id: usize,
}

impl PartialEq for Candidate {
    fn eq(&self, o: &Candidate) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Candidate {}
impl PartialOrd for Candidate {
    fn partial_cmp(&self, o: &Candidate) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Candidate {
    /// The cheapest first (a max-heap of reversed costs), then the oldest.
    fn cmp(&self, o: &Candidate) -> Ordering {
        o.cost.total_cmp(&self.cost).then(o.id.cmp(&self.id))
    }
}

/// Every graph one rewrite away from `m`, with the rewrite's name; the ops each rewrite
/// removed or created are marked for measurement. With `layouts`, a rewrite creating
/// matmuls of constant right operands gives one graph per combination of their packed
/// layouts (TASO's joint layout search).
fn neighbours(
    m: &Module,
    rules: &matching::RuleIndex,
    cost: &mut CostModel,
    layouts: Option<&Target>,
    deadline: Instant,
) -> Vec<(Module, String)> {
    let mut out = Vec::new();
    for (rule, b) in rules.find_all(m) {
        if Instant::now() > deadline {
            break;
        }
        if let Some(mut next) = matching::apply_to_copy(m, rule, &b) {
            erase_dead(&mut next);
            for &root in &b.roots {
                cost.mark(m, root);
            }
            for (variant, label) in layout_variants(&next, m.op_capacity(), layouts) {
                // Rewrites append ops to the arena: handles past the input's are new.
                let top = variant.top();
                for op in variant.walk(top) {
                    if op.index() >= m.op_capacity() {
                        cost.mark(&variant, op);
                    }
                }
                out.push((variant, format!("{}{label}", rule.name)));
            }
        }
    }
    out
}

/// Combinations of layouts a graph may take at most, per rewrite.
const MAX_LAYOUT_VARIANTS: usize = 16;

/// `g` once per combination of the packed layouts (`rhs_block`) of its new matmuls
/// (handles from `new_from` on) with a constant right operand and no layout yet, each
/// with a label naming the choice: first the kernel configuration's default (no
/// attribute; the estimate, blind to layouts, then keeps it), then the other
/// `matmul_block_choices`. `g` alone when there are none or no target.
fn layout_variants(g: &Module, new_from: usize, layouts: Option<&Target>) -> Vec<(Module, String)> {
    let Some(target) = layouts else { return vec![(g.clone(), String::new())] };
    let top = g.top();
    let open: Vec<(Op, Vec<i64>)> = g
        .walk(top)
        .into_iter()
        .filter(|&op| {
            op.index() >= new_from
                && g.is(op, &g::MATMUL)
                && g.attr(op, "rhs_block").is_none()
                && g.defining_op(g.operand(op, 1)).is_some_and(|d| folds_to_constant(g, d))
        })
        .filter_map(|op| {
            let (a, b) = (crate::shape(g, g.operand(op, 0)), crate::shape(g, g.operand(op, 1)));
            let n = *b.last()?;
            let rows: i64 = a[..a.len().checked_sub(1)?].iter().product();
            let default = crate::kernel_config::matmul_block(target, rows, n);
            let others = crate::kernel_config::matmul_block_choices(target, n).into_iter().filter(|&c| c != default);
            Some((op, others.collect()))
        })
        .collect();
    let mut variants = vec![(g.clone(), String::new())];
    for (op, others) in open {
        if variants.len() * (others.len() + 1) > MAX_LAYOUT_VARIANTS {
            break;
        }
        let mut more = Vec::new();
        for (v, label) in &variants {
            for &b in &others {
                let mut v = v.clone();
                v.set_attr(op, "rhs_block", Attribute::i64(b));
                more.push((v, format!("{label} [rhs_block {b}]")));
            }
        }
        variants.extend(more);
    }
    variants
}

struct Progress {
    start: Instant,
    last: Instant,
    enabled: bool,
}

impl Progress {
    fn report(&mut self, expanded: usize, budget: usize, initial: f64, best: f64) {
        if self.enabled && self.start.elapsed() > Duration::from_secs(1) && self.last.elapsed() > Duration::from_secs(1)
        {
            self.last = Instant::now();
            eprintln!(
                "rewrite search: {expanded}/{budget} graphs expanded, cost {:.3} ms -> {:.3} ms",
                initial * 1e3,
                best * 1e3
            );
        }
    }
}

/// One search in progress: the costs, the best graph so far and the statistics.
struct Searching<'s, 'c> {
    cost: &'s mut CostModel<'c>,
    cfg: &'s SearchConfig,
    /// Handles below this are the input's ops (costs cached in `cache`).
    shared: usize,
    cache: HashMap<Op, f64>,
    deadline: Instant,
    progress: Progress,
    stats: SearchStats,
    best: Module,
    best_path: Vec<String>,
}

impl Searching<'_, '_> {
    fn cost_of(&mut self, g: &Module) -> f64 {
        self.cost.graph_cost_shared(g, self.shared, &mut self.cache)
    }

    /// Keeps `g` (reached by `path`, costing `c`) if it is the cheapest so far.
    fn offer(&mut self, g: &Module, path: &[String], c: f64) {
        if c < self.stats.best_cost {
            self.stats.best_cost = c;
            self.best = g.clone();
            self.best_path = path.to_vec();
        }
    }

    fn out_of_time(&mut self) -> bool {
        let out = Instant::now() > self.deadline;
        self.stats.timed_out |= out;
        out
    }

    fn report(&mut self) {
        self.progress.report(self.stats.expanded, self.cfg.budget, self.stats.initial_cost, self.stats.best_cost);
    }

    fn greedy(&mut self, m: &Module, rules: &matching::RuleIndex) {
        let mut current = m.clone();
        let mut path = Vec::new();
        while self.stats.expanded < self.cfg.budget && !self.out_of_time() {
            self.stats.expanded += 1;
            let mut step: Option<(Module, String, f64)> = None;
            for (next, rule) in neighbours(&current, rules, self.cost, self.cfg.layouts.as_ref(), self.deadline) {
                self.stats.count(&rule);
                let c = self.cost_of(&next);
                if c < step.as_ref().map_or(self.stats.best_cost, |s| s.2) {
                    step = Some((next, rule, c));
                }
            }
            let Some((next, rule, c)) = step else { break };
            path.push(rule);
            self.offer(&next, &path, c);
            current = next;
            self.report();
        }
    }

    /// TASO's backtracking search from `start` (reached by `path` from the input).
    fn taso(&mut self, start: Module, path: Vec<String>, rules: &matching::RuleIndex) {
        let original_ops = op_count(&start);
        let start_cost = self.cost_of(&start);
        let mut seen: HashSet<u64> = HashSet::from([graph_hash(&start, self.shared)]);
        let loc = start.loc(start.top()).clone();
        let mut graphs: Vec<(Module, Vec<String>)> = vec![(start, path)];
        let mut queue = BinaryHeap::from([Candidate { cost: start_cost, id: 0 }]);
        let expanded_before = self.stats.expanded;
        let mut last_improvement = (self.stats.expanded, self.stats.best_cost);
        while let Some(Candidate { id, .. }) = queue.pop() {
            if self.stats.best_cost < last_improvement.1 {
                last_improvement = (self.stats.expanded, self.stats.best_cost);
            }
            if self.stats.expanded - expanded_before >= self.cfg.budget
                || self.stats.expanded - last_improvement.0 >= PATIENCE
                || self.out_of_time()
            {
                break;
            }
            self.stats.expanded += 1;
            let (graph, path) = std::mem::replace(&mut graphs[id], (Module::new(loc.clone()), Vec::new()));
            for (next, rule) in neighbours(&graph, rules, self.cost, self.cfg.layouts.as_ref(), self.deadline) {
                if !seen.insert(graph_hash(&next, self.shared)) || op_count(&next) >= 2 * original_ops.max(1) {
                    continue;
                }
                self.stats.count(&rule);
                let c = self.cost_of(&next);
                let mut next_path = path.clone();
                next_path.push(rule);
                self.offer(&next, &next_path, c);
                if c < self.cfg.alpha * self.stats.best_cost {
                    queue.push(Candidate { cost: c, id: graphs.len() });
                    graphs.push((next, next_path));
                }
            }
            self.report();
        }
    }

    /// Equality saturation with the single-output rules, then taso's search with the
    /// rules of several outputs (which the e-graph does not apply) from its result.
    fn eqsat(&mut self, m: &Module) {
        let mut start = (m.clone(), Vec::new());
        if let Some((next, sat)) = crate::eqsat::saturate(m, rules::search_rule_asts(), self.cost, self.deadline) {
            self.stats.expanded = sat.iterations;
            self.stats.timed_out |= !sat.saturated && Instant::now() > self.deadline;
            for (rule, n) in &sat.by_rule {
                self.stats.candidates += n;
                *self.stats.by_rule.entry(rule.clone()).or_default() += n;
            }
            // The matmuls the extraction created, in each packed layout (as taso tries
            // them).
            for (variant, label) in layout_variants(&next, m.op_capacity(), self.cfg.layouts.as_ref()) {
                let top = variant.top();
                for op in variant.walk(top) {
                    if op.index() >= m.op_capacity() {
                        self.cost.mark(&variant, op);
                    }
                }
                let mut path = sat.used.clone();
                if let Some(last) = path.last_mut() {
                    last.push_str(&label);
                }
                let c = self.cost_of(&variant);
                self.offer(&variant, &path, c);
            }
            start = (self.best.clone(), self.best_path.clone());
        }
        self.taso(start.0, start.1, rules::multi_output_search_index());
    }
}

/// Searches for a cheaper form of `m` with the indexed `rules`; returns it and what
/// happened.
pub fn search(
    m: &Module,
    rules: &matching::RuleIndex,
    cost: &mut CostModel,
    cfg: &SearchConfig,
) -> (Module, SearchStats) {
    let start = Instant::now();
    let deadline = start + cfg.time_limit;
    // The ops the first rewrites would replace are measured before anything is costed.
    let _ = neighbours(m, rules, cost, cfg.layouts.as_ref(), deadline);
    let shared = m.op_capacity();
    let mut cache: HashMap<Op, f64> = HashMap::new();
    let initial_cost = cost.graph_cost_shared(m, shared, &mut cache);
    let mut s = Searching {
        cost,
        cfg,
        shared,
        cache,
        deadline,
        progress: Progress { start, last: start, enabled: cfg.progress },
        stats: SearchStats { initial_cost, best_cost: initial_cost, ..SearchStats::default() },
        best: m.clone(),
        best_path: Vec::new(),
    };
    match cfg.mode {
        Mode::Off => {}
        Mode::Greedy => s.greedy(m, rules),
        Mode::Taso => s.taso(m.clone(), Vec::new(), rules),
        Mode::Eqsat => s.eqsat(m),
    }
    let Searching { mut stats, mut best, mut best_path, .. } = s;
    if stats.best_cost > initial_cost * (1.0 - cfg.min_gain) {
        if stats.best_cost < initial_cost {
            stats.declined_cost = Some(stats.best_cost);
        }
        best = m.clone();
        best_path.clear();
        stats.best_cost = initial_cost;
    }
    stats.path = best_path;
    stats.elapsed = start.elapsed();
    (best, stats)
}

/// The search's own options.
const SEARCH_OPTIONS: [(&str, &str); 10] = [
    ("mode", "off, greedy, taso or eqsat (default taso)"),
    ("budget", "graphs expanded at most (default 100)"),
    ("time-limit", "seconds after which the search stops with the best graph so far (default 10)"),
    ("gflops", "the FLOP rate the estimate assumes, GFLOP/s (default: the target's nominal peak)"),
    ("gbps", "the memory bandwidth the estimate assumes, GB/s (default 20)"),
    ("min-gain", "the fraction of the cost a rewritten graph must save to be kept (default 0.02)"),
    ("cost-db", "a cost database (JSON) whose measurements replace estimates"),
    ("cpu", "the CPU whose entries of the database are used"),
    ("layouts", "try the packed layouts of the matmuls rewrites create, at the target's vector width (default true)"),
    ("verbose", "print the search's statistics on stderr (default false)"),
];

pub static REWRITE_SEARCH: PassInfo = PassInfo {
    name: "rewrite-search",
    summary: "Applies the search rules where the cost model says they pay (TASO's backtracking search)",
    // The search's options, then the target's (whose layouts it tries).
    options: crate::with_target_options!(&SEARCH_OPTIONS),
    create: |o| Ok(Box::new(RewriteSearch::from_options(o)?)),
};

/// Where the search's costs come from. The compiler's pipeline injects measured costs
/// (ops compiled and timed on this machine, kept in a database, and a whole-model
/// check of the winner); `rewrite-search` in a textual pipeline uses estimates, and a
/// database file when one is named.
pub trait SearchCosts {
    /// The cost model of one search.
    fn model(&self) -> Result<CostModel<'_>, String>;
    /// Times the input and the rewritten graph as whole models, when it can.
    fn whole_model(&self, _before: &Module, _after: &Module) -> WholeModelCheck {
        WholeModelCheck::Skipped
    }
    /// Called after the search with its cost model (to keep new measurements).
    fn finish(&self, _model: &CostModel<'_>) {}
}

/// The whole-model check of a rewritten graph.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum WholeModelCheck {
    /// Not done (estimated costs).
    Skipped,
    /// The input's and the rewritten graph's latencies, in seconds.
    Measured { before: f64, after: f64 },
    /// The models could not be compiled or run: the rewrite is not kept.
    Failed,
}

/// Estimated costs, with the measurements of a database where it has them.
pub struct EstimatedCosts {
    pub ceilings: Ceilings,
    pub db: CostDb,
}

impl SearchCosts for EstimatedCosts {
    fn model(&self) -> Result<CostModel<'_>, String> {
        Ok(CostModel::new(self.ceilings, self.db.clone()))
    }
}

/// The `rewrite-search` pass: the search, then (when it rewrote the graph) the
/// whole-model check and, with `clean_up`, canonicalization and CSE of the result.
pub struct RewriteSearch {
    pub config: SearchConfig,
    pub costs: Box<dyn SearchCosts>,
    /// Canonicalize and CSE a rewritten graph (what the rewrites built may fold, as
    /// concatenated weights do, or repeat).
    pub clean_up: bool,
    /// Print the search's statistics on stderr.
    pub report: bool,
}

impl RewriteSearch {
    fn from_options(o: &PassOptions) -> Result<RewriteSearch, String> {
        let target = crate::target_from(o)?;
        let nominal = Ceilings::nominal_gflops(&target);
        let config = SearchConfig {
            mode: o.parse_or("mode", Mode::Taso)?,
            budget: o.parse_or("budget", DEFAULT_BUDGET)?,
            alpha: 1.05,
            min_gain: o.parse_or("min-gain", 0.02)?,
            progress: true,
            layouts: o.parse_or("layouts", true)?.then_some(target),
            time_limit: Duration::try_from_secs_f64(o.parse_or("time-limit", DEFAULT_TIME_LIMIT.as_secs_f64())?)
                .map_err(|_| "option 'time-limit' takes a number of seconds".to_string())?,
        };
        let ceilings = Ceilings::new(o.parse_or("gflops", nominal)?, o.parse_or("gbps", 20.0)?);
        let cpu = o.get("cpu").unwrap_or("unknown").to_string();
        let db = match o.get("cost-db") {
            Some(path) => CostDb::load(std::path::Path::new(path), &cpu)?,
            None => CostDb::new(&cpu),
        };
        let costs = Box::new(EstimatedCosts { ceilings, db });
        Ok(RewriteSearch { config, costs, clean_up: false, report: o.parse_or("verbose", false)? })
    }

    /// Runs the search on `m` in place; returns its statistics (`None` when it is off).
    pub fn search(&self, m: &mut Module) -> Result<Option<SearchStats>, Diagnostics> {
        if self.config.mode == Mode::Off {
            return Ok(None);
        }
        let start = Instant::now();
        let mut cost = self.costs.model().map_err(|e| Diagnostics::error(m.loc(m.top()).clone(), e))?;
        let (mut best, mut stats) = search(m, rules::search_index(), &mut cost, &self.config);
        // Costed op by op, the rewritten graph must also be faster as a whole.
        let mut checked = String::new();
        if !stats.path.is_empty() {
            let keep = match self.costs.whole_model(m, &best) {
                WholeModelCheck::Skipped => true,
                WholeModelCheck::Measured { before, after } if after < before * (1.0 - self.config.min_gain) => {
                    checked = format!("; whole model {:.4} -> {:.4} ms: kept", before * 1e3, after * 1e3);
                    true
                }
                WholeModelCheck::Measured { before, after } => {
                    checked = format!(
                        "; {} rejected: whole model {:.4} -> {:.4} ms, not faster",
                        stats.path.join(", "),
                        before * 1e3,
                        after * 1e3
                    );
                    false
                }
                WholeModelCheck::Failed => {
                    checked = format!("; {} rejected: the whole-model check could not run", stats.path.join(", "));
                    false
                }
            };
            if keep && self.clean_up {
                tcc_ir::canonicalize::canonicalize(&mut best);
                tcc_ir::cse::cse(&mut best);
            } else if !keep {
                best = m.clone();
                stats.path.clear();
                stats.best_cost = stats.initial_cost;
            }
        }
        stats.elapsed = start.elapsed();
        self.costs.finish(&cost);
        if self.report {
            let measured = if cost.measured > 0 { format!(", {} ops measured", cost.measured) } else { String::new() };
            eprintln!("rewrite-search: {}{measured}{checked}", stats.summary());
            if !stats.by_rule.is_empty() {
                eprintln!("rewrite-search: candidates by rule: {}", stats.by_rule_list());
            }
        }
        *m = best;
        Ok(Some(stats))
    }
}

impl Pass for RewriteSearch {
    fn name(&self) -> &'static str {
        "rewrite-search"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        self.search(m).map(|_| ())
    }
}
