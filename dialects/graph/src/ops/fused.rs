//! `graph.fused`: a fusion group, a memory-bound subgraph that runs as one kernel
//! (stitched around its reductions as in AStitch, ASPLOS 2022; see
//! `docs/architecture.md`). Its region holds the group's ops in one block,
//! whose arguments are the group's inputs (the op's operands); `graph.yield` gives the
//! group's result. The interpreter runs the region, so the oracle covers fused graphs;
//! `fuse-memory-bound` (`tcc_graph_opt`) forms the groups and the lowering compiles
//! each into one loop nest.

use std::collections::{HashMap, HashSet};

use tcc_ir::{Arity, Module, Op, OpDef, Signature, Traits, Type, Value};

use super::YIELD;
use super::nn::reduction_axes;
use crate::interp::EvalArgs;
use crate::interp::tensor::Tensor;
use crate::{GraphOp, GraphSemantics, LayoutClass, Reduce, elementwise, kind_of};

pub static FUSED: OpDef = OpDef {
    name: "graph.fused",
    summary: "A fusion group: the elementwise ops and reductions of its region as one kernel",
    description: "The region's block takes the operands and yields the result. It holds elementwise ops \
                  and reductions (`reduce_sum`, `reduce_mean`, `reduce_max`, `reduce_min`, keeping \
                  dimensions; several reduce the same dimensions of the same shape: a norm's mean and \
                  variance, a softmax's max and sum), whose operands are block arguments or earlier \
                  ops of the block; operands that are smaller broadcast.\n\n```mlir\n\
                  %r = graph.fused %x, %m : (tensor<8x16xf32>, tensor<8x1xf32>) -> tensor<8x1xf32> ({\n\
                  ^bb0(%a: tensor<8x16xf32>, %b: tensor<8x1xf32>):\n  \
                  %0 = graph.sub %a, %b : (tensor<8x16xf32>, tensor<8x1xf32>) -> tensor<8x16xf32>\n  \
                  %1 = graph.mul %0, %0 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>\n  \
                  %2 = graph.reduce_sum %1 {axes = [1], keepdims = true} : (tensor<8x16xf32>) -> tensor<8x1xf32>\n  \
                  graph.yield %2 : tensor<8x1xf32>\n})\n```",
    operands: Arity::AtLeast(1),
    results: Arity::Exactly(1),
    regions: Arity::Exactly(1),
    attrs: &[],
    traits: Traits::PURE.union(Traits::SINGLE_BLOCK).union(Traits::ISOLATED_FROM_ABOVE),
    infer: None,
    verify: Some(verify_fused),
    syntax: tcc_ir::Syntax::Functional,
    patterns: &[],
    dialect_data: Some(&GraphSemantics::new(GraphOp::Fused, LayoutClass::Dependent, region_only)),
    ..OpDef::DEFAULT
};

/// Whether `op` is an elementwise op too costly to compute twice for the same element
/// (a fusion group reads or keeps its results rather than recomputing them).
pub fn is_costly(m: &Module, op: Op) -> bool {
    elementwise(m.def(op)).is_some_and(|e| e.cost.avoid_recomputing())
}

/// The rows of a stitched group: the shape its reductions reduce and the first reduced
/// dimension (every one from there on is reduced, by every reduction).
#[derive(Clone, Debug, PartialEq)]
pub struct Rows {
    pub shape: Vec<i64>,
    pub first: usize,
}

impl Rows {
    /// The shape of a value that broadcasts to the rows' shape (its dimensions align with
    /// the rows' last ones), with 1s in front up to the rows' rank.
    pub fn aligned(&self, shape: &[i64]) -> Vec<i64> {
        let missing = self.shape.len().saturating_sub(shape.len());
        std::iter::repeat_n(1, missing).chain(shape.iter().copied()).collect()
    }

    /// A value of shape `shape` (broadcasting to the rows') is the same all along a row.
    pub fn constant_along_row(&self, shape: &[i64]) -> bool {
        self.aligned(shape)[self.first..].iter().all(|&n| n == 1)
    }
}

