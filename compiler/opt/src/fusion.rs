//! `fuse-memory-bound`: memory-bound ops stitched into fusion groups (`graph.fused`),
//! each one kernel (AStitch's stitching, ASPLOS 2022).
//!
//! A group has a root, a reduction (the backbone; keeping dimensions) or an elementwise
//! op, and the producers inlined into it: an elementwise producer joins when its result
//! has the group's iteration space (the root's input for a reduction, its result
//! otherwise) and either every use of it is in the group, or it is cheap to compute
//! again (one full-size operand, no costly function: a cast, a bias add, a scale) -
//! then it stays for its other users too and the group reads its (often narrower)
//! input instead of its result. Reductions of the same rows whose results only the
//! group uses join too (sub-backbones: a norm's mean and variance, a softmax's max and
//! sum), with the elementwise ops on their results (an epsilon, an rsqrt), so a norm or
//! a softmax is one group stitched around its rows - when its reductions reduce the
//! innermost dimensions and no costly value (an exp) would be computed by two of the
//! group's loops (one kept in the result buffer is not); otherwise the group keeps
//! one reduction, its root. Roots are taken from the end of the function backwards,
//! so a consumer's group claims its producers first; a group needs two ops. Broadcast
//! operands (a per-channel scale) and values from outside are the group's inputs.
//! Compute-intensive ops, reshapes and layout transforms are not elementwise and bound
//! the groups.
//!
//! Not yet: groups with several results (sibling reductions used outside the group).

use std::collections::{BTreeMap, HashMap, HashSet};

use tcc_dialect_graph::ops as g;
use tcc_dialect_graph::ops::fused::{self, computed_twice, is_costly, is_stitched, stitched_rows};
use tcc_ir::builtin::func_entry;
use tcc_ir::{AttrDict, Block, Diagnostics, Module, Op, OperationState, Pass, PassInfo, Traits, Type, Value};

use crate::Inserter;
use crate::epilogue_fusion::append_copy;

pub static FUSE_MEMORY_BOUND: PassInfo = PassInfo {
    name: "fuse-memory-bound",
    summary: "Stitch memory-bound ops into fusion groups (graph.fused) around reductions and elementwise roots",
    options: &[],
    create: |_| Ok(Box::new(FuseMemoryBound)),
};

pub struct FuseMemoryBound;

impl Pass for FuseMemoryBound {
    fn name(&self) -> &'static str {
        "fuse-memory-bound"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        for func in m.funcs() {
            let Some(entry) = func_entry(m, func) else { continue };
            fuse_block(m, entry);
        }
        Ok(())
    }
}

fn reduction_keeping_dims(m: &Module, op: Op) -> bool {
    fused::is_group_reduction(m, op) && m.attr_or_default(op, "keepdims").and_then(|a| a.as_bool()) == Some(true)
}

/// An elementwise graph op with one result (and no region: not a kernel).
fn is_elementwise(m: &Module, op: Op) -> bool {
    m.has_trait(op, Traits::ELEMENTWISE) && m.results(op).len() == 1 && m.regions(op).is_empty()
}

/// Cheap enough to compute again for a group while it stays for its other users: one
/// operand of the group's size, the others broadcast, and no costly function.
fn cheap_to_repeat(m: &Module, op: Op, space: &[i64]) -> bool {
    !is_costly(m, op) && m.operands(op).iter().filter(|&&v| crate::shape(m, v) == space).count() <= 1
}

/// What trying an op as a root gave.
enum Attempt {
    /// Not elementwise nor a reduction keeping dimensions: never a root.
    NotARoot,
    /// No group of two ops; the ops the attempt looked at (the root included).
    Rejected(HashSet<Op>),
    /// The group's members in program order, the root last.
    Group(Vec<Op>),
}

