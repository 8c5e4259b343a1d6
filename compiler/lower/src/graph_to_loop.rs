//! The conversion from the graph dialect to the loop dialect (`convert-graph-to-loop`).
//!
//! The result is a module whose `@main` takes one buffer per model input, then one per
//! model output, and returns nothing. Tensors are placed as follows:
//! - inputs are the argument buffers (never written);
//! - a tensor returned by `@main` is computed straight into its output buffer (a
//!   returned input or constant, or a tensor returned twice, is copied at the end);
//! - constants become read-only `loop.constant_buffer`s sharing the constant's data;
//! - a reshape is a `loop.view` of its operand's buffer, not a copy: the operand's
//!   memory then lives as long as the view's last use; a returned reshape's operand
//!   that nothing else uses is computed into a view of the output buffer (else the
//!   returned reshape is a copy);
//! - every other tensor gets a `loop.workspace` buffer at an offset planned from
//!   lifetimes ([`crate::memory_plan`]), so dead tensors' memory is reused.
//!
//! The function records its input count and workspace size (and, when profiled, its
//! kernels) for code generation ([`tcc_dialect_loop::abi`]).

use std::collections::HashMap;
use std::sync::Arc;

use tcc_dialect_graph::{GraphOp, config, kind_of};
use tcc_dialect_loop as lp;
use tcc_dialect_loop::abi::{self, KernelRecord};
use tcc_ir::builtin::{create_func, create_return, func_entry, func_type};
use tcc_ir::{AttrDict, Attribute, BufferType, Diagnostic, Diagnostics, Module, Op, Traits, Type, Value};

use crate::builder::Builder;
use crate::emit::{OpLowering, emitter, nest, numel};
use crate::memory_plan::{Interval, assign_offsets};

fn is_constant(gm: &Module, op: Op) -> bool {
    matches!(kind_of(gm, op), Some(GraphOp::Constant))
}

/// The function a model runs: `@main`, or the module's only function.
pub fn entry_function(m: &Module) -> Result<Op, Diagnostic> {
    if let Some(f) = m.func("main") {
        return Ok(f);
    }
    match m.funcs()[..] {
        [f] => Ok(f),
        [] => Err(Diagnostic::error(m.loc(m.top()).clone(), "the module has no function to run")),
        _ => Err(Diagnostic::error(m.loc(m.top()).clone(), "the module has several functions and none is named @main")),
    }
}

fn buffer_of(t: &Type) -> Option<Type> {
    let t = t.as_tensor()?;
    Some(Type::Buffer(Arc::new(BufferType::new(t.shape().to_vec(), t.elem(), None).ok()?)))
}

