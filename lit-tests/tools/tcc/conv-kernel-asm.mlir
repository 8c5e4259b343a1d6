// The register-blocked convolution kernel as machine code: the innermost loop of a
// 3x3 conv (tile: 6 columns x 2 blocks of output channels) issues one FMA per
// accumulator per step and keeps every accumulator in a register (no stack traffic).
//
// Cranelift (4 f32 lanes): the loop over kernel column x input channel is one step of
// 12 FMAs.
// RUN: %tcc %s --emit=asm | python3 %S/inner_loop.py --per 12 | FileCheck %s --check-prefix=CRANELIFT
// CRANELIFT: FMAS: 12
// CRANELIFT-NEXT: STEPS: 1
// CRANELIFT-NEXT: STACK: 0
// CRANELIFT: vbroadcastss
// CRANELIFT: vfmadd{{[0-9]+}}ps {{.*}}%xmm

func.func @main(%x: tensor<1x4x14x14x4xf32>, %w: tensor<4x4x3x3x4x4xf32>) -> tensor<1x4x14x14x4xf32> {
  %y = graph.conv2d_nchwc %x, %w {pads = [1, 1, 1, 1], config = {template = "direct", tile_w = 6, tile_oc = 2}}
     : (tensor<1x4x14x14x4xf32>, tensor<4x4x3x3x4x4xf32>) -> tensor<1x4x14x14x4xf32>
  return %y : tensor<1x4x14x14x4xf32>
}
