// Round trip of every loop-dialect op (but loop.view, see view.mlir) in its pretty
// form, and through the generic form.
//
// The printer must be a fixed point: the printed text parses back and prints the same
// (second RUN line and the diff), and the generic form parses back to the same pretty
// text (third RUN line).
//
// RUN: %tcc-opt %s | FileCheck %s
// RUN: %tcc-opt %s | %tcc-opt | FileCheck %s
// RUN: %tcc-opt %s --print-op-generic | %tcc-opt | FileCheck %s
// RUN: %tcc-opt %s --print-op-generic | %tcc-opt --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: %tcc-opt %s -o %t.1.mlir
// RUN: %tcc-opt %t.1.mlir -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir

// Covered: loop.const of every scalar type (the type is always spelled, so `4 : i64`
// and `4 : index` stay apart; non-finite and -0.0 floats), all 25 arithmetic ops on
// scalars and on vectors, integer ops on i1 and index, cmp/select/cast/bitcast on
// scalars and vectors; workspace and constant buffers, loads and stores on buffers of
// rank 0, 1 and 2 with default and explicit strides; loop.for without and with
// several iter_args, with a non-constant bound and with an attribute dictionary, nested
// for loops threading a carried value, loop.for inside loop.parallel (with its `blocks`), loop.assert.

// GENERIC: "builtin.module"() ({
// GENERIC: %0 = "loop.const"() {value = 4 : index} : () -> index
// GENERIC-NEXT: %1 = "loop.const"() {value = 1.5 : f32} : () -> f32
// GENERIC: %5 = "loop.const"() {value = true} : () -> i1
// GENERIC: %0 = "loop.add"(%arg0, %arg1) : (f32, f32) -> f32
// GENERIC-NEXT: %1 = "loop.sub"(%arg3, %arg4) : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// GENERIC: %14 = "loop.fma"(%arg3, %arg4, %arg5) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// GENERIC: %25 = "loop.cmp"(%arg3, %arg4) {pred = "ge"} : (vector<4xf32>, vector<4xf32>) -> vector<4xi1>
// GENERIC: %2 = "loop.workspace"() {offset = 256} : () -> buffer<2x8xf32>
// GENERIC: %4 = "loop.constant_buffer"() {value = dense<{{\[\[}}1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> buffer<2x2xf32>
// GENERIC: %7 = "loop.load"(%arg1, %1, %0) : (buffer<4x8xf32, [16, 1]>, index, index) -> f32
// GENERIC-NEXT: %8 = "loop.load"(%arg3) : (buffer<f64>) -> f64
// GENERIC: "loop.store"(%10, %arg2, %1, %1) : (f32, buffer<4x8xf32, [1, 4]>, index, index) -> ()
// GENERIC: "loop.assert"(%9) {message = "flag must be set"} : (i1) -> ()
// GENERIC: %7:2 = "loop.for"(%0, %3, %1, %5, %6) ({
// GENERIC-NEXT: ^bb0(%arg4: index, %arg5: f32, %arg6: i32):
// GENERIC: "loop.yield"(%9, %11) : (f32, i32) -> ()
// GENERIC-NEXT: }) : (index, index, index, f32, i32) -> (f32, i32)
// GENERIC-NEXT: "loop.parallel"(%0, %4) ({
// GENERIC-NEXT: ^bb0(%arg7: index):
// GENERIC-NEXT: %12 = "loop.for"(%0, %3, %1, %5) ({
// GENERIC: "loop.yield"() : () -> ()
// GENERIC-NEXT: }) {blocks = 16} : (index, index) -> ()
// GENERIC: }) {tcc.tag = "outer"} : (index, index, index, f32) -> f32

// CHECK-LABEL: func.func @constants() -> (index, f32, f64, i32, i64, i1, i1, f32, f32, f32, i64, f64, f32) {
// CHECK-NEXT: %0 = loop.const 4 : index
// CHECK-NEXT: %1 = loop.const 1.5 : f32
// CHECK-NEXT: %2 = loop.const -0.0025 : f64
// CHECK-NEXT: %3 = loop.const -7 : i32
// CHECK-NEXT: %4 = loop.const 9223372036854775807 : i64
// CHECK-NEXT: %5 = loop.const true
// CHECK-NEXT: %6 = loop.const false
// CHECK-NEXT: %7 = loop.const 0x7F800000 : f32
// CHECK-NEXT: %8 = loop.const 0x7FC00000 : f32
// CHECK-NEXT: %9 = loop.const -0.0 : f32
// CHECK-NEXT: %10 = loop.const 4 : i64
// CHECK-NEXT: %11 = loop.const 1.5 : f64
// CHECK-NEXT: %12 = loop.const 4.0 : f32
// CHECK-NEXT: return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 :
func.func @constants() -> (index, f32, f64, i32, i64, i1, i1, f32, f32, f32, i64, f64, f32) {
  %c0 = loop.const 4 : index
  %c1 = loop.const 1.5 : f32
  %c2 = loop.const -2.5e-3 : f64
  %c3 = loop.const -7 : i32
  %c4 = loop.const 9223372036854775807 : i64
  %c5 = loop.const true
  %c6 = loop.const false
  %c7 = loop.const 0x7F800000 : f32
  %c8 = loop.const 0x7FC00000 : f32
  %c9 = loop.const -0.0 : f32
  // Untyped literals default to i64 and f64; an integer literal of float type is a float.
  %c10 = loop.const 4
  %c11 = loop.const 1.5
  %c12 = loop.const 4 : f32
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8, %c9, %c10, %c11, %c12 : index, f32, f64, i32, i64, i1, i1, f32, f32, f32, i64, f64, f32
}

