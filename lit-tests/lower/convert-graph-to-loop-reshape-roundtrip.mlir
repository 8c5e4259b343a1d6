// Lowered IR of a model with graph.reshape (which becomes loop.view) re-parses to the
// same text. (Regression: loop.view was once unregistered.)
//
// RUN: %tcc-opt %s --pass-pipeline=convert-graph-to-loop -o %t.1.mlir
// RUN: %tcc-opt %t.1.mlir -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s --input-file %t.2.mlir
// RUN: %tcc %s --emit=loop | %tcc-opt | FileCheck %s

// CHECK-LABEL: func.func @main(%arg0: buffer<2x3xf32>, %arg1: buffer<3x2xf32>)
// CHECK: loop.view %arg0 : (buffer<2x3xf32>) -> buffer<6xf32>
// CHECK: loop.view %arg1 : (buffer<3x2xf32>) -> buffer<6xf32>
func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = graph.reshape %x {shape = [3, 2]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
