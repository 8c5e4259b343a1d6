//! Conversions between dialects: TOSA import into the graph dialect, and lowering
//! from the graph dialect to loops and vectors.
//!
//! - [`tosa_to_graph`]: `convert-tosa-to-graph`, TOSA as torch-mlir exports it to
//!   graph ops.
//! - [`widen_half`]: `widen-half`, f16 and bf16 graph ops computed in f32 between casts
//!   (they are storage types).
//! - [`reduce_precision`]: `reduce-precision`, the bf16 policy's numerics: convolution
//!   and matmul operands rounded to bf16 (not in the default pipeline yet).
//! - [`graph_to_loop`]: `convert-graph-to-loop`, bufferization plus a loop nest per
//!   graph op: naive ones ([`emit`]) and, for the kernel ops, register-blocked
//!   templates ([`kernels`]), with a liveness-planned workspace ([`memory_plan`]).
//! - [`expand_math`]: `expand-math`, exp/log/tanh/erf/pow as polynomials, identical
//!   on every backend.
//! - [`vectorize`]: `vectorize`, unit-stride innermost loops to vector code with a
//!   scalar remainder loop, at the target's lane count ([`Target`]).
//! - [`offload_math`]: `offload-math`, vector loops' exp and erf computed in chunks by
//!   the runtime's array math on wider vectors (for Cranelift's narrow ones).
//! - [`expand_half`]: `expand-half`, the f16/bf16 <-> f32 conversions as integer
//!   arithmetic, identical on every backend.

pub mod builder;
pub mod emit;
pub mod expand_half;
pub mod expand_math;
pub mod graph_to_loop;
pub mod kernels;
pub mod memory_plan;
pub mod offload_math;
pub mod reduce_precision;
pub mod tosa_to_graph;
pub mod vectorize;
pub mod widen_half;

pub use graph_to_loop::{convert, entry_function};

use tcc_ir::{Diagnostics, Module, Pass, PassInfo, PassRegistry};

pub static CONVERT_GRAPH_TO_LOOP: PassInfo = PassInfo {
    name: "convert-graph-to-loop",
    summary: "Lower the graph dialect to loop nests over buffers (the module's @main becomes a buffer function)",
    options: &[
        ("profile", "insert loop.kernel markers for the profiler (default false)"),
        ("vector-bits", "SIMD register width the kernel templates use (default 128)"),
    ],
    create: |opts| {
        let target = tcc_target::Target::from_options(|k| opts.get(k))?;
        Ok(Box::new(ConvertGraphToLoop { profile: opts.parse_or("profile", false)?, target }))
    },
};

pub struct ConvertGraphToLoop {
    pub profile: bool,
    pub target: tcc_target::Target,
}

impl Pass for ConvertGraphToLoop {
    fn name(&self) -> &'static str {
        "convert-graph-to-loop"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        *m = convert(m, self.profile, &self.target)?;
        Ok(())
    }
}

/// Registers this crate's passes.
pub fn register_passes(r: &mut PassRegistry) {
    r.register(&CONVERT_GRAPH_TO_LOOP);
    r.register(&expand_half::EXPAND_HALF);
    r.register(&expand_math::EXPAND_MATH);
    r.register(&offload_math::OFFLOAD_MATH);
    r.register(&vectorize::VECTORIZE);
    r.register(&tosa_to_graph::CONVERT_TOSA_TO_GRAPH);
    r.register(&widen_half::WIDEN_HALF);
    r.register(&reduce_precision::REDUCE_PRECISION);
}