fn shape_of(m: &Module, v: Value) -> Vec<i64> {
    m.value_type(v).as_tensor().map(|t| t.shape().to_vec()).unwrap_or_default()
}

/// `op` is one of the reductions a group may hold (any graph reduction), and which.
pub fn group_reduction(m: &Module, op: Op) -> Option<Reduce> {
    match kind_of(m, op)? {
        GraphOp::Reduce(r) => Some(r),
        _ => None,
    }
}

/// `op` is one of the reductions a group may hold.
pub fn is_group_reduction(m: &Module, op: Op) -> bool {
    group_reduction(m, op).is_some()
}

/// A group of `ops` (in order, the result's op last) is stitched around rows: it has
/// several reductions, or its result is computed from a reduction.
pub fn is_stitched(m: &Module, ops: &[Op]) -> bool {
    let reductions = ops.iter().filter(|&&o| is_group_reduction(m, o)).count();
    reductions > 1 || (reductions == 1 && ops.last().is_some_and(|&o| !is_group_reduction(m, o)))
}

/// The rows of a group of `ops` (in order, the result's op last) reading `inputs`, when
/// it can be stitched: its reductions reduce the same innermost dimensions of one shape,
/// no value has a higher rank (lower ones broadcast, aligned to the last dimensions), and
/// the result, of the rows' rank, is a whole row or one value per row.
pub fn stitched_rows(m: &Module, ops: &[Op], inputs: &[Value]) -> Option<Rows> {
    let mut rows: Option<Rows> = None;
    for &r in ops.iter().filter(|&&o| is_group_reduction(m, o)) {
        let shape = shape_of(m, m.operand(r, 0));
        let operands: Vec<Type> = m.operands(r).iter().map(|&v| m.value_type(v).clone()).collect();
        let sig = Signature { def: m.def(r), operands: &operands, attrs: m.attrs(r) };
        let axes = reduction_axes(&sig, shape.len()).ok()?;
        let trailing = !axes.is_empty() && axes.iter().enumerate().all(|(i, &a)| a + axes.len() == shape.len() + i);
        let these = Rows { shape, first: *axes.first()? };
        if !trailing || rows.as_ref().is_some_and(|r| *r != these) {
            return None;
        }
        rows = Some(these);
    }
    let rows = rows?;
    let values = ops.iter().map(|&o| m.result(o, 0)).chain(inputs.iter().copied());
    if !values.into_iter().all(|v| shape_of(m, v).len() <= rows.shape.len()) {
        return None;
    }
    let out = shape_of(m, m.result(*ops.last()?, 0));
    let whole_or_one = out == rows.shape || rows.constant_along_row(&out);
    (out.len() == rows.shape.len() && whole_or_one).then_some(rows)
}

/// The values of a group (`ops`) that a loop over rows computing `v` evaluates per
/// element: `v` and its operands, not through values constant along the row. They come
/// in the order a depth-first walk from `v` meets them (the sets only make it linear).
pub fn per_element_values(m: &Module, ops: &[Op], rows: &Rows, v: Value) -> Vec<Value> {
    let mut seen = Vec::new();
    let mut seen_set: HashSet<Value> = HashSet::new();
    // The group's ops as a set, made when a value's producer is first looked up.
    let mut group: Option<HashSet<Op>> = None;
    let mut work = vec![v];
    while let Some(v) = work.pop() {
        if seen_set.contains(&v) || rows.constant_along_row(&shape_of(m, v)) {
            continue;
        }
        seen.push(v);
        seen_set.insert(v);
        let Some(op) = m.defining_op(v) else { continue };
        if group.get_or_insert_with(|| ops.iter().copied().collect()).contains(&op) {
            work.extend(m.operands(op).iter().copied());
        }
    }
    seen
}

