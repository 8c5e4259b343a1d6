// Round trip of every vector-dialect op in its pretty form, and through the generic
// form, together with loop arithmetic on vectors.
//
// RUN: %tcc-opt %s | FileCheck %s
// RUN: %tcc-opt %s | %tcc-opt | FileCheck %s
// RUN: %tcc-opt %s --print-op-generic | %tcc-opt | FileCheck %s
// RUN: %tcc-opt %s --print-op-generic | %tcc-opt --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: %tcc-opt %s -o %t.1.mlir
// RUN: %tcc-opt %t.1.mlir -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir

// Covered: vector.load/store on rank-1 and rank-2 buffers, on a buffer with explicit
// strides whose innermost stride is 1, with f32, f64 and i32 elements and lane counts
// 2, 4 and 8 (the dialect does not fix the lane count); splat of f32/f64/i32; every
// reduction kind; extract and insert at the first and last lanes.

// GENERIC: "builtin.module"() ({
// GENERIC: %0 = "vector.load"(%arg0, %arg5) : (buffer<16xf32>, index) -> vector<4xf32>
// GENERIC-NEXT: %1 = "vector.load"(%arg1, %arg5, %arg5) : (buffer<4x64xf32>, index, index) -> vector<8xf32>
// GENERIC-NEXT: %2 = "vector.load"(%arg2, %arg5, %arg5) : (buffer<4x8xf32, [16, 1]>, index, index) -> vector<4xf32>
// GENERIC: %5 = "vector.splat"(%arg6) : (f32) -> vector<4xf32>
// GENERIC: %8 = "loop.fma"(%0, %5, %2) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// GENERIC-NEXT: "vector.store"(%8, %arg0, %arg5) : (vector<4xf32>, buffer<16xf32>, index) -> ()
// GENERIC: %9 = "vector.reduce"(%8) {kind = "add"} : (vector<4xf32>) -> f32
// GENERIC: %13 = "vector.extract"(%8) {index = 3} : (vector<4xf32>) -> f32
// GENERIC-NEXT: %14 = "vector.insert"(%13, %8) {index = 0} : (f32, vector<4xf32>) -> vector<4xf32>

// CHECK-LABEL: func.func @vector(
// CHECK-SAME: %arg0: buffer<16xf32>, %arg1: buffer<4x64xf32>, %arg2: buffer<4x8xf32, [16, 1]>, %arg3: buffer<8xf64>, %arg4: buffer<32xi32>, %arg5: index, %arg6: f32, %arg7: f64, %arg8: i32) -> (f32, f32, f64, i32) {
// CHECK-NEXT: %0 = vector.load %arg0[%arg5] : buffer<16xf32>, vector<4xf32>
// CHECK-NEXT: %1 = vector.load %arg1[%arg5, %arg5] : buffer<4x64xf32>, vector<8xf32>
// CHECK-NEXT: %2 = vector.load %arg2[%arg5, %arg5] : buffer<4x8xf32, [16, 1]>, vector<4xf32>
// CHECK-NEXT: %3 = vector.load %arg3[%arg5] : buffer<8xf64>, vector<2xf64>
// CHECK-NEXT: %4 = vector.load %arg4[%arg5] : buffer<32xi32>, vector<4xi32>
// CHECK-NEXT: %5 = vector.splat %arg6 : (f32) -> vector<4xf32>
// CHECK-NEXT: %6 = vector.splat %arg7 : (f64) -> vector<2xf64>
// CHECK-NEXT: %7 = vector.splat %arg8 : (i32) -> vector<4xi32>
// CHECK-NEXT: %8 = loop.fma %0, %5, %2 : vector<4xf32>
// CHECK-NEXT: vector.store %8, %arg0[%arg5] : buffer<16xf32>, vector<4xf32>
// CHECK-NEXT: vector.store %1, %arg1[%arg5, %arg5] : buffer<4x64xf32>, vector<8xf32>
// CHECK-NEXT: vector.store %6, %arg3[%arg5] : buffer<8xf64>, vector<2xf64>
// CHECK-NEXT: %9 = vector.reduce %8 {kind = "add"} : (vector<4xf32>) -> f32
// CHECK-NEXT: %10 = vector.reduce %1 {kind = "max"} : (vector<8xf32>) -> f32
// CHECK-NEXT: %11 = vector.reduce %3 {kind = "min"} : (vector<2xf64>) -> f64
// CHECK-NEXT: %12 = vector.reduce %4 {kind = "mul"} : (vector<4xi32>) -> i32
// CHECK-NEXT: %13 = vector.extract %8 {index = 3} : (vector<4xf32>) -> f32
// CHECK-NEXT: %14 = vector.insert %13, %8 {index = 0} : (f32, vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT: %15 = vector.insert %arg8, %7 {index = 3} : (i32, vector<4xi32>) -> vector<4xi32>
// CHECK-NEXT: %16 = vector.shuffle %8, %14 {mask = [0, 4, 1, 5]} : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT: %17 = vector.load %arg0[%arg5] {readonly = true} : buffer<16xf32>, vector<4xf32>
// CHECK-NEXT: return %9, %10, %11, %12 : f32, f32, f64, i32
// CHECK-NEXT: }
func.func @vector(%buf: buffer<16xf32>, %m: buffer<4x64xf32>, %s: buffer<4x8xf32, [16, 1]>, %d: buffer<8xf64>, %ib: buffer<32xi32>, %i: index, %x: f32, %y: f64, %n: i32) -> (f32, f32, f64, i32) {
  %v = vector.load %buf[%i] : buffer<16xf32>, vector<4xf32>
  %w = vector.load %m[%i, %i] : buffer<4x64xf32>, vector<8xf32>
  %ws = vector.load %s[%i, %i] : buffer<4x8xf32, [16, 1]>, vector<4xf32>
  %vd = vector.load %d[%i] : buffer<8xf64>, vector<2xf64>
  %vi = vector.load %ib[%i] : buffer<32xi32>, vector<4xi32>
  %sp = vector.splat %x : (f32) -> vector<4xf32>
  %spd = vector.splat %y : (f64) -> vector<2xf64>
  %spi = vector.splat %n : (i32) -> vector<4xi32>
  %r = loop.fma %v, %sp, %ws : vector<4xf32>
  vector.store %r, %buf[%i] : buffer<16xf32>, vector<4xf32>
  vector.store %w, %m[%i, %i] : buffer<4x64xf32>, vector<8xf32>
  vector.store %spd, %d[%i] : buffer<8xf64>, vector<2xf64>
  %sum = vector.reduce %r {kind = "add"} : (vector<4xf32>) -> f32
  %mx = vector.reduce %w {kind = "max"} : (vector<8xf32>) -> f32
  %mn = vector.reduce %vd {kind = "min"} : (vector<2xf64>) -> f64
  %pr = vector.reduce %vi {kind = "mul"} : (vector<4xi32>) -> i32
  %e = vector.extract %r {index = 3} : (vector<4xf32>) -> f32
  %ins = vector.insert %e, %r {index = 0} : (f32, vector<4xf32>) -> vector<4xf32>
  %ins2 = vector.insert %n, %spi {index = 3} : (i32, vector<4xi32>) -> vector<4xi32>
  %lo = vector.shuffle %r, %ins {mask = [0, 4, 1, 5]} : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  %ro = vector.load %buf[%i] {readonly = true} : buffer<16xf32>, vector<4xf32>
  return %sum, %mx, %mn, %pr : f32, f32, f64, i32
}
