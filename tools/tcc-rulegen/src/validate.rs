//! Validation of the axioms on every small shape (TASO checks its operator properties
//! this way, and found two of its own wrong): an axiom is evaluated with the operator
//! specifications ([`crate::spec`]) on each combination of small shapes its variables
//! and constants can take where both sides are defined, with every input element a
//! distinct real symbol ([`crate::sym`]), and the two sides must be equal as functions
//! of those reals, element by element. A wrong axiom is rejected with the shapes that
//! show it, and so is one no shape could test or whose equality stays undecided.
//!
//! The shapes: scalars, vectors up to 4, matrices up to 4x4, and 4-D tensors up to
//! 3x3x4x4 (images, and filters with 1x1 or 3x3 kernels). Shape combinations are
//! enumerated depth first, variable by variable, dropping a branch as soon as a subterm
//! whose variables are all assigned is undefined.

use crate::axioms::{Axiom, Term, constant_fill};
use crate::spec::{self, Num, Op, T};
use crate::sym::{self, Decision, Sym};

/// What a value in an evaluation is: a tensor of numbers, or only its shape (to find
/// the combinations where an axiom is defined without computing anything).
trait Domain: Clone {
    fn shape(&self) -> &[usize];
    fn apply(op: Op, args: &[&Self]) -> Option<Self>;
    /// `add` or `mul` with numpy broadcasting, as the graph dialect computes them.
    fn broadcast(op: Op, a: &Self, b: &Self) -> Option<Self>;
    fn split(&self, axis: usize, first: usize, part: usize) -> Option<Self>;
}

impl<N: Num> Domain for T<N> {
    fn shape(&self) -> &[usize] {
        &self.shape
    }
    fn apply(op: Op, args: &[&T<N>]) -> Option<T<N>> {
        spec::eval(op, args)
    }
    fn broadcast(op: Op, a: &T<N>, b: &T<N>) -> Option<T<N>> {
        spec::eval_broadcast(op, a, b)
    }
    fn split(&self, axis: usize, first: usize, part: usize) -> Option<T<N>> {
        spec::split(self, axis, first, part)
    }
}

/// A shape alone.
#[derive(Clone)]
struct Shape(Vec<usize>);

impl Domain for Shape {
    fn shape(&self) -> &[usize] {
        &self.0
    }
    fn apply(op: Op, args: &[&Shape]) -> Option<Shape> {
        spec::shape(op, &args.iter().map(|a| &a.0[..]).collect::<Vec<_>>()).map(Shape)
    }
    fn broadcast(_: Op, a: &Shape, b: &Shape) -> Option<Shape> {
        spec::broadcast_shape(&a.0, &b.0).map(Shape)
    }
    fn split(&self, axis: usize, first: usize, part: usize) -> Option<Shape> {
        spec::split_shape(&self.0, axis, first, part).map(Shape)
    }
}

/// A term's value and, per axis, the size of the first part of the last concatenation
/// along it (TASO's split tree: what `split` undoes).
struct Value<D> {
    v: D,
    tree: Vec<Option<usize>>,
}

/// The generator op an axiom operator names (`split` and constants aside).
fn spec_op(name: &str) -> Option<Op> {
    Some(match name {
        "matmul" => Op::MatMul,
        "add" => Op::Add,
        "mul" => Op::Mul,
        "scale" => Op::Scale,
        "relu" => Op::Relu,
        "transpose" => Op::Transpose,
        "concat0" => Op::Concat(0),
        "concat1" => Op::Concat(1),
        "conv" => Op::Conv,
        "bias" => Op::Bias,
        "enlarge" => Op::Enlarge,
        "poolmax" => Op::MaxPool,
        "poolavg" => Op::AvgPool,
        _ => return None,
    })
}

/// The slots of an axiom's evaluation: its variables, then its constants (each
/// constant operator takes one shape per instance).
struct Slots {
    vars: usize,
    constants: Vec<&'static str>,
}

impl Slots {
    fn of(terms: &[&Term], vars: usize) -> Slots {
        fn walk(t: &Term, out: &mut Vec<&'static str>) {
            if let Term::App(op, args) = t {
                if args.is_empty() && !out.contains(op) {
                    out.push(op);
                }
                args.iter().for_each(|a| walk(a, out));
            }
        }
        let mut constants = Vec::new();
        terms.iter().for_each(|t| walk(t, &mut constants));
        Slots { vars, constants }
    }

    fn len(&self) -> usize {
        self.vars + self.constants.len()
    }

