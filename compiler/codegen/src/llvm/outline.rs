//! The entry function's loops outlined into functions of their own: a `loop.parallel`
//! body becomes `fn(ctx, begin, end)` called back by `tcc_parallel_for_blocks`, and a
//! sequential loop nest `fn(ctx)` called directly (see [`OutlineKind`]). The values a
//! loop captures go through a stack frame of 8-byte slots after the status pointer.

use inkwell::llvm_sys::core as raw;
use inkwell::llvm_sys::prelude::LLVMValueRef;
use inkwell::values::{FunctionValue, PointerValue};
use tcc_dialect_loop as lp;
use tcc_ir::{Module, Op, Value};
use tcc_runtime_abi::symbols;

use super::translate::{Outline, OutlineKind, Translator};
use crate::CodegenError;
use crate::model::{captures_of, outline_key};

impl<'ctx> Translator<'_, 'ctx, '_> {
    /// Marks the loop whose back edge is `branch` `llvm.loop.unroll.disable`: loop
    /// metadata `!{self, !{"llvm.loop.unroll.disable"}}`, made self-referential through
    /// a temporary node.
    pub(super) fn disable_unrolling(&self, branch: LLVMValueRef) {
        use inkwell::llvm_sys::debuginfo::{LLVMMetadataReplaceAllUsesWith, LLVMTemporaryMDNode};
        const DISABLE: &str = "llvm.loop.unroll.disable";
        const LOOP: &str = "llvm.loop";
        let ctx = self.shared.ctx.raw();
        // SAFETY: every node is created in this context; the temporary is replaced (and
        // freed) before the node is used.
        unsafe {
            let name = raw::LLVMMDStringInContext2(ctx, DISABLE.as_ptr().cast(), DISABLE.len());
            let mut option = [name];
            let disable = raw::LLVMMDNodeInContext2(ctx, option.as_mut_ptr(), 1);
            let temporary = LLVMTemporaryMDNode(ctx, std::ptr::null_mut(), 0);
            let mut operands = [temporary, disable];
            let id = raw::LLVMMDNodeInContext2(ctx, operands.as_mut_ptr(), 2);
            LLVMMetadataReplaceAllUsesWith(temporary, id);
            let kind = raw::LLVMGetMDKindIDInContext(ctx, LOOP.as_ptr().cast(), LOOP.len() as u32);
            raw::LLVMSetMetadata(branch, kind, raw::LLVMMetadataAsValue(ctx, id));
        }
    }

