//! An e-graph of graph-dialect values (egg, POPL 2021; Tensat, MLSys 2021): classes of
//! equivalent values, each a set of e-nodes (an op's result on operand classes, or a
//! leaf: a function argument or a constant of the input graph), kept closed under
//! congruence (the same op on equivalent operands is the same value).
//!
//! Unions are cheap and deferred; [`EGraph::rebuild`] restores congruence by hashing
//! every node again with canonical operands and merging the classes that share a node,
//! until nothing merges (the e-graphs here are small: thousands of nodes). Each class
//! keeps its type and a representative SSA value in a scratch module holding one value
//! per class: rule guards ask their questions of it (`rank`, `dim`, `splat`), through
//! the same builtin functions the module matcher calls.

// E-nodes hash by their op, attribute text and operands, never by the attribute
// dictionary they carry (which clippy sees as interior mutability).
#![allow(clippy::mutable_key_type)]

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use tcc_dialect_graph::ops as g;
use tcc_ir::{AttrDict, Block, Module, OpDef, Type, Value};

/// A class's handle (canonical after [`EGraph::find`]).
pub type Id = usize;

/// Result `result` of an op with these attributes.
#[derive(Clone, Debug)]
pub struct OpNode {
    pub def: &'static OpDef,
    pub attrs: Arc<AttrDict>,
    /// The attributes as text: what identifies them.
    pub key: Arc<str>,
    pub result: usize,
}

impl PartialEq for OpNode {
    fn eq(&self, o: &OpNode) -> bool {
        std::ptr::eq(self.def, o.def) && self.result == o.result && self.key == o.key
    }
}
impl Eq for OpNode {}
impl Hash for OpNode {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.def.name.hash(h);
        self.key.hash(h);
        self.result.hash(h);
    }
}

impl OpNode {
    pub fn new(def: &'static OpDef, attrs: AttrDict, result: usize) -> OpNode {
        let mut items: Vec<String> = attrs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        items.sort();
        OpNode { def, attrs: Arc::new(attrs), key: items.join(",").into(), result }
    }
}

/// What an e-node is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A value of the input graph no rule looks into: an argument or a constant.
    Leaf(Value),
    Op(OpNode),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ENode {
    pub kind: Kind,
    pub children: Vec<Id>,
}

#[derive(Clone, Debug)]
pub struct Class {
    pub nodes: Vec<ENode>,
    pub ty: Type,
    /// The class's value in the scratch module (a constant's own value when the class
    /// holds a constant of the input).
    pub rep: Value,
    /// A value of the input graph in the class, if any.
    pub origin: Option<Value>,
}

pub struct EGraph {
    parent: Vec<Id>,
    classes: Vec<Class>,
    memo: HashMap<ENode, Id>,
    /// The input module plus one block argument per class not in it: what guards read.
    pub scratch: Module,
    side: Block,
    nodes: usize,
}

impl EGraph {
    /// An empty e-graph over the values of `input` (leaves and representatives refer to
    /// them).
    pub fn new(input: &Module) -> EGraph {
        let mut scratch = input.clone();
        let (_, side) =
            tcc_ir::builtin::create_func(&mut scratch, "__egraph_classes", vec![], vec![], tcc_ir::Location::unknown());
        EGraph { parent: Vec::new(), classes: Vec::new(), memo: HashMap::new(), scratch, side, nodes: 0 }
    }

    pub fn find(&self, mut id: Id) -> Id {
        while self.parent[id] != id {
            id = self.parent[id];
        }
        id
    }

    /// `n` with its operands' canonical classes.
    pub fn canonical(&self, n: &ENode) -> ENode {
        ENode { kind: n.kind.clone(), children: n.children.iter().map(|&c| self.find(c)).collect() }
    }

    pub fn class(&self, id: Id) -> &Class {
        &self.classes[self.find(id)]
    }

