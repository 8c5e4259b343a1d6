//! Depth-first enumeration of small graphs over a world of inputs, with fingerprints.
//!
//! A graph is a sequence of ops over the world's inputs and earlier results, with no
//! duplicate computation (the same op on the same operands twice, an operand equal to
//! an input or an earlier result on the integer inputs, or one holding the same data
//! twice, like `concat(x, x)`: such a graph is covered by the rule removing the repeat,
//! and never a cheaper target) and no op on constants only (folding computes those). A split counts as
//! one op with two results: its second part is free. Its outputs are the
//! results nothing else uses. Its fingerprint hashes, symmetrically over its outputs,
//! the outputs computed on random integer inputs (wrapping arithmetic, so no round-off;
//! ReLU replaced by a non-linear stand-in), together with the set of inputs it reads.
//! Graphs with equal fingerprints are candidate equivalences. Constant inputs
//! (identities, ones) are not counted among the inputs read, so a graph that drops one
//! (`x @ I`) meets the graph without it (`x`, a graph of no ops, one per input).
//!
//! Each value carries, per axis, where its extent comes from (an input's dimension) and
//! its split tree: the extents of the two parts of the last concatenation along that
//! axis, which `split` undoes (TASO's split trees).

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use crate::spec::{self, Fill, Op, T};

/// A dimension of an input: (input index, axis).
pub type DimSrc = (usize, usize);

/// What the enumeration knows about a value besides its contents.
#[derive(Clone, Debug, PartialEq)]
pub struct Meta {
    /// Per axis, the input dimension its extent equals, if one does.
    pub extent: Vec<Option<DimSrc>>,
    /// Per axis, the two parts of the last concatenation along it.
    pub tree: Vec<Option<(DimSrc, DimSrc)>>,
}

/// An input of a world: its variable name, shape and contents.
pub struct Input {
    pub name: &'static str,
    pub shape: Vec<usize>,
    pub fill: Fill,
}

fn input(name: &'static str, shape: &[usize], fill: Fill) -> Input {
    Input { name, shape: shape.to_vec(), fill }
}

/// The inputs graphs are built over.
pub struct World {
    pub name: &'static str,
    pub inputs: Vec<Input>,
    pub ops: Vec<Op>,
}

impl World {
    /// The contents of input `i` on random values from `next`: its constant, or random.
    fn input_value<N: spec::Num>(&self, i: usize, next: &mut impl FnMut() -> N) -> T<N> {
        let Input { shape, fill, .. } = &self.inputs[i];
        fill.constant(shape)
            .unwrap_or_else(|| T::new(shape.clone(), (0..shape.iter().product()).map(|_| next()).collect()))
    }

    /// Bit i: input i holds random values (is not a constant).
    fn random_inputs(&self) -> u32 {
        (0..self.inputs.len()).filter(|&i| self.inputs[i].fill == Fill::Random).fold(0, |m, i| m | 1 << i)
    }
}

/// The matrix world (TASO's matrices, all 3x3 so every combination types, a scalar, an
/// identity and ones) and the image world (an NCHW image, two 3x3 filters, two 1x1
/// filters and two bias vectors; the image's 4x4 extent is no odd kernel, so the
/// image never serves as a filter). The image world's convolutions have a bias, as
/// every exported one has (`conv2d` without one stays in the axioms: the bias is an
/// operator of its own there).
pub fn worlds() -> Vec<World> {
    use Fill::{Identity, Ones, Random};
    vec![
        World {
            name: "matrix",
            inputs: vec![
                input("a", &[3, 3], Random),
                input("b", &[3, 3], Random),
                input("c", &[3, 3], Random),
                input("s", &[], Random),
                input("i", &[3, 3], Identity),
                input("j", &[3, 3], Ones),
            ],
            ops: vec![
                Op::MatMul,
                Op::Add,
                Op::Mul,
                Op::Scale,
                Op::Relu,
                Op::Transpose,
                Op::Concat(0),
                Op::Concat(1),
                Op::Split(0, 0),
                Op::Split(0, 1),
                Op::Split(1, 0),
                Op::Split(1, 1),
            ],
        },
        World {
            name: "image",
            inputs: vec![
                input("x", &[1, 2, 4, 4], Random),
                input("w", &[2, 2, 3, 3], Random),
                input("u", &[2, 2, 3, 3], Random),
                input("v", &[2, 2, 1, 1], Random),
                input("k", &[2, 2, 1, 1], Random),
                input("b", &[2], Random),
                input("d", &[2], Random),
            ],
            ops: vec![
                Op::ConvBias,
                Op::Add,
                Op::Relu,
                Op::Enlarge,
                Op::MaxPool,
                Op::AvgPool,
                Op::Concat(0),
                Op::Concat(1),
                Op::Split(1, 0),
                Op::Split(1, 1),
            ],
        },
    ]
}

