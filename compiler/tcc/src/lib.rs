//! The tcc library facade: the one place that knows every dialect and pass, so tools
//! and embedders get a consistent compiler. Later issues add the pipelines,
//! `Runtime::load` and object emission here.

pub use tcc_dialect_graph as graph;
pub use tcc_ir as ir;

use tcc_ir::{PassRegistry, Registry};

/// A registry with every dialect tcc knows.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    tcc_dialect_graph::register(&mut r);
    tcc_dialect_loop::register(&mut r);
    tcc_dialect_vector::register(&mut r);
    r
}

/// Every pass tcc knows, by pipeline name.
pub fn pass_registry() -> PassRegistry {
    PassRegistry::new()
}
