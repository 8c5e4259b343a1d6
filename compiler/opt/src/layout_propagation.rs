//! `propagate-layouts`: moves `NCHW{b}c -> NCHW` transforms down past layout-oblivious
//! ops, so that they meet the next kernel's `NCHW -> NCHW{b}c` and cancel (NeoCPU's
//! layout classes: oblivious ops take any layout, tolerant ones are already blocked,
//! dependent ones keep a transform in front of them).
//!
//! Rewrites, applied to a fixed point:
//! - `f(unblock(y), c)` -> `unblock(f(y, block(c)))` for an elementwise float op `f`
//!   whose result has `unblock(y)`'s shape. Other operands are blocked too: a
//!   per-channel operand by a transform, one constant along the channels by appending a
//!   unit lane dimension (or, when `y`'s last block is padded, by broadcasting it over the
//!   channels first, so the padding stays zero); `f` must map zeros to zeros then.
//! - `slice(unblock(y))` over the spatial dimensions, `concat(unblock(y1), ..)` along the
//!   channels (whole blocks only) and spatial reductions with `keepdims` run on the
//!   blocked tensors.
//! - `block(unblock(y))` -> `y`: a round trip of a tensor whose padding lanes are zero,
//!   which the blocked values of this pipeline all are.

use tcc_dialect_graph::interp::maps_zero_to_zero;
use tcc_dialect_graph::layout::{Layout, transform_layouts};
use tcc_dialect_graph::ops as g;
use tcc_ir::builtin::func_entry;
use tcc_ir::{AttrDict, Attribute, Block, Diagnostics, Module, Op, Pass, PassInfo, Traits, Value};

use crate::{Inserter, shape, tensor_type};

pub static PROPAGATE_LAYOUTS: PassInfo = PassInfo {
    name: "propagate-layouts",
    summary: "Move NCHW[x]c -> NCHW transforms past layout-oblivious ops and cancel them against blocking transforms",
    options: &[],
    create: |_| Ok(Box::new(PropagateLayouts)),
};

pub struct PropagateLayouts;

impl Pass for PropagateLayouts {
    fn name(&self) -> &'static str {
        "propagate-layouts"
    }
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics> {
        for func in m.funcs() {
            let Some(entry) = func_entry(m, func) else { continue };
            loop {
                let mut changed = false;
                let ops: Vec<Op> = m.block_ops(entry).collect();
                for op in ops {
                    if m.is_erased(op) {
                        continue;
                    }
                    changed |= cancel_round_trip(m, op)
                        || sink_elementwise(m, op)
                        || sink_slice(m, op)
                        || sink_concat(m, op)
                        || sink_reduce(m, op);
                }
                remove_dead(m, entry);
                if !changed {
                    break;
                }
            }
        }
        Ok(())
    }
}

/// `(y, b)` if `v` is `layout_transform(y, NCHW{b}c -> NCHW)`.
fn unblocked(m: &Module, v: Value) -> Option<(Value, i64)> {
    let op = m.defining_op(v)?;
    let (src, dst) = transform_layouts(m, op)?;
    if dst != Layout::nchw() {
        return None;
    }
    Some((m.operand(op, 0), src.channel_block()?))
}

/// Whether the blocked `y` holding `channels` logical channels has padding lanes.
fn padded(m: &Module, y: Value, channels: i64) -> bool {
    let s = shape(m, y);
    s[1] * s[4] != channels
}

fn cancel_round_trip(m: &mut Module, op: Op) -> bool {
    let Some((src, dst)) = transform_layouts(m, op) else { return false };
    let Some(b) = dst.channel_block().filter(|_| src == Layout::nchw()) else { return false };
    let Some((y, yb)) = unblocked(m, m.operand(op, 0)) else { return false };
    if yb != b || m.value_type(y) != m.value_type(m.result(op, 0)) {
        return false;
    }
    m.replace_op(op, &[y]);
    true
}

/// `v` (an operand broadcasting against `[N, channels, H, W]`) in `NCHW{b}c`.
fn block_operand(ins: &mut Inserter, v: Value, b: i64, channels: i64, padded: bool) -> Value {
    let s = shape(ins.m, v);
    let mut s4 = vec![1; 4 - s.len()];
    s4.extend(&s);
    let v4 = ins.reshape(v, s4.clone());
    let blocks = (channels + b - 1) / b;
    if s4[1] == 1 && !padded {
        let mut s5 = s4.clone();
        s5.push(1);
        return ins.reshape(v4, s5);
    }
    let full = if s4[1] == 1 {
        let target = vec![s4[0], channels, s4[2], s4[3]];
        ins.inferred(&g::BROADCAST_TO, &[v4], AttrDict::new().with("shape", Attribute::i64_list(&target)))
    } else {
        v4
    };
    ins.layout(full, &Layout::nchw(), &Layout::nchwc(b), vec![s4[0], blocks, s4[2], s4[3], b])
}

