//! A stitched fusion group: the reductions of a group that reduce the same innermost
//! dimensions (a norm's mean and variance, a softmax's max and sum) and the
//! elementwise ops around them, as one kernel (AStitch, ASPLOS 2022).
//!
//! One loop over the rows (the dimensions before the reduced ones; on the thread pool,
//! a few rows per task; short rows two or four at a time, their loops interleaved so
//! that one row's wait for a reduction overlaps another's work, unless the runtime's
//! array math computes their exp or erf: see `offload-math`); per row, loops over
//! the row's elements: one per set of reductions that do not depend on each other (a
//! mean in f32 and in f64 share one), in dependence order, then one computing the
//! result. Values constant along a row (the reductions' results, what is computed from
//! them, broadcast inputs) are scalars computed once per row, between the loops. The
//! loops run along the contiguous innermost dimension in vectors, with several partial
//! accumulators so the combining's latency does not bound them. A row is small enough
//! to stay in cache between its loops, so the group reads its inputs from memory about
//! once. A transcendental value that a reduction's loop and the result's loop both need
//! (a softmax's exp) is written to the result buffer by the first and read back by the
//! second instead of computed twice. A sum of products accumulates with fused
//! multiply-adds.
//!
//! When a row's innermost dimension is too short for vectors (a group norm on
//! `NCHW4c` reduces `[H, W, 4]`), a loop walks several trailing dimensions as one run
//! of contiguous elements ([`Walk`]): values that vary along the run are read through
//! flat views of their buffers, and values that only repeat along it with a period
//! dividing the vector width (per-channel scales `[1, 1, 4]`) are vectors built once
//! per row from their scalars at each phase.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use tcc_dialect_graph::Reduce;
use tcc_dialect_graph::ops::fused::{self, Rows};
use tcc_dialect_loop as lp;
use tcc_dialect_vector as vp;
use tcc_ir::scalar::ScalarFn;
use tcc_ir::{AttrDict, Attribute, Op, ScalarType, Type, Value};

use super::fused::{Group, KeptValue, LoopBody};
use super::{OpLowering, PARALLEL_MIN_WORK, numel};
use crate::builder::Builder;

/// The group is stitched: it has several reductions, or its result uses one (the
/// verifier checked that they reduce the same innermost dimensions).
pub(super) fn applies(group: &Group) -> bool {
    fused::is_stitched(group.c.g, &group.ops)
}

