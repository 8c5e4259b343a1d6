//! Reshape sinking (XLA's algebraic simplifier does the same): reshapes move below the
//! elementwise ops that follow them and into the reductions at the end, so that a
//! reduction over a reshaped tensor reduces the original tensor without moving it
//! (torch-mlir's group norm views `[N, C, H, W]` as `[N, G, C/G, H*W]` and reduces the
//! last two dimensions: afterwards it reduces `H, W` of the original and only `C/G` of a
//! small `[N, G, C/G, 1]`).
//!
//! - `reshape-sink`: `f(reshape(X), Y)` -> `reshape(f(X, Y'))` for an elementwise `f`
//!   whose full-size operands are all reshapes of tensors of X's shape, when its result
//!   flows through elementwise ops into a reduction or into a reshape back to X's shape
//!   (`reshape(f(reshape(X), Y))` -> `f(X, Y')` once the reshapes compose). A broadcast
//!   operand `Y` becomes `reshape(broadcast(Y))`: broadcast over the dimensions the
//!   reshape regroups with one `Y` varies along, then reshaped to X's shape with 1s
//!   elsewhere (a broadcast that adds elements must stay under an eighth of the result).
//! - `reduce-of-reduce`: two reductions of the same kind, both keeping dimensions, the
//!   inner one used once, merge into one over both sets of axes.
//! - `reduce-of-reshape`: `reduce(reshape(X), A)` -> `reduce(reshape(reduce(X, A_X)), A')`
//!   where `A_X` are X's dimensions behind the groups of the reshape that `A` reduces
//!   whole and `A'` the reduced dimensions of the other groups (if none, no outer
//!   reduction). Kept dimensions only.
//!
//! - `reshape-hoist`, the counterpart of `reshape-sink` for small tensors:
//!   `reshape(f(a1, .., an), T)` for an elementwise `f` -> `f(a1', .., an')`, each operand
//!   mapped through the reshape's groups of dimensions (1s where it is broadcast over a
//!   whole group, the target's extents where it is full; scalar-like operands stay), and
//!   so on up through operands that are elementwise ops themselves, when every leaf of
//!   that cone is a constant (it folds to the new shape), a scalar-like value, or a
//!   reshape from the mapped shape (it cancels). The cone is planned whole before
//!   anything changes and rewritten in one step; ops of the cone with other users stay
//!   for them (the cone is copied, and `cse` merges copies made for several reshapes).
//!   Each application removes one reshape and creates none, so the two patterns do
//!   not feed each other endlessly. Only up to [`HOIST_MAX_ELEMENTS`] elements: after layout
//!   blocking, a group norm's per-group statistics and per-channel scale are computed
//!   on the blocked activation's rank (`1x32x1x1x1`, `1x32x1x1x4`) instead of on
//!   `1x32x4x1` reshaped and relaid out to it.
//!
//! `reduce-of-reduce` and `reduce-of-reshape` reassociate sums and means (the result may
//! differ in the last bits).

use std::collections::BTreeMap;
use std::ops::Range;

use tcc_ir::{
    AttrDict, Attribute, DenseElements, Op, OpDef, OperationState, Pattern, Rewriter, TensorType, Traits, Type, Value,
};

use super::{build, constant_value};
use crate::ops;

pub static RESHAPE_SINK: Pattern = Pattern { name: "reshape-sink", apply: reshape_sink };
pub static REDUCE_OF_REDUCE: Pattern = Pattern { name: "reduce-of-reduce", apply: reduce_of_reduce };
pub static REDUCE_OF_RESHAPE: Pattern = Pattern { name: "reduce-of-reshape", apply: reduce_of_reshape };
pub static RESHAPE_HOIST: Pattern = Pattern { name: "reshape-hoist", apply: reshape_hoist };

