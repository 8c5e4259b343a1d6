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
/// element and tap of its group's input channels, counted on the channels before a
/// blocked convolution padded them to whole blocks; a matmul's per output element and
/// reduction step.
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

/// `2 * N * OH * OW * O * (C / groups) * KH * KW` of a plain or blocked convolution.
fn conv_flops(m: &Module, op: Op) -> Option<u64> {
    let g = ConvGeometry::of(m, op)?;
    let y = shape(m, m.result(op, 0));
    let pixels = numel(&[y[0], y[2], y[3]]);
    let logical = m.attr(op, LOGICAL_CHANNELS).and_then(|a| a.as_i64_list());
    let (c, o) = match logical.as_deref() {
        Some(&[c, o]) => (c, o),
        _ => (g.in_channels, g.out_channels),
    };
    // A depthwise convolution's groups are its channels (padded, when blocked).
    let groups = if g.class() == ConvClass::Depthwise { c } else { g.groups };
    let per_group = c / groups.max(1);
    Some(2 * pixels * numel(&[o, per_group, g.kernel[0], g.kernel[1]]))
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

    #[test]
    fn convolutions_count_one_multiply_add_per_tap_of_their_group() {
        // 2 * N * OH * OW * O * (C / groups) * KH * KW, by hand.
        assert_eq!(conv("1x8x6x6", "16x8x3x3", "1x16x6x6", "pads = [1, 1, 1, 1]"), 2 * 36 * 16 * 8 * 9);
        // Stride 2: a quarter of the pixels.
        assert_eq!(
            conv("1x8x6x6", "16x8x3x3", "1x16x3x3", "pads = [1, 1, 1, 1], strides = [2, 2]"),
            2 * 9 * 16 * 8 * 9
        );
        // Dilation 2 widens the window, not the work per tap.
        assert_eq!(conv("1x8x8x8", "16x8x3x3", "1x16x4x4", "dilations = [2, 2]"), 2 * 16 * 16 * 8 * 9);
        // Four groups of 2 input channels.
        assert_eq!(conv("2x8x6x6", "16x2x3x3", "2x16x6x6", "pads = [1, 1, 1, 1], groups = 4"), 2 * 2 * 36 * 16 * 2 * 9);
        // Depthwise, and with a channel multiplier of 2.
        assert_eq!(conv("1x8x6x6", "8x1x3x3", "1x8x6x6", "pads = [1, 1, 1, 1], groups = 8"), 2 * 36 * 8 * 9);
        assert_eq!(conv("1x8x6x6", "16x1x3x3", "1x16x6x6", "pads = [1, 1, 1, 1], groups = 8"), 2 * 36 * 16 * 9);
        // A 3-channel stem.
        assert_eq!(conv("1x3x8x8", "4x3x7x7", "1x4x4x4", "pads = [3, 3, 3, 3], strides = [2, 2]"), 2 * 16 * 4 * 3 * 49);
    }

    #[test]
    fn blocked_convolutions_count_their_logical_channels() {
        let blocked = |x: &str, w: &str, y: &str, attrs: &str| {
            let (x, w, y) = (format!("tensor<{x}xf32>"), format!("tensor<{w}xf32>"), format!("tensor<{y}xf32>"));
            let body = format!("graph.conv2d_nchwc %x, %w {{{attrs}}} : ({x}, {w}) -> {y}");
            flops_of(&format!("%x: {x}, %w: {w}"), &y, &body)
        };
        // 8 -> 16 channels in blocks of 4 (no padding): the lanes are not a factor.
        assert_eq!(blocked("1x2x6x6x4", "4x2x3x3x4x4", "1x4x6x6x4", "pads = [1, 1, 1, 1]"), 2 * 36 * 16 * 8 * 9);
        // 6 -> 10 channels padded to 8 -> 12: the logical channels count.
        let padded = "pads = [1, 1, 1, 1], logical_channels = [6, 10]";
        assert_eq!(blocked("1x2x6x6x4", "3x2x3x3x4x4", "1x3x6x6x4", padded), 2 * 36 * 10 * 6 * 9);
        // Depthwise on 6 channels padded to 8.
        let dw = "pads = [1, 1, 1, 1], groups = 8, logical_channels = [6, 6]";
        assert_eq!(blocked("1x2x6x6x4", "2x1x3x3x1x4", "1x2x6x6x4", dw), 2 * 36 * 6 * 9);
        // A stem with unblocked input channels (a block of 1).
        assert_eq!(
            blocked("1x3x8x8x1", "1x3x7x7x1x4", "1x1x4x4x4", "pads = [3, 3, 3, 3], strides = [2, 2]"),
            2 * 16 * 4 * 3 * 49
        );
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
