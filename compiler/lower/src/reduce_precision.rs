//! The `reduce-precision` pass: the numerics of the bf16 precision policy (issue 29).
//! The input and the weights of every f32 matmul and convolution (but depthwise ones
//! and those reading fewer than 16 channels, whose kernels stay f32: see [`rounds`])
//! are rounded to bf16 (a cast to bf16 and back, to nearest even), so that each product
//! is one of two bf16 values, while the sums, the biases and every other op stay in
//! f32: what a kernel computes with bf16 dot instructions (`vdpbf16ps`: exact products
//! of bf16 pairs accumulated in f32). Constant weights fold into f32 constants of bf16 values
//! (canonicalization). The interpreter runs the result as it runs any graph, so the
//! policy's numerics have their oracle before its kernels exist.
//!
//! The pipeline runs it under [`Precision::Bf16`] (`--precision bf16`), after the
//! rewrite search and before kernel planning, which turns rounded operands into bf16
//! kernels where the target has them (`block-layouts`: packed bf16 weights, the bf16
//! dot microkernel); elsewhere the rounded f32 graph runs as it is, with the same
//! numerics. `tcc-opt --pass-pipeline=reduce-precision` applies it alone.

use tcc_dialect_graph::config::{ConvClass, ConvGeometry};
use tcc_dialect_graph::ops as g;
use tcc_ir::builtin::func_entry;
use tcc_ir::{Diagnostics, Module, Op, Pass, PassInfo, ScalarType, Value};

use crate::widen_half::{cast_before, elem};

/// The precision policy of a compile: what convolutions and matmuls compute in.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Precision {
    /// Everything in the model's own types: exact.
    #[default]
    Fp32,
    /// Convolution and matmul inputs and weights rounded to bf16, sums in f32 (this
    /// pass); every other op in f32.
    Bf16,
}

impl Precision {
    pub const NAMES: &'static str = "fp32 or bf16";

    pub fn name(self) -> &'static str {
        match self {
            Precision::Fp32 => "fp32",
            Precision::Bf16 => "bf16",
        }
    }
}

impl std::str::FromStr for Precision {
    type Err = String;
    fn from_str(text: &str) -> Result<Precision, String> {
        match text {
            "fp32" | "f32" => Ok(Precision::Fp32),
            "bf16" => Ok(Precision::Bf16),
            other => Err(format!("unknown precision '{other}' (expected {})", Precision::NAMES)),
        }
    }
}

impl std::fmt::Display for Precision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

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
            let ops: Vec<Op> = m.walk(func).into_iter().filter(|&op| rounds(m, op)).collect();
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

/// Whether the policy rounds `op`'s operands: matmuls, and convolutions that are not
/// depthwise and read at least [`PAIRED_CHANNELS`] input channels per output channel,
/// or are first layers (ungrouped, at most `BF16_STEM_CHANNELS` input channels: an
/// image's colours, which the dot kernels read padded to two pairs): the ones bf16 dot
/// kernels compute. Depthwise convolutions and grouped ones with narrow groups stay f32
/// and exact: their kernels are f32 on every target, so rounding their operands would
/// only cost a conversion.
fn rounds(m: &Module, op: Op) -> bool {
    if m.is(op, &g::MATMUL) {
        return true;
    }
    m.is(op, &g::CONV2D)
        && ConvGeometry::of(m, op).is_some_and(|c| {
            c.class() != ConvClass::Depthwise
                && (c.per_group >= PAIRED_CHANNELS || (c.groups == 1 && c.per_group <= tcc_target::BF16_STEM_CHANNELS))
        })
}

/// Input channels per output channel from which a convolution's operands are rounded:
/// a vector block of them, which the bf16 dot kernels read in pairs.
pub const PAIRED_CHANNELS: i64 = tcc_target::BF16_DOT_LANES;

/// Whether `v` is already a widened bf16 value (this pass ran, or the model rounds).
fn is_rounded(m: &Module, v: Value) -> bool {
    m.defining_op(v).is_some_and(|d| m.is(d, &g::CAST) && elem(m, m.operand(d, 0)) == Some(ScalarType::BF16))
}

/// `v` (f32) cast to bf16 and back, before `anchor`.
fn round_to_bf16(m: &mut Module, anchor: Op, v: Value) -> Result<Value, String> {
    let narrow = cast_before(m, anchor, v, ScalarType::BF16)?;
    cast_before(m, anchor, narrow, ScalarType::F32)
}
