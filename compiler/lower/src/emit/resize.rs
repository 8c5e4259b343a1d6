//! `graph.resize_bilinear` as loops over tables of source positions and weights along
//! each axis ([`bilinear_taps`], the op's own definition, built at compile time as
//! constant buffers). Upsampling in H (segmentation models' 8x) blends every input row
//! along W once into scratch memory, then each output row from two of those rows, in a
//! loop the vectorizer takes; otherwise each output pixel blends its four input pixels.

use std::sync::Arc;

use tcc_dialect_graph::ops::nn::{Tap, bilinear_taps};
use tcc_dialect_loop as lp;
use tcc_ir::{AttrDict, Attribute, BufferType, DenseElements, Scalar, ScalarType, TensorType, Type, Value};

use super::{OpLowering, PARALLEL_MIN_WORK, numel};
use crate::builder::Builder;

pub fn resize_bilinear(b: &mut Builder, c: &OpLowering) {
    let (xs, os) = (c.in_shape(0), c.out_shape(0));
    let align = c.flag("align_corners");
    let (h, w, oh, ow) = (xs[2], xs[3], os[2], os[3]);
    let planes = xs[0] * xs[1];
    if planes == 0 {
        return;
    }
    let [row_lo, row_hi, row_w] = tables(b, &bilinear_taps(h as usize, oh as usize, align));
    let [col_lo, col_hi, col_w] = tables(b, &bilinear_taps(w as usize, ow as usize, align));
    let x = b.view(c.ins[0], &[planes, h, w]);
    let out = b.view(c.outs[0], &[planes, oh, ow]);
    let elem = c.out_elem(0);
    let math = math_type(elem);
    let widen = move |b: &mut Builder, v: Value| if elem == math { v } else { b.cast(v, Type::Scalar(math)) };
    let narrow = move |b: &mut Builder, v: Value| if elem == math { v } else { b.cast(v, Type::Scalar(elem)) };
    let weight = move |b: &mut Builder, table: Value, i: Value| {
        let t = b.load(table, &[i]);
        if math == ScalarType::F32 { t } else { b.cast(t, Type::Scalar(math)) }
    };
    let position = |b: &mut Builder, table: Value, i: Value| {
        let p = b.load(table, &[i]);
        b.cast(p, Type::Scalar(ScalarType::Index))
    };
    // The blend along W of input row `y` of `plane` at output column `ox`.
    let along_w = move |b: &mut Builder, plane: Value, y: Value, ox: Value| {
        let (x0, x1) = (position(b, col_lo, ox), position(b, col_hi, ox));
        let wx = weight(b, col_w, ox);
        let (p0, p1) = (b.load(x, &[plane, y, x0]), b.load(x, &[plane, y, x1]));
        let (p0, p1) = (widen(b, p0), widen(b, p1));
        lerp(b, p0, p1, wx)
    };
    let parallel = numel(&os) >= PARALLEL_MIN_WORK;
    let Some(offset) = c.scratch else {
        // Each output pixel from its four input pixels.
        let row = move |b: &mut Builder, flat: Value| {
            let idx = b.unflatten(flat, &[planes, oh]);
            let (plane, oy) = (idx[0], idx[1]);
            let (y0, y1) = (position(b, row_lo, oy), position(b, row_hi, oy));
            let wy = weight(b, row_w, oy);
            b.range_n(ow, |b, ox| {
                let top = along_w(b, plane, y0, ox);
                let bottom = along_w(b, plane, y1, ox);
                let v = lerp(b, top, bottom, wy);
                let v = narrow(b, v);
                b.store(v, out, &[plane, oy, ox]);
            });
        };
        return if parallel { b.parallel(planes * oh, row) } else { b.range_n(planes * oh, row) };
    };
    // Upsampling: every input row blended along W once, into the scratch memory (the
    // same blends the output pixels would compute, so the result is the same), then the
    // output rows as blends of two of those rows, a loop the vectorizer takes.
    let rows_w = {
        let ty = Type::Buffer(Arc::new(BufferType::new(vec![planes, h, ow], math, None).expect("a scratch buffer")));
        let attrs = AttrDict::new().with("offset", Attribute::i64(offset));
        b.op_typed(&lp::WORKSPACE, &[], attrs, vec![ty])[0]
    };
    let image = move |b: &mut Builder, plane: Value| {
        b.range_n(h, |b, y| {
            b.range_n(ow, |b, ox| {
                let v = along_w(b, plane, y, ox);
                b.store(v, rows_w, &[plane, y, ox]);
            });
        });
        b.range_n(oh, |b, oy| {
            let (y0, y1) = (position(b, row_lo, oy), position(b, row_hi, oy));
            let wy = weight(b, row_w, oy);
            b.range_n(ow, |b, ox| {
                let (top, bottom) = (b.load(rows_w, &[plane, y0, ox]), b.load(rows_w, &[plane, y1, ox]));
                let v = lerp(b, top, bottom, wy);
                let v = narrow(b, v);
                b.store(v, out, &[plane, oy, ox]);
            });
        });
    };
    if parallel && planes > 1 { b.parallel(planes, image) } else { b.range_n(planes, image) }
}

/// Bytes of scratch memory `graph.resize_bilinear` needs: its input rows blended along
/// W, when it upsamples H (else it computes each output pixel from its four).
pub fn scratch_bytes(c: &OpLowering) -> usize {
    let (xs, os) = (c.in_shape(0), c.out_shape(0));
    if xs[2] >= os[2] {
        return 0;
    }
    (xs[0] * xs[1] * xs[2] * os[3]) as usize * math_type(c.out_elem(0)).byte_size()
}

/// The type blends are computed in: f32, or f64 for f64 images (the op's definition).
fn math_type(elem: ScalarType) -> ScalarType {
    if elem == ScalarType::F64 { ScalarType::F64 } else { ScalarType::F32 }
}

/// `p + (q - p) * t`, unfused (as the blends torch-mlir exports round).
fn lerp(b: &mut Builder, p: Value, q: Value, t: Value) -> Value {
    let d = b.sub(q, p);
    let s = b.mul(d, t);
    b.add(p, s)
}

/// The taps' low and high positions (i32) and weights (f32) as constant buffers.
fn tables(b: &mut Builder, taps: &[Tap]) -> [Value; 3] {
    let lo: Vec<Scalar> = taps.iter().map(|t| Scalar::Int(t.lo as i64)).collect();
    let hi: Vec<Scalar> = taps.iter().map(|t| Scalar::Int(t.hi as i64)).collect();
    let w: Vec<Scalar> = taps.iter().map(|t| Scalar::Float(t.w as f64)).collect();
    [(lo, ScalarType::I32), (hi, ScalarType::I32), (w, ScalarType::F32)].map(|(values, elem)| {
        let shape = vec![values.len() as i64];
        let ty = TensorType::new(shape.clone(), elem).expect("a 1-D table");
        let value = DenseElements::from_scalars(ty, &values).expect("one value per tap");
        let buffer = Type::Buffer(Arc::new(BufferType::new(shape, elem, None).expect("a 1-D buffer")));
        let attrs = AttrDict::new().with("value", Attribute::Dense(value));
        b.op_typed(&lp::CONSTANT_BUFFER, &[], attrs, vec![buffer])[0]
    })
}
