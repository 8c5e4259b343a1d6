//! The LLVM backend (cargo feature `llvm`, LLVM 22 through inkwell): the same loop and
//! vector IR as the Cranelift backend, compiled with the host's full vector width.
//!
//! [`LlvmTarget`] describes what to generate code for: the host CPU and its features by
//! default (AVX-512 gives 512-bit vectors), or a named `--cpu` and `--target` triple.
//! Every function carries `target-cpu`/`target-features` attributes (MCJIT ignores the
//! target machine's) and, at 512 bits, `min-legal-vector-width` so LLVM keeps zmm
//! registers. The module is optimized with the `default<O3>` pipeline (for a JIT, on every
//! core: [`parallel`]), then JIT-compiled
//! by MCJIT with the runtime's symbols mapped in ([`compile_jit`]), written as an object
//! with the same C interface as the Cranelift backend's ([`compile_object`]), or printed
//! as LLVM IR or assembly ([`emit_text`]).

mod outline;
mod parallel;
pub mod translate;
mod x86;

use std::collections::HashMap;

use inkwell::OptimizationLevel;
use inkwell::context::Context;
use inkwell::execution_engine::ExecutionEngine;
use inkwell::module::{Linkage, Module as LModule};
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target as LTarget, TargetMachine, TargetTriple,
};
use inkwell::types::IntType;
use inkwell::values::PointerValue;
use tcc_ir::{Diagnostics, Module, Op};
use tcc_runtime_abi::EntryFn;
use tcc_runtime_abi::symbols;

use crate::model::{Prepared, constant_buffers, pin_constants, prepare};
use crate::{CodegenError, CompiledModel, FunctionListing, ObjectCode, RuntimeSymbols, Target, header};
use translate::{Outline, OutlineKind, Shared, Translator};

impl From<inkwell::builder::BuilderError> for CodegenError {
    fn from(e: inkwell::builder::BuilderError) -> Self {
        CodegenError::Backend(format!("LLVM IR construction failed: {e}"))
    }
}

/// CPU names `--cpu` accepts, with the vector width they get and whether they have FMA
/// (LLVM knows more CPUs; these are the x86-64 ones tcc knows).
const CPUS: &[(&str, u32, bool)] = &[
    ("x86-64", 128, false),
    ("x86-64-v2", 128, false),
    ("x86-64-v3", 256, true),
    ("x86-64-v4", 512, true),
    ("haswell", 256, true),
    ("broadwell", 256, true),
    ("skylake", 256, true),
    ("alderlake", 256, true),
    ("znver1", 256, true),
    ("znver2", 256, true),
    ("znver3", 256, true),
    ("skylake-avx512", 512, true),
    ("cascadelake", 512, true),
    ("icelake-server", 512, true),
    ("sapphirerapids", 512, true),
    ("znver4", 512, true),
    ("znver5", 512, true),
];

/// What the LLVM backend generates code for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlvmTarget {
    pub triple: String,
    pub cpu: String,
    /// LLVM feature string (`+avx512f,...`); empty for a named CPU's defaults.
    pub features: String,
    pub vector_bits: u32,
    pub fma: bool,
    /// Whether this is the machine tcc runs on (the JIT needs it).
    pub is_host: bool,
}

fn init() -> Result<(), CodegenError> {
    LTarget::initialize_native(&InitializationConfig::default()).map_err(CodegenError::Backend)
}

impl LlvmTarget {
    /// The host: its CPU name, all its features, and the widest vectors they allow.
    pub fn host() -> Result<LlvmTarget, CodegenError> {
        init()?;
        let features = TargetMachine::get_host_cpu_features().to_string();
        let has = |f: &str| features.split(',').any(|x| x == format!("+{f}"));
        let fma = has("fma");
        let vector_bits = if has("avx512f") {
            512
        } else if has("avx2") {
            256
        } else {
            128
        };
        Ok(LlvmTarget {
            triple: TargetMachine::get_default_triple().as_str().to_string_lossy().into_owned(),
            cpu: TargetMachine::get_host_cpu_name().to_string(),
            features,
            vector_bits,
            fma,
            is_host: true,
        })
    }

