//! Ahead-of-time compilation to an ELF object (`tcc --emit=obj`).
//!
//! The object holds the model's code, its constants as read-only data, and two exported
//! C functions, for a model named `hm`:
//!
//! ```c
//! int hm_run(const float *const *inputs, float *const *outputs);
//! int hm_run_threads(const float *const *inputs, float *const *outputs, int threads);
//! ```
//!
//! Each passes the caller's arrays with their lengths, the workspace size and the thread
//! count (0 for `hm_run`) to the runtime's `tcc_aot_run` with the model's (local) entry
//! function; the runtime checks the pointers and the thread count before anything runs
//! (`tcc_runtime::aot`). Everything else in the object is local, so two models link
//! into one program without clashes. See [`crate::header`] for the header.

use std::collections::HashMap;

use cranelift_codegen::ir::{AbiParam, InstBuilder, UserFuncName, types};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_module::{DataDescription, FuncId, Linkage, Module as ClModule, default_libcall_names};
use cranelift_object::{ObjectBuilder, ObjectModule};
use tcc_ir::{Diagnostics, Module};
use tcc_runtime_abi::symbols;

use super::translate::ConstantRef;
use super::{backend_err, define, define_functions, host_isa};
use crate::model::{constant_buffers, prepare};
use crate::{CodegenError, header};

/// An object file and its C header.
pub struct ObjectCode {
    pub object: Vec<u8>,
    pub header: String,
}

/// Compiles the loop-level module to an object for a model named `name` (a C
/// identifier); `source` names the model file in the header's comment.
pub fn compile_object(lm: &Module, name: &str, source: &str) -> Result<ObjectCode, Diagnostics> {
    compile(lm, name, source).map_err(|e| Diagnostics::error(lm.loc(lm.top()).clone(), e.to_string()))
}

fn compile(lm: &Module, name: &str, source: &str) -> Result<ObjectCode, CodegenError> {
    if !header::is_c_identifier(name) {
        return Err(CodegenError::Unsupported(format!("model name '{name}': it must be a C identifier")));
    }
    let prep = prepare(lm)?;
    let isa = host_isa(true)?;
    let mut module = ObjectModule::new(ObjectBuilder::new(isa, name, default_libcall_names()).map_err(backend_err)?);

    // Constants become read-only data in the object.
    let mut constants = HashMap::new();
    for (i, (op, d)) in constant_buffers(lm, prep.func).into_iter().enumerate() {
        let id =
            module.declare_data(&format!("{name}_const_{i}"), Linkage::Local, false, false).map_err(backend_err)?;
        let mut desc = DataDescription::new();
        desc.define(d.to_bytes().into_boxed_slice());
        desc.set_align(64);
        module.define_data(id, &desc).map_err(backend_err)?;
        constants.insert(op, ConstantRef::Data(id));
    }
    let (main_id, asserts) =
        define_functions(&mut module, lm, &prep, constants, &format!("{name}_entry"), Linkage::Local, None)?;
    let (n_in, n_out) = (prep.signature.inputs.len(), prep.signature.outputs.len());
    for with_threads in [false, true] {
        let isa = tcc_runtime_abi::Isa::code(tcc_dialect_loop::microkernel::required_isa(lm));
        define_wrapper(&mut module, name, main_id, n_in, n_out, prep.workspace_size, with_threads, isa)?;
    }
    let object = module.finish().emit().map_err(|e| CodegenError::Backend(e.to_string()))?;
    let header = header::c_header(name, source, &prep.signature, prep.workspace_size, &asserts);
    Ok(ObjectCode { object, header })
}

/// `int NAME_run(inputs, outputs[, threads])`: calls `tcc_aot_run(entry, inputs, n_in,
/// outputs, n_out, workspace_size, threads, isa)` (threads 0 without the argument; `isa`
/// the microkernel level the code calls, which the runtime checks before running).
fn define_wrapper(
    module: &mut ObjectModule,
    name: &str,
    entry: FuncId,
    n_in: usize,
    n_out: usize,
    workspace_size: usize,
    with_threads: bool,
    isa: i32,
) -> Result<(), CodegenError> {
    let ptr = module.target_config().pointer_type();
    // entry, inputs, n_inputs, outputs, n_outputs, workspace_size (pointer-sized),
    // threads, the microkernel level
    let mut aot_sig = module.make_signature();
    aot_sig.params.extend([ptr; 6].map(AbiParam::new));
    aot_sig.params.extend([AbiParam::new(types::I32), AbiParam::new(types::I32)]);
    aot_sig.returns.push(AbiParam::new(types::I32));
    let aot_run = module.declare_function(symbols::AOT_RUN, Linkage::Import, &aot_sig).map_err(backend_err)?;

    let mut sig = module.make_signature();
    sig.params.extend([AbiParam::new(ptr), AbiParam::new(ptr)]);
    if with_threads {
        sig.params.push(AbiParam::new(types::I32));
    }
    sig.returns.push(AbiParam::new(types::I32));
    let fname = if with_threads { format!("{name}_run_threads") } else { format!("{name}_run") };
    let id = module.declare_function(&fname, Linkage::Export, &sig).map_err(backend_err)?;
    let mut ctx = module.make_context();
    ctx.func.signature = sig;
    ctx.func.name = UserFuncName::user(0, id.as_u32());
    let mut fbc = FunctionBuilderContext::new();
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fbc);
        let blk = b.create_block();
        b.append_block_params_for_function_params(blk);
        b.switch_to_block(blk);
        let p = b.block_params(blk).to_vec();
        let (inputs, outputs) = (p[0], p[1]);
        let entry_ref = module.declare_func_in_func(entry, b.func);
        let fp = b.ins().func_addr(ptr, entry_ref);
        let n_in = b.ins().iconst(ptr, n_in as i64);
        let n_out = b.ins().iconst(ptr, n_out as i64);
        let ws = b.ins().iconst(ptr, workspace_size as i64);
        let threads = if with_threads { p[2] } else { b.ins().iconst(types::I32, 0) };
        let run = module.declare_func_in_func(aot_run, b.func);
        let isa = b.ins().iconst(types::I32, isa as i64);
        let call = b.ins().call(run, &[fp, inputs, n_in, outputs, n_out, ws, threads, isa]);
        let r = b.inst_results(call)[0];
        b.ins().return_(&[r]);
        b.seal_all_blocks();
        b.finalize(module.target_config());
    }
    define(module, &mut ctx, id, &fname, None)
}
