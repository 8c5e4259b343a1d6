// The concat-single pattern: a concat of one operand is that operand.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// CHECK-LABEL: func.func @single(%arg0: tensor<2x3xf32>, %arg1: tensor<4xi1>)
// CHECK-NEXT: return %arg0, %arg0, %arg1 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi1>
// CHECK-NEXT: }
func.func @single(%x: tensor<2x3xf32>, %b: tensor<4xi1>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi1>) {
  %0 = graph.concat %x {axis = 0} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.concat %x {axis = -1} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.concat %b {axis = 0} : (tensor<4xi1>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi1>
}

// Two operands (even the same one twice, or an empty second one) are a real concat.
// CHECK-LABEL: func.func @several(%arg0: tensor<2x3xf32>, %arg1: tensor<0x3xf32>)
// CHECK-NEXT: %0 = graph.concat %arg0, %arg0 {axis = 0} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %1 = graph.concat %arg0, %arg1 {axis = 0} : (tensor<2x3xf32>, tensor<0x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %0, %1 : tensor<4x3xf32>, tensor<2x3xf32>
// CHECK-NEXT: }
func.func @several(%x: tensor<2x3xf32>, %e: tensor<0x3xf32>) -> (tensor<4x3xf32>, tensor<2x3xf32>) {
  %0 = graph.concat %x, %x {axis = 0} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %1 = graph.concat %x, %e {axis = 0} : (tensor<2x3xf32>, tensor<0x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<4x3xf32>, tensor<2x3xf32>
}
