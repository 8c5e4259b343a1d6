//! LLVM's optimization pipeline on every core. An LLVM context is single-threaded, so
//! the module's functions are split into parts of about equal size; each part is
//! optimized in a context of its own on a thread of its own (the other parts' functions
//! reduced to declarations), then the parts are linked back into the module, which
//! code generation then sees as if it had been optimized whole. Nothing crosses
//! functions that the pipeline could exploit: kernels are called through pointers and
//! outlined loops are `noinline`.

use std::collections::HashSet;

use inkwell::context::Context;
use inkwell::llvm_sys::core as raw;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::{Linkage, Module as LModule};
use inkwell::targets::RelocMode;
use inkwell::values::FunctionValue;

use super::{LlvmTarget, optimize};
use crate::CodegenError;

/// Modules below this many instructions are optimized on one thread: splitting costs
/// more than it saves. (SqueezeNet's 18,000 instructions optimize in 270 ms on one
/// thread and 190 ms on two.)
pub const PARALLEL_FROM_INSTRUCTIONS: usize = 2_000;

/// Optimizes `module` (a JIT module: constants are addresses, so no large globals are
/// copied into the parts) in up to `threads` parts, if it has at least `min_instructions`
/// instructions.
pub fn optimize_parallel(
    module: &LModule,
    target: &LlvmTarget,
    reloc: RelocMode,
    threads: usize,
    min_instructions: usize,
) -> Result<(), CodegenError> {
    let defined: Vec<(FunctionValue, usize)> =
        module.get_functions().filter(|f| f.count_basic_blocks() > 0).map(|f| (f, instructions(f))).collect();
    let total: usize = defined.iter().map(|(_, n)| n).sum();
    let parts = threads.min(defined.len()).max(1);
    if parts == 1 || total < min_instructions {
        return optimize(module, &target.machine(reloc)?);
    }
    // Largest first, each to the lightest part.
    let mut order: Vec<usize> = (0..defined.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(defined[i].1));
    let mut load = vec![0usize; parts];
    let mut part_of = vec![0usize; defined.len()];
    for i in order {
        let k = (0..parts).min_by_key(|&k| load[k]).expect("at least one part");
        part_of[i] = k;
        load[k] += defined[i].1;
    }
    // Every function must be visible to the other parts' declarations of it.
    for (f, _) in &defined {
        if f.get_linkage() == Linkage::Internal {
            f.set_linkage(Linkage::External);
            f.as_global_value().set_visibility(inkwell::GlobalVisibility::Hidden);
        }
    }
    let names: Vec<String> = defined.iter().map(|(f, _)| f.get_name().to_string_lossy().into_owned()).collect();
    let bitcode = module.write_bitcode_to_memory().as_slice().to_vec();
    let optimized: Vec<Result<Vec<u8>, CodegenError>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (1..parts)
            .map(|k| {
                let keep: HashSet<&str> =
                    names.iter().zip(&part_of).filter(|&(_, &p)| p == k).map(|(n, _)| n.as_str()).collect();
                let bitcode = &bitcode;
                scope.spawn(move || optimize_part(bitcode, &keep, target, reloc))
            })
            .collect();
        // This thread's part: the module itself, without the other parts' bodies.
        for ((f, _), &p) in defined.iter().zip(&part_of) {
            if p != 0 {
                drop_body(*f);
            }
        }
        let mine = optimize(module, &target.machine(reloc)?);
        let mut results = vec![mine.map(|()| Vec::new())];
        results.extend(
            workers.into_iter().map(|w| w.join().unwrap_or_else(|_| Err(backend("an optimization thread panicked")))),
        );
        Ok::<_, CodegenError>(results)
    })?;
    let ctx = module.get_context();
    for (k, result) in optimized.into_iter().enumerate() {
        let bitcode = result?;
        if k == 0 {
            continue;
        }
        let buffer = MemoryBuffer::create_from_memory_range_copy(&bitcode, "tcc_part");
        let part = LModule::parse_bitcode_from_buffer(&buffer, ctx)
            .map_err(|e| backend(&format!("reading an optimized part back: {e}")))?;
        module.link_in_module(part).map_err(|e| backend(&format!("linking an optimized part: {e}")))?;
    }
    Ok(())
}

/// Optimizes the functions named `keep` of the module in `bitcode`, in a context of
/// this thread's; returns the optimized part's bitcode.
fn optimize_part(
    bitcode: &[u8],
    keep: &HashSet<&str>,
    target: &LlvmTarget,
    reloc: RelocMode,
) -> Result<Vec<u8>, CodegenError> {
    let ctx = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(bitcode, "tcc_part");
    let module = LModule::parse_bitcode_from_buffer(&buffer, &ctx)
        .map_err(|e| backend(&format!("reading a part to optimize: {e}")))?;
    for f in module.get_functions() {
        if f.count_basic_blocks() > 0 && !keep.contains(&f.get_name().to_string_lossy().as_ref()) {
            drop_body(f);
        }
    }
    optimize(&module, &target.machine(reloc)?)?;
    Ok(module.write_bitcode_to_memory().as_slice().to_vec())
}

