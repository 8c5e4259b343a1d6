//! Kernel templates: register-blocked loop nests for the graph dialect's kernel ops
//! (`conv2d_nchwc`, the blocked pools, `matmul_packed`) and a vectorized
//! `layout_transform`, written once for any vector width.
//!
//! A template keeps a register tile of output vectors in loop-carried values across the
//! whole reduction, issues one broadcast per group of FMAs, applies the op's epilogue to
//! the registers and stores each output vector once. What it needs from the target is
//! the vector width ([`vector_width`]); everything else comes from the op's shapes and
//! its `config` attribute. Each template falls back to the scalar reference nests of
//! [`reference`] when a shape does not fit it, and is tested against them and against
//! the interpreter.
//!
//! Shared here: splitting an output row into runs of columns with the same in-bounds
//! window taps ([`row_runs`]), so interiors have no bounds checks, and covering it with
//! tiles ([`for_each_tile`] per run, [`edge_tiles`] with the edges in the first and last
//! tiles); and applying an epilogue region to values in registers ([`apply_epilogue`]).

pub mod conv;
pub mod conv_rows;
pub mod layout;
pub mod matmul;
pub mod pool;
pub mod reference;

use std::collections::HashMap;
use std::sync::Arc;

use tcc_dialect_graph::semantics;
use tcc_dialect_loop as lp;
use tcc_ir::scalar::Compare;
use tcc_ir::{AttrDict, Attribute, BufferType, DenseElements, ScalarType, TensorType, Type, Value};

use crate::builder::Builder;
use crate::emit::OpLowering;
use crate::emit::elementwise;

/// The vector width a template uses for a channel block of `block` lanes: the widest
/// power of two of at least 4 lanes that the target has (`lanes`) and that divides the
/// block, or `None` (the scalar reference nest is used then).
pub fn vector_width(lanes: u32, block: i64) -> Option<u32> {
    let mut w = lanes;
    while w >= 4 {
        if block % w as i64 == 0 {
            return Some(w);
        }
        w /= 2;
    }
    None
}

/// A run of consecutive output columns whose window taps `[lo, hi)` are exactly the
/// ones that land inside the input: a row splits into a left edge, an interior and a
/// right edge (or more runs for large padding), each compiled without bounds checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub start: i64,
    pub len: i64,
    pub taps: (i64, i64),
}

/// Work per block of a kernel's parallel loop, in FLOPs: about 7 us at the 512-bit FMA
/// peak of a Zen 5 core (29 us at a 128-bit one: Cranelift without microkernels),
/// against the one atomic increment with which a thread claims a block.
const BLOCK_FLOPS: i64 = 1 << 21;

/// The blocks (`loop.parallel`'s `blocks`) of a kernel's parallel loop doing `flops` in
/// all: one per [`BLOCK_FLOPS`], when that is more than one. The pool's default, a few
/// blocks per thread, lets a thread that starts late leave a large block for the end: a
/// 432-channel pointwise convolution at 14x14 (RegNet-X 3.2GF) in 27 tasks ran at 73-80%
/// of two cores' peak in 8 blocks and 80-87% a task a block (Zen 5).
pub fn work_blocks(flops: i64) -> Option<i64> {
    Some(flops / BLOCK_FLOPS).filter(|&b| b > 1)
}

/// The runs of an output row of `out` columns reading an input row of `size` through a
/// window of `taps` taps with `stride`, `dilation` and left padding `pad`.
pub fn row_runs(out: i64, size: i64, taps: i64, stride: i64, dilation: i64, pad: i64) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for o in 0..out {
        let base = o * stride - pad;
        let inside = |k: i64| (0..size).contains(&(base + k * dilation));
        let lo = (0..taps).find(|&k| inside(k));
        let taps = lo.map_or((0, 0), |lo| (lo, (lo..taps).take_while(|&k| inside(k)).last().unwrap_or(lo) + 1));
        match runs.last_mut() {
            Some(r) if r.taps == taps => r.len += 1,
            _ => runs.push(Run { start: o, len: 1, taps }),
        }
    }
    runs
}

/// The widths of the tiles covering `len` columns with tiles of at most `tile`: whole
/// tiles and the rest. A short rest (under half a tile) would run with too few
/// accumulators to hide the FMA latency, so it is merged with the last whole tile and
/// the two are split evenly: 14 columns in tiles of 13 are 7 + 7, not 13 + 1.
pub fn tile_widths(len: i64, tile: i64) -> Vec<i64> {
    let (full, rest) = (len / tile, len % tile);
    let mut widths = vec![tile; full as usize];
    if rest > 0 && full > 0 && 2 * rest < tile {
        widths.pop();
        widths.extend([(tile + rest + 1) / 2, (tile + rest) / 2]);
    } else if rest > 0 {
        widths.push(rest);
    }
    widths
}

