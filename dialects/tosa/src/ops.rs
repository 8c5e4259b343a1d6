//! The TOSA 1.0 ops tcc imports, as torch-mlir writes them, plus `arith.constant`.
//!
//! These definitions cover parsing and attribute checking: operand counts, attribute
//! kinds and defaults. Result types are taken from the file; the conversion to the
//! graph dialect (`convert-tosa-to-graph` in `tcc-lower`) checks them against graph
//! shape inference and rejects what tcc does not support (quantized zero points, a
//! non-zero `mul` shift, non-constant shape operands) with a located error.

use tcc_ir::lexer::TokenKind;
use tcc_ir::{
    Arity, AttrDefault, AttrKind, AttrSpec, Attribute, Diagnostic, Module, Op, OpDef, OperationState, Parser, Printer,
    Syntax, Traits,
};

/// The kind of a TOSA op (and `arith.constant`), carried on its definition.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TosaOp {
    Const,
    ConstShape,
    ArithConstant,
    Add,
    Sub,
    Mul,
    Pow,
    Maximum,
    Minimum,
    Greater,
    GreaterEqual,
    Equal,
    Select,
    Abs,
    Ceil,
    Floor,
    Exp,
    Log,
    Erf,
    Sin,
    Cos,
    Tanh,
    Sigmoid,
    Rsqrt,
    Reciprocal,
    Intdiv,
    BitwiseAnd,
    BitwiseOr,
    BitwiseXor,
    BitwiseNot,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
    LogicalNot,
    LogicalLeftShift,
    LogicalRightShift,
    ArithmeticRightShift,
    Negate,
    Cast,
    Clamp,
    ReduceSum,
    ReduceProduct,
    ReduceMax,
    ReduceMin,
    ReduceAll,
    ReduceAny,
    Argmax,
    Reshape,
    Transpose,
    Slice,
    Concat,
    Pad,
    Tile,
    Reverse,
    Identity,
    Gather,
    Scatter,
    TransposeConv2d,
    Matmul,
    Conv2d,
    Conv3d,
    DepthwiseConv2d,
    MaxPool2d,
    AvgPool2d,
}

/// The kind of a TOSA op definition; `None` for ops of other dialects.
pub fn op_kind(def: &OpDef) -> Option<TosaOp> {
    def.data::<TosaOp>().copied()
}

const PURE: Traits = Traits::PURE;
const CONSTANT: Traits = Traits::PURE.union(Traits::CONSTANT_LIKE);

const NAN_MODE: AttrSpec = AttrSpec::optional(
    "nan_mode",
    AttrKind::Any,
    AttrDefault::Str("PROPAGATE"),
    "PROPAGATE: NaN in, NaN out; IGNORE: a NaN loses against a number (`\"IGNORE\"` or `#tosa.nan_mode<IGNORE>`)",
);

/// The NaN mode an attribute spells: `"PROPAGATE"`/`"IGNORE"` (older printers) or
/// `#tosa.nan_mode<..>` (MLIR 22).
pub fn nan_mode(attr: &Attribute) -> Option<&'static str> {
    let text = match attr {
        Attribute::String(s) => s.to_string(),
        Attribute::Opaque(s) => {
            let s = s.strip_prefix('#').unwrap_or(s);
            s.strip_prefix("tosa.nan_mode<")?.strip_suffix('>')?.trim().to_string()
        }
        _ => return None,
    };
    ["PROPAGATE", "IGNORE"].into_iter().find(|m| *m == text)
}

/// Checks the attributes whose kind the specs cannot express.
fn verify_attrs(m: &Module, op: Op) -> Result<(), String> {
    match m.attr(op, "nan_mode") {
        Some(a) if nan_mode(a).is_none() => Err(format!("attribute 'nan_mode' must be PROPAGATE or IGNORE, got {a}")),
        _ => Ok(()),
    }
}
const AXIS: AttrSpec = AttrSpec::required("axis", AttrKind::Int, "the dimension (kept with extent 1 by reductions)");
const ACC_TYPE: AttrSpec = AttrSpec::required("acc_type", AttrKind::Type, "accumulator type (f32 for f32 tensors)");
const PAD: AttrSpec = AttrSpec::required("pad", AttrKind::IntList, "[top, bottom, left, right]");
const STRIDE: AttrSpec = AttrSpec::required("stride", AttrKind::IntList, "[y, x]");
const DILATION: AttrSpec = AttrSpec::required("dilation", AttrKind::IntList, "[y, x]");
const KERNEL: AttrSpec = AttrSpec::required("kernel", AttrKind::IntList, "[y, x]");
const LOCAL_BOUND: AttrSpec =
    AttrSpec::optional("local_bound", AttrKind::Bool, AttrDefault::Bool(false), "precision hint (ignored)");

