// Regression: infinite and NaN f64 attributes print as hex bit patterns; without the
// `: f64` suffix they re-parsed as integers. They now keep their type across a round
// trip, and folding after a round trip gives the same result.
//
// RUN: %tcc-opt %s | %tcc-opt | FileCheck %s
// RUN: %tcc-opt %s -o %t.1.mlir
// RUN: %tcc-opt %t.1.mlir -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: %tcc-opt %s | %tcc-opt --pass-pipeline=canonicalize | FileCheck %s --check-prefix=FOLD

// CHECK-LABEL: func.func @bounds
// CHECK: graph.clamp %arg0 {max = 0x7FF0000000000000{{( : f64)?}}, min = 0xFFF0000000000000{{( : f64)?}}}
// CHECK: graph.pad %arg0 {high = [1], low = [0], value = 0x7FF8000000000000{{( : f64)?}}}
// CHECK-NOT: 9218868437227405312
// CHECK-NOT: -4503599627370496

// Clamping 1e30 to [-inf, +inf] leaves it alone; padding with -inf pads with -inf.
// FOLD-LABEL: func.func @fold
// FOLD-NEXT: graph.constant {value = dense<[1.0e30, 0xFF800000]> : tensor<2xf32>}

func.func @bounds(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<2xf32>) {
  %0 = graph.clamp %x {min = 0xFFF0000000000000 : f64, max = 0x7FF0000000000000 : f64} : (tensor<1xf32>) -> tensor<1xf32>
  %1 = graph.pad %x {low = [0], high = [1], value = 0x7FF8000000000000 : f64} : (tensor<1xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<1xf32>, tensor<2xf32>
}

func.func @fold() -> tensor<2xf32> {
  %c = graph.constant {value = dense<1.0e30> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = graph.clamp %c {min = 0xFFF0000000000000 : f64, max = 0x7FF0000000000000 : f64} : (tensor<1xf32>) -> tensor<1xf32>
  %1 = graph.pad %0 {low = [0], high = [1], value = 0xFFF0000000000000 : f64} : (tensor<1xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
