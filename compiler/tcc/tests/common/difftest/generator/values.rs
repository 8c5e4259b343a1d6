//! The values a case is made of: element types, what is known of a value's elements
//! ([`Info`], the bounds and error that set the standard of comparison), the styles
//! tensor data are drawn in, and the literals that write them into model text.

use std::fmt::Write as _;

use tcc::graph::layout::{Layout, transform_shape};
use tcc::graph::{Data, Tensor as ITensor};

/// Largest tensor the generator makes (elements).
pub const MAX_NUMEL: i64 = 2048;
/// Largest convolution or matmul (multiply-adds).
pub const MAX_MACS: i64 = 200_000;
/// Operands of approximate ops are clamped into +-TAME first (so error bounds stay finite).
pub(super) const TAME: f64 = 1.0e4;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Elem {
    F32,
    F64,
    I32,
    I64,
    I1,
}

impl Elem {
    pub fn name(self) -> &'static str {
        match self {
            Elem::F32 => "f32",
            Elem::F64 => "f64",
            Elem::I32 => "i32",
            Elem::I64 => "i64",
            Elem::I1 => "i1",
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Elem::F32 | Elem::F64)
    }
    pub fn is_int(self) -> bool {
        matches!(self, Elem::I32 | Elem::I64)
    }
    /// Machine epsilon (the spacing of floats at 1); 0 for integers.
    pub fn eps(self) -> f64 {
        match self {
            Elem::F32 => f32::EPSILON as f64,
            Elem::F64 => f64::EPSILON,
            _ => 0.0,
        }
    }
    /// Error of the compiled math functions (exp, log, tanh, erf, pow, rsqrt), relative
    /// to the result's magnitude (absolute below 1).
    pub(super) fn math(self) -> f64 {
        16.0 * self.eps()
    }
    pub(super) fn range(self) -> (f64, f64) {
        match self {
            Elem::F32 => (-(f32::MAX as f64), f32::MAX as f64),
            Elem::F64 => (-f64::MAX, f64::MAX),
            Elem::I32 => (i32::MIN as f64, i32::MAX as f64),
            Elem::I64 => (i64::MIN as f64, i64::MAX as f64),
            Elem::I1 => (0.0, 1.0),
        }
    }
}

/// What is known of a value's elements, in the interpreter and in compiled code alike.
#[derive(Clone, Copy, Debug)]
pub struct Info {
    /// Bounds of its finite elements (infinite: unknown).
    pub lo: f64,
    pub hi: f64,
    /// Whether it may hold NaN or infinities.
    pub special: bool,
    /// Whether it may hold infinities (`special` but for a clamp's result).
    pub inf: bool,
    /// 0: compiled code must give the interpreter's bits. Otherwise a bound on
    /// |compiled - interpreter| for elements finite in both.
    pub err: f64,
}

impl Info {
    pub fn exact(&self) -> bool {
        self.err == 0.0
    }
    pub fn mag(&self) -> f64 {
        self.lo.abs().max(self.hi.abs())
    }
    /// Normalizes bounds for `elem`: widened by rounding (relative: an op whose
    /// operands are within bounds on both sides gives results within the op's image of
    /// the bounds, up to its own rounding; ops with a larger error of their own, sums or
    /// math functions, widen explicitly), overflow noted.
    pub(super) fn new(elem: Elem, lo: f64, hi: f64, special: bool, err: f64) -> Info {
        let (tmin, tmax) = elem.range();
        if elem.is_float() {
            let err = if err.is_nan() || err < 0.0 { f64::INFINITY } else { err };
            let tiny = if elem == Elem::F32 { f32::MIN_POSITIVE as f64 } else { f64::MIN_POSITIVE };
            let slack = |v: f64| v.abs() * 20.0 * elem.eps() + tiny;
            let (mut lo, mut hi, mut special) = (lo - slack(lo), hi + slack(hi), special);
            if lo.is_nan() || hi.is_nan() {
                (lo, hi, special) = (f64::NEG_INFINITY, f64::INFINITY, true);
            }
            if lo < tmin {
                (lo, special) = (f64::NEG_INFINITY, true);
            }
            if hi > tmax {
                (hi, special) = (f64::INFINITY, true);
            }
            Info { lo, hi, special, inf: special, err }
        } else {
            let (lo, hi) = if lo.is_nan() || hi.is_nan() || lo < tmin || hi > tmax {
                (tmin, tmax)
            } else {
                (lo.floor(), hi.ceil())
            };
            Info { lo, hi, special: false, inf: false, err: 0.0 }
        }
    }
    /// `lo` and `hi` moved apart by `by` (an op's own error).
    pub(super) fn widened(self, by: f64) -> Info {
        Info { lo: self.lo - by, hi: self.hi + by, ..self }
    }
    /// A placeholder for values the generator does not reuse.
    /// What is known of a value made of the elements of `parts` (a concat).
    pub(super) fn union(elem: Elem, parts: &[Info]) -> Info {
        Info::new(
            elem,
            parts.iter().map(|i| i.lo).fold(f64::INFINITY, f64::min),
            parts.iter().map(|i| i.hi).fold(f64::NEG_INFINITY, f64::max),
            parts.iter().any(|i| i.special),
            parts.iter().map(|i| i.err).fold(0.0, f64::max),
        )
    }

    pub(super) fn unknown(elem: Elem) -> Info {
        Info::new(elem, f64::NEG_INFINITY, f64::INFINITY, true, f64::INFINITY)
    }
}

