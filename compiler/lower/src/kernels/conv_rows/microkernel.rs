//! The row template's register tiles as microkernel calls, on a target that calls the
//! runtime's microkernels. The broadcast tile's rows are the task's output channels
//! (their weights broadcast) and its vectors are pixels of the task's output rows (one
//! vector load of input pixels per kernel tap), so the channels of a multiplier or of a
//! narrow group share every pixel load, as in the generated tile. At stride 1, one call
//! covers a run's whole vectors in all the task's output rows (a vector group per row)
//! and a second one its last vector, moved back to end at the run's end (computed
//! again, bit for bit the same); runs narrower than a vector stay generated code. The
//! epilogue (a bias per channel, a residual, a sigmoid or SiLU, ReLU or clamp) runs in
//! registers.

use tcc_ir::Value;
use tcc_target::Isa;

use super::super::{Activation, FusedEpilogue, MicrokernelEpilogue, MicrokernelTile, Run, TileInput};
use super::{Row, Rows};
use crate::builder::Builder;
use crate::emit::OpLowering;

/// How a convolution's tiles call the microkernel: the level and the epilogue.
pub(super) struct Plan {
    pub isa: Isa,
    /// The bias per output channel, viewed as `[O]`: the op's own or its epilogue's.
    bias: Option<Value>,
    /// The epilogue's residual (an index into the epilogue operands), shaped as the
    /// output.
    residual: Option<usize>,
    lo: f32,
    hi: f32,
    activation: Activation,
}

/// The plan for `c`, if the target calls microkernels, the columns are read at stride 1
/// and the epilogue is one the microkernel applies: `bias` is the op's own bias
/// (`graph.conv2d`), `epilogue` its epilogue operands viewed as NCHW, `out` the output
/// shape `[N, O, OH, OW]`.
pub(super) fn plan(
    b: &mut Builder,
    c: &OpLowering,
    stride_w: i64,
    bias: Option<Value>,
    epilogue: &[(Value, Vec<i64>)],
    out: &[i64],
) -> Option<Plan> {
    let isa = c.ukernels?;
    if stride_w != 1 {
        return None;
    }
    let channels = out[1];
    // One value per output channel, as NCHW broadcasts it: `[.., O, 1, 1]`.
    let per_channel = |i: usize| {
        epilogue
            .get(i)
            .is_some_and(|(_, s)| s.len() >= 3 && s[s.len() - 3] == channels && s.iter().product::<i64>() == channels)
    };
    let fused = FusedEpilogue::of(c.g, c.op, per_channel)?;
    if fused.mask.is_some() || fused.narrow || fused.bf16_residual || (fused.bias.is_some() && bias.is_some()) {
        return None;
    }
    if fused.residual.is_some_and(|i| epilogue.get(i).is_none_or(|(_, s)| s != out)) {
        return None;
    }
    let bias = match fused.bias {
        Some(i) => Some(b.view(epilogue.get(i)?.0, &[channels])),
        None => bias,
    };
    Some(Plan { isa, bias, residual: fused.residual, lo: fused.lo, hi: fused.hi, activation: fused.activation })
}

/// Covers `run` (at least a vector wide) in every output row of the task `row`: its
/// whole vectors, then its last vector if the run is not whole vectors.
pub(super) fn cover_run(b: &mut Builder, k: &Rows, plan: &Plan, row: &Row, run: &Run) {
    let lanes = plan.isa.lanes() as i64;
    let whole = run.len / lanes;
    if whole > 0 {
        call(b, k, plan, row, run, run.start, whole);
    }
    if run.len % lanes != 0 {
        call(b, k, plan, row, run, run.start + run.len - lanes, 1);
    }
}

/// One call: `vectors` vectors of pixels from output column `ow0` in each of the task's
/// rows, for the task's channels, over the group's input channels, the task's kernel
/// rows and the run's kernel columns.
fn call(b: &mut Builder, k: &Rows, plan: &Plan, row: &Row, run: &Run, ow0: i64, vectors: i64) {
    let (taps, [dh, dw]) = (run.taps.1 - run.taps.0, k.dilation);
    let zero = b.index(0);
    let (first_oh, first_ih) = row.rows[0];
    // The first input row and column the tile reads.
    let khd = b.scale(row.kh.0, dh);
    let ih = b.add(first_ih, khd);
    let iw = b.index(ow0 * k.stride[1] - k.pad[1] + run.taps.0 * dw);
    let x_tap = b.index(run.taps.0);
    let ow = b.index(ow0);
    let kh_count = b.sub(row.kh.1, row.kh.0);
    let one = b.index(1);
    let gin = b.index(k.gin);
    let epilogue = MicrokernelEpilogue {
        bias: plan.bias.map(|bias| b.address(bias, &[row.oc0])),
        bias_group: 0,
        bias_row: 1,
        mask: None,
        residual: plan.residual.map(|i| b.address(k.epilogue[i].0, &[row.n, row.oc0, first_oh, ow])),
        lo: plan.lo,
        hi: plan.hi,
        activation: plan.activation,
        narrow: false,
        bf16_residual: false,
    };
    MicrokernelTile {
        // Broadcast: the channels' weights; vectors: the input pixels.
        x: b.address(k.filter, &[row.oc0, zero, row.kh.0, x_tap]),
        w: b.address(k.x, &[row.n, row.ic0, ih, iw]),
        o: b.address(k.out, &[row.n, row.oc0, first_oh, ow]),
        rows: b.index(k.tile_oc),
        vectors: vectors * row.rows.len() as i64,
        accumulate: false,
        x_row: k.gin * k.kh * k.kw,
        o_row: k.oh * k.ow,
        // A group of vectors per output row.
        group_vectors: vectors,
        w_group: k.stride[0] * k.w,
        o_group: k.ow,
        inner: taps,
        w_step: dw,
        levels: [(gin, k.kh * k.kw, k.h * k.w), (kh_count, k.kw, dh * k.w), (one, 0, 0)],
        prefetch: zero,
        epilogue: Some(epilogue),
        out_rows: None,
        input: TileInput::Broadcast,
    }
    .call(b, plan.isa);
}
