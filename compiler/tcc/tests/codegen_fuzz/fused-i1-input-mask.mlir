// Found by codegen fuzzing (seed 211). A softmax written out over rows, masked by an
// i1 *input* (select of -inf): the fusion group vectorized the i1 input, and Cranelift
// loaded a vector<4xi1> from the byte-per-element buffer as 128-bit mask lanes (16 bytes
// for 4 elements: wrong lanes, reads past the row). Fixed in
// compiler/lower/src/emit/fused.rs: as `vectorize`, fusion groups never access an i1
// buffer in vectors (only masks computed in the group are vectors).
// STANDARD: tol=1e-5
func.func @main(%x: tensor<2x8xf32>, %m: tensor<2x8xi1>) -> tensor<2x8xf32> {
  %c = graph.constant {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %s = graph.select %m, %c, %x : (tensor<2x8xi1>, tensor<f32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %mx = graph.reduce_max %s {axes = [1], keepdims = true} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %d = graph.sub %s, %mx : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  %e = graph.exp %d : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %sum = graph.reduce_sum %e {axes = [1], keepdims = true} : (tensor<2x8xf32>) -> tensor<2x1xf32>
  %y = graph.div %e, %sum : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
