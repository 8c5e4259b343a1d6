//! Scalar arithmetic, the vocabulary every level shares: the functions a graph op's
//! scalar body is written in ([`ScalarFn`]), the comparisons ([`Compare`]), and the
//! [`ScalarBuilder`] through which bodies and expansions build code without knowing
//! which dialect receives it.
//!
//! Like MLIR's `arith` and `math`, each function works elementwise on a scalar or on
//! a vector of one element type. The `loop` dialect has one op per function (its
//! `loop.<name>` ops are made from [`ScalarFn::all`]), the graph dialect's elementwise
//! ops say what they compute in these terms, and the transcendental functions
//! ([`MathFn`], in [`math`]) carry their f32 polynomial expansion and the runtime's
//! f64 routine. Adding a transcendental function is one entry in [`math`]; every
//! level then has it.

pub mod half;
pub mod math;

use std::fmt;

pub use math::MathFn;

use crate::module::Value;
use crate::types::ScalarType;

/// A scalar function: integers (and `index`) wrap, `Div` and `Rem` on integers are
/// signed and truncate toward zero (the divisor must not be zero), `Min`/`Max` on
/// floats give NaN if either operand is NaN.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScalarFn {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Min,
    Max,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Neg,
    Abs,
    Fma,
    Sqrt,
    Rsqrt,
    Floor,
    Ceil,
    Round,
    Ldexp,
    /// A transcendental function.
    Math(MathFn),
}

/// The element types a function takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Operands {
    /// Floats, integers and index (not i1).
    Number,
    Float,
    /// Integers (including i1) and index.
    Integer,
}

impl Operands {
    /// Whether values of element type `e` are accepted.
    pub fn accepts(self, e: ScalarType) -> bool {
        match self {
            Operands::Number => e != ScalarType::I1,
            Operands::Float => e.is_float(),
            Operands::Integer => e.is_integer(),
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Operands::Number => "a number",
            Operands::Float => "a float",
            Operands::Integer => "an integer",
        }
    }
}

/// What the rest of the compiler needs to know about a [`ScalarFn`].
#[derive(Copy, Clone, Debug)]
pub struct ScalarFnInfo {
    /// The op name without its dialect (`add`: `loop.add`).
    pub name: &'static str,
    pub arity: usize,
    pub operands: Operands,
    pub commutative: bool,
    pub summary: &'static str,
}

const fn info(
    name: &'static str,
    arity: usize,
    operands: Operands,
    commutative: bool,
    summary: &'static str,
) -> ScalarFnInfo {
    ScalarFnInfo { name, arity, operands, commutative, summary }
}

/// The functions other than [`ScalarFn::Math`], in the order the `loop` dialect lists them.
const BASIC: [ScalarFn; 21] = [
    ScalarFn::Add,
    ScalarFn::Sub,
    ScalarFn::Mul,
    ScalarFn::Div,
    ScalarFn::Rem,
    ScalarFn::Min,
    ScalarFn::Max,
    ScalarFn::And,
    ScalarFn::Or,
    ScalarFn::Xor,
    ScalarFn::Shl,
    ScalarFn::Shr,
    ScalarFn::Neg,
    ScalarFn::Abs,
    ScalarFn::Fma,
    ScalarFn::Sqrt,
    ScalarFn::Rsqrt,
    ScalarFn::Floor,
    ScalarFn::Ceil,
    ScalarFn::Round,
    ScalarFn::Ldexp,
];

impl ScalarFn {
    /// Every function: the basic ones, then every [`MathFn`].
    pub fn all() -> impl Iterator<Item = ScalarFn> {
        BASIC.into_iter().chain(MathFn::ALL.iter().map(|&f| ScalarFn::Math(f)))
    }

    /// How many functions there are (the length of [`ScalarFn::all`]).
    pub const COUNT: usize = BASIC.len() + MathFn::ALL.len();

    /// This function's position in [`ScalarFn::all`].
    pub fn index(self) -> usize {
        match self {
            ScalarFn::Math(f) => BASIC.len() + f as usize,
            basic => BASIC.iter().position(|&b| b == basic).expect("every basic function is listed"),
        }
    }

