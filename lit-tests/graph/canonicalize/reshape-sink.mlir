// The reshape-sink pattern: an elementwise op on a reshaped tensor runs on the original
// and the reshape moves after it, when the result goes on to a reduction (or to a
// reshape back); a broadcast operand is broadcast within the regrouped dimensions it
// varies along and reshaped to the original's shape.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// The variance of torch-mlir's group norm: cast to f64, subtract the group mean
// ([1, 2, 1, 1], broadcast over a group's 4 channels as [1, 8, 1, 1]), square, sum. In
// the end the original [1, 8, 4, 4] is cast, centred, squared and reduced over its
// pixels without being reshaped.
// CHECK-LABEL: func.func @group_norm_variance(%arg0: tensor<1x8x4x4xf32>, %arg1: tensor<1x2x1x1xf64>)
// CHECK-NEXT: %0 = graph.cast %arg0 : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf64>
// CHECK-NEXT: %1 = graph.broadcast_to %arg1 {shape = [1, 2, 4, 1]} : (tensor<1x2x1x1xf64>) -> tensor<1x2x4x1xf64>
// CHECK-NEXT: %2 = graph.reshape %1 {shape = [1, 8, 1, 1]} : (tensor<1x2x4x1xf64>) -> tensor<1x8x1x1xf64>
// CHECK-NEXT: %3 = graph.sub %0, %2 : (tensor<1x8x4x4xf64>, tensor<1x8x1x1xf64>) -> tensor<1x8x4x4xf64>
// CHECK-NEXT: %4 = graph.mul %3, %3 : (tensor<1x8x4x4xf64>, tensor<1x8x4x4xf64>) -> tensor<1x8x4x4xf64>
// CHECK-NEXT: %5 = graph.reduce_sum %4 {axes = [2, 3], keepdims = true} : (tensor<1x8x4x4xf64>) -> tensor<1x8x1x1xf64>
// CHECK-NEXT: %6 = graph.reshape %5 {shape = [1, 2, 4, 1]}
// CHECK-NEXT: %7 = graph.reduce_sum %6 {axes = [2], keepdims = true}
// CHECK-NEXT: return %7
func.func @group_norm_variance(%x: tensor<1x8x4x4xf32>, %mean: tensor<1x2x1x1xf64>) -> tensor<1x2x1x1xf64> {
  %0 = graph.reshape %x {shape = [1, 2, 4, 16]} : (tensor<1x8x4x4xf32>) -> tensor<1x2x4x16xf32>
  %1 = graph.cast %0 : (tensor<1x2x4x16xf32>) -> tensor<1x2x4x16xf64>
  %2 = graph.sub %1, %mean : (tensor<1x2x4x16xf64>, tensor<1x2x1x1xf64>) -> tensor<1x2x4x16xf64>
  %3 = graph.mul %2, %2 : (tensor<1x2x4x16xf64>, tensor<1x2x4x16xf64>) -> tensor<1x2x4x16xf64>
  %4 = graph.reduce_sum %3 {axes = [2], keepdims = true} : (tensor<1x2x4x16xf64>) -> tensor<1x2x1x16xf64>
  %5 = graph.reduce_sum %4 {axes = [3], keepdims = true} : (tensor<1x2x1x16xf64>) -> tensor<1x2x1x1xf64>
  return %5 : tensor<1x2x1x1xf64>
}

// reshape(f(reshape(X), Y)) = f(X, Y'): the reshapes meet and cancel. Y varies along the
// merged pixel dimension: it keeps its extent there, as the original's [4, 4].
// CHECK-LABEL: func.func @round_trip(%arg0: tensor<2x4x4xf32>, %arg1: tensor<1x16xf32>)
// CHECK-NEXT: %0 = graph.reshape %arg1 {shape = [1, 4, 4]} : (tensor<1x16xf32>) -> tensor<1x4x4xf32>
// CHECK-NEXT: %1 = graph.add %arg0, %0 : (tensor<2x4x4xf32>, tensor<1x4x4xf32>) -> tensor<2x4x4xf32>
// CHECK-NEXT: return %1
func.func @round_trip(%x: tensor<2x4x4xf32>, %y: tensor<1x16xf32>) -> tensor<2x4x4xf32> {
  %0 = graph.reshape %x {shape = [2, 16]} : (tensor<2x4x4xf32>) -> tensor<2x16xf32>
  %1 = graph.add %0, %y : (tensor<2x16xf32>, tensor<1x16xf32>) -> tensor<2x16xf32>
  %2 = graph.reshape %1 {shape = [2, 4, 4]} : (tensor<2x16xf32>) -> tensor<2x4x4xf32>
  return %2 : tensor<2x4x4xf32>
}

// Nothing reduces the result or reshapes it back: the reshape stays where it is (a
// matmul's output reshaped for the next layer keeps its shape for the epilogue).
// CHECK-LABEL: func.func @stays
// CHECK-NEXT: graph.reshape
// CHECK-NEXT: graph.add
func.func @stays(%x: tensor<2x4x4xf32>, %y: tensor<1x16xf32>) -> tensor<2x16xf32> {
  %0 = graph.reshape %x {shape = [2, 16]} : (tensor<2x4x4xf32>) -> tensor<2x16xf32>
  %1 = graph.add %0, %y : (tensor<2x16xf32>, tensor<1x16xf32>) -> tensor<2x16xf32>
  return %1 : tensor<2x16xf32>
}

// Full-size operands reshaped from different shapes: no common shape to run on.
// CHECK-LABEL: func.func @different_sources
// CHECK: graph.add {{.*}} -> tensor<4x6xf32>
func.func @different_sources(%x: tensor<2x12xf32>, %y: tensor<8x3xf32>) -> tensor<4x1xf32> {
  %0 = graph.reshape %x {shape = [4, 6]} : (tensor<2x12xf32>) -> tensor<4x6xf32>
  %1 = graph.reshape %y {shape = [4, 6]} : (tensor<8x3xf32>) -> tensor<4x6xf32>
  %2 = graph.add %0, %1 : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %3 = graph.reduce_sum %2 {axes = [1], keepdims = true} : (tensor<4x6xf32>) -> tensor<4x1xf32>
  return %3 : tensor<4x1xf32>
}
