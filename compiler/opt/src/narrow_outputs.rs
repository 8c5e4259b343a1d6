//! `narrow-outputs`: activations between bf16 kernels stored as bf16 (issue 29).
//!
//! Under the bf16 policy a convolution or matmul computed by the bf16 dot tile (a bf16
//! input and pair-packed weights, an f32 result) is often read only by casts of its
//! result to bf16 (the next such kernel's input) and as the residual operand of other
//! dot kernels (ResNet's and MobileNet's residual stream). A cast then joins the
//! kernel's epilogue as its last step, so the kernel stores its result rounded (half
//! the bytes written, and no conversion kernel reading them again), and the kernels
//! that add it as their residual read the bf16 values, widened in their epilogues (a
//! `graph.cast` of the region's argument: half the bytes read). The casts' values are
//! the same, since they rounded the result anyway; a residual is rounded to bf16 before
//! it is added, as every other activation between bf16 kernels is. Only where the dot
//! tile applies the whole epilogue in one call per output tile: an epilogue of the
//! steps the microkernel applies ([`FusedEpilogue`]), no passes over input-channel
//! blocks, and every column of a row reading every kernel column, for which a padded
//! convolution is configured to get its padding as an explicit `graph.pad`
//! (`materialize-padding` runs next). Elsewhere the casts stay kernels of their own.
//!
//! With `depthwise` (targets whose depthwise template is generated code), a depthwise
//! convolution read only by casts to bf16 (MobileNet's, feeding the projecting
//! pointwise convolution) likewise stores its result rounded: its epilogue ends with
//! the cast, which the template applies before its only store.

use std::collections::HashMap;

use tcc_dialect_graph::config::{ConvConfig, ConvTemplate, KernelConfig};
use tcc_dialect_graph::epilogue::FusedEpilogue;
use tcc_dialect_graph::ops as g;
use tcc_dialect_graph::ops::kernel::takes_bf16_pairs;
use tcc_ir::builtin::func_entry;
use tcc_ir::{AttrDict, Diagnostics, Module, Op, OperationState, Pass, PassInfo, ScalarType, Type, Value};

use crate::Inserter;
use crate::epilogue_fusion::{append_copy, fuse, new_epilogue};

pub static NARROW_OUTPUTS: PassInfo = PassInfo {
    name: "narrow-outputs",
    summary: "Store the results of bf16 dot kernels (and depthwise convolutions) read only as bf16 rounded",
    options: &[("depthwise", "narrow depthwise convolutions' results too (default false)")],
    create: |opts| Ok(Box::new(NarrowOutputs { depthwise: opts.parse_or("depthwise", false)? })),
};

pub struct NarrowOutputs {
    /// Depthwise convolutions read only by casts to bf16 store their results rounded
    /// too: where their template is generated code (no microkernels, whose f32 tile
    /// does not round), which applies the whole epilogue before its only store.
    pub depthwise: bool,
}

impl Pass for NarrowOutputs {
    fn name(&self) -> &'static str {
        "narrow-outputs"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        for func in m.funcs() {
            let Some(entry) = func_entry(m, func) else { continue };
            let kernels: Vec<Op> = m.block_ops(entry).filter(|&op| is_dot_kernel(m, op)).collect();
            // Kernels rebuilt to read a bf16 residual, by the op they replaced.
            let mut rebuilt: HashMap<Op, Op> = HashMap::new();
            for op in kernels {
                let op = rebuilt.get(&op).copied().unwrap_or(op);
                let Some(readers) = readers(m, op) else { continue };
                if !stores_whole_tiles(m, op) {
                    continue;
                }
                if m.is(op, &g::CONV2D_NCHWC) {
                    let config = ConvConfig::of(m, op);
                    if crate::conv_pads(m, op).iter().any(|&p| p > 0) {
                        KernelConfig::Conv(ConvConfig { pad_input: Some(true), ..config }).set_on(m, op);
                    }
                }
                narrow(m, op, readers, &mut rebuilt);
            }
            if self.depthwise {
                let depthwise: Vec<Op> = m.block_ops(entry).filter(|&op| is_depthwise(m, op)).collect();
                for op in depthwise {
                    let Some(readers) = readers(m, op).filter(|r| r.residuals.is_empty()) else { continue };
                    narrow(m, op, readers, &mut rebuilt);
                }
            }
        }
        Ok(())
    }
}

/// One cast right after `op` takes the place of its `readers`' casts (and of the f32
/// residuals they read, `rebuilt` recording the kernels replaced), then joins its
/// epilogue.
fn narrow(m: &mut Module, op: Op, readers: Readers, rebuilt: &mut HashMap<Op, Op>) {
    let r = m.result(op, 0);
    let mut st = OperationState::new(&g::CAST, m.loc(op).clone());
    st.operands = vec![r];
    st.result_types = vec![with_elem(m.value_type(r), ScalarType::BF16)];
    let cast = m.create_op(st);
    m.insert_op_after(op, cast);
    let narrowed = m.result(cast, 0);
    for old in readers.casts {
        m.replace_all_uses(m.result(old, 0), narrowed);
        m.erase_op(old);
    }
    for (user, k) in readers.residuals {
        let new = take_bf16_residual(m, user, k, narrowed);
        rebuilt.insert(user, new);
    }
    fuse(m, op, &[cast]);
}

/// A convolution the depthwise template computes, with its f32 result not yet narrowed.
fn is_depthwise(m: &Module, op: Op) -> bool {
    m.is(op, &g::CONV2D_NCHWC)
        && ConvConfig::of(m, op).template == Some(ConvTemplate::Depthwise)
        && elem(m, m.result(op, 0)) == Some(ScalarType::F32)
}

