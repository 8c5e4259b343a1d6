//! The `offload-math` pass: a vector loop's `exp` or `erf` computed by the runtime's
//! array math on the target's widest vectors (`loop.array_math`), for code generators
//! whose own vectors are narrow (Cranelift: 4 lanes, where the polynomials' 20 to 30
//! operations per vector were most of a softmax's or a GELU's time).
//!
//! An innermost vector `loop.for` (a constant step, a body without regions) qualifies
//! when its body's f32 vector `exp`s or `erf`s (one function; several when a loop is
//! unrolled) have operands that depend on neither the carried values, nor each other,
//! nor a store, and each one's value reaches exactly one store, of a vector of its
//! type, into one buffer `B` at the same outer indices (defined outside the loop) and
//! last indices affine in the induction variable, that together store one contiguous
//! run per iteration continuing the previous one's; nothing in the body reads `B` or
//! memory that overlaps it, and the operands read nothing the body stores. `B`'s elements then serve as the scratch: the loop runs in
//! chunks of [`CHUNK`] elements, each a loop storing the functions' arguments where
//! their values will go, one call that replaces them by their values, and a loop that
//! reads them back in place of the functions and runs the rest of the body (recomputing
//! the operands' loads and arithmetic it needs), carrying the original loop's values.
//! The original loop, started where the chunks end, computes the rest. The values are
//! the same as inline: the array math computes exactly `expand-math`'s expansion.

use std::collections::{HashMap, HashSet};

use tcc_dialect_loop::{self as lp, LoopOp};
use tcc_dialect_vector::{self as vp, VectorOp};
use tcc_ir::builtin::func_entry;
use tcc_ir::scalar::{MathFn, ScalarFn};
use tcc_ir::{AttrDict, Attribute, Diagnostics, Module, Op, Pass, PassInfo, ScalarType, Type, Value};
use tcc_target::Isa;

use crate::builder::Builder;

pub static OFFLOAD_MATH: PassInfo = PassInfo {
    name: "offload-math",
    summary: "Compute vector loops' exp and erf with the runtime's array math of an ISA level (loop.array_math)",
    options: &[("isa", "the ISA level: avx512 or avx2 (default: none, the pass does nothing)")],
    create: |opts| {
        let isa = match opts.get("isa") {
            None => None,
            Some(name) => {
                Some(Isa::from_name(name).ok_or_else(|| format!("offload-math: unknown ISA level '{name}'"))?)
            }
        };
        Ok(Box::new(OffloadMath { isa }))
    },
};

/// Elements per call: four 512-bit vectors, and few enough to stay in L1 between the
/// loop that stores the arguments and the one that reads the values.
pub const CHUNK: i64 = 64;

pub struct OffloadMath {
    /// The level whose array math is called; nothing happens without one that has it.
    pub isa: Option<Isa>,
}

impl Pass for OffloadMath {
    fn name(&self) -> &'static str {
        "offload-math"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        let Some(isa) = self.isa.filter(|i| i.math_symbol().is_some()) else { return Ok(()) };
        for func in m.funcs() {
            let Some(entry) = func_entry(m, func) else { continue };
            let loops: Vec<(Op, Plan)> =
                m.walk(func).into_iter().filter_map(|op| plan(m, op).map(|p| (op, p))).collect();
            for (op, p) in loops {
                offload(m, entry, isa, op, &p);
            }
        }
        Ok(())
    }
}

/// What [`offload`] needs of a qualifying loop.
struct Plan {
    /// The `exp` or `erf` ops, each with the store into its scratch vector, in the order
    /// of their vectors in the run they store (the first at the run's start).
    pairs: Vec<(Op, Op)>,
    function: &'static str,
    lanes: i64,
    /// The loop's step.
    step: i64,
}

