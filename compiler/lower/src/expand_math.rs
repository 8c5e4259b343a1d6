//! The `expand-math` pass: f32 `exp`, `log`, `tanh`, `erf` and `pow` (scalars and
//! vectors alike) become polynomial code in loop arithmetic, so every backend computes
//! exactly the same values. f64 math is left for code generation, which calls the
//! runtime's accurate f64 routines.
//!
//! The approximations are the classic single-precision ones: Cephes `expf` (range
//! reduction by ln 2, degree-6 polynomial, about 1 ulp), Cephes `logf` (mantissa in
//! [sqrt(1/2), sqrt 2), degree-9 polynomial, about 1 ulp), `tanh` as a polynomial below
//! 0.625 and `1 - 2 / (e^{2|x|} + 1)` above, Eigen's rational `erf` on [-4, 4] (a few
//! ulp), and `pow` as `exp(b log |a|)` with the sign and special cases of C's `powf`.
//! Special values follow IEEE: NaN in gives NaN out, exp saturates to +inf and flushes
//! results below the smallest normal float to 0. Where the target scales f32 vectors by
//! a power of two in one instruction (`ldexp` option: AVX-512), `exp`'s final 2^n
//! is one `loop.ldexp` instead of exponent-bit arithmetic, with the same result.

use tcc_dialect_loop as lp;
use tcc_dialect_vector as vp;
use tcc_ir::builtin::func_entry;
use tcc_ir::{AttrDict, Diagnostics, Module, Op, Pass, PassInfo, ScalarType, Type, Value};

use crate::builder::Builder;

pub static EXPAND_MATH: PassInfo = PassInfo {
    name: "expand-math",
    summary: "Expand f32 exp/log/tanh/erf/pow into polynomial loop arithmetic",
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
        let targets: Vec<Op> = m
            .walk(func)
            .into_iter()
            .filter(|&op| [&lp::EXP, &lp::LOG, &lp::TANH, &lp::ERF, &lp::POW].iter().any(|d| m.is(op, d)))
            .filter(|&op| lp::elem_of(m.value_type(m.result(op, 0))) == Some(ScalarType::F32))
            .collect();
        for op in targets {
            let ty = m.value_type(m.result(op, 0)).clone();
            let args = m.operands(op).to_vec();
            let def = m.def(op);
            let mut b = Builder::before(m, op, entry);
            let ldexp = ldexp && matches!(&ty, Type::Vector(v) if [4, 8, 16].contains(&v.lanes));
            let mut e = Ex { b: &mut b, ty: ty.clone(), ldexp };
            let r = if std::ptr::eq(def, &lp::EXP) {
                e.exp(args[0])
            } else if std::ptr::eq(def, &lp::LOG) {
                e.log(args[0])
            } else if std::ptr::eq(def, &lp::TANH) {
                e.tanh(args[0])
            } else if std::ptr::eq(def, &lp::ERF) {
                e.erf(args[0])
            } else {
                e.pow(args[0], args[1])
            };
            m.replace_op(op, &[r]);
        }
    }
}

/// Emits f32 math on scalars or vectors of type `ty`.
struct Ex<'b, 'm> {
    b: &'b mut Builder<'m>,
    ty: Type,
    /// Scale by 2^n with `loop.ldexp`.
    ldexp: bool,
}

impl Ex<'_, '_> {
    fn int_ty(&self) -> Type {
        lp::with_elem(&self.ty, ScalarType::I32)
    }

    fn splat_if_vector(&mut self, s: Value, ty: Type) -> Value {
        if matches!(ty, Type::Vector(_)) { self.b.op_typed(&vp::SPLAT, &[s], AttrDict::new(), vec![ty])[0] } else { s }
    }

    fn c(&mut self, x: f64) -> Value {
        let s = self.b.scalar(ScalarType::F32, x);
        let ty = self.ty.clone();
        self.splat_if_vector(s, ty)
    }

    fn ci(&mut self, x: i64) -> Value {
        let s = self.b.int(ScalarType::I32, x);
        let ty = self.int_ty();
        self.splat_if_vector(s, ty)
    }

