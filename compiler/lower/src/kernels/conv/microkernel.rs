//! The convolution templates' register tiles as microkernel calls, on a target that
//! calls the runtime's microkernels. Direct and pointwise: a run of columns that all
//! read the same kernel taps is one `loop.microkernel` call over the whole reduction
//! (input-channel blocks, in-bounds kernel rows, kernel columns and channels), which
//! tiles the columns itself; a tile across a row's edge is one call per kernel column,
//! each over the columns that reach it (a contiguous run), accumulating into the stored
//! tile, except in the rows that read every kernel row, whose edge columns are one call
//! each down those rows ([`edges_over_rows`]). bf16 pairs on the dot tile, every column
//! reading every kernel column (a padded input): one call per part of the output rows
//! (`out_rows`), which AMX runs as one sequence of positions. Depthwise: one call per
//! run over a group of channel blocks (vector inputs).
//! The common epilogues (bias, padded-channel mask, residual, ReLU or clamp) run in the
//! microkernel's registers: in a run's only call, or in a last call with no reduction
//! that loads, finishes and stores the tile; others run in generated code on the
//! stored tile while it is in L1.

use tcc_ir::scalar::{Compare, ScalarFn};
use tcc_ir::{ScalarType, Value};
use tcc_target::Isa;

use super::super::{
    FusedEpilogue, MicrokernelEpilogue, MicrokernelTile, TileInput, VectorReduce, apply_epilogue, once_if,
};
use super::{Conv, Run, Tile, direct_row, kernel_rows, load_tile, row_runs, row_tile, store_tile, tasks, with_tail};
use crate::builder::Builder;
use crate::emit::OpLowering;

/// The microkernel level that computes `k`'s tiles, if the target calls microkernels
/// and the output blocks are whole vectors of that level; AVX-512's bf16 dot tile for
/// bf16 pairs (on every backend: `Conv::new` checked the target has it).
pub(super) fn level(c: &OpLowering, k: &Conv) -> Option<Isa> {
    if k.pairs {
        return Some(Isa::Avx512);
    }
    c.ukernels.filter(|isa| k.o[4] % isa.lanes() as i64 == 0)
}

/// Tile `t` of `taps.len()` columns from `ow0` (column `i` reads kernel columns
/// `taps[i]`) by `isa`'s microkernel; `false` (nothing emitted) when the columns that
/// reach a kernel column are not one run.
pub(super) fn tile(
    b: &mut Builder,
    c: &OpLowering,
    k: &Conv,
    isa: Isa,
    t: &Tile,
    ow0: Value,
    taps: &[(i64, i64)],
) -> bool {
    let cols = taps.len() as i64;
    let has_epilogue = t.last && !c.g.regions(c.op).is_empty();
    let fused = if t.last { fusable(c, k) } else { None };
    if taps.iter().all(|&tp| tp == taps[0]) {
        let n = b.index(cols);
        call(b, k, isa, t, ow0, (0, n), Some(taps[0]), !t.first, fused, None);
    } else {
        // Per kernel column: the run of columns that reach it, the widest first.
        let span = (taps.iter().map(|t| t.0).min().unwrap_or(0), taps.iter().map(|t| t.1).max().unwrap_or(0));
        let mut calls = Vec::new();
        for kw in span.0..span.1 {
            let reach: Vec<i64> =
                (0..cols).filter(|&i| (taps[i as usize].0..taps[i as usize].1).contains(&kw)).collect();
            let (Some(&first), Some(&last)) = (reach.first(), reach.last()) else { continue };
            if last - first + 1 != reach.len() as i64 {
                return false;
            }
            calls.push((kw, first, reach.len() as i64));
        }
        calls.sort_by_key(|&(kw, _, n)| (-n, kw));
        let mut accumulate = !t.first;
        if t.first && calls.first().is_none_or(|&(_, _, n)| n < cols) {
            // Some column is not written by the first call: the tile starts from zeros.
            let zero_s = b.scalar(tcc_ir::ScalarType::F32, 0.0);
            let zero = b.splat(zero_s, k.width);
            let zeros = vec![zero; (cols * k.tile_oc * k.vectors) as usize];
            store_tile(b, c, k, t.n, t.ob0, t.oh, ow0, cols, k.tile_oc, &zeros, false);
            accumulate = true;
        }
        for (kw, first, n) in calls {
            let n = b.index(n);
            call(b, k, isa, t, ow0, (first, n), Some((kw, kw + 1)), accumulate, None, None);
            accumulate = true;
        }
        if fused.is_some() {
            let n = b.index(cols);
            call(b, k, isa, t, ow0, (0, n), None, true, fused, None);
        }
    }
    if has_epilogue && fused.is_none() {
        let accs = load_tile(b, k, t, ow0, cols);
        store_tile(b, c, k, t.n, t.ob0, t.oh, ow0, cols, k.tile_oc, &accs, true);
    }
    true
}

