module @m attributes {foo.bar = 3 : i32} {
  func.func @main(%x: tensor<2x3xf32>, %i: tensor<2xi64>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
    %w = graph.constant {value = dense_resource<w> : tensor<3xf32>} : () -> tensor<3xf32>
    %0 = graph.add %x, %w : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %1:2 = graph.split %0 {axis = 1, sizes = [1, 2]} : (tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x2xf32>)
    %2 = graph.concat %1#0, %1#1 {axis = 1} : (tensor<2x1xf32>, tensor<2x2xf32>) -> tensor<2x3xf32>
    %3 = "graph.transpose"(%2) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %4 = graph.reshape %3 {shape = [2, -1]} : (tensor<3x2xf32>) -> tensor<2x3xf32>
    %5 = graph.gather %4, %i {axis = 0} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
    %c = graph.constant {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 0x7FC00000]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %6 = graph.mul %c, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %7 = graph.softmax %6 {axis = -1} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %5, %7 : tensor<2x3xf32>, tensor<2x3xf32>
  }
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F0000004000004040"
    }
  }
#-}
