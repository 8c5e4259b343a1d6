//! Graphs and rule patterns as verifier terms: what a candidate claims, as an
//! equality of terms over the uninterpreted operators of [`crate::axioms`].
//!
//! A rule's patterns are read back from the rule language (not from the generator's
//! graphs), so `tcc-rulegen verify` proves what is checked in.

use tcc::rules::ast::{Expr, Pattern, Rule};

use crate::axioms::{Term, constant_operator, op_term};
use crate::emit::{AVG_POOL, ENLARGE, MAX_POOL, conv_attrs};
use crate::enumerate::{Graph, World};
use crate::spec::Op;
use crate::validate::Fixed;

/// The terms of `g`'s outputs over the world's inputs (variable i = input i).
pub fn graph_terms(world: &World, g: &Graph) -> Vec<Term> {
    fn value(world: &World, g: &Graph, v: usize) -> Term {
        let n_in = world.inputs.len();
        if v < n_in {
            return match constant_operator(world.inputs[v].fill) {
                Some(c) => Term::App(c, Vec::new()),
                None => Term::Var(v),
            };
        }
        let node = &g.nodes[v - n_in];
        op_term(node.op, node.args.iter().map(|&a| value(world, g, a)).collect())
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

/// Whether a guard of `rule` calls `f` on `?var`, with further arguments `rest` accepts:
/// how generated rules say a variable is a constant.
fn guarded(rule: &Rule, f: &str, var: &str, rest: impl Fn(&[Expr]) -> bool) -> bool {
    rule.guards.iter().any(|g| match g {
        Expr::Call(name, args, _) => {
            name == f && matches!(args.first(), Some(Expr::Var(v, _)) if v == var) && rest(&args[1..])
        }
        _ => false,
    })
}

/// What `rule`'s guards fix about the leaves of its terms (`vars[i]` names variable i;
/// a constant is the variable its guard names): `(= (rank ?v) R)`, `(= (dim ?v K) N)`,
/// and a batched rule's matrices: `(>= (rank ?v) 2)`, `(= (rank ?v) (rank ?w))`.
pub fn rule_fixed<'a>(rule: &'a Rule, vars: &'a [String]) -> impl Fn(&Term) -> Fixed + 'a {
    move |leaf: &Term| {
        let name = match leaf {
            Term::Var(i) => Some(vars[*i].as_str()),
            Term::App(c, _) => rule.guards.iter().find_map(|g| match g {
                Expr::Call(f, args, _) if (f == "is-identity" && *c == "imm") || (f == "splat" && *c == "ones") => {
                    match args.first() {
                        Some(Expr::Var(v, _)) => Some(v.as_str()),
                        _ => None,
                    }
                }
                _ => None,
            }),
        };
        let mut out = Fixed::default();
        let Some(name) = name else { return out };
        let is_rank_of = |e: &Expr, v: Option<&str>| match e {
            Expr::Call(f, fa, _) if f == "rank" => match (fa.first(), v) {
                (Some(Expr::Var(x, _)), Some(v)) => x == v,
                (Some(Expr::Var(..)), None) => true,
                _ => false,
            },
            _ => false,
        };
        for g in &rule.guards {
            let Expr::Call(cmp, args, _) = g else { continue };
            let batched = match (cmp.as_str(), args.first(), args.get(1)) {
                (">=", Some(r), Some(Expr::Int(2, _))) => is_rank_of(r, Some(name)),
                ("=", Some(r), Some(other)) => is_rank_of(r, Some(name)) && is_rank_of(other, None),
                _ => false,
            };
            if batched {
                out.batched = true;
            }
        }
        for g in &rule.guards {
            let Expr::Call(eq, args, _) = g else { continue };
            let (Some(Expr::Call(f, fa, _)), Some(Expr::Int(n, _))) = (args.first(), args.get(1)) else { continue };
            if eq != "=" || !matches!(fa.first(), Some(Expr::Var(v, _)) if v == name) {
                continue;
            }
            match (f.as_str(), fa.get(1)) {
                ("rank", None) => out.rank = Some(*n as usize),
                ("dim", Some(Expr::Int(axis, _))) => out.dims.push((*axis as usize, *n as usize)),
                _ => {}
            }
        }
        out
    }
}

/// Attributes as rule text: `:name value ...` (integers and lists of them).
fn attrs_text(attrs: &[(String, Expr)]) -> String {
    fn expr(e: &Expr) -> String {
        match e {
            Expr::Int(v, _) => v.to_string(),
            Expr::List(items, _) => format!("[{}]", items.iter().map(expr).collect::<Vec<_>>().join(" ")),
            _ => "?".into(),
        }
    }
    attrs.iter().map(|(n, e)| format!(":{n} {}", expr(e))).collect::<Vec<_>>().join(" ")
}

fn attr<'a>(attrs: &'a [(String, Expr)], name: &str) -> Option<&'a Expr> {
    attrs.iter().find(|(n, _)| n == name).map(|(_, e)| e)
}