pub(super) fn emit(b: &mut Builder, group: &Group) {
    let gm = group.c.g;
    let args: Vec<Value> = group.inputs.keys().copied().collect();
    let rows = fused::stitched_rows(gm, &group.ops, &args).expect("the verifier checked the rows");
    let outer = &rows.shape[..rows.first];
    let row_dims = &rows.shape[rows.first..];
    let result = gm.result(*group.ops.last().expect("a verified group is not empty"), 0);
    let spill = fused::kept_in_result(gm, &group.ops, &rows);
    let out = group.c.outs[0];
    let work = numel(&rows.shape) * (group.body.len() + group.reductions.len()) as i64;
    let n_rows = numel(outer);
    let chunks = group.c.scratch.and_then(|offset| {
        let count = split_chunks(&rows, group.c.cores)?;
        Some(Chunks { count, scratch: offset })
    });
    // Rows one at a time when the runtime's array math computes the group's exp or erf
    // (`offload-math` takes a loop whose functions' values tile one run of a row, in
    // chunks no longer than the row). Measured in BERT's masked softmax (Cranelift,
    // AVX-512 array math, tcc bench, three rounds): 0.375-0.405 ms against 0.418-0.427
    // in pairs with the exp inline.
    let array_math = group.c.ukernels.and_then(|i| i.math_symbol()).is_some()
        && numel(row_dims) >= crate::offload_math::CHUNK
        && group.ops.iter().any(|&o| super::fused::uses_math(gm, o));
    let together = if chunks.is_some() || array_math { 1 } else { rows_together(n_rows, numel(row_dims)) };
    let block_body = |b: &mut Builder, block: Value| {
        let first_row = b.scale(block, together as i64);
        let starts: Vec<Vec<Value>> = (0..together)
            .map(|k| {
                let off = b.index(k as i64);
                let flat = b.add(first_row, off);
                let outer_idx = b.unflatten(flat, outer);
                let zeros: Vec<Value> = row_dims.iter().map(|_| b.index(0)).collect();
                outer_idx.into_iter().chain(zeros).collect()
            })
            .collect();
        let mut row = RowState {
            group,
            rows: &rows,
            starts: &starts,
            fixed: vec![HashMap::new(); together],
            phases: vec![HashMap::new(); together],
            spill: spill.map(|value| KeptValue { value, buffer: out, written: false }),
            chunks,
        };
        if rows.constant_along_row(&group.shape(result)) {
            for (k, start) in starts.iter().enumerate() {
                let v = row.row_value(b, k, result);
                b.store(v, out, start);
            }
        } else {
            row.prepare(b, result);
            let walk = row.walk_for(&[result]);
            let loop_values = row.loop_values(b, &walk);
            let lanes = walk.lanes;
            let out = walk.view(b, out, &group.shape(result));
            let mut step = |b: &mut Builder, k: usize, idx: &[Value], _: &[Value]| {
                let memo = RefCell::new(HashMap::new());
                let v = group.eval(b, result, idx, lanes, &loop_values.env(k, &memo));
                if lanes > 1 {
                    b.vstore(v, out, idx);
                } else {
                    b.store(v, out, idx);
                }
                Vec::new()
            };
            match chunks.filter(|_| walk.split == rows.first) {
                Some(chunks) => over_chunks(b, &row, &walk, 1, chunks.count, Vec::new(), &mut step, &mut |_, _, _| {}),
                None => {
                    over_row(b, &row, &walk, 1, Vec::new(), &mut step);
                }
            }
        }
    };
    let blocks = n_rows / together as i64;
    if blocks >= 2 && work >= PARALLEL_MIN_WORK && chunks.is_none() {
        b.parallel(blocks, block_body);
    } else {
        b.range_n(blocks, block_body);
    }
}

/// Twice the elements of the rows emitted together, at most: short rows (a softmax over
/// 128 keys) pair up, so that one row's wait for a reduction between its loops overlaps
/// with the other's work. Measured inside BERT (tcc bench, Zen 5): softmax rows of 128
/// alone 0.069 ms, in pairs 0.050, in fours 0.053; layer-norm rows of 768 alone
/// 0.014 ms, in pairs 0.021 (two interleaved streams from L3 do worse than one).
const INTERLEAVED_ELEMENTS: i64 = 256;

/// How many rows each step of the row loop handles together, their passes interleaved:
/// short rows go in twos or fours (dividing the row count), long rows one at a time.
fn rows_together(n_rows: i64, row_len: i64) -> usize {
    let mut together = 1;
    while together < 4 && row_len * 2 * together as i64 <= INTERLEAVED_ELEMENTS && n_rows % (2 * together as i64) == 0 {
        together *= 2;
    }
    together
}

/// How one loop walks a row: its dimensions `first..split` as nested loops, the rest
/// as one run of `run` contiguous elements in vectors of `lanes`.
struct Walk {
    split: usize,
    run: i64,
    lanes: u32,
    /// The run spans several dimensions: buffers are seen flat from `split` on.
    flat: bool,
    /// Values that repeat along the run with a period (in elements) dividing `lanes`:
    /// vectors built once per row (flat walks).
    periodic: Vec<(Value, i64)>,
    /// The group's inputs that vary along the run (flat walks).
    varying_inputs: Vec<Value>,
}

impl Walk {
    /// `buf` (of `shape`) as the walk indexes it: flat from `split` on.
    fn view(&self, b: &mut Builder, buf: Value, shape: &[i64]) -> Value {
        if !self.flat {
            return buf;
        }
        b.view(buf, &self.flat_shape(shape))
    }