/// Forms the groups of `block`: the last root that has a group takes it, and the scan
/// starts again from the end, until no root has one. Starting again is what makes a
/// root rejected before take a group now (a group leaves its producers that stay with
/// fewer users), but a root's attempt reads only the ops it examined, so a rejected
/// root is tried again only when a group changed one of them (the group's members and
/// the users of its root); the others would be rejected again. The groups are thus
/// the same, formed in the same order, as by scanning again, and most ops are tried
/// once.
fn fuse_block(m: &mut Module, block: Block) {
    let ops: Vec<Op> = m.block_ops(block).collect();
    let position: HashMap<Op, usize> = ops.iter().enumerate().map(|(i, &o)| (o, i)).collect();
    // The rejected roots that examined each op, and those to try again by position (in
    // the block as it was: a group's op takes its root's place and is never a root).
    let mut watchers: HashMap<Op, Vec<Op>> = HashMap::new();
    let mut retry: BTreeMap<usize, Op> = BTreeMap::new();
    for &next in ops.iter().rev() {
        if m.is_erased(next) {
            continue;
        }
        // The roots after `next` were all rejected; after a group, those to try again
        // are tried ahead of `next`, the last first, as a scan from the end takes them.
        let mut frontier = Some(next);
        while let Some(root) = retry.pop_last().map(|(_, r)| r).or_else(|| frontier.take()) {
            if m.is_erased(root) {
                continue;
            }
            match attempt(m, root, &position) {
                Attempt::NotARoot => {}
                Attempt::Rejected(examined) => {
                    for o in examined {
                        watchers.entry(o).or_default().push(root);
                    }
                }
                Attempt::Group(members) => {
                    // The ops whose operands or users the group changes. Its inputs'
                    // producers need not be: a rejected root that examined one either
                    // had a member of this group in its own (and is tried again for
                    // it), or saw a use of it outside its own (this group's member's)
                    // and sees one still (the fused op's).
                    let mut changed: Vec<Op> = m.uses(m.result(root, 0)).iter().map(|u| u.op).collect();
                    changed.extend(&members);
                    build_group(m, root, &members);
                    for o in changed {
                        for w in watchers.remove(&o).unwrap_or_default() {
                            if !m.is_erased(w) {
                                retry.insert(position[&w], w);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Tries `root`: its stitched group if that is stitched and can be, else its plain one;
/// a group needs two ops.
fn attempt(m: &Module, root: Op, position: &HashMap<Op, usize>) -> Attempt {
    if !reduction_keeping_dims(m, root) && !is_elementwise(m, root) {
        return Attempt::NotARoot;
    }
    let order = |members: HashSet<Op>| {
        let mut ordered: Vec<Op> = members.into_iter().collect();
        ordered.sort_by_key(|o| position[o]);
        ordered
    };
    let mut examined = HashSet::from([root]);
    let mut ordered = order(collect(m, root, true, &mut examined));
    if !is_stitched(m, &ordered) || !stitchable(m, &ordered) {
        ordered = order(collect(m, root, false, &mut examined));
    }
    if ordered.len() < 2 {
        return Attempt::Rejected(examined);
    }
    Attempt::Group(ordered)
}

/// A group of `members` (in order, root last) stitched around rows can be: its
/// reductions reduce the same innermost dimensions, and no costly value would be
/// computed by two of its loops.
fn stitchable(m: &Module, members: &[Op]) -> bool {
    let inside: HashSet<Value> = members.iter().map(|&o| m.result(o, 0)).collect();
    let inputs: Vec<Value> =
        members.iter().flat_map(|&o| m.operands(o).to_vec()).filter(|v| !inside.contains(v)).collect();
    stitched_rows(m, members, &inputs).is_some_and(|rows| computed_twice(m, members, &rows).is_empty())
}

/// The root and the producers that join its group. A producer joins when its result
/// has the group's iteration space and every use of it is in the group or it is cheap
/// to repeat; with `stitch`, also a reduction keeping dimensions whose every use is in
/// the group (its input's shape is then the iteration space when the root is one
/// too), and an elementwise op of smaller results (one value per row) whose every use
/// is; such a group is kept only if it is stitched (`attempt`). Every op looked at is
/// added to `examined`.
///
/// Joining only gets easier as the group grows (more of a producer's uses are in it),
/// so the group is the least one closed under joining, whatever the order producers
/// are looked at in: a worklist looks at a producer when a member using it joins, and
/// counts the uses in the group of each value, so each member costs its operands.
fn collect(m: &Module, root: Op, stitch: bool, examined: &mut HashSet<Op>) -> HashSet<Op> {
    let reduction = reduction_keeping_dims(m, root);
    let space = if reduction { crate::shape(m, m.operand(root, 0)) } else { crate::shape(m, m.result(root, 0)) };
    let mut members: HashSet<Op> = HashSet::from([root]);
    // Uses by members (one per operand), and the producers to look at.
    let mut inside: HashMap<Value, usize> = HashMap::new();
    let mut work: Vec<Op> = Vec::new();
    let join = |o: Op, inside: &mut HashMap<Value, usize>, work: &mut Vec<Op>| {
        for &v in m.operands(o) {
            *inside.entry(v).or_default() += 1;
            work.extend(m.defining_op(v));
        }
    };
    join(root, &mut inside, &mut work);
    while let Some(p) = work.pop() {
        examined.insert(p);
        if members.contains(&p) || m.results(p).len() != 1 {
            continue;
        }
        let v = m.result(p, 0);
        let all_inside = inside.get(&v).copied().unwrap_or(0) == m.uses(v).len();
        let joins = if is_elementwise(m, p) && crate::shape(m, v) == space {
            all_inside || cheap_to_repeat(m, p, &space)
        } else if stitch && reduction_keeping_dims(m, p) && crate::shape(m, m.operand(p, 0)) == space {
            all_inside
        } else {
            let rank = crate::shape(m, v).len() == space.len();
            stitch && is_elementwise(m, p) && rank && all_inside
        };
        if joins {
            members.insert(p);
            join(p, &mut inside, &mut work);
        }
    }
    members
}

/// Replaces `root` by a `graph.fused` op holding `members` (in program order, `root`
/// last); members left without users are erased.
fn build_group(m: &mut Module, root: Op, members: &[Op]) {
    let inside: HashSet<Value> = members.iter().map(|&o| m.result(o, 0)).collect();
    let mut inputs: Vec<Value> = Vec::new();
    let mut seen: HashSet<Value> = HashSet::new();
    for &o in members {
        for &v in m.operands(o) {
            if !inside.contains(&v) && seen.insert(v) {
                inputs.push(v);
            }
        }
    }
    let types: Vec<Type> = inputs.iter().map(|&v| m.value_type(v).clone()).collect();
    let region = m.new_region();
    let body = m.append_block(region, &types);
    let mut map: HashMap<Value, Value> = inputs.iter().copied().zip(m.block_args(body).to_vec()).collect();
    for &o in members {
        let v = append_copy(m, body, o, &map);
        map.insert(m.result(o, 0), v);
    }
    let root_value = map[&m.result(root, 0)];
    let mut st = OperationState::new(&g::YIELD, m.loc(root).clone());
    st.operands = vec![root_value];
    let y = m.create_op(st);
    m.append_op(body, y);
    let result_type = m.value_type(m.result(root, 0)).clone();
    let fused =
        Inserter::before(m, root).op_with_regions(&g::FUSED, &inputs, AttrDict::new(), vec![result_type], vec![region]);
    let r = m.result(fused, 0);
    m.replace_op(root, &[r]);
    for &o in members.iter().rev() {
        if o != root && m.uses(m.result(o, 0)).is_empty() {
            m.erase_op(o);
        }
    }
}
