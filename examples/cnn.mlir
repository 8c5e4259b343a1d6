// A small CNN in the graph dialect: conv + batch norm (still unfolded) + relu, a
// pooled classifier, and a couple of things canonicalization removes (a transpose
// pair, an identity reshape). Try:
//   cargo run -p tcc-opt -- examples/cnn.mlir --pass-pipeline=canonicalize,cse
func.func @main(%x: tensor<1x3x16x16xf32>) -> tensor<1x10xf32> {
  %w = graph.constant {value = dense<0.125> : tensor<8x3x3x3xf32>} : () -> tensor<8x3x3x3xf32>
  %b = graph.constant {value = dense<[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]> : tensor<8xf32>} : () -> tensor<8xf32>
  %y = graph.conv2d %x, %w, %b {strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], groups = 1}
     : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
  // Batch norm as exported: (y - mean) * rsqrt(var + eps) * gamma + beta, on constants.
  %mean = graph.constant {value = dense<0.5> : tensor<8x1x1xf32>} : () -> tensor<8x1x1xf32>
  %var = graph.constant {value = dense<4.0> : tensor<8x1x1xf32>} : () -> tensor<8x1x1xf32>
  %eps = graph.constant {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %ve = graph.add %var, %eps : (tensor<8x1x1xf32>, tensor<f32>) -> tensor<8x1x1xf32>
  %inv = graph.rsqrt %ve : (tensor<8x1x1xf32>) -> tensor<8x1x1xf32>
  %c = graph.sub %y, %mean : (tensor<1x8x16x16xf32>, tensor<8x1x1xf32>) -> tensor<1x8x16x16xf32>
  %n = graph.mul %c, %inv : (tensor<1x8x16x16xf32>, tensor<8x1x1xf32>) -> tensor<1x8x16x16xf32>
  %r = graph.relu %n : (tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
  %t = graph.transpose %r {perm = [0, 2, 3, 1]} : (tensor<1x8x16x16xf32>) -> tensor<1x16x16x8xf32>
  %u = graph.transpose %t {perm = [0, 3, 1, 2]} : (tensor<1x16x16x8xf32>) -> tensor<1x8x16x16xf32>
  %p = graph.avg_pool2d %u {kernel = [16, 16], strides = [16, 16]} : (tensor<1x8x16x16xf32>) -> tensor<1x8x1x1xf32>
  %f = graph.reshape %p {shape = [1, 8]} : (tensor<1x8x1x1xf32>) -> tensor<1x8xf32>
  %same = graph.reshape %f {shape = [1, -1]} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %fc = graph.constant {value = dense<0.01> : tensor<8x10xf32>} : () -> tensor<8x10xf32>
  %logits = graph.matmul %same, %fc : (tensor<1x8xf32>, tensor<8x10xf32>) -> tensor<1x10xf32>
  %prob = graph.softmax %logits {axis = -1} : (tensor<1x10xf32>) -> tensor<1x10xf32>
  return %prob : tensor<1x10xf32>
}
