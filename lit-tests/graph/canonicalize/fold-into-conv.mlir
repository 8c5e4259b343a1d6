// The fold-into-conv pattern: batch norm after a conv, as exporters write it
// (sub, mul, mul, add by per-channel constants), folds into the conv's weights and
// bias; the new weights and bias are then constant-folded.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// w = 1 everywhere, b = [1, 2]; ((y - [1, 1]) * [2, 3]) + [0.5, 0.5]
//   = y * [2, 3] + ([1, 2] - 1) * [2, 3] + 0.5: w' = [2, 3] per channel, b' = [0.5, 3.5].
// CHECK-LABEL: func.func @batch_norm(%arg0: tensor<1x1x3x3xf32>)
// CHECK-NEXT: %0 = graph.constant {value = dense<{{\[\[\[\[}}2.0]]], {{\[\[\[}}3.0]]]]> : tensor<2x1x1x1xf32>}
// CHECK-NEXT: %1 = graph.constant {value = dense<[0.5, 3.5]> : tensor<2xf32>}
// CHECK-NEXT: %2 = graph.conv2d %arg0, %0, %1 :
// CHECK-NEXT: return %2
func.func @batch_norm(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = graph.constant {value = dense<1.0> : tensor<2x1x1x1xf32>} : () -> tensor<2x1x1x1xf32>
  %b = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %mean = graph.constant {value = dense<1.0> : tensor<1x2x1x1xf32>} : () -> tensor<1x2x1x1xf32>
  %scale = graph.constant {value = dense<[[[[2.0]], [[3.0]]]]> : tensor<1x2x1x1xf32>} : () -> tensor<1x2x1x1xf32>
  %shift = graph.constant {value = dense<0.5> : tensor<1x2x1x1xf32>} : () -> tensor<1x2x1x1xf32>
  %y = graph.conv2d %x, %w, %b : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %0 = graph.sub %y, %mean : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %1 = graph.mul %0, %scale : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %2 = graph.add %1, %shift : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %2 : tensor<1x2x3x3xf32>
}

// Without a bias, add gives the conv one; a scalar constant on the left broadcasts
// over the channels; mul without a bias scales the weights only.
// CHECK-LABEL: func.func @no_bias(%arg0: tensor<1x1x3x3xf32>)
// CHECK-NEXT: %0 = graph.constant {value = dense<4.0> : tensor<2x1x1x1xf32>}
// CHECK-NEXT: %1 = graph.constant {value = dense<0.25> : tensor<2xf32>}
// CHECK-NEXT: %2 = graph.conv2d %arg0, %0, %1
// CHECK-NEXT: return %2
func.func @no_bias(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = graph.constant {value = dense<1.0> : tensor<2x1x1x1xf32>} : () -> tensor<2x1x1x1xf32>
  %four = graph.constant {value = dense<4.0> : tensor<f32>} : () -> tensor<f32>
  %quarter = graph.constant {value = dense<0.25> : tensor<2x1x1xf32>} : () -> tensor<2x1x1xf32>
  %y = graph.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %0 = graph.mul %four, %y : (tensor<f32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %1 = graph.add %0, %quarter : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %1 : tensor<1x2x3x3xf32>
}

// Not folded: the conv result has another use; the constant varies along the width;
// the conv is subtracted from the constant; the weights are not constant. (The uniform
// constants become one value each.)
// CHECK-LABEL: func.func @not_folded
// CHECK: %[[Y:.*]] = graph.conv2d %arg0
// CHECK-NEXT: graph.constant {value = dense<2.0> : tensor<1x1x1x1xf32>}
// CHECK-NEXT: graph.add %[[Y]]
// CHECK: graph.conv2d %arg0
// CHECK-NEXT: graph.mul
// CHECK: graph.conv2d %arg0
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.sub %{{.*}}, %
// CHECK: graph.conv2d %arg0, %arg1
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.add
func.func @not_folded(%x: tensor<1x1x3x3xf32>, %v: tensor<2x1x1x1xf32>)
    -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %w = graph.constant {value = dense<1.0> : tensor<2x1x1x1xf32>} : () -> tensor<2x1x1x1xf32>
  %c = graph.constant {value = dense<[[[[1.0, 2.0, 3.0]]]]> : tensor<1x1x1x3xf32>} : () -> tensor<1x1x1x3xf32>
  %d = graph.constant {value = dense<2.0> : tensor<1x2x1x1xf32>} : () -> tensor<1x2x1x1xf32>
  %y0 = graph.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %0 = graph.add %y0, %d : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %y1 = graph.conv2d %x, %w {strides = [1, 1]} : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %1 = graph.mul %y1, %c : (tensor<1x2x3x3xf32>, tensor<1x1x1x3xf32>) -> tensor<1x2x3x3xf32>
  %y2 = graph.conv2d %x, %w {dilations = [1, 1]} : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %2 = graph.sub %d, %y2 : (tensor<1x2x1x1xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %y3 = graph.conv2d %x, %v : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %3 = graph.add %y3, %d : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %0, %1, %2, %3, %y0 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}
