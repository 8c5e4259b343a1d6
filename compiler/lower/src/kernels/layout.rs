//! `graph.layout_transform`: every destination element reads the source element with
//! the same logical coordinates, or is zero when a coordinate lies in the padding of a
//! block (see `tcc_dialect_graph::layout`). Three lowerings:
//!
//! - a transform that keeps the element order (`NCHW` -> `NCHW1c`, unit dimensions) is a
//!   flat copy, which the vectorizer takes;
//! - `NCHW` <-> `NCHW{b}c` with `b` a multiple of the vector width is a vectorized
//!   transpose: `L` rows of `L` elements loaded as vectors, transposed in registers by
//!   `log2 L` rounds of lane interleaving (`vector.shuffle`), stored as vectors; padded
//!   channels are zero vectors (packing) or not stored (unpacking);
//! - anything else is a scalar nest computing each element's source index.

use std::collections::BTreeMap;

use tcc_dialect_graph::layout::{Layout, transform_layouts_sig, transform_sizes};
use tcc_dialect_vector as vp;
use tcc_ir::scalar::{Compare, ScalarFn};
use tcc_ir::{AttrDict, Attribute, Value};

use super::vector_width;
use crate::builder::Builder;
use crate::emit::{OpLowering, nest, numel};

pub fn emit(b: &mut Builder, c: &OpLowering) {
    let (src, dst) = transform_layouts_sig(&c.sig()).expect("verified layouts");
    let (is, os) = (c.in_shape(0), c.out_shape(0));
    if keeps_order(&src, &dst, &is, &os) {
        let n = numel(&os);
        let (x, y) = (b.view(c.ins[0], &[n]), b.view(c.outs[0], &[n]));
        return nest(b, &[n], n, |b, idx| {
            let v = b.load(x, idx);
            b.store(v, y, idx);
        });
    }
    // `c.lanes` counts f32 lanes: a register holds half as many f64 (or i64) elements;
    // i1 elements are bytes, not vector lanes: scalar.
    let lanes = match c.in_elem(0).byte_size() {
        4 => c.lanes,
        8 => c.lanes / 2,
        _ => 0,
    };
    if src == Layout::nchw()
        && let Some(bk) = dst.channel_block()
        && let Some(l) = vector_width(lanes, bk)
    {
        return transpose(b, c, bk, l as i64, true);
    }
    if dst == Layout::nchw()
        && let Some(bk) = src.channel_block()
        && let Some(l) = vector_width(lanes, bk)
    {
        return transpose(b, c, bk, l as i64, false);
    }
    scalar(b, c, &src, &dst);
}

/// Whether the transform moves no element: every element keeps its flat position
/// (decided from the layouts, not element by element).
fn keeps_order(src: &Layout, dst: &Layout, is: &[i64], os: &[i64]) -> bool {
    tcc_dialect_graph::layout::moves_nothing(src, dst, is, os)
}

/// `lanes` vectors transposed: result `j` holds lane `j` of every input, in order.
fn transpose_vectors(b: &mut Builder, rows: Vec<Value>) -> Vec<Value> {
    let l = rows.len();
    let (lo, hi): (Vec<i64>, Vec<i64>) = (
        (0..l / 2).flat_map(|i| [i as i64, (i + l) as i64]).collect(),
        (l / 2..l).flat_map(|i| [i as i64, (i + l) as i64]).collect(),
    );
    let mut r = rows;
    for _ in 0..l.trailing_zeros() {
        let mut next = Vec::with_capacity(l);
        for i in 0..l / 2 {
            for mask in [&lo, &hi] {
                let attrs = AttrDict::new().with("mask", Attribute::i64_list(mask));
                next.push(b.op(&vp::SHUFFLE, &[r[i], r[i + l / 2]], attrs));
            }
        }
        r = next;
    }
    r
}

