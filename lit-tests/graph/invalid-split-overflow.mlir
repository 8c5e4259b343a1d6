// Regression: graph.split summed its sizes with unchecked i64 addition; sizes whose sum
// overflows panicked or wrapped. They now give the usual 'must sum' error.
//
// RUN: %tcc-opt %s --verify-diagnostics
// RUN: not %tcc-opt %s 2>&1 | FileCheck %s

// CHECK-NOT: panicked
// CHECK: error: 'graph.split' op sizes [3, 9223372036854775807, 9223372036854775807, 2] must sum to the axis extent 3
// CHECK-NOT: panicked

func.func @split_sizes_overflow(%x: tensor<3xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.split' op sizes [3, 9223372036854775807, 9223372036854775807, 2] must sum to the axis extent 3}}
  %0:4 = graph.split %x {axis = 0, sizes = [3, 9223372036854775807, 9223372036854775807, 2]} : (tensor<3xf32>) -> (tensor<3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<2xf32>)
  return %0#3 : tensor<2xf32>
}