/// Calls `tile(b, first_column, columns)` for tiles of at most `tile` columns covering
/// a run: a loop over the leading whole tiles, then the last ones of [`tile_widths`].
pub fn for_each_tile(b: &mut Builder, run: Run, tile: i64, mut body: impl FnMut(&mut Builder, Value, i64)) {
    let widths = tile_widths(run.len, tile);
    let looped = widths.iter().take_while(|&&w| w == tile).count() as i64;
    if looped > 1 {
        b.range_n(looped, |b, t| {
            let start = b.index(run.start);
            let first = b.mul_add(t, tile, start);
            body(b, first, tile);
        });
    } else if looped == 1 {
        let start = b.index(run.start);
        body(b, start, tile);
    }
    let mut first = run.start + looped * tile;
    for &width in &widths[looped as usize..] {
        let at = b.index(first);
        body(b, at, width);
        first += width;
    }
}

/// Covers an output row of `runs` with tiles of at most `tile_w` columns: head tiles
/// over the left edge, a loop over whole interior tiles, tail tiles over the rest (with
/// the right edge); short rows are all head. `tile(b, first_column, taps)` emits a tile
/// whose column `i` reads kernel columns `taps[i]` (compile-time positions at the head
/// and tail, each column with its own taps); `interior(b, start, columns, taps)` may
/// take the whole interior at once instead of the loop (and says whether it did).
pub fn edge_tiles(
    b: &mut Builder,
    tile_w: i64,
    runs: &[Run],
    interior: impl FnOnce(&mut Builder, i64, i64, (i64, i64)) -> bool,
    mut tile: impl FnMut(&mut Builder, Value, &[(i64, i64)]),
) {
    let ow_n = runs.iter().map(|r| r.start + r.len).max().unwrap_or(0);
    let taps_of = |col: i64| runs.iter().find(|r| (r.start..r.start + r.len).contains(&col)).expect("covered").taps;
    let fixed_tile =
        |b: &mut Builder, tile: &mut dyn FnMut(&mut Builder, Value, &[(i64, i64)]), first: i64, end: i64| {
            let ow0 = b.index(first);
            let taps: Vec<(i64, i64)> = (first..end).map(taps_of).collect();
            tile(b, ow0, &taps);
        };
    let middle = runs.iter().max_by_key(|r| r.len).filter(|r| r.len >= tile_w);
    let (left, right) = match middle {
        Some(r) if ow_n > 4 * tile_w => (r.start, ow_n - r.start - r.len),
        _ => (ow_n, 0),
    };
    let head_end = ((left + tile_w - 1) / tile_w * tile_w).min(ow_n);
    let mut whole = (ow_n - right - head_end).max(0) / tile_w;
    // A short rest goes with the last interior tile (see `tile_widths`).
    let rest = ow_n - head_end - whole * tile_w;
    if whole > 0 && rest > 0 && 2 * rest < tile_w {
        whole -= 1;
    }
    let mid_end = head_end + whole * tile_w;
    let mut first = 0;
    for width in tile_widths(head_end, tile_w) {
        fixed_tile(b, &mut tile, first, first + width);
        first += width;
    }
    if whole > 0 && !interior(b, head_end, whole * tile_w, taps_of(head_end)) {
        let interior_taps = vec![taps_of(head_end); tile_w as usize];
        let (lo, hi) = (b.index(0), b.index(whole));
        b.range(lo, hi, |b, i| {
            let start = b.index(head_end);
            let ow0 = b.mul_add(i, tile_w, start);
            tile(b, ow0, &interior_taps);
        });
    }
    let mut first = mid_end;
    for width in tile_widths(ow_n - mid_end, tile_w) {
        fixed_tile(b, &mut tile, first, first + width);
        first += width;
    }
}

/// Runs `body` only in the last of `chunks` column chunks (`chunk` is the task's), the
/// tail code emitted once.
pub fn in_last_chunk(b: &mut Builder, chunk: Value, chunks: i64, body: impl FnOnce(&mut Builder)) {
    let last = b.index(chunks - 1);
    let is_last = b.cmp(Compare::Eq, chunk, last);
    once_if(b, is_last, true, body);
}

/// Runs `body` once where `cond` is `when`, else not: a loop of one or zero iterations.
pub fn once_if(b: &mut Builder, cond: Value, when: bool, body: impl FnOnce(&mut Builder)) {
    let (zero, one) = (b.index(0), b.index(1));
    let lo = if when { b.select(cond, zero, one) } else { b.select(cond, one, zero) };
    b.range(lo, one, |b, _| body(b));
}

