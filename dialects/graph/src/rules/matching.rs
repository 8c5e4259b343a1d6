//! What rules run on: the rules ([`RuleDef`], each with its interpreted program),
//! binding slots ([`Binding`]), the target plan ([`TargetPlan`]), the match drivers
//! ([`find_matches`], [`RuleIndex`], [`apply_at`]) and the appliers that rewrite in
//! place (canonicalization) or a copy (the search).
//!
//! A plan is type-checked before anything is created: every target op's result types
//! are inferred, and each output must have exactly the type of the source output it
//! replaces, so a rule can never change a value's type, whatever its guards say.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use tcc_ir::{AttrDict, Attribute, Module, Op, OpDef, OperationState, Rewriter, Type, Value};

/// A value in rule expressions.
#[derive(Clone, Debug)]
pub enum Val {
    Bool(bool),
    Int(i64),
    Ints(Vec<i64>),
    Float(f64),
    /// An attribute as the op holds it.
    Attr(Attribute),
    /// An SSA value of the graph.
    Value(Value),
    /// An optional attribute the op does not have (and which has no default); as a
    /// target attribute's value, the attribute is left out.
    Absent,
}

impl Val {
    /// Attributes read as the plain values they hold.
    pub fn normalized(&self) -> Val {
        match self {
            Val::Attr(a) => match a {
                Attribute::Bool(b) => Val::Bool(*b),
                Attribute::Int(..) => a.as_i64().map_or(self.clone(), Val::Int),
                Attribute::Float(..) => a.as_f64().map_or(self.clone(), Val::Float),
                _ => a.as_i64_list().map_or(self.clone(), Val::Ints),
            },
            other => other.clone(),
        }
    }

    pub fn truth(&self) -> Option<bool> {
        match self.normalized() {
            Val::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn int(&self) -> Option<i64> {
        match self.normalized() {
            Val::Int(v) => Some(v),
            _ => None,
        }
    }

    pub fn ints(&self) -> Option<Vec<i64>> {
        match self.normalized() {
            Val::Ints(v) => Some(v),
            _ => None,
        }
    }

    pub fn float(&self) -> Option<f64> {
        match self.normalized() {
            Val::Float(v) => Some(v),
            Val::Int(v) => Some(v as f64),
            _ => None,
        }
    }

    pub fn value(&self) -> Option<Value> {
        match self {
            Val::Value(v) => Some(*v),
            _ => None,
        }
    }

    /// The attribute a target op gets for this value.
    pub fn to_attribute(&self) -> Option<Attribute> {
        match self {
            Val::Bool(b) => Some(Attribute::Bool(*b)),
            Val::Int(v) => Some(Attribute::i64(*v)),
            Val::Ints(v) => Some(Attribute::i64_list(v)),
            Val::Float(v) => Some(Attribute::f64(*v)),
            Val::Attr(a) => Some(a.clone()),
            Val::Value(_) | Val::Absent => None,
        }
    }

    /// Equality as rules mean it: an attribute equals the plain value it holds.
    pub fn same(&self, other: &Val) -> bool {
        match (self.normalized(), other.normalized()) {
            (Val::Bool(a), Val::Bool(b)) => a == b,
            (Val::Int(a), Val::Int(b)) => a == b,
            (Val::Ints(a), Val::Ints(b)) => a == b,
            (Val::Float(a), Val::Float(b)) => a.to_bits() == b.to_bits(),
            (Val::Value(a), Val::Value(b)) => a == b,
            (Val::Attr(a), Val::Attr(b)) => a == b,
            (Val::Absent, Val::Absent) => true,
            _ => false,
        }
    }
}

/// `[a b ...]` in a rule: a list of integers.
pub fn list(items: Vec<Val>) -> Option<Val> {
    items.iter().map(Val::int).collect::<Option<Vec<_>>>().map(Val::Ints)
}

/// Where a provenance record says a rule came from.
#[derive(Clone, Debug, PartialEq)]
pub enum Provenance {
    Hand,
    Generated { fingerprint: Cow<'static, str>, verified: Cow<'static, str> },
}

/// One rule.
pub struct RuleDef {
    pub name: Cow<'static, str>,
    /// The rule file it was written in, and the line of its `(rule`.
    pub file: Cow<'static, str>,
    pub line: u32,
    /// Canonicalization rule (applied greedily) rather than a search-only rule.
    pub canonical: bool,
    pub provenance: Provenance,
    /// How many variables the rule binds.
    pub slots: usize,
    /// The op whose result the first source output is.
    pub root: &'static OpDef,
    pub program: Box<super::interp::Program>,
}

impl RuleDef {
    /// The number of source outputs.
    pub fn roots(&self) -> usize {
        self.program.roots()
    }

    /// The op source output `k` is a result of (a root elsewhere cannot match it).
    pub fn root_def_of(&self, k: usize) -> &'static OpDef {
        self.program.root_def_of(k)
    }

    /// Matches source output `k` at `op`, extending `b`.
    pub fn match_root(&self, k: usize, m: &Module, op: Op, b: &mut Binding) -> Option<()> {
        self.program.match_root(k, m, op, b)
    }

    /// Whether the guards hold for a complete match (`None`: they could not be
    /// evaluated, which is no match either).
    pub fn guard(&self, m: &Module, b: &Binding) -> Option<bool> {
        self.program.guard(m, b)
    }

    /// The target to build for a match.
    pub fn plan(&self, m: &Module, b: &Binding) -> Option<TargetPlan> {
        self.program.plan(m, b)
    }
}

/// A (partial) match: variable slots, and the source's output ops and values.
#[derive(Clone, Debug)]
pub struct Binding {
    slots: Vec<Option<Val>>,
    pub roots: Vec<Op>,
    pub outputs: Vec<Value>,
}

impl Binding {
    pub fn new(slots: usize) -> Binding {
        Binding { slots: vec![None; slots], roots: Vec::new(), outputs: Vec::new() }
    }

