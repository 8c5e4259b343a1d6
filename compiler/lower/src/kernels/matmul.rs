//! Matmul template for `graph.matmul_packed`: `a` viewed as `[rows, K]` (batch
//! dimensions flattened), the packed operand `[N/nb, K, nb]`. A register tile is
//! `tile_m` rows x one packed column block (`nb / width` vectors); the reduction over K
//! broadcasts one element of `a` per row and issues one FMA per vector of the block,
//! unrolled by four. Parallel over (column block, row chunk). The last column block,
//! when N is not a multiple of `nb`, is stored lane by lane (the padded columns are never
//! written).

use tcc_dialect_graph::ops::kernel::config_int;
use tcc_ir::{ScalarType, Value};

use super::{apply_epilogue, config, epilogue_operands, reference, vector_width};
use crate::builder::Builder;
use crate::emit::{Ctx, numel};

/// K steps per iteration of the reduction loop.
const UNROLL_K: i64 = 4;

struct Matmul {
    rows: i64,
    k: i64,
    n: i64,
    nb: i64,
    blocks: i64,
    width: u32,
    vectors: i64,
    tile_m: i64,
    a: Value,
    bp: Value,
    out: Value,
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
    fn new(b: &mut Builder, c: &Ctx) -> Option<Matmul> {
        let (sa, sp, os) = (c.in_shape(0), c.in_shape(1), c.out_shape(0));
        if c.out_elem(0) != ScalarType::F32 {
            return None;
        }
        let width = vector_width(c.lanes, sp[2])?;
        let (k, n) = (sa[sa.len() - 1], os[os.len() - 1]);
        let rows = numel(&sa[..sa.len() - 1]);
        let mut epilogue = Vec::new();
        for (buf, shape) in epilogue_operands(c) {
            epilogue.push(flatten_operand(b, buf, &shape, &os)?);
        }
        Some(Matmul {
            rows,
            k,
            n,
            nb: sp[2],
            blocks: sp[0],
            width,
            vectors: sp[2] / width as i64,
            tile_m: config_int(config(c), "tile_m").unwrap_or(4),
            a: b.view(c.ins[0], &[rows, k]),
            bp: c.ins[1],
            out: b.view(c.outs[0], &[rows, n]),
            epilogue,
        })
    }
}

pub fn emit(b: &mut Builder, c: &Ctx) {
    let Some(mm) = Matmul::new(b, c) else { return reference::matmul_packed(b, c) };
    // Column blocks stored whole, and the last one if it is partial.
    let whole = if mm.n % mm.nb == 0 { mm.blocks } else { mm.blocks - 1 };
    // Row chunks: whole tiles, enough tasks for every core.
    let tiles = (mm.rows + mm.tile_m - 1) / mm.tile_m;
    let chunks = (32 / mm.blocks.max(1)).clamp(1, tiles);
    let tiles_per_chunk = (tiles + chunks - 1) / chunks;
    let chunks = (tiles + tiles_per_chunk - 1) / tiles_per_chunk;
    let rows_per_chunk = tiles_per_chunk * mm.tile_m;
    for (first_block, count, partial) in [(0, whole, false), (whole, mm.blocks - whole, true)] {
        if count == 0 {
            continue;
        }
        b.parallel(count * chunks, |b, flat| {
            let idx = b.unflatten(flat, &[count, chunks]);
            let first = b.index(first_block);
            let jb = b.add(first, idx[0]);
            let row0 = b.scale(idx[1], rows_per_chunk);
            // Whole tiles of this chunk, then (in the last chunk) the tail rows.
            let full_rows = mm.rows / mm.tile_m * mm.tile_m;
            let tile_v = b.index(mm.tile_m);
            let lo = b.div(row0, tile_v);
            let end_rows = b.index(rows_per_chunk);
            let end = b.add(row0, end_rows);
            let cap = b.index(full_rows);
            let end = b.min(end, cap);
            let hi = b.div(end, tile_v);
            b.range(lo, hi, |b, t| {
                let m0 = b.scale(t, mm.tile_m);
                tile(b, c, &mm, m0, mm.tile_m, jb, partial);
            });
            let tail = mm.rows - full_rows;
            if tail > 0 {
                let last = b.index(chunks - 1);
                let is_last = b.cmp("eq", idx[1], last);
                let (zero, one) = (b.index(0), b.index(1));
                let lo = b.select(is_last, zero, one);
                b.range(lo, one, |b, _| {
                    let m0 = b.index(full_rows);
                    tile(b, c, &mm, m0, tail, jb, partial);
                });
            }
        });
    }
}

/// `rows` rows from `m0` x column block `jb`.
fn tile(b: &mut Builder, c: &Ctx, mm: &Matmul, m0: Value, rows: i64, jb: Value, partial: bool) {
    let (width, vectors) = (mm.width, mm.vectors);
    let zero_s = b.scalar(ScalarType::F32, 0.0);
    let zero = b.splat(zero_s, width);
    let accs = vec![zero; (rows * vectors) as usize];
    let row_idx: Vec<Value> = (0..rows)
        .map(|r| {
            let rv = b.index(r);
            b.add(m0, rv)
        })
        .collect();
    let step = |b: &mut Builder, k: Value, accs: &mut Vec<Value>| {
        let wv: Vec<Value> = (0..vectors)
            .map(|v| {
                let lane = b.index(v * width as i64);
                b.load_input(mm.bp, &[jb, k, lane], width)
            })
            .collect();
        for (r, &m) in row_idx.iter().enumerate() {
            let av = b.load_input(mm.a, &[m, k], 1);
            let av = b.splat(av, width);
            for (v, &w) in wv.iter().enumerate() {
                let i = r * vectors as usize + v;
                accs[i] = b.fma(av, w, accs[i]);
            }
        }
    };
    let main = mm.k / UNROLL_K;
    let (lo, hi, one) = (b.index(0), b.index(main), b.index(1));
    let mut accs = b.for_loop(lo, hi, one, &accs, |b, i, accs| {
        let mut accs = accs.to_vec();
        for u in 0..UNROLL_K {
            let uv = b.index(u);
            let k0 = b.scale(i, UNROLL_K);
            let k = b.add(k0, uv);
            step(b, k, &mut accs);
        }
        accs
    });
    for kk in main * UNROLL_K..mm.k {
        let k = b.index(kk);
        step(b, k, &mut accs);
    }
    for (r, &m) in row_idx.iter().enumerate() {
        for v in 0..vectors {
            let acc = accs[r * vectors as usize + v as usize];
            let col0 = b.scale(jb, mm.nb);
            let lane0 = b.index(v * width as i64);
            let col = b.add(col0, lane0);
            if !partial {
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
