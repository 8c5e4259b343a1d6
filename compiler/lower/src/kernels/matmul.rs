//! Matmul templates for `graph.matmul_packed` (a constant right operand packed
//! `[N/nb, K, nb]`, shared by every row of `a`: batch dimensions fold into rows) and
//! `graph.batch_matmul` (both operands activations, `[B, M, K] x [B, K, N]`, as in
//! attention).
//!
//! A register tile is `tile_m` rows of one batch x one column block of `nb` columns
//! (`nb / width` vectors); the reduction over K broadcasts one element of `a` per row
//! and issues one FMA per vector of the block (`unroll_k` steps per loop iteration).
//! Parallel over (batch, column block, row chunk). In the last column block, when N is
//! not a multiple of `nb`, the right operand is read and the result written lane by lane
//! (the columns past N are never touched).
//!
//! A packed matmul of bf16 operands (the bf16 precision policy: `a` bf16, the right
//! operand packed in pairs of rows `[N/nb, K/2, nb, 2]`, an f32 result) calls the bf16
//! dot microkernel for every tile on targets that have it (`Target::bf16_dot`), when
//! its blocks are whole and K is even (a row's pairs then never straddle two rows);
//! else the scalar reference computes it.

use tcc_dialect_graph::GraphOp;
use tcc_dialect_graph::config::MatmulConfig;
use tcc_ir::{ScalarType, Type, Value, VectorType};
use tcc_target::BF16_DOT_LANES;

use super::{
    FusedEpilogue, MicrokernelEpilogue, MicrokernelTile, TileInput, apply_epilogue, epilogue_operands_with_bias,
    in_last_chunk, reference, vector_width, work_blocks,
};
use crate::builder::Builder;
use crate::emit::{OpLowering, numel};

struct Matmul {
    /// Batches with their own right operand (1 for a packed one) and rows of each.
    batches: i64,
    rows: i64,
    k: i64,
    n: i64,
    nb: i64,
    blocks: i64,
    width: u32,
    vectors: i64,
    tile_m: i64,
    unroll_k: i64,
    /// Prefetch the next column block's packed weights into L2 while this one runs.
    prefetch: bool,
    /// `a` as `[batches * rows, K]`, the output as `[batches * rows, N]`.
    a: Value,
    out: Value,
    /// The packed `[N/nb, K, nb]` (or bf16 `[N/nb, K/2, nb, 2]`), or the plain
    /// `[batches, K, N]`.
    b: Value,
    packed: bool,
    /// bf16 operands, the right one packed in pairs: tiles are bf16 dot microkernel calls.
    pairs: bool,
    epilogue: Vec<(Value, Vec<i64>)>,
}

/// Views an epilogue operand broadcast against `[.., M, N]` as `[rows, N']`: possible
/// when its leading dimensions all match the result's or are all 1.
fn flatten_operand(b: &mut Builder, buf: Value, shape: &[i64], out: &[i64]) -> Option<(Value, Vec<i64>)> {
    let last = *shape.last().unwrap_or(&1);
    let lead_out = &out[..out.len() - 1];
    let lead: Vec<i64> = (0..lead_out.len())
        .map(|d| {
            let off = lead_out.len() as isize - (shape.len() as isize - 1);
            let i = d as isize - off;
            if i >= 0 { shape[i as usize] } else { 1 }
        })
        .collect();
    let rows = if lead.iter().all(|&d| d == 1) {
        1
    } else if lead == lead_out {
        numel(lead_out)
    } else {
        return None;
    };
    let s = vec![rows, last];
    Some((if s == shape { buf } else { b.view(buf, &s) }, s))
}

