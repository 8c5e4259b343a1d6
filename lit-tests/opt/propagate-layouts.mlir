// propagate-layouts: transforms back to NCHW move past layout-oblivious ops and cancel
// against the next kernel's transform; only the graph's boundaries keep one.
// RUN: %tcc-opt %s --split-input-file --pass-pipeline='block-layouts{vector-bits=128},propagate-layouts' | FileCheck %s

// Two convs with a relu and a residual add between them: one transform in, one out.
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-1: = graph.layout_transform %arg0
// CHECK: %[[A:.*]] = graph.conv2d_nchwc
// CHECK: %[[R:.*]] = graph.relu %[[A]] : (tensor<1x2x8x8x4xf32>) -> tensor<1x2x8x8x4xf32>
// CHECK: %[[B:.*]] = graph.conv2d_nchwc %[[R]]
// CHECK: %[[S:.*]] = graph.add %[[B]], %[[R]] : (tensor<1x2x8x8x4xf32>, tensor<1x2x8x8x4xf32>)
// CHECK: graph.layout_transform %[[S]] {dst = "NCHW", src = "NCHW4c"}
// CHECK-NOT: graph.layout_transform
// CHECK: return
func.func @chain(%x: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<8x8x3x3xf32>} : () -> tensor<8x8x3x3xf32>
  %y = graph.conv2d %x, %w {pads = [1, 1, 1, 1]} : (tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x8xf32>
  %r = graph.relu %y : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %z = graph.conv2d %r, %w {pads = [1, 1, 1, 1]} : (tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x8x8xf32>
  %s = graph.add %z, %r : (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %s : tensor<1x8x8x8xf32>
}

// -----

// 6 channels pad the last block of 4: relu (0 -> 0) moves into the blocked layout,
// sigmoid (0 -> 0.5) would fill the padding and stays outside.
// CHECK-LABEL: func.func @padding
// CHECK: graph.relu {{.*}} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
// CHECK: graph.layout_transform {{.*}} {dst = "NCHW", src = "NCHW4c"} : (tensor<1x2x4x4x4xf32>) -> tensor<1x6x4x4xf32>
// CHECK: graph.sigmoid {{.*}} : (tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
func.func @padding(%x: tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<6x6x1x1xf32>} : () -> tensor<6x6x1x1xf32>
  %y = graph.conv2d %x, %w : (tensor<1x6x4x4xf32>, tensor<6x6x1x1xf32>) -> tensor<1x6x4x4xf32>
  %r = graph.relu %y : (tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
  %s = graph.sigmoid %r : (tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
  return %s : tensor<1x6x4x4xf32>
}
