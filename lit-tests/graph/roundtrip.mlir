// Round trip of every graph op in its pretty form.
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

// Covered: all 46 graph ops; `[1, 1]` and `array<i64: 1, 1>` list spellings (each
// printed as written); optional attributes absent (defaults are not materialized) and
// present; a unit attribute as a bool (`keepdims`); multi-result split with `%r:2`,
// `%a, %b` and `%r:2, %s` binders and `%r#1` uses; f32, f64, i1, i32 and i64 element
// types; dense literals (nested, splat, empty, scalar, more than 16 elements printed as
// hex), hex `dense<"0x..">` (data and splat) and `dense_resource` with its
// `dialect_resources` section.

// CHECK: module {

// GENERIC: "builtin.module"() ({
// GENERIC: "func.func"() ({
// GENERIC-NEXT: %0 = "graph.constant"() {value = dense<[1.0, -2.5, 300.0]> : tensor<3xf32>} : () -> tensor<3xf32>
// GENERIC: %8 = "graph.constant"() {value = dense_resource<weights> : tensor<4xf32>} : () -> tensor<4xf32>
// GENERIC: "func.return"(%0, %1, %2,
// GENERIC: }) {function_type = () -> (tensor<3xf32>, {{.*}}), sym_name = "constants"} : () -> ()
// GENERIC: ^bb0(%arg0: tensor<1x3x32x32xf32>, %arg1: tensor<8x3x3x3xf32>, %arg2: tensor<8xf32>, %arg3: tensor<8x1x3x3xf32>, %arg4: tensor<1x4x9x9xf64>, %arg5: tensor<6x2x3x3xf64>):
// GENERIC-NEXT: %0 = "graph.conv2d"(%arg0, %arg1, %arg2) {dilations = [1, 1], groups = 1, pads = [1, 1, 1, 1], strides = [1, 1]} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x32x32xf32>
// GENERIC: %1:2 = "graph.split"(%0) {axis = 1, sizes = [2, 3]} : (tensor<1x5xf32>) -> (tensor<1x2xf32>, tensor<1x3xf32>)
// GENERIC-NEXT: %2 = "graph.add"(%1#1, %arg1) : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
// GENERIC: }) : () -> ()
// GENERIC: {-#
// GENERIC-NEXT: dialect_resources: {
// GENERIC-NEXT: builtin: {
// GENERIC-NEXT: weights: "0x040000000000803F000000400000404000008040"

