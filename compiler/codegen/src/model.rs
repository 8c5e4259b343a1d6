//! What every backend needs to know about a loop-level module: the entry function's
//! tensor signature, workspace size and kernels ([`prepare`]), its constant buffers, and
//! which values a parallel loop captures when outlined ([`captures_of`]).

use tcc_dialect_loop as lp;
use tcc_ir::builtin::{func_entry, func_type};
use tcc_ir::{Block, Module, Op, Value};
use tcc_runtime::{DType, TensorSpec};

use crate::CodegenError;

/// The runtime element type of a model input or output.
pub fn dtype_of(e: tcc_ir::ScalarType) -> Result<DType, CodegenError> {
    Ok(match e {
        tcc_ir::ScalarType::F32 => DType::F32,
        tcc_ir::ScalarType::F64 => DType::F64,
        tcc_ir::ScalarType::I32 => DType::I32,
        tcc_ir::ScalarType::I64 => DType::I64,
        tcc_ir::ScalarType::I1 => DType::Bool,
        other => return Err(CodegenError::Unsupported(format!("model inputs and outputs of element type {other}"))),
    })
}

/// The C interface of object files passes `float` arrays: refuses other element types.
pub fn check_c_interface(signature: &tcc_runtime::Signature) -> Result<(), CodegenError> {
    for (what, specs) in [("input", &signature.inputs), ("output", &signature.outputs)] {
        if let Some((i, s)) = specs.iter().enumerate().find(|(_, s)| s.dtype != DType::F32) {
            return Err(CodegenError::Unsupported(format!(
                "model {what} #{i} of element type {} in the C interface (it passes float arrays; only f32 \
                 inputs and outputs can be compiled to objects)",
                s.dtype
            )));
        }
    }
    Ok(())
}

/// What every backend needs to know about the loop-level `@main`.
pub struct Prepared {
    pub func: Op,
    pub entry_block: Block,
    pub signature: tcc_runtime::Signature,
    pub workspace_size: usize,
    pub kernels: Vec<crate::KernelInfo>,
}

pub fn prepare(lm: &Module) -> Result<Prepared, CodegenError> {
    let func = lm.func("main").ok_or_else(|| CodegenError::Unsupported("no @main function".into()))?;
    let fty = func_type(lm, func).ok_or_else(|| CodegenError::Unsupported("@main has no type".into()))?;
    let n_in =
        lm.attr(func, tcc_lower::NUM_INPUTS).and_then(|a| a.as_i64()).unwrap_or(fty.inputs.len() as i64) as usize;
    let workspace_size = lm.attr(func, tcc_lower::WORKSPACE_SIZE).and_then(|a| a.as_i64()).unwrap_or(0) as usize;
    let mut signature = tcc_runtime::Signature::default();
    for (i, t) in fty.inputs.iter().enumerate() {
        let b = t.as_buffer().ok_or_else(|| CodegenError::Unsupported(format!("@main argument of type {t}")))?;
        let spec = TensorSpec { dtype: dtype_of(b.elem())?, shape: b.shape().iter().map(|&d| d as usize).collect() };
        if i < n_in { signature.inputs.push(spec) } else { signature.outputs.push(spec) }
    }
    let entry_block = func_entry(lm, func).ok_or_else(|| CodegenError::Unsupported("@main has no body".into()))?;
    let kernels = lm
        .attr(func, tcc_lower::KERNELS)
        .and_then(|a| a.as_array())
        .unwrap_or_default()
        .iter()
        .filter_map(|k| {
            let d = k.as_dict()?;
            Some(crate::KernelInfo {
                name: d.get("name")?.as_str()?.to_string(),
                loc: d.get("loc")?.as_str()?.to_string(),
                flops: d.get("flops")?.as_i64()? as u64,
            })
        })
        .collect();
    Ok(Prepared { func, entry_block, signature, workspace_size, kernels })
}

/// The constant buffers of `@main` and their dense values.
pub fn constant_buffers(lm: &Module, func: Op) -> Vec<(Op, tcc_ir::DenseElements)> {
    lm.walk(func)
        .into_iter()
        .filter(|&op| lm.is(op, &lp::CONSTANT_BUFFER))
        .map(|op| (op, lm.attr(op, "value").and_then(|a| a.as_dense()).expect("verified constant buffer").clone()))
        .collect()
}

/// Whether an op is cheaper to recompute in an outlined body than to capture.
pub fn is_rematerializable(m: &Module, op: Op) -> bool {
    m.is(op, &lp::CONST) || m.is(op, &lp::CONSTANT_BUFFER)
}

/// Values a parallel loop uses that are defined outside it (constants excluded: they
/// are rematerialized), in first-use order.
pub fn captures_of(m: &Module, op: Op) -> Vec<Value> {
    let mut out = Vec::new();
    let mut inside = std::collections::HashSet::new();
    for inner in m.walk(op) {
        for &r in m.regions(inner) {
            for &b in m.region_blocks(r) {
                inside.extend(m.block_args(b).iter().copied());
            }
        }
        if inner != op {
            inside.extend(m.results(inner).iter().copied());
        }
    }
    let mut operands: Vec<Value> = m.operands(op).to_vec();
    for inner in m.walk(op).into_iter().skip(1) {
        operands.extend_from_slice(m.operands(inner));
    }
    for v in operands {
        if inside.contains(&v) || out.contains(&v) {
            continue;
        }
        if m.defining_op(v).is_some_and(|d| is_rematerializable(m, d)) {
            continue;
        }
        out.push(v);
    }
    out
}
