//! Graph rewrite rules, from `dialects/graph/rules/**/*.rules`, all run by one engine:
//! the build script checks the files and includes them as text ([`RULE_SOURCES`]),
//! and [`interp`] lowers each rule into a program when it is first needed, which [`matching`]
//! matches and applies.
//!
//! `rules/canonical/` holds rules that always pay, applied greedily by canonicalization
//! (each is a `tcc_ir::Pattern` here, named after the rule and listed in the op's
//! `OpDef::patterns` next to the hand-written Rust patterns); `rules/search/` holds
//! hand-written rules only the cost-based search applies, and `rules/generated/` the
//! generated ones (search rules too). [`canonical_rules`] and [`search_rules`] load each
//! kind once; [`search_index`] indexes the search rules by root op, once; [`all`] lists
//! every rule with its provenance.

pub mod builtins;
pub mod interp;
pub mod matching;

mod generated {
    #![allow(clippy::all)]
    use super::builtins as rb;
    use super::canonical_rules;
    use super::matching::{self, Val};
    use crate::ops;
    use tcc_ir::{Module, Pattern};

    include!(concat!(env!("OUT_DIR"), "/rules.rs"));
}

pub use generated::*;

use std::sync::OnceLock;

/// The rules of the rule files whose `canonical` flag is `canonical`, loaded once per
/// kind.
fn load(canonical: bool) -> Vec<matching::RuleDef> {
    RULE_SOURCES
        .iter()
        .filter(|&&(_, _, c)| c == canonical)
        .flat_map(|&(path, text, c)| {
            interp::load(path, text, c).unwrap_or_else(|e| panic!("the build checked this file: {e}"))
        })
        .collect()
}

/// The canonicalization rules, in the order canonicalization tries them.
pub fn canonical_rules() -> &'static [matching::RuleDef] {
    static RULES: OnceLock<Vec<matching::RuleDef>> = OnceLock::new();
    RULES.get_or_init(|| load(true))
}

/// The rules only the search applies (hand-written ones first, then the generated).
pub fn search_rules() -> &'static [matching::RuleDef] {
    static RULES: OnceLock<Vec<matching::RuleDef>> = OnceLock::new();
    RULES.get_or_init(|| load(false))
}

/// The search rules as their files state them, parsed once: for engines that match
/// rules on other structures than a module (the e-graph of equality saturation).
pub fn search_rule_asts() -> &'static [tcc_rules::ast::Rule] {
    static RULES: OnceLock<Vec<tcc_rules::ast::Rule>> = OnceLock::new();
    RULES.get_or_init(|| {
        RULE_SOURCES
            .iter()
            .filter(|&&(_, _, canonical)| !canonical)
            .flat_map(|&(path, text, _)| {
                tcc_rules::parse::parse_file(path, text)
                    .unwrap_or_else(|e| panic!("the build checked this file: {}", e.message))
                    .rules
            })
            .collect()
    })
}

/// The search rules by root op, built once.
pub fn search_index() -> &'static matching::RuleIndex {
    static INDEX: OnceLock<matching::RuleIndex> = OnceLock::new();
    INDEX.get_or_init(|| matching::RuleIndex::new(search_rules()))
}

/// The search rules with several outputs (the merges of parallel ops) by root op,
/// built once: what equality saturation leaves to the backtracking search.
pub fn multi_output_search_index() -> &'static matching::RuleIndex {
    static INDEX: OnceLock<matching::RuleIndex> = OnceLock::new();
    INDEX.get_or_init(|| matching::RuleIndex::of(search_rules().iter().filter(|r| r.program.roots() > 1)))
}

/// Every rule: the canonicalization rules, then the search rules.
pub fn all() -> impl Iterator<Item = &'static matching::RuleDef> {
    canonical_rules().iter().chain(search_rules())
}

/// The rule called `name`.
pub fn rule(name: &str) -> Option<&'static matching::RuleDef> {
    all().find(|r| r.name == name)
}
