//! The `reduce-precision` pass: the numerics of the bf16 precision policy (issue 29).
//! The input and the weights of every f32 convolution and matmul are rounded to bf16 (a
//! cast to bf16 and back, to nearest even), so that each product is one of two bf16
//! values, while the sums, the biases and every other op stay in f32: what a kernel
//! computes with bf16 dot instructions (`vdpbf16ps`: exact products of bf16 pairs
//! accumulated in f32). Constant weights fold into f32 constants of bf16 values
//! (canonicalization). The interpreter runs the result as it runs any graph, so the
//! policy's numerics have their oracle before its kernels exist.
//!
//! Not in the default pipeline yet: the bf16 kernels that will compute these ops (the
//! dot tile, `tcc_ukernels::dot`) are not called by generated code, so the rounding
//! would only cost time. `tcc-opt --pass-pipeline=reduce-precision` applies it, to
//! measure the policy's error.

use tcc_dialect_graph::ops as g;
use tcc_ir::builtin::func_entry;
use tcc_ir::{Diagnostics, Module, Op, Pass, PassInfo, ScalarType, Value};

use crate::widen_half::{cast_before, elem};

pub static REDUCE_PRECISION: PassInfo = PassInfo {
    name: "reduce-precision",
    summary: "Round the inputs and weights of f32 convolutions and matmuls to bf16 (the bf16 policy's numerics)",
    options: &[],
    create: |_| Ok(Box::new(ReducePrecision)),
};

pub struct ReducePrecision;

impl Pass for ReducePrecision {
    fn name(&self) -> &'static str {
        "reduce-precision"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        for func in m.funcs() {
            if func_entry(m, func).is_none() {
                continue;
            }
            let ops: Vec<Op> =
                m.walk(func).into_iter().filter(|&op| m.is(op, &g::CONV2D) || m.is(op, &g::MATMUL)).collect();
            for op in ops {
                // The input and the weights (a convolution's bias stays f32).
                for i in 0..2 {
                    let v = m.operand(op, i);
                    if elem(m, v) == Some(ScalarType::F32) && !is_rounded(m, v) {
                        let rounded = round_to_bf16(m, op, v).map_err(|e| Diagnostics::error(m.loc(op).clone(), e))?;
                        m.set_operand(op, i, rounded);
                    }
                }
            }
        }
        Ok(())
    }
}

/// Whether `v` is already a widened bf16 value (this pass ran, or the model rounds).
fn is_rounded(m: &Module, v: Value) -> bool {
    m.defining_op(v).is_some_and(|d| m.is(d, &g::CAST) && elem(m, m.operand(d, 0)) == Some(ScalarType::BF16))
}

/// `v` (f32) cast to bf16 and back, before `anchor`.
fn round_to_bf16(m: &mut Module, anchor: Op, v: Value) -> Result<Value, String> {
    let narrow = cast_before(m, anchor, v, ScalarType::BF16)?;
    cast_before(m, anchor, narrow, ScalarType::F32)
}
