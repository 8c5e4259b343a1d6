//! The `widen-half` pass: half precision (`f16`) is a storage type. Every graph op
//! that reads or produces f16 tensors computes in f32 instead, between casts: its f16
//! operands are widened (`graph.cast` to f32, exact) and its f16 results rounded back
//! (`graph.cast` to f16, round to nearest even), which is what the interpreter defines
//! an f16 op to compute. Casts between f16 and a type other than f32 go through f32
//! (f64 -> f32 -> f16 rounds twice, as the interpreter does). Constants stay; the
//! casts of their users fold. Afterwards f16 tensors are only function arguments and
//! results, constants, and the operands or results of f16 <-> f32 casts, which code
//! generation converts with integer arithmetic (`expand-half`).

use tcc_dialect_graph::ops as g;
use tcc_ir::builtin::func_entry;
use tcc_ir::{Diagnostics, Module, Op, OperationState, Pass, PassInfo, ScalarType, Type, Value};

pub static WIDEN_HALF: PassInfo = PassInfo {
    name: "widen-half",
    summary: "Compute every f16 graph op in f32 between casts (f16 is a storage type)",
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
    t.as_tensor().is_some_and(|t| t.elem() == ScalarType::F16)
}

/// `t` (a tensor type) with element type `elem`; an error when the tensor would not fit
/// in memory (an f16 tensor at the size limit, widened).
fn with_elem(t: &Type, elem: ScalarType) -> Result<Type, String> {
    let t = t.as_tensor().ok_or("a tensor type")?;
    Type::tensor(t.shape().to_vec(), elem).map_err(|e| format!("{t} computed in {elem}: {e}"))
}

/// A cast of `v` to element type `elem`, placed before `anchor`.
fn cast_before(m: &mut Module, anchor: Op, v: Value, elem: ScalarType) -> Result<Value, String> {
    let mut state = OperationState::new(&g::CAST, m.loc(anchor).clone());
    state.operands.push(v);
    state.result_types.push(with_elem(m.value_type(v), elem)?);
    let cast = m.create_op(state);
    m.insert_op_before(anchor, cast);
    Ok(m.result(cast, 0))
}

/// Rounds result `r` of `op` (retyped to f32 by the caller) back to f16 for its users.
fn round_result(m: &mut Module, op: Op, r: Value) -> Result<(), String> {
    let mut state = OperationState::new(&g::CAST, m.loc(op).clone());
    state.operands.push(r);
    state.result_types.push(with_elem(m.value_type(r), ScalarType::F16)?);
    let cast = m.create_op(state);
    m.insert_op_after(op, cast);
    let rounded = m.result(cast, 0);
    m.replace_all_uses(r, rounded);
    m.set_operand(cast, 0, r);
    Ok(())
}

/// Rewrites every function of `m` so that no graph op but a cast between f16 and f32
/// (and constants) has f16 operands or results.
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
    if m.is(op, &g::CONSTANT) {
        return Ok(());
    }
    if m.is(op, &g::CAST) {
        let x = m.operand(op, 0);
        let (from, to) = (elem(m, x), elem(m, m.result(op, 0)));
        let half = from == Some(ScalarType::F16) || to == Some(ScalarType::F16);
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
        if is_half(m.value_type(r)) {
            let wide = with_elem(m.value_type(r), ScalarType::F32)?;
            m.set_value_type(r, wide);
            round_result(m, op, r)?;
        }
    }
    Ok(())
}

fn elem(m: &Module, v: Value) -> Option<ScalarType> {
    m.value_type(v).as_tensor().map(|t| t.elem())
}
