//! Buffers and memory access in the `loop` dialect.
//!
//! A buffer is memory with a static shape and strides (`buffer<4x8xf32>`,
//! `buffer<4x8xf32, [16, 1]>`). Buffers come from the function's arguments (the
//! model's inputs and outputs), from the workspace arena at an offset planned at
//! compile time (`loop.workspace`), or from read-only constant data
//! (`loop.constant_buffer`). `loop.load` / `loop.store` access one element at a
//! multi-index of `index` values.

use tcc_ir::indexed::{indexed_buffer, indexed_types, parse_indexed, print_indexed};
use tcc_ir::lexer::TokenKind;
use tcc_ir::{
    Arity, AttrKind, AttrSpec, Diagnostic, Module, Op, OpDef, OperationState, Parser, Printer, Syntax, Traits, Type,
};

use crate::LoopOp;

fn verify_workspace(m: &Module, op: Op) -> Result<(), String> {
    let ty = m.value_type(m.result(op, 0));
    let b = ty.as_buffer().ok_or_else(|| format!("result must be a buffer, got {ty}"))?;
    let offset = m.attr(op, "offset").and_then(|a| a.as_i64()).ok_or("requires an integer 'offset'")?;
    if offset < 0 || offset % b.elem().byte_size() as i64 != 0 {
        return Err(format!("offset {offset} must be non-negative and a multiple of the element size"));
    }
    Ok(())
}

fn verify_constant_buffer(m: &Module, op: Op) -> Result<(), String> {
    let ty = m.value_type(m.result(op, 0));
    let b = ty.as_buffer().ok_or_else(|| format!("result must be a buffer, got {ty}"))?;
    let d = m.attr(op, "value").and_then(|a| a.as_dense()).ok_or("requires dense elements 'value'")?;
    if d.ty().shape() != b.shape() || d.elem() != b.elem() || b.explicit_strides().is_some() {
        return Err(format!("value of type {} does not match the row-major buffer {ty}", d.ty()));
    }
    Ok(())
}

fn verify_load(m: &Module, op: Op) -> Result<(), String> {
    let b = indexed_buffer(m, op, 0)?;
    let r = m.value_type(m.result(op, 0));
    if *r != Type::Scalar(b.elem()) {
        return Err(format!("result type {r} differs from the buffer's element type {}", b.elem()));
    }
    Ok(())
}

fn verify_store(m: &Module, op: Op) -> Result<(), String> {
    let b = indexed_buffer(m, op, 1)?;
    let v = m.value_type(m.operand(op, 0));
    if *v != Type::Scalar(b.elem()) {
        return Err(format!("stored value of type {v} differs from the buffer's element type {}", b.elem()));
    }
    Ok(())
}

/// `%buf[%i, %j] : buffer<..>` of a load or prefetch: binds the operands and returns
/// the buffer's element type.
fn parse_access(p: &mut Parser<'_>, state: &mut OperationState) -> Result<tcc_ir::ScalarType, Diagnostic> {
    let (uses, ty) = parse_indexed(p, &mut state.attrs)?;
    let elem = ty
        .as_buffer()
        .map(|b| b.elem())
        .ok_or_else(|| Diagnostic::error(state.loc.clone(), format!("expected a buffer type, got {ty}")))?;
    p.bind_operands(state, &uses, &indexed_types(&uses, &ty))?;
    Ok(elem)
}

/// `loop.load` / `loop.prefetch`: the op's name, `%buf[%i, %j] : buffer<..>`.
pub(crate) fn print_access(p: &mut Printer<'_>, op: Op) -> std::fmt::Result {
    let m = p.module();
    p.write(m.def(op).name);
    p.write(" ");
    print_indexed(p, op, m.operands(op));
    p.write(" : ");
    p.print_type(m.value_type(m.operand(op, 0)));
    Ok(())
}

fn parse_load(p: &mut Parser<'_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    let elem = parse_access(p, state)?;
    state.result_types.push(Type::Scalar(elem));
    Ok(())
}

fn verify_prefetch(m: &Module, op: Op) -> Result<(), String> {
    indexed_buffer(m, op, 0).map(|_| ())
}

fn parse_prefetch(p: &mut Parser<'_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    parse_access(p, state).map(|_| ())
}

fn parse_store(p: &mut Parser<'_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    let value = p.parse_value_use()?;
    p.expect(TokenKind::Comma, "after the stored value")?;
    let (mut uses, ty) = parse_indexed(p, &mut state.attrs)?;
    let elem = ty
        .as_buffer()
        .map(|b| b.elem())
        .ok_or_else(|| Diagnostic::error(state.loc.clone(), format!("expected a buffer type, got {ty}")))?;
    let mut types = vec![Type::Scalar(elem)];
    types.extend(indexed_types(&uses, &ty));
    uses.insert(0, value);
    p.bind_operands(state, &uses, &types)
}

