//! The Cranelift backend: loop+vector IR to machine code in memory (JIT).
//!
//! The ISA comes from `cranelift_native` (the host's CPU features, so `fma` is a real
//! `vfmadd`); vectors are 128 bits wide, the most Cranelift's x86-64 backend supports.
//! The model's entry function has the runtime's [`tcc_runtime::EntryFn`] ABI; each
//! `loop.parallel` body becomes a local function called back by `tcc_parallel_for`.
//! Constant buffers are referenced by address: the compiled model keeps their storage
//! (shared with the IR's dense attributes, not copied) alive.

pub mod translate;

use std::sync::Arc;

use cranelift_codegen::Context;
use cranelift_codegen::ir::{self as cl, AbiParam, InstBuilder, MemFlagsData, UserFuncName};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Linkage, Module as ClModule, default_libcall_names};
use tcc_dialect_loop as lp;
use tcc_ir::builtin::{func_entry, func_type};
use tcc_ir::{Diagnostics, Module};
use tcc_runtime::{DType, EntryFn, TensorSpec};

use crate::{CodegenError, CompiledModel, FunctionListing};
use translate::{Outline, Shared, Translator, clif_type};

/// The host ISA with tcc's settings.
pub fn host_isa(pic: bool) -> Result<cranelift_codegen::isa::OwnedTargetIsa, CodegenError> {
    let mut flags = settings::builder();
    let set =
        |f: &mut settings::Builder, k: &str, v: &str| f.set(k, v).map_err(|e| CodegenError::Backend(e.to_string()));
    set(&mut flags, "opt_level", "speed")?;
    set(&mut flags, "is_pic", if pic { "true" } else { "false" })?;
    set(&mut flags, "use_colocated_libcalls", "false")?;
    let isa = cranelift_native::builder().map_err(|e| CodegenError::Backend(e.to_string()))?;
    isa.finish(settings::Flags::new(flags)).map_err(|e| CodegenError::Backend(e.to_string()))
}

fn dtype_of(e: tcc_ir::ScalarType) -> Result<DType, CodegenError> {
    Ok(match e {
        tcc_ir::ScalarType::F32 => DType::F32,
        tcc_ir::ScalarType::F64 => DType::F64,
        tcc_ir::ScalarType::I32 => DType::I32,
        tcc_ir::ScalarType::I64 => DType::I64,
        tcc_ir::ScalarType::I1 => DType::Bool,
        other => return Err(CodegenError::Unsupported(format!("model inputs and outputs of element type {other}"))),
    })
}

/// Compiles the loop-level module (as produced by `convert-graph-to-loop`, with math
/// expanded) to machine code in memory.
pub fn compile_jit(lm: &Module, keep_listings: bool) -> Result<CompiledModel, Diagnostics> {
    compile(lm, keep_listings).map_err(|e| Diagnostics::error(lm.loc(lm.top()).clone(), e.to_string()))
}

