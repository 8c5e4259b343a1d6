//! Calls of the runtime's ahead-of-time microkernels.
//!
//! `loop.address` takes the address of a buffer element as an `index`;
//! `loop.array_math` calls one ISA level's in-place array math (`tcc_uk_math_<isa>`:
//! `exp` or `erf` over `n` f32 at an address); `loop.column_sums` its column sums of
//! a strided f32 matrix (`tcc_uk_column_sums_<isa>`); `loop.microkernel` calls the
//! broadcast-tile microkernel of one ISA level
//! (`tcc_uk_tile_<isa>`, see `tcc-ukernels`), or with `dot` its bf16 dot tile
//! (`tcc_uk_dot_<isa>`: bf16 inputs and weights), with [`TILE_ARGUMENTS`] `index` operands:
//! the input, weight and output addresses, then the tile's sizes and strides in
//! elements. The calls read and write memory, so they are never moved or removed.
//! [`runtime_call`] says, for each, the C function and its arguments (every one an
//! integer), which is all a code generator needs.

use tcc_ir::{
    Arity, AttrDefault, AttrKind, AttrSpec, Diagnostic, Module, Op, OpDef, OperationState, Parser, ScalarType, Syntax,
    Traits, Type,
};
use tcc_target::Isa;

use crate::LoopOp;

pub use tcc_target::TILE_ARGUMENTS;

fn verify_address(m: &Module, op: Op) -> Result<(), String> {
    tcc_ir::indexed::indexed_buffer(m, op, 0)?;
    let r = m.value_type(m.result(op, 0));
    if *r != Type::Scalar(ScalarType::Index) {
        return Err(format!("result must be an index, got {r}"));
    }
    Ok(())
}

fn parse_address(p: &mut Parser<'_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    let (uses, ty) = tcc_ir::indexed::parse_indexed(p, &mut state.attrs)?;
    if ty.as_buffer().is_none() {
        return Err(Diagnostic::error(state.loc.clone(), format!("expected a buffer type, got {ty}")));
    }
    p.bind_operands(state, &uses, &tcc_ir::indexed::indexed_types(&uses, &ty))?;
    state.result_types.push(Type::Scalar(ScalarType::Index));
    Ok(())
}

/// The ISA level a `loop.microkernel` calls.
pub fn microkernel_isa(m: &Module, op: Op) -> Option<Isa> {
    m.attr(op, "isa").and_then(|a| a.as_str()).and_then(Isa::from_name)
}

/// The C symbol a `loop.microkernel` calls: its level's broadcast tile, or dot tile
/// with `dot`.
pub fn microkernel_symbol(m: &Module, op: Op) -> Option<&'static str> {
    let isa = microkernel_isa(m, op)?;
    let dot = m.attr(op, "dot").and_then(|a| a.as_bool()).unwrap_or(false);
    Some(if dot { isa.dot_symbol() } else { isa.tile_symbol() })
}

/// The C function a runtime call (`loop.microkernel`, `loop.array_math`,
/// `loop.column_sums`) calls, and the constant arguments that precede its operands
/// (every argument an `i64`); `None` for other ops.
pub fn runtime_call(m: &Module, op: Op) -> Option<(&'static str, Vec<i64>)> {
    match crate::kind_of(m, op)? {
        LoopOp::Microkernel => Some((microkernel_symbol(m, op)?, Vec::new())),
        LoopOp::ArrayMath => array_math_call(m, op).map(|(symbol, function)| (symbol, vec![function])),
        LoopOp::ColumnSums => {
            let symbol = microkernel_isa(m, op)?.column_sums_symbol()?;
            let flag =
                |name: &str, bit: i64| if m.attr(op, name).and_then(|a| a.as_bool()) == Some(true) { bit } else { 0 };
            Some((
                symbol,
                vec![flag("widen", tcc_target::COLUMN_SUMS_WIDEN) | flag("square", tcc_target::COLUMN_SUMS_SQUARE)],
            ))
        }
        _ => None,
    }
}

