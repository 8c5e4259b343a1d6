//! Conversions between element types (`loop.cast`), on scalars and vectors alike, and
//! the i1 values they meet: a scalar i1 is a byte holding 0 or 1, a vector of i1 a mask
//! whose lanes (as wide as the compared values') are all ones or all zeros.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{self as cl, InstBuilder};
use tcc_dialect_loop as lp;
use tcc_ir::{Op, ScalarType, Type};

use super::{CodegenError, Translator, clif_type};

impl Translator<'_, '_, '_> {
    /// An i1 byte (0 or 1) as a mask lane of `lane` (an integer type): 0 or all ones.
    pub(super) fn mask_lane(&mut self, x: cl::Value, lane: cl::Type) -> cl::Value {
        let wide = if lane.bits() > 8 { self.b.ins().uextend(lane, x) } else { x };
        self.b.ins().ineg(wide)
    }

    pub(super) fn cast(&mut self, op: Op, x: cl::Value) -> Result<cl::Value, CodegenError> {
        let m = self.m();
        let from_ty = m.value_type(m.operand(op, 0)).clone();
        let to_ty = m.value_type(m.result(op, 0)).clone();
        let (from, to) = (lp::elem_of(&from_ty).expect("scalar"), lp::elem_of(&to_ty).expect("scalar"));
        let (cf, ct) = (clif_type(&from_ty)?, clif_type(&to_ty)?);
        // Same Cranelift type: nothing to do, except from a mask (a vector i1 lane is
        // all ones, an integer `true` is 1), which `mask_cast` converts.
        let from_mask = from == ScalarType::I1 && from_ty.as_vector().is_some();
        if cf == ct && from.is_float() == to.is_float() && to != ScalarType::I1 && !from_mask {
            return Ok(x);
        }
        if from_ty.as_vector().is_some() && (from == ScalarType::I1 || to == ScalarType::I1) {
            return self.mask_cast(&from_ty, &to_ty, x);
        }
        let ins = self.b.ins();
        Ok(match (from.is_float(), to.is_float()) {
            // Vectors: f32 lanes in the low half of the register widen to f64 lanes and
            // back (`is_half_vector`).
            (true, true) if ct.is_vector() && to.byte_size() > from.byte_size() => ins.fvpromote_low(x),
            (true, true) if ct.is_vector() => ins.fvdemote(x),
            (true, true) if ct.bits() > cf.bits() => ins.fpromote(ct, x),
            (true, true) => ins.fdemote(ct, x),
            (true, false) if to == ScalarType::I1 => {
                let zero = self.float_const(&from_ty, 0.0)?;
                self.b.ins().fcmp(FloatCC::NotEqual, x, zero)
            }
            (true, false) if ct.lane_bits() >= 32 => ins.fcvt_to_sint_sat(ct, x),
            (true, false) => {
                // Cranelift converts to 32 or 64 bits only: to i32, saturated to the
                // narrow type's range, then its low bits.
                if from_ty.as_vector().is_some() {
                    return Err(CodegenError::Unsupported(format!("cast from {from_ty} to {to_ty}")));
                }
                let (lo, hi) = to.int_range();
                let wide = ins.fcvt_to_sint_sat(cl::types::I32, x);
                let lo = self.b.ins().iconst(cl::types::I32, lo);
                let hi = self.b.ins().iconst(cl::types::I32, hi);
                let at_least = self.b.ins().smax(wide, lo);
                let within = self.b.ins().smin(at_least, hi);
                self.b.ins().ireduce(ct, within)
            }
            (false, true) => {
                // i1 (i8 0/1) and narrow integers widen first.
                let wide = if from == ScalarType::I1 {
                    self.b.ins().uextend(cl::types::I32, x)
                } else if cf.bits() < 32 {
                    self.b.ins().sextend(cl::types::I32, x)
                } else {
                    x
                };
                self.b.ins().fcvt_from_sint(ct, wide)
            }
            (false, false) if to == ScalarType::I1 => {
                let zero = ins.iconst(cf, 0);
                self.b.ins().icmp(IntCC::NotEqual, x, zero)
            }
            // Vectors: i16 lanes in the low half of the register widen to i32 lanes and
            // back (wrapping), as f16 bits do in `expand-half`.
            (false, false) if ct.is_vector() && ct.lane_bits() == 2 * cf.lane_bits() => ins.swiden_low(x),
            (false, false) if ct.is_vector() && cf.lane_bits() == 2 * ct.lane_bits() => {
                let low = self.b.ins().iconst(cf.lane_type(), (1i64 << ct.lane_bits()) - 1);
                let low = self.b.ins().splat(cf, low);
                let low = self.b.ins().band(x, low);
                self.b.ins().unarrow(low, low)
            }
            (false, false) if ct.is_vector() && ct.lane_bits() != cf.lane_bits() => {
                return Err(CodegenError::Unsupported(format!("cast from {from_ty} to {to_ty}")));
            }
            (false, false) if ct.bits() < cf.bits() => ins.ireduce(ct, x),
            (false, false) if from == ScalarType::I1 => ins.uextend(ct, x),
            (false, false) if ct.bits() > cf.bits() => ins.sextend(ct, x),
            (false, false) => x,
        })
    }

    /// A cast from or to a vector of i1 (a mask): to 0 or 1 of the other type's lanes, or
    /// from nonzero lanes, when the lanes have the width of the mask's (a mask from
    /// comparing f32 lanes cast to f32, as `vectorize` makes of `x == c ? 1.0 : 0.0`).
    fn mask_cast(&mut self, from_ty: &Type, to_ty: &Type, x: cl::Value) -> Result<cl::Value, CodegenError> {
        let (from, to) = (lp::elem_of(from_ty).expect("vector"), lp::elem_of(to_ty).expect("vector"));
        let (cf, ct) = (clif_type(from_ty)?, clif_type(to_ty)?);
        let unsupported = || CodegenError::Unsupported(format!("cast from {from_ty} to {to_ty}"));
        if cf.lane_bits() != ct.lane_bits() {
            return Err(unsupported());
        }
        Ok(match (from, to) {
            (ScalarType::I1, ScalarType::I1) => x,
            (ScalarType::I1, t) => {
                let ones = self.b.ins().ineg(x);
                if t.is_float() { self.b.ins().fcvt_from_sint(ct, ones) } else { ones }
            }
            (f, _) if f.is_float() => {
                let zero = self.float_const(from_ty, 0.0)?;
                self.b.ins().fcmp(FloatCC::NotEqual, x, zero)
            }
            _ => {
                let zero = self.b.ins().iconst(cf.lane_type(), 0);
                let zero = self.b.ins().splat(cf, zero);
                self.b.ins().icmp(IntCC::NotEqual, x, zero)
            }
        })
    }
}