/// `NCHW` -> `NCHW{bk}c` (`pack`) or back, `l` lanes a vector (`bk % l == 0`).
fn transpose(b: &mut Builder, c: &OpLowering, bk: i64, l: i64, pack: bool) {
    let (plain, blocked) = if pack { (c.in_shape(0), c.out_shape(0)) } else { (c.out_shape(0), c.in_shape(0)) };
    let (pb, bb) = if pack { (c.ins[0], c.outs[0]) } else { (c.outs[0], c.ins[0]) };
    let (n, channels, h, w) = (plain[0], plain[1], plain[2], plain[3]);
    let blocks = blocked[1];
    let elem = c.out_elem(0);
    let whole = channels / bk;
    // Whole blocks, then the padded last one (its real channel count known here).
    for (first, count, real) in [(0, whole, bk), (whole, blocks - whole, channels - whole * bk)] {
        if count == 0 {
            continue;
        }
        let dims = [n, count, h];
        b.parallel(numel(&dims), |b, flat| {
            let idx = b.unflatten(flat, &dims);
            let first_v = b.index(first);
            let (ni, cb, hi) = (idx[0], b.add(first_v, idx[1]), idx[2]);
            let channel = |b: &mut Builder, lane: i64| {
                let base = b.scale(cb, bk);
                let off = b.index(lane);
                b.add(base, off)
            };
            for sub in 0..bk / l {
                let lanes: Vec<i64> = (sub * l..sub * l + l).collect();
                let zero_s = b.scalar(elem, 0.0);
                let zero = b.splat(zero_s, l as u32);
                // Columns in groups of `l`: a vector transpose each.
                let (lo, hi_w) = (b.index(0), b.index(w / l));
                b.range(lo, hi_w, |b, g| {
                    let w0 = b.scale(g, l);
                    let rows: Vec<Value> = if pack {
                        lanes
                            .iter()
                            .map(|&ln| {
                                if ln >= real {
                                    return zero;
                                }
                                let ch = channel(b, ln);
                                b.load_input(pb, &[ni, ch, hi, w0], l as u32)
                            })
                            .collect()
                    } else {
                        (0..l)
                            .map(|j| {
                                let jv = b.index(j);
                                let wj = b.add(w0, jv);
                                let lane = b.index(sub * l);
                                b.load_input(bb, &[ni, cb, hi, wj, lane], l as u32)
                            })
                            .collect()
                    };
                    let cols = transpose_vectors(b, rows);
                    for (j, col) in cols.into_iter().enumerate() {
                        if pack {
                            let jv = b.index(j as i64);
                            let wj = b.add(w0, jv);
                            let lane = b.index(sub * l);
                            b.vstore(col, bb, &[ni, cb, hi, wj, lane]);
                        } else if lanes[j] < real {
                            let ch = channel(b, lanes[j]);
                            b.vstore(col, pb, &[ni, ch, hi, w0]);
                        }
                    }
                });
                // The last columns one element at a time.
                let (lo, hi_w) = (b.index(w / l * l), b.index(w));
                b.range(lo, hi_w, |b, wi| {
                    for &ln in &lanes {
                        let lane = b.index(ln);
                        if ln >= real {
                            if pack {
                                b.store(zero_s, bb, &[ni, cb, hi, wi, lane]);
                            }
                            continue;
                        }
                        let ch = channel(b, ln);
                        if pack {
                            let v = b.load(pb, &[ni, ch, hi, wi]);
                            b.store(v, bb, &[ni, cb, hi, wi, lane]);
                        } else {
                            let v = b.load(bb, &[ni, cb, hi, wi, lane]);
                            b.store(v, pb, &[ni, ch, hi, wi]);
                        }
                    }
                });
            }
        });
    }
}

fn scalar(b: &mut Builder, c: &OpLowering, src: &Layout, dst: &Layout) {
    let (is, os) = (c.in_shape(0), c.out_shape(0));
    let sizes = transform_sizes(src, dst, &is, &os).expect("verified shapes");
    let elem = c.out_elem(0);
    nest(b, &os, numel(&os), |b, idx| {
        // Logical coordinate of each letter from the destination index...
        let mut logical: BTreeMap<char, Value> = BTreeMap::new();
        for ((letter, mult, _), &i) in dst.components().into_iter().zip(idx) {
            let term = b.scale(i, mult as i64);
            let sum = match logical.get(&letter) {
                Some(&acc) => b.add(acc, term),
                None => term,
            };
            logical.insert(letter, sum);
        }
        // ...whether it is padding...
        let mut inside: Option<Value> = None;
        for (letter, &size) in &sizes {
            let capacity: i64 = dst.logical_sizes(&os).expect("verified shape")[letter];
            if capacity > size {
                let lim = b.index(size);
                let ok = b.cmp(Compare::Lt, logical[letter], lim);
                inside = Some(match inside {
                    Some(prev) => b.bin(ScalarFn::And, prev, ok),
                    None => ok,
                });
            }
        }
        // ...and the source index of those coordinates (clamped into range for padding).
        let from: Vec<Value> = src
            .components()
            .into_iter()
            .map(|(letter, mult, block)| {
                let mut coord = logical[&letter];
                if inside.is_some() {
                    let last = b.index(sizes[&letter] - 1);
                    coord = b.min(coord, last);
                }
                let m = b.index(mult as i64);
                let q = b.div(coord, m);
                match block {
                    Some(bs) => {
                        let bv = b.index(bs as i64);
                        b.rem(q, bv)
                    }
                    None => q,
                }
            })
            .collect();
        let mut v = b.load(c.ins[0], &from);
        if let Some(ok) = inside {
            let zero = b.scalar(elem, 0.0);
            v = b.select(ok, v, zero);
        }
        b.store(v, c.outs[0], idx);
    });
}