/// The highest ISA level whose microkernels module `m` calls (what its code needs
/// from the CPU), if any.
pub fn required_isa(m: &Module) -> Option<Isa> {
    let calls = |op: Op| m.is(op, &MICROKERNEL) || m.is(op, &ARRAY_MATH) || m.is(op, &COLUMN_SUMS);
    m.walk(m.top()).into_iter().filter(|&op| calls(op)).filter_map(|op| microkernel_isa(m, op)).max()
}

/// The functions `loop.array_math` computes, by name, with their `tcc_uk_math_<isa>`
/// numbers.
pub const ARRAY_MATH_FUNCTIONS: [(&str, i64); 2] = [("exp", tcc_target::MATH_EXP), ("erf", tcc_target::MATH_ERF)];

/// The C symbol and function number a `loop.array_math` calls.
pub fn array_math_call(m: &Module, op: Op) -> Option<(&'static str, i64)> {
    let symbol = microkernel_isa(m, op)?.math_symbol()?;
    let name = m.attr(op, "fn").and_then(|a| a.as_str())?;
    let (_, number) = ARRAY_MATH_FUNCTIONS.iter().find(|(n, _)| *n == name)?;
    Some((symbol, *number))
}

fn verify_array_math(m: &Module, op: Op) -> Result<(), String> {
    if microkernel_isa(m, op).and_then(Isa::math_symbol).is_none() {
        return Err("'isa' must be avx512 or avx2".into());
    }
    if array_math_call(m, op).is_none() {
        return Err("'fn' must be exp or erf".into());
    }
    verify_indices(m, op, &["address", "count"])
}

/// `loop.column_sums`'s operands, in the order of `tcc_uk_column_sums_<isa>`'s
/// arguments after the flags.
pub const COLUMN_SUMS_ARGUMENTS: [&str; 7] = ["x", "rows", "row_stride", "columns", "bias", "center", "out"];

fn verify_column_sums(m: &Module, op: Op) -> Result<(), String> {
    if microkernel_isa(m, op).and_then(Isa::column_sums_symbol).is_none() {
        return Err("'isa' must be avx512 or avx2".into());
    }
    verify_indices(m, op, &COLUMN_SUMS_ARGUMENTS)
}

/// Every operand of `op` is an `index` (named by `names`, as many).
fn verify_indices(m: &Module, op: Op, names: &[&str]) -> Result<(), String> {
    let operands = m.operands(op);
    if operands.len() != names.len() {
        return Err(format!("takes {} operands, got {}", names.len(), operands.len()));
    }
    for (&v, name) in operands.iter().zip(names) {
        let t = m.value_type(v);
        if *t != Type::Scalar(ScalarType::Index) {
            return Err(format!("operand '{name}' must be an index, got {t}"));
        }
    }
    Ok(())
}

fn verify_microkernel(m: &Module, op: Op) -> Result<(), String> {
    if microkernel_isa(m, op).is_none() {
        return Err("'isa' must be avx512, avx2 or sse".into());
    }
    verify_indices(m, op, &TILE_ARGUMENTS)
}

pub static ADDRESS: OpDef = OpDef {
    name: "loop.address",
    summary: "The address of one element, as an index: `%p = loop.address %buf[%i, %j] : buffer<4x8xf32>`",
    description: "For the arguments of `loop.microkernel`.",
    operands: Arity::AtLeast(1),
    traits: Traits::PURE,
    verify: Some(verify_address),
    syntax: Syntax::Custom { parse: parse_address, print: crate::memory::print_access },
    dialect_data: Some(&LoopOp::Address),
    ..OpDef::DEFAULT
};