    /// The slot of a leaf term.
    fn slot(&self, t: &Term) -> Option<usize> {
        match t {
            Term::Var(i) => Some(*i),
            Term::App(op, args) if args.is_empty() => {
                self.constants.iter().position(|c| c == op).map(|k| self.vars + k)
            }
            Term::App(..) => None,
        }
    }

    /// The highest slot `t` reads (`None` for none).
    fn last_slot(&self, t: &Term) -> Option<usize> {
        match t {
            Term::App(_, args) if !args.is_empty() => args.iter().filter_map(|a| self.last_slot(a)).max(),
            leaf => self.slot(leaf),
        }
    }
}

/// How elementwise ops treat operands of different shapes.
#[derive(Clone, Copy, PartialEq)]
enum Elementwise {
    /// Undefined, as the operator specifications (and the axioms) have them.
    Exact,
    /// Numpy broadcasting, as the graph dialect has them (what a rule meets).
    Broadcast,
}

/// `t`'s value with slot i = `env[i]`; `None` where an operator is undefined.
fn eval<D: Domain>(t: &Term, env: &[D], slots: &Slots, ew: Elementwise) -> Option<Value<D>> {
    if let Some(s) = slots.slot(t) {
        let v = env[s].clone();
        return Some(Value { tree: vec![None; v.shape().len()], v });
    }
    let Term::App(op, args) = t else { unreachable!("leaves have slots") };
    let vals: Vec<Value<D>> = args.iter().map(|a| eval(a, env, slots, ew)).collect::<Option<_>>()?;
    if let Some(rest) = op.strip_prefix("split") {
        let (axis, part) = ((rest.as_bytes()[0] - b'0') as usize, (rest.as_bytes()[2] - b'0') as usize);
        let at = spec::axis_of(axis, vals[0].tree.len());
        let first = (*vals[0].tree.get(at)?)?;
        let v = vals[0].v.split(axis, first, part)?;
        let mut tree = vals[0].tree.clone();
        tree[at] = None;
        return Some(Value { v, tree });
    }
    let g = spec_op(op)?;
    let v = match g {
        Op::Add | Op::Mul | Op::Scale if ew == Elementwise::Broadcast => D::broadcast(g, &vals[0].v, &vals[1].v)?,
        _ => D::apply(g, &vals.iter().map(|x| &x.v).collect::<Vec<_>>())?,
    };
    let mut tree = vec![None; v.shape().len()];
    match g {
        Op::Concat(axis) => {
            let at = spec::axis_of(axis, tree.len());
            tree[at] = Some(vals[0].v.shape()[at])
        }
        Op::Relu | Op::Scale => tree = vals[0].tree.clone(),
        Op::Add | Op::Mul if vals[0].tree == vals[1].tree && vals[0].v.shape() == vals[1].v.shape() => {
            tree = vals[0].tree.clone()
        }
        Op::Transpose => {
            tree = vals[0].tree.clone();
            let r = tree.len();
            tree.swap(r - 2, r - 1)
        }
        Op::MaxPool | Op::AvgPool => tree = vec![vals[0].tree[0], vals[0].tree[1], None, None],
        // Output channels are the filter's; a bias keeps the image's channel parts where
        // its own parts have the same extents.
        Op::Conv => tree[1] = vals[1].tree[0],
        Op::Bias => {
            tree = vals[0].tree.clone();
            if vals[1].tree[0] != tree[1] {
                tree[1] = None;
            }
        }
        _ => {}
    }
    Some(Value { v, tree })
}

/// Every small shape: a scalar, vectors up to `m` (biases), matrices up to `m`x`m`,
/// batches of one or two matrices up to 3x3 (rank 3: see [`spec::axis_of`]), 4-D
/// tensors up to `n`x3x`m`x`m` (3x3x4x4 for axioms).
pub fn small_shapes(n: usize, m: usize) -> Vec<Vec<usize>> {
    let mut out = vec![vec![]];
    out.extend((1..=m).map(|len| vec![len]));
    for r in 1..=m {
        for c in 1..=m {
            out.push(vec![r, c]);
        }
    }
    for b in 1..=2 {
        for r in 1..=m.min(3) {
            for c in 1..=m.min(3) {
                out.push(vec![b, r, c]);
            }
        }
    }
    for n in 1..=n {
        for c in 1..=3 {
            for h in 1..=m {
                for w in 1..=m {
                    out.push(vec![n, c, h, w]);
                }
            }
        }
    }
    out
}

