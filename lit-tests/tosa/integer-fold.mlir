// Integer ops on constants are index computations (torch-mlir's adaptive-pooling
// windows): after import, canonicalization folds them with the interpreter's exact
// semantics; an integer division by zero or an out-of-range shift is left for run time.
//
// RUN: %tcc-opt %s --pass-pipeline=convert-tosa-to-graph,canonicalize | FileCheck %s

// (i * 7) / 3, truncated toward zero (also for a negative operand).
// CHECK-LABEL: func.func @index_arithmetic()
// CHECK-NEXT: %0 = graph.constant {value = dense<[0, 2, 4, 7, 9, 11, -2]> : tensor<7xi64>}
// CHECK-NEXT: return %0
func.func @index_arithmetic() -> tensor<7xi64> {
  %i = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, -1]> : tensor<7xi64>}> : () -> tensor<7xi64>
  %seven = "tosa.const"() <{values = dense<7> : tensor<1xi64>}> : () -> tensor<1xi64>
  %three = "tosa.const"() <{values = dense<3> : tensor<1xi64>}> : () -> tensor<1xi64>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %i, %seven, %shift : (tensor<7xi64>, tensor<1xi64>, tensor<1xi8>) -> tensor<7xi64>
  %1 = tosa.intdiv %0, %three : (tensor<7xi64>, tensor<1xi64>) -> tensor<7xi64>
  return %1 : tensor<7xi64>
}

// Shifts of i32 (zeros or the sign shifted in; rounding adds the last bit shifted
// out), then xor and not.
// CHECK-LABEL: func.func @bits()
// CHECK-DAG: graph.constant {value = dense<[2147483644, 2147483647, 1, 1]> : tensor<4xi32>}
// CHECK-DAG: graph.constant {value = dense<[-4, 0, 1, 2]> : tensor<4xi32>}
// CHECK-DAG: graph.constant {value = dense<[-13, 1, -18, -5]> : tensor<4xi32>}
// CHECK-NOT: graph.shift
// CHECK: return
func.func @bits() -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %a = "tosa.const"() <{values = dense<[-8, -1, 4, 3]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %b = "tosa.const"() <{values = dense<[1, 1, 2, 1]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %0 = tosa.logical_right_shift %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = tosa.logical_left_shift %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = tosa.arithmetic_right_shift %a, %b {round = true} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %3 = tosa.bitwise_xor %1, %2 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %4 = tosa.bitwise_not %3 : (tensor<4xi32>) -> tensor<4xi32>
  return %0, %2, %4 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// Not folded: a division by zero and a shift by the bit width fail at run time.
// CHECK-LABEL: func.func @left_for_run_time()
// CHECK: graph.div
// CHECK: graph.shift_left
// CHECK: return
func.func @left_for_run_time() -> (tensor<2xi32>, tensor<2xi32>) {
  %a = "tosa.const"() <{values = dense<[6, 7]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %b = "tosa.const"() <{values = dense<[2, 0]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %c = "tosa.const"() <{values = dense<[1, 32]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = tosa.intdiv %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %1 = tosa.logical_left_shift %a, %c : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0, %1 : tensor<2xi32>, tensor<2xi32>
}