impl Matmul {
    fn new(b: &mut Builder, c: &OpLowering) -> Option<Matmul> {
        let (sa, sb, os) = (c.in_shape(0), c.in_shape(1), c.out_shape(0));
        let packed = matches!(tcc_dialect_graph::kind(c.g.def(c.op)), Some(GraphOp::MatmulPacked));
        let pairs = packed && sb.len() == 4;
        // (A bf16 result is a narrowed one: the dot tile rounds what it stores.)
        if c.out_elem(0) != ScalarType::F32 && !(pairs && c.out_elem(0) == ScalarType::BF16) {
            return None;
        }
        let cfg = MatmulConfig::of(c.g, c.op);
        let (k, n) = (sa[sa.len() - 1], os[os.len() - 1]);
        let (batches, rows, nb, blocks) = if packed {
            (1, numel(&sa[..sa.len() - 1]), sb[2], sb[0])
        } else {
            let nb = cfg.tile_n() * c.kernel_lanes() as i64;
            (numel(&sa[..sa.len() - 2]), sa[sa.len() - 2], nb, (n + nb - 1) / nb)
        };
        let width = vector_width(c.lanes, nb)?;
        let mut epilogue = Vec::new();
        let mut bias = vec![1; os.len()];
        bias[os.len() - 1] = n;
        for (buf, shape) in epilogue_operands_with_bias(b, c, &bias) {
            epilogue.push(flatten_operand(b, buf, &shape, &os)?);
        }
        let total = batches * rows;
        Some(Matmul {
            batches,
            rows,
            k,
            n,
            nb,
            blocks,
            width,
            vectors: nb / width as i64,
            tile_m: cfg.tile_m(),
            unroll_k: cfg.unroll_k(),
            prefetch: packed && cfg.prefetch(),
            a: b.view(c.ins[0], &[total, k]),
            out: b.view(c.outs[0], &[total, n]),
            b: if packed { c.ins[1] } else { b.view(c.ins[1], &[batches, k, n]) },
            packed,
            pairs,
            epilogue,
        })
    }
}

pub fn emit(b: &mut Builder, c: &OpLowering) {
    if c.in_elem(0) == ScalarType::BF16 && !dot_applies(c) {
        return reference::matmul(b, c);
    }
    let Some(mm) = Matmul::new(b, c) else { return reference::matmul(b, c) };
    // A narrowed output (`narrow-outputs`): the dot tile stores it, each tile in one call
    // with the whole epilogue.
    if c.out_elem(0) == ScalarType::BF16 && !(mm.pairs && fusable(c, &mm).is_some_and(|f| f.narrow)) {
        return reference::matmul(b, c);
    }
    // Column blocks stored whole, and the last one if it is partial.
    let whole = if mm.n % mm.nb == 0 { mm.blocks } else { mm.blocks - 1 };
    // Row chunks of whole tiles, enough tasks for every core.
    let tiles = (mm.rows + mm.tile_m - 1) / mm.tile_m;
    let chunks = (32 / (mm.blocks * mm.batches).max(1)).clamp(1, tiles);
    let tiles_per_chunk = (tiles + chunks - 1) / chunks;
    let chunks = (tiles + tiles_per_chunk - 1) / tiles_per_chunk;
    let rows_per_chunk = tiles_per_chunk * mm.tile_m;
    let full_rows = mm.rows / mm.tile_m * mm.tile_m;
    for (first_block, count, partial) in [(0, whole, false), (whole, mm.blocks - whole, true)] {
        if count == 0 {
            continue;
        }
        if partial && mm.pairs {
            // The dot tile stores whole vectors: the last block's columns (a classifier's
            // 1000 = 62 x 16 + 8) by the reference nest.
            reference::matmul_columns(b, c, whole * mm.nb);
            continue;
        }
        let dims = [mm.batches, count, chunks];
        let flops = 2 * mm.batches * mm.rows * mm.k * (count * mm.nb).min(mm.n);
        b.parallel_in_blocks(numel(&dims), work_blocks(flops), |b, flat| {
            let idx = b.unflatten(flat, &dims);
            let (batch, chunk) = (idx[0], idx[2]);
            let first = b.index(first_block);
            let jb = b.add(first, idx[1]);
            let base = b.scale(batch, mm.rows);
            let at = Block { batch, jb, partial };
            let row0 = b.scale(chunk, rows_per_chunk);
            // With microkernels that finish the tile, the chunk's rows are one call
            // (which tiles them itself and fetches the next block's weights once).
            if let Some(isa) = whole_call(c, &mm, &at) {
                let end = b.index(rows_per_chunk);
                let end = b.add(row0, end);
                let end = b.min_const(end, mm.rows);
                let rows = b.sub(end, row0);
                let m0 = b.add(base, row0);
                microkernel_tile(b, &mm, &at, isa, m0, rows, fusable(c, &mm));
                return;
            }
            // Whole tiles of this chunk, then (in the last chunk) the tail rows.
            let tile_v = b.index(mm.tile_m);
            let lo = b.div(row0, tile_v);
            let end_rows = b.index(rows_per_chunk);
            let end = b.add(row0, end_rows);
            let cap = b.index(full_rows);
            let end = b.min(end, cap);
            let hi = b.div(end, tile_v);
            b.range(lo, hi, |b, t| {
                let m = b.scale(t, mm.tile_m);
                let m0 = b.add(base, m);
                tile(b, c, &mm, &at, m0, mm.tile_m);
            });
            let tail = mm.rows - full_rows;
            if tail > 0 {
                in_last_chunk(b, chunk, chunks, |b| {
                    let m = b.index(full_rows);
                    let m0 = b.add(base, m);
                    tile(b, c, &mm, &at, m0, tail);
                });
            }
        });
    }
}

