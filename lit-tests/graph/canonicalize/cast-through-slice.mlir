// The cast-through-slice pattern: a cast of a slice of x becomes a slice of x's cast
// when x is cast whole to the same type anyway (CSE then keeps one cast of x), and
// slice-of-slice composes the slices around it: ResNet's stage boundaries under bf16,
// a crop in f32, a cast and a strided slice, become one strided slice of the bf16
// activation.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize,cse | FileCheck %s

// CHECK-LABEL: func.func @stage_boundary(%arg0: tensor<1x8x56x56x32xf32>)
// CHECK-NEXT: %0 = graph.cast %arg0 : (tensor<1x8x56x56x32xf32>) -> tensor<1x8x56x56x32xbf16>
// CHECK-NEXT: %1 = graph.slice %0 {sizes = [1, 8, 28, 28, 32], starts = [0, 0, 0, 0, 0], steps = [1, 1, 2, 2, 1]} : (tensor<1x8x56x56x32xbf16>) -> tensor<1x8x28x28x32xbf16>
// CHECK-NEXT: return %0, %1
func.func @stage_boundary(%x: tensor<1x8x56x56x32xf32>) -> (tensor<1x8x56x56x32xbf16>, tensor<1x8x28x28x32xbf16>) {
  %0 = graph.cast %x : (tensor<1x8x56x56x32xf32>) -> tensor<1x8x56x56x32xbf16>
  %1 = graph.slice %x {sizes = [1, 8, 55, 55, 32], starts = [0, 0, 0, 0, 0], steps = [1, 1, 1, 1, 1]} : (tensor<1x8x56x56x32xf32>) -> tensor<1x8x55x55x32xf32>
  %2 = graph.cast %1 : (tensor<1x8x55x55x32xf32>) -> tensor<1x8x55x55x32xbf16>
  %3 = graph.slice %2 {sizes = [1, 8, 28, 28, 32], starts = [0, 0, 0, 0, 0], steps = [1, 1, 2, 2, 1]} : (tensor<1x8x55x55x32xbf16>) -> tensor<1x8x28x28x32xbf16>
  return %0, %3 : tensor<1x8x56x56x32xbf16>, tensor<1x8x28x28x32xbf16>
}

// The whole cast comes after the slice's cast in the block: the new cast of x goes
// before the slice's cast, and CSE keeps that one.
// CHECK-LABEL: func.func @cast_after(%arg0: tensor<6xf32>)
// CHECK-NEXT: %0 = graph.cast %arg0 : (tensor<6xf32>) -> tensor<6xbf16>
// CHECK-NEXT: %1 = graph.slice %0 {sizes = [3], starts = [1]} : (tensor<6xbf16>) -> tensor<3xbf16>
// CHECK-NEXT: return %1, %0
func.func @cast_after(%x: tensor<6xf32>) -> (tensor<3xbf16>, tensor<6xbf16>) {
  %0 = graph.slice %x {sizes = [3], starts = [1]} : (tensor<6xf32>) -> tensor<3xf32>
  %1 = graph.cast %0 : (tensor<3xf32>) -> tensor<3xbf16>
  %2 = graph.cast %x : (tensor<6xf32>) -> tensor<6xbf16>
  return %1, %2 : tensor<3xbf16>, tensor<6xbf16>
}

// Not when x is not cast whole, or cast to another type: the cast stays on the slice.
// CHECK-LABEL: func.func @kept(%arg0: tensor<6xf32>)
// CHECK-NEXT: %0 = graph.slice %arg0 {sizes = [3], starts = [1]} : (tensor<6xf32>) -> tensor<3xf32>
// CHECK-NEXT: %1 = graph.cast %0 : (tensor<3xf32>) -> tensor<3xbf16>
// CHECK-NEXT: %2 = graph.cast %arg0 : (tensor<6xf32>) -> tensor<6xf16>
// CHECK-NEXT: return %1, %2
func.func @kept(%x: tensor<6xf32>) -> (tensor<3xbf16>, tensor<6xf16>) {
  %0 = graph.slice %x {sizes = [3], starts = [1]} : (tensor<6xf32>) -> tensor<3xf32>
  %1 = graph.cast %0 : (tensor<3xf32>) -> tensor<3xbf16>
  %2 = graph.cast %x : (tensor<6xf32>) -> tensor<6xf16>
  return %1, %2 : tensor<3xbf16>, tensor<6xf16>
}
