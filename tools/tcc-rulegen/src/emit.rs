//! From graphs to rule text, and the pruning that works on that text.
//!
//! A graph's outputs render as rule-language patterns over the world's inputs
//! (`?a`, `?x`, ...). Pruning (TASO):
//! - **renaming**: a pair equal to another after renaming inputs (in order of first
//!   appearance), or after swapping both sides' two outputs and renaming, is dropped;
//! - **common subgraph**: a pair whose two sides compute the same non-input
//!   subexpression is dropped (the pair with that subexpression as an input covers it);
//! - **common suffix**: a pair whose outputs are each the same op on both sides, with
//!   an input operand in common, is dropped (the pair of the other operands covers it).
//!
//! A pair whose target splits a value and keeps one part is dropped (the other part is
//! wasted work). Pairs the language cannot state are dropped too: a source that is an
//! input alone, a target using a constant its source does not (rules match constants,
//! they do not build them), a source whose outputs read no input in common (the
//! matcher finds later outputs among the users of what the first bound).
//!
//! Each emitted rule has guards that fix what the enumeration assumed: each input's
//! rank (or one rank of 2 or more for all the matrices of a rule stated for batches:
//! see [`batched`]), the filters' kernel sizes (the padding of a "same" convolution is
//! spelled out for them), and the constants' contents (`is-identity`, `splat ... 1.0`).

use std::collections::HashSet;

use crate::enumerate::{Graph, Input, Meta, World, metas, value_shapes};
use crate::spec::{Fill, Op};
use crate::validate::Fixed;

/// The attributes of the generator's pools (`spec::Op::MaxPool`, `spec::Op::AvgPool`).
pub const MAX_POOL: &str = ":kernel [3 3] :strides [1 1] :pads [1 1 1 1]";
pub const AVG_POOL: &str = ":kernel [3 3] :strides [1 1] :pads [0 0 0 0]";
/// The attributes of kernel enlargement (`spec::Op::Enlarge`): a 1x1 filter padded to 3x3.
pub const ENLARGE: &str = ":low [0 0 1 1] :high [0 0 1 1]";

/// The attributes of the generator's convolutions: "same" padding `p` (a kernel of
/// `2p + 1`), stride 1.
pub fn conv_attrs(p: i64) -> String {
    format!(":strides [1 1] :pads [{p} {p} {p} {p}] :dilations [1 1] :groups 1")
}

/// Whether the rule from `src` over `inputs_used` is stated for any rank (`batched`): a
/// rule of the matrix world over random inputs only whose source has a matrix op
/// (`matmul`, `transpose`, `concat`, `split`). Its matrices may then be batches of
/// matrices of any rank of 2 or more, all of one rank (the leading axes a batch,
/// broadcast by `matmul`), so it fires on the rank-3 matmuls of real exports; axes and
/// permutations count from the end. The axioms hold for batches (`spec::axis_of`,
/// validated on rank-3 shapes), so the proof covers them. Rules naming constants
/// (identities, ones) stay rank 2, and so do rules whose source is elementwise only:
/// stated for any rank they would match every chain of adds and multiplies of a model
/// (thousands of matches in a ConvNeXt, flooding the search), and such chains are
/// fused into one memory-bound kernel whatever their order.
pub fn batched(world: &World, src: &Graph, inputs_used: u32) -> bool {
    world.name == "matrix"
        && world.inputs.iter().enumerate().all(|(i, inp)| inputs_used & (1 << i) == 0 || inp.fill == Fill::Random)
        && src.nodes.iter().any(|n| matches!(n.op, Op::MatMul | Op::Transpose | Op::Concat(_) | Op::Split(..)))
}

/// The first matrix (non-scalar) input value `v` of `g` reads: in a batched rule, the
/// rank its attributes are counted from (every matrix input has that rank).
fn rank_anchor(world: &World, g: &Graph, v: usize) -> Option<&'static str> {
    let n_in = world.inputs.len();
    if v < n_in {
        let inp = &world.inputs[v];
        return (!inp.shape.is_empty()).then_some(inp.name);
    }
    g.nodes[v - n_in].args.iter().find_map(|&a| rank_anchor(world, g, a))
}