macro_rules! tosa_op {
    ($NAME:ident, $Kind:ident, $name:literal, $operands:expr, [$($attr:expr),*], $summary:literal) => {
        pub static $NAME: OpDef = OpDef {
            name: $name,
            summary: $summary,
            operands: $operands,
            attrs: &[$($attr),*],
            traits: PURE,
            verify: Some(verify_attrs),
            syntax: Syntax::Functional,
            dialect_data: Some(&TosaOp::$Kind),
            ..OpDef::DEFAULT
        };
    };
}

pub static CONST: OpDef = OpDef {
    name: "tosa.const",
    summary: "A constant tensor (`values`), often a `dense_resource` weight blob",
    description: "```mlir\n%w = \"tosa.const\"() <{values = dense_resource<w1> : tensor<8x3x3x3xf32>}> : () -> tensor<8x3x3x3xf32>\n```",
    operands: Arity::Exactly(0),
    attrs: &[AttrSpec::required("values", AttrKind::Dense, "the elements")],
    traits: CONSTANT,
    syntax: Syntax::Functional,
    dialect_data: Some(&TosaOp::Const),
    ..OpDef::DEFAULT
};

pub static CONST_SHAPE: OpDef = OpDef {
    name: "tosa.const_shape",
    summary: "A constant shape (`!tosa.shape<N>`), the shape operand of reshape, slice, pad and tile",
    description: "```mlir\n%s = tosa.const_shape {values = dense<[1, 4, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>\n```",
    operands: Arity::Exactly(0),
    attrs: &[AttrSpec::required("values", AttrKind::Dense, "the extents")],
    traits: CONSTANT,
    syntax: Syntax::Functional,
    dialect_data: Some(&TosaOp::ConstShape),
    ..OpDef::DEFAULT
};

fn parse_arith_constant(p: &mut Parser<'_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    let loc = p.loc();
    let value = p.parse_attribute()?;
    if p.kind() == TokenKind::LBrace {
        p.parse_attr_dict_into(&mut state.attrs)?;
    }
    let ty = match &value {
        Attribute::Dense(d) => tcc_ir::Type::from_tensor(d.ty().clone()),
        Attribute::Int(_, t) | Attribute::Float(_, t) => tcc_ir::Type::Scalar(*t),
        other => return Err(Diagnostic::error(loc, format!("expected a typed constant, got {}", other.kind_name()))),
    };
    state.attrs.set("value", value);
    state.result_types.push(ty);
    Ok(())
}

fn print_arith_constant(p: &mut Printer<'_>, op: Op) -> std::fmt::Result {
    let m = p.module();
    p.write("arith.constant ");
    if let Some(v) = m.attr(op, "value") {
        p.print_constant_value(v);
    }
    p.print_attr_dict(m.attrs(op), &["value"]);
    Ok(())
}

pub static ARITH_CONSTANT: OpDef = OpDef {
    name: "arith.constant",
    summary: "A constant from upstream MLIR's arith dialect (imported like `tosa.const`)",
    description: "```mlir\n%c = arith.constant dense_resource<idx> : tensor<2x16xi64>\n```",
    operands: Arity::Exactly(0),
    attrs: &[AttrSpec::required("value", AttrKind::Any, "dense elements (scalar constants are not imported)")],
    traits: CONSTANT,
    syntax: Syntax::Custom { parse: parse_arith_constant, print: print_arith_constant },
    dialect_data: Some(&TosaOp::ArithConstant),
    ..OpDef::DEFAULT
};

// -- elementwise -----------------------------------------------------------------------