    /// Binds slot `i`, or checks that it already holds the same thing.
    pub fn bind(&mut self, i: usize, v: Val) -> Option<()> {
        match &self.slots[i] {
            Some(old) => old.same(&v).then_some(()),
            None => {
                self.slots[i] = Some(v);
                Some(())
            }
        }
    }

    pub fn get(&self, i: usize) -> Option<Val> {
        self.slots[i].clone()
    }

    pub fn value(&self, i: usize) -> Option<Value> {
        self.slots[i].as_ref()?.value()
    }

    pub fn root(&mut self, op: Op, out: Value) {
        self.roots.push(op);
        self.outputs.push(out);
    }

    fn bound_values(&self) -> impl Iterator<Item = Value> + '_ {
        self.slots.iter().flatten().filter_map(Val::value).chain(self.outputs.iter().copied())
    }
}

/// The op whose result `k` is `v`.
pub fn producer(m: &Module, v: Value, k: usize) -> Option<Op> {
    let op = m.defining_op(v)?;
    (m.results(op).get(k) == Some(&v)).then_some(op)
}

/// Result `k` of `op`.
pub fn result_of(m: &Module, op: Op, k: usize) -> Option<Value> {
    m.results(op).get(k).copied()
}

/// Whether `op` is a `def` with `operands` operands.
pub fn is_op(m: &Module, op: Op, def: &OpDef, operands: usize) -> Option<()> {
    (m.is(op, def) && m.operands(op).len() == operands && m.parent_block(op).is_some()).then_some(())
}

/// Attribute `name` of `op`, its default if absent.
pub fn attr(m: &Module, op: Op, name: &str) -> Option<Val> {
    match m.attr_or_default(op, name) {
        Some(a) => Some(Val::Attr(a.clone())),
        // An optional attribute without a default: absent, which rules can test for.
        None => m.def(op).attr_spec(name).map(|_| Val::Absent),
    }
}

