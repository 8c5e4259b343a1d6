//! Structured control flow of the `loop` dialect: counted loops with loop-carried
//! values, the outermost parallel loop, their terminator, and run-time checks.
//!
//! ```mlir
//! %sum = loop.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
//!   %x = loop.load %buf[%i] : buffer<16xf32>
//!   %s = loop.add %acc, %x : f32
//!   loop.yield %s : f32
//! }
//! loop.parallel %r = %c0 to %rows {
//!   ...
//!   loop.yield
//! }
//! ```
//!
//! `loop.parallel` runs its iterations on the thread pool in any order (chunks of the
//! range go to different workers), so iterations must write disjoint memory. It must
//! not be nested in another parallel loop.

use tcc_ir::lexer::TokenKind;
use tcc_ir::{
    Arity, AttrDefault, AttrKind, AttrSpec, Diagnostic, Location, Module, Op, OpDef, OperationState, Parser, Printer,
    ScalarType, Syntax, Traits, Type,
};

use crate::LoopOp;

fn index() -> Type {
    Type::Scalar(ScalarType::Index)
}

/// Parses `%iv = %lb to %ub` (and ` step %s` when `with_step`); returns the induction
/// variable's name and location.
fn parse_range(
    p: &mut Parser<'_>,
    state: &mut OperationState,
    with_step: bool,
) -> Result<(String, Location), Diagnostic> {
    let loc = p.loc();
    if p.kind() != TokenKind::PercentIdent {
        return p.error("expected the induction variable");
    }
    let name = p.text().to_string();
    p.advance()?;
    p.expect(TokenKind::Equal, "after the induction variable")?;
    let mut uses = vec![p.parse_value_use()?];
    if !p.consume_keyword("to")? {
        return p.error("expected 'to'");
    }
    uses.push(p.parse_value_use()?);
    if with_step {
        if !p.consume_keyword("step")? {
            return p.error("expected 'step'");
        }
        uses.push(p.parse_value_use()?);
    }
    let types = vec![index(); uses.len()];
    p.bind_operands(state, &uses, &types)?;
    Ok((name, loc))
}

fn parse_for(p: &mut Parser<'_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    let (iv, iv_loc) = parse_range(p, state, true)?;
    let mut args = vec![(iv, index(), iv_loc)];
    if p.consume_keyword("iter_args")? {
        p.expect(TokenKind::LParen, "after 'iter_args'")?;
        let mut names = Vec::new();
        let mut inits = Vec::new();
        loop {
            let loc = p.loc();
            if p.kind() != TokenKind::PercentIdent {
                return p.error("expected a loop-carried value name");
            }
            names.push((p.text().to_string(), loc));
            p.advance()?;
            p.expect(TokenKind::Equal, "after the loop-carried value name")?;
            inits.push(p.parse_value_use()?);
            if !p.consume_if(TokenKind::Comma)? {
                break;
            }
        }
        p.expect(TokenKind::RParen, "to end 'iter_args'")?;
        p.expect(TokenKind::Arrow, "before the loop's result types")?;
        let types = p.parse_paren_type_list()?;
        p.bind_operands(state, &inits, &types)?;
        for ((name, loc), ty) in names.into_iter().zip(&types) {
            args.push((name, ty.clone(), loc));
        }
        state.result_types = types;
    }
    let region = p.parse_region(false, &args)?;
    state.regions.push(region);
    if p.consume_keyword("attributes")? {
        p.parse_attr_dict_into(&mut state.attrs)?;
    }
    Ok(())
}

fn print_for(p: &mut Printer<'_>, op: Op) -> std::fmt::Result {
    let m = p.module();
    let region = m.regions(op)[0];
    let Some(&body) = m.region_blocks(region).first() else {
        p.write("loop.for <invalid: no body>");
        return Ok(());
    };
    p.name_block_args(body);
    let args = m.block_args(body).to_vec();
    let ops = m.operands(op).to_vec();
    p.write("loop.for ");
    p.print_value(args[0]);
    p.write(" = ");
    p.print_value(ops[0]);
    p.write(" to ");
    p.print_value(ops[1]);
    p.write(" step ");
    p.print_value(ops[2]);
    if ops.len() > 3 {
        p.write(" iter_args(");
        for (i, (&a, &init)) in args[1..].iter().zip(&ops[3..]).enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.print_value(a);
            p.write(" = ");
            p.print_value(init);
        }
        p.write(") -> (");
        let types: Vec<Type> = m.results(op).iter().map(|&r| m.value_type(r).clone()).collect();
        p.print_types(&types);
        p.write(")");
    }
    p.write(" ");
    p.print_region(region, false);
    if !m.attrs(op).is_empty() {
        p.write(" attributes");
        p.print_attr_dict(m.attrs(op), &[]);
    }
    Ok(())
}

