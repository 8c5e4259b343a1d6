//! The cost model of the rewrite search: what a graph costs to run, as the sum of its
//! ops' costs.
//!
//! An op's cost is a measurement when one exists for its key (op, operand and result
//! types with their layouts, attributes) on this CPU: measured once by compiling and
//! timing the op alone (the caller supplies the measurer, which needs a backend) and
//! kept in a [`CostDb`], a small JSON file keyed by CPU that later runs reuse. Until
//! then an analytical estimate stands in: FLOPs over the peak, or bytes moved once over
//! the bandwidth, whichever is larger, plus a fixed cost per kernel. Constants,
//! reshapes (views) and terminators cost nothing.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

use tcc_dialect_graph::{canonical, cost, ops as g};
use tcc_ir::{EntityRef, Module, Op, Traits};

/// The machine's ceilings the estimate divides by.
#[derive(Clone, Copy, Debug)]
pub struct Ceilings {
    /// FLOP/s over all the threads in use.
    pub flops_per_s: f64,
    /// Bytes/s from memory over all the threads in use.
    pub bytes_per_s: f64,
    /// What starting one kernel costs (seconds): dispatch, a pass over cold data.
    pub kernel_s: f64,
}

impl Ceilings {
    /// Ceilings from measured figures: GFLOP/s and GB/s.
    pub fn new(gflops: f64, gbytes: f64) -> Ceilings {
        Ceilings { flops_per_s: gflops * 1e9, bytes_per_s: gbytes * 1e9, kernel_s: 2e-6 }
    }

    /// Nominal GFLOP/s of `target`: two FMA pipes of its f32 lanes at 3 GHz per core.
    /// Measured costs replace estimates; this only ranks ops nothing measured.
    pub fn nominal_gflops(target: &tcc_target::Target) -> f64 {
        let lanes = (target.vector_bits / 32).max(1) as f64;
        target.cores.max(1) as f64 * lanes * 2.0 * 2.0 * 3.0
    }
}

/// The version of the cost database's format: 2 holds several machines per file and
/// marks operands that fold to constants in keys (version 1 measured a matmul of
/// concatenated weights unpacked). A file of another version is started afresh.
pub const COST_DB_VERSION: u32 = 2;

/// Measured op costs for one machine (CPU, backend, threads), by op key.
#[derive(Clone, Debug)]
pub struct CostDb {
    /// The machine the costs were measured on.
    pub cpu: String,
    /// Seconds per run, by [`op_key`].
    pub costs: BTreeMap<String, f64>,
}

impl CostDb {
    /// An empty database for `cpu`.
    pub fn new(cpu: &str) -> CostDb {
        CostDb { cpu: cpu.to_string(), costs: BTreeMap::new() }
    }

    /// The database of `cpu` in the file `path`; empty if the file does not exist,
    /// holds no measurements for `cpu` or is of another version; an error if it cannot
    /// be read or parsed.
    pub fn load(path: &Path, cpu: &str) -> Result<CostDb, String> {
        let costs = crate::machine_tables::read(path, COST_DB_VERSION, "cost database", cpu)?;
        Ok(CostDb { cpu: cpu.to_string(), costs })
    }

    /// Writes the database into the file `path`, next to the other machines' (through
    /// a temporary file, then a rename). A file that cannot be parsed is replaced.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        crate::machine_tables::write(path, COST_DB_VERSION, &self.cpu, &self.costs)
    }
}

/// What identifies an op's cost: its name, operand and result types (with layouts)
/// and attributes.
pub fn op_key(m: &Module, op: Op) -> String {
    let operand = |v: tcc_ir::Value| {
        let constant = m.defining_op(v).is_some_and(|d| folds_to_constant(m, d));
        format!("{}{}", if constant { "const " } else { "" }, m.value_type(v))
    };
    let operands = m.operands(op).iter().map(|&v| operand(v)).collect::<Vec<_>>().join(", ");
    let types = |vs: &[tcc_ir::Value]| vs.iter().map(|&v| m.value_type(v).to_string()).collect::<Vec<_>>().join(", ");
    let mut attrs: Vec<String> = m.attrs(op).iter().map(|(k, v)| format!("{k} = {v}")).collect();
    attrs.sort();
    format!("{}({operands}) -> ({}) {{{}}}", m.name(op), types(m.results(op)), attrs.join(", "))
}

