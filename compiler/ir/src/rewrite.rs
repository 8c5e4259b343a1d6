//! Pattern rewriting: the [`Rewriter`] that patterns mutate IR through, and the greedy
//! driver that applies patterns until nothing changes.
//!
//! The driver keeps a worklist of ops (pre-order), erases trivially dead pure ops, and
//! tries each op's patterns; every mutation made through the `Rewriter` puts the
//! affected ops back on the worklist. It stops at a fixed point, after
//! `max_iterations` sweeps, or when the rewrite budget is spent (so two patterns that
//! undo each other cannot loop forever).

use std::collections::BTreeMap;
use std::ops::Deref;

use crate::attributes::Attribute;
use crate::module::{Module, Op, OperationState, Value};
use crate::opdef::{OpDef, Pattern, Traits};

/// The mutation interface for patterns; reads go through `Deref<Target = Module>`.
pub struct Rewriter<'a> {
    m: &'a mut Module,
    touched: Vec<Op>,
}

impl Deref for Rewriter<'_> {
    type Target = Module;
    fn deref(&self) -> &Module {
        self.m
    }
}

impl<'a> Rewriter<'a> {
    pub fn new(m: &'a mut Module) -> Rewriter<'a> {
        Rewriter { m, touched: Vec::new() }
    }

    fn touch_users(&mut self, v: Value) {
        let users: Vec<Op> = self.m.uses(v).iter().map(|u| u.op).collect();
        self.touched.extend(users);
    }

    fn touch_operand_defs(&mut self, op: Op) {
        let defs: Vec<Op> = self.m.operands(op).iter().filter_map(|&v| self.m.defining_op(v)).collect();
        self.touched.extend(defs);
    }

    /// Creates an op from `state` just before `anchor`.
    pub fn create_before(&mut self, anchor: Op, state: OperationState) -> Op {
        let op = self.m.create_op(state);
        self.m.insert_op_before(anchor, op);
        self.touched.push(op);
        op
    }

    /// Replaces `op`'s results with `new` and erases it.
    pub fn replace_op(&mut self, op: Op, new: &[Value]) {
        for &r in self.m.results(op).to_vec().iter() {
            self.touch_users(r);
        }
        self.touch_operand_defs(op);
        self.m.replace_op(op, new);
        for &v in new {
            if let Some(d) = self.m.defining_op(v) {
                self.touched.push(d);
            }
        }
    }

    pub fn replace_all_uses(&mut self, old: Value, new: Value) {
        self.touch_users(old);
        self.m.replace_all_uses(old, new);
    }

    pub fn erase_op(&mut self, op: Op) {
        self.touch_operand_defs(op);
        self.m.erase_op(op);
    }

    pub fn set_operand(&mut self, op: Op, index: usize, v: Value) {
        if let Some(d) = self.m.defining_op(self.m.operand(op, index)) {
            self.touched.push(d);
        }
        self.m.set_operand(op, index, v);
        self.touched.push(op);
    }

    pub fn set_attr(&mut self, op: Op, name: &str, value: Attribute) {
        self.m.set_attr(op, name, value);
        self.touched.push(op);
    }

    /// Direct access for edits the helpers above do not cover; call [`Self::notify`]
    /// for every op whose operands, attributes or users changed.
    pub fn module_mut(&mut self) -> &mut Module {
        self.m
    }

    pub fn notify(&mut self, op: Op) {
        self.touched.push(op);
    }
}

#[derive(Clone, Debug)]
pub struct GreedyConfig {
    /// Full sweeps over the IR before giving up on reaching a fixed point.
    pub max_iterations: u32,
    /// Pattern applications per sweep, as a multiple of the op count (plus 1000).
    pub rewrite_budget_factor: usize,
}

impl Default for GreedyConfig {
    fn default() -> Self {
        GreedyConfig { max_iterations: 10, rewrite_budget_factor: 64 }
    }
}

#[derive(Clone, Debug, Default)]
pub struct GreedyStats {
    pub iterations: u32,
    pub converged: bool,
    pub erased_dead: usize,
    /// How often each pattern applied, by name.
    pub applied: BTreeMap<&'static str, usize>,
}

/// Whether `op` can be erased: pure, not a terminator, and no result used.
pub fn is_trivially_dead(m: &Module, op: Op) -> bool {
    m.has_trait(op, Traits::PURE) && !m.has_trait(op, Traits::TERMINATOR) && m.results_unused(op)
}

/// Applies `patterns_for(op kind)` to every op under the module until a fixed point.
pub fn apply_patterns_greedily(
    m: &mut Module,
    patterns_for: &dyn Fn(&'static OpDef) -> &'static [Pattern],
    config: &GreedyConfig,
) -> GreedyStats {
    let mut stats = GreedyStats::default();
    let top = m.top();
    for _ in 0..config.max_iterations {
        stats.iterations += 1;
        let mut changed = false;
        let mut worklist: Vec<Op> = m.walk(top);
        worklist.reverse();
        let budget = worklist.len() * config.rewrite_budget_factor + 1000;
        let mut spent = 0;
        while let Some(op) = worklist.pop() {
            if op == top || m.is_erased(op) || m.parent_block(op).is_none() {
                continue;
            }
            if is_trivially_dead(m, op) {
                let defs: Vec<Op> = m.operands(op).iter().filter_map(|&v| m.defining_op(v)).collect();
                m.erase_op(op);
                worklist.extend(defs);
                stats.erased_dead += 1;
                changed = true;
                continue;
            }
            for pattern in patterns_for(m.def(op)) {
                let mut rw = Rewriter::new(m);
                if (pattern.apply)(&mut rw, op) {
                    let touched = std::mem::take(&mut rw.touched);
                    worklist.extend(touched);
                    if !m.is_erased(op) {
                        worklist.push(op);
                    }
                    *stats.applied.entry(pattern.name).or_default() += 1;
                    changed = true;
                    spent += 1;
                    break;
                }
            }
            if spent > budget {
                return stats;
            }
        }
        if !changed {
            stats.converged = true;
            break;
        }
    }
    stats
}