/// The costly value of a stitched group that both a reduction's loop and the result's
/// loop need, when it has the result's type: the first loop keeps it in the result
/// buffer for the second.
pub fn kept_in_result(m: &Module, ops: &[Op], rows: &Rows) -> Option<Value> {
    let result = m.result(*ops.last()?, 0);
    if shape_of(m, result) != rows.shape {
        return None;
    }
    let in_result: HashSet<Value> = per_element_values(m, ops, rows, result).into_iter().collect();
    let reductions = ops.iter().filter(|&&o| is_group_reduction(m, o));
    reductions.flat_map(|&r| per_element_values(m, ops, rows, m.operand(r, 0))).find(|&v| {
        in_result.contains(&v)
            && m.defining_op(v).is_some_and(|o| is_costly(m, o))
            && m.value_type(v) == m.value_type(result)
    })
}

/// Costly values of a stitched group that two of its loops would each compute (not the
/// one kept in the result buffer), in the order the loops first meet them.
pub fn computed_twice(m: &Module, ops: &[Op], rows: &Rows) -> Vec<Value> {
    let Some(&last) = ops.last() else { return Vec::new() };
    let mut loops: Vec<Value> = ops.iter().filter(|&&o| is_group_reduction(m, o)).map(|&r| m.operand(r, 0)).collect();
    if !is_group_reduction(m, last) && !rows.constant_along_row(&shape_of(m, m.result(last, 0))) {
        loops.push(m.result(last, 0));
    }
    let kept = kept_in_result(m, ops, rows);
    let mut count: Vec<(Value, usize)> = Vec::new();
    let mut index: HashMap<Value, usize> = HashMap::new();
    for v in loops.iter().flat_map(|&x| per_element_values(m, ops, rows, x)) {
        match index.get(&v) {
            Some(&i) => count[i].1 += 1,
            None => {
                index.insert(v, count.len());
                count.push((v, 1));
            }
        }
    }
    count
        .into_iter()
        .filter(|&(v, n)| n > 1 && Some(v) != kept && m.defining_op(v).is_some_and(|o| is_costly(m, o)))
        .map(|(v, _)| v)
        .collect()
}

/// `graph.fused` is evaluated by running its region (`interp::eval_op` does).
fn region_only(_: &EvalArgs) -> Result<Vec<Tensor>, String> {
    Err("graph.fused is evaluated through its region".into())
}

fn verify_fused(m: &Module, op: Op) -> Result<(), String> {
    let [region] = m.regions(op) else { return Err("needs one region".into()) };
    let [block] = m.region_blocks(*region) else { return Err("the region must have one block".into()) };
    let args: Vec<Type> = m.block_args(*block).iter().map(|&a| m.value_type(a).clone()).collect();
    let operands: Vec<Type> = m.operands(op).iter().map(|&v| m.value_type(v).clone()).collect();
    if args != operands {
        return Err("the block's arguments must have the operands' types".into());
    }
    let ops: Vec<Op> = m.block_ops(*block).collect();
    let Some((&last, body)) = ops.split_last() else { return Err("the region is empty".into()) };
    if !m.is(last, &YIELD) {
        return Err("the region must end with graph.yield".into());
    }
    for &inner in body {
        let def = m.def(inner);
        if is_group_reduction(m, inner) {
            let keeps = m.attr_or_default(inner, "keepdims").and_then(|a| a.as_bool()) == Some(true);
            if !keeps {
                return Err("a reduction in a group must keep dimensions".into());
            }
        } else if !def.has(Traits::ELEMENTWISE) || !m.regions(inner).is_empty() {
            return Err(format!("a group holds elementwise ops and reductions, not '{}'", def.name));
        }
    }
    let yielded = m.operands(last).first().copied();
    if body.last().is_none_or(|&o| m.results(o).first().copied() != yielded) {
        return Err("the region must yield the result of its last op".into());
    }
    if is_stitched(m, body) && stitched_rows(m, body, m.block_args(*block)).is_none() {
        return Err("a group with several reductions, or whose result uses a reduction, must reduce the same \
                    innermost dimensions of one shape no value exceeds in rank, and give a whole row \
                    or one value per row"
            .into());
    }
    Ok(())
}
