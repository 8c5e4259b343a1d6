// The reshape-hoist pattern: reshape(f(a1, .., an), T) for an elementwise f becomes
// f(a1', .., an'), each operand mapped through the reshape's groups of dimensions (1s
// where it is broadcast over a whole group, T's extents where it is full), and so on up
// through operands that are elementwise ops, when every leaf of that cone is a constant
// (it folds to the new shape), a scalar-like value, or a reshape from the mapped shape
// (it cancels). Ops of the cone with other users stay for them: the cone is copied, and
// cse merges the copies. Only for results of up to 65536 elements.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s
// RUN: %tcc-opt %s --pass-pipeline=canonicalize,cse | FileCheck %s --check-prefix=CSE

// A group mean computed on [1, 32, 1, 1] and reshaped back to the blocked rank: the
// reshapes cancel, the constant and the scalar %arg1 broadcast as before.
// CHECK-LABEL: func.func @group_mean(%arg0: tensor<1x32x1x1x1xf32>, %arg1: tensor<1x1xf32>)
// CHECK-NEXT: %0 = graph.constant {value = dense<0.25> : tensor<1x1x1x1xf32>}
// CHECK-NEXT: %1 = graph.mul %arg0, %0 : (tensor<1x32x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x32x1x1x1xf32>
// CHECK-NEXT: %2 = graph.sub %1, %arg1 : (tensor<1x32x1x1x1xf32>, tensor<1x1xf32>) -> tensor<1x32x1x1x1xf32>
// CHECK-NEXT: return %2
func.func @group_mean(%r: tensor<1x32x1x1x1xf32>, %s: tensor<1x1xf32>) -> tensor<1x32x1x1x1xf32> {
  %c = graph.constant {value = dense<0.25> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %0 = graph.reshape %r {shape = [1, 32, 1, 1]} : (tensor<1x32x1x1x1xf32>) -> tensor<1x32x1x1xf32>
  %1 = graph.mul %0, %c : (tensor<1x32x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x32x1x1xf32>
  %2 = graph.sub %1, %s : (tensor<1x32x1x1xf32>, tensor<1x1xf32>) -> tensor<1x32x1x1xf32>
  %3 = graph.reshape %2 {shape = [1, 32, 1, 1, 1]} : (tensor<1x32x1x1xf32>) -> tensor<1x32x1x1x1xf32>
  return %3 : tensor<1x32x1x1x1xf32>
}

// A group norm's per-channel scale rsqrt(var + eps) * gamma and shift beta - mean *
// scale, computed on [1, G, C/G, 1] and reshaped to the blocked [1, G, 1, 1, C/G]:
// gamma folds to the blocked shape, the statistics' reshapes cancel. The scale is used
// by the shift too: its cone is copied for the first reshape, and cse merges the copy
// made for the second.
// CHECK-LABEL: func.func @scale_and_shift
// CHECK-NOT: graph.reshape
// CHECK: return
// CSE-LABEL: func.func @scale_and_shift(%arg0: tensor<1x4x1x1x1xf32>, %arg1: tensor<1x4x1x1x1xf32>)
// CSE-NEXT: %0 = graph.constant {value = dense<1.0e-5> : tensor<1x1x1x1xf32>}
// CSE-NEXT: %1 = graph.constant {value = dense<0.5> : tensor<1x1x1x1xf32>}
// CSE-NEXT: %2 = graph.add %arg0, %0 : (tensor<1x4x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x1x1x1xf32>
// CSE-NEXT: %3 = graph.rsqrt %2 : (tensor<1x4x1x1x1xf32>) -> tensor<1x4x1x1x1xf32>
// CSE-NEXT: %4 = graph.constant {value = dense<{{\[\[\[\[\[}}1.0, 2.0]]], {{.*}} : tensor<1x4x1x1x2xf32>}
// CSE-NEXT: %5 = graph.mul %3, %4 : (tensor<1x4x1x1x1xf32>, tensor<1x4x1x1x2xf32>) -> tensor<1x4x1x1x2xf32>
// CSE-NEXT: %6 = graph.neg %arg1 : (tensor<1x4x1x1x1xf32>) -> tensor<1x4x1x1x1xf32>
// CSE-NEXT: %7 = graph.mul %6, %5 : (tensor<1x4x1x1x1xf32>, tensor<1x4x1x1x2xf32>) -> tensor<1x4x1x1x2xf32>
// CSE-NEXT: %8 = graph.add %7, %1 : (tensor<1x4x1x1x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x1x1x2xf32>
// CSE-NEXT: return %5, %8
func.func @scale_and_shift(%var: tensor<1x4x1x1x1xf32>, %mean: tensor<1x4x1x1x1xf32>) -> (tensor<1x4x1x1x2xf32>, tensor<1x4x1x1x2xf32>) {
  %eps = graph.constant {value = dense<1.0e-5> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %gamma = graph.constant {value = dense<[[[[1.0], [2.0]], [[3.0], [4.0]], [[5.0], [6.0]], [[7.0], [8.0]]]]> : tensor<1x4x2x1xf32>} : () -> tensor<1x4x2x1xf32>
  %beta = graph.constant {value = dense<0.5> : tensor<1x4x2x1xf32>} : () -> tensor<1x4x2x1xf32>
  %v = graph.reshape %var {shape = [1, 4, 1, 1]} : (tensor<1x4x1x1x1xf32>) -> tensor<1x4x1x1xf32>
  %m = graph.reshape %mean {shape = [1, 4, 1, 1]} : (tensor<1x4x1x1x1xf32>) -> tensor<1x4x1x1xf32>
  %0 = graph.add %v, %eps : (tensor<1x4x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x1x1xf32>
  %1 = graph.rsqrt %0 : (tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %2 = graph.mul %1, %gamma : (tensor<1x4x1x1xf32>, tensor<1x4x2x1xf32>) -> tensor<1x4x2x1xf32>
  %3 = graph.neg %m : (tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %4 = graph.mul %3, %2 : (tensor<1x4x1x1xf32>, tensor<1x4x2x1xf32>) -> tensor<1x4x2x1xf32>
  %5 = graph.add %4, %beta : (tensor<1x4x2x1xf32>, tensor<1x4x2x1xf32>) -> tensor<1x4x2x1xf32>
  %6 = graph.reshape %2 {shape = [1, 4, 1, 1, 2]} : (tensor<1x4x2x1xf32>) -> tensor<1x4x1x1x2xf32>
  %7 = graph.reshape %5 {shape = [1, 4, 1, 1, 2]} : (tensor<1x4x2x1xf32>) -> tensor<1x4x1x1x2xf32>
  return %6, %7 : tensor<1x4x1x1x2xf32>, tensor<1x4x1x1x2xf32>
}

// A leaf that is neither a constant, nor scalar-like, nor a reshape: nothing would
// cancel, the reshape stays.
// CHECK-LABEL: func.func @other_leaf
// CHECK-NEXT: %0 = graph.add %arg0, %arg1 : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %1 = graph.reshape %0 {shape = [8]}
func.func @other_leaf(%a: tensor<4x2xf32>, %b: tensor<4x2xf32>) -> tensor<8xf32> {
  %0 = graph.add %a, %b : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %1 = graph.reshape %0 {shape = [8]} : (tensor<4x2xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// The constant varies along part of the merged group [4, 2] -> 8: it has no shape on
// [8]. The cone is left as it was (the reshape of %arg0 is not touched either).
// CHECK-LABEL: func.func @partial_constant
// CHECK-NEXT: graph.constant
// CHECK-NEXT: %1 = graph.reshape %arg0 {shape = [4, 2]}
// CHECK-NEXT: %2 = graph.mul %1, %0 : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %3 = graph.exp %2
// CHECK-NEXT: %4 = graph.reshape %3 {shape = [8]}
func.func @partial_constant(%r: tensor<8xf32>) -> tensor<8xf32> {
  %c = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = graph.reshape %r {shape = [4, 2]} : (tensor<8xf32>) -> tensor<4x2xf32>
  %1 = graph.mul %0, %c : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %2 = graph.exp %1 : (tensor<4x2xf32>) -> tensor<4x2xf32>
  %3 = graph.reshape %2 {shape = [8]} : (tensor<4x2xf32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

// 131072 elements: too large to move.
// CHECK-LABEL: func.func @large
// CHECK: graph.mul {{.*}} -> tensor<1x512x256x1xf32>
// CHECK-NEXT: graph.reshape
func.func @large(%r: tensor<1x512x1x1x1xf32>) -> tensor<1x512x1x1x256xf32> {
  %c = graph.constant {value = dense<2.0> : tensor<1x512x256x1xf32>} : () -> tensor<1x512x256x1xf32>
  %0 = graph.reshape %r {shape = [1, 512, 1, 1]} : (tensor<1x512x1x1x1xf32>) -> tensor<1x512x1x1xf32>
  %1 = graph.mul %0, %c : (tensor<1x512x1x1xf32>, tensor<1x512x256x1xf32>) -> tensor<1x512x256x1xf32>
  %2 = graph.reshape %1 {shape = [1, 512, 1, 1, 256]} : (tensor<1x512x256x1xf32>) -> tensor<1x512x1x1x256xf32>
  return %2 : tensor<1x512x1x1x256xf32>
}

// With the other patterns: torch-mlir's group norm (2 groups of 4 channels) on an
// NCHW4c activation after layout blocking (layout-as-reshape, gather-as-reshape,
// reshape-of-broadcast, broadcast-into-elementwise, reduce-of-reshape, and this one)
// is computed in the activation's rank, with nothing between the reductions and the
// ops on the activation but elementwise ops.
// CHECK-LABEL: func.func @blocked_group_norm(%arg0: tensor<1x2x3x3x4xf32>)
// CHECK-NEXT: %0 = graph.constant
// CHECK-NEXT: %1 = graph.constant
// CHECK-NEXT: %2 = graph.reduce_sum %arg0 {axes = [2, 3, 4], keepdims = true} : (tensor<1x2x3x3x4xf32>) -> tensor<1x2x1x1x1xf32>
// CHECK-NEXT: %3 = graph.mul %2, %0 : (tensor<1x2x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x1x1x1xf32>
// CHECK-NEXT: %4 = graph.sub %arg0, %3 : (tensor<1x2x3x3x4xf32>, tensor<1x2x1x1x1xf32>) -> tensor<1x2x3x3x4xf32>
// CHECK-NEXT: %5 = graph.mul %4, %4
// CHECK-NEXT: %6 = graph.reduce_sum %5 {axes = [2, 3, 4], keepdims = true} : (tensor<1x2x3x3x4xf32>) -> tensor<1x2x1x1x1xf32>
// CHECK-NEXT: %7 = graph.mul %6, %0 : (tensor<1x2x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x1x1x1xf32>
// CHECK-NEXT: %8 = graph.add %7, %1 : (tensor<1x2x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x1x1x1xf32>
// CHECK-NEXT: %9 = graph.rsqrt %8 : (tensor<1x2x1x1x1xf32>) -> tensor<1x2x1x1x1xf32>
// CHECK-NEXT: %10 = graph.constant {value = dense<{{.*}}> : tensor<1x2x1x1x4xf32>}
// CHECK-NEXT: %11 = graph.mul %9, %10 : (tensor<1x2x1x1x1xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x1x1x4xf32>
// CHECK-NEXT: %12 = graph.mul %4, %11 : (tensor<1x2x3x3x4xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x3x3x4xf32>
// CHECK-NEXT: return %12
func.func @blocked_group_norm(%x: tensor<1x2x3x3x4xf32>) -> tensor<1x2x3x3x4xf32> {
  %n = graph.constant {value = dense<0.027777778> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %eps = graph.constant {value = dense<1.0e-5> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %gamma = graph.constant {value = dense<[[[[1.0], [2.0], [3.0], [4.0]], [[5.0], [6.0], [7.0], [8.0]]]]> : tensor<1x2x4x1xf32>} : () -> tensor<1x2x4x1xf32>
  %iota = graph.constant {value = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>} : () -> tensor<1x8xi64>
  %0 = graph.reduce_sum %x {axes = [2, 3], keepdims = true} : (tensor<1x2x3x3x4xf32>) -> tensor<1x2x1x1x4xf32>
  %1 = graph.layout_transform %0 {src = "NCHW4c", dst = "NCHW"} : (tensor<1x2x1x1x4xf32>) -> tensor<1x8x1x1xf32>
  %2 = graph.reshape %1 {shape = [1, 2, 4, 1]} : (tensor<1x8x1x1xf32>) -> tensor<1x2x4x1xf32>
  %3 = graph.reduce_sum %2 {axes = [2], keepdims = true} : (tensor<1x2x4x1xf32>) -> tensor<1x2x1x1xf32>
  %mean = graph.mul %3, %n : (tensor<1x2x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x1x1xf32>
  %4 = graph.broadcast_to %mean {shape = [1, 2, 4, 1]} : (tensor<1x2x1x1xf32>) -> tensor<1x2x4x1xf32>
  %5 = graph.reshape %4 {shape = [1, 8, 1, 1]} : (tensor<1x2x4x1xf32>) -> tensor<1x8x1x1xf32>
  %6 = graph.layout_transform %5 {src = "NCHW", dst = "NCHW4c"} : (tensor<1x8x1x1xf32>) -> tensor<1x2x1x1x4xf32>
  %7 = graph.sub %x, %6 : (tensor<1x2x3x3x4xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x3x3x4xf32>
  %8 = graph.mul %7, %7 : (tensor<1x2x3x3x4xf32>, tensor<1x2x3x3x4xf32>) -> tensor<1x2x3x3x4xf32>
  %9 = graph.reduce_sum %8 {axes = [2, 3], keepdims = true} : (tensor<1x2x3x3x4xf32>) -> tensor<1x2x1x1x4xf32>
  %10 = graph.layout_transform %9 {src = "NCHW4c", dst = "NCHW"} : (tensor<1x2x1x1x4xf32>) -> tensor<1x8x1x1xf32>
  %11 = graph.reshape %10 {shape = [1, 2, 4, 1]} : (tensor<1x8x1x1xf32>) -> tensor<1x2x4x1xf32>
  %12 = graph.reduce_sum %11 {axes = [2], keepdims = true} : (tensor<1x2x4x1xf32>) -> tensor<1x2x1x1xf32>
  %var = graph.mul %12, %n : (tensor<1x2x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x1x1xf32>
  %13 = graph.add %var, %eps : (tensor<1x2x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x1x1xf32>
  %14 = graph.rsqrt %13 : (tensor<1x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  %15 = graph.mul %14, %gamma : (tensor<1x2x1x1xf32>, tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %16 = graph.reshape %15 {shape = [8, 1]} : (tensor<1x2x4x1xf32>) -> tensor<8x1xf32>
  %17 = graph.gather %16, %iota {axis = 0} : (tensor<8x1xf32>, tensor<1x8xi64>) -> tensor<1x8x1xf32>
  %18 = graph.reshape %17 {shape = [1, 8, 1, 1]} : (tensor<1x8x1xf32>) -> tensor<1x8x1x1xf32>
  %19 = graph.layout_transform %18 {src = "NCHW", dst = "NCHW4c"} : (tensor<1x8x1x1xf32>) -> tensor<1x2x1x1x4xf32>
  %20 = graph.mul %7, %19 : (tensor<1x2x3x3x4xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x3x3x4xf32>
  return %20 : tensor<1x2x3x3x4xf32>
}
