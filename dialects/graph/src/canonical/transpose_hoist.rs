//! `transpose-hoist`: moves a transpose above the elementwise op or slice that
//! produces its operand (and feeds only copies of that transpose), when every operand
//! of that producer is a transpose, a constant, or a single-use elementwise op over
//! such values (a few levels deep). The hoisted transposes then compose with the ones
//! above (`transpose-of-transpose`, often to the identity) or fold into the constants,
//! which is how the NCHW->NHWC->NCHW round trips exporters write around convs, pools
//! and the elementwise ops between them disappear.
//!
//! - `T(e(a, b))` -> `e(T(a), T(b))` for an elementwise `e` whose operands have the
//!   result's rank (operands with one element stay as they are);
//! - `T(slice(a))` -> `slice'(T(a))` with starts, sizes and steps permuted.

use tcc_ir::{AttrDict, Attribute, Op, OperationState, Pattern, Rewriter, Traits, Type, Value};

use super::{build, constant_value};
use crate::ops;

pub static TRANSPOSE_HOIST: Pattern = Pattern { name: "transpose-hoist", apply: transpose_hoist };

fn transpose_hoist(rw: &mut Rewriter, op: Op) -> bool {
    let y = rw.operand(op, 0);
    let Some(producer) = rw.defining_op(y) else { return false };
    let Some(perm) = rw.attr(op, "perm").and_then(|a| a.as_i64_list()) else { return false };
    // Every user must be this same transpose (copies CSE has not merged yet count).
    let users: Vec<Op> = rw.uses(y).iter().map(|u| u.op).collect();
    let same = |&u: &Op| rw.is(u, &ops::TRANSPOSE) && rw.attr(u, "perm") == rw.attr(op, "perm");
    if !users.iter().all(same) || rw.results(producer).len() != 1 {
        return false;
    }
    let hoisted = if rw.has_trait(producer, Traits::ELEMENTWISE) {
        hoist_over_elementwise(rw, op, producer, &perm)
    } else if rw.is(producer, &ops::SLICE) {
        hoist_over_slice(rw, producer, &perm)
    } else {
        None
    };
    let Some(r) = hoisted else { return false };
    // (The hoisted ops are created before the producer: every copy of the transpose,
    // the earliest included, comes after it.)
    for u in users {
        rw.replace_op(u, &[r]);
    }
    true
}

/// How many elementwise ops deep a transpose looks for the transposes and constants
/// that absorb it.
const MAX_DEPTH: usize = 4;

/// Whether a transpose of `v` makes progress when hoisted onto it: `v` is a constant
/// (the transpose folds), a transpose (they compose), or the only-used result of an
/// elementwise op whose operands are such values in turn (the transpose moves on).
fn absorbs_transpose(rw: &Rewriter, v: Value, rank: usize, depth: usize) -> bool {
    if constant_value(rw, v).is_some() || is_transpose(rw, v) {
        return true;
    }
    let Some(d) = rw.defining_op(v) else { return false };
    depth > 0
        && rw.has_trait(d, Traits::ELEMENTWISE)
        && rw.uses(v).len() == 1
        && rw.operands(d).iter().all(|&o| {
            let full_rank = rw.value_type(o).as_tensor().is_some_and(|t| t.rank() == rank);
            if full_rank { absorbs_transpose(rw, o, rank, depth - 1) } else { is_scalar_like(rw, o) }
        })
}

fn is_transpose(rw: &Rewriter, v: Value) -> bool {
    rw.defining_op(v).is_some_and(|d| rw.is(d, &ops::TRANSPOSE))
}

fn is_scalar_like(rw: &Rewriter, v: Value) -> bool {
    rw.value_type(v).as_tensor().is_some_and(|t| t.numel() == 1)
}

fn transpose(rw: &mut Rewriter, anchor: Op, x: Value, perm: &[i64]) -> Option<Value> {
    let mut a = AttrDict::new();
    a.set("perm", Attribute::i64_list(perm));
    build(rw, anchor, &ops::TRANSPOSE, &[x], a)
}

fn hoist_over_elementwise(rw: &mut Rewriter, op: Op, producer: Op, perm: &[i64]) -> Option<Value> {
    let rank = perm.len();
    let operands = rw.operands(producer).to_vec();
    let full_rank = |v: Value| rw.value_type(v).as_tensor().is_some_and(|t| t.rank() == rank);
    let mut any_transpose = false;
    for &v in &operands {
        if full_rank(v) {
            if !absorbs_transpose(rw, v, rank, MAX_DEPTH) {
                return None;
            }
            any_transpose |= constant_value(rw, v).is_none();
        } else if !is_scalar_like(rw, v) {
            return None;
        }
    }
    if !any_transpose {
        return None;
    }
    let mut new_operands = Vec::with_capacity(operands.len());
    for &v in &operands {
        let full_rank = rw.value_type(v).as_tensor().is_some_and(|t| t.rank() == rank);
        new_operands.push(if full_rank { transpose(rw, producer, v, perm)? } else { v });
    }
    // The result type is the transpose's (element type from the producer: casts and
    // comparisons change it).
    let result: Type = rw.value_type(rw.result(op, 0)).clone();
    let mut state = OperationState::new(rw.def(producer), rw.loc(producer).clone());
    state.operands = new_operands;
    state.attrs = rw.attrs(producer).clone();
    state.result_types = vec![result];
    let e = rw.create_before(producer, state);
    Some(rw.result(e, 0))
}

fn hoist_over_slice(rw: &mut Rewriter, slice: Op, perm: &[i64]) -> Option<Value> {
    let x = rw.operand(slice, 0);
    if !absorbs_transpose(rw, x, perm.len(), MAX_DEPTH) {
        return None;
    }
    let list = |name: &str| rw.attr(slice, name).and_then(|a| a.as_i64_list());
    let (Some(starts), Some(sizes)) = (list("starts"), list("sizes")) else { return None };
    let steps = list("steps");
    let permute = |v: &[i64]| perm.iter().map(|&p| v[p as usize]).collect::<Vec<i64>>();
    let tx = transpose(rw, slice, x, perm)?;
    let mut a = AttrDict::new();
    a.set("starts", Attribute::i64_list(&permute(&starts)));
    a.set("sizes", Attribute::i64_list(&permute(&sizes)));
    if let Some(steps) = steps {
        a.set("steps", Attribute::i64_list(&permute(&steps)));
    }
    build(rw, slice, &ops::SLICE, &[tx], a)
}
