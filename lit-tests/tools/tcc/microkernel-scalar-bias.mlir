// An epilogue that adds a constant of one value (a bias of zeros, which canonicalization
// shrinks to one element) is a bias the microkernel adds: the constant becomes one value
// per output column, and no generated code reads the stored tile again.

// RUN: %tcc %s --emit=loop --isa sse | FileCheck %s
// CHECK: loop.constant_buffer {value = dense<0.0> : tensor<1x32xf32>} : () -> buffer<1x32xf32>
// CHECK: loop.microkernel {{.*}}{isa = "sse"}
// CHECK-NOT: vector.load {{.*}} buffer<4x32xf32>

func.func @main(%x: tensor<4x16xf32>, %r: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<16x32xf32>} : () -> tensor<16x32xf32>
  %b = graph.constant {value = dense<0.0> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %y = graph.matmul %x, %w : (tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>
  %z = graph.add %y, %b : (tensor<4x32xf32>, tensor<1x1xf32>) -> tensor<4x32xf32>
  %s = graph.add %z, %r : (tensor<4x32xf32>, tensor<4x32xf32>) -> tensor<4x32xf32>
  return %s : tensor<4x32xf32>
}
