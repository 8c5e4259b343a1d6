//! Checks across rules: a duplicate (the same source and target up to renaming of
//! variables) is rejected everywhere; among canonicalization rules, which apply the
//! first rule that matches, a rule is rejected when an earlier unguarded rule matches
//! everything it matches (it could never fire).

use std::collections::HashMap;

use crate::ast::{Expr, Pattern, Rule};
use crate::sexpr::RuleError;

/// A rule with the file it came from.
pub struct Located<'a> {
    pub file: &'a str,
    pub rule: &'a Rule,
}

/// What a variable of the general pattern stands for in the specific one.
#[derive(Clone, PartialEq, Debug)]
enum Term {
    Pattern(String),
    Expr(String),
}

/// A pattern or expression rendered without positions, variable names kept.
fn render_pattern(p: &Pattern) -> String {
    match p {
        Pattern::Var(v, _) => format!("?{v}"),
        Pattern::Result(k, inner, _) => format!("(result {k} {})", render_pattern(inner)),
        Pattern::As(_, inner, _) => render_pattern(inner),
        Pattern::Op(o) => {
            let mut s = format!("({}", o.op);
            for x in &o.operands {
                s.push(' ');
                s.push_str(&render_pattern(x));
            }
            let mut attrs: Vec<_> = o.attrs.iter().collect();
            attrs.sort_by(|a, b| a.0.cmp(&b.0));
            for (k, e) in attrs {
                s.push_str(&format!(" :{k} {}", render_expr(e)));
            }
            s.push(')');
            s
        }
    }
}

/// An expression rendered without positions.
pub fn render_expr(e: &Expr) -> String {
    match e {
        Expr::Int(v, _) => v.to_string(),
        Expr::Float(v, _) => format!("{v:?}"),
        Expr::Var(v, _) => format!("?{v}"),
        Expr::List(items, _) => format!("[{}]", items.iter().map(render_expr).collect::<Vec<_>>().join(" ")),
        Expr::Call(f, args, _) => {
            format!("({f}{})", args.iter().map(|a| format!(" {}", render_expr(a))).collect::<String>())
        }
    }
}

/// Whether `general` matches everything `specific` matches, extending `subst`.
fn generalizes(general: &Pattern, specific: &Pattern, subst: &mut HashMap<String, Term>) -> bool {
    match (general, specific) {
        (Pattern::As(_, g, _), s) => generalizes(g, s, subst),
        (g, Pattern::As(_, s, _)) => generalizes(g, s, subst),
        (Pattern::Var(v, _), s) => {
            let t = Term::Pattern(render_pattern(s));
            match subst.get(v) {
                Some(prev) => *prev == t,
                None => {
                    subst.insert(v.clone(), t);
                    true
                }
            }
        }
        (Pattern::Result(k1, g, _), Pattern::Result(k2, s, _)) => k1 == k2 && generalizes(g, s, subst),
        (Pattern::Op(g), Pattern::Op(s)) => {
            if g.op != s.op || g.operands.len() != s.operands.len() {
                return false;
            }
            if !g.operands.iter().zip(&s.operands).all(|(a, b)| generalizes(a, b, subst)) {
                return false;
            }
            g.attrs.iter().all(|(name, ge)| {
                let Some((_, se)) = s.attrs.iter().find(|(n, _)| n == name) else { return false };
                let t = Term::Expr(render_expr(se));
                match ge {
                    Expr::Var(v, _) => match subst.get(v) {
                        Some(prev) => *prev == t,
                        None => {
                            subst.insert(v.clone(), t);
                            true
                        }
                    },
                    other => Term::Expr(render_expr(other)) == t,
                }
            })
        }
        _ => false,
    }
}

fn sources_generalize(general: &Rule, specific: &Rule) -> bool {
    let mut subst = HashMap::new();
    general.source.len() == specific.source.len()
        && general.source.iter().zip(&specific.source).all(|(g, s)| generalizes(g, s, &mut subst))
}

