//! Translation of one loop-dialect function (or one outlined loop) to
//! LLVM IR, op for op as the Cranelift backend does, so the two agree numerically.
//!
//! Values map one to one: buffers are pointers, `index` is `i64`, `i1` is LLVM `i1`
//! (stored as a byte), vectors are LLVM vectors of any width (masks `<N x i1>`).
//! Buffer accesses are `getelementptr inbounds` on the element type by
//! `sum(index * stride)`, with element alignment. `loop.for` becomes header, body and
//! exit blocks with phis; the entry function's loops become functions of their own
//! ([`super::outline`]). Float min/max are `llvm.minimum`/`llvm.maximum`
//! (NaN-propagating, -0 < +0, like Cranelift's `fmin`/`fmax`; on vectors with AVX-512,
//! `vrangeps` and a NaN fix-up, see [`super::x86`]), reductions combine lanes in order,
//! and `rsqrt` is `1 / sqrt`, without fast-math flags anywhere.

use std::collections::HashMap;
use std::ffi::c_char;

use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::intrinsics::Intrinsic;
use inkwell::llvm_sys::core as raw;
use inkwell::llvm_sys::prelude::{LLVMBuilderRef, LLVMValueRef};
use inkwell::llvm_sys::{LLVMIntPredicate, LLVMOpcode, LLVMRealPredicate};
use inkwell::module::Module as LModule;
use inkwell::types::VectorType;
use inkwell::types::{AsTypeRef, BasicTypeEnum};
use inkwell::values::{AsValueRef, BasicMetadataValueEnum, BasicValue, BasicValueEnum, FunctionValue, PointerValue};
use inkwell::{AddressSpace, IntPredicate};
use tcc_dialect_loop::{self as lp, LoopOp};
use tcc_dialect_vector::{self as vp, VectorOp};
use tcc_ir::scalar::{Compare, ScalarFn};
use tcc_ir::{Attribute, Block, Module, Op, ScalarType, Traits, Type, Value};
use tcc_runtime_abi::symbols;

use super::outline::is_outlinable;
use crate::CodegenError;
use crate::model::{OpKind, op_kind, outer_constants};

/// Module-wide state shared by every function being translated.
pub struct Shared<'ctx, 'm> {
    pub m: &'m Module,
    pub ctx: &'ctx Context,
    pub module: &'m LModule<'ctx>,
    /// Run-time check messages; a failed check stores its index + 1 in `status`.
    pub asserts: Vec<String>,
    /// The address of each constant buffer's data.
    pub constants: HashMap<Op, PointerValue<'ctx>>,
    /// Outlined loops still to compile.
    pub outlines: Vec<Outline<'ctx>>,
    /// How many functions have been outlined (for unique names).
    pub outlined: usize,
    /// The function made for each distinct outlined loop ([`crate::model::outline_key`]).
    pub outlined_by_key: HashMap<String, FunctionValue<'ctx>>,
    /// Attributes every function gets (target CPU and features).
    pub function_attributes: Vec<(String, String)>,
    /// The target has AVX-512 (F, DQ, VL): [`super::x86`]'s instructions may be used.
    pub avx512: bool,
}

/// A loop to compile as its own function.
pub struct Outline<'ctx> {
    pub function: FunctionValue<'ctx>,
    pub op: Op,
    /// Values from outside the loop it uses, in ctx-slot order after the status pointer.
    pub captures: Vec<Value>,
    pub kind: OutlineKind,
}

/// What an outlined function holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OutlineKind {
    /// `fn(ctx, begin, end)`: iterations `begin..end` of a `loop.parallel`, called back by
    /// `tcc_parallel_for_blocks`.
    ParallelBody,
    /// `fn(ctx)`: a whole sequential loop nest of the entry function, called directly.
    /// The entry function stays a sequence of calls: LLVM's passes that grow faster than
    /// linearly with a function's size (loop strength reduction above all) then see one
    /// loop nest at a time instead of a whole model (convnext_tiny at 64x64 compiles in
    /// 3.4 s instead of 4.2 s).
    SerialLoop,
}

