// The register-blocked convolution kernel through LLVM with AVX-512 (16 f32 lanes, 32
// zmm registers): a tile of 14 columns x 2 blocks of output channels keeps its 28
// accumulators in zmm registers; the innermost loop issues 28 FMAs per step (LLVM may
// unroll it into several steps) with no stack traffic.
// REQUIRES: llvm
// RUN: %tcc %s --backend llvm --cpu x86-64-v4 --emit=asm | python3 %S/inner_loop.py --per 28 | FileCheck %s
// CHECK: FMAS: {{[0-9]+}}
// CHECK-NEXT: STEPS: {{[1-9][0-9]*$}}
// CHECK-NEXT: STACK: 0
// CHECK: vfmadd{{[0-9]+}}ps {{.*}}%zmm

func.func @main(%x: tensor<1x4x14x14x16xf32>, %w: tensor<4x4x3x3x16x16xf32>) -> tensor<1x4x14x14x16xf32> {
  %y = graph.conv2d_nchwc %x, %w {pads = [1, 1, 1, 1], config = {template = "direct", tile_w = 14, tile_oc = 2}}
     : (tensor<1x4x14x14x16xf32>, tensor<4x4x3x3x16x16xf32>) -> tensor<1x4x14x14x16xf32>
  return %y : tensor<1x4x14x14x16xf32>
}
