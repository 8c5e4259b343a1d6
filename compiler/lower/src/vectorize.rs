//! The `vectorize` pass: innermost unit-step loops to vector code.
//!
//! A `loop.for` with step 1 whose body is straight-line code is vectorized when:
//! - `index` values are affine in the induction variable (`iv`, `iv + c`, `iv - c`,
//!   `c + iv` with `c` invariant) or invariant; they stay scalar and form addresses;
//! - every load and store indexes the innermost dimension (unit stride) with such an
//!   `iv + c`, and every other dimension with invariants; a load whose indices are all
//!   invariant is uniform (a scalar load, then a splat);
//! - a buffer that is stored in the loop is only loaded at exactly the stored indices
//!   (so lanes never depend on each other) and never uniformly;
//! - carried values are reductions `acc' = op(acc, x)` with `op` in add, mul, max, min;
//! - all vector values have elements of one width (masks from `cmp` aside), or of two
//!   where the narrow ones are floats only loaded, narrowed, stored, widened or used in
//!   plain arithmetic (f32 data summed in f64: then lanes are as many as the wide type
//!   has), no `i1` buffer is accessed, no f64 math remains (it is a runtime call), and
//!   no 64-bit float <-> integer conversion is needed (Cranelift has no vector form of
//!   it).
//!
//! The loop then becomes a vector loop over the largest multiple of the lane count,
//! followed by the original loop as the scalar remainder, seeded with the vector
//! loop's horizontally reduced accumulators. A vector loop of a few iterations known at
//! compile time (`unroll-iterations`: a 16-channel block in 4-lane vectors) is emitted
//! as that many copies of its body, whose addresses are then constant offsets. Lane
//! counts come from the target's vector width (`vector-bits`, 128 for Cranelift).
//! Reductions are reassociated (lane partial sums), as every vectorizing compiler does.

use std::collections::{HashMap, HashSet};

use tcc_dialect_loop::{self as lp, LoopOp};
use tcc_dialect_vector as vp;
use tcc_ir::builtin::func_entry;
use tcc_ir::scalar::{Identity, ScalarFn};
use tcc_ir::{AttrDict, Block, Diagnostics, Module, Op, Pass, PassInfo, ScalarType, Type, Value, VectorType};

use crate::builder::Builder;

pub static VECTORIZE: PassInfo = PassInfo {
    name: "vectorize",
    summary: "Turn innermost unit-stride loops into vector loops with a scalar remainder",
    options: &[
        ("vector-bits", "SIMD register width in bits (default 128)"),
        (
            "unroll-iterations",
            "vector loops with constant bounds of at most this many iterations are emitted without a loop (default 4)",
        ),
    ],
    create: |opts| {
        Ok(Box::new(Vectorize {
            vector_bits: opts.parse_or("vector-bits", 128u32)?,
            unroll_iterations: opts.parse_or("unroll-iterations", UNROLL_ITERATIONS)?,
        }))
    },
};

pub struct Vectorize {
    pub vector_bits: u32,
    /// Vector loops with constant bounds of at most this many iterations are emitted
    /// without a loop.
    pub unroll_iterations: i64,
}

impl Pass for Vectorize {
    fn name(&self) -> &'static str {
        "vectorize"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        vectorize(m, self.vector_bits, self.unroll_iterations);
        Ok(())
    }
}

/// Vectorizes every eligible loop; returns how many were vectorized.
pub fn vectorize(m: &mut Module, vector_bits: u32, unroll_iterations: i64) -> usize {
    let mut count = 0;
    for func in m.funcs() {
        let Some(entry) = func_entry(m, func) else { continue };
        let loops: Vec<Op> = m.walk(func).into_iter().filter(|&op| kind(m, op) == Some(LoopOp::For)).collect();
        for l in loops {
            if let Some(plan) = analyze(m, l, vector_bits) {
                rewrite(m, l, entry, &plan, unroll_iterations);
                count += 1;
            }
        }
    }
    count
}

fn kind(m: &Module, op: Op) -> Option<LoopOp> {
    lp::kind_of(m, op)
}

/// Whether an op applies lane by lane: arithmetic (but `rem`, which has no vector form
/// on every target, and `ldexp`, which only `expand-math` makes, after this pass),
/// comparisons and selects. Casts are checked on their own.
fn lane_wise(kind: Option<LoopOp>) -> bool {
    match kind {
        Some(LoopOp::Arith(f)) => !matches!(f, ScalarFn::Rem | ScalarFn::Ldexp),
        Some(LoopOp::Compare | LoopOp::Select) => true,
        _ => false,
    }
}

