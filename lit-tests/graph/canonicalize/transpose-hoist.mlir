// The transpose-hoist pattern: a transpose moves above the elementwise op or slice
// that feeds it when every operand of that op is a transpose or a constant, so the
// NCHW -> NHWC -> NCHW round trips of exported models cancel.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// An activation computed in NHWC between two layout changes: nothing is left.
// CHECK-LABEL: func.func @round_trip(%arg0: tensor<1x2x3x4xf32>)
// CHECK-NEXT: %0 = graph.clamp %arg0 {max = 6.0, min = 0.0} : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
// CHECK-NEXT: return %0
func.func @round_trip(%x: tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32> {
  %0 = graph.transpose %x {perm = [0, 2, 3, 1]} : (tensor<1x2x3x4xf32>) -> tensor<1x3x4x2xf32>
  %1 = graph.clamp %0 {min = 0.0, max = 6.0} : (tensor<1x3x4x2xf32>) -> tensor<1x3x4x2xf32>
  %2 = graph.transpose %1 {perm = [0, 3, 1, 2]} : (tensor<1x3x4x2xf32>) -> tensor<1x2x3x4xf32>
  return %2 : tensor<1x2x3x4xf32>
}

// Binary ops: a constant operand is transposed (and folded), a one-element operand
// stays as it is; a comparison keeps its i1 result type; the transpose travels up
// through both ops. Two copies of the outer transpose (as before CSE) are both
// replaced.
// CHECK-LABEL: func.func @binary(%arg0: tensor<2x3xf32>, %arg1: tensor<3x2xf32>)
// CHECK-DAG: %[[C:.*]] = graph.constant {value = dense<{{\[\[}}1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]> : tensor<2x3xf32>}
// CHECK-DAG: %[[S:.*]] = graph.constant {value = dense<0.5> : tensor<1xf32>}
// CHECK: %[[A:.*]] = graph.add %arg0, %[[C]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[G:.*]] = graph.greater %[[A]], %[[S]] : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: return %[[G]], %[[G]]
func.func @binary(%x: tensor<2x3xf32>, %unused: tensor<3x2xf32>) -> (tensor<2x3xi1>, tensor<2x3xi1>) {
  %c = graph.constant {value = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>} : () -> tensor<3x2xf32>
  %s = graph.constant {value = dense<0.5> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = graph.transpose %x {perm = [1, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = graph.add %0, %c : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %2 = graph.greater %1, %s : (tensor<3x2xf32>, tensor<1xf32>) -> tensor<3x2xi1>
  %3 = graph.transpose %2 {perm = [1, 0]} : (tensor<3x2xi1>) -> tensor<2x3xi1>
  %4 = graph.transpose %2 {perm = [1, 0]} : (tensor<3x2xi1>) -> tensor<2x3xi1>
  return %3, %4 : tensor<2x3xi1>, tensor<2x3xi1>
}

// A slice between the layout changes: its starts and sizes are permuted.
// CHECK-LABEL: func.func @slice(%arg0: tensor<1x2x8x8xf32>)
// CHECK-NEXT: %0 = graph.slice %arg0 {sizes = [1, 2, 7, 7], starts = [0, 0, 1, 0]} : (tensor<1x2x8x8xf32>) -> tensor<1x2x7x7xf32>
// CHECK-NEXT: return %0
func.func @slice(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x7x7xf32> {
  %0 = graph.transpose %x {perm = [0, 2, 3, 1]} : (tensor<1x2x8x8xf32>) -> tensor<1x8x8x2xf32>
  %1 = graph.slice %0 {starts = [0, 1, 0, 0], sizes = [1, 7, 7, 2]} : (tensor<1x8x8x2xf32>) -> tensor<1x7x7x2xf32>
  %2 = graph.transpose %1 {perm = [0, 3, 1, 2]} : (tensor<1x7x7x2xf32>) -> tensor<1x2x7x7xf32>
  return %2 : tensor<1x2x7x7xf32>
}

// Not hoisted: the elementwise result has another user; an operand is neither a
// transpose nor a constant (hoisting would add a transpose on it).
// CHECK-LABEL: func.func @kept
// CHECK: graph.transpose %arg0
// CHECK-NEXT: graph.relu
// CHECK-NEXT: graph.transpose
// CHECK-NEXT: graph.add %0, %arg1
// CHECK-NEXT: graph.transpose
func.func @kept(%x: tensor<2x3xf32>, %y: tensor<3x2xf32>) -> (tensor<2x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>) {
  %0 = graph.transpose %x {perm = [1, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = graph.relu %0 : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %2 = graph.transpose %1 {perm = [1, 0]} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %3 = graph.add %0, %y : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %4 = graph.transpose %3 {perm = [1, 0]} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %2, %1, %4 : tensor<2x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>
}

// Two copies of the transpose (CSE has not merged them), a use of the first between
// them: the hoisted ops go before the producer, where both copies see them.
// (Regression: they went before the second copy, after the first one's use.)
// CHECK-LABEL: func.func @copies(%arg0: tensor<4x2xf32>)
// CHECK-NEXT: %0 = graph.clamp %arg0
// CHECK-NEXT: %1 = graph.reduce_sum %0
// CHECK-NEXT: return %1, %0
func.func @copies(%x: tensor<4x2xf32>) -> (tensor<1x2xf32>, tensor<4x2xf32>) {
  %0 = graph.transpose %x {perm = [1, 0]} : (tensor<4x2xf32>) -> tensor<2x4xf32>
  %c = graph.constant {value = dense<-0.0> : tensor<2x4xf32>} : () -> tensor<2x4xf32>
  %1 = graph.max %0, %c : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %2 = graph.transpose %1 {perm = [1, 0]} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  %3 = graph.reduce_sum %2 {axes = [0], keepdims = true} : (tensor<4x2xf32>) -> tensor<1x2xf32>
  %4 = graph.transpose %1 {perm = [1, 0]} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  return %3, %4 : tensor<1x2xf32>, tensor<4x2xf32>
}