/// Lowers the model's entry function to the loop dialect. With `profile`, each graph op's
/// loops are preceded by a `loop.kernel` marker (and the run ends with one), and the
/// function lists its kernels in `tcc.kernels`.
pub fn convert(gm: &Module, profile: bool, target: &tcc_target::Target) -> Result<Module, Diagnostics> {
    let func = entry_function(gm)?;
    let floc = gm.loc(func).clone();
    let err = |loc: &tcc_ir::Location, msg: String| Diagnostics::error(loc.clone(), msg);
    let fty = func_type(gm, func).ok_or_else(|| err(&floc, "function has no type".into()))?.clone();
    let entry = func_entry(gm, func).ok_or_else(|| err(&floc, "the model's function has no body".into()))?;
    let mut arg_types = Vec::new();
    for t in fty.inputs.iter().chain(&fty.results) {
        arg_types.push(
            buffer_of(t).ok_or_else(|| err(&floc, format!("model inputs and outputs must be tensors, found {t}")))?,
        );
    }
    let n_in = fty.inputs.len();

    let mut lm = Module::new(gm.loc(gm.top()).clone());
    let (lfunc, lentry) = create_func(&mut lm, "main", arg_types, vec![], floc.clone());
    let args = lm.block_args(lentry).to_vec();

    let ops: Vec<Op> = gm.block_ops(entry).collect();
    let (ret, body) = ops.split_last().ok_or_else(|| err(&floc, "the model's function is empty".into()))?;
    if !gm.def(*ret).has(Traits::TERMINATOR) {
        return Err(err(gm.loc(*ret), "the model's function must end with return".into()));
    }
    let returned = gm.operands(*ret).to_vec();

    // Returned op results are computed in place in their output buffer.
    let mut direct: HashMap<Value, Value> = HashMap::new();
    for (i, &v) in returned.iter().enumerate() {
        let made_by_op = gm.defining_op(v).is_some_and(|d| !is_constant(gm, d));
        if made_by_op && !direct.contains_key(&v) {
            direct.insert(v, args[n_in + i]);
        }
    }

    // A returned reshape's operand that nothing else uses (a kernel's result in blocks of
    // one channel, `[N, C, H, W, 1]`) is computed straight into a view of the output
    // buffer, and the reshape costs nothing: tensor -> output buffer.
    let mut into_output: HashMap<Value, Value> = HashMap::new();
    for (&returned_value, &out) in &direct {
        let mut v = returned_value;
        while let Some(reshape) = gm.defining_op(v).filter(|&d| matches!(kind_of(gm, d), Some(GraphOp::Reshape))) {
            let x = gm.operand(reshape, 0);
            let made_by_op = gm.defining_op(x).is_some_and(|d| !is_constant(gm, d));
            if !made_by_op || gm.uses(x).len() != 1 || direct.contains_key(&x) {
                break;
            }
            into_output.insert(x, out);
            v = x;
        }
    }

    // Reshapes whose result is not returned view their operand's memory: result -> operand.
    let views: HashMap<Value, Value> = body
        .iter()
        .filter(|&&op| matches!(kind_of(gm, op), Some(GraphOp::Reshape)) && !direct.contains_key(&gm.result(op, 0)))
        .map(|&op| (gm.result(op, 0), gm.operand(op, 0)))
        .collect();
    let owner = |mut v: Value| {
        while let Some(&x) = views.get(&v) {
            v = x;
        }
        v
    };

    // Lifetimes of the tensors that need workspace; a tensor viewed by reshapes lives
    // until the views' last use.
    let position: HashMap<Op, usize> = body.iter().enumerate().map(|(i, &o)| (o, i)).collect();
    let last_use = |r: Value, pos: usize| {
        gm.uses(r).iter().map(|u| position.get(&u.op).copied().unwrap_or(body.len())).max().unwrap_or(pos)
    };
    let mut intervals: Vec<Interval> = Vec::new();
    let mut slot: HashMap<Value, usize> = HashMap::new();
    for (pos, &op) in body.iter().enumerate() {
        if is_constant(gm, op) {
            continue;
        }
        for &r in gm.results(op) {
            if direct.contains_key(&r) || into_output.contains_key(&r) {
                continue;
            }
            if views.contains_key(&r) {
                if let Some(&i) = slot.get(&owner(r)) {
                    intervals[i].end = intervals[i].end.max(last_use(r, pos));
                }
                continue;
            }
            let t = gm.value_type(r).as_tensor().ok_or_else(|| err(gm.loc(op), "results must be tensors".into()))?;
            slot.insert(r, intervals.len());
            intervals.push(Interval { bytes: t.numel() * t.elem().byte_size(), start: pos, end: last_use(r, pos) });
        }
    }
    // Scratch memory of the kernels that ask for it, live while the kernel runs.
    let mut scratch: HashMap<Op, usize> = HashMap::new();
    for (pos, &op) in body.iter().enumerate() {
        let bytes = crate::emit::scratch_bytes(gm, op, target);
        if bytes > 0 {
            scratch.insert(op, intervals.len());
            intervals.push(Interval { bytes, start: pos, end: pos });
        }
    }
    let (offsets, workspace_size) = assign_offsets(&intervals);
    abi::set_entry_info(&mut lm, lfunc, n_in, workspace_size);

    let mut kernels = Vec::new();
    let mut b = Builder::new(&mut lm, lentry, floc.clone());
    let mut buffers: HashMap<Value, Value> = HashMap::new();
    for (i, &a) in gm.block_args(entry).iter().enumerate() {
        buffers.insert(a, args[i]);
    }
    for &op in body {
        b.loc = gm.loc(op).clone();
        let buffer_types: Vec<Type> =
            gm.results(op).iter().map(|&r| buffer_of(gm.value_type(r)).expect("tensor result")).collect();
        if is_constant(gm, op) {
            let value = gm.attr(op, "value").cloned().expect("verified constant");
            let v = b.op_typed(&lp::CONSTANT_BUFFER, &[], AttrDict::new().with("value", value), buffer_types)[0];
            buffers.insert(gm.result(op, 0), v);
            continue;
        }
        if let Some(&out) = direct.get(&gm.result(op, 0)).filter(|_| {
            matches!(kind_of(gm, op), Some(GraphOp::Reshape)) && into_output.contains_key(&gm.operand(op, 0))
        }) {
            // Its operand was computed into the output buffer.
            buffers.insert(gm.result(op, 0), out);
            continue;
        }
        if let Some(&x) = views.get(&gm.result(op, 0)) {
            let shape = gm.value_type(gm.result(op, 0)).as_tensor().expect("tensor").shape().to_vec();
            let v = b.view(buffers[&x], &shape);
            buffers.insert(gm.result(op, 0), v);
            continue;
        }
        let emit = emitter(gm.def(op)).ok_or_else(|| {
            err(gm.loc(op), format!("'{}' cannot be compiled yet (no lowering to loops)", gm.name(op)))
        })?;
        let mut outs = Vec::new();
        for (&r, ty) in gm.results(op).iter().zip(buffer_types) {
            let v = match (direct.get(&r), into_output.get(&r)) {
                (Some(&out), _) => out,
                (None, Some(&out)) => {
                    let shape = gm.value_type(r).as_tensor().expect("tensor").shape().to_vec();
                    b.view(out, &shape)
                }
                (None, None) => {
                    let offset = offsets[slot[&r]] as i64;
                    b.op_typed(&lp::WORKSPACE, &[], AttrDict::new().with("offset", Attribute::i64(offset)), vec![ty])[0]
                }
            };
            buffers.insert(r, v);
            outs.push(v);
        }
        let ins: Vec<Value> = gm.operands(op).iter().map(|v| buffers[v]).collect();
        let scratch_offset = scratch.get(&op).map(|&i| offsets[i] as i64);
        let ctx = OpLowering::new(gm, op, ins, outs).with_target(target).with_scratch(scratch_offset);
        if profile {
            mark_kernel(&mut b, kernels.len());
        }
        emit(&mut b, &ctx);
        if profile {
            let flops = crate::emit::flops(&ctx);
            kernels.push(KernelRecord {
                name: kernel_name(gm, op),
                loc: gm.loc(op).to_string(),
                flops,
                bytes: tensor_bytes(gm, op) as u64,
                naive: ctx.is_naive(),
                // (Only the bf16 dot kernels compute on bf16 operands.)
                bf16: flops > 0 && ctx.in_elem(0) == tcc_ir::ScalarType::BF16,
                tuned: gm.attr(op, config::CONFIG_SOURCE_ATTR).and_then(|a| a.as_str()) == Some(config::FROM_DATABASE),
            });
        }
    }
    b.loc = gm.loc(*ret).clone();
    for (i, &v) in returned.iter().enumerate() {
        let (src, dst) = (buffers[&v], args[n_in + i]);
        if src != dst {
            let shape = gm.value_type(v).as_tensor().expect("tensor").shape().to_vec();
            nest(&mut b, &shape, numel(&shape), |b, idx| {
                let x = b.load(src, idx);
                b.store(x, dst, idx);
            });
        }
    }
    if profile {
        mark_kernel(&mut b, kernels.len());
        drop(b);
        abi::set_kernels(&mut lm, lfunc, &kernels);
    }
    create_return(&mut lm, lentry, &[], gm.loc(*ret).clone());
    Ok(lm)
}