/// One op of a graph: operands are value indices (inputs first, then results).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    pub op: Op,
    pub args: Vec<usize>,
}

/// A graph over a world's inputs.
#[derive(Clone, Debug)]
pub struct Graph {
    pub nodes: Vec<Node>,
    /// Value indices of the outputs, in the order of their fingerprints.
    pub outputs: Vec<usize>,
    pub fingerprint: u64,
    /// Bit i: input i is read.
    pub inputs_used: u32,
    /// An output repeats an earlier result (or holds the same data twice), or one of
    /// several outputs repeats an input: rules of fewer ops cover it. (A single output
    /// repeating an input is how `x @ I` meets `x`.)
    pub repeated_output: bool,
}

impl Graph {
    /// Whether the graph reads no input that holds random values (it computes from
    /// constants only).
    pub fn constant(&self, world: &World) -> bool {
        self.inputs_used & world.random_inputs() == 0
    }
}

fn meta_of(op: Op, args: &[&Meta]) -> Meta {
    let same =
        |d: usize| if args.iter().all(|m| m.tree.get(d) == args[0].tree.get(d)) { args[0].tree[d] } else { None };
    match op {
        Op::Add | Op::Mul => Meta {
            extent: (0..args[0].extent.len()).map(|d| args[0].extent[d].or(args[1].extent[d])).collect(),
            tree: (0..args[0].tree.len()).map(same).collect(),
        },
        Op::Scale | Op::Relu => args[0].clone(),
        Op::Transpose => {
            Meta { extent: vec![args[0].extent[1], args[0].extent[0]], tree: vec![args[0].tree[1], args[0].tree[0]] }
        }
        Op::MatMul => {
            Meta { extent: vec![args[0].extent[0], args[1].extent[1]], tree: vec![args[0].tree[0], args[1].tree[1]] }
        }
        Op::Concat(axis) => {
            let rank = args[0].extent.len();
            let mut m = Meta {
                extent: (0..rank)
                    .map(|d| if d == axis { None } else { args[0].extent[d].or(args[1].extent[d]) })
                    .collect(),
                tree: (0..rank).map(|d| if d == axis { None } else { same(d) }).collect(),
            };
            m.tree[axis] = args[0].extent[axis].zip(args[1].extent[axis]);
            m
        }
        Op::Split(axis, part) => {
            let mut m = args[0].clone();
            let (l, r) = args[0].tree[axis].expect("checked before");
            m.extent[axis] = Some(if part == 0 { l } else { r });
            m.tree[axis] = None;
            m
        }
        Op::Conv => Meta {
            extent: vec![args[0].extent[0], args[1].extent[0], args[0].extent[2], args[0].extent[3]],
            tree: vec![None, args[1].tree[0], None, None],
        },
        // The filter's parts, where the bias has parts too (all extents of the image
        // world's filters and biases are equal).
        Op::ConvBias => {
            let mut m = meta_of(Op::Conv, &args[..2]);
            m.tree[1] = m.tree[1].filter(|_| args[2].tree[0].is_some());
            m
        }
        Op::Bias => args[0].clone(),
        Op::Enlarge => Meta {
            extent: vec![args[0].extent[0], args[0].extent[1], None, None],
            tree: vec![args[0].tree[0], args[0].tree[1], None, None],
        },
        // Pooling keeps the batch and channels.
        Op::MaxPool | Op::AvgPool => Meta {
            extent: vec![args[0].extent[0], args[0].extent[1], None, None],
            tree: vec![args[0].tree[0], args[0].tree[1], None, None],
        },
    }
}

