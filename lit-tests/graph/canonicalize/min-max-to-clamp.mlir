// The min-max-to-clamp and clamp-of-clamp patterns: ReLU6 as exported
// (maximum with 0, then minimum with 6) becomes one clamp.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// CHECK-LABEL: func.func @relu6(%arg0: tensor<1x4x2x2xf32>)
// CHECK-NEXT: %0 = graph.clamp %arg0 {max = 6.0, min = 0.0} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
// CHECK-NEXT: return %0
func.func @relu6(%x: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %zero = graph.constant {value = dense<0.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %six = graph.constant {value = dense<6.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %0 = graph.max %x, %zero : (tensor<1x4x2x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x2x2xf32>
  %1 = graph.min %six, %0 : (tensor<1x1x1x1xf32>, tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  return %1 : tensor<1x4x2x2xf32>
}

// Nested clamps intersect their ranges.
// CHECK-LABEL: func.func @nested(%arg0: tensor<4xf32>)
// CHECK-NEXT: %0 = graph.clamp %arg0 {max = 3.0, min = 1.0}
func.func @nested(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.clamp %x {min = 0.0, max = 3.0} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.clamp %0 {min = 1.0, max = 5.0} : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// Kept: the constant is not a splat; it broadcasts x to a larger shape; integers;
// disjoint ranges (the result is a constant, not a clamp).
// CHECK-LABEL: func.func @kept
// CHECK: graph.max %arg0
// CHECK: graph.max %arg1
// CHECK: graph.min %arg2
// CHECK: graph.clamp
// CHECK-NEXT: graph.clamp
func.func @kept(%x: tensor<2xf32>, %y: tensor<1xf32>, %i: tensor<2xi32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xi32>, tensor<2xf32>) {
  %c = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %s = graph.constant {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %k = graph.constant {value = dense<3> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = graph.max %x, %c : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = graph.max %y, %s : (tensor<1xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = graph.min %i, %k : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %3 = graph.clamp %x {min = 0.0, max = 1.0} : (tensor<2xf32>) -> tensor<2xf32>
  %4 = graph.clamp %3 {min = 2.0, max = 3.0} : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2, %4 : tensor<2xf32>, tensor<2xf32>, tensor<2xi32>, tensor<2xf32>
}
