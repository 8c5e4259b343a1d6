//! Property: every rewrite rule (hand-written or generated, canonical or search-only)
//! computes the same function as the graph it replaces.
//!
//! For each rule of `rules::all()`, its source pattern (read from the rule files with
//! `tcc_rules`) is instantiated on random shapes: variables become function arguments
//! or constants (splats of 0, -0, 1 and 2.5, or random values; the identities and ones
//! a generated rule's guards require; arguments get signed
//! zeros, infinities and NaNs among ordinary values), attribute variables and
//! the ops' other required attributes are drawn per attribute (permutations, regrouped
//! and broadcast shapes, slices, pads, splits, layouts). Instances that do not type
//! or that the rule's guards reject are drawn again. Where the rule matches, it is
//! applied to a copy of the module, which must verify and give the interpreter's
//! results of the original: bitwise for canonicalization rules (NaN matching NaN, on
//! inputs with signed zeros, infinities and NaNs), within 1e-5 of the magnitudes the
//! computation goes through (the source run on the inputs' and constants' absolute
//! values) on finite inputs for search rules (they may reassociate arithmetic, and an
//! enlarged filter's zeros times an infinity is a NaN).
//! Each rule must apply at least [`MIN_APPLIED`] times. A planted wrong rule is caught.
//! `TCC_RULES_SEED=N` draws other instances than the default.

use std::collections::HashMap;

use tcc_dialect_graph::layout::{Layout, transform_shape};
use tcc_dialect_graph::rules::{self, matching};
use tcc_dialect_graph::{Data, Tensor, ops, run_function};
use tcc_ir::builtin::{create_func, create_return};
use tcc_ir::*;

mod common;

use common::{Rng, random_perm, shape_of};
use tcc_rules::ast::{Expr, Pattern};

const MIN_APPLIED: usize = 50;
const MAX_TRIALS: usize = 10000;

/// Every rule's source patterns, by rule name, parsed from the dialect's rule files.
fn rule_sources() -> HashMap<String, (Vec<Pattern>, Constraints)> {
    let mut out = HashMap::new();
    for f in rule_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        for r in tcc_rules::parse::parse_file(&f.display().to_string(), &text).unwrap().rules {
            out.insert(r.name.clone(), (r.source.clone(), constraints(&r.guards)));
        }
    }
    out
}

/// The dialect's rule files.
fn rule_files() -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "rules") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"), &mut files);
    files
}

/// What a rule's guards fix about its variables: `(= (rank ?v) R)` and
/// `(= (dim ?v K) N)` (generated rules say so for every input), one rank of 2 or more
/// for a batched rule's matrices (`(>= (rank ?v) 2)`, `(= (rank ?w) (rank ?v))`), and
/// constants they require: `(is-identity ?v)`, `(splat ?v 1.0)`.
#[derive(Clone, Default)]
struct Constraints {
    rank: HashMap<String, usize>,
    batched: Vec<String>,
    dims: HashMap<String, Vec<(usize, i64)>>,
    identity: Vec<String>,
    ones: Vec<String>,
}

fn constraints(guards: &[Expr]) -> Constraints {
    let mut c = Constraints::default();
    for g in guards {
        let Expr::Call(eq, args, _) = g else { continue };
        match (eq.as_str(), &args[..]) {
            ("is-identity", [Expr::Var(v, _)]) => c.identity.push(v.clone()),
            ("splat", [Expr::Var(v, _), Expr::Float(x, _)]) if *x == 1.0 => c.ones.push(v.clone()),
            (">=", [Expr::Call(f, a, _), Expr::Int(2, _)]) if f == "rank" => {
                if let [Expr::Var(v, _)] = &a[..] {
                    c.batched.push(v.clone());
                }
            }
            ("=", [Expr::Call(f, a, _), Expr::Call(g, _, _)]) if f == "rank" && g == "rank" => {
                if let [Expr::Var(v, _)] = &a[..] {
                    c.batched.push(v.clone());
                }
            }
            _ => {}
        }
        if eq != "=" {
            continue;
        }
        match (&args[0], &args[1]) {
            (Expr::Call(f, a, _), Expr::Int(n, _)) if f == "rank" => {
                if let Expr::Var(v, _) = &a[0] {
                    c.rank.insert(v.clone(), *n as usize);
                }
            }
            (Expr::Call(f, a, _), Expr::Int(n, _)) if f == "dim" => {
                if let (Expr::Var(v, _), Expr::Int(k, _)) = (&a[0], &a[1]) {
                    c.dims.entry(v.clone()).or_default().push((*k as usize, *n));
                }
            }
            _ => {}
        }
    }
    c
}

