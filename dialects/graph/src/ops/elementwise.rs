//! Elementwise graph ops: arithmetic, comparisons, select, unary math, activations,
//! clamp and cast, and the integer bit operations (and, or, xor, not, shifts). Binary
//! ops broadcast like numpy. Each carries its reference semantics (the interpreter's,
//! in f64) and, independently, its scalar body: what the lowering computes per
//! element, in the shared scalar arithmetic ([`tcc_ir::scalar`]; longer bodies in
//! [`bodies`]).

use tcc_ir::scalar::{Compare, MathFn, ScalarFn};
use tcc_ir::{Arity, AttrDefault, AttrKind, AttrSpec, Module, Op, OpDef, ScalarType, Signature, Syntax, Traits, Type};

use super::bodies;
use crate::canonical;
use crate::infer::{
    ANY, FLOATS, INDICES, INTEGERS, NUMBERS, broadcast_shapes, same_elem, supported_element, tensor, tensor_of,
};
use crate::interp::elementwise as k;
use crate::{Cost, Elementwise, GraphOp, GraphSemantics, LayoutClass};

const EW: Traits = Traits::PURE.union(Traits::ELEMENTWISE);
const OBLIVIOUS: LayoutClass = LayoutClass::Oblivious;

fn infer_binary(sig: &Signature, allowed: &[ScalarType], result_elem: Option<ScalarType>) -> Result<Vec<Type>, String> {
    let a = tensor_of(sig, 0, allowed)?;
    let b = tensor_of(sig, 1, allowed)?;
    let elem = same_elem(sig, 0..2)?;
    Ok(vec![tensor(broadcast_shapes(a.shape(), b.shape())?, result_elem.unwrap_or(elem))?])
}

fn infer_arith(sig: &Signature) -> Result<Vec<Type>, String> {
    infer_binary(sig, NUMBERS, None)
}
fn infer_float_binary(sig: &Signature) -> Result<Vec<Type>, String> {
    infer_binary(sig, FLOATS, None)
}
fn infer_compare(sig: &Signature) -> Result<Vec<Type>, String> {
    infer_binary(sig, NUMBERS, Some(ScalarType::I1))
}

fn infer_bitwise(sig: &Signature) -> Result<Vec<Type>, String> {
    infer_binary(sig, INTEGERS, None)
}
fn infer_shift(sig: &Signature) -> Result<Vec<Type>, String> {
    infer_binary(sig, INDICES, None)
}
fn infer_unary_integer(sig: &Signature) -> Result<Vec<Type>, String> {
    Ok(vec![Type::from_tensor(tensor_of(sig, 0, INTEGERS)?.clone())])
}

fn infer_select(sig: &Signature) -> Result<Vec<Type>, String> {
    let c = tensor_of(sig, 0, &[ScalarType::I1])?;
    let a = tensor_of(sig, 1, ANY)?;
    let b = tensor_of(sig, 2, ANY)?;
    let elem = same_elem(sig, 1..3)?;
    let shape = broadcast_shapes(&broadcast_shapes(c.shape(), a.shape())?, b.shape())?;
    Ok(vec![tensor(shape, elem)?])
}

fn infer_unary_float(sig: &Signature) -> Result<Vec<Type>, String> {
    Ok(vec![Type::from_tensor(tensor_of(sig, 0, FLOATS)?.clone())])
}
fn infer_unary_number(sig: &Signature) -> Result<Vec<Type>, String> {
    Ok(vec![Type::from_tensor(tensor_of(sig, 0, NUMBERS)?.clone())])
}

fn infer_clamp(sig: &Signature) -> Result<Vec<Type>, String> {
    let (lo, hi) = (sig.float("min")?, sig.float("max")?);
    if lo.is_nan() || hi.is_nan() || lo > hi {
        return Err(format!("clamp bounds must satisfy min <= max, got min = {lo}, max = {hi}"));
    }
    infer_unary_number(sig)
}

fn verify_cast(m: &Module, op: Op) -> Result<(), String> {
    let (Some(src), Some(dst)) =
        (m.value_type(m.operand(op, 0)).as_tensor(), m.value_type(m.result(op, 0)).as_tensor())
    else {
        return Err("operand and result must be tensors".into());
    };
    supported_element(src.elem())?;
    supported_element(dst.elem())?;
    if src.shape() != dst.shape() {
        return Err(format!("result shape {dst} differs from operand shape {src}"));
    }
    Ok(())
}