    fn flat_shape(&self, shape: &[i64]) -> Vec<i64> {
        shape[..self.split].iter().copied().chain([numel(&shape[self.split..])]).collect()
    }
}

/// What one loop's body reads besides the values it computes, per row.
struct LoopValues {
    fixed: Vec<HashMap<Value, Value>>,
    vectors: Vec<HashMap<Value, Value>>,
    flat: Option<HashMap<Value, (Value, Vec<i64>)>>,
    spill: Option<KeptValue>,
}

impl LoopValues {
    fn env<'e>(&'e self, k: usize, memo: &'e RefCell<HashMap<(Value, u32), Value>>) -> LoopBody<'e> {
        LoopBody { fixed: &self.fixed[k], vectors: &self.vectors[k], memo, spill: self.spill, flat: self.flat.as_ref() }
    }
}

/// Rows at least this long are split across the pool when there are too few of them.
const SPLIT_MIN_ROW: i64 = 1 << 14;
/// Elements of a chunk of a split row, at least.
const SPLIT_MIN_CHUNK: i64 = 1 << 12;

/// Chunks of each row for groups with too few rows to keep the pool's threads busy
/// (fewer than two per core) and long rows (a softmax over `[1, N]`): each loop over a
/// row runs its range in chunks on the pool, a reduction's chunks leaving their partial
/// results in scratch memory that the row then combines.
fn split_chunks(rows: &Rows, cores: u32) -> Option<i64> {
    let n_rows = numel(&rows.shape[..rows.first]);
    let len = numel(&rows.shape[rows.first..]);
    let cores = cores.max(2) as i64;
    (n_rows < 2 * cores && len >= SPLIT_MIN_ROW).then(|| (len / SPLIT_MIN_CHUNK).clamp(2, 4 * cores))
}

/// Bytes of scratch memory a group of `ops` reading `inputs` (or a single reduction
/// reading its operand) needs on `cores` cores: room for every reduction's partial
/// results per chunk, when its rows are split.
pub(super) fn split_scratch_bytes(gm: &tcc_ir::Module, ops: &[Op], inputs: &[Value], cores: u32) -> usize {
    let Some(rows) = fused::stitched_rows(gm, ops, inputs) else { return 0 };
    let Some(chunks) = split_chunks(&rows, cores) else { return 0 };
    let reductions = ops.iter().filter(|&&o| fused::is_group_reduction(gm, o)).count();
    reductions * Chunks::stride(chunks)
}

/// A split row's chunks and where their partial results go.
#[derive(Clone, Copy)]
struct Chunks {
    count: i64,
    /// Byte offset of the scratch memory in the workspace.
    scratch: i64,
}

impl Chunks {
    /// Bytes of one reduction's partial results (8 per chunk, 64-byte aligned).
    fn stride(count: i64) -> usize {
        (count as usize * 8).div_ceil(64) * 64
    }

    /// The buffer of the partial results of the batch's reduction `i` (of `elem`).
    fn partials(&self, b: &mut Builder, i: usize, elem: ScalarType) -> Value {
        let offset = self.scratch + (i * Chunks::stride(self.count)) as i64;
        let ty = Type::Buffer(std::sync::Arc::new(
            tcc_ir::BufferType::new(vec![self.count], elem, None).expect("a valid buffer type"),
        ));
        let attrs = AttrDict::new().with("offset", Attribute::i64(offset));
        b.op_typed(&lp::WORKSPACE, &[], attrs, vec![ty])[0]
    }
}