// CHECK-LABEL: func.func @arith(
// CHECK-SAME: %arg0: f32, %arg1: f32, %arg2: f32, %arg3: vector<4xf32>, %arg4: vector<4xf32>, %arg5: vector<4xf32>, %arg6: i32, %arg7: i32, %arg8: vector<4xi32>, %arg9: index, %arg10: index, %arg11: i64, %arg12: i1, %arg13: i1, %arg14: f64, %arg15: vector<2xf64>, %arg16: vector<4xi1>)
// CHECK-NEXT: %0 = loop.add %arg0, %arg1 : f32
// CHECK-NEXT: %1 = loop.sub %arg3, %arg4 : vector<4xf32>
// CHECK-NEXT: %2 = loop.mul %arg9, %arg10 : index
// CHECK-NEXT: %3 = loop.div %arg6, %arg7 : i32
// CHECK-NEXT: %4 = loop.rem %arg11, %arg11 : i64
// CHECK-NEXT: %5 = loop.min %arg15, %arg15 : vector<2xf64>
// CHECK-NEXT: %6 = loop.max %arg14, %arg14 : f64
// CHECK-NEXT: %7 = loop.and %arg12, %arg13 : i1
// CHECK-NEXT: %8 = loop.or %arg8, %arg8 : vector<4xi32>
// CHECK-NEXT: %9 = loop.xor %arg6, %arg7 : i32
// CHECK-NEXT: %10 = loop.shl %arg8, %arg8 : vector<4xi32>
// CHECK-NEXT: %11 = loop.shr %arg9, %arg10 : index
// CHECK-NEXT: %12 = loop.neg %arg3 : vector<4xf32>
// CHECK-NEXT: %13 = loop.abs %arg6 : i32
// CHECK-NEXT: %14 = loop.fma %arg3, %arg4, %arg5 : vector<4xf32>
// CHECK-NEXT: %15 = loop.sqrt %arg0 : f32
// CHECK-NEXT: %16 = loop.rsqrt %arg15 : vector<2xf64>
// CHECK-NEXT: %17 = loop.floor %arg0 : f32
// CHECK-NEXT: %18 = loop.ceil %arg3 : vector<4xf32>
// CHECK-NEXT: %19 = loop.round %arg14 : f64
// CHECK-NEXT: %20 = loop.exp %arg3 : vector<4xf32>
// CHECK-NEXT: %21 = loop.log %arg0 : f32
// CHECK-NEXT: %22 = loop.tanh %arg15 : vector<2xf64>
// CHECK-NEXT: %23 = loop.erf %arg0 : f32
// CHECK-NEXT: %24 = loop.pow %arg3, %arg4 : vector<4xf32>
// CHECK-NEXT: %25 = loop.cmp %arg3, %arg4 {pred = "ge"} : (vector<4xf32>, vector<4xf32>) -> vector<4xi1>
// CHECK-NEXT: %26 = loop.cmp %arg9, %arg10 {pred = "ne"} : (index, index) -> i1
// CHECK-NEXT: %27 = loop.select %26, %arg0, %arg1 : (i1, f32, f32) -> f32
// CHECK-NEXT: %28 = loop.select %arg16, %arg8, %arg8 : (vector<4xi1>, vector<4xi32>, vector<4xi32>) -> vector<4xi32>
// CHECK-NEXT: %29 = loop.cast %arg0 : (f32) -> i32
// CHECK-NEXT: %30 = loop.cast %arg9 : (index) -> f64
// CHECK-NEXT: %31 = loop.cast %arg8 : (vector<4xi32>) -> vector<4xf32>
// CHECK-NEXT: %32 = loop.cast %arg6 : (i32) -> i1
// CHECK-NEXT: %33 = loop.bitcast %arg3 : (vector<4xf32>) -> vector<4xi32>
// CHECK-NEXT: %34 = loop.bitcast %arg14 : (f64) -> i64
// CHECK-NEXT: return
func.func @arith(%a: f32, %b: f32, %c: f32, %va: vector<4xf32>, %vb: vector<4xf32>, %vc: vector<4xf32>, %i: i32, %j: i32, %vi: vector<4xi32>, %k: index, %l: index, %m: i64, %p: i1, %q: i1, %d: f64, %vd: vector<2xf64>, %mask: vector<4xi1>) {
  %0 = loop.add %a, %b : f32
  %1 = loop.sub %va, %vb : vector<4xf32>
  %2 = loop.mul %k, %l : index
  %3 = loop.div %i, %j : i32
  %4 = loop.rem %m, %m : i64
  %5 = loop.min %vd, %vd : vector<2xf64>
  %6 = loop.max %d, %d : f64
  %7 = loop.and %p, %q : i1
  %8 = loop.or %vi, %vi : vector<4xi32>
  %9 = loop.xor %i, %j : i32
  %10 = loop.shl %vi, %vi : vector<4xi32>
  %11 = loop.shr %k, %l : index
  %12 = loop.neg %va : vector<4xf32>
  %13 = loop.abs %i : i32
  %14 = loop.fma %va, %vb, %vc : vector<4xf32>
  %15 = loop.sqrt %a : f32
  %16 = loop.rsqrt %vd : vector<2xf64>
  %17 = loop.floor %a : f32
  %18 = loop.ceil %va : vector<4xf32>
  %19 = loop.round %d : f64
  %20 = loop.exp %va : vector<4xf32>
  %21 = loop.log %a : f32
  %22 = loop.tanh %vd : vector<2xf64>
  %23 = loop.erf %a : f32
  %24 = loop.pow %va, %vb : vector<4xf32>
  %25 = loop.cmp %va, %vb {pred = "ge"} : (vector<4xf32>, vector<4xf32>) -> vector<4xi1>
  %26 = loop.cmp %k, %l {pred = "ne"} : (index, index) -> i1
  %27 = loop.select %26, %a, %b : (i1, f32, f32) -> f32
  %28 = loop.select %mask, %vi, %vi : (vector<4xi1>, vector<4xi32>, vector<4xi32>) -> vector<4xi32>
  %29 = loop.cast %a : (f32) -> i32
  %30 = loop.cast %k : (index) -> f64
  %31 = loop.cast %vi : (vector<4xi32>) -> vector<4xf32>
  %32 = loop.cast %i : (i32) -> i1
  %33 = loop.bitcast %va : (vector<4xf32>) -> vector<4xi32>
  %34 = loop.bitcast %d : (f64) -> i64
  return
}

