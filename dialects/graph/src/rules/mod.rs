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

/// The rule files whose `canonical` flag is `canonical`, parsed once per kind: each
/// file's path and rules.
fn parsed(canonical: bool) -> &'static [(&'static str, Vec<tcc_rules::ast::Rule>)] {
    static FILES: [OnceLock<Vec<(&'static str, Vec<tcc_rules::ast::Rule>)>>; 2] = [OnceLock::new(), OnceLock::new()];
    FILES[canonical as usize].get_or_init(|| {
        RULE_SOURCES
            .iter()
            .filter(|&&(_, _, c)| c == canonical)
            .map(|&(path, text, _)| {
                let file = tcc_rules::parse::parse_file(path, text)
                    .unwrap_or_else(|e| panic!("the build checked this file: {}", e.message));
                (path, file.rules)
            })
            .collect()
    })
}

/// The rules of the rule files whose `canonical` flag is `canonical`, lowered.
fn load(canonical: bool) -> Vec<matching::RuleDef> {
    parsed(canonical)
        .iter()
        .flat_map(|(path, rules)| {
            interp::lower_all(path, rules, canonical).unwrap_or_else(|e| panic!("the build checked this file: {e}"))
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
    RULES.get_or_init(|| parsed(false).iter().flat_map(|(_, rules)| rules.iter().cloned()).collect())
}

/// The search rules the backtracking search applies, by root op, built once: all but
/// those whose target computes more matmuls or convolutions than their source (`(a +
/// b) @ c` distributed into two matmuls). Such a step costs much more at once; the
/// backtracking search never keeps it, but builds and costs it at every match, every
/// expansion (on ViT-B/16, 15,360 such candidates filled its 10 s). Equality saturation
/// still applies them, as steps to something cheaper.
pub fn search_index() -> &'static matching::RuleIndex {
    static INDEX: OnceLock<matching::RuleIndex> = OnceLock::new();
    INDEX.get_or_init(|| {
        let heavier: std::collections::HashSet<&str> = parsed(false)
            .iter()
            .flat_map(|(_, rules)| rules)
            .filter(|r| heavy_ops(&r.target) > heavy_ops(&r.source))
            .map(|r| r.name.as_str())
            .collect();
        matching::RuleIndex::of(search_rules().iter().filter(|r| !heavier.contains(&*r.name)))
    })
}

/// The distinct matmuls and convolutions patterns compute (a subterm two outputs share
/// is built once).
fn heavy_ops(patterns: &[tcc_rules::ast::Pattern]) -> usize {
    use tcc_rules::ast::Pattern;
    fn walk(p: &Pattern, out: &mut std::collections::HashSet<String>) {
        match p {
            Pattern::Var(..) => {}
            Pattern::As(_, inner, _) | Pattern::Result(_, inner, _) => walk(inner, out),
            Pattern::Op(o) => {
                if o.op == "matmul" || o.op == "conv2d" {
                    out.insert(tcc_rules::tables::render_target(p));
                }
                o.operands.iter().for_each(|x| walk(x, out));
            }
        }
    }
    let mut out = std::collections::HashSet::new();
    patterns.iter().for_each(|p| walk(p, &mut out));
    out.len()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn sides(text: &str) -> (usize, usize) {
        let r = tcc_rules::parse::parse_file("t", text).unwrap().rules.remove(0);
        (heavy_ops(&r.source), heavy_ops(&r.target))
    }

    #[test]
    fn rules_adding_matmuls_are_left_to_equality_saturation() {
        // Distributing a matmul over a sum: one matmul becomes two.
        assert_eq!(sides("(rule d (matmul (add ?a ?b) ?c) => (add (matmul ?a ?c) (matmul ?b ?c)) (by hand))"), (1, 2));
        // A merge: two matmuls become one, built once for both outputs.
        let merge = "(rule m (outputs (matmul ?x ?a) (matmul ?x ?b))
            => (outputs (result 0 (split (matmul ?x (concat ?a ?b :axis 1)) :axis 1 :sizes [1 1]))
                        (result 1 (split (matmul ?x (concat ?a ?b :axis 1)) :axis 1 :sizes [1 1])))
            (by hand))";
        assert_eq!(sides(merge), (2, 1));
        let index = search_index();
        let all = matching::RuleIndex::new(search_rules());
        // `(x + y) @ w`: the full set offers the distribution, the search's index does not.
        let text = "func.func @f(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %w: tensor<3x4xf32>) -> tensor<2x4xf32> {
          %0 = graph.add %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
          %1 = graph.matmul %0, %w : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
          return %1 : tensor<2x4xf32>
        }";
        let m = tcc_ir::parse_bytes("t.mlir", text.as_bytes(), &crate::registry()).unwrap_or_else(|d| panic!("{d}"));
        let names =
            |ix: &matching::RuleIndex| ix.find_all(&m).into_iter().map(|(r, _)| r.name.to_string()).collect::<Vec<_>>();
        assert!(!names(&all).is_empty(), "some rule distributes the matmul");
        assert!(names(index).is_empty(), "{:?}", names(index));
    }
}
