//! Graphs and rule patterns as verifier terms: what a candidate claims, as an
//! equality of terms over the uninterpreted operators of [`crate::axioms`].
//!
//! A rule's patterns are read back from the rule language (not from the generator's
//! graphs), so `tcc-rulegen verify` proves what is checked in.

use tcc_rules::ast::{Expr, Pattern, Rule};

use crate::axioms::{Term, operator};
use crate::enumerate::{Graph, World};

/// The terms of `g`'s outputs over the world's inputs (variable i = input i).
pub fn graph_terms(world: &World, g: &Graph) -> Vec<Term> {
    fn value(world: &World, g: &Graph, v: usize) -> Term {
        let n_in = world.inputs.len();
        if v < n_in {
            return Term::Var(v);
        }
        let node = &g.nodes[v - n_in];
        Term::App(operator(node.op), node.args.iter().map(|&a| value(world, g, a)).collect())
    }
    g.outputs.iter().map(|&o| value(world, g, o)).collect()
}

/// The scalar variables of a rule: those its guards give rank 0.
fn scalars(rule: &Rule) -> Vec<String> {
    rule.guards
        .iter()
        .filter_map(|g| match g {
            Expr::Call(eq, args, _) if eq == "=" => match (&args[0], &args[1]) {
                (Expr::Call(rank, v, _), Expr::Int(0, _)) if rank == "rank" => match &v[0] {
                    Expr::Var(name, _) => Some(name.clone()),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        })
        .collect()
}

fn attr_int(attrs: &[(String, Expr)], name: &str) -> Option<i64> {
    attrs.iter().find(|(n, _)| n == name).and_then(|(_, e)| if let Expr::Int(v, _) = e { Some(*v) } else { None })
}

/// The term of a rule pattern; variables are numbered in `vars`.
pub fn pattern_term(p: &Pattern, rule: &Rule, vars: &mut Vec<String>) -> Result<Term, String> {
    let err = |what: &str| format!("rule `{}`: {what} has no verifier operator", rule.name);
    Ok(match p {
        Pattern::Var(name, _) => {
            let i = vars.iter().position(|v| v == name).unwrap_or_else(|| {
                vars.push(name.clone());
                vars.len() - 1
            });
            Term::Var(i)
        }
        Pattern::As(_, inner, _) => pattern_term(inner, rule, vars)?,
        Pattern::Result(part, inner, _) => {
            let Pattern::Op(o) = inner.as_ref() else { return Err(err("a result of a non-op")) };
            let axis = attr_int(&o.attrs, "axis").ok_or_else(|| err("a split without a constant axis"))?;
            if o.op != "split" || o.operands.len() != 1 || axis > 1 || *part > 1 {
                return Err(err(&format!("`(result {part} ({} ...))`", o.op)));
            }
            let x = pattern_term(&o.operands[0], rule, vars)?;
            let op: &'static str = ["split0_0", "split0_1", "split1_0", "split1_1"][axis as usize * 2 + part];
            Term::App(op, vec![x])
        }
        Pattern::Op(o) => {
            let args: Vec<Term> = o.operands.iter().map(|x| pattern_term(x, rule, vars)).collect::<Result<_, _>>()?;
            let scalar = |p: &Pattern| matches!(p, Pattern::Var(n, _) if scalars(rule).contains(n));
            let op: &'static str = match (o.op.as_str(), args.len()) {
                ("matmul", 2) => "matmul",
                ("add", 2) => "add",
                ("mul", 2) if scalar(&o.operands[1]) => "scale",
                ("mul", 2) => "mul",
                ("relu", 1) => "relu",
                ("transpose", 1) => "transpose",
                ("concat", 2) => match attr_int(&o.attrs, "axis") {
                    Some(0) => "concat0",
                    Some(1) => "concat1",
                    _ => return Err(err("a concat along another axis")),
                },
                ("conv2d", 2) => "conv",
                ("pad", 1) => "enlarge",
                (other, _) => return Err(err(&format!("`{other}`"))),
            };
            Term::App(op, args)
        }
    })
}
