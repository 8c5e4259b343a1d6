// Integer clamp bounds are rounded inward; when no integer lies between them
// (min = 5.5, max = 5.7 gives 6 > 5), clamp is still min(max(x, min), max), so every
// element becomes the upper bound. This once crashed constant folding (i64::clamp with
// min > max).
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @clamp_empty_integer_range()
// CHECK-NEXT: %[[C:.+]] = graph.constant {value = dense<5> : tensor<2xi32>} : () -> tensor<2xi32>
// CHECK-NEXT: return %[[C]] : tensor<2xi32>

func.func @clamp_empty_integer_range() -> tensor<2xi32> {
  %c = graph.constant {value = dense<[1, 9]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = graph.clamp %c {min = 5.5, max = 5.7} : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
