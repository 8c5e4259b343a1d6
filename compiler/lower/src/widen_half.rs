//! The `widen-half` pass: the 16-bit floats (`f16`, `bf16`) are storage types. Every
//! graph op that reads or produces them computes in f32 instead, between casts: its
//! 16-bit operands are widened (`graph.cast` to f32, exact) and its 16-bit results
//! rounded back (`graph.cast` to their type, round to nearest even), which is what the
//! interpreter defines such an op to compute. Casts between a 16-bit float and a type
//! other than f32 go through f32 (f64 -> f32 -> f16 rounds twice, as the interpreter
//! does). Constants stay; the casts of their users fold. Afterwards 16-bit float
//! tensors are only function arguments and results, constants, and the operands or
//! results of their casts to and from f32, which code generation converts with integer
//! arithmetic (`expand-half`), and the bf16 operands of kernels that compute on them
//! (a `matmul_packed` or `conv2d_nchwc` of bf16 pairs, with its f32 result: the bf16
//! dot kernels, whose epilogues may store bf16).

use tcc_dialect_graph::ops as g;
use tcc_dialect_graph::ops::kernel::takes_bf16_pairs;
use tcc_ir::builtin::func_entry;
use tcc_ir::{Diagnostics, Module, Op, OperationState, Pass, PassInfo, ScalarType, Type, Value};

pub static WIDEN_HALF: PassInfo = PassInfo {
    name: "widen-half",
    summary: "Compute every f16 and bf16 graph op in f32 between casts (they are storage types)",
    options: &[],
    create: |_| Ok(Box::new(WidenHalf)),
};

pub struct WidenHalf;

impl Pass for WidenHalf {
    fn name(&self) -> &'static str {
        "widen-half"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        widen_half(m)
    }
}

fn is_half(t: &Type) -> bool {
    t.as_tensor().is_some_and(|t| t.elem().is_half())
}

/// `t` (a tensor type) with element type `elem`; an error when the tensor would not fit
/// in memory (a 16-bit float tensor at the size limit, widened).
fn with_elem(t: &Type, elem: ScalarType) -> Result<Type, String> {
    let t = t.as_tensor().ok_or("a tensor type")?;
    Type::tensor(t.shape().to_vec(), elem).map_err(|e| format!("{t} computed in {elem}: {e}"))
}

/// A cast of `v` to element type `elem`, placed before `anchor`.
pub(crate) fn cast_before(m: &mut Module, anchor: Op, v: Value, elem: ScalarType) -> Result<Value, String> {
    let mut state = OperationState::new(&g::CAST, m.loc(anchor).clone());
    state.operands.push(v);
    state.result_types.push(with_elem(m.value_type(v), elem)?);
    let cast = m.create_op(state);
    m.insert_op_before(anchor, cast);
    Ok(m.result(cast, 0))
}

/// Rounds result `r` of `op` (retyped to f32 by the caller) back to `half` for its
/// users.
fn round_result(m: &mut Module, op: Op, r: Value, half: ScalarType) -> Result<(), String> {
    let mut state = OperationState::new(&g::CAST, m.loc(op).clone());
    state.operands.push(r);
    state.result_types.push(with_elem(m.value_type(r), half)?);
    let cast = m.create_op(state);
    m.insert_op_after(op, cast);
    let rounded = m.result(cast, 0);
    m.replace_all_uses(r, rounded);
    m.set_operand(cast, 0, r);
    Ok(())
}

/// Rewrites every function of `m` so that no graph op but a cast between a 16-bit float
/// and f32 (and constants) has 16-bit float operands or results.
pub fn widen_half(m: &mut Module) -> Result<(), Diagnostics> {
    for func in m.funcs() {
        if func_entry(m, func).is_none() {
            continue;
        }
        let ops: Vec<Op> = m.walk(func).into_iter().filter(|&op| m.name(op).starts_with("graph.")).collect();
        for op in ops {
            widen_op(m, op).map_err(|e| Diagnostics::error(m.loc(op).clone(), e))?;
        }
    }
    Ok(())
}

/// [`widen_half`] on one op.
fn widen_op(m: &mut Module, op: Op) -> Result<(), String> {
    // (A dot kernel's epilogue may end by narrowing to bf16: its contract too.)
    if m.is(op, &g::CONSTANT) || takes_bf16_pairs(m, op) || m.parent_op(op).is_some_and(|p| takes_bf16_pairs(m, p)) {
        return Ok(());
    }
    if m.is(op, &g::CAST) {
        let x = m.operand(op, 0);
        let (from, to) = (elem(m, x), elem(m, m.result(op, 0)));
        let half = from.is_some_and(ScalarType::is_half) || to.is_some_and(ScalarType::is_half);
        let via_f32 = from != Some(ScalarType::F32) && to != Some(ScalarType::F32) && from != to;
        if half && via_f32 {
            let wide = cast_before(m, op, x, ScalarType::F32)?;
            m.set_operand(op, 0, wide);
        }
        return Ok(());
    }
    for i in 0..m.operands(op).len() {
        let x = m.operand(op, i);
        if is_half(m.value_type(x)) {
            let wide = cast_before(m, op, x, ScalarType::F32)?;
            m.set_operand(op, i, wide);
        }
    }
    for r in m.results(op).to_vec() {
        if let Some(half) = elem(m, r).filter(|e| e.is_half()) {
            let wide = with_elem(m.value_type(r), ScalarType::F32)?;
            m.set_value_type(r, wide);
            round_result(m, op, r, half)?;
        }
    }
    Ok(())
}

pub(crate) fn elem(m: &Module, v: Value) -> Option<ScalarType> {
    m.value_type(v).as_tensor().map(|t| t.elem())
}
