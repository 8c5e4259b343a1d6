//! Rules to Rust: per rule, one matcher function per source output, a guard function
//! and a function that plans the target; canonicalization rules also become a
//! `tcc_ir::Pattern`.
//!
//! The generated code is included by the dialect (`include!`), next to a runtime module
//! `rt` (binding slots, `Plan`, the match driver) and a `builtins` module with one
//! function per [`crate::builtins::BUILTINS`] entry. Ops are named `ops::UPPER_NAME`, so
//! a rule naming an op the dialect lacks fails to compile with that name.

use std::collections::HashMap;
use std::fmt::Write;

use crate::ast::{Expr, Pattern, Provenance, Rule};
use crate::builtins;
use crate::check::render_expr;

/// A rule and how it is used.
pub struct RuleInput<'a> {
    pub file: &'a str,
    pub rule: &'a Rule,
    pub canonical: bool,
}

/// A rule file interpreted at run time rather than compiled: its path as shown, the
/// absolute path the dialect includes it from, and its rules.
pub struct Interpreted<'a> {
    pub file: &'a str,
    pub include_from: &'a str,
    pub rules: &'a [Rule],
}

/// The op a root pattern is a result of.
fn root_op(p: &Pattern) -> &str {
    match p {
        Pattern::Result(_, inner, _) | Pattern::As(_, inner, _) => root_op(inner),
        Pattern::Op(o) => &o.op,
        Pattern::Var(..) => unreachable!("the parser requires an op at each source output"),
    }
}

/// Every op `p` names.
fn ops_named<'a>(p: &'a Pattern, out: &mut Vec<&'a str>) {
    match p {
        Pattern::Var(..) => {}
        Pattern::Result(_, inner, _) | Pattern::As(_, inner, _) => ops_named(inner, out),
        Pattern::Op(o) => {
            if !out.contains(&o.op.as_str()) {
                out.push(&o.op);
            }
            o.operands.iter().for_each(|x| ops_named(x, out));
        }
    }
}

/// The Rust identifier for a rule or op name: `transpose-of-transpose` -> `TRANSPOSE_OF_TRANSPOSE`.
pub fn upper_ident(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_uppercase() } else { '_' }).collect()
}

/// Variable slots of one rule, numbered by first appearance in the source.
struct Slots(HashMap<String, usize>);

impl Slots {
    fn of(&mut self, name: &str) -> usize {
        let n = self.0.len();
        *self.0.entry(name.to_string()).or_insert(n)
    }
}

struct Emitter {
    out: String,
    next: usize,
}

