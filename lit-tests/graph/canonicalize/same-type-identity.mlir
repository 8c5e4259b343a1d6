// The same-type-identity pattern: reshape, broadcast_to, slice, pad and cast whose
// result type equals their operand type return the operand unchanged.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// CHECK-LABEL: func.func @identities(%arg0: tensor<2x3xf32>, %arg1: tensor<4xi32>)
// CHECK-NEXT: return %arg0, %arg0, %arg0, %arg0, %arg0, %arg1, %arg1, %arg0 :
// CHECK-NEXT: }
func.func @identities(%x: tensor<2x3xf32>, %i: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>, tensor<4xi32>, tensor<2x3xf32>) {
  %0 = graph.reshape %x {shape = [2, 3]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.reshape %x {shape = [-1, 3]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.broadcast_to %x {shape = [2, 3]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = graph.slice %x {starts = [0, 0], sizes = [2, 3]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = graph.pad %x {low = [0, 0], high = [0, 0], value = 5.0} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = graph.cast %i : (tensor<4xi32>) -> tensor<4xi32>
  %6 = graph.slice %i {starts = [0], sizes = [4], steps = [1]} : (tensor<4xi32>) -> tensor<4xi32>
  %7 = graph.cast %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>, tensor<4xi32>, tensor<2x3xf32>
}

// A chain of identities disappears entirely.
// CHECK-LABEL: func.func @chain(%arg0: tensor<5xi1>)
// CHECK-NEXT: return %arg0 : tensor<5xi1>
func.func @chain(%x: tensor<5xi1>) -> tensor<5xi1> {
  %0 = graph.cast %x : (tensor<5xi1>) -> tensor<5xi1>
  %1 = graph.pad %0 {low = [0], high = [0]} : (tensor<5xi1>) -> tensor<5xi1>
  %2 = graph.broadcast_to %1 {shape = [5]} : (tensor<5xi1>) -> tensor<5xi1>
  return %2 : tensor<5xi1>
}

// A different result type means a real change.
// CHECK-LABEL: func.func @changes(%arg0: tensor<2x3xf32>, %arg1: tensor<4xi32>)
// CHECK-NEXT: %0 = graph.reshape %arg0 {shape = [3, 2]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %1 = graph.broadcast_to %arg0 {shape = [1, 2, 3]} : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
// CHECK-NEXT: %2 = graph.slice %arg0 {sizes = [1, 3], starts = [1, 0]} : (tensor<2x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %3 = graph.pad %arg0 {high = [0, 1], low = [0, 0]} : (tensor<2x3xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %4 = graph.cast %arg1 : (tensor<4xi32>) -> tensor<4xi64>
// CHECK-NEXT: %5 = graph.cast %arg1 : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT: return %0, %1, %2, %3, %4, %5 :
// CHECK-NEXT: }
func.func @changes(%x: tensor<2x3xf32>, %i: tensor<4xi32>) -> (tensor<3x2xf32>, tensor<1x2x3xf32>, tensor<1x3xf32>, tensor<2x4xf32>, tensor<4xi64>, tensor<4xf32>) {
  %0 = graph.reshape %x {shape = [3, 2]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = graph.broadcast_to %x {shape = [1, 2, 3]} : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
  %2 = graph.slice %x {starts = [1, 0], sizes = [1, 3]} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %3 = graph.pad %x {low = [0, 0], high = [0, 1]} : (tensor<2x3xf32>) -> tensor<2x4xf32>
  %4 = graph.cast %i : (tensor<4xi32>) -> tensor<4xi64>
  %5 = graph.cast %i : (tensor<4xi32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<3x2xf32>, tensor<1x2x3xf32>, tensor<1x3xf32>, tensor<2x4xf32>, tensor<4xi64>, tensor<4xf32>
}

// Same-type ops without this pattern stay: an elementwise op that maps x to x's type
// computes something.
// CHECK-LABEL: func.func @other_ops(%arg0: tensor<4xf32>)
// CHECK-NEXT: %0 = graph.relu %arg0
// CHECK-NEXT: %1 = graph.softmax %0 {axis = 0}
// CHECK-NEXT: return %1
func.func @other_ops(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.softmax %0 {axis = 0} : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