/// The loop's [`Plan`] if it qualifies (see the module's description).
fn plan(m: &Module, op: Op) -> Option<Plan> {
    if lp::kind_of(m, op) != Some(LoopOp::For) {
        return None;
    }
    let block = m.region_blocks(*m.regions(op).first()?)[0];
    let body: Vec<Op> = m.block_ops(block).collect();
    if body.iter().any(|&o| !m.regions(o).is_empty()) {
        return None;
    }
    let iv = m.block_args(block)[0];
    let carried = &m.block_args(block)[1..];
    let maths: Vec<(Op, &'static str)> = body
        .iter()
        .filter_map(|&o| match lp::kind_of(m, o) {
            Some(LoopOp::Arith(ScalarFn::Math(MathFn::Exp))) => Some((o, "exp")),
            Some(LoopOp::Arith(ScalarFn::Math(MathFn::Erf))) => Some((o, "erf")),
            _ => None,
        })
        .collect();
    let &(first, function) = maths.first()?;
    let vector = m.value_type(m.result(first, 0)).clone();
    let lanes = vector.as_vector()?.lanes as i64;
    let step = constant_index(m, m.operand(op, 2))?;
    let width = lanes * maths.len() as i64;
    if vector.as_vector()?.elem != ScalarType::F32 || CHUNK % width != 0 || step <= 0 {
        return None;
    }
    let stores: Vec<Op> = body.iter().copied().filter(|&o| is_store(m, o)).collect();
    let outside = |v: Value| m.defining_op(v).is_none_or(|d| !body.contains(&d)) && !carried.contains(&v) && v != iv;
    // Each function's store: the one store its value reaches, of a vector of its type,
    // at the first one's buffer and outer indices, its last index an affine function
    // of `iv` that differs from the first one's by a constant.
    let mut placed: Vec<(i64, Op, Op)> = Vec::new();
    let mut base: Option<(Value, Vec<Value>, Affine)> = None;
    for &(math, f) in &maths {
        let reached: Vec<Op> = stores.iter().copied().filter(|&st| depends_on(m, &body, st, math)).collect();
        let &[store] = reached.as_slice() else { return None };
        let ops = m.operands(store);
        let (buffer, idx) = (ops[1], &ops[2..]);
        let last = affine(m, &body, iv, *idx.last()?)?;
        let outer = idx[..idx.len() - 1].to_vec();
        if f != function
            || *m.value_type(m.result(math, 0)) != vector
            || *m.value_type(ops[0]) != vector
            || !outer.iter().all(|&v| outside(v))
            || placed.iter().any(|&(_, _, s)| s == store)
        {
            return None;
        }
        let (b0, o0, a0) = base.get_or_insert_with(|| (buffer, outer.clone(), last.clone()));
        if *b0 != buffer || *o0 != outer || a0.stride != last.stride || a0.terms != last.terms {
            return None;
        }
        placed.push((last.constant - a0.constant, math, store));
        // Its operand depends on neither the carried values, nor another function, nor a
        // store.
        let slice = operand_slice(m, &body, math);
        let reads_carried = slice.iter().chain([&math]).any(|&o| m.operands(o).iter().any(|v| carried.contains(v)));
        let nested = slice.iter().any(|o| maths.iter().any(|(other, _)| other == o));
        if reads_carried || nested || slice.iter().any(|&o| is_store(m, o)) {
            return None;
        }
    }
    let (scratch, _, first_index) = base?;
    // The vectors tile one run of `width` elements, which the next iteration continues.
    placed.sort_by_key(|&(offset, _, _)| offset);
    let start = placed[0].0;
    let tiles = placed.iter().enumerate().all(|(k, &(offset, _, _))| offset - start == k as i64 * lanes);
    if !tiles || first_index.stride * step != width {
        return None;
    }
    // Nothing in the body reads the scratch buffer or memory it overlaps, and the
    // arguments (all computed before any value of their chunk is stored) read nothing
    // the body stores.
    let stored: Vec<Value> = stores.iter().map(|&st| m.operand(st, 1)).collect();
    let argument_loads = maths.iter().flat_map(|&(math, _)| operand_slice(m, &body, math)).filter(|&o| is_load(m, o));
    if body.iter().filter(|&&o| is_load(m, o)).any(|&o| may_overlap(m, m.operand(o, 0), scratch))
        || argument_loads.into_iter().any(|o| stored.iter().any(|&s| may_overlap(m, m.operand(o, 0), s)))
    {
        return None;
    }
    Some(Plan { pairs: placed.into_iter().map(|(_, math, store)| (math, store)).collect(), function, lanes, step })
}

/// Whether `op`'s operands are computed from `from`'s result (within `body`).
fn depends_on(m: &Module, body: &[Op], op: Op, from: Op) -> bool {
    operand_slice(m, body, op).contains(&from)
}

/// An index as `stride * iv + sum(terms) + constant`, the terms values defined outside
/// the loop with their coefficients (sorted, none zero).
#[derive(Clone, Debug, PartialEq)]
struct Affine {
    stride: i64,
    terms: Vec<(Value, i64)>,
    constant: i64,
}

impl Affine {
    fn plus(mut self, other: Affine) -> Affine {
        self.stride += other.stride;
        self.constant += other.constant;
        for (v, c) in other.terms {
            match self.terms.iter_mut().find(|(w, _)| *w == v) {
                Some((_, k)) => *k += c,
                None => self.terms.push((v, c)),
            }
        }
        self.normalized()
    }

    fn times(mut self, k: i64) -> Affine {
        self.stride *= k;
        self.constant *= k;
        for (_, c) in &mut self.terms {
            *c *= k;
        }
        self.normalized()
    }

    fn normalized(mut self) -> Affine {
        self.terms.retain(|&(_, c)| c != 0);
        self.terms.sort_by_key(|&(v, _)| v);
        self
    }
}

/// Index `e` as an [`Affine`] function of `iv`: sums and constant multiples of `iv`,
/// constants and values defined outside `body`.
fn affine(m: &Module, body: &[Op], iv: Value, e: Value) -> Option<Affine> {
    if e == iv {
        return Some(Affine { stride: 1, terms: Vec::new(), constant: 0 });
    }
    if let Some(k) = constant_index(m, e) {
        return Some(Affine { stride: 0, terms: Vec::new(), constant: k });
    }
    let Some(d) = m.defining_op(e).filter(|d| body.contains(d)) else {
        return Some(Affine { stride: 0, terms: vec![(e, 1)], constant: 0 });
    };
    let &[a, b] = m.operands(d) else { return None };
    match lp::kind_of(m, d)? {
        LoopOp::Arith(ScalarFn::Add) => Some(affine(m, body, iv, a)?.plus(affine(m, body, iv, b)?)),
        LoopOp::Arith(ScalarFn::Mul) => match (constant_index(m, a), constant_index(m, b)) {
            (_, Some(k)) => Some(affine(m, body, iv, a)?.times(k)),
            (Some(k), _) => Some(affine(m, body, iv, b)?.times(k)),
            _ => None,
        },
        _ => None,
    }
}

fn is_store(m: &Module, op: Op) -> bool {
    lp::kind_of(m, op) == Some(LoopOp::Store) || vp::op_kind(m.def(op)) == Some(VectorOp::Store)
}

fn is_load(m: &Module, op: Op) -> bool {
    lp::kind_of(m, op) == Some(LoopOp::Load) || vp::op_kind(m.def(op)) == Some(VectorOp::Load)
}

fn constant_index(m: &Module, v: Value) -> Option<i64> {
    let d = m.defining_op(v).filter(|&d| lp::kind_of(m, d) == Some(LoopOp::Const))?;
    m.attr(d, "value")?.as_i64()
}

/// The ops of `body` that `op`'s operands are computed by, transitively, in body order.
fn operand_slice(m: &Module, body: &[Op], op: Op) -> Vec<Op> {
    values_slice(m, body, m.operands(op))
}

/// The ops of `body` that `values` are computed by, transitively, in body order.
fn values_slice(m: &Module, body: &[Op], values: &[Value]) -> Vec<Op> {
    let mut needed: HashSet<Op> = HashSet::new();
    let mut work: Vec<Value> = values.to_vec();
    while let Some(v) = work.pop() {
        if let Some(d) = m.defining_op(v).filter(|d| body.contains(d))
            && needed.insert(d)
        {
            work.extend(m.operands(d).iter().copied());
        }
    }
    body.iter().copied().filter(|o| needed.contains(o)).collect()
}

/// The buffer `v` views (through `loop.view`s).
fn root(m: &Module, mut v: Value) -> Value {
    while let Some(d) = m.defining_op(v).filter(|&d| lp::kind_of(m, d) == Some(LoopOp::View)) {
        v = m.operand(d, 0);
    }
    v
}

/// Whether buffers `a` and `b` may share memory: the same buffer, or workspace slices
/// whose byte ranges meet.
fn may_overlap(m: &Module, a: Value, b: Value) -> bool {
    let (a, b) = (root(m, a), root(m, b));
    if a == b {
        return true;
    }
    let range = |v: Value| {
        let d = m.defining_op(v).filter(|&d| lp::kind_of(m, d) == Some(LoopOp::Workspace))?;
        let offset = m.attr(d, "offset")?.as_i64()?;
        let t = m.value_type(v).as_buffer()?;
        Some((offset, offset + t.shape().iter().product::<i64>() * t.elem().byte_size() as i64))
    };
    match (range(a), range(b)) {
        (Some((a0, a1)), Some((b0, b1))) => a0 < b1 && b0 < a1,
        // Distinct arguments, constants: distinct memory.
        _ => false,
    }
}

/// Rewrites `op` as the module's description says.
fn offload(m: &mut Module, entry: tcc_ir::Block, isa: Isa, op: Op, p: &Plan) {
    let block = m.region_blocks(m.regions(op)[0])[0];
    let body: Vec<Op> = m.block_ops(block).collect();
    let args = m.block_args(block).to_vec();
    let (lb, ub) = (m.operand(op, 0), m.operand(op, 1));
    let inits = m.operands(op)[3..].to_vec();
    let maths: Vec<Op> = p.pairs.iter().map(|&(math, _)| math).collect();
    let arguments: Vec<Value> = maths.iter().map(|&o| m.operand(o, 0)).collect();
    let pre = values_slice(m, &body, &arguments);
    // Each store's buffer and indices, and what computes the indices.
    let targets: Vec<(Value, Vec<Value>)> =
        p.pairs.iter().map(|&(_, store)| (m.operand(store, 1), m.operands(store)[2..].to_vec())).collect();
    let all_indices: Vec<Value> = targets.iter().flat_map(|(_, idx)| idx.iter().copied()).collect();
    let index_ops = values_slice(m, &body, &all_indices);
    let yield_op = *body.last().expect("a terminator");
    let rest: Vec<Op> = body.iter().copied().filter(|o| !maths.contains(o) && *o != yield_op).collect();
    let lanes = p.lanes as u32;
    // A chunk is CHUNK elements: this many iterations' worth of the induction variable.
    let span = CHUNK / (p.lanes * p.pairs.len() as i64) * p.step;
    let mut b = Builder::before(m, op, entry);
    let count = b.sub(ub, lb);
    let count = b.max_const(count, 0);
    let per_chunk = b.index(span);
    let chunks = b.div(count, per_chunk);
    let covered = b.scale(chunks, span);
    let end = b.add(lb, covered);
    let step = b.index(p.step);
    let chunk = b.index(span);
    let elements = b.index(CHUNK);
    // The stores' indices at iteration `i` (`map` learns the index ops' copies).
    let at = |b: &mut Builder, i: Value, map: &mut HashMap<Value, Value>| -> Vec<Vec<Value>> {
        map.insert(args[0], i);
        clone_ops(b, &index_ops, map);
        targets.iter().map(|(_, idx)| idx.iter().map(|v| map.get(v).copied().unwrap_or(*v)).collect()).collect()
    };
    let results = b.for_loop(lb, end, chunk, &inits, |b, c, carried| {
        let chunk_end = b.add(c, chunk);
        // The arguments into the scratch elements.
        b.for_loop(c, chunk_end, step, &[], |b, i, _| {
            let mut map: HashMap<Value, Value> = HashMap::from([(args[0], i)]);
            clone_ops(b, &pre, &mut map);
            let indices = at(b, i, &mut map);
            for (k, &arg) in arguments.iter().enumerate() {
                let arg = map.get(&arg).copied().unwrap_or(arg);
                b.vstore(arg, targets[k].0, &indices[k]);
            }
            Vec::new()
        });
        let first = at(b, c, &mut HashMap::new()).swap_remove(0);
        let address = b.address(targets[0].0, &first);
        let attrs =
            AttrDict::new().with("fn", Attribute::string(p.function)).with("isa", Attribute::string(isa.name()));
        b.op_typed(&lp::ARRAY_MATH, &[address, elements], attrs, vec![]);
        // The values back, and the rest of the body.
        b.for_loop(c, chunk_end, step, carried, |b, i, carried| {
            let mut map: HashMap<Value, Value> = HashMap::new();
            let indices = at(b, i, &mut map);
            for (k, &math) in maths.iter().enumerate() {
                let value = b.vload(targets[k].0, &indices[k], lanes);
                map.insert(b.m.result(math, 0), value);
            }
            map.extend(args[1..].iter().copied().zip(carried.iter().copied()));
            clone_ops(b, &rest, &mut map);
            b.m.operands(yield_op).iter().map(|v| map.get(v).copied().unwrap_or(*v)).collect()
        })
    });
    // The original loop computes the elements after the last chunk.
    m.set_operand(op, 0, end);
    for (k, r) in results.into_iter().enumerate() {
        m.set_operand(op, 3 + k, r);
    }
}

/// Copies `ops` (without regions) at `b`, their operands through `map`, which learns
/// their results.
fn clone_ops(b: &mut Builder, ops: &[Op], map: &mut HashMap<Value, Value>) {
    for &o in ops {
        let operands: Vec<Value> = b.m.operands(o).iter().map(|v| map.get(v).copied().unwrap_or(*v)).collect();
        let types: Vec<Type> = b.m.results(o).iter().map(|&r| b.m.value_type(r).clone()).collect();
        let attrs = b.m.attrs(o).clone();
        let def = b.m.def(o);
        let results = b.op_typed(def, &operands, attrs, types);
        for (k, r) in results.into_iter().enumerate() {
            map.insert(b.m.result(o, k), r);
        }
    }
}
