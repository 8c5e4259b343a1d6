// rewrite-search{mode=eqsat}: equality saturation. Every single-output search rule is
// applied everywhere in an e-graph, then the cheapest graph is extracted (here by the
// analytical estimate). A LoRA adapter beside its weight, x @ W + (x @ A) @ B, becomes
// one matmul by the constant W + A @ B: associativity ((x @ A) @ B = x @ (A @ B), which
// alone costs 16 times the FLOPs of the adapter here), then distributivity, both
// generated rules stated for batches. The backtracking search (taso) never keeps the
// costlier middle graph, so it cannot get there.
//
// RUN: %tcc-opt %s --pass-pipeline="rewrite-search{mode=eqsat verbose=true}" 2>%t.log | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.log
// RUN: %tcc-opt %s --pass-pipeline="rewrite-search{mode=taso}" | FileCheck %s --check-prefix=TASO
// RUN: %tcc-opt %s --rewrite-search=eqsat | FileCheck %s

// CHECK-LABEL: func.func @lora_adapter
// CHECK: %[[AB:.*]] = graph.matmul %{{.*}}, %{{.*}} : (tensor<1x256x8xf32>, tensor<1x8x256xf32>) -> tensor<1x256x256xf32>
// CHECK: %[[W:.*]] = graph.add %{{.*}}, %[[AB]]
// CHECK: %[[M:.*]] = graph.matmul %arg0, %[[W]] : (tensor<1x64x256xf32>, tensor<1x256x256xf32>) -> tensor<1x64x256xf32>
// CHECK-NEXT: return %[[M]]
// TASO-LABEL: func.func @lora_adapter
// TASO-COUNT-3: graph.matmul %
// LOG: rewrite-search: {{.*}} graphs expanded, {{.*}}; rules: matrix-{{[0-9]+}}, matrix-{{[0-9]+}}
func.func @lora_adapter(%x: tensor<1x64x256xf32>) -> tensor<1x64x256xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<1x256x256xf32>} : () -> tensor<1x256x256xf32>
  %a = graph.constant {value = dense<0.25> : tensor<1x256x8xf32>} : () -> tensor<1x256x8xf32>
  %b = graph.constant {value = dense<0.125> : tensor<1x8x256xf32>} : () -> tensor<1x8x256xf32>
  %0 = graph.matmul %x, %w : (tensor<1x64x256xf32>, tensor<1x256x256xf32>) -> tensor<1x64x256xf32>
  %1 = graph.matmul %x, %a : (tensor<1x64x256xf32>, tensor<1x256x8xf32>) -> tensor<1x64x8xf32>
  %2 = graph.matmul %1, %b : (tensor<1x64x8xf32>, tensor<1x8x256xf32>) -> tensor<1x64x256xf32>
  %3 = graph.add %0, %2 : (tensor<1x64x256xf32>, tensor<1x64x256xf32>) -> tensor<1x64x256xf32>
  return %3 : tensor<1x64x256xf32>
}
