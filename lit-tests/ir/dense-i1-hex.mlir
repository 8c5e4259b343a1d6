// Regression: i1 hex bytes other than 00/01 were kept raw, so printing was not a fixed
// point and cse did not merge equal constants. Any nonzero byte is now stored as 1.
//
// RUN: %tcc-opt %s | FileCheck %s
// RUN: %tcc-opt %s -o %t.1.mlir
// RUN: %tcc-opt %t.1.mlir -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: %tcc-opt %s --pass-pipeline=cse | FileCheck %s --check-prefix=CSE

// CHECK-LABEL: func.func @i1_hex()
// CHECK-NEXT: %0 = graph.constant {value = dense<true> : tensor<2xi1>} : () -> tensor<2xi1>
// CHECK-NEXT: %1 = graph.constant {value = dense<true> : tensor<2xi1>} : () -> tensor<2xi1>

// CSE-LABEL: func.func @i1_hex()
// CSE-NEXT: %0 = graph.constant {value = dense<true> : tensor<2xi1>} : () -> tensor<2xi1>
// CSE-NEXT: return %0, %0 : tensor<2xi1>, tensor<2xi1>

func.func @i1_hex() -> (tensor<2xi1>, tensor<2xi1>) {
  %0 = graph.constant {value = dense<"0x0201"> : tensor<2xi1>} : () -> tensor<2xi1>
  %1 = graph.constant {value = dense<true> : tensor<2xi1>} : () -> tensor<2xi1>
  return %0, %1 : tensor<2xi1>, tensor<2xi1>
}
