// Vector constants in a loop as machine code (Cranelift): each is read from the
// function's constant slot right where it is used, as a memory operand of its user at
// an offset from one register, so the loop neither keeps them in registers nor reads
// them from the stack. Here erf's polynomial: its coefficients are the FMAs' third
// operands (inline: without microkernels, whose array math would compute it).
// RUN: %tcc %s --emit=asm --backend cranelift --isa none | python3 %S/inner_loop.py | FileCheck %s
// CHECK: FMAS: 10
// CHECK-NEXT: STACK: 0
// CHECK: vfmadd213ps 0x{{[0-9A-F]+}}(%r{{[0-9a-z]+}}),%xmm{{[0-9]+}},%xmm{{[0-9]+}}

func.func @main(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %0 = graph.erf %x : (tensor<64x256xf32>) -> tensor<64x256xf32>
  %1 = graph.mul %0, %x : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
  return %1 : tensor<64x256xf32>
}