/// Every assignment of shapes to the slots of `terms` (slot i from `domains[i]`) where
/// all of them are defined.
fn instances(terms: &[&Term], slots: &Slots, domains: &[Vec<Vec<usize>>], ew: Elementwise) -> Vec<Vec<Vec<usize>>> {
    // Subterms by the last slot they read: checked as soon as it is assigned.
    let mut by_slot: Vec<Vec<&Term>> = vec![Vec::new(); slots.len()];
    fn subterms<'a>(t: &'a Term, out: &mut Vec<&'a Term>) {
        out.push(t);
        if let Term::App(_, args) = t {
            args.iter().for_each(|a| subterms(a, out));
        }
    }
    let mut all = Vec::new();
    terms.iter().for_each(|t| subterms(t, &mut all));
    for t in all {
        if let Some(s) = slots.last_slot(t) {
            by_slot[s].push(t);
        }
    }
    let mut out = Vec::new();
    let mut env: Vec<Shape> = Vec::new();
    fn dfs(
        k: usize,
        env: &mut Vec<Shape>,
        domains: &[Vec<Vec<usize>>],
        by_slot: &[Vec<&Term>],
        slots: &Slots,
        ew: Elementwise,
        out: &mut Vec<Vec<Vec<usize>>>,
    ) {
        if k == domains.len() {
            out.push(env.iter().map(|s| s.0.clone()).collect());
            return;
        }
        for shape in &domains[k] {
            env.push(Shape(shape.clone()));
            if by_slot[k].iter().all(|t| eval(t, env, slots, ew).is_some()) {
                dfs(k + 1, env, domains, by_slot, slots, ew, out);
            }
            env.pop();
        }
    }
    dfs(0, &mut env, domains, &by_slot, slots, ew, &mut out);
    out
}

/// How an axiom was validated.
#[derive(Debug, Default, Clone, Copy)]
pub struct Validation {
    /// Shape combinations checked.
    pub instances: usize,
    /// Of them, those whose equality needed Z3 (the canonical forms differed by a `max`).
    pub by_solver: usize,
}

/// Checks `axiom` on every combination of small shapes: `Ok` with what was checked, or
/// why it is wrong, untestable or undecided.
pub fn validate(axiom: &Axiom, timeout_ms: u32) -> Result<Validation, String> {
    let terms = [&axiom.left, &axiom.right];
    let slots = Slots::of(&terms, axiom.vars);
    let shapes = small_shapes(3, 4);
    let domains: Vec<Vec<Vec<usize>>> = (0..slots.len())
        .map(|s| match s.checked_sub(slots.vars) {
            None => shapes.clone(),
            Some(k) => {
                let fill = constant_fill(slots.constants[k]).expect("constants have fills");
                shapes.iter().filter(|sh| fill.constant::<i64>(sh).is_some()).cloned().collect()
            }
        })
        .collect();
    let mut done = Validation::default();
    for shapes in instances(&terms, &slots, &domains, Elementwise::Exact) {
        sym::reset();
        let env: Vec<T<Sym>> = shapes
            .iter()
            .enumerate()
            .map(|(s, shape)| match s.checked_sub(slots.vars) {
                None => T::new(shape.clone(), (0..shape.iter().product()).map(|_| sym::var()).collect()),
                Some(k) => constant_fill(slots.constants[k]).and_then(|f| f.constant(shape)).expect("filtered"),
            })
            .collect();
        let (Some(l), Some(r)) =
            (eval(&axiom.left, &env, &slots, Elementwise::Exact), eval(&axiom.right, &env, &slots, Elementwise::Exact))
        else {
            unreachable!("instances are defined on both sides")
        };
        let at = || format!("on shapes {shapes:?}");
        if l.v.shape != r.v.shape {
            return Err(format!(
                "axiom `{}` is false: {}, the left side is {:?} and the right side {:?}",
                axiom.text,
                at(),
                l.v.shape,
                r.v.shape
            ));
        }
        let (lp, rp): (Vec<_>, Vec<_>) =
            l.v.data.iter().zip(&r.v.data).map(|(&a, &b)| (sym::poly(a), sym::poly(b))).unzip();
        match sym::decide(&lp, &rp, timeout_ms) {
            Decision::Equal { by_solver } => done.by_solver += by_solver as usize,
            Decision::Differs { index, at: point } => {
                return Err(format!(
                    "axiom `{}` is false: {}, element {index} of the two sides differs{}",
                    axiom.text,
                    at(),
                    point.map(|p| format!(" (inputs {p:?})")).unwrap_or_default()
                ));
            }
            Decision::Unknown(why) => {
                return Err(format!("axiom `{}` is not validated: {}: {why}", axiom.text, at()));
            }
        }
        done.instances += 1;
    }
    if done.instances == 0 {
        return Err(format!("axiom `{}` is defined on no small shape, so it cannot be validated", axiom.text));
    }
    Ok(done)
}

