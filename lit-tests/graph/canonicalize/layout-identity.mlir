// The layout-identity pattern: a layout_transform whose src and dst layouts are the
// same string is its operand.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// CHECK-LABEL: func.func @same_layout(%arg0: tensor<1x32x7x7xf32>, %arg1: tensor<1x2x7x7x16xf32>)
// CHECK-NEXT: return %arg0, %arg1 : tensor<1x32x7x7xf32>, tensor<1x2x7x7x16xf32>
// CHECK-NEXT: }
func.func @same_layout(%x: tensor<1x32x7x7xf32>, %b: tensor<1x2x7x7x16xf32>) -> (tensor<1x32x7x7xf32>, tensor<1x2x7x7x16xf32>) {
  %0 = graph.layout_transform %x {src = "NCHW", dst = "NCHW"} : (tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  %1 = graph.layout_transform %b {src = "NCHW16c", dst = "NCHW16c"} : (tensor<1x2x7x7x16xf32>) -> tensor<1x2x7x7x16xf32>
  return %0, %1 : tensor<1x32x7x7xf32>, tensor<1x2x7x7x16xf32>
}

// Different layouts are a real relayout, even when the shape happens not to change
// (NCHW -> NHWC with H = W = C).
// CHECK-LABEL: func.func @different_layout(%arg0: tensor<1x32x7x7xf32>, %arg1: tensor<1x4x4x4xf32>)
// CHECK-NEXT: %0 = graph.layout_transform %arg0 {dst = "NCHW16c", src = "NCHW"} : (tensor<1x32x7x7xf32>) -> tensor<1x2x7x7x16xf32>
// CHECK-NEXT: %1 = graph.layout_transform %arg1 {dst = "NHWC", src = "NCHW"} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: return %0, %1 : tensor<1x2x7x7x16xf32>, tensor<1x4x4x4xf32>
// CHECK-NEXT: }
func.func @different_layout(%x: tensor<1x32x7x7xf32>, %c: tensor<1x4x4x4xf32>) -> (tensor<1x2x7x7x16xf32>, tensor<1x4x4x4xf32>) {
  %0 = graph.layout_transform %x {src = "NCHW", dst = "NCHW16c"} : (tensor<1x32x7x7xf32>) -> tensor<1x2x7x7x16xf32>
  %1 = graph.layout_transform %c {src = "NCHW", dst = "NHWC"} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0, %1 : tensor<1x2x7x7x16xf32>, tensor<1x4x4x4xf32>
}
