// The Cranelift backend's microkernels: a level every x86-64 CPU runs (SSE) is called
// for the convolution's tiles, with the layouts blocked for its 4 lanes, the input
// unpadded (a row's columns that read every kernel column one call, the edge rows
// skipping the kernel rows outside the input, each edge column one call down the inner
// rows) and the bias and ReLU applied in the call;
// `--isa none` leaves generated code only; an unknown level is an error.

// RUN: %tcc %s --emit=loop --isa sse | FileCheck %s --check-prefix=SSE
// SSE: func.func @main(%arg0: buffer<1x8x6x6xf32>, %arg1: buffer<1x16x6x6xf32>)
// SSE-NOT: buffer<1x2x6x8x4xf32>
// SSE: loop.address %{{.*}} : buffer<1x2x6x6x4xf32>
// SSE: loop.microkernel {{.*}}{isa = "sse"}
// SSE-NOT: vector.store {{.*}} buffer<1x4x6x6x4xf32>

// RUN: %tcc %s --emit=loop --isa none | FileCheck %s --check-prefix=NONE
// NONE-NOT: loop.microkernel

// RUN: not %tcc %s --emit=loop --isa avx9 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: microkernels: unknown ISA level 'avx9' (expected avx512, avx2, sse or none)

// RUN: %tcc --print-target --isa sse | FileCheck %s --check-prefix=TARGET
// TARGET: cranelift (host): 128-bit vectors x 16 registers, {{.*}}, sse microkernels

func.func @main(%x: tensor<1x8x6x6xf32>) -> tensor<1x16x6x6xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<16x8x3x3xf32>} : () -> tensor<16x8x3x3xf32>
  %b = graph.constant {value = dense<1.0> : tensor<16xf32>} : () -> tensor<16xf32>
  %y = graph.conv2d %x, %w, %b {strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], groups = 1} : (tensor<1x8x6x6xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>) -> tensor<1x16x6x6xf32>
  %r = graph.relu %y : (tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  return %r : tensor<1x16x6x6xf32>
}