    /// The host, or a named CPU (`--cpu`) and target triple (`--target`, an x86-64
    /// triple, parsed with target-lexicon).
    pub fn new(cpu: Option<&str>, triple: Option<&str>) -> Result<LlvmTarget, CodegenError> {
        let mut t = LlvmTarget::host()?;
        if let Some(text) = triple {
            let parsed: target_lexicon::Triple =
                text.parse().map_err(|e| CodegenError::Unsupported(format!("target '{text}': {e}")))?;
            if parsed.architecture != target_lexicon::Architecture::X86_64 {
                return Err(CodegenError::Unsupported(format!(
                    "target '{text}': tcc generates x86-64 code only (architecture {})",
                    parsed.architecture
                )));
            }
            let normalized = parsed.to_string();
            if normalized != t.triple {
                t.is_host = false;
                t.triple = normalized;
            }
        }
        if let Some(name) = cpu.filter(|c| *c != "native" && *c != "host") {
            let (_, bits, fma) = CPUS.iter().find(|(n, _, _)| *n == name).ok_or_else(|| {
                let known: Vec<&str> = CPUS.iter().map(|(n, _, _)| *n).collect();
                CodegenError::Unsupported(format!("CPU '{name}' (known: native, {})", known.join(", ")))
            })?;
            t = LlvmTarget {
                cpu: name.to_string(),
                features: String::new(),
                vector_bits: *bits,
                fma: *fma,
                is_host: false,
                ..t
            };
        }
        Ok(t)
    }

    /// The description the layers above codegen read.
    pub fn target(&self) -> Target {
        let registers = if self.vector_bits == 512 { 32 } else { 16 };
        // 512-bit vectors mean AVX-512 (F and VL on every CPU tcc knows): vscalefps.
        let ldexp = self.vector_bits == 512;
        // bf16 matmuls call the AVX-512 bf16 dot microkernel (AVX512_BF16's `vdpbf16ps`
        // where the CPU has it), recorded as an AVX-512 requirement in objects.
        let bf16_dot = self.vector_bits == 512;
        Target { ldexp, fma: self.fma, prefetch: true, bf16_dot, ..Target::host(self.vector_bits, registers) }
    }

    fn machine(&self, reloc: RelocMode) -> Result<TargetMachine, CodegenError> {
        init()?;
        let triple = TargetTriple::create(&self.triple);
        let target = LTarget::from_triple(&triple).map_err(|e| CodegenError::Backend(e.to_string()))?;
        target
            .create_target_machine(
                &triple,
                &self.cpu,
                &self.features,
                OptimizationLevel::Aggressive,
                reloc,
                CodeModel::Default,
            )
            .ok_or_else(|| {
                CodegenError::Backend(format!("LLVM has no target machine for {} ({})", self.triple, self.cpu))
            })
    }

    /// The attributes every function gets.
    fn function_attributes(&self) -> Vec<(String, String)> {
        let mut a = vec![("target-cpu".to_string(), self.cpu.clone())];
        if !self.features.is_empty() {
            a.push(("target-features".into(), self.features.clone()));
        }
        a.push(("min-legal-vector-width".into(), self.vector_bits.to_string()));
        a.push(("prefer-vector-width".into(), self.vector_bits.to_string()));
        a
    }
}

/// How constant buffers are referenced: by address (JIT; the compiled model keeps the
/// data alive), as private read-only globals named after a prefix (object files), or,
/// for listings (`--emit=llvm|asm`), as globals whose data is left out above
/// [`LISTED_CONSTANT_BYTES`] (declared `external`, so weights do not flood the text).
enum Constants {
    Addresses(HashMap<Op, u64>),
    Globals(String),
    Listing(String),
}

/// The largest constant whose bytes a listing shows.
const LISTED_CONSTANT_BYTES: usize = 256;

