// loop.view round-trips and verifies. (Regression: it was once missing from the
// dialect's op list, so printed loop IR with a reshape could not be read back.)
//
// RUN: %tcc-opt %s | FileCheck %s
// RUN: %tcc-opt %s | %tcc-opt | FileCheck %s
// RUN: %tcc-opt %s --print-op-generic | %tcc-opt | FileCheck %s
// RUN: %tcc-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @views(%arg0: buffer<2x3xf32>, %arg1: buffer<f64>, %arg2: buffer<4xi1>)
// CHECK-NEXT: %0 = loop.view %arg0 : (buffer<2x3xf32>) -> buffer<6xf32>
// CHECK-NEXT: %1 = loop.view %arg0 : (buffer<2x3xf32>) -> buffer<3x1x2xf32>
// CHECK-NEXT: %2 = loop.view %arg1 : (buffer<f64>) -> buffer<1x1xf64>
// CHECK-NEXT: %3 = loop.view %arg2 : (buffer<4xi1>) -> buffer<2x2xi1>
// CHECK-NEXT: %4 = loop.const 5 : index
// CHECK-NEXT: %5 = loop.load %0[%4] : buffer<6xf32>
// CHECK-NEXT: return
// GENERIC: %0 = "loop.view"(%arg0) : (buffer<2x3xf32>) -> buffer<6xf32>
// GENERIC: %3 = "loop.view"(%arg2) : (buffer<4xi1>) -> buffer<2x2xi1>
func.func @views(%b: buffer<2x3xf32>, %s: buffer<f64>, %m: buffer<4xi1>) {
  %flat = loop.view %b : (buffer<2x3xf32>) -> buffer<6xf32>
  %r = loop.view %b : (buffer<2x3xf32>) -> buffer<3x1x2xf32>
  %one = loop.view %s : (buffer<f64>) -> buffer<1x1xf64>
  %q = loop.view %m : (buffer<4xi1>) -> buffer<2x2xi1>
  %c5 = loop.const 5 : index
  %x = loop.load %flat[%c5] : buffer<6xf32>
  return
}
