//! The `loop` dialect: explicit loops over buffers, between the graph dialect and the
//! vector dialect.
//!
//! A graph function lowers to a `func.func` whose arguments are buffers (the model's
//! inputs, then its outputs) and whose body is loop nests ([`control`]) of loads,
//! stores ([`memory`]) and arithmetic ([`arith`]). Every op here prints, parses and
//! verifies like any other, so each lowering step is testable on its own.

pub mod arith;
pub mod control;
pub mod memory;

pub use arith::*;
pub use control::*;
pub use memory::*;

use tcc_ir::{OpDef, Registry};

/// Every op of the loop dialect.
pub static ALL: &[&OpDef] = &[
    &CONST,
    &ADD,
    &SUB,
    &MUL,
    &DIV,
    &REM,
    &MIN,
    &MAX,
    &AND,
    &OR,
    &XOR,
    &SHL,
    &SHR,
    &NEG,
    &ABS,
    &FMA,
    &SQRT,
    &RSQRT,
    &FLOOR,
    &CEIL,
    &ROUND,
    &EXP,
    &LOG,
    &TANH,
    &ERF,
    &POW,
    &LDEXP,
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
];

pub fn register(registry: &mut Registry) {
    registry.register_all(ALL);
}