/// A random shape with the same number of elements.
fn regroup(rng: &mut Rng, s: &[i64]) -> Vec<i64> {
    let n: i64 = s.iter().product();
    if rng.below(3) == 0 {
        return s.to_vec();
    }
    let mut left = n;
    let mut out = Vec::new();
    while left > 1 && out.len() < 3 {
        let divisors: Vec<i64> = (1..=left).filter(|d| left % d == 0).collect();
        let d = divisors[rng.below(divisors.len())];
        out.push(d);
        left /= d;
    }
    out.push(left);
    if rng.below(2) == 0 {
        out.insert(rng.below(out.len() + 1), 1);
    }
    out
}

/// What the sampler draws for an optional attribute the op is to be without.
fn absent() -> Attribute {
    Attribute::string("\0absent")
}

/// One random instance of a rule's source being built.
struct Instance<'a> {
    m: Module,
    block: Block,
    rng: &'a mut Rng,
    base: Vec<i64>,
    values: HashMap<String, Value>,
    attrs: HashMap<String, Attribute>,
    args: Vec<Value>,
    fixed: Constraints,
    /// The rank of a batched rule's matrices in this instance (2 to 4).
    batch_rank: usize,
    /// Ops built so far, by their pattern's text: a subterm a source repeats (the
    /// shared matmul of a generated rule's two outputs) is built once.
    built: HashMap<String, Op>,
}