/// What a rule's guards fix about a leaf of its terms (an input, or a constant): its
/// rank and some of its extents.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fixed {
    pub rank: Option<usize>,
    /// A matrix of a batched rule (`emit::batched`): rank 2 or more, the same as every
    /// other batched leaf's (checked on ranks 2 and 3).
    pub batched: bool,
    /// (axis, extent) pairs.
    pub dims: Vec<(usize, usize)>,
}

impl Fixed {
    fn admits(&self, shape: &[usize]) -> bool {
        self.rank.is_none_or(|r| r == shape.len())
            && (!self.batched || (2..=3).contains(&shape.len()))
            && self.dims.iter().all(|&(a, n)| shape.get(a) == Some(&n))
    }
}

/// Checks a proved rule as the graph dialect runs it, on every combination of small
/// shapes (matrices up to 3x3, 4-D tensors up to 2x3x3x3) its guards admit (`fixed`
/// says what they fix about each leaf) where the source and target are both defined,
/// on random values. The proof treats operators as functions of whole tensors and
/// cannot see shapes: an axiom holds where both its sides are defined (two
/// concatenations multiplied elementwise split alike only when their parts have the
/// same extents), and the dialect's elementwise ops broadcast where the
/// specifications' are undefined. So a rule the axioms entail may still be false on
/// some shapes. Shapes where the target's outputs have other shapes than the source's
/// are skipped: the rule does not apply there. `Ok(instances)`, or the shapes where
/// it is false.
pub fn check_shapes(source: &[Term], target: &[Term], fixed: &dyn Fn(&Term) -> Fixed) -> Result<usize, String> {
    // Variables renumbered densely, so that no slot is an unused variable.
    fn renumber(t: &Term, map: &mut Vec<usize>) -> Term {
        match t {
            Term::Var(v) => Term::Var(map.iter().position(|x| x == v).unwrap_or_else(|| {
                map.push(*v);
                map.len() - 1
            })),
            Term::App(op, args) => Term::App(op, args.iter().map(|a| renumber(a, map)).collect()),
        }
    }
    let mut map = Vec::new();
    let source: Vec<Term> = source.iter().map(|t| renumber(t, &mut map)).collect();
    let target: Vec<Term> = target.iter().map(|t| renumber(t, &mut map)).collect();
    let terms: Vec<&Term> = source.iter().chain(&target).collect();
    let slots = Slots::of(&terms, map.len());
    let shapes = small_shapes(2, 3);
    let mut batched = vec![false; slots.len()];
    let domains: Vec<Vec<Vec<usize>>> = (0..slots.len())
        .map(|s| {
            let (leaf, fill) = match s.checked_sub(slots.vars) {
                None => (Term::Var(map[s]), None),
                Some(k) => (Term::App(slots.constants[k], Vec::new()), constant_fill(slots.constants[k])),
            };
            let f = fixed(&leaf);
            batched[s] = f.batched;
            let fits = |sh: &&Vec<usize>| f.admits(sh) && fill.is_none_or(|fl| fl.constant::<i64>(sh).is_some());
            shapes.iter().filter(fits).cloned().collect()
        })
        .collect();
    let mut next = spec::xorshift(0x5AFE);
    let mut checked = 0;
    'instances: for shapes in instances(&terms, &slots, &domains, Elementwise::Broadcast) {
        // The batched leaves have one rank (the guards say so).
        let mut ranks = shapes.iter().zip(&batched).filter(|(_, b)| **b).map(|(s, _)| s.len());
        if let Some(r) = ranks.next()
            && ranks.any(|q| q != r)
        {
            continue;
        }
        let env: Vec<T<f64>> = shapes
            .iter()
            .enumerate()
            .map(|(s, shape)| match s.checked_sub(slots.vars) {
                None => {
                    let data = (0..shape.iter().product()).map(|_| (next() % 2001) as f64 / 1000.0 - 1.0).collect();
                    T::new(shape.clone(), data)
                }
                Some(k) => constant_fill(slots.constants[k]).and_then(|f| f.constant(shape)).expect("filtered"),
            })
            .collect();
        for (s, t) in source.iter().zip(&target) {
            let (Some(l), Some(r)) =
                (eval(s, &env, &slots, Elementwise::Broadcast), eval(t, &env, &slots, Elementwise::Broadcast))
            else {
                unreachable!("instances are defined on both sides")
            };
            // A target of another shape does not apply (a rule keeps every type).
            if l.v.shape != r.v.shape {
                continue 'instances;
            }
            if l.v.data.iter().zip(&r.v.data).any(|(p, q)| (p - q).abs() > 1e-9 * (1.0 + p.abs())) {
                return Err(format!("false on shapes {shapes:?}"));
            }
        }
        checked += 1;
    }
    Ok(checked)
}