/// `(rank ?v)`.
fn is_rank(e: &Expr) -> bool {
    matches!(e, Expr::Call(f, a, _) if f == "rank" && matches!(a[..], [Expr::Var(..)]))
}

/// The matrix axis (0 rows, 1 columns) an `:axis` attribute names: `0` or `1`, or in a
/// batched rule `(- (rank ?v) 2)` or `(- (rank ?v) 1)`.
fn matrix_axis(attrs: &[(String, Expr)]) -> Option<usize> {
    match attr(attrs, "axis")? {
        Expr::Int(k @ 0..=1, _) => Some(*k as usize),
        Expr::Call(minus, a, _) if minus == "-" => match &a[..] {
            [r, Expr::Int(k @ 1..=2, _)] if is_rank(r) => Some(2 - *k as usize),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a `:perm` attribute swaps a matrix's two axes: `[1 0]`, or in a batched rule
/// `(swap-last-two (rank ?v))`.
fn swaps_matrix_axes(attrs: &[(String, Expr)]) -> bool {
    match attr(attrs, "perm") {
        Some(Expr::List(items, _)) => matches!(items[..], [Expr::Int(1, _), Expr::Int(0, _)]),
        Some(Expr::Call(f, a, _)) => f == "swap-last-two" && matches!(&a[..], [r] if is_rank(r)),
        _ => false,
    }
}

/// The (square) kernel size of a filter pattern, its last two extents: a variable's from
/// its guards (`(= (dim ?w 2) K)` and `(= (dim ?w 3) K)`), an enlarged 1x1 filter's 3, a
/// concatenation's, sum's or split part's that of its operands (which agree), and as
/// the generator's ops change extents when a filter is computed like an image ("same"
/// convolutions and max pools keep them, average pools take 2 off); `None` if the rule
/// does not fix it.
fn kernel_size(p: &Pattern, rule: &Rule) -> Option<i64> {
    match p {
        Pattern::Var(name, _) => {
            let dim = |axis: i64| {
                rule.guards.iter().find_map(|g| match g {
                    Expr::Call(eq, args, _) if eq == "=" => match (&args[0], &args[1]) {
                        (Expr::Call(f, fa, _), Expr::Int(n, _))
                            if f == "dim"
                                && matches!(&fa[..], [Expr::Var(v, _), Expr::Int(k, _)] if v == name && *k == axis) =>
                        {
                            Some(*n)
                        }
                        _ => None,
                    },
                    _ => None,
                })
            };
            let (h, w) = (dim(2)?, dim(3)?);
            (h == w).then_some(h)
        }
        Pattern::As(_, inner, _) | Pattern::Result(_, inner, _) => kernel_size(inner, rule),
        Pattern::Op(o) if matches!(o.op.as_str(), "conv2d" | "relu" | "max_pool2d" | "split") => {
            kernel_size(&o.operands[0], rule)
        }
        Pattern::Op(o) if o.op == "avg_pool2d" => kernel_size(&o.operands[0], rule).map(|k| k - 2),
        Pattern::Op(o) if o.op == "pad" && attrs_text(&o.attrs) == ENLARGE => {
            (kernel_size(&o.operands[0], rule)? == 1).then_some(3)
        }
        Pattern::Op(o) if o.op == "concat" || o.op == "add" => {
            let sizes: Vec<i64> = o.operands.iter().map(|x| kernel_size(x, rule)).collect::<Option<_>>()?;
            sizes.windows(2).all(|pair| pair[0] == pair[1]).then(|| sizes[0])
        }
        _ => None,
    }
}

/// The term of a rule pattern; variables are numbered in `vars`.
pub fn pattern_term(p: &Pattern, rule: &Rule, vars: &mut Vec<String>) -> Result<Term, String> {
    let err = |what: &str| format!("rule `{}`: {what} has no verifier operator", rule.name);
    Ok(match p {
        Pattern::Var(name, _) if guarded(rule, "is-identity", name, |rest| rest.is_empty()) => {
            Term::App("imm", Vec::new())
        }
        Pattern::Var(name, _)
            if guarded(rule, "splat", name, |rest| matches!(rest, [Expr::Float(v, _)] if *v == 1.0)) =>
        {
            Term::App("ones", Vec::new())
        }
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
            let axis = matrix_axis(&o.attrs).ok_or_else(|| err("a split along no matrix axis"))?;
            if o.op != "split" || o.operands.len() != 1 || *part > 1 {
                return Err(err(&format!("`(result {part} ({} ...))`", o.op)));
            }
            let x = pattern_term(&o.operands[0], rule, vars)?;
            let op: &'static str = ["split0_0", "split0_1", "split1_0", "split1_1"][axis * 2 + part];
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
                ("transpose", 1) if swaps_matrix_axes(&o.attrs) => "transpose",
                ("concat", 2) => match matrix_axis(&o.attrs) {
                    Some(0) => "concat0",
                    Some(1) => "concat1",
                    _ => return Err(err("a concat along another axis")),
                },
                // The verifier's convolutions are "same" at stride 1, of an odd kernel.
                ("conv2d", 2 | 3) => {
                    let k = kernel_size(&o.operands[1], rule).filter(|k| k % 2 == 1);
                    if k.is_none_or(|k| attrs_text(&o.attrs) != conv_attrs((k - 1) / 2)) {
                        return Err(err("a convolution that is not \"same\" at stride 1 (or of no known kernel)"));
                    }
                    if args.len() == 3 {
                        return Ok(op_term(Op::ConvBias, args));
                    }
                    "conv"
                }
                ("pad", 1) if attrs_text(&o.attrs) == ENLARGE => "enlarge",
                ("max_pool2d", 1) if attrs_text(&o.attrs) == MAX_POOL => "poolmax",
                ("avg_pool2d", 1) if attrs_text(&o.attrs) == AVG_POOL => "poolavg",
                (other, _) => return Err(err(&format!("`{other}`"))),
            };
            Term::App(op, args)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule whose source is a convolution with `attrs`, its filter's kernel `k` x `k`.
    fn conv_rule(attrs: &str, k: i64) -> Rule {
        let text = format!(
            "(rule r (conv2d ?x ?w ?b {attrs}) => ?x (if (= (dim ?w 2) {k}) (= (dim ?w 3) {k})) \
             (by rulegen :fingerprint \"0\" :verified \"z3\"))"
        );
        tcc::rules::parse::parse_file("t.rules", &text).unwrap().rules.remove(0)
    }

    #[test]
    fn convolutions_read_back_only_as_the_generator_states_them() {
        let read = |r: &Rule| pattern_term(&r.source[0], r, &mut Vec::new());
        let same = conv_rule(":strides [1 1] :pads [1 1 1 1] :dilations [1 1] :groups 1", 3);
        assert_eq!(
            read(&same).unwrap(),
            Term::App("bias", vec![Term::App("conv", vec![Term::Var(0), Term::Var(1)]), Term::Var(2)])
        );
        // A 3x3 kernel without padding, padding for the wrong kernel, a stride, a
        // dilation: not the verifier's convolution.
        for (attrs, k) in [
            (":strides [1 1] :pads [0 0 0 0] :dilations [1 1] :groups 1", 3),
            (":strides [1 1] :pads [1 1 1 1] :dilations [1 1] :groups 1", 1),
            (":strides [2 2] :pads [1 1 1 1] :dilations [1 1] :groups 1", 3),
            (":strides [1 1] :pads [1 1 1 1] :dilations [2 2] :groups 1", 3),
        ] {
            let e = read(&conv_rule(attrs, k)).unwrap_err();
            assert!(e.contains("not \"same\" at stride 1"), "{attrs} ({k}x{k}): {e}");
        }
    }
}