impl<'ctx> Shared<'ctx, '_> {
    /// Declares (or finds) a function of this module.
    pub fn function(&self, name: &str, ty: inkwell::types::FunctionType<'ctx>, local: bool) -> FunctionValue<'ctx> {
        if let Some(f) = self.module.get_function(name) {
            return f;
        }
        let linkage = local.then_some(inkwell::module::Linkage::Internal);
        let f = self.module.add_function(name, ty, linkage);
        if local {
            for (k, v) in &self.function_attributes {
                f.add_attribute(inkwell::attributes::AttributeLoc::Function, self.ctx.create_string_attribute(k, v));
            }
        }
        f
    }

    pub(super) fn ptr(&self) -> inkwell::types::PointerType<'ctx> {
        self.ctx.ptr_type(AddressSpace::default())
    }

    /// The `fn(ctx)` type of outlined sequential loops.
    pub fn serial_type(&self) -> inkwell::types::FunctionType<'ctx> {
        self.ctx.void_type().fn_type(&[self.ptr().into()], false)
    }

    /// The `fn(ctx, begin, end)` type of outlined parallel bodies.
    pub fn body_type(&self) -> inkwell::types::FunctionType<'ctx> {
        let i64t = self.ctx.i64_type();
        self.ctx.void_type().fn_type(&[self.ptr().into(), i64t.into(), i64t.into()], false)
    }

    /// The LLVM type of a scalar element, as a value (`i1` for booleans).
    pub fn scalar(&self, s: ScalarType) -> Result<BasicTypeEnum<'ctx>, CodegenError> {
        let c = self.ctx;
        Ok(match s {
            ScalarType::F32 => c.f32_type().into(),
            ScalarType::F64 => c.f64_type().into(),
            ScalarType::I1 => c.bool_type().into(),
            ScalarType::I8 => c.i8_type().into(),
            // The 16-bit floats are only loaded, stored and reinterpreted (`expand-half`):
            // their bits.
            ScalarType::I16 | ScalarType::F16 | ScalarType::BF16 => c.i16_type().into(),
            ScalarType::I32 => c.i32_type().into(),
            ScalarType::I64 | ScalarType::Index => c.i64_type().into(),
        })
    }

    /// The LLVM type of a scalar element in memory (`i1` takes a byte).
    fn stored(&self, s: ScalarType) -> Result<BasicTypeEnum<'ctx>, CodegenError> {
        if s == ScalarType::I1 { Ok(self.ctx.i8_type().into()) } else { self.scalar(s) }
    }

    /// The LLVM type of an IR value type.
    pub fn llvm_type(&self, t: &Type) -> Result<BasicTypeEnum<'ctx>, CodegenError> {
        match t {
            Type::Scalar(s) => self.scalar(*s),
            Type::Buffer(_) => Ok(self.ptr().into()),
            Type::Vector(v) => Ok(vector_of(self.scalar(v.elem)?, v.lanes)),
            other => Err(CodegenError::Unsupported(format!("type {other}"))),
        }
    }
}

fn vector_of(elem: BasicTypeEnum<'_>, lanes: u32) -> BasicTypeEnum<'_> {
    match elem {
        BasicTypeEnum::FloatType(f) => f.vec_type(lanes).into(),
        BasicTypeEnum::IntType(i) => i.vec_type(lanes).into(),
        other => other,
    }
}

const NO_NAME: *const c_char = c"".as_ptr();

type RawBinary = unsafe extern "C" fn(LLVMBuilderRef, LLVMValueRef, LLVMValueRef, *const c_char) -> LLVMValueRef;
type RawUnary = unsafe extern "C" fn(LLVMBuilderRef, LLVMValueRef, *const c_char) -> LLVMValueRef;

pub struct Translator<'a, 'ctx, 'm> {
    pub shared: &'a mut Shared<'ctx, 'm>,
    pub b: Builder<'ctx>,
    pub function: FunctionValue<'ctx>,
    vals: HashMap<Value, BasicValueEnum<'ctx>>,
    /// Where a failed run-time check writes its id.
    pub status: PointerValue<'ctx>,
    /// The thread pool (main function only; outlined bodies never start parallel loops).
    pub(super) pool: Option<PointerValue<'ctx>>,
    /// The workspace base (main function only; outlined bodies capture buffer pointers).
    workspace: Option<PointerValue<'ctx>>,
    /// Loops get `llvm.loop.unroll.disable`: set for outlined sequential loops, the
    /// data movement between kernels. Fully unrolled into gathers they were 42% of the
    /// code LLVM emitted for convnext_tiny at 64x64; kept rolled, its compile time goes
    /// from 3.7 to 3.0 s and no model measured runs slower.
    pub rolled_loops: bool,
}

impl<'a, 'ctx, 'm> Translator<'a, 'ctx, 'm> {
    /// A translator appending to `function`'s (new) entry block.
    pub fn new(
        shared: &'a mut Shared<'ctx, 'm>,
        function: FunctionValue<'ctx>,
        status: PointerValue<'ctx>,
        pool: Option<PointerValue<'ctx>>,
        workspace: Option<PointerValue<'ctx>>,
    ) -> Self {
        let b = shared.ctx.create_builder();
        if let Some(entry) = function.get_first_basic_block() {
            b.position_at_end(entry);
        }
        Translator { shared, b, function, vals: HashMap::new(), status, pool, workspace, rolled_loops: false }
    }

    pub fn bind(&mut self, v: Value, x: BasicValueEnum<'ctx>) {
        self.vals.insert(v, x);
    }

