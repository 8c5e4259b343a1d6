//! AVX-512 instructions that LLVM does not select by itself for what tcc asks, called
//! through their `llvm.x86.*` intrinsics when the target has AVX-512 (F, DQ and VL:
//! every CPU tcc generates 512-bit code for):
//!
//! - `loop.ldexp` (`x * 2^n`, emitted by expand-math for such targets only) is
//!   `vscalefps`;
//! - float `loop.min`/`loop.max` on vectors (NaN if either operand is, -0 < +0) are
//!   `vrangeps`/`vrangepd` (IEEE minimumNumber/maximumNumber, signed zeros ordered)
//!   with NaN put back by one compare and blend. LLVM expands `llvm.minimum` into a
//!   sign test, two blends, the compare and a fix-up whose chain bounds max reductions
//!   (a softmax's row maximum). Against a splat constant (a ReLU, a clamp) they are
//!   `vmaxps`/`vminps` with the constant first, which returns the other operand's NaN
//!   in one instruction (plus an add of `+0` for `max(x, +0)`'s sign of zero), where
//!   LLVM's own folding took a compare and a blend more: the epilogue of a depthwise
//!   convolution's nine FMAs per output (channel multipliers at 60% of the peak ->
//!   65%, Zen 5).

use inkwell::intrinsics::Intrinsic;
use inkwell::llvm_sys::LLVMRealPredicate;
use inkwell::llvm_sys::core as raw;
use inkwell::types::BasicTypeEnum;
use inkwell::values::BasicValueEnum;

use super::translate::Translator;
use crate::CodegenError;

/// Lanes and whether the elements are f64, for float vectors of 128 to 512 bits.
fn float_vector(t: BasicTypeEnum) -> Option<(u32, bool)> {
    let BasicTypeEnum::VectorType(v) = t else { return None };
    let BasicTypeEnum::FloatType(f) = v.get_element_type() else { return None };
    let f64 = f == f.get_context().f64_type();
    let bits = v.get_size() * if f64 { 64 } else { 32 };
    matches!(bits, 128 | 256 | 512).then_some((v.get_size(), f64))
}