tosa_op!(ADD, Add, "tosa.add", Arity::Exactly(2), [], "a + b; operands of equal rank broadcast where an extent is 1");
tosa_op!(SUB, Sub, "tosa.sub", Arity::Exactly(2), [], "a - b (broadcasting)");
tosa_op!(
    MUL,
    Mul,
    "tosa.mul",
    Arity::Exactly(3),
    [],
    "a * b (broadcasting); the third operand is the i8 `shift`, 0 here"
);
tosa_op!(POW, Pow, "tosa.pow", Arity::Exactly(2), [], "a ^ b (broadcasting)");
tosa_op!(MAXIMUM, Maximum, "tosa.maximum", Arity::Exactly(2), [NAN_MODE], "max(a, b) (broadcasting)");
tosa_op!(MINIMUM, Minimum, "tosa.minimum", Arity::Exactly(2), [NAN_MODE], "min(a, b) (broadcasting)");
tosa_op!(GREATER, Greater, "tosa.greater", Arity::Exactly(2), [], "a > b, an i1 tensor");
tosa_op!(GREATER_EQUAL, GreaterEqual, "tosa.greater_equal", Arity::Exactly(2), [], "a >= b, an i1 tensor");
tosa_op!(EQUAL, Equal, "tosa.equal", Arity::Exactly(2), [], "a == b, an i1 tensor");
tosa_op!(SELECT, Select, "tosa.select", Arity::Exactly(3), [], "c ? a : b (broadcasting)");
tosa_op!(ABS, Abs, "tosa.abs", Arity::Exactly(1), [], "|x|");
tosa_op!(CEIL, Ceil, "tosa.ceil", Arity::Exactly(1), [], "round toward +inf");
tosa_op!(FLOOR, Floor, "tosa.floor", Arity::Exactly(1), [], "round toward -inf");
tosa_op!(EXP, Exp, "tosa.exp", Arity::Exactly(1), [], "e^x");
tosa_op!(LOG, Log, "tosa.log", Arity::Exactly(1), [], "natural logarithm");
tosa_op!(ERF, Erf, "tosa.erf", Arity::Exactly(1), [], "error function");
tosa_op!(SIN, Sin, "tosa.sin", Arity::Exactly(1), [], "sine (radians)");
tosa_op!(COS, Cos, "tosa.cos", Arity::Exactly(1), [], "cosine (radians)");
tosa_op!(TANH, Tanh, "tosa.tanh", Arity::Exactly(1), [], "hyperbolic tangent");
tosa_op!(SIGMOID, Sigmoid, "tosa.sigmoid", Arity::Exactly(1), [], "1 / (1 + e^-x)");
tosa_op!(RSQRT, Rsqrt, "tosa.rsqrt", Arity::Exactly(1), [], "1 / sqrt(x)");
tosa_op!(RECIPROCAL, Reciprocal, "tosa.reciprocal", Arity::Exactly(1), [], "1 / x");
tosa_op!(
    INTDIV,
    Intdiv,
    "tosa.intdiv",
    Arity::Exactly(2),
    [],
    "a / b on integers, truncated toward zero (broadcasting)"
);
tosa_op!(BITWISE_AND, BitwiseAnd, "tosa.bitwise_and", Arity::Exactly(2), [], "a & b on integers (broadcasting)");
tosa_op!(BITWISE_OR, BitwiseOr, "tosa.bitwise_or", Arity::Exactly(2), [], "a | b on integers (broadcasting)");
tosa_op!(BITWISE_XOR, BitwiseXor, "tosa.bitwise_xor", Arity::Exactly(2), [], "a ^ b on integers (broadcasting)");
tosa_op!(BITWISE_NOT, BitwiseNot, "tosa.bitwise_not", Arity::Exactly(1), [], "~x on integers");
tosa_op!(LOGICAL_AND, LogicalAnd, "tosa.logical_and", Arity::Exactly(2), [], "a && b on i1 (broadcasting)");
tosa_op!(LOGICAL_OR, LogicalOr, "tosa.logical_or", Arity::Exactly(2), [], "a || b on i1 (broadcasting)");
tosa_op!(LOGICAL_XOR, LogicalXor, "tosa.logical_xor", Arity::Exactly(2), [], "a != b on i1 (broadcasting)");
tosa_op!(LOGICAL_NOT, LogicalNot, "tosa.logical_not", Arity::Exactly(1), [], "!x on i1");
tosa_op!(
    LOGICAL_LEFT_SHIFT,
    LogicalLeftShift,
    "tosa.logical_left_shift",
    Arity::Exactly(2),
    [],
    "a << b on integers (broadcasting)"
);
tosa_op!(
    LOGICAL_RIGHT_SHIFT,
    LogicalRightShift,
    "tosa.logical_right_shift",
    Arity::Exactly(2),
    [],
    "a >> b on integers, zeros shifted in (broadcasting)"
);
tosa_op!(
    ARITHMETIC_RIGHT_SHIFT,
    ArithmeticRightShift,
    "tosa.arithmetic_right_shift",
    Arity::Exactly(2),
    [AttrSpec::required("round", AttrKind::Bool, "add the last bit shifted out (round half up)")],
    "a >> b on integers, the sign bit shifted in (broadcasting)"
);
tosa_op!(
    NEGATE,
    Negate,
    "tosa.negate",
    Arity::Exactly(3),
    [],
    "-x; the second and third operands are the input and output zero points, 0 here"
);
tosa_op!(
    CAST,
    Cast,
    "tosa.cast",
    Arity::Exactly(1),
    [],
    "element type conversion; float to integer rounds to nearest, ties to even, and saturates"
);
tosa_op!(
    CLAMP,
    Clamp,
    "tosa.clamp",
    Arity::Exactly(1),
    [
        AttrSpec::required("min_val", AttrKind::Float, "lower bound"),
        AttrSpec::required("max_val", AttrKind::Float, "upper bound"),
        NAN_MODE
    ],
    "min(max(x, min_val), max_val)"
);