/// Groups of dimensions a reshape from `from` to `to` maps onto each other: each pair of
/// ranges is one run of elements, the product of `from`'s extents in the first equal to
/// that of `to`'s in the second. Extents of 1 between groups form groups of their own
/// with an empty other side. `None` for zero extents or different element counts.
pub fn reshape_groups(from: &[i64], to: &[i64]) -> Option<Vec<(Range<usize>, Range<usize>)>> {
    if from.iter().chain(to).any(|&d| d <= 0) {
        return None;
    }
    let mut groups = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < from.len() || j < to.len() {
        if i < from.len() && from[i] == 1 {
            groups.push((i..i + 1, j..j));
            i += 1;
            continue;
        }
        if j < to.len() && to[j] == 1 {
            groups.push((i..i, j..j + 1));
            j += 1;
            continue;
        }
        if i >= from.len() || j >= to.len() {
            return None;
        }
        let (si, sj) = (i, j);
        let (mut p, mut q) = (from[i], to[j]);
        i += 1;
        j += 1;
        while p != q {
            if p < q {
                p = p.checked_mul(*from.get(i)?)?;
                i += 1;
            } else {
                q = q.checked_mul(*to.get(j)?)?;
                j += 1;
            }
        }
        groups.push((si..i, sj..j));
    }
    Some(groups)
}

/// The shape a value `v` broadcast against a tensor of shape `from` takes when a reshape
/// from `from` to `to` (with `groups` = [`reshape_groups`]`(from, to)`) moves onto it:
/// aligned to `from`'s rank, it must be 1 on the whole of a group (it gets 1s on the
/// group's target dimensions) or equal to `from` on the whole group (it gets `to`'s
/// extents there). `None` if it is neither on some group, or has a larger rank.
pub fn map_through_reshape(
    v: &[i64],
    from: &[i64],
    to: &[i64],
    groups: &[(Range<usize>, Range<usize>)],
) -> Option<Vec<i64>> {
    let pad = from.len().checked_sub(v.len())?;
    let aligned: Vec<i64> = std::iter::repeat_n(1, pad).chain(v.iter().copied()).collect();
    let mut out = vec![1; to.len()];
    for (fg, tg) in groups {
        if fg.clone().all(|d| aligned[d] == from[d]) {
            tg.clone().for_each(|d| out[d] = to[d]);
        } else if !fg.clone().all(|d| aligned[d] == 1) {
            return None;
        }
    }
    Some(out)
}

fn shape(rw: &Rewriter, v: Value) -> Option<Vec<i64>> {
    rw.value_type(v).as_tensor().filter(|t| t.encoding().is_none()).map(|t| t.shape().to_vec())
}

fn defined_by(rw: &Rewriter, v: Value, def: &OpDef) -> Option<Op> {
    rw.defining_op(v).filter(|&d| rw.is(d, def))
}

fn is_reduction(rw: &Rewriter, op: Op) -> bool {
    matches!(crate::kind(rw.def(op)), Some(crate::GraphOp::Reduce(_)))
}

fn keeps_dims(rw: &Rewriter, op: Op) -> bool {
    rw.attr_or_default(op, "keepdims").and_then(|a| a.as_bool()) == Some(true)
}

/// A reduction's axes, normalized and sorted.
fn axes(rw: &Rewriter, op: Op, rank: usize) -> Option<Vec<usize>> {
    let raw = rw.attr(op, "axes")?.as_i64_list()?;
    let mut a: Vec<usize> = raw
        .iter()
        .map(|&x| if x < 0 { x + rank as i64 } else { x })
        .map(|x| usize::try_from(x).ok().filter(|&x| x < rank))
        .collect::<Option<_>>()?;
    a.sort_unstable();
    a.dedup();
    Some(a)
}

fn reduce(rw: &mut Rewriter, anchor: Op, def: &'static OpDef, x: Value, axes: &[usize]) -> Option<Value> {
    let list: Vec<i64> = axes.iter().map(|&a| a as i64).collect();
    let attrs = AttrDict::new().with("axes", Attribute::i64_list(&list)).with("keepdims", Attribute::Bool(true));
    build(rw, anchor, def, &[x], attrs)
}

fn reshape(rw: &mut Rewriter, anchor: Op, x: Value, to: &[i64]) -> Option<Value> {
    if shape(rw, x).as_deref() == Some(to) {
        return Some(x);
    }
    build(rw, anchor, &ops::RESHAPE, &[x], AttrDict::new().with("shape", Attribute::i64_list(to)))
}

/// How many elementwise ops deep `reshape-sink` looks for the reduction or reshape.
const MAX_DEPTH: usize = 8;

/// Whether `v` flows through elementwise ops into a reduction or a reshape to `back`.
fn flows_into_reduction(rw: &Rewriter, v: Value, back: &[i64], depth: usize) -> bool {
    rw.uses(v).iter().any(|u| {
        let user = u.op;
        is_reduction(rw, user)
            || (rw.is(user, &ops::RESHAPE) && shape(rw, rw.result(user, 0)).as_deref() == Some(back))
            || (depth > 0
                && rw.has_trait(user, Traits::ELEMENTWISE)
                && rw.results(user).len() == 1
                && flows_into_reduction(rw, rw.result(user, 0), back, depth - 1))
    })
}

