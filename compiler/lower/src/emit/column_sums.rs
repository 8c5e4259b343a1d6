//! Column sums as calls of the runtime's microkernel (`loop.column_sums`): a group (or
//! a lone `reduce_sum`) that sums an f32 input over its outer dimensions, keeping the
//! contiguous inner ones, with at most a per-column bias added in f32, a widening to
//! f64, a per-column center subtracted and a square on the way (a group norm's
//! statistics over a channels-last tensor, as torch-mlir exports them). Each column's
//! rows are added in order in one lane, as the vector loops of `nn::reduce_with` add
//! them, on the microkernel level's vectors instead of the code generator's: only for
//! targets that call microkernels (Cranelift's 128 bits), and only where a column block
//! fills a vector of the level.

use tcc_dialect_graph::ops as g;
use tcc_dialect_graph::ops::nn::reduction_axes;
use tcc_dialect_loop as lp;
use tcc_ir::{AttrDict, Attribute, ScalarType, Value};

use super::OpLowering;
use super::fused::Group;
use crate::builder::Builder;

/// A group's column sums: which of its inputs are the matrix, bias and center, and the
/// matrix's rows and columns.
pub(super) struct ColumnSums {
    isa: tcc_target::Isa,
    /// The f32 input, of the reduction's input shape.
    x: Value,
    bias: Option<Value>,
    center: Option<Value>,
    widen: bool,
    square: bool,
    rows: i64,
    columns: i64,
}

/// The group's column sums, if it is one (see the module) and the target calls the
/// column-sums microkernel.
pub(super) fn plan(b: &Builder, group: &Group) -> Option<ColumnSums> {
    let c = group.c;
    let isa = c.ukernels.filter(|i| i.column_sums_symbol().is_some())?;
    let gm = c.g;
    let [reduction] = group.reductions[..] else { return None };
    if !gm.is(reduction, &g::REDUCE_SUM) || group.ops.last() != Some(&reduction) {
        return None;
    }
    let shape = group.shape(gm.operand(reduction, 0));
    let rc = OpLowering::new(gm, reduction, Vec::new(), Vec::new());
    let axes = reduction_axes(&rc.sig(), shape.len()).ok()?;
    // Every reduced dimension (of more than one element) is outside every kept one:
    // the input is a matrix of rows (the reduced dimensions) by columns (the kept).
    let reduced = |d: usize| axes.contains(&d);
    let outermost_kept = (0..shape.len()).find(|&d| !reduced(d) && shape[d] > 1).unwrap_or(shape.len());
    if (outermost_kept..shape.len()).any(|d| reduced(d) && shape[d] > 1) {
        return None;
    }
    let rows: i64 = axes.iter().map(|&d| shape[d]).product();
    let columns: i64 = shape.iter().product::<i64>() / rows.max(1);
    let sum = group.elem(gm.result(reduction, 0))?;
    let widen = sum == ScalarType::F64;
    // A vector of the level holds a block of columns, and the rows are enough to pay
    // for the call.
    let lanes = isa.lanes() as i64 / if widen { 2 } else { 1 };
    if !(sum == ScalarType::F32 || widen) || columns < lanes || rows < 2 {
        return None;
    }
    // An input of the group whose buffer holds one value per column, of type `elem`.
    let per_column = |v: Value, elem: ScalarType| {
        let s = group.shape(v);
        let aligned = shape.len().checked_sub(s.len())?;
        let fits =
            s.iter().enumerate().all(|(i, &n)| if reduced(i + aligned) { n == 1 } else { n == shape[i + aligned] });
        (fits && group.elem(v) == Some(elem) && dense(b, group, v)).then_some(v)
    };
    // The chain from the summed value back to the input, each step optional.
    let mut matched = vec![reduction];
    let mut v = gm.operand(reduction, 0);
    let step = |v: Value, def: &tcc_ir::OpDef| gm.defining_op(v).filter(|&o| gm.is(o, def));
    let square = step(v, &g::MUL).filter(|&o| gm.operand(o, 0) == gm.operand(o, 1));
    if let Some(o) = square {
        matched.push(o);
        v = gm.operand(o, 0);
    }
    let center = step(v, &g::SUB).and_then(|o| Some((o, per_column(gm.operand(o, 1), sum)?)));
    if let Some((o, _)) = center {
        matched.push(o);
        v = gm.operand(o, 0);
    }
    if widen {
        let o = step(v, &g::CAST).filter(|&o| group.elem(gm.operand(o, 0)) == Some(ScalarType::F32))?;
        matched.push(o);
        v = gm.operand(o, 0);
    }
    let bias = step(v, &g::ADD).and_then(|o| {
        let (a, b) = (gm.operand(o, 0), gm.operand(o, 1));
        let bias =
            per_column(b, ScalarType::F32).map(|p| (a, p)).or_else(|| Some((b, per_column(a, ScalarType::F32)?)));
        bias.filter(|&(x, _)| group.shape(x) == shape).map(|(x, p)| (o, x, p))
    });
    if let Some((o, x, _)) = bias {
        matched.push(o);
        v = x;
    }
    let whole = matched.len() == group.ops.len();
    let input = group.inputs.contains_key(&v) && group.shape(v) == shape && group.elem(v) == Some(ScalarType::F32);
    (whole && input && dense(b, group, v) && dense_buffer(b, c.outs[0])).then_some(ColumnSums {
        isa,
        x: v,
        bias: bias.map(|(_, _, p)| p),
        center: center.map(|(_, p)| p),
        widen,
        square: square.is_some(),
        rows,
        columns,
    })
}

