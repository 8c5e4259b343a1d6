// The transpose-as-reshape pattern: a transpose that keeps the order of the
// dimensions with extent > 1 moves no data and becomes a reshape (which then composes
// with neighbouring reshapes).
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// NCHW -> NHWC of a 1x1 feature map, then back by a reshape: nothing is left.
// CHECK-LABEL: func.func @unit_dims(%arg0: tensor<1x32x1x1xf32>)
// CHECK-NEXT: return %arg0
func.func @unit_dims(%x: tensor<1x32x1x1xf32>) -> tensor<1x32x1x1xf32> {
  %0 = graph.transpose %x {perm = [0, 2, 3, 1]} : (tensor<1x32x1x1xf32>) -> tensor<1x1x1x32xf32>
  %1 = graph.reshape %0 {shape = [1, 32, 1, 1]} : (tensor<1x1x1x32xf32>) -> tensor<1x32x1x1xf32>
  return %1 : tensor<1x32x1x1xf32>
}

// CHECK-LABEL: func.func @reshape(%arg0: tensor<4x1x3xf32>)
// CHECK-NEXT: %0 = graph.reshape %arg0 {shape = [1, 4, 3]} : (tensor<4x1x3xf32>) -> tensor<1x4x3xf32>
func.func @reshape(%x: tensor<4x1x3xf32>) -> tensor<1x4x3xf32> {
  %0 = graph.transpose %x {perm = [1, 0, 2]} : (tensor<4x1x3xf32>) -> tensor<1x4x3xf32>
  return %0 : tensor<1x4x3xf32>
}

// Two dimensions of extent > 1 swap: a real transpose.
// CHECK-LABEL: func.func @real(%arg0: tensor<4x1x3xf32>)
// CHECK-NEXT: %0 = graph.transpose %arg0 {perm = [2, 1, 0]}
func.func @real(%x: tensor<4x1x3xf32>) -> tensor<3x1x4xf32> {
  %0 = graph.transpose %x {perm = [2, 1, 0]} : (tensor<4x1x3xf32>) -> tensor<3x1x4xf32>
  return %0 : tensor<3x1x4xf32>
}
