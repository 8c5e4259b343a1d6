// The reduce-of-reduce and reduce-of-reshape patterns: reductions of one kind in a
// row merge, and a reduction of a reshaped tensor reduces the original over the
// dimensions behind the groups it reduces whole; what is left reduces a small tensor.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// torch-mlir's group norm: [1, 8, 4, 4] viewed as 2 groups of 4 channels x 16 pixels,
// reduced over the channels of a group, then over the pixels. The pixels are reduced
// on the original tensor; the channels of a group on an [1, 2, 4, 1] tensor.
// CHECK-LABEL: func.func @group_norm_sum(%arg0: tensor<1x8x4x4xf32>)
// CHECK-NEXT: %0 = graph.reduce_sum %arg0 {axes = [2, 3], keepdims = true} : (tensor<1x8x4x4xf32>) -> tensor<1x8x1x1xf32>
// CHECK-NEXT: %1 = graph.reshape %0 {shape = [1, 2, 4, 1]} : (tensor<1x8x1x1xf32>) -> tensor<1x2x4x1xf32>
// CHECK-NEXT: %2 = graph.reduce_sum %1 {axes = [2], keepdims = true} : (tensor<1x2x4x1xf32>) -> tensor<1x2x1x1xf32>
// CHECK-NEXT: return %2
func.func @group_norm_sum(%x: tensor<1x8x4x4xf32>) -> tensor<1x2x1x1xf32> {
  %0 = graph.reshape %x {shape = [1, 2, 4, 16]} : (tensor<1x8x4x4xf32>) -> tensor<1x2x4x16xf32>
  %1 = graph.reduce_sum %0 {axes = [2], keepdims = true} : (tensor<1x2x4x16xf32>) -> tensor<1x2x1x16xf32>
  %2 = graph.reduce_sum %1 {axes = [3], keepdims = true} : (tensor<1x2x1x16xf32>) -> tensor<1x2x1x1xf32>
  return %2 : tensor<1x2x1x1xf32>
}

// Whole groups only: the reduction moves onto the original, the reshape after it.
// CHECK-LABEL: func.func @whole_groups(%arg0: tensor<6x5x7xf32>)
// CHECK-NEXT: %0 = graph.reduce_max %arg0 {axes = [0, 1], keepdims = true} : (tensor<6x5x7xf32>) -> tensor<1x1x7xf32>
// CHECK-NEXT: %1 = graph.reshape %0 {shape = [1, 7]} : (tensor<1x1x7xf32>) -> tensor<1x7xf32>
// CHECK-NEXT: return %1
func.func @whole_groups(%x: tensor<6x5x7xf32>) -> tensor<1x7xf32> {
  %0 = graph.reshape %x {shape = [30, 7]} : (tensor<6x5x7xf32>) -> tensor<30x7xf32>
  %1 = graph.reduce_max %0 {axes = [0], keepdims = true} : (tensor<30x7xf32>) -> tensor<1x7xf32>
  return %1 : tensor<1x7xf32>
}

// Only part of a split dimension is reduced: nothing to move.
// CHECK-LABEL: func.func @split_only
// CHECK-NEXT: graph.reshape
// CHECK-NEXT: graph.reduce_sum {{.*}}axes = [1]
func.func @split_only(%x: tensor<12xf32>) -> tensor<3x1xf32> {
  %0 = graph.reshape %x {shape = [3, 4]} : (tensor<12xf32>) -> tensor<3x4xf32>
  %1 = graph.reduce_sum %0 {axes = [1], keepdims = true} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  return %1 : tensor<3x1xf32>
}

// Reductions of different kinds, or an inner one used twice, stay apart; so does a
// reduction that drops its dimensions.
// CHECK-LABEL: func.func @apart
// CHECK: graph.reduce_sum {{.*}}axes = [0]
// CHECK: graph.reduce_max {{.*}}axes = [1]
// CHECK: graph.reduce_sum {{.*}}axes = [1]
// CHECK: graph.reduce_sum {{.*}}axes = [0], keepdims = false
func.func @apart(%x: tensor<4x5xf32>) -> (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x5xf32>, tensor<1xf32>) {
  %0 = graph.reduce_sum %x {axes = [0], keepdims = true} : (tensor<4x5xf32>) -> tensor<1x5xf32>
  %1 = graph.reduce_max %0 {axes = [1], keepdims = true} : (tensor<1x5xf32>) -> tensor<1x1xf32>
  %2 = graph.reduce_sum %0 {axes = [1], keepdims = true} : (tensor<1x5xf32>) -> tensor<1x1xf32>
  %3 = graph.reduce_sum %2 {axes = [0], keepdims = false} : (tensor<1x1xf32>) -> tensor<1xf32>
  return %1, %2, %0, %3 : tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x5xf32>, tensor<1xf32>
}