/// The rule-language pattern of value `v` of `g` (`metas` from [`metas`], `shapes`
/// from [`value_shapes`]); `batched` states it for any rank (see [`batched`]).
pub fn render(world: &World, g: &Graph, m: &[Meta], shapes: &[Vec<usize>], v: usize, batched: bool) -> String {
    let n_in = world.inputs.len();
    if v < n_in {
        return format!("?{}", world.inputs[v].name);
    }
    let node = &g.nodes[v - n_in];
    let a: Vec<String> = node.args.iter().map(|&x| render(world, g, m, shapes, x, batched)).collect();
    // Matrix axis `k` (0 rows, 1 columns): as it is, or counted from the end.
    let rank = || format!("(rank ?{})", rank_anchor(world, g, v).expect("matrix ops read a matrix input"));
    let axis = |k: usize| if batched { format!("(- {} {})", rank(), 2 - k) } else { k.to_string() };
    let dim = |(input, k): (usize, usize)| {
        let k = if batched { k as i64 - 2 } else { k as i64 };
        format!("(dim ?{} {k})", world.inputs[input].name)
    };
    match node.op {
        Op::MatMul => format!("(matmul {} {})", a[0], a[1]),
        Op::Add => format!("(add {} {})", a[0], a[1]),
        Op::Mul | Op::Scale => format!("(mul {} {})", a[0], a[1]),
        Op::Relu => format!("(relu {})", a[0]),
        Op::Transpose if batched => format!("(transpose {} :perm (swap-last-two {}))", a[0], rank()),
        Op::Transpose => format!("(transpose {} :perm [1 0])", a[0]),
        Op::Concat(k) => format!("(concat {} {} :axis {})", a[0], a[1], axis(k)),
        Op::Split(k, part) => {
            let (l, r) = m[node.args[0]].tree[k].expect("a split has a split tree");
            format!("(result {part} (split {} :axis {} :sizes [{} {}]))", a[0], axis(k), dim(l), dim(r))
        }
        Op::Conv | Op::ConvBias => {
            // "Same" padding for the filter's (odd, square) kernel.
            let p = shapes[node.args[1]][2] as i64 / 2;
            format!("(conv2d {} {})", a.join(" "), conv_attrs(p))
        }
        Op::Bias => unreachable!("no world enumerates a bias alone"),
        Op::Enlarge => format!("(pad {} {ENLARGE})", a[0]),
        Op::MaxPool => format!("(max_pool2d {} {MAX_POOL})", a[0]),
        Op::AvgPool => format!("(avg_pool2d {} {AVG_POOL})", a[0]),
    }
}

/// The outputs of `g` as rule text: one pattern, or `(outputs ...)` (for pruning and
/// duplicates: matrices of rank 2).
pub fn render_side(world: &World, g: &Graph) -> String {
    render_rule_side(world, g, false)
}

/// The outputs of `g` as a rule states them (`batched`: for any rank, see [`batched`]).
pub fn render_rule_side(world: &World, g: &Graph, batched: bool) -> String {
    render_outputs(world, g, batched, false)
}

/// The outputs of `g` as rule text, in their order or the reverse.
fn render_outputs(world: &World, g: &Graph, batched: bool, reversed: bool) -> String {
    let m = metas(world, g);
    let shapes = value_shapes(world, g);
    let mut outs: Vec<String> = g.outputs.iter().map(|&o| render(world, g, &m, &shapes, o, batched)).collect();
    if reversed {
        outs.reverse();
    }
    if outs.len() == 1 { outs[0].clone() } else { format!("(outputs {})", outs.join(" ")) }
}

/// Every non-input subexpression of `g`'s outputs.
fn subexpressions(world: &World, g: &Graph) -> HashSet<String> {
    let m = metas(world, g);
    let shapes = value_shapes(world, g);
    let n_in = world.inputs.len();
    (n_in..n_in + g.nodes.len()).map(|v| render(world, g, &m, &shapes, v, false)).collect()
}