fn sink_elementwise(m: &mut Module, op: Op) -> bool {
    if !m.has_trait(op, Traits::ELEMENTWISE) || m.results(op).len() != 1 {
        return false;
    }
    let r = m.result(op, 0);
    let rs = shape(m, r);
    let float = |v: Value| m.value_type(v).as_tensor().is_some_and(|t| t.elem().is_float());
    if rs.len() != 4 || !float(r) || !m.operands(op).iter().all(|&v| float(v) && shape(m, v).len() <= 4) {
        return false;
    }
    let Some((y, b)) = m.operands(op).iter().find_map(|&o| unblocked(m, o).filter(|_| shape(m, o) == rs)) else {
        return false;
    };
    let channels = rs[1];
    let pad = padded(m, y, channels);
    if pad && !maps_zero_to_zero(m, op) {
        return false;
    }
    let ys = shape(m, y);
    let operands: Vec<Value> = m.operands(op).to_vec();
    let (def, attrs) = (m.def(op), m.attrs(op).clone());
    let elem = m.value_type(r).as_tensor().map(|t| t.elem()).expect("a tensor");
    let mut ins = Inserter::before(m, op);
    let mut blocked_ops = Vec::new();
    for o in operands {
        let same = unblocked(ins.m, o).filter(|&(z, bz)| bz == b && shape(ins.m, o) == rs && shape(ins.m, z) == ys);
        blocked_ops.push(match same {
            Some((z, _)) => z,
            None => block_operand(&mut ins, o, b, channels, pad),
        });
    }
    let new = ins.op(def, &blocked_ops, attrs, vec![tensor_type(ys, elem)]);
    let nv = ins.m.result(new, 0);
    let back = ins.layout(nv, &Layout::nchwc(b), &Layout::nchw(), rs);
    m.replace_op(op, &[back]);
    true
}

fn sink_slice(m: &mut Module, op: Op) -> bool {
    if !m.is(op, &g::SLICE) {
        return false;
    }
    let x = m.operand(op, 0);
    let Some((y, b)) = unblocked(m, x) else { return false };
    let xs = shape(m, x);
    let get = |name: &str| m.attr(op, name).and_then(|a| a.as_i64_list());
    let (Some(starts), Some(sizes)) = (get("starts"), get("sizes")) else { return false };
    let steps = get("steps").unwrap_or(vec![1; 4]);
    if xs.len() != 4 || starts[1] != 0 || sizes[1] != xs[1] || steps[1] != 1 {
        return false;
    }
    let ys = shape(m, y);
    let attrs = AttrDict::new()
        .with("starts", Attribute::i64_list(&[starts[0], 0, starts[2], starts[3], 0]))
        .with("sizes", Attribute::i64_list(&[sizes[0], ys[1], sizes[2], sizes[3], b]))
        .with("steps", Attribute::i64_list(&[steps[0], 1, steps[2], steps[3], 1]));
    let rs = shape(m, m.result(op, 0));
    let mut ins = Inserter::before(m, op);
    let sliced = ins.inferred(&g::SLICE, &[y], attrs);
    let back = ins.layout(sliced, &Layout::nchwc(b), &Layout::nchw(), rs);
    m.replace_op(op, &[back]);
    true
}

fn sink_concat(m: &mut Module, op: Op) -> bool {
    if !m.is(op, &g::CONCAT) {
        return false;
    }
    let rs = shape(m, m.result(op, 0));
    let axis = m.attr(op, "axis").and_then(|a| a.as_i64()).unwrap_or(0);
    if rs.len() != 4 || (axis != 1 && axis != -3) {
        return false;
    }
    let mut parts = Vec::new();
    let mut block = None;
    for &o in m.operands(op) {
        let Some((y, b)) = unblocked(m, o) else { return false };
        if *block.get_or_insert(b) != b || padded(m, y, shape(m, o)[1]) {
            return false;
        }
        parts.push(y);
    }
    let b = block.expect("concat has operands");
    let mut ins = Inserter::before(m, op);
    let joined = ins.inferred(&g::CONCAT, &parts, AttrDict::new().with("axis", Attribute::i64(1)));
    let back = ins.layout(joined, &Layout::nchwc(b), &Layout::nchw(), rs);
    m.replace_op(op, &[back]);
    true
}

fn sink_reduce(m: &mut Module, op: Op) -> bool {
    if !matches!(tcc_dialect_graph::kind_of(m, op), Some(tcc_dialect_graph::GraphOp::Reduce(_))) {
        return false;
    }
    let x = m.operand(op, 0);
    let Some((y, b)) = unblocked(m, x) else { return false };
    let keep = m.attr(op, "keepdims").and_then(|a| a.as_bool()).unwrap_or(false);
    let Some(axes) = m.attr(op, "axes").and_then(|a| a.as_i64_list()) else { return false };
    let axes: Vec<i64> = axes.iter().map(|&a| if a < 0 { a + 4 } else { a }).collect();
    if !keep
        || axes.iter().any(|&a| a != 2 && a != 3)
        || !m.value_type(x).as_tensor().is_some_and(|t| t.elem().is_float())
    {
        return false;
    }
    let rs = shape(m, m.result(op, 0));
    let def = m.def(op);
    let attrs = AttrDict::new().with("axes", Attribute::i64_list(&axes)).with("keepdims", Attribute::Bool(true));
    let mut ins = Inserter::before(m, op);
    let reduced = ins.inferred(def, &[y], attrs);
    let back = ins.layout(reduced, &Layout::nchwc(b), &Layout::nchw(), rs);
    m.replace_op(op, &[back]);
    true
}

/// Erases pure ops whose results are unused (the transforms left behind).
fn remove_dead(m: &mut Module, block: Block) {
    let ops: Vec<Op> = m.block_ops(block).collect();
    for op in ops.into_iter().rev() {
        if m.has_trait(op, Traits::PURE) && !m.results(op).is_empty() && m.results_unused(op) {
            m.erase_op(op);
        }
    }
}
