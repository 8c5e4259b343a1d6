//! The `cse` pass: common subexpression elimination.
//!
//! Two pure, region-free ops of the same kind with the same operands, attributes and
//! result types compute the same values; the later one is replaced by the earlier one
//! when the earlier one is visible (same block or an enclosing block). Scopes follow
//! regions, and an isolated-from-above op (a function) starts from an empty scope, so
//! two equal constants in different functions are never merged.

use std::collections::HashMap;

use crate::attributes::AttrDict;
use crate::diagnostics::Diagnostics;
use crate::module::{Block, Module, Op, Value};
use crate::opdef::Traits;
use crate::pass::{Pass, PassInfo};
use crate::types::Type;

pub static CSE: PassInfo =
    PassInfo { name: "cse", summary: "Merge identical pure operations", options: &[], create: |_| Ok(Box::new(Cse)) };

pub struct Cse;

impl Pass for Cse {
    fn name(&self) -> &'static str {
        "cse"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        cse(m);
        Ok(())
    }
}

#[derive(PartialEq, Eq, Hash)]
struct OpKey {
    def: usize,
    operands: Vec<Value>,
    attrs: AttrDict,
    types: Vec<Type>,
}

/// Runs CSE on the module; returns the number of ops removed.
pub fn cse(m: &mut Module) -> usize {
    let mut scopes: Vec<HashMap<OpKey, Op>> = Vec::new();
    let top = m.top();
    let mut removed = 0;
    visit_op(m, top, &mut scopes, &mut removed);
    removed
}

fn visit_op(m: &mut Module, op: Op, scopes: &mut Vec<HashMap<OpKey, Op>>, removed: &mut usize) {
    let isolated = m.has_trait(op, Traits::ISOLATED_FROM_ABOVE);
    let saved = if isolated { std::mem::take(scopes) } else { Vec::new() };
    for r in m.regions(op).to_vec() {
        for b in m.region_blocks(r).to_vec() {
            visit_block(m, b, scopes, removed);
        }
    }
    if isolated {
        *scopes = saved;
    }
}

fn visit_block(m: &mut Module, block: Block, scopes: &mut Vec<HashMap<OpKey, Op>>, removed: &mut usize) {
    scopes.push(HashMap::new());
    let ops: Vec<Op> = m.block_ops(block).collect();
    for op in ops {
        let eligible = m.has_trait(op, Traits::PURE)
            && !m.has_trait(op, Traits::TERMINATOR)
            && m.regions(op).is_empty()
            && !m.results(op).is_empty();
        if !eligible {
            visit_op(m, op, scopes, removed);
            continue;
        }
        let key = OpKey {
            def: m.def(op) as *const _ as usize,
            operands: m.operands(op).to_vec(),
            attrs: m.attrs(op).clone(),
            types: m.results(op).iter().map(|&r| m.value_type(r).clone()).collect(),
        };
        let existing = scopes.iter().rev().find_map(|s| s.get(&key).copied());
        match existing {
            Some(prev) => {
                let new = m.results(prev).to_vec();
                m.replace_op(op, &new);
                *removed += 1;
            }
            None => {
                scopes.last_mut().expect("scope").insert(key, op);
            }
        }
    }
    scopes.pop();
}