/// An elementwise op: name, operand count, traits, shape inference, reference
/// semantics, cost class, scalar body, summary, example (and canonicalization patterns,
/// by default the elementwise ones).
macro_rules! elementwise {
    ($NAME:ident, $name:literal, $arity:expr, $traits:expr, $infer:path, $eval:expr, $cost:ident, $body:expr, $summary:literal, $example:literal) => {
        elementwise!(
            $NAME,
            $name,
            $arity,
            $traits,
            $infer,
            $eval,
            $cost,
            $body,
            $summary,
            $example,
            canonical::ELEMENTWISE
        );
    };
    ($NAME:ident, $name:literal, $arity:expr, $traits:expr, $infer:path, $eval:expr, $cost:ident, $body:expr, $summary:literal, $example:literal, $patterns:expr) => {
        pub static $NAME: OpDef = OpDef {
            name: $name,
            summary: $summary,
            description: concat!($summary, ".\n\n```mlir\n", $example, "\n```"),
            operands: Arity::Exactly($arity),
            traits: $traits,
            infer: Some($infer),
            syntax: Syntax::Functional,
            patterns: $patterns,
            dialect_data: Some(&GraphSemantics::new(
                GraphOp::Elementwise(Elementwise { body: $body, cost: Cost::$cost }),
                OBLIVIOUS,
                $eval,
            )),
            ..OpDef::DEFAULT
        };
    };
}

