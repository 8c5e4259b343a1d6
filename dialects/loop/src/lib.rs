//! The `loop` dialect: explicit loops over buffers, between the graph dialect and the
//! vector dialect.
//!
//! A graph function lowers to a `func.func` whose arguments are buffers (the model's
//! inputs, then its outputs) and whose body is loop nests ([`control`]) of loads,
//! stores ([`memory`]), arithmetic ([`arith`]: one `loop.<name>` op per
//! [`ScalarFn`]) and calls of the runtime's microkernels ([`microkernel`]). Every op
//! here prints, parses and verifies like any other, so each
//! lowering step is testable on its own. [`LoopOp`] names each op kind, so that code
//! generation matches on it exhaustively; [`abi`] holds the attributes through which
//! a lowered `@main` tells code generation its inputs, workspace and kernels.

pub mod abi;
pub mod arith;
pub mod control;
pub mod memory;
pub mod microkernel;

pub use arith::*;
pub use control::*;
pub use memory::*;
pub use microkernel::{ADDRESS, ARRAY_MATH, COLUMN_SUMS, MICROKERNEL};

use tcc_ir::scalar::ScalarFn;
use tcc_ir::{Module, Op, OpDef, Registry};

/// The kind of a loop-dialect op, carried on its definition.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LoopOp {
    Const,
    /// `loop.<name>`: a scalar function on scalars or vectors.
    Arith(ScalarFn),
    Compare,
    Select,
    Cast,
    Bitcast,
    Workspace,
    ConstantBuffer,
    View,
    Load,
    Store,
    Prefetch,
    For,
    Parallel,
    Yield,
    Assert,
    Kernel,
    Address,
    Microkernel,
    ArrayMath,
    ColumnSums,
}

/// The kind of a loop-dialect op definition; `None` for ops of other dialects.
pub fn op_kind(def: &OpDef) -> Option<LoopOp> {
    def.data::<LoopOp>().copied()
}

/// The kind of `op`, if it is a loop-dialect op.
pub fn kind_of(m: &Module, op: Op) -> Option<LoopOp> {
    op_kind(m.def(op))
}

/// The ops of the dialect other than the arithmetic ones ([`arith::arith_ops`]).
static STRUCTURAL: &[&OpDef] = &[
    &CONST,
    &CMP,
    &SELECT,
    &CAST,
    &BITCAST,
    &WORKSPACE,
    &CONSTANT_BUFFER,
    &VIEW,
    &LOAD,
    &STORE,
    &PREFETCH,
    &FOR,
    &PARALLEL,
    &YIELD,
    &ASSERT,
    &KERNEL,
    &ADDRESS,
    &MICROKERNEL,
    &ARRAY_MATH,
    &COLUMN_SUMS,
];

/// Every op of the loop dialect.
pub fn all() -> Vec<&'static OpDef> {
    let mut ops: Vec<&'static OpDef> = vec![&CONST];
    ops.extend(arith_ops());
    ops.extend(STRUCTURAL.iter().skip(1).copied());
    ops
}

pub fn register(registry: &mut Registry) {
    registry.register_all(&all());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_op_knows_its_kind() {
        for def in all() {
            let kind = op_kind(def).unwrap_or_else(|| panic!("{} has no kind", def.name));
            if let LoopOp::Arith(f) = kind {
                assert_eq!(def.name, format!("loop.{}", f.name()));
                assert!(std::ptr::eq(arith(f), def));
            }
        }
        assert_eq!(all().len(), STRUCTURAL.len() + ScalarFn::COUNT);
    }
}
