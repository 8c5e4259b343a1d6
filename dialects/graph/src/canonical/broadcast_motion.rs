//! Explicit broadcasts move out of the way of reshapes and disappear into the implicit
//! broadcasting of elementwise ops. torch-mlir expands a group norm's per-group mean to
//! its channels with `broadcast_to` and a reshape; once layout blocking has made the
//! groups whole blocks of lanes, these two patterns leave the small per-group tensor as
//! a direct operand of the elementwise op on the activation.
//!
//! - `reshape-of-broadcast`: `reshape(broadcast_to(Z, O), T)` ->
//!   `broadcast_to(reshape(Z, T'), T)` when, on every group of dimensions the reshape
//!   maps onto each other ([`reshape_groups`]), `Z` (aligned to `O`'s rank) is 1 on the
//!   whole group or equal to `O` on the whole group; `T'` has `T`'s extents on the
//!   groups `Z` fills and 1 elsewhere (the broadcast is left out when `T' = T`).
//! - `broadcast-into-elementwise`: an operand `broadcast_to(Z)` of an elementwise op
//!   becomes `Z`, and a constant operand whose elements are all equal (torch-mlir's full
//!   tensor of zeros in a masked softmax) becomes that value in a tensor of 1s, when the
//!   op's inferred result type stays the same (the op broadcasts it itself): a kernel
//!   then reads one value instead of a tensor.

use tcc_ir::{AttrDict, Attribute, Op, OperationState, Pattern, Rewriter, Traits, Type, Value};

use super::reshape_sinking::{map_through_reshape, reshape_groups};
use super::{build, constant_value};
use crate::ops;

pub static RESHAPE_OF_BROADCAST: Pattern = Pattern { name: "reshape-of-broadcast", apply: reshape_of_broadcast };
pub static BROADCAST_INTO_ELEMENTWISE: Pattern =
    Pattern { name: "broadcast-into-elementwise", apply: broadcast_into_elementwise };

fn plain_shape(rw: &Rewriter, v: Value) -> Option<Vec<i64>> {
    rw.value_type(v).as_tensor().filter(|t| t.encoding().is_none()).map(|t| t.shape().to_vec())
}

fn broadcast_source(rw: &Rewriter, v: Value) -> Option<Value> {
    let d = rw.defining_op(v).filter(|&d| rw.is(d, &ops::BROADCAST_TO))?;
    Some(rw.operand(d, 0))
}

fn reshape_of_broadcast(rw: &mut Rewriter, op: Op) -> bool {
    try_reshape_of_broadcast(rw, op).is_some()
}

fn try_reshape_of_broadcast(rw: &mut Rewriter, op: Op) -> Option<()> {
    let wide = rw.operand(op, 0);
    let z = broadcast_source(rw, wide)?;
    let (zs, o, t) = (plain_shape(rw, z)?, plain_shape(rw, wide)?, plain_shape(rw, rw.result(op, 0))?);
    let groups = reshape_groups(&o, &t)?;
    let narrow = map_through_reshape(&zs, &o, &t, &groups)?;
    let reshaped = if narrow == zs {
        z
    } else {
        let attrs = AttrDict::new().with("shape", Attribute::i64_list(&narrow));
        build(rw, op, &ops::RESHAPE, &[z], attrs)?
    };
    let out = if narrow == t {
        reshaped
    } else {
        let attrs = AttrDict::new().with("shape", Attribute::i64_list(&t));
        build(rw, op, &ops::BROADCAST_TO, &[reshaped], attrs)?
    };
    rw.replace_op(op, &[out]);
    Some(())
}

fn broadcast_into_elementwise(rw: &mut Rewriter, op: Op) -> bool {
    // Unary ops (and cast, which has no shape inference) take their shape from the
    // operand: only ops that broadcast their operands against each other qualify.
    if !rw.has_trait(op, Traits::ELEMENTWISE) || rw.def(op).infer.is_none() || rw.operands(op).len() < 2 {
        return false;
    }
    let result_types: Vec<Type> = rw.results(op).iter().map(|&r| rw.value_type(r).clone()).collect();
    let mut types: Vec<Type> = rw.operands(op).iter().map(|&v| rw.value_type(v).clone()).collect();
    let mut changed = false;
    for i in 0..types.len() {
        let v = rw.operand(op, i);
        // The narrower operand: a broadcast's source, or a uniform constant's value.
        let (source, constant) = match (broadcast_source(rw, v), uniform_constant(rw, v)) {
            (Some(z), _) => (Some(z), None),
            (None, Some(c)) => (None, Some(c)),
            (None, None) => continue,
        };
        let narrow = match (&source, &constant) {
            (Some(z), _) => rw.value_type(*z).clone(),
            (_, Some(c)) => Type::from_tensor(c.ty().clone()),
            _ => continue,
        };
        let mut candidate = types.clone();
        candidate[i] = narrow.clone();
        if rw.def(op).infer_types(&candidate, rw.attrs(op)).ok().as_ref() != Some(&result_types) {
            continue;
        }
        let z = match (source, constant) {
            (Some(z), _) => z,
            (_, Some(c)) => {
                let mut state = OperationState::new(&ops::CONSTANT, rw.loc(op).clone());
                state.result_types.push(narrow);
                state.attrs.set("value", Attribute::Dense(c));
                let k = rw.create_before(op, state);
                rw.result(k, 0)
            }
            _ => continue,
        };
        rw.set_operand(op, i, z);
        types = candidate;
        changed = true;
    }
    changed
}

/// The value of constant `v` in a tensor of 1s of its rank, when all its elements are
/// equal and it has more than one.
fn uniform_constant(rw: &Rewriter, v: Value) -> Option<tcc_ir::DenseElements> {
    let d = constant_value(rw, v).filter(|d| d.numel() > 1 && d.all_equal())?;
    let ones = tcc_ir::TensorType::new(vec![1; d.ty().shape().len()], d.elem()).ok()?;
    Some(tcc_ir::DenseElements::splat(ones, d.get(0)))
}
