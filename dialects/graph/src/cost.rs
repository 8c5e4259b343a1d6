//! What an op costs to run, counted from its definition and types: floating-point
//! operations (multiply-adds as two; only the compute-bound ops, convolutions and
//! matmuls, are counted) and the bytes it reads and writes once each. `tcc bench`'s
//! GFLOP/s figures and the rewrite search's analytical cost model both use these.

use tcc_ir::{Module, Op, Value};

use crate::ops as g;

fn shape(m: &Module, v: Value) -> Vec<i64> {
    m.value_type(v).as_tensor().map(|t| t.shape().to_vec()).unwrap_or_default()
}

fn numel(s: &[i64]) -> u64 {
    s.iter().map(|&d| d.max(0) as u64).product()
}

/// Floating-point operations of `op` (0 for ops that are not compute-bound).
pub fn flops(m: &Module, op: Op) -> u64 {
    let def = m.def(op);
    let (Some(&out), Some(&a)) = (m.results(op).first(), m.operands(op).first()) else { return 0 };
    let out = numel(&shape(m, out));
    if std::ptr::eq(def, &g::CONV2D) || std::ptr::eq(def, &g::CONV2D_NCHWC) {
        // Per output element, a multiply-add over the filter's other dimensions (over
        // the padded channels in a blocked filter: what the kernel computes).
        let w = shape(m, m.operand(op, 1));
        2 * out * numel(&w[1..])
    } else if [&g::MATMUL, &g::MATMUL_PACKED, &g::BATCH_MATMUL].iter().any(|d| std::ptr::eq(def, *d)) {
        let a = shape(m, a);
        2 * out * a.last().map_or(0, |&k| k.max(0) as u64)
    } else {
        0
    }
}

fn bytes(m: &Module, v: Value) -> u64 {
    let t = m.value_type(v);
    let elem = t.elem().map_or(4, |e| e.byte_size().max(1) as u64);
    t.as_tensor().map_or(0, |t| numel(t.shape()) * elem)
}

/// Bytes `op` reads (each operand once) and writes (each result once).
pub fn bytes_moved(m: &Module, op: Op) -> u64 {
    m.operands(op).iter().chain(m.results(op)).map(|&v| bytes(m, v)).sum()
}