    pub(super) fn m(&self) -> &'m Module {
        self.shared.m
    }

    pub fn value(&self, v: Value) -> BasicValueEnum<'ctx> {
        *self.vals.get(&v).expect("operands are translated before their uses (the module verified)")
    }

    fn operands(&self, op: Op) -> Vec<BasicValueEnum<'ctx>> {
        self.m().operands(op).iter().map(|&v| self.value(v)).collect()
    }

    fn set(&mut self, op: Op, x: BasicValueEnum<'ctx>) {
        let r = self.m().result(op, 0);
        self.vals.insert(r, x);
    }

    fn result_type(&self, op: Op) -> Result<BasicTypeEnum<'ctx>, CodegenError> {
        self.shared.llvm_type(self.m().value_type(self.m().result(op, 0)))
    }

    // -- raw builders: one uniform call for scalar and vector operands -------------------

    pub(super) fn binary(
        &self,
        f: RawBinary,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> BasicValueEnum<'ctx> {
        // SAFETY: the builder is positioned in a block of this context's module, and both
        // operands are values of that context with the same type (the module verified).
        unsafe { BasicValueEnum::new(f(self.b.as_mut_ptr(), a.as_value_ref(), b.as_value_ref(), NO_NAME)) }
    }

    fn unary(&self, f: RawUnary, a: BasicValueEnum<'ctx>) -> BasicValueEnum<'ctx> {
        // SAFETY: as for `binary`.
        unsafe { BasicValueEnum::new(f(self.b.as_mut_ptr(), a.as_value_ref(), NO_NAME)) }
    }

    fn cast_to(&self, opcode: LLVMOpcode, a: BasicValueEnum<'ctx>, ty: BasicTypeEnum<'ctx>) -> BasicValueEnum<'ctx> {
        // SAFETY: as for `binary`; `opcode` is a cast valid between the two types.
        unsafe {
            BasicValueEnum::new(raw::LLVMBuildCast(
                self.b.as_mut_ptr(),
                opcode,
                a.as_value_ref(),
                ty.as_type_ref(),
                NO_NAME,
            ))
        }
    }

    fn icmp(&self, p: LLVMIntPredicate, a: BasicValueEnum<'ctx>, b: BasicValueEnum<'ctx>) -> BasicValueEnum<'ctx> {
        // SAFETY: as for `binary`.
        unsafe {
            BasicValueEnum::new(raw::LLVMBuildICmp(self.b.as_mut_ptr(), p, a.as_value_ref(), b.as_value_ref(), NO_NAME))
        }
    }

    pub(super) fn fcmp(
        &self,
        p: LLVMRealPredicate,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> BasicValueEnum<'ctx> {
        // SAFETY: as for `binary`.
        unsafe {
            BasicValueEnum::new(raw::LLVMBuildFCmp(self.b.as_mut_ptr(), p, a.as_value_ref(), b.as_value_ref(), NO_NAME))
        }
    }

    pub(super) fn select(
        &self,
        c: BasicValueEnum<'ctx>,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> BasicValueEnum<'ctx> {
        // SAFETY: as for `binary`; `c` is i1 or a vector of i1 of the operands' width.
        unsafe {
            BasicValueEnum::new(raw::LLVMBuildSelect(
                self.b.as_mut_ptr(),
                c.as_value_ref(),
                a.as_value_ref(),
                b.as_value_ref(),
                NO_NAME,
            ))
        }
    }

    /// A call of the intrinsic `name` overloaded on the first argument's type.
    pub(super) fn intrinsic(
        &self,
        name: &str,
        args: &[BasicValueEnum<'ctx>],
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let decl = Intrinsic::find(name)
            .and_then(|i| i.get_declaration(self.shared.module, &[args[0].get_type()]))
            .ok_or_else(|| CodegenError::Backend(format!("no LLVM intrinsic {name}")))?;
        self.call(decl, args)
    }

    pub(super) fn call(
        &self,
        f: FunctionValue<'ctx>,
        args: &[BasicValueEnum<'ctx>],
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let args: Vec<BasicMetadataValueEnum> = args.iter().map(|&a| a.into()).collect();
        let call = self.b.build_call(f, &args, "")?;
        call.try_as_basic_value().basic().ok_or_else(|| CodegenError::Backend("a call without a result".into()))
    }

    fn const_like(&self, ty: BasicTypeEnum<'ctx>, x: f64) -> BasicValueEnum<'ctx> {
        let scalar = |t: BasicTypeEnum<'ctx>| -> BasicValueEnum<'ctx> {
            match t {
                BasicTypeEnum::FloatType(f) => f.const_float(x).into(),
                BasicTypeEnum::IntType(i) => i.const_int(x as i64 as u64, true).into(),
                other => other.const_zero(),
            }
        };
        match ty {
            BasicTypeEnum::VectorType(v) => {
                let lane = scalar(v.get_element_type());
                let lanes: Vec<BasicValueEnum> = (0..v.get_size()).map(|_| lane).collect();
                inkwell::types::VectorType::const_vector(&lanes).into()
            }
            other => scalar(other),
        }
    }

    // -- ops -------------------------------------------------------------------------------

    /// Materializes every constant that ops under `op` use but that is defined outside
    /// it (for outlined bodies, which rematerialize rather than capture them).
    pub fn materialize_outer_constants(&mut self, op: Op) -> Result<(), CodegenError> {
        for d in outer_constants(self.m(), op) {
            self.op(d)?;
        }
        Ok(())
    }

    /// Translates the ops of `block`; returns the values of its terminator (`loop.yield`).
    pub fn block(&mut self, block: Block) -> Result<Vec<BasicValueEnum<'ctx>>, CodegenError> {
        let m = self.m();
        for op in m.block_ops(block) {
            if lp::kind_of(m, op) == Some(LoopOp::Yield) {
                return Ok(self.operands(op));
            }
            if m.def(op).has(Traits::TERMINATOR) {
                // `func.return`: the entry function returns nothing.
                self.b.build_return(None)?;
                return Ok(Vec::new());
            }
            self.op(op)?;
        }
        Ok(Vec::new())
    }

    /// The address of `buffer[indices]`: `gep inbounds elem, base, sum(index * stride)`.
    fn address(&mut self, buffer: Value, indices: &[Value]) -> Result<(PointerValue<'ctx>, u32), CodegenError> {
        let m = self.m();
        let bt = m.value_type(buffer).as_buffer().expect("verified buffer").clone();
        let i64t = self.shared.ctx.i64_type();
        let mut linear = i64t.const_zero();
        for (&i, stride) in indices.iter().zip(bt.strides()) {
            let iv = self.value(i).into_int_value();
            let term =
                if stride == 1 { iv } else { self.b.build_int_mul(iv, i64t.const_int(stride as u64, true), "")? };
            linear = self.b.build_int_add(linear, term, "")?;
        }
        let elem = self.shared.stored(bt.elem())?;
        let base = self.value(buffer).into_pointer_value();
        // SAFETY: every access the lowering emits is inside its buffer.
        let addr = unsafe { self.b.build_in_bounds_gep(elem, base, &[linear], "")? };
        Ok((addr, bt.elem().byte_size() as u32))
    }

    pub fn op(&mut self, op: Op) -> Result<(), CodegenError> {
        let m = self.m();
        let def = m.def(op);
        match op_kind(def)? {
            OpKind::Loop(LoopOp::Const) => {
                let ty = self.result_type(op)?;
                let v = match m.attr(op, "value") {
                    Some(Attribute::Float(x, _)) => self.const_like(ty, *x),
                    Some(Attribute::Int(x, _)) => ty.into_int_type().const_int(*x as u64, true).into(),
                    Some(Attribute::Bool(x)) => ty.into_int_type().const_int(*x as u64, false).into(),
                    other => return Err(CodegenError::Unsupported(format!("constant {other:?}"))),
                };
                self.set(op, v);
            }
            OpKind::Loop(LoopOp::ConstantBuffer) => {
                let p = self.shared.constants[&op];
                self.set(op, p.into());
            }
            OpKind::Loop(LoopOp::Workspace) => {
                let off = m.attr(op, "offset").and_then(|a| a.as_i64()).unwrap_or(0);
                let ws = self
                    .workspace
                    .ok_or_else(|| CodegenError::Unsupported("loop.workspace inside a parallel loop".into()))?;
                let i8t = self.shared.ctx.i8_type();
                // SAFETY: the memory plan keeps every offset inside the workspace.
                let p = unsafe {
                    self.b.build_in_bounds_gep(
                        i8t,
                        ws,
                        &[self.shared.ctx.i64_type().const_int(off as u64, true)],
                        "",
                    )?
                };
                self.set(op, p.into());
            }
            OpKind::Loop(LoopOp::View) => {
                let v = self.value(m.operand(op, 0));
                self.set(op, v);
            }
            OpKind::Loop(LoopOp::Load) | OpKind::Vector(VectorOp::Load) => {
                let ops = m.operands(op);
                let (addr, align) = self.address(ops[0], &ops[1..])?;
                let result = m.value_type(m.result(op, 0)).clone();
                let elem = lp::elem_of(&result).expect("scalar or vector");
                let lanes = result.as_vector().map(|v| v.lanes);
                let mem_ty = match lanes {
                    Some(n) => vector_of(self.shared.stored(elem)?, n),
                    None => self.shared.stored(elem)?,
                };
                let v = self.b.build_load(mem_ty, addr, "")?;
                set_alignment(v, align);
                let v = if elem == ScalarType::I1 {
                    let zero = mem_ty.const_zero();
                    self.icmp(LLVMIntPredicate::LLVMIntNE, v, zero)
                } else {
                    v
                };
                self.set(op, v);
            }
            OpKind::Loop(LoopOp::Address) => {
                let ops = m.operands(op);
                let (addr, _) = self.address(ops[0], &ops[1..])?;
                let v = self.b.build_ptr_to_int(addr, self.shared.ctx.i64_type(), "")?;
                self.set(op, v.into());
            }
            OpKind::Loop(LoopOp::Microkernel | LoopOp::ArrayMath | LoopOp::ColumnSums) => {
                let (symbol, constants) = tcc_dialect_loop::microkernel::runtime_call(m, op).expect("verified");
                let i64t = self.shared.ctx.i64_type();
                let constants = constants.into_iter().map(|c| i64t.const_int(c as u64, true).into());
                let operands = m.operands(op).iter().map(|&v| self.value(v));
                let args: Vec<inkwell::values::BasicMetadataValueEnum> =
                    constants.chain(operands).map(Into::into).collect();
                let module = self.shared.module;
                let f = module.get_function(symbol).unwrap_or_else(|| {
                    module.add_function(
                        symbol,
                        self.shared.ctx.void_type().fn_type(&vec![i64t.into(); args.len()], false),
                        None,
                    )
                });
                self.b.build_call(f, &args, "")?;
            }
            OpKind::Loop(LoopOp::Prefetch) => {
                // llvm.prefetch(address, read, locality 2 (L2), data cache)
                let ops = m.operands(op);
                let (addr, _) = self.address(ops[0], &ops[1..])?;
                let decl = Intrinsic::find("llvm.prefetch")
                    .and_then(|i| i.get_declaration(self.shared.module, &[addr.get_type().into()]))
                    .ok_or_else(|| CodegenError::Backend("LLVM has no llvm.prefetch".into()))?;
                let i32t = self.shared.ctx.i32_type();
                let args = [
                    addr.into(),
                    i32t.const_zero().into(),
                    i32t.const_int(2, false).into(),
                    i32t.const_int(1, false).into(),
                ];
                self.b.build_call(decl, &args, "")?;
            }
            OpKind::Loop(LoopOp::Store) | OpKind::Vector(VectorOp::Store) => {
                let ops = m.operands(op);
                let mut value = self.value(ops[0]);
                let (addr, align) = self.address(ops[1], &ops[2..])?;
                if lp::elem_of(m.value_type(ops[0])) == Some(ScalarType::I1) {
                    let lanes = m.value_type(ops[0]).as_vector().map(|v| v.lanes);
                    let byte = self.shared.ctx.i8_type().into();
                    let ty = lanes.map_or(byte, |n| vector_of(byte, n));
                    value = self.cast_to(LLVMOpcode::LLVMZExt, value, ty);
                }
                let st = self.b.build_store(addr, value)?;
                st.set_alignment(align).map_err(|e| CodegenError::Backend(e.to_string()))?;
            }
            OpKind::Loop(LoopOp::For) => {
                if self.pool.is_some() && is_outlinable(m, op) {
                    self.serial(op)?;
                } else {
                    self.for_loop(op)?;
                }
            }
            OpKind::Loop(LoopOp::Parallel) => self.parallel(op)?,
            OpKind::Loop(LoopOp::Assert) => {
                let cond = self.value(m.operand(op, 0)).into_int_value();
                let message =
                    m.attr(op, "message").and_then(|a| a.as_str()).unwrap_or("run-time check failed").to_string();
                self.shared.asserts.push(message);
                let id = self.shared.asserts.len() as u64;
                let fail = self.shared.ctx.append_basic_block(self.function, "check_failed");
                let cont = self.shared.ctx.append_basic_block(self.function, "checked");
                self.b.build_conditional_branch(cond, cont, fail)?;
                self.b.position_at_end(fail);
                self.b.build_store(self.status, self.shared.ctx.i32_type().const_int(id, false))?;
                self.b.build_unconditional_branch(cont)?;
                self.b.position_at_end(cont);
            }
            OpKind::Loop(LoopOp::Kernel) => {
                let id = m.attr(op, "id").and_then(|a| a.as_i64()).unwrap_or(0);
                let i32t = self.shared.ctx.i32_type();
                let f = self.shared.function(
                    symbols::PROFILE_MARK,
                    self.shared.ctx.void_type().fn_type(&[i32t.into()], false),
                    false,
                );
                self.b.build_call(f, &[i32t.const_int(id as u64, false).into()], "")?;
            }
            OpKind::Vector(VectorOp::Splat) => {
                let ty = self.result_type(op)?.into_vector_type();
                let x = self.value(m.operand(op, 0));
                let zero = self.shared.ctx.i32_type().const_zero();
                let one = self.b.build_insert_element(ty.get_poison(), x, zero, "")?;
                let mask = self.shared.ctx.i32_type().vec_type(ty.get_size()).const_zero();
                let v = self.b.build_shuffle_vector(one, ty.get_poison(), mask, "")?;
                self.set(op, v.into());
            }
            OpKind::Vector(VectorOp::Extract) => {
                let x = self.value(m.operand(op, 0)).into_vector_value();
                let lane = m.attr(op, "index").and_then(|a| a.as_i64()).unwrap_or(0) as u64;
                let v = self.b.build_extract_element(x, self.shared.ctx.i32_type().const_int(lane, false), "")?;
                self.set(op, v);
            }
            OpKind::Vector(VectorOp::Insert) => {
                let (s, x) = (self.value(m.operand(op, 0)), self.value(m.operand(op, 1)).into_vector_value());
                let lane = m.attr(op, "index").and_then(|a| a.as_i64()).unwrap_or(0) as u64;
                let v = self.b.build_insert_element(x, s, self.shared.ctx.i32_type().const_int(lane, false), "")?;
                self.set(op, v.into());
            }
            OpKind::Vector(VectorOp::Shuffle) => {
                let (x, y) = (
                    self.value(m.operand(op, 0)).into_vector_value(),
                    self.value(m.operand(op, 1)).into_vector_value(),
                );
                let mask: Vec<_> = m
                    .attr(op, "mask")
                    .and_then(|a| a.as_i64_list())
                    .unwrap_or_default()
                    .iter()
                    .map(|&i| self.shared.ctx.i32_type().const_int(i as u64, false))
                    .collect();
                let v = self.b.build_shuffle_vector(x, y, VectorType::const_vector(&mask), "")?;
                self.set(op, v.into());
            }
            OpKind::Vector(VectorOp::Reduce) => {
                let x = self.value(m.operand(op, 0)).into_vector_value();
                let elem = m.value_type(m.result(op, 0)).as_scalar().expect("scalar");
                let combine = vp::reduce_combine(m, op);
                let i32t = self.shared.ctx.i32_type();
                // A tree: the upper half combined into the lower half until one lane is
                // left (log2 steps of latency, not one per lane).
                let mut v = x;
                let mut lanes = x.get_type().get_size();
                while lanes > 1 && lanes.is_multiple_of(2) {
                    let half = lanes / 2;
                    let mask = |from: u32| {
                        let idx: Vec<_> = (from..from + half).map(|i| i32t.const_int(i as u64, false)).collect();
                        inkwell::types::VectorType::const_vector(&idx)
                    };
                    let lo = self.b.build_shuffle_vector(v, v, mask(0), "")?;
                    let hi = self.b.build_shuffle_vector(v, v, mask(half), "")?;
                    v = self.combine(combine, elem, lo.into(), hi.into())?.into_vector_value();
                    lanes = half;
                }
                let mut acc = self.b.build_extract_element(v, i32t.const_zero(), "")?;
                for lane in 1..lanes {
                    let l = self.b.build_extract_element(v, i32t.const_int(lane as u64, false), "")?;
                    acc = self.combine(combine, elem, acc, l)?;
                }
                self.set(op, acc);
            }
            OpKind::Loop(LoopOp::Yield) => {
                return Err(CodegenError::Unsupported("loop.yield outside the end of a loop body".into()));
            }
            OpKind::Loop(LoopOp::Arith(_) | LoopOp::Compare | LoopOp::Select | LoopOp::Cast | LoopOp::Bitcast) => {
                let v = self.arith(op)?;
                self.set(op, v);
            }
        }
        Ok(())
    }

    /// One step of a reduction (the same operation as the matching arithmetic op).
    fn combine(
        &mut self,
        combine: ScalarFn,
        elem: ScalarType,
        a: BasicValueEnum<'ctx>,
        x: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let float = elem.is_float();
        Ok(match (combine, float) {
            (ScalarFn::Mul, true) => self.binary(raw::LLVMBuildFMul, a, x),
            (ScalarFn::Mul, false) => self.binary(raw::LLVMBuildMul, a, x),
            (ScalarFn::Max, true) => self.float_extremum(true, a, x)?,
            (ScalarFn::Max, false) => self.intrinsic("llvm.smax", &[a, x])?,
            (ScalarFn::Min, true) => self.float_extremum(false, a, x)?,
            (ScalarFn::Min, false) => self.intrinsic("llvm.smin", &[a, x])?,
            (_, true) => self.binary(raw::LLVMBuildFAdd, a, x),
            (_, false) => self.binary(raw::LLVMBuildAdd, a, x),
        })
    }

    fn arith(&mut self, op: Op) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let m = self.m();
        let def = m.def(op);
        let a = self.operands(op);
        let operand_ty = m.value_type(m.operand(op, 0)).clone();
        let elem = lp::elem_of(&operand_ty)
            .ok_or_else(|| CodegenError::Unsupported(format!("'{}' on {operand_ty}", def.name)))?;
        let float = elem.is_float();
        let f = match lp::op_kind(def).expect("a loop op") {
            LoopOp::Compare => {
                let pred = m.attr(op, "pred").and_then(|p| p.as_str()).and_then(Compare::parse).unwrap_or(Compare::Eq);
                return Ok(if float {
                    use LLVMRealPredicate::*;
                    let p = match pred {
                        Compare::Eq => LLVMRealOEQ,
                        Compare::Ne => LLVMRealUNE,
                        Compare::Lt => LLVMRealOLT,
                        Compare::Le => LLVMRealOLE,
                        Compare::Gt => LLVMRealOGT,
                        Compare::Ge => LLVMRealOGE,
                    };
                    self.fcmp(p, a[0], a[1])
                } else {
                    use LLVMIntPredicate::*;
                    let p = match pred {
                        Compare::Eq => LLVMIntEQ,
                        Compare::Ne => LLVMIntNE,
                        Compare::Lt => LLVMIntSLT,
                        Compare::Le => LLVMIntSLE,
                        Compare::Gt => LLVMIntSGT,
                        Compare::Ge => LLVMIntSGE,
                    };
                    self.icmp(p, a[0], a[1])
                });
            }
            LoopOp::Select => return Ok(self.select(a[0], a[1], a[2])),
            LoopOp::Cast => return self.cast(op, a[0]),
            LoopOp::Bitcast => return Ok(self.cast_to(LLVMOpcode::LLVMBitCast, a[0], self.result_type(op)?)),
            LoopOp::Arith(f) => f,
            other => unreachable!("{other:?} is not arithmetic"),
        };
        let pick = |f: RawBinary, i: RawBinary| if float { f } else { i };
        let v = match f {
            ScalarFn::Add => self.binary(pick(raw::LLVMBuildFAdd, raw::LLVMBuildAdd), a[0], a[1]),
            ScalarFn::Sub => self.binary(pick(raw::LLVMBuildFSub, raw::LLVMBuildSub), a[0], a[1]),
            ScalarFn::Mul => self.binary(pick(raw::LLVMBuildFMul, raw::LLVMBuildMul), a[0], a[1]),
            ScalarFn::Div => self.binary(pick(raw::LLVMBuildFDiv, raw::LLVMBuildSDiv), a[0], a[1]),
            ScalarFn::Rem => self.binary(raw::LLVMBuildSRem, a[0], a[1]),
            ScalarFn::Min if float => self.float_extremum(false, a[0], a[1])?,
            ScalarFn::Max if float => self.float_extremum(true, a[0], a[1])?,
            ScalarFn::Min => self.intrinsic("llvm.smin", &a)?,
            ScalarFn::Max => self.intrinsic("llvm.smax", &a)?,
            ScalarFn::And => self.binary(raw::LLVMBuildAnd, a[0], a[1]),
            ScalarFn::Or => self.binary(raw::LLVMBuildOr, a[0], a[1]),
            ScalarFn::Xor => self.binary(raw::LLVMBuildXor, a[0], a[1]),
            ScalarFn::Shl => self.binary(raw::LLVMBuildShl, a[0], a[1]),
            ScalarFn::Shr => self.binary(raw::LLVMBuildAShr, a[0], a[1]),
            ScalarFn::Neg => self.unary(if float { raw::LLVMBuildFNeg } else { raw::LLVMBuildNeg }, a[0]),
            ScalarFn::Abs if float => self.intrinsic("llvm.fabs", &a)?,
            ScalarFn::Abs => {
                let poison_ok = self.shared.ctx.bool_type().const_zero().into();
                self.intrinsic("llvm.abs", &[a[0], poison_ok])?
            }
            ScalarFn::Fma => self.intrinsic("llvm.fma", &a)?,
            ScalarFn::Sqrt => self.intrinsic("llvm.sqrt", &a)?,
            ScalarFn::Floor => self.intrinsic("llvm.floor", &a)?,
            ScalarFn::Ceil => self.intrinsic("llvm.ceil", &a)?,
            ScalarFn::Round => self.intrinsic("llvm.roundeven", &a)?,
            ScalarFn::Ldexp => self.scalef(a[0], a[1])?,
            ScalarFn::Rsqrt => {
                let s = self.intrinsic("llvm.sqrt", &a)?;
                let one = self.const_like(s.get_type(), 1.0);
                self.binary(raw::LLVMBuildFDiv, one, s)
            }
            ScalarFn::Math(math) if elem == ScalarType::F64 && operand_ty.as_vector().is_none() => {
                let f64t = self.shared.ctx.f64_type();
                let params: Vec<_> = a.iter().map(|_| f64t.into()).collect();
                let f = self.shared.function(math.f64_symbol(), f64t.fn_type(&params, false), false);
                self.call(f, &a)?
            }
            ScalarFn::Math(_) => {
                return Err(CodegenError::Unsupported(format!(
                    "'{}' on {operand_ty} (f32 math must go through expand-math first)",
                    def.name
                )));
            }
        };
        Ok(v)
    }

    fn cast(&mut self, op: Op, x: BasicValueEnum<'ctx>) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let m = self.m();
        let (from_ty, to_ty) = (m.value_type(m.operand(op, 0)).clone(), m.value_type(m.result(op, 0)).clone());
        let (from, to) = (lp::elem_of(&from_ty).expect("scalar"), lp::elem_of(&to_ty).expect("scalar"));
        let target = self.shared.llvm_type(&to_ty)?;
        let bits = |s: ScalarType| s.int_bits().unwrap_or(s.byte_size() as u32 * 8);
        use LLVMOpcode::*;
        Ok(match (from.is_float(), to.is_float()) {
            (true, true) if bits(to) > bits(from) => self.cast_to(LLVMFPExt, x, target),
            (true, true) if bits(to) < bits(from) => self.cast_to(LLVMFPTrunc, x, target),
            (true, true) => x,
            (true, false) if to == ScalarType::I1 => {
                let zero = x.get_type().const_zero();
                self.fcmp(LLVMRealPredicate::LLVMRealUNE, x, zero)
            }
            (true, false) => {
                let decl = Intrinsic::find("llvm.fptosi.sat")
                    .and_then(|i| i.get_declaration(self.shared.module, &[target, x.get_type()]))
                    .ok_or_else(|| CodegenError::Backend("no llvm.fptosi.sat".into()))?;
                self.call(decl, &[x])?
            }
            (false, true) if from == ScalarType::I1 => self.cast_to(LLVMUIToFP, x, target),
            (false, true) => self.cast_to(LLVMSIToFP, x, target),
            (false, false) if to == ScalarType::I1 => {
                let zero = x.get_type().const_zero();
                self.icmp(LLVMIntPredicate::LLVMIntNE, x, zero)
            }
            (false, false) if from == ScalarType::I1 => self.cast_to(LLVMZExt, x, target),
            (false, false) if bits(to) < bits(from) => self.cast_to(LLVMTrunc, x, target),
            (false, false) if bits(to) > bits(from) => self.cast_to(LLVMSExt, x, target),
            (false, false) => x,
        })
    }

    fn for_loop(&mut self, op: Op) -> Result<(), CodegenError> {
        let m = self.m();
        let ops = self.operands(op);
        let (lb, ub, step) = (ops[0].into_int_value(), ops[1].into_int_value(), ops[2].into_int_value());
        let ctx = self.shared.ctx;
        let pre = self.b.get_insert_block().expect("positioned");
        let header = ctx.append_basic_block(self.function, "loop");
        let body = ctx.append_basic_block(self.function, "body");
        let exit = ctx.append_basic_block(self.function, "exit");
        self.b.build_unconditional_branch(header)?;
        self.b.position_at_end(header);
        let iv = self.b.build_phi(ctx.i64_type(), "iv")?;
        iv.add_incoming(&[(&lb, pre)]);
        let mut carried = Vec::new();
        for (&r, &init) in m.results(op).iter().zip(&ops[3..]) {
            let phi = self.b.build_phi(self.shared.llvm_type(m.value_type(r))?, "")?;
            phi.add_incoming(&[(&init, pre)]);
            carried.push(phi);
        }
        let ivv = iv.as_basic_value().into_int_value();
        let go = self.b.build_int_compare(IntPredicate::SLT, ivv, ub, "")?;
        self.b.build_conditional_branch(go, body, exit)?;
        self.b.position_at_end(body);
        let region_block = m.region_blocks(m.regions(op)[0])[0];
        let bargs = m.block_args(region_block).to_vec();
        self.bind(bargs[0], ivv.into());
        for (&a, phi) in bargs[1..].iter().zip(&carried) {
            self.bind(a, phi.as_basic_value());
        }
        let yielded = self.block(region_block)?;
        let next = self.b.build_int_add(ivv, step, "")?;
        let latch = self.b.get_insert_block().expect("positioned");
        let back_edge = self.b.build_unconditional_branch(header)?;
        if self.rolled_loops {
            self.disable_unrolling(back_edge.as_value_ref());
        }
        iv.add_incoming(&[(&next, latch)]);
        for (phi, y) in carried.iter().zip(&yielded) {
            phi.add_incoming(&[(y as &dyn BasicValue, latch)]);
        }
        self.b.position_at_end(exit);
        for (&r, phi) in m.results(op).iter().zip(&carried) {
            self.vals.insert(r, phi.as_basic_value());
        }
        Ok(())
    }
}

fn set_alignment(v: BasicValueEnum<'_>, align: u32) {
    if let Some(i) = v.as_instruction_value() {
        let _ = i.set_alignment(align);
    }
}
