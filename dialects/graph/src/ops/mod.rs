//! Every op of the graph dialect, one static definition each (see
//! `shared/GRAPH_DIALECT.md` for the contract they implement).

pub mod elementwise;
pub mod fused;
pub mod kernel;
pub mod nn;
pub mod shape;

pub use elementwise::*;
pub use fused::FUSED;
pub use kernel::{AVG_POOL2D_NCHWC, BATCH_MATMUL, CONV2D_NCHWC, MATMUL_PACKED, MAX_POOL2D_NCHWC, YIELD};
pub use nn::*;
pub use shape::*;

use tcc_ir::OpDef;

/// All graph ops: the contract's table in its order, then the compiler's kernel ops.
pub static ALL: &[&OpDef] = &[
    &CONSTANT,
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
    &MATMUL,
    &CONV2D,
    &MAX_POOL2D,
    &AVG_POOL2D,
    &REDUCE_SUM,
    &REDUCE_MEAN,
    &REDUCE_MAX,
    &REDUCE_MIN,
    &SOFTMAX,
    &RESHAPE,
    &TRANSPOSE,
    &BROADCAST_TO,
    &CONCAT,
    &SPLIT,
    &SLICE,
    &PAD,
    &GATHER,
    &LAYOUT_TRANSFORM,
    &YIELD,
    &CONV2D_NCHWC,
    &MAX_POOL2D_NCHWC,
    &AVG_POOL2D_NCHWC,
    &MATMUL_PACKED,
    &BATCH_MATMUL,
    &FUSED,
];
