//! What an op costs to run, counted from its definition and types: floating-point
//! operations (multiply-adds as two; only the compute-bound ops, convolutions and
//! matmuls, are counted) and the bytes it reads and writes once each. `tcc bench`'s
//! GFLOP/s figures and the rewrite search's analytical cost model both use these.

use tcc_ir::{Module, Op, Value};

use crate::GraphOp;
use crate::config::{ConvClass, ConvGeometry};
use crate::ops::kernel::LOGICAL_CHANNELS;

fn shape(m: &Module, v: Value) -> Vec<i64> {
    m.value_type(v).as_tensor().map(|t| t.shape().to_vec()).unwrap_or_default()
}

fn numel(s: &[i64]) -> u64 {
    s.iter().map(|&d| d.max(0) as u64).product()
}

/// Floating-point operations of `op` (0 for ops that are not compute-bound), as the
/// computation the op stands for does them: a convolution's multiply-add per output
/// element and tap of its group's input channels that reads the image (not padding),
/// counted on the channels before a blocked convolution padded them to whole blocks; a
/// matmul's per output element and reduction step.
pub fn flops(m: &Module, op: Op) -> u64 {
    let (Some(&out), Some(&a)) = (m.results(op).first(), m.operands(op).first()) else { return 0 };
    match crate::kind_of(m, op) {
        Some(GraphOp::Conv2d | GraphOp::Conv2dNchwc) => conv_flops(m, op).unwrap_or(0),
        Some(GraphOp::Matmul | GraphOp::MatmulPacked | GraphOp::BatchMatmul) => {
            let a = shape(m, a);
            2 * numel(&shape(m, out)) * a.last().map_or(0, |&k| k.max(0) as u64)
        }
        _ => 0,
    }
}

/// `2 * N * O * (C / groups)` per pair of an output pixel and a kernel tap that reads
/// the image, not its padding, of a plain or blocked convolution: a tap on padding
/// multiplies a zero (DeepLabV3's atrous convolutions, dilation 36 on 28x28 maps, read
/// the image with one tap of nine; counting all nine reported 3.8 TFLOP/s on one
/// core). Padding made explicit (a `graph.pad` of the input, `materialize-padding`'s)
/// counts as padding too.
fn conv_flops(m: &Module, op: Op) -> Option<u64> {
    let g = ConvGeometry::of(m, op)?;
    let y = shape(m, m.result(op, 0));
    let (pairs, _) = image_taps(m, op)?;
    let logical = m.attr(op, LOGICAL_CHANNELS).and_then(|a| a.as_i64_list());
    let (c, o) = match logical.as_deref() {
        Some(&[c, o]) => (c, o),
        _ => (g.in_channels, g.out_channels),
    };
    // A depthwise convolution's groups are its channels (padded, when blocked).
    let groups = if g.class() == ConvClass::Depthwise { c } else { g.groups };
    let per_group = c / groups.max(1);
    Some(2 * numel(&[y[0], o, per_group]) * pairs)
}