/// What a value repeats.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Repeat {
    No,
    /// An input's value.
    Input,
    /// An earlier result's value, or the same data twice (`concat(x, x)`).
    Result,
}

/// The values of a graph under construction: integer contents (two random draws) and
/// metadata, and whether each repeats an earlier value (or holds the same data twice).
#[derive(Clone)]
struct State {
    values: Vec<(Vec<T<i64>>, Meta)>,
    nodes: Vec<Node>,
    repeats: Vec<Repeat>,
}

fn apply(op: Op, args: &[usize], s: &State) -> Option<(Vec<T<i64>>, Meta)> {
    let metas: Vec<&Meta> = args.iter().map(|&a| &s.values[a].1).collect();
    let shapes: Vec<&Vec<usize>> = args.iter().map(|&a| &s.values[a].0[0].shape).collect();
    if let Op::Split(axis, part) = op {
        let (l, _) = (*metas[0].tree.get(axis)?)?;
        let first = extent_of(s, l);
        let outs: Option<Vec<_>> = s.values[args[0]].0.iter().map(|t| spec::split(t, axis, first, part)).collect();
        return Some((outs?, meta_of(op, &metas)));
    }
    if op == Op::Scale && !shapes[1].is_empty() || op != Op::Scale && shapes.iter().any(|s| s.is_empty()) {
        return None;
    }
    let draws = s.values[args[0]].0.len();
    let outs: Option<Vec<_>> =
        (0..draws).map(|k| spec::eval(op, &args.iter().map(|&a| &s.values[a].0[k]).collect::<Vec<_>>())).collect();
    Some((outs?, meta_of(op, &metas)))
}

/// Whether `value` holds the same data twice: along some axis, the two parts of its
/// last concatenation are equal (`concat(x, x)`, or anything computed from it
/// elementwise). Such a value does the same work twice.
fn halves_equal(s: &State, value: &(Vec<T<i64>>, Meta)) -> bool {
    value.1.tree.iter().enumerate().any(|(axis, parts)| {
        let Some((l, r)) = *parts else { return false };
        let first = extent_of(s, l);
        first == extent_of(s, r)
            && value.0.iter().all(|t| spec::split(t, axis, first, 0) == spec::split(t, axis, first, 1))
    })
}

fn extent_of(s: &State, (input, axis): DimSrc) -> usize {
    s.values[input].0[0].shape[axis]
}

fn hash_tensor<N: std::fmt::Debug>(t: &T<N>) -> u64 {
    let mut h = DefaultHasher::new();
    t.shape.hash(&mut h);
    format!("{:?}", t.data).hash(&mut h);
    h.finish()
}

/// Integer inputs of a world: `draws` independent draws (constants are the same in
/// each).
fn int_inputs(world: &World, draws: usize, seed: u64) -> Vec<Vec<T<i64>>> {
    let mut draw = spec::xorshift(seed);
    let mut next = move || (draw() % 11) as i64 - 5;
    (0..world.inputs.len()).map(|i| (0..draws).map(|_| world.input_value(i, &mut next)).collect()).collect()
}

