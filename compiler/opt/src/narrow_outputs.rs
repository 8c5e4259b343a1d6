//! `narrow-outputs`: activations between bf16 kernels stored as bf16 (issue 29).
//!
//! Under the bf16 policy a convolution or matmul computed by the bf16 dot tile (a bf16
//! input and pair-packed weights, an f32 result) is often read only by a cast of its
//! result to bf16: the next such kernel's input. The cast then joins the kernel's
//! epilogue as its last step, so the kernel stores its result rounded (half the bytes
//! written, and no conversion kernel reading them again); the values are the same,
//! since the cast rounded them anyway. Only where the dot tile applies the whole
//! epilogue in one call per output tile: an epilogue of the steps the microkernel
//! applies ([`FusedEpilogue`]), no passes over input-channel blocks, and every column
//! of a row reading every kernel column, for which a padded convolution is configured
//! to get its padding as an explicit `graph.pad` (`materialize-padding` runs next).
//! Elsewhere the cast stays a kernel of its own.

use tcc_dialect_graph::config::{ConvConfig, KernelConfig};
use tcc_dialect_graph::epilogue::FusedEpilogue;
use tcc_dialect_graph::ops as g;
use tcc_dialect_graph::ops::kernel::takes_bf16_pairs;
use tcc_ir::builtin::func_entry;
use tcc_ir::{Diagnostics, Module, Op, Pass, PassInfo, ScalarType, Value};

use crate::epilogue_fusion::fuse;

pub static NARROW_OUTPUTS: PassInfo = PassInfo {
    name: "narrow-outputs",
    summary: "Store the results of bf16 dot kernels read only as bf16 rounded (their epilogues end with the cast)",
    options: &[],
    create: |_| Ok(Box::new(NarrowOutputs)),
};

pub struct NarrowOutputs;

impl Pass for NarrowOutputs {
    fn name(&self) -> &'static str {
        "narrow-outputs"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        for func in m.funcs() {
            let Some(entry) = func_entry(m, func) else { continue };
            let kernels: Vec<Op> = m.block_ops(entry).filter(|&op| is_dot_kernel(m, op)).collect();
            for op in kernels {
                let Some(cast) = narrowing_user(m, op) else { continue };
                if !stores_whole_tiles(m, op) {
                    continue;
                }
                if m.is(op, &g::CONV2D_NCHWC) {
                    let config = ConvConfig::of(m, op);
                    if crate::conv_pads(m, op).iter().any(|&p| p > 0) {
                        KernelConfig::Conv(ConvConfig { pad_input: Some(true), ..config }).set_on(m, op);
                    }
                }
                fuse(m, op, &[cast]);
            }
        }
        Ok(())
    }
}

/// A kernel the bf16 dot tile computes (bf16 operands, pair-packed weights), with its
/// f32 result not yet narrowed.
fn is_dot_kernel(m: &Module, op: Op) -> bool {
    takes_bf16_pairs(m, op) && elem(m, m.result(op, 0)) == Some(ScalarType::F32)
}

fn elem(m: &Module, v: Value) -> Option<ScalarType> {
    m.value_type(v).as_tensor().map(|t| t.elem())
}

/// The cast to bf16 that is the only use of `op`'s result.
fn narrowing_user(m: &Module, op: Op) -> Option<Op> {
    let [u] = m.uses(m.result(op, 0)) else { return None };
    (m.is(u.op, &g::CAST) && elem(m, m.result(u.op, 0)) == Some(ScalarType::BF16)).then_some(u.op)
}

/// Whether the dot tile computes each of `op`'s output tiles in one call with the whole
/// epilogue (what the templates check before storing bf16; elsewhere they fall back to
/// the scalar reference): the epilogue is one the microkernel applies, with a bias of one
/// value per output channel and a residual shaped as the result; a convolution makes no
/// passes over input-channel blocks, and its padding can move into a `graph.pad`.
fn stores_whole_tiles(m: &Module, op: Op) -> bool {
    let out = crate::shape(m, m.result(op, 0));
    let from = tcc_dialect_graph::semantics(m.def(op)).and_then(|s| s.epilogue_from).unwrap_or(2);
    let extra: Vec<Vec<i64>> = m.operands(op)[from..].iter().map(|&v| crate::shape(m, v)).collect();
    let is_conv = m.is(op, &g::CONV2D_NCHWC);
    let is_bias = |i: usize| {
        let s = &extra[i];
        if is_conv {
            s[..] == [1, out[1], 1, 1, out[4]]
        } else {
            s.last() == out.last() && s.iter().rev().skip(1).all(|&d| d == 1)
        }
    };
    let Some(fused) = FusedEpilogue::of(m, op, is_bias) else { return false };
    if fused.residual.is_some_and(|i| extra[i] != out) {
        return false;
    }
    if !is_conv {
        return true;
    }
    let input_blocks = crate::shape(m, m.operand(op, 1))[1];
    let config = ConvConfig::of(m, op);
    let pads = crate::conv_pads(m, op);
    config.chunk_ic.is_none_or(|chunk| chunk >= input_blocks)
        && (pads.iter().all(|&p| p == 0) || crate::paddable(m, op))
}
