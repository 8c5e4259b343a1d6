// RUN: %tcc-opt %s --split-input-file --verify-diagnostics --pass-pipeline=convert-tosa-to-graph
// RUN: not %tcc-opt %s --split-input-file --pass-pipeline=convert-tosa-to-graph 2>&1 | FileCheck %s --check-prefix=RENDER

// What convert-tosa-to-graph refuses, each a located error naming the op: quantized
// tensors (non-zero zero points, a mul shift), modes it cannot reproduce exactly,
// shape operands that are not constant, result types that disagree with the
// operands, and element types the graph dialect lacks.

// RENDER: import-invalid.mlir:[[# @LINE + 4]]:8: error: cannot import 'tosa.mul': a non-zero shift (quantized multiply) is not supported
func.func @mul_shift(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %shift = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error@+1 {{cannot import 'tosa.mul': a non-zero shift (quantized multiply) is not supported}}
  %0 = tosa.mul %a, %b, %shift : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @conv_zero_point(%x: tensor<1x4x4x1xf32>, %w: tensor<1x1x1x1xf32>, %b: tensor<1xf32>) -> tensor<1x4x4x1xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %wzp = "tosa.const"() <{values = dense<2.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-error@+1 {{cannot import 'tosa.conv2d': a non-zero weight zero point (quantized tensor) is not supported}}
  %0 = tosa.conv2d %x, %w, %b, %zp, %wzp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x1xf32>
  return %0 : tensor<1x4x4x1xf32>
}

// -----

func.func @reduce_ignore(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error@+1 {{cannot import 'tosa.reduce_max': nan_mode = "IGNORE" is not supported on reductions}}
  %0 = tosa.reduce_max %x {axis = 1 : i32, nan_mode = "IGNORE"} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @reshape_operand(%x: tensor<2x3xf32>, %s: !tosa.shape<1>) -> tensor<6xf32> {
  // expected-error@+1 {{cannot import 'tosa.reshape': operand #1 must be a constant shape (tosa.const_shape)}}
  %0 = tosa.reshape %x, %s : (tensor<2x3xf32>, !tosa.shape<1>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @reshape_mismatch(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %s = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error@+1 {{cannot import 'tosa.reshape': the shape operand [2, 3] does not match the result type tensor<3x2xf32>}}
  %0 = tosa.reshape %x, %s : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// The file's result type must be what the operands give.
func.func @wrong_result(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{cannot import 'tosa.add': the result type tensor<3x2xf32> does not match the operands, which give tensor<2x3xf32>}}
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Shapes that do not broadcast are caught by graph shape inference.
func.func @no_broadcast(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{cannot import 'tosa.sub': as 'graph.sub':}}
  %0 = tosa.sub %a, %b : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// index tensors are not graph dialect tensors.
func.func @index_tensor() -> tensor<4xindex> {
  // expected-error@+1 {{cannot import 'tosa.const': tcc does not support element type index yet (it has f32, f64, f16, bf16, i1, i8, i16, i32, i64)}}
  %0 = "tosa.const"() <{values = dense<1> : tensor<4xindex>}> : () -> tensor<4xindex>
  return %0 : tensor<4xindex>
}

// -----

func.func @scalar_constant() -> f32 {
  // expected-error@+1 {{cannot import 'arith.constant': only tensor constants are imported, got float 1.0 : f32}}
  %0 = arith.constant 1.0 : f32
  return %0 : f32
}

// -----

func.func @bad_nan_mode(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{attribute 'nan_mode' must be PROPAGATE or IGNORE, got "SOMETIMES"}}
  %0 = tosa.clamp %x {min_val = 0.0 : f32, max_val = 1.0 : f32, nan_mode = "SOMETIMES"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @intdiv_float(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{cannot import 'tosa.intdiv': operand #0 must be i32 or i64, got f32}}
  %0 = tosa.intdiv %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @logical_on_integers(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{cannot import 'tosa.logical_and': operand #0 must be i1, got i32}}
  %0 = tosa.logical_and %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @bitwise_on_floats(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{cannot import 'tosa.bitwise_not': as 'graph.not': operand #0}}
  %0 = tosa.bitwise_not %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @shift_i8(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error@+1 {{cannot import 'tosa.logical_left_shift': as 'graph.shift_left': operand #0}}
  %0 = tosa.logical_left_shift %a, %b : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @round_missing(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'tosa.arithmetic_right_shift' op requires attribute 'round'}}
  %0 = tosa.arithmetic_right_shift %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
