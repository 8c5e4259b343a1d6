//! Canonicalization patterns of the graph dialect.
//!
//! - `constant-fold`: an op whose operands are all constants is evaluated by the
//!   reference interpreter and replaced by `graph.constant`s. Data movement and
//!   elementwise ops fold up to [`FOLD_MAX_MOVED_ELEMENTS`] as long as the result is no
//!   larger than the inputs (weight transposes and batch-norm arithmetic on real models;
//!   a layout transform, which pads partial blocks, up to four times larger: weight packing);
//!   everything else, and anything that would grow, only up to
//!   [`FOLD_MAX_RESULT_ELEMENTS`]. An elementwise op on constants and on ops on
//!   constants folds with them when its result is no larger than the constants they
//!   read (a weight plus a low-rank update, `W + A @ B`).
//! - Rules in `dialects/graph/rules/canonical/` (see [`crate::rules`]):
//!   `identity.rules` drops ops that return their operand unchanged (reshape,
//!   broadcast, slice, pad or cast to the same type, single-operand concat,
//!   single-part split, same-layout transform); `arith.rules` removes `x * 1`,
//!   `x / 1`, `x - 0` and `x + (-0)` (not `x + 0`: `-0 + 0` is `+0`);
//!   `transpose.rules` drops identity transposes, composes pairs of transposes and of
//!   reshapes into one op, and turns a transpose that only moves extent-1 dimensions
//!   into a reshape (`transpose-as-reshape`); `clamp.rules` turns `max(x, c)` /
//!   `min(x, c)` with a float splat constant into `clamp` and merges nested clamps
//!   (ReLU6 as exported); `slice.rules` composes a pair of slices
//!   (`slice-of-slice`).
//! - [`conv_fold`]: per-channel `add`/`sub`/`mul` by constants after a convolution
//!   (batch norm) fold into its weights and bias.
//! - [`reshape_sinking`]: reshapes move below elementwise ops and into the reductions
//!   after them (`reshape-sink`, `reduce-of-reduce`, `reduce-of-reshape`).
//! - [`transpose_hoist`]: a transpose moves above a single-use elementwise op or slice
//!   when that brings it next to another transpose or a constant, so that the
//!   NCHW<->NHWC pairs exporters write cancel.
//! - [`as_reshape`]: data movement that leaves every element in place becomes a reshape:
//!   `layout-as-reshape` (say `NCHW4c` <-> `NCHW` when `H = W = 1`) and
//!   `gather-as-reshape` (indices `0, 1, ..., n - 1`).
//! - [`broadcast_motion`]: `reshape-of-broadcast` moves a reshape above a `broadcast_to`
//!   when the broadcast dimensions are whole groups of the reshape, and
//!   `broadcast-into-elementwise` drops a `broadcast_to` the elementwise op using it
//!   does implicitly.
//! - [`reshape_sinking`] also holds `reshape-hoist`, which moves a reshape of a small
//!   tensor above the elementwise ops computing it when that folds it into constants or
//!   cancels it against reshapes above them (a blocked group norm's statistics end up in
//!   the activation's rank).
//! - [`concat_merge`]: `concat-of-transposes` moves equal transposes below a concat,
//!   and `concat-of-convs` merges the per-group convolutions of a grouped convolution
//!   (as torch-mlir exports it) back into one.
//! - [`cast_through_slice`]: `cast-through-slice` casts the operand of a slice instead
//!   of the slice when the operand is cast whole to the same type anyway.
//! - [`compare_cast`]: `compare-through-cast` compares the narrower floats when one side
//!   is a widening cast and the other a constant exact in the narrower type.
//! - [`resize`]: `bilinear-resize` recognizes torch-mlir's export of bilinear resizing
//!   (four gathers and three blends) as one `graph.resize_bilinear`, checked on the
//!   numbers of its indices and weights.
//!
//! Each op's `OpDef::patterns` lists the patterns that apply to it.

pub mod as_reshape;
pub mod broadcast_motion;
pub mod cast_through_slice;
pub mod compare_cast;
pub mod concat_merge;
pub mod conv_fold;
pub mod reshape_sinking;
pub mod resize;
pub mod transpose_hoist;

use tcc_ir::{AttrDict, Attribute, Op, OpDef, OperationState, Pattern, Rewriter, Traits, Type, Value};

use crate::interp::eval_op;
use crate::interp::tensor::Tensor;
use crate::ops;
use crate::rules;

