// Found by codegen fuzzing (seed 100). A blocked conv whose result is cast to f64:
// propagate-layouts leaves an f64 `NCHW4c -> NCHW` transform, which was lowered as a
// transpose of vector<4xf64> (the f32 lane count): "the Cranelift backend has 128-bit
// vectors only", a compile error. Fixed in compiler/lower/src/kernels/layout.rs: the
// lane count is the vector width over the element size (8-byte elements: half).
// STANDARD: tol=1e-5
func.func @main(%x: tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf64> {
  %w = graph.constant {value = dense<0.5> : tensor<4x4x1x1xf32>} : () -> tensor<4x4x1x1xf32>
  %y = graph.conv2d %x, %w : (tensor<1x4x5x5xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x5x5xf32>
  %z = graph.cast %y : (tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf64>
  return %z : tensor<1x4x5x5xf64>
}