/// Whether group input `v` is read from a buffer with the default (row-major) layout.
fn dense(b: &Builder, group: &Group, v: Value) -> bool {
    group.inputs.get(&v).is_some_and(|&(buffer, _)| dense_buffer(b, buffer))
}

fn dense_buffer(b: &Builder, buffer: Value) -> bool {
    b.ty(buffer).as_buffer().is_some_and(|t| t.explicit_strides().is_none())
}

/// Column blocks of this many vectors of the level go to one task (the AVX-512 level
/// keeps a block's sums in registers over all rows; AVX2 takes it in two halves).
const BLOCK_VECTORS: i64 = 8;

/// The column sums `plan` found, on the thread pool in blocks of columns.
pub(super) fn emit(b: &mut Builder, group: &Group, plan: &ColumnSums) {
    let buffer = |b: &mut Builder, v: Value, shape: &[i64]| {
        let buffer = group.inputs[&v].0;
        b.view(buffer, shape)
    };
    let (rows, columns) = (plan.rows, plan.columns);
    let x = buffer(b, plan.x, &[rows, columns]);
    let bias = plan.bias.map(|v| buffer(b, v, &[columns]));
    let center = plan.center.map(|v| buffer(b, v, &[columns]));
    let out = b.view(group.c.outs[0], &[columns]);
    // A block of columns per task: each task reads its part of every row, so fewer,
    // wider parts stream better than one per core (on one thread as on two).
    let lanes = plan.isa.lanes() as i64 / if plan.widen { 2 } else { 1 };
    let per_task = BLOCK_VECTORS * lanes;
    let tasks = (columns + per_task - 1) / per_task;
    let attrs = AttrDict::new()
        .with("isa", Attribute::string(plan.isa.name()))
        .with("widen", Attribute::Bool(plan.widen))
        .with("square", Attribute::Bool(plan.square));
    b.parallel(tasks, |b, task| {
        let first = b.scale(task, per_task);
        let total = b.index(columns);
        let left = b.sub(total, first);
        let count = b.min_const(left, per_task);
        let zero = b.index(0);
        let x = b.address(x, &[zero, first]);
        let address = |b: &mut Builder, buffer: Option<Value>| match buffer {
            Some(buffer) => b.address(buffer, &[first]),
            None => b.index(0),
        };
        let (bias, center, out) = (address(b, bias), address(b, center), address(b, Some(out)));
        let (rows, stride) = (b.index(rows), b.index(columns));
        b.op_typed(&lp::COLUMN_SUMS, &[x, rows, stride, count, bias, center, out], attrs.clone(), vec![]);
    });
}
