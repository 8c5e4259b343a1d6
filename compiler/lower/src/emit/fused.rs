//! A fusion group (`graph.fused`) as one loop nest: the group's ops are evaluated at
//! each index of its iteration space, their values kept in registers, and only the
//! group's inputs are read and its result written. A group whose reductions reduce its
//! innermost dimensions is stitched around them ([`super::stitched`]: one loop over
//! the rows, several passes over each row); a group ending with a reduction that keeps
//! its innermost dimension is that reduction's nest ([`super::nn::reduce_with`])
//! reading its input element by element from the group, or, for column sums of an f32
//! input on a target that calls microkernels, a call of the runtime's
//! ([`super::column_sums`]); an elementwise group is one
//! nest over its result. A group (or a lone reduction) with too few rows for the pool's
//! threads, and long ones, splits each row across them (stitched, with scratch memory).

use std::cell::RefCell;
use std::collections::HashMap;

use tcc_dialect_graph::Cost;
use tcc_dialect_graph::ops as g;
use tcc_dialect_graph::ops::fused::is_group_reduction;
use tcc_ir::{Op, ScalarType, Traits, Value};

use super::{OpLowering, broadcast_index, nest, numel};
use crate::builder::Builder;

pub fn emit(b: &mut Builder, c: &OpLowering) {
    let gm = c.g;
    let region = gm.regions(c.op)[0];
    let block = gm.region_blocks(region)[0];
    let ops: Vec<Op> = gm.block_ops(block).filter(|&o| !gm.def(o).has(Traits::TERMINATOR)).collect();
    let root = *ops.last().expect("a verified group is not empty");
    let args = gm.block_args(block).to_vec();
    let inputs: HashMap<Value, (Value, Vec<i64>)> =
        args.iter().enumerate().map(|(i, &a)| (a, (c.ins[i], c.in_shape(i)))).collect();
    let reductions: Vec<Op> = ops.iter().copied().filter(|&o| is_group_reduction(gm, o)).collect();
    let body: Vec<Op> = ops.iter().copied().filter(|o| !reductions.contains(o)).collect();
    let group = Group { c, inputs, ops: ops.clone(), body, reductions };
    if super::stitched::applies(&group) || c.scratch.is_some() {
        return super::stitched::emit(b, &group);
    }
    if let Some(sums) = super::column_sums::plan(b, &group) {
        return super::column_sums::emit(b, &group, &sums);
    }
    if is_group_reduction(gm, root) {
        let rc = OpLowering::new(gm, root, Vec::new(), Vec::new()).with_lanes(c.lanes);
        let x = gm.operand(root, 0);
        let lanes = group.vector_lanes(rc.out_elem(0).byte_size(), &group.all_values());
        let no_fixed = HashMap::new();
        let element = |b: &mut Builder, idx: &[Value], lanes: u32| group.value(b, x, idx, lanes, &no_fixed);
        super::nn::reduce_with(b, &rc, c.outs[0], &element, lanes.is_some());
    } else {
        let shape = c.out_shape(0);
        let out = c.outs[0];
        let result = gm.result(root, 0);
        let no_fixed = HashMap::new();
        nest(b, &shape, numel(&shape) * group.body.len() as i64, |b, idx| {
            let v = group.value(b, result, idx, 1, &no_fixed);
            b.store(v, out, idx);
        });
    }
}

/// A reduction op alone as a group whose few long rows are split across the pool
/// (it asked for scratch memory: [`super::scratch_bytes`]).
pub(super) fn emit_split_reduction(b: &mut Builder, c: &OpLowering) {
    super::stitched::emit(b, &Group::of_reduction(c));
}

/// Whether graph op `op` computes with transcendental functions, which have no vector
/// form on f64 (they are runtime calls).
pub(super) fn uses_math(gm: &tcc_ir::Module, op: Op) -> bool {
    tcc_dialect_graph::elementwise(gm.def(op)).is_some_and(|e| e.cost == Cost::Transcendental)
}

/// A group's ops and where its block arguments come from.
pub(super) struct Group<'a> {
    pub c: &'a OpLowering<'a>,
    /// Block argument -> (input buffer, its shape).
    pub inputs: HashMap<Value, (Value, Vec<i64>)>,
    /// All ops, in order (the result's last).
    pub ops: Vec<Op>,
    /// The elementwise ops, in order.
    pub body: Vec<Op>,
    /// The reductions, in order.
    pub reductions: Vec<Op>,
}

