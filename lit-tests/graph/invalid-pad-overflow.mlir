// Regression: graph.pad shape inference used unchecked i64 addition, so huge padding
// panicked (debug) or wrapped around (release). It is now a located error.
//
// RUN: %tcc-opt %s --split-input-file --verify-diagnostics
// RUN: not %tcc-opt %s --split-input-file 2>&1 | FileCheck %s

// CHECK-NOT: panicked
// CHECK: error: 'graph.pad' op
// CHECK-NOT: panicked
// CHECK: error: 'graph.pad' op
// CHECK-NOT: panicked

func.func @pad_low_overflow(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.pad' op}}
  %0 = graph.pad %x {low = [9223372036854775807], high = [0]} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pad_wraps_around(%x: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.pad' op}}
  %0 = graph.pad %x {low = [9223372036854775807], high = [9223372036854775807]} : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