fn compile(lm: &Module, keep_listings: bool) -> Result<CompiledModel, CodegenError> {
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

    let isa = host_isa(false)?;
    let ptr = isa.pointer_type();
    let mut jb = JITBuilder::with_isa(isa, default_libcall_names());
    for (name, addr) in tcc_runtime::math::symbols() {
        jb.symbol(name, addr);
    }
    let mut module = JITModule::new(jb);
    let backend = |e: cranelift_module::ModuleError| CodegenError::Backend(e.to_string());

    let mut pf_sig = module.make_signature();
    for _ in 0..4 {
        pf_sig.params.push(AbiParam::new(ptr));
    }
    let parallel_for = module.declare_function("tcc_parallel_for", Linkage::Import, &pf_sig).map_err(backend)?;

    // Constant buffers: the data stays where the IR keeps it.
    let mut keep_alive: Vec<Arc<dyn std::any::Any + Send + Sync>> = Vec::new();
    let mut constant_address = std::collections::HashMap::new();
    for op in lm.walk(func) {
        if lm.is(op, &lp::CONSTANT_BUFFER) {
            let d = lm.attr(op, "value").and_then(|a| a.as_dense()).expect("verified constant buffer").clone();
            let addr = match d.raw_bytes() {
                Some(bytes) => bytes.as_ptr() as i64,
                None => {
                    let bytes = Arc::new(tcc_ir::AlignedBytes::from_slice(&d.to_bytes()));
                    let a = bytes.as_slice().as_ptr() as i64;
                    keep_alive.push(bytes);
                    a
                }
            };
            keep_alive.push(Arc::new(d));
            constant_address.insert(op, addr);
        }
    }

    let mut shared =
        Shared { m: lm, parallel_for, asserts: Vec::new(), constant_address, outlines: Vec::new(), outlines_made: 0 };
    let mut ctx = module.make_context();
    let mut fbc = FunctionBuilderContext::new();
    let frontend = module.target_config();
    let mut listings = Vec::new();

    // The entry: (args, workspace, pool, status).
    let mut sig = module.make_signature();
    for _ in 0..4 {
        sig.params.push(AbiParam::new(ptr));
    }
    let main_id = module.declare_function("tcc_model_main", Linkage::Local, &sig).map_err(backend)?;
    ctx.func.signature = sig;
    ctx.func.name = UserFuncName::user(0, main_id.as_u32());
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fbc);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let p = b.block_params(entry).to_vec();
        let (args, workspace, pool, status) = (p[0], p[1], p[2], p[3]);
        let mut bufs = Vec::new();
        for i in 0..fty.inputs.len() {
            bufs.push(b.ins().load(ptr, MemFlagsData::new().with_notrap(), args, 8 * i as i32));
        }
        let mut t = Translator::new(b, &mut shared, &mut module, status, Some(pool), Some(workspace));
        for (&a, &v) in lm.block_args(entry_block).iter().zip(&bufs) {
            t.bind(a, v);
        }
        t.block(entry_block)?;
        t.b.seal_all_blocks();
        t.b.finalize(frontend);
    }
    define(&mut module, &mut ctx, main_id, "tcc_model_main", keep_listings, &mut listings)?;

    while let Some(Outline { id, op, captures }) = shared.outlines.pop() {
        let mut sig = module.make_signature();
        for _ in 0..3 {
            sig.params.push(AbiParam::new(ptr));
        }
        ctx.func.signature = sig;
        ctx.func.name = UserFuncName::user(0, id.as_u32());
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut fbc);
            let entry = b.create_block();
            b.append_block_params_for_function_params(entry);
            b.switch_to_block(entry);
            let p = b.block_params(entry).to_vec();
            let (cx, begin, end) = (p[0], p[1], p[2]);
            let status = b.ins().load(ptr, MemFlagsData::new().with_notrap(), cx, 0);
            let mut loaded = Vec::new();
            for (i, &v) in captures.iter().enumerate() {
                let ty = clif_type(lm.value_type(v))?;
                loaded.push(b.ins().load(ty, MemFlagsData::new().with_notrap(), cx, 8 * (i as i32 + 1)));
            }
            let mut t = Translator::new(b, &mut shared, &mut module, status, None, None);
            for (&v, &c) in captures.iter().zip(&loaded) {
                t.bind(v, c);
            }
            t.materialize_outer_constants(op)?;
            // for iv in lb + begin .. lb + end
            let lb = t.value(lm.operand(op, 0));
            let first = t.b.ins().iadd(lb, begin);
            let last = t.b.ins().iadd(lb, end);
            let header = t.b.create_block();
            let iv = t.b.append_block_param(header, cl::types::I64);
            let body = t.b.create_block();
            let exit = t.b.create_block();
            t.b.ins().jump(header, &[first.into()]);
            t.b.switch_to_block(header);
            let go = t.b.ins().icmp(cranelift_codegen::ir::condcodes::IntCC::SignedLessThan, iv, last);
            t.b.ins().brif(go, body, &[], exit, &[]);
            t.b.switch_to_block(body);
            let region_block = lm.region_blocks(lm.regions(op)[0])[0];
            t.bind(lm.block_args(region_block)[0], iv);
            t.block(region_block)?;
            let next = t.b.ins().iadd_imm_s(iv, 1);
            t.b.ins().jump(header, &[next.into()]);
            t.b.switch_to_block(exit);
            t.b.ins().return_(&[]);
            t.b.seal_all_blocks();
            t.b.finalize(frontend);
        }
        let name = format!("tcc_parallel_body_{}", id.as_u32());
        define(&mut module, &mut ctx, id, &name, keep_listings, &mut listings)?;
    }

    module.finalize_definitions().map_err(backend)?;
    let code = module.get_finalized_function(main_id);
    // SAFETY: the function was built with exactly EntryFn's signature.
    let entry: EntryFn = unsafe { std::mem::transmute::<*const u8, EntryFn>(code) };
    Ok(CompiledModel {
        entry,
        signature,
        workspace_size,
        asserts: shared.asserts,
        listings,
        _jit: Box::new(JitHolder(Some(module))),
        _constants: keep_alive,
    })
}

fn define(
    module: &mut JITModule,
    ctx: &mut Context,
    id: cranelift_module::FuncId,
    name: &str,
    keep_listings: bool,
    listings: &mut Vec<FunctionListing>,
) -> Result<(), CodegenError> {
    let clif = if keep_listings { ctx.func.display().to_string() } else { String::new() };
    if let Err(e) = module.define_function(id, ctx) {
        let msg = match &e {
            cranelift_module::ModuleError::Compilation(cranelift_codegen::CodegenError::Verifier(errs)) => {
                cranelift_codegen::print_errors::pretty_verifier_error(&ctx.func, None, errs.clone())
            }
            other => other.to_string(),
        };
        module.clear_context(ctx);
        return Err(CodegenError::Backend(format!("Cranelift rejected {name}: {msg}")));
    }
    if keep_listings {
        let code = ctx.compiled_code().map(|c| c.code_buffer().to_vec()).unwrap_or_default();
        listings.push(FunctionListing { name: name.to_string(), clif, code });
    }
    module.clear_context(ctx);
    Ok(())
}

/// Owns the JIT memory; frees it when the compiled model goes away.
struct JitHolder(Option<JITModule>);

impl Drop for JitHolder {
    fn drop(&mut self) {
        if let Some(m) = self.0.take() {
            // SAFETY: the model owning this holder is being dropped, so no code or
            // data of the module can run or be read any more.
            unsafe { m.free_memory() };
        }
    }
}

// SAFETY: the JIT module is only kept to own executable memory; it is never used
// again after compilation, from any thread.
unsafe impl Send for JitHolder {}
unsafe impl Sync for JitHolder {}
