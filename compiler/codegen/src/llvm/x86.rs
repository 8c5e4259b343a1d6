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
//!   (a softmax's row maximum). With a constant operand the generic intrinsic stays:
//!   LLVM folds that to one `vminps`/`vmaxps`.

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
}
