// Found by codegen fuzzing (seeds 17, 205, 298). A stitched group computing f64 math
// (tanh of a cast to f64, then a reduction over rows) was vectorized, and neither
// backend has vector f64 math (it is a runtime call): "code generation does not support
// 'loop.tanh' on vector<8xf64>" (LLVM), on vector<2xf64> (Cranelift) - a compile error
// for a valid model. Fixed in compiler/lower/src/emit/fused.rs: groups with f64 exp,
// log, tanh, erf, pow, sigmoid or gelu stay scalar, as `vectorize` keeps loops.
// STANDARD: tol=1e-9
func.func @main(%x: tensor<4x16xf32>) -> tensor<4x16xf64> {
  %c = graph.cast %x : (tensor<4x16xf32>) -> tensor<4x16xf64>
  %e = graph.tanh %c : (tensor<4x16xf64>) -> tensor<4x16xf64>
  %m = graph.reduce_max %e {axes = [1], keepdims = true} : (tensor<4x16xf64>) -> tensor<4x1xf64>
  %d = graph.sub %e, %m : (tensor<4x16xf64>, tensor<4x1xf64>) -> tensor<4x16xf64>
  return %d : tensor<4x16xf64>
}
