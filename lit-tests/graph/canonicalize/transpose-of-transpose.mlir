// The transpose-of-transpose pattern: transpose(transpose(x, p), q) becomes one
// transpose of x by p[q[k]]; a composition that is the identity disappears.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// x: 2x3x4; p = [1, 2, 0] gives 3x4x2; q = [1, 2, 0] gives 4x2x3 = x by [2, 0, 1].
// CHECK-LABEL: func.func @compose(%arg0: tensor<2x3x4xf32>)
// CHECK-NEXT: %0 = graph.transpose %arg0 {perm = [2, 0, 1]} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %0 : tensor<4x2x3xf32>
// CHECK-NEXT: }
func.func @compose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = graph.transpose %x {perm = [1, 2, 0]} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = graph.transpose %0 {perm = [1, 2, 0]} : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// Not a symmetric case: p = [0, 2, 3, 1] (NCHW -> NHWC), q = [1, 0, 3, 2] gives x by
// p[q[k]] = [2, 0, 1, 3].
// CHECK-LABEL: func.func @compose_asymmetric(%arg0: tensor<1x2x3x4xf32>)
// CHECK-NEXT: %0 = graph.transpose %arg0 {perm = [2, 0, 1, 3]} : (tensor<1x2x3x4xf32>) -> tensor<3x1x2x4xf32>
// CHECK-NEXT: return %0
func.func @compose_asymmetric(%x: tensor<1x2x3x4xf32>) -> tensor<3x1x2x4xf32> {
  %0 = graph.transpose %x {perm = [0, 2, 3, 1]} : (tensor<1x2x3x4xf32>) -> tensor<1x3x4x2xf32>
  %1 = graph.transpose %0 {perm = [1, 0, 3, 2]} : (tensor<1x3x4x2xf32>) -> tensor<3x1x2x4xf32>
  return %1 : tensor<3x1x2x4xf32>
}

// NCHW -> NHWC -> NCHW cancels out.
// CHECK-LABEL: func.func @inverse(%arg0: tensor<1x3x8x8xf32>)
// CHECK-NEXT: return %arg0 : tensor<1x3x8x8xf32>
// CHECK-NEXT: }
func.func @inverse(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  %0 = graph.transpose %x {perm = [0, 2, 3, 1]} : (tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32>
  %1 = graph.transpose %0 {perm = [0, 3, 1, 2]} : (tensor<1x8x8x3xf32>) -> tensor<1x3x8x8xf32>
  return %1 : tensor<1x3x8x8xf32>
}

// Three in a row compose into one.
// CHECK-LABEL: func.func @three(%arg0: tensor<2x3xi32>)
// CHECK-NEXT: %0 = graph.transpose %arg0 {perm = [1, 0]} : (tensor<2x3xi32>) -> tensor<3x2xi32>
// CHECK-NEXT: return %0
func.func @three(%x: tensor<2x3xi32>) -> tensor<3x2xi32> {
  %0 = graph.transpose %x {perm = [1, 0]} : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %1 = graph.transpose %0 {perm = [1, 0]} : (tensor<3x2xi32>) -> tensor<2x3xi32>
  %2 = graph.transpose %1 {perm = [1, 0]} : (tensor<2x3xi32>) -> tensor<3x2xi32>
  return %2 : tensor<3x2xi32>
}

// The inner transpose stays while something else uses it.
// CHECK-LABEL: func.func @inner_used(%arg0: tensor<2x3xf32>)
// CHECK-NEXT: %0 = graph.transpose %arg0 {perm = [1, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: return %0, %arg0 : tensor<3x2xf32>, tensor<2x3xf32>
// CHECK-NEXT: }
func.func @inner_used(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>) {
  %0 = graph.transpose %x {perm = [1, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = graph.transpose %0 {perm = [1, 0]} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<3x2xf32>, tensor<2x3xf32>
}

// Something between the two transposes that is not elementwise blocks the pattern
// (an elementwise op lets the outer transpose hoist over it: see transpose-hoist.mlir).
// CHECK-LABEL: func.func @not_adjacent(%arg0: tensor<2x3xf32>)
// CHECK-NEXT: %0 = graph.transpose %arg0 {perm = [1, 0]}
// CHECK-NEXT: %1 = graph.softmax %0
// CHECK-NEXT: %2 = graph.transpose %1 {perm = [1, 0]}
// CHECK-NEXT: return %2
func.func @not_adjacent(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = graph.transpose %x {perm = [1, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = graph.softmax %0 {axis = 1} : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %2 = graph.transpose %1 {perm = [1, 0]} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