/// Builds the LLVM module: the entry function `entry_name` (external, so optimization
/// keeps it), every outlined loop, and the constants. Returns the run-time
/// check messages.
fn build<'ctx>(
    ctx: &'ctx Context,
    lm: &Module,
    prep: &Prepared,
    target: &LlvmTarget,
    constants: Constants,
    entry_name: &str,
) -> Result<(LModule<'ctx>, Vec<String>), CodegenError> {
    let module = ctx.create_module("tcc_model");
    module.set_triple(&TargetTriple::create(&target.triple));
    let ptr = ctx.ptr_type(inkwell::AddressSpace::default());
    let mut const_ptrs: HashMap<Op, PointerValue> = HashMap::new();
    for (i, (op, d)) in constant_buffers(lm, prep.func).into_iter().enumerate() {
        let p = match &constants {
            Constants::Addresses(addresses) => ctx.i64_type().const_int(addresses[&op], false).const_to_pointer(ptr),
            Constants::Globals(prefix) | Constants::Listing(prefix) => {
                let name = format!("{prefix}_const_{i}");
                let size = d.numel() * d.elem().byte_size();
                let g = if matches!(constants, Constants::Listing(_)) && size > LISTED_CONSTANT_BYTES {
                    let array = ctx.i8_type().array_type(u32::try_from(size).unwrap_or(u32::MAX));
                    let g = module.add_global(array, None, &name);
                    g.set_linkage(Linkage::External);
                    g
                } else {
                    let init = ctx.const_string(&d.to_bytes(), false);
                    let g = module.add_global(init.get_type(), None, &name);
                    g.set_initializer(&init);
                    g.set_linkage(Linkage::Private);
                    g
                };
                g.set_constant(true);
                g.set_alignment(64);
                g.as_pointer_value()
            }
        };
        const_ptrs.insert(op, p);
    }
    let mut shared = Shared {
        m: lm,
        ctx,
        module: &module,
        asserts: Vec::new(),
        constants: const_ptrs,
        outlines: Vec::new(),
        outlined: 0,
        outlined_by_key: HashMap::new(),
        function_attributes: target.function_attributes(),
        avx512: target.vector_bits == 512,
    };

    // The entry: (args, workspace, pool, status).
    let entry_ty = ctx.void_type().fn_type(&[ptr.into(), ptr.into(), ptr.into(), ptr.into()], false);
    let main = shared.function(entry_name, entry_ty, true);
    main.set_linkage(Linkage::External);
    ctx.append_basic_block(main, "entry");
    let p: Vec<PointerValue> = main.get_param_iter().map(|v| v.into_pointer_value()).collect();
    {
        let mut t = Translator::new(&mut shared, main, p[3], Some(p[2]), Some(p[1]));
        for (i, &a) in lm.block_args(prep.entry_block).iter().enumerate() {
            let i64t = t.shared.ctx.i64_type();
            // SAFETY: `args` holds one pointer per model argument.
            let slot = unsafe { t.b.build_in_bounds_gep(ptr, p[0], &[i64t.const_int(i as u64, false)], "")? };
            let buf = t.b.build_load(ptr, slot, "")?;
            t.bind(a, buf);
        }
        t.block(prep.entry_block)?;
    }

    while let Some(Outline { function, op, captures, kind }) = shared.outlines.pop() {
        ctx.append_basic_block(function, "entry");
        let cx = function.get_nth_param(0).expect("ctx").into_pointer_value();
        let i64t = ctx.i64_type();
        let mut t = Translator::new(&mut shared, function, cx, None, None);
        let status = t.b.build_load(ptr, cx, "status")?.into_pointer_value();
        t.status = status;
        let mut loaded = Vec::new();
        for (i, &v) in captures.iter().enumerate() {
            let ty = t.shared.llvm_type(lm.value_type(v))?;
            // SAFETY: the caller stored one 8-byte slot per capture after the status.
            let slot = unsafe { t.b.build_in_bounds_gep(i64t, cx, &[i64t.const_int(i as u64 + 1, false)], "")? };
            loaded.push((v, t.b.build_load(ty, slot, "")?));
        }
        for (v, x) in loaded {
            t.bind(v, x);
        }
        t.materialize_outer_constants(op)?;
        if kind == OutlineKind::SerialLoop {
            t.rolled_loops = true;
            t.op(op)?;
            t.b.build_return(None)?;
            continue;
        }
        let begin = function.get_nth_param(1).expect("begin").into_int_value();
        let end = function.get_nth_param(2).expect("end").into_int_value();
        // for iv in lb + begin .. lb + end
        let lb = t.value(lm.operand(op, 0)).into_int_value();
        let first = t.b.build_int_add(lb, begin, "")?;
        let last = t.b.build_int_add(lb, end, "")?;
        let pre = t.b.get_insert_block().expect("positioned");
        let header = ctx.append_basic_block(function, "loop");
        let body = ctx.append_basic_block(function, "body");
        let exit = ctx.append_basic_block(function, "exit");
        t.b.build_unconditional_branch(header)?;
        t.b.position_at_end(header);
        let iv = t.b.build_phi(i64t, "iv")?;
        iv.add_incoming(&[(&first, pre)]);
        let ivv = iv.as_basic_value().into_int_value();
        let go = t.b.build_int_compare(inkwell::IntPredicate::SLT, ivv, last, "")?;
        t.b.build_conditional_branch(go, body, exit)?;
        t.b.position_at_end(body);
        let region_block = lm.region_blocks(lm.regions(op)[0])[0];
        t.bind(lm.block_args(region_block)[0], ivv.into());
        t.block(region_block)?;
        let next = t.b.build_int_add(ivv, i64t.const_int(1, false), "")?;
        let latch = t.b.get_insert_block().expect("positioned");
        t.b.build_unconditional_branch(header)?;
        iv.add_incoming(&[(&next, latch)]);
        t.b.position_at_end(exit);
        t.b.build_return(None)?;
    }
    let asserts = std::mem::take(&mut shared.asserts);
    drop(shared);
    module.verify().map_err(|e| CodegenError::Backend(format!("LLVM rejected the generated IR: {e}")))?;
    Ok((module, asserts))
}

