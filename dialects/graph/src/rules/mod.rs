//! Graph rewrite rules, from `dialects/graph/rules/**/*.rules`.
//!
//! `rules/canonical/` holds rules that always pay, applied greedily by
//! canonicalization (each is a `tcc_ir::Pattern` here, listed in the op's
//! `OpDef::patterns` next to the hand-written Rust patterns); `rules/search/` holds
//! hand-written rules only the cost-based search applies. The build script compiles
//! both into Rust matchers ([`COMPILED_RULES`], `tcc_rules::compile`). The generated
//! rules of `rules/generated/` are search rules too, but too many to compile: they are
//! interpreted ([`interp`]). [`all`] lists every rule, with its provenance; [`rt`]
//! matches and applies them.

pub mod builtins;
pub mod interp;
pub mod rt;

mod generated {
    #![allow(clippy::all, unused_variables, unused_mut)]
    use super::builtins as rb;
    use super::rt::{self, Binding, Body, Plan, Provenance, RuleDef, Src, Val};
    use crate::ops;
    use std::borrow::Cow;
    use tcc_ir::{Module, Op, Pattern, Rewriter};

    include!(concat!(env!("OUT_DIR"), "/rules.rs"));
}

pub use generated::*;

/// Every rule: the compiled ones (canonicalization rules first), then the interpreted.
pub fn all() -> &'static [&'static rt::RuleDef] {
    static ALL: std::sync::OnceLock<Vec<&'static rt::RuleDef>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| COMPILED_RULES.iter().chain(interp::generated()).collect())
}

/// The rule called `name`.
pub fn rule(name: &str) -> Option<&'static rt::RuleDef> {
    all().iter().copied().find(|r| r.name == name)
}
