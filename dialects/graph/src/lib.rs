//! The `graph` dialect: tcc's top-level IR, whole tensors with value semantics.
//!
//! This crate is the public contract of `shared/GRAPH_DIALECT.md` made executable:
//! every op is one static [`OpDef`] (in [`ops`]) carrying its attributes, traits,
//! shape inference, verifier, pretty syntax, canonicalization patterns and — through
//! [`GraphSemantics`] — its reference semantics and layout class. The [`interp`]
//! module evaluates any graph function on concrete tensors and is the correctness
//! oracle for everything downstream; [`canonical`] holds the canonicalization patterns
//! (constant folding through the interpreter, transpose/reshape composition, identity
//! removal).

pub mod canonical;
pub mod cost;
pub mod infer;
pub mod interp;
pub mod layout;
pub mod ops;
pub mod rules;

use tcc_ir::{OpDef, Registry};

pub use interp::tensor::{Data, Tensor};
pub use interp::{eval_op, run_function};

/// How an op relates to data layouts (NeoCPU's classes).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LayoutClass {
    /// Works in any layout (elementwise ops).
    Oblivious,
    /// Must know the layout but can work in blocked ones (conv, pool, concat).
    Tolerant,
    /// Needs the plain layout (reshape, softmax over channels, ...).
    Dependent,
}

/// What the graph dialect attaches to each op's definition.
pub struct GraphSemantics {
    pub layout: LayoutClass,
    /// The reference semantics used by the interpreter and constant folding.
    pub eval: interp::EvalFn,
    /// For ops that carry a fused epilogue (a region of elementwise ops applied to the
    /// result before it is stored): operands from this index on are the epilogue's extra
    /// inputs, and `eval` sees only the ones before it.
    pub epilogue_from: Option<usize>,
}

impl GraphSemantics {
    pub const fn new(layout: LayoutClass, eval: interp::EvalFn) -> GraphSemantics {
        GraphSemantics { layout, eval, epilogue_from: None }
    }

    /// An op whose operands from `from` on feed its epilogue region.
    pub const fn with_epilogue(layout: LayoutClass, eval: interp::EvalFn, from: usize) -> GraphSemantics {
        GraphSemantics { layout, eval, epilogue_from: Some(from) }
    }
}

/// The graph semantics of an op kind, if it is a graph op.
pub fn semantics(def: &OpDef) -> Option<&'static GraphSemantics> {
    let data: &dyn std::any::Any = def.dialect_data?;
    data.downcast_ref::<GraphSemantics>()
}

/// Adds the graph ops to a registry.
pub fn register(registry: &mut Registry) {
    registry.register_all(ops::ALL);
}

/// A registry with the builtin and graph ops.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    register(&mut r);
    r
}