impl Instance<'_> {
    /// A new argument or constant for variable `name`; `rank` is what the op using it
    /// needs, if it says, and the rule's guards may fix its rank and extents.
    fn leaf(&mut self, name: &str, rank: Option<usize>) -> Value {
        let batched = self.fixed.batched.iter().any(|v| v == name);
        let rank = if batched { Some(self.batch_rank) } else { self.fixed.rank.get(name).copied().or(rank) };
        let mut shape: Vec<i64> = match (rank, self.rng.below(3)) {
            (Some(r), 0) => vec![self.base[0]; r],
            (Some(r), _) => (0..r).map(|i| self.base.get(i).copied().unwrap_or(1 + self.rng.below(4) as i64)).collect(),
            (None, 0) => self.base.clone(),
            (None, 1) => self.base[self.rng.below(self.base.len() + 1)..].to_vec(),
            (None, _) => self.base.iter().map(|&d| if self.rng.below(3) == 0 { 1 } else { d }).collect(),
        };
        if batched && self.rng.below(3) == 0 {
            // A batch of one, which matmul and elementwise ops broadcast.
            let r = shape.len();
            shape[..r - 2].fill(1);
        }
        for &(k, n) in self.fixed.dims.get(name).map_or(&[][..], |v| &v[..]) {
            if k < shape.len() {
                shape[k] = n;
            }
        }
        if self.fixed.identity.iter().any(|v| v == name) {
            // A square identity matrix, or a [c, c, 1, 1] identity filter.
            let c = self.base[0];
            let shape: Vec<i64> = if shape.len() == 4 { vec![c, c, 1, 1] } else { vec![c, c] };
            let vals: Vec<f32> = (0..c * c).map(|k| if k / c == k % c { 1.0 } else { 0.0 }).collect();
            let ty = TensorType::new(shape, ScalarType::F32).unwrap();
            return self.constant(DenseElements::from_f32s(ty, &vals).unwrap());
        }
        let ty = TensorType::new(shape, ScalarType::F32).unwrap();
        if self.fixed.ones.iter().any(|v| v == name) {
            return self.constant(DenseElements::splat(ty, Scalar::Float(1.0)));
        }
        if self.rng.below(2) == 0 {
            let arg = self.m.add_block_arg(self.block, Type::Tensor(ty.into()));
            self.args.push(arg);
            return arg;
        }
        let dense = match self.rng.below(6) {
            0 => DenseElements::splat(ty, Scalar::Float(0.0)),
            1 => DenseElements::splat(ty, Scalar::Float(-0.0)),
            2 => DenseElements::splat(ty, Scalar::Float(1.0)),
            3 => DenseElements::splat(ty, Scalar::Float(2.5)),
            _ => {
                let vals: Vec<f32> = (0..ty.numel()).map(|_| self.rng.f32()).collect();
                DenseElements::from_f32s(ty, &vals).unwrap()
            }
        };
        self.constant(dense)
    }

    fn constant(&mut self, dense: DenseElements) -> Value {
        let attrs = AttrDict::new().with("value", Attribute::Dense(dense));
        let op = self.m.append_inferred(self.block, &ops::CONSTANT, &[], attrs, Location::unknown()).unwrap();
        self.m.result(op, 0)
    }

    /// A random value for attribute `name` of `op` on these operands.
    /// `Ok(None)` when no value fits (an axis of a scalar): the draw is skipped.
    fn sample(&mut self, op: &str, name: &str, operands: &[Value]) -> Result<Option<Attribute>, String> {
        let shape = operands.first().map(|&v| shape_of(&self.m, v)).unwrap_or_default();
        let rank = shape.len();
        let rng = &mut *self.rng;
        Ok(Some(match (op, name) {
            ("transpose", "perm") => Attribute::i64_list(&random_perm(rng, rank)),
            ("reshape", "shape") => Attribute::i64_list(&regroup(rng, &shape)),
            ("broadcast_to", "shape") => {
                let mut s: Vec<i64> = shape.iter().map(|&d| if d == 1 && rng.below(2) == 0 { 3 } else { d }).collect();
                if rng.below(3) == 0 {
                    s.insert(0, 1 + rng.below(3) as i64);
                }
                Attribute::i64_list(&s)
            }
            ("slice", "starts" | "sizes") => {
                let full = rng.below(3) == 0;
                let sizes: Vec<i64> =
                    shape.iter().map(|&d| if full { d } else { 1 + rng.below(d as usize) as i64 }).collect();
                let starts: Vec<i64> =
                    shape.iter().zip(&sizes).map(|(&d, &s)| rng.below((d - s + 1) as usize) as i64).collect();
                // Both are drawn together; the other is remembered for its turn.
                self.attrs.insert("\0slice-sizes".into(), Attribute::i64_list(&sizes));
                self.attrs.insert("\0slice-starts".into(), Attribute::i64_list(&starts));
                Attribute::i64_list(if name == "sizes" { &sizes } else { &starts })
            }
            // Absent half the time (the attribute has no default), else 1 or 2 per
            // dimension (instances that then overrun the operand are drawn again).
            ("slice", "steps") if rng.below(2) == 0 => absent(),
            ("slice", "steps") => Attribute::i64_list(&(0..rank).map(|_| 1 + rng.below(2) as i64).collect::<Vec<_>>()),
            ("pad", "low" | "high") => Attribute::i64_list(
                &(0..rank).map(|_| if rng.below(2) == 0 { 0 } else { rng.below(3) as i64 }).collect::<Vec<_>>(),
            ),
            ("concat" | "split", "axis") if rank > 0 => Attribute::i64(rng.below(rank) as i64),
            ("split", "sizes") => {
                let axis = self.attrs.get("\0split-axis").and_then(Attribute::as_i64).unwrap_or(0) as usize;
                let Some(&d) = shape.get(axis) else { return Ok(None) };
                let cut = rng.below(d as usize + 1) as i64;
                Attribute::i64_list(&if rng.below(3) == 0 { vec![d] } else { vec![cut, d - cut] })
            }
            ("clamp", "min" | "max") => {
                let bounds = [f64::NEG_INFINITY, -1.5, -0.0, 0.0, 0.5, 2.0, 6.0, f64::INFINITY];
                Attribute::f64(bounds[rng.below(bounds.len())])
            }
            ("conv2d", "strides") => Attribute::i64_list(&[1 + rng.below(2) as i64, 1 + rng.below(2) as i64]),
            ("conv2d", "dilations") => Attribute::i64_list(&[1 + rng.below(2) as i64, 1]),
            ("conv2d", "pads") => Attribute::i64_list(&(0..4).map(|_| rng.below(2) as i64).collect::<Vec<_>>()),
            ("layout_transform", "src" | "dst") => {
                let layouts = ["NCHW", "NHWC", "NCHW2c", "NCHW4c"];
                Attribute::string(layouts[rng.below(layouts.len())])
            }
            ("concat" | "split", "axis") => return Ok(None),
            _ => {
                return Err(format!("the test cannot draw attribute `{name}` of `{op}`: add it to `Instance::sample`"));
            }
        }))
    }

    /// An integer expression over the variables built so far.
    fn int(&self, e: &Expr) -> Result<Option<i64>, String> {
        Ok(match e {
            Expr::Int(v, _) => Some(*v),
            Expr::Call(f, args, _) if f == "dim" || f == "rank" => {
                let Expr::Var(v, _) = &args[0] else { return Err(format!("`{f}` of {:?}", args[0])) };
                let Some(&value) = self.values.get(v) else { return Ok(None) };
                let shape = shape_of(&self.m, value);
                if f == "rank" {
                    return Ok(Some(shape.len() as i64));
                }
                let Some(k) = self.int(&args[1])? else { return Ok(None) };
                let k = if k < 0 { k + shape.len() as i64 } else { k };
                usize::try_from(k).ok().and_then(|k| shape.get(k).copied())
            }
            Expr::Call(f, args, _) if ["+", "-", "*"].contains(&f.as_str()) => {
                let (Some(a), Some(b)) = (self.int(&args[0])?, self.int(&args[1])?) else { return Ok(None) };
                Some(match f.as_str() {
                    "+" => a + b,
                    "-" => a - b,
                    _ => a * b,
                })
            }
            _ => return Err(format!("the test cannot instantiate attribute expression {e:?}")),
        })
    }

    /// An attribute given by an expression; `Ok(None)` if it cannot be evaluated here.
    fn literal(&self, e: &Expr) -> Result<Option<Attribute>, String> {
        Ok(match e {
            Expr::Float(v, _) => Some(Attribute::f64(*v)),
            Expr::List(items, _) => {
                let mut out = Vec::new();
                for i in items {
                    let Some(v) = self.int(i)? else { return Ok(None) };
                    out.push(v);
                }
                Some(Attribute::i64_list(&out))
            }
            Expr::Call(f, args, _) if f == "swap-last-two" => {
                let Some(n) = self.int(&args[0])? else { return Ok(None) };
                let mut p: Vec<i64> = (0..n).collect();
                p.swap(n as usize - 2, n as usize - 1);
                Some(Attribute::i64_list(&p))
            }
            other => self.int(other)?.map(Attribute::i64),
        })
    }

    /// Builds `p` (operand `rank` of its user says the rank it needs); `Ok(None)` if
    /// this draw does not type.
    fn build(&mut self, p: &Pattern, rank: Option<usize>) -> Result<Option<Value>, String> {
        Ok(match p {
            Pattern::Var(name, _) => Some(match self.values.get(name) {
                Some(&v) => v,
                None => {
                    let v = self.leaf(name, rank);
                    self.values.insert(name.clone(), v);
                    v
                }
            }),
            Pattern::As(name, inner, _) => {
                let Some(v) = self.build(inner, rank)? else { return Ok(None) };
                self.values.insert(name.clone(), v);
                Some(v)
            }
            Pattern::Result(k, inner, _) => match self.build_op(inner)? {
                Some(op) => self.m.results(op).get(*k).copied(),
                None => None,
            },
            Pattern::Op(_) => self.build_op(p)?.map(|op| self.m.result(op, 0)),
        })
    }

    fn build_op(&mut self, p: &Pattern) -> Result<Option<Op>, String> {
        let key = tcc_rules::tables::render_target(p);
        if let Some(&op) = self.built.get(&key) {
            return Ok(Some(op));
        }
        let Some(op) = self.build_new_op(p)? else { return Ok(None) };
        self.built.insert(key, op);
        Ok(Some(op))
    }

    fn build_new_op(&mut self, p: &Pattern) -> Result<Option<Op>, String> {
        let Pattern::Op(o) = p else { return Err("an op pattern".into()) };
        let mut operands = Vec::new();
        for (i, x) in o.operands.iter().enumerate() {
            // Convolutions take an NCHW image, an OIHW filter and a bias vector.
            let rank = if o.op == "conv2d" { Some([4, 4, 1][i.min(2)]) } else { None };
            let Some(v) = self.build(x, rank)? else { return Ok(None) };
            operands.push(v);
        }
        let def =
            ops::all().into_iter().find(|d| d.name == format!("graph.{}", o.op)).ok_or(format!("no op {}", o.op))?;
        let mut attrs = AttrDict::new();
        self.attrs.retain(|k, _| !k.starts_with('\0'));
        let mut names: Vec<&str> =
            def.attrs.iter().filter(|s| matches!(s.default, AttrDefault::Required)).map(|s| s.name).collect();
        for (name, _) in &o.attrs {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
        for name in names {
            let given = o.attrs.iter().find(|(n, _)| n == name).map(|(_, e)| e);
            let value = match given {
                Some(Expr::Var(var, _)) => match self.attrs.get(var) {
                    Some(a) => a.clone(),
                    None => {
                        let Some(a) = self.sample(&o.op, name, &operands)? else { return Ok(None) };
                        self.attrs.insert(var.clone(), a.clone());
                        a
                    }
                },
                Some(e) => match self.literal(e)? {
                    Some(a) => a,
                    None => return Ok(None),
                },
                None => match self.attrs.get(&format!("\0{}-{name}", o.op)) {
                    Some(a) => a.clone(),
                    None => match self.sample(&o.op, name, &operands)? {
                        Some(a) => a,
                        None => return Ok(None),
                    },
                },
            };
            if name == "axis" {
                self.attrs.insert(format!("\0{}-axis", o.op), value.clone());
            }
            if value != absent() {
                attrs.set(name, value);
            }
        }
        let result_type = match o.op.as_str() {
            "layout_transform" => {
                let (Some(src), Some(dst)) =
                    (attrs.get("src").and_then(Attribute::as_str), attrs.get("dst").and_then(Attribute::as_str))
                else {
                    return Ok(None);
                };
                let (Ok(from), Ok(to)) = (Layout::parse(src), Layout::parse(dst)) else { return Ok(None) };
                let Ok(shape) = transform_shape(&from, &to, &shape_of(&self.m, operands[0])) else { return Ok(None) };
                Some(vec![Type::tensor(shape, ScalarType::F32).unwrap()])
            }
            "cast" => {
                let elem = [ScalarType::F32, ScalarType::F64][self.rng.below(2)];
                Some(vec![Type::tensor(shape_of(&self.m, operands[0]), elem).unwrap()])
            }
            _ => None,
        };
        let types = match result_type {
            Some(t) => t,
            None => {
                let operand_types: Vec<Type> = operands.iter().map(|&v| self.m.value_type(v).clone()).collect();
                match def.infer_types(&operand_types, &attrs) {
                    Ok(t) => t,
                    Err(_) => return Ok(None),
                }
            }
        };
        let mut state = OperationState::new(def, Location::unknown());
        state.operands = operands;
        state.attrs = attrs;
        state.result_types = types;
        let op = self.m.create_op(state);
        self.m.append_op(self.block, op);
        Ok(Some(op))
    }
}

