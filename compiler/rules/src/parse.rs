//! From S-expressions to [`Rule`]s, with an error at the position of each mistake.
//! Scoping (variables bound before use, one kind per variable) and builtin arities are
//! checked here as well, so a rule that parses can be run.

use std::collections::HashMap;

use crate::ast::{Expr, OpPattern, Pattern, Provenance, Rule, RuleFile};
use crate::builtins;
use crate::sexpr::{Pos, RuleError, Sexp, read_all};

type Result<T> = std::result::Result<T, RuleError>;

fn err<T>(pos: Pos, msg: impl Into<String>) -> Result<T> {
    Err(RuleError::new(pos, msg))
}

/// Parses and checks a whole rule file.
pub fn parse_file(path: &str, source: &str) -> Result<RuleFile> {
    let mut rules: Vec<Rule> = Vec::new();
    let mut names: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for top in read_all(source)? {
        let rule = parse_rule(&top)?;
        if let Some(&prev) = names.get(&rule.name) {
            return err(rule.pos, format!("rule `{}` is already defined at {}", rule.name, rules[prev].pos));
        }
        names.insert(rule.name.clone(), rules.len());
        rules.push(rule);
    }
    Ok(RuleFile { path: path.to_string(), rules })
}

fn parse_rule(top: &Sexp) -> Result<Rule> {
    let Sexp::List(items, pos) = top else {
        return err(top.pos(), format!("expected `(rule NAME SOURCE => TARGET ...)`, found {}", top.describe()));
    };
    if items.first().and_then(Sexp::symbol) != Some("rule") {
        return err(*pos, "expected `(rule NAME SOURCE => TARGET ...)`");
    }
    let name = match items.get(1) {
        Some(Sexp::Symbol(s, _)) => s.clone(),
        Some(other) => return err(other.pos(), format!("expected the rule's name, found {}", other.describe())),
        None => return err(*pos, "expected the rule's name"),
    };
    let arrow = items.iter().position(|s| s.symbol() == Some("=>"));
    let Some(arrow) = arrow else { return err(*pos, format!("rule `{name}` has no `=>`")) };
    if arrow != 3 {
        let at = items.get(2).map_or(*pos, Sexp::pos);
        return err(at, format!("rule `{name}`: expected exactly one source pattern before `=>`"));
    }
    let Some(target) = items.get(4) else { return err(items[3].pos(), "expected a target after `=>`") };
    let mut scope = Scope::default();
    let source = outputs(&items[2], &mut |s| pattern(s, &mut SourceSide(&mut scope)))?;
    let target = outputs(target, &mut |s| pattern(s, &mut TargetSide(&scope)))?;
    if source.len() != target.len() {
        return err(
            items[4].pos(),
            format!("the source has {} outputs but the target has {}", source.len(), target.len()),
        );
    }
    if let Some(v) = source.iter().find(|p| matches!(p, Pattern::Var(..))) {
        return err(v.pos(), "each output of a source is an op pattern, not a variable");
    }
    let mut guards = Vec::new();
    let mut provenance = None;
    for clause in &items[5..] {
        let Sexp::List(parts, cpos) = clause else {
            return err(clause.pos(), format!("expected `(if ...)` or `(by ...)`, found {}", clause.describe()));
        };
        match parts.first().and_then(Sexp::symbol) {
            Some("if") => {
                if parts.len() < 2 {
                    return err(*cpos, "`(if ...)` needs at least one condition");
                }
                for g in &parts[1..] {
                    guards.push(expr(g, &scope)?);
                }
            }
            Some("by") => {
                if provenance.is_some() {
                    return err(*cpos, "a second provenance record");
                }
                provenance = Some(parse_provenance(parts, *cpos)?);
            }
            _ => return err(*cpos, "expected `(if ...)` or `(by ...)`"),
        }
    }
    let Some(provenance) = provenance else {
        return err(*pos, format!("rule `{name}` has no provenance: add `(by hand)` or `(by rulegen ...)`"));
    };
    Ok(Rule { name, pos: *pos, source, target, guards, provenance })
}