/// Columns `ow0..ow0 + count` (a run of whole tiles, its length known at run time) all
/// reading kernel columns `taps`, as one call that tiles them itself, for output row
/// `t.oh` or, with `out_rows`, that many rows from it (every row's kernel rows the
/// same); `false` (nothing emitted) when the epilogue needs generated code on tiles of
/// known width.
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
    b: &mut Builder,
    c: &OpLowering,
    k: &Conv,
    isa: Isa,
    t: &Tile,
    (ow0, count): (Value, Value),
    taps: (i64, i64),
    out_rows: Option<Value>,
) -> bool {
    if t.last && !runs_whole(c, k) {
        return false;
    }
    let fused = if t.last { fusable(c, k) } else { None };
    call(b, k, isa, t, ow0, (0, count), Some(taps), !t.first, fused, out_rows);
    true
}

/// Whether [`run`] computes a run of `k`'s tiles whole: the epilogue (if any) runs in
/// the microkernel.
pub(super) fn runs_whole(c: &OpLowering, k: &Conv) -> bool {
    c.g.regions(c.op).is_empty() || fusable(c, k).is_some()
}

/// The direct template on an input whose padded columns are not in memory: a row whose
/// kernel rows are all inside the input computes its columns that read every kernel
/// column (the middle run) in one call, and each edge column is one call down all those
/// rows (its tile's rows are the output rows: they share each weight load, and their
/// sums are independent chains), in one more task per image and tile; the rows that
/// reach the vertical padding are computed whole, as [`direct_row`] does. `false`
/// (nothing emitted) unless the epilogue runs in the microkernel, every edge column
/// reads some kernel column and at least two rows have them all.
pub(super) fn edges_over_rows(b: &mut Builder, c: &OpLowering, k: &Conv, runs: &[Run], tail: &Option<Conv>) -> bool {
    let Some(isa) = level(c, k) else { return false };
    if k.pairs || k.split_edges || runs.len() < 2 || !runs_whole(c, k) {
        return false;
    }
    let [n_n, _, h, _, _] = k.x;
    let [_, _, kh_n, kw_n, _, _] = k.w;
    let oh_n = k.o[2];
    let Some(middle) = runs.iter().filter(|r| r.taps == (0, kw_n)).max_by_key(|r| r.len).copied() else {
        return false;
    };
    let edges: Vec<(i64, (i64, i64))> = runs
        .iter()
        .filter(|r| r.start != middle.start)
        .flat_map(|r| (r.start..r.start + r.len).map(move |col| (col, r.taps)))
        .collect();
    if edges.iter().any(|&(_, (lo, hi))| lo >= hi) {
        return false;
    }
    // The rows whose kernel rows are all inside the input (as `row_runs` finds the
    // columns that read every kernel column).
    let rows = row_runs(oh_n, h, kh_n, k.stride[0], k.dilation[0], k.pad[0]);
    let Some(inner) = rows.iter().filter(|r| r.taps == (0, kh_n)).max_by_key(|r| r.len) else {
        return false;
    };
    let (first, end) = (inner.start, inner.start + inner.len);
    if end - first < 2 {
        return false;
    }
    let groups_of_tiles = k.groups * k.tiles_per_group();
    // Row tasks in the order `direct` gives them (a row for every channel group in turn
    // when the input is the larger operand), then the edge columns' task.
    let by_rows = k.task_w.is_some();
    let dims = if by_rows { [n_n, oh_n + 1, 1, groups_of_tiles] } else { [n_n, groups_of_tiles, oh_n + 1, 1] };
    tasks(b, k, dims, |b, [d0, d1, d2, d3]| {
        let (n, tg, oh) = if by_rows { (d0, d3, d1) } else { (d0, d1, d2) };
        let edge_task = b.index(oh_n);
        let is_edges = b.cmp(Compare::Eq, oh, edge_task);
        once_if(b, is_edges, false, |b| {
            let (lo, hi) = (b.index(first), b.index(end));
            let (above, below) = (b.cmp(Compare::Ge, oh, lo), b.cmp(Compare::Lt, oh, hi));
            let inside = b.bin(ScalarFn::And, above, below);
            let at = row_tile(b, k, n, tg, oh);
            once_if(b, inside, true, |b| {
                with_tail(b, k, tail, tg, |b, k| {
                    let (start, count) = (b.index(middle.start), b.index(middle.len));
                    run(b, c, k, isa, &at, (start, count), middle.taps, None);
                });
            });
            once_if(b, inside, false, |b| {
                let zero = b.index(0);
                with_tail(b, k, tail, tg, |b, k| direct_row(b, c, k, runs, 1, zero, &at));
            });
        });
        once_if(b, is_edges, true, |b| {
            let top = b.index(first);
            let at = row_tile(b, k, n, tg, top);
            let (rows, one) = (b.index(end - first), b.index(1));
            let fused = fusable(c, k);
            with_tail(b, k, tail, tg, |b, k| {
                for &(col, taps) in &edges {
                    let col = b.index(col);
                    call(b, k, isa, &at, col, (0, one), Some(taps), false, fused, Some(rows));
                }
            });
        });
    });
    true
}