fn reshape_sink(rw: &mut Rewriter, op: Op) -> bool {
    try_reshape_sink(rw, op).is_some()
}

fn try_reshape_sink(rw: &mut Rewriter, op: Op) -> Option<()> {
    if !rw.has_trait(op, Traits::ELEMENTWISE) || rw.results(op).len() != 1 {
        return None;
    }
    let result = rw.result(op, 0);
    let r = shape(rw, result)?;
    let operands = rw.operands(op).to_vec();
    // Every full-size operand is a reshape of a tensor of one shape `s`.
    let mut s: Option<Vec<i64>> = None;
    for &v in &operands {
        if shape(rw, v)? != r {
            continue;
        }
        let from = shape(rw, rw.operand(defined_by(rw, v, &ops::RESHAPE)?, 0))?;
        if s.as_ref().is_some_and(|s| *s != from) {
            return None;
        }
        s = Some(from);
    }
    let s = s?;
    if s == r || !flows_into_reduction(rw, result, &s, MAX_DEPTH) {
        return None;
    }
    let groups = reshape_groups(&s, &r)?;
    // Plan every operand and check the op on the planned types before building anything
    // (a pattern that gives up must leave the graph as it was).
    let plans: Vec<Operand> = operands.iter().map(|&v| plan_operand(rw, v, &r, &s, &groups)).collect::<Option<_>>()?;
    let elem = rw.value_type(result).as_tensor()?.elem();
    let result_type = Type::tensor(s.clone(), elem).ok()?;
    let types: Vec<Type> = plans
        .iter()
        .map(|p| Type::tensor(p.shape().to_vec(), rw.value_type(p.value()).as_tensor()?.elem()).ok())
        .collect::<Option<_>>()?;
    // (Ops without shape inference, like cast, keep their operand's shape.)
    if rw.def(op).infer.is_some() && rw.def(op).infer_types(&types, rw.attrs(op)).ok()? != [result_type.clone()] {
        return None;
    }
    if rw.def(op).infer.is_none() && types.iter().any(|t| t.as_tensor().map(|t| t.shape()) != Some(&s[..])) {
        return None;
    }
    let mut new_operands = Vec::with_capacity(plans.len());
    for p in &plans {
        new_operands.push(p.build(rw, op)?);
    }
    let mut state = OperationState::new(rw.def(op), rw.loc(op).clone());
    state.operands = new_operands;
    state.attrs = rw.attrs(op).clone();
    state.result_types = vec![result_type];
    let sunk = rw.create_before(op, state);
    let sunk = rw.result(sunk, 0);
    let back = reshape(rw, op, sunk, &r)?;
    rw.replace_op(op, &[back]);
    Some(())
}

/// An operand of the op `reshape-sink` moves onto the reshape's source shape.
enum Operand {
    /// The reshape's source itself.
    Source(Value, Vec<i64>),
    /// A value reshaped to a shape of as many elements (a scalar-like one to 1s).
    Reshaped(Value, Vec<i64>),
    /// A value aligned to the result's rank (`padded`), broadcast to `wide` within the
    /// groups it varies along, and reshaped to `to` on the source's dimensions.
    Broadcast { v: Value, padded: Vec<i64>, wide: Vec<i64>, to: Vec<i64> },
}

impl Operand {
    fn value(&self) -> Value {
        match self {
            Operand::Source(v, _) | Operand::Reshaped(v, _) | Operand::Broadcast { v, .. } => *v,
        }
    }

    fn shape(&self) -> &[i64] {
        match self {
            Operand::Source(_, s) | Operand::Reshaped(_, s) | Operand::Broadcast { to: s, .. } => s,
        }
    }

    fn build(&self, rw: &mut Rewriter, anchor: Op) -> Option<Value> {
        match self {
            Operand::Source(v, _) => Some(*v),
            Operand::Reshaped(v, to) => reshape(rw, anchor, *v, to),
            Operand::Broadcast { v, padded, wide, to } => {
                let aligned = reshape(rw, anchor, *v, padded)?;
                let wide = if padded == wide {
                    aligned
                } else {
                    let attrs = AttrDict::new().with("shape", Attribute::i64_list(wide));
                    build(rw, anchor, &ops::BROADCAST_TO, &[aligned], attrs)?
                };
                reshape(rw, anchor, wide, to)
            }
        }
    }
}