/// Largest result (in elements) constant folding will materialize in general.
pub const FOLD_MAX_RESULT_ELEMENTS: usize = 1 << 16;
/// Largest total operand size (in elements) constant folding will read in general.
pub const FOLD_MAX_INPUT_ELEMENTS: usize = 1 << 20;
/// Largest tensor (in elements) an elementwise or data-movement op is folded on, when
/// its result is no larger than its inputs: big enough for any real weight tensor.
pub const FOLD_MAX_MOVED_ELEMENTS: usize = 1 << 27;
/// Largest integer result (in elements) folded whatever its inputs' size: integers
/// computed from constants are indices (a gather's, a mask's), never weights, and
/// folding them moves their arithmetic to compile time. torch-mlir exports a bilinear
/// upsampling to 224x224 as index tensors of 21 x 224 x 224 x 4 built from 224-element
/// ranges by tiles and a concat, whose run-time construction took 13 of LR-ASPP
/// MobileNet-V3's 23 ms (Zen 5).
pub const FOLD_MAX_INDEX_ELEMENTS: usize = 1 << 23;

pub static CONSTANT_FOLD: Pattern = Pattern { name: "constant-fold", apply: constant_fold };

pub static FOLD_ONLY: &[Pattern] = &[CONSTANT_FOLD];
pub static ELEMENTWISE: &[Pattern] =
    &[CONSTANT_FOLD, broadcast_motion::BROADCAST_INTO_ELEMENTWISE, reshape_sinking::RESHAPE_SINK];
pub static ADD: &[Pattern] = &[
    CONSTANT_FOLD,
    rules::ADD_ZERO_RIGHT,
    rules::ADD_ZERO_LEFT,
    conv_fold::FOLD_INTO_CONV,
    resize::BILINEAR_RESIZE,
    broadcast_motion::BROADCAST_INTO_ELEMENTWISE,
    reshape_sinking::RESHAPE_SINK,
];
pub static SUB: &[Pattern] = &[
    CONSTANT_FOLD,
    rules::SUB_ZERO,
    conv_fold::FOLD_INTO_CONV,
    broadcast_motion::BROADCAST_INTO_ELEMENTWISE,
    reshape_sinking::RESHAPE_SINK,
];
pub static MUL: &[Pattern] = &[
    CONSTANT_FOLD,
    rules::MUL_ONE_RIGHT,
    rules::MUL_ONE_LEFT,
    conv_fold::FOLD_INTO_CONV,
    broadcast_motion::BROADCAST_INTO_ELEMENTWISE,
    reshape_sinking::RESHAPE_SINK,
];
pub static DIV: &[Pattern] =
    &[CONSTANT_FOLD, rules::DIV_ONE, broadcast_motion::BROADCAST_INTO_ELEMENTWISE, reshape_sinking::RESHAPE_SINK];
pub static MIN_MAX: &[Pattern] = &[
    CONSTANT_FOLD,
    rules::MAX_TO_CLAMP_RIGHT,
    rules::MAX_TO_CLAMP_LEFT,
    rules::MIN_TO_CLAMP_RIGHT,
    rules::MIN_TO_CLAMP_LEFT,
    broadcast_motion::BROADCAST_INTO_ELEMENTWISE,
    reshape_sinking::RESHAPE_SINK,
];
pub static COMPARE: &[Pattern] = &[
    CONSTANT_FOLD,
    compare_cast::COMPARE_THROUGH_CAST,
    broadcast_motion::BROADCAST_INTO_ELEMENTWISE,
    reshape_sinking::RESHAPE_SINK,
];
pub static CLAMP: &[Pattern] = &[CONSTANT_FOLD, rules::CLAMP_OF_CLAMP, reshape_sinking::RESHAPE_SINK];
pub static CAST: &[Pattern] = &[
    CONSTANT_FOLD,
    rules::CAST_IDENTITY,
    rules::CAST_OF_WIDENING,
    reshape_sinking::RESHAPE_SINK,
    cast_through_slice::CAST_THROUGH_SLICE,
];
pub static REDUCE: &[Pattern] = &[CONSTANT_FOLD, reshape_sinking::REDUCE_OF_REDUCE, reshape_sinking::REDUCE_OF_RESHAPE];
pub static RESHAPE: &[Pattern] = &[
    CONSTANT_FOLD,
    rules::RESHAPE_IDENTITY,
    rules::RESHAPE_OF_RESHAPE,
    broadcast_motion::RESHAPE_OF_BROADCAST,
    reshape_sinking::RESHAPE_HOIST,
];
pub static TRANSPOSE: &[Pattern] = &[
    CONSTANT_FOLD,
    rules::TRANSPOSE_IDENTITY,
    rules::TRANSPOSE_OF_TRANSPOSE,
    transpose_hoist::TRANSPOSE_HOIST,
    rules::TRANSPOSE_AS_RESHAPE,
];
pub static BROADCAST: &[Pattern] = &[CONSTANT_FOLD, rules::BROADCAST_IDENTITY];
pub static SLICE: &[Pattern] = &[CONSTANT_FOLD, rules::SLICE_IDENTITY, rules::SLICE_OF_SLICE];
pub static PAD: &[Pattern] = &[CONSTANT_FOLD, rules::PAD_IDENTITY];
pub static CONCAT: &[Pattern] =
    &[CONSTANT_FOLD, rules::CONCAT_SINGLE, concat_merge::CONCAT_OF_TRANSPOSES, concat_merge::CONCAT_OF_CONVS];