/// Bytes of the tensors an op reads and writes.
fn tensor_bytes(gm: &Module, op: Op) -> usize {
    gm.operands(op)
        .iter()
        .chain(gm.results(op))
        .filter_map(|&v| gm.value_type(v).as_tensor())
        .map(|t| t.numel() * t.elem().byte_size())
        .sum()
}

fn mark_kernel(b: &mut Builder, id: usize) {
    b.op_typed(&lp::KERNEL, &[], AttrDict::new().with("id", Attribute::i64(id as i64)), vec![]);
}

/// A kernel's name in the profile: its op's, and for a fusion group the ops it holds
/// (`graph.fused(cast, sub, mul, reduce_sum)`).
fn kernel_name(gm: &Module, op: tcc_ir::Op) -> String {
    let Some(&region) = gm.regions(op).first().filter(|_| matches!(kind_of(gm, op), Some(GraphOp::Fused))) else {
        return gm.name(op).to_string();
    };
    let block = gm.region_blocks(region)[0];
    let inner: Vec<&str> = gm
        .block_ops(block)
        .filter(|&o| !gm.def(o).has(Traits::TERMINATOR))
        .map(|o| gm.name(o).trim_start_matches("graph."))
        .collect();
    format!("{}({})", gm.name(op), inner.join(", "))
}