fn optimize(module: &LModule, machine: &TargetMachine) -> Result<(), CodegenError> {
    module
        .run_passes("default<O3>", machine, PassBuilderOptions::create())
        .map_err(|e| CodegenError::Backend(format!("LLVM optimization failed: {e}")))
}

fn diagnose<T>(lm: &Module, r: Result<T, CodegenError>) -> Result<T, Diagnostics> {
    r.map_err(|e| Diagnostics::error(lm.loc(lm.top()).clone(), e.to_string()))
}

/// JIT-compiles the loop-level module for the host.
pub fn compile_jit(
    lm: &Module,
    target: &LlvmTarget,
    keep_listings: bool,
    symbols: RuntimeSymbols,
) -> Result<CompiledModel, Diagnostics> {
    diagnose(lm, jit(lm, target, keep_listings, symbols))
}

fn jit(
    lm: &Module,
    target: &LlvmTarget,
    keep_listings: bool,
    symbols: RuntimeSymbols,
) -> Result<CompiledModel, CodegenError> {
    if !target.is_host {
        return Err(CodegenError::Unsupported(format!(
            "running code for {} ({}) on this machine: --cpu/--target are for --emit=obj|asm|llvm",
            target.triple, target.cpu
        )));
    }
    let prep = prepare(lm)?;
    // Constant buffers: the data stays where the IR keeps it (splats get storage).
    let (addresses, keep_alive) = pin_constants(lm, prep.func)?;
    let holder = JitHolder::new();
    let ctx: &'static Context = holder.context();
    let (module, asserts) = build(ctx, lm, &prep, target, Constants::Addresses(addresses), "tcc_model_main")?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    parallel::optimize_parallel(&module, target, RelocMode::Default, cores, parallel::PARALLEL_FROM_INSTRUCTIONS)?;
    let machine = target.machine(RelocMode::Default)?;
    let mut listings = Vec::new();
    if keep_listings {
        listings.push(listing(&module, &machine)?);
    }
    let ee = module
        .create_jit_execution_engine(OptimizationLevel::Aggressive)
        .map_err(|e| CodegenError::Backend(format!("LLVM JIT: {e}")))?;
    for &(name, addr) in symbols {
        if let Some(f) = module.get_function(name) {
            ee.add_global_mapping(&f, addr as usize);
        }
    }
    let addr = ee.get_function_address("tcc_model_main").map_err(|e| CodegenError::Backend(e.to_string()))?;
    // SAFETY: the entry function was built with exactly EntryFn's signature.
    let entry: EntryFn = unsafe { std::mem::transmute::<usize, EntryFn>(addr) };
    Ok(CompiledModel {
        entry,
        signature: prep.signature,
        workspace_size: prep.workspace_size,
        asserts,
        listings,
        kernels: prep.kernels,
        _jit: Box::new(holder.with_engine(ee)),
        _constants: keep_alive,
    })
}

