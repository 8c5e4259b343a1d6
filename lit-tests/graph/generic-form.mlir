// Every graph op written in MLIR's generic form ("graph.x"(operands) {attrs} : type)
// parses and prints in its pretty form. Properties (`<{..}>`) are accepted as
// attributes, and a function written entirely in generic form prints as func.func.
//
// RUN: %tcc-opt %s | FileCheck %s
// RUN: %tcc-opt %s | %tcc-opt | FileCheck %s
// The printed form carries no generic op syntax for registered ops.
// RUN: %tcc-opt %s | FileCheck %s --check-prefix=PRETTY
// PRETTY-NOT: "graph.
// PRETTY-NOT: "func.

// CHECK: module {

// CHECK-LABEL: func.func @elementwise(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<3xi32>, %arg3: tensor<2x3xi1>) -> (tensor<2x3xf32>, tensor<3xi32>) {
// CHECK-NEXT: %0 = graph.add %arg0, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = graph.sub %0, %arg0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %2 = graph.mul %1, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %3 = graph.div %2, %arg0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %4 = graph.max %3, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %5 = graph.min %4, %arg0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %6 = graph.pow %5, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %7 = graph.greater %6, %arg1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %8 = graph.less %arg2, %arg2 : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
// CHECK-NEXT: %9 = graph.equal %arg0, %6 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT: %10 = graph.select %arg3, %6, %arg1 : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %11 = graph.neg %10 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %12 = graph.abs %11 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %13 = graph.exp %12 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %14 = graph.log %13 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %15 = graph.sqrt %14 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %16 = graph.rsqrt %15 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %17 = graph.reciprocal %16 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %18 = graph.tanh %17 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %19 = graph.sigmoid %18 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %20 = graph.erf %19 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %21 = graph.relu %20 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %22 = graph.floor %21 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %23 = graph.ceil %22 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %24 = graph.gelu %23 {approximate = "tanh"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %25 = graph.gelu %24 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %26 = graph.clamp %25 {max = 1.0, min = -1.0} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %27 = graph.cast %26 : (tensor<2x3xf32>) -> tensor<2x3xi64>
// CHECK-NEXT: %28 = graph.cast %8 : (tensor<3xi1>) -> tensor<3xi32>
// CHECK-NEXT: return %26, %28 : tensor<2x3xf32>, tensor<3xi32>
// CHECK-NEXT: }
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<3xi32>, %c: tensor<2x3xi1>) -> (tensor<2x3xf32>, tensor<3xi32>) {
  %0 = "graph.add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "graph.sub"(%0, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "graph.mul"(%1, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = "graph.div"(%2, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = "graph.max"(%3, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %5 = "graph.min"(%4, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = "graph.pow"(%5, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %7 = "graph.greater"(%6, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %8 = "graph.less"(%i, %i) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %9 = "graph.equal"(%a, %6) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %10 = "graph.select"(%c, %6, %b) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %11 = "graph.neg"(%10) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %12 = "graph.abs"(%11) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %13 = "graph.exp"(%12) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %14 = "graph.log"(%13) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %15 = "graph.sqrt"(%14) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %16 = "graph.rsqrt"(%15) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %17 = "graph.reciprocal"(%16) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %18 = "graph.tanh"(%17) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %19 = "graph.sigmoid"(%18) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %20 = "graph.erf"(%19) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %21 = "graph.relu"(%20) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %22 = "graph.floor"(%21) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %23 = "graph.ceil"(%22) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %24 = "graph.gelu"(%23) {approximate = "tanh"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %25 = "graph.gelu"(%24) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %26 = "graph.clamp"(%25) <{min = -1.0, max = 1.0}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %27 = "graph.cast"(%26) : (tensor<2x3xf32>) -> tensor<2x3xi64>
  %28 = "graph.cast"(%8) : (tensor<3xi1>) -> tensor<3xi32>
  return %26, %28 : tensor<2x3xf32>, tensor<3xi32>
}

