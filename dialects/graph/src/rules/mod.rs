//! Graph rewrite rules compiled from `dialects/graph/rules/**/*.rules` by the crate's
//! build script (`tcc_rules::compile`).
//!
//! `rules/canonical/` holds rules that always pay, applied greedily by
//! canonicalization (each is a `tcc_ir::Pattern` here, listed in the op's
//! `OpDef::patterns` next to the hand-written Rust patterns); `rules/search/` holds
//! rules only the cost-based search applies. [`RULES`] lists them all, with their
//! provenance; [`rt`] matches and applies them.

pub mod builtins;
pub mod rt;

mod generated {
    #![allow(clippy::all, unused_variables, unused_mut)]
    use super::builtins as rb;
    use super::rt::{self, Binding, Plan, Provenance, RuleDef, Src, Val};
    use crate::ops;
    use tcc_ir::{Module, Op, Pattern, Rewriter};

    include!(concat!(env!("OUT_DIR"), "/rules.rs"));
}

pub use generated::*;

/// The rule called `name`.
pub fn rule(name: &str) -> Option<&'static rt::RuleDef> {
    RULES.iter().find(|r| r.name == name)
}