/// The direct template's tiles of bf16 pairs over parts of the rows, one call per part
/// and tile of channel blocks (AMX runs a part as one sequence of positions: a 7 x 7
/// map in four input tiles); `false` (nothing emitted) where [`row_parts`] says no.
pub(super) fn direct_over_rows(b: &mut Builder, c: &OpLowering, k: &Conv, runs: &[Run], tail: &Option<Conv>) -> bool {
    let (Some(parts), Some(isa)) = (row_parts(c, k, runs), level(c, k)) else { return false };
    let (n_n, oh_n, columns) = (k.x[0], k.o[2], runs[0]);
    let groups_of_tiles = k.groups * k.tiles_per_group();
    tasks(b, k, [n_n, groups_of_tiles, parts, 1], |b, [n, tg, p, _]| {
        let (lo, hi) = part(b, p, parts, oh_n);
        let at = row_tile(b, k, n, tg, lo);
        let rows = b.sub(hi, lo);
        let (start, count) = (b.index(columns.start), b.index(columns.len));
        with_tail(b, k, tail, tg, |b, k| {
            run(b, c, k, isa, &at, (start, count), columns.taps, Some(rows));
        });
    });
    true
}

/// Parts of the output rows for calls over several rows each, when `k` takes them: bf16
/// pairs on the dot microkernel, one run of columns per row (every column reading the
/// same kernel columns: a padded input), the same kernel rows for every row, and the
/// epilogue in the microkernel. As many parts as make 8 tasks or more.
pub(super) fn row_parts(c: &OpLowering, k: &Conv, runs: &[Run]) -> Option<i64> {
    let [n_n, _, h, _, _] = k.x;
    let [_, _, kh_n, _, _, _] = k.w;
    let oh_n = k.o[2];
    let same_kernel_rows = k.pad[0] == 0 && (oh_n - 1) * k.stride[0] + (kh_n - 1) * k.dilation[0] < h;
    let fits = k.pairs && runs.len() == 1 && same_kernel_rows && oh_n > 1 && runs_whole(c, k);
    let tiles = n_n * k.groups * k.tiles_per_group();
    (fits && level(c, k).is_some()).then(|| ((8 + tiles - 1) / tiles).clamp(1, oh_n))
}

