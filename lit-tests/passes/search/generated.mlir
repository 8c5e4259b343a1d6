// The search applies generated rules (rules/generated/, proved by tcc-rulegen) where the
// cost model says they pay, like the hand-written ones. Here the analytical estimate
// decides (no cost database).
//
// RUN: %tcc-opt %s --pass-pipeline="rewrite-search{verbose=true}" 2>%t.log | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.log
// RUN: %tcc-opt %s --pass-pipeline="rewrite-search{mode=off}" | FileCheck %s --check-prefix=OFF

// x @ a + x @ b is x @ (a + b): one matmul instead of two, and the sum of the constant
// weights folds at compile time. (A low-rank adapter's update merged into its weights
// has this form.)
// CHECK-LABEL: func.func @distribute
// CHECK: %[[W:.*]] = graph.add %{{.*}}, %{{.*}} : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
// CHECK: %[[M:.*]] = graph.matmul %arg0, %[[W]] : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
// CHECK-NOT: graph.matmul
// CHECK: return %[[M]]
// OFF-LABEL: func.func @distribute
// OFF-COUNT-2: graph.matmul
func.func @distribute(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %a = graph.constant {value = dense<0.5> : tensor<256x256xf32>} : () -> tensor<256x256xf32>
  %b = graph.constant {value = dense<0.25> : tensor<256x256xf32>} : () -> tensor<256x256xf32>
  %0 = graph.matmul %x, %a : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
  %1 = graph.matmul %x, %b : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
  %2 = graph.add %0, %1 : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
  return %2 : tensor<64x256xf32>
}
// LOG: rewrite-search: {{.*}}; rules: matrix-{{[0-9]+}}

// The matrix world's rules are stated for any rank of 2 or more (one rank for all their
// matrices, the leading axes a batch): they fire on batched matmuls as torch-mlir
// exports them (rank 3), with a batch of one broadcast.
// CHECK-LABEL: func.func @batched
// CHECK: %[[W:.*]] = graph.add %{{.*}}, %{{.*}} : (tensor<1x256x256xf32>, tensor<1x256x256xf32>) -> tensor<1x256x256xf32>
// CHECK: %[[M:.*]] = graph.matmul %arg0, %[[W]] : (tensor<2x64x256xf32>, tensor<1x256x256xf32>) -> tensor<2x64x256xf32>
// CHECK-NOT: graph.matmul
// CHECK: return %[[M]]
func.func @batched(%x: tensor<2x64x256xf32>) -> tensor<2x64x256xf32> {
  %a = graph.constant {value = dense<0.5> : tensor<1x256x256xf32>} : () -> tensor<1x256x256xf32>
  %b = graph.constant {value = dense<0.25> : tensor<1x256x256xf32>} : () -> tensor<1x256x256xf32>
  %0 = graph.matmul %x, %a : (tensor<2x64x256xf32>, tensor<1x256x256xf32>) -> tensor<2x64x256xf32>
  %1 = graph.matmul %x, %b : (tensor<2x64x256xf32>, tensor<1x256x256xf32>) -> tensor<2x64x256xf32>
  %2 = graph.add %0, %1 : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
  return %2 : tensor<2x64x256xf32>
}

// A rule whose guards do not hold is not applied: the weights here have another rank
// than the activations (numpy's matmul broadcasts them, the rules ask for one rank).
// CHECK-LABEL: func.func @mixed_ranks
// CHECK-COUNT-2: graph.matmul
func.func @mixed_ranks(%x: tensor<2x64x256xf32>) -> tensor<2x64x256xf32> {
  %a = graph.constant {value = dense<0.5> : tensor<256x256xf32>} : () -> tensor<256x256xf32>
  %b = graph.constant {value = dense<0.25> : tensor<256x256xf32>} : () -> tensor<256x256xf32>
  %0 = graph.matmul %x, %a : (tensor<2x64x256xf32>, tensor<256x256xf32>) -> tensor<2x64x256xf32>
  %1 = graph.matmul %x, %b : (tensor<2x64x256xf32>, tensor<256x256xf32>) -> tensor<2x64x256xf32>
  %2 = graph.add %0, %1 : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
  return %2 : tensor<2x64x256xf32>
}

// The image world's convolutions have a bias, as every exported one has. A 3x3 and a
// 1x1 convolution of one image, added (a RepVGG block as it trains, its batch norms
// folded into the biases), are one 3x3 convolution by the 3x3 filter plus the 1x1 one
// padded, with the summed biases (kernel enlargement and distributivity in one
// generated rule; the filter and bias sums fold at compile time).
// CHECK-LABEL: func.func @repvgg
// CHECK: %[[P:.*]] = graph.pad %{{.*}} {high = [0, 0, 1, 1], low = [0, 0, 1, 1]} : (tensor<32x16x1x1xf32>) -> tensor<32x16x3x3xf32>
// CHECK: %[[W:.*]] = graph.add %{{.*}}, %[[P]] : (tensor<32x16x3x3xf32>, tensor<32x16x3x3xf32>)
// CHECK: %[[B:.*]] = graph.add %{{.*}}, %{{.*}} : (tensor<32xf32>, tensor<32xf32>)
// CHECK: %[[C:.*]] = graph.conv2d %arg0, %[[W]], %[[B]] {dilations = [1, 1], groups = 1, pads = [1, 1, 1, 1], strides = [1, 1]}
// CHECK-NOT: graph.conv2d
// CHECK: return %[[C]]
// OFF-LABEL: func.func @repvgg
// OFF-COUNT-2: graph.conv2d
func.func @repvgg(%x: tensor<1x16x56x56xf32>) -> tensor<1x32x56x56xf32> {
  %w3 = graph.constant {value = dense<0.5> : tensor<32x16x3x3xf32>} : () -> tensor<32x16x3x3xf32>
  %b3 = graph.constant {value = dense<0.125> : tensor<32xf32>} : () -> tensor<32xf32>
  %w1 = graph.constant {value = dense<0.25> : tensor<32x16x1x1xf32>} : () -> tensor<32x16x1x1xf32>
  %b1 = graph.constant {value = dense<1.0> : tensor<32xf32>} : () -> tensor<32xf32>
  %0 = graph.conv2d %x, %w3, %b3 {strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], groups = 1} : (tensor<1x16x56x56xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>) -> tensor<1x32x56x56xf32>
  %1 = graph.conv2d %x, %w1, %b1 {strides = [1, 1], pads = [0, 0, 0, 0], dilations = [1, 1], groups = 1} : (tensor<1x16x56x56xf32>, tensor<32x16x1x1xf32>, tensor<32xf32>) -> tensor<1x32x56x56xf32>
  %2 = graph.add %0, %1 : (tensor<1x32x56x56xf32>, tensor<1x32x56x56xf32>) -> tensor<1x32x56x56xf32>
  return %2 : tensor<1x32x56x56xf32>
}
// (The search runs over the module at once: one report line for all the functions.)
// LOG-SAME: image-{{[0-9]+}}