/// The rows being emitted together: the scalars known so far for each.
struct RowState<'a> {
    group: &'a Group<'a>,
    rows: &'a Rows,
    /// The index of each row's first element.
    starts: &'a [Vec<Value>],
    /// Per row, values constant along it, computed.
    fixed: Vec<HashMap<Value, Value>>,
    /// Per row, values that repeat along it, at a phase (element of the period).
    phases: Vec<HashMap<(Value, i64), Value>>,
    spill: Option<KeptValue>,
    /// The loops over each (single) row run in chunks on the pool.
    chunks: Option<Chunks>,
}

impl RowState<'_> {
    /// How a loop computing `targets` walks the row: the longest run of trailing
    /// dimensions that vectors can walk as one (see [`Walk`]), or, when no run of
    /// several dimensions works, the innermost dimension alone.
    fn walk_for(&self, targets: &[Value]) -> Walk {
        let rank = self.rows.shape.len();
        if let Some(walk) = (self.rows.first..rank - 1).find_map(|split| self.flat_walk(targets, split)) {
            return walk;
        }
        let run = *self.rows.shape.last().expect("rows have a dimension");
        let lanes = self.lanes_for(targets);
        Walk { split: rank - 1, run, lanes, flat: false, periodic: Vec::new(), varying_inputs: Vec::new() }
    }

    /// A walk of the dimensions from `split` on as one vectorized run, if every value
    /// the loop computes per element either varies along all of them like the rows
    /// (read flat) or repeats along them with a period dividing the vector width.
    fn flat_walk(&self, targets: &[Value], split: usize) -> Option<Walk> {
        let gm = self.group.c.g;
        let (shape, first, rank) = (&self.rows.shape, self.rows.first, self.rows.shape.len());
        let (mut varying, mut periodic, mut varying_inputs) = (Vec::new(), Vec::new(), Vec::new());
        let mut seen: HashSet<Value> = HashSet::new();
        let mut work = targets.to_vec();
        while let Some(v) = work.pop() {
            let vs = self.rows.aligned(&self.group.shape(v));
            if !seen.insert(v) || self.rows.constant_along_row(&vs) {
                continue;
            }
            if vs[split..] == shape[split..] {
                varying.push(v);
                if self.group.inputs.contains_key(&v) {
                    varying_inputs.push(v);
                } else if let Some(op) = gm.defining_op(v).filter(|o| self.group.body.contains(o)) {
                    work.extend(gm.operands(op).iter().copied());
                }
            } else {
                let t = (split + 1..rank).find(|&t| vs[first..t].iter().all(|&n| n == 1) && vs[t..] == shape[t..])?;
                periodic.push((v, numel(&shape[t..])));
            }
        }
        let values: Vec<Value> = varying.iter().copied().chain(periodic.iter().map(|&(v, _)| v)).collect();
        let widest = values.iter().map(|&v| self.group.elem(v).map_or(usize::MAX, |e| e.byte_size())).max()?;
        let lanes = self.group.vector_lanes(widest, &values)?;
        let run = numel(&shape[split..]);
        let fits = run % lanes as i64 == 0 && periodic.iter().all(|&(_, p)| lanes as i64 % p == 0);
        fits.then_some(Walk { split, run, lanes, flat: true, periodic, varying_inputs })
    }

    /// The scalars, vectors and flat views a loop walking the rows with `walk` reads.
    fn loop_values(&mut self, b: &mut Builder, walk: &Walk) -> LoopValues {
        let vectors = (0..self.starts.len())
            .map(|k| walk.periodic.iter().map(|&(v, p)| (v, self.periodic_vector(b, k, v, p, walk.lanes))).collect())
            .collect();
        let flat = walk.flat.then(|| {
            let group = self.group;
            let inputs = walk.varying_inputs.iter().map(|v| (*v, &group.inputs[v]));
            let rows = self.rows;
            inputs
                .map(|(v, (buf, shape))| {
                    let shape = rows.aligned(shape);
                    (v, (walk.view(b, *buf, &shape), walk.flat_shape(&shape)))
                })
                .collect()
        });
        let spill = self.spill.map(|s| KeptValue { buffer: walk.view(b, s.buffer, &self.group.shape(s.value)), ..s });
        LoopValues { fixed: self.fixed.clone(), vectors, flat, spill }
    }

    /// Row `k`'s vector of `lanes` elements of `v`, which repeats along the run with
    /// `period` elements: its scalars at each phase, repeated.
    fn periodic_vector(&mut self, b: &mut Builder, k: usize, v: Value, period: i64, lanes: u32) -> Value {
        let scalars: Vec<Value> = (0..period).map(|p| self.phase_value(b, k, v, p)).collect();
        let mut x = b.splat(scalars[0], lanes);
        let ty = b.ty(x).clone();
        for j in (0..lanes as i64).filter(|j| j % period != 0) {
            let attrs = AttrDict::new().with("index", Attribute::i64(j));
            x = b.op_typed(&vp::INSERT, &[scalars[(j % period) as usize], x], attrs, vec![ty.clone()])[0];
        }
        x
    }

    /// The scalar of `v` at element `phase` of row `k` (a value repeating along the row
    /// with a period longer than `phase`).
    fn phase_value(&mut self, b: &mut Builder, k: usize, v: Value, phase: i64) -> Value {
        if self.rows.constant_along_row(&self.group.shape(v)) {
            return self.row_value(b, k, v);
        }
        if let Some(&s) = self.phases[k].get(&(v, phase)) {
            return s;
        }
        let gm = self.group.c.g;
        let s = if let Some((buf, shape)) = self.group.inputs.get(&v) {
            let row = &self.rows.shape[self.rows.first..];
            let mut coords = vec![0; row.len()];
            let mut rest = phase;
            for d in (0..row.len()).rev() {
                coords[d] = rest % row[d];
                rest /= row[d];
            }
            let mut idx = self.starts[k][..self.rows.first].to_vec();
            idx.extend(coords.iter().map(|&c| b.index(c)));
            let at = super::broadcast_index(b, &idx, shape);
            b.load(*buf, &at)
        } else {
            let op = gm.defining_op(v).expect("a group value is an argument or an op's result");
            let args: Vec<Value> = gm.operands(op).iter().map(|&o| self.phase_value(b, k, o, phase)).collect();
            let inner = OpLowering::new(gm, op, Vec::new(), Vec::new()).with_lanes(self.group.c.lanes);
            super::elementwise::scalar(b, &inner, &args)
        };
        self.phases[k].insert((v, phase), s);
        s
    }

    /// Lanes of the vectors of a loop computing `targets`: as many as the widest
    /// element type among the values it computes per element fills a register with,
    /// when every such value is a float whose vector of that many lanes the target has
    /// (128 bits to its width) and the innermost dimension holds whole vectors; else 1.
    fn lanes_for(&self, targets: &[Value]) -> u32 {
        let gm = self.group.c.g;
        let values: Vec<Value> =
            targets.iter().flat_map(|&t| fused::per_element_values(gm, &self.group.ops, self.rows, t)).collect();
        let Some(widest) = values.iter().map(|&v| self.group.elem(v).map_or(usize::MAX, |e| e.byte_size())).max()
        else {
            return 1;
        };
        let lanes = self.group.vector_lanes(widest, &values).unwrap_or(1);
        let whole = self.rows.shape.last().is_some_and(|&n| n % lanes as i64 == 0);
        if whole { lanes } else { 1 }
    }

    /// Computes, for every row, the values constant along it that a loop computing `v`
    /// needs.
    fn prepare(&mut self, b: &mut Builder, v: Value) {
        let gm = self.group.c.g;
        let mut seen: HashSet<Value> = HashSet::new();
        let mut work = vec![v];
        let mut needed = Vec::new();
        while let Some(v) = work.pop() {
            if !seen.insert(v) {
                continue;
            }
            if self.rows.constant_along_row(&self.group.shape(v)) {
                needed.push(v);
            } else if let Some(op) = gm.defining_op(v).filter(|o| self.group.body.contains(o)) {
                work.extend(gm.operands(op).iter().copied());
            }
        }
        for k in 0..self.starts.len() {
            for &v in &needed {
                self.row_value(b, k, v);
            }
        }
    }

    /// The scalar value of `v` for row `k`, constant along it.
    fn row_value(&mut self, b: &mut Builder, k: usize, v: Value) -> Value {
        if let Some(&s) = self.fixed[k].get(&v) {
            return s;
        }
        let gm = self.group.c.g;
        let s = if let Some((buf, shape)) = self.group.inputs.get(&v) {
            let at = super::broadcast_index(b, &self.starts[k], shape);
            b.load(*buf, &at)
        } else {
            let op = gm.defining_op(v).expect("a group value is an argument or an op's result");
            if self.group.reductions.contains(&op) {
                self.reduce(b, op);
                return self.fixed[k][&v];
            }
            let args: Vec<Value> = gm.operands(op).iter().map(|&o| self.row_value(b, k, o)).collect();
            let inner = OpLowering::new(gm, op, Vec::new(), Vec::new()).with_lanes(self.group.c.lanes);
            super::elementwise::scalar(b, &inner, &args)
        };
        self.fixed[k].insert(v, s);
        s
    }

    /// The reductions a reduction's input needs (through values constant along rows).
    fn needs(&self, r: Op) -> Vec<Op> {
        let gm = self.group.c.g;
        let mut seen: HashSet<Value> = HashSet::new();
        let mut work = vec![gm.operand(r, 0)];
        let mut found = Vec::new();
        while let Some(v) = work.pop() {
            if !seen.insert(v) {
                continue;
            }
            let Some(op) = gm.defining_op(v) else { continue };
            if self.group.reductions.contains(&op) {
                found.push(op);
                work.push(gm.operand(op, 0));
            } else if self.group.body.contains(&op) {
                work.extend(gm.operands(op).iter().copied());
            }
        }
        found
    }

    /// Runs the loop computing reduction `r`, and every other reduction whose inputs
    /// are ready, over the rows.
    fn reduce(&mut self, b: &mut Builder, r: Op) {
        let gm = self.group.c.g;
        let together = self.starts.len();
        for dep in self.needs(r) {
            for k in 0..together {
                self.row_value(b, k, gm.result(dep, 0));
            }
        }
        let done = |me: &Self, o: Op| me.fixed[0].contains_key(&gm.result(o, 0));
        let batch: Vec<Op> = self
            .group
            .reductions
            .iter()
            .copied()
            .filter(|&o| o == r || (!done(self, o) && self.needs(o).iter().all(|&d| done(self, d))))
            .collect();
        for &o in &batch {
            self.prepare(b, gm.operand(o, 0));
        }
        let kinds: Vec<(ScalarFn, ScalarType)> = batch.iter().map(|&o| combine_of(self.group, o)).collect();
        let row_len = numel(&self.rows.shape[self.rows.first..]);
        let operands: Vec<Value> = batch.iter().map(|&o| gm.operand(o, 0)).collect();
        let walk = self.walk_for(&operands);
        let lanes = walk.lanes;
        let vectors = walk.run / lanes as i64;
        // Partial accumulators per row: four in all, so the combining's latency is hidden.
        let per_row = (4 / together as i64).max(1);
        let unroll = [4, 2, 1].into_iter().find(|&u| u <= per_row && vectors % u == 0 && vectors >= 2 * u).unwrap_or(1);
        let init: Vec<Value> = (0..unroll as usize * together)
            .flat_map(|_| kinds.clone())
            .map(|(combine, elem)| {
                let s = super::nn::identity(b, combine, elem);
                if lanes > 1 { b.splat(s, lanes) } else { s }
            })
            .collect();
        let loop_values = self.loop_values(b, &walk);
        let group = self.group;
        let mut step = |b: &mut Builder, k: usize, idx: &[Value], accs: &[Value]| -> Vec<Value> {
            let memo = RefCell::new(HashMap::new());
            let env = loop_values.env(k, &memo);
            operands
                .iter()
                .zip(accs)
                .zip(&kinds)
                .map(|((&x, &acc), &(combine, elem))| match group.product(x) {
                    // A sum of products: one fused multiply-add (one rounding fewer).
                    Some((p, q)) if combine == ScalarFn::Add && elem.is_float() => {
                        let (p, q) = (group.eval(b, p, idx, lanes, &env), group.eval(b, q, idx, lanes, &env));
                        b.fma(p, q, acc)
                    }
                    _ => {
                        let v = group.eval(b, x, idx, lanes, &env);
                        b.bin(combine, acc, v)
                    }
                })
                .collect()
        };
        // The accumulators of one row (and vector of the unroll) combined: one scalar per
        // reduction of the batch.
        let per = batch.len();
        let finish = |b: &mut Builder, parts: &[Value], k: usize| -> Vec<Value> {
            (0..per)
                .map(|i| {
                    let (combine, elem) = kinds[i];
                    let part = |u: usize| parts[(u * together + k) * per + i];
                    let mut acc = part(0);
                    for u in 1..unroll as usize {
                        acc = b.bin(combine, acc, part(u));
                    }
                    if lanes > 1 {
                        let attrs = AttrDict::new().with("kind", vp::reduce_kind(combine));
                        acc = b.op_typed(&vp::REDUCE, &[acc], attrs, vec![Type::Scalar(elem)])[0];
                    }
                    acc
                })
                .collect()
        };
        let totals: Vec<Vec<Value>> = match self.chunks.filter(|_| walk.split == self.rows.first) {
            Some(chunks) => {
                // One row in chunks on the pool; each chunk's results go to the scratch.
                let scratch: Vec<Value> =
                    kinds.iter().enumerate().map(|(i, &(_, elem))| chunks.partials(b, i, elem)).collect();
                let mut store = |b: &mut Builder, c: Value, parts: Vec<Value>| {
                    for (i, r) in finish(b, &parts, 0).into_iter().enumerate() {
                        b.store(r, scratch[i], &[c]);
                    }
                };
                over_chunks(b, self, &walk, unroll, chunks.count, init, &mut step, &mut store);
                let combined = (0..per).map(|i| {
                    let (combine, _) = kinds[i];
                    let zero = b.index(0);
                    let mut acc = b.load(scratch[i], &[zero]);
                    for c in 1..chunks.count {
                        let at = b.index(c);
                        let part = b.load(scratch[i], &[at]);
                        acc = b.bin(combine, acc, part);
                    }
                    acc
                });
                vec![combined.collect()]
            }
            None => {
                let parts = over_row(b, self, &walk, unroll, init, &mut step);
                (0..together).map(|k| finish(b, &parts, k)).collect()
            }
        };
        if let Some(s) = self.spill.as_mut().filter(|s| {
            operands.iter().any(|&x| fused::per_element_values(gm, &group.ops, self.rows, x).contains(&s.value))
        }) {
            s.written = true;
        }
        for (k, row_totals) in totals.into_iter().enumerate() {
            for (i, (&o, mut acc)) in batch.iter().zip(row_totals).enumerate() {
                if fused::group_reduction(gm, o) == Some(Reduce::Mean) {
                    let n = b.scalar(kinds[i].1, row_len as f64);
                    acc = b.bin(ScalarFn::Div, acc, n);
                }
                self.fixed[k].insert(gm.result(o, 0), acc);
            }
        }
    }
}

