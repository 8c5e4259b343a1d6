// The split-single pattern: a split into one piece is its operand.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// CHECK-LABEL: func.func @single(%arg0: tensor<2x5xf32>, %arg1: tensor<3xi64>)
// CHECK-NEXT: %0 = graph.relu %arg0 : (tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT: return %0, %arg1 : tensor<2x5xf32>, tensor<3xi64>
// CHECK-NEXT: }
func.func @single(%x: tensor<2x5xf32>, %i: tensor<3xi64>) -> (tensor<2x5xf32>, tensor<3xi64>) {
  %0 = graph.split %x {axis = 1, sizes = [5]} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %1 = graph.relu %0 : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %2 = graph.split %i {axis = 0, sizes = array<i64: 3>} : (tensor<3xi64>) -> tensor<3xi64>
  return %1, %2 : tensor<2x5xf32>, tensor<3xi64>
}

// Two or more pieces stay, but a first piece that is the whole operand is the operand
// (the rule `split-single` matches result 0 of the same type as the operand).
// CHECK-LABEL: func.func @several(%arg0: tensor<2x5xf32>)
// CHECK-NEXT: %0:2 = graph.split %arg0 {axis = 1, sizes = [2, 3]} : (tensor<2x5xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>)
// CHECK-NEXT: return %0#1, %arg0 : tensor<2x3xf32>, tensor<2x5xf32>
// CHECK-NEXT: }
func.func @several(%x: tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x5xf32>) {
  %0:2 = graph.split %x {axis = 1, sizes = [2, 3]} : (tensor<2x5xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>)
  %1:2 = graph.split %x {axis = 1, sizes = [5, 0]} : (tensor<2x5xf32>) -> (tensor<2x5xf32>, tensor<2x0xf32>)
  return %0#1, %1#0 : tensor<2x3xf32>, tensor<2x5xf32>
}
