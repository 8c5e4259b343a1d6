//! Vector constants and the ops Cranelift compiles better when one operand is one.
//!
//! A vector constant lives in a stack slot the entry block fills and is loaded at each
//! use ([`Translator::vector_constant`]): Cranelift would otherwise hoist the splat out
//! of every loop and keep it in a register across kernel loops. `max`/`min` with a
//! constant bound become one `maxps`/`minps` ([`Translator::extremum_with_constant`]).

use cranelift_codegen::cursor::{Cursor, FuncCursor};
use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::{self as cl, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind};
use tcc_dialect_loop as lp;
use tcc_ir::{Op, ScalarType, Type, Value};

use super::{CodegenError, Translator, clif_type};

impl Translator<'_, '_, '_> {
    /// The vector of type `ty` with every lane `scalar` (a constant of bits `bits`), read
    /// where it is used from a stack slot that the entry block fills.
    ///
    /// A `splat` of a constant is pure, so Cranelift hoists it out of every loop around
    /// its use, and its register allocator neither rematerializes it nor spills it around
    /// the inner loops: a kernel epilogue's constants (a ReLU's bounds) held registers
    /// across the FMA loop and pushed accumulators to the stack (ResNet-50's 1x1 convs at
    /// 43-51% of peak). A load at each use (`get` emits one per use) stays there and
    /// folds into its user as a memory operand, as LLVM's constant-pool operands do.
    pub(super) fn vector_constant(&mut self, ty: cl::Type, scalar: cl::Value, bits: u64) -> cl::StackSlot {
        match self.vector_constants.get(&(ty, bits)) {
            Some(&slot) => slot,
            None => {
                let slot =
                    self.b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, ty.bytes(), 4));
                let scalar_ty = self.b.func.dfg.value_type(scalar);
                let mut pos = FuncCursor::new(self.b.func).at_first_insertion_point(self.entry);
                let k = match scalar_ty {
                    t if t == cl::types::F32 => pos.ins().f32const(f32::from_bits(bits as u32)),
                    t if t == cl::types::F64 => pos.ins().f64const(f64::from_bits(bits)),
                    // The lane type: a mask's lanes are wider than the i1 byte splatted.
                    _ => pos.ins().iconst(ty.lane_type(), bits as i64),
                };
                let v = pos.ins().splat(ty, k);
                pos.ins().stack_store(cl::types::I64, v, slot, 0);
                self.vector_constants.insert((ty, bits), slot);
                slot
            }
        }
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
            let slot = self.vector_constant(ty, s, bits);
            self.b.ins().stack_load(cl::types::I64, ty, slot, 0)
        } else {
            s
        })
    }
}