impl<'a> Group<'a> {
    /// Reduction op `c.op` alone, as a group.
    pub fn of_reduction(c: &'a OpLowering<'a>) -> Group<'a> {
        let x = c.g.operand(c.op, 0);
        let inputs = HashMap::from([(x, (c.ins[0], c.in_shape(0)))]);
        Group { c, inputs, ops: vec![c.op], body: Vec::new(), reductions: vec![c.op] }
    }

    pub fn elem(&self, v: Value) -> Option<ScalarType> {
        self.c.g.value_type(v).as_tensor().map(|t| t.elem())
    }

    pub fn shape(&self, v: Value) -> Vec<i64> {
        self.c.g.value_type(v).as_tensor().map(|t| t.shape().to_vec()).unwrap_or_default()
    }

    /// Lanes of vectors along the innermost dimension: as many as elements of `widest`
    /// bytes (a reduction's, or the widest float's) fill a register with, when every one
    /// of `values` is a float whose vector of that many lanes is one the target has
    /// (from 128 bits to its width: f32 values of an f64 group with AVX-512, not with
    /// 128-bit vectors) or an i1 computed in the group (a mask of compared floats); else
    /// none (scalars, for `vectorize`). As `vectorize`, no i1 buffer is accessed in
    /// vectors (an i1 input or result is a byte per element, a mask is as wide as the
    /// floats it compares) and no f64 math is (it is a runtime call).
    pub fn vector_lanes(&self, widest: usize, values: &[Value]) -> Option<u32> {
        let bits = self.c.lanes as usize * 32;
        let floats: Vec<usize> =
            values.iter().filter_map(|&v| self.elem(v)).filter(|e| e.is_float()).map(|e| e.byte_size()).collect();
        // (An i1 is a mask with the lanes of the floats it compares.)
        let widest = floats.iter().copied().max().map_or(widest, |w| w.max(widest));
        let lanes = bits / widest.saturating_mul(8).max(1);
        let gm = self.c.g;
        let result = self.ops.last().map(|&o| gm.result(o, 0));
        let in_memory = |v: &Value| self.inputs.contains_key(v) || Some(*v) == result;
        let f64_math =
            |v: &Value| self.elem(*v) == Some(ScalarType::F64) && gm.defining_op(*v).is_some_and(|o| uses_math(gm, o));
        // A narrow float input only widened (f32 data summed in f64), directly or after
        // plain arithmetic among narrow values, is a half-width vector (as `vectorize`
        // makes them).
        let only_widened = |v: &Value, _: ScalarType| self.half_width(*v, values);
        // An integer made from a mask (0 or 1: a masked softmax's all-minus-infinity
        // test, reduced with min), as wide as the floats compared: lanes of the same
        // vectors.
        let from_mask = |v: &Value, e: ScalarType| {
            floats.contains(&e.byte_size())
                && !in_memory(v)
                && gm
                    .defining_op(*v)
                    .is_some_and(|d| gm.is(d, &g::CAST) && self.elem(gm.operand(d, 0)) == Some(ScalarType::I1))
        };
        let fits = |v: &Value| match self.elem(*v) {
            Some(ScalarType::I1) => !floats.is_empty() && !in_memory(v),
            Some(e) if e.is_integer() => from_mask(v, e) && (128..=bits).contains(&(lanes * e.byte_size() * 8)),
            Some(e) => {
                let width = lanes * e.byte_size() * 8;
                e.is_float() && ((128..=bits).contains(&width) || width == 64 && only_widened(v, e)) && !f64_math(v)
            }
            None => false,
        };
        (lanes >= 2 && values.iter().all(fits)).then_some(lanes as u32)
    }

    /// Whether `v` is a float input of the group only widened (f32 data summed in f64,
    /// f16 data computed in f32), or an f32 input or plain arithmetic (add, sub, mul,
    /// div, max, min) on such values that is only widened to f64 or used by such
    /// arithmetic, or reduced in f32: a value that half-width vectors can carry (the
    /// narrow lanes of a group with two float widths), which every backend computes
    /// lane by lane. Only uses computed in the loop of `values` (the values one of the
    /// group's loops computes per element) count: another loop has lanes of its own.
    fn half_width(&self, v: Value, values: &[Value]) -> bool {
        let gm = self.c.g;
        let Some(e) = self.elem(v).filter(|e| e.is_float()) else { return false };
        let arith = |op: Op| {
            e == ScalarType::F32
                && self.body.contains(&op)
                && [&g::ADD, &g::SUB, &g::MUL, &g::DIV, &g::MAX, &g::MIN].iter().any(|d| gm.is(op, d))
        };
        let made = self.inputs.contains_key(&v) || gm.defining_op(v).is_some_and(arith);
        made && gm.uses(v).iter().all(|u| {
            // (The group's result is the yield's operand: kept narrow.)
            let Some(&r) = gm.results(u.op).first() else { return false };
            if !values.contains(&r) && !self.reductions.contains(&u.op) {
                // Computed by another of the group's loops, in its own lanes.
                true
            } else if gm.is(u.op, &g::CAST) {
                self.elem(r).is_some_and(|t| t.is_float() && t.byte_size() > e.byte_size())
            } else if self.reductions.contains(&u.op) {
                // Reduced in its own width (a layer norm's f32 sum beside its f64 one):
                // half-width partial accumulators, combined lane by lane.
                e == ScalarType::F32 && self.elem(r) == Some(e)
            } else {
                arith(u.op) && self.half_width(r, values)
            }
        })
    }

    /// The factors of `v` when the group computes it as a product (a reduction of it
    /// can fuse the multiply into its adds).
    pub fn product(&self, v: Value) -> Option<(Value, Value)> {
        let gm = self.c.g;
        let op = gm.defining_op(v).filter(|&o| self.body.contains(&o) && gm.is(o, &g::MUL))?;
        Some((gm.operand(op, 0), gm.operand(op, 1)))
    }

    /// Every value of the group: its ops' results and its arguments.
    pub fn all_values(&self) -> Vec<Value> {
        let results = self.ops.iter().map(|&o| self.c.g.result(o, 0));
        results.chain(self.inputs.keys().copied()).collect()
    }

    /// Group value `v` at index `idx` of the iteration space: `lanes` consecutive
    /// elements along the innermost dimension (a scalar for one). Every op of the
    /// group is computed once per index; values in `fixed` (scalars constant over
    /// the loop being emitted, such as a row's reductions) are splat.
    pub fn value(&self, b: &mut Builder, v: Value, idx: &[Value], lanes: u32, fixed: &HashMap<Value, Value>) -> Value {
        let memo = RefCell::new(HashMap::new());
        let none = HashMap::new();
        self.eval(b, v, idx, lanes, &LoopBody { fixed, vectors: &none, memo: &memo, spill: None, flat: None })
    }

    pub(super) fn eval(&self, b: &mut Builder, v: Value, idx: &[Value], lanes: u32, env: &LoopBody) -> Value {
        if let Some(&known) = env.memo.borrow().get(&(v, lanes)) {
            return known;
        }
        if let Some(&s) = env.fixed.get(&v) {
            let r = if lanes > 1 { b.splat(s, lanes) } else { s };
            env.memo.borrow_mut().insert((v, lanes), r);
            return r;
        }
        if let Some(&r) = env.vectors.get(&v) {
            return r;
        }
        // Constant along the innermost dimension: computed once, one value for every lane.
        if env.flat.is_none() && lanes > 1 && self.shape(v).last().is_none_or(|&n| n == 1) {
            let s = self.eval(b, v, idx, 1, env);
            let r = b.splat(s, lanes);
            env.memo.borrow_mut().insert((v, lanes), r);
            return r;
        }
        let spilled = env.spill.as_ref().filter(|s| s.value == v);
        let r = if let Some(s) = spilled.filter(|s| s.written) {
            if lanes > 1 { b.vload(s.buffer, idx, lanes) } else { b.load(s.buffer, idx) }
        } else if let Some((buf, shape)) = env.flat.unwrap_or(&self.inputs).get(&v) {
            let at = broadcast_index(b, idx, shape);
            if lanes > 1 { b.vload(*buf, &at, lanes) } else { b.load(*buf, &at) }
        } else {
            let op = self.c.g.defining_op(v).expect("a group value is an argument or an op's result");
            debug_assert!(self.body.contains(&op), "reductions are given in `fixed`");
            let args: Vec<Value> = self.c.g.operands(op).iter().map(|&o| self.eval(b, o, idx, lanes, env)).collect();
            let inner = OpLowering::new(self.c.g, op, Vec::new(), Vec::new()).with_lanes(self.c.lanes);
            super::elementwise::scalar(b, &inner, &args)
        };
        if let Some(s) = spilled.filter(|s| !s.written) {
            if lanes > 1 {
                b.vstore(r, s.buffer, idx);
            } else {
                b.store(r, s.buffer, idx);
            }
        }
        env.memo.borrow_mut().insert((v, lanes), r);
        r
    }
}

/// What `Group::eval` knows while emitting one loop body.
pub(super) struct LoopBody<'e> {
    /// Scalars constant over the loop (splat on use).
    pub fixed: &'e HashMap<Value, Value>,
    /// Vectors constant over the loop, of its lane count (values that repeat along it).
    pub vectors: &'e HashMap<Value, Value>,
    /// The loop runs over several dimensions flattened into one: the inputs that vary
    /// along it, seen flat (buffer view and shape), replacing the group's.
    pub flat: Option<&'e HashMap<Value, (Value, Vec<i64>)>>,
    /// Values computed in this loop body, by lane count.
    pub memo: &'e RefCell<HashMap<(Value, u32), Value>>,
    /// A value kept in a buffer of the iteration space's shape between loops.
    pub spill: Option<KeptValue>,
}

/// A value that one loop computes and writes to `buffer` (at the loop's index), and
/// later loops read back (`written`) instead of computing it again.
#[derive(Clone, Copy)]
pub(super) struct KeptValue {
    pub value: Value,
    pub buffer: Value,
    pub written: bool,
}
