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
