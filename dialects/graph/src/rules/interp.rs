//! The rule engine: every rule (hand-written or generated, canonicalization or search)
//! runs from its syntax, parsed when first needed and lowered here into a [`Program`]:
//! variables as binding slots (numbered by first appearance in the source), ops as
//! their definitions, builtins as their functions. Matching walks a source pattern
//! operands first, then attributes; guards and the target plan then run on the
//! bindings, through the runtime ([`super::matching`]).
//!
//! The build script has already parsed and checked these files, and it names every op
//! they use in Rust, so an op the dialect lacks fails the build, not the load.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use tcc_ir::{Module, Op, OpDef, Value};
use tcc_rules::ast::{Expr, Pattern, Provenance as AstProvenance, Rule};

use super::matching::{self, Binding, Provenance, RuleDef, Src, TargetPlan, Val};
use super::{BUILTIN_FNS, BuiltinFn};

/// A rule expression with variables resolved to slots and builtins to functions.
#[derive(Debug)]
enum CExpr {
    Int(i64),
    Float(f64),
    List(Vec<CExpr>),
    Slot(usize),
    Call(BuiltinFn, Vec<CExpr>),
}

/// How an op pattern treats one attribute: binds a fresh variable, or requires a value.
#[derive(Debug)]
enum CAttr {
    Bind(usize),
    Is(CExpr),
}

#[derive(Debug)]
enum CPattern {
    /// Binds (or checks) a slot.
    Var(usize),
    /// Result `k` of an op.
    Op { result: usize, op: COp },
    /// Binds a slot, then matches.
    As(usize, Box<CPattern>),
}

#[derive(Debug)]
struct COp {
    def: &'static OpDef,
    operands: Vec<CPattern>,
    attrs: Vec<(String, CAttr)>,
}

/// The root of one source output: result `result` of `op`, its value also bound to
/// `bind`.
#[derive(Debug)]
struct CRoot {
    result: usize,
    bind: Option<usize>,
    op: COp,
}

#[derive(Debug)]
enum CSrc {
    Slot(usize),
    Node(usize, usize),
}

#[derive(Debug)]
struct CNode {
    def: &'static OpDef,
    operands: Vec<CSrc>,
    attrs: Vec<(String, CExpr)>,
}

/// One rule, ready to run.
#[derive(Debug)]
pub struct Program {
    roots: Vec<CRoot>,
    guards: Vec<CExpr>,
    /// Target ops, operands before users, identical subterms once.
    nodes: Vec<CNode>,
    outputs: Vec<CSrc>,
}

/// Lowers rules into programs; slots are numbered by first appearance.
struct Lowering {
    slots: HashMap<String, usize>,
}

fn def_of(op: &str) -> Result<&'static OpDef, String> {
    static BY_NAME: OnceLock<HashMap<&'static str, &'static OpDef>> = OnceLock::new();
    let by_name = BY_NAME.get_or_init(|| {
        crate::ops::all().into_iter().map(|d| (d.name.strip_prefix("graph.").unwrap_or(d.name), d)).collect()
    });
    by_name.get(op).copied().ok_or(format!("unknown op `graph.{op}`"))
}

/// The builtin function called `name` in the rule language.
pub fn builtin(name: &str) -> Result<BuiltinFn, String> {
    static BY_NAME: OnceLock<HashMap<&'static str, BuiltinFn>> = OnceLock::new();
    let by_name = BY_NAME.get_or_init(|| BUILTIN_FNS.iter().copied().collect());
    by_name.get(name).copied().ok_or(format!("unknown function `{name}`"))
}

impl Lowering {
    fn slot(&mut self, name: &str) -> usize {
        let n = self.slots.len();
        *self.slots.entry(name.to_string()).or_insert(n)
    }

    fn expr(&mut self, e: &Expr) -> Result<CExpr, String> {
        Ok(match e {
            Expr::Int(v, _) => CExpr::Int(*v),
            Expr::Float(v, _) => CExpr::Float(*v),
            Expr::Var(name, _) => CExpr::Slot(self.slot(name)),
            Expr::List(items, _) => CExpr::List(items.iter().map(|i| self.expr(i)).collect::<Result<_, _>>()?),
            Expr::Call(f, args, _) => {
                CExpr::Call(builtin(f)?, args.iter().map(|a| self.expr(a)).collect::<Result<_, _>>()?)
            }
        })
    }