// -- reductions ------------------------------------------------------------------------

tosa_op!(REDUCE_SUM, ReduceSum, "tosa.reduce_sum", Arity::Exactly(1), [AXIS], "sum over `axis`, kept as extent 1");
tosa_op!(
    REDUCE_PRODUCT,
    ReduceProduct,
    "tosa.reduce_product",
    Arity::Exactly(1),
    [AXIS],
    "product over `axis`, kept as extent 1"
);
tosa_op!(REDUCE_MAX, ReduceMax, "tosa.reduce_max", Arity::Exactly(1), [AXIS, NAN_MODE], "maximum over `axis`");
tosa_op!(REDUCE_MIN, ReduceMin, "tosa.reduce_min", Arity::Exactly(1), [AXIS, NAN_MODE], "minimum over `axis`");
tosa_op!(REDUCE_ALL, ReduceAll, "tosa.reduce_all", Arity::Exactly(1), [AXIS], "logical and over `axis` (i1)");
tosa_op!(REDUCE_ANY, ReduceAny, "tosa.reduce_any", Arity::Exactly(1), [AXIS], "logical or over `axis` (i1)");
tosa_op!(
    ARGMAX,
    Argmax,
    "tosa.argmax",
    Arity::Exactly(1),
    [AXIS, NAN_MODE],
    "index of the first maximum along `axis`, the axis removed (a NaN is the maximum)"
);

// -- data movement ---------------------------------------------------------------------

tosa_op!(
    RESHAPE,
    Reshape,
    "tosa.reshape",
    Arity::Exactly(2),
    [],
    "the operand with the shape of the `!tosa.shape` operand"
);
tosa_op!(
    TRANSPOSE,
    Transpose,
    "tosa.transpose",
    Arity::Exactly(1),
    [AttrSpec::required("perms", AttrKind::IntList, "result dimension i is operand dimension perms[i]")],
    "permutes dimensions"
);
tosa_op!(
    SLICE,
    Slice,
    "tosa.slice",
    Arity::Exactly(3),
    [],
    "the block at `start` (shape operand) of extent `size` (shape operand)"
);
tosa_op!(CONCAT, Concat, "tosa.concat", Arity::AtLeast(1), [AXIS], "concatenation along `axis`");
tosa_op!(
    PAD_OP,
    Pad,
    "tosa.pad",
    Arity::Exactly(3),
    [],
    "pads with the constant `pad_const` (third operand); `padding` is [low0, high0, low1, high1, ..]"
);
tosa_op!(TILE, Tile, "tosa.tile", Arity::Exactly(2), [], "repeats the operand `multiples` times per dimension");
tosa_op!(REVERSE, Reverse, "tosa.reverse", Arity::Exactly(1), [AXIS], "the operand with `axis` in reverse order");
tosa_op!(IDENTITY, Identity, "tosa.identity", Arity::Exactly(1), [], "the operand");
tosa_op!(
    SCATTER,
    Scatter,
    "tosa.scatter",
    Arity::Exactly(3),
    [],
    "values_in [N, K, C], indices [N, W], input [N, W, C] -> values_in with rows indices[n, w] set to input[n, w]"
);
tosa_op!(
    TRANSPOSE_CONV2D,
    TransposeConv2d,
    "tosa.transpose_conv2d",
    Arity::Exactly(5),
    [
        AttrSpec::required("out_pad", AttrKind::IntList, "[top, bottom, left, right] added to the output"),
        STRIDE,
        ACC_TYPE,
        LOCAL_BOUND
    ],
    "input [N, IH, IW, IC], weights [OC, KH, KW, IC], bias, zero points -> each input cell's products added at cell x stride + out_pad + tap"
);
tosa_op!(
    GATHER,
    Gather,
    "tosa.gather",
    Arity::Exactly(2),
    [],
    "values [N, K, C], indices [N, W] -> [N, W, C] with out[n, w, c] = values[n, indices[n, w], c]"
);