fn parse_provenance(parts: &[Sexp], pos: Pos) -> Result<Provenance> {
    match parts.get(1).and_then(Sexp::symbol) {
        Some("hand") if parts.len() == 2 => Ok(Provenance::Hand),
        Some("rulegen") => {
            let mut fields: HashMap<&str, String> = HashMap::new();
            let mut rest = parts[2..].iter();
            while let Some(k) = rest.next() {
                let Sexp::Keyword(key, kpos) = k else {
                    return err(k.pos(), format!("expected `:fingerprint` or `:verified`, found {}", k.describe()));
                };
                if key != "fingerprint" && key != "verified" {
                    return err(*kpos, format!("unknown provenance field `:{key}`"));
                }
                match rest.next() {
                    Some(Sexp::Str(v, _)) => fields.insert(key.as_str(), v.clone()),
                    _ => return err(*kpos, format!("`:{key}` needs a string")),
                };
            }
            match (fields.remove("fingerprint"), fields.remove("verified")) {
                (Some(fingerprint), Some(verified)) => Ok(Provenance::Generated { fingerprint, verified }),
                _ => err(pos, "`(by rulegen ...)` needs `:fingerprint \"...\"` and `:verified \"...\"`"),
            }
        }
        _ => err(pos, "expected `(by hand)` or `(by rulegen :fingerprint \"...\" :verified \"...\")`"),
    }
}

fn outputs(s: &Sexp, each: &mut dyn FnMut(&Sexp) -> Result<Pattern>) -> Result<Vec<Pattern>> {
    if let Sexp::List(items, pos) = s
        && items.first().and_then(Sexp::symbol) == Some("outputs")
    {
        if items.len() < 2 {
            return err(*pos, "`(outputs ...)` needs at least one pattern");
        }
        return items[1..].iter().map(&mut *each).collect();
    }
    Ok(vec![each(s)?])
}

/// What a variable names: a value, or an attribute (or another expression result).
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Value,
    Attr,
}

#[derive(Default)]
struct Scope {
    vars: HashMap<String, (Kind, Pos)>,
}

impl Scope {
    /// Binds or re-uses `name` as `kind`.
    fn bind(&mut self, name: &str, kind: Kind, pos: Pos) -> Result<()> {
        match self.vars.get(name) {
            Some((k, first)) if *k != kind => {
                let what = |k: &Kind| if *k == Kind::Value { "a value" } else { "an attribute" };
                err(pos, format!("`?{name}` is {} here but {} at {first}", what(&kind), what(k)))
            }
            Some(_) => Ok(()),
            None => {
                self.vars.insert(name.to_string(), (kind, pos));
                Ok(())
            }
        }
    }

    fn require(&self, name: &str, pos: Pos) -> Result<Kind> {
        match self.vars.get(name) {
            Some((k, _)) => Ok(*k),
            None => err(pos, format!("`?{name}` is not bound by the source pattern")),
        }
    }
}

/// How one side of a rule treats variables, attribute values and `as`.
trait Side {
    fn var(&mut self, name: &str, pos: Pos) -> Result<()>;
    fn attr(&mut self, value: &Sexp) -> Result<Expr>;
    fn name_value(&mut self, name: &str, pos: Pos) -> Result<()>;
}