/// The whole module as one listing: LLVM IR and assembly.
fn listing(module: &LModule, machine: &TargetMachine) -> Result<FunctionListing, CodegenError> {
    let asm =
        machine.write_to_memory_buffer(module, FileType::Assembly).map_err(|e| CodegenError::Backend(e.to_string()))?;
    Ok(FunctionListing {
        name: "module".into(),
        ir: module.print_to_string().to_string(),
        code: Vec::new(),
        asm: Some(String::from_utf8_lossy(asm.as_slice()).into_owned()),
    })
}

/// LLVM IR or assembly of the optimized module (`--emit=llvm|asm`), for any target;
/// constants over [`LISTED_CONSTANT_BYTES`] are declared, not listed.
pub fn emit_text(lm: &Module, target: &LlvmTarget, assembly: bool) -> Result<String, Diagnostics> {
    diagnose(
        lm,
        (|| {
            let prep = prepare(lm)?;
            let ctx = Context::create();
            let (module, _) = build(&ctx, lm, &prep, target, Constants::Listing("tcc_model".into()), "tcc_model_main")?;
            let machine = target.machine(RelocMode::PIC)?;
            optimize(&module, &machine)?;
            let l = listing(&module, &machine)?;
            Ok(if assembly { l.asm.unwrap_or_default() } else { l.ir })
        })(),
    )
}

/// Compiles the loop-level module to an object for a model named `name`, with the same
/// C interface (`NAME_run`, `NAME_run_threads`) and header as the Cranelift backend's.
pub fn compile_object(lm: &Module, target: &LlvmTarget, name: &str, source: &str) -> Result<ObjectCode, Diagnostics> {
    diagnose(lm, object(lm, target, name, source))
}

fn object(lm: &Module, target: &LlvmTarget, name: &str, source: &str) -> Result<ObjectCode, CodegenError> {
    if !header::is_c_identifier(name) {
        return Err(CodegenError::Unsupported(format!("model name '{name}': it must be a C identifier")));
    }
    let prep = prepare(lm)?;
    let ctx = Context::create();
    let entry_name = format!("{name}_entry");
    let (module, asserts) = build(&ctx, lm, &prep, target, Constants::Globals(name.to_string()), &entry_name)?;
    let (n_in, n_out) = (prep.signature.inputs.len(), prep.signature.outputs.len());
    let machine = target.machine(RelocMode::PIC)?;
    let size_t = ctx.ptr_sized_int_type(&machine.get_target_data(), None);
    for with_threads in [false, true] {
        let isa = tcc_runtime_abi::Isa::code(tcc_dialect_loop::microkernel::required_isa(lm));
        define_wrapper(&ctx, &module, name, &entry_name, n_in, n_out, size_t, prep.workspace_size, with_threads, isa)?;
    }
    // Only the wrappers are exported, so models with different names link together.
    if let Some(entry) = module.get_function(&entry_name) {
        entry.set_linkage(Linkage::Internal);
    }
    optimize(&module, &machine)?;
    let buf =
        machine.write_to_memory_buffer(&module, FileType::Object).map_err(|e| CodegenError::Backend(e.to_string()))?;
    let header = header::c_header(name, source, &prep.signature, prep.workspace_size, &asserts);
    Ok(ObjectCode { object: buf.as_slice().to_vec(), header })
}

