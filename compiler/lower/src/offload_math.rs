//! The `offload-math` pass: a vector loop's `exp` or `erf` computed by the runtime's
//! array math on the target's widest vectors (`loop.array_math`), for code generators
//! whose own vectors are narrow (Cranelift: 4 lanes, where the polynomials' 20 to 30
//! operations per vector were most of a softmax's or a GELU's time).
//!
//! An innermost vector `loop.for` (a constant step, a body without regions) qualifies
//! when its body has exactly one f32 vector `exp` or `erf` whose operand does not depend
//! on the carried values, and exactly one store into a buffer `B` at `[.., iv]` (the
//! other indices defined outside the loop) that nothing else in the body reads or
//! overlaps. `B`'s elements then serve as the scratch: the loop runs in chunks of
//! [`CHUNK`] elements, each a loop storing the function's arguments into `B`, one call
//! that replaces them by their values, and a loop that reads them back in place of the
//! function and runs the rest of the body (recomputing the operand's loads and
//! arithmetic it needs), carrying the original loop's values. The original loop, started
//! where the chunks end, computes the rest. The values are the same as inline: the array
//! math computes exactly `expand-math`'s expansion.

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
    /// The `exp` or `erf` op, and which.
    math: Op,
    function: &'static str,
    /// The store into the scratch buffer.
    store: Op,
    lanes: i64,
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
    let maths: Vec<(Op, &'static str)> = body
        .iter()
        .filter_map(|&o| match lp::kind_of(m, o) {
            Some(LoopOp::Arith(ScalarFn::Math(MathFn::Exp))) => Some((o, "exp")),
            Some(LoopOp::Arith(ScalarFn::Math(MathFn::Erf))) => Some((o, "erf")),
            _ => None,
        })
        .collect();
    let &[(math, function)] = maths.as_slice() else { return None };
    let vector = m.value_type(m.result(math, 0)).as_vector()?;
    let lanes = vector.lanes as i64;
    if vector.elem != ScalarType::F32 || constant_index(m, m.operand(op, 2)) != Some(lanes) || CHUNK % lanes != 0 {
        return None;
    }
    let stores: Vec<Op> = body.iter().copied().filter(|&o| is_store(m, o)).collect();
    let &[store] = stores.as_slice() else { return None };
    let ops = m.operands(store);
    let (scratch, idx) = (ops[1], &ops[2..]);
    let outside = |v: Value| m.defining_op(v).is_none_or(|d| !body.contains(&d)) && !m.block_args(block).contains(&v);
    if m.value_type(ops[0]) != m.value_type(m.result(math, 0))
        || idx.last() != Some(&iv)
        || !idx[..idx.len() - 1].iter().all(|&v| outside(v))
    {
        return None;
    }
    // Nothing in the body reads the scratch buffer or memory it overlaps.
    let loads_scratch = body.iter().filter(|&&o| is_load(m, o)).any(|&o| may_overlap(m, m.operand(o, 0), scratch));
    // The operand depends on neither the carried values nor the stored one.
    let carried = &m.block_args(block)[1..];
    let slice = operand_slice(m, &body, math);
    let reads_carried = slice.iter().any(|&o| m.operands(o).iter().any(|v| carried.contains(v)))
        || m.operands(math).iter().any(|v| carried.contains(v));
    if loads_scratch || reads_carried || slice.contains(&store) {
        return None;
    }
    Some(Plan { math, function, store, lanes })
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
    let mut needed: HashSet<Op> = HashSet::new();
    let mut work = vec![op];
    while let Some(o) = work.pop() {
        for &v in m.operands(o) {
            if let Some(d) = m.defining_op(v).filter(|d| body.contains(d))
                && needed.insert(d)
            {
                work.push(d);
            }
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
    let store_ops = m.operands(p.store).to_vec();
    let (scratch, outer) = (store_ops[1], store_ops[2..store_ops.len() - 1].to_vec());
    let slice = operand_slice(m, &body, p.math);
    let yield_op = *body.last().expect("a terminator");
    let rest: Vec<Op> = body.iter().copied().filter(|&o| o != p.math && o != yield_op).collect();
    let lanes = p.lanes as u32;

    let mut b = Builder::before(m, op, entry);
    let count = b.sub(ub, lb);
    let per_chunk = b.index(CHUNK);
    let chunks = b.div(count, per_chunk);
    let covered = b.scale(chunks, CHUNK);
    let end = b.add(lb, covered);
    let step = b.index(p.lanes);
    let chunk = b.index(CHUNK);
    let results = b.for_loop(lb, end, chunk, &inits, |b, c, carried| {
        let chunk_end = b.add(c, chunk);
        // The arguments into the scratch elements.
        b.for_loop(c, chunk_end, step, &[], |b, i, _| {
            let mut map: HashMap<Value, Value> = HashMap::from([(args[0], i)]);
            clone_ops(b, &slice, &mut map);
            let arg = map.get(&b.m.operand(p.math, 0)).copied().unwrap_or(b.m.operand(p.math, 0));
            let mut idx = outer.clone();
            idx.push(i);
            b.vstore(arg, scratch, &idx);
            Vec::new()
        });
        let mut idx = outer.clone();
        idx.push(c);
        let address = b.address(scratch, &idx);
        let attrs =
            AttrDict::new().with("fn", Attribute::string(p.function)).with("isa", Attribute::string(isa.name()));
        b.op_typed(&lp::ARRAY_MATH, &[address, chunk], attrs, vec![]);
        // The values back, and the rest of the body.
        b.for_loop(c, chunk_end, step, carried, |b, i, carried| {
            let mut idx = outer.clone();
            idx.push(i);
            let value = b.vload(scratch, &idx, lanes);
            let mut map: HashMap<Value, Value> = HashMap::from([(args[0], i), (b.m.result(p.math, 0), value)]);
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
