// The reshape-of-reshape pattern: reshape(reshape(x)) is one reshape of x; when that
// reshape gives x's own type it disappears (same-type-identity).
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// CHECK-LABEL: func.func @compose(%arg0: tensor<2x3x4xf32>)
// CHECK-NEXT: %0 = graph.reshape %arg0 {shape = [4, 6]} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: return %0 : tensor<4x6xf32>
// CHECK-NEXT: }
func.func @compose(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = graph.reshape %x {shape = [24]} : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %1 = graph.reshape %0 {shape = [4, 6]} : (tensor<24xf32>) -> tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// A -1 in the outer shape resolves against the same element count.
// CHECK-LABEL: func.func @inferred_dimension(%arg0: tensor<2x3x4xi64>)
// CHECK-NEXT: %0 = graph.reshape %arg0 {shape = [-1, 2]} : (tensor<2x3x4xi64>) -> tensor<12x2xi64>
// CHECK-NEXT: return %0
func.func @inferred_dimension(%x: tensor<2x3x4xi64>) -> tensor<12x2xi64> {
  %0 = graph.reshape %x {shape = [6, 4]} : (tensor<2x3x4xi64>) -> tensor<6x4xi64>
  %1 = graph.reshape %0 {shape = [-1, 2]} : (tensor<6x4xi64>) -> tensor<12x2xi64>
  return %1 : tensor<12x2xi64>
}

// Back to the original shape: nothing is left.
// CHECK-LABEL: func.func @round_trip(%arg0: tensor<2x3xf32>)
// CHECK-NEXT: return %arg0 : tensor<2x3xf32>
// CHECK-NEXT: }
func.func @round_trip(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.reshape %x {shape = [3, 2]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = graph.reshape %0 {shape = [6]} : (tensor<3x2xf32>) -> tensor<6xf32>
  %2 = graph.reshape %1 {shape = [2, 3]} : (tensor<6xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}

// The inner reshape stays while something else uses it.
// CHECK-LABEL: func.func @inner_used(%arg0: tensor<2x3xf32>)
// CHECK-NEXT: %0 = graph.reshape %arg0 {shape = [6]} : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-NEXT: %1 = graph.reshape %arg0 {shape = [3, 2]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: return %0, %1 : tensor<6xf32>, tensor<3x2xf32>
func.func @inner_used(%x: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<3x2xf32>) {
  %0 = graph.reshape %x {shape = [6]} : (tensor<2x3xf32>) -> tensor<6xf32>
  %1 = graph.reshape %0 {shape = [3, 2]} : (tensor<6xf32>) -> tensor<3x2xf32>
  return %0, %1 : tensor<6xf32>, tensor<3x2xf32>
}

// Only reshape feeding reshape: a transpose in between is not a reshape.
// CHECK-LABEL: func.func @not_reshape(%arg0: tensor<2x3xf32>)
// CHECK-NEXT: %0 = graph.transpose %arg0 {perm = [1, 0]}
// CHECK-NEXT: %1 = graph.reshape %0 {shape = [6]}
// CHECK-NEXT: return %1
func.func @not_reshape(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = graph.transpose %x {perm = [1, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = graph.reshape %0 {shape = [6]} : (tensor<3x2xf32>) -> tensor<6xf32>
  return %1 : tensor<6xf32>
}
