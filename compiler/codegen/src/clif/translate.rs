//! Translation of one loop-dialect function (or one outlined parallel-loop body) to
//! Cranelift IR.
//!
//! Values map one to one: buffers are base pointers (`i64`), `index` is `i64`, `i1` is
//! `i8` (0 or 1), vectors are 128-bit Cranelift vectors (`vector<Nxi1>` masks are
//! integer vectors of the same width). Buffer accesses compute `base + sum(index *
//! stride * element size)`; strides are static. `loop.for` becomes header, body and exit
//! blocks with the induction variable and carried values as block parameters.
//! `loop.parallel` is outlined: the captured values go into a stack slot and the body
//! becomes its own function `fn(ctx, begin, end)`, dispatched with `tcc_parallel_for_blocks`.

use std::collections::HashMap;

use cranelift_codegen::cursor::{Cursor, FuncCursor};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{self as cl, AbiParam, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind};
use cranelift_frontend::FunctionBuilder;
use cranelift_module::{FuncId, Linkage, Module as ClModule};
use tcc_dialect_loop::{self as lp, LoopOp};
use tcc_dialect_vector::{self as vp, VectorOp};
use tcc_ir::scalar::{Compare, ScalarFn};
use tcc_ir::{Block, Module, Op, ScalarType, Traits, Type, Value};
use tcc_runtime_abi::symbols;

mod cast;
mod constants;
mod loops;

use super::CodegenError;
use crate::model::{OpKind, op_kind, outer_constants};

/// Module-wide state shared by every function being translated.
pub struct Shared<'m> {
    pub m: &'m Module,
    pub parallel_for: FuncId,
    /// Run-time check messages; a failed check stores its index + 1 in `status`.
    pub asserts: Vec<String>,
    /// Where each constant buffer's data lives.
    pub constants: HashMap<Op, ConstantRef>,
    /// Parallel-loop bodies still to compile.
    pub outlines: Vec<Outline>,
    pub outlines_made: usize,
    /// The function made for each distinct parallel body ([`crate::model::outline_key`]).
    pub outlined_by_key: HashMap<String, FuncId>,
}

/// Where a constant buffer's data is: at a fixed address (JIT: the IR's own storage,
/// kept alive by the compiled model) or in a read-only data object (object files).
#[derive(Copy, Clone, Debug)]
pub enum ConstantRef {
    Address(i64),
    Data(cranelift_module::DataId),
}

/// A parallel loop body to compile as its own function.
pub struct Outline {
    pub id: FuncId,
    pub op: Op,
    /// Values from outside the loop it uses, in ctx-slot order after the status pointer.
    pub captures: Vec<Value>,
}

/// The Cranelift type of an IR type.
pub fn clif_type(t: &Type) -> Result<cl::Type, CodegenError> {
    use cl::types::{F32, F64, I8, I16, I32, I64};
    let scalar = |s: ScalarType| match s {
        ScalarType::F32 => Ok(F32),
        ScalarType::F64 => Ok(F64),
        ScalarType::I1 | ScalarType::I8 => Ok(I8),
        // The 16-bit floats are only loaded, stored and reinterpreted (`expand-half`):
        // their bits.
        ScalarType::I16 | ScalarType::F16 | ScalarType::BF16 => Ok(I16),
        ScalarType::I32 => Ok(I32),
        ScalarType::I64 | ScalarType::Index => Ok(I64),
    };
    match t {
        Type::Scalar(s) => scalar(*s),
        Type::Buffer(_) => Ok(I64),
        Type::Vector(v) => {
            let lane = if v.elem == ScalarType::I1 {
                // A mask: integer lanes as wide as the compared values'.
                cl::Type::int((128 / v.lanes) as u16).ok_or_else(|| CodegenError::Unsupported(format!("{t}")))?
            } else {
                scalar(v.elem)?
            };
            let ty = lane.by(v.lanes).ok_or_else(|| CodegenError::Unsupported(format!("{t}")))?;
            match ty.bits() {
                128 => Ok(ty),
                // A half-width vector (f32 data summed in f64) lives in the low half of a
                // register; loads, stores and casts touch that half only.
                64 if v.elem != ScalarType::I1 => Ok(lane.by(2 * v.lanes).expect("a 128-bit vector")),
                _ => Err(CodegenError::Unsupported(format!("{t}: the Cranelift backend has 128-bit vectors only"))),
            }
        }
        other => Err(CodegenError::Unsupported(format!("type {other}"))),
    }
}

