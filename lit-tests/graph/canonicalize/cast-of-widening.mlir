// The cast-of-widening rule: a cast back to the type that was widened exactly is the
// original value (f16 -> f32 -> f16, as widen-half leaves around data movement; i8 ->
// i32 -> i8; i1 -> f32 -> i1). Rounding first and widening after is no identity, nor is
// a round trip through a narrower or another kind of type.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// CHECK-LABEL: func.func @widened(%arg0: tensor<4xf16>, %arg1: tensor<4xi8>, %arg2: tensor<4xi1>)
// CHECK-NEXT: return %arg0, %arg1, %arg2 : tensor<4xf16>, tensor<4xi8>, tensor<4xi1>
func.func @widened(%h: tensor<4xf16>, %b: tensor<4xi8>, %m: tensor<4xi1>) -> (tensor<4xf16>, tensor<4xi8>, tensor<4xi1>) {
  %0 = graph.cast %h : (tensor<4xf16>) -> tensor<4xf32>
  %1 = graph.cast %0 : (tensor<4xf32>) -> tensor<4xf16>
  %2 = graph.cast %b : (tensor<4xi8>) -> tensor<4xi32>
  %3 = graph.cast %2 : (tensor<4xi32>) -> tensor<4xi8>
  %4 = graph.cast %m : (tensor<4xi1>) -> tensor<4xf32>
  %5 = graph.cast %4 : (tensor<4xf32>) -> tensor<4xi1>
  return %1, %3, %5 : tensor<4xf16>, tensor<4xi8>, tensor<4xi1>
}

// CHECK-LABEL: func.func @not_widened(
// CHECK-NEXT: %0 = graph.cast %arg0 : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT: %1 = graph.cast %0 : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT: %2 = graph.cast %arg1 : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT: %3 = graph.cast %2 : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT: %4 = graph.cast %arg2 : (tensor<4xi8>) -> tensor<4xf32>
// CHECK-NEXT: %5 = graph.cast %4 : (tensor<4xf32>) -> tensor<4xi8>
// CHECK-NEXT: return %1, %3, %5
func.func @not_widened(%x: tensor<4xf32>, %i: tensor<4xi32>, %b: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xi8>) {
  %0 = graph.cast %x : (tensor<4xf32>) -> tensor<4xf16>
  %1 = graph.cast %0 : (tensor<4xf16>) -> tensor<4xf32>
  %2 = graph.cast %i : (tensor<4xi32>) -> tensor<4xf32>
  %3 = graph.cast %2 : (tensor<4xf32>) -> tensor<4xi32>
  %4 = graph.cast %b : (tensor<4xi8>) -> tensor<4xf32>
  %5 = graph.cast %4 : (tensor<4xf32>) -> tensor<4xi8>
  return %1, %3, %5 : tensor<4xf32>, tensor<4xi32>, tensor<4xi8>
}
