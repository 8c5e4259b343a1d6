// The widen-half pass: f16 is a storage type. Each graph op on f16 tensors computes
// in f32 between casts: its f16 operands widened, its f16 results rounded back to f16
// (and widened again for their users). Casts between f16 and a type other than f32
// go through f32. Constants stay; canonicalization folds their casts into f32
// constants. A rounding followed by a widening is no identity and stays.
//
// RUN: %tcc-opt %s --pass-pipeline=widen-half | %tcc-opt | FileCheck %s
// RUN: %tcc-opt %s --pass-pipeline=widen-half,canonicalize,cse | FileCheck %s --check-prefix=CLEAN
// An f16 tensor at the size limit does not fit in memory as f32: a located error.
// RUN: echo 'func.func @main(%%x: tensor<17592186044416x2xf16>) -> tensor<17592186044416x2xf16> {' > %t.huge.mlir
// RUN: echo '  %%0 = graph.neg %%x : (tensor<17592186044416x2xf16>) -> tensor<17592186044416x2xf16>' >> %t.huge.mlir
// RUN: echo '  return %%0 : tensor<17592186044416x2xf16>' >> %t.huge.mlir
// RUN: echo '}' >> %t.huge.mlir
// RUN: not %tcc-opt %t.huge.mlir --pass-pipeline=widen-half 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: huge.mlir:2:8: error: tensor<17592186044416x2xf16> computed in f32: shape 17592186044416x2 is too large

// CHECK-LABEL: func.func @main(
// CHECK: [[C:%[0-9]+]] = graph.constant {value = dense<[0.5, 1.0, 2.0]> : tensor<3xf16>}
// CHECK-NEXT: [[A:%[0-9]+]] = graph.cast %arg0 : (tensor<2x3xf16>) -> tensor<2x3xf32>
// CHECK-NEXT: [[B:%[0-9]+]] = graph.cast %arg1 : (tensor<3xf16>) -> tensor<3xf32>
// CHECK-NEXT: [[SUM:%[0-9]+]] = graph.add [[A]], [[B]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: [[SUM16:%[0-9]+]] = graph.cast [[SUM]] : (tensor<2x3xf32>) -> tensor<2x3xf16>
// CHECK-NEXT: [[SUM32:%[0-9]+]] = graph.cast [[SUM16]] : (tensor<2x3xf16>) -> tensor<2x3xf32>
// CHECK-NEXT: [[C32:%[0-9]+]] = graph.cast [[C]] : (tensor<3xf16>) -> tensor<3xf32>
// CHECK-NEXT: [[P:%[0-9]+]] = graph.mul [[SUM32]], [[C32]]
// CHECK-NEXT: [[P16:%[0-9]+]] = graph.cast [[P]] : (tensor<2x3xf32>) -> tensor<2x3xf16>
// CHECK: graph.greater {{%[0-9]+}}, {{%[0-9]+}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK: [[I32:%[0-9]+]] = graph.cast %arg2 : (tensor<2x3xi32>) -> tensor<2x3xf32>
// CHECK-NEXT: [[I16:%[0-9]+]] = graph.cast [[I32]] : (tensor<2x3xf32>) -> tensor<2x3xf16>
// CHECK-NEXT: [[W:%[0-9]+]] = graph.cast [[P16]] : (tensor<2x3xf16>) -> tensor<2x3xf32>
// CHECK-NEXT: [[D:%[0-9]+]] = graph.cast [[W]] : (tensor<2x3xf32>) -> tensor<2x3xf64>
// CHECK-NEXT: return [[P16]], {{%[0-9]+}}, [[I16]], [[D]]

// CLEAN-NOT: graph.constant {{.*}}xf16>
// CLEAN: graph.constant {value = dense<[0.5, 1.0, 2.0]> : tensor<3xf32>}
// CLEAN: [[P:%[0-9]+]] = graph.mul
// CLEAN-NEXT: [[P16:%[0-9]+]] = graph.cast [[P]] : (tensor<2x3xf32>) -> tensor<2x3xf16>
// CLEAN-NEXT: graph.cast [[P16]] : (tensor<2x3xf16>) -> tensor<2x3xf32>
func.func @main(%a: tensor<2x3xf16>, %b: tensor<3xf16>, %i: tensor<2x3xi32>) -> (tensor<2x3xf16>, tensor<2x3xi1>, tensor<2x3xf16>, tensor<2x3xf64>) {
  %c = graph.constant {value = dense<[0.5, 1.0, 2.0]> : tensor<3xf16>} : () -> tensor<3xf16>
  %0 = graph.add %a, %b : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
  %1 = graph.mul %0, %c : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
  %2 = graph.greater %1, %a : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xi1>
  %3 = graph.cast %i : (tensor<2x3xi32>) -> tensor<2x3xf16>
  %4 = graph.cast %1 : (tensor<2x3xf16>) -> tensor<2x3xf64>
  return %1, %2, %3, %4 : tensor<2x3xf16>, tensor<2x3xi1>, tensor<2x3xf16>, tensor<2x3xf64>
}

// bf16 the same way; a cast between f16 and bf16 goes through f32.
// CHECK-LABEL: func.func @bf16(
// CHECK-NEXT: [[X:%[0-9]+]] = graph.cast %arg0 : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK-NEXT: [[E:%[0-9]+]] = graph.exp [[X]] : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: [[E16:%[0-9]+]] = graph.cast [[E]] : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK-NEXT: [[H32:%[0-9]+]] = graph.cast %arg1 : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT: [[H:%[0-9]+]] = graph.cast [[H32]] : (tensor<4xf32>) -> tensor<4xbf16>
// CHECK-NEXT: return [[E16]], [[H]]
func.func @bf16(%x: tensor<4xbf16>, %h: tensor<4xf16>) -> (tensor<4xbf16>, tensor<4xbf16>) {
  %0 = graph.exp %x : (tensor<4xbf16>) -> tensor<4xbf16>
  %1 = graph.cast %h : (tensor<4xf16>) -> tensor<4xbf16>
  return %0, %1 : tensor<4xbf16>, tensor<4xbf16>
}
