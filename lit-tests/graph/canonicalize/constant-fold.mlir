// The constant-fold pattern: an op whose operands are all graph.constant is evaluated
// by the reference interpreter and replaced by constants; the now-dead operands go.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | %tcc-opt | FileCheck %s

// CHECK-LABEL: func.func @elementwise_broadcast()
// CHECK-NEXT: %0 = graph.constant {value = dense<{{\[\[}}11.0, 22.0, 33.0], [14.0, 25.0, 36.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
// CHECK-NEXT: return %0 : tensor<2x3xf32>
// CHECK-NEXT: }
func.func @elementwise_broadcast() -> tensor<2x3xf32> {
  %a = graph.constant {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %b = graph.constant {value = dense<[10.0, 20.0, 30.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// Folding follows chains: each fold exposes the next op. Floats compute in f64 and
// round once to f32 (0.1f + 0.2f is exactly 0.3f); cast truncates toward zero.
// CHECK-LABEL: func.func @chain()
// CHECK-NEXT: %0 = graph.constant {value = dense<[0.3, -1.7]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT: %1 = graph.constant {value = dense<[0, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
// CHECK-NEXT: %2 = graph.constant {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
// CHECK-NEXT: return %0, %1, %2 : tensor<2xf32>, tensor<2xi32>, tensor<2xi1>
// CHECK-NEXT: }
func.func @chain() -> (tensor<2xf32>, tensor<2xi32>, tensor<2xi1>) {
  %a = graph.constant {value = dense<[0.1, 1.7]> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = graph.constant {value = dense<[0.2, -3.4]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = graph.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = graph.cast %0 : (tensor<2xf32>) -> tensor<2xi32>
  %zero = graph.constant {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %2 = graph.greater %0, %zero : (tensor<2xf32>, tensor<f32>) -> tensor<2xi1>
  return %0, %1, %2 : tensor<2xf32>, tensor<2xi32>, tensor<2xi1>
}

// CHECK-LABEL: func.func @transpose_of_constant()
// CHECK-NEXT: %0 = graph.constant {value = dense<{{\[\[}}1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]> : tensor<3x2xf32>} : () -> tensor<3x2xf32>
// CHECK-NEXT: return %0 : tensor<3x2xf32>
// CHECK-NEXT: }
func.func @transpose_of_constant() -> tensor<3x2xf32> {
  %a = graph.constant {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %0 = graph.transpose %a {perm = [1, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// A multi-result op folds to one constant per result (an unused one is then dead).
// CHECK-LABEL: func.func @split_of_constant()
// CHECK-NEXT: %0 = graph.constant {value = dense<[7]> : tensor<1xi32>} : () -> tensor<1xi32>
// CHECK-NEXT: %1 = graph.constant {value = dense<[9, 100]> : tensor<2xi32>} : () -> tensor<2xi32>
// CHECK-NEXT: return %1, %0 : tensor<2xi32>, tensor<1xi32>
// CHECK-NEXT: }
func.func @split_of_constant() -> (tensor<2xi32>, tensor<1xi32>) {
  %i = graph.constant {value = dense<[7, -7, 9, 100]> : tensor<4xi32>} : () -> tensor<4xi32>
  %0:3 = graph.split %i {axis = 0, sizes = [1, 1, 2]} : (tensor<4xi32>) -> (tensor<1xi32>, tensor<1xi32>, tensor<2xi32>)
  return %0#2, %0#0 : tensor<2xi32>, tensor<1xi32>
}

// Compute-intensive, reduction and data-movement ops fold too; integer clamp bounds
// round inward ([0.5, 8.5] clamps to [1, 8]); integer division truncates.
// CHECK-LABEL: func.func @other_ops()
// CHECK-NEXT: %0 = graph.constant {value = dense<{{\[\[}}7.0, 10.0], [15.0, 22.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
// CHECK-NEXT: %1 = graph.constant {value = dense<[4.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT: %2 = graph.constant {value = dense<[7, 1, 8, 8]> : tensor<4xi32>} : () -> tensor<4xi32>
// CHECK-NEXT: %3 = graph.constant {value = dense<[3, -3]> : tensor<2xi32>} : () -> tensor<2xi32>
// CHECK-NEXT: %4 = graph.constant {value = dense<[1.0, 2.0, 3.0, 4.0, 0.0]> : tensor<5xf32>} : () -> tensor<5xf32>
// CHECK-NEXT: return %0, %1, %2, %3, %4 :
// CHECK-NEXT: }
func.func @other_ops() -> (tensor<2x2xf32>, tensor<2xf32>, tensor<4xi32>, tensor<2xi32>, tensor<5xf32>) {
  %m = graph.constant {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %0 = graph.matmul %m, %m : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = graph.reduce_sum %m {axes = [0]} : (tensor<2x2xf32>) -> tensor<2xf32>
  %i = graph.constant {value = dense<[7, -7, 9, 100]> : tensor<4xi32>} : () -> tensor<4xi32>
  %2 = graph.clamp %i {min = 0.5, max = 8.5} : (tensor<4xi32>) -> tensor<4xi32>
  %s = graph.slice %i {starts = [0], sizes = [2]} : (tensor<4xi32>) -> tensor<2xi32>
  %two = graph.constant {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
  %3 = graph.div %s, %two : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %r = graph.reshape %m {shape = [4]} : (tensor<2x2xf32>) -> tensor<4xf32>
  %4 = graph.pad %r {low = [0], high = [1]} : (tensor<4xf32>) -> tensor<5xf32>
  return %0, %1, %2, %3, %4 : tensor<2x2xf32>, tensor<2xf32>, tensor<4xi32>, tensor<2xi32>, tensor<5xf32>
}

// layout_transform folds too: NCHW2c holds channel 2*cb + ci at [n, cb, h, w, ci], and
// OIHW2i2o holds w[2*ob + oi, 2*ib + ii] at [ob, ib, h, w, ii, oi] (here w[o, i] is
// 10*o + i). The round trip back to NCHW gives the input again.
// CHECK-LABEL: func.func @layout_transform()
// CHECK-NEXT: %0 = graph.constant {value = dense<{{\[\[\[\[\[}}0.0, 2.0], [1.0, 3.0]]], {{\[\[\[}}4.0, 6.0], [5.0, 7.0]]]]]> : tensor<1x2x1x2x2xf32>}
// CHECK-NEXT: %1 = graph.constant {value = dense<{{\[\[\[\[\[\[}}0, 10], [1, 11]]]], {{\[\[\[\[}}2, 12], [3, 13]]]]], {{\[\[\[\[\[}}20, 30], [21, 31]]]], {{\[\[\[\[}}22, 32], [23, 33]]]]]]> : tensor<2x2x1x1x2x2xi32>}
// CHECK-NEXT: %2 = graph.constant {value = dense<{{\[\[\[\[}}0.0, 1.0]], {{\[\[}}2.0, 3.0]], {{\[\[}}4.0, 5.0]], {{\[\[}}6.0, 7.0]]]]> : tensor<1x4x1x2xf32>}
// CHECK-NEXT: return %0, %1, %2 :
func.func @layout_transform() -> (tensor<1x2x1x2x2xf32>, tensor<2x2x1x1x2x2xi32>, tensor<1x4x1x2xf32>) {
  %x = graph.constant {value = dense<[[[[0.0, 1.0]], [[2.0, 3.0]], [[4.0, 5.0]], [[6.0, 7.0]]]]> : tensor<1x4x1x2xf32>} : () -> tensor<1x4x1x2xf32>
  %0 = graph.layout_transform %x {src = "NCHW", dst = "NCHW2c"} : (tensor<1x4x1x2xf32>) -> tensor<1x2x1x2x2xf32>
  %w = graph.constant {value = dense<[[[[0]], [[1]], [[2]], [[3]]], [[[10]], [[11]], [[12]], [[13]]], [[[20]], [[21]], [[22]], [[23]]], [[[30]], [[31]], [[32]], [[33]]]]> : tensor<4x4x1x1xi32>} : () -> tensor<4x4x1x1xi32>
  %1 = graph.layout_transform %w {src = "OIHW", dst = "OIHW2i2o"} : (tensor<4x4x1x1xi32>) -> tensor<2x2x1x1x2x2xi32>
  %2 = graph.layout_transform %0 {src = "NCHW2c", dst = "NCHW"} : (tensor<1x2x1x2x2xf32>) -> tensor<1x4x1x2xf32>
  return %0, %1, %2 : tensor<1x2x1x2x2xf32>, tensor<2x2x1x1x2x2xi32>, tensor<1x4x1x2xf32>
}

// Integer division by zero is a run-time error: the op is left alone.
// CHECK-LABEL: func.func @integer_division_by_zero()
// CHECK-NEXT: %0 = graph.constant {value = dense<[2, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
// CHECK-NEXT: %1 = graph.constant {value = dense<[7, -7]> : tensor<2xi32>} : () -> tensor<2xi32>
// CHECK-NEXT: %2 = graph.div %1, %0 : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
// CHECK-NEXT: return %2 : tensor<2xi32>
// CHECK-NEXT: }
func.func @integer_division_by_zero() -> tensor<2xi32> {
  %z = graph.constant {value = dense<[2, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %n = graph.constant {value = dense<[7, -7]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = graph.div %n, %z : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// Float division by zero is well defined (inf, printed as hex) and folds.
// CHECK-LABEL: func.func @float_division_by_zero()
// CHECK-NEXT: %0 = graph.constant {value = dense<[0x7F800000, 0xFF800000]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT: return %0
func.func @float_division_by_zero() -> tensor<2xf32> {
  %z = graph.constant {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %n = graph.constant {value = dense<[1.0, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = graph.div %n, %z : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// An out-of-range gather index is a run-time error too.
// CHECK-LABEL: func.func @gather_out_of_range()
// CHECK: graph.gather
func.func @gather_out_of_range() -> tensor<1xf32> {
  %t = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %i = graph.constant {value = dense<[5]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = graph.gather %t, %i {axis = 0} : (tensor<2xf32>, tensor<1xi64>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// Ops with a non-constant operand are untouched (their constant operand stays).
// CHECK-LABEL: func.func @not_constant(%arg0: tensor<3xf32>)
// CHECK-NEXT: %0 = graph.constant {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
// CHECK-NEXT: %1 = graph.add %arg0, %0 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %2 = graph.exp %1 : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: return %2 : tensor<3xf32>
// CHECK-NEXT: }
func.func @not_constant(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = graph.constant {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %0 = graph.add %x, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = graph.exp %0 : (tensor<3xf32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}

// Results that grow (broadcasts) are materialized only up to 65536 elements, and
// never with a layout encoding.
// CHECK-LABEL: func.func @size_limit()
// CHECK-NEXT: %0 = graph.constant {value = dense<2.0> : tensor<1xf32>} : () -> tensor<1xf32>
// CHECK-NEXT: %1 = graph.constant {value = dense<2.0> : tensor<65536xf32>} : () -> tensor<65536xf32>
// CHECK-NEXT: %2 = graph.broadcast_to %0 {shape = [65537]} : (tensor<1xf32>) -> tensor<65537xf32>
// CHECK-NEXT: %3 = graph.broadcast_to %0 {shape = [4]} : (tensor<1xf32>) -> tensor<4xf32, "NCHW">
// CHECK-NEXT: return %1, %2, %3 :
// CHECK-NEXT: }
func.func @size_limit() -> (tensor<65536xf32>, tensor<65537xf32>, tensor<4xf32, "NCHW">) {
  %s = graph.constant {value = dense<2.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = graph.broadcast_to %s {shape = [65536]} : (tensor<1xf32>) -> tensor<65536xf32>
  %1 = graph.broadcast_to %s {shape = [65537]} : (tensor<1xf32>) -> tensor<65537xf32>
  %2 = graph.broadcast_to %s {shape = [4]} : (tensor<1xf32>) -> tensor<4xf32, "NCHW">
  return %0, %1, %2 : tensor<65536xf32>, tensor<65537xf32>, tensor<4xf32, "NCHW">
}

// Elementwise and data-movement ops fold on much larger constants (weights of real
// models: transposed, reshaped, scaled by batch norm) as long as the result is no
// larger than the operands; a reduction over more than 2^20 elements does not fold.
// CHECK-LABEL: func.func @moved_data()
// CHECK-NEXT: %0 = graph.constant {value = dense<1.5> : tensor<2048x1024xf32>}
// CHECK-NEXT: %1 = graph.constant {value = dense<1.5> : tensor<1024x2048xf32>}
// CHECK-NEXT: %2 = graph.constant {value = dense<1.5> : tensor<2097152xf32>}
// CHECK-NEXT: %3 = graph.constant {value = dense<2.25> : tensor<2048x1024xf32>}
// CHECK-NEXT: %4 = graph.reduce_sum %0 {axes = [0]}
// CHECK-NEXT: return %1, %2, %3, %4
func.func @moved_data() -> (tensor<1024x2048xf32>, tensor<2097152xf32>, tensor<2048x1024xf32>, tensor<1024xf32>) {
  %c = graph.constant {value = dense<1.5> : tensor<2048x1024xf32>} : () -> tensor<2048x1024xf32>
  %0 = graph.transpose %c {perm = [1, 0]} : (tensor<2048x1024xf32>) -> tensor<1024x2048xf32>
  %1 = graph.reshape %c {shape = [2097152]} : (tensor<2048x1024xf32>) -> tensor<2097152xf32>
  %2 = graph.mul %c, %c : (tensor<2048x1024xf32>, tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  %3 = graph.reduce_sum %c {axes = [0]} : (tensor<2048x1024xf32>) -> tensor<1024xf32>
  return %0, %1, %2, %3 : tensor<1024x2048xf32>, tensor<2097152xf32>, tensor<2048x1024xf32>, tensor<1024xf32>
}

// An elementwise op on constants and on an op on constants too large to fold alone
// folds with it when its result is no larger than the constants it all reads: a weight
// plus a low-rank update (W + A @ B, 512x512 + 512x16 @ 16x512; each product is
// 16 x 0.5 x 0.25 = 2). A @ B alone would grow the constants 16-fold, and so would the
// sum with a scalar: both stay.
// CHECK-LABEL: func.func @constant_expression()
// CHECK-DAG: %[[S:.*]] = graph.constant {value = dense<1.0> : tensor<1xf32>}
// CHECK-DAG: %[[A:.*]] = graph.constant {value = dense<0.5> : tensor<512x16xf32>}
// CHECK-DAG: %[[B:.*]] = graph.constant {value = dense<0.25> : tensor<16x512xf32>}
// CHECK: %[[AB:.*]] = graph.matmul %[[A]], %[[B]]
// CHECK-DAG: %[[W:.*]] = graph.constant {value = dense<3.0> : tensor<512x512xf32>}
// CHECK-DAG: %[[G:.*]] = graph.add %[[S]], %[[AB]]
// CHECK: return %[[W]], %[[AB]], %[[G]]
func.func @constant_expression() -> (tensor<512x512xf32>, tensor<512x512xf32>, tensor<512x512xf32>) {
  %w = graph.constant {value = dense<1.0> : tensor<512x512xf32>} : () -> tensor<512x512xf32>
  %s = graph.constant {value = dense<1.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %a = graph.constant {value = dense<0.5> : tensor<512x16xf32>} : () -> tensor<512x16xf32>
  %b = graph.constant {value = dense<0.25> : tensor<16x512xf32>} : () -> tensor<16x512xf32>
  %0 = graph.matmul %a, %b : (tensor<512x16xf32>, tensor<16x512xf32>) -> tensor<512x512xf32>
  %1 = graph.add %w, %0 : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %2 = graph.add %s, %0 : (tensor<1xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  return %1, %0, %2 : tensor<512x512xf32>, tensor<512x512xf32>, tensor<512x512xf32>
}

// A dense_resource constant folds like any other.
// CHECK-LABEL: func.func @from_resource()
// CHECK-NEXT: %0 = graph.constant {value = dense<[2.0, 4.0]> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT: return %0
func.func @from_resource() -> tensor<2xf32> {
  %w = graph.constant {value = dense_resource<blob> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = graph.add %w, %w : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// The blob is no longer referenced, so no resource section is printed.
// CHECK-NOT: dialect_resources

// Integer results (indices: a gather's, a mask's) fold up to 2^23 elements whatever
// their inputs' size, since they are never weights: torch-mlir's bilinear upsampling
// builds its gather indices from 224-element ranges. Larger ones stay, and floats
// that grow stay too (@size_limit).
// CHECK-LABEL: func.func @index_tensors()
// CHECK-NEXT: %0 = graph.constant {value = dense<3> : tensor<1xi32>} : () -> tensor<1xi32>
// CHECK-NEXT: %1 = graph.constant {value = dense<3> : tensor<1053696xi32>} : () -> tensor<1053696xi32>
// CHECK-NEXT: %2 = graph.broadcast_to %0 {shape = [8388609]} : (tensor<1xi32>) -> tensor<8388609xi32>
// CHECK-NEXT: return %1, %2 :
// CHECK-NEXT: }
func.func @index_tensors() -> (tensor<1053696xi32>, tensor<8388609xi32>) {
  %s = graph.constant {value = dense<3> : tensor<1xi32>} : () -> tensor<1xi32>
  %0 = graph.broadcast_to %s {shape = [1053696]} : (tensor<1xi32>) -> tensor<1053696xi32>
  %1 = graph.broadcast_to %s {shape = [8388609]} : (tensor<1xi32>) -> tensor<8388609xi32>
  return %0, %1 : tensor<1053696xi32>, tensor<8388609xi32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F00000040"
    }
  }
#-}