/// `text` with the world's variables renamed in order of first appearance.
fn renamed(world: &World, text: &str) -> String {
    let mut order: Vec<&str> = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('?') {
        let name: String = rest[i + 1..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        if let Some(n) = world.inputs.iter().map(|i| i.name).find(|n| *n == name)
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

/// Bit i: value `v` of `g` depends on input i.
fn reads(world: &World, g: &Graph, v: usize) -> u32 {
    let n_in = world.inputs.len();
    if v < n_in {
        return 1 << v;
    }
    g.nodes[v - n_in].args.iter().fold(0, |m, &a| m | reads(world, g, a))
}

/// Why a pair is dropped, or `None` to keep it.
pub fn prune_reason(world: &World, src: &Graph, tgt: &Graph, seen: &mut HashSet<String>) -> Option<&'static str> {
    if src.nodes.is_empty() {
        return Some("source is an input");
    }
    if tgt.inputs_used & !src.inputs_used != 0 {
        // The language matches constants but builds none.
        return Some("target creates a constant");
    }
    if let [first, rest @ ..] = &src.outputs[..]
        && rest.iter().any(|&o| reads(world, src, o) & reads(world, src, *first) == 0)
    {
        // Matchers find later outputs among the users of what earlier ones bound;
        // unrelated outputs pair rules that hold one by one anyway.
        return Some("disconnected outputs");
    }
    if tgt.nodes.iter().any(|n| match n.op {
        Op::Split(axis, part) => {
            !tgt.nodes.contains(&crate::enumerate::Node { op: Op::Split(axis, 1 - part), args: n.args.clone() })
        }
        _ => false,
    }) {
        // Computing what it splits and keeping one part wastes the other: never a
        // cheaper target (as a source, it is what a rule simplifies).
        return Some("target discards part of a split");
    }
    let (s, t) = (render_side(world, src), render_side(world, tgt));
    if s == t {
        return Some("identical");
    }
    // A rule of two outputs is also the same rule with both sides' outputs swapped:
    // the matcher tries every op as the first output.
    let swapped = (src.outputs.len() == 2).then(|| {
        let (s, t) = (render_outputs(world, src, false, true), render_outputs(world, tgt, false, true));
        renamed(world, &format!("{s} => {t}"))
    });
    if !seen.insert(renamed(world, &format!("{s} => {t}"))) || swapped.is_some_and(|k| seen.contains(&k)) {
        return Some("renaming");
    }
    let common = subexpressions(world, src);
    if subexpressions(world, tgt).iter().any(|e| common.contains(e)) {
        return Some("common subgraph");
    }
    // Each output the same op on both sides, with an input operand in common (or a
    // one-operand op): the pair of the differing operands covers it.
    let n_in = world.inputs.len();
    fn root(g: &Graph, v: usize, n_in: usize) -> Option<&crate::enumerate::Node> {
        v.checked_sub(n_in).map(|k| &g.nodes[k])
    }
    if src.outputs.len() == tgt.outputs.len()
        && src.outputs.iter().zip(&tgt.outputs).all(|(&so, &to)| match (root(src, so, n_in), root(tgt, to, n_in)) {
            (Some(a), Some(b)) => {
                a.op == b.op && (a.args.len() == 1 || a.args.iter().any(|x| *x < n_in && b.args.contains(x)))
            }
            _ => false,
        })
    {
        return Some("common suffix");
    }
    None
}

/// What a rule's guards fix about input `i`'s shape: its rank (in a batched rule, a
/// matrix's is any of 2 or more, one for all), and for the image world's filters their
/// kernel size (the padding of a "same" convolution depends on it).
pub fn fixed(world: &World, i: usize, batched: bool) -> Fixed {
    let Input { name, shape, .. } = &world.inputs[i];
    let filter = world.name == "image" && *name != "x" && shape.len() == 4;
    let dims = if filter { vec![(2, shape[2]), (3, shape[3])] } else { Vec::new() };
    if batched && !shape.is_empty() {
        return Fixed { rank: None, batched: true, dims };
    }
    Fixed { rank: Some(shape.len()), batched: false, dims }
}

/// The guards a rule over `inputs_used` needs: ranks, kernel sizes of filters, and
/// what the constants hold. A batched rule's first matrix input has a rank of 2 or
/// more, the others the same.
pub fn guards(world: &World, inputs_used: u32, batched: bool) -> Vec<String> {
    let mut anchor: Option<&str> = None;
    let mut out = Vec::new();
    for (i, Input { name, fill, .. }) in world.inputs.iter().enumerate() {
        if inputs_used & (1 << i) == 0 {
            continue;
        }
        let f = fixed(world, i, batched);
        if let Some(rank) = f.rank {
            out.push(format!("(= (rank ?{name}) {rank})"));
        } else if let Some(a) = anchor {
            out.push(format!("(= (rank ?{name}) (rank ?{a}))"));
        } else {
            out.push(format!("(>= (rank ?{name}) 2)"));
            anchor = Some(name);
        }
        match fill {
            Fill::Random => {}
            Fill::Identity => out.push(format!("(is-identity ?{name})")),
            Fill::Ones => out.push(format!("(splat ?{name} 1.0)")),
        }
        for (axis, n) in f.dims {
            out.push(format!("(= (dim ?{name} {axis}) {n})"));
        }
    }
    out
}