/// The pairs of an output pixel and a kernel tap of convolution `op` that read the
/// image, and all pairs (`OH * OW * KH * KW`). Padding made explicit (a zero `graph.pad`
/// of the input's rows and columns) counts as padding.
pub fn image_taps(m: &Module, op: Op) -> Option<(u64, u64)> {
    let g = ConvGeometry::of(m, op)?;
    let y = shape(m, m.result(op, 0));
    let mut x = m.operand(op, 0);
    let mut pads = g.pads;
    if let Some(pad) = m.defining_op(x).filter(|&p| m.is(p, &crate::ops::PAD)) {
        let ints = |name: &str| m.attr(pad, name).and_then(|a| a.as_i64_list()).unwrap_or_default();
        let (low, high) = (ints("low"), ints("high"));
        let zero = m.attr(pad, "value").and_then(|a| a.as_f64()).is_none_or(|v| v == 0.0);
        let spatial_only = low.len() >= 4 && (0..low.len()).all(|d| d == 2 || d == 3 || (low[d] == 0 && high[d] == 0));
        if zero && spatial_only && high.len() == low.len() {
            pads = [pads[0] + low[2], pads[1] + low[3], pads[2] + high[2], pads[3] + high[3]];
            x = m.operand(pad, 0);
        }
    }
    let xs = shape(m, x);
    if xs.len() < 4 || y.len() < 4 {
        return None;
    }
    let taps = |axis: usize| {
        let (extent, out) = (xs[2 + axis], y[2 + axis]);
        (0..out)
            .map(|o| {
                (0..g.kernel[axis])
                    .filter(|&t| (0..extent).contains(&(o * g.strides[axis] - pads[axis] + t * g.dilations[axis])))
                    .count() as u64
            })
            .sum::<u64>()
    };
    let all = numel(&[y[2], y[3], g.kernel[0], g.kernel[1]]);
    Some((taps(0) * taps(1), all))
}

fn bytes(m: &Module, v: Value) -> u64 {
    let t = m.value_type(v);
    let elem = t.elem().map_or(4, |e| e.byte_size().max(1) as u64);
    t.as_tensor().map_or(0, |t| numel(t.shape()) * elem)
}