// CHECK-LABEL: func.func @constants() -> (tensor<3xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<2xi1>, tensor<3xi32>, tensor<2xi64>, tensor<2xf64>, tensor<2xf32>, tensor<4xf32>, tensor<f32>, tensor<0xf32>, tensor<20xi32>, tensor<4xf32>, tensor<2xi64>, tensor<3x1xi1>, tensor<2x2xi32>, tensor<2xf64>, tensor<2x1x2xi64>) {
// CHECK-NEXT: %0 = graph.constant {value = dense<[1.0, -2.5, 300.0]> : tensor<3xf32>} : () -> tensor<3xf32>
// CHECK-NEXT: %1 = graph.constant {value = dense<{{\[\[}}1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
// CHECK-NEXT: %2 = graph.constant {value = dense<0.5> : tensor<4xf32>} : () -> tensor<4xf32>
// CHECK-NEXT: %3 = graph.constant {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
// CHECK-NEXT: %4 = graph.constant {value = dense<[1, -2, 2147483647]> : tensor<3xi32>} : () -> tensor<3xi32>
// CHECK-NEXT: %5 = graph.constant {value = dense<[-9223372036854775808, 42]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT: %6 = graph.constant {value = dense<[0.1, 1.0e-300]> : tensor<2xf64>} : () -> tensor<2xf64>
// CHECK-NEXT: %7 = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT: %8 = graph.constant {value = dense_resource<weights> : tensor<4xf32>} : () -> tensor<4xf32>
// CHECK-NEXT: %9 = graph.constant {value = dense<7.0> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %10 = graph.constant {value = dense<> : tensor<0xf32>} : () -> tensor<0xf32>
// CHECK-NEXT: %11 = graph.constant {value = dense<"0x000000000100000002000000030000000400000005000000060000000700000008000000090000000A0000000B0000000C0000000D0000000E0000000F00000010000000110000001200000013000000"> : tensor<20xi32>} : () -> tensor<20xi32>
// CHECK-NEXT: %12 = graph.constant {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
// CHECK-NEXT: %13 = graph.constant {value = dense<[1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
// CHECK-NEXT: %14 = graph.constant {value = dense<{{\[\[}}true], [false], [true]]> : tensor<3x1xi1>} : () -> tensor<3x1xi1>
// CHECK-NEXT: %15 = graph.constant {value = dense<-3> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
// CHECK-NEXT: %16 = graph.constant {value = dense<1.5> : tensor<2xf64>} : () -> tensor<2xf64>
// CHECK-NEXT: %17 = graph.constant {value = dense<{{\[\[}}[1, 2]], {{\[\[}}3, 4]]]> : tensor<2x1x2xi64>} : () -> tensor<2x1x2xi64>
// CHECK-NEXT: return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17 : tensor<3xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<2xi1>, tensor<3xi32>, tensor<2xi64>, tensor<2xf64>, tensor<2xf32>, tensor<4xf32>, tensor<f32>, tensor<0xf32>, tensor<20xi32>, tensor<4xf32>, tensor<2xi64>, tensor<3x1xi1>, tensor<2x2xi32>, tensor<2xf64>, tensor<2x1x2xi64>
// CHECK-NEXT: }
func.func @constants() -> (tensor<3xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<2xi1>, tensor<3xi32>, tensor<2xi64>, tensor<2xf64>, tensor<2xf32>, tensor<4xf32>, tensor<f32>, tensor<0xf32>, tensor<20xi32>, tensor<4xf32>, tensor<2xi64>, tensor<3x1xi1>, tensor<2x2xi32>, tensor<2xf64>, tensor<2x1x2xi64>) {
  %0 = graph.constant {value = dense<[1.0, -2.5, 3.0e2]> : tensor<3xf32>} : () -> tensor<3xf32>
  %1 = graph.constant {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %2 = graph.constant {value = dense<0.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %3 = graph.constant {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
  %4 = graph.constant {value = dense<[1, -2, 2147483647]> : tensor<3xi32>} : () -> tensor<3xi32>
  %5 = graph.constant {value = dense<[-9223372036854775808, 42]> : tensor<2xi64>} : () -> tensor<2xi64>
  %6 = graph.constant {value = dense<[0.1, 1.0e-300]> : tensor<2xf64>} : () -> tensor<2xf64>
  %7 = graph.constant {value = dense<"0x0000803F00000040"> : tensor<2xf32>} : () -> tensor<2xf32>
  %8 = graph.constant {value = dense_resource<weights> : tensor<4xf32>} : () -> tensor<4xf32>
  %9 = graph.constant {value = dense<7.0> : tensor<f32>} : () -> tensor<f32>
  %10 = graph.constant {value = dense<> : tensor<0xf32>} : () -> tensor<0xf32>
  %11 = graph.constant {value = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]> : tensor<20xi32>} : () -> tensor<20xi32>
  %12 = graph.constant {value = dense<"0x0000803F"> : tensor<4xf32>} : () -> tensor<4xf32>
  %13 = graph.constant {value = dense<"0x0100000000000000FFFFFFFFFFFFFFFF"> : tensor<2xi64>} : () -> tensor<2xi64>
  %14 = graph.constant {value = dense<[[true], [false], [true]]> : tensor<3x1xi1>} : () -> tensor<3x1xi1>
  %15 = graph.constant {value = dense<-3> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %16 = graph.constant {value = dense<[1.5, 1.5]> : tensor<2xf64>} : () -> tensor<2xf64>
  %17 = graph.constant {value = dense<[[[1, 2]], [[3, 4]]]> : tensor<2x1x2xi64>} : () -> tensor<2x1x2xi64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17 : tensor<3xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<2xi1>, tensor<3xi32>, tensor<2xi64>, tensor<2xf64>, tensor<2xf32>, tensor<4xf32>, tensor<f32>, tensor<0xf32>, tensor<20xi32>, tensor<4xf32>, tensor<2xi64>, tensor<3x1xi1>, tensor<2x2xi32>, tensor<2xf64>, tensor<2x1x2xi64>
}

// CHECK-LABEL: func.func @binary(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<4xi32>, %arg3: tensor<4xi64>, %arg4: tensor<2x1xf64>, %arg5: tensor<1x5xf64>) -> (tensor<2x3xf32>, tensor<4xi32>, tensor<4xi64>, tensor<2x5xf64>) {
// CHECK-NEXT: %0 = graph.add %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = graph.sub %0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %2 = graph.mul %1, %arg0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %3 = graph.div %2, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %4 = graph.max %3, %arg0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %5 = graph.min %4, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %6 = graph.pow %5, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %7 = graph.add %arg2, %arg2 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: %8 = graph.div %7, %arg2 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: %9 = graph.mul %arg3, %arg3 : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
// CHECK-NEXT: %10 = graph.max %9, %arg3 : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
// CHECK-NEXT: %11 = graph.sub %arg4, %arg5 : (tensor<2x1xf64>, tensor<1x5xf64>) -> tensor<2x5xf64>
// CHECK-NEXT: %12 = graph.pow %11, %arg5 : (tensor<2x5xf64>, tensor<1x5xf64>) -> tensor<2x5xf64>
// CHECK-NEXT: return %6, %8, %10, %12 : tensor<2x3xf32>, tensor<4xi32>, tensor<4xi64>, tensor<2x5xf64>
// CHECK-NEXT: }
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<4xi32>, %j: tensor<4xi64>, %d: tensor<2x1xf64>, %e: tensor<1x5xf64>) -> (tensor<2x3xf32>, tensor<4xi32>, tensor<4xi64>, tensor<2x5xf64>) {
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = graph.sub %0, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = graph.mul %1, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = graph.div %2, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %4 = graph.max %3, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = graph.min %4, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %6 = graph.pow %5, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %7 = graph.add %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %8 = graph.div %7, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %9 = graph.mul %j, %j : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %10 = graph.max %9, %j : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %11 = graph.sub %d, %e : (tensor<2x1xf64>, tensor<1x5xf64>) -> tensor<2x5xf64>
  %12 = graph.pow %11, %e : (tensor<2x5xf64>, tensor<1x5xf64>) -> tensor<2x5xf64>
  return %6, %8, %10, %12 : tensor<2x3xf32>, tensor<4xi32>, tensor<4xi64>, tensor<2x5xf64>
}

// CHECK-LABEL: func.func @compare_select(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<4xi32>, %arg3: tensor<4xi64>) -> (tensor<2x3xf32>, tensor<4xi1>, tensor<4xi64>) {
// CHECK-NEXT: %0 = graph.greater %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %1 = graph.less %arg2, %arg2 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// CHECK-NEXT: %2 = graph.equal %arg3, %arg3 : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
// CHECK-NEXT: %3 = graph.select %0, %arg0, %arg1 : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %4 = graph.select %2, %arg3, %arg3 : (tensor<4xi1>, tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
// CHECK-NEXT: %5 = graph.select %1, %1, %2 : (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT: return %3, %5, %4 : tensor<2x3xf32>, tensor<4xi1>, tensor<4xi64>
// CHECK-NEXT: }
func.func @compare_select(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<4xi32>, %j: tensor<4xi64>) -> (tensor<2x3xf32>, tensor<4xi1>, tensor<4xi64>) {
  %0 = graph.greater %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %1 = graph.less %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %2 = graph.equal %j, %j : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %3 = graph.select %0, %a, %b : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %4 = graph.select %2, %j, %j : (tensor<4xi1>, tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %5 = graph.select %1, %1, %2 : (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %3, %5, %4 : tensor<2x3xf32>, tensor<4xi1>, tensor<4xi64>
}

// CHECK-LABEL: func.func @unary(%arg0: tensor<4xf32>, %arg1: tensor<4xi32>, %arg2: tensor<2x2xf64>) -> (tensor<4xf32>, tensor<4xi32>, tensor<2x2xf64>) {
// CHECK-NEXT: %0 = graph.neg %arg0 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %1 = graph.abs %0 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %2 = graph.exp %1 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %3 = graph.log %2 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %4 = graph.sqrt %3 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %5 = graph.rsqrt %4 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %6 = graph.reciprocal %5 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %7 = graph.tanh %6 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %8 = graph.sigmoid %7 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %9 = graph.erf %8 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %10 = graph.relu %9 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %11 = graph.floor %10 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %12 = graph.ceil %11 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %13 = graph.neg %arg1 : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: %14 = graph.abs %13 : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: %15 = graph.relu %14 : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: %16 = graph.exp %arg2 : (tensor<2x2xf64>) -> tensor<2x2xf64>
// CHECK-NEXT: %17 = graph.tanh %16 : (tensor<2x2xf64>) -> tensor<2x2xf64>
// CHECK-NEXT: return %12, %15, %17 : tensor<4xf32>, tensor<4xi32>, tensor<2x2xf64>
// CHECK-NEXT: }
func.func @unary(%x: tensor<4xf32>, %i: tensor<4xi32>, %d: tensor<2x2xf64>) -> (tensor<4xf32>, tensor<4xi32>, tensor<2x2xf64>) {
  %0 = graph.neg %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.abs %0 : (tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.exp %1 : (tensor<4xf32>) -> tensor<4xf32>
  %3 = graph.log %2 : (tensor<4xf32>) -> tensor<4xf32>
  %4 = graph.sqrt %3 : (tensor<4xf32>) -> tensor<4xf32>
  %5 = graph.rsqrt %4 : (tensor<4xf32>) -> tensor<4xf32>
  %6 = graph.reciprocal %5 : (tensor<4xf32>) -> tensor<4xf32>
  %7 = graph.tanh %6 : (tensor<4xf32>) -> tensor<4xf32>
  %8 = graph.sigmoid %7 : (tensor<4xf32>) -> tensor<4xf32>
  %9 = graph.erf %8 : (tensor<4xf32>) -> tensor<4xf32>
  %10 = graph.relu %9 : (tensor<4xf32>) -> tensor<4xf32>
  %11 = graph.floor %10 : (tensor<4xf32>) -> tensor<4xf32>
  %12 = graph.ceil %11 : (tensor<4xf32>) -> tensor<4xf32>
  %13 = graph.neg %i : (tensor<4xi32>) -> tensor<4xi32>
  %14 = graph.abs %13 : (tensor<4xi32>) -> tensor<4xi32>
  %15 = graph.relu %14 : (tensor<4xi32>) -> tensor<4xi32>
  %16 = graph.exp %d : (tensor<2x2xf64>) -> tensor<2x2xf64>
  %17 = graph.tanh %16 : (tensor<2x2xf64>) -> tensor<2x2xf64>
  return %12, %15, %17 : tensor<4xf32>, tensor<4xi32>, tensor<2x2xf64>
}

// CHECK-LABEL: func.func @gelu_clamp_cast(%arg0: tensor<2x8xf32>, %arg1: tensor<4xi32>, %arg2: tensor<4xi1>) -> (tensor<2x8xf32>, tensor<2x8xi32>, tensor<4xi32>, tensor<4xf64>, tensor<4xi1>, tensor<2x8xi64>) {
// CHECK-NEXT: %0 = graph.gelu %arg0 : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %1 = graph.gelu %0 {approximate = "tanh"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %2 = graph.gelu %1 {approximate = "none"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %3 = graph.clamp %2 {max = 6.0, min = 0.0} : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %4 = graph.clamp %3 {min = -1.5} : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %5 = graph.clamp %4 : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %6 = graph.clamp %arg1 {max = 10, min = 0} : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: %7 = graph.cast %5 : (tensor<2x8xf32>) -> tensor<2x8xi32>
// CHECK-NEXT: %8 = graph.cast %arg1 : (tensor<4xi32>) -> tensor<4xf64>
// CHECK-NEXT: %9 = graph.cast %8 : (tensor<4xf64>) -> tensor<4xi1>
// CHECK-NEXT: %10 = graph.cast %arg2 : (tensor<4xi1>) -> tensor<4xi32>
// CHECK-NEXT: %11 = graph.cast %7 : (tensor<2x8xi32>) -> tensor<2x8xi64>
// CHECK-NEXT: return %5, %7, %10, %8, %9, %11 : tensor<2x8xf32>, tensor<2x8xi32>, tensor<4xi32>, tensor<4xf64>, tensor<4xi1>, tensor<2x8xi64>
// CHECK-NEXT: }
func.func @gelu_clamp_cast(%x: tensor<2x8xf32>, %i: tensor<4xi32>, %b: tensor<4xi1>) -> (tensor<2x8xf32>, tensor<2x8xi32>, tensor<4xi32>, tensor<4xf64>, tensor<4xi1>, tensor<2x8xi64>) {
  %0 = graph.gelu %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = graph.gelu %0 {approximate = "tanh"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = graph.gelu %1 {approximate = "none"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %3 = graph.clamp %2 {min = 0.0, max = 6.0} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %4 = graph.clamp %3 {min = -1.5} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %5 = graph.clamp %4 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %6 = graph.clamp %i {min = 0, max = 10} : (tensor<4xi32>) -> tensor<4xi32>
  %7 = graph.cast %5 : (tensor<2x8xf32>) -> tensor<2x8xi32>
  %8 = graph.cast %i : (tensor<4xi32>) -> tensor<4xf64>
  %9 = graph.cast %8 : (tensor<4xf64>) -> tensor<4xi1>
  %10 = graph.cast %b : (tensor<4xi1>) -> tensor<4xi32>
  %11 = graph.cast %7 : (tensor<2x8xi32>) -> tensor<2x8xi64>
  return %5, %7, %10, %8, %9, %11 : tensor<2x8xf32>, tensor<2x8xi32>, tensor<4xi32>, tensor<4xf64>, tensor<4xi1>, tensor<2x8xi64>
}

// CHECK-LABEL: func.func @matmul(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<8xf32>, %arg3: tensor<3x1x2x4xi64>, %arg4: tensor<5x4x6xi64>) -> (tensor<2x4x16xf32>, tensor<2x4xf32>, tensor<16xf32>, tensor<3x5x2x6xi64>, tensor<f32>) {
// CHECK-NEXT: %0 = graph.matmul %arg0, %arg1 : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
// CHECK-NEXT: %1 = graph.matmul %arg0, %arg2 : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %2 = graph.matmul %arg2, %arg1 : (tensor<8xf32>, tensor<8x16xf32>) -> tensor<16xf32>
// CHECK-NEXT: %3 = graph.matmul %arg3, %arg4 : (tensor<3x1x2x4xi64>, tensor<5x4x6xi64>) -> tensor<3x5x2x6xi64>
// CHECK-NEXT: %4 = graph.matmul %arg2, %arg2 : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
// CHECK-NEXT: return %0, %1, %2, %3, %4 : tensor<2x4x16xf32>, tensor<2x4xf32>, tensor<16xf32>, tensor<3x5x2x6xi64>, tensor<f32>
// CHECK-NEXT: }
func.func @matmul(%a: tensor<2x4x8xf32>, %b: tensor<8x16xf32>, %v: tensor<8xf32>, %c: tensor<3x1x2x4xi64>, %d: tensor<5x4x6xi64>) -> (tensor<2x4x16xf32>, tensor<2x4xf32>, tensor<16xf32>, tensor<3x5x2x6xi64>, tensor<f32>) {
  %0 = graph.matmul %a, %b : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  %1 = graph.matmul %a, %v : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4xf32>
  %2 = graph.matmul %v, %b : (tensor<8xf32>, tensor<8x16xf32>) -> tensor<16xf32>
  %3 = graph.matmul %c, %d : (tensor<3x1x2x4xi64>, tensor<5x4x6xi64>) -> tensor<3x5x2x6xi64>
  %4 = graph.matmul %v, %v : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
  return %0, %1, %2, %3, %4 : tensor<2x4x16xf32>, tensor<2x4xf32>, tensor<16xf32>, tensor<3x5x2x6xi64>, tensor<f32>
}

// CHECK-LABEL: func.func @conv2d(%arg0: tensor<1x3x32x32xf32>, %arg1: tensor<8x3x3x3xf32>, %arg2: tensor<8xf32>, %arg3: tensor<8x1x3x3xf32>, %arg4: tensor<1x4x9x9xf64>, %arg5: tensor<6x2x3x3xf64>) -> (tensor<1x8x32x32xf32>, tensor<1x8x30x30xf32>, tensor<1x8x16x16xf32>, tensor<1x6x5x5xf64>) {
// CHECK-NEXT: %0 = graph.conv2d %arg0, %arg1, %arg2 {dilations = [1, 1], groups = 1, pads = [1, 1, 1, 1], strides = [1, 1]} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x32x32xf32>
// CHECK-NEXT: %1 = graph.conv2d %arg0, %arg1 : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
// CHECK-NEXT: %2 = graph.conv2d %0, %arg3 {groups = 8, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x32x32xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x16x16xf32>
// CHECK-NEXT: %3 = graph.conv2d %arg4, %arg5 {dilations = [2, 2], groups = 2} : (tensor<1x4x9x9xf64>, tensor<6x2x3x3xf64>) -> tensor<1x6x5x5xf64>
// CHECK-NEXT: return %0, %1, %2, %3 : tensor<1x8x32x32xf32>, tensor<1x8x30x30xf32>, tensor<1x8x16x16xf32>, tensor<1x6x5x5xf64>
// CHECK-NEXT: }
func.func @conv2d(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>, %dw: tensor<8x1x3x3xf32>, %xd: tensor<1x4x9x9xf64>, %wd: tensor<6x2x3x3xf64>) -> (tensor<1x8x32x32xf32>, tensor<1x8x30x30xf32>, tensor<1x8x16x16xf32>, tensor<1x6x5x5xf64>) {
  %0 = graph.conv2d %x, %w, %b {strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], groups = 1} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x32x32xf32>
  %1 = graph.conv2d %x, %w : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  %2 = graph.conv2d %0, %dw {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, groups = 8} : (tensor<1x8x32x32xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x16x16xf32>
  %3 = graph.conv2d %xd, %wd {dilations = [2, 2], groups = 2} : (tensor<1x4x9x9xf64>, tensor<6x2x3x3xf64>) -> tensor<1x6x5x5xf64>
  return %0, %1, %2, %3 : tensor<1x8x32x32xf32>, tensor<1x8x30x30xf32>, tensor<1x8x16x16xf32>, tensor<1x6x5x5xf64>
}

// CHECK-LABEL: func.func @pool(%arg0: tensor<1x8x32x32xf32>) -> (tensor<1x8x16x16xf32>, tensor<1x8x16x16xf32>, tensor<1x8x16x16xf32>, tensor<1x8x31x31xf32>) {
// CHECK-NEXT: %0 = graph.max_pool2d %arg0 {kernel = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32>
// CHECK-NEXT: %1 = graph.avg_pool2d %arg0 {kernel = [2, 2], strides = [2, 2]} : (tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32>
// CHECK-NEXT: %2 = graph.avg_pool2d %arg0 {count_include_pad = true, kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32>
// CHECK-NEXT: %3 = graph.max_pool2d %arg0 {kernel = [2, 2], strides = [1, 1]} : (tensor<1x8x32x32xf32>) -> tensor<1x8x31x31xf32>
// CHECK-NEXT: return %0, %1, %2, %3 : tensor<1x8x16x16xf32>, tensor<1x8x16x16xf32>, tensor<1x8x16x16xf32>, tensor<1x8x31x31xf32>
// CHECK-NEXT: }
func.func @pool(%x: tensor<1x8x32x32xf32>) -> (tensor<1x8x16x16xf32>, tensor<1x8x16x16xf32>, tensor<1x8x16x16xf32>, tensor<1x8x31x31xf32>) {
  %0 = graph.max_pool2d %x {kernel = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]} : (tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32>
  %1 = graph.avg_pool2d %x {kernel = [2, 2], strides = [2, 2]} : (tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32>
  %2 = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = true} : (tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32>
  %3 = graph.max_pool2d %x {kernel = [2, 2], strides = [1, 1]} : (tensor<1x8x32x32xf32>) -> tensor<1x8x31x31xf32>
  return %0, %1, %2, %3 : tensor<1x8x16x16xf32>, tensor<1x8x16x16xf32>, tensor<1x8x16x16xf32>, tensor<1x8x31x31xf32>
}

// CHECK-LABEL: func.func @reduce_softmax(%arg0: tensor<2x8x4xf32>, %arg1: tensor<3x5xi32>) -> (tensor<2x1x4xf32>, tensor<4xf32>, tensor<2x8xf32>, tensor<1x1x1xf32>, tensor<3xi32>, tensor<5xi32>, tensor<2x8x4xf32>) {
// CHECK-NEXT: %0 = graph.reduce_sum %arg0 {axes = [1], keepdims = true} : (tensor<2x8x4xf32>) -> tensor<2x1x4xf32>
// CHECK-NEXT: %1 = graph.reduce_mean %arg0 {axes = [0, 1]} : (tensor<2x8x4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %2 = graph.reduce_max %arg0 {axes = array<i64: -1>, keepdims = false} : (tensor<2x8x4xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %3 = graph.reduce_min %arg0 {axes = [2, 0, 1], keepdims} : (tensor<2x8x4xf32>) -> tensor<1x1x1xf32>
// CHECK-NEXT: %4 = graph.reduce_sum %arg1 {axes = [-1]} : (tensor<3x5xi32>) -> tensor<3xi32>
// CHECK-NEXT: %5 = graph.reduce_max %arg1 {axes = [0]} : (tensor<3x5xi32>) -> tensor<5xi32>
// CHECK-NEXT: %6 = graph.softmax %arg0 {axis = -1} : (tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
// CHECK-NEXT: %7 = graph.softmax %6 {axis = 1} : (tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
// CHECK-NEXT: return %0, %1, %2, %3, %4, %5, %7 : tensor<2x1x4xf32>, tensor<4xf32>, tensor<2x8xf32>, tensor<1x1x1xf32>, tensor<3xi32>, tensor<5xi32>, tensor<2x8x4xf32>
// CHECK-NEXT: }
func.func @reduce_softmax(%x: tensor<2x8x4xf32>, %i: tensor<3x5xi32>) -> (tensor<2x1x4xf32>, tensor<4xf32>, tensor<2x8xf32>, tensor<1x1x1xf32>, tensor<3xi32>, tensor<5xi32>, tensor<2x8x4xf32>) {
  %0 = graph.reduce_sum %x {axes = [1], keepdims = true} : (tensor<2x8x4xf32>) -> tensor<2x1x4xf32>
  %1 = graph.reduce_mean %x {axes = [0, 1]} : (tensor<2x8x4xf32>) -> tensor<4xf32>
  %2 = graph.reduce_max %x {axes = array<i64: -1>, keepdims = false} : (tensor<2x8x4xf32>) -> tensor<2x8xf32>
  %3 = graph.reduce_min %x {axes = [2, 0, 1], keepdims} : (tensor<2x8x4xf32>) -> tensor<1x1x1xf32>
  %4 = graph.reduce_sum %i {axes = [-1]} : (tensor<3x5xi32>) -> tensor<3xi32>
  %5 = graph.reduce_max %i {axes = [0]} : (tensor<3x5xi32>) -> tensor<5xi32>
  %6 = graph.softmax %x {axis = -1} : (tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  %7 = graph.softmax %6 {axis = 1} : (tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %0, %1, %2, %3, %4, %5, %7 : tensor<2x1x4xf32>, tensor<4xf32>, tensor<2x8xf32>, tensor<1x1x1xf32>, tensor<3xi32>, tensor<5xi32>, tensor<2x8x4xf32>
}

// CHECK-LABEL: func.func @shape_ops(%arg0: tensor<2x3x4xf32>, %arg1: tensor<3xf32>, %arg2: tensor<1x3x4x5xi64>) -> (tensor<2x12xf32>, tensor<24xf32>, tensor<1x4x5x3xi64>, tensor<4x3xf32>, tensor<2x2x3xf32>) {
// CHECK-NEXT: %0 = graph.reshape %arg0 {shape = [2, -1]} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// CHECK-NEXT: %1 = graph.reshape %0 {shape = array<i64: 24>} : (tensor<2x12xf32>) -> tensor<24xf32>
// CHECK-NEXT: %2 = graph.transpose %arg2 {perm = [0, 2, 3, 1]} : (tensor<1x3x4x5xi64>) -> tensor<1x4x5x3xi64>
// CHECK-NEXT: %3 = graph.broadcast_to %arg1 {shape = [4, 3]} : (tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %4 = graph.broadcast_to %arg1 {shape = array<i64: 2, 2, 3>} : (tensor<3xf32>) -> tensor<2x2x3xf32>
// CHECK-NEXT: return %0, %1, %2, %3, %4 : tensor<2x12xf32>, tensor<24xf32>, tensor<1x4x5x3xi64>, tensor<4x3xf32>, tensor<2x2x3xf32>
// CHECK-NEXT: }
func.func @shape_ops(%x: tensor<2x3x4xf32>, %y: tensor<3xf32>, %p: tensor<1x3x4x5xi64>) -> (tensor<2x12xf32>, tensor<24xf32>, tensor<1x4x5x3xi64>, tensor<4x3xf32>, tensor<2x2x3xf32>) {
  %0 = graph.reshape %x {shape = [2, -1]} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %1 = graph.reshape %0 {shape = array<i64: 24>} : (tensor<2x12xf32>) -> tensor<24xf32>
  %2 = graph.transpose %p {perm = [0, 2, 3, 1]} : (tensor<1x3x4x5xi64>) -> tensor<1x4x5x3xi64>
  %3 = graph.broadcast_to %y {shape = [4, 3]} : (tensor<3xf32>) -> tensor<4x3xf32>
  %4 = graph.broadcast_to %y {shape = array<i64: 2, 2, 3>} : (tensor<3xf32>) -> tensor<2x2x3xf32>
  return %0, %1, %2, %3, %4 : tensor<2x12xf32>, tensor<24xf32>, tensor<1x4x5x3xi64>, tensor<4x3xf32>, tensor<2x2x3xf32>
}

// CHECK-LABEL: func.func @concat_split(%arg0: tensor<1x2xf32>, %arg1: tensor<1x3xf32>, %arg2: tensor<4x2xi1>) -> (tensor<1x5xf32>, tensor<1x3xf32>, tensor<5x2xi1>, tensor<1x2xf32>) {
// CHECK-NEXT: %0 = graph.concat %arg0, %arg1 {axis = 1} : (tensor<1x2xf32>, tensor<1x3xf32>) -> tensor<1x5xf32>
// CHECK-NEXT: %1:2 = graph.split %0 {axis = 1, sizes = [2, 3]} : (tensor<1x5xf32>) -> (tensor<1x2xf32>, tensor<1x3xf32>)
// CHECK-NEXT: %2 = graph.add %1#1, %arg1 : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %3:3 = graph.split %arg2 {axis = -2, sizes = array<i64: 1, 0, 3>} : (tensor<4x2xi1>) -> (tensor<1x2xi1>, tensor<0x2xi1>, tensor<3x2xi1>)
// CHECK-NEXT: %4 = graph.concat %3#2, %3#1, %3#0, %arg2 {axis = 0} : (tensor<3x2xi1>, tensor<0x2xi1>, tensor<1x2xi1>, tensor<4x2xi1>) -> tensor<8x2xi1>
// CHECK-NEXT: %5 = graph.slice %4 {sizes = [5, 2], starts = [1, 0]} : (tensor<8x2xi1>) -> tensor<5x2xi1>
// CHECK-NEXT: %6 = graph.concat %arg0 {axis = 0} : (tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT: return %0, %2, %5, %1#0 : tensor<1x5xf32>, tensor<1x3xf32>, tensor<5x2xi1>, tensor<1x2xf32>
// CHECK-NEXT: }
func.func @concat_split(%a: tensor<1x2xf32>, %b: tensor<1x3xf32>, %c: tensor<4x2xi1>) -> (tensor<1x5xf32>, tensor<1x3xf32>, tensor<5x2xi1>, tensor<1x2xf32>) {
  %0 = graph.concat %a, %b {axis = 1} : (tensor<1x2xf32>, tensor<1x3xf32>) -> tensor<1x5xf32>
  %1:2 = graph.split %0 {axis = 1, sizes = [2, 3]} : (tensor<1x5xf32>) -> (tensor<1x2xf32>, tensor<1x3xf32>)
  %2 = graph.add %1#1, %b : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
  %3:3 = graph.split %c {axis = -2, sizes = array<i64: 1, 0, 3>} : (tensor<4x2xi1>) -> (tensor<1x2xi1>, tensor<0x2xi1>, tensor<3x2xi1>)
  %4 = graph.concat %3#2, %3#1, %3#0, %c {axis = 0} : (tensor<3x2xi1>, tensor<0x2xi1>, tensor<1x2xi1>, tensor<4x2xi1>) -> tensor<8x2xi1>
  %5 = graph.slice %4 {starts = [1, 0], sizes = [5, 2]} : (tensor<8x2xi1>) -> tensor<5x2xi1>
  %6 = graph.concat %a {axis = 0} : (tensor<1x2xf32>) -> tensor<1x2xf32>
  return %0, %2, %5, %1#0 : tensor<1x5xf32>, tensor<1x3xf32>, tensor<5x2xi1>, tensor<1x2xf32>
}

// CHECK-LABEL: func.func @slice_pad_gather(%arg0: tensor<2x5xf32>, %arg1: tensor<100x16xf32>, %arg2: tensor<2x8xi64>, %arg3: tensor<3xi32>, %arg4: tensor<4x6xi32>) -> (tensor<2x2xf32>, tensor<1x3xf32>, tensor<2x6xf32>, tensor<4x7xf32>, tensor<2x8x16xf32>, tensor<4x3xi32>, tensor<6x9xi32>) {
// CHECK-NEXT: %0 = graph.slice %arg0 {sizes = [2, 2], starts = [0, 1], steps = [1, 2]} : (tensor<2x5xf32>) -> tensor<2x2xf32>
// CHECK-NEXT: %1 = graph.slice %arg0 {sizes = array<i64: 1, 3>, starts = array<i64: 1, 0>} : (tensor<2x5xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %2 = graph.pad %arg0 {high = [0, 0], low = [0, 1], value = 0.0} : (tensor<2x5xf32>) -> tensor<2x6xf32>
// CHECK-NEXT: %3 = graph.pad %arg0 {high = [1, 0], low = [1, 2], value = -1.5} : (tensor<2x5xf32>) -> tensor<4x7xf32>
// CHECK-NEXT: %4 = graph.gather %arg1, %arg2 {axis = 0} : (tensor<100x16xf32>, tensor<2x8xi64>) -> tensor<2x8x16xf32>
// CHECK-NEXT: %5 = graph.gather %arg4, %arg3 {axis = -1} : (tensor<4x6xi32>, tensor<3xi32>) -> tensor<4x3xi32>
// CHECK-NEXT: %6 = graph.pad %arg4 {high = array<i64: 1, 2>, low = array<i64: 1, 1>} : (tensor<4x6xi32>) -> tensor<6x9xi32>
// CHECK-NEXT: return %0, %1, %2, %3, %4, %5, %6 : tensor<2x2xf32>, tensor<1x3xf32>, tensor<2x6xf32>, tensor<4x7xf32>, tensor<2x8x16xf32>, tensor<4x3xi32>, tensor<6x9xi32>
// CHECK-NEXT: }
func.func @slice_pad_gather(%x: tensor<2x5xf32>, %t: tensor<100x16xf32>, %ids: tensor<2x8xi64>, %ids32: tensor<3xi32>, %k: tensor<4x6xi32>) -> (tensor<2x2xf32>, tensor<1x3xf32>, tensor<2x6xf32>, tensor<4x7xf32>, tensor<2x8x16xf32>, tensor<4x3xi32>, tensor<6x9xi32>) {
  %0 = graph.slice %x {starts = [0, 1], sizes = [2, 2], steps = [1, 2]} : (tensor<2x5xf32>) -> tensor<2x2xf32>
  %1 = graph.slice %x {starts = array<i64: 1, 0>, sizes = array<i64: 1, 3>} : (tensor<2x5xf32>) -> tensor<1x3xf32>
  %2 = graph.pad %x {low = [0, 1], high = [0, 0], value = 0.0} : (tensor<2x5xf32>) -> tensor<2x6xf32>
  %3 = graph.pad %x {low = [1, 2], high = [1, 0], value = -1.5} : (tensor<2x5xf32>) -> tensor<4x7xf32>
  %4 = graph.gather %t, %ids {axis = 0} : (tensor<100x16xf32>, tensor<2x8xi64>) -> tensor<2x8x16xf32>
  %5 = graph.gather %k, %ids32 {axis = -1} : (tensor<4x6xi32>, tensor<3xi32>) -> tensor<4x3xi32>
  %6 = graph.pad %k {low = array<i64: 1, 1>, high = array<i64: 1, 2>} : (tensor<4x6xi32>) -> tensor<6x9xi32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x2xf32>, tensor<1x3xf32>, tensor<2x6xf32>, tensor<4x7xf32>, tensor<2x8x16xf32>, tensor<4x3xi32>, tensor<6x9xi32>
}

// CHECK-LABEL: func.func @layout(%arg0: tensor<1x32x7x7xf32>, %arg1: tensor<32x8x3x3xf32>) -> (tensor<1x32x7x7xf32>, tensor<2x2x3x3x4x16xf32>, tensor<1x7x7x32xf32>) {
// CHECK-NEXT: %0 = graph.layout_transform %arg0 {dst = "NCHW16c", src = "NCHW"} : (tensor<1x32x7x7xf32>) -> tensor<1x2x7x7x16xf32>
// CHECK-NEXT: %1 = graph.layout_transform %0 {dst = "NCHW", src = "NCHW16c"} : (tensor<1x2x7x7x16xf32>) -> tensor<1x32x7x7xf32>
// CHECK-NEXT: %2 = graph.layout_transform %arg1 {dst = "OIHW4i16o", src = "OIHW"} : (tensor<32x8x3x3xf32>) -> tensor<2x2x3x3x4x16xf32>
// CHECK-NEXT: %3 = graph.layout_transform %arg0 {dst = "NHWC", src = "NCHW"} : (tensor<1x32x7x7xf32>) -> tensor<1x7x7x32xf32>
// CHECK-NEXT: return %1, %2, %3 : tensor<1x32x7x7xf32>, tensor<2x2x3x3x4x16xf32>, tensor<1x7x7x32xf32>
// CHECK-NEXT: }
func.func @layout(%x: tensor<1x32x7x7xf32>, %w: tensor<32x8x3x3xf32>) -> (tensor<1x32x7x7xf32>, tensor<2x2x3x3x4x16xf32>, tensor<1x7x7x32xf32>) {
  %0 = graph.layout_transform %x {src = "NCHW", dst = "NCHW16c"} : (tensor<1x32x7x7xf32>) -> tensor<1x2x7x7x16xf32>
  %1 = graph.layout_transform %0 {src = "NCHW16c", dst = "NCHW"} : (tensor<1x2x7x7x16xf32>) -> tensor<1x32x7x7xf32>
  %2 = graph.layout_transform %w {dst = "OIHW4i16o", src = "OIHW"} : (tensor<32x8x3x3xf32>) -> tensor<2x2x3x3x4x16xf32>
  %3 = graph.layout_transform %x {src = "NCHW", dst = "NHWC"} : (tensor<1x32x7x7xf32>) -> tensor<1x7x7x32xf32>
  return %1, %2, %3 : tensor<1x32x7x7xf32>, tensor<2x2x3x3x4x16xf32>, tensor<1x7x7x32xf32>
}

// CHECK-LABEL: func.func @result_groups(%arg0: tensor<6xf32>) -> (tensor<1xf32>, tensor<2xf32>, tensor<3xf32>) {
// CHECK-NEXT: %0:3 = graph.split %arg0 {axis = 0, sizes = [1, 2, 3]} : (tensor<6xf32>) -> (tensor<1xf32>, tensor<2xf32>, tensor<3xf32>)
// CHECK-NEXT: %1:2 = graph.split %0#2 {axis = 0, sizes = [2, 1]} : (tensor<3xf32>) -> (tensor<2xf32>, tensor<1xf32>)
// CHECK-NEXT: %2 = graph.add %0#1, %1#0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %0#0, %2, %0#2 : tensor<1xf32>, tensor<2xf32>, tensor<3xf32>
// CHECK-NEXT: }
func.func @result_groups(%x: tensor<6xf32>) -> (tensor<1xf32>, tensor<2xf32>, tensor<3xf32>) {
  %p:2, %q = graph.split %x {axis = 0, sizes = [1, 2, 3]} : (tensor<6xf32>) -> (tensor<1xf32>, tensor<2xf32>, tensor<3xf32>)
  %a, %b = graph.split %q {axis = 0, sizes = [2, 1]} : (tensor<3xf32>) -> (tensor<2xf32>, tensor<1xf32>)
  %s = graph.add %p#1, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %p#0, %s, %q : tensor<1xf32>, tensor<2xf32>, tensor<3xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// The resource blob is printed back with its alignment header, after the module.
// CHECK-LABEL: {-#
// CHECK-NEXT: dialect_resources: {
// CHECK-NEXT: builtin: {
// CHECK-NEXT: weights: "0x040000000000803F000000400000404000008040"
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: #-}