/// How operand `v` of an elementwise op with result shape `r`, reshaped from `s` with
/// `groups`, becomes an operand of the same op on `s`; `None` if it cannot.
fn plan_operand(
    rw: &Rewriter,
    v: Value,
    r: &[i64],
    s: &[i64],
    groups: &[(Range<usize>, Range<usize>)],
) -> Option<Operand> {
    let vs = shape(rw, v)?;
    let numel = |s: &[i64]| s.iter().product::<i64>();
    if vs == r {
        let x = rw.operand(rw.defining_op(v)?, 0);
        return Some(Operand::Source(x, s.to_vec()));
    }
    if numel(&vs) == 1 {
        // A scalar-like operand must not add dimensions to the result.
        let to = if vs.len() > s.len() { vec![1; s.len()] } else { vs };
        return Some(Operand::Reshaped(v, to));
    }
    // Align to the result's rank (broadcasting matches trailing dimensions).
    let pad = r.len().checked_sub(vs.len())?;
    let padded: Vec<i64> = std::iter::repeat_n(1, pad).chain(vs.iter().copied()).collect();
    if padded.iter().zip(r).any(|(&a, &b)| a != 1 && a != b) {
        return None;
    }
    let mut wide = vec![1; r.len()];
    let mut to = vec![1; s.len()];
    for (sg, rg) in groups {
        if rg.clone().any(|d| padded[d] != 1) {
            rg.clone().for_each(|d| wide[d] = r[d]);
            sg.clone().for_each(|d| to[d] = s[d]);
        }
    }
    // Broadcasting within groups materializes a tensor: only a small one.
    if padded != wide && numel(&wide) * 8 > numel(r) {
        return None;
    }
    Some(Operand::Broadcast { v, padded, wide, to })
}

fn reduce_of_reduce(rw: &mut Rewriter, op: Op) -> bool {
    try_reduce_of_reduce(rw, op).is_some()
}

fn try_reduce_of_reduce(rw: &mut Rewriter, op: Op) -> Option<()> {
    let def = rw.def(op);
    let y = rw.operand(op, 0);
    let inner = defined_by(rw, y, def)?;
    if !is_reduction(rw, op) || !keeps_dims(rw, op) || !keeps_dims(rw, inner) || rw.uses(y).len() != 1 {
        return None;
    }
    let rank = shape(rw, y)?.len();
    let mut all = axes(rw, inner, rank)?;
    all.extend(axes(rw, op, rank)?);
    all.sort_unstable();
    all.dedup();
    let x = rw.operand(inner, 0);
    let merged = reduce(rw, op, def, x, &all)?;
    rw.replace_op(op, &[merged]);
    Some(())
}

fn reduce_of_reshape(rw: &mut Rewriter, op: Op) -> bool {
    try_reduce_of_reshape(rw, op).is_some()
}

fn try_reduce_of_reshape(rw: &mut Rewriter, op: Op) -> Option<()> {
    if !is_reduction(rw, op) || !keeps_dims(rw, op) {
        return None;
    }
    let def = rw.def(op);
    let y = rw.operand(op, 0);
    let x = rw.operand(defined_by(rw, y, &ops::RESHAPE)?, 0);
    let (s, r) = (shape(rw, x)?, shape(rw, y)?);
    let a = axes(rw, op, r.len())?;
    let groups = reshape_groups(&s, &r)?;
    let (mut on_x, mut rest) = (Vec::new(), Vec::new());
    let mut reduced_shape = r.clone();
    for (sg, rg) in &groups {
        let reduced: Vec<usize> = rg.clone().filter(|d| a.contains(d)).collect();
        if reduced.len() == rg.len() && !reduced.is_empty() {
            on_x.extend(sg.clone());
            rg.clone().for_each(|d| reduced_shape[d] = 1);
        } else {
            rest.extend(reduced);
        }
    }
    if on_x.is_empty() {
        return None;
    }
    let xr = reduce(rw, op, def, x, &on_x)?;
    let yr = reshape(rw, op, xr, &reduced_shape)?;
    let out = if rest.is_empty() { yr } else { reduce(rw, op, def, yr, &rest)? };
    rw.replace_op(op, &[out]);
    Some(())
}

