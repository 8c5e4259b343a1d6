// fuse-epilogues: elementwise consumers of a kernel op join its epilogue region; a
// reshape that keeps the innermost dimension moves out of the way first.
// RUN: %tcc-opt %s --split-input-file --pass-pipeline='fuse-epilogues' | FileCheck %s

// CHECK-LABEL: func.func @conv_bias_residual_relu
// CHECK: %[[Y:.*]] = graph.conv2d_nchwc %arg0, %arg1, %arg2, %arg3 {{.*}} ({
// CHECK-NEXT: ^bb0(%arg0: tensor<1x1x4x4x4xf32>, %arg1: tensor<1x1x1x1x4xf32>, %arg2: tensor<1x1x4x4x4xf32>):
// CHECK-NEXT:   %0 = graph.add %arg0, %arg1
// CHECK-NEXT:   %1 = graph.add %0, %arg2
// CHECK-NEXT:   %2 = graph.clamp %1 {max = 6.0, min = 0.0}
// CHECK-NEXT:   graph.yield %2
// CHECK: return %[[Y]]
func.func @conv_bias_residual_relu(%x: tensor<1x1x4x4x4xf32>, %w: tensor<1x1x1x1x4x4xf32>, %b: tensor<1x1x1x1x4xf32>, %r: tensor<1x1x4x4x4xf32>) -> tensor<1x1x4x4x4xf32> {
  %y = graph.conv2d_nchwc %x, %w : (tensor<1x1x4x4x4xf32>, tensor<1x1x1x1x4x4xf32>) -> tensor<1x1x4x4x4xf32>
  %a = graph.add %y, %b : (tensor<1x1x4x4x4xf32>, tensor<1x1x1x1x4xf32>) -> tensor<1x1x4x4x4xf32>
  %s = graph.add %a, %r : (tensor<1x1x4x4x4xf32>, tensor<1x1x4x4x4xf32>) -> tensor<1x1x4x4x4xf32>
  %c = graph.clamp %s {min = 0.0, max = 6.0} : (tensor<1x1x4x4x4xf32>) -> tensor<1x1x4x4x4xf32>
  return %c : tensor<1x1x4x4x4xf32>
}

// -----

// A result used twice is not fused (it is stored for the other use).
// CHECK-LABEL: func.func @two_uses
// CHECK: graph.conv2d_nchwc %arg0, %arg1 :
// CHECK: graph.relu
func.func @two_uses(%x: tensor<1x1x4x4x4xf32>, %w: tensor<1x1x1x1x4x4xf32>) -> (tensor<1x1x4x4x4xf32>, tensor<1x1x4x4x4xf32>) {
  %y = graph.conv2d_nchwc %x, %w : (tensor<1x1x4x4x4xf32>, tensor<1x1x1x1x4x4xf32>) -> tensor<1x1x4x4x4xf32>
  %r = graph.relu %y : (tensor<1x1x4x4x4xf32>) -> tensor<1x1x4x4x4xf32>
  return %y, %r : tensor<1x1x4x4x4xf32>, tensor<1x1x4x4x4xf32>
}

// -----

// SiLU, x * sigmoid(x), uses the result twice: the pair joins the epilogue (after the
// bias), the sigmoid on the accumulator, then the product.
// CHECK-LABEL: func.func @conv_silu
// CHECK: %[[Y:.*]] = graph.conv2d_nchwc %arg0, %arg1, %arg2 {{.*}} ({
// CHECK-NEXT: ^bb0(%arg0: tensor<1x1x4x4x4xf32>, %arg1: tensor<1x1x1x1x4xf32>):
// CHECK-NEXT:   %0 = graph.add %arg0, %arg1
// CHECK-NEXT:   %1 = graph.sigmoid %0
// CHECK-NEXT:   %2 = graph.mul %0, %1
// CHECK-NEXT:   graph.yield %2
// CHECK-NOT: graph.sigmoid
// CHECK: return %[[Y]]
func.func @conv_silu(%x: tensor<1x1x4x4x4xf32>, %w: tensor<1x1x1x1x4x4xf32>, %b: tensor<1x1x1x1x4xf32>) -> tensor<1x1x4x4x4xf32> {
  %y = graph.conv2d_nchwc %x, %w : (tensor<1x1x4x4x4xf32>, tensor<1x1x1x1x4x4xf32>) -> tensor<1x1x4x4x4xf32>
  %a = graph.add %y, %b : (tensor<1x1x4x4x4xf32>, tensor<1x1x1x1x4xf32>) -> tensor<1x1x4x4x4xf32>
  %s = graph.sigmoid %a : (tensor<1x1x4x4x4xf32>) -> tensor<1x1x4x4x4xf32>
  %m = graph.mul %a, %s : (tensor<1x1x4x4x4xf32>, tensor<1x1x4x4x4xf32>) -> tensor<1x1x4x4x4xf32>
  return %m : tensor<1x1x4x4x4xf32>
}

// -----

// A dense layer: matmul -> reshape -> bias add. The add moves before the reshape and
// joins the matmul's epilogue with the bias reshaped to [1, 1, 10].
// CHECK-LABEL: func.func @dense
// CHECK: %[[B:.*]] = graph.reshape %arg2 {shape = [1, 1, 10]}
// CHECK: %[[M:.*]] = graph.matmul_packed %arg0, %arg1, %[[B]]
// CHECK: graph.add
// CHECK: graph.reshape %[[M]] {shape = [1, 10]}
func.func @dense(%a: tensor<1x1x16xf32>, %bp: tensor<3x16x4xf32>, %bias: tensor<1x10xf32>) -> tensor<1x10xf32> {
  %m = graph.matmul_packed %a, %bp : (tensor<1x1x16xf32>, tensor<3x16x4xf32>) -> tensor<1x1x10xf32>
  %r = graph.reshape %m {shape = [1, 10]} : (tensor<1x1x10xf32>) -> tensor<1x10xf32>
  %y = graph.add %r, %bias : (tensor<1x10xf32>, tensor<1x10xf32>) -> tensor<1x10xf32>
  return %y : tensor<1x10xf32>
}
