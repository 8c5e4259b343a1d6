//! The transcendental functions ([`MathFn`]): each one's name, arity, the runtime's f64
//! routine (`tcc_<name>_f64`, which the runtime exports) and its f32 expansion into
//! polynomial arithmetic, which `expand-math` applies to scalars and vectors alike so
//! that every backend computes exactly the same values.
//!
//! The approximations are the classic single-precision ones: Cephes `expf` (range
//! reduction by ln 2, degree-6 polynomial, about 1 ulp), Cephes `logf` (mantissa in
//! [sqrt(1/2), sqrt 2), degree-9 polynomial, about 1 ulp), `tanh` as a polynomial below
//! 0.625 and `1 - 2 / (e^{2|x|} + 1)` above, Eigen's rational `erf` on [-4, 4] (a few
//! ulp), `pow` as `exp(b log |a|)` with the sign and special cases of C's `powf`, and
//! `sin`/`cos` by Cephes' `sinf`/`cosf` polynomials on [-pi/4, pi/4] after a three-part
//! (Cody-Waite) reduction by pi/2 (measured against f64: absolute error below 1e-7 for
//! |x| up to 10^5; beyond, the reduction's constants run out of bits). Special values
//! follow IEEE: NaN in gives NaN out, exp saturates to +inf and flushes results below
//! the smallest normal float to 0, sin and cos of an infinity are NaN. Where the target
//! scales f32 vectors by a power of two in one instruction (AVX-512), `exp`'s final
//! 2^n is one `ldexp` instead of exponent-bit arithmetic, with the same result.

use tcc_runtime_abi::approximations::{
    ERF_BOUND, ERF_P, ERF_Q, EXP_HI, EXP_LO, EXP_POLY, LN2_HI_NEG, LN2_LO, SMALL_INT_MAGIC, SMALL_INT_MAGIC_BITS,
};

use super::{Compare, ScalarBuilder, ScalarFn};
use crate::module::Value;
use crate::types::ScalarType;

/// A transcendental function.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MathFn {
    Exp,
    Log,
    Tanh,
    Erf,
    Pow,
    Sin,
    Cos,
}

impl MathFn {
    /// Every transcendental function, in declaration order (`f as usize` indexes it).
    pub const ALL: [MathFn; 7] =
        [MathFn::Exp, MathFn::Log, MathFn::Tanh, MathFn::Erf, MathFn::Pow, MathFn::Sin, MathFn::Cos];

    pub fn name(self) -> &'static str {
        match self {
            MathFn::Exp => "exp",
            MathFn::Log => "log",
            MathFn::Tanh => "tanh",
            MathFn::Erf => "erf",
            MathFn::Pow => "pow",
            MathFn::Sin => "sin",
            MathFn::Cos => "cos",
        }
    }

    pub fn arity(self) -> usize {
        if self == MathFn::Pow { 2 } else { 1 }
    }

    pub fn summary(self) -> &'static str {
        match self {
            MathFn::Exp => "e^a (expanded by expand-math)",
            MathFn::Log => "natural logarithm (expanded by expand-math)",
            MathFn::Tanh => "hyperbolic tangent (expanded by expand-math)",
            MathFn::Erf => "error function (expanded by expand-math)",
            MathFn::Pow => "a ^ b, real for negative a and integral b (expanded by expand-math)",
            MathFn::Sin => "sine of a in radians (expanded by expand-math)",
            MathFn::Cos => "cosine of a in radians (expanded by expand-math)",
        }
    }

    /// The runtime's f64 routine for this function: `f64 tcc_<name>_f64(f64, ...)`.
    pub fn f64_symbol(self) -> &'static str {
        match self {
            MathFn::Exp => "tcc_exp_f64",
            MathFn::Log => "tcc_log_f64",
            MathFn::Tanh => "tcc_tanh_f64",
            MathFn::Erf => "tcc_erf_f64",
            MathFn::Pow => "tcc_pow_f64",
            MathFn::Sin => "tcc_sin_f64",
            MathFn::Cos => "tcc_cos_f64",
        }
    }

    /// Builds the f32 computation of this function on `args` (f32 scalars or vectors of
    /// one type) from basic arithmetic. `ldexp`: the target scales f32 values by a
    /// power of two in one instruction ([`ScalarFn::Ldexp`]).
    pub fn expand_f32(self, b: &mut dyn ScalarBuilder, args: &[Value], ldexp: bool) -> Value {
        let mut e = F32 { b, like: args[0], ldexp };
        match self {
            MathFn::Exp => e.exp(args[0]),
            MathFn::Log => e.log(args[0]),
            MathFn::Tanh => e.tanh(args[0]),
            MathFn::Erf => e.erf(args[0]),
            MathFn::Pow => e.pow(args[0], args[1]),
            MathFn::Sin => e.sin_cos(args[0], 0),
            MathFn::Cos => e.sin_cos(args[0], 1),
        }
    }
}

