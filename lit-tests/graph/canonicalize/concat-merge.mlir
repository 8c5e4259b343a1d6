// The concat-of-transposes and concat-of-convs patterns: a grouped convolution as
// torch-mlir exports it (channel slices, one convolution per group, a concat, all in
// NHWC between transposes) becomes one convolution with groups.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// Equal single-use transposes move below the concat, whose axis is permuted.
// CHECK-LABEL: func.func @transposes(%arg0: tensor<1x2x3x4xf32>, %arg1: tensor<1x5x3x4xf32>)
// CHECK-NEXT: %0 = graph.concat %arg0, %arg1 {axis = 1} : (tensor<1x2x3x4xf32>, tensor<1x5x3x4xf32>) -> tensor<1x7x3x4xf32>
// CHECK-NEXT: %1 = graph.transpose %0 {perm = [0, 2, 3, 1]} : (tensor<1x7x3x4xf32>) -> tensor<1x3x4x7xf32>
// CHECK-NEXT: return %1
func.func @transposes(%a: tensor<1x2x3x4xf32>, %b: tensor<1x5x3x4xf32>) -> tensor<1x3x4x7xf32> {
  %0 = graph.transpose %a {perm = [0, 2, 3, 1]} : (tensor<1x2x3x4xf32>) -> tensor<1x3x4x2xf32>
  %1 = graph.transpose %b {perm = [0, 2, 3, 1]} : (tensor<1x5x3x4xf32>) -> tensor<1x3x4x5xf32>
  %2 = graph.concat %0, %1 {axis = -1} : (tensor<1x3x4x2xf32>, tensor<1x3x4x5xf32>) -> tensor<1x3x4x7xf32>
  return %2 : tensor<1x3x4x7xf32>
}