/// `int NAME_run(inputs, outputs[, threads])`: calls `tcc_aot_run(entry, inputs, n_in,
/// outputs, n_out, workspace_size, threads, isa)` (threads 0 without the argument; `isa`
/// the microkernel level the code calls, which the runtime checks before running), the same
/// call as the Cranelift backend's wrapper; `size_t` is the target's pointer-sized int.
#[allow(clippy::too_many_arguments)]
fn define_wrapper<'ctx>(
    ctx: &'ctx Context,
    module: &LModule<'ctx>,
    name: &str,
    entry_name: &str,
    n_in: usize,
    n_out: usize,
    size_t: IntType<'ctx>,
    workspace_size: usize,
    with_threads: bool,
    isa: i32,
) -> Result<(), CodegenError> {
    let ptr = ctx.ptr_type(inkwell::AddressSpace::default());
    let i32t = ctx.i32_type();
    // entry, inputs, n_inputs, outputs, n_outputs, workspace_size, threads, microkernel level
    let aot_ty = i32t.fn_type(
        &[ptr.into(), ptr.into(), size_t.into(), ptr.into(), size_t.into(), size_t.into(), i32t.into(), i32t.into()],
        false,
    );
    let aot_run =
        module.get_function(symbols::AOT_RUN).unwrap_or_else(|| module.add_function(symbols::AOT_RUN, aot_ty, None));
    let mut params = vec![ptr.into(), ptr.into()];
    if with_threads {
        params.push(i32t.into());
    }
    let fname = if with_threads { format!("{name}_run_threads") } else { format!("{name}_run") };
    let f = module.add_function(&fname, i32t.fn_type(&params, false), None);
    let b = ctx.create_builder();
    b.position_at_end(ctx.append_basic_block(f, "entry"));
    let (inputs, outputs) = (
        f.get_nth_param(0).expect("inputs").into_pointer_value(),
        f.get_nth_param(1).expect("outputs").into_pointer_value(),
    );
    let entry = module.get_function(entry_name).expect("the entry is defined");
    let threads = if with_threads { f.get_nth_param(2).expect("threads").into_int_value() } else { i32t.const_zero() };
    let fp = entry.as_global_value().as_pointer_value();
    let count = |n: usize| size_t.const_int(n as u64, false);
    let args = [
        fp.into(),
        inputs.into(),
        count(n_in).into(),
        outputs.into(),
        count(n_out).into(),
        count(workspace_size).into(),
        threads.into(),
        i32t.const_int(isa as u64, true).into(),
    ];
    let r = b.build_call(aot_run, &args, "")?;
    let r = r.try_as_basic_value().basic().ok_or_else(|| CodegenError::Backend("tcc_aot_run returns an int".into()))?;
    b.build_return(Some(&r))?;
    Ok(())
}

/// Owns a JIT's LLVM context and execution engine (which owns the code), freeing both
/// when the compiled model goes away.
struct JitHolder {
    context: *mut Context,
    engine: Option<ExecutionEngine<'static>>,
}

impl JitHolder {
    fn new() -> JitHolder {
        JitHolder { context: Box::into_raw(Box::new(Context::create())), engine: None }
    }

    /// The context, for as long as the holder lives (it is freed only in `drop`, after
    /// everything built in it).
    fn context(&self) -> &'static Context {
        // SAFETY: the box is freed in `drop`, after the engine, the only thing built from
        // the context that outlives compilation.
        unsafe { &*self.context }
    }

    fn with_engine(mut self, engine: ExecutionEngine<'static>) -> JitHolder {
        self.engine = Some(engine);
        self
    }
}

impl Drop for JitHolder {
    fn drop(&mut self) {
        self.engine = None;
        // SAFETY: created by Box::into_raw in `new`; nothing refers to it any more.
        unsafe { drop(Box::from_raw(self.context)) };
    }
}

// SAFETY: the context and engine are only kept to own the code; they are never used
// again after compilation, from any thread.
unsafe impl Send for JitHolder {}
unsafe impl Sync for JitHolder {}