impl<'ctx> Translator<'_, 'ctx, '_> {
    /// Calls `llvm.x86.avx512.mask.<op>.<ps|pd>.<bits>` on `args`, then a zero
    /// pass-through, an all-ones mask and (512 bits) the current rounding mode.
    fn masked_avx512(
        &self,
        op: &str,
        ty: BasicTypeEnum<'ctx>,
        args: &[BasicValueEnum<'ctx>],
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let (lanes, f64) = float_vector(ty).ok_or_else(|| CodegenError::Unsupported(format!("{op} on {ty}")))?;
        let bits = lanes * if f64 { 64 } else { 32 };
        let name = format!("llvm.x86.avx512.mask.{op}.{}.{bits}", if f64 { "pd" } else { "ps" });
        let decl = Intrinsic::find(&name)
            .and_then(|i| i.get_declaration(self.shared.module, &[]))
            .ok_or_else(|| CodegenError::Backend(format!("no LLVM intrinsic {name}")))?;
        let ctx = self.shared.ctx;
        let mask = if lanes == 16 { ctx.i16_type() } else { ctx.i8_type() };
        let mut all: Vec<BasicValueEnum<'ctx>> = args.to_vec();
        all.push(ty.const_zero());
        all.push(mask.const_all_ones().into());
        if bits == 512 {
            // 4: the current rounding direction (MXCSR), no embedded rounding.
            all.push(ctx.i32_type().const_int(4, false).into());
        }
        self.call(decl, &all)
    }

    /// `x * 2^n` (n integral) on f32 vectors: `vscalefps`, which scales by 2^floor(n)
    /// and rounds once.
    pub(super) fn scalef(
        &self,
        x: BasicValueEnum<'ctx>,
        n: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        self.masked_avx512("scalef", x.get_type(), &[x, n])
    }

    /// Float minimum or maximum: NaN if either operand is NaN, -0 < +0.
    pub(super) fn float_extremum(
        &self,
        max: bool,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<BasicValueEnum<'ctx>, CodegenError> {
        let constant = |v: BasicValueEnum| unsafe {
            !raw::LLVMIsAConstant(inkwell::values::AsValueRef::as_value_ref(&v)).is_null()
        };
        if self.shared.avx512
            && float_vector(a.get_type()).is_some()
            && let Some(v) = self.extremum_with_constant(max, a, b)?
        {
            return Ok(v);
        }
        if !self.shared.avx512 || float_vector(a.get_type()).is_none() || constant(a) || constant(b) {
            return self.intrinsic(if max { "llvm.maximum" } else { "llvm.minimum" }, &[a, b]);
        }
        // imm8: bits 1:0 select min (00) or max (01), bits 3:2 = 01 take the sign of
        // the compared result (so -0 < +0).
        let imm = self.shared.ctx.i32_type().const_int(if max { 0b0101 } else { 0b0100 }, false).into();
        let number = self.masked_avx512("range", a.get_type(), &[a, b, imm])?;
        let nan = self.fcmp(LLVMRealPredicate::LLVMRealUNO, a, b);
        let either = self.binary(raw::LLVMBuildFAdd, a, b);
        Ok(self.select(nan, either, number))
    }

    /// The minimum or maximum of a float vector and a constant splat `c`, as the x86
    /// instruction with the constant first: `maxps(c, x)` returns its second operand
    /// when either is NaN, so `x`'s NaN comes through in one instruction (the generic
    /// intrinsic, which LLVM folds to `maxps(x, c)`, takes a compare and a blend more).
    /// Only the sign of zero needs care: `max(x, +0)` (a ReLU) gets `+0` added, which
    /// turns `maxps`'s `-0` into `+0` and changes nothing else; `min(x, -0)` is left to
    /// the generic intrinsic. `None` when neither operand is such a constant.
    fn extremum_with_constant(
        &self,
        max: bool,
        a: BasicValueEnum<'ctx>,
        b: BasicValueEnum<'ctx>,
    ) -> Result<Option<BasicValueEnum<'ctx>>, CodegenError> {
        let (c, x, value) = match (splat_constant(a), splat_constant(b)) {
            (Some(v), _) => (a, b, v),
            (None, Some(v)) => (b, a, v),
            (None, None) => return Ok(None),
        };
        if value.is_nan() {
            // (`maxps(NaN, x)` is `x`.)
            return Ok(None);
        }
        let negative_zero = value == 0.0 && value.is_sign_negative();
        let positive_zero = value == 0.0 && value.is_sign_positive();
        if !max && negative_zero {
            return Ok(None);
        }
        let Some((lanes, f64)) = float_vector(c.get_type()) else { return Ok(None) };
        let (kind, op) = (if f64 { "pd" } else { "ps" }, if max { "max" } else { "min" });
        let name = match lanes * if f64 { 64 } else { 32 } {
            512 => format!("llvm.x86.avx512.{op}.{kind}.512"),
            256 => format!("llvm.x86.avx.{op}.{kind}.256"),
            _ => format!("llvm.x86.{}.{op}.{kind}", if f64 { "sse2" } else { "sse" }),
        };
        let decl = Intrinsic::find(&name)
            .and_then(|i| i.get_declaration(self.shared.module, &[]))
            .ok_or_else(|| CodegenError::Backend(format!("no LLVM intrinsic {name}")))?;
        let mut args = vec![c, x];
        if name.ends_with(".512") {
            // 4: the current rounding direction (MXCSR), no embedded rounding.
            args.push(self.shared.ctx.i32_type().const_int(4, false).into());
        }
        let r = self.call(decl, &args)?;
        Ok(Some(if max && positive_zero { self.binary(raw::LLVMBuildFAdd, r, c) } else { r }))
    }
}

/// The value of every lane of a float vector constant whose lanes are all the same
/// (bit for bit), if `v` is one.
fn splat_constant(v: BasicValueEnum) -> Option<f64> {
    let (lanes, _) = float_vector(v.get_type())?;
    let value = inkwell::values::AsValueRef::as_value_ref(&v);
    // SAFETY: `v` is a valid value of a float vector type; the element queries return
    // null for non-constants, which is checked before use.
    unsafe {
        if raw::LLVMIsAConstant(value).is_null() {
            return None;
        }
        let lane = |i: u32| {
            let e = raw::LLVMGetAggregateElement(value, i);
            if e.is_null() || raw::LLVMIsAConstantFP(e).is_null() {
                return None;
            }
            let mut loses = 0;
            Some(raw::LLVMConstRealGetDouble(e, &mut loses))
        };
        let first = lane(0)?;
        (1..lanes).all(|i| lane(i).is_some_and(|l| l.to_bits() == first.to_bits())).then_some(first)
    }
}
