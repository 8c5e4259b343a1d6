// The reshape-of-broadcast pattern: reshape(broadcast_to(Z, O), T) becomes
// broadcast_to(reshape(Z, T'), T) when, on every group of dimensions the reshape maps
// onto each other, Z is 1 on the whole group or equal to O on the whole group; T' has
// T's extents on the groups Z fills and 1 elsewhere. The reshape then moves the small Z
// instead of the broadcast result, and the broadcast can go into the elementwise op
// that uses it (broadcast-into-elementwise).
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// A group norm's mean (one per group of 4 channels) expanded to the channels of an
// NCHW4c activation: the groups are the blocks.
// CHECK-LABEL: func.func @group_mean_to_blocked(%arg0: tensor<1x32x1x1xf32>)
// CHECK-NEXT: %0 = graph.reshape %arg0 {shape = [1, 32, 1, 1, 1]} : (tensor<1x32x1x1xf32>) -> tensor<1x32x1x1x1xf32>
// CHECK-NEXT: %1 = graph.broadcast_to %0 {shape = [1, 32, 1, 1, 4]} : (tensor<1x32x1x1x1xf32>) -> tensor<1x32x1x1x4xf32>
// CHECK-NEXT: return %1
func.func @group_mean_to_blocked(%m: tensor<1x32x1x1xf32>) -> tensor<1x32x1x1x4xf32> {
  %0 = graph.broadcast_to %m {shape = [1, 32, 4, 1]} : (tensor<1x32x1x1xf32>) -> tensor<1x32x4x1xf32>
  %1 = graph.reshape %0 {shape = [1, 32, 1, 1, 4]} : (tensor<1x32x4x1xf32>) -> tensor<1x32x1x1x4xf32>
  return %1 : tensor<1x32x1x1x4xf32>
}

// Z of a lower rank (aligned to the right), split on the group it fills; and Z
// broadcast along a whole group while another group merges two dimensions it fills.
// CHECK-LABEL: func.func @groups(%arg0: tensor<6xf32>, %arg1: tensor<2x3x1xf32>)
// CHECK-NEXT: %0 = graph.reshape %arg0 {shape = [1, 2, 3]} : (tensor<6xf32>) -> tensor<1x2x3xf32>
// CHECK-NEXT: %1 = graph.broadcast_to %0 {shape = [4, 2, 3]} : (tensor<1x2x3xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: %2 = graph.reshape %arg1 {shape = [6, 1]} : (tensor<2x3x1xf32>) -> tensor<6x1xf32>
// CHECK-NEXT: %3 = graph.broadcast_to %2 {shape = [6, 5]} : (tensor<6x1xf32>) -> tensor<6x5xf32>
// CHECK-NEXT: return %1, %3
func.func @groups(%v: tensor<6xf32>, %w: tensor<2x3x1xf32>) -> (tensor<4x2x3xf32>, tensor<6x5xf32>) {
  %0 = graph.broadcast_to %v {shape = [4, 6]} : (tensor<6xf32>) -> tensor<4x6xf32>
  %1 = graph.reshape %0 {shape = [4, 2, 3]} : (tensor<4x6xf32>) -> tensor<4x2x3xf32>
  %2 = graph.broadcast_to %w {shape = [2, 3, 5]} : (tensor<2x3x1xf32>) -> tensor<2x3x5xf32>
  %3 = graph.reshape %2 {shape = [6, 5]} : (tensor<2x3x5xf32>) -> tensor<6x5xf32>
  return %1, %3 : tensor<4x2x3xf32>, tensor<6x5xf32>
}

// A broadcast onto part of a group: the channels [32, 4] merge into 128 and the mean
// varies along the 32 only. The reshape cannot go first.
// CHECK-LABEL: func.func @partial_group
// CHECK-NEXT: graph.broadcast_to %arg0 {shape = [1, 32, 4, 1]}
// CHECK-NEXT: graph.reshape
func.func @partial_group(%m: tensor<1x32x1x1xf32>) -> tensor<1x128x1x1xf32> {
  %0 = graph.broadcast_to %m {shape = [1, 32, 4, 1]} : (tensor<1x32x1x1xf32>) -> tensor<1x32x4x1xf32>
  %1 = graph.reshape %0 {shape = [1, 128, 1, 1]} : (tensor<1x32x4x1xf32>) -> tensor<1x128x1x1xf32>
  return %1 : tensor<1x128x1x1xf32>
}