elementwise!(
    ADD,
    "graph.add",
    2,
    EW.union(Traits::COMMUTATIVE),
    infer_arith,
    k::add,
    Cheap,
    |b, _, x| b.add(x[0], x[1]),
    "Elementwise a + b with numpy broadcasting (f32, f64, i32, i64; integers wrap)",
    "%r = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>",
    canonical::ADD
);
elementwise!(
    SUB,
    "graph.sub",
    2,
    EW,
    infer_arith,
    k::sub,
    Cheap,
    |b, _, x| b.sub(x[0], x[1]),
    "Elementwise a - b with numpy broadcasting",
    "%r = graph.sub %a, %b : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>",
    canonical::SUB
);
elementwise!(
    MUL,
    "graph.mul",
    2,
    EW.union(Traits::COMMUTATIVE),
    infer_arith,
    k::mul,
    Cheap,
    |b, _, x| b.mul(x[0], x[1]),
    "Elementwise a * b with numpy broadcasting",
    "%r = graph.mul %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
    canonical::MUL
);
elementwise!(
    DIV,
    "graph.div",
    2,
    EW,
    infer_arith,
    k::div,
    Costly,
    bodies::div,
    "Elementwise a / b with numpy broadcasting (integers truncate toward zero; integer division by zero is an error)",
    "%r = graph.div %a, %b : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>",
    canonical::DIV
);
elementwise!(
    MAX,
    "graph.max",
    2,
    EW.union(Traits::COMMUTATIVE),
    infer_arith,
    k::max,
    Cheap,
    |b, _, x| b.binary(ScalarFn::Max, x[0], x[1]),
    "Elementwise maximum with numpy broadcasting; NaN if either operand is NaN",
    "%r = graph.max %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
    canonical::MIN_MAX
);
elementwise!(
    MIN,
    "graph.min",
    2,
    EW.union(Traits::COMMUTATIVE),
    infer_arith,
    k::min,
    Cheap,
    |b, _, x| b.binary(ScalarFn::Min, x[0], x[1]),
    "Elementwise minimum with numpy broadcasting; NaN if either operand is NaN",
    "%r = graph.min %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
    canonical::MIN_MAX
);
elementwise!(
    POW,
    "graph.pow",
    2,
    EW,
    infer_float_binary,
    k::pow,
    Transcendental,
    |b, _, x| b.binary(ScalarFn::Math(MathFn::Pow), x[0], x[1]),
    "Elementwise a ^ b (floats) with numpy broadcasting",
    "%r = graph.pow %a, %b : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>"
);
elementwise!(
    GREATER,
    "graph.greater",
    2,
    EW,
    infer_compare,
    k::greater,
    Cheap,
    |b, _, x| b.compare(Compare::Gt, x[0], x[1]),
    "Elementwise a > b, an i1 tensor (false where either is NaN)",
    "%r = graph.greater %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>",
    canonical::COMPARE
);
elementwise!(
    LESS,
    "graph.less",
    2,
    EW,
    infer_compare,
    k::less,
    Cheap,
    |b, _, x| b.compare(Compare::Lt, x[0], x[1]),
    "Elementwise a < b, an i1 tensor (false where either is NaN)",
    "%r = graph.less %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>",
    canonical::COMPARE
);
elementwise!(
    EQUAL,
    "graph.equal",
    2,
    EW.union(Traits::COMMUTATIVE),
    infer_compare,
    k::equal,
    Cheap,
    |b, _, x| b.compare(Compare::Eq, x[0], x[1]),
    "Elementwise a == b, an i1 tensor",
    "%r = graph.equal %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>",
    canonical::COMPARE
);
elementwise!(
    SELECT,
    "graph.select",
    3,
    EW,
    infer_select,
    k::select,
    Cheap,
    |b, _, x| b.select(x[0], x[1], x[2]),
    "Elementwise cond ? a : b with numpy broadcasting of all three",
    "%r = graph.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>"
);
elementwise!(
    NEG,
    "graph.neg",
    1,
    EW,
    infer_unary_number,
    k::neg,
    Cheap,
    |b, _, x| b.unary(ScalarFn::Neg, x[0]),
    "Elementwise -x",
    "%r = graph.neg %x : (tensor<4xf32>) -> tensor<4xf32>"
);
elementwise!(
    ABS,
    "graph.abs",
    1,
    EW,
    infer_unary_number,
    k::abs,
    Cheap,
    |b, _, x| b.unary(ScalarFn::Abs, x[0]),
    "Elementwise |x|",
    "%r = graph.abs %x : (tensor<4xi32>) -> tensor<4xi32>"
);
elementwise!(
    EXP,
    "graph.exp",
    1,
    EW,
    infer_unary_float,
    k::exp,
    Transcendental,
    |b, _, x| b.unary(ScalarFn::Math(MathFn::Exp), x[0]),
    "Elementwise e^x",
    "%r = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>"
);
elementwise!(
    LOG,
    "graph.log",
    1,
    EW,
    infer_unary_float,
    k::log,
    Transcendental,
    |b, _, x| b.unary(ScalarFn::Math(MathFn::Log), x[0]),
    "Elementwise natural logarithm (NaN below zero, -inf at zero)",
    "%r = graph.log %x : (tensor<4xf32>) -> tensor<4xf32>"
);
elementwise!(
    SQRT,
    "graph.sqrt",
    1,
    EW,
    infer_unary_float,
    k::sqrt,
    Costly,
    |b, _, x| b.unary(ScalarFn::Sqrt, x[0]),
    "Elementwise square root",
    "%r = graph.sqrt %x : (tensor<4xf32>) -> tensor<4xf32>"
);
elementwise!(
    RSQRT,
    "graph.rsqrt",
    1,
    EW,
    infer_unary_float,
    k::rsqrt,
    Costly,
    |b, _, x| b.unary(ScalarFn::Rsqrt, x[0]),
    "Elementwise 1 / sqrt(x)",
    "%r = graph.rsqrt %x : (tensor<4xf32>) -> tensor<4xf32>"
);
elementwise!(
    RECIPROCAL,
    "graph.reciprocal",
    1,
    EW,
    infer_unary_float,
    k::reciprocal,
    Cheap,
    |b, _, x| {
        let one = b.float_like(x[0], 1.0);
        b.div(one, x[0])
    },
    "Elementwise 1 / x",
    "%r = graph.reciprocal %x : (tensor<4xf32>) -> tensor<4xf32>"
);
elementwise!(
    TANH,
    "graph.tanh",
    1,
    EW,
    infer_unary_float,
    k::tanh,
    Transcendental,
    |b, _, x| b.unary(ScalarFn::Math(MathFn::Tanh), x[0]),
    "Elementwise hyperbolic tangent",
    "%r = graph.tanh %x : (tensor<4xf32>) -> tensor<4xf32>"
);
elementwise!(
    SIGMOID,
    "graph.sigmoid",
    1,
    EW,
    infer_unary_float,
    k::sigmoid,
    Transcendental,
    bodies::sigmoid,
    "Elementwise 1 / (1 + e^-x)",
    "%r = graph.sigmoid %x : (tensor<4xf32>) -> tensor<4xf32>"
);
elementwise!(
    SIN,
    "graph.sin",
    1,
    EW,
    infer_unary_float,
    |a| k::unary(a, libm::sin, None),
    Transcendental,
    |b, _, x| b.unary(ScalarFn::Math(MathFn::Sin), x[0]),
    "Elementwise sine (radians)",
    "%r = graph.sin %x : (tensor<4xf32>) -> tensor<4xf32>"
);
elementwise!(
    COS,
    "graph.cos",
    1,
    EW,
    infer_unary_float,
    |a| k::unary(a, libm::cos, None),
    Transcendental,
    |b, _, x| b.unary(ScalarFn::Math(MathFn::Cos), x[0]),
    "Elementwise cosine (radians)",
    "%r = graph.cos %x : (tensor<4xf32>) -> tensor<4xf32>"
);
elementwise!(
    ERF,
    "graph.erf",
    1,
    EW,
    infer_unary_float,
    k::erf,
    Transcendental,
    |b, _, x| b.unary(ScalarFn::Math(MathFn::Erf), x[0]),
    "Elementwise error function",
    "%r = graph.erf %x : (tensor<4xf32>) -> tensor<4xf32>"
);
elementwise!(
    RELU,
    "graph.relu",
    1,
    EW,
    infer_unary_number,
    k::relu,
    Cheap,
    |b, _, x| {
        // max propagates NaN, as relu does.
        let zero = b.float_like(x[0], 0.0);
        b.binary(ScalarFn::Max, x[0], zero)
    },
    "Elementwise max(x, 0); NaN stays NaN",
    "%r = graph.relu %x : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>"
);
elementwise!(
    FLOOR,
    "graph.floor",
    1,
    EW,
    infer_unary_float,
    k::floor,
    Cheap,
    |b, _, x| b.unary(ScalarFn::Floor, x[0]),
    "Elementwise round toward -inf",
    "%r = graph.floor %x : (tensor<4xf32>) -> tensor<4xf32>"
);
elementwise!(
    CEIL,
    "graph.ceil",
    1,
    EW,
    infer_unary_float,
    k::ceil,
    Cheap,
    |b, _, x| b.unary(ScalarFn::Ceil, x[0]),
    "Elementwise round toward +inf",
    "%r = graph.ceil %x : (tensor<4xf32>) -> tensor<4xf32>"
);

