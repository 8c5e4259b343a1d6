// fuse-memory-bound: memory-bound ops stitched into fusion groups (graph.fused) around
// a reduction or an elementwise root, producers inlined.
// RUN: %tcc-opt %s --pass-pipeline=fuse-memory-bound | FileCheck %s
// The fused graph still parses and verifies.
// RUN: %tcc-opt %s --pass-pipeline=fuse-memory-bound | %tcc-opt | FileCheck %s

// A norm's variance: both reductions reduce the rows of %x, so the mean, the
// centring, the square and the second sum are one group stitched around the rows.
// CHECK-LABEL: func.func @variance(%arg0: tensor<8x32xf32>)
// CHECK: [[V:%[0-9]+]] = graph.fused %arg0, %{{[0-9]+}} : (tensor<8x32xf32>, tensor<1x1xf64>) -> tensor<8x1xf64> ({
// CHECK-NEXT: ^bb0([[A:%arg[0-9]+]]: tensor<8x32xf32>, [[N:%arg[0-9]+]]: tensor<1x1xf64>):
// CHECK-NEXT: [[C:%[0-9]+]] = graph.cast [[A]]
// CHECK-NEXT: [[S:%[0-9]+]] = graph.reduce_sum [[C]] {axes = [1], keepdims = true}
// CHECK-NEXT: [[M:%[0-9]+]] = graph.mul [[S]], [[N]]
// CHECK-NEXT: [[D:%[0-9]+]] = graph.sub [[C]], [[M]]
// CHECK-NEXT: [[Q:%[0-9]+]] = graph.mul [[D]], [[D]]
// CHECK-NEXT: [[S2:%[0-9]+]] = graph.reduce_sum [[Q]] {axes = [1], keepdims = true}
// CHECK-NEXT: graph.yield [[S2]]
// CHECK-NEXT: })
// CHECK-NEXT: return [[V]]
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

// A softmax as torch-mlir writes it is one group: max and sum are sub-backbones of the
// same rows (the two innermost dimensions here), the reciprocal is computed per row.
// CHECK-LABEL: func.func @softmax
// CHECK-NEXT: [[R:%[0-9]+]] = graph.fused %arg0 : (tensor<3x4x8xf32>) -> tensor<3x4x8xf32> ({
// CHECK-NEXT: ^bb0
// CHECK-NEXT: graph.reduce_max %{{.*}} {axes = [1, 2], keepdims = true}
// CHECK-NEXT: graph.sub
// CHECK-NEXT: graph.exp
// CHECK-NEXT: graph.reduce_sum %{{.*}} {axes = [1, 2], keepdims = true}
// CHECK-NEXT: graph.reciprocal
// CHECK-NEXT: graph.mul
// CHECK-NEXT: graph.yield
// CHECK-NEXT: })
// CHECK-NEXT: return [[R]]
func.func @softmax(%x: tensor<3x4x8xf32>) -> tensor<3x4x8xf32> {
  %0 = graph.reduce_max %x {axes = [1, 2], keepdims = true} : (tensor<3x4x8xf32>) -> tensor<3x1x1xf32>
  %1 = graph.sub %x, %0 : (tensor<3x4x8xf32>, tensor<3x1x1xf32>) -> tensor<3x4x8xf32>
  %2 = graph.exp %1 : (tensor<3x4x8xf32>) -> tensor<3x4x8xf32>
  %3 = graph.reduce_sum %2 {axes = [1, 2], keepdims = true} : (tensor<3x4x8xf32>) -> tensor<3x1x1xf32>
  %4 = graph.reciprocal %3 : (tensor<3x1x1xf32>) -> tensor<3x1x1xf32>
  %5 = graph.mul %2, %4 : (tensor<3x4x8xf32>, tensor<3x1x1xf32>) -> tensor<3x4x8xf32>
  return %5 : tensor<3x4x8xf32>
}

// Not stitched: the exp would be computed by both reductions' loops (the result is a
// row's value, so it cannot be kept in the result buffer); the group keeps one
// reduction and the exp stays outside, computed once.
// CHECK-LABEL: func.func @costly_twice
// CHECK: graph.exp
// CHECK: graph.fused
// CHECK-NOT: graph.exp
// CHECK: return
func.func @costly_twice(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %0 = graph.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = graph.reduce_sum %0 {axes = [1], keepdims = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %2 = graph.sub %0, %1 : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %3 = graph.reduce_max %2 {axes = [1], keepdims = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %3 : tensor<4x1xf32>
}

// Not stitched: the reductions reduce the outer dimension, not the rows.
// CHECK-LABEL: func.func @outer_axis
// CHECK: graph.reduce_max %arg0
// CHECK: graph.fused
// CHECK-NOT: graph.reduce_max
// CHECK: return
func.func @outer_axis(%x: tensor<4x8xf32>) -> tensor<1x8xf32> {
  %0 = graph.reduce_max %x {axes = [0], keepdims = true} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %1 = graph.sub %x, %0 : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %2 = graph.reduce_sum %1 {axes = [0], keepdims = true} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  return %2 : tensor<1x8xf32>
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
