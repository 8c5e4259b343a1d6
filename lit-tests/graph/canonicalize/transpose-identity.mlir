// The transpose-identity pattern: a transpose by the identity permutation is its
// operand.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// CHECK-LABEL: func.func @identity(%arg0: tensor<2x3x4xf32>, %arg1: tensor<5xi64>, %arg2: tensor<f32>, %arg3: tensor<3x3xi1>)
// CHECK-NEXT: return %arg0, %arg0, %arg1, %arg2, %arg3 :
// CHECK-NEXT: }
func.func @identity(%x: tensor<2x3x4xf32>, %v: tensor<5xi64>, %s: tensor<f32>, %b: tensor<3x3xi1>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<5xi64>, tensor<f32>, tensor<3x3xi1>) {
  %0 = graph.transpose %x {perm = [0, 1, 2]} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %1 = graph.transpose %x {perm = array<i64: 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2 = graph.transpose %v {perm = [0]} : (tensor<5xi64>) -> tensor<5xi64>
  %3 = graph.transpose %s {perm = []} : (tensor<f32>) -> tensor<f32>
  %4 = graph.transpose %b {perm = [0, 1]} : (tensor<3x3xi1>) -> tensor<3x3xi1>
  return %0, %1, %2, %3, %4 : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<5xi64>, tensor<f32>, tensor<3x3xi1>
}

// A real permutation stays, even when the result type equals the operand type (a
// square matrix, or equal extents).
// CHECK-LABEL: func.func @not_identity(%arg0: tensor<2x3x4xf32>, %arg1: tensor<3x3xi1>, %arg2: tensor<2x2x2xf32>)
// CHECK-NEXT: %0 = graph.transpose %arg0 {perm = [0, 2, 1]} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
// CHECK-NEXT: %1 = graph.transpose %arg1 {perm = [1, 0]} : (tensor<3x3xi1>) -> tensor<3x3xi1>
// CHECK-NEXT: %2 = graph.transpose %arg2 {perm = [2, 1, 0]} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
// CHECK-NEXT: return %0, %1, %2 :
// CHECK-NEXT: }
func.func @not_identity(%x: tensor<2x3x4xf32>, %b: tensor<3x3xi1>, %c: tensor<2x2x2xf32>) -> (tensor<2x4x3xf32>, tensor<3x3xi1>, tensor<2x2x2xf32>) {
  %0 = graph.transpose %x {perm = [0, 2, 1]} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %1 = graph.transpose %b {perm = [1, 0]} : (tensor<3x3xi1>) -> tensor<3x3xi1>
  %2 = graph.transpose %c {perm = [2, 1, 0]} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  return %0, %1, %2 : tensor<2x4x3xf32>, tensor<3x3xi1>, tensor<2x2x2xf32>
}