/// Every graph of `1..=max_ops` ops over `world`, with its fingerprint, and each input
/// alone (a graph of no ops). With a `budget` smaller than that, the graphs of fewer
/// than `max_ops` ops are all kept and those of `max_ops` are sampled uniformly (by a
/// hash of the graph) at the rate that fills the budget, estimated from how much the
/// previous op multiplied the count; past the budget, further graphs of `max_ops`
/// are dropped. Returns the graphs and whether they are a sample.
pub fn enumerate(world: &World, max_ops: usize, budget: usize) -> (Vec<Graph>, bool) {
    let inputs = int_inputs(world, 2, 0x5EED_1234);
    let mut state = State { values: Vec::new(), nodes: Vec::new(), repeats: Vec::new() };
    for (i, inp) in world.inputs.iter().enumerate() {
        let rank = inp.shape.len();
        let meta = Meta { extent: (0..rank).map(|d| Some((i, d))).collect(), tree: vec![None; rank] };
        state.values.push((inputs[i].clone(), meta));
        state.repeats.push(Repeat::No);
    }
    let inputs_alone: Vec<Graph> = (0..world.inputs.len()).map(|i| graph_of(world, &state, vec![i])).collect();
    let mut keep = 1.0;
    if budget < usize::MAX && max_ops >= 2 {
        // Counts of graphs by op count, from the full enumeration one op short.
        // (By nodes: a split's second part and a bias op are free, so a graph may have
        // two more nodes than ops.)
        let mut counts = vec![0usize; max_ops + 3];
        let mut fewer = Vec::new();
        dfs(world, &mut state, max_ops - 1, usize::MAX, 1.0, &mut fewer);
        counts[0] = inputs_alone.len();
        for g in &fewer {
            counts[g.nodes.len()] += 1;
        }
        let (last, before) = (counts[max_ops - 1] as f64, counts[max_ops - 2].max(1) as f64);
        let estimate = last * last / before;
        let room = budget.saturating_sub(fewer.len() + inputs_alone.len()) as f64;
        keep = (room / estimate.max(1.0)).min(1.0);
    }
    let mut out = inputs_alone;
    let complete = dfs(world, &mut state, max_ops, budget, keep, &mut out);
    (out, !complete || keep < 1.0)
}

/// A number in [0, 1) fixed by the graph of `nodes` and then `last`: which graphs a
/// sample keeps.
fn unit_hash(nodes: &[Node], last: &Node) -> f64 {
    // As the slice of all of them would hash (its length, then each), without copying.
    let mut h = DefaultHasher::new();
    (nodes.len() + 1).hash(&mut h);
    nodes.iter().for_each(|n| n.hash(&mut h));
    last.hash(&mut h);
    (h.finish() >> 11) as f64 / (1u64 << 53) as f64
}

/// Extends `s` by up to `left` ops, keeping graphs that use them all at the rate
/// `keep`; false when the budget dropped some of those.
fn dfs(world: &World, s: &mut State, left: usize, budget: usize, keep: f64, out: &mut Vec<Graph>) -> bool {
    if !s.nodes.is_empty() {
        // Past the budget, graphs of the most ops are dropped (smaller ones are kept).
        if left == 0 && out.len() >= budget {
            return false;
        }
        let g = finish(world, s);
        // A bias vector is no output: the op on it is there for a convolution to read.
        if !g.outputs.iter().any(|&o| is_vector(&s.values[o])) {
            out.push(g);
        }
    }
    // With no op left, only the free second part of a split may still be added.
    let last_split = s.nodes.last().filter(|nd| matches!(nd.op, Op::Split(..)));
    if left == 0 && last_split.is_none() {
        return true;
    }
    let (n, n_in) = (s.values.len(), world.inputs.len());
    let mut complete = true;
    for &op in &world.ops {
        let mut arg_lists: Vec<Vec<usize>> = vec![Vec::new()];
        for _ in 0..op.arity() {
            arg_lists = arg_lists.into_iter().flat_map(|v| (0..n).map(move |a| [&v[..], &[a]].concat())).collect();
        }
        arg_lists.retain(|v| !op.commutative() || v[0] <= v[1]);
        for args in arg_lists {
            let node = Node { op, args: args.clone() };
            // No duplicate computation: not the same op twice, and no use of a value
            // that repeats another (`transpose(transpose(a))`, the part of a
            // concatenation a split gives back), which only the graph's outputs may do.
            if s.nodes.contains(&node) || args.iter().any(|&a| s.repeats[a] != Repeat::No) {
                continue;
            }
            // An op on constants only computes a constant, which folding handles.
            if args.iter().all(|&a| world.random_inputs() & (1 << a) == 0 && a < world.inputs.len()) {
                continue;
            }
            // A split is one op with two results (TASO): its second part is free.
            let other_part = match op {
                Op::Split(axis, part) => s.nodes.contains(&Node { op: Op::Split(axis, 1 - part), args: args.clone() }),
                _ => false,
            };
            // One op on bias vectors is free too (see the module's paragraph).
            let vector_op = args.iter().all(|&a| is_vector(&s.values[a]));
            if vector_op && (!matches!(op, Op::Concat(0) | Op::Add) || s.values[n_in..].iter().any(is_vector)) {
                continue;
            }
            if left == 0 && !other_part {
                continue;
            }
            let left = if other_part || vector_op { left } else { left - 1 };
            if left == 0 && keep < 1.0 && unit_hash(&s.nodes, &node) >= keep {
                continue;
            }
            let Some(value) = apply(op, &args, s) else { continue };
            s.repeats.push(match s.values.iter().position(|(t, _)| *t == value.0) {
                Some(i) if i < n_in => Repeat::Input,
                Some(_) => Repeat::Result,
                None if halves_equal(s, &value) => Repeat::Result,
                None => Repeat::No,
            });
            s.values.push(value);
            s.nodes.push(node);
            complete &= dfs(world, s, left, budget, keep, out);
            s.nodes.pop();
            s.values.pop();
            s.repeats.pop();
        }
    }
    complete
}