/// Whether the bf16 dot microkernel computes bf16 matmul `c`: the target has it, the
/// right operand is packed in pairs in blocks of whole vectors and K is even (a partial
/// last block of columns is the reference nest's).
fn dot_applies(c: &OpLowering) -> bool {
    let (sa, sb) = (c.in_shape(0), c.in_shape(1));
    let k = sa[sa.len() - 1];
    c.bf16_dot && sb.len() == 4 && sb[2] % BF16_DOT_LANES == 0 && k % 2 == 0
}

/// The column block a tile computes.
struct Block {
    batch: Value,
    jb: Value,
    /// The last block, with columns past N.
    partial: bool,
}

/// Vector `v` of the right operand's row `k` in the tile's column block.
fn b_vector(b: &mut Builder, mm: &Matmul, at: &Block, k: Value, v: i64) -> Value {
    let width = mm.width as i64;
    if mm.packed {
        let lane = b.index(v * width);
        return b.load_input(mm.b, &[at.jb, k, lane], mm.width);
    }
    let col0 = b.scale(at.jb, mm.nb);
    let lane = b.index(v * width);
    let col = b.add(col0, lane);
    if !at.partial {
        return b.load_input(mm.b, &[at.batch, k, col], mm.width);
    }
    // Lane by lane, zero past the last column.
    let first = (mm.blocks - 1) * mm.nb + v * width;
    let zero = b.scalar(ScalarType::F32, 0.0);
    let ty = Type::Vector(VectorType { lanes: mm.width, elem: ScalarType::F32 });
    let mut vec = b.splat(zero, mm.width);
    for lane in 0..(mm.n - first).clamp(0, width) {
        let j = b.index(first + lane);
        let x = b.load_input(mm.b, &[at.batch, k, j], 1);
        vec = b.op_typed(
            &tcc_dialect_vector::INSERT,
            &[x, vec],
            tcc_ir::AttrDict::new().with("index", tcc_ir::Attribute::i64(lane)),
            vec![ty.clone()],
        )[0];
    }
    vec
}

/// The microkernel level that computes a chunk's rows of column block `at` in one call
/// with the whole epilogue, if any.
fn whole_call(c: &OpLowering, mm: &Matmul, at: &Block) -> Option<tcc_target::Isa> {
    let level = tile_level(c, mm, at)?;
    (c.g.regions(c.op).is_empty() || fusable(c, mm).is_some()).then_some(level)
}

/// The microkernel level that computes the tiles of column block `at`, if any: the
/// target's for whole blocks of its vectors, AVX-512 for bf16 operands (whose blocks
/// are whole, [`dot_applies`]).
fn tile_level(c: &OpLowering, mm: &Matmul, at: &Block) -> Option<tcc_target::Isa> {
    if mm.pairs {
        return Some(tcc_target::Isa::Avx512);
    }
    c.ukernels.filter(|isa| !at.partial && mm.nb % isa.lanes() as i64 == 0)
}

