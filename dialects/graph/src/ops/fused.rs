//! `graph.fused`: a fusion group, a memory-bound subgraph that runs as one kernel
//! (`../shared/TECHNIQUES.md` section 3). Its region holds the group's ops in one block,
//! whose arguments are the group's inputs (the op's operands); `graph.yield` gives the
//! group's result. The interpreter runs the region, so the oracle covers fused graphs;
//! `fuse-memory-bound` (`tcc_graph_opt`) forms the groups and the lowering compiles
//! each into one loop nest.

use tcc_ir::{Arity, Module, Op, OpDef, Traits, Type};

use super::YIELD;
use super::nn::{REDUCE_MAX, REDUCE_MEAN, REDUCE_MIN, REDUCE_SUM};
use crate::interp::EvalArgs;
use crate::interp::tensor::Tensor;
use crate::{GraphSemantics, LayoutClass};

pub static FUSED: OpDef = OpDef {
    name: "graph.fused",
    summary: "A fusion group: the elementwise ops of its region, ending with at most one reduction, as one kernel",
    description: "The region's block takes the operands and yields the result. It holds elementwise ops \
                  on one iteration space (the result's, or the input of a final reduction: \
                  `reduce_sum`, `reduce_mean`, `reduce_max`, `reduce_min`, keeping dimensions), \
                  whose operands are block arguments or earlier ops of the block; operands that are \
                  smaller broadcast.\n\n```mlir\n\
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
    dialect_data: Some(&GraphSemantics::new(LayoutClass::Dependent, region_only)),
    ..OpDef::DEFAULT
};

/// The reductions a group may end with.
pub static GROUP_REDUCTIONS: &[&OpDef] = &[&REDUCE_SUM, &REDUCE_MEAN, &REDUCE_MAX, &REDUCE_MIN];

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
    for (i, &inner) in body.iter().enumerate() {
        let def = m.def(inner);
        let reduction = GROUP_REDUCTIONS.iter().any(|d| std::ptr::eq(*d, def));
        if reduction {
            let keeps = m.attr_or_default(inner, "keepdims").and_then(|a| a.as_bool()) == Some(true);
            if i + 1 != body.len() || !keeps {
                return Err("a reduction in a group must be its last op and keep dimensions".into());
            }
        } else if !def.has(Traits::ELEMENTWISE) || !m.regions(inner).is_empty() {
            return Err(format!("a group holds elementwise ops and one final reduction, not '{}'", def.name));
        }
    }
    Ok(())
}