pub static SPLIT: &[Pattern] = &[CONSTANT_FOLD, rules::SPLIT_SINGLE];
pub static LAYOUT: &[Pattern] = &[CONSTANT_FOLD, rules::LAYOUT_IDENTITY, as_reshape::LAYOUT_AS_RESHAPE];
pub static GATHER: &[Pattern] = &[CONSTANT_FOLD, as_reshape::GATHER_AS_RESHAPE];

/// The constant behind `v`, if `v` is produced by `graph.constant`.
pub fn constant_value(m: &tcc_ir::Module, v: Value) -> Option<tcc_ir::DenseElements> {
    let def = m.defining_op(v)?;
    if !m.is(def, &ops::CONSTANT) {
        return None;
    }
    m.attr(def, "value")?.as_dense().cloned()
}

fn constant_fold(rw: &mut Rewriter, op: Op) -> bool {
    if rw.is(op, &ops::CONSTANT) || rw.operands(op).is_empty() {
        return false;
    }
    let Some(values) = rw.operands(op).iter().map(|&v| constant_value(rw, v)).collect::<Option<Vec<_>>>() else {
        return fold_constant_expression(rw, op);
    };
    let input_elems: usize = values.iter().map(|d| d.numel()).sum();
    let result_types: Vec<_> = rw.results(op).iter().map(|&r| rw.value_type(r).clone()).collect();
    let Some(result_elems) = result_types
        .iter()
        .map(|t| t.as_tensor().filter(|t| t.encoding().is_none()).map(|t| t.numel()))
        .sum::<Option<usize>>()
    else {
        return false;
    };
    let cheap = rw.has_trait(op, Traits::ELEMENTWISE) || rw.has_trait(op, Traits::DATA_MOVEMENT);
    let small = result_elems <= FOLD_MAX_RESULT_ELEMENTS && input_elems <= FOLD_MAX_INPUT_ELEMENTS;
    // Packing into blocks may pad the last block: a relayout may grow a little.
    let growth = if rw.is(op, &ops::LAYOUT_TRANSFORM) { 4 } else { 1 };
    let moved = cheap && result_elems <= (input_elems * growth).min(FOLD_MAX_MOVED_ELEMENTS);
    let index = result_elems <= FOLD_MAX_INDEX_ELEMENTS
        && input_elems <= FOLD_MAX_INDEX_ELEMENTS
        && result_types.iter().all(|t| t.as_tensor().is_some_and(|t| t.elem().is_integer()));
    if !small && !moved && !index {
        return false;
    }
    let Ok(inputs) = values.iter().map(Tensor::from_dense).collect::<Result<Vec<_>, _>>() else {
        return false;
    };
    // An op that fails to evaluate (say, integer division by zero) is left for run time.
    let Ok(outputs) = eval_op(rw, op, &inputs) else {
        return false;
    };
    let loc = rw.loc(op).clone();
    let mut replacements = Vec::new();
    for (t, ty) in outputs.into_iter().zip(result_types) {
        let mut state = OperationState::new(&ops::CONSTANT, loc.clone());
        state.attrs.set("value", Attribute::Dense(t.into_dense()));
        state.result_types.push(ty);
        let c = rw.create_before(op, state);
        replacements.push(rw.result(c, 0));
    }
    rw.replace_op(op, &replacements);
    true
}

