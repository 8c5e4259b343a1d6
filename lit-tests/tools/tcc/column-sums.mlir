// With AVX2 or AVX-512 microkernels, a group norm's statistics over a channels-last
// tensor (sums over the outer dimensions of f64(x + bias), then of the squares of the
// centered values) are calls of the runtime's column sums, one per block of columns on
// the thread pool, reading the input, bias and center where they are. The SSE level
// has none, and a sum over the innermost dimension is no column sum.

// RUN: %tcc %s --emit=loop --isa avx2 --threads 2 | FileCheck %s
// CHECK-LABEL: func.func @main
// CHECK: loop.parallel
// CHECK: %[[X:[0-9]+]] = loop.address %{{[0-9]+}}[%{{.*}}, %{{.*}}] : buffer<196x64xf32>
// CHECK: %[[B:[0-9]+]] = loop.address %arg1[%{{.*}}] : buffer<64xf32>
// CHECK: loop.column_sums %[[X]], %{{.*}}, %{{.*}}, %{{.*}}, %[[B]], %{{.*}}, %{{.*}} {isa = "avx2", square = false, widen = true}
// CHECK: loop.column_sums %{{.*}} {isa = "avx2", square = true, widen = true}
// CHECK-NOT: loop.column_sums

// RUN: %tcc %s --emit=loop --isa sse | FileCheck %s --check-prefix=SSE
// SSE-NOT: loop.column_sums

func.func @main(%x: tensor<1x14x14x64xf32>, %b: tensor<64xf32>) -> (tensor<1x1x1x64xf64>, tensor<1x1x1x64xf64>, tensor<1x14x14x1xf32>) {
  %0 = graph.add %x, %b : (tensor<1x14x14x64xf32>, tensor<64xf32>) -> tensor<1x14x14x64xf32>
  %1 = graph.cast %0 : (tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf64>
  %s = graph.reduce_sum %1 {axes = [1, 2], keepdims = true} : (tensor<1x14x14x64xf64>) -> tensor<1x1x1x64xf64>
  %k = graph.constant {value = dense<0.0051> : tensor<1x1x1x1xf64>} : () -> tensor<1x1x1x1xf64>
  %m = graph.mul %s, %k : (tensor<1x1x1x64xf64>, tensor<1x1x1x1xf64>) -> tensor<1x1x1x64xf64>
  %2 = graph.sub %1, %m : (tensor<1x14x14x64xf64>, tensor<1x1x1x64xf64>) -> tensor<1x14x14x64xf64>
  %3 = graph.mul %2, %2 : (tensor<1x14x14x64xf64>, tensor<1x14x14x64xf64>) -> tensor<1x14x14x64xf64>
  %v = graph.reduce_sum %3 {axes = [1, 2], keepdims = true} : (tensor<1x14x14x64xf64>) -> tensor<1x1x1x64xf64>
  %r = graph.reduce_sum %x {axes = [3], keepdims = true} : (tensor<1x14x14x64xf32>) -> tensor<1x14x14x1xf32>
  return %s, %v, %r : tensor<1x1x1x64xf64>, tensor<1x1x1x64xf64>, tensor<1x14x14x1xf32>
}