/// Whether attribute `name` of `op` equals `want`.
pub fn attr_is(m: &Module, op: Op, name: &str, want: &Val) -> Option<()> {
    attr(m, op, name)?.same(want).then_some(())
}

/// Where a target operand comes from: a bound value, or result `k` of plan node `n`.
#[derive(Clone, Copy, Debug)]
pub enum Src {
    Value(Value),
    Node(usize, usize),
}

struct PlannedOp {
    def: &'static OpDef,
    operands: Vec<Src>,
    attrs: AttrDict,
}

/// The ops a target creates, in order, and the values replacing the source's outputs.
#[derive(Default)]
pub struct TargetPlan {
    nodes: Vec<PlannedOp>,
    pub outputs: Vec<Src>,
}

impl TargetPlan {
    /// Adds an op; `None` if an attribute value is not an attribute.
    pub fn op(&mut self, def: &'static OpDef, operands: Vec<Src>, attrs: Vec<(&str, Val)>) -> Option<usize> {
        let mut dict = AttrDict::new();
        for (name, v) in attrs {
            if !matches!(v, Val::Absent) {
                dict.set(name, v.to_attribute()?);
            }
        }
        self.nodes.push(PlannedOp { def, operands, attrs: dict });
        Some(self.nodes.len() - 1)
    }

    /// Creates the plan's ops and replaces the matched outputs; false (and nothing
    /// changed) if a type does not infer, an output's type differs from the value it
    /// replaces, the target is the source itself, or the roots cannot be replaced at
    /// one point of their block.
    pub fn realize(&self, rw: &mut Rewriter, b: &Binding) -> bool {
        let Some(types) = self.infer(rw) else { return false };
        let src_type = |s: &Src| -> Type {
            match *s {
                Src::Value(v) => rw.value_type(v).clone(),
                Src::Node(n, k) => types[n][k].clone(),
            }
        };
        if self.outputs.len() != b.outputs.len()
            || self.outputs.iter().zip(&b.outputs).any(|(s, &old)| src_type(s) != *rw.value_type(old))
            || self.outputs.iter().zip(&b.outputs).all(|(s, &old)| matches!(*s, Src::Value(v) if v == old))
        {
            return false;
        }
        let Some(anchor) = insertion_point(rw, b, self) else { return false };
        let loc = rw.loc(anchor).clone();
        let mut created: Vec<Vec<Value>> = Vec::new();
        for (node, result_types) in self.nodes.iter().zip(types) {
            let mut state = OperationState::new(node.def, loc.clone());
            state.operands = node.operands.iter().map(|s| resolve(*s, &created)).collect();
            state.attrs = node.attrs.clone();
            state.result_types = result_types;
            let op = rw.create_before(anchor, state);
            created.push(rw.results(op).to_vec());
        }
        for (s, &old) in self.outputs.iter().zip(&b.outputs) {
            let new = resolve(*s, &created);
            if new != old {
                rw.replace_all_uses(old, new);
            }
        }
        for &root in &b.roots {
            if !rw.is_erased(root) && rw.results_unused(root) {
                rw.erase_op(root);
            }
        }
        true
    }

    fn infer(&self, m: &Module) -> Option<Vec<Vec<Type>>> {
        let mut types: Vec<Vec<Type>> = Vec::new();
        for node in &self.nodes {
            let operand_types: Vec<Type> = node
                .operands
                .iter()
                .map(|s| match *s {
                    Src::Value(v) => Some(m.value_type(v).clone()),
                    Src::Node(n, k) => types.get(n)?.get(k).cloned(),
                })
                .collect::<Option<_>>()?;
            let results = node.def.infer_types(&operand_types, &node.attrs).ok()?;
            types.push(results);
        }
        Some(types)
    }
}

fn resolve(s: Src, created: &[Vec<Value>]) -> Value {
    match s {
        Src::Value(v) => v,
        Src::Node(n, k) => created[n][k],
    }
}

