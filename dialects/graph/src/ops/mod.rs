//! Every op of the graph dialect, one static definition each (the contract they
//! implement is `docs/ops.md`), listed by the module that defines it; [`all`] gathers
//! them.

pub mod bodies;
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

/// All graph ops: the contract's (elementwise, neural-network, data movement), then the
/// compiler's kernel ops and fusion groups.
pub fn all() -> Vec<&'static OpDef> {
    [ELEMENTWISE_OPS, NN_OPS, SHAPE_OPS, kernel::KERNEL_OPS, &[&FUSED]].concat()
}