fn instructions(f: FunctionValue) -> usize {
    f.get_basic_block_iter().map(|b| b.get_instructions().count()).sum()
}

/// Turns `f` into a declaration: every instruction's uses replaced by poison and the
/// instruction erased (last first), then the empty blocks deleted.
fn drop_body(f: FunctionValue) {
    let blocks: Vec<_> = f.get_basic_block_iter().collect();
    // SAFETY: every value erased here belongs to `f`; uses from inside `f` are replaced
    // before their definition goes, and nothing outside `f` refers to its instructions
    // or blocks (no `blockaddress` is ever built).
    unsafe {
        for b in blocks.iter().rev() {
            let mut inst = raw::LLVMGetLastInstruction(b.as_mut_ptr());
            while !inst.is_null() {
                let prev = raw::LLVMGetPreviousInstruction(inst);
                if !raw::LLVMGetFirstUse(inst).is_null() {
                    raw::LLVMReplaceAllUsesWith(inst, raw::LLVMGetPoison(raw::LLVMTypeOf(inst)));
                }
                raw::LLVMInstructionEraseFromParent(inst);
                inst = prev;
            }
        }
        for b in blocks {
            raw::LLVMDeleteBasicBlock(b.as_mut_ptr());
        }
    }
    f.set_linkage(Linkage::External);
}

fn backend(message: &str) -> CodegenError {
    CodegenError::Backend(format!("LLVM: {message}"))
}

#[cfg(test)]
mod tests {
    use inkwell::OptimizationLevel;
    use inkwell::context::Context;
    use inkwell::module::Linkage;

    use super::{LlvmTarget, RelocMode, instructions, optimize_parallel};

    /// `f_k(x) = f_{k-1}(x) * 3 + k` for k in 1..=n (each calling the previous one, so
    /// calls cross parts), `f_0(x) = x + 1` with a loop, all internal as tcc builds them.
    fn chain(ctx: &Context, n: u32) -> inkwell::module::Module<'_> {
        let module = ctx.create_module("chain");
        let i64t = ctx.i64_type();
        let fty = i64t.fn_type(&[i64t.into()], false);
        let b = ctx.create_builder();
        let mut prev = None;
        for k in 0..=n {
            let f = module.add_function(&format!("f_{k}"), fty, Some(Linkage::Internal));
            let entry = ctx.append_basic_block(f, "entry");
            b.position_at_end(entry);
            let x = f.get_nth_param(0).unwrap().into_int_value();
            let y = match prev {
                None => {
                    // A loop adding 1 once: blocks that refer to each other and a phi.
                    let body = ctx.append_basic_block(f, "body");
                    let exit = ctx.append_basic_block(f, "exit");
                    b.build_unconditional_branch(body).unwrap();
                    b.position_at_end(body);
                    let i = b.build_phi(i64t, "i").unwrap();
                    i.add_incoming(&[(&i64t.const_zero(), entry)]);
                    let next =
                        b.build_int_add(i.as_basic_value().into_int_value(), i64t.const_int(1, false), "").unwrap();
                    i.add_incoming(&[(&next, body)]);
                    let done =
                        b.build_int_compare(inkwell::IntPredicate::EQ, next, i64t.const_int(1, false), "").unwrap();
                    b.build_conditional_branch(done, exit, body).unwrap();
                    b.position_at_end(exit);
                    b.build_int_add(x, next, "").unwrap()
                }
                Some(p) => {
                    let r =
                        b.build_call(p, &[x.into()], "").unwrap().try_as_basic_value().unwrap_basic().into_int_value();
                    let t = b.build_int_mul(r, i64t.const_int(3, false), "").unwrap();
                    b.build_int_add(t, i64t.const_int(k as u64, false), "").unwrap()
                }
            };
            b.build_return(Some(&y)).unwrap();
            prev = Some(f);
        }
        prev.unwrap().set_linkage(Linkage::External);
        module
    }

    fn expected(x: i64, n: u32) -> i64 {
        (1..=n as i64).fold(x + 1, |y, k| y.wrapping_mul(3).wrapping_add(k))
    }

    #[test]
    fn parts_optimized_on_threads_link_back_into_a_working_module() {
        let Ok(target) = LlvmTarget::host() else { return };
        let n = 40;
        for threads in [1, 2, 3, 7] {
            let ctx = Context::create();
            let module = chain(&ctx, n);
            let before: usize = module.get_functions().map(instructions).sum();
            assert!(before > 0);
            optimize_parallel(&module, &target, RelocMode::Default, threads, 0).unwrap();
            module.verify().unwrap_or_else(|e| panic!("{threads} threads: {e}"));
            let ee = module.create_jit_execution_engine(OptimizationLevel::Default).unwrap();
            let f = ee.get_function_address(&format!("f_{n}")).unwrap();
            // SAFETY: f_n has the signature fn(i64) -> i64.
            let f: extern "C" fn(i64) -> i64 = unsafe { std::mem::transmute(f) };
            for x in [0, 5, -7] {
                assert_eq!(f(x), expected(x, n), "{threads} threads, x = {x}");
            }
        }
    }
}