/// Whether `t` is a 64-bit vector, kept in the low half of a 128-bit register.
pub(super) fn is_half_vector(t: &Type) -> bool {
    t.as_vector().is_some_and(|v| v.elem != ScalarType::I1 && v.lanes as usize * v.elem.byte_size() == 8)
}

/// How deeply `v` is defined: the number of ops enclosing its definition.
fn nesting_depth(m: &Module, v: Value) -> usize {
    let mut block = match m.value_def(v) {
        tcc_ir::ValueDef::Result { op, .. } => m.parent_block(op),
        tcc_ir::ValueDef::BlockArg { block, .. } => Some(block),
    };
    let mut depth = 0;
    while let Some(op) = block.and_then(|b| m.block_parent_op(b)) {
        depth += 1;
        block = m.parent_block(op);
    }
    depth
}

fn mem() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

pub struct Translator<'t, 'm, 'f> {
    pub b: FunctionBuilder<'f>,
    pub shared: &'t mut Shared<'m>,
    pub module: &'t mut dyn ClModule,
    vals: HashMap<Value, cl::Value>,
    status: cl::Value,
    /// The thread pool (main function only; outlined bodies never start parallel loops).
    pool: Option<cl::Value>,
    /// The workspace base (main function only; outlined bodies capture buffer pointers).
    workspace: Option<cl::Value>,
    /// The function's entry block, and the integer constants defined there with a use
    /// that pins them there (see [`Translator::anchored`]).
    entry: cl::Block,
    anchor_slot: Option<cl::StackSlot>,
    anchored: HashMap<(cl::Type, i64), cl::Value>,
    /// Vector constants, each kept in a stack slot the entry block fills (see
    /// [`Translator::vector_constant`]), by type and scalar bits.
    vector_constants: HashMap<(cl::Type, u64), u32>,
    /// The stack slot holding every vector constant, 16 bytes each (grown as they come).
    constant_slot: Option<cl::StackSlot>,
    /// IR values that are splats of constants, read at each use from their slot.
    splat_constants: HashMap<Value, (cl::Type, u32)>,
    /// The induction variables of the `loop.for`s enclosing the op being translated,
    /// innermost last.
    loop_ivs: Vec<cl::Value>,
}

impl<'t, 'm, 'f> Translator<'t, 'm, 'f> {
    pub fn new(
        b: FunctionBuilder<'f>,
        shared: &'t mut Shared<'m>,
        module: &'t mut dyn ClModule,
        status: cl::Value,
        pool: Option<cl::Value>,
        workspace: Option<cl::Value>,
    ) -> Self {
        let entry = b.current_block().expect("the builder is in the entry block");
        Translator {
            b,
            shared,
            module,
            vals: HashMap::new(),
            status,
            pool,
            workspace,
            entry,
            anchor_slot: None,
            anchored: HashMap::new(),
            vector_constants: HashMap::new(),
            constant_slot: None,
            splat_constants: HashMap::new(),
            loop_ivs: Vec::new(),
        }
    }

    /// The integer constant `k`, defined in the entry block and stored to a scratch stack
    /// slot there. Cranelift's elaborator places a constant one loop above its first
    /// use and never hoists anything computed from it higher; a constant first used deep
    /// in a loop nest thus keeps loop-invariant address arithmetic inside the outer loops.
    /// The store is a use in the entry block, so the constant is elaborated there first
    /// and what depends on it hoists as far as its other operands allow.
    fn anchored(&mut self, ty: cl::Type, k: i64) -> cl::Value {
        if let Some(&v) = self.anchored.get(&(ty, k)) {
            return v;
        }
        let slot = self.scratch_slot();
        let mut pos = FuncCursor::new(self.b.func).at_first_insertion_point(self.entry);
        let v = pos.ins().iconst(ty, k);
        if ty == cl::types::I64 {
            pos.ins().stack_store(cl::types::I64, v, slot, 0);
        }
        self.anchored.insert((ty, k), v);
        v
    }

    pub fn bind(&mut self, v: Value, c: cl::Value) {
        self.vals.insert(v, c);
    }

