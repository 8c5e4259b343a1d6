// materialize-padding: a convolution configured with `pad_input` gets the padding of
// its columns as a `graph.pad` of its input (dimension 3 of the blocked layout) and
// keeps that of its rows, the flag dropped; a bf16 input is padded in both spatial
// dimensions (2 and 3). Only for constant, finite filters.
// RUN: %tcc-opt %s --pass-pipeline='materialize-padding' | FileCheck %s

// CHECK-LABEL: func.func @padded
// CHECK: %[[P:.*]] = graph.pad %arg0 {high = [0, 0, 0, 1, 0], low = [0, 0, 0, 0, 0]} : (tensor<1x2x5x6x4xf32>) -> tensor<1x2x5x7x4xf32>
// CHECK: graph.conv2d_nchwc %[[P]], %{{.*}} {config = {chunk_ic = 1, tile_w = 3}, pads = [1, 0, 2, 0]}
func.func @padded(%x: tensor<1x2x5x6x4xf32>) -> tensor<1x1x6x5x4xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<1x2x3x3x4x4xf32>} : () -> tensor<1x2x3x3x4x4xf32>
  %y = graph.conv2d_nchwc %x, %w {pads = [1, 0, 2, 1], config = {chunk_ic = 1, pad_input = true, tile_w = 3}} : (tensor<1x2x5x6x4xf32>, tensor<1x2x3x3x4x4xf32>) -> tensor<1x1x6x5x4xf32>
  return %y : tensor<1x1x6x5x4xf32>
}

// Padding in the rows only: nothing to move.
// CHECK-LABEL: func.func @rows_only
// CHECK-NOT: graph.pad
// CHECK: graph.conv2d_nchwc %arg0, %{{.*}} {config = {tile_w = 3}, pads = [1, 0, 1, 0]}
func.func @rows_only(%x: tensor<1x1x4x4x4xf32>) -> tensor<1x1x4x2x4xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<1x1x3x3x4x4xf32>} : () -> tensor<1x1x3x3x4x4xf32>
  %y = graph.conv2d_nchwc %x, %w {pads = [1, 0, 1, 0], config = {pad_input = true, tile_w = 3}} : (tensor<1x1x4x4x4xf32>, tensor<1x1x3x3x4x4xf32>) -> tensor<1x1x4x2x4xf32>
  return %y : tensor<1x1x4x2x4xf32>
}

// bf16: rows and columns.
// CHECK-LABEL: func.func @bf16
// CHECK: %[[P:.*]] = graph.pad %arg0 {high = [0, 0, 2, 1, 0], low = [0, 0, 1, 0, 0]} : (tensor<1x2x5x6x4xbf16>) -> tensor<1x2x8x7x4xbf16>
// CHECK: graph.conv2d_nchwc %[[P]], %{{.*}} {config = {tile_w = 3}, pads = [0, 0, 0, 0]}
func.func @bf16(%x: tensor<1x2x5x6x4xbf16>) -> tensor<1x1x6x5x4xbf16> {
  %w = graph.constant {value = dense<0.5> : tensor<1x2x3x3x4x4xbf16>} : () -> tensor<1x2x3x3x4x4xbf16>
  %y = graph.conv2d_nchwc %x, %w {pads = [1, 0, 2, 1], config = {pad_input = true, tile_w = 3}} : (tensor<1x2x5x6x4xbf16>, tensor<1x2x3x3x4x4xbf16>) -> tensor<1x1x6x5x4xbf16>
  return %y : tensor<1x1x6x5x4xbf16>
}

// An infinite weight would turn the padding's zeros into NaNs where the convolution
// skips the taps; a filter that is an argument may hold one: both keep their padding
// (the flag, now moot, is dropped).
// CHECK-LABEL: func.func @kept
// CHECK-NOT: graph.pad
// CHECK: graph.conv2d_nchwc %arg0, %{{.*}} {config = {tile_w = 3}, pads = [1, 1, 1, 1]}
// CHECK: graph.conv2d_nchwc %arg0, %arg1 {config = {tile_w = 3}, pads = [1, 1, 1, 1]}
func.func @kept(%x: tensor<1x1x4x4x4xf32>, %v: tensor<1x1x3x3x4x4xf32>) -> (tensor<1x1x4x4x4xf32>, tensor<1x1x4x4x4xf32>) {
  %w = graph.constant {value = dense<0x7F800000> : tensor<1x1x3x3x4x4xf32>} : () -> tensor<1x1x3x3x4x4xf32>
  %a = graph.conv2d_nchwc %x, %w {pads = [1, 1, 1, 1], config = {pad_input = true, tile_w = 3}} : (tensor<1x1x4x4x4xf32>, tensor<1x1x3x3x4x4xf32>) -> tensor<1x1x4x4x4xf32>
  %b = graph.conv2d_nchwc %x, %v {pads = [1, 1, 1, 1], config = {pad_input = true, tile_w = 3}} : (tensor<1x1x4x4x4xf32>, tensor<1x1x3x3x4x4xf32>) -> tensor<1x1x4x4x4xf32>
  return %a, %b : tensor<1x1x4x4x4xf32>, tensor<1x1x4x4x4xf32>
}