struct Vectorization {
    lanes: u32,
    /// Values that become vectors (the rest stay scalar).
    vector: HashSet<Value>,
    /// Loads with only invariant indices: scalar load, splat.
    uniform_loads: HashSet<Op>,
    /// For each carried value: its combining function.
    reductions: Vec<ScalarFn>,
}

fn index_ty() -> Type {
    Type::Scalar(ScalarType::Index)
}

fn analyze(m: &Module, l: Op, vector_bits: u32) -> Option<Vectorization> {
    let ops = m.operands(l);
    let step = m.defining_op(ops[2]).filter(|&d| kind(m, d) == Some(LoopOp::Const))?;
    if m.attr(step, "value")?.as_i64()? != 1 {
        return None;
    }
    let body = m.region_blocks(m.regions(l)[0])[0];
    let args = m.block_args(body).to_vec();
    let iv = args[0];
    let inside: HashSet<Value> = {
        let mut s: HashSet<Value> = args.iter().copied().collect();
        for op in m.block_ops(body) {
            s.extend(m.results(op).iter().copied());
        }
        s
    };
    // Index values computed inside the loop from invariant ones only (a slice's
    // `start + i * step` of an outer dimension) are invariant too.
    let mut uniform: HashSet<Value> = HashSet::new();
    let invariant = |v: Value, uniform: &HashSet<Value>| !inside.contains(&v) || uniform.contains(&v);

    // Index values: affine in iv (`iv + c`) or invariant.
    let mut affine: HashSet<Value> = HashSet::from([iv]);
    let mut vector: HashSet<Value> = HashSet::new();
    let mut uniform_loads = HashSet::new();
    let mut widths: HashSet<u32> = HashSet::new();
    let mut stored: HashMap<Value, Vec<Value>> = HashMap::new();
    let mut loaded: Vec<(Value, Vec<Value>, bool)> = Vec::new();
    let mut note_bits = |t: &Type| -> bool {
        match lp::elem_of(t) {
            Some(ScalarType::I1) => true,
            Some(e) => {
                widths.insert(e.byte_size() as u32 * 8);
                widths.len() <= 2
            }
            None => false,
        }
    };
    let ops_in: Vec<Op> = m.block_ops(body).collect();
    let (last, straight) = ops_in.split_last()?;
    if kind(m, *last) != Some(LoopOp::Yield) {
        return None;
    }
    for &op in straight {
        let operands = m.operands(op);
        let op_kind = kind(m, op);
        let is_index = m.results(op).first().is_some_and(|&r| *m.value_type(r) == index_ty());
        if is_index {
            // Index arithmetic: keep scalar; track affinity.
            if !lane_wise(op_kind) {
                return None;
            }
            let uses_iv: Vec<bool> = operands.iter().map(|v| affine.contains(v)).collect();
            let any_varying = operands.iter().any(|&v| !invariant(v, &uniform) && !affine.contains(&v));
            if any_varying {
                return None;
            }
            if !uses_iv.iter().any(|&u| u) {
                uniform.insert(m.result(op, 0));
            } else {
                let ok = match op_kind {
                    Some(LoopOp::Arith(ScalarFn::Add)) => uses_iv.iter().filter(|&&u| u).count() == 1,
                    Some(LoopOp::Arith(ScalarFn::Sub)) => uses_iv[0] && !uses_iv[1],
                    _ => false,
                };
                if !ok {
                    return None;
                }
                affine.insert(m.result(op, 0));
            }
            continue;
        }
        // Index operands of non-address ops would need a vector of lane indices.
        let first_addr = match op_kind {
            Some(LoopOp::Load) => 1,
            Some(LoopOp::Store) => 2,
            _ => usize::MAX,
        };
        for (k, &v) in operands.iter().enumerate() {
            if *m.value_type(v) == index_ty() && k < first_addr && !invariant(v, &uniform) {
                return None;
            }
        }
        if let Some(access @ (LoopOp::Load | LoopOp::Store)) = op_kind {
            let is_load = access == LoopOp::Load;
            let (buf, idx) = if is_load { (operands[0], &operands[1..]) } else { (operands[1], &operands[2..]) };
            let bt = m.value_type(buf).as_buffer()?;
            if bt.elem() == ScalarType::I1 || !note_bits(&Type::Scalar(bt.elem())) {
                return None;
            }
            let (last_idx, rest) = idx.split_last()?;
            if rest.iter().any(|&v| !invariant(v, &uniform)) {
                return None;
            }
            let contiguous = affine.contains(last_idx);
            if !contiguous && !invariant(*last_idx, &uniform) {
                return None;
            }
            if contiguous && bt.strides().last() != Some(&1) {
                return None;
            }
            if is_load {
                loaded.push((buf, idx.to_vec(), contiguous));
                if contiguous {
                    vector.insert(m.result(op, 0));
                } else {
                    uniform_loads.insert(op);
                }
            } else {
                if !contiguous {
                    return None;
                }
                if let Some(prev) = stored.insert(buf, idx.to_vec())
                    && prev != idx
                {
                    return None;
                }
            }
            continue;
        }
        if op_kind == Some(LoopOp::Cast) {
            let (from, to) = (m.value_type(operands[0]), m.value_type(m.result(op, 0)));
            if !note_bits(from) || !note_bits(to) {
                return None;
            }
            // 64-bit float <-> integer conversions have no vector form on every target.
            let (fe, te) = (lp::elem_of(from)?, lp::elem_of(to)?);
            let wide = |e: ScalarType| e.byte_size() == 8;
            if fe.is_float() != te.is_float() && (wide(fe) || wide(te)) {
                return None;
            }
        } else if !lane_wise(op_kind) {
            return None;
        }
        let math = matches!(op_kind, Some(LoopOp::Arith(ScalarFn::Math(_))));
        if math && lp::elem_of(m.value_type(m.result(op, 0))) == Some(ScalarType::F64) {
            return None;
        }
        if m.results(op).iter().any(|&r| !note_bits(m.value_type(r))) {
            return None;
        }
        if operands.iter().any(|v| vector.contains(v)) {
            vector.extend(m.results(op).iter().copied());
        }
    }
    // A stored buffer is loaded only at the stored indices (no cross-lane dependence).
    for (buf, idx, contiguous) in &loaded {
        if let Some(st) = stored.get(buf)
            && (!contiguous || st != idx)
        {
            return None;
        }
    }
    // Reductions: each carried value feeds exactly one combining op whose result is yielded.
    let mut reductions = Vec::new();
    let yielded = m.operands(*last).to_vec();
    for (k, &acc) in args[1..].iter().enumerate() {
        let uses = m.uses(acc);
        let [u] = uses else { return None };
        let combine = match kind(m, u.op) {
            Some(LoopOp::Arith(f @ (ScalarFn::Add | ScalarFn::Mul | ScalarFn::Max | ScalarFn::Min))) => f,
            _ => return None,
        };
        if yielded[k] != m.result(u.op, 0) || m.uses(yielded[k]).len() != 1 {
            return None;
        }
        if !note_bits(m.value_type(acc)) {
            return None;
        }
        vector.insert(acc);
        vector.insert(yielded[k]);
        reductions.push(combine);
    }
    if vector.is_empty() && stored.is_empty() {
        return None;
    }
    // Two element widths: lanes as many as the wide type fills a register with; the
    // narrow values (half-width vectors) only move between memory and the wide type.
    let wide_bits = widths.iter().copied().max()?;
    if widths.len() == 2 && !narrow_values_only_convert(m, straight, &vector, wide_bits) {
        return None;
    }
    let lanes = vector_bits / wide_bits;
    // Narrow vectors fill at least half a register (a uniform i8 stored next to i64
    // loads would make a 16-bit vector<2xi8>, which no 128-bit backend has).
    let narrow_bits = widths.iter().copied().min()?;
    if lanes * narrow_bits < vector_bits / 2 {
        return None;
    }
    (lanes >= 2).then_some(Vectorization { lanes, vector, uniform_loads, reductions })
}