/// Whether `b` is `a`: bitwise (NaN matching NaN), or for a search rule within 1e-5 of
/// `scale`, which bounds the magnitudes the computation went through.
fn same(a: &Tensor, b: &Tensor, scale: Option<f32>) -> bool {
    match (a.data(), b.data()) {
        (Data::F32(x), Data::F32(y)) => {
            a.shape() == b.shape()
                && x.iter().zip(y).all(|(p, q)| {
                    p.to_bits() == q.to_bits()
                        || (p.is_nan() && q.is_nan())
                        || scale.is_some_and(|s| (p - q).abs() <= 1e-5 * s)
                })
        }
        _ => a == b,
    }
}

/// `m` with every argument and constant of `block` replaced by its absolute value.
/// Its results bound the magnitudes of the original's intermediate values (every op of
/// the search rules' sources is monotone in magnitude: sums, products, max, pooling,
/// data movement), which is what reassociated arithmetic's rounding errors scale with
/// (a chain of matmuls can cancel to a result much smaller than its intermediates).
fn with_abs_leaves(m: &Module, block: Block) -> Module {
    let mut c = m.clone();
    let ops: Vec<Op> = c.block_ops(block).collect();
    let mut leaves: Vec<(Value, Op)> = c.block_args(block).iter().map(|&a| (a, ops[0])).collect();
    for (k, &op) in ops.iter().enumerate() {
        if c.is(op, &ops::CONSTANT) {
            leaves.push((c.result(op, 0), ops[k + 1]));
        }
    }
    for (v, next) in leaves {
        let abs = c.append_inferred(block, &ops::ABS, &[v], AttrDict::new(), Location::unknown()).unwrap();
        c.move_op_before(abs, next);
        let r = c.result(abs, 0);
        c.replace_all_uses(v, r);
        c.set_operand(abs, 0, v);
    }
    c
}