/// Rows `[lo, hi)` of part `p` of `parts` of `rows`, as even as possible.
pub(super) fn part(b: &mut Builder, p: Value, parts: i64, rows: i64) -> (Value, Value) {
    let at = |b: &mut Builder, q: Value| {
        let scaled = b.scale(q, rows);
        let parts = b.index(parts);
        b.div(scaled, parts)
    };
    let lo = at(b, p);
    let one = b.index(1);
    let next = b.add(p, one);
    (lo, at(b, next))
}

/// Whether the dot tile computes `k` with its bf16 output: every output tile one call
/// over the whole reduction (no input-channel passes, every column of a row reading
/// every kernel column), the epilogue applied and rounded in registers.
pub(super) fn narrows(c: &OpLowering, k: &Conv) -> bool {
    let ([_, wicb, _, kw_n, _, _], [_, _, _, ow_n, _]) = (k.w, k.o);
    let runs = row_runs(ow_n, k.x[3], kw_n, k.stride[1], k.dilation[1], k.pad[1]);
    k.pairs
        && k.template != super::Template::Depthwise
        && k.chunk_ic.is_none_or(|chunk| chunk >= wicb)
        && runs.len() == 1
        && fusable(c, k).is_some_and(|f| f.narrow)
}

/// `c`'s epilogue when the microkernel can apply it: its bias and mask are one vector
/// per output channel (`[1, OB, 1, 1, ob]`) and its residual has the output's shape.
fn fusable(c: &OpLowering, k: &Conv) -> Option<FusedEpilogue> {
    let [_, ob_n, _, _, ob] = k.o;
    let bias_like = |i: usize| k.epilogue[i].1 == [1, ob_n, 1, 1, ob];
    // (Only the bf16 dot tile stores bf16 or reads a bf16 residual.)
    let fused = FusedEpilogue::of(c.g, c.op, bias_like).filter(|f| !(f.narrow || f.bf16_residual) || k.pairs)?;
    let residual_fits = fused.residual.is_none_or(|i| k.epilogue[i].1 == k.o);
    (!fused.is_none() && residual_fits).then_some(fused)
}