/// Bytes `op` reads (each operand once) and writes (each result once).
pub fn bytes_moved(m: &Module, op: Op) -> u64 {
    m.operands(op).iter().chain(m.results(op)).map(|&v| bytes(m, v)).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FLOPs of the first op of `@main` in `body` (graph dialect, arguments `args`).
    fn flops_of(args: &str, result: &str, body: &str) -> u64 {
        let text = format!("func.func @main({args}) -> {result} {{\n  %0 = {body}\n  return %0 : {result}\n}}");
        let m = tcc_ir::parse_bytes("t.mlir", text.as_bytes(), &crate::registry()).unwrap_or_else(|d| panic!("{d}"));
        let entry = tcc_ir::builtin::func_entry(&m, m.func("main").unwrap()).unwrap();
        flops(&m, m.block_ops(entry).next().unwrap())
    }

    fn conv(x: &str, w: &str, y: &str, attrs: &str) -> u64 {
        let (x, w, y) = (format!("tensor<{x}xf32>"), format!("tensor<{w}xf32>"), format!("tensor<{y}xf32>"));
        flops_of(&format!("%x: {x}, %w: {w}"), &y, &format!("graph.conv2d %x, %w {{{attrs}}} : ({x}, {w}) -> {y}"))
    }

    /// Pairs of an output position and a tap that read the image along one axis, by hand:
    /// 6 positions, 3 taps, padding 1: the first and last position lose a tap.
    const EDGE6: u64 = 6 * 3 - 2;

    #[test]
    fn convolutions_count_one_multiply_add_per_tap_of_their_group() {
        // 2 * N * O * (C / groups) * (output pixel, tap) pairs on the image, by hand.
        assert_eq!(conv("1x8x6x6", "16x8x3x3", "1x16x6x6", "pads = [1, 1, 1, 1]"), 2 * 16 * 8 * EDGE6 * EDGE6);
        // No padding: every tap reads the image.
        assert_eq!(conv("1x8x6x6", "16x8x3x3", "1x16x4x4", ""), 2 * 16 * 8 * 16 * 9);
        // Stride 2 from 6 with padding 1: positions 0, 2, 4 read taps -1..1, 1..3, 3..5.
        assert_eq!(
            conv("1x8x6x6", "16x8x3x3", "1x16x3x3", "pads = [1, 1, 1, 1], strides = [2, 2]"),
            2 * 16 * 8 * 8 * 8
        );
        // Dilation 2 widens the window, not the work per tap.
        assert_eq!(conv("1x8x8x8", "16x8x3x3", "1x16x4x4", "dilations = [2, 2]"), 2 * 16 * 16 * 8 * 9);
        // Four groups of 2 input channels.
        assert_eq!(
            conv("2x8x6x6", "16x2x3x3", "2x16x6x6", "pads = [1, 1, 1, 1], groups = 4"),
            2 * 2 * 16 * 2 * EDGE6 * EDGE6
        );
        // Depthwise, and with a channel multiplier of 2.
        assert_eq!(conv("1x8x6x6", "8x1x3x3", "1x8x6x6", "pads = [1, 1, 1, 1], groups = 8"), 2 * 8 * EDGE6 * EDGE6);
        assert_eq!(conv("1x8x6x6", "16x1x3x3", "1x16x6x6", "pads = [1, 1, 1, 1], groups = 8"), 2 * 16 * EDGE6 * EDGE6);
        // A 3-channel stem, 7x7 at stride 2 with padding 3 from 8: positions 0..4 start at
        // -3, -1, 1, 3 and read 4, 6, 7, 5 taps.
        assert_eq!(conv("1x3x8x8", "4x3x7x7", "1x4x4x4", "pads = [3, 3, 3, 3], strides = [2, 2]"), 2 * 4 * 3 * 22 * 22);
        // An atrous convolution, dilation 36 on 6x6 with padding 36: one tap of nine reads
        // the image.
        assert_eq!(
            conv("1x8x6x6", "16x8x3x3", "1x16x6x6", "pads = [36, 36, 36, 36], dilations = [36, 36]"),
            2 * 16 * 8 * 36
        );
    }

    /// Padding made explicit by a `graph.pad` of the input counts as padding.
    #[test]
    fn explicit_padding_is_not_work() {
        let (x, p, w, y) =
            ("tensor<1x8x6x6xf32>", "tensor<1x8x8x8xf32>", "tensor<16x8x3x3xf32>", "tensor<1x16x6x6xf32>");
        let text = format!(
            "func.func @main(%x: {x}, %w: {w}) -> {y} {{\n\
               %p = graph.pad %x {{low = [0, 0, 1, 1], high = [0, 0, 1, 1]}} : ({x}) -> {p}\n\
               %0 = graph.conv2d %p, %w : ({p}, {w}) -> {y}\n\
               return %0 : {y}\n}}"
        );
        let m = tcc_ir::parse_bytes("t.mlir", text.as_bytes(), &crate::registry()).unwrap_or_else(|d| panic!("{d}"));
        let entry = tcc_ir::builtin::func_entry(&m, m.func("main").unwrap()).unwrap();
        let conv = m.block_ops(entry).nth(1).unwrap();
        assert_eq!(flops(&m, conv), 2 * 16 * 8 * EDGE6 * EDGE6);
    }

    #[test]
    fn matmuls_count_one_multiply_add_per_reduction_step() {
        let f = flops_of(
            "%a: tensor<2x8x16xf32>, %b: tensor<16x10xf32>",
            "tensor<2x8x10xf32>",
            "graph.matmul %a, %b : (tensor<2x8x16xf32>, tensor<16x10xf32>) -> tensor<2x8x10xf32>",
        );
        assert_eq!(f, 2 * 2 * 8 * 10 * 16);
        // Packed weights: the padded columns are not counted (the result has the real 10).
        let f = flops_of(
            "%a: tensor<8x16xf32>, %b: tensor<3x16x4xf32>",
            "tensor<8x10xf32>",
            "graph.matmul_packed %a, %b : (tensor<8x16xf32>, tensor<3x16x4xf32>) -> tensor<8x10xf32>",
        );
        assert_eq!(f, 2 * 8 * 10 * 16);
        let f = flops_of(
            "%a: tensor<8x16xf32>",
            "tensor<8x16xf32>",
            "graph.relu %a : (tensor<8x16xf32>) -> tensor<8x16xf32>",
        );
        assert_eq!(f, 0);
    }
}
