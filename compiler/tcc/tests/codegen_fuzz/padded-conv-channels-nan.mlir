// Found by codegen fuzzing (seeds 2554, 2805). Both backends: two blocked convs, the
// first with an infinite input. block-layouts pads channels to whole blocks with zero
// filter and bias lanes, assuming the padded output channels are zero; but
// inf * 0 = NaN, so the first conv's padded channels are NaN, and the second conv reads
// them with its zero-padded filter lanes: NaN * 0 = NaN lands in every real output
// (here 5 channels padded to 8 on Cranelift, 16 with AVX-512). The interpreter gives
// +inf. Finite inputs are unaffected.
// STANDARD: tol=1e-3
func.func @main(%x: tensor<1x4x3x3xf32>) -> tensor<1x1x3x3xf32> {
  %a = graph.abs %x : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %one = graph.constant {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %p = graph.add %a, %one : (tensor<1x4x3x3xf32>, tensor<f32>) -> tensor<1x4x3x3xf32>
  %zero = graph.constant {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %inf = graph.div %p, %zero : (tensor<1x4x3x3xf32>, tensor<f32>) -> tensor<1x4x3x3xf32>
  %w1 = graph.constant {value = dense<1.0> : tensor<5x4x1x1xf32>} : () -> tensor<5x4x1x1xf32>
  %y = graph.conv2d %inf, %w1 : (tensor<1x4x3x3xf32>, tensor<5x4x1x1xf32>) -> tensor<1x5x3x3xf32>
  %w2 = graph.constant {value = dense<1.0> : tensor<1x5x1x1xf32>} : () -> tensor<1x5x1x1xf32>
  %z = graph.conv2d %y, %w2 : (tensor<1x5x3x3xf32>, tensor<1x5x1x1xf32>) -> tensor<1x1x3x3xf32>
  return %z : tensor<1x1x3x3xf32>
}