/// A rule's source, target and guards with variables renamed in order of appearance.
fn normal_form(rule: &Rule) -> String {
    let text = format!(
        "{} => {} if {}",
        rule.source.iter().map(render_pattern).collect::<Vec<_>>().join(" "),
        rule.target.iter().map(render_pattern).collect::<Vec<_>>().join(" "),
        rule.guards.iter().map(render_expr).collect::<Vec<_>>().join(" ")
    );
    let mut names: HashMap<String, usize> = HashMap::new();
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '?' {
            out.push(c);
            continue;
        }
        let mut name = String::new();
        while let Some(&d) = chars.peek() {
            if d.is_whitespace() || d == ')' || d == ']' {
                break;
            }
            name.push(d);
            chars.next();
        }
        let n = names.len();
        out.push_str(&format!("?{}", names.entry(name).or_insert(n)));
    }
    out
}

/// Rejects duplicates among `all`, and shadowed rules among `canonical` (in order).
pub fn check_rules(all: &[Located], canonical: &[Located]) -> Result<(), (String, RuleError)> {
    let mut seen: HashMap<String, &Located> = HashMap::new();
    for r in all {
        if let Some(prev) = seen.insert(normal_form(r.rule), r) {
            let msg = format!(
                "rule `{}` repeats rule `{}` ({}:{}) up to the names of its variables",
                r.rule.name, prev.rule.name, prev.file, prev.rule.pos
            );
            return Err((r.file.to_string(), RuleError::new(r.rule.pos, msg)));
        }
    }
    for (i, later) in canonical.iter().enumerate() {
        for earlier in &canonical[..i] {
            if earlier.rule.guards.is_empty() && sources_generalize(earlier.rule, later.rule) {
                let msg = format!(
                    "rule `{}` can never apply: rule `{}` ({}:{}) matches everything it matches and comes first",
                    later.rule.name, earlier.rule.name, earlier.file, earlier.rule.pos
                );
                return Err((later.file.to_string(), RuleError::new(later.rule.pos, msg)));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_file;

    fn check(src: &str) -> Result<(), String> {
        let f = parse_file("t.rules", src).unwrap();
        let all: Vec<Located> = f.rules.iter().map(|rule| Located { file: "t.rules", rule }).collect();
        let canon: Vec<Located> = f.rules.iter().map(|rule| Located { file: "t.rules", rule }).collect();
        check_rules(&all, &canon).map_err(|(_, e)| e.message)
    }

    #[test]
    fn duplicates_up_to_renaming_are_rejected() {
        let e =
            check("(rule a (relu (relu ?x)) => (relu ?x) (by hand))\n(rule b (relu (relu ?y)) => (relu ?y) (by hand))");
        assert!(e.unwrap_err().contains("repeats rule `a` (t.rules:1:1)"));
    }

    #[test]
    fn shadowed_rules_are_rejected_and_guarded_ones_are_not() {
        let general = "(rule a (transpose ?x :perm ?p) => ?x (by hand))\n";
        let special = "(rule b (transpose (transpose ?y :perm ?q) :perm [1 0]) => ?y (by hand))";
        assert!(check(&format!("{general}{special}")).unwrap_err().contains("can never apply"));
        // The other order, or a guard on the general rule, is fine.
        assert!(check(&format!("{special}\n{general}")).is_ok());
        let guarded = "(rule a (transpose ?x :perm ?p) => ?x (if (identity-perm ?p)) (by hand))\n";
        assert!(check(&format!("{guarded}{special}")).is_ok());
        // Repeated variables make a pattern more specific, not more general.
        let same = "(rule c (add ?x ?x) => ?x (by hand))\n(rule d (add ?x ?y) => ?y (by hand))";
        assert!(check(same).is_ok());
        let attr = "(rule e (concat ?x ?y :axis 0) => ?x (by hand))\n(rule f (concat ?x ?y :axis 1) => ?y (by hand))";
        assert!(check(attr).is_ok());
    }
}
