//! The `expand-math` pass: the f32 transcendental functions (`loop.exp`, `loop.log`,
//! ... on scalars and vectors alike) become polynomial code in loop arithmetic, each by
//! its own expansion ([`MathFn::expand_f32`], where the approximations are described),
//! so every backend computes exactly the same values. f64 math is left for code
//! generation, which calls the runtime's accurate f64 routines. Where the target
//! scales f32 vectors by a power of two in one instruction (`ldexp` option: AVX-512),
//! `exp`'s final 2^n is one `loop.ldexp` instead of exponent-bit arithmetic, with the
//! same result.

use tcc_dialect_loop::{self as lp, LoopOp};
use tcc_ir::builtin::func_entry;
use tcc_ir::scalar::{MathFn, ScalarFn};
use tcc_ir::{Diagnostics, Module, Op, Pass, PassInfo, ScalarType, Type};

use crate::builder::Builder;

pub static EXPAND_MATH: PassInfo = PassInfo {
    name: "expand-math",
    summary: "Expand the f32 transcendental functions (exp, log, ...) into polynomial loop arithmetic",
    options: &[("ldexp", "scale f32 vectors by 2^n with loop.ldexp (AVX-512's vscalefps; default false)")],
    create: |opts| Ok(Box::new(ExpandMath { ldexp: opts.parse_or("ldexp", false)? })),
};

pub struct ExpandMath {
    /// The target scales f32 vectors by a power of two in one instruction.
    pub ldexp: bool,
}

impl Pass for ExpandMath {
    fn name(&self) -> &'static str {
        "expand-math"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        expand_math(m, self.ldexp);
        Ok(())
    }
}

/// Expands the f32 math of `m`; with `ldexp`, f32 vectors are scaled by powers of two
/// with `loop.ldexp` (the same values as the exponent-bit arithmetic otherwise used).
pub fn expand_math(m: &mut Module, ldexp: bool) {
    for func in m.funcs() {
        let Some(entry) = func_entry(m, func) else { continue };
        let targets: Vec<(Op, MathFn)> = m
            .walk(func)
            .into_iter()
            .filter_map(|op| match lp::kind_of(m, op) {
                Some(LoopOp::Arith(ScalarFn::Math(f))) => Some((op, f)),
                _ => None,
            })
            .filter(|&(op, _)| lp::elem_of(m.value_type(m.result(op, 0))) == Some(ScalarType::F32))
            .collect();
        for (op, f) in targets {
            let ty = m.value_type(m.result(op, 0)).clone();
            let args = m.operands(op).to_vec();
            let mut b = Builder::before(m, op, entry);
            let ldexp = ldexp && matches!(&ty, Type::Vector(v) if [4, 8, 16].contains(&v.lanes));
            let r = f.expand_f32(&mut b, &args, ldexp);
            m.replace_op(op, &[r]);
        }
    }
}
