// The compare-through-cast pattern: a comparison of an f32 value widened to f64 with a
// constant whose values are exact in f32 (or with another widened f32 value) compares
// the f32 values: the cast is exact and keeps the order, NaN stays NaN.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// torch-mlir's test for masked attention scores: == -inf in f64.
// CHECK-LABEL: func.func @masked(%arg0: tensor<2x8xf32>)
// CHECK-NEXT: %0 = graph.constant {value = dense<0xFF800000> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
// CHECK-NEXT: %1 = graph.equal %arg0, %0 : (tensor<2x8xf32>, tensor<1x1xf32>) -> tensor<2x8xi1>
// CHECK-NEXT: return %1
func.func @masked(%x: tensor<2x8xf32>) -> tensor<2x8xi1> {
  %c = graph.constant {value = dense<0xFFF0000000000000> : tensor<1x1xf64>} : () -> tensor<1x1xf64>
  %d = graph.cast %x : (tensor<2x8xf32>) -> tensor<2x8xf64>
  %e = graph.equal %d, %c : (tensor<2x8xf64>, tensor<1x1xf64>) -> tensor<2x8xi1>
  return %e : tensor<2x8xi1>
}

// Two widened values: compared as f32; the constant on the left of less stays there.
// CHECK-LABEL: func.func @both(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>)
// CHECK-NEXT: %0 = graph.greater %arg0, %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: %1 = graph.constant {value = dense<[1.5, -2.25, 0.0, 0x7FC00000]> : tensor<4xf32>}
// CHECK-NEXT: %2 = graph.less %1, %arg0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
// CHECK-NEXT: return %0, %2
func.func @both(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>) {
  %a = graph.cast %x : (tensor<4xf32>) -> tensor<4xf64>
  %b = graph.cast %y : (tensor<4xf32>) -> tensor<4xf64>
  %0 = graph.greater %a, %b : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
  %c = graph.constant {value = dense<[1.5, -2.25, 0.0, 0x7FF8000000000000]> : tensor<4xf64>} : () -> tensor<4xf64>
  %1 = graph.less %c, %a : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// Not when a constant's value has no f32 equal (0.1), nor when the cast narrows.
// CHECK-LABEL: func.func @kept(%arg0: tensor<4xf32>, %arg1: tensor<4xf64>)
// CHECK: graph.cast %arg0
// CHECK: graph.equal {{%[0-9]+}}, {{%[0-9]+}} : (tensor<4xf64>, tensor<1xf64>)
// CHECK: graph.cast %arg1
// CHECK: graph.less {{%[0-9]+}}, {{%[0-9]+}} : (tensor<4xf32>, tensor<1xf32>)
func.func @kept(%x: tensor<4xf32>, %w: tensor<4xf64>) -> (tensor<4xi1>, tensor<4xi1>) {
  %t = graph.constant {value = dense<0.1> : tensor<1xf64>} : () -> tensor<1xf64>
  %a = graph.cast %x : (tensor<4xf32>) -> tensor<4xf64>
  %0 = graph.equal %a, %t : (tensor<4xf64>, tensor<1xf64>) -> tensor<4xi1>
  %n = graph.cast %w : (tensor<4xf64>) -> tensor<4xf32>
  %h = graph.constant {value = dense<1.5> : tensor<1xf32>} : () -> tensor<1xf32>
  %1 = graph.less %n, %h : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}
