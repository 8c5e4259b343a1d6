//! The rule language's abstract syntax: a rule is a source pattern, a target, guards
//! and a provenance record.
//!
//! ```text
//! (rule transpose-of-transpose
//!   (transpose (transpose ?x :perm ?p) :perm ?q)
//!   => (transpose ?x :perm (compose ?p ?q))
//!   (by hand))
//! ```
//!
//! - A **source pattern** is a value variable `?x` (any value; a second occurrence must
//!   be the same value), or `(op operand... :attr apat...)`, which matches result 0 of
//!   an `op` with exactly that many operands. `(result k P)` matches result `k` of what
//!   `P` matches, `(as ?v P)` also names the matched value. An attribute pattern is a
//!   variable (binds the attribute, its default if absent) or an expression that the
//!   attribute must equal; attributes not named are not constrained.
//! - A **target** is built from the same forms; its attributes are expressions.
//!   Identical target subterms are built once.
//! - Several outputs: `(outputs P1 P2 ...)` on both sides, matched and replaced in order.
//! - **Guards**: `(if E...)`, expressions that must all be true.
//! - **Expressions**: integers, floats, `[e ...]` lists, variables, and calls of the
//!   builtins in [`crate::builtins`].
//! - **Provenance**: `(by hand)` or `(by rulegen :fingerprint "..." :verified "...")`.

use crate::sexpr::Pos;

/// One rule file, parsed.
#[derive(Clone, Debug)]
pub struct RuleFile {
    /// The path as given (used in messages and in generated code's comments).
    pub path: String,
    pub rules: Vec<Rule>,
}

#[derive(Clone, Debug)]
pub struct Rule {
    pub name: String,
    pub pos: Pos,
    /// The source's outputs (one for most rules).
    pub source: Vec<Pattern>,
    pub target: Vec<Pattern>,
    pub guards: Vec<Expr>,
    pub provenance: Provenance,
}

/// A pattern; in targets, attribute patterns are always expressions.
#[derive(Clone, Debug, PartialEq)]
pub enum Pattern {
    Var(String, Pos),
    Op(OpPattern),
    /// `(result k P)`.
    Result(usize, Box<Pattern>, Pos),
    /// `(as ?v P)`.
    As(String, Box<Pattern>, Pos),
}

#[derive(Clone, Debug, PartialEq)]
pub struct OpPattern {
    /// The op's name without the dialect prefix: `transpose`, `broadcast_to`.
    pub op: String,
    pub operands: Vec<Pattern>,
    pub attrs: Vec<(String, Expr)>,
    pub pos: Pos,
}

impl Pattern {
    pub fn pos(&self) -> Pos {
        match self {
            Pattern::Var(_, p) | Pattern::Result(_, _, p) | Pattern::As(_, _, p) => *p,
            Pattern::Op(o) => o.pos,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Int(i64, Pos),
    Float(f64, Pos),
    List(Vec<Expr>, Pos),
    Var(String, Pos),
    Call(String, Vec<Expr>, Pos),
}

impl Expr {
    pub fn pos(&self) -> Pos {
        match self {
            Expr::Int(_, p) | Expr::Float(_, p) | Expr::List(_, p) | Expr::Var(_, p) | Expr::Call(_, _, p) => *p,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Provenance {
    Hand,
    /// Written by `tcc-rulegen`: the fingerprint of the pair and how it was verified.
    Generated {
        fingerprint: String,
        verified: String,
    },
}
