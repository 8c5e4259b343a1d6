// The loop IR that convert-graph-to-loop prints (and vectorize and expand-math after
// it) is valid: it parses back, verifies, and prints the same (a fixed point). The
// model uses most graph ops (graph.reshape is covered by
// convert-graph-to-loop-reshape-roundtrip.mlir).
//
// RUN: %tcc-opt %s --pass-pipeline=convert-graph-to-loop -o %t.1.mlir
// RUN: %tcc-opt %t.1.mlir -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: %tcc-opt %t.1.mlir --print-op-generic | %tcc-opt -o %t.3.mlir
// RUN: diff %t.1.mlir %t.3.mlir
// RUN: FileCheck %s --input-file %t.2.mlir
// RUN: %tcc-opt %s --pass-pipeline=convert-graph-to-loop,vectorize,expand-math -o %t.4.mlir
// RUN: %tcc-opt %t.4.mlir -o %t.5.mlir
// RUN: diff %t.4.mlir %t.5.mlir
// RUN: FileCheck %s --check-prefix=FULL --input-file %t.5.mlir

// CHECK-LABEL: func.func @main(%arg0: buffer<1x2x6x6xf32>, %arg1: buffer<4x2x3x3xf32>, %arg2: buffer<3xi32>, %arg3: buffer<2x3xi64>, %arg4: buffer<1x4x3x3xf32>, %arg5: buffer<1x3xf32>, %arg6: buffer<2x3xf64>, %arg7: buffer<3x2xi64>, %arg8: buffer<1x4x2x2xf32>, %arg9: buffer<2x3xi64>)
// CHECK-SAME: tcc.num_inputs = 4
// CHECK-NOT: graph.
// CHECK: loop.cast {{%[0-9]+}} : (i32) -> index
// CHECK: loop.assert {{%[0-9]+}} {message = "index out of range in 'graph.gather'
// CHECK: loop.assert {{%[0-9]+}} {message = "integer division by zero in 'graph.div'
// CHECK: loop.cast {{%[0-9]+}} : (f32) -> f64
// CHECK-NOT: graph.

// FULL-NOT: loop.exp {{.*}}f32
// FULL-NOT: loop.tanh {{.*}}f32
// FULL: vector.load
// FULL-NOT: loop.exp {{.*}}f32
// FULL-NOT: loop.tanh {{.*}}f32
func.func @main(%x: tensor<1x2x6x6xf32>, %w: tensor<4x2x3x3xf32>, %idx: tensor<3xi32>, %n: tensor<2x3xi64>) -> (tensor<1x4x3x3xf32>, tensor<1x3xf32>, tensor<2x3xf64>, tensor<3x2xi64>, tensor<1x4x2x2xf32>, tensor<2x3xi64>) {
  %0 = graph.conv2d %x, %w {strides = [2, 2], pads = [1, 1, 1, 1], dilations = [1, 1], groups = 1} : (tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32>
  %1 = graph.gelu %0 {approximate = "tanh"} : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %2 = graph.max_pool2d %1 {kernel = [2, 2], strides = [1, 1]} : (tensor<1x4x3x3xf32>) -> tensor<1x4x2x2xf32>
  %3 = graph.avg_pool2d %1 {kernel = [3, 3], strides = [1, 1], pads = [1, 1, 1, 1]} : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %4 = graph.reduce_mean %3 {axes = [2, 3]} : (tensor<1x4x3x3xf32>) -> tensor<1x4xf32>
  %5 = graph.softmax %4 {axis = 1} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %6 = graph.slice %5 {starts = [0, 1], sizes = [1, 3]} : (tensor<1x4xf32>) -> tensor<1x3xf32>
  %7 = graph.gather %6, %idx {axis = 1} : (tensor<1x3xf32>, tensor<3xi32>) -> tensor<1x3xf32>
  %8 = graph.broadcast_to %7 {shape = [2, 3]} : (tensor<1x3xf32>) -> tensor<2x3xf32>
  %9 = graph.clamp %8 {min = 0.1, max = 0.9} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %10 = graph.transpose %n {perm = [1, 0]} : (tensor<2x3xi64>) -> tensor<3x2xi64>
  %11:2 = graph.split %n {axis = 0, sizes = [1, 1]} : (tensor<2x3xi64>) -> (tensor<1x3xi64>, tensor<1x3xi64>)
  %12 = graph.concat %11#1, %11#0 {axis = 0} : (tensor<1x3xi64>, tensor<1x3xi64>) -> tensor<2x3xi64>
  %13 = graph.div %12, %n : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %14 = graph.cast %9 : (tensor<2x3xf32>) -> tensor<2x3xf64>
  %15 = graph.pad %2 {low = [0, 0, 0, 0], high = [0, 0, 0, 0]} : (tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
  %16 = graph.layout_transform %13 {src = "NC", dst = "NC"} : (tensor<2x3xi64>) -> tensor<2x3xi64>
  return %1, %7, %14, %10, %15, %16 : tensor<1x4x3x3xf32>, tensor<1x3xf32>, tensor<2x3xf64>, tensor<3x2xi64>, tensor<1x4x2x2xf32>, tensor<2x3xi64>
}