/// Whether a value is a vector (a bias).
fn is_vector(value: &(Vec<T<i64>>, Meta)) -> bool {
    value.0[0].shape.len() == 1
}

fn finish(world: &World, s: &State) -> Graph {
    let n_in = world.inputs.len();
    let used = |v: usize| s.nodes.iter().any(|nd| nd.args.contains(&v));
    graph_of(world, s, (n_in..s.values.len()).filter(|&v| !used(v)).collect())
}

/// The graph of `s`'s ops with `outputs`: the outputs ordered by their values, and the
/// fingerprint of those values and of the random inputs read.
fn graph_of(world: &World, s: &State, outputs: Vec<usize>) -> Graph {
    let n_in = world.inputs.len();
    let read = |i: usize| s.nodes.iter().any(|nd| nd.args.contains(&i)) || outputs.contains(&i);
    let inputs_used = (0..n_in).filter(|&i| read(i)).fold(0u32, |m, i| m | 1 << i);
    let mut outputs: Vec<(u64, usize)> = outputs
        .into_iter()
        .map(|v| (s.values[v].0.iter().map(hash_tensor).fold(0u64, |h, x| h.rotate_left(7) ^ x), v))
        .collect();
    outputs.sort();
    let mut h = DefaultHasher::new();
    for (o, _) in &outputs {
        o.hash(&mut h);
    }
    (inputs_used & world.random_inputs()).hash(&mut h);
    let repeated_output = outputs.iter().any(|&(_, v)| match s.repeats[v] {
        Repeat::No => false,
        Repeat::Input => outputs.len() > 1,
        Repeat::Result => true,
    });
    Graph {
        repeated_output,
        nodes: s.nodes.clone(),
        outputs: outputs.into_iter().map(|(_, v)| v).collect(),
        fingerprint: h.finish(),
        inputs_used,
    }
}

/// Evaluates `g` on float inputs in [-1, 1] (real ReLU): its outputs in order.
pub fn eval_float(world: &World, g: &Graph, seed: u64) -> Option<Vec<T<f64>>> {
    let values = eval_all(world, g, seed)?;
    Some(g.outputs.iter().map(|&o| values[o].clone()).collect())
}

/// The shape of every value of `g` (inputs first).
pub fn value_shapes(world: &World, g: &Graph) -> Vec<Vec<usize>> {
    eval_all(world, g, 1).map(|v| v.into_iter().map(|t| t.shape).collect()).unwrap_or_default()
}

/// Every value of `g` on float inputs drawn from `seed`.
fn eval_all(world: &World, g: &Graph, seed: u64) -> Option<Vec<T<f64>>> {
    let mut draw = spec::xorshift(seed);
    let mut next = move || (draw() % 20001) as f64 / 10000.0 - 1.0;
    let mut values: Vec<(T<f64>, Meta)> = (0..world.inputs.len())
        .map(|i| {
            let rank = world.inputs[i].shape.len();
            let meta = Meta { extent: (0..rank).map(|d| Some((i, d))).collect(), tree: vec![None; rank] };
            (world.input_value(i, &mut next), meta)
        })
        .collect();
    for node in &g.nodes {
        let metas: Vec<&Meta> = node.args.iter().map(|&a| &values[a].1).collect();
        let meta = meta_of(node.op, &metas);
        let t = match node.op {
            Op::Split(axis, part) => {
                let (l, _) = metas[0].tree[axis]?;
                let first = world.inputs[l.0].shape[l.1];
                spec::split(&values[node.args[0]].0, axis, first, part)?
            }
            op => spec::eval(op, &node.args.iter().map(|&a| &values[a].0).collect::<Vec<_>>())?,
        };
        values.push((t, meta));
    }
    Some(values.into_iter().map(|(t, _)| t).collect())
}