/// Whether every vector value narrower than `wide_bits` is a float that is loaded,
/// narrowed from the wide type, or computed lane-wise from such values by plain
/// arithmetic, and is only widened, stored, or used by such arithmetic (`f32` data
/// summed in `f64`, a bias added in f32 first; f16 data computed in f32, where only f32
/// arithmetic under f64 is taken, as no backend computes in f16 lanes): half-width
/// vectors, which every backend supports for these uses (Cranelift keeps them in the
/// low half of a register).
fn narrow_values_only_convert(m: &Module, ops: &[Op], vector: &HashSet<Value>, wide_bits: u32) -> bool {
    let bits = |v: Value| lp::elem_of(m.value_type(v)).map_or(0, |e| e.byte_size() as u32 * 8);
    let float = |v: Value| lp::elem_of(m.value_type(v)).is_some_and(|e| e.is_float());
    let narrow_arith = |op: Op| {
        matches!(
            kind(m, op),
            Some(LoopOp::Arith(
                ScalarFn::Add
                    | ScalarFn::Sub
                    | ScalarFn::Mul
                    | ScalarFn::Div
                    | ScalarFn::Min
                    | ScalarFn::Max
                    | ScalarFn::Neg
                    | ScalarFn::Abs
                    | ScalarFn::Fma
            ))
        ) && m.results(op).iter().all(|&r| lp::elem_of(m.value_type(r)) == Some(ScalarType::F32) && wide_bits == 64)
    };
    for &op in ops {
        for &r in m.results(op) {
            if !vector.contains(&r) || bits(r) == wide_bits {
                continue;
            }
            let made = match kind(m, op) {
                Some(LoopOp::Load) => true,
                Some(LoopOp::Cast) => {
                    let from = m.operand(op, 0);
                    float(from) && bits(from) == wide_bits
                }
                _ => narrow_arith(op),
            };
            let used = m.uses(r).iter().all(|u| match kind(m, u.op) {
                Some(LoopOp::Store) => u.index == 0,
                Some(LoopOp::Cast) => float(m.result(u.op, 0)) && bits(m.result(u.op, 0)) == wide_bits,
                _ => narrow_arith(u.op),
            });
            if !(made && used && float(r)) {
                return false;
            }
        }
    }
    true
}

