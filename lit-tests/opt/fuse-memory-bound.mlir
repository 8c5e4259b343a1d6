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

// A group norm on NCHW4c after canonicalization: the statistics reduce [H, W, 4] of the
// conv's output, a per-channel scale and shift ([1, 2, 1, 1, 4]) repeat along the rows,
// and the scalar constants keep torch-mlir's lower rank (they broadcast, aligned to the
// last dimensions): all of it is one group stitched around the rows.
// CHECK-LABEL: func.func @group_norm
// CHECK: graph.fused %arg0, {{.*}} -> tensor<1x2x3x3x4xf32> ({
// CHECK: graph.reduce_sum {{.*}}axes = [2, 3, 4]
// CHECK: graph.reduce_sum {{.*}}axes = [2, 3, 4]
// CHECK: graph.clamp
// CHECK-NEXT: graph.yield
// CHECK-NOT: graph.fused
func.func @group_norm(%x: tensor<1x2x3x3x4xf32>, %gamma: tensor<1x2x1x1x4xf32>, %beta: tensor<1x2x1x1x4xf32>) -> tensor<1x2x3x3x4xf32> {
  %inv = graph.constant {value = dense<0.027777777777777776> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %eps = graph.constant {value = dense<1.0e-5> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %s = graph.reduce_sum %x {axes = [2, 3, 4], keepdims = true} : (tensor<1x2x3x3x4xf32>) -> tensor<1x2x1x1x1xf32>
  %m = graph.mul %s, %inv : (tensor<1x2x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x1x1x1xf32>
  %d = graph.sub %x, %m : (tensor<1x2x3x3x4xf32>, tensor<1x2x1x1x1xf32>) -> tensor<1x2x3x3x4xf32>
  %d2 = graph.mul %d, %d : (tensor<1x2x3x3x4xf32>, tensor<1x2x3x3x4xf32>) -> tensor<1x2x3x3x4xf32>
  %v = graph.reduce_sum %d2 {axes = [2, 3, 4], keepdims = true} : (tensor<1x2x3x3x4xf32>) -> tensor<1x2x1x1x1xf32>
  %vm = graph.mul %v, %inv : (tensor<1x2x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x1x1x1xf32>
  %ve = graph.add %vm, %eps : (tensor<1x2x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x1x1x1xf32>
  %r = graph.rsqrt %ve : (tensor<1x2x1x1x1xf32>) -> tensor<1x2x1x1x1xf32>
  %scale = graph.mul %r, %gamma : (tensor<1x2x1x1x1xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x1x1x4xf32>
  %nm = graph.neg %m : (tensor<1x2x1x1x1xf32>) -> tensor<1x2x1x1x1xf32>
  %sh = graph.mul %nm, %scale : (tensor<1x2x1x1x1xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x1x1x4xf32>
  %shift = graph.add %sh, %beta : (tensor<1x2x1x1x4xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x1x1x4xf32>
  %y0 = graph.mul %x, %scale : (tensor<1x2x3x3x4xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x3x3x4xf32>
  %y1 = graph.add %y0, %shift : (tensor<1x2x3x3x4xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x3x3x4xf32>
  %y = graph.clamp %y1 {min = 0.0, max = 3.0e38} : (tensor<1x2x3x3x4xf32>) -> tensor<1x2x3x3x4xf32>
  return %y : tensor<1x2x3x3x4xf32>
}