/// `rows` rows from global row `m0` x the column block `at`: the microkernel of the
/// target's level for whole blocks when it calls microkernels (the epilogue then runs
/// on the stored tile), else generated FMAs.
fn tile(b: &mut Builder, c: &OpLowering, mm: &Matmul, at: &Block, m0: Value, rows: i64) {
    let row_idx: Vec<Value> = (0..rows)
        .map(|r| {
            let rv = b.index(r);
            b.add(m0, rv)
        })
        .collect();
    let accs = match tile_level(c, mm, at) {
        Some(isa) => {
            let fused = fusable(c, mm);
            let count = b.index(rows);
            microkernel_tile(b, mm, at, isa, m0, count, fused);
            if c.g.regions(c.op).is_empty() || fused.is_some() {
                return;
            }
            stored_tile(b, mm, at, &row_idx)
        }
        None => generated_tile(b, mm, at, &row_idx),
    };
    store_tile(b, c, mm, at, &row_idx, &accs);
}

/// `c`'s epilogue when the microkernel can apply it: its bias is a row of the output's
/// columns (`[1, N]`) and its residual has the output's shape.
fn fusable(c: &OpLowering, mm: &Matmul) -> Option<FusedEpilogue> {
    let bias_like = |i: usize| mm.epilogue[i].1 == [1, mm.n];
    let fused = FusedEpilogue::of(c.g, c.op, bias_like).filter(|f| !(f.narrow || f.bf16_residual) || mm.pairs)?;
    let residual_fits = fused.residual.is_none_or(|i| mm.epilogue[i].1 == [mm.batches * mm.rows, mm.n]);
    (!fused.is_none() && residual_fits).then_some(fused)
}

/// The tile as one call of `isa`'s microkernel, finished by `fused` (else stored without
/// its epilogue).
fn microkernel_tile(
    b: &mut Builder,
    mm: &Matmul,
    at: &Block,
    isa: tcc_target::Isa,
    m0: Value,
    rows: Value,
    fused: Option<FusedEpilogue>,
) {
    let zero = b.index(0);
    let col0 = b.scale(at.jb, mm.nb);
    let (w, w_step) = if mm.pairs {
        (b.address(mm.b, &[at.jb, zero, zero, zero]), 2 * mm.nb)
    } else if mm.packed {
        (b.address(mm.b, &[at.jb, zero, zero]), mm.nb)
    } else {
        (b.address(mm.b, &[at.batch, zero, col0]), mm.n)
    };
    let vectors = mm.nb / isa.lanes() as i64;
    let one = b.index(1);
    // The next column block's packed weights (the last block asks for its own).
    let prefetch = if mm.prefetch {
        let next = b.add(at.jb, one);
        let next = b.min_const(next, mm.blocks - 1);
        let blocks = b.sub(next, at.jb);
        b.scale(blocks, mm.k * mm.nb)
    } else {
        b.index(0)
    };
    let epilogue = fused.map(|f| MicrokernelEpilogue {
        bias: f.bias.map(|i| b.address(mm.epilogue[i].0, &[zero, col0])),
        bias_group: 0,
        bias_row: 0,
        mask: f.mask.map(|i| b.address(mm.epilogue[i].0, &[zero, col0])),
        residual: f.residual.map(|i| b.address(mm.epilogue[i].0, &[m0, col0])),
        lo: f.lo,
        hi: f.hi,
        activation: f.activation,
        narrow: f.narrow,
        bf16_residual: f.bf16_residual,
    });
    MicrokernelTile {
        x: b.address(mm.a, &[m0, zero]),
        w,
        o: b.address(mm.out, &[m0, col0]),
        rows,
        vectors,
        accumulate: false,
        x_row: mm.k,
        o_row: mm.n,
        group_vectors: vectors,
        w_group: 0,
        o_group: 0,
        inner: if mm.pairs { mm.k / 2 } else { mm.k },
        w_step,
        levels: [(one, 0, 0), (one, 0, 0), (one, 0, 0)],
        prefetch,
        epilogue,
        out_rows: None,
        input: if mm.pairs { TileInput::Pairs } else { TileInput::Broadcast },
    }
    .call(b, isa);
}