/// The most vector iterations of a loop with constant bounds that are emitted without
/// a loop, by default.
pub const UNROLL_ITERATIONS: i64 = 4;

/// The value of `v` when it is an index constant.
fn const_index(m: &Module, v: Value) -> Option<i64> {
    let d = m.defining_op(v).filter(|&d| kind(m, d) == Some(LoopOp::Const))?;
    m.attr(d, "value")?.as_i64()
}

fn vector_of(t: &Type, lanes: u32) -> Type {
    let elem = lp::elem_of(t).expect("scalar type");
    Type::Vector(VectorType { lanes, elem })
}

/// The identity of a reduction, as a scalar constant of `elem`.
fn identity(b: &mut Builder, combine: ScalarFn, elem: ScalarType) -> Value {
    match combine.reduction_identity(elem).expect("a reduction's combining function") {
        Identity::Float(v) => b.scalar(elem, v),
        Identity::Int(v) => b.int(elem, v),
    }
}

fn rewrite(m: &mut Module, l: Op, entry: Block, plan: &Vectorization, unroll_iterations: i64) {
    let ops = m.operands(l).to_vec();
    let (lb, ub) = (ops[0], ops[1]);
    let inits = ops[3..].to_vec();
    let body = m.region_blocks(m.regions(l)[0])[0];
    let body_ops: Vec<Op> = m.block_ops(body).collect();
    let args = m.block_args(body).to_vec();
    let lanes = plan.lanes;
    let mut b = Builder::before(m, l, entry);

    // Vector trip bound: lb + (max(ub - lb, 0) / lanes) * lanes.
    let n = b.sub(ub, lb);
    let n = b.max_const(n, 0);
    let lanes_v = b.index(lanes as i64);
    let q = b.div(n, lanes_v);
    let nv = b.mul(q, lanes_v);
    let vub = b.add(lb, nv);

    // Splats of invariant operands, made once before the loop.
    let mut splats: HashMap<Value, Value> = HashMap::new();
    let mut vinits = Vec::new();
    for (k, &init) in inits.iter().enumerate() {
        let elem = lp::elem_of(b.m.value_type(init)).expect("scalar");
        let id = identity(&mut b, plan.reductions[k], elem);
        let ty = vector_of(&Type::Scalar(elem), lanes);
        vinits.push(b.op_typed(&vp::SPLAT, &[id], AttrDict::new(), vec![ty])[0]);
    }
    for &op in &body_ops {
        // Value operands only: a store's first operand, any operand of arithmetic.
        let op_kind = kind(b.m, op);
        let values: Vec<Value> = match op_kind {
            Some(LoopOp::Store) => vec![b.m.operand(op, 0)],
            Some(LoopOp::Load | LoopOp::Yield) => vec![],
            _ => b.m.operands(op).to_vec(),
        };
        for v in values {
            let needs_vector =
                b.m.results(op).iter().any(|r| plan.vector.contains(r)) || op_kind == Some(LoopOp::Store);
            let inside = b.m.defining_op(v).is_some_and(|d| body_ops.contains(&d)) || args.contains(&v);
            if needs_vector && !inside && *b.m.value_type(v) != index_ty() && !splats.contains_key(&v) {
                let ty = vector_of(b.m.value_type(v), lanes);
                let s = b.op_typed(&vp::SPLAT, &[v], AttrDict::new(), vec![ty])[0];
                splats.insert(v, s);
            }
        }
    }

    let body = |b: &mut Builder, viv: Value, vaccs: &[Value]| -> Vec<Value> {
        let mut map: HashMap<Value, Value> = HashMap::new();
        map.insert(args[0], viv);
        for (&a, &v) in args[1..].iter().zip(vaccs) {
            map.insert(a, v);
        }
        let mut yielded = Vec::new();
        for &op in &body_ops {
            let m = &*b.m;
            let operands: Vec<Value> = m.operands(op).to_vec();
            let op_kind = kind(m, op);
            if op_kind == Some(LoopOp::Yield) {
                yielded = operands.iter().map(|v| map[v]).collect();
                break;
            }
            // An operand as this op needs it: mapped, splatted, or as is.
            let wants_vector = m.results(op).iter().any(|r| plan.vector.contains(r)) || op_kind == Some(LoopOp::Store);
            let get = |v: Value, map: &HashMap<Value, Value>, b: &mut Builder| -> Value {
                let mapped = map.get(&v).copied().unwrap_or(v);
                if !wants_vector
                    || *b.m.value_type(mapped) == index_ty()
                    || b.m.value_type(mapped).as_vector().is_some()
                {
                    return mapped;
                }
                if let Some(&s) = splats.get(&v) {
                    return s;
                }
                // A scalar computed inside the loop (from uniform loads): splat it here.
                let ty = vector_of(b.m.value_type(mapped), lanes);
                b.op_typed(&vp::SPLAT, &[mapped], AttrDict::new(), vec![ty])[0]
            };
            let def = m.def(op);
            if op_kind == Some(LoopOp::Load) {
                let idx: Vec<Value> = operands.iter().map(|v| map.get(v).copied().unwrap_or(*v)).collect();
                let r = m.result(op, 0);
                let new = if plan.uniform_loads.contains(&op) {
                    b.load(idx[0], &idx[1..])
                } else {
                    let ty = vector_of(m.value_type(r), lanes);
                    b.op_typed(&vp::LOAD, &idx, AttrDict::new(), vec![ty])[0]
                };
                map.insert(r, new);
            } else if op_kind == Some(LoopOp::Store) {
                let value = get(operands[0], &map, b);
                let mut all = vec![value];
                all.extend(operands[1..].iter().map(|v| map.get(v).copied().unwrap_or(*v)));
                b.op_typed(&vp::STORE, &all, AttrDict::new(), vec![]);
            } else {
                let new_operands: Vec<Value> = operands.iter().map(|&v| get(v, &map, b)).collect();
                let attrs = b.m.attrs(op).clone();
                let r = b.m.result(op, 0);
                let ty = b.m.value_type(r).clone();
                let ty = if plan.vector.contains(&r) { vector_of(&ty, lanes) } else { ty };
                let new = b.op_typed(def, &new_operands, attrs, vec![ty])[0];
                map.insert(r, new);
            }
        }
        yielded
    };
    // A few vector iterations known at compile time (a 16-channel block in 4-lane
    // vectors) are emitted one after another: no loop control, constant offsets.
    let results = match (const_index(b.m, lb), const_index(b.m, ub)) {
        (Some(lo), Some(hi)) if (hi - lo).max(0) / lanes as i64 <= unroll_iterations => {
            let mut accs = vinits.clone();
            for k in 0..(hi - lo).max(0) / lanes as i64 {
                let viv = b.index(lo + k * lanes as i64);
                accs = body(&mut b, viv, &accs);
            }
            accs
        }
        _ => {
            let step = b.index(lanes as i64);
            b.for_loop(lb, vub, step, &vinits, body)
        }
    };

    // Seed the scalar remainder with the reduced vector accumulators.
    let mut new_inits = Vec::new();
    for (k, (&init, &vacc)) in inits.iter().zip(&results).enumerate() {
        let elem = lp::elem_of(b.m.value_type(init)).expect("scalar");
        let kind = vp::reduce_kind(plan.reductions[k]);
        let red = b.op_typed(&vp::REDUCE, &[vacc], AttrDict::new().with("kind", kind), vec![Type::Scalar(elem)])[0];
        new_inits.push(b.bin(plan.reductions[k], init, red));
    }
    drop(b);
    m.set_operand(l, 0, vub);
    for (k, v) in new_inits.into_iter().enumerate() {
        m.set_operand(l, 3 + k, v);
    }
}