/// A kernel the bf16 dot tile computes (bf16 operands, pair-packed weights), with its
/// f32 result not yet narrowed.
fn is_dot_kernel(m: &Module, op: Op) -> bool {
    takes_bf16_pairs(m, op) && elem(m, m.result(op, 0)) == Some(ScalarType::F32)
}

fn elem(m: &Module, v: Value) -> Option<ScalarType> {
    m.value_type(v).as_tensor().map(|t| t.elem())
}

fn with_elem(ty: &Type, elem: ScalarType) -> Type {
    let shape = ty.as_tensor().expect("a tensor").shape().to_vec();
    crate::tensor_type(shape, elem)
}

/// What reads a dot kernel's result that can read it as bf16.
struct Readers {
    /// Casts of it to bf16.
    casts: Vec<Op>,
    /// Dot kernels that add it as the residual of their epilogues (the kernel, and the
    /// residual's index among its epilogue operands), from f32.
    residuals: Vec<(Op, usize)>,
}

/// The readers of `op`'s result, if there are some and each is a cast to bf16 or a
/// dot kernel that adds it as the residual of an epilogue the microkernel applies.
fn readers(m: &Module, op: Op) -> Option<Readers> {
    let uses = m.uses(m.result(op, 0));
    let mut readers = Readers { casts: Vec::new(), residuals: Vec::new() };
    for u in uses {
        if m.is(u.op, &g::CAST) && elem(m, m.result(u.op, 0)) == Some(ScalarType::BF16) {
            readers.casts.push(u.op);
            continue;
        }
        let from = tcc_dialect_graph::semantics(m.def(u.op)).and_then(|s| s.epilogue_from)?;
        let k = (u.index as usize).checked_sub(from)?;
        let adds = fused_epilogue(m, u.op).is_some_and(|f| f.residual == Some(k) && !f.bf16_residual);
        if !is_dot_kernel(m, u.op) || !adds || readers.residuals.iter().any(|&(o, _)| o == u.op) {
            return None;
        }
        readers.residuals.push((u.op, k));
    }
    (!uses.is_empty()).then_some(readers)
}

/// Replaces `kernel` by a copy whose epilogue operand `k` (a residual) is `narrowed`
/// (the bf16 value of the f32 one it reads), widened by a cast at the start of the
/// epilogue region; returns the copy.
fn take_bf16_residual(m: &mut Module, kernel: Op, k: usize, narrowed: Value) -> Op {
    let from = tcc_dialect_graph::semantics(m.def(kernel)).and_then(|s| s.epilogue_from).expect("a kernel op");
    let old = m.region_blocks(m.regions(kernel)[0])[0];
    let old_args = m.block_args(old).to_vec();
    let raw = m.value_type(old_args[0]).clone();
    let mut extra: Vec<Type> = old_args[1..].iter().map(|&a| m.value_type(a).clone()).collect();
    let wide = std::mem::replace(&mut extra[k], m.value_type(narrowed).clone());
    let loc = m.loc(kernel).clone();
    let region = new_epilogue(m, &loc, &raw, &extra, |m, block, acc, args| {
        let mut st = OperationState::new(&g::CAST, loc.clone());
        st.operands = vec![args[k]];
        st.result_types = vec![wide];
        let widen = m.create_op(st);
        m.append_op(block, widen);
        let mut map: HashMap<Value, Value> = HashMap::new();
        map.insert(old_args[0], acc);
        for (i, &a) in old_args[1..].iter().enumerate() {
            map.insert(a, if i == k { m.result(widen, 0) } else { args[i] });
        }
        let mut out = acc;
        for inner in m.block_ops(old).collect::<Vec<_>>() {
            if m.is(inner, &g::YIELD) {
                out = map[&m.operand(inner, 0)];
            } else {
                let v = append_copy(m, block, inner, &map);
                map.insert(m.result(inner, 0), v);
            }
        }
        out
    });
    let mut operands = m.operands(kernel).to_vec();
    operands[from + k] = narrowed;
    let (def, attrs): (_, AttrDict) = (m.def(kernel), m.attrs(kernel).clone());
    let result = m.value_type(m.result(kernel, 0)).clone();
    let new = Inserter::before(m, kernel).op_with_regions(def, &operands, attrs, vec![result], vec![region]);
    m.set_loc(new, loc);
    let nv = m.result(new, 0);
    m.replace_op(kernel, &[nv]);
    new
}

/// `op`'s epilogue as the microkernel applies it, with a bias of one value per output
/// channel and a residual shaped as the result.
fn fused_epilogue(m: &Module, op: Op) -> Option<FusedEpilogue> {
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
    FusedEpilogue::of(m, op, is_bias).filter(|f| f.residual.is_none_or(|i| extra[i] == out))
}

/// Whether the dot tile computes each of `op`'s output tiles in one call with the whole
/// epilogue (what the templates check before storing bf16; elsewhere they fall back to
/// the scalar reference): the epilogue is one the microkernel applies
/// ([`fused_epilogue`]); a convolution makes no passes over input-channel blocks, and
/// its padding can move into a `graph.pad`.
fn stores_whole_tiles(m: &Module, op: Op) -> bool {
    if fused_epilogue(m, op).is_none() {
        return false;
    }
    if !m.is(op, &g::CONV2D_NCHWC) {
        return true;
    }
    let input_blocks = crate::shape(m, m.operand(op, 1))[1];
    let config = ConvConfig::of(m, op);
    let pads = crate::conv_pads(m, op);
    config.chunk_ic.is_none_or(|chunk| chunk >= input_blocks)
        && (pads.iter().all(|&p| p == 0) || crate::paddable(m, op))
}
