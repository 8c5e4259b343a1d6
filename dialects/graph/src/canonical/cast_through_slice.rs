//! A cast of a slice as a slice of a cast, when the slice's operand is cast whole to the
//! same type anyway: `cast(slice(x))` -> `slice(cast(x))` when another user of `x` is
//! `cast(x)` with the same result type (the new cast is that one once CSE runs, or
//! `narrow-outputs` merges every cast of a kernel's result). Casting commutes with moving
//! elements, so the values are the same; what changes is that the slice moves the
//! narrower values and no cast runs on the sliced part. Under the bf16 policy this is
//! ResNet's stage boundaries: the last block's result feeds the next stage as bf16 and,
//! cropped and strided for the downsampling convolution, through a slice in f32, a cast
//! and a strided slice; after it, one strided slice of the bf16 result (`slice-of-slice`
//! composes the two), and the block's result is read only as bf16, so the kernel stores
//! it rounded.
//!
//! - `cast-through-slice`.

use tcc_ir::{Op, OperationState, Pattern, Rewriter, TensorType, Type};

use crate::ops;

pub static CAST_THROUGH_SLICE: Pattern = Pattern { name: "cast-through-slice", apply: cast_through_slice };

fn cast_through_slice(rw: &mut Rewriter, op: Op) -> bool {
    let Some(slice) = rw.defining_op(rw.operand(op, 0)).filter(|&d| rw.is(d, &ops::SLICE)) else { return false };
    let x = rw.operand(slice, 0);
    let (Some(x_ty), Some(to)) = (rw.value_type(x).as_tensor(), rw.value_type(rw.result(op, 0)).elem()) else {
        return false;
    };
    let Ok(whole) = TensorType::with_encoding(x_ty.shape().to_vec(), to, x_ty.encoding().cloned()) else {
        return false;
    };
    let whole_ty = Type::from_tensor(whole);
    let cast_whole = |u: Op| rw.is(u, &ops::CAST) && *rw.value_type(rw.result(u, 0)) == whole_ty;
    if !rw.uses(x).iter().any(|u| cast_whole(u.op)) {
        return false;
    }
    let mut cast = OperationState::new(&ops::CAST, rw.loc(op).clone());
    cast.operands = vec![x];
    cast.result_types = vec![whole_ty];
    let cast = rw.create_before(op, cast);
    let mut moved = OperationState::new(&ops::SLICE, rw.loc(slice).clone());
    moved.operands = vec![rw.result(cast, 0)];
    moved.attrs = rw.attrs(slice).clone();
    moved.result_types = vec![rw.value_type(rw.result(op, 0)).clone()];
    let moved = rw.create_before(op, moved);
    let r = rw.result(moved, 0);
    rw.replace_op(op, &[r]);
    true
}