    /// Stores the status pointer and `captures` into a stack frame (allocated in the
    /// entry block, so a loop inside a sequential one reuses the slot) for an outlined
    /// function to read.
    fn capture_frame(&mut self, captures: &[Value]) -> Result<PointerValue<'ctx>, CodegenError> {
        let m = self.m();
        let i64t = self.shared.ctx.i64_type();
        // Slot 0 holds the status pointer; captures follow, 8 bytes each.
        let slots = i64t.array_type(captures.len() as u32 + 1);
        let entry = self.function.get_first_basic_block().expect("the function has a body");
        let at_entry = self.shared.ctx.create_builder();
        match entry.get_first_instruction() {
            Some(first) => at_entry.position_before(&first),
            None => at_entry.position_at_end(entry),
        }
        let frame = at_entry.build_alloca(slots, "ctx")?;
        let slot = |t: &Self, i: u64| -> Result<PointerValue<'ctx>, CodegenError> {
            // SAFETY: `i` is below the array's length.
            Ok(unsafe { t.b.build_in_bounds_gep(i64t, frame, &[i64t.const_int(i, false)], "")? })
        };
        self.b.build_store(slot(self, 0)?, self.status)?;
        for (i, &v) in captures.iter().enumerate() {
            if m.value_type(v).as_vector().is_some() {
                return Err(CodegenError::Unsupported("a vector value captured by an outlined loop".into()));
            }
            let x = self.value(v);
            self.b.build_store(slot(self, i as u64 + 1)?, x)?;
        }
        Ok(frame)
    }

    pub(super) fn parallel(&mut self, op: Op) -> Result<(), CodegenError> {
        let m = self.m();
        let captures = captures_of(m, op);
        let frame = self.capture_frame(&captures)?;
        let ctx = self.shared.ctx;
        let i64t = ctx.i64_type();
        let (body, new) = self.outlined_function(op, &captures, OutlineKind::ParallelBody);
        let lb = self.value(m.operand(op, 0)).into_int_value();
        let ub = self.value(m.operand(op, 1)).into_int_value();
        let n = self.b.build_int_sub(ub, lb, "")?;
        let ptr = self.shared.ptr();
        let pf_ty = ctx.void_type().fn_type(&[ptr.into(), ptr.into(), ptr.into(), i64t.into(), i64t.into()], false);
        let pf = self.shared.function(symbols::PARALLEL_FOR, pf_ty, false);
        let pool = self.pool.ok_or_else(|| CodegenError::Unsupported("nested parallel loops".into()))?;
        let fp = body.as_global_value().as_pointer_value();
        let blocks = m.attr(op, tcc_dialect_loop::PARALLEL_BLOCKS).and_then(|a| a.as_i64()).unwrap_or(0);
        let blocks = i64t.const_int(blocks as u64, false);
        self.b.build_call(pf, &[pool.into(), fp.into(), frame.into(), n.into(), blocks.into()], "")?;
        if new {
            self.shared.outlines.push(Outline { function: body, op, captures, kind: OutlineKind::ParallelBody });
        }
        Ok(())
    }

    /// Outlines a sequential loop nest of the entry function into a `noinline`
    /// function and calls it ([`OutlineKind::SerialLoop`]).
    pub(super) fn serial(&mut self, op: Op) -> Result<(), CodegenError> {
        let captures = captures_of(self.m(), op);
        let frame = self.capture_frame(&captures)?;
        let (function, new) = self.outlined_function(op, &captures, OutlineKind::SerialLoop);
        self.b.build_call(function, &[frame.into()], "")?;
        if new {
            self.shared.outlines.push(Outline { function, op, captures, kind: OutlineKind::SerialLoop });
        }
        Ok(())
    }

    /// The function for loop `op` outlined as `kind`: the one made earlier for an
    /// identical loop ([`outline_key`]), or a new one (then `true`: its body is still
    /// to be compiled).
    fn outlined_function(&mut self, op: Op, captures: &[Value], kind: OutlineKind) -> (FunctionValue<'ctx>, bool) {
        let key = format!("{kind:?} {}", outline_key(self.m(), op, captures));
        if let Some(&f) = self.shared.outlined_by_key.get(&key) {
            return (f, false);
        }
        let (name, ty) = match kind {
            OutlineKind::ParallelBody => ("tcc_parallel_body", self.shared.body_type()),
            OutlineKind::SerialLoop => ("tcc_serial_loop", self.shared.serial_type()),
        };
        let function = self.shared.function(&format!("{name}_{}", self.shared.outlined), ty, true);
        self.shared.outlined += 1;
        if kind == OutlineKind::SerialLoop {
            let noinline = inkwell::attributes::Attribute::get_named_enum_kind_id("noinline");
            function.add_attribute(
                inkwell::attributes::AttributeLoc::Function,
                self.shared.ctx.create_enum_attribute(noinline, 0),
            );
        }
        self.shared.outlined_by_key.insert(key, function);
        (function, true)
    }
}

/// Whether a sequential loop of the entry function can become its own function: it
/// yields no values, and holds no parallel loop or workspace (which only the entry
/// function has) and no vector captures (outlined functions take 8-byte slots).
pub(super) fn is_outlinable(m: &Module, op: Op) -> bool {
    m.results(op).is_empty()
        && m.walk(op)
            .into_iter()
            .all(|inner| !matches!(lp::kind_of(m, inner), Some(lp::LoopOp::Parallel | lp::LoopOp::Workspace)))
        && captures_of(m, op).iter().all(|&v| m.value_type(v).as_vector().is_none())
}
