//! The `graph` dialect: tcc's top-level IR, whole tensors with value semantics.
//!
//! This crate is the public contract of the graph dialect (`docs/ops.md`) made executable:
//! every op is one static [`OpDef`] (in [`ops`]) carrying its attributes, traits,
//! shape inference, verifier, pretty syntax, canonicalization patterns and — through
//! [`GraphSemantics`] — its reference semantics and layout class. The [`interp`]
//! module evaluates any graph function on concrete tensors and is the correctness
//! oracle for everything downstream; [`canonical`] holds the canonicalization patterns
//! (constant folding through the interpreter, transpose/reshape composition, identity
//! removal).

pub mod canonical;
pub mod config;
pub mod cost;
pub mod epilogue;
pub mod infer;
pub mod interp;
pub mod layout;
pub mod ops;
pub mod rules;

use tcc_ir::scalar::{ScalarBuilder, ScalarFn};
use tcc_ir::{Module, Op, OpDef, Registry, ScalarType, Signature, Value};

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

/// What the graph dialect attaches to each op's definition: what the op is (its kind,
/// which the lowering matches on), how it relates to layouts, and its reference
/// semantics.
pub struct GraphSemantics {
    pub kind: GraphOp,
    pub layout: LayoutClass,
    /// The reference semantics used by the interpreter and constant folding.
    pub eval: interp::EvalFn,
    /// For ops that carry a fused epilogue (a region of elementwise ops applied to the
    /// result before it is stored): operands from this index on are the epilogue's extra
    /// inputs, and `eval` sees only the ones before it.
    pub epilogue_from: Option<usize>,
}

impl GraphSemantics {
    pub const fn new(kind: GraphOp, layout: LayoutClass, eval: interp::EvalFn) -> GraphSemantics {
        GraphSemantics { kind, layout, eval, epilogue_from: None }
    }

    /// An op whose operands from `from` on feed its epilogue region.
    pub const fn with_epilogue(
        kind: GraphOp,
        layout: LayoutClass,
        eval: interp::EvalFn,
        from: usize,
    ) -> GraphSemantics {
        GraphSemantics { kind, layout, eval, epilogue_from: Some(from) }
    }
}

/// The kind of a graph op, as the lowering distinguishes them: elementwise ops by what
/// they compute per element, the others one by one.
#[derive(Copy, Clone, Debug)]
pub enum GraphOp {
    Constant,
    Elementwise(Elementwise),
    Matmul,
    Conv2d,
    Pool2d(Pool),
    Resize,
    Reduce(Reduce),
    ArgMax,
    Softmax,
    Reshape,
    Transpose,
    BroadcastTo,
    Concat,
    Split,
    Slice,
    Pad,
    Gather,
    Scatter,
    LayoutTransform,
    Conv2dNchwc,
    Pool2dNchwc(Pool),
    MatmulPacked,
    BatchMatmul,
    Fused,
}

/// What an elementwise op computes for one element, and what that costs.
#[derive(Copy, Clone, Debug)]
pub struct Elementwise {
    pub body: ScalarBody,
    pub cost: Cost,
}

/// The scalar computation of an elementwise op: from the loaded operand values
/// (scalars, or for float ops vectors of one width, as in kernel epilogues) to the
/// result value, built with any [`ScalarBuilder`].
pub type ScalarBody = fn(&mut dyn ScalarBuilder, &BodyContext, &[Value]) -> Value;

/// What a scalar body may read of its op besides the operand values.
pub struct BodyContext<'a> {
    /// The op's operand types and attributes (with their defaults).
    pub sig: Signature<'a>,
    /// The result's element type.
    pub result: ScalarType,
    /// `'graph.x' at file:line:col`, for the messages of run-time checks.
    pub location: &'a str,
}

impl BodyContext<'_> {
    /// A verified float attribute (or its default).
    pub fn float(&self, name: &str) -> f64 {
        self.sig.float(name).expect("verified attribute")
    }
    /// A verified string attribute (or its default).
    pub fn string(&self, name: &str) -> String {
        self.sig.string(name).expect("verified attribute")
    }
}

/// How costly an elementwise op is per element.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cost {
    /// A few instructions.
    Cheap,
    /// A division or square root: worth keeping rather than recomputing.
    Costly,
    /// A transcendental function (exp, log, tanh, erf, ...): a polynomial in f32, a
    /// runtime call in f64.
    Transcendental,
}

impl Cost {
    /// Whether a fusion group keeps this op's results rather than computing them twice.
    pub fn avoid_recomputing(self) -> bool {
        self != Cost::Cheap
    }
}

/// The pooling ops.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pool {
    Max,
    Avg,
}

/// The reductions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reduce {
    Sum,
    Mean,
    Max,
    Min,
    Prod,
}

impl Reduce {
    /// The function that combines a partial result with the next element.
    pub fn combine(self) -> ScalarFn {
        match self {
            Reduce::Sum | Reduce::Mean => ScalarFn::Add,
            Reduce::Max => ScalarFn::Max,
            Reduce::Min => ScalarFn::Min,
            Reduce::Prod => ScalarFn::Mul,
        }
    }
}

/// The kind of a graph op definition (`None` for other dialects' ops and `graph.yield`).
pub fn kind(def: &OpDef) -> Option<GraphOp> {
    semantics(def).map(|s| s.kind)
}

/// The kind of `op`, if it is a graph op.
pub fn kind_of(m: &Module, op: Op) -> Option<GraphOp> {
    kind(m.def(op))
}

/// What elementwise op `def` computes, if it is one.
pub fn elementwise(def: &OpDef) -> Option<Elementwise> {
    match kind(def)? {
        GraphOp::Elementwise(e) => Some(e),
        _ => None,
    }
}

/// The graph semantics of an op kind, if it is a graph op.
pub fn semantics(def: &OpDef) -> Option<&'static GraphSemantics> {
    def.data::<GraphSemantics>()
}

/// Adds the graph ops to a registry.
pub fn register(registry: &mut Registry) {
    registry.register_all(&ops::all());
    registry.set_reference("graph", "docs/ops.md", false);
}

/// A registry with the builtin and graph ops.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    register(&mut r);
    r
}