impl Emitter {
    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    fn line(&mut self, s: &str) {
        self.out.push_str("    ");
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn expr(&mut self, e: &Expr, slots: &mut Slots) -> String {
        match e {
            Expr::Int(v, _) => format!("Val::Int({v})"),
            Expr::Float(v, _) => format!("Val::Float({v:?})"),
            Expr::Var(name, _) => format!("b.get({})?", slots.of(name)),
            Expr::List(items, _) => {
                let items: Vec<String> = items.iter().map(|i| self.expr(i, slots)).collect();
                format!("rt::list(vec![{}])?", items.join(", "))
            }
            Expr::Call(f, args, _) => {
                let b = builtins::lookup(f).expect("checked by the parser");
                let args: Vec<String> = args.iter().map(|a| self.expr(a, slots)).collect();
                format!("rb::{}(m, &[{}])?", b.rust_name(), args.join(", "))
            }
        }
    }

    /// Matches the value held in Rust variable `value` against `p`.
    fn match_value(&mut self, p: &Pattern, value: &str, slots: &mut Slots) {
        match p {
            Pattern::Var(name, _) => {
                let s = slots.of(name);
                self.line(&format!("b.bind({s}, Val::Value({value}))?;"));
            }
            Pattern::As(name, inner, _) => {
                let s = slots.of(name);
                self.line(&format!("b.bind({s}, Val::Value({value}))?;"));
                self.match_value(inner, value, slots);
            }
            Pattern::Result(k, inner, _) => {
                let o = self.fresh("o");
                self.line(&format!("let {o} = rt::producer(m, {value}, {k})?;"));
                self.match_op(inner, &o, slots);
            }
            Pattern::Op(_) => {
                let o = self.fresh("o");
                self.line(&format!("let {o} = rt::producer(m, {value}, 0)?;"));
                self.match_op(p, &o, slots);
            }
        }
    }

    /// Matches op `o` (a Rust variable) against the op pattern `p`.
    fn match_op(&mut self, p: &Pattern, o: &str, slots: &mut Slots) {
        let Pattern::Op(op) = p else { unreachable!("result and as wrap op patterns") };
        self.line(&format!("rt::is_op(m, {o}, &ops::{}, {})?;", upper_ident(&op.op), op.operands.len()));
        for (i, operand) in op.operands.iter().enumerate() {
            let v = self.fresh("v");
            self.line(&format!("let {v} = m.operand({o}, {i});"));
            self.match_value(operand, &v, slots);
        }
        for (name, e) in &op.attrs {
            match e {
                Expr::Var(var, _) if !slots.0.contains_key(var) => {
                    let s = slots.of(var);
                    self.line(&format!("b.bind({s}, rt::attr(m, {o}, {name:?})?)?;"));
                }
                _ => {
                    let want = self.expr(e, slots);
                    self.line(&format!("rt::attr_is(m, {o}, {name:?}, &{want})?;"));
                }
            }
        }
    }

    /// Plans target `p`; returns the Rust expression of its `Src`.
    fn target(&mut self, p: &Pattern, slots: &mut Slots, nodes: &mut HashMap<String, String>) -> String {
        match p {
            Pattern::Var(name, _) => format!("Src::Value(b.value({})?)", slots.of(name)),
            Pattern::As(..) => unreachable!("the parser rejects `as` in targets"),
            Pattern::Result(k, inner, _) => {
                let n = self.target_node(inner, slots, nodes);
                format!("Src::Node({n}, {k})")
            }
            Pattern::Op(_) => {
                let n = self.target_node(p, slots, nodes);
                format!("Src::Node({n}, 0)")
            }
        }
    }

    fn target_node(&mut self, p: &Pattern, slots: &mut Slots, nodes: &mut HashMap<String, String>) -> String {
        let Pattern::Op(op) = p else { unreachable!() };
        let key = render_target(p);
        if let Some(n) = nodes.get(&key) {
            return n.clone();
        }
        let operands: Vec<String> = op.operands.iter().map(|x| self.target(x, slots, nodes)).collect();
        let attrs: Vec<String> =
            op.attrs.iter().map(|(name, e)| format!("({name:?}, {})", self.expr(e, slots))).collect();
        let n = self.fresh("n");
        self.line(&format!(
            "let {n} = p.op(&ops::{}, vec![{}], vec![{}])?;",
            upper_ident(&op.op),
            operands.join(", "),
            attrs.join(", ")
        ));
        nodes.insert(key, n.clone());
        n
    }
}

/// A target pattern as text without positions: identical subterms render the same.
pub fn render_target(p: &Pattern) -> String {
    match p {
        Pattern::Var(v, _) => format!("?{v}"),
        Pattern::As(_, inner, _) => render_target(inner),
        Pattern::Result(k, inner, _) => format!("(result {k} {})", render_target(inner)),
        Pattern::Op(o) => format!(
            "({}{}{})",
            o.op,
            o.operands.iter().map(|x| format!(" {}", render_target(x))).collect::<String>(),
            o.attrs.iter().map(|(k, e)| format!(" :{k} {}", render_expr(e))).collect::<String>()
        ),
    }
}

/// The Rust source for `rules` (the order is the order canonicalization tries them in)
/// and for the `interpreted` files (included as text, with every op they name checked
/// to exist).
pub fn generate(rules: &[RuleInput], interpreted: &[Interpreted]) -> String {
    let mut e = Emitter { out: String::new(), next: 0 };
    e.out.push_str("// @generated by tcc-rules from the dialect's rule files. Do not edit.\n\n");
    // Every builtin must exist with the right signature, used or not; the interpreter
    // finds them by name.
    e.out.push_str(
        "/// A builtin function of the rule language.\npub type BuiltinFn = fn(&Module, &[Val]) -> Option<Val>;\n\n",
    );
    e.out.push_str(
        "/// Every builtin, by its name in the rule language.\npub static BUILTIN_FNS: &[(&str, BuiltinFn)] = &[\n",
    );
    for b in builtins::BUILTINS {
        writeln!(e.out, "    ({:?}, rb::{}),", b.name, b.rust_name()).unwrap();
    }
    e.out.push_str("];\n\n");
    let mut named = Vec::new();
    for f in interpreted {
        for r in f.rules {
            r.source.iter().chain(&r.target).for_each(|p| ops_named(p, &mut named));
        }
    }
    named.sort_unstable();
    let defs: Vec<String> = named.iter().map(|o| format!("&ops::{}", upper_ident(o))).collect();
    writeln!(e.out, "const _: [&tcc_ir::OpDef; {}] = [{}];\n", defs.len(), defs.join(", ")).unwrap();
    e.out.push_str("/// The rule files interpreted at run time: path, text.\npub static INTERPRETED_SOURCES: &[(&str, &str)] = &[\n");
    for f in interpreted {
        writeln!(e.out, "    ({:?}, include_str!({:?})),", f.file, f.include_from).unwrap();
    }
    e.out.push_str("];\n\n");
    let mut table = String::new();
    let mut patterns = String::new();
    for (i, r) in rules.iter().enumerate() {
        let rule = r.rule;
        let mut slots = Slots(HashMap::new());
        let mut roots = Vec::new();
        for (k, root) in rule.source.iter().enumerate() {
            let f = format!("m_{i}_{k}");
            writeln!(e.out, "fn {f}(m: &Module, op: Op, b: &mut Binding) -> Option<()> {{").unwrap();
            let (out_index, inner, name) = match root {
                Pattern::Result(k, inner, _) => (*k, inner.as_ref(), None),
                Pattern::As(name, inner, _) => match inner.as_ref() {
                    Pattern::Result(k, inner, _) => (*k, inner.as_ref(), Some(name)),
                    other => (0, other, Some(name)),
                },
                other => (0, other, None),
            };
            e.line(&format!("let out = rt::result_of(m, op, {out_index})?;"));
            if let Some(name) = name {
                let s = slots.of(name);
                e.line(&format!("b.bind({s}, Val::Value(out))?;"));
            }
            e.match_op(inner, "op", &mut slots);
            e.line("b.root(op, out);");
            e.line("Some(())");
            e.out.push_str("}\n\n");
            roots.push(f);
        }
        writeln!(e.out, "fn g_{i}(m: &Module, b: &Binding) -> Option<bool> {{").unwrap();
        e.line("let _ = (m, b);");
        let guards: Vec<String> = rule.guards.iter().map(|g| e.expr(g, &mut slots)).collect();
        for g in guards {
            e.line(&format!("if !({g}).truth()? {{ return Some(false); }}"));
        }
        e.line("Some(true)");
        e.out.push_str("}\n\n");
        writeln!(e.out, "fn p_{i}(m: &Module, b: &Binding) -> Option<Plan> {{").unwrap();
        e.line("let _ = m;");
        e.line("let mut p = Plan::default();");
        let mut nodes = HashMap::new();
        let outs: Vec<String> = rule.target.iter().map(|t| e.target(t, &mut slots, &mut nodes)).collect();
        e.line(&format!("p.outputs = vec![{}];", outs.join(", ")));
        e.line("Some(p)");
        e.out.push_str("}\n\n");
        let provenance = match &rule.provenance {
            Provenance::Hand => "Provenance::Hand".to_string(),
            Provenance::Generated { fingerprint, verified } => format!(
                "Provenance::Generated {{ fingerprint: Cow::Borrowed({fingerprint:?}), verified: Cow::Borrowed({verified:?}) }}"
            ),
        };
        writeln!(
            table,
            "    RuleDef {{ name: Cow::Borrowed({:?}), file: Cow::Borrowed({:?}), line: {}, canonical: {}, provenance: {provenance}, slots: {}, root: &ops::{}, body: Body::Compiled {{ roots: &[{}], guard: g_{i}, plan: p_{i} }} }},",
            rule.name,
            r.file,
            rule.pos.line,
            r.canonical,
            slots.0.len(),
            upper_ident(root_op(&rule.source[0])),
            roots.join(", "),
        )
        .unwrap();
        if r.canonical {
            let ident = upper_ident(&rule.name);
            writeln!(
                patterns,
                "/// `{}` ({}:{}) as a canonicalization pattern.\npub static {ident}: Pattern = Pattern {{ name: {:?}, apply: c_{i} }};\nfn c_{i}(rw: &mut Rewriter, op: Op) -> bool {{\n    rt::apply_at(rw, &COMPILED_RULES[{i}], op)\n}}\n",
                rule.name, r.file, rule.pos, rule.name
            )
            .unwrap();
        }
    }
    writeln!(
        e.out,
        "/// The compiled rules, canonicalization rules first in file order.\npub static COMPILED_RULES: &[RuleDef] = &[\n{table}];\n"
    )
    .unwrap();
    e.out.push_str(&patterns);
    e.out
}
