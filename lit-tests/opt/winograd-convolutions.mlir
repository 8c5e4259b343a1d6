// winograd-convolutions: a stride-1 3x3 convolution with constant filters becomes
// a gather of its input's pixels, channels last (`NCHW{C}c`) and padded, by a constant
// table of every tile's pixels, the input transform as one matmul, the batched matmul by the
// transformed filters, the output transform as one matmul, a transpose back to
// channels last and a layout transform to NCHW, a slice to the output's size and the
// bias.
// RUN: %tcc-opt %s --pass-pipeline='winograd-convolutions{tile=2x2 all=true}' | FileCheck %s
// RUN: %tcc-opt %s --pass-pipeline='winograd-convolutions{tile=4x4}' | FileCheck %s --check-prefix=PAYS
// RUN: not %tcc-opt %s --pass-pipeline='winograd-convolutions{tile=3x3}' 2>&1 | FileCheck %s --check-prefix=BAD

// F(2x2): 4x4 input tiles, 3x3 tiles for a 5x5 output: the padding grows to 3 * 2 + 2 = 8
// rows and columns.
// CHECK-LABEL: func.func @rewritten
// CHECK: graph.layout_transform %arg0 {dst = "NCHW2c", src = "NCHW"} : (tensor<1x2x5x5xf32>) -> tensor<1x1x5x5x2xf32>
// CHECK: %[[P:.*]] = graph.pad {{.*}} {high = [0, 2, 2, 0], low = [0, 1, 1, 0]} : (tensor<1x5x5x2xf32>) -> tensor<1x8x8x2xf32>
// CHECK: %[[R:.*]] = graph.reshape %[[P]] {shape = [64, 2]} : (tensor<1x8x8x2xf32>) -> tensor<64x2xf32>
// The positions of pixel (0, 0) of the 3x3 tiles first (i32: 0, 2, 4, 16, ...).
// CHECK: %[[T:.*]] = graph.constant {value = dense<"0x00000000020000000400000010000000
// CHECK: graph.gather %[[R]], %[[T]] {axis = 0} : (tensor<64x2xf32>, tensor<16x9xi32>) -> tensor<16x9x2xf32>
// CHECK-NOT: graph.slice
// CHECK-NOT: graph.concat
// CHECK: graph.matmul {{.*}} : (tensor<16x16xf32>, tensor<16x18xf32>) -> tensor<16x18xf32>
// CHECK: graph.matmul {{.*}} : (tensor<16x9x2xf32>, tensor<16x2x3xf32>) -> tensor<16x9x3xf32>
// CHECK: graph.matmul {{.*}} : (tensor<4x16xf32>, tensor<16x27xf32>) -> tensor<4x27xf32>
// CHECK: graph.transpose {{.*}} {perm = [2, 3, 0, 4, 1, 5]} : (tensor<2x2x1x3x3x3xf32>) -> tensor<1x3x2x3x2x3xf32>
// CHECK: graph.layout_transform {{.*}} {dst = "NCHW", src = "NCHW3c"} : (tensor<1x1x6x6x3xf32>) -> tensor<1x3x6x6xf32>
// CHECK: graph.slice {{.*}} : (tensor<1x3x6x6xf32>) -> tensor<1x3x5x5xf32>
// CHECK: graph.add
// CHECK-NOT: graph.conv2d
// PAYS-LABEL: func.func @rewritten
// PAYS: graph.conv2d
func.func @rewritten(%x: tensor<1x2x5x5xf32>) -> tensor<1x3x5x5xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<3x2x3x3xf32>} : () -> tensor<3x2x3x3xf32>
  %b = graph.constant {value = dense<1.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %y = graph.conv2d %x, %w, %b {dilations = [1, 1], groups = 1, pads = [1, 1, 1, 1], strides = [1, 1]} : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<1x3x5x5xf32>
  return %y : tensor<1x3x5x5xf32>
}

// Strided, dilated, grouped or 1x1 convolutions, and filters that are not constants,
// stay direct.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-5: graph.conv2d
// CHECK-NOT: graph.matmul
func.func @kept(%x: tensor<1x2x8x8xf32>, %v: tensor<2x2x3x3xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) {
  %w = graph.constant {value = dense<0.5> : tensor<2x2x3x3xf32>} : () -> tensor<2x2x3x3xf32>
  %g = graph.constant {value = dense<0.5> : tensor<2x1x3x3xf32>} : () -> tensor<2x1x3x3xf32>
  %p = graph.constant {value = dense<0.5> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %a = graph.conv2d %x, %w {dilations = [1, 1], groups = 1, pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x2x8x8xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %b = graph.conv2d %x, %w {dilations = [2, 2], groups = 1, pads = [0, 0, 0, 0], strides = [1, 1]} : (tensor<1x2x8x8xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %c = graph.conv2d %x, %g {dilations = [1, 1], groups = 2, pads = [1, 1, 1, 1], strides = [1, 1]} : (tensor<1x2x8x8xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x8x8xf32>
  %d = graph.conv2d %x, %p {dilations = [1, 1], groups = 1, pads = [0, 0, 0, 0], strides = [1, 1]} : (tensor<1x2x8x8xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x8x8xf32>
  %e = graph.conv2d %x, %v {dilations = [1, 1], groups = 1, pads = [1, 1, 1, 1], strides = [1, 1]} : (tensor<1x2x8x8xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x8x8xf32>
  return %a, %b, %c, %d, %e : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>
}

// BAD: pass 'winograd-convolutions': invalid value '3x3' for option 'tile'
