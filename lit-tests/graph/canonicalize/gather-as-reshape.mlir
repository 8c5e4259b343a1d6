// The gather-as-reshape pattern: a gather whose indices are a constant holding 0, 1,
// ..., n - 1 in row-major order (n the operand's extent on the axis) takes every element
// once, in order: it is a reshape to the result's shape. torch-mlir writes one for the
// per-channel scale of a group norm (`[C, 1]` gathered with the indices `[[0, .., C-1]]`).
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// CHECK-LABEL: func.func @channels(%arg0: tensor<8x1xf32>)
// CHECK-NEXT: %0 = graph.reshape %arg0 {shape = [1, 8, 1]} : (tensor<8x1xf32>) -> tensor<1x8x1xf32>
// CHECK-NEXT: return %0
func.func @channels(%x: tensor<8x1xf32>) -> tensor<1x8x1xf32> {
  %i = graph.constant {value = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi32>} : () -> tensor<1x8xi32>
  %0 = graph.gather %x, %i {axis = 0} : (tensor<8x1xf32>, tensor<1x8xi32>) -> tensor<1x8x1xf32>
  return %0 : tensor<1x8x1xf32>
}

// i64 indices written from the end (-3 is 0), along a negative axis, shaped [3, 1].
// CHECK-LABEL: func.func @from_the_end(%arg0: tensor<2x3x4xf32>)
// CHECK-NEXT: %0 = graph.reshape %arg0 {shape = [2, 3, 1, 4]} : (tensor<2x3x4xf32>) -> tensor<2x3x1x4xf32>
// CHECK-NEXT: return %0
func.func @from_the_end(%x: tensor<2x3x4xf32>) -> tensor<2x3x1x4xf32> {
  %i = graph.constant {value = dense<[[-3], [-2], [-1]]> : tensor<3x1xi64>} : () -> tensor<3x1xi64>
  %0 = graph.gather %x, %i {axis = -2} : (tensor<2x3x4xf32>, tensor<3x1xi64>) -> tensor<2x3x1x4xf32>
  return %0 : tensor<2x3x1x4xf32>
}

// Indices out of order, or not all of them, or not constant: a real gather.
// CHECK-LABEL: func.func @real_gathers
// CHECK-NOT: graph.reshape
// CHECK: graph.gather
// CHECK: graph.gather
// CHECK: graph.gather
// CHECK-NOT: graph.reshape
// CHECK: return
func.func @real_gathers(%x: tensor<4x2xf32>, %k: tensor<4xi32>) -> (tensor<4x2xf32>, tensor<3x2xf32>, tensor<4x2xf32>) {
  %i = graph.constant {value = dense<[1, 0, 2, 3]> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = graph.gather %x, %i {axis = 0} : (tensor<4x2xf32>, tensor<4xi32>) -> tensor<4x2xf32>
  %j = graph.constant {value = dense<[0, 1, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %1 = graph.gather %x, %j {axis = 0} : (tensor<4x2xf32>, tensor<3xi32>) -> tensor<3x2xf32>
  %2 = graph.gather %x, %k {axis = 0} : (tensor<4x2xf32>, tensor<4xi32>) -> tensor<4x2xf32>
  return %0, %1, %2 : tensor<4x2xf32>, tensor<3x2xf32>, tensor<4x2xf32>
}