pub use tcc_dialect_graph::epilogue::{Activation, FusedEpilogue};

/// One call of the broadcast-tile microkernel (`tcc_ukernels::Tile`, whose fields
/// these are): `x`, `w` and `o` are element addresses (`Builder::address`), the
/// reduction levels' counts may vary at run time, everything else is known when the
/// kernel is compiled. Strides count elements.
pub struct MicrokernelTile {
    pub x: Value,
    pub w: Value,
    pub o: Value,
    /// Rows (output columns or matrix rows): the microkernel splits them into tiles its
    /// registers hold.
    pub rows: Value,
    pub vectors: i64,
    pub accumulate: bool,
    pub x_row: i64,
    pub o_row: i64,
    pub group_vectors: i64,
    pub w_group: i64,
    pub o_group: i64,
    pub inner: i64,
    pub w_step: i64,
    /// `(count, input stride, weight stride)`, outermost first.
    pub levels: [(Value, i64, i64); 3],
    /// The distance to the weights to prefetch into L2 at each step (0: none).
    pub prefetch: Value,
    /// The epilogue's bias and residual addresses (the residual at the tile's first
    /// row), the bias group stride and the clamp; `None`: the sums are stored.
    pub epilogue: Option<MicrokernelEpilogue>,
    /// How the input is read and combined.
    pub input: TileInput,
    /// `(count, input stride, output stride)`: the tile repeated over output rows
    /// (`tcc_ukernels::Tile::out_rows`); `None`: one.
    pub out_rows: Option<(Value, i64, i64)>,
}

/// How a [`MicrokernelTile`] reads its input and combines it (`tcc_ukernels::Reduce`).
#[derive(Copy, Clone, Debug)]
pub enum TileInput {
    /// One element per row and step, broadcast, times the weight vectors (a
    /// convolution, a matmul).
    Broadcast,
    /// Pairs of bf16 elements per row and step, broadcast, times pair-packed bf16
    /// weight vectors into f32 sums: the bf16 dot tile (`tcc_ukernels::dot`; `x` and
    /// `w` are bf16, strides count bf16 elements, `inner` counts pairs).
    Pairs,
    /// Vectors (a depthwise convolution, a pool), `step` elements apart from one step to
    /// the next and `group` apart from one group of vectors to the next, combined by
    /// `reduce`; the result divided by `divisor` (a pool's average), if given.
    Vectors { step: i64, group: i64, reduce: VectorReduce, divisor: Option<Value> },
}

/// How vector inputs combine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VectorReduce {
    /// Times the weight vectors, lane by lane.
    Fma,
    Max,
    Sum,
}

/// The epilogue of a [`MicrokernelTile`] (`tcc_ukernels::Epilogue`).
pub struct MicrokernelEpilogue {
    pub bias: Option<Value>,
    pub bias_group: i64,
    /// Not 0: one bias value per row, this many elements apart (rows are channels).
    pub bias_row: i64,
    /// Laid out as the bias.
    pub mask: Option<Value>,
    pub residual: Option<Value>,
    pub lo: f32,
    pub hi: f32,
    pub activation: Activation,
    /// The output is bf16 (the dot tile rounds what it stores).
    pub narrow: bool,
    /// The residual is bf16 (the dot tile widens what it adds).
    pub bf16_residual: bool,
}