    pub fn info(self) -> ScalarFnInfo {
        use Operands::{Float, Integer, Number};
        match self {
            ScalarFn::Add => info("add", 2, Number, true, "a + b (integers wrap)"),
            ScalarFn::Sub => info("sub", 2, Number, false, "a - b"),
            ScalarFn::Mul => info("mul", 2, Number, true, "a * b"),
            ScalarFn::Div => {
                info("div", 2, Number, false, "a / b (integers: signed, toward zero; the divisor must not be zero)")
            }
            ScalarFn::Rem => {
                info("rem", 2, Integer, false, "a % b, signed, the sign of a (the divisor must not be zero)")
            }
            ScalarFn::Min => info("min", 2, Number, true, "minimum (floats: NaN if either is NaN)"),
            ScalarFn::Max => info("max", 2, Number, true, "maximum (floats: NaN if either is NaN)"),
            ScalarFn::And => info("and", 2, Integer, true, "bitwise and"),
            ScalarFn::Or => info("or", 2, Integer, true, "bitwise or"),
            ScalarFn::Xor => info("xor", 2, Integer, true, "bitwise exclusive or"),
            ScalarFn::Shl => info("shl", 2, Integer, false, "a << b"),
            ScalarFn::Shr => info("shr", 2, Integer, false, "a >> b, arithmetic"),
            ScalarFn::Neg => info("neg", 1, Number, false, "-a"),
            ScalarFn::Abs => info("abs", 1, Number, false, "|a|"),
            ScalarFn::Fma => info("fma", 3, Float, false, "a * b + c with one rounding"),
            ScalarFn::Sqrt => info("sqrt", 1, Float, false, "square root"),
            ScalarFn::Rsqrt => info("rsqrt", 1, Float, false, "1 / sqrt(a)"),
            ScalarFn::Floor => info("floor", 1, Float, false, "round toward -inf"),
            ScalarFn::Ceil => info("ceil", 1, Float, false, "round toward +inf"),
            ScalarFn::Round => info("round", 1, Float, false, "round to nearest, ties to even"),
            ScalarFn::Ldexp => info(
                "ldexp",
                2,
                Float,
                false,
                "a * 2^b for integral b, rounded once (only for targets with an instruction for it: \
                 expand-math emits it for f32 vectors with AVX-512)",
            ),
            ScalarFn::Math(f) => info(f.name(), f.arity(), Float, false, f.summary()),
        }
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn arity(self) -> usize {
        self.info().arity
    }

    /// Whether `combine` is a reduction's combining function (`acc' = f(acc, x)`) the
    /// vectorizer can reassociate, and its identity for elements of type `elem`.
    pub fn reduction_identity(self, elem: ScalarType) -> Option<Identity> {
        Some(match self {
            ScalarFn::Add => Identity::Float(0.0),
            ScalarFn::Mul => Identity::Float(1.0),
            ScalarFn::Max if elem.is_float() => Identity::Float(f64::NEG_INFINITY),
            ScalarFn::Min if elem.is_float() => Identity::Float(f64::INFINITY),
            ScalarFn::Max => Identity::Int(elem.int_range().0),
            ScalarFn::Min => Identity::Int(elem.int_range().1),
            _ => return None,
        })
    }
}

/// A reduction's identity element.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Identity {
    Float(f64),
    Int(i64),
}

impl fmt::Display for ScalarFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A comparison: floats compare ordered (false on NaN, but for `Ne`), integers signed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Compare {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Compare {
    pub const ALL: [Compare; 6] = [Compare::Eq, Compare::Ne, Compare::Lt, Compare::Le, Compare::Gt, Compare::Ge];
    /// The predicates' names, as `loop.cmp`'s `pred` attribute spells them.
    pub const NAMES: [&'static str; 6] = ["eq", "ne", "lt", "le", "gt", "ge"];

    pub fn name(self) -> &'static str {
        Compare::NAMES[self as usize]
    }

    pub fn parse(s: &str) -> Option<Compare> {
        Compare::NAMES.iter().position(|&n| n == s).map(|i| Compare::ALL[i])
    }
}

/// Builds scalar code (scalars or vectors alike) in some dialect: what a graph op's
/// scalar body and a [`MathFn`]'s expansion are written against.
pub trait ScalarBuilder {
    /// `f` applied to `args` (all of one type).
    fn apply(&mut self, f: ScalarFn, args: &[Value]) -> Value;
    /// An i1 (or a mask of i1 lanes) from comparing `a` with `b`.
    fn compare(&mut self, pred: Compare, a: Value, b: Value) -> Value;
    /// `cond ? a : b`, lane by lane for vectors.
    fn select(&mut self, cond: Value, a: Value, b: Value) -> Value;
    /// The constant `x` of `like`'s type (a float scalar, or a vector of them).
    fn float_like(&mut self, like: Value, x: f64) -> Value;
    /// The integer constant `x` of element type `elem`, shaped like `like` (a scalar,
    /// or a vector of as many lanes).
    fn int_like(&mut self, like: Value, elem: ScalarType, x: i64) -> Value;
    /// `v` converted to element type `elem` (lanes kept): float -> int truncates
    /// toward zero and saturates (NaN -> 0), int -> int wraps or sign-extends, x -> i1
    /// is x != 0.
    fn convert(&mut self, v: Value, elem: ScalarType) -> Value;
    /// `v`'s bits as element type `elem` of the same size (lanes kept).
    fn reinterpret(&mut self, v: Value, elem: ScalarType) -> Value;
    /// The element type of a scalar or vector value.
    fn elem(&self, v: Value) -> ScalarType;
    /// A run-time check: where `ok` is false the run fails with `message`.
    fn check(&mut self, ok: Value, message: String);

    fn add(&mut self, a: Value, b: Value) -> Value {
        self.apply(ScalarFn::Add, &[a, b])
    }
    fn sub(&mut self, a: Value, b: Value) -> Value {
        self.apply(ScalarFn::Sub, &[a, b])
    }
    fn mul(&mut self, a: Value, b: Value) -> Value {
        self.apply(ScalarFn::Mul, &[a, b])
    }
    fn div(&mut self, a: Value, b: Value) -> Value {
        self.apply(ScalarFn::Div, &[a, b])
    }
    fn fma(&mut self, a: Value, b: Value, c: Value) -> Value {
        self.apply(ScalarFn::Fma, &[a, b, c])
    }
    fn unary(&mut self, f: ScalarFn, a: Value) -> Value {
        self.apply(f, &[a])
    }
    fn binary(&mut self, f: ScalarFn, a: Value, b: Value) -> Value {
        self.apply(f, &[a, b])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_has_its_index_and_a_unique_name() {
        let all: Vec<ScalarFn> = ScalarFn::all().collect();
        assert_eq!(all.len(), ScalarFn::COUNT);
        for (i, f) in all.iter().enumerate() {
            assert_eq!(f.index(), i, "{f}");
            assert!(all[..i].iter().all(|g| g.name() != f.name()), "{f} is named twice");
        }
    }

    #[test]
    fn compare_names_round_trip() {
        for c in Compare::ALL {
            assert_eq!(Compare::parse(c.name()), Some(c));
        }
        assert_eq!(Compare::parse("lte"), None);
    }
}