/// How reduction `r` combines, and its element type.
fn combine_of(group: &Group, r: Op) -> (ScalarFn, ScalarType) {
    let gm = group.c.g;
    let elem = group.elem(gm.result(r, 0)).expect("a tensor");
    let reduction = fused::group_reduction(gm, r).expect("a group's reduction");
    (reduction.combine(), elem)
}

/// Loops over the elements of the rows with `accs` threaded through, as `walk` says:
/// the rows' dimensions before the run as plain loops, the run in vectors of `lanes`,
/// `unroll` per step, every row at each; `body(b, k, index, accs)` runs for row `k` and
/// each of the `unroll` vectors of a step (at `index`, flat from the run on), with that
/// (vector, row)'s share of `accs` (which holds `unroll` x rows equal-sized groups,
/// rows within vectors).
fn over_row(
    b: &mut Builder,
    row: &RowState,
    walk: &Walk,
    unroll: i64,
    accs: Vec<Value>,
    body: &mut dyn FnMut(&mut Builder, usize, &[Value], &[Value]) -> Vec<Value>,
) -> Vec<Value> {
    let rank = row.rows.shape.len();
    let first = row.rows.first;
    let together = row.starts.len();
    let per = accs.len() / (unroll.max(1) as usize * together);
    let lanes = walk.lanes;
    let step = lanes as i64 * unroll;
    let axes: Vec<usize> = (first..walk.split).collect();
    let extents: Vec<i64> = axes.iter().map(|&d| row.rows.shape[d]).collect();
    let frame: Vec<Option<Value>> = vec![None; rank];
    super::nn::reduced_nest(b, &axes, &extents, &frame, accs, &mut |b, frame, accs| {
        let (lb, ub, st) = (b.index(0), b.index(walk.run / step), b.index(1));
        b.for_loop(lb, ub, st, &accs, |b, j, accs| {
            let base = b.scale(j, step);
            let mut next = Vec::with_capacity(accs.len());
            for u in 0..unroll as usize {
                let off = b.index(u as i64 * lanes as i64);
                let i = b.add(base, off);
                for (k, start) in row.starts.iter().enumerate() {
                    let idx: Vec<Value> = (0..=walk.split)
                        .map(|d| match d {
                            d if d < first => start[d],
                            d if d == walk.split => i,
                            d => frame[d].expect("every row dimension has an index"),
                        })
                        .collect();
                    let at = (u * together + k) * per;
                    next.extend(body(b, k, &idx, &accs[at..at + per]));
                }
            }
            next
        })
    })
}