    fn m(&self) -> &'m Module {
        self.shared.m
    }

    /// The Cranelift value of an IR value already translated.
    pub fn value(&mut self, v: Value) -> cl::Value {
        self.get(v)
    }

    /// The Cranelift value of `v` at the current position: a vector constant is read
    /// afresh at each use (see [`Translator::vector_constant`]).
    fn get(&mut self, v: Value) -> cl::Value {
        if let Some(&(ty, at)) = self.splat_constants.get(&v) {
            return self.vector_constant_load(ty, at);
        }
        *self.vals.get(&v).expect("operands are translated before their uses (the module verified)")
    }

    fn operands(&mut self, op: Op) -> Vec<cl::Value> {
        self.m().operands(op).iter().map(|&v| self.get(v)).collect()
    }

    /// Materializes every constant that ops under `block` use but that is defined
    /// outside it (for outlined bodies, which rematerialize rather than capture them).
    pub fn materialize_outer_constants(&mut self, op: Op) -> Result<(), CodegenError> {
        for d in outer_constants(self.m(), op) {
            self.op(d)?;
        }
        Ok(())
    }

    /// Translates the ops of `block`; returns the values of its terminator (`loop.yield`).
    pub fn block(&mut self, block: Block) -> Result<Vec<cl::Value>, CodegenError> {
        let m = self.m();
        for op in m.block_ops(block) {
            if lp::kind_of(m, op) == Some(LoopOp::Yield) {
                return Ok(self.operands(op));
            }
            if m.def(op).has(Traits::TERMINATOR) {
                // `func.return`: the entry function returns nothing.
                self.b.ins().return_(&[]);
                return Ok(Vec::new());
            }
            self.op(op)?;
            if self.loop_ivs.is_empty() {
                self.anchor_results(op);
            }
        }
        Ok(Vec::new())
    }

    /// Pins the integer values computed outside every loop of this function (a task's
    /// indices) to where they are computed, for the reason [`Translator::anchored`]
    /// gives: otherwise their first use, deep in a kernel's loops, decides where they
    /// and the constants of their arithmetic go.
    fn anchor_results(&mut self, op: Op) {
        let m = self.m();
        if lp::kind_of(m, op) == Some(LoopOp::Const) {
            return;
        }
        for &r in m.results(op) {
            if *m.value_type(r) == Type::Scalar(ScalarType::Index) {
                let v = self.get(r);
                let slot = self.scratch_slot();
                self.b.ins().stack_store(cl::types::I64, v, slot, 0);
            }
        }
    }

    fn scratch_slot(&mut self) -> cl::StackSlot {
        match self.anchor_slot {
            Some(s) => s,
            None => {
                let s = self.b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 8, 3));
                self.anchor_slot = Some(s);
                s
            }
        }
    }

    fn result_type(&self, op: Op) -> Result<cl::Type, CodegenError> {
        clif_type(self.m().value_type(self.m().result(op, 0)))
    }

    fn set(&mut self, op: Op, v: cl::Value) {
        let r = self.m().result(op, 0);
        self.vals.insert(r, v);
    }

    /// `base + sum(index * stride)` in bytes for a buffer access, as an address value and
    /// a constant displacement. The indices are expanded into linear terms (through
    /// additions, subtractions and multiplications by constants), like terms merged and
    /// constants moved into the displacement; the terms are added outermost-defined
    /// first, so the partial sums that do not change in an inner loop are computed
    /// outside it (Cranelift hoists them) and neighbouring accesses share them.
    fn address(&mut self, buffer: Value, indices: &[Value]) -> (cl::Value, i32) {
        let m = self.m();
        let bt = m.value_type(buffer).as_buffer().expect("verified buffer").clone();
        let size = bt.elem().byte_size() as i64;
        let mut terms: Vec<(Value, i64)> = Vec::new();
        let mut disp: i64 = 0;
        for (&i, stride) in indices.iter().zip(bt.strides()) {
            let scale = stride * size;
            let (t, c) = self.linear(i, scale).unwrap_or_else(|| (vec![(i, scale)], 0));
            disp += c;
            for (v, k) in t {
                match terms.iter_mut().find(|(w, _)| *w == v) {
                    Some(e) => e.1 += k,
                    None => terms.push((v, k)),
                }
            }
        }
        terms.retain(|&(_, k)| k != 0);
        terms.sort_by_key(|&(v, _)| nesting_depth(m, v));
        let mut addr = self.get(buffer);
        for (v, k) in terms {
            let iv = self.get(v);
            let term = if k == 1 {
                iv
            } else if k > 0 && (k as u64).is_power_of_two() {
                let shift = self.anchored(cl::types::I64, k.trailing_zeros() as i64);
                self.b.ins().ishl(iv, shift)
            } else {
                let kv = self.anchored(cl::types::I64, k);
                self.b.ins().imul(iv, kv)
            };
            addr = self.b.ins().iadd(addr, term);
        }
        match i32::try_from(disp) {
            Ok(d) => (addr, d),
            Err(_) => (self.b.ins().iadd_imm_s(addr, disp), 0),
        }
    }

    /// `v * scale` as linear terms over values translated in this function plus a
    /// constant; `None` when `v` itself is not translated and cannot be expanded.
    fn linear(&self, v: Value, scale: i64) -> Option<(Vec<(Value, i64)>, i64)> {
        let m = self.m();
        let leaf = || self.vals.contains_key(&v).then(|| (vec![(v, scale)], 0));
        let Some(op) = m.defining_op(v) else { return leaf() };
        let constant = |x: Value| {
            m.defining_op(x)
                .filter(|&d| lp::kind_of(m, d) == Some(LoopOp::Const))
                .and_then(|d| m.attr(d, "value")?.as_i64())
        };
        if let Some(c) = constant(v) {
            return Some((Vec::new(), c * scale));
        }
        let is_index = *m.value_type(v) == Type::Scalar(ScalarType::Index);
        let expanded = if !is_index {
            None
        } else if let Some(LoopOp::Arith(f @ (ScalarFn::Add | ScalarFn::Sub))) = lp::kind_of(m, op) {
            let sign = if f == ScalarFn::Sub { -1 } else { 1 };
            let (a, b) = (self.linear(m.operand(op, 0), scale), self.linear(m.operand(op, 1), sign * scale));
            a.zip(b).map(|((mut ta, ca), (tb, cb))| {
                ta.extend(tb);
                (ta, ca + cb)
            })
        } else if lp::kind_of(m, op) == Some(LoopOp::Arith(ScalarFn::Mul)) {
            let (a, b) = (m.operand(op, 0), m.operand(op, 1));
            match (constant(a), constant(b)) {
                (_, Some(c)) => self.linear(a, scale * c),
                (Some(c), _) => self.linear(b, scale * c),
                _ => None,
            }
        } else {
            None
        };
        expanded.or_else(leaf)
    }

    fn op(&mut self, op: Op) -> Result<(), CodegenError> {
        let m = self.m();
        let def = m.def(op);
        match op_kind(def)? {
            OpKind::Loop(LoopOp::Const) => {
                let ty = self.result_type(op)?;
                let v = match m.attr(op, "value") {
                    Some(tcc_ir::Attribute::Float(x, _)) if ty == cl::types::F32 => self.b.ins().f32const(*x as f32),
                    Some(tcc_ir::Attribute::Float(x, _)) => self.b.ins().f64const(*x),
                    Some(tcc_ir::Attribute::Int(x, _)) if ty == cl::types::I64 => self.anchored(ty, *x),
                    Some(tcc_ir::Attribute::Int(x, _)) => self.b.ins().iconst(ty, *x),
                    Some(tcc_ir::Attribute::Bool(x)) => self.b.ins().iconst(ty, *x as i64),
                    other => return Err(CodegenError::Unsupported(format!("constant {other:?}"))),
                };
                self.set(op, v);
            }
            OpKind::Loop(LoopOp::ConstantBuffer) => {
                // Pinned like the other constants (see `anchored`): a weight's address is
                // the base of address arithmetic that must hoist out of the kernel loops.
                let v = match self.shared.constants[&op] {
                    ConstantRef::Address(addr) => self.anchored(cl::types::I64, addr),
                    ConstantRef::Data(id) => {
                        let gv = self.module.declare_data_in_func(id, self.b.func);
                        let v = self.b.ins().symbol_value(cl::types::I64, gv);
                        let slot = self.scratch_slot();
                        self.b.ins().stack_store(cl::types::I64, v, slot, 0);
                        v
                    }
                };
                self.set(op, v);
            }
            OpKind::Loop(LoopOp::Workspace) => {
                let off = m.attr(op, "offset").and_then(|a| a.as_i64()).unwrap_or(0);
                let ws = self
                    .workspace
                    .ok_or_else(|| CodegenError::Unsupported("loop.workspace inside a parallel loop".into()))?;
                let v = self.b.ins().iadd_imm_s(ws, off);
                self.set(op, v);
            }
            OpKind::Loop(LoopOp::View) => {
                let v = self.get(m.operand(op, 0));
                self.set(op, v);
            }
            OpKind::Loop(LoopOp::Load) | OpKind::Vector(VectorOp::Load) => {
                let ops = m.operands(op);
                let (addr, disp) = self.address(ops[0], &ops[1..]);
                let ty = self.result_type(op)?;
                // A kernel input nothing writes meanwhile: the load is pure, so Cranelift
                // places it at its first use (and shares or hoists it).
                let readonly = m.attr(op, "readonly").and_then(|a| a.as_bool()).unwrap_or(false);
                let flags = if readonly { mem().with_readonly().with_can_move() } else { mem() };
                let v = if is_half_vector(m.value_type(m.result(op, 0))) {
                    // 64 bits into the low half of the register.
                    let bits = self.b.ins().load(cl::types::I64, flags, addr, disp);
                    let wide = self.b.ins().scalar_to_vector(cl::types::I64X2, bits);
                    self.b.ins().bitcast(ty, MemFlagsData::new().with_endianness(cl::Endianness::Little), wide)
                } else {
                    self.b.ins().load(ty, flags, addr, disp)
                };
                self.set(op, v);
            }
            // Cranelift has no prefetch instruction; the hint is dropped.
            OpKind::Loop(LoopOp::Prefetch) => {}
            OpKind::Loop(LoopOp::Address) => {
                let ops = m.operands(op);
                let (addr, disp) = self.address(ops[0], &ops[1..]);
                let v = if disp == 0 { addr } else { self.b.ins().iadd_imm_s(addr, disp as i64) };
                self.set(op, v);
            }
            OpKind::Loop(LoopOp::Microkernel | LoopOp::ArrayMath | LoopOp::ColumnSums) => {
                let (symbol, constants) = tcc_dialect_loop::microkernel::runtime_call(m, op).expect("verified");
                let mut args: Vec<cl::Value> =
                    constants.into_iter().map(|c| self.b.ins().iconst(cl::types::I64, c)).collect();
                args.extend(m.operands(op).iter().map(|&v| self.get(v)));
                let mut sig = self.module.make_signature();
                sig.params.extend(args.iter().map(|_| AbiParam::new(cl::types::I64)));
                let id = self
                    .module
                    .declare_function(symbol, Linkage::Import, &sig)
                    .map_err(|e| CodegenError::Backend(e.to_string()))?;
                let f = self.module.declare_func_in_func(id, self.b.func);
                self.b.ins().call(f, &args);
            }
            OpKind::Loop(LoopOp::Store) | OpKind::Vector(VectorOp::Store) => {
                let ops = m.operands(op);
                let mut value = self.get(ops[0]);
                if is_half_vector(m.value_type(ops[0])) {
                    // The low half of the register, as 64 bits.
                    let little = MemFlagsData::new().with_endianness(cl::Endianness::Little);
                    let lanes = self.b.ins().bitcast(cl::types::I64X2, little, value);
                    value = self.b.ins().extractlane(lanes, 0);
                }
                let (addr, disp) = self.address(ops[1], &ops[2..]);
                self.b.ins().store(mem(), value, addr, disp);
            }
            OpKind::Loop(LoopOp::For) => self.for_loop(op)?,
            OpKind::Loop(LoopOp::Parallel) => self.parallel(op)?,
            OpKind::Loop(LoopOp::Assert) => {
                let cond = self.get(m.operand(op, 0));
                let message =
                    m.attr(op, "message").and_then(|a| a.as_str()).unwrap_or("run-time check failed").to_string();
                self.shared.asserts.push(message);
                let id = self.shared.asserts.len() as i64;
                let (fail, cont) = (self.b.create_block(), self.b.create_block());
                self.b.ins().brif(cond, cont, &[], fail, &[]);
                self.b.switch_to_block(fail);
                let idv = self.b.ins().iconst(cl::types::I32, id);
                self.b.ins().store(mem(), idv, self.status, 0);
                self.b.ins().jump(cont, &[]);
                self.b.switch_to_block(cont);
            }
            OpKind::Loop(LoopOp::Kernel) => {
                let id = m.attr(op, "id").and_then(|a| a.as_i64()).unwrap_or(0);
                let mut sig = self.module.make_signature();
                sig.params.push(AbiParam::new(cl::types::I32));
                let f = self
                    .module
                    .declare_function(symbols::PROFILE_MARK, Linkage::Import, &sig)
                    .map_err(|e| CodegenError::Backend(e.to_string()))?;
                let fref = self.module.declare_func_in_func(f, self.b.func);
                let idv = self.b.ins().iconst(cl::types::I32, id);
                self.b.ins().call(fref, &[idv]);
            }
            OpKind::Vector(VectorOp::Splat) => {
                let ty = self.result_type(op)?;
                let x = self.get(m.operand(op, 0));
                match self.constant_bits(m.operand(op, 0)) {
                    Some(bits) => {
                        // An i1 constant into a mask: lanes of all ones or zeros, as wide
                        // as the vector's (not a byte 1 splatted into i64 lanes).
                        let bits = if m.value_type(m.operand(op, 0)) == &Type::Scalar(ScalarType::I1) {
                            let lane_bits = ty.lane_type().bits();
                            let ones = if lane_bits >= 64 { u64::MAX } else { (1u64 << lane_bits) - 1 };
                            if bits != 0 { ones } else { 0 }
                        } else {
                            bits
                        };
                        let at = self.vector_constant(ty, x, bits);
                        self.splat_constants.insert(m.result(op, 0), (ty, at));
                    }
                    None => {
                        // An i1 (a byte, 0 or 1) into a mask: lanes of all ones or zeros.
                        let x = if m.value_type(m.operand(op, 0)) == &Type::Scalar(ScalarType::I1) {
                            self.mask_lane(x, ty.lane_type())
                        } else {
                            x
                        };
                        let v = self.b.ins().splat(ty, x);
                        self.set(op, v);
                    }
                }
            }
            OpKind::Vector(VectorOp::Extract) => {
                let x = self.get(m.operand(op, 0));
                let lane = m.attr(op, "index").and_then(|a| a.as_i64()).unwrap_or(0) as u8;
                let mut v = self.b.ins().extractlane(x, lane);
                if m.value_type(m.result(op, 0)) == &Type::Scalar(ScalarType::I1) {
                    // A mask lane (all ones or zeros) as an i1 byte.
                    let lane_ty = self.b.func.dfg.value_type(v);
                    let zero = self.b.ins().iconst(lane_ty, 0);
                    v = self.b.ins().icmp(IntCC::NotEqual, v, zero);
                }
                self.set(op, v);
            }
            OpKind::Vector(VectorOp::Insert) => {
                let (mut s, x) = (self.get(m.operand(op, 0)), self.get(m.operand(op, 1)));
                let lane = m.attr(op, "index").and_then(|a| a.as_i64()).unwrap_or(0) as u8;
                if m.value_type(m.operand(op, 0)) == &Type::Scalar(ScalarType::I1) {
                    let lane_ty = self.b.func.dfg.value_type(x).lane_type();
                    s = self.mask_lane(s, lane_ty);
                }
                let v = self.b.ins().insertlane(x, s, lane);
                self.set(op, v);
            }
            OpKind::Vector(VectorOp::Shuffle) => {
                // Cranelift shuffles bytes: each f32 lane is four of them.
                let ty = self.result_type(op)?;
                let lane_bytes = ty.lane_bits() / 8;
                let mask: Vec<u8> = m
                    .attr(op, "mask")
                    .and_then(|a| a.as_i64_list())
                    .unwrap_or_default()
                    .iter()
                    .flat_map(|&i| (0..lane_bytes).map(move |k| (i as u32 * lane_bytes + k) as u8))
                    .collect();
                let little = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
                let bytes = cl::types::I8X16;
                let (x, y) = (self.get(m.operand(op, 0)), self.get(m.operand(op, 1)));
                let (xb, yb) = (self.b.ins().bitcast(bytes, little, x), self.b.ins().bitcast(bytes, little, y));
                let imm = self.b.func.dfg.immediates.push(cl::ConstantData::from(mask));
                let shuffled = self.b.ins().shuffle(xb, yb, imm);
                let v = self.b.ins().bitcast(ty, little, shuffled);
                self.set(op, v);
            }
            OpKind::Vector(VectorOp::Reduce) => {
                let x = self.get(m.operand(op, 0));
                let lanes = m.value_type(m.operand(op, 0)).as_vector().map(|v| v.lanes).unwrap_or(1);
                let elem = m.value_type(m.result(op, 0)).as_scalar().expect("scalar");
                let combine = vp::reduce_combine(m, op);
                let mut acc = self.b.ins().extractlane(x, 0);
                for lane in 1..lanes {
                    let l = self.b.ins().extractlane(x, lane as u8);
                    acc = self.combine(combine, elem, acc, l);
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

    /// Lane-wise wrapping integer multiplication. x86 has no multiply of 8-bit lanes
    /// (Cranelift does not lower `imul.i8x16`): the halves are multiplied as 16-bit lanes
    /// and the low bytes of the products packed back.
    fn imul(&mut self, a: cl::Value, b: cl::Value) -> cl::Value {
        if self.b.func.dfg.value_type(a) != cl::types::I8X16 {
            return self.b.ins().imul(a, b);
        }
        let (al, ah) = (self.b.ins().swiden_low(a), self.b.ins().swiden_high(a));
        let (bl, bh) = (self.b.ins().swiden_low(b), self.b.ins().swiden_high(b));
        let (low, high) = (self.b.ins().imul(al, bl), self.b.ins().imul(ah, bh));
        let byte = self.b.ins().iconst(cl::types::I16, 0xff);
        let byte = self.b.ins().splat(cl::types::I16X8, byte);
        let (low, high) = (self.b.ins().band(low, byte), self.b.ins().band(high, byte));
        // Each lane is 0..=255 now: the unsigned saturating narrow keeps it.
        self.b.ins().unarrow(low, high)
    }

    fn combine(&mut self, combine: ScalarFn, elem: ScalarType, a: cl::Value, x: cl::Value) -> cl::Value {
        let f = elem.is_float();
        if combine == ScalarFn::Mul && !f {
            return self.imul(a, x);
        }
        let ins = self.b.ins();
        match (combine, f) {
            (ScalarFn::Mul, true) => ins.fmul(a, x),
            (ScalarFn::Max, true) => ins.fmax(a, x),
            (ScalarFn::Max, false) => ins.smax(a, x),
            (ScalarFn::Min, true) => ins.fmin(a, x),
            (ScalarFn::Min, false) => ins.smin(a, x),
            (_, true) => ins.fadd(a, x),
            (_, false) => ins.iadd(a, x),
        }
    }

    fn arith(&mut self, op: Op) -> Result<cl::Value, CodegenError> {
        let m = self.m();
        let def = m.def(op);
        let kind = lp::op_kind(def).expect("a loop op");
        let a = self.operands(op);
        let operand_ty = m.value_type(m.operand(op, 0)).clone();
        let elem = lp::elem_of(&operand_ty)
            .ok_or_else(|| CodegenError::Unsupported(format!("'{}' on {operand_ty}", def.name)))?;
        let float = elem.is_float();
        let vector = operand_ty.as_vector().is_some();
        let result_ty = self.result_type(op)?;
        let mut a = a;
        if matches!(kind, LoopOp::Arith(ScalarFn::Shl | ScalarFn::Shr)) && vector {
            // Cranelift shifts every lane by one scalar amount: take it from the splat.
            let amount = m.operand(op, 1);
            let splat = m
                .defining_op(amount)
                .filter(|&d| vp::op_kind(m.def(d)) == Some(VectorOp::Splat))
                .ok_or_else(|| CodegenError::Unsupported("vector shifts by different amounts per lane".into()))?;
            a[1] = self.get(m.operand(splat, 0));
        }
        if let LoopOp::Arith(f @ (ScalarFn::Max | ScalarFn::Min)) = kind
            && float
            && vector
            && let Some(v) = self.extremum_with_constant(op, f == ScalarFn::Max, &a)
        {
            return Ok(v);
        }
        let f = match kind {
            LoopOp::Compare => {
                let pred = m.attr(op, "pred").and_then(|p| p.as_str()).and_then(Compare::parse).unwrap_or(Compare::Eq);
                let ins = self.b.ins();
                return Ok(if float {
                    let cc = match pred {
                        Compare::Eq => FloatCC::Equal,
                        Compare::Ne => FloatCC::NotEqual,
                        Compare::Lt => FloatCC::LessThan,
                        Compare::Le => FloatCC::LessThanOrEqual,
                        Compare::Gt => FloatCC::GreaterThan,
                        Compare::Ge => FloatCC::GreaterThanOrEqual,
                    };
                    ins.fcmp(cc, a[0], a[1])
                } else {
                    let cc = match pred {
                        Compare::Eq => IntCC::Equal,
                        Compare::Ne => IntCC::NotEqual,
                        Compare::Lt => IntCC::SignedLessThan,
                        Compare::Le => IntCC::SignedLessThanOrEqual,
                        Compare::Gt => IntCC::SignedGreaterThan,
                        Compare::Ge => IntCC::SignedGreaterThanOrEqual,
                    };
                    ins.icmp(cc, a[0], a[1])
                });
            }
            LoopOp::Select => {
                let ty = result_ty;
                return Ok(if ty.is_vector() {
                    let mask = if self.b.func.dfg.value_type(a[0]) == ty {
                        a[0]
                    } else {
                        self.b.ins().bitcast(ty, MemFlagsData::new(), a[0])
                    };
                    self.b.ins().bitselect(mask, a[1], a[2])
                } else {
                    self.b.ins().select(a[0], a[1], a[2])
                });
            }
            LoopOp::Cast => return self.cast(op, a[0]),
            // f16 values are held as i16: their reinterpretation is no instruction.
            LoopOp::Bitcast if self.b.func.dfg.value_type(a[0]) == result_ty => return Ok(a[0]),
            LoopOp::Bitcast => return Ok(self.b.ins().bitcast(result_ty, MemFlagsData::new(), a[0])),
            LoopOp::Arith(f) => f,
            other => unreachable!("{other:?} is not arithmetic"),
        };
        if f == ScalarFn::Mul && !float {
            return Ok(self.imul(a[0], a[1]));
        }
        let ins = self.b.ins();
        let v = match f {
            ScalarFn::Add if float => ins.fadd(a[0], a[1]),
            ScalarFn::Add => ins.iadd(a[0], a[1]),
            ScalarFn::Sub if float => ins.fsub(a[0], a[1]),
            ScalarFn::Sub => ins.isub(a[0], a[1]),
            ScalarFn::Mul => ins.fmul(a[0], a[1]),
            ScalarFn::Div if float => ins.fdiv(a[0], a[1]),
            ScalarFn::Div => ins.sdiv(a[0], a[1]),
            ScalarFn::Rem => ins.srem(a[0], a[1]),
            ScalarFn::Min if float => ins.fmin(a[0], a[1]),
            ScalarFn::Min => ins.smin(a[0], a[1]),
            ScalarFn::Max if float => ins.fmax(a[0], a[1]),
            ScalarFn::Max => ins.smax(a[0], a[1]),
            ScalarFn::And => ins.band(a[0], a[1]),
            ScalarFn::Or => ins.bor(a[0], a[1]),
            ScalarFn::Xor => ins.bxor(a[0], a[1]),
            ScalarFn::Shl => ins.ishl(a[0], a[1]),
            ScalarFn::Shr => ins.sshr(a[0], a[1]),
            ScalarFn::Neg if float => ins.fneg(a[0]),
            ScalarFn::Neg => ins.ineg(a[0]),
            ScalarFn::Abs if float => ins.fabs(a[0]),
            ScalarFn::Abs => ins.iabs(a[0]),
            ScalarFn::Fma => ins.fma(a[0], a[1], a[2]),
            ScalarFn::Sqrt => ins.sqrt(a[0]),
            ScalarFn::Floor => ins.floor(a[0]),
            ScalarFn::Ceil => ins.ceil(a[0]),
            ScalarFn::Round => ins.nearest(a[0]),
            ScalarFn::Rsqrt => {
                let s = ins.sqrt(a[0]);
                let one = self.float_const(&operand_ty, 1.0)?;
                self.b.ins().fdiv(one, s)
            }
            ScalarFn::Math(math) if elem == ScalarType::F64 && !vector => {
                return self.runtime_call(math.f64_symbol(), &a);
            }
            ScalarFn::Math(_) | ScalarFn::Ldexp => {
                return Err(CodegenError::Unsupported(format!(
                    "'{}' on {operand_ty} (f32 math must go through expand-math first)",
                    def.name
                )));
            }
        };
        Ok(v)
    }

    /// Calls a runtime math function `f64 (f64, ...)`.
    fn runtime_call(&mut self, name: &str, args: &[cl::Value]) -> Result<cl::Value, CodegenError> {
        let mut sig = self.module.make_signature();
        for _ in args {
            sig.params.push(AbiParam::new(cl::types::F64));
        }
        sig.returns.push(AbiParam::new(cl::types::F64));
        let id = self
            .module
            .declare_function(name, Linkage::Import, &sig)
            .map_err(|e| CodegenError::Backend(e.to_string()))?;
        let f = self.module.declare_func_in_func(id, self.b.func);
        let call = self.b.ins().call(f, args);
        Ok(self.b.inst_results(call)[0])
    }
}