/// `(result k P)` / `(as ?v P)` / `(op ...)` / `?x`, for either side.
fn pattern(s: &Sexp, side: &mut dyn Side) -> Result<Pattern> {
    match s {
        Sexp::Var(name, pos) => {
            side.var(name, *pos)?;
            Ok(Pattern::Var(name.clone(), *pos))
        }
        Sexp::List(items, pos) => {
            let Some(head) = items.first() else { return err(*pos, "an empty pattern") };
            let Some(op) = head.symbol() else {
                return err(head.pos(), format!("expected an op name, found {}", head.describe()));
            };
            match op {
                "result" => {
                    let (Some(Sexp::Int(k, kpos)), Some(inner), None) = (items.get(1), items.get(2), items.get(3))
                    else {
                        return err(*pos, "expected `(result INDEX PATTERN)`");
                    };
                    if *k < 0 {
                        return err(*kpos, "a result index is not negative");
                    }
                    let inner = pattern(inner, side)?;
                    if !matches!(inner, Pattern::Op(_)) {
                        return err(inner.pos(), "`result` takes an op pattern");
                    }
                    Ok(Pattern::Result(*k as usize, Box::new(inner), *pos))
                }
                "as" => {
                    let (Some(Sexp::Var(name, vpos)), Some(inner), None) = (items.get(1), items.get(2), items.get(3))
                    else {
                        return err(*pos, "expected `(as ?NAME PATTERN)`");
                    };
                    side.name_value(name, *vpos)?;
                    let inner = pattern(inner, side)?;
                    if matches!(inner, Pattern::Var(..)) {
                        return err(inner.pos(), "`as` takes an op pattern");
                    }
                    Ok(Pattern::As(name.clone(), Box::new(inner), *pos))
                }
                "outputs" => err(*pos, "`outputs` only around a whole side of a rule"),
                "=>" | "rule" | "if" | "by" => err(head.pos(), format!("`{op}` is not an op name")),
                _ => {
                    let mut operands = Vec::new();
                    let mut attrs: Vec<(String, Expr)> = Vec::new();
                    let mut rest = items[1..].iter();
                    while let Some(item) = rest.next() {
                        if let Sexp::Keyword(key, kpos) = item {
                            if attrs.iter().any(|(k, _)| k == key) {
                                return err(*kpos, format!("attribute `:{key}` given twice"));
                            }
                            let Some(v) = rest.next() else {
                                return err(*kpos, format!("`:{key}` needs a value"));
                            };
                            attrs.push((key.clone(), side.attr(v)?));
                        } else if !attrs.is_empty() {
                            return err(item.pos(), "operands come before attributes");
                        } else {
                            operands.push(pattern(item, side)?);
                        }
                    }
                    Ok(Pattern::Op(OpPattern { op: op.to_string(), operands, attrs, pos: head.pos() }))
                }
            }
        }
        other => err(other.pos(), format!("expected a pattern (`?x` or `(op ...)`), found {}", other.describe())),
    }
}

/// The source binds variables: values in operand positions, attributes in attribute
/// positions (a later occurrence must be equal).
struct SourceSide<'a>(&'a mut Scope);

impl Side for SourceSide<'_> {
    fn var(&mut self, name: &str, pos: Pos) -> Result<()> {
        self.0.bind(name, Kind::Value, pos)
    }
    fn attr(&mut self, value: &Sexp) -> Result<Expr> {
        match value {
            Sexp::Var(name, pos) => {
                self.0.bind(name, Kind::Attr, *pos)?;
                Ok(Expr::Var(name.clone(), *pos))
            }
            other => expr(other, self.0),
        }
    }
    fn name_value(&mut self, name: &str, pos: Pos) -> Result<()> {
        if self.0.vars.contains_key(name) {
            return err(pos, format!("`?{name}` is already bound"));
        }
        self.0.bind(name, Kind::Value, pos)
    }
}

/// The target only uses what the source bound.
struct TargetSide<'a>(&'a Scope);

impl Side for TargetSide<'_> {
    fn var(&mut self, name: &str, pos: Pos) -> Result<()> {
        match self.0.require(name, pos)? {
            Kind::Value => Ok(()),
            Kind::Attr => err(pos, format!("`?{name}` is an attribute, not a value")),
        }
    }
    fn attr(&mut self, value: &Sexp) -> Result<Expr> {
        expr(value, self.0)
    }
    fn name_value(&mut self, _: &str, pos: Pos) -> Result<()> {
        err(pos, "`as` only in source patterns")
    }
}