/// The metadata of every value of `g` (for emitting split sizes).
pub fn metas(world: &World, g: &Graph) -> Vec<Meta> {
    let mut values: Vec<(Vec<usize>, Meta)> = world
        .inputs
        .iter()
        .enumerate()
        .map(|(i, inp)| {
            let rank = inp.shape.len();
            (inp.shape.clone(), Meta { extent: (0..rank).map(|d| Some((i, d))).collect(), tree: vec![None; rank] })
        })
        .collect();
    for node in &g.nodes {
        let metas: Vec<&Meta> = node.args.iter().map(|&a| &values[a].1).collect();
        let meta = meta_of(node.op, &metas);
        values.push((Vec::new(), meta));
    }
    values.into_iter().map(|(_, m)| m).collect()
}

/// Groups of graphs with equal fingerprints and as many outputs (candidate
/// equivalences), each group sorted by size.
pub fn candidates(graphs: &[Graph]) -> Vec<Vec<usize>> {
    let mut by: HashMap<(u64, usize), Vec<usize>> = HashMap::new();
    for (i, g) in graphs.iter().enumerate() {
        by.entry((g.fingerprint, g.outputs.len())).or_default().push(i);
    }
    let mut groups: Vec<Vec<usize>> = by.into_values().filter(|v| v.len() > 1).collect();
    for g in &mut groups {
        g.sort_by_key(|&i| (graphs[i].nodes.len(), i));
    }
    groups.sort();
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_op_on_bias_vectors_is_free_and_never_an_output() {
        let world = &worlds()[1];
        let input = |name: &str| world.inputs.iter().position(|i| i.name == name).unwrap();
        let (x, w, b, d) = (input("x"), input("w"), input("b"), input("d"));
        let (graphs, _) = enumerate(world, 1, usize::MAX);
        // A convolution by the sum of two biases: one op, and the free one before it.
        let summed = vec![
            Node { op: Op::Add, args: vec![b, d] },
            Node { op: Op::ConvBias, args: vec![x, w, world.inputs.len()] },
        ];
        assert!(graphs.iter().any(|g| g.nodes == summed), "conv2d(x, w, b + d) is one op");
        // (Each input alone is a graph too, the biases among them.)
        for g in graphs.iter().filter(|g| !g.nodes.is_empty()) {
            let shapes = value_shapes(world, g);
            assert!(g.outputs.iter().all(|&o| shapes[o].len() != 1), "a vector output: {:?}", g.nodes);
            let vector_ops = g.nodes.iter().enumerate().filter(|(k, _)| shapes[world.inputs.len() + k].len() == 1);
            assert!(vector_ops.count() <= 1, "two ops on vectors: {:?}", g.nodes);
        }
    }

    #[test]
    fn a_budget_keeps_the_smaller_graphs_and_samples_the_largest() {
        let world = &worlds()[1];
        let (full, sampled) = enumerate(world, 2, usize::MAX);
        assert!(!sampled);
        let one_op = full.iter().filter(|g| g.nodes.len() <= 1).count();
        let budget = one_op + (full.len() - one_op) / 4;
        let (part, sampled) = enumerate(world, 2, budget);
        // (A split's second part is free: a split pair counts as one op, and is kept.)
        assert!(sampled && part.len() <= budget + budget / 20, "{} graphs for a budget of {budget}", part.len());
        assert_eq!(part.iter().filter(|g| g.nodes.len() <= 1).count(), one_op, "every smaller graph is kept");
        let two_ops = part.len() - one_op;
        // A uniform sample, near the rate that fills the budget.
        assert!(two_ops > (full.len() - one_op) / 8, "{two_ops} graphs of 2 ops");
    }
}