/// Validates every axiom, on `threads` threads: the total checked, or the first error.
pub fn validate_all(axioms: &[Axiom], threads: usize, timeout_ms: u32) -> Result<Validation, String> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<Result<Validation, String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(a) = axioms.get(k) else { break };
                        out.push((k, validate(a, timeout_ms)));
                    }
                    out
                })
            })
            .collect();
        let mut all: Vec<_> =
            workers.into_iter().flat_map(|w| w.join().expect("a validation thread panicked")).collect();
        all.sort_by_key(|(k, _)| *k);
        all.into_iter().map(|(_, r)| r).collect()
    });
    let mut total = Validation::default();
    for r in results {
        let v = r?;
        total.instances += v.instances;
        total.by_solver += v.by_solver;
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::axioms::{AXIOMS, parse_axioms};

    #[test]
    fn every_axiom_holds_on_every_small_shape() {
        let axioms = parse_axioms(AXIOMS).unwrap();
        assert!(axioms.len() >= 40);
        for a in &axioms {
            let v = validate(a, 5_000).unwrap();
            assert!(v.instances >= 4, "`{}`: {} instances", a.text, v.instances);
        }
    }

    #[test]
    fn the_shapes_of_an_axiom_are_all_found() {
        // (matmul (matmul a b) c): every m, k, l, n in 1..=4; and batches: every m, k,
        // l, n in 1..=3 with each operand a batch of 1 or 2 (any mix broadcasts).
        let a = parse_axioms("(matmul (matmul a b) c) = (matmul a (matmul b c))").unwrap().remove(0);
        assert_eq!(validate(&a, 1000).unwrap().instances, 4 * 4 * 4 * 4 + 2 * 2 * 2 * 3 * 3 * 3 * 3);
        // (conv a imm) = a: every image, with the identity filter that fits.
        let a = parse_axioms("(conv a imm) = a").unwrap().remove(0);
        assert_eq!(validate(&a, 1000).unwrap().instances, 3 * 3 * 4 * 4);
    }

    #[test]
    fn batches_of_matrices_are_matrix_by_matrix() {
        // A batch of two 2x2 matrices times a batch of one: each times the one.
        let a: T<i64> = T::new(vec![2, 2, 2], vec![1, 2, 3, 4, 5, 6, 7, 8]);
        let b: T<i64> = T::new(vec![1, 2, 2], vec![0, 1, 1, 0]);
        assert_eq!(spec::eval(Op::MatMul, &[&a, &b]).unwrap().data, vec![2, 1, 4, 3, 6, 5, 8, 7]);
        assert_eq!(spec::eval(Op::Transpose, &[&a]).unwrap().data, vec![1, 3, 2, 4, 5, 7, 6, 8]);
        // Concatenated along each matrix's columns, split back.
        let c = spec::eval(Op::Concat(1), &[&a, &a]).unwrap();
        assert_eq!(c.shape, vec![2, 2, 4]);
        assert_eq!(&c.data[..4], &[1, 2, 1, 2]);
        assert_eq!(spec::split(&c, 1, 2, 1).unwrap(), a);
    }

    #[test]
    fn a_planted_wrong_axiom_is_caught() {
        for wrong in [
            "(matmul a b) = (matmul b a)",
            "(relu (add a b)) = (add (relu a) (relu b))",
            "(transpose a) = a",
            "(matmul a ones) = a",
            "(poolmax (add a b)) = (add (poolmax a) (poolmax b))",
            "(poolavg (relu a)) = (relu (poolavg a))",
            "(conv a (concat0 b c)) = (concat0 (conv a b) (conv a c))",
            "(relu (bias a b)) = (bias (relu a) b)",
            "(bias (concat1 a b) (concat0 c d)) = (concat1 (bias a d) (bias b c))",
        ] {
            let a = parse_axioms(wrong).unwrap().remove(0);
            let e = validate(&a, 1000).unwrap_err();
            assert!(e.contains("is false"), "{wrong}: {e}");
        }
    }

    #[test]
    fn an_axiom_no_shape_can_test_is_rejected() {
        // A matrix transposed, then pooled: never defined.
        let a = parse_axioms("(poolmax (transpose a)) = a").unwrap().remove(0);
        assert!(validate(&a, 1000).unwrap_err().contains("defined on no small shape"));
    }
}