fn print_store(p: &mut Printer<'_>, op: Op) -> std::fmt::Result {
    let m = p.module();
    p.write("loop.store ");
    p.print_value(m.operand(op, 0));
    p.write(", ");
    print_indexed(p, op, &m.operands(op)[1..]);
    p.write(" : ");
    p.print_type(m.value_type(m.operand(op, 1)));
    Ok(())
}

pub static WORKSPACE: OpDef = OpDef {
    name: "loop.workspace",
    summary: "A buffer at byte `offset` in the model's workspace arena",
    description: "Offsets are planned at compile time from tensor liveness.\n\n```mlir\n\
                  %b = loop.workspace {offset = 256} : () -> buffer<2x8xf32>\n```",
    attrs: &[AttrSpec::required("offset", AttrKind::Int, "byte offset in the workspace")],
    traits: Traits::PURE,
    verify: Some(verify_workspace),
    syntax: Syntax::Functional,
    dialect_data: Some(&LoopOp::Workspace),
    ..OpDef::DEFAULT
};

pub static CONSTANT_BUFFER: OpDef = OpDef {
    name: "loop.constant_buffer",
    summary: "A read-only buffer holding `value` (weights live in the compiled module's data)",
    description: "```mlir\n%w = loop.constant_buffer {value = dense<1.0> : tensor<8xf32>} : () -> buffer<8xf32>\n```",
    attrs: &[AttrSpec::required("value", AttrKind::Dense, "the elements")],
    traits: Traits::PURE.union(Traits::CONSTANT_LIKE),
    verify: Some(verify_constant_buffer),
    syntax: Syntax::Functional,
    dialect_data: Some(&LoopOp::ConstantBuffer),
    ..OpDef::DEFAULT
};

fn verify_view(m: &Module, op: Op) -> Result<(), String> {
    let (from, to) = (m.value_type(m.operand(op, 0)), m.value_type(m.result(op, 0)));
    let (Some(a), Some(b)) = (from.as_buffer(), to.as_buffer()) else {
        return Err(format!("expected buffers, got {from} and {to}"));
    };
    let numel = |s: &[i64]| s.iter().product::<i64>();
    if a.elem() != b.elem() || numel(a.shape()) != numel(b.shape()) {
        return Err(format!("cannot view {from} as {to}: element type or count differs"));
    }
    if a.explicit_strides().is_some() || b.explicit_strides().is_some() {
        return Err("views reshape row-major buffers only".into());
    }
    Ok(())
}

pub static VIEW: OpDef = OpDef {
    name: "loop.view",
    summary: "The same row-major memory under another shape with as many elements (a reshape without a copy)",
    description: "```mlir\n%flat = loop.view %b : (buffer<2x3xf32>) -> buffer<6xf32>\n```",
    operands: Arity::Exactly(1),
    traits: Traits::PURE,
    verify: Some(verify_view),
    syntax: Syntax::Functional,
    dialect_data: Some(&LoopOp::View),
    ..OpDef::DEFAULT
};

pub static LOAD: OpDef = OpDef {
    name: "loop.load",
    summary: "Reads one element: `%v = loop.load %buf[%i, %j] : buffer<4x8xf32>`",
    description: "`{readonly}` promises that nothing writes the buffer while the enclosing kernel runs, \
                  so the load may be moved and merged (kernel templates mark their inputs so).",
    operands: Arity::AtLeast(1),
    attrs: tcc_ir::indexed::LOAD_ATTRS,
    traits: Traits::NONE,
    verify: Some(verify_load),
    syntax: Syntax::Custom { parse: parse_load, print: print_access },
    dialect_data: Some(&LoopOp::Load),
    ..OpDef::DEFAULT
};

pub static STORE: OpDef = OpDef {
    name: "loop.store",
    summary: "Writes one element: `loop.store %v, %buf[%i, %j] : buffer<4x8xf32>`",
    operands: Arity::AtLeast(2),
    results: Arity::Exactly(0),
    verify: Some(verify_store),
    syntax: Syntax::Custom { parse: parse_store, print: print_store },
    dialect_data: Some(&LoopOp::Store),
    ..OpDef::DEFAULT
};

pub static PREFETCH: OpDef = OpDef {
    name: "loop.prefetch",
    summary: "A hint that an element will be read soon: `loop.prefetch %buf[%i, %j] : buffer<4x8xf32>`",
    description: "Asks for the cache line holding the element to be brought into L2. It has no effect on \
                  any value; backends without a prefetch instruction (Cranelift) drop it.",
    operands: Arity::AtLeast(1),
    results: Arity::Exactly(0),
    verify: Some(verify_prefetch),
    syntax: Syntax::Custom { parse: parse_prefetch, print: print_access },
    dialect_data: Some(&LoopOp::Prefetch),
    ..OpDef::DEFAULT
};