/// Loops over one row's run (a walk without nested dimensions) in `chunks` on the pool,
/// with `accs` threaded through each chunk from their initial values, `unroll` vectors
/// per step as in [`over_row`]; `after(b, chunk, accs)` runs at the end of each chunk.
#[allow(clippy::too_many_arguments)]
fn over_chunks(
    b: &mut Builder,
    row: &RowState,
    walk: &Walk,
    unroll: i64,
    chunks: i64,
    accs: Vec<Value>,
    body: &mut dyn FnMut(&mut Builder, usize, &[Value], &[Value]) -> Vec<Value>,
    after: &mut dyn FnMut(&mut Builder, Value, Vec<Value>),
) {
    let first = row.rows.first;
    let lanes = walk.lanes;
    let step = lanes as i64 * unroll;
    let steps = walk.run / step;
    let per_chunk = (steps + chunks - 1) / chunks;
    let per = accs.len() / unroll.max(1) as usize;
    let start = &row.starts[0];
    b.parallel(chunks, |b, c| {
        let lo = b.scale(c, per_chunk);
        let len = b.index(per_chunk);
        let end = b.add(lo, len);
        let all = b.index(steps);
        let hi = b.min(end, all);
        let one = b.index(1);
        let accs = b.for_loop(lo, hi, one, &accs, |b, j, accs| {
            let base = b.scale(j, step);
            let mut next = Vec::with_capacity(accs.len());
            for u in 0..unroll as usize {
                let off = b.index(u as i64 * lanes as i64);
                let i = b.add(base, off);
                let idx: Vec<Value> = start[..first].iter().copied().chain([i]).collect();
                next.extend(body(b, 0, &idx, &accs[u * per..(u + 1) * per]));
            }
            next
        });
        after(b, c, accs);
    });
}