/// The op before which the target is built: the root, or with several roots the first
/// of them in their block. What the target uses must be defined before it: a pure
/// op defined later (the second root's weights, say) moves up, with its operands. A
/// value computed by a root, or from one, cannot be: the target replaces the roots (two
/// matmuls sharing their left operand, the second consuming the first, are not
/// parallel branches to merge).
fn insertion_point(rw: &mut Rewriter, b: &Binding, plan: &TargetPlan) -> Option<Op> {
    let block = rw.parent_block(*b.roots.first()?)?;
    if b.roots.len() == 1 {
        return Some(b.roots[0]);
    }
    if b.roots.iter().any(|&r| rw.parent_block(r) != Some(block)) {
        return None;
    }
    let order: HashMap<Op, usize> = rw.block_ops(block).enumerate().map(|(i, op)| (op, i)).collect();
    let anchor = *b.roots.iter().min_by_key(|r| order.get(r))?;
    let mut moves = Vec::new();
    for node in &plan.nodes {
        for s in &node.operands {
            if let Src::Value(v) = *s
                && !defined_before(rw, v, (anchor, &b.roots), &order, &mut moves, 0)
            {
                return None;
            }
        }
    }
    for op in moves {
        rw.module_mut().move_op_before(op, anchor);
    }
    Some(anchor)
}

/// Whether `v` is defined before `anchor` (the first of `roots`), or can be by moving
/// pure ops without regions (added to `moves`, operands first) above it; never when it
/// is a root's result or computed from one.
fn defined_before(
    m: &Module,
    v: Value,
    (anchor, roots): (Op, &[Op]),
    order: &HashMap<Op, usize>,
    moves: &mut Vec<Op>,
    depth: usize,
) -> bool {
    let Some(def) = m.defining_op(v) else { return true };
    if roots.contains(&def) {
        return false;
    }
    let (Some(&at), Some(&limit)) = (order.get(&def), order.get(&anchor)) else {
        // Defined in another block: an enclosing one, since the roots use it.
        return true;
    };
    if at < limit || moves.contains(&def) {
        return true;
    }
    if depth > 8 || !m.has_trait(def, tcc_ir::Traits::PURE) || !m.regions(def).is_empty() {
        return false;
    }
    for &operand in m.operands(def) {
        if !defined_before(m, operand, (anchor, roots), order, moves, depth + 1) {
            return false;
        }
    }
    moves.push(def);
    true
}

/// How deep below a root a later output's shared intermediate may be.
const MAX_PATTERN_DEPTH: usize = 4;

/// The users of one value a later output's root is looked for among, at most: a value
/// with thousands of users (a model input added to every layer of a deep chain) made
/// every partial match scan all of them, for every first root (a 4,000-op chain took
/// 53 s in the search). Merges of more siblings than this are not found.
const MAX_USERS_SCANNED: usize = 64;

/// Extends a match of the first `k` roots to all of them: later roots are found among
/// the ops above the values the match already reached.
fn extend(m: &Module, rule: &RuleDef, b: Binding, k: usize, out: &mut Vec<Binding>, first_only: bool) {
    if first_only && !out.is_empty() {
        return;
    }
    if k == rule.roots() {
        if rule.guard(m, &b) == Some(true) {
            out.push(b);
        }
        return;
    }
    // Later outputs are users of what the match has reached: bound values, and the
    // values below the roots it matched (two outputs may share an intermediate, as
    // `(outputs (mul ?c (mul ?j ?s)) (matmul (mul ?j ?s) ?a))` do).
    let mut reached: Vec<Value> = b.bound_values().collect();
    let mut frontier: Vec<Op> = b.roots.clone();
    for _ in 0..MAX_PATTERN_DEPTH {
        let mut below = Vec::new();
        for op in frontier {
            for &v in m.operands(op) {
                reached.push(v);
                below.extend(m.defining_op(v));
            }
        }
        frontier = below;
    }
    // A later output's root uses them, directly or through up to the pattern's depth
    // of ops (`(concat (add ?x ?x) ...)` reaches `?x` through the `add`).
    let mut candidates: Vec<Op> = Vec::new();
    let mut seen: HashSet<Op> = HashSet::new();
    let mut level = reached;
    for _ in 0..MAX_PATTERN_DEPTH {
        let mut above = Vec::new();
        for v in level {
            for u in m.uses(v).iter().take(MAX_USERS_SCANNED) {
                if seen.insert(u.op) {
                    candidates.push(u.op);
                    above.extend_from_slice(m.results(u.op));
                }
            }
        }
        level = above;
    }
    // A root may be an op matched already (the two results of one split), but each
    // output is a different value.
    let def = rule.root_def_of(k);
    for c in candidates.into_iter().filter(|&c| std::ptr::eq(m.def(c), def)) {
        let mut next = b.clone();
        if rule.match_root(k, m, c, &mut next).is_some() && !b.outputs.contains(&next.outputs[k]) {
            extend(m, rule, next, k + 1, out, first_only);
        }
    }
}

