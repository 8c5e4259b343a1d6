// The LLVM backend outlines each sequential loop nest of the entry function into a
// function of its own, called directly (LLVM's superlinear passes then see one nest at
// a time), and keeps those loops rolled (`llvm.loop.unroll.disable`: data movement
// gains nothing from unrolling, which made 42% of convnext_tiny's code).
// REQUIRES: llvm

// RUN: %tcc %s --emit=llvm --cpu x86-64-v4 | FileCheck %s
// CHECK: define {{.*}}void @tcc_model_main(
// CHECK: call fastcc void @tcc_serial_loop_0(
// CHECK: call fastcc void @tcc_serial_loop_1(
// CHECK: define internal fastcc void @tcc_serial_loop_{{[01]}}(
// CHECK: !llvm.loop ![[ID:[0-9]+]]
// CHECK: define internal fastcc void @tcc_serial_loop_{{[01]}}(
// CHECK: ![[ID]] = distinct !{![[ID]], ![[DISABLE:[0-9]+]]}
// CHECK: ![[DISABLE]] = !{!"llvm.loop.unroll.disable"}

// (What they compute is checked against the interpreter by the property tests, whose
// models have such loops.)

func.func @main(%x: tensor<4x6xf32>, %y: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %0 = graph.transpose %x {perm = [1, 0]} : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %1 = graph.add %0, %y : (tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<6x4xf32>
  return %1 : tensor<6x4xf32>
}
