//! The `expand-half` pass: `loop.cast` between a 16-bit float (f16, bf16) and f32 (on
//! scalars and vectors, after vectorization, which treats them as it treats f32 <-> f64
//! conversions) becomes integer arithmetic on the values' bits
//! ([`tcc_ir::scalar::half`]), so every backend computes exactly the same values,
//! Cranelift included (it has no conversion instruction for either). Below this pass a
//! 16-bit float is only loaded, stored or reinterpreted as i16; backends hold it as
//! 16-bit integers.

use tcc_dialect_loop::{self as lp, LoopOp};
use tcc_ir::builtin::func_entry;
use tcc_ir::scalar::half;
use tcc_ir::{Diagnostics, Module, Op, Pass, PassInfo, ScalarType};

use crate::builder::Builder;

pub static EXPAND_HALF: PassInfo = PassInfo {
    name: "expand-half",
    summary: "Expand the f16/bf16 <-> f32 conversions into integer loop arithmetic",
    options: &[],
    create: |_| Ok(Box::new(ExpandHalf)),
};

pub struct ExpandHalf;

impl Pass for ExpandHalf {
    fn name(&self) -> &'static str {
        "expand-half"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        expand_half(m);
        Ok(())
    }
}

/// Whether `op` is a `loop.cast` from element type `from` to `to`.
fn is_cast(m: &Module, op: Op, from: ScalarType, to: ScalarType) -> bool {
    lp::kind_of(m, op) == Some(LoopOp::Cast)
        && lp::elem_of(m.value_type(m.operand(op, 0))) == Some(from)
        && lp::elem_of(m.value_type(m.result(op, 0))) == Some(to)
}

/// Expands every f16/bf16 <-> f32 conversion of `m`. An f32 value rounded to a 16-bit
/// float and widened again (a 16-bit op's result inside a fusion group) is rounded in
/// f32 lanes instead ([`half::round_in_f32`]); the narrowing stays only for its other
/// uses (a store).
pub fn expand_half(m: &mut Module) {
    for func in m.funcs() {
        let Some(entry) = func_entry(m, func) else { continue };
        for ty in [ScalarType::F16, ScalarType::BF16] {
            let narrowings: Vec<Op> =
                m.walk(func).into_iter().filter(|&op| is_cast(m, op, ScalarType::F32, ty)).collect();
            for narrow in narrowings {
                let h = m.result(narrow, 0);
                let widenings: Vec<Op> =
                    m.uses(h).iter().map(|u| u.op).filter(|&u| is_cast(m, u, ty, ScalarType::F32)).collect();
                for widen in widenings {
                    let x = m.operand(narrow, 0);
                    let mut b = Builder::before(m, widen, entry);
                    let r = half::round_in_f32(&mut b, x, ty);
                    m.replace_op(widen, &[r]);
                }
                if !m.has_uses(h) {
                    m.erase_op(narrow);
                }
            }
            let casts: Vec<Op> = m
                .walk(func)
                .into_iter()
                .filter(|&op| is_cast(m, op, ty, ScalarType::F32) || is_cast(m, op, ScalarType::F32, ty))
                .collect();
            for op in casts {
                let x = m.operand(op, 0);
                let widening = lp::elem_of(m.value_type(x)) == Some(ty);
                let mut b = Builder::before(m, op, entry);
                let r = if widening { half::widen_to_f32(&mut b, x, ty) } else { half::narrow_from_f32(&mut b, x, ty) };
                m.replace_op(op, &[r]);
            }
        }
    }
}