pub static MICROKERNEL: OpDef = OpDef {
    name: "loop.microkernel",
    summary: "Calls the runtime's broadcast-tile microkernel of ISA level `isa` on one register tile",
    description: "The 35 `index` operands are the C entry point's arguments (`tcc_uk_tile_<isa>`): input, \
                  weight and output addresses, rows, vectors, accumulate (0 or 1), the row strides of the \
                  input and output, vectors per group and the groups' strides in the weights and output, \
                  the inner steps and their weight stride, and three reduction levels (count, input \
                  stride, weight stride), outermost first, and the distance from the weights read to those \
                  to prefetch into L2 (0: none), then the epilogue: bias address (0: none), bias group \
                  stride, bias row stride (not 0: one bias value per row), channel mask address (0: none), residual address (0: none), the clamp's bounds as f32 bits, then whether the \
                  input is read as vectors (1, depthwise) or broadcast (0), with the vector input's step \
                  and group strides, the reduction (0: sums of products, 1: maximum, 2: sum of the \
                  vector inputs) and a divisor of the result (0: none). Strides count elements. With \
                  `dot`, the bf16 dot tile (`tcc_uk_dot_<isa>`): the input and weights are bf16, the \
                  reduction runs over pairs (`inner` counts them), the input is broadcast.\n\n```mlir\n\
                  loop.microkernel %x, %w, %o, %rows, ... {isa = \"avx512\"} : (index, ...) -> ()\n```",
    operands: Arity::Exactly(TILE_ARGUMENTS.len()),
    results: Arity::Exactly(0),
    attrs: &[
        AttrSpec::required("isa", AttrKind::String, "the ISA level: avx512, avx2 or sse"),
        AttrSpec::optional(
            "dot",
            AttrKind::Bool,
            AttrDefault::Bool(false),
            "call the bf16 dot tile (bf16 input and weights)",
        ),
    ],
    verify: Some(verify_microkernel),
    syntax: Syntax::Functional,
    dialect_data: Some(&LoopOp::Microkernel),
    ..OpDef::DEFAULT
};

pub static ARRAY_MATH: OpDef = OpDef {
    name: "loop.array_math",
    summary: "Calls the runtime's array math of ISA level `isa`: `fn` (exp or erf) over `n` f32 at an address, in place",
    description: "The operands are the address of the first f32 and their count. The values are exactly \
                  those of `expand-math`'s expansion (`tcc_uk_math_<isa>`), so `offload-math` may move a \
                  vector loop's `exp` or `erf` into this call. The call reads and writes memory, so it is \
                  never moved or removed.\n\n```mlir\n\
                  loop.array_math %p, %n {fn = \"exp\", isa = \"avx512\"} : (index, index) -> ()\n```",
    operands: Arity::Exactly(2),
    results: Arity::Exactly(0),
    attrs: &[
        AttrSpec::required("fn", AttrKind::String, "the function: exp or erf"),
        AttrSpec::required("isa", AttrKind::String, "the ISA level: avx512 or avx2"),
    ],
    verify: Some(verify_array_math),
    syntax: Syntax::Functional,
    dialect_data: Some(&LoopOp::ArrayMath),
    ..OpDef::DEFAULT
};

pub static COLUMN_SUMS: OpDef = OpDef {
    name: "loop.column_sums",
    summary: "Calls the runtime's column sums of ISA level `isa` over a strided f32 matrix",
    description: "The operands are `tcc_uk_column_sums_<isa>`'s arguments after its flags: the address \
                  of the first f32, the rows, the row stride in elements, the columns, then the \
                  addresses of a per-column f32 bias, a per-column center (0: none) and the sums. Column \
                  `c`'s sum is that over the rows, in order, of `x[r][c] + bias[c]` (in f32), widened to \
                  f64 with `widen` (the sums and center are then f64), minus `center[c]`, squared with \
                  `square`: each column in one lane, as a column reduction's vector loops add them. The \
                  call reads and writes memory, so it is never moved or removed.\n\n```mlir\n\
                  loop.column_sums %x, %rows, %stride, %columns, %bias, %center, %out {isa = \"avx512\", \
                  widen = true} : (index, index, index, index, index, index, index) -> ()\n```",
    operands: Arity::Exactly(COLUMN_SUMS_ARGUMENTS.len()),
    results: Arity::Exactly(0),
    attrs: &[
        AttrSpec::required("isa", AttrKind::String, "the ISA level: avx512 or avx2"),
        AttrSpec::optional("widen", AttrKind::Bool, AttrDefault::Bool(false), "sum in f64 the values widened"),
        AttrSpec::optional("square", AttrKind::Bool, AttrDefault::Bool(false), "sum the squares"),
    ],
    verify: Some(verify_column_sums),
    syntax: Syntax::Functional,
    dialect_data: Some(&LoopOp::ColumnSums),
    ..OpDef::DEFAULT
};
