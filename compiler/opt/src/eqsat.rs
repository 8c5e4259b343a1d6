//! Equality saturation (Tensat, MLSys 2021): the `eqsat` mode of `rewrite-search`.
//!
//! The function's graph goes into an e-graph ([`crate::egraph`]); every search rule
//! with one output is matched on every class (its source pattern against the class's
//! nodes, its guards through the rule language's builtins) and its target added to the
//! matched class, iteration after iteration, until nothing new is found (saturated) or
//! a bound is reached: [`MAX_ITERATIONS`], [`MAX_NODES`], or the search's time limit.
//! Then the cheapest value of each class is extracted bottom-up (an op's cost from the
//! search's cost model, on operands of its operands' types; an op on compile-time
//! constants is free, as it folds) and the graph rebuilt from it. The caller costs the
//! result as a whole, like any other candidate, and keeps the whole-model check.
//!
//! Unlike the backtracking search, no intermediate graph has to be cheap: `(x @ A) @ B +
//! x @ W` reaches `x @ (W + A @ B)` through the costlier `x @ (A @ B)`. Rules with
//! several outputs (the merges of parallel ops) are not applied here (with a tree-cost
//! extraction an op shared by two outputs would be counted twice anyway); the search
//! runs them as `taso` afterwards. Only functions of one block without regions are
//! saturated.

// E-nodes hash by their op, attribute text and operands (see `egraph`).
#![allow(clippy::mutable_key_type)]

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;
use std::time::Instant;

use tcc_dialect_graph::ops as g;
use tcc_dialect_graph::rules::interp::builtin;
use tcc_dialect_graph::rules::matching::{self, Val};
use tcc_ir::builtin::create_func;
use tcc_ir::{AttrDict, DenseElements, Location, Module, Op, OpDef, OperationState, Scalar, Type, Value};
use tcc_rules::ast::{Expr, Pattern, Rule};

use crate::cost::CostModel;
use crate::egraph::{EGraph, ENode, Id, Kind, OpNode};

/// Iterations of matching and adding at most.
pub const MAX_ITERATIONS: usize = 12;
/// E-nodes at most: the saturation stops adding past it.
pub const MAX_NODES: usize = 20_000;

/// What a variable of a rule is bound to: a class, or an attribute's value.
#[derive(Clone, Debug)]
enum Bound {
    Class(Id),
    Val(Val),
}

type Binding = Vec<(String, Bound)>;

fn lookup<'a>(b: &'a Binding, name: &str) -> Option<&'a Bound> {
    b.iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

/// The graph op a rule names (without the dialect prefix).
fn op_def(name: &str) -> Option<&'static OpDef> {
    static BY_NAME: OnceLock<HashMap<&'static str, &'static OpDef>> = OnceLock::new();
    let by_name = BY_NAME.get_or_init(|| g::all().into_iter().map(|d| (&d.name["graph.".len()..], d)).collect());
    by_name.get(name).copied()
}

/// The op a pattern is a result of.
fn root_op(p: &Pattern) -> Option<&str> {
    match p {
        Pattern::Op(o) => Some(&o.op),
        Pattern::Result(_, inner, _) | Pattern::As(_, inner, _) => root_op(inner),
        Pattern::Var(..) => None,
    }
}

fn eval(eg: &EGraph, e: &Expr, b: &Binding) -> Option<Val> {
    match e {
        Expr::Int(v, _) => Some(Val::Int(*v)),
        Expr::Float(v, _) => Some(Val::Float(*v)),
        Expr::Var(name, _) => match lookup(b, name)? {
            Bound::Class(c) => Some(Val::Value(eg.class(*c).rep)),
            Bound::Val(v) => Some(v.clone()),
        },
        Expr::List(items, _) => matching::list(items.iter().map(|i| eval(eg, i, b)).collect::<Option<_>>()?),
        Expr::Call(f, args, _) => {
            let args = args.iter().map(|a| eval(eg, a, b)).collect::<Option<Vec<_>>>()?;
            builtin(f).ok()?(&eg.scratch, &args)
        }
    }
}

