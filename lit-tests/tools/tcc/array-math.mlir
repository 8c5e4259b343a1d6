// With AVX2 or AVX-512 microkernels, a vector loop's erf runs in chunks of 64 elements
// through the runtime's array math: the arguments stored into the output row, one call,
// then the rest of the body reading the values back; the elements after the last chunk
// keep the inline expansion. The SSE level has no array math.

// RUN: %tcc %s --emit=vector --isa avx2 | FileCheck %s
// CHECK: vector.store %{{.*}}, %arg1[%{{.*}}, %{{.*}}] : buffer<2x200xf32>, vector<4xf32>
// CHECK: %[[P:[0-9]+]] = loop.address %arg1[%{{.*}}, %{{.*}}] : buffer<2x200xf32>
// CHECK-NEXT: loop.array_math %[[P]], %{{.*}} {fn = "erf", isa = "avx2"}
// CHECK: vector.load %arg1
// CHECK: loop.div

// RUN: %tcc %s --emit=vector --isa sse | FileCheck %s --check-prefix=SSE
// SSE-NOT: loop.array_math

func.func @main(%x: tensor<2x200xf32>) -> tensor<2x200xf32> {
  %e = graph.erf %x : (tensor<2x200xf32>) -> tensor<2x200xf32>
  %y = graph.mul %e, %x : (tensor<2x200xf32>, tensor<2x200xf32>) -> tensor<2x200xf32>
  return %y : tensor<2x200xf32>
}