// CHECK-LABEL: func.func @nn(%arg0: tensor<1x4x8x8xf32>, %arg1: tensor<4x2x3x3xf32>, %arg2: tensor<4xf32>, %arg3: tensor<3x4xf64>, %arg4: tensor<4x5xf64>) -> (tensor<1x4x2x2xf32>, tensor<1x4x4x4xf32>, tensor<3x5xf64>, tensor<1x4xf32>, tensor<1x4x8x8xf32>) {
// CHECK-NEXT: %0 = graph.conv2d %arg0, %arg1, %arg2 {dilations = [1, 1], groups = 2, pads = [1, 1, 1, 1], strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: %1 = graph.max_pool2d %0 {kernel = [2, 2], strides = [2, 2]} : (tensor<1x4x4x4xf32>) -> tensor<1x4x2x2xf32>
// CHECK-NEXT: %2 = graph.avg_pool2d %arg0 {count_include_pad = false, kernel = [3, 3], pads = [1, 1, 0, 0], strides = [2, 2]} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: %3 = graph.matmul %arg3, %arg4 : (tensor<3x4xf64>, tensor<4x5xf64>) -> tensor<3x5xf64>
// CHECK-NEXT: %4 = graph.reduce_sum %arg0 {axes = [2, 3]} : (tensor<1x4x8x8xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: %5 = graph.reduce_mean %arg0 {axes = [-1, -2], keepdims = false} : (tensor<1x4x8x8xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: %6 = graph.reduce_max %arg0 {axes = [1], keepdims = true} : (tensor<1x4x8x8xf32>) -> tensor<1x1x8x8xf32>
// CHECK-NEXT: %7 = graph.reduce_min %6 {axes = array<i64: 0, 1>} : (tensor<1x1x8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: %8 = graph.softmax %arg0 {axis = 1} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
// CHECK-NEXT: return %1, %2, %3, %5, %8 : tensor<1x4x2x2xf32>, tensor<1x4x4x4xf32>, tensor<3x5xf64>, tensor<1x4xf32>, tensor<1x4x8x8xf32>
// CHECK-NEXT: }
func.func @nn(%x: tensor<1x4x8x8xf32>, %w: tensor<4x2x3x3xf32>, %bias: tensor<4xf32>, %m: tensor<3x4xf64>, %n: tensor<4x5xf64>) -> (tensor<1x4x2x2xf32>, tensor<1x4x4x4xf32>, tensor<3x5xf64>, tensor<1x4xf32>, tensor<1x4x8x8xf32>) {
  %0 = "graph.conv2d"(%x, %w, %bias) {strides = array<i64: 2, 2>, pads = [1, 1, 1, 1], dilations = [1, 1], groups = 2} : (tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %1 = "graph.max_pool2d"(%0) {kernel = [2, 2], strides = [2, 2]} : (tensor<1x4x4x4xf32>) -> tensor<1x4x2x2xf32>
  %2 = "graph.avg_pool2d"(%x) {kernel = [3, 3], strides = [2, 2], pads = [1, 1, 0, 0], count_include_pad = false} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %3 = "graph.matmul"(%m, %n) : (tensor<3x4xf64>, tensor<4x5xf64>) -> tensor<3x5xf64>
  %4 = "graph.reduce_sum"(%x) {axes = [2, 3]} : (tensor<1x4x8x8xf32>) -> tensor<1x4xf32>
  %5 = "graph.reduce_mean"(%x) {axes = [-1, -2], keepdims = false} : (tensor<1x4x8x8xf32>) -> tensor<1x4xf32>
  %6 = "graph.reduce_max"(%x) {axes = [1], keepdims = true} : (tensor<1x4x8x8xf32>) -> tensor<1x1x8x8xf32>
  %7 = "graph.reduce_min"(%6) {axes = array<i64: 0, 1>} : (tensor<1x1x8x8xf32>) -> tensor<8x8xf32>
  %8 = "graph.softmax"(%x) {axis = 1} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %1, %2, %3, %5, %8 : tensor<1x4x2x2xf32>, tensor<1x4x4x4xf32>, tensor<3x5xf64>, tensor<1x4xf32>, tensor<1x4x8x8xf32>
}

// CHECK-LABEL: func.func @data_movement(%arg0: tensor<2x6xi32>, %arg1: tensor<4xi64>, %arg2: tensor<1x16x2x2xf32>) -> (tensor<3x4xi32>, tensor<6x2xi32>, tensor<2x2x6xi32>, tensor<2x8xi32>, tensor<2x3xi32>, tensor<1x2xi32>, tensor<4x9xi32>, tensor<2x4xi32>, tensor<1x16x2x2xf32>) {
// CHECK-NEXT: %0 = graph.constant {value = dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
// CHECK-NEXT: %1 = graph.reshape %arg0 {shape = [3, 4]} : (tensor<2x6xi32>) -> tensor<3x4xi32>
// CHECK-NEXT: %2 = graph.transpose %arg0 {perm = [1, 0]} : (tensor<2x6xi32>) -> tensor<6x2xi32>
// CHECK-NEXT: %3 = graph.broadcast_to %arg0 {shape = [2, 2, 6]} : (tensor<2x6xi32>) -> tensor<2x2x6xi32>
// CHECK-NEXT: %4 = graph.concat %arg0, %0 {axis = 1} : (tensor<2x6xi32>, tensor<2x2xi32>) -> tensor<2x8xi32>
// CHECK-NEXT: %5:2 = graph.split %arg0 {axis = 1, sizes = [3, 3]} : (tensor<2x6xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>)
// CHECK-NEXT: %6 = graph.slice %5#1 {sizes = [1, 2], starts = [1, 0], steps = [1, 2]} : (tensor<2x3xi32>) -> tensor<1x2xi32>
// CHECK-NEXT: %7 = graph.pad %arg0 {high = [1, 1], low = [1, 2], value = 7.0} : (tensor<2x6xi32>) -> tensor<4x9xi32>
// CHECK-NEXT: %8 = graph.gather %arg0, %arg1 {axis = 1} : (tensor<2x6xi32>, tensor<4xi64>) -> tensor<2x4xi32>
// CHECK-NEXT: %9 = graph.layout_transform %arg2 {dst = "NCHW8c", src = "NCHW"} : (tensor<1x16x2x2xf32>) -> tensor<1x2x2x2x8xf32>
// CHECK-NEXT: %10 = graph.layout_transform %9 {dst = "NCHW", src = "NCHW8c"} : (tensor<1x2x2x2x8xf32>) -> tensor<1x16x2x2xf32>
// CHECK-NEXT: return %1, %2, %3, %4, %5#0, %6, %7, %8, %10 : tensor<3x4xi32>, tensor<6x2xi32>, tensor<2x2x6xi32>, tensor<2x8xi32>, tensor<2x3xi32>, tensor<1x2xi32>, tensor<4x9xi32>, tensor<2x4xi32>, tensor<1x16x2x2xf32>
// CHECK-NEXT: }
func.func @data_movement(%x: tensor<2x6xi32>, %ids: tensor<4xi64>, %f: tensor<1x16x2x2xf32>) -> (tensor<3x4xi32>, tensor<6x2xi32>, tensor<2x2x6xi32>, tensor<2x8xi32>, tensor<2x3xi32>, tensor<1x2xi32>, tensor<4x9xi32>, tensor<2x4xi32>, tensor<1x16x2x2xf32>) {
  %c = "graph.constant"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %0 = "graph.reshape"(%x) {shape = [3, 4]} : (tensor<2x6xi32>) -> tensor<3x4xi32>
  %1 = "graph.transpose"(%x) {perm = [1, 0]} : (tensor<2x6xi32>) -> tensor<6x2xi32>
  %2 = "graph.broadcast_to"(%x) {shape = [2, 2, 6]} : (tensor<2x6xi32>) -> tensor<2x2x6xi32>
  %3 = "graph.concat"(%x, %c) {axis = 1} : (tensor<2x6xi32>, tensor<2x2xi32>) -> tensor<2x8xi32>
  %4:2 = "graph.split"(%x) {axis = 1, sizes = [3, 3]} : (tensor<2x6xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>)
  %5 = "graph.slice"(%4#1) {starts = [1, 0], sizes = [1, 2], steps = [1, 2]} : (tensor<2x3xi32>) -> tensor<1x2xi32>
  %6 = "graph.pad"(%x) {low = [1, 2], high = [1, 1], value = 7.0} : (tensor<2x6xi32>) -> tensor<4x9xi32>
  %7 = "graph.gather"(%x, %ids) {axis = 1} : (tensor<2x6xi32>, tensor<4xi64>) -> tensor<2x4xi32>
  %8 = "graph.layout_transform"(%f) {src = "NCHW", dst = "NCHW8c"} : (tensor<1x16x2x2xf32>) -> tensor<1x2x2x2x8xf32>
  %9 = "graph.layout_transform"(%8) {src = "NCHW8c", dst = "NCHW"} : (tensor<1x2x2x2x8xf32>) -> tensor<1x16x2x2xf32>
  return %0, %1, %2, %3, %4#0, %5, %6, %7, %9 : tensor<3x4xi32>, tensor<6x2xi32>, tensor<2x2x6xi32>, tensor<2x8xi32>, tensor<2x3xi32>, tensor<1x2xi32>, tensor<4x9xi32>, tensor<2x4xi32>, tensor<1x16x2x2xf32>
}

// A function written entirely in generic form, `func.return` included.
// CHECK-LABEL: func.func @all_generic(%arg0: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: %0 = graph.relu %arg0 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %0 : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
"func.func"() ({
^bb0(%arg0: tensor<4xf32>):
  %0 = "graph.relu"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  "func.return"(%0) : (tensor<4xf32>) -> ()
}) {function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "all_generic"} : () -> ()
