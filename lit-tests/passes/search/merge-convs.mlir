// The hand-written merge of two convolutions of one input leaves the cases the
// generated rules of the image world state (stride 1, "same" padding, 1x1 and 3x3
// kernels) to them, so the two never build the same candidate twice: here two strided
// convolutions go to the hand-written rule, two of stride 1 to a generated one.
//
// RUN: %tcc-opt %s --split-input-file --pass-pipeline="rewrite-search{verbose=true}" 2>&1 >/dev/null | FileCheck %s
// CHECK: rewrite-search: candidates by rule: merge-convs-sharing-input {{[0-9]+}}{{$}}
// CHECK: rewrite-search: candidates by rule: image-{{[0-9]+}} {{[0-9]+}}{{$}}

func.func @strided(%x: tensor<1x8x64x64xf32>) -> (tensor<1x4x32x32xf32>, tensor<1x4x32x32xf32>) {
  %w1 = graph.constant {value = dense<0.5> : tensor<4x8x3x3xf32>} : () -> tensor<4x8x3x3xf32>
  %w2 = graph.constant {value = dense<0.25> : tensor<4x8x3x3xf32>} : () -> tensor<4x8x3x3xf32>
  %b1 = graph.constant {value = dense<0.125> : tensor<4xf32>} : () -> tensor<4xf32>
  %b2 = graph.constant {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = graph.conv2d %x, %w1, %b1 {strides = [2, 2], pads = [1, 1, 1, 1], dilations = [1, 1], groups = 1} : (tensor<1x8x64x64xf32>, tensor<4x8x3x3xf32>, tensor<4xf32>) -> tensor<1x4x32x32xf32>
  %1 = graph.conv2d %x, %w2, %b2 {strides = [2, 2], pads = [1, 1, 1, 1], dilations = [1, 1], groups = 1} : (tensor<1x8x64x64xf32>, tensor<4x8x3x3xf32>, tensor<4xf32>) -> tensor<1x4x32x32xf32>
  return %0, %1 : tensor<1x4x32x32xf32>, tensor<1x4x32x32xf32>
}

// -----

func.func @stride_one(%x: tensor<1x8x64x64xf32>) -> (tensor<1x4x64x64xf32>, tensor<1x4x64x64xf32>) {
  %w1 = graph.constant {value = dense<0.5> : tensor<4x8x3x3xf32>} : () -> tensor<4x8x3x3xf32>
  %w2 = graph.constant {value = dense<0.25> : tensor<4x8x3x3xf32>} : () -> tensor<4x8x3x3xf32>
  %b1 = graph.constant {value = dense<0.125> : tensor<4xf32>} : () -> tensor<4xf32>
  %b2 = graph.constant {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = graph.conv2d %x, %w1, %b1 {strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], groups = 1} : (tensor<1x8x64x64xf32>, tensor<4x8x3x3xf32>, tensor<4xf32>) -> tensor<1x4x64x64xf32>
  %1 = graph.conv2d %x, %w2, %b2 {strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], groups = 1} : (tensor<1x8x64x64xf32>, tensor<4x8x3x3xf32>, tensor<4xf32>) -> tensor<1x4x64x64xf32>
  return %0, %1 : tensor<1x4x64x64xf32>, tensor<1x4x64x64xf32>
}