/// Largest reshape (in elements) `reshape-hoist` moves above elementwise ops.
pub const HOIST_MAX_ELEMENTS: usize = 1 << 16;
/// Most values of the cone `reshape-hoist` rewrites, and how deep it looks.
const HOIST_MAX_VALUES: usize = 64;
const HOIST_MAX_DEPTH: usize = 16;

fn reshape_hoist(rw: &mut Rewriter, op: Op) -> bool {
    try_reshape_hoist(rw, op).is_some()
}

fn try_reshape_hoist(rw: &mut Rewriter, op: Op) -> Option<()> {
    let x = rw.operand(op, 0);
    let result = rw.result(op, 0);
    let (from, to) = (shape(rw, x)?, shape(rw, result)?);
    let top = rw.defining_op(x)?;
    if from == to || to.iter().product::<i64>() as usize > HOIST_MAX_ELEMENTS {
        return None;
    }
    let groups = reshape_groups(&from, &to)?;
    let mut plan = HoistPlan { from: &from, to: &to, groups: &groups, steps: Vec::new(), planned: BTreeMap::new() };
    let step = plan.copy(rw, top, x, to.clone(), HOIST_MAX_DEPTH)?;
    plan.steps.push(step);
    if plan.type_of(rw, plan.steps.len() - 1)? != *rw.value_type(result) {
        return None;
    }
    // Everything is checked: build the cone, operands first.
    let mut built: Vec<Value> = Vec::with_capacity(plan.steps.len());
    for step in &plan.steps {
        let v = match step {
            Hoisted::Existing(v) => *v,
            Hoisted::Constant(d) => {
                let mut state = OperationState::new(&ops::CONSTANT, rw.loc(op).clone());
                state.attrs.set("value", Attribute::Dense(d.clone()));
                state.result_types.push(Type::from_tensor(d.ty().clone()));
                let c = rw.create_before(op, state);
                rw.result(c, 0)
            }
            Hoisted::Copy { op: original, operands, ty } => {
                let mut state = OperationState::new(rw.def(*original), rw.loc(*original).clone());
                state.operands = operands.iter().map(|&i| built[i]).collect();
                state.attrs = rw.attrs(*original).clone();
                state.result_types = vec![ty.clone()];
                let e = rw.create_before(op, state);
                rw.result(e, 0)
            }
        };
        built.push(v);
    }
    rw.replace_op(op, &[*built.last()?]);
    Some(())
}

/// One value of the cone `reshape-hoist` rewrites, in its shape after the reshape.
enum Hoisted {
    /// A value that already has it: a scalar-like value (broadcasting makes its shape
    /// irrelevant), a constant of that shape, or the source of a reshape that cancels.
    Existing(Value),
    /// A constant's elements in that shape.
    Constant(DenseElements),
    /// A copy of the elementwise `op` on the values planned at `operands`.
    Copy { op: Op, operands: Vec<usize>, ty: Type },
}

/// The cone of `reshape-hoist`, planned operands first, before anything is built.
struct HoistPlan<'a> {
    from: &'a [i64],
    to: &'a [i64],
    groups: &'a [(Range<usize>, Range<usize>)],
    steps: Vec<Hoisted>,
    /// Where each value of the cone is planned (a value used twice is mapped once).
    planned: BTreeMap<Value, usize>,
}