/// An expression over bound variables.
fn expr(s: &Sexp, scope: &Scope) -> Result<Expr> {
    match s {
        Sexp::Int(v, p) => Ok(Expr::Int(*v, *p)),
        Sexp::Float(v, p) => Ok(Expr::Float(*v, *p)),
        Sexp::Var(name, p) => {
            scope.require(name, *p)?;
            Ok(Expr::Var(name.clone(), *p))
        }
        Sexp::Bracket(items, p) => Ok(Expr::List(items.iter().map(|i| expr(i, scope)).collect::<Result<_>>()?, *p)),
        Sexp::List(items, p) => {
            let Some(head) = items.first() else { return err(*p, "an empty call") };
            let Some(name) = head.symbol() else {
                return err(head.pos(), format!("expected a function name, found {}", head.describe()));
            };
            let Some(b) = builtins::lookup(name) else {
                return err(head.pos(), format!("unknown function `{name}`"));
            };
            let n = items.len() - 1;
            if n < b.min_args || n > b.max_args {
                let want = match (b.min_args, b.max_args) {
                    (lo, hi) if lo == hi => format!("{lo}"),
                    (lo, usize::MAX) => format!("at least {lo}"),
                    (lo, hi) => format!("{lo} to {hi}"),
                };
                return err(*p, format!("`{name}` takes {want} arguments, got {n}"));
            }
            let args = items[1..].iter().map(|i| expr(i, scope)).collect::<Result<_>>()?;
            Ok(Expr::Call(name.to_string(), args, head.pos()))
        }
        other => err(other.pos(), format!("expected an expression, found {}", other.describe())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(src: &str) -> Rule {
        parse_file("t.rules", src).unwrap().rules.remove(0)
    }

    fn error(src: &str) -> (Pos, String) {
        let e = parse_file("t.rules", src).unwrap_err();
        (e.pos, e.message)
    }

    #[test]
    fn parses_a_rule_with_guards_and_attributes() {
        let r = one(
            "(rule tt (transpose (transpose ?x :perm ?p) :perm ?q) => ?x (if (identity-perm (compose ?p ?q))) (by hand))",
        );
        assert_eq!(r.name, "tt");
        assert_eq!(r.guards.len(), 1);
        let Pattern::Op(o) = &r.source[0] else { panic!() };
        assert_eq!(o.op, "transpose");
        assert_eq!(o.attrs[0].0, "perm");
        assert!(matches!(r.target[0], Pattern::Var(ref x, _) if x == "x"));
    }

    #[test]
    fn parses_outputs_results_as_and_provenance() {
        let r = one(
            "(rule m (outputs (matmul ?x ?a) (as ?r (matmul ?x ?b))) => (outputs (result 0 (split (matmul ?x (concat ?a ?b :axis 1)) :axis 1 :sizes [(dim ?a 1) (dim ?b 1)])) (result 1 (split (matmul ?x (concat ?a ?b :axis 1)) :axis 1 :sizes [(dim ?a 1) (dim ?b 1)]))) (by rulegen :fingerprint \"ab\" :verified \"z3\"))",
        );
        assert_eq!(r.source.len(), 2);
        assert!(matches!(r.source[1], Pattern::As(ref n, _, _) if n == "r"));
        assert!(matches!(r.target[1], Pattern::Result(1, _, _)));
        assert_eq!(r.provenance, Provenance::Generated { fingerprint: "ab".into(), verified: "z3".into() });
    }

    #[test]
    fn errors_are_located() {
        assert_eq!(error("(rule a (relu ?x) => ?y (by hand))").0, Pos { line: 1, col: 22 });
        assert!(error("(rule a (relu ?x) => ?y (by hand))").1.contains("not bound"));
        assert_eq!(error("(rule a (relu ?x) ?x (by hand))").1, "rule `a` has no `=>`");
        assert_eq!(
            error("(rule a (relu ?x) => ?x)").1,
            "rule `a` has no provenance: add `(by hand)` or `(by rulegen ...)`"
        );
        assert_eq!(error("(rule a (relu ?x) => ?x (if (frob ?x)) (by hand))").0, Pos { line: 1, col: 30 });
        assert!(error("(rule a (relu ?x) => ?x (if (rank ?x ?x)) (by hand))").1.contains("takes 1 arguments, got 2"));
        assert!(error("(rule a (t ?x :p ?x) => ?x (by hand))").1.contains("is an attribute here but a value"));
        assert!(error("(rule a (t ?x :p ?p) => (t ?p) (by hand))").1.contains("is an attribute, not a value"));
        assert!(error("(rule a ?x => ?x (by hand))").1.contains("not a variable"));
        assert!(error("(rule a (relu ?x) => (outputs ?x ?x) (by hand))").1.contains("1 outputs but the target has 2"));
        assert!(error("(rule a (t :p 1 ?x) => ?x (by hand))").1.contains("operands come before attributes"));
        assert!(
            error("(rule a (relu ?x) => ?x (by hand)) (rule a (relu ?x) => ?x (by hand))")
                .1
                .contains("already defined")
        );
        assert!(error("(rule a (relu ?x) => ?x (by rulegen :fingerprint \"x\"))").1.contains("needs"));
    }
}