/// What happened to one draw.
enum Trial {
    Applied,
    Skipped,
}

fn trial(rule: &matching::RuleDef, source: &[Pattern], fixed: &Constraints, rng: &mut Rng) -> Result<Trial, String> {
    let rank = 1 + rng.below(4);
    // Half the time all extents are equal, so that operands of matmuls and convolutions
    // fit each other.
    let square = rng.below(2) == 0;
    let n = 1 + rng.below(4) as i64;
    let base: Vec<i64> = (0..rank).map(|_| if square { n } else { 1 + rng.below(4) as i64 }).collect();
    // (Drawn only for batched rules, so that the others' draws stay as they were.)
    let batch_rank = if fixed.batched.is_empty() { 2 } else { 2 + rng.below(3) };
    let mut m = Module::new(Location::unknown());
    let (func, block) = create_func(&mut m, "main", vec![], vec![], Location::unknown());
    let mut inst = Instance {
        m,
        block,
        rng,
        base,
        values: HashMap::new(),
        attrs: HashMap::new(),
        args: Vec::new(),
        fixed: fixed.clone(),
        batch_rank,
        built: HashMap::new(),
    };
    let mut outs = Vec::new();
    for p in source {
        let Some(v) = inst.build(p, None)? else { return Ok(Trial::Skipped) };
        outs.push(v);
    }
    let Instance { mut m, args, rng, .. } = inst;
    let in_types: Vec<Type> = args.iter().map(|&a| m.value_type(a).clone()).collect();
    let out_types: Vec<Type> = outs.iter().map(|&v| m.value_type(v).clone()).collect();
    m.set_attr(func, "function_type", Attribute::Type(Type::function(in_types, out_types)));
    create_return(&mut m, block, &outs, Location::unknown());
    if verify(&m).is_err() {
        return Ok(Trial::Skipped);
    }
    let matches = matching::find_matches(&m, rule);
    let text = print_module(&m, PrintOptions::default());
    let Some(b) = matches.into_iter().next() else { return Ok(Trial::Skipped) };
    let Some(after) = matching::apply_to_copy(&m, rule, &b) else { return Ok(Trial::Skipped) };
    verify(&after).map_err(|e| format!("rule `{}` made an invalid module: {e}\n{text}", rule.name))?;
    let inputs: Vec<Tensor> = args
        .iter()
        .map(|&a| {
            let dims: Vec<usize> = shape_of(&m, a).iter().map(|&d| d as usize).collect();
            // Search rules (merges, generated rules) reassociate arithmetic or multiply by
            // the zeros of an enlarged filter, which turns an infinity into a NaN: they
            // hold for finite inputs, and get those.
            let exact = rule.canonical;
            Tensor::f32(
                &dims,
                (0..dims.iter().product()).map(|_| if exact { rng.input() } else { rng.f32() }).collect(),
            )
            .unwrap()
        })
        .collect();
    let main = m.func("main").unwrap();
    let Ok(want) = run_function(&m, main, &inputs) else { return Ok(Trial::Skipped) };
    let got = run_function(&after, after.func("main").unwrap(), &inputs)
        .map_err(|e| format!("rule `{}`: the rewritten module fails: {e}\n{text}", rule.name))?;
    let magnitudes = if rule.canonical {
        None
    } else {
        let bound = with_abs_leaves(&m, block);
        Some(run_function(&bound, bound.func("main").unwrap(), &inputs).map_err(|e| format!("{e}"))?)
    };
    for (i, (w, g)) in want.iter().zip(&got).enumerate() {
        let scale = magnitudes.as_ref().map(|ms| match ms[i].data() {
            Data::F32(x) => x.iter().filter(|v| v.is_finite()).fold(1.0f32, |m, v| m.max(v.abs())),
            _ => 1.0,
        });
        if !same(w, g, scale) {
            let after_text = print_module(&after, PrintOptions::default());
            return Err(format!(
                "rule `{}` changed output {i}\nbefore:\n{text}\nafter:\n{after_text}\n{w:?}\nvs\n{g:?}",
                rule.name
            ));
        }
    }
    Ok(Trial::Applied)
}

