// The arith-identity pattern: x * 1, 1 * x, x / 1, x - 0, x + (-0.0) and (-0.0) + x
// are x. Not x + 0.0 (-0.0 + 0.0 is +0.0), not x - (-0.0), and never when the
// constant broadcasts x to a bigger result type.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// CHECK-LABEL: func.func @folded(%arg0: tensor<4xf32>)
// CHECK-NEXT: return %arg0, %arg0, %arg0, %arg0, %arg0, %arg0 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
func.func @folded(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %one = graph.constant {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %zero = graph.constant {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %negzero = graph.constant {value = dense<-0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = graph.mul %x, %one : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.mul %one, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.div %x, %one : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = graph.sub %x, %zero : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = graph.add %x, %negzero : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %5 = graph.add %negzero, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// The constant may be smaller than x (it broadcasts) as long as the result type is
// x's type; a literal whose elements are all equal counts as a splat.
// CHECK-LABEL: func.func @broadcast_constant(%arg0: tensor<2x3xf64>)
// CHECK-NEXT: return %arg0, %arg0 : tensor<2x3xf64>, tensor<2x3xf64>
// CHECK-NEXT: }
func.func @broadcast_constant(%x: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<2x3xf64>) {
  %one = graph.constant {value = dense<1.0> : tensor<f64>} : () -> tensor<f64>
  %ones = graph.constant {value = dense<[1.0, 1.0, 1.0]> : tensor<3xf64>} : () -> tensor<3xf64>
  %0 = graph.mul %x, %one : (tensor<2x3xf64>, tensor<f64>) -> tensor<2x3xf64>
  %1 = graph.div %x, %ones : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  return %0, %1 : tensor<2x3xf64>, tensor<2x3xf64>
}

// Integers have a single zero: x + 0 and 0 + x are x.
// CHECK-LABEL: func.func @integers(%arg0: tensor<4xi32>, %arg1: tensor<4xi64>)
// CHECK-NEXT: return %arg0, %arg0, %arg0, %arg1, %arg1 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi64>, tensor<4xi64>
// CHECK-NEXT: }
func.func @integers(%x: tensor<4xi32>, %y: tensor<4xi64>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi64>, tensor<4xi64>) {
  %zero = graph.constant {value = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %one = graph.constant {value = dense<1> : tensor<4xi64>} : () -> tensor<4xi64>
  %0 = graph.add %x, %zero : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = graph.add %zero, %x : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = graph.sub %x, %zero : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %3 = graph.mul %one, %y : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %4 = graph.div %y, %one : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0, %1, %2, %3, %4 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi64>, tensor<4xi64>
}

// x + 0.0 is not x for x = -0.0, and x - (-0.0) is x + 0.0: they stay (their uniform
// constants become one value each, broadcast-into-elementwise).
// CHECK-LABEL: func.func @signed_zero(%arg0: tensor<4xf32>)
// CHECK-NEXT: %0 = graph.constant {value = dense<0.0> : tensor<1xf32>}
// CHECK-NEXT: %1 = graph.add %arg0, %0 : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
// CHECK-NEXT: %2 = graph.constant {value = dense<0.0> : tensor<1xf32>}
// CHECK-NEXT: %3 = graph.add %2, %arg0 : (tensor<1xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %4 = graph.constant {value = dense<-0.0> : tensor<1xf32>}
// CHECK-NEXT: %5 = graph.sub %arg0, %4 : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %1, %3, %5 :
// CHECK-NEXT: }
func.func @signed_zero(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = graph.constant {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %negzero = graph.constant {value = dense<-0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = graph.add %x, %zero : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.add %zero, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.sub %x, %negzero : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Only the identities: 0 - x, 1 / x, x * 0, x * -1, x * [1, 2] and x ^ 1 stay (their
// uniform constants become one value each).
// CHECK-LABEL: func.func @not_identities(%arg0: tensor<2xf32>)
// CHECK-NEXT: %0 = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>}
// CHECK-NEXT: %1 = graph.constant {value = dense<0.0> : tensor<1xf32>}
// CHECK-NEXT: %2 = graph.sub %1, %arg0
// CHECK-NEXT: %3 = graph.constant {value = dense<1.0> : tensor<1xf32>}
// CHECK-NEXT: %4 = graph.div %3, %arg0
// CHECK-NEXT: %5 = graph.constant {value = dense<0.0> : tensor<1xf32>}
// CHECK-NEXT: %6 = graph.mul %arg0, %5
// CHECK-NEXT: %7 = graph.constant {value = dense<-1.0> : tensor<1xf32>}
// CHECK-NEXT: %8 = graph.mul %arg0, %7
// CHECK-NEXT: %9 = graph.mul %arg0, %0
// CHECK-NEXT: %10 = graph.constant {value = dense<1.0> : tensor<1xf32>}
// CHECK-NEXT: %11 = graph.pow %arg0, %10
// CHECK-NEXT: return %2, %4, %6, %8, %9, %11 :
func.func @not_identities(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %zero = graph.constant {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %one = graph.constant {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %minus = graph.constant {value = dense<-1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %mixed = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = graph.sub %zero, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = graph.div %one, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = graph.mul %x, %zero : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = graph.mul %x, %minus : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %4 = graph.mul %x, %mixed : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %5 = graph.pow %x, %one : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// When the constant broadcasts x to a bigger shape the result type differs from x's:
// not an identity.
// CHECK-LABEL: func.func @broadcasting(%arg0: tensor<3xf32>, %arg1: tensor<1xi32>)
// CHECK-NEXT: %0 = graph.constant {value = dense<1.0> : tensor<2x3xf32>}
// CHECK-NEXT: %1 = graph.constant {value = dense<0> : tensor<4xi32>}
// CHECK-NEXT: %2 = graph.mul %arg0, %0 : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %3 = graph.add %arg1, %1 : (tensor<1xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: return %2, %3 : tensor<2x3xf32>, tensor<4xi32>
// CHECK-NEXT: }
func.func @broadcasting(%x: tensor<3xf32>, %i: tensor<1xi32>) -> (tensor<2x3xf32>, tensor<4xi32>) {
  %one = graph.constant {value = dense<1.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %zero = graph.constant {value = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = graph.mul %x, %one : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.add %i, %zero : (tensor<1xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1 : tensor<2x3xf32>, tensor<4xi32>
}