/// One call: the tile's columns `first..first + count` (from `ow0`) over kernel columns
/// `lo..hi` (no reduction without them: the stored tile is only finished), starting
/// from the stored partial sums with `accumulate`, finished by `fused`; over `out_rows`
/// output rows from `t.oh` if given.
#[allow(clippy::too_many_arguments)]
fn call(
    b: &mut Builder,
    k: &Conv,
    isa: Isa,
    t: &Tile,
    ow0: Value,
    (first, count): (i64, Value),
    taps: Option<(i64, i64)>,
    accumulate: bool,
    fused: Option<FusedEpilogue>,
    out_rows: Option<Value>,
) {
    let (lo, hi) = taps.unwrap_or((0, 0));
    let [_, _, h, w, ib] = k.x;
    let [_, wicb, kh_n, kw_n, wib, ob] = k.w;
    let [_, _, oh_n, ow_n, _] = k.o;
    let ([_, sw], [dh, dw]) = (k.stride, k.dilation);
    let first_v = b.index(first);
    let ow = b.add(ow0, first_v);
    let iw = {
        let s = b.scale(ow, sw);
        let offset = b.index(lo * dw - k.pad[1]);
        b.add(s, offset)
    };
    let ih = {
        let d = b.scale(t.kh.0, dh);
        b.add(t.ih0, d)
    };
    let xcb = b.add(t.icb_base, t.icb.0);
    let zero = b.index(0);
    let lo_v = b.index(lo);
    let x = b.address(k.xb, &[t.n, xcb, ih, iw, zero]);
    let wp = b.address(k.wb, &[t.ob0, t.icb.0, t.kh.0, lo_v, zero, zero]);
    let o = b.address(k.ob, &[t.n, t.ob0, t.oh, ow, zero]);
    let icbs = if taps.is_some() { b.sub(t.icb.1, t.icb.0) } else { b.index(0) };
    let khs = b.sub(t.kh.1, t.kh.0);
    let filter_row = kw_n * wib * ob;
    // Unit dilation: a kernel row's columns and channels are one contiguous run of the
    // input row and of the filter row.
    let (kws, inner) = if dw == 1 { (b.index(1), (hi - lo) * ib) } else { (b.index(hi - lo), ib) };
    // bf16 pairs: the same run, in steps of two channels of the pair filter.
    let (inner, w_step) = if k.pairs { (inner / 2, 2 * ob) } else { (inner, ob) };
    let lanes = isa.lanes() as i64;
    let w_group = wicb * kh_n * filter_row;
    // The next channel group's filters (the last group asks for its own).
    let prefetch = if k.prefetch {
        let step = b.index(k.tile_oc);
        let next = b.add(t.ob0, step);
        let next = b.min_const(next, k.o[1] - k.tile_oc);
        let blocks = b.sub(next, t.ob0);
        b.scale(blocks, w_group)
    } else {
        b.index(0)
    };
    let epilogue = fused.map(|f| tile_epilogue(b, k, &f, [t.n, t.ob0, t.oh, ow]));
    MicrokernelTile {
        x,
        w: wp,
        o,
        rows: count,
        vectors: k.tile_oc * ob / lanes,
        accumulate,
        x_row: sw * ib,
        o_row: ob,
        group_vectors: ob / lanes,
        w_group,
        o_group: oh_n * ow_n * ob,
        inner,
        w_step,
        levels: [(icbs, h * w * ib, kh_n * filter_row), (khs, dh * w * ib, filter_row), (kws, dw * ib, wib * ob)],
        prefetch,
        epilogue,
        out_rows: out_rows.map(|count| (count, k.stride[0] * w * ib, ow_n * ob)),
        input: if k.pairs { TileInput::Pairs } else { TileInput::Broadcast },
    }
    .call(b, isa);
}

/// `f`'s operands for a microkernel tile whose first output vector is at `[image, block,
/// row, column]`: the per-channel bias and mask at the tile's first block, the residual
/// at its first vector.
fn tile_epilogue(b: &mut Builder, k: &Conv, f: &FusedEpilogue, [n, ob0, oh, ow]: [Value; 4]) -> MicrokernelEpilogue {
    let zero = b.index(0);
    let per_channel = |i: usize, b: &mut Builder| b.address(k.epilogue[i].0, &[zero, ob0, zero, zero, zero]);
    let bias = f.bias.map(|i| per_channel(i, b));
    let mask = f.mask.map(|i| per_channel(i, b));
    let residual = f.residual.map(|i| b.address(k.epilogue[i].0, &[n, ob0, oh, ow, zero]));
    MicrokernelEpilogue {
        bias,
        bias_group: k.w[5],
        bias_row: 0,
        mask,
        residual,
        lo: f.lo,
        hi: f.hi,
        activation: f.activation,
        narrow: f.narrow,
        bf16_residual: f.bf16_residual,
    }
}

