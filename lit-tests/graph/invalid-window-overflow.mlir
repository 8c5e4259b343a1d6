// Regression: the window extent of conv2d/max_pool2d/avg_pool2d (dilation * (k-1) + 1,
// input + pads) used unchecked i64 arithmetic; huge values panicked or wrapped. They
// are now located errors.
//
// RUN: %tcc-opt %s --split-input-file --verify-diagnostics
// RUN: not %tcc-opt %s --split-input-file 2>&1 | FileCheck %s

// CHECK-NOT: panicked
// CHECK: error: 'graph.conv2d' op
// CHECK: error: 'graph.conv2d' op
// CHECK: error: 'graph.max_pool2d' op
// CHECK: error: 'graph.avg_pool2d' op
// CHECK-NOT: panicked

func.func @conv2d_pads(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x1x1xf32>) -> tensor<1x1x2x4xf32> {
  // expected-error@+1 {{'graph.conv2d' op}}
  %0 = graph.conv2d %x, %w {pads = [9223372036854775807, 0, 9223372036854775807, 0]} : (tensor<1x1x4x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x4xf32>
  return %0 : tensor<1x1x2x4xf32>
}

// -----

func.func @conv2d_dilation(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x6x2xf32> {
  // expected-error@+1 {{'graph.conv2d' op}}
  %0 = graph.conv2d %x, %w {dilations = [9223372036854775807, 1]} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x6x2xf32>
  return %0 : tensor<1x1x6x2xf32>
}

// -----

func.func @max_pool2d_pads(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error@+1 {{'graph.max_pool2d' op}}
  %0 = graph.max_pool2d %x {kernel = [9223372036854775807, 1], strides = [1, 1], pads = [9223372036854775806, 0, 9223372036854775806, 0]} : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @avg_pool2d_pads(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error@+1 {{'graph.avg_pool2d' op}}
  %0 = graph.avg_pool2d %x {kernel = [1, 9223372036854775807], strides = [1, 1], pads = [0, 9223372036854775806, 0, 9223372036854775806]} : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}