// CHECK-LABEL: func.func @memory(%arg0: buffer<4x8xf32>, %arg1: buffer<4x8xf32, [16, 1]>, %arg2: buffer<4x8xf32, [1, 4]>, %arg3: buffer<f64>, %arg4: buffer<3xi1>) {
// CHECK-NEXT: %0 = loop.const 0 : index
// CHECK-NEXT: %1 = loop.const 1 : index
// CHECK-NEXT: %2 = loop.workspace {offset = 256} : () -> buffer<2x8xf32>
// CHECK-NEXT: %3 = loop.workspace {offset = 0} : () -> buffer<16xi64>
// CHECK-NEXT: %4 = loop.constant_buffer {value = dense<{{\[\[}}1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> buffer<2x2xf32>
// CHECK-NEXT: %5 = loop.constant_buffer {value = dense<7> : tensor<3xi32>} : () -> buffer<3xi32>
// CHECK-NEXT: %6 = loop.load %arg0[%0, %1] : buffer<4x8xf32>
// CHECK-NEXT: %7 = loop.load %arg1[%1, %0] : buffer<4x8xf32, [16, 1]>
// CHECK-NEXT: %8 = loop.load %arg3[] : buffer<f64>
// CHECK-NEXT: %9 = loop.load %arg4[%1] : buffer<3xi1>
// CHECK-NEXT: %10 = loop.add %6, %7 : f32
// CHECK-NEXT: loop.store %10, %arg2[%1, %1] : buffer<4x8xf32, [1, 4]>
// CHECK-NEXT: loop.store %8, %arg3[] : buffer<f64>
// CHECK-NEXT: loop.store %10, %2[%1, %0] : buffer<2x8xf32>
// CHECK-NEXT: loop.prefetch %arg1[%1, %0] : buffer<4x8xf32, [16, 1]>
// CHECK-NEXT: loop.assert %9 {message = "flag must be set"} : (i1) -> ()
// CHECK-NEXT: return
func.func @memory(%in: buffer<4x8xf32>, %strided: buffer<4x8xf32, [16, 1]>, %cols: buffer<4x8xf32, [1, 4]>, %scalar: buffer<f64>, %flags: buffer<3xi1>) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %w = loop.workspace {offset = 256} : () -> buffer<2x8xf32>
  %wi = loop.workspace {offset = 0} : () -> buffer<16xi64>
  %k = loop.constant_buffer {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> buffer<2x2xf32>
  %ks = loop.constant_buffer {value = dense<7> : tensor<3xi32>} : () -> buffer<3xi32>
  %x = loop.load %in[%c0, %c1] : buffer<4x8xf32>
  %y = loop.load %strided[%c1, %c0] : buffer<4x8xf32, [16, 1]>
  %z = loop.load %scalar[] : buffer<f64>
  %f = loop.load %flags[%c1] : buffer<3xi1>
  %s = loop.add %x, %y : f32
  loop.store %s, %cols[%c1, %c1] : buffer<4x8xf32, [1, 4]>
  loop.store %z, %scalar[] : buffer<f64>
  loop.store %s, %w[%c1, %c0] : buffer<2x8xf32>
  loop.prefetch %strided[%c1, %c0] : buffer<4x8xf32, [16, 1]>
  loop.assert %f {message = "flag must be set"} : (i1) -> ()
  return
}