    /// The canonical classes.
    pub fn roots(&self) -> impl Iterator<Item = Id> + '_ {
        (0..self.classes.len()).filter(|&i| self.parent[i] == i)
    }

    /// E-nodes added so far (the size the saturation is bounded by).
    pub fn node_count(&self) -> usize {
        self.nodes
    }

    /// The class of `node` (of type `ty`), added if new; `rep` is its value in the
    /// scratch module if it has one there (the input's own values).
    pub fn add(&mut self, node: ENode, ty: Type, rep: Option<Value>) -> Id {
        let node = self.canonical(&node);
        if let Some(&id) = self.memo.get(&node) {
            return self.find(id);
        }
        let origin = rep;
        let rep = rep.unwrap_or_else(|| self.scratch.add_block_arg(self.side, ty.clone()));
        let id = self.classes.len();
        self.parent.push(id);
        self.classes.push(Class { nodes: vec![node.clone()], ty, rep, origin });
        self.memo.insert(node, id);
        self.nodes += 1;
        id
    }

    /// Merges two classes (of one type); congruence waits for [`EGraph::rebuild`].
    /// Whether they were distinct.
    pub fn union(&mut self, a: Id, b: Id) -> bool {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        let (keep, gone) = if self.classes[a].nodes.len() >= self.classes[b].nodes.len() { (a, b) } else { (b, a) };
        self.parent[gone] = keep;
        let moved = std::mem::take(&mut self.classes[gone].nodes);
        self.classes[keep].nodes.extend(moved);
        // A constant's value answers `splat` and `is-identity`: keep one if either has it.
        let is_constant = |m: &Module, v: Value| m.defining_op(v).is_some_and(|d| m.is(d, &g::CONSTANT));
        if !is_constant(&self.scratch, self.classes[keep].rep) && is_constant(&self.scratch, self.classes[gone].rep) {
            self.classes[keep].rep = self.classes[gone].rep;
        }
        if self.classes[keep].origin.is_none() {
            self.classes[keep].origin = self.classes[gone].origin;
        }
        true
    }

    /// Restores congruence: nodes equal with canonical operands are one class.
    pub fn rebuild(&mut self) {
        loop {
            let mut memo: HashMap<ENode, Id> = HashMap::new();
            let mut merges = Vec::new();
            for id in 0..self.classes.len() {
                if self.parent[id] != id {
                    continue;
                }
                for n in &self.classes[id].nodes {
                    match memo.entry(self.canonical(n)) {
                        std::collections::hash_map::Entry::Occupied(e) => merges.push((*e.get(), id)),
                        std::collections::hash_map::Entry::Vacant(e) => {
                            e.insert(id);
                        }
                    }
                }
            }
            let mut merged = false;
            for (a, b) in merges {
                merged |= self.union(a, b);
            }
            if !merged {
                for id in 0..self.classes.len() {
                    if self.parent[id] == id {
                        let mut nodes: Vec<ENode> = self.classes[id].nodes.iter().map(|n| self.canonical(n)).collect();
                        let mut seen = std::collections::HashSet::new();
                        nodes.retain(|n| seen.insert(n.clone()));
                        self.classes[id].nodes = nodes;
                    }
                }
                self.memo = memo;
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tcc_ir::{Location, ScalarType, TensorType};

    #[test]
    fn congruence_merges_equal_ops_on_merged_operands() {
        let mut m = Module::new(Location::unknown());
        let t = Type::Tensor(TensorType::new(vec![2], ScalarType::F32).unwrap().into());
        let (_, block) =
            tcc_ir::builtin::create_func(&mut m, "main", vec![t.clone(), t.clone()], vec![], Location::unknown());
        let (x, y) = (m.block_args(block)[0], m.block_args(block)[1]);
        let mut eg = EGraph::new(&m);
        let leaf = |v| ENode { kind: Kind::Leaf(v), children: vec![] };
        let (a, b) = (eg.add(leaf(x), t.clone(), Some(x)), eg.add(leaf(y), t.clone(), Some(y)));
        let relu = |c| ENode { kind: Kind::Op(OpNode::new(&g::RELU, AttrDict::new(), 0)), children: vec![c] };
        let (ra, rb) = (eg.add(relu(a), t.clone(), None), eg.add(relu(b), t.clone(), None));
        // The same node again is the same class.
        assert_eq!(eg.add(relu(a), t.clone(), None), ra);
        assert_ne!(eg.find(ra), eg.find(rb));
        eg.union(a, b);
        eg.rebuild();
        assert_eq!(eg.find(ra), eg.find(rb), "relu(a) and relu(b) merge once a = b");
        assert_eq!(eg.class(ra).nodes.len(), 1, "their one node, deduplicated");
        assert_eq!(eg.roots().count(), 2);
    }
}
