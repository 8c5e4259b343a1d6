//! The verifier: a candidate `source == target` is proved when the axioms entail it,
//! with operators uninterpreted (TASO). The query goes to Z3 as SMT-LIB text (the
//! axioms as quantified equalities over an uninterpreted sort, the inputs as
//! constants, the negated claim); `unsat` proves it. Every query has a timeout, and
//! `unknown` (a timeout, or quantifiers Z3 gave up on) counts as not proved.
//!
//! Z3 is optional (cargo feature `z3`, Debian's `libz3-dev`); without it nothing can
//! be proved, and `tcc-rulegen` says so.

use crate::axioms::{Axiom, Term, smt};

/// What the verifier concluded.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(not(feature = "z3"), allow(dead_code))]
pub enum Verdict {
    Proved,
    /// Why not: a counter-model exists, the solver gave up, or there is no solver.
    NotProved(String),
}

/// Proves equalities of terms under axioms.
pub trait Prover {
    /// Whether `source[i] == target[i]` for every i follows from `axioms`, for all
    /// values of the variables (`vars[i]` names variable i).
    fn prove(&mut self, axioms: &[Axiom], vars: &[String], source: &[Term], target: &[Term]) -> Verdict;
    /// How proofs are made, for provenance records.
    fn name(&self, axioms: usize) -> String;
}

/// The SMT-LIB query (without the prelude) claiming `source != target`.
#[cfg_attr(not(feature = "z3"), allow(dead_code))]
pub fn negated_claim(vars: &[String], source: &[Term], target: &[Term]) -> String {
    let name = |i: usize| format!("in_{}", vars[i]);
    let mut q = String::new();
    for v in vars {
        q += &format!("(declare-const in_{v} T)\n");
    }
    let eqs: Vec<String> =
        source.iter().zip(target).map(|(s, t)| format!("(= {} {})", smt(s, &name), smt(t, &name))).collect();
    q += &format!("(assert (not (and true {})))\n", eqs.join(" "));
    q
}

/// A prover that proves nothing (a build without Z3).
#[cfg(not(feature = "z3"))]
pub struct NoProver;

#[cfg(not(feature = "z3"))]
impl Prover for NoProver {
    fn prove(&mut self, _: &[Axiom], _: &[String], _: &[Term], _: &[Term]) -> Verdict {
        Verdict::NotProved("tcc-rulegen was built without Z3 (cargo feature `z3`)".into())
    }
    fn name(&self, _: usize) -> String {
        "nothing".into()
    }
}

#[cfg(feature = "z3")]
pub use z3_prover::Z3Prover;

#[cfg(feature = "z3")]
mod z3_prover {
    use super::*;
    use crate::axioms::smt_prelude;

    /// Z3 through its C API (`z3` crate on the system's libz3).
    pub struct Z3Prover {
        /// Milliseconds per query.
        pub timeout_ms: u32,
    }

    impl Prover for Z3Prover {
        fn prove(&mut self, axioms: &[Axiom], vars: &[String], source: &[Term], target: &[Term]) -> Verdict {
            let query = format!("{}{}", smt_prelude(axioms), negated_claim(vars, source, target));
            // A fresh context per query: Z3's search depends on what a context saw
            // before (a claim one context proves in 50 ms another cannot in a minute),
            // and a rule must prove again the same way when `verify` re-proves it.
            z3::with_z3_config(&z3::Config::new(), || {
                let solver = z3::Solver::new();
                let mut params = z3::Params::new();
                params.set_u32("timeout", self.timeout_ms);
                solver.set_params(&params);
                solver.from_string(query.as_str());
                match solver.check() {
                    z3::SatResult::Unsat => Verdict::Proved,
                    z3::SatResult::Sat => Verdict::NotProved("a counter-model exists".into()),
                    z3::SatResult::Unknown => {
                        Verdict::NotProved(format!("unknown: {}", solver.get_reason_unknown().unwrap_or_default()))
                    }
                }
            })
        }
        fn name(&self, axioms: usize) -> String {
            format!("z3 {}, {axioms} axioms", z3::full_version())
        }
    }
}

#[cfg(all(test, feature = "z3"))]
mod tests {
    use super::*;
    use crate::axioms::{AXIOMS, parse_axioms};

    fn terms(text: &str) -> (Vec<String>, Term, Term) {
        let a = parse_axioms(text).unwrap().remove(0);
        let vars: Vec<String> = (0..a.vars).map(|i| format!("x{i}")).collect();
        (vars, a.left, a.right)
    }

    #[test]
    fn z3_proves_consequences_of_the_axioms_and_rejects_a_planted_wrong_rule() {
        let axioms = parse_axioms(AXIOMS).unwrap();
        let mut z3 = Z3Prover { timeout_ms: 3_000 };
        // Distributivity from the left, through commutativity-free axioms.
        let (vars, l, r) = terms("(add (matmul a b) (matmul a c)) = (matmul a (add b c))");
        assert_eq!(z3.prove(&axioms, &vars, &[l], &[r]), Verdict::Proved);
        // Merging two matmuls that share their left operand.
        let (vars, l, r) = terms("(matmul a b) = (split1_0 (matmul a (concat1 b c)))");
        assert_eq!(z3.prove(&axioms, &vars, &[l], &[r]), Verdict::Proved);
        // Wrong: ReLU does not distribute over addition.
        let (vars, l, r) = terms("(relu (add a b)) = (add (relu a) (relu b))");
        assert!(matches!(z3.prove(&axioms, &vars, &[l], &[r]), Verdict::NotProved(_)));
        // Wrong: matmul does not commute.
        let (vars, l, r) = terms("(matmul a b) = (matmul b a)");
        assert!(matches!(z3.prove(&axioms, &vars, &[l], &[r]), Verdict::NotProved(_)));
    }
}
