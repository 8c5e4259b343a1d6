//! From graphs to rule text, and the pruning that works on that text.
//!
//! A graph's outputs render as rule-language patterns over the world's inputs
//! (`?a`, `?x`, ...). Pruning (TASO):
//! - **renaming**: a pair equal to another after renaming inputs (in order of first
//!   appearance) is dropped;
//! - **common subgraph**: a pair whose two sides compute the same non-input
//!   subexpression is dropped (the pair with that subexpression as an input covers it);
//! - **common suffix**: a one-output pair whose outputs are the same op with one
//!   operand in common is dropped (the pair of the other operands covers it).
//!
//! Each emitted rule has guards that fix what the enumeration assumed: each input's
//! rank, and the filters' kernel sizes (the padding of a "same" convolution is spelled
//! out for them).

use std::collections::HashSet;

use crate::enumerate::{Graph, Meta, World, metas, value_shapes};
use crate::spec::Op;

/// The rule-language pattern of value `v` of `g` (`metas` from [`metas`], `shapes`
/// from [`value_shapes`]).
pub fn render(world: &World, g: &Graph, m: &[Meta], shapes: &[Vec<usize>], v: usize) -> String {
    let n_in = world.inputs.len();
    if v < n_in {
        return format!("?{}", world.inputs[v].0);
    }
    let node = &g.nodes[v - n_in];
    let a: Vec<String> = node.args.iter().map(|&x| render(world, g, m, shapes, x)).collect();
    let dim = |(input, axis): (usize, usize)| format!("(dim ?{} {axis})", world.inputs[input].0);
    match node.op {
        Op::MatMul => format!("(matmul {} {})", a[0], a[1]),
        Op::Add => format!("(add {} {})", a[0], a[1]),
        Op::Mul | Op::Scale => format!("(mul {} {})", a[0], a[1]),
        Op::Relu => format!("(relu {})", a[0]),
        Op::Transpose => format!("(transpose {} :perm [1 0])", a[0]),
        Op::Concat(axis) => format!("(concat {} {} :axis {axis})", a[0], a[1]),
        Op::Split(axis, part) => {
            let (l, r) = m[node.args[0]].tree[axis].expect("a split has a split tree");
            format!("(result {part} (split {} :axis {axis} :sizes [{} {}]))", a[0], dim(l), dim(r))
        }
        Op::Conv => {
            // "Same" padding for the filter's (odd, square) kernel.
            let p = shapes[node.args[1]][2] / 2;
            format!("(conv2d {} {} :strides [1 1] :pads [{p} {p} {p} {p}] :dilations [1 1] :groups 1)", a[0], a[1])
        }
        Op::Enlarge => format!("(pad {} :low [0 0 1 1] :high [0 0 1 1])", a[0]),
    }
}

/// The outputs of `g` as rule text: one pattern, or `(outputs ...)`.
pub fn render_side(world: &World, g: &Graph) -> String {
    let m = metas(world, g);
    let shapes = value_shapes(world, g);
    let outs: Vec<String> = g.outputs.iter().map(|&o| render(world, g, &m, &shapes, o)).collect();
    if outs.len() == 1 { outs[0].clone() } else { format!("(outputs {})", outs.join(" ")) }
}

/// Every non-input subexpression of `g`'s outputs.
fn subexpressions(world: &World, g: &Graph) -> HashSet<String> {
    let m = metas(world, g);
    let shapes = value_shapes(world, g);
    let n_in = world.inputs.len();
    (n_in..n_in + g.nodes.len()).map(|v| render(world, g, &m, &shapes, v)).collect()
}

/// `text` with the world's variables renamed in order of first appearance.
fn renamed(world: &World, text: &str) -> String {
    let mut order: Vec<&str> = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('?') {
        let name: String = rest[i + 1..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        if let Some(&(n, _)) = world.inputs.iter().find(|(n, _)| *n == name)
            && !order.contains(&n)
        {
            order.push(n);
        }
        rest = &rest[i + 1..];
    }
    let mut out = text.to_string();
    for (k, n) in order.iter().enumerate() {
        out = out.replace(&format!("?{n}"), &format!("?#{k}"));
    }
    out
}

/// Why a pair is dropped, or `None` to keep it.
pub fn prune_reason(world: &World, src: &Graph, tgt: &Graph, seen: &mut HashSet<String>) -> Option<&'static str> {
    let (s, t) = (render_side(world, src), render_side(world, tgt));
    if s == t {
        return Some("identical");
    }
    if !seen.insert(renamed(world, &format!("{s} => {t}"))) {
        return Some("renaming");
    }
    let common = subexpressions(world, src);
    if subexpressions(world, tgt).iter().any(|e| common.contains(e)) {
        return Some("common subgraph");
    }
    if src.outputs.len() == 1 {
        // A one-output graph's output is its last op's result.
        let n_in = world.inputs.len();
        let (rs, rt) = (src.nodes.last(), tgt.nodes.last());
        if let (Some(a), Some(b)) = (rs, rt)
            && a.op == b.op
            && (a.args.len() == 1 || a.args.iter().any(|x| *x < n_in && b.args.contains(x)))
        {
            return Some("common suffix");
        }
    }
    None
}

/// The guards a rule over `inputs_used` needs: ranks, and kernel sizes of filters.
pub fn guards(world: &World, inputs_used: u32) -> Vec<String> {
    let mut out = Vec::new();
    for (i, (name, shape)) in world.inputs.iter().enumerate() {
        if inputs_used & (1 << i) == 0 {
            continue;
        }
        out.push(format!("(= (rank ?{name}) {})", shape.len()));
        if world.name == "image" && *name != "x" {
            out.push(format!("(= (dim ?{name} 2) {})", shape[2]));
            out.push(format!("(= (dim ?{name} 3) {})", shape[3]));
        }
    }
    out
}
