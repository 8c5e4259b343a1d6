// The broadcast-into-elementwise pattern: an operand broadcast_to(Z) of an elementwise
// op becomes Z when the op's result type stays the same: the op broadcasts Z itself,
// and a fused loop reads the small Z instead of a materialized broadcast. A constant
// whose elements are all equal becomes its value in a tensor of 1s the same way.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// A group mean subtracted from an NCHW4c activation whose blocks are the groups.
// CHECK-LABEL: func.func @centre(%arg0: tensor<1x32x8x8x4xf32>, %arg1: tensor<1x32x1x1x1xf32>)
// CHECK-NEXT: %0 = graph.sub %arg0, %arg1 : (tensor<1x32x8x8x4xf32>, tensor<1x32x1x1x1xf32>) -> tensor<1x32x8x8x4xf32>
// CHECK-NEXT: return %0
func.func @centre(%x: tensor<1x32x8x8x4xf32>, %m: tensor<1x32x1x1x1xf32>) -> tensor<1x32x8x8x4xf32> {
  %0 = graph.broadcast_to %m {shape = [1, 32, 1, 1, 4]} : (tensor<1x32x1x1x1xf32>) -> tensor<1x32x1x1x4xf32>
  %1 = graph.sub %x, %0 : (tensor<1x32x8x8x4xf32>, tensor<1x32x1x1x4xf32>) -> tensor<1x32x8x8x4xf32>
  return %1 : tensor<1x32x8x8x4xf32>
}

// Both operands broadcast, each along the dimension the other one has: the result
// shape comes from the two of them.
// CHECK-LABEL: func.func @outer(%arg0: tensor<3xf32>, %arg1: tensor<4x1xf32>, %arg2: tensor<i1>)
// CHECK-NEXT: %0 = graph.max %arg0, %arg1 : (tensor<3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %1 = graph.select %arg2, %arg0, %arg1 : (tensor<i1>, tensor<3xf32>, tensor<4x1xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: return %0, %1
func.func @outer(%a: tensor<3xf32>, %b: tensor<4x1xf32>, %c: tensor<i1>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %0 = graph.broadcast_to %a {shape = [4, 3]} : (tensor<3xf32>) -> tensor<4x3xf32>
  %1 = graph.broadcast_to %b {shape = [4, 3]} : (tensor<4x1xf32>) -> tensor<4x3xf32>
  %2 = graph.max %0, %1 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %3 = graph.select %c, %0, %1 : (tensor<i1>, tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %2, %3 : tensor<4x3xf32>, tensor<4x3xf32>
}

// The broadcast sets the result's shape (no other operand has 4 rows), and a unary op
// takes its shape from its operand: the broadcasts stay.
// CHECK-LABEL: func.func @sets_the_shape
// CHECK-NEXT: %0 = graph.broadcast_to %arg0 {shape = [4, 3]}
// CHECK-NEXT: %1 = graph.add %0, %arg1 : (tensor<4x3xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %2 = graph.tanh %0 : (tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: return %1, %2
func.func @sets_the_shape(%a: tensor<3xf32>, %b: tensor<1x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %0 = graph.broadcast_to %a {shape = [4, 3]} : (tensor<3xf32>) -> tensor<4x3xf32>
  %1 = graph.add %0, %b : (tensor<4x3xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
  %2 = graph.tanh %0 : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %1, %2 : tensor<4x3xf32>, tensor<4x3xf32>
}

// torch-mlir's masked softmax selects from a full tensor of zeros: one zero instead.
// The zeros that give the result its shape stay.
// CHECK-LABEL: func.func @uniform(%arg0: tensor<2x8xi1>, %arg1: tensor<2x8xf32>, %arg2: tensor<1x1xf32>)
// CHECK-NEXT: %0 = graph.constant {value = dense<0.0> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
// CHECK-NEXT: %1 = graph.select %arg0, %0, %arg1 : (tensor<2x8xi1>, tensor<1x1xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %2 = graph.constant {value = dense<0.5> : tensor<2x8xf32>} : () -> tensor<2x8xf32>
// CHECK-NEXT: %3 = graph.add %arg2, %2 : (tensor<1x1xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: return %1, %3
func.func @uniform(%c: tensor<2x8xi1>, %x: tensor<2x8xf32>, %s: tensor<1x1xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %z = graph.constant {value = dense<0.0> : tensor<2x8xf32>} : () -> tensor<2x8xf32>
  %0 = graph.select %c, %z, %x : (tensor<2x8xi1>, tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %h = graph.constant {value = dense<0.5> : tensor<2x8xf32>} : () -> tensor<2x8xf32>
  %1 = graph.add %s, %h : (tensor<1x1xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0, %1 : tensor<2x8xf32>, tensor<2x8xf32>
}