/// Whether [`depthwise`] can compute `k`: its epilogue runs in the microkernel, or in
/// generated code on the stored f32 sums (not for an output narrowed to bf16, which only
/// the bf16 dot tile stores).
pub(super) fn depthwise_fits(c: &OpLowering, k: &Conv) -> bool {
    c.out_elem(0) == ScalarType::F32 || fusable(c, k).is_some()
}

/// The depthwise template on `isa`'s microkernel: parallel over (image, group of
/// channel blocks, part of the output rows); each run of columns with the same kernel
/// taps is one call over all the group's blocks (vector inputs, a vector group per
/// block), which tiles the columns itself, and over all the part's rows whose kernel
/// rows land inside the input (`out_rows`; the microkernel runs a block's rows one
/// after another). Called per output row over groups of up to 16 blocks, with the edge
/// columns in the generic kernel, 4 vectors a call, a 14x14 map with 512 channels took
/// 0.030 ms with AVX-512 microkernels, 0.022 ms as now (Zen 5; LLVM's generated
/// template 0.009).
/// An epilogue the microkernel cannot apply (EfficientNet's SiLU) runs in generated
/// code over each row's stored sums while they are in L1 (one row per call then):
/// computed by the generated depthwise template instead, 16-channel blocks in
/// Cranelift's 4-lane vectors spilled (5% of the 512-bit peak).
pub(super) fn depthwise(b: &mut Builder, c: &OpLowering, k: &Conv, isa: Isa) {
    let [n_n, _, h, _, _] = k.x;
    let [_, _, kh_n, _, _, _] = k.w;
    let [_, cb_n, oh_n, _, _] = k.o;
    let (sh, dh, ph) = (k.stride[0], k.dilation[0], k.pad[0]);
    let post = fusable(c, k).is_none() && !c.g.regions(c.op).is_empty();
    // Output rows whose kernel rows all land inside the input.
    let inside = ((ph + sh - 1) / sh, ((h - 1 - (kh_n - 1) * dh + ph).div_euclid(sh) + 1).min(oh_n));
    let (group, parts) = depthwise_tasks(n_n, cb_n, oh_n, post);
    tasks(b, k, [n_n, cb_n / group, parts, 1], |b, [n, g, p, _]| {
        let cb = b.scale(g, group);
        let (lo, hi) = part(b, p, parts, oh_n);
        let row_by_row = |b: &mut Builder, lo: Value, hi: Value| {
            b.range(lo, hi, |b, oh| depthwise_calls(b, c, k, isa, [n, cb, oh], group, None));
        };
        if post || inside.0 >= inside.1 {
            return row_by_row(b, lo, hi);
        }
        // Rows above the inside ones, the inside ones in one call per run, rows below.
        let above = b.min_const(hi, inside.0);
        row_by_row(b, lo, above);
        let first = b.max_const(lo, inside.0);
        let end = b.min_const(hi, inside.1);
        let count = b.sub(end, first);
        let count = b.max_const(count, 0);
        depthwise_calls(b, c, k, isa, [n, cb, first], group, Some(count));
        let below = b.max_const(lo, inside.1);
        row_by_row(b, below, hi);
    });
}

/// The depthwise tasks: `(blocks per group, parts of the rows)`. Groups of up to 8
/// blocks, or a quarter of the blocks when that is more (small maps of many channels:
/// each call, a run of columns, then has more work than its setup), the rows in as
/// many parts of 8 rows or more as leave 16 tasks or more (one row a part with a
/// generated post-pass).
fn depthwise_tasks(n: i64, blocks: i64, rows: i64, post: bool) -> (i64, i64) {
    let most = (blocks / 4).max(8);
    let group = (1..=blocks.min(most)).rev().find(|&g| blocks % g == 0).unwrap_or(1);
    let groups = n * (blocks / group);
    let parts = if post { rows } else { ((16 + groups - 1) / groups).clamp(1, (rows / 8).max(1)) };
    (group, parts)
}

