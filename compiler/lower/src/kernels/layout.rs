//! `graph.layout_transform`: every destination element reads the source element with
//! the same logical coordinates, or is zero when a coordinate lies in the padding of a
//! block (see `tcc_dialect_graph::layout`).

use std::collections::BTreeMap;

use tcc_dialect_graph::layout::{Layout, transform_sizes};
use tcc_dialect_loop as lp;
use tcc_ir::Value;

use crate::builder::Builder;
use crate::emit::{Ctx, nest, numel};

pub fn emit(b: &mut Builder, c: &Ctx) {
    let src = Layout::parse(&c.string("src")).expect("verified layout");
    let dst = Layout::parse(&c.string("dst")).expect("verified layout");
    let (is, os) = (c.in_shape(0), c.out_shape(0));
    let sizes = transform_sizes(&src, &dst, &is, &os).expect("verified shapes");
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
                let ok = b.cmp("lt", logical[letter], lim);
                inside = Some(match inside {
                    Some(prev) => b.bin(&lp::AND, prev, ok),
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