/// Whether `op` is a constant, or an op whose operands all are constants or fold to
/// them that canonicalization folds at compile time: data movement and elementwise ops
/// (a concatenation of two weights, say), others when small or part of a constant
/// expression (`W + A @ B`). Looked for within [`FOLD_DEPTH`] ops above `op`,
/// each op once: a chain of thousands of elementwise ops made every call walk down to
/// the chain's start (a 20,000-op chain spent minutes here in the rewrite search), and
/// longer constant chains are folded by canonicalization before anything asks.
pub fn folds_to_constant(m: &Module, op: Op) -> bool {
    fn folds(m: &Module, op: Op, depth: usize, seen: &mut HashMap<Op, bool>) -> bool {
        if m.is(op, &g::CONSTANT) {
            return true;
        }
        if depth == 0 || !m.regions(op).is_empty() {
            return false;
        }
        let folds_by_kind = m.has_trait(op, Traits::DATA_MOVEMENT) || m.has_trait(op, Traits::ELEMENTWISE);
        if !(folds_by_kind || small(m, op) || feeds_constant_expression(m, op)) {
            return false;
        }
        if let Some(&known) = seen.get(&op) {
            return known;
        }
        let all = m.operands(op).iter().all(|&v| m.defining_op(v).is_some_and(|d| folds(m, d, depth - 1, seen)));
        seen.insert(op, all);
        all
    }
    folds(m, op, FOLD_DEPTH, &mut HashMap::new())
}

/// Whether canonicalization folds `op` on constants in general: a small result from
/// small operands.
fn small(m: &Module, op: Op) -> bool {
    let numel = |v: &tcc_ir::Value| m.value_type(*v).as_tensor().map_or(usize::MAX, |t| t.numel());
    m.results(op).iter().map(numel).fold(0usize, usize::saturating_add) <= canonical::FOLD_MAX_RESULT_ELEMENTS
        && m.operands(op).iter().map(numel).fold(0usize, usize::saturating_add) <= canonical::FOLD_MAX_INPUT_ELEMENTS
}

/// Whether `op` (on constants) is folded as part of the constant expression of the
/// elementwise ops using it (a weight plus a low-rank update, `W + A @ B`), within the
/// limits canonicalization evaluates such an op at compile time.
fn feeds_constant_expression(m: &Module, op: Op) -> bool {
    let [r] = m.results(op) else { return false };
    m.value_type(*r).as_tensor().is_some_and(|t| t.numel() <= canonical::FOLD_MAX_INNER_ELEMENTS)
        && cost::flops(m, op) <= canonical::FOLD_MAX_INNER_FLOPS
        && !m.uses(*r).is_empty()
        && m.uses(*r).iter().all(|u| {
            m.has_trait(u.op, Traits::ELEMENTWISE)
                && m.operands(u.op).iter().all(|&w| w == *r || m.defining_op(w).is_some_and(|d| m.is(d, &g::CONSTANT)))
        })
}

/// How many ops above an op [`folds_to_constant`] looks at.
const FOLD_DEPTH: usize = 32;

/// Whether `op` costs nothing at run time: constants and what folds to them, views,
/// terminators.
fn free(m: &Module, op: Op) -> bool {
    folds_to_constant(m, op)
        || m.is(op, &g::RESHAPE)
        || m.has_trait(op, Traits::TERMINATOR)
        || !m.regions(op).is_empty()
}

/// A measurer: the seconds one run of `op` alone takes, or `None` if it cannot be
/// measured.
pub type Measure<'a> = dyn FnMut(&Module, Op) -> Option<f64> + 'a;

/// Costs of ops and graphs.
///
/// Only ops marked [`CostModel::mark`] are measured: the search marks the ops its
/// rewrites remove or create, the only ones whose costs differ between the graphs it
/// compares (the others cost the same estimate in all of them).
pub struct CostModel<'a> {
    pub ceilings: Ceilings,
    pub db: CostDb,
    measure: Option<Box<Measure<'a>>>,
    marked: HashSet<String>,
    /// How many ops were measured (not found in the database) so far.
    pub measured: usize,
    /// Measuring stops when this time is spent; ops measured by then calibrate the
    /// estimate of the others.
    pub measure_budget: Duration,
    measuring: Duration,
    /// Sums of measured costs and of their estimates: the calibration of the estimate.
    calibration: (f64, f64),
}

