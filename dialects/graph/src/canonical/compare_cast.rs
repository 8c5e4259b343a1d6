//! Comparisons through a widening float cast: `compare(cast(x), c)` -> `compare(x, c')`
//! (`graph.equal`, `graph.greater`, `graph.less`) when the cast widens `x`'s float type
//! (f32 to f64: exact and order-preserving, NaN stays NaN) and every element of the
//! constant `c` has the same value in `x`'s type (`c'`), or when both operands are such
//! casts of one type. torch-mlir tests a masked softmax's scores for -inf in f64; the
//! comparison then runs on the f32 scores, in vectors twice as wide, and the f64 copy of
//! the scores disappears.
//!
//! - `compare-through-cast`.

use tcc_ir::{Attribute, DenseElements, Op, OperationState, Pattern, Rewriter, Scalar, ScalarType, Type, Value};

use super::constant_value;
use crate::ops;

pub static COMPARE_THROUGH_CAST: Pattern = Pattern { name: "compare-through-cast", apply: compare_through_cast };

/// `x` when `v` is a cast of `x` to a wider float type.
fn widened(rw: &Rewriter, v: Value) -> Option<Value> {
    let d = rw.defining_op(v).filter(|&d| rw.is(d, &ops::CAST))?;
    let x = rw.operand(d, 0);
    let (from, to) = (rw.value_type(x).elem()?, rw.value_type(v).elem()?);
    // Not from f16, which is only stored: its comparisons run on the widened values.
    (from == ScalarType::F32 && to == ScalarType::F64).then_some(x)
}

/// The constant `c` with the same values in element type `elem`, if each has one there.
fn narrowed(rw: &Rewriter, c: Value, elem: ScalarType) -> Option<DenseElements> {
    let d = constant_value(rw, c)?;
    let ty = tcc_ir::TensorType::new(d.ty().shape().to_vec(), elem).ok()?;
    let exact = |x: f64| x.is_nan() || (if elem == ScalarType::F32 { x as f32 as f64 } else { x }) == x;
    if elem != ScalarType::F32 && elem != ScalarType::F64 {
        return None;
    }
    if d.all_equal() {
        let x = d.get(0).as_f64();
        return exact(x).then(|| DenseElements::splat(ty, Scalar::Float(x)));
    }
    let values: Vec<f64> = d.to_f64s();
    if !values.iter().all(|&x| exact(x)) {
        return None;
    }
    let scalars: Vec<Scalar> = values.into_iter().map(Scalar::Float).collect();
    DenseElements::from_scalars(ty, &scalars).ok()
}

fn compare_through_cast(rw: &mut Rewriter, op: Op) -> bool {
    try_compare_through_cast(rw, op).is_some()
}

fn try_compare_through_cast(rw: &mut Rewriter, op: Op) -> Option<()> {
    let (a, b) = (rw.operand(op, 0), rw.operand(op, 1));
    let (xa, xb) = (widened(rw, a), widened(rw, b));
    let (na, nb) = match (xa, xb) {
        (Some(x), Some(y)) if rw.value_type(x).elem() == rw.value_type(y).elem() => (x, y),
        (Some(x), None) => {
            let c = narrowed(rw, b, rw.value_type(x).elem()?)?;
            (x, constant(rw, op, c))
        }
        (None, Some(y)) => {
            let c = narrowed(rw, a, rw.value_type(y).elem()?)?;
            (constant(rw, op, c), y)
        }
        _ => return None,
    };
    rw.set_operand(op, 0, na);
    rw.set_operand(op, 1, nb);
    Some(())
}

fn constant(rw: &mut Rewriter, anchor: Op, value: DenseElements) -> Value {
    let mut state = OperationState::new(&ops::CONSTANT, rw.loc(anchor).clone());
    state.result_types.push(Type::from_tensor(value.ty().clone()));
    state.attrs.set("value", Attribute::Dense(value));
    let c = rw.create_before(anchor, state);
    rw.result(c, 0)
}
