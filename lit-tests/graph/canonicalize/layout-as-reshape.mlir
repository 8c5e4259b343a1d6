// The layout-as-reshape pattern: a layout_transform that moves no element (as many
// elements on both sides, no padding, every element at the same row-major offset)
// is a reshape. NCHW{b}c <-> NCHW is one when H = W = 1 and the channels fill whole
// blocks: the per-channel statistics of a norm after layout blocking.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// Per-channel sums of a blocked activation back to NCHW, and per-channel values to a
// blocked layout (with a batch of 2: the batch is outermost on both sides).
// CHECK-LABEL: func.func @per_channel(%arg0: tensor<1x32x1x1x4xf32>, %arg1: tensor<2x32x1x1xf32>)
// CHECK-NEXT: %0 = graph.reshape %arg0 {shape = [1, 128, 1, 1]} : (tensor<1x32x1x1x4xf32>) -> tensor<1x128x1x1xf32>
// CHECK-NEXT: %1 = graph.reshape %arg1 {shape = [2, 2, 1, 1, 16]} : (tensor<2x32x1x1xf32>) -> tensor<2x2x1x1x16xf32>
// CHECK-NEXT: return %0, %1
func.func @per_channel(%x: tensor<1x32x1x1x4xf32>, %y: tensor<2x32x1x1xf32>) -> (tensor<1x128x1x1xf32>, tensor<2x2x1x1x16xf32>) {
  %0 = graph.layout_transform %x {src = "NCHW4c", dst = "NCHW"} : (tensor<1x32x1x1x4xf32>) -> tensor<1x128x1x1xf32>
  %1 = graph.layout_transform %y {src = "NCHW", dst = "NCHW16c"} : (tensor<2x32x1x1xf32>) -> tensor<2x2x1x1x16xf32>
  return %0, %1 : tensor<1x128x1x1xf32>, tensor<2x2x1x1x16xf32>
}

// There and back around an elementwise op: the two reshapes cancel (reshape-sink).
// CHECK-LABEL: func.func @round_trip(%arg0: tensor<1x8x1x1xf32>)
// CHECK-NEXT: %0 = graph.relu %arg0 : (tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
// CHECK-NEXT: return %0
func.func @round_trip(%x: tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32> {
  %0 = graph.layout_transform %x {src = "NCHW", dst = "NCHW4c"} : (tensor<1x8x1x1xf32>) -> tensor<1x2x1x1x4xf32>
  %1 = graph.relu %0 : (tensor<1x2x1x1x4xf32>) -> tensor<1x2x1x1x4xf32>
  %2 = graph.layout_transform %1 {src = "NCHW4c", dst = "NCHW"} : (tensor<1x2x1x1x4xf32>) -> tensor<1x8x1x1xf32>
  return %2 : tensor<1x8x1x1xf32>
}

// Pixels need not be 1: a single block of channels is innermost in NHWC too.
// CHECK-LABEL: func.func @one_block_to_nhwc(%arg0: tensor<1x1x3x3x4xf32>)
// CHECK-NEXT: %0 = graph.reshape %arg0 {shape = [1, 3, 3, 4]} : (tensor<1x1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
func.func @one_block_to_nhwc(%x: tensor<1x1x3x3x4xf32>) -> tensor<1x3x3x4xf32> {
  %0 = graph.layout_transform %x {src = "NCHW4c", dst = "NHWC"} : (tensor<1x1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  return %0 : tensor<1x3x3x4xf32>
}

// Two pixels: channels of one pixel are 4 apart in NCHW4c but 2 apart in NCHW, a real
// relayout.
// CHECK-LABEL: func.func @pixels
// CHECK-NEXT: graph.layout_transform
func.func @pixels(%x: tensor<1x2x2x1x4xf32>) -> tensor<1x8x2x1xf32> {
  %0 = graph.layout_transform %x {src = "NCHW4c", dst = "NCHW"} : (tensor<1x2x2x1x4xf32>) -> tensor<1x8x2x1xf32>
  return %0 : tensor<1x8x2x1xf32>
}

// 6 channels in blocks of 4: the last block is padded (or its padding dropped).
// CHECK-LABEL: func.func @padding
// CHECK-NEXT: graph.layout_transform
// CHECK-NEXT: graph.layout_transform
func.func @padding(%x: tensor<1x6x1x1xf32>, %y: tensor<1x2x1x1x4xf32>) -> (tensor<1x2x1x1x4xf32>, tensor<1x6x1x1xf32>) {
  %0 = graph.layout_transform %x {src = "NCHW", dst = "NCHW4c"} : (tensor<1x6x1x1xf32>) -> tensor<1x2x1x1x4xf32>
  %1 = graph.layout_transform %y {src = "NCHW4c", dst = "NCHW"} : (tensor<1x2x1x1x4xf32>) -> tensor<1x6x1x1xf32>
  return %0, %1 : tensor<1x2x1x1x4xf32>, tensor<1x6x1x1xf32>
}

// The same shape is not enough: NCHW -> NHWC with C = H = W moves elements.
// CHECK-LABEL: func.func @same_shape
// CHECK-NEXT: graph.layout_transform
func.func @same_shape(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = graph.layout_transform %x {src = "NCHW", dst = "NHWC"} : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}