/// Attribute `name` of a node: its value, its default, or absent (as the module
/// matcher reads it); `None` if the op has no such attribute.
fn node_attr(n: &OpNode, name: &str) -> Option<Val> {
    match n.attrs.get(name) {
        Some(a) => Some(Val::Attr(a.clone())),
        None => Some(n.def.attr_spec(name)?.default_value().map_or(Val::Absent, Val::Attr)),
    }
}

/// Every way `p` matches a value of `class`, extending `b`.
fn match_pattern(eg: &EGraph, p: &Pattern, class: Id, b: Binding, out: &mut Vec<Binding>) {
    let class = eg.find(class);
    match p {
        Pattern::Var(name, _) | Pattern::As(name, _, _) => {
            let mut b = b;
            match lookup(&b, name) {
                Some(Bound::Class(c)) if eg.find(*c) == class => {}
                Some(_) => return,
                None => b.push((name.clone(), Bound::Class(class))),
            }
            match p {
                Pattern::As(_, inner, _) => match_pattern(eg, inner, class, b, out),
                _ => out.push(b),
            }
        }
        Pattern::Result(k, inner, _) => match_op(eg, inner, *k, class, b, out),
        Pattern::Op(_) => match_op(eg, p, 0, class, b, out),
    }
}

fn match_op(eg: &EGraph, p: &Pattern, k: usize, class: Id, b: Binding, out: &mut Vec<Binding>) {
    let (Pattern::Op(o), Some(def)) = (p, root_op(p).and_then(op_def)) else { return };
    for node in &eg.class(class).nodes {
        let Kind::Op(n) = &node.kind else { continue };
        if !std::ptr::eq(n.def, def) || n.result != k || node.children.len() != o.operands.len() {
            continue;
        }
        let mut partial = vec![b.clone()];
        for (pat, &child) in o.operands.iter().zip(&node.children) {
            let mut next = Vec::new();
            for pb in partial {
                match_pattern(eg, pat, child, pb, &mut next);
            }
            partial = next;
        }
        'bindings: for mut pb in partial {
            for (name, e) in &o.attrs {
                let Some(v) = node_attr(n, name) else { continue 'bindings };
                let same = match e {
                    Expr::Var(var, _) => match lookup(&pb, var) {
                        None => {
                            pb.push((var.clone(), Bound::Val(v)));
                            true
                        }
                        Some(Bound::Val(w)) => w.same(&v),
                        Some(Bound::Class(_)) => false,
                    },
                    other => eval(eg, other, &pb).is_some_and(|w| w.same(&v)),
                };
                if !same {
                    continue 'bindings;
                }
            }
            out.push(pb);
        }
    }
}

/// What a saturation did.
#[derive(Debug, Default)]
pub struct Saturation {
    pub iterations: usize,
    pub nodes: usize,
    /// Whether no rule found anything new (rather than a bound stopping it).
    pub saturated: bool,
    /// Equalities added, by the rule that found them.
    pub by_rule: Vec<(String, usize)>,
    /// The rules whose targets built nodes of the extracted graph (a rule whose target
    /// is one of its variables builds none).
    pub used: Vec<String>,
}

struct Saturator<'r> {
    eg: EGraph,
    rules: Vec<&'r Rule>,
    /// Rules by the op their source is a result of (its full name).
    by_root: HashMap<&'static str, Vec<usize>>,
    /// The rule that first built each node a target added.
    made_by: HashMap<ENode, usize>,
}