pub static GELU: OpDef = OpDef {
    name: "graph.gelu",
    summary: "Elementwise GELU: x * Phi(x), exact (erf) or with the tanh approximation",
    description: "`approximate = \"none\"` (default): 0.5 x (1 + erf(x / sqrt 2)); `\"tanh\"`: \
                  0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), as PyTorch.\n\n```mlir\n\
                  %r = graph.gelu %x {approximate = \"tanh\"} : (tensor<2x8xf32>) -> tensor<2x8xf32>\n```",
    operands: Arity::Exactly(1),
    attrs: &[AttrSpec::optional(
        "approximate",
        AttrKind::Enum(&["none", "tanh"]),
        AttrDefault::Str("none"),
        "approximation",
    )],
    traits: EW,
    infer: Some(infer_unary_float),
    syntax: Syntax::Functional,
    patterns: canonical::ELEMENTWISE,
    dialect_data: Some(&GraphSemantics::new(
        GraphOp::Elementwise(Elementwise { body: bodies::gelu, cost: Cost::Transcendental }),
        OBLIVIOUS,
        k::gelu,
    )),
    ..OpDef::DEFAULT
};

pub static CLAMP: OpDef = OpDef {
    name: "graph.clamp",
    summary: "Elementwise min(max(x, min), max); NaN stays NaN",
    description: "Bounds are f64 attributes (default -inf and +inf); for integer tensors they are \
                  rounded inward (min up, max down).\n\n```mlir\n\
                  %r = graph.clamp %x {min = 0.0, max = 6.0} : (tensor<4xf32>) -> tensor<4xf32>\n```",
    operands: Arity::Exactly(1),
    attrs: &[
        AttrSpec::optional("min", AttrKind::Float, AttrDefault::Float(f64::NEG_INFINITY), "lower bound"),
        AttrSpec::optional("max", AttrKind::Float, AttrDefault::Float(f64::INFINITY), "upper bound"),
    ],
    traits: EW,
    infer: Some(infer_clamp),
    syntax: Syntax::Functional,
    patterns: canonical::CLAMP,
    dialect_data: Some(&GraphSemantics::new(
        GraphOp::Elementwise(Elementwise { body: bodies::clamp, cost: Cost::Cheap }),
        OBLIVIOUS,
        k::clamp,
    )),
    ..OpDef::DEFAULT
};