impl HoistPlan<'_> {
    fn type_of(&self, rw: &Rewriter, i: usize) -> Option<Type> {
        match &self.steps[i] {
            Hoisted::Existing(v) => Some(rw.value_type(*v).clone()),
            Hoisted::Constant(d) => Some(Type::from_tensor(d.ty().clone())),
            Hoisted::Copy { ty, .. } => Some(ty.clone()),
        }
    }

    /// Plans `v` of the cone; returns its index in `steps`.
    fn value(&mut self, rw: &Rewriter, v: Value, depth: usize) -> Option<usize> {
        if let Some(&i) = self.planned.get(&v) {
            return Some(i);
        }
        let vs = shape(rw, v)?;
        let step = if vs.iter().product::<i64>() == 1 && vs.len() <= self.to.len() {
            Hoisted::Existing(v)
        } else {
            let mapped = map_through_reshape(&vs, self.from, self.to, self.groups)?;
            match self.leaf(rw, v, &vs, &mapped) {
                Some(leaf) => leaf,
                None => self.copy(rw, rw.defining_op(v)?, v, mapped, depth)?,
            }
        };
        self.steps.push(step);
        self.planned.insert(v, self.steps.len() - 1);
        Some(self.steps.len() - 1)
    }

    /// A constant (reshaped) or a reshape from the mapped shape (cancelled).
    fn leaf(&self, rw: &Rewriter, v: Value, vs: &[i64], mapped: &[i64]) -> Option<Hoisted> {
        if let Some(d) = constant_value(rw, v) {
            if vs == mapped {
                return Some(Hoisted::Existing(v));
            }
            let ty = TensorType::new(mapped.to_vec(), d.elem()).ok()?;
            return d.reshaped(ty).map(Hoisted::Constant);
        }
        let source = rw.operand(defined_by(rw, v, &ops::RESHAPE)?, 0);
        (shape(rw, source).as_deref() == Some(mapped)).then_some(Hoisted::Existing(source))
    }

    /// Plans a copy of the elementwise op `d` (whose result is `v`) producing `mapped`.
    fn copy(&mut self, rw: &Rewriter, d: Op, v: Value, mapped: Vec<i64>, depth: usize) -> Option<Hoisted> {
        if depth == 0 || self.steps.len() >= HOIST_MAX_VALUES {
            return None;
        }
        if !rw.has_trait(d, Traits::ELEMENTWISE) || rw.results(d).len() != 1 || !rw.regions(d).is_empty() {
            return None;
        }
        let operands: Vec<usize> =
            rw.operands(d).to_vec().into_iter().map(|o| self.value(rw, o, depth - 1)).collect::<Option<_>>()?;
        let ty = Type::tensor(mapped.clone(), rw.value_type(v).as_tensor()?.elem()).ok()?;
        let types: Vec<Type> = operands.iter().map(|&i| self.type_of(rw, i)).collect::<Option<_>>()?;
        let def = rw.def(d);
        // (Ops without shape inference, like cast, keep their operand's shape.)
        let fits = match def.infer {
            Some(_) => def.infer_types(&types, rw.attrs(d)).ok()? == [ty.clone()],
            None => types.iter().all(|t| t.as_tensor().map(|t| t.shape()) == Some(&mapped[..])),
        };
        fits.then_some(Hoisted::Copy { op: d, operands, ty })
    }
}

#[cfg(test)]
mod tests {
    use super::{map_through_reshape, reshape_groups};

    #[test]
    fn groups_of_a_group_norm_view() {
        // [1, 128, 56, 56] as [1, 32, 4, 3136]: the 1s on their own, the channels split,
        // the pixels merged.
        let g = reshape_groups(&[1, 128, 56, 56], &[1, 32, 4, 3136]).unwrap();
        assert_eq!(g, vec![(0..1, 0..0), (1..1, 0..1), (1..2, 1..3), (2..4, 3..4)]);
        assert_eq!(reshape_groups(&[2, 3], &[3, 2]), Some(vec![(0..2, 0..2)]));
        assert_eq!(reshape_groups(&[6], &[4]), None);
        assert_eq!(reshape_groups(&[0, 2], &[2, 0]), None);
    }

    #[test]
    fn operands_through_a_group_norm_view() {
        // [1, 32, 4, 1] -> [1, 32, 1, 1, 4] (groups to NCHW4c blocks): a per-group value
        // gets 1s on the lanes, a per-channel one the lanes, a scalar-like one only 1s.
        let (from, to) = ([1, 32, 4, 1], [1, 32, 1, 1, 4]);
        let g = reshape_groups(&from, &to).unwrap();
        assert_eq!(map_through_reshape(&[1, 32, 1, 1], &from, &to, &g), Some(vec![1, 32, 1, 1, 1]));
        assert_eq!(map_through_reshape(&[32, 4, 1], &from, &to, &g), Some(vec![1, 32, 1, 1, 4]));
        assert_eq!(map_through_reshape(&[1], &from, &to, &g), Some(vec![1, 1, 1, 1, 1]));
        // [32, 4] merged into 128: a value along the 32 only has no shape there.
        let (from, to) = ([1, 32, 4, 1], [1, 128, 1, 1]);
        let g = reshape_groups(&from, &to).unwrap();
        assert_eq!(map_through_reshape(&[1, 32, 1, 1], &from, &to, &g), None);
        assert_eq!(map_through_reshape(&[1, 32, 4, 1, 1], &from, &to, &g), None);
    }
}