impl MicrokernelTile {
    /// Emits the call for microkernels of level `isa`.
    pub fn call(&self, b: &mut Builder, isa: tcc_target::Isa) {
        let mut args = vec![self.x, self.w, self.o, self.rows];
        let narrow = self.epilogue.as_ref().is_some_and(|e| e.narrow);
        let bf16_residual = self.epilogue.as_ref().is_some_and(|e| e.bf16_residual);
        let activation = match self.epilogue.as_ref().map_or(Activation::None, |e| e.activation) {
            Activation::None => 0,
            Activation::Sigmoid => tcc_target::OUTPUT_SIGMOID,
            Activation::Silu => tcc_target::OUTPUT_SILU,
        };
        let output = if self.accumulate { tcc_target::OUTPUT_ACCUMULATE } else { 0 }
            + if narrow { tcc_target::OUTPUT_BF16 } else { 0 }
            + if bf16_residual { tcc_target::OUTPUT_BF16_RESIDUAL } else { 0 }
            + activation;
        for v in [
            self.vectors,
            output,
            self.x_row,
            self.o_row,
            self.group_vectors,
            self.w_group,
            self.o_group,
            self.inner,
            self.w_step,
        ] {
            args.push(b.index(v));
        }
        for (count, x, w) in self.levels {
            args.push(count);
            args.push(b.index(x));
            args.push(b.index(w));
        }
        args.push(self.prefetch);
        let none = MicrokernelEpilogue {
            bias: None,
            bias_group: 0,
            bias_row: 0,
            mask: None,
            residual: None,
            lo: f32::NEG_INFINITY,
            hi: f32::INFINITY,
            activation: Activation::None,
            narrow: false,
            bf16_residual: false,
        };
        let e = self.epilogue.as_ref().unwrap_or(&none);
        let null = b.index(0);
        args.push(e.bias.unwrap_or(null));
        args.push(b.index(e.bias_group));
        args.push(b.index(e.bias_row));
        args.push(e.mask.unwrap_or(null));
        args.push(e.residual.unwrap_or(null));
        args.push(b.index(e.lo.to_bits() as i64));
        args.push(b.index(e.hi.to_bits() as i64));
        // x_vector, x_step, x_group, reduce (tcc_ukernels::Reduce's codes), divisor.
        let (codes, divisor) = match self.input {
            TileInput::Broadcast | TileInput::Pairs => ([0, 0, 0, 0], None),
            TileInput::Vectors { step, group, reduce, divisor } => {
                let code = match reduce {
                    VectorReduce::Fma => 0,
                    VectorReduce::Max => 1,
                    VectorReduce::Sum => 2,
                };
                ([1, step, group, code], divisor)
            }
        };
        for v in codes {
            args.push(b.index(v));
        }
        args.push(divisor.unwrap_or(null));
        let (count, x_out_row, o_out_row) = self.out_rows.unwrap_or_else(|| (b.index(1), 0, 0));
        args.extend([count, b.index(x_out_row), b.index(o_out_row)]);
        b.microkernel(isa, matches!(self.input, TileInput::Pairs), &args);
    }
}

/// Where an epilogue operand of shape `shape` is read for the output element at `idx`
/// (numpy broadcasting, dimensions aligned right), and whether its innermost dimension
/// is broadcast (then one scalar is loaded and splatted).
fn operand_index(b: &mut Builder, shape: &[i64], idx: &[Value]) -> (Vec<Value>, bool) {
    let offset = idx.len() - shape.len();
    let at: Vec<Value> =
        shape.iter().enumerate().map(|(d, &n)| if n == 1 { b.index(0) } else { idx[d + offset] }).collect();
    (at, shape.last().is_none_or(|&n| n == 1))
}

/// The epilogue operands of kernel op `c.op`: each buffer with its shape.
pub fn epilogue_operands(c: &OpLowering) -> Vec<(Value, Vec<i64>)> {
    let from = semantics(c.g.def(c.op)).and_then(|s| s.epilogue_from).unwrap_or(c.ins.len());
    (from..c.ins.len()).map(|i| (c.ins[i], c.in_shape(i))).collect()
}

/// [`epilogue_operands`], with the operand the microkernels would add as the bias, if
/// it is a constant of one f32 value (through reshapes: a bias of zeros that
/// canonicalization shrank to one element), as a constant buffer of `bias` shape holding
/// that value, so that they can add it.
pub fn epilogue_operands_with_bias(b: &mut Builder, c: &OpLowering, bias: &[i64]) -> Vec<(Value, Vec<i64>)> {
    let from = semantics(c.g.def(c.op)).and_then(|s| s.epilogue_from).unwrap_or(c.ins.len());
    let mut operands = epilogue_operands(c);
    let scalar = |k: usize| {
        let mut v = c.g.operand(c.op, from + k);
        while let Some(d) = c.g.defining_op(v).filter(|&d| c.g.is(d, &tcc_dialect_graph::ops::RESHAPE)) {
            v = c.g.operand(d, 0);
        }
        let value = tcc_dialect_graph::canonical::constant_value(c.g, v)?;
        (value.numel() == 1 && value.elem() == ScalarType::F32).then(|| value.get(0))
    };
    let squeezed = |s: &[i64]| s.iter().skip_while(|&&d| d == 1).copied().collect::<Vec<i64>>();
    let is_bias = |k: usize| squeezed(&operands[k].1) == squeezed(bias) || scalar(k).is_some();
    let Some(k) = FusedEpilogue::of(c.g, c.op, is_bias).and_then(|f| f.bias) else { return operands };
    let (Some(value), Ok(ty), Ok(buffer)) = (
        scalar(k).filter(|_| operands[k].1 != bias),
        TensorType::new(bias.to_vec(), ScalarType::F32),
        BufferType::new(bias.to_vec(), ScalarType::F32, None),
    ) else {
        return operands;
    };
    let attrs = AttrDict::new().with("value", Attribute::Dense(DenseElements::splat(ty, value)));
    let buf = b.op_typed(&lp::CONSTANT_BUFFER, &[], attrs, vec![Type::Buffer(Arc::new(buffer))])[0];
    operands[k] = (buf, bias.to_vec());
    operands
}

