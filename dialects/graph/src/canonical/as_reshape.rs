//! Data movement that leaves every element where it is becomes a `graph.reshape`, which
//! then composes with the reshapes around it (`reshape-of-reshape`) and moves through
//! elementwise ops and reductions (`reshape_sinking`). After layout blocking, the per-group
//! statistics of a group norm go through both: `NCHW4c` <-> `NCHW` on a `1x128x1x1`
//! tensor, and torch-mlir's `gather` of the per-channel scale with the indices
//! `0, 1, ..., 127`.
//!
//! - `layout-as-reshape`: a `graph.layout_transform` that moves no element (as many
//!   elements on both sides, no padding, each element at the same row-major offset,
//!   e.g. `NCHW4c` <-> `NCHW` when `H = W = 1` and the channels fill whole blocks)
//!   becomes a reshape. Decided from the layouts, whatever the extents: the flat offset
//!   of an element is a sum over the layout's letters of a per-letter offset, itself a
//!   sum of digits of the coordinate ([`crate::layout::letter_digits`]), so the transform
//!   is the identity on offsets when each letter's digits agree on both sides.
//! - `gather-as-reshape`: a `graph.gather` whose indices are a constant holding
//!   `0, 1, ..., n - 1` in row-major order (negative indices counting from the end),
//!   `n` the operand's extent on `axis`, becomes a reshape to the result's shape.

use tcc_ir::{AttrDict, Attribute, Op, Pattern, Rewriter, Value};

use super::{build, constant_value};
use crate::layout::{moves_nothing, transform_layouts_of};
use crate::ops;

pub static LAYOUT_AS_RESHAPE: Pattern = Pattern { name: "layout-as-reshape", apply: layout_as_reshape };
pub static GATHER_AS_RESHAPE: Pattern = Pattern { name: "gather-as-reshape", apply: gather_as_reshape };

/// The shape of a plain (unencoded) tensor value.
fn plain_shape(rw: &Rewriter, v: Value) -> Option<Vec<i64>> {
    rw.value_type(v).as_tensor().filter(|t| t.encoding().is_none()).map(|t| t.shape().to_vec())
}

/// Replaces the single-result `op` by a reshape of `x` to `op`'s result shape.
fn replace_by_reshape(rw: &mut Rewriter, op: Op, x: Value) -> Option<()> {
    let to = plain_shape(rw, rw.result(op, 0))?;
    let attrs = AttrDict::new().with("shape", Attribute::i64_list(&to));
    let r = build(rw, op, &ops::RESHAPE, &[x], attrs)?;
    if rw.value_type(r) != rw.value_type(rw.result(op, 0)) {
        // (Never for a well-typed op; the reshape is dead and goes with dead-code removal.)
        return None;
    }
    rw.replace_op(op, &[r]);
    Some(())
}

fn layout_as_reshape(rw: &mut Rewriter, op: Op) -> bool {
    try_layout_as_reshape(rw, op).is_some()
}

/// Whether transforming a tensor of `src_shape` in layout `src` to `dst_shape` in `dst`
/// leaves every element at its row-major offset and pads or drops nothing.
fn try_layout_as_reshape(rw: &mut Rewriter, op: Op) -> Option<()> {
    let x = rw.operand(op, 0);
    let (s, r) = (plain_shape(rw, x)?, plain_shape(rw, rw.result(op, 0))?);
    let (src, dst) = transform_layouts_of(rw.attrs(op)).ok()?;
    if !moves_nothing(&src, &dst, &s, &r) {
        return None;
    }
    replace_by_reshape(rw, op, x)
}

fn gather_as_reshape(rw: &mut Rewriter, op: Op) -> bool {
    try_gather_as_reshape(rw, op).is_some()
}

fn try_gather_as_reshape(rw: &mut Rewriter, op: Op) -> Option<()> {
    let (x, indices) = (rw.operand(op, 0), rw.operand(op, 1));
    let s = plain_shape(rw, x)?;
    let axis = rw.attr(op, "axis")?.as_i64()?;
    let axis = usize::try_from(if axis < 0 { axis + s.len() as i64 } else { axis }).ok().filter(|&a| a < s.len())?;
    let n = s[axis];
    let d = constant_value(rw, indices)?;
    if !d.elem().is_integer() || d.numel() as i64 != n {
        return None;
    }
    let in_order = (0..n).all(|i| {
        let k = d.get(i as usize).as_i64();
        (if k < 0 { k + n } else { k }) == i
    });
    if !in_order {
        return None;
    }
    replace_by_reshape(rw, op, x)
}

#[cfg(test)]
mod tests {
    use crate::layout::{Layout, moves_nothing, transform_index};

    /// The analytic decision agrees with the element-by-element plan.
    #[test]
    fn agrees_with_the_transform_plan() {
        let layouts = ["NCHW", "NHWC", "NCHW2c", "NCHW4c", "NCHW3c", "NHWC2c", "NCHW2h"];
        let shapes: Vec<Vec<i64>> = (1..=3)
            .flat_map(|n| (1..=8).flat_map(move |c| (1..=2).map(move |h| vec![n, c, h, 1])))
            .chain([vec![1, 8, 1, 2], vec![2, 6, 2, 2]])
            .collect();
        let mut identities = 0;
        for a in layouts {
            for b in layouts {
                let (src, dst) = (Layout::parse(a).unwrap(), Layout::parse(b).unwrap());
                for plain in &shapes {
                    let nchw = Layout::parse("NCHW").unwrap();
                    let Ok(s) = crate::layout::transform_shape(&nchw, &src, plain) else { continue };
                    let Ok(r) = crate::layout::transform_shape(&src, &dst, &s) else { continue };
                    let index = transform_index(&src, &dst, &s, &r).unwrap();
                    let n: i64 = s.iter().product();
                    let identity = index.len() as i64 == n && index.iter().enumerate().all(|(i, &f)| f == Some(i));
                    assert_eq!(moves_nothing(&src, &dst, &s, &r), identity, "{a} {s:?} -> {b} {r:?}");
                    identities += identity as usize;
                }
            }
        }
        assert!(identities > 50);
    }

    /// Decided from the layouts: four billion channels list nothing (listing each
    /// coordinate's offset once took 32 GB and aborted).
    #[test]
    fn huge_extents_are_decided_without_listing_them() {
        let (nchw, blocked) = (Layout::parse("NCHW").unwrap(), Layout::parse("NCHW16c").unwrap());
        let c = 1i64 << 32;
        assert!(moves_nothing(&nchw, &blocked, &[1, c, 1, 1], &[1, c / 16, 1, 1, 16]));
        assert!(!moves_nothing(&nchw, &blocked, &[1, c, 2, 2], &[1, c / 16, 2, 2, 16]));
        let one = Layout::parse("NCHW1c").unwrap();
        assert!(moves_nothing(&nchw, &one, &[1, c, 2, 2], &[1, c, 2, 2, 1]));
    }
}