// -- compute ---------------------------------------------------------------------------

tosa_op!(
    MATMUL,
    Matmul,
    "tosa.matmul",
    Arity::Exactly(4),
    [],
    "batched [N, H, C] x [N, C, W]; the last two operands are zero points, 0 here"
);
tosa_op!(
    CONV2D,
    Conv2d,
    "tosa.conv2d",
    Arity::Exactly(5),
    [PAD, STRIDE, DILATION, ACC_TYPE, LOCAL_BOUND],
    "NHWC input, OHWI weights, bias [O] or [1], then input and weight zero points (0 here)"
);
tosa_op!(
    CONV3D,
    Conv3d,
    "tosa.conv3d",
    Arity::Exactly(5),
    [
        AttrSpec::required("pad", AttrKind::IntList, "[front, back, top, bottom, left, right]"),
        AttrSpec::required("stride", AttrKind::IntList, "[d, y, x]"),
        AttrSpec::required("dilation", AttrKind::IntList, "[d, y, x]"),
        ACC_TYPE,
        LOCAL_BOUND
    ],
    "NDHWC input, ODHWI weights, bias [O] or [1], then input and weight zero points (0 here)"
);
tosa_op!(
    DEPTHWISE_CONV2D,
    DepthwiseConv2d,
    "tosa.depthwise_conv2d",
    Arity::Exactly(5),
    [PAD, STRIDE, DILATION, ACC_TYPE, LOCAL_BOUND],
    "NHWC input, [KH, KW, C, M] weights: output channel c*M + m sees input channel c only"
);
tosa_op!(
    MAX_POOL2D,
    MaxPool2d,
    "tosa.max_pool2d",
    Arity::Exactly(1),
    [KERNEL, STRIDE, PAD, NAN_MODE],
    "NHWC max pooling; padding never wins"
);
tosa_op!(
    AVG_POOL2D,
    AvgPool2d,
    "tosa.avg_pool2d",
    Arity::Exactly(3),
    [KERNEL, STRIDE, PAD, ACC_TYPE],
    "NHWC average pooling over the window's input cells (padding is not counted); zero points 0"
);

/// Every op this crate defines.
pub static ALL: &[&OpDef] = &[
    &CONST,
    &CONST_SHAPE,
    &ARITH_CONSTANT,
    &ADD,
    &SUB,
    &MUL,
    &POW,
    &MAXIMUM,
    &MINIMUM,
    &GREATER,
    &GREATER_EQUAL,
    &EQUAL,
    &SELECT,
    &ABS,
    &CEIL,
    &FLOOR,
    &EXP,
    &LOG,
    &ERF,
    &SIN,
    &COS,
    &TANH,
    &SIGMOID,
    &RSQRT,
    &RECIPROCAL,
    &INTDIV,
    &BITWISE_AND,
    &BITWISE_OR,
    &BITWISE_XOR,
    &BITWISE_NOT,
    &LOGICAL_AND,
    &LOGICAL_OR,
    &LOGICAL_XOR,
    &LOGICAL_NOT,
    &LOGICAL_LEFT_SHIFT,
    &LOGICAL_RIGHT_SHIFT,
    &ARITHMETIC_RIGHT_SHIFT,
    &NEGATE,
    &CAST,
    &CLAMP,
    &REDUCE_SUM,
    &REDUCE_PRODUCT,
    &REDUCE_MAX,
    &REDUCE_MIN,
    &REDUCE_ALL,
    &REDUCE_ANY,
    &ARGMAX,
    &RESHAPE,
    &TRANSPOSE,
    &SLICE,
    &CONCAT,
    &PAD_OP,
    &TILE,
    &REVERSE,
    &IDENTITY,
    &GATHER,
    &SCATTER,
    &TRANSPOSE_CONV2D,
    &CONV3D,
    &MATMUL,
    &CONV2D,
    &DEPTHWISE_CONV2D,
    &MAX_POOL2D,
    &AVG_POOL2D,
];