/// Draws instances of `rule` until it applied `MIN_APPLIED` times.
fn exercise(rule: &matching::RuleDef, source: &[Pattern], fixed: &Constraints, seed: u64) -> Result<usize, String> {
    let mut rng = Rng(seed | 1);
    let mut applied = 0;
    for _ in 0..MAX_TRIALS {
        if let Trial::Applied = trial(rule, source, fixed, &mut rng)? {
            applied += 1;
            if applied == MIN_APPLIED {
                return Ok(applied);
            }
        }
    }
    Err(format!("rule `{}` applied only {applied} times in {MAX_TRIALS} random instances", rule.name))
}

#[test]
fn every_rule_preserves_semantics_on_random_instances() {
    let sources = rule_sources();
    let all: Vec<&matching::RuleDef> = rules::all().collect();
    assert_eq!(sources.len(), all.len(), "every rule in the files is loaded, and only those");
    // `TCC_RULES_SEED=N` draws other instances.
    let base_seed: u64 = std::env::var("TCC_RULES_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5EED);
    // Rules are taken in turn by one thread per core; each rule's draws depend on its
    // index only, so the outcome does not depend on the threads.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut failures: Vec<(usize, String)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut failed = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&rule) = all.get(i) else { break };
                        let (source, fixed) = &sources[&rule.name[..]];
                        let seed = base_seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        if let Err(e) = exercise(rule, source, fixed, seed) {
                            failed.push((i, e));
                        }
                    }
                    failed
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a test thread panicked")).collect()
    });
    failures.sort();
    let failures: Vec<String> = failures.into_iter().map(|(_, e)| e).collect();
    assert!(failures.is_empty(), "{} rules failed:\n{}", failures.len(), failures.join("\n\n"));
}

/// `(sub ?x ?y) => (sub ?y ?x)`: the harness must reject it.
#[test]
fn a_planted_wrong_rule_is_caught() {
    let text = "(rule sub-commutes (sub ?x ?y) => (sub ?y ?x) (by hand))";
    let wrong = rules::interp::load("planted", text, false).unwrap().remove(0);
    let source = tcc_rules::parse::parse_file("planted", text).unwrap().rules.remove(0).source;
    let e = exercise(&wrong, &source, &Constraints::default(), 7).unwrap_err();
    assert!(e.contains("rule `sub-commutes` changed output 0"), "{e}");
}