pub static CAST: OpDef = OpDef {
    name: "graph.cast",
    summary: "Converts each element to the result's element type",
    description: "float -> int truncates toward zero and saturates (NaN -> 0); int -> int wraps; \
                  float -> float rounds to nearest; x -> i1 is x != 0; i1 -> x is 0 or 1.\n\n```mlir\n\
                  %r = graph.cast %x : (tensor<4xf32>) -> tensor<4xi32>\n```",
    operands: Arity::Exactly(1),
    traits: EW,
    verify: Some(verify_cast),
    syntax: Syntax::Functional,
    patterns: canonical::CAST,
    dialect_data: Some(&GraphSemantics::new(
        GraphOp::Elementwise(Elementwise { body: |b, cx, x| b.convert(x[0], cx.result), cost: Cost::Cheap }),
        OBLIVIOUS,
        k::cast,
    )),
    ..OpDef::DEFAULT
};

elementwise!(
    AND,
    "graph.and",
    2,
    EW.union(Traits::COMMUTATIVE),
    infer_bitwise,
    k::and,
    Cheap,
    |b, _, x| b.binary(ScalarFn::And, x[0], x[1]),
    "Elementwise bitwise a & b with numpy broadcasting (i1, i32, i64; on i1, logical and)",
    "%r = graph.and %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>"
);
elementwise!(
    OR,
    "graph.or",
    2,
    EW.union(Traits::COMMUTATIVE),
    infer_bitwise,
    k::or,
    Cheap,
    |b, _, x| b.binary(ScalarFn::Or, x[0], x[1]),
    "Elementwise bitwise a | b with numpy broadcasting (i1, i32, i64; on i1, logical or)",
    "%r = graph.or %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>"
);
elementwise!(
    XOR,
    "graph.xor",
    2,
    EW.union(Traits::COMMUTATIVE),
    infer_bitwise,
    k::xor,
    Cheap,
    |b, _, x| b.binary(ScalarFn::Xor, x[0], x[1]),
    "Elementwise bitwise a ^ b with numpy broadcasting (i1, i32, i64; on i1, logical xor)",
    "%r = graph.xor %a, %b : (tensor<4xi64>, tensor<1xi64>) -> tensor<4xi64>"
);
elementwise!(
    NOT,
    "graph.not",
    1,
    EW,
    infer_unary_integer,
    k::not,
    Cheap,
    bodies::not,
    "Elementwise bitwise complement ~x (i1, i32, i64; on i1, logical not)",
    "%r = graph.not %x : (tensor<4xi1>) -> tensor<4xi1>"
);
elementwise!(
    SHIFT_LEFT,
    "graph.shift_left",
    2,
    EW,
    infer_shift,
    k::shift_left,
    Cheap,
    bodies::shift_left,
    "Elementwise a << b with numpy broadcasting (i32, i64): bits shifted out are lost; \
     a shift amount outside [0, bit width) is an error",
    "%r = graph.shift_left %a, %b : (tensor<4xi32>, tensor<1xi32>) -> tensor<4xi32>"
);
elementwise!(
    SHIFT_RIGHT,
    "graph.shift_right",
    2,
    EW,
    infer_shift,
    k::shift_right,
    Cheap,
    bodies::shift_right,
    "Elementwise arithmetic a >> b with numpy broadcasting (i32, i64): the sign bit fills in; \
     a shift amount outside [0, bit width) is an error",
    "%r = graph.shift_right %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>"
);
elementwise!(
    SHIFT_RIGHT_LOGICAL,
    "graph.shift_right_logical",
    2,
    EW,
    infer_shift,
    k::shift_right_logical,
    Cheap,
    bodies::shift_right_logical,
    "Elementwise logical a >> b with numpy broadcasting (i32, i64): zeros fill in; \
     a shift amount outside [0, bit width) is an error",
    "%r = graph.shift_right_logical %a, %b : (tensor<4xi64>, tensor<1xi64>) -> tensor<4xi64>"
);

/// The elementwise ops.
pub static ELEMENTWISE_OPS: &[&OpDef] = &[
    &ADD,
    &SUB,
    &MUL,
    &DIV,
    &MAX,
    &MIN,
    &POW,
    &GREATER,
    &LESS,
    &EQUAL,
    &SELECT,
    &NEG,
    &ABS,
    &EXP,
    &LOG,
    &SQRT,
    &RSQRT,
    &RECIPROCAL,
    &TANH,
    &SIGMOID,
    &ERF,
    &SIN,
    &COS,
    &RELU,
    &FLOOR,
    &CEIL,
    &GELU,
    &CLAMP,
    &CAST,
    &AND,
    &OR,
    &XOR,
    &NOT,
    &SHIFT_LEFT,
    &SHIFT_RIGHT,
    &SHIFT_RIGHT_LOGICAL,
];
