//! What every backend needs to know about a loop-level module: the entry function's
//! tensor signature, workspace size and kernels ([`prepare`]), its constant buffers and
//! where their data lives for a JIT ([`pin_constants`]), which values a parallel loop
//! captures when outlined ([`captures_of`]) or rematerializes ([`outer_constants`]),
//! and when two outlined loops can share one function ([`outline_key`]).

use tcc_dialect_loop::abi;
use tcc_dialect_loop::{self as lp, LoopOp};
use tcc_dialect_vector::VectorOp;
use tcc_ir::builtin::{func_entry, func_type};
use tcc_ir::{Block, Module, Op, Value};
use tcc_runtime_abi::{DType, Signature, TensorSpec};

use crate::CodegenError;

/// The kind of an op a backend translates: the loop and vector dialects'.
#[derive(Copy, Clone, Debug)]
pub enum OpKind {
    Loop(LoopOp),
    Vector(VectorOp),
}

/// The kind of `def`, or an error for an op no backend translates.
pub fn op_kind(def: &tcc_ir::OpDef) -> Result<OpKind, CodegenError> {
    match (lp::op_kind(def), tcc_dialect_vector::op_kind(def)) {
        (Some(k), _) => Ok(OpKind::Loop(k)),
        (_, Some(k)) => Ok(OpKind::Vector(k)),
        _ => Err(CodegenError::Unsupported(format!("'{}' (not a loop or vector op)", def.name))),
    }
}

/// The runtime element type of a model input or output.
pub fn dtype_of(e: tcc_ir::ScalarType) -> Result<DType, CodegenError> {
    Ok(match e {
        tcc_ir::ScalarType::F32 => DType::F32,
        tcc_ir::ScalarType::F64 => DType::F64,
        tcc_ir::ScalarType::F16 => DType::F16,
        tcc_ir::ScalarType::BF16 => DType::BF16,
        tcc_ir::ScalarType::I8 => DType::I8,
        tcc_ir::ScalarType::I16 => DType::I16,
        tcc_ir::ScalarType::I32 => DType::I32,
        tcc_ir::ScalarType::I64 => DType::I64,
        tcc_ir::ScalarType::I1 => DType::Bool,
        other => return Err(CodegenError::Unsupported(format!("model inputs and outputs of element type {other}"))),
    })
}

/// What every backend needs to know about the loop-level `@main`.
pub struct Prepared {
    pub func: Op,
    pub entry_block: Block,
    pub signature: Signature,
    pub workspace_size: usize,
    pub kernels: Vec<crate::KernelRecord>,
}

pub fn prepare(lm: &Module) -> Result<Prepared, CodegenError> {
    let func = lm.func("main").ok_or_else(|| CodegenError::Unsupported("no @main function".into()))?;
    let fty = func_type(lm, func).ok_or_else(|| CodegenError::Unsupported("@main has no type".into()))?;
    let info = abi::entry_info(lm, func);
    let n_in = info.num_inputs.unwrap_or(fty.inputs.len());
    let workspace_size = info.workspace_size;
    let mut signature = Signature::default();
    for (i, t) in fty.inputs.iter().enumerate() {
        let b = t.as_buffer().ok_or_else(|| CodegenError::Unsupported(format!("@main argument of type {t}")))?;
        let spec = TensorSpec { dtype: dtype_of(b.elem())?, shape: b.shape().iter().map(|&d| d as usize).collect() };
        if i < n_in { signature.inputs.push(spec) } else { signature.outputs.push(spec) }
    }
    let entry_block = func_entry(lm, func).ok_or_else(|| CodegenError::Unsupported("@main has no body".into()))?;
    let kernels = info.kernels;
    Ok(Prepared { func, entry_block, signature, workspace_size, kernels })
}

/// The constant buffers of `@main` and their dense values.
pub fn constant_buffers(lm: &Module, func: Op) -> Vec<(Op, tcc_ir::DenseElements)> {
    lm.walk(func)
        .into_iter()
        .filter(|&op| lp::kind_of(lm, op) == Some(LoopOp::ConstantBuffer))
        .map(|op| (op, lm.attr(op, "value").and_then(|a| a.as_dense()).expect("verified constant buffer").clone()))
        .collect()
}

/// Storage a JIT-compiled model keeps alive for as long as its code runs.
pub type KeepAlive = Vec<std::sync::Arc<dyn std::any::Any + Send + Sync>>;