    fn add(&mut self, a: Value, b: Value) -> Value {
        self.b.bin(&lp::ADD, a, b)
    }
    fn sub(&mut self, a: Value, b: Value) -> Value {
        self.b.bin(&lp::SUB, a, b)
    }
    fn mul(&mut self, a: Value, b: Value) -> Value {
        self.b.bin(&lp::MUL, a, b)
    }
    fn div(&mut self, a: Value, b: Value) -> Value {
        self.b.bin(&lp::DIV, a, b)
    }
    fn fma(&mut self, a: Value, b: Value, c: Value) -> Value {
        self.b.op(&lp::FMA, &[a, b, c], AttrDict::new())
    }
    /// Horner: ((c0 x + c1) x + c2) ...
    fn horner(&mut self, x: Value, coeffs: &[f64]) -> Value {
        let mut p = self.c(coeffs[0]);
        for &k in &coeffs[1..] {
            let kv = self.c(k);
            p = self.fma(p, x, kv);
        }
        p
    }
    fn cmp(&mut self, pred: &str, a: Value, b: Value) -> Value {
        self.b.cmp(pred, a, b)
    }
    fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        self.b.select(c, a, b)
    }
    fn bitcast(&mut self, v: Value, to: Type) -> Value {
        self.b.op_typed(&lp::BITCAST, &[v], AttrDict::new(), vec![to])[0]
    }

    fn exp(&mut self, x: Value) -> Value {
        const HI: f64 = 88.722_831_726_074_22; // ln(f32::MAX)
        const LO: f64 = -87.336_544_750_553_1; // ln(smallest normal f32)
        let (hi, lo) = (self.c(HI), self.c(LO));
        let xc = self.b.bin(&lp::MIN, x, hi);
        let xc = self.b.bin(&lp::MAX, xc, lo);
        // x = n ln2 + r, |r| <= ln2 / 2
        let log2e = self.c(std::f64::consts::LOG2_E);
        let t = self.mul(xc, log2e);
        let n = self.b.un(&lp::ROUND, t);
        let (c1, c2) = (self.c(-0.693_359_375), self.c(2.121_944_4e-4));
        let r = self.fma(n, c1, xc);
        let r = self.fma(n, c2, r);
        let p = self.horner(
            r,
            &[
                1.987_569_150_0e-4,
                1.398_199_950_7e-3,
                8.333_451_907_3e-3,
                4.166_579_589_4e-2,
                1.666_666_545_9e-1,
                5.000_000_120_1e-1,
            ],
        );
        let r2 = self.mul(r, r);
        let one = self.c(1.0);
        let q = self.add(r, one);
        let y = self.fma(p, r2, q);
        let y = self.scale_by_pow2(y, n);
        // Beyond the clamp: +inf above, 0 below (NaN passes through the clamp).
        let inf = self.c(f64::INFINITY);
        let zero = self.c(0.0);
        let over = self.cmp("gt", x, hi);
        let y = self.select(over, inf, y);
        let under = self.cmp("lt", x, lo);
        self.select(under, zero, y)
    }

    /// y * 2^n for integral n in [-126, 128]: one `loop.ldexp`, or through the exponent
    /// bits (the same value: both round only the final product).
    fn scale_by_pow2(&mut self, y: Value, n: Value) -> Value {
        if self.ldexp {
            return self.b.bin(&lp::LDEXP, y, n);
        }
        // n is in [-126, 128], so split 2^n = 2^(n/2) 2^(n - n/2). n as an integer
        // without a float-to-int conversion (which keeps NaN and saturation semantics,
        // and LLVM scalarizes on x86): n + 1.5 * 2^23 is exact and holds n in its low
        // mantissa bits.
        let ity = self.int_ty();
        let magic = self.c(12_582_912.0);
        let shifted = self.add(n, magic);
        let shifted = self.bitcast(shifted, ity.clone());
        let magic_bits = self.ci(0x4B40_0000);
        let ni = self.sub_i(shifted, magic_bits);
        let one_i = self.ci(1);
        let half = self.b.bin(&lp::SHR, ni, one_i);
        let rest = self.sub_i(ni, half);
        let s1 = self.pow2(half);
        let s2 = self.pow2(rest);
        let y = self.mul(y, s1);
        self.mul(y, s2)
    }

    fn sub_i(&mut self, a: Value, b: Value) -> Value {
        self.b.bin(&lp::SUB, a, b)
    }

    /// 2^n for integer n in [-126, 127], as float bits.
    fn pow2(&mut self, n: Value) -> Value {
        let bias = self.ci(127);
        let e = self.b.bin(&lp::ADD, n, bias);
        let sh = self.ci(23);
        let bits = self.b.bin(&lp::SHL, e, sh);
        let ty = self.ty.clone();
        self.bitcast(bits, ty)
    }

    fn log(&mut self, x: Value) -> Value {
        let ity = self.int_ty();
        // Scale subnormals into the normal range first.
        let tiny = self.c(1.175_494_350_822_287_5e-38);
        let is_sub = self.cmp("lt", x, tiny);
        let big = self.c(8_388_608.0);
        let xs = self.mul(x, big);
        let xn = self.select(is_sub, xs, x);
        let e_adj_sub = self.ci(-23);
        let zero_i = self.ci(0);
        let e_adj = self.select(is_sub, e_adj_sub, zero_i);
        let bits = self.bitcast(xn, ity.clone());
        let sh = self.ci(23);
        let raw_e = self.b.bin(&lp::SHR, bits, sh);
        let bias = self.ci(126);
        let e = self.sub_i(raw_e, bias);
        let e = self.b.bin(&lp::ADD, e, e_adj);
        // Mantissa in [0.5, 1).
        let mask = self.ci(0x007F_FFFF);
        let mant = self.b.bin(&lp::AND, bits, mask);
        let half_bits = self.ci(0x3F00_0000);
        let mbits = self.b.bin(&lp::OR, mant, half_bits);
        let ty = self.ty.clone();
        let mut mf = self.bitcast(mbits, ty.clone());
        let mut ef = self.b.cast(e, ty.clone());
        // Move the mantissa to [sqrt(1/2), sqrt 2): m - 1 or 2m - 1.
        let sqrthf = self.c(std::f64::consts::FRAC_1_SQRT_2);
        let small = self.cmp("lt", mf, sqrthf);
        let one = self.c(1.0);
        let ef_minus = self.sub(ef, one);
        ef = self.select(small, ef_minus, ef);
        let doubled = self.add(mf, mf);
        let m2 = self.select(small, doubled, mf);
        mf = self.sub(m2, one);
        let z = self.mul(mf, mf);
        let p = self.horner(
            mf,
            &[
                7.037_683_629_2e-2,
                -1.151_461_031_0e-1,
                1.167_699_874_0e-1,
                -1.242_014_084_6e-1,
                1.424_932_278_7e-1,
                -1.666_805_766_5e-1,
                2.000_071_476_5e-1,
                -2.499_999_399_3e-1,
                3.333_333_117_4e-1,
            ],
        );
        let pm = self.mul(p, mf);
        let mut y = self.mul(pm, z);
        let q1 = self.c(-2.121_944_40e-4);
        y = self.fma(ef, q1, y);
        let mhalf = self.c(-0.5);
        y = self.fma(z, mhalf, y);
        let mut r = self.add(mf, y);
        let q2 = self.c(0.693_359_375);
        r = self.fma(ef, q2, r);
        // log(0) = -inf, log(x < 0) = NaN, log(+inf) = +inf, NaN stays NaN.
        let zero = self.c(0.0);
        let ninf = self.c(f64::NEG_INFINITY);
        let inf = self.c(f64::INFINITY);
        let nan = self.c(f64::NAN);
        let is_zero = self.cmp("eq", x, zero);
        r = self.select(is_zero, ninf, r);
        let is_neg = self.cmp("lt", x, zero);
        r = self.select(is_neg, nan, r);
        let is_inf = self.cmp("eq", x, inf);
        r = self.select(is_inf, inf, r);
        let is_nan = self.cmp("ne", x, x);
        self.select(is_nan, x, r)
    }

    fn tanh(&mut self, x: Value) -> Value {
        let ax = self.b.un(&lp::ABS, x);
        // Small |x|: odd polynomial.
        let z = self.mul(x, x);
        let p = self.horner(
            z,
            &[
                -5.704_988_727_45e-3,
                2.063_908_879_54e-2,
                -5.373_971_555_31e-2,
                1.333_144_220_36e-1,
                -3.333_328_194_22e-1,
            ],
        );
        let pz = self.mul(p, z);
        let small = self.fma(pz, x, x);
        // Large |x|: 1 - 2 / (e^{2|x|} + 1), with the sign of x.
        let two = self.c(2.0);
        let one = self.c(1.0);
        let t = self.mul(ax, two);
        let e = self.exp(t);
        let d = self.add(e, one);
        let q = self.div(two, d);
        let big = self.sub(one, q);
        let neg_big = self.b.un(&lp::NEG, big);
        let zero = self.c(0.0);
        let is_neg = self.cmp("lt", x, zero);
        let big = self.select(is_neg, neg_big, big);
        let limit = self.c(0.625);
        let use_small = self.cmp("lt", ax, limit);
        self.select(use_small, small, big)
    }

    fn erf(&mut self, x: Value) -> Value {
        let (four, mfour) = (self.c(4.0), self.c(-4.0));
        let xc = self.b.bin(&lp::MIN, x, four);
        let xc = self.b.bin(&lp::MAX, xc, mfour);
        let x2 = self.mul(xc, xc);
        let p = self.horner(
            x2,
            &[
                -2.726_142_258_013_06e-10,
                2.770_681_424_959_02e-08,
                -2.101_024_020_825_08e-06,
                -5.692_506_394_623_46e-05,
                -7.349_906_303_268_55e-04,
                -2.954_599_808_540_25e-03,
                -1.609_603_332_624_15e-02,
            ],
        );
        let p = self.mul(xc, p);
        let q = self.horner(
            x2,
            &[
                -1.456_607_184_649_96e-05,
                -2.133_740_552_789_05e-04,
                -1.682_826_974_382_03e-03,
                -7.373_329_167_204_68e-03,
                -1.426_473_905_141_89e-02,
            ],
        );
        self.div(p, q)
    }

    fn pow(&mut self, a: Value, bexp: Value) -> Value {
        let aa = self.b.un(&lp::ABS, a);
        let la = self.log(aa);
        let t = self.mul(bexp, la);
        let mut r = self.exp(t);
        // Integral exponents give real results for negative bases; odd ones flip the sign.
        let fl = self.b.un(&lp::FLOOR, bexp);
        let is_int = self.cmp("eq", fl, bexp);
        let half = self.c(0.5);
        let hb = self.mul(bexp, half);
        let fh = self.b.un(&lp::FLOOR, hb);
        let not_even = self.cmp("ne", fh, hb);
        let odd = self.b.bin(&lp::AND, is_int, not_even);
        // The sign follows a's sign bit (so pow(-0, -3) = -inf), for odd exponents.
        let ity = self.int_ty();
        let a_bits = self.bitcast(a, ity);
        let zero_i = self.ci(0);
        let sign_bit = self.cmp("lt", a_bits, zero_i);
        let flip = self.b.bin(&lp::AND, sign_bit, odd);
        let nr = self.b.un(&lp::NEG, r);
        r = self.select(flip, nr, r);
        // A finite negative base with a fractional exponent has no real power.
        let zero = self.c(0.0);
        let ninf = self.c(f64::NEG_INFINITY);
        let negative = self.cmp("lt", a, zero);
        let finite = self.cmp("gt", a, ninf);
        let neg_finite = self.b.bin(&lp::AND, negative, finite);
        let not_int = self.cmp("ne", fl, bexp);
        let bad = self.b.bin(&lp::AND, neg_finite, not_int);
        let nan = self.c(f64::NAN);
        r = self.select(bad, nan, r);
        // pow(x, 0) = 1 and pow(1, y) = 1, even for NaN.
        let one = self.c(1.0);
        let b_zero = self.cmp("eq", bexp, zero);
        r = self.select(b_zero, one, r);
        let a_one = self.cmp("eq", a, one);
        self.select(a_one, one, r)
    }
}