/// Emits f32 arithmetic on values of `like`'s type.
struct F32<'b> {
    b: &'b mut dyn ScalarBuilder,
    like: Value,
    ldexp: bool,
}

impl F32<'_> {
    fn c(&mut self, x: f64) -> Value {
        self.b.float_like(self.like, x)
    }
    fn ci(&mut self, x: i64) -> Value {
        self.b.int_like(self.like, ScalarType::I32, x)
    }
    fn add(&mut self, a: Value, b: Value) -> Value {
        self.b.add(a, b)
    }
    fn sub(&mut self, a: Value, b: Value) -> Value {
        self.b.sub(a, b)
    }
    fn mul(&mut self, a: Value, b: Value) -> Value {
        self.b.mul(a, b)
    }
    fn div(&mut self, a: Value, b: Value) -> Value {
        self.b.div(a, b)
    }
    fn fma(&mut self, a: Value, b: Value, c: Value) -> Value {
        self.b.fma(a, b, c)
    }
    fn op1(&mut self, f: ScalarFn, a: Value) -> Value {
        self.b.unary(f, a)
    }
    fn op2(&mut self, f: ScalarFn, a: Value, b: Value) -> Value {
        self.b.binary(f, a, b)
    }
    fn cmp(&mut self, pred: Compare, a: Value, b: Value) -> Value {
        self.b.compare(pred, a, b)
    }
    fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        self.b.select(c, a, b)
    }
    fn bits(&mut self, v: Value) -> Value {
        self.b.reinterpret(v, ScalarType::I32)
    }
    fn float(&mut self, v: Value) -> Value {
        self.b.reinterpret(v, ScalarType::F32)
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

    /// The integral float `n` (|n| < 2^22) as an i32, without a float-to-int conversion
    /// (which keeps NaN and saturation semantics, and LLVM scalarizes on x86): n + 1.5 *
    /// 2^23 is exact and holds n in its low mantissa bits.
    fn small_int(&mut self, n: Value) -> Value {
        let magic = self.c(SMALL_INT_MAGIC);
        let shifted = self.add(n, magic);
        let shifted = self.bits(shifted);
        let magic_bits = self.ci(SMALL_INT_MAGIC_BITS);
        self.sub(shifted, magic_bits)
    }

    fn exp(&mut self, x: Value) -> Value {
        let (hi, lo) = (self.c(EXP_HI), self.c(EXP_LO));
        let xc = self.op2(ScalarFn::Min, x, hi);
        let xc = self.op2(ScalarFn::Max, xc, lo);
        // x = n ln2 + r, |r| <= ln2 / 2
        let log2e = self.c(std::f64::consts::LOG2_E);
        let t = self.mul(xc, log2e);
        let n = self.op1(ScalarFn::Round, t);
        let (c1, c2) = (self.c(LN2_HI_NEG), self.c(LN2_LO));
        let r = self.fma(n, c1, xc);
        let r = self.fma(n, c2, r);
        let p = self.horner(r, &EXP_POLY);
        let r2 = self.mul(r, r);
        let one = self.c(1.0);
        let q = self.add(r, one);
        let y = self.fma(p, r2, q);
        let y = self.scale_by_pow2(y, n);
        // Beyond the clamp: +inf above, 0 below (NaN passes through the clamp).
        let inf = self.c(f64::INFINITY);
        let zero = self.c(0.0);
        let over = self.cmp(Compare::Gt, x, hi);
        let y = self.select(over, inf, y);
        let under = self.cmp(Compare::Lt, x, lo);
        self.select(under, zero, y)
    }

    /// y * 2^n for integral n in [-126, 128]: one `ldexp`, or through the exponent bits
    /// (the same value: both round only the final product).
    fn scale_by_pow2(&mut self, y: Value, n: Value) -> Value {
        if self.ldexp {
            return self.op2(ScalarFn::Ldexp, y, n);
        }
        // n is in [-126, 128], so split 2^n = 2^(n/2) 2^(n - n/2).
        let ni = self.small_int(n);
        let one_i = self.ci(1);
        let half = self.op2(ScalarFn::Shr, ni, one_i);
        let rest = self.sub(ni, half);
        let s1 = self.pow2(half);
        let s2 = self.pow2(rest);
        let y = self.mul(y, s1);
        self.mul(y, s2)
    }

    /// 2^n for integer n in [-126, 127], as float bits.
    fn pow2(&mut self, n: Value) -> Value {
        let bias = self.ci(127);
        let e = self.add(n, bias);
        let sh = self.ci(23);
        let bits = self.op2(ScalarFn::Shl, e, sh);
        self.float(bits)
    }

    fn log(&mut self, x: Value) -> Value {
        // Scale subnormals into the normal range first.
        let tiny = self.c(1.175_494_350_822_287_5e-38);
        let is_sub = self.cmp(Compare::Lt, x, tiny);
        let big = self.c(8_388_608.0);
        let xs = self.mul(x, big);
        let xn = self.select(is_sub, xs, x);
        let e_adj_sub = self.ci(-23);
        let zero_i = self.ci(0);
        let e_adj = self.select(is_sub, e_adj_sub, zero_i);
        let bits = self.bits(xn);
        let sh = self.ci(23);
        let raw_e = self.op2(ScalarFn::Shr, bits, sh);
        let bias = self.ci(126);
        let e = self.sub(raw_e, bias);
        let e = self.add(e, e_adj);
        // Mantissa in [0.5, 1).
        let mask = self.ci(0x007F_FFFF);
        let mant = self.op2(ScalarFn::And, bits, mask);
        let half_bits = self.ci(0x3F00_0000);
        let mbits = self.op2(ScalarFn::Or, mant, half_bits);
        let mut mf = self.float(mbits);
        let mut ef = self.b.convert(e, ScalarType::F32);
        // Move the mantissa to [sqrt(1/2), sqrt 2): m - 1 or 2m - 1.
        let sqrthf = self.c(std::f64::consts::FRAC_1_SQRT_2);
        let small = self.cmp(Compare::Lt, mf, sqrthf);
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
        let is_zero = self.cmp(Compare::Eq, x, zero);
        r = self.select(is_zero, ninf, r);
        let is_neg = self.cmp(Compare::Lt, x, zero);
        r = self.select(is_neg, nan, r);
        let is_inf = self.cmp(Compare::Eq, x, inf);
        r = self.select(is_inf, inf, r);
        let is_nan = self.cmp(Compare::Ne, x, x);
        self.select(is_nan, x, r)
    }

    fn tanh(&mut self, x: Value) -> Value {
        let ax = self.op1(ScalarFn::Abs, x);
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
        let neg_big = self.op1(ScalarFn::Neg, big);
        let zero = self.c(0.0);
        let is_neg = self.cmp(Compare::Lt, x, zero);
        let big = self.select(is_neg, neg_big, big);
        let limit = self.c(0.625);
        let use_small = self.cmp(Compare::Lt, ax, limit);
        self.select(use_small, small, big)
    }

    fn erf(&mut self, x: Value) -> Value {
        let (four, mfour) = (self.c(ERF_BOUND), self.c(-ERF_BOUND));
        let xc = self.op2(ScalarFn::Min, x, four);
        let xc = self.op2(ScalarFn::Max, xc, mfour);
        let x2 = self.mul(xc, xc);
        let p = self.horner(x2, &ERF_P);
        let p = self.mul(xc, p);
        let q = self.horner(x2, &ERF_Q);
        self.div(p, q)
    }

    fn pow(&mut self, a: Value, bexp: Value) -> Value {
        let aa = self.op1(ScalarFn::Abs, a);
        let la = self.log(aa);
        let t = self.mul(bexp, la);
        let mut r = self.exp(t);
        // Integral exponents give real results for negative bases; odd ones flip the sign.
        let fl = self.op1(ScalarFn::Floor, bexp);
        let is_int = self.cmp(Compare::Eq, fl, bexp);
        let half = self.c(0.5);
        let hb = self.mul(bexp, half);
        let fh = self.op1(ScalarFn::Floor, hb);
        let not_even = self.cmp(Compare::Ne, fh, hb);
        let odd = self.op2(ScalarFn::And, is_int, not_even);
        // The sign follows a's sign bit (so pow(-0, -3) = -inf), for odd exponents.
        let a_bits = self.bits(a);
        let zero_i = self.ci(0);
        let sign_bit = self.cmp(Compare::Lt, a_bits, zero_i);
        let flip = self.op2(ScalarFn::And, sign_bit, odd);
        let nr = self.op1(ScalarFn::Neg, r);
        r = self.select(flip, nr, r);
        // A finite negative base with a fractional exponent has no real power.
        let zero = self.c(0.0);
        let ninf = self.c(f64::NEG_INFINITY);
        let negative = self.cmp(Compare::Lt, a, zero);
        let finite = self.cmp(Compare::Gt, a, ninf);
        let neg_finite = self.op2(ScalarFn::And, negative, finite);
        let not_int = self.cmp(Compare::Ne, fl, bexp);
        let bad = self.op2(ScalarFn::And, neg_finite, not_int);
        let nan = self.c(f64::NAN);
        r = self.select(bad, nan, r);
        // pow(x, 0) = 1 and pow(1, y) = 1, even for NaN.
        let one = self.c(1.0);
        let b_zero = self.cmp(Compare::Eq, bexp, zero);
        r = self.select(b_zero, one, r);
        let a_one = self.cmp(Compare::Eq, a, one);
        self.select(a_one, one, r)
    }

    /// sin(x) (`shift` 0) or cos(x) = sin(x + pi/2) (`shift` 1): x = q pi/2 + r with
    /// |r| <= pi/4, then sin r or cos r by quadrant `(q + shift) mod 4`, negated in the
    /// lower two quadrants.
    fn sin_cos(&mut self, x: Value, shift: i64) -> Value {
        let two_over_pi = self.c(std::f64::consts::FRAC_2_PI);
        let t = self.mul(x, two_over_pi);
        let q = self.op1(ScalarFn::Round, t);
        // pi/2 in three parts (Cephes' DP1..DP3, doubled): q * c1 is exact for the q
        // that matter, and the fused steps lose nothing more.
        let (c1, c2, c3) = (self.c(-1.570_312_5), self.c(-4.837_512_969_970_703e-4), self.c(-7.549_789_954_891_882e-8));
        let r = self.fma(q, c1, x);
        let r = self.fma(q, c2, r);
        let r = self.fma(q, c3, r);
        let z = self.mul(r, r);
        // sin r = r + r z P(z)
        let ps = self.horner(z, &[-1.951_529_589_1e-4, 8.332_160_873_6e-3, -1.666_665_461_1e-1]);
        let rz = self.mul(r, z);
        let sin_r = self.fma(rz, ps, r);
        // cos r = 1 - z / 2 + z^2 Q(z)
        let pc = self.horner(z, &[2.443_315_711_809_948e-5, -1.388_731_625_493_765e-3, 4.166_664_568_298_827e-2]);
        let z2 = self.mul(z, z);
        let mhalf = self.c(-0.5);
        let one = self.c(1.0);
        let head = self.fma(z, mhalf, one);
        let cos_r = self.fma(z2, pc, head);
        // The quadrant from q's low bits (q is integral; huge |x| only loses accuracy).
        let qi = self.small_int(q);
        let shift_i = self.ci(shift);
        let k = self.add(qi, shift_i);
        let (one_i, two_i, zero_i) = (self.ci(1), self.ci(2), self.ci(0));
        let odd = self.op2(ScalarFn::And, k, one_i);
        let upper = self.op2(ScalarFn::And, k, two_i);
        let use_cos = self.cmp(Compare::Ne, odd, zero_i);
        let y = self.select(use_cos, cos_r, sin_r);
        let negate = self.cmp(Compare::Ne, upper, zero_i);
        let ny = self.op1(ScalarFn::Neg, y);
        self.select(negate, ny, y)
    }
}