// Not moved: an operand is not a transpose; a transpose has another user; the
// permutations differ.
// CHECK-LABEL: func.func @transposes_kept
// CHECK-NEXT: graph.transpose
// CHECK-NEXT: graph.concat
// CHECK-NEXT: graph.transpose
// CHECK-NEXT: graph.concat
// CHECK-NEXT: graph.transpose %arg2 {perm = [1, 0, 2]}
// CHECK-NEXT: graph.transpose %arg2 {perm = [0, 2, 1]}
// CHECK-NEXT: graph.concat
// CHECK-NEXT: return
func.func @transposes_kept(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>, %c: tensor<2x2x2xf32>)
    -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2x2xf32>) {
  %0 = graph.transpose %a {perm = [1, 0]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = graph.concat %0, %b {axis = 0} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  %2 = graph.transpose %b {perm = [1, 0]} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %3 = graph.concat %2, %0 {axis = 0} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  %4 = graph.transpose %c {perm = [1, 0, 2]} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %5 = graph.transpose %c {perm = [0, 2, 1]} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %6 = graph.concat %4, %5 {axis = 0} : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<4x2x2xf32>
  return %1, %3, %6 : tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2x2xf32>
}

// Three groups of two channels, two output channels each, with biases: one grouped
// convolution whose weights and biases are the pieces' in order.
// CHECK-LABEL: func.func @grouped(%arg0: tensor<1x6x5x5xf32>)
// CHECK-DAG: %[[W:.*]] = graph.constant {value = dense<{{\[\[\[\[}}1.0]], {{\[\[}}1.0]]], {{\[\[\[}}2.0]], {{\[\[}}2.0]]], {{\[\[\[}}3.0]], {{\[\[}}3.0]]], {{\[\[\[}}4.0]], {{\[\[}}4.0]]], {{\[\[\[}}5.0]], {{\[\[}}5.0]]], {{\[\[\[}}6.0]], {{\[\[}}6.0]]]]> : tensor<6x2x1x1xf32>}
// CHECK-DAG: %[[B:.*]] = graph.constant {value = dense<[1.0, 1.0, 2.0, 2.0, 3.0, 3.0]> : tensor<6xf32>}
// CHECK: %[[C:.*]] = graph.conv2d %arg0, %[[W]], %[[B]] {groups = 3, strides = [2, 2]} : (tensor<1x6x5x5xf32>, tensor<6x2x1x1xf32>, tensor<6xf32>) -> tensor<1x6x3x3xf32>
// CHECK-NEXT: return %[[C]]
func.func @grouped(%x: tensor<1x6x5x5xf32>) -> tensor<1x6x3x3xf32> {
  %w0 = graph.constant {value = dense<[[[[1.0]], [[1.0]]], [[[2.0]], [[2.0]]]]> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %w1 = graph.constant {value = dense<[[[[3.0]], [[3.0]]], [[[4.0]], [[4.0]]]]> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %w2 = graph.constant {value = dense<[[[[5.0]], [[5.0]]], [[[6.0]], [[6.0]]]]> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %b0 = graph.constant {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %b1 = graph.constant {value = dense<2.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %b2 = graph.constant {value = dense<3.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %s0 = graph.slice %x {starts = [0, 0, 0, 0], sizes = [1, 2, 5, 5]} : (tensor<1x6x5x5xf32>) -> tensor<1x2x5x5xf32>
  %s1 = graph.slice %x {starts = [0, 2, 0, 0], sizes = [1, 2, 5, 5]} : (tensor<1x6x5x5xf32>) -> tensor<1x2x5x5xf32>
  %s2 = graph.slice %x {starts = [0, 4, 0, 0], sizes = [1, 2, 5, 5]} : (tensor<1x6x5x5xf32>) -> tensor<1x2x5x5xf32>
  %c0 = graph.conv2d %s0, %w0, %b0 {strides = [2, 2]} : (tensor<1x2x5x5xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %c1 = graph.conv2d %s1, %w1, %b1 {strides = [2, 2]} : (tensor<1x2x5x5xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %c2 = graph.conv2d %s2, %w2, %b2 {strides = [2, 2]} : (tensor<1x2x5x5xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %r = graph.concat %c0, %c1, %c2 {axis = 1} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x6x3x3xf32>
  return %r : tensor<1x6x3x3xf32>
}

// Pieces that are themselves grouped (two groups each, without bias, weights not
// constant) give groups = 2 * 2.
// CHECK-LABEL: func.func @grouped_groups
// CHECK: %[[W:.*]] = graph.concat %arg1, %arg2 {axis = 0} : (tensor<4x1x3x3xf32>, tensor<4x1x3x3xf32>) -> tensor<8x1x3x3xf32>
// CHECK-NEXT: %[[C:.*]] = graph.conv2d %arg0, %[[W]] {groups = 4, pads = [1, 1, 1, 1]} : (tensor<1x4x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x6x6xf32>
// CHECK-NEXT: return %[[C]]
func.func @grouped_groups(%x: tensor<1x4x6x6xf32>, %w0: tensor<4x1x3x3xf32>, %w1: tensor<4x1x3x3xf32>) -> tensor<1x8x6x6xf32> {
  %s0 = graph.slice %x {starts = [0, 0, 0, 0], sizes = [1, 2, 6, 6]} : (tensor<1x4x6x6xf32>) -> tensor<1x2x6x6xf32>
  %s1 = graph.slice %x {starts = [0, 2, 0, 0], sizes = [1, 2, 6, 6]} : (tensor<1x4x6x6xf32>) -> tensor<1x2x6x6xf32>
  %c0 = graph.conv2d %s0, %w0 {pads = [1, 1, 1, 1], groups = 2} : (tensor<1x2x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  %c1 = graph.conv2d %s1, %w1 {pads = [1, 1, 1, 1], groups = 2} : (tensor<1x2x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  %r = graph.concat %c0, %c1 {axis = 1} : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %r : tensor<1x8x6x6xf32>
}

// Not merged: the slices are out of order; they leave a channel out; the dilations
// differ; a convolution has another user.
// CHECK-LABEL: func.func @not_grouped
// CHECK-COUNT-4: graph.concat {{.*}} {axis = 1}
// CHECK-NOT: groups
// CHECK: return
func.func @not_grouped(%x: tensor<1x4x4x4xf32>, %y: tensor<1x5x4x4xf32>, %w: tensor<1x2x1x1xf32>)
    -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) {
  %s0 = graph.slice %x {starts = [0, 0, 0, 0], sizes = [1, 2, 4, 4]} : (tensor<1x4x4x4xf32>) -> tensor<1x2x4x4xf32>
  %s1 = graph.slice %x {starts = [0, 2, 0, 0], sizes = [1, 2, 4, 4]} : (tensor<1x4x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a0 = graph.conv2d %s1, %w : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x4x4xf32>
  %a1 = graph.conv2d %s0, %w : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x4x4xf32>
  %out_of_order = graph.concat %a0, %a1 {axis = 1} : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32>
  %t0 = graph.slice %y {starts = [0, 0, 0, 0], sizes = [1, 2, 4, 4]} : (tensor<1x5x4x4xf32>) -> tensor<1x2x4x4xf32>
  %t1 = graph.slice %y {starts = [0, 2, 0, 0], sizes = [1, 2, 4, 4]} : (tensor<1x5x4x4xf32>) -> tensor<1x2x4x4xf32>
  %b0 = graph.conv2d %t0, %w : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x4x4xf32>
  %b1 = graph.conv2d %t1, %w : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x4x4xf32>
  %partial = graph.concat %b0, %b1 {axis = 1} : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c0 = graph.conv2d %s0, %w : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x4x4xf32>
  %c1 = graph.conv2d %s1, %w {dilations = [2, 2]} : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x4x4xf32>
  %dilated = graph.concat %c0, %c1 {axis = 1} : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32>
  %d0 = graph.conv2d %s0, %w : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x4x4xf32>
  %d1 = graph.conv2d %s1, %w : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x4x4xf32>
  %shared = graph.concat %d0, %d1 {axis = 1} : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %out_of_order, %partial, %dilated, %shared, %d1 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>
}
