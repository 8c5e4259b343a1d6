func.func @main(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %b = "graph.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %y = graph.conv2d %x, %w, %b {strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], groups = 1} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %r = graph.relu %y : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %p = graph.max_pool2d %r {kernel = [2, 2], strides = [2, 2]} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %t1 = graph.transpose %p {perm = [0, 2, 3, 1]} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %t2 = graph.transpose %t1 {perm = [0, 3, 1, 2]} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %c1 = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %c2 = graph.constant {value = dense<[3.0, 4.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %c3 = graph.add %c1, %c2 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %t2 : tensor<1x4x4x4xf32>
}