impl Saturator<'_> {
    fn build(&mut self, p: &Pattern, b: &Binding, rule: usize) -> Option<Id> {
        match p {
            Pattern::Var(name, _) => match lookup(b, name)? {
                Bound::Class(c) => Some(*c),
                Bound::Val(_) => None,
            },
            Pattern::As(..) => None,
            Pattern::Result(k, inner, _) => self.build_op(inner, *k, b, rule),
            Pattern::Op(_) => self.build_op(p, 0, b, rule),
        }
    }

    fn build_op(&mut self, p: &Pattern, k: usize, b: &Binding, rule: usize) -> Option<Id> {
        let Pattern::Op(o) = p else { return None };
        let def = op_def(&o.op)?;
        let children: Vec<Id> = o.operands.iter().map(|x| self.build(x, b, rule)).collect::<Option<_>>()?;
        let mut attrs = AttrDict::new();
        for (name, e) in &o.attrs {
            let v = eval(&self.eg, e, b)?;
            if !matches!(v, Val::Absent) {
                attrs.set(name, v.to_attribute()?);
            }
        }
        let types: Vec<Type> = children.iter().map(|&c| self.eg.class(c).ty.clone()).collect();
        let ty = def.infer_types(&types, &attrs).ok()?.get(k)?.clone();
        let node = ENode { kind: Kind::Op(OpNode::new(def, attrs, k)), children };
        let before = self.eg.node_count();
        let id = self.eg.add(node.clone(), ty, None);
        if self.eg.node_count() > before {
            self.made_by.insert(node, rule);
        }
        Some(id)
    }

    /// One iteration: every match of every rule, then every target added. Whether
    /// anything new was found.
    fn step(&mut self, deadline: Instant, counts: &mut [usize]) -> bool {
        let mut found: Vec<(usize, Id, Binding)> = Vec::new();
        let classes: Vec<Id> = self.eg.roots().collect();
        for class in classes {
            if Instant::now() > deadline {
                break;
            }
            let roots: HashSet<&'static str> = self
                .eg
                .class(class)
                .nodes
                .iter()
                .filter_map(|n| if let Kind::Op(o) = &n.kind { Some(o.def.name) } else { None })
                .collect();
            for root in roots {
                for &r in self.by_root.get(root).map_or(&[][..], |v| &v[..]) {
                    let rule = self.rules[r];
                    let mut out = Vec::new();
                    match_pattern(&self.eg, &rule.source[0], class, Vec::new(), &mut out);
                    for b in out {
                        if rule.guards.iter().all(|gd| eval(&self.eg, gd, &b).and_then(|v| v.truth()) == Some(true)) {
                            found.push((r, class, b));
                        }
                    }
                }
            }
        }
        let mut changed = false;
        for (r, class, b) in found {
            if self.eg.node_count() > MAX_NODES || Instant::now() > deadline {
                break;
            }
            let Some(new) = self.build(&self.rules[r].target[0], &b, r) else { continue };
            if self.eg.class(new).ty == self.eg.class(class).ty && self.eg.union(class, new) {
                counts[r] += 1;
                changed = true;
            }
        }
        self.eg.rebuild();
        changed
    }
}

/// Costs of e-nodes (seconds), each costed once by the op alone on operands of its
/// operands' types (compile-time constants as constants).
struct NodeCosts<'c, 'a> {
    cost: &'c mut CostModel<'a>,
    known: HashMap<String, f64>,
}

impl NodeCosts<'_, '_> {
    fn of(&mut self, eg: &EGraph, node: &ENode, constant: &[bool]) -> f64 {
        let Kind::Op(n) = &node.kind else { return 0.0 };
        let fixed: Vec<(Type, bool)> =
            node.children.iter().map(|&c| (eg.class(c).ty.clone(), constant[eg.find(c)])).collect();
        if fixed.iter().all(|(_, c)| *c) {
            return 0.0; // it folds at compile time
        }
        let key = format!("{}|{}|{}|{fixed:?}", n.def.name, n.key, n.result);
        if let Some(&c) = self.known.get(&key) {
            return c;
        }
        let c = self.measure_alone(n, &fixed).unwrap_or(f64::INFINITY);
        self.known.insert(key, c);
        c
    }

    fn measure_alone(&mut self, n: &OpNode, operands: &[(Type, bool)]) -> Option<f64> {
        let loc = Location::unknown();
        let mut m = Module::new(loc.clone());
        let (_, block) = create_func(&mut m, "op", vec![], vec![], loc.clone());
        let mut values = Vec::new();
        for (ty, constant) in operands {
            let v = match (constant, ty.as_tensor()) {
                (true, Some(t)) => {
                    let dense = DenseElements::splat(t.clone(), Scalar::Float(0.0));
                    let c = m
                        .append_inferred(
                            block,
                            &g::CONSTANT,
                            &[],
                            AttrDict::new().with("value", tcc_ir::Attribute::Dense(dense)),
                            loc.clone(),
                        )
                        .ok()?;
                    m.result(c, 0)
                }
                _ => m.add_block_arg(block, ty.clone()),
            };
            values.push(v);
        }
        let types: Vec<Type> = operands.iter().map(|(t, _)| t.clone()).collect();
        let mut state = OperationState::new(n.def, loc);
        state.operands = values;
        state.attrs = (*n.attrs).clone();
        state.result_types = n.def.infer_types(&types, &n.attrs).ok()?;
        let op = m.create_op(state);
        m.append_op(block, op);
        Some(self.cost.op_cost(&m, op))
    }
}