// CHECK-LABEL: func.func @control(%arg0: buffer<64x16xf32>, %arg1: buffer<64xf32>, %arg2: index) -> (f32, i32) {
// CHECK: %5 = loop.const 0.0 : f32
// CHECK-NEXT: %6 = loop.const 0 : i32
// CHECK-NEXT: loop.for %arg3 = %0 to %arg2 step %2 {
// CHECK-NEXT: loop.yield
// CHECK-NEXT: }
// CHECK-NEXT: %7:2 = loop.for %arg4 = %0 to %3 step %1 iter_args(%arg5 = %5, %arg6 = %6) -> (f32, i32) {
// CHECK-NEXT: %8 = loop.load %arg0[%0, %arg4] : buffer<64x16xf32>
// CHECK-NEXT: %9 = loop.add %arg5, %8 : f32
// CHECK-NEXT: %10 = loop.const 1 : i32
// CHECK-NEXT: %11 = loop.add %arg6, %10 : i32
// CHECK-NEXT: loop.yield %9, %11 : f32, i32
// CHECK-NEXT: }
// CHECK-NEXT: loop.parallel %arg7 = %0 to %4 {
// CHECK-NEXT: %12 = loop.for %arg8 = %0 to %3 step %1 iter_args(%arg9 = %5) -> (f32) {
// CHECK-NEXT: %13 = loop.load %arg0[%arg7, %arg8] : buffer<64x16xf32>
// CHECK-NEXT: %14 = loop.max %arg9, %13 : f32
// CHECK-NEXT: loop.yield %14 : f32
// CHECK-NEXT: }
// CHECK-NEXT: loop.store %12, %arg1[%arg7] : buffer<64xf32>
// CHECK-NEXT: loop.yield
// CHECK-NEXT: } attributes {blocks = 16}
// CHECK-NEXT: %15 = loop.for %arg10 = %0 to %2 step %1 iter_args(%arg11 = %5) -> (f32) {
// CHECK-NEXT: %16 = loop.for %arg12 = %0 to %2 step %1 iter_args(%arg13 = %arg11) -> (f32) {
// CHECK-NEXT: loop.yield %arg13 : f32
// CHECK-NEXT: }
// CHECK-NEXT: loop.yield %16 : f32
// CHECK-NEXT: } attributes {tcc.tag = "outer"}
// CHECK-NEXT: return %7#0, %7#1 : f32, i32
func.func @control(%buf: buffer<64x16xf32>, %out: buffer<64xf32>, %n: index) -> (f32, i32) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c4 = loop.const 4 : index
  %c16 = loop.const 16 : index
  %c64 = loop.const 64 : index
  %zero = loop.const 0.0 : f32
  %zi = loop.const 0 : i32
  loop.for %i = %c0 to %n step %c4 {
    loop.yield
  }
  %sum, %cnt = loop.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero, %k = %zi) -> (f32, i32) {
    %x = loop.load %buf[%c0, %i] : buffer<64x16xf32>
    %s = loop.add %acc, %x : f32
    %one = loop.const 1 : i32
    %k1 = loop.add %k, %one : i32
    loop.yield %s, %k1 : f32, i32
  }
  loop.parallel %r = %c0 to %c64 {
    %row = loop.for %j = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = loop.load %buf[%r, %j] : buffer<64x16xf32>
      %m = loop.max %acc, %x : f32
      loop.yield %m : f32
    }
    loop.store %row, %out[%r] : buffer<64xf32>
    loop.yield
  } attributes {blocks = 16}
  %v = loop.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
    %inner = loop.for %j = %c0 to %c4 step %c1 iter_args(%acc2 = %acc) -> (f32) {
      loop.yield %acc2 : f32
    }
    loop.yield %inner : f32
  } attributes {tcc.tag = "outer"}
  return %sum, %cnt : f32, i32
}