/// The single block of a loop's region, with the expected argument types.
fn check_body(m: &Module, op: Op, arg_types: &[Type], yield_types: &[Type]) -> Result<(), String> {
    let blocks = m.region_blocks(m.regions(op)[0]);
    let [body] = blocks else { return Err(format!("body must be one block, found {}", blocks.len())) };
    let actual: Vec<&Type> = m.block_args(*body).iter().map(|&a| m.value_type(a)).collect();
    if actual.len() != arg_types.len() || actual.iter().zip(arg_types).any(|(a, b)| *a != b) {
        return Err("body arguments must be the induction variable then the loop-carried values".into());
    }
    let term = m.last_op(*body).ok_or("body is empty")?;
    if !m.is(term, &YIELD) {
        return Err("body must end with loop.yield".into());
    }
    let yielded: Vec<&Type> = m.operands(term).iter().map(|&v| m.value_type(v)).collect();
    if yielded.len() != yield_types.len() || yielded.iter().zip(yield_types).any(|(a, b)| *a != b) {
        return Err(if yield_types.is_empty() {
            "loop.yield of a loop without carried values takes no operands".into()
        } else {
            "loop.yield must produce the loop-carried value types".into()
        });
    }
    Ok(())
}

fn verify_for(m: &Module, op: Op) -> Result<(), String> {
    let operands = m.operands(op);
    if operands.len() < 3 || operands[..3].iter().any(|&v| *m.value_type(v) != index()) {
        return Err("bounds and step must be index values".into());
    }
    let inits: Vec<Type> = operands[3..].iter().map(|&v| m.value_type(v).clone()).collect();
    let results: Vec<Type> = m.results(op).iter().map(|&r| m.value_type(r).clone()).collect();
    if inits != results {
        return Err("results must match the loop-carried initial values".into());
    }
    let mut args = vec![index()];
    args.extend(inits.iter().cloned());
    check_body(m, op, &args, &inits)
}

fn parse_parallel(p: &mut Parser<'_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    let (iv, loc) = parse_range(p, state, false)?;
    let region = p.parse_region(false, &[(iv, index(), loc)])?;
    state.regions.push(region);
    state.result_types.clear();
    if p.consume_keyword("attributes")? {
        p.parse_attr_dict_into(&mut state.attrs)?;
    }
    Ok(())
}

fn print_parallel(p: &mut Printer<'_>, op: Op) -> std::fmt::Result {
    let m = p.module();
    let region = m.regions(op)[0];
    let Some(&body) = m.region_blocks(region).first() else {
        p.write("loop.parallel <invalid: no body>");
        return Ok(());
    };
    p.name_block_args(body);
    p.write("loop.parallel ");
    p.print_value(m.block_args(body)[0]);
    p.write(" = ");
    p.print_value(m.operand(op, 0));
    p.write(" to ");
    p.print_value(m.operand(op, 1));
    p.write(" ");
    p.print_region(region, false);
    if !m.attrs(op).is_empty() {
        p.write(" attributes");
        p.print_attr_dict(m.attrs(op), &[]);
    }
    Ok(())
}

fn verify_parallel(m: &Module, op: Op) -> Result<(), String> {
    if m.operands(op).iter().any(|&v| *m.value_type(v) != index()) {
        return Err("bounds must be index values".into());
    }
    if let Some(blocks) = m.attr(op, PARALLEL_BLOCKS)
        && blocks.as_i64().is_none_or(|b| b < 1)
    {
        return Err(format!("'{PARALLEL_BLOCKS}' must be a positive integer"));
    }
    let mut parent = m.parent_op(op);
    while let Some(p) = parent {
        if m.is(p, &PARALLEL) {
            return Err("parallel loops must not be nested".into());
        }
        parent = m.parent_op(p);
    }
    check_body(m, op, &[index()], &[])
}

fn parse_yield(p: &mut Parser<'_>, state: &mut OperationState) -> Result<(), Diagnostic> {
    let uses = p.parse_value_uses()?;
    let types = if uses.is_empty() {
        Vec::new()
    } else {
        p.expect(TokenKind::Colon, "before the yielded types")?;
        p.parse_type_list()?
    };
    p.bind_operands(state, &uses, &types)
}

fn print_yield(p: &mut Printer<'_>, op: Op) -> std::fmt::Result {
    let m = p.module();
    p.write("loop.yield");
    let ops = m.operands(op).to_vec();
    if !ops.is_empty() {
        p.write(" ");
        p.print_values(&ops);
        p.write(" : ");
        let types: Vec<Type> = ops.iter().map(|&v| m.value_type(v).clone()).collect();
        p.print_types(&types);
    }
    Ok(())
}

