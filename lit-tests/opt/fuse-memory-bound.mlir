// fuse-memory-bound: memory-bound ops stitched into fusion groups (graph.fused) around
// a reduction or an elementwise root, producers inlined.
// RUN: %tcc-opt %s --pass-pipeline=fuse-memory-bound | FileCheck %s
// The fused graph still parses and verifies.
// RUN: %tcc-opt %s --pass-pipeline=fuse-memory-bound | %tcc-opt | FileCheck %s

// A norm's variance: the cast, the centring and the square are computed inside the
// reduction's loop; the mean (broadcast) is an input. The cast also feeds the mean's
// reduction: cheap, it is computed again there rather than stored.
// CHECK-LABEL: func.func @variance(%arg0: tensor<8x32xf32>)
// CHECK: [[SUM:%[0-9]+]] = graph.fused %arg0 : (tensor<8x32xf32>) -> tensor<8x1xf64> ({
// CHECK-NEXT: ^bb0([[A:%arg[0-9]+]]: tensor<8x32xf32>):
// CHECK-NEXT: [[C:%[0-9]+]] = graph.cast [[A]]
// CHECK-NEXT: [[S:%[0-9]+]] = graph.reduce_sum [[C]] {axes = [1], keepdims = true}
// CHECK-NEXT: graph.yield [[S]]
// CHECK: [[MEAN:%[0-9]+]] = graph.mul [[SUM]], %{{[0-9]+}}
// CHECK: graph.fused %arg0, [[MEAN]] : (tensor<8x32xf32>, tensor<8x1xf64>) -> tensor<8x1xf64> ({
// CHECK: graph.cast
// CHECK-NEXT: graph.sub
// CHECK-NEXT: graph.mul
// CHECK-NEXT: graph.reduce_sum
// CHECK-NOT: graph.cast
// CHECK: return
func.func @variance(%x: tensor<8x32xf32>) -> tensor<8x1xf64> {
  %c = graph.constant {value = dense<0.03125> : tensor<1x1xf64>} : () -> tensor<1x1xf64>
  %0 = graph.cast %x : (tensor<8x32xf32>) -> tensor<8x32xf64>
  %1 = graph.reduce_sum %0 {axes = [1], keepdims = true} : (tensor<8x32xf64>) -> tensor<8x1xf64>
  %2 = graph.mul %1, %c : (tensor<8x1xf64>, tensor<1x1xf64>) -> tensor<8x1xf64>
  %3 = graph.sub %0, %2 : (tensor<8x32xf64>, tensor<8x1xf64>) -> tensor<8x32xf64>
  %4 = graph.mul %3, %3 : (tensor<8x32xf64>, tensor<8x32xf64>) -> tensor<8x32xf64>
  %5 = graph.reduce_sum %4 {axes = [1], keepdims = true} : (tensor<8x32xf64>) -> tensor<8x1xf64>
  return %5 : tensor<8x1xf64>
}

// An elementwise chain is one group; an expensive op with another user (exp) is not
// computed twice: it stays, and the groups read it.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: [[E:%[0-9]+]] = graph.exp %arg0
// CHECK-NEXT: graph.fused [[E]], %arg1 : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> ({
// CHECK: graph.mul
// CHECK-NEXT: graph.add
// CHECK-NEXT: graph.clamp
// CHECK: graph.reduce_max [[E]]
func.func @chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x1xf32>) {
  %0 = graph.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = graph.mul %0, %0 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = graph.add %1, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %3 = graph.clamp %2 {min = 0.0, max = 6.0} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = graph.reduce_max %0 {axes = [1], keepdims = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %3, %4 : tensor<4x8xf32>, tensor<4x1xf32>
}

// Reshapes bound groups; a lone op is no group; a reduction dropping its dimensions
// is not a group root.
// CHECK-LABEL: func.func @bounds
// CHECK-NOT: graph.fused
// CHECK: return
func.func @bounds(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = graph.neg %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = graph.reshape %0 {shape = [32]} : (tensor<4x8xf32>) -> tensor<32xf32>
  %2 = graph.tanh %1 : (tensor<32xf32>) -> tensor<32xf32>
  %3 = graph.reshape %2 {shape = [4, 8]} : (tensor<32xf32>) -> tensor<4x8xf32>
  %4 = graph.reduce_sum %3 {axes = [1], keepdims = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}