/// A value of the function being built.
#[derive(Clone, Debug)]
pub struct Val {
    pub name: String,
    pub shape: Vec<i64>,
    pub elem: Elem,
    pub info: Info,
    /// Internal to a pattern (a norm's variance): not reused, its info is a placeholder.
    pub hidden: bool,
}

/// The standard one result is held to.
#[derive(Clone, Copy, Debug)]
pub struct Expect {
    pub elem: Elem,
    /// Bit for bit (NaN matches any NaN).
    pub exact: bool,
    /// Otherwise: |compiled - interpreter| <= tol where both are finite; non-finite
    /// elements must match (NaN with NaN, infinities with the same infinity).
    pub tol: f64,
    /// The largest finite magnitude the result can have (for reports).
    pub scale: f64,
}

/// A generated test case.
#[derive(Clone, Debug)]
pub struct Case {
    pub text: String,
    pub inputs: Vec<ITensor>,
    pub outputs: Vec<Expect>,
    /// The ops written, with repetition.
    pub ops: Vec<&'static str>,
    /// What the generator assumed of each value (for reports).
    pub notes: String,
}

/// How a tensor's elements are drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Style {
    /// k/1000 in [-4, 4] (integers in [-50, 50]).
    Small,
    /// (0.05, 4.05] ([1, 50]).
    Positive,
    /// Small integers, many equal values.
    Ints,
    /// Random exponents 2^-12 .. 2^12 (integers: the type's extremes, -1, 0, 1).
    Wide,
    /// Small, with NaN, +-inf and signed zeros (integers: extremes).
    Special,
    /// Few distinct values: ties, -0 and +0.
    Ties,
    /// Bounded away from zero: +-[0.25, 4] ([-7, 7] without 0).
    Nonzero,
}

pub(super) fn numel(s: &[i64]) -> i64 {
    s.iter().product()
}

pub fn ty(s: &[i64], e: Elem) -> String {
    if s.is_empty() {
        return format!("tensor<{}>", e.name());
    }
    format!("tensor<{}x{}>", s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x"), e.name())
}

pub(super) fn list(v: &[i64]) -> String {
    v.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")
}

/// numpy broadcasting of two shapes.
pub(super) fn broadcast(a: &[i64], b: &[i64]) -> Option<Vec<i64>> {
    let rank = a.len().max(b.len());
    let at = |s: &[i64], i: usize| if i + s.len() < rank { 1 } else { s[i + s.len() - rank] };
    (0..rank)
        .map(|i| match (at(a, i), at(b, i)) {
            (x, y) if x == y => Some(x),
            (1, y) => Some(y),
            (x, 1) => Some(x),
            _ => None,
        })
        .collect()
}

/// A float attribute: a decimal when it is exact and short, else its f64 bits.
pub(super) fn float_attr(v: f64) -> String {
    if v.is_finite() && v.abs() < 1e6 && (v * 1024.0).fract() == 0.0 {
        format!("{v:?}")
    } else {
        format!("0x{:016X} : f64", v.to_bits())
    }
}

/// One element of a splat `dense<..>` of `elem`.
pub(super) fn elem_literal(v: f64, elem: Elem) -> String {
    match elem {
        Elem::F32 | Elem::F64 if v.is_finite() && v.abs() < 1e6 && (v * 1024.0).fract() == 0.0 => format!("{v:?}"),
        Elem::F32 => format!("0x{:08X}", (v as f32).to_bits()),
        Elem::F64 => format!("0x{:016X}", v.to_bits()),
        Elem::I1 => (if v != 0.0 { "true" } else { "false" }).to_string(),
        _ => format!("{}", v as i64),
    }
}

/// `dense<..>` for `d`: a splat when all elements are equal, else hex.
pub(super) fn dense_literal(d: &Data, elem: Elem) -> String {
    let bytes: Vec<Vec<u8>> = match d {
        Data::F32(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        Data::F64(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        Data::F16(v) | Data::BF16(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        Data::I8(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        Data::I16(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        Data::I32(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        Data::I64(v) => v.iter().map(|x| x.to_le_bytes().to_vec()).collect(),
        Data::I1(v) => v.iter().map(|&x| vec![x as u8]).collect(),
    };
    if bytes.windows(2).all(|w| w[0] == w[1]) {
        let first = match d {
            Data::F32(v) => v[0] as f64,
            Data::I64(v) => return format!("dense<{}>", v[0]),
            other => other.to_f64s()[0],
        };
        return format!("dense<{}>", elem_literal(first, elem));
    }
    let hex: String = bytes.iter().flatten().map(|b| format!("{b:02X}")).collect();
    format!("dense<\"0x{hex}\">")
}

pub(super) fn info_of(d: &Data, elem: Elem) -> Info {
    let v = d.to_f64s();
    let finite: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    let special = finite.len() != v.len();
    let lo = finite.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if finite.is_empty() { (0.0, 0.0) } else { (lo, hi) };
    Info::new(elem, lo, hi, special, 0.0)
}

/// The elementwise ops the generator writes, by the standard their result is held to
/// when their operands are exact.
pub(super) const EXACT_UNARY: &[&str] =
    &["graph.neg", "graph.abs", "graph.relu", "graph.floor", "graph.ceil", "graph.sqrt"];
pub(super) const APPROX_UNARY: &[&str] =
    &["graph.exp", "graph.log", "graph.tanh", "graph.sigmoid", "graph.erf", "graph.gelu", "graph.rsqrt"];
