// Found by codegen fuzzing (while reducing seed 211). A stitched group whose result is
// i1 (a comparison of x - max(x)): the group was vectorized and Cranelift stored each
// vector<4xi1> mask as 16 bytes into the 4-byte slots of the i1 output: wrong values and
// a heap overflow past the output ("free(): invalid pointer", the process aborted).
// Fixed with fused-i1-input-mask.mlir (compiler/lower/src/emit/fused.rs).
// STANDARD: exact
func.func @main(%x: tensor<4x16xf32>) -> tensor<4x16xi1> {
  %c = graph.constant {value = dense<-0.5> : tensor<f32>} : () -> tensor<f32>
  %m = graph.reduce_max %x {axes = [1], keepdims = true} : (tensor<4x16xf32>) -> tensor<4x1xf32>
  %d = graph.sub %x, %m : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  %g = graph.greater %d, %c : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xi1>
  return %g : tensor<4x16xi1>
}
