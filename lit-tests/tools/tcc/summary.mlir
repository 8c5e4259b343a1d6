// What a new user meets first: `tcc MODEL.mlir` without --emit summarizes the model
// (its signature, ops by kind, parameters, next commands) instead of printing it.
// RUN: %tcc %s | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: summary.mlir: 1 function
// SUMMARY-NEXT:   @main
// SUMMARY-NEXT:     input  #0: tensor<1x100xf32>
// SUMMARY-NEXT:     output #0: tensor<1x100xf32>
// SUMMARY-NEXT: 4 ops:
// SUMMARY-NEXT:   2 graph.constant, 1 graph.add, 1 graph.mul
// SUMMARY-NEXT: parameters: 101 (404 B)
// SUMMARY-NEXT: next:
// SUMMARY-NEXT:   tcc bench {{.*}}summary.mlir {{ *}} time it on random inputs, kernel by kernel
// SUMMARY: --emit=obj -o model.o
//
// Printed IR elides constants of more than 64 elements (they would bury the graph)
// unless --print-constants; the scalar stays.
// RUN: %tcc %s --emit=graph | FileCheck %s --check-prefix=ELIDED
// ELIDED: dense_resource<__elided__> : tensor<100xf32>
// ELIDED-NOT: dense_resource<__elided__> : tensor<f32>
// RUN: %tcc %s --emit=graph --print-constants | FileCheck %s --check-prefix=FULL
// FULL-NOT: __elided__
// FULL: dense<"0x0000803F
//
// A file that is not MLIR text (an ONNX protobuf, a .npy, a .pt zip) is refused in one
// line, not a screen of lexer errors.
// RUN: printf '\x08\x07\x12\x07pytorch\x1a\x032.1' > %t.onnx
// RUN: not %tcc %t.onnx 2>&1 | FileCheck %s --check-prefix=BINARY
// RUN: not %tcc run %t.onnx 2>&1 | FileCheck %s --check-prefix=BINARY
// BINARY: .onnx: error: this is an ONNX model, not MLIR text: tcc reads models as MLIR
// BINARY-NOT: error
//
// Valid TOSA that tcc does not implement: one located line naming the op and the list
// of supported ones, exit 1 (no "generic form" advice).
// RUN: echo 'func.func @main(%%x: tensor<4xi8>, %%t: tensor<256xi8>) -> tensor<4xi8> { %%0 = tosa.table %%x, %%t : (tensor<4xi8>, tensor<256xi8>) -> tensor<4xi8> return %%0 : tensor<4xi8> }' > %t.table.mlir
// RUN: not %tcc run %t.table.mlir 2>&1 | FileCheck %s --check-prefix=TABLE
// TABLE: table.mlir:1:78: error: tcc does not support 'tosa.table' yet (the tosa ops it supports are listed in docs/tosa.md)
// TABLE-NOT: generic
func.func @main(%x: tensor<1x100xf32>) -> tensor<1x100xf32> {
  %w = graph.constant {value = dense<"0x0000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B8410000C0410000C8410000D0410000D8410000E0410000E8410000F0410000F84100000042000004420000084200000C4200001042000014420000184200001C4200002042000024420000284200002C4200003042000034420000384200003C4200004042000044420000484200004C4200005042000054420000584200005C4200006042000064420000684200006C4200007042000074420000784200007C42000080420000824200008442000086420000884200008A4200008C4200008E42000090420000924200009442000096420000984200009A4200009C4200009E420000A0420000A2420000A4420000A6420000A8420000AA420000AC420000AE420000B0420000B2420000B4420000B6420000B8420000BA420000BC420000BE420000C0420000C2420000C4420000C6420000C842"> : tensor<100xf32>} : () -> tensor<100xf32>
  %s = graph.constant {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %0 = graph.add %x, %w : (tensor<1x100xf32>, tensor<100xf32>) -> tensor<1x100xf32>
  %1 = graph.mul %0, %s : (tensor<1x100xf32>, tensor<f32>) -> tensor<1x100xf32>
  return %1 : tensor<1x100xf32>
}