    fn value(&mut self, p: &Pattern) -> Result<CPattern, String> {
        Ok(match p {
            Pattern::Var(name, _) => CPattern::Var(self.slot(name)),
            Pattern::As(name, inner, _) => {
                let s = self.slot(name);
                CPattern::As(s, Box::new(self.value(inner)?))
            }
            Pattern::Result(k, inner, _) => CPattern::Op { result: *k, op: self.op(inner)? },
            Pattern::Op(_) => CPattern::Op { result: 0, op: self.op(p)? },
        })
    }

    fn op(&mut self, p: &Pattern) -> Result<COp, String> {
        let Pattern::Op(o) = p else { unreachable!("result and as wrap op patterns") };
        let def = def_of(&o.op)?;
        let operands = o.operands.iter().map(|x| self.value(x)).collect::<Result<_, _>>()?;
        let mut attrs = Vec::new();
        for (name, e) in &o.attrs {
            let a = match e {
                Expr::Var(var, _) if !self.slots.contains_key(var) => CAttr::Bind(self.slot(var)),
                _ => CAttr::Is(self.expr(e)?),
            };
            attrs.push((name.clone(), a));
        }
        Ok(COp { def, operands, attrs })
    }

    fn root(&mut self, p: &Pattern) -> Result<CRoot, String> {
        let (result, inner, name) = match p {
            Pattern::Result(k, inner, _) => (*k, inner.as_ref(), None),
            Pattern::As(name, inner, _) => match inner.as_ref() {
                Pattern::Result(k, inner, _) => (*k, inner.as_ref(), Some(name)),
                other => (0, other, Some(name)),
            },
            other => (0, other, None),
        };
        let bind = name.map(|n| self.slot(n));
        Ok(CRoot { result, bind, op: self.op(inner)? })
    }

    fn target(
        &mut self,
        p: &Pattern,
        nodes: &mut Vec<CNode>,
        seen: &mut HashMap<String, usize>,
    ) -> Result<CSrc, String> {
        Ok(match p {
            Pattern::Var(name, _) => CSrc::Slot(self.slot(name)),
            Pattern::As(..) => unreachable!("the parser rejects `as` in targets"),
            Pattern::Result(k, inner, _) => CSrc::Node(self.node(inner, nodes, seen)?, *k),
            Pattern::Op(_) => CSrc::Node(self.node(p, nodes, seen)?, 0),
        })
    }

    fn node(
        &mut self,
        p: &Pattern,
        nodes: &mut Vec<CNode>,
        seen: &mut HashMap<String, usize>,
    ) -> Result<usize, String> {
        let Pattern::Op(o) = p else { unreachable!("result wraps op patterns") };
        let key = tcc_rules::tables::render_target(p);
        if let Some(&n) = seen.get(&key) {
            return Ok(n);
        }
        let operands = o.operands.iter().map(|x| self.target(x, nodes, seen)).collect::<Result<_, _>>()?;
        let attrs = o.attrs.iter().map(|(name, e)| Ok((name.clone(), self.expr(e)?))).collect::<Result<_, String>>()?;
        nodes.push(CNode { def: def_of(&o.op)?, operands, attrs });
        seen.insert(key, nodes.len() - 1);
        Ok(nodes.len() - 1)
    }
}

/// Lowers `rule` into a program and the number of slots it binds.
fn lower(rule: &Rule) -> Result<(Program, usize), String> {
    let mut l = Lowering { slots: HashMap::new() };
    let roots = rule.source.iter().map(|p| l.root(p)).collect::<Result<_, _>>()?;
    let guards = rule.guards.iter().map(|g| l.expr(g)).collect::<Result<_, _>>()?;
    let (mut nodes, mut seen) = (Vec::new(), HashMap::new());
    let outputs = rule.target.iter().map(|t| l.target(t, &mut nodes, &mut seen)).collect::<Result<_, _>>()?;
    Ok((Program { roots, guards, nodes, outputs }, l.slots.len()))
}

fn eval(m: &Module, e: &CExpr, b: &Binding) -> Option<Val> {
    match e {
        CExpr::Int(v) => Some(Val::Int(*v)),
        CExpr::Float(v) => Some(Val::Float(*v)),
        CExpr::Slot(s) => b.get(*s),
        CExpr::List(items) => matching::list(items.iter().map(|i| eval(m, i, b)).collect::<Option<_>>()?),
        CExpr::Call(f, args) => f(m, &args.iter().map(|a| eval(m, a, b)).collect::<Option<Vec<_>>>()?),
    }
}