impl<'a> CostModel<'a> {
    /// Estimates only, plus what `db` holds.
    pub fn new(ceilings: Ceilings, db: CostDb) -> CostModel<'a> {
        CostModel {
            ceilings,
            db,
            measure: None,
            marked: HashSet::new(),
            measured: 0,
            measure_budget: Duration::from_secs(3),
            measuring: Duration::ZERO,
            calibration: (0.0, 0.0),
        }
    }

    /// Measures ops missing from the database with `measure` and records them.
    pub fn with_measure(mut self, measure: Box<Measure<'a>>) -> CostModel<'a> {
        self.measure = Some(measure);
        self
    }

    /// Asks for `op`'s cost to be measured (when a measurer is set).
    pub fn mark(&mut self, m: &Module, op: Op) {
        if !free(m, op) {
            self.marked.insert(op_key(m, op));
        }
    }

    /// The analytical estimate for `op` (seconds).
    pub fn estimate(&self, m: &Module, op: Op) -> f64 {
        if free(m, op) {
            return 0.0;
        }
        let c = &self.ceilings;
        let compute = cost::flops(m, op) as f64 / c.flops_per_s;
        let memory = cost::bytes_moved(m, op) as f64 / c.bytes_per_s;
        compute.max(memory) + c.kernel_s
    }

    /// The cost of `op` (seconds): measured if known or measurable, else estimated
    /// (scaled by how measured ops compared with their estimates, once some were).
    pub fn op_cost(&mut self, m: &Module, op: Op) -> f64 {
        if free(m, op) {
            return 0.0;
        }
        let key = op_key(m, op);
        if let Some(&c) = self.db.costs.get(&key) {
            return c;
        }
        let estimate = self.estimate(m, op);
        if self.measuring < self.measure_budget
            && self.marked.contains(&key)
            && let Some(measure) = self.measure.as_mut()
        {
            let start = Instant::now();
            let measured = measure(m, op);
            self.measuring += start.elapsed();
            if let Some(c) = measured {
                self.measured += 1;
                self.calibration.0 += c;
                self.calibration.1 += estimate;
                self.db.costs.insert(key, c);
                return c;
            }
        }
        match self.calibration {
            (measured, estimated) if measured > 0.0 && estimated > 0.0 => estimate * measured / estimated,
            _ => estimate,
        }
    }

    /// The same for graphs rewritten from one input: ops with handles below `shared`
    /// are the input's, unchanged in every rewrite, and their costs are kept in
    /// `cache` (new ops may reuse each other's handles, so they are costed afresh).
    pub fn graph_cost_shared(&mut self, m: &Module, shared: usize, cache: &mut HashMap<Op, f64>) -> f64 {
        let top = m.top();
        let mut total = 0.0;
        for op in m.walk(top) {
            if op == top {
                continue;
            }
            total += if op.index() < shared {
                match cache.get(&op) {
                    Some(&c) => c,
                    None => {
                        let c = self.op_cost(m, op);
                        cache.insert(op, c);
                        c
                    }
                }
            } else {
                self.op_cost(m, op)
            };
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_database_round_trips_and_is_per_machine() {
        let dir = std::env::temp_dir().join(format!("tcc-costdb-{}", std::process::id()));
        let path = dir.join("costs.json");
        let mut db = CostDb::load(&path, "cpu-a").unwrap();
        assert!(db.costs.is_empty());
        db.costs.insert("graph.relu(tensor<4xf32>) -> (tensor<4xf32>) {}".into(), 1.5e-6);
        db.save(&path).unwrap();
        assert_eq!(CostDb::load(&path, "cpu-a").unwrap().costs, db.costs);
        let mut other = CostDb::load(&path, "cpu-b").unwrap();
        assert!(other.costs.is_empty());
        // Machines share the file.
        other.costs.insert("graph.relu(tensor<8xf32>) -> (tensor<8xf32>) {}".into(), 2.5e-6);
        other.save(&path).unwrap();
        assert_eq!(CostDb::load(&path, "cpu-a").unwrap().costs, db.costs);
        assert_eq!(CostDb::load(&path, "cpu-b").unwrap().costs, other.costs);
        // A file of another version is started afresh.
        std::fs::write(&path, r#"{"cpu": "cpu-a", "costs": {"k": 1.0}}"#).unwrap();
        assert!(CostDb::load(&path, "cpu-a").unwrap().costs.is_empty());
        std::fs::write(&path, "{ not json").unwrap();
        assert!(CostDb::load(&path, "cpu-a").unwrap_err().contains("not a cost database"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