/// A stored tile's values, in [`generated_tile`]'s accumulator order.
fn stored_tile(b: &mut Builder, mm: &Matmul, at: &Block, row_idx: &[Value]) -> Vec<Value> {
    let mut accs = Vec::new();
    for &m in row_idx {
        for v in 0..mm.vectors {
            let col0 = b.scale(at.jb, mm.nb);
            let lane0 = b.index(v * mm.width as i64);
            let col = b.add(col0, lane0);
            accs.push(b.vload(mm.out, &[m, col], mm.width));
        }
    }
    accs
}

/// The tile's accumulators (row-major: row, vector) by generated FMAs.
fn generated_tile(b: &mut Builder, mm: &Matmul, at: &Block, row_idx: &[Value]) -> Vec<Value> {
    let (width, vectors) = (mm.width, mm.vectors);
    let zero_s = b.scalar(ScalarType::F32, 0.0);
    let zero = b.splat(zero_s, width);
    let accs = vec![zero; row_idx.len() * vectors as usize];
    let step = |b: &mut Builder, k: Value, accs: &mut Vec<Value>| {
        let wv: Vec<Value> = (0..vectors).map(|v| b_vector(b, mm, at, k, v)).collect();
        if mm.prefetch {
            // Row `k` of the next column block (the last block asks for its own).
            let one = b.index(1);
            let next = b.add(at.jb, one);
            let next = b.min_const(next, mm.blocks - 1);
            for v in 0..vectors {
                let lane = b.index(v * width as i64);
                b.prefetch(mm.b, &[next, k, lane]);
            }
        }
        for (r, &m) in row_idx.iter().enumerate() {
            let av = b.load_input(mm.a, &[m, k], 1);
            let av = b.splat(av, width);
            for (v, &w) in wv.iter().enumerate() {
                let i = r * vectors as usize + v;
                accs[i] = b.fma(av, w, accs[i]);
            }
        }
    };
    let unroll = mm.unroll_k.clamp(1, mm.k.max(1));
    let main = mm.k / unroll;
    let (lo, hi, one) = (b.index(0), b.index(main), b.index(1));
    let mut accs = b.for_loop(lo, hi, one, &accs, |b, i, accs| {
        let mut accs = accs.to_vec();
        for u in 0..unroll {
            let uv = b.index(u);
            let k0 = b.scale(i, unroll);
            let k = b.add(k0, uv);
            step(b, k, &mut accs);
        }
        accs
    });
    for kk in main * unroll..mm.k {
        let k = b.index(kk);
        step(b, k, &mut accs);
    }
    accs
}

/// Applies the epilogue to a tile's accumulators and stores them (the last, partial
/// block lane by lane, only its real columns).
fn store_tile(b: &mut Builder, c: &OpLowering, mm: &Matmul, at: &Block, row_idx: &[Value], accs: &[Value]) {
    let (width, vectors) = (mm.width, mm.vectors);
    for (r, &m) in row_idx.iter().enumerate() {
        for v in 0..vectors {
            let acc = accs[r * vectors as usize + v as usize];
            let col0 = b.scale(at.jb, mm.nb);
            let lane0 = b.index(v * width as i64);
            let col = b.add(col0, lane0);
            if !at.partial {
                let idx = [m, col];
                let res = apply_epilogue(b, c, &mm.epilogue, acc, &idx);
                b.vstore(res, mm.out, &idx);
                continue;
            }
            // The last, partial block: lane by lane, only the real columns.
            let first = (mm.blocks - 1) * mm.nb + v * width as i64;
            for lane in 0..(mm.n - first).clamp(0, width as i64) {
                let x = b.extract(acc, lane as u32);
                let j = b.index(first + lane);
                let idx = [m, j];
                let res = apply_epilogue(b, c, &mm.epilogue, x, &idx);
                b.store(res, mm.out, &idx);
            }
        }
    }
}