/// The calls of output row `oh` (`at = [image, first block, oh]`) of a group of `group`
/// blocks, one per run of columns, or with `rows`, of that many rows from `oh`, every
/// one with all its kernel rows inside the input.
fn depthwise_calls(
    b: &mut Builder,
    c: &OpLowering,
    k: &Conv,
    isa: Isa,
    at: [Value; 3],
    group: i64,
    rows: Option<Value>,
) {
    let [n, cb, oh] = at;
    let [_, _, h, w, ib] = k.x;
    let [_, _, kh_n, kw_n, _, ob] = k.w;
    let [_, _, oh_n, ow_n, _] = k.o;
    let ([sh, sw], [dh, dw]) = (k.stride, k.dilation);
    let fused = fusable(c, k);
    let lanes = isa.lanes() as i64;
    let zero = b.index(0);
    let ohs = b.scale(oh, sh);
    let pt = b.index(k.pad[0]);
    let kh = match rows {
        Some(_) => (b.index(0), b.index(kh_n)),
        None => kernel_rows(b, k, ohs, pt, h, kh_n),
    };
    let ih0 = b.sub(ohs, pt);
    let ih = {
        let d = b.scale(kh.0, dh);
        b.add(ih0, d)
    };
    let khs = b.sub(kh.1, kh.0);
    let one = b.index(1);
    for run in &row_runs(ow_n, w, kw_n, sw, dw, k.pad[1]) {
        let (lo, hi) = run.taps;
        let ow0 = b.index(run.start);
        let iw = b.index(run.start * sw + lo * dw - k.pad[1]);
        let lo_v = b.index(lo);
        let epilogue = fused.map(|f| tile_epilogue(b, k, &f, [n, cb, oh, ow0]));
        MicrokernelTile {
            x: b.address(k.xb, &[n, cb, ih, iw, zero]),
            w: b.address(k.wb, &[cb, zero, kh.0, lo_v, zero, zero]),
            o: b.address(k.ob, &[n, cb, oh, ow0, zero]),
            rows: b.index(run.len),
            vectors: group * ob / lanes,
            accumulate: false,
            x_row: sw * ib,
            o_row: ob,
            group_vectors: ob / lanes,
            w_group: kh_n * kw_n * ob,
            o_group: oh_n * ow_n * ob,
            inner: hi - lo,
            w_step: ob,
            levels: [(one, 0, 0), (one, 0, 0), (khs, dh * w * ib, kw_n * ob)],
            prefetch: zero,
            epilogue,
            out_rows: rows.map(|count| (count, sh * w * ib, ow_n * ob)),
            input: TileInput::Vectors { step: dw * ib, group: h * w * ib, reduce: VectorReduce::Fma, divisor: None },
        }
        .call(b, isa);
        if rows.is_none() && fused.is_none() && !c.g.regions(c.op).is_empty() {
            epilogue_over_run(b, c, k, [n, cb, oh, ow0], group, run.len);
        }
    }
}

/// `c`'s epilogue in generated code over the stored sums of `blocks` output blocks from
/// `at = [image, block, row, column]` and `cols` columns.
fn epilogue_over_run(b: &mut Builder, c: &OpLowering, k: &Conv, at: [Value; 4], blocks: i64, cols: i64) {
    let [n, cb, oh, ow0] = at;
    let (zero, blocks, cols) = (b.index(0), b.index(blocks), b.index(cols));
    b.range(zero, blocks, |b, blk| {
        let ocb = b.add(cb, blk);
        b.range(zero, cols, |b, col| {
            let ow = b.add(ow0, col);
            for v in 0..k.vectors {
                let lane = b.index(v * k.width as i64);
                let idx = [n, ocb, oh, ow, lane];
                let sums = b.vload(k.ob, &idx, k.width);
                let out = apply_epilogue(b, c, &k.epilogue, sums, &idx);
                b.vstore(out, k.ob, &idx);
            }
        });
    });
}
