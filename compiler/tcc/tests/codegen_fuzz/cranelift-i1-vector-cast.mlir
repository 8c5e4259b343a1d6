// Found by codegen fuzzing (seed 177). Cranelift only: a vectorized `loop.cast` from
// vector<4xi1> (a mask, lanes all ones) to vector<4xi32> gives -1 instead of 1 for true.
// `cast` (compiler/codegen/src/clif/translate/cast.rs) returned its operand unchanged
// when the Cranelift types were equal (i32x4 and i32x4) before reaching `mask_cast`,
// which negates the mask. Same for i1 -> i64 (i64x2 masks of compared i64). Fixed.
// STANDARD: exact
func.func @main(%a: tensor<6x10xi32>, %b: tensor<6x10xi32>) -> tensor<6x10xi32> {
  %0 = graph.less %a, %b : (tensor<6x10xi32>, tensor<6x10xi32>) -> tensor<6x10xi1>
  %1 = graph.cast %0 : (tensor<6x10xi1>) -> tensor<6x10xi32>
  return %1 : tensor<6x10xi32>
}
