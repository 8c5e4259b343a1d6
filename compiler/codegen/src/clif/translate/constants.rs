//! Vector constants and the ops Cranelift compiles better when one operand is one.
//!
//! Vector constants live in a stack slot the entry block fills and are loaded at each
//! use ([`Translator::vector_constant`], [`Translator::vector_constant_load`]):
//! Cranelift would otherwise hoist the splat out of every loop and keep it in a
//! register across kernel loops. `max`/`min` with a constant bound become one
//! `maxps`/`minps` ([`Translator::extremum_with_constant`]).

use cranelift_codegen::cursor::{Cursor, FuncCursor};
use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::{self as cl, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind};
use tcc_dialect_loop as lp;
use tcc_ir::{Op, ScalarType, Type, Value};

use super::{CodegenError, Translator, clif_type};

impl Translator<'_, '_, '_> {
    /// The vector of type `ty` with every lane `scalar` (a constant of bits `bits`): its
    /// offset in the function's constant slot, which the entry block fills, to be read
    /// where it is used ([`Translator::vector_constant_load`]).
    ///
    /// A `splat` of a constant is pure, so Cranelift hoists it out of every loop around
    /// its use, and its register allocator neither rematerializes it nor spills it around
    /// the inner loops: a kernel epilogue's constants (a ReLU's bounds) held registers
    /// across the FMA loop and pushed accumulators to the stack (ResNet-50's 1x1 convs at
    /// 43-51% of peak). A load at each use stays there and folds into its user as a
    /// memory operand, as LLVM's constant-pool operands do.
    pub(super) fn vector_constant(&mut self, ty: cl::Type, scalar: cl::Value, bits: u64) -> u32 {
        if let Some(&at) = self.vector_constants.get(&(ty, bits)) {
            return at;
        }
        let slot = match self.constant_slot {
            Some(slot) => slot,
            None => {
                let slot = self.b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 0, 4));
                self.constant_slot = Some(slot);
                slot
            }
        };
        let at = self.b.func.sized_stack_slots[slot].size;
        self.b.func.sized_stack_slots[slot].size += 16;
        let scalar_ty = self.b.func.dfg.value_type(scalar);
        let mut pos = FuncCursor::new(self.b.func).at_first_insertion_point(self.entry);
        let k = match scalar_ty {
            t if t == cl::types::F32 => pos.ins().f32const(f32::from_bits(bits as u32)),
            t if t == cl::types::F64 => pos.ins().f64const(f64::from_bits(bits)),
            // The lane type: a mask's lanes are wider than the i1 byte splatted.
            _ => pos.ins().iconst(ty.lane_type(), bits as i64),
        };
        let v = pos.ins().splat(ty, k);
        pos.ins().stack_store(cl::types::I64, v, slot, at as i32);
        self.vector_constants.insert((ty, bits), at);
        at
    }

    /// A read of the vector constant at offset `at` of the constant slot, at the
    /// current position.
    ///
    /// In a loop, the load is pure for Cranelift (readonly, cannot trap, may move) and
    /// its address depends on the innermost loop's induction variable (the slot's
    /// address or `iv >> 63`, zero for the non-negative indices loops run over, which
    /// Cranelift cannot know): so it is neither hoisted out of the loop nor pinned where
    /// the loop's IR had it, but placed right before its user like the pure arithmetic
    /// around it, where it folds into that user as a memory operand, every constant at
    /// its offset from one register. A plain load stayed at its place in the block
    /// while the e-graph moved the arithmetic after all of them: a softmax's or an
    /// erf's twenty-odd constants all live at once, spilled and reloaded every
    /// iteration. Outside loops, a plain load.
    pub(super) fn vector_constant_load(&mut self, ty: cl::Type, at: u32) -> cl::Value {
        let slot = self.constant_slot.expect("a vector constant was made");
        let Some(&iv) = self.loop_ivs.last() else {
            return self.b.ins().stack_load(cl::types::I64, ty, slot, at as i32);
        };
        let zero = self.b.ins().ushr_imm_u(iv, 63);
        let base = self.b.ins().stack_addr(cl::types::I64, slot, 0);
        // (`bor`, not `iadd`: an added index would become the address's index
        // register, and an indexed memory operand costs Intel cores an extra uop.)
        let base = self.b.ins().bor(base, zero);
        let flags = MemFlagsData::trusted().with_readonly().with_can_move();
        self.b.ins().load(ty, flags, base, at as i32)
    }

    /// `max`/`min` (NaN-propagating, -0 < +0) of a float vector and a splat constant
    /// that is not NaN, as one `maxps`/`minps` instead of `fmax`/`fmin`'s eight
    /// instructions (a kernel epilogue's ReLU ran longer than a short reduction's FMAs).
    /// `(x < c) ? c : x` (the pattern Cranelift selects `maxps` for) returns `x` when `x`
    /// is NaN, as required; only a zero constant of the wrong sign differs, on the zero
    /// of the other sign: `max(-0, +0)` gives -0, which adding +0 turns into +0. `None`:
    /// no such constant operand (or `min` with -0), the general lowering applies.
    pub(super) fn extremum_with_constant(&mut self, op: Op, is_max: bool, a: &[cl::Value]) -> Option<cl::Value> {
        let m = self.m();
        let (c, x) =
            [(1, 0), (0, 1)].into_iter().find(|&(c, _)| self.splat_constants.contains_key(&m.operand(op, c)))?;
        let splat = m.defining_op(m.operand(op, c))?;
        let bits = self.constant_bits(m.operand(splat, 0))?;
        let ty = self.result_type(op).ok()?;
        let value =
            if ty.lane_type() == cl::types::F32 { f32::from_bits(bits as u32) as f64 } else { f64::from_bits(bits) };
        let positive_zero = value == 0.0 && value.is_sign_positive();
        if value.is_nan() || (!is_max && value == 0.0 && !positive_zero) {
            return None;
        }
        let (c, x) = (a[c], a[x]);
        // `maxps` is selected for `(x < c) ? c : x`, `minps` for `(c < x) ? c : x`.
        let (lhs, rhs) = if is_max { (x, c) } else { (c, x) };
        let below = self.b.ins().fcmp(FloatCC::LessThan, lhs, rhs);
        let mask = self.b.ins().bitcast(ty, MemFlagsData::new(), below);
        let v = self.b.ins().bitselect(mask, c, x);
        let v = if is_max && positive_zero {
            let zero = self.float_const(&m.value_type(m.result(op, 0)).clone(), 0.0).ok()?;
            self.b.ins().fadd(v, zero)
        } else {
            v
        };
        Some(v)
    }

    /// The bits of `v` when it is a `loop.constant` (floats as their IEEE bits).
    pub(super) fn constant_bits(&self, v: Value) -> Option<u64> {
        let m = self.m();
        let op = m.defining_op(v).filter(|&d| lp::kind_of(m, d) == Some(lp::LoopOp::Const))?;
        match m.attr(op, "value")? {
            tcc_ir::Attribute::Float(x, ScalarType::F32) => Some((*x as f32).to_bits() as u64),
            tcc_ir::Attribute::Float(x, _) => Some(x.to_bits()),
            tcc_ir::Attribute::Int(x, _) => Some(*x as u64),
            tcc_ir::Attribute::Bool(x) => Some(*x as u64),
            _ => None,
        }
    }

    pub(super) fn float_const(&mut self, ty: &Type, x: f64) -> Result<cl::Value, CodegenError> {
        let elem = lp::elem_of(ty).expect("float type");
        let (s, bits) = if elem == ScalarType::F32 {
            (self.b.ins().f32const(x as f32), (x as f32).to_bits() as u64)
        } else {
            (self.b.ins().f64const(x), x.to_bits())
        };
        Ok(if let Type::Vector(_) = ty {
            let ty = clif_type(ty)?;
            let at = self.vector_constant(ty, s, bits);
            self.vector_constant_load(ty, at)
        } else {
            s
        })
    }
}
