//! Elementwise graph ops: one scalar expression per output element, with numpy
//! broadcasting of the operands. What each op computes is its definition's scalar body
//! ([`tcc_dialect_graph::Elementwise`]), built here in loop arithmetic.

use tcc_dialect_graph::{BodyContext, Cost};
use tcc_ir::Value;

use super::{OpLowering, broadcast_index, nest, numel};
use crate::builder::Builder;

/// Element-operations one transcendental element counts as, when deciding whether an
/// op has enough work for the thread pool.
const TRANSCENDENTAL_WORK: i64 = 16;

pub fn emit(b: &mut Builder, c: &OpLowering) {
    let out_shape = c.out_shape(0);
    let out = c.outs[0];
    let in_shapes: Vec<Vec<i64>> = (0..c.ins.len()).map(|i| c.in_shape(i)).collect();
    let cost = match tcc_dialect_graph::elementwise(c.g.def(c.op)).map(|e| e.cost) {
        Some(Cost::Transcendental) => TRANSCENDENTAL_WORK,
        _ => 1,
    };
    nest(b, &out_shape, numel(&out_shape) * cost, |b, idx| {
        let args: Vec<Value> = c
            .ins
            .iter()
            .zip(&in_shapes)
            .map(|(&buf, shape)| {
                let i = broadcast_index(b, idx, shape);
                b.load(buf, &i)
            })
            .collect();
        let v = scalar(b, c, &args);
        b.store(v, out, idx);
    });
}

/// The scalar computation of an elementwise op on loaded operand values: scalars, or
/// (for float ops, as in kernel epilogues) vectors of one width.
pub fn scalar(b: &mut Builder, c: &OpLowering, args: &[Value]) -> Value {
    let def = c.g.def(c.op);
    let Some(e) = tcc_dialect_graph::elementwise(def) else {
        unreachable!("{} is not an elementwise op (the lowering only calls this for those)", def.name)
    };
    let location = c.where_();
    let cx = BodyContext { sig: c.sig(), result: c.out_elem(0), location: &location };
    (e.body)(b, &cx, args)
}