/// Applies the epilogue region of kernel op `c.op` (if any) to `acc`, the raw result at
/// output index `idx` (the innermost index is the first lane of `acc`, a vector or a
/// scalar). The epilogue operands (buffer and shape, as [`epilogue_operands`] gives
/// them, possibly viewed to the template's index space) are loaded broadcast at `idx`.
pub fn apply_epilogue(
    b: &mut Builder,
    c: &OpLowering,
    operands: &[(Value, Vec<i64>)],
    acc: Value,
    idx: &[Value],
) -> Value {
    let g = c.g;
    let Some(&region) = g.regions(c.op).first() else { return acc };
    let block = g.region_blocks(region)[0];
    let width = b.ty(acc).as_vector().map_or(1, |v| v.lanes);
    let mut values: HashMap<Value, Value> = HashMap::new();
    let args = g.block_args(block);
    values.insert(args[0], acc);
    // Plain loads, not `load_input`'s movable ones: a per-channel operand (a bias) is
    // invariant over a row's tiles, and a backend free to move it hoists it out of the
    // tile loop, where it holds a register across the reduction (Cranelift then spilled
    // an accumulator).
    for (&arg, (buf, shape)) in args[1..].iter().zip(operands) {
        let (at, splat) = operand_index(b, shape, idx);
        let v = if splat {
            let s = b.vload(*buf, &at, 1);
            b.splat(s, width)
        } else {
            b.vload(*buf, &at, width)
        };
        values.insert(arg, v);
    }
    for op in g.block_ops(block) {
        let operands: Vec<Value> = g.operands(op).iter().map(|v| values[v]).collect();
        if g.def(op).has(tcc_ir::Traits::TERMINATOR) {
            return operands[0];
        }
        let inner = OpLowering::new(g, op, Vec::new(), Vec::new());
        let r = elementwise::scalar(b, &inner, &operands);
        values.insert(g.result(op, 0), r);
    }
    unreachable!("a verified epilogue ends with graph.yield")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_split_into_edges_and_interior() {
        // 3-tap window, stride 1, pad 1 on an 8-wide row: one left-edge column, six
        // interior ones, one right-edge column.
        let r = row_runs(8, 8, 3, 1, 1, 1);
        assert_eq!(
            r,
            vec![
                Run { start: 0, len: 1, taps: (1, 3) },
                Run { start: 1, len: 6, taps: (0, 3) },
                Run { start: 7, len: 1, taps: (0, 2) }
            ]
        );
        // Stride 2, pad 3, 7 taps (ResNet's stem) on 16 columns -> 8 outputs.
        let r = row_runs(8, 16, 7, 2, 1, 3);
        assert_eq!(r[0], Run { start: 0, len: 1, taps: (3, 7) });
        assert_eq!(r[1], Run { start: 1, len: 1, taps: (1, 7) });
        assert_eq!(r[2].taps, (0, 7));
        // Padding larger than the row: a window can miss the input entirely.
        let r = row_runs(3, 1, 1, 1, 1, 1);
        let taps: Vec<(i64, i64)> = r.iter().map(|r| r.taps).collect();
        assert_eq!(taps, vec![(0, 0), (0, 1), (0, 0)]);
        assert_eq!(vector_width(16, 32), Some(16));
        assert_eq!(vector_width(16, 8), Some(8));
        assert_eq!(vector_width(4, 16), Some(4));
        assert_eq!(vector_width(4, 2), None);
        assert_eq!(vector_width(16, 1), None);
    }

    #[test]
    fn short_rests_are_balanced_with_the_last_whole_tile() {
        assert_eq!(tile_widths(14, 13), vec![7, 7]);
        assert_eq!(tile_widths(28, 13), vec![13, 8, 7]);
        assert_eq!(tile_widths(49, 14), vec![14, 14, 14, 7]);
        assert_eq!(tile_widths(39, 13), vec![13, 13, 13]);
        assert_eq!(tile_widths(5, 13), vec![5]);
        for len in 1..100 {
            for tile in 1..20 {
                let w = tile_widths(len, tile);
                assert_eq!(w.iter().sum::<i64>(), len);
                assert!(w.iter().all(|&x| x >= 1 && x <= tile));
            }
        }
    }
}