/// The address of every constant buffer's data for JIT code: the IR's own storage where
/// it has raw bytes, fresh aligned storage for splats (an error naming the constant and
/// the bytes asked for when that cannot be allocated). The returned storage must live
/// as long as the code.
pub fn pin_constants(lm: &Module, func: Op) -> Result<(std::collections::HashMap<Op, u64>, KeepAlive), CodegenError> {
    let mut keep_alive: KeepAlive = Vec::new();
    let mut addresses = std::collections::HashMap::new();
    for (op, d) in constant_buffers(lm, func) {
        let addr = match d.raw_bytes() {
            Some(bytes) => bytes.as_ptr() as u64,
            None => {
                let bytes = std::sync::Arc::new(d.try_to_aligned_bytes().map_err(CodegenError::OutOfMemory)?);
                let a = bytes.as_slice().as_ptr() as u64;
                keep_alive.push(bytes);
                a
            }
        };
        keep_alive.push(std::sync::Arc::new(d));
        addresses.insert(op, addr);
    }
    Ok((addresses, keep_alive))
}

/// Constants defined outside `op` that ops under it use, each once in first-use order:
/// an outlined body recomputes them rather than capturing them.
pub fn outer_constants(m: &Module, op: Op) -> Vec<Op> {
    fn add(m: &Module, d: Op, out: &mut Vec<Op>) {
        if out.contains(&d) {
            return;
        }
        // A splat's constant goes first.
        for &v in m.operands(d) {
            if let Some(c) = m.defining_op(v) {
                add(m, c, out);
            }
        }
        out.push(d);
    }
    let mut out = Vec::new();
    for inner in m.walk(op) {
        for &v in m.operands(inner) {
            if let Some(d) = m.defining_op(v).filter(|&d| is_rematerializable(m, d) && !m.is_ancestor(op, d)) {
                add(m, d, &mut out);
            }
        }
    }
    out
}

/// Whether an op is cheaper to recompute in an outlined body than to capture: a
/// scalar constant, or a splat of one (vectors are not captured). Constant buffers are
/// captured like any pointer, so kernels that differ only in their weights share one
/// function ([`outline_key`]).
pub fn is_rematerializable(m: &Module, op: Op) -> bool {
    let is_const = |op| lp::kind_of(m, op) == Some(LoopOp::Const);
    is_const(op)
        || (tcc_dialect_vector::op_kind(m.def(op)) == Some(tcc_dialect_vector::VectorOp::Splat)
            && m.defining_op(m.operand(op, 0)).is_some_and(is_const))
}

/// A structural description of the loop `op` as an outlined function with arguments
/// `captures`: its ops, attributes and types, with values named by position (capture
/// `c0`, nested definitions in order) and rematerialized constants spelled out. Two
/// loops with equal keys compile to the same code, so a backend outlines the first and
/// calls that function for the others: the blocks of a network stage differ only in
/// their buffers, and ResNet-152 or EfficientNetV2-L then hand the code generator a few
/// dozen kernels instead of hundreds.
pub fn outline_key(m: &Module, op: Op, captures: &[Value]) -> String {
    use std::collections::HashMap;
    use std::fmt::Write;
    let mut names: HashMap<Value, String> = HashMap::new();
    let mut key = String::new();
    for (i, &c) in captures.iter().enumerate() {
        names.insert(c, format!("c{i}"));
        let _ = write!(key, "c{i}:{};", m.value_type(c));
    }
    fn name_of(m: &Module, v: Value, names: &HashMap<Value, String>) -> String {
        if let Some(n) = names.get(&v) {
            return n.clone();
        }
        // A rematerialized constant (or a splat of one), spelled out.
        match m.defining_op(v) {
            Some(d) => {
                let operands: Vec<String> = m.operands(d).iter().map(|&x| name_of(m, x, names)).collect();
                format!("({} {} [{}] : {})", m.name(d), m.attrs(d), operands.join(","), m.value_type(v))
            }
            None => "?".into(),
        }
    }
    let mut next = 0usize;
    let mut define = |v: Value, names: &mut HashMap<Value, String>| {
        names.insert(v, format!("v{next}"));
        next += 1;
    };
    for inner in m.walk(op) {
        let operands: Vec<String> = m.operands(inner).iter().map(|&v| name_of(m, v, &names)).collect();
        let _ = write!(key, "{} {} ({})", m.name(inner), m.attrs(inner), operands.join(","));
        for &r in m.results(inner) {
            define(r, &mut names);
            let _ = write!(key, " -> {}", m.value_type(r));
        }
        for &region in m.regions(inner) {
            let _ = write!(key, " region");
            for &b in m.region_blocks(region) {
                let _ = write!(key, " block(");
                for &a in m.block_args(b) {
                    define(a, &mut names);
                    let _ = write!(key, "{},", m.value_type(a));
                }
                let _ = write!(key, ") ops {}", m.block_ops(b).count());
            }
        }
        key.push(';');
    }
    key
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