fn match_value(m: &Module, p: &CPattern, value: Value, b: &mut Binding) -> Option<()> {
    match p {
        CPattern::Var(s) => b.bind(*s, Val::Value(value)),
        CPattern::As(s, inner) => {
            b.bind(*s, Val::Value(value))?;
            match_value(m, inner, value, b)
        }
        CPattern::Op { result, op } => match_op(m, op, matching::producer(m, value, *result)?, b),
    }
}

fn match_op(m: &Module, p: &COp, op: Op, b: &mut Binding) -> Option<()> {
    matching::is_op(m, op, p.def, p.operands.len())?;
    for (i, operand) in p.operands.iter().enumerate() {
        match_value(m, operand, m.operand(op, i), b)?;
    }
    for (name, a) in &p.attrs {
        match a {
            CAttr::Bind(s) => b.bind(*s, matching::attr(m, op, name)?)?,
            CAttr::Is(e) => matching::attr_is(m, op, name, &eval(m, e, b)?)?,
        }
    }
    Some(())
}

impl Program {
    pub fn roots(&self) -> usize {
        self.roots.len()
    }

    /// The op source output 0 is a result of.
    pub fn root_def(&self) -> &'static OpDef {
        self.roots[0].op.def
    }

    /// The op source output `k` is a result of.
    pub fn root_def_of(&self, k: usize) -> &'static OpDef {
        self.roots[k].op.def
    }

    /// Matches source output `k` at `op`, extending `b`.
    pub fn match_root(&self, k: usize, m: &Module, op: Op, b: &mut Binding) -> Option<()> {
        let root = &self.roots[k];
        let out = matching::result_of(m, op, root.result)?;
        if let Some(s) = root.bind {
            b.bind(s, Val::Value(out))?;
        }
        match_op(m, &root.op, op, b)?;
        b.root(op, out);
        Some(())
    }

    pub fn guard(&self, m: &Module, b: &Binding) -> Option<bool> {
        for g in &self.guards {
            if !eval(m, g, b)?.truth()? {
                return Some(false);
            }
        }
        Some(true)
    }

    pub fn plan(&self, m: &Module, b: &Binding) -> Option<TargetPlan> {
        let mut p = TargetPlan::default();
        let src = |s: &CSrc| -> Option<Src> {
            Some(match *s {
                CSrc::Slot(slot) => Src::Value(b.value(slot)?),
                CSrc::Node(n, k) => Src::Node(n, k),
            })
        };
        for node in &self.nodes {
            let operands = node.operands.iter().map(src).collect::<Option<Vec<_>>>()?;
            let attrs =
                node.attrs.iter().map(|(name, e)| Some((name.as_str(), eval(m, e, b)?))).collect::<Option<Vec<_>>>()?;
            p.op(node.def, operands, attrs)?;
        }
        p.outputs = self.outputs.iter().map(src).collect::<Option<_>>()?;
        Some(p)
    }
}

/// The rules of a rule file's text, ready to run (as canonicalization rules when
/// `canonical`); errors name the file, line and column.
pub fn load(path: &str, text: &str, canonical: bool) -> Result<Vec<RuleDef>, String> {
    let file = tcc_rules::parse::parse_file(path, text).map_err(|e| e.render(path, text))?;
    lower_all(path, &file.rules, canonical)
}

/// Rules of the file `path`, parsed, as [`load`] makes them.
pub fn lower_all(path: &str, rules: &[Rule], canonical: bool) -> Result<Vec<RuleDef>, String> {
    let mut out = Vec::new();
    for rule in rules {
        let (program, slots) =
            lower(rule).map_err(|e| format!("{path}:{}: error: rule `{}`: {e}", rule.pos, rule.name))?;
        let provenance = match &rule.provenance {
            AstProvenance::Hand => Provenance::Hand,
            AstProvenance::Generated { fingerprint, verified } => Provenance::Generated {
                fingerprint: Cow::Owned(fingerprint.clone()),
                verified: Cow::Owned(verified.clone()),
            },
        };
        out.push(RuleDef {
            name: Cow::Owned(rule.name.clone()),
            file: Cow::Owned(path.to_string()),
            line: rule.pos.line,
            canonical,
            provenance,
            slots,
            root: program.root_def(),
            program: Box::new(program),
        });
    }
    Ok(out)
}
