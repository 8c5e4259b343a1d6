//! A fusion group (`graph.fused`) as one loop nest: the group's ops are evaluated at
//! each index of its iteration space, their values kept in registers, and only the
//! group's inputs are read and its result written. A group ending with a reduction is
//! that reduction's nest ([`super::nn::reduce_with`]) reading its input element by
//! element from the group; an elementwise group is one nest over its result.

use std::cell::RefCell;
use std::collections::HashMap;

use tcc_dialect_graph::ops as g;
use tcc_dialect_graph::ops::fused::GROUP_REDUCTIONS;
use tcc_ir::{Op, Value};

use super::{Ctx, broadcast_index, nest, numel};
use crate::builder::Builder;

pub fn emit(b: &mut Builder, c: &Ctx) {
    let gm = c.g;
    let region = gm.regions(c.op)[0];
    let block = gm.region_blocks(region)[0];
    let ops: Vec<Op> = gm.block_ops(block).filter(|&o| !gm.is(o, &g::YIELD)).collect();
    let root = *ops.last().expect("a verified group is not empty");
    let args = gm.block_args(block).to_vec();
    let inputs: HashMap<Value, (Value, Vec<i64>)> =
        args.iter().enumerate().map(|(i, &a)| (a, (c.ins[i], c.in_shape(i)))).collect();
    let reduction = GROUP_REDUCTIONS.iter().any(|d| gm.is(root, d));
    let body: Vec<Op> = if reduction { ops[..ops.len() - 1].to_vec() } else { ops.clone() };
    let group = Group { c, inputs, body };
    if reduction {
        let rc = Ctx::new(gm, root, Vec::new(), Vec::new()).with_lanes(c.lanes);
        let x = gm.operand(root, 0);
        // Vectors along the innermost dimension, as many lanes as the reduction's
        // element type fills a register with, when every value of the group is a float
        // whose vector of that many lanes is one the target has (from 128 bits to its
        // width: f32 values of an f64 group with AVX-512, not with 128-bit vectors);
        // else scalars for `vectorize`.
        let bits = c.lanes as usize * 32;
        let lanes = bits / (rc.out_elem(0).byte_size() * 8);
        let fits = |v: Value| {
            value_elem(c, v).is_some_and(|e| e.is_float() && (128..=bits).contains(&(lanes * e.byte_size() * 8)))
        };
        let vectors =
            group.body.iter().all(|&o| fits(gm.result(o, 0))) && gm.block_args(block).iter().all(|&a| fits(a));
        let element = |b: &mut Builder, idx: &[Value], lanes: u32| group.value(b, x, idx, lanes);
        super::nn::reduce_with(b, &rc, c.outs[0], &element, vectors);
    } else {
        let shape = c.out_shape(0);
        let out = c.outs[0];
        let result = gm.result(root, 0);
        nest(b, &shape, numel(&shape) * group.body.len() as i64, |b, idx| {
            let v = group.value(b, result, idx, 1);
            b.store(v, out, idx);
        });
    }
}

fn value_elem(c: &Ctx, v: Value) -> Option<tcc_ir::ScalarType> {
    c.g.value_type(v).as_tensor().map(|t| t.elem())
}

/// A group's ops and where its block arguments come from.
struct Group<'a> {
    c: &'a Ctx<'a>,
    /// Block argument -> (input buffer, its shape).
    inputs: HashMap<Value, (Value, Vec<i64>)>,
    /// The elementwise ops, in order.
    body: Vec<Op>,
}

impl Group<'_> {
    /// Group value `v` at index `idx` of the iteration space: `lanes` consecutive
    /// elements along the innermost dimension (a scalar for one). Every op of the
    /// group is computed once per index.
    fn value(&self, b: &mut Builder, v: Value, idx: &[Value], lanes: u32) -> Value {
        let memo: RefCell<HashMap<Value, Value>> = RefCell::new(HashMap::new());
        self.eval(b, v, idx, lanes, &memo)
    }

    fn eval(
        &self,
        b: &mut Builder,
        v: Value,
        idx: &[Value],
        lanes: u32,
        memo: &RefCell<HashMap<Value, Value>>,
    ) -> Value {
        if let Some(&known) = memo.borrow().get(&v) {
            return known;
        }
        let r = if let Some((buf, shape)) = self.inputs.get(&v) {
            let at = broadcast_index(b, idx, shape);
            // Broadcast along the innermost dimension: one element for every lane.
            if lanes > 1 && shape.last().is_none_or(|&n| n == 1) {
                let s = b.load(*buf, &at);
                b.splat(s, lanes)
            } else {
                b.vload(*buf, &at, lanes)
            }
        } else {
            let op = self.c.g.defining_op(v).expect("a group value is an argument or an op's result");
            debug_assert!(self.body.contains(&op));
            let args: Vec<Value> = self.c.g.operands(op).iter().map(|&o| self.eval(b, o, idx, lanes, memo)).collect();
            let inner = Ctx::new(self.c.g, op, Vec::new(), Vec::new()).with_lanes(self.c.lanes);
            super::elementwise::scalar(b, &inner, &args)
        };
        memo.borrow_mut().insert(v, r);
        r
    }
}