/// Largest result (in elements) of an op on constants evaluated as part of a constant
/// expression ([`fold_constant_expression`]), and the most FLOPs it may take (the
/// reference interpreter runs it at compile time: a 4096x16 by 16x4096 product is 0.5
/// GFLOP).
pub const FOLD_MAX_INNER_ELEMENTS: usize = 1 << 24;
pub const FOLD_MAX_INNER_FLOPS: u64 = 1 << 30;

/// Folds an elementwise op whose operands are constants or single-result ops on
/// constants (that were too large to fold alone), when its result is no larger than
/// the constants the whole expression reads: a weight plus a low-rank update,
/// `W + A @ B`, is folded into one weight of W's size, though `A @ B` alone would have
/// grown the constants (and stays unfolded when nothing consumes it so).
fn fold_constant_expression(rw: &mut Rewriter, op: Op) -> bool {
    let numel =
        |rw: &Rewriter, v: Value| rw.value_type(v).as_tensor().filter(|t| t.encoding().is_none()).map(|t| t.numel());
    if !rw.has_trait(op, Traits::ELEMENTWISE) || !rw.regions(op).is_empty() || rw.results(op).len() != 1 {
        return false;
    }
    let Some(result_elems) = numel(rw, rw.result(op, 0)) else { return false };
    // Each operand: a constant, or an op on constants (its operands the leaves).
    let mut leaf_elems = 0;
    for &v in rw.operands(op) {
        let leaves = if constant_value(rw, v).is_some() {
            vec![v]
        } else {
            let Some(inner) = rw.defining_op(v) else { return false };
            let evaluable = rw.results(inner).len() == 1
                && rw.regions(inner).is_empty()
                && numel(rw, v).is_some_and(|n| n <= FOLD_MAX_INNER_ELEMENTS)
                && crate::cost::flops(rw, inner) <= FOLD_MAX_INNER_FLOPS
                && rw.operands(inner).iter().all(|&x| constant_value(rw, x).is_some());
            if !evaluable {
                return false;
            }
            rw.operands(inner).to_vec()
        };
        for x in leaves {
            leaf_elems += numel(rw, x).unwrap_or(usize::MAX / 4);
        }
    }
    if result_elems > leaf_elems.min(FOLD_MAX_MOVED_ELEMENTS) {
        return false;
    }
    let evaluate = |rw: &Rewriter, op: Op, values: Vec<tcc_ir::DenseElements>| -> Option<Tensor> {
        let tensors = values.iter().map(Tensor::from_dense).collect::<Result<Vec<_>, _>>().ok()?;
        eval_op(rw, op, &tensors).ok()?.into_iter().next()
    };
    let mut inputs = Vec::new();
    for v in rw.operands(op).to_vec() {
        let value = match constant_value(rw, v) {
            Some(d) => d,
            None => {
                let inner = rw.defining_op(v).expect("checked above");
                let leaves = rw.operands(inner).iter().filter_map(|&x| constant_value(rw, x)).collect();
                let Some(t) = evaluate(rw, inner, leaves) else { return false };
                t.into_dense()
            }
        };
        inputs.push(value);
    }
    let Some(folded) = evaluate(rw, op, inputs) else { return false };
    let mut state = OperationState::new(&ops::CONSTANT, rw.loc(op).clone());
    state.attrs.set("value", Attribute::Dense(folded.into_dense()));
    state.result_types.push(rw.value_type(rw.result(op, 0)).clone());
    let c = rw.create_before(op, state);
    let r = rw.result(c, 0);
    rw.replace_op(op, &[r]);
    true
}

/// Creates `def` on `operands` before `anchor` with its inferred result type; `None`
/// if inference rejects it (the pattern then does not apply).
pub(crate) fn build(
    rw: &mut Rewriter,
    anchor: Op,
    def: &'static OpDef,
    operands: &[Value],
    attrs: AttrDict,
) -> Option<Value> {
    let types: Vec<Type> = operands.iter().map(|&v| rw.value_type(v).clone()).collect();
    let result_types = def.infer_types(&types, &attrs).ok()?;
    let mut state = OperationState::new(def, rw.loc(anchor).clone());
    state.operands = operands.to_vec();
    state.attrs = attrs;
    state.result_types = result_types;
    let op = rw.create_before(anchor, state);
    Some(rw.result(op, 0))
}
