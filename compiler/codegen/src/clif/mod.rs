//! The Cranelift backend: loop+vector IR to machine code, in memory (JIT, [`compile_jit`])
//! or in an ELF object file ([`object::compile_object`]).
//!
//! The ISA comes from `cranelift_native` (the host's CPU features, so `fma` is a real
//! `vfmadd`); vectors are 128 bits wide, the most Cranelift's x86-64 backend supports.
//! The model's entry function has the runtime's [`tcc_runtime::EntryFn`] ABI; each
//! `loop.parallel` body becomes a local function called back by `tcc_parallel_for_blocks`.
//! Constant buffers are referenced in place by the JIT (the compiled model keeps the
//! IR's storage alive) and become read-only data objects in object files.

pub mod object;
pub mod translate;

use std::collections::HashMap;

use cranelift_codegen::Context;
use cranelift_codegen::ir::{self as cl, AbiParam, InstBuilder, MemFlagsData, UserFuncName};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module as ClModule, default_libcall_names};
use tcc_ir::{Diagnostics, Module, Op};
use tcc_runtime_abi::EntryFn;
use tcc_runtime_abi::symbols;

use crate::model::{Prepared, pin_constants, prepare};
use crate::{CodegenError, CompiledModel, FunctionListing, RuntimeSymbols};
use translate::{ConstantRef, Outline, Shared, Translator, clif_type};

/// The host ISA with tcc's settings (`pic` for object files).
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

fn backend_err(e: cranelift_module::ModuleError) -> CodegenError {
    CodegenError::Backend(e.to_string())
}

/// Defines the entry function (named `entry_name`, with `linkage`) and every outlined
/// parallel body in `module`; returns the entry's id and the run-time check messages.
pub(crate) fn define_functions(
    module: &mut dyn ClModule,
    lm: &Module,
    prep: &Prepared,
    constants: HashMap<Op, ConstantRef>,
    entry_name: &str,
    linkage: Linkage,
    listings: Option<&mut Vec<FunctionListing>>,
) -> Result<(FuncId, Vec<String>), CodegenError> {
    let ptr = module.target_config().pointer_type();
    let mut sig4 = module.make_signature();
    for _ in 0..4 {
        sig4.params.push(AbiParam::new(ptr));
    }
    let mut sig5 = sig4.clone();
    sig5.params.push(AbiParam::new(ptr));
    let parallel_for = module.declare_function(symbols::PARALLEL_FOR, Linkage::Import, &sig5).map_err(backend_err)?;
    let main_id = module.declare_function(entry_name, linkage, &sig4).map_err(backend_err)?;
    let mut shared = Shared {
        m: lm,
        parallel_for,
        asserts: Vec::new(),
        constants,
        outlines: Vec::new(),
        outlines_made: 0,
        outlined_by_key: HashMap::new(),
    };
    let mut ctx = module.make_context();
    let mut fbc = FunctionBuilderContext::new();
    let frontend = module.target_config();
    let mut listings = listings;

    // The entry: (args, workspace, pool, status).
    ctx.func.signature = sig4.clone();
    ctx.func.name = UserFuncName::user(0, main_id.as_u32());
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fbc);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let p = b.block_params(entry).to_vec();
        let (args, workspace, pool, status) = (p[0], p[1], p[2], p[3]);
        let n_args = lm.block_args(prep.entry_block).len();
        let bufs: Vec<cl::Value> =
            (0..n_args).map(|i| b.ins().load(ptr, MemFlagsData::new().with_notrap(), args, 8 * i as i32)).collect();
        let mut t = Translator::new(b, &mut shared, module, status, Some(pool), Some(workspace));
        for (&a, &v) in lm.block_args(prep.entry_block).iter().zip(&bufs) {
            t.bind(a, v);
        }
        t.block(prep.entry_block)?;
        t.b.seal_all_blocks();
        t.b.finalize(frontend);
    }
    define(module, &mut ctx, main_id, entry_name, listings.as_deref_mut())?;

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
            let mut t = Translator::new(b, &mut shared, module, status, None, None);
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
            // Exit first: see `Translator::for_loop` on why the body is the else branch.
            let done = t.b.ins().icmp(cranelift_codegen::ir::condcodes::IntCC::SignedGreaterThanOrEqual, iv, last);
            t.b.ins().brif(done, exit, &[], body, &[]);
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
        let name = format!("parallel body {}", id.as_u32());
        define(module, &mut ctx, id, &name, listings.as_deref_mut())?;
    }
    Ok((main_id, shared.asserts))
}

/// Compiles the loop-level module (as produced by the lowering pipeline) to machine code
/// in memory.
/// in memory, calling the runtime's functions at `symbols`.
pub fn compile_jit(lm: &Module, keep_listings: bool, symbols: RuntimeSymbols) -> Result<CompiledModel, Diagnostics> {
    compile(lm, keep_listings, symbols).map_err(|e| Diagnostics::error(lm.loc(lm.top()).clone(), e.to_string()))
}

fn compile(lm: &Module, keep_listings: bool, symbols: RuntimeSymbols) -> Result<CompiledModel, CodegenError> {
    let prep = prepare(lm)?;
    let isa = host_isa(false)?;
    let mut jb = JITBuilder::with_isa(isa, default_libcall_names());
    for &(name, addr) in symbols {
        jb.symbol(name, addr);
    }
    let mut module = JITModule::new(jb);

    // Constant buffers: the data stays where the IR keeps it.
    let (addresses, keep_alive) = pin_constants(lm, prep.func)?;
    let constants = addresses.into_iter().map(|(op, a)| (op, ConstantRef::Address(a as i64))).collect();
    let mut listings = Vec::new();
    let (main_id, asserts) = define_functions(
        &mut module,
        lm,
        &prep,
        constants,
        "tcc_model_main",
        Linkage::Local,
        keep_listings.then_some(&mut listings),
    )?;
    module.finalize_definitions().map_err(backend_err)?;
    let code = module.get_finalized_function(main_id);
    // SAFETY: the function was built with exactly EntryFn's signature.
    let entry: EntryFn = unsafe { std::mem::transmute::<*const u8, EntryFn>(code) };
    Ok(CompiledModel {
        entry,
        signature: prep.signature,
        workspace_size: prep.workspace_size,
        asserts,
        listings,
        kernels: prep.kernels,
        _jit: Box::new(JitHolder(Some(module))),
        _constants: keep_alive,
    })
}

pub(crate) fn define(
    module: &mut dyn ClModule,
    ctx: &mut Context,
    id: FuncId,
    name: &str,
    listings: Option<&mut Vec<FunctionListing>>,
) -> Result<(), CodegenError> {
    let clif = if listings.is_some() { ctx.func.display().to_string() } else { String::new() };
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
    if let Some(listings) = listings {
        let code = ctx.compiled_code().map(|c| c.code_buffer().to_vec()).unwrap_or_default();
        listings.push(FunctionListing { name: name.to_string(), ir: clif, code, asm: None });
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