/// The cheapest node of each class (its index among the class's nodes) and its cost.
fn extract(eg: &EGraph, costs: &mut NodeCosts) -> HashMap<Id, (f64, usize)> {
    let n = eg.roots().max().map_or(0, |m| m + 1);
    // Classes holding a compile-time constant: a constant, or ops on such classes.
    let mut constant = vec![false; n];
    let is_constant_leaf = |v: Value| eg.scratch.defining_op(v).is_some_and(|d| eg.scratch.is(d, &g::CONSTANT));
    loop {
        let mut changed = false;
        for c in eg.roots() {
            if !constant[c]
                && eg.class(c).nodes.iter().any(|node| match &node.kind {
                    Kind::Leaf(v) => is_constant_leaf(*v),
                    Kind::Op(_) => node.children.iter().all(|&x| constant[eg.find(x)]),
                })
            {
                constant[c] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut best: HashMap<Id, (f64, usize)> = HashMap::new();
    loop {
        let mut changed = false;
        for c in eg.roots() {
            for (i, node) in eg.class(c).nodes.iter().enumerate() {
                let Some(children) =
                    node.children.iter().map(|&x| best.get(&eg.find(x)).map(|b| b.0)).sum::<Option<f64>>()
                else {
                    continue;
                };
                let total = costs.of(eg, node, &constant) + children;
                if best.get(&c).is_none_or(|b| total < b.0) {
                    best.insert(c, (total, i));
                    changed = true;
                }
            }
        }
        if !changed {
            return best;
        }
    }
}

/// `m` with its function's returned values rebuilt from the extracted nodes (inserted
/// before `ret`); the ops no longer used are erased.
fn rebuild(
    m: &Module,
    eg: &EGraph,
    best: &HashMap<Id, (f64, usize)>,
    ret: Op,
    outputs: &[Id],
) -> Option<(Module, Vec<Id>)> {
    let mut out = m.clone();
    let mut built: HashMap<Id, Value> = HashMap::new();
    let mut ops: HashMap<(&'static str, std::sync::Arc<str>, Vec<Value>), Op> = HashMap::new();
    for &root in outputs {
        // Post-order without recursion: a class is built once its operands are.
        let mut stack = vec![(eg.find(root), false)];
        let mut open: HashSet<Id> = HashSet::new();
        while let Some((c, ready)) = stack.pop() {
            if built.contains_key(&c) {
                continue;
            }
            let node = &eg.class(c).nodes[best.get(&c)?.1];
            if !ready {
                if !open.insert(c) {
                    return None; // a cycle: no graph
                }
                stack.push((c, true));
                stack.extend(node.children.iter().map(|&x| (eg.find(x), false)));
                continue;
            }
            let v = match &node.kind {
                Kind::Leaf(v) => *v,
                Kind::Op(n) => {
                    let operands: Vec<Value> = node.children.iter().map(|&x| built[&eg.find(x)]).collect();
                    // The input's own op, when it is the one chosen, on the same operands:
                    // kept (its handle, and so its cost, stay the input's).
                    let original = eg.class(c).origin.filter(|&v| {
                        out.defining_op(v).is_some_and(|d| {
                            std::ptr::eq(out.def(d), n.def)
                                && out.results(d).get(n.result) == Some(&v)
                                && out.operands(d) == &operands[..]
                                && OpNode::new(n.def, out.attrs(d).clone(), n.result) == *n
                        })
                    });
                    if let Some(v) = original {
                        built.insert(c, v);
                        continue;
                    }
                    let key = (n.def.name, n.key.clone(), operands.clone());
                    let op = match ops.get(&key) {
                        Some(&op) => op,
                        None => {
                            let types: Vec<Type> = operands.iter().map(|&v| out.value_type(v).clone()).collect();
                            let mut state = OperationState::new(n.def, out.loc(ret).clone());
                            state.result_types = n.def.infer_types(&types, &n.attrs).ok()?;
                            state.operands = operands;
                            state.attrs = (*n.attrs).clone();
                            let op = out.create_op(state);
                            out.insert_op_before(ret, op);
                            ops.insert(key, op);
                            op
                        }
                    };
                    out.result(op, n.result)
                }
            };
            built.insert(c, v);
        }
    }
    for (i, &c) in outputs.iter().enumerate() {
        out.set_operand(ret, i, built[&eg.find(c)]);
    }
    crate::search::erase_dead(&mut out);
    Some((out, built.into_keys().collect()))
}

/// Saturates the single function of `m` with `rules` (those with one output) and
/// extracts its cheapest form; `None` when `m` is not a function of one block without
/// regions, or the extraction fails.
pub fn saturate(m: &Module, rules: &[Rule], cost: &mut CostModel, deadline: Instant) -> Option<(Module, Saturation)> {
    let funcs = m.funcs();
    let [func] = funcs[..] else { return None };
    let [region] = m.regions(func) else { return None };
    let [block] = m.region_blocks(*region) else { return None };
    let block = *block;
    let mut eg = EGraph::new(m);
    let mut class_of: HashMap<Value, Id> = HashMap::new();
    for &a in m.block_args(block) {
        class_of.insert(a, eg.add(ENode { kind: Kind::Leaf(a), children: vec![] }, m.value_type(a).clone(), Some(a)));
    }
    let mut ret = None;
    for op in m.block_ops(block) {
        if m.next_op(op).is_none() {
            ret = Some(op);
            break;
        }
        if !m.regions(op).is_empty() {
            return None;
        }
        for (k, &r) in m.results(op).iter().enumerate() {
            let ty = m.value_type(r).clone();
            let id = if m.is(op, &g::CONSTANT) {
                eg.add(ENode { kind: Kind::Leaf(r), children: vec![] }, ty, Some(r))
            } else {
                let children = m.operands(op).iter().map(|v| class_of.get(v).copied()).collect::<Option<Vec<_>>>()?;
                let node = OpNode::new(m.def(op), m.attrs(op).clone(), k);
                eg.add(ENode { kind: Kind::Op(node), children }, ty, Some(r))
            };
            class_of.insert(r, id);
        }
    }
    let ret = ret?;
    let outputs: Vec<Id> = m.operands(ret).iter().map(|v| class_of.get(v).copied()).collect::<Option<_>>()?;
    let rules: Vec<&Rule> = rules.iter().filter(|r| r.source.len() == 1 && r.target.len() == 1).collect();
    let mut by_root: HashMap<&'static str, Vec<usize>> = HashMap::new();
    for (i, r) in rules.iter().enumerate() {
        if let Some(def) = root_op(&r.source[0]).and_then(op_def) {
            by_root.entry(def.name).or_default().push(i);
        }
    }
    let mut sat = Saturator { eg, rules, by_root, made_by: HashMap::new() };
    let mut counts = vec![0; sat.rules.len()];
    let mut stats = Saturation::default();
    while stats.iterations < MAX_ITERATIONS && sat.eg.node_count() <= MAX_NODES && Instant::now() <= deadline {
        stats.iterations += 1;
        if !sat.step(deadline, &mut counts) {
            stats.saturated = true;
            break;
        }
    }
    stats.nodes = sat.eg.node_count();
    stats.by_rule =
        counts.iter().enumerate().filter(|(_, n)| **n > 0).map(|(r, n)| (sat.rules[r].name.clone(), *n)).collect();
    let best = extract(&sat.eg, &mut NodeCosts { cost, known: HashMap::new() });
    let (graph, classes) = rebuild(m, &sat.eg, &best, ret, &outputs)?;
    let made_by: HashMap<ENode, usize> = sat.made_by.iter().map(|(n, &r)| (sat.eg.canonical(n), r)).collect();
    let mut used: Vec<String> = Vec::new();
    for c in classes {
        if let Some(&r) = made_by.get(&sat.eg.class(c).nodes[best[&c].1]) {
            let name = &sat.rules[r].name;
            if !used.contains(name) {
                used.push(name.clone());
            }
        }
    }
    used.sort();
    stats.used = used;
    Some((graph, stats))
}