fn verify_yield(m: &Module, op: Op) -> Result<(), String> {
    match m.parent_op(op) {
        Some(p) if m.is(p, &FOR) || m.is(p, &PARALLEL) => Ok(()),
        _ => Err("expects parent op 'loop.for' or 'loop.parallel'".into()),
    }
}

fn verify_assert(m: &Module, op: Op) -> Result<(), String> {
    let t = m.value_type(m.operand(op, 0));
    if *t != Type::Scalar(ScalarType::I1) {
        return Err(format!("condition must be i1, got {t}"));
    }
    Ok(())
}

pub static FOR: OpDef = OpDef {
    name: "loop.for",
    summary: "A counted loop from lb (inclusive) to ub (exclusive) by step, carrying values",
    description: "```mlir\n%s = loop.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {\n  ...\n  loop.yield %next : f32\n}\n```",
    operands: Arity::AtLeast(3),
    results: Arity::AtLeast(0),
    regions: Arity::Exactly(1),
    verify: Some(verify_for),
    syntax: Syntax::Custom { parse: parse_for, print: print_for },
    dialect_data: Some(&LoopOp::For),
    ..OpDef::DEFAULT
};

/// `loop.parallel`'s optional attribute: the fewest blocks its iterations are split
/// into (by default a few per thread), for loops of few, long iterations.
pub const PARALLEL_BLOCKS: &str = "blocks";

pub static PARALLEL: OpDef = OpDef {
    name: "loop.parallel",
    summary: "The outermost parallel loop: iterations lb..ub split across the thread pool",
    description: "Iterations may run in any order and must write disjoint memory. Code generation \
                  outlines the body into `fn(ctx, begin, end)` dispatched by the runtime's `parallel_for`, \
                  which splits `lb..ub` into a few blocks per thread that the threads claim one at a time. \
                  `attributes {blocks = N}` asks for at least `N` blocks (at most one per iteration), for \
                  loops whose iterations are long (a convolution's tiles): finer blocks leave less of the \
                  loop to a thread that started late.\n\n```mlir\nloop.parallel %t = %c0 to %c27 {\n  ...\n  \
                  loop.yield\n} attributes {blocks = 27}\n```",
    operands: Arity::Exactly(2),
    results: Arity::Exactly(0),
    regions: Arity::Exactly(1),
    attrs: &[AttrSpec::optional(
        PARALLEL_BLOCKS,
        AttrKind::Int,
        AttrDefault::Optional,
        "the fewest blocks the iterations are split into (a positive integer)",
    )],
    verify: Some(verify_parallel),
    syntax: Syntax::Custom { parse: parse_parallel, print: print_parallel },
    dialect_data: Some(&LoopOp::Parallel),
    ..OpDef::DEFAULT
};

pub static YIELD: OpDef = OpDef {
    name: "loop.yield",
    summary: "Ends a loop body, producing the next loop-carried values",
    operands: Arity::AtLeast(0),
    results: Arity::Exactly(0),
    traits: Traits::TERMINATOR,
    verify: Some(verify_yield),
    syntax: Syntax::Custom { parse: parse_yield, print: print_yield },
    dialect_data: Some(&LoopOp::Yield),
    ..OpDef::DEFAULT
};

pub static KERNEL: OpDef = OpDef {
    name: "loop.kernel",
    summary: "Profiling marker: kernel `id` starts here (the last id marks the end of the run)",
    description: "Inserted by `convert-graph-to-loop{profile=true}`; code generation turns it into a call to \
                  the runtime's profiler.\n\n```mlir\nloop.kernel {id = 3} : () -> ()\n```",
    results: Arity::Exactly(0),
    attrs: &[AttrSpec::required("id", AttrKind::Int, "the kernel's number")],
    syntax: Syntax::Functional,
    dialect_data: Some(&LoopOp::Kernel),
    ..OpDef::DEFAULT
};

pub static ASSERT: OpDef = OpDef {
    name: "loop.assert",
    summary: "A run-time check: if the condition is false, the model run fails with `message`",
    description: "Execution continues (the result is discarded), so the kernel must stay \
                  memory-safe after a failed check.\n\n```mlir\n\
                  loop.assert %ok {message = \"graph.gather: index out of range\"} : (i1) -> ()\n```",
    operands: Arity::Exactly(1),
    results: Arity::Exactly(0),
    attrs: &[AttrSpec::required("message", AttrKind::String, "what went wrong, with the source op")],
    verify: Some(verify_assert),
    syntax: Syntax::Functional,
    dialect_data: Some(&LoopOp::Assert),
    ..OpDef::DEFAULT
};
