// graph.fused: a fusion group prints, parses and verifies (malformed groups:
// kernel-ops-invalid.mlir).
// RUN: %tcc-opt %s | FileCheck %s
// RUN: %tcc-opt %s | %tcc-opt | FileCheck %s

// CHECK-LABEL: func.func @variance
// CHECK: graph.fused %arg0, %arg1 : (tensor<8x16xf32>, tensor<8x1xf32>) -> tensor<8x1xf32> ({
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: graph.sub
// CHECK-NEXT: graph.mul
// CHECK-NEXT: graph.reduce_sum
// CHECK-NEXT: graph.yield
// CHECK-NEXT: })
func.func @variance(%x: tensor<8x16xf32>, %m: tensor<8x1xf32>) -> tensor<8x1xf32> {
  %r = graph.fused %x, %m : (tensor<8x16xf32>, tensor<8x1xf32>) -> tensor<8x1xf32> ({
  ^bb0(%a: tensor<8x16xf32>, %b: tensor<8x1xf32>):
    %0 = graph.sub %a, %b : (tensor<8x16xf32>, tensor<8x1xf32>) -> tensor<8x16xf32>
    %1 = graph.mul %0, %0 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
    %2 = graph.reduce_sum %1 {axes = [1], keepdims = true} : (tensor<8x16xf32>) -> tensor<8x1xf32>
    graph.yield %2 : tensor<8x1xf32>
  })
  return %r : tensor<8x1xf32>
}