/// Every match of `rule` whose first root is `op`.
pub fn matches_at(m: &Module, rule: &RuleDef, op: Op, first_only: bool) -> Vec<Binding> {
    let mut b = Binding::new(rule.slots);
    let mut out = Vec::new();
    if rule.match_root(0, m, op, &mut b).is_some() {
        extend(m, rule, b, 1, &mut out, first_only);
    }
    out
}

/// Every match of `rule` in `m`, in program order of their first roots.
pub fn find_matches(m: &Module, rule: &RuleDef) -> Vec<Binding> {
    let top = m.top();
    m.walk(top).into_iter().filter(|&op| op != top).flat_map(|op| matches_at(m, rule, op, false)).collect()
}

/// Rules by the op their first source output is a result of, so that each op of a
/// graph is tried only against the rules that can match there.
pub struct RuleIndex {
    by_root: HashMap<&'static str, Vec<&'static RuleDef>>,
}

impl RuleIndex {
    pub fn new(rules: &'static [RuleDef]) -> RuleIndex {
        RuleIndex::of(rules)
    }

    /// The index of some rules.
    pub fn of(rules: impl IntoIterator<Item = &'static RuleDef>) -> RuleIndex {
        let mut by_root: HashMap<&'static str, Vec<&'static RuleDef>> = HashMap::new();
        for r in rules {
            by_root.entry(r.root.name).or_default().push(r);
        }
        RuleIndex { by_root }
    }

    /// Every match of every rule in `m`: in program order of their first roots, and at
    /// one op in the order the rules were given.
    pub fn find_all(&self, m: &Module) -> Vec<(&'static RuleDef, Binding)> {
        let top = m.top();
        let mut out = Vec::new();
        for op in m.walk(top) {
            let Some(rules) = self.by_root.get(m.def(op).name) else { continue };
            for &rule in rules {
                out.extend(matches_at(m, rule, op, false).into_iter().map(|b| (rule, b)));
            }
        }
        out
    }
}

/// Applies `rule` at `op` in place if it matches there (a canonicalization pattern).
pub fn apply_at(rw: &mut Rewriter, rule: &RuleDef, op: Op) -> bool {
    let Some(b) = matches_at(rw, rule, op, true).pop() else { return false };
    apply(rw, rule, &b)
}

/// Applies `rule` as matched by `b`, in place.
pub fn apply(rw: &mut Rewriter, rule: &RuleDef, b: &Binding) -> bool {
    match rule.plan(rw, b) {
        Some(plan) => plan.realize(rw, b),
        None => false,
    }
}

/// `m` with `rule` applied as matched by `b` (the search's candidates); `None` if the
/// plan does not realize.
pub fn apply_to_copy(m: &Module, rule: &RuleDef, b: &Binding) -> Option<Module> {
    let mut copy = m.clone();
    let mut rw = Rewriter::new(&mut copy);
    apply(&mut rw, rule, b).then_some(copy)
}
