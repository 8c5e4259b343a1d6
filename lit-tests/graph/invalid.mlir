// RUN: %tcc-opt %s --split-input-file --verify-diagnostics
// RUN: not %tcc-opt %s --split-input-file 2>&1 | FileCheck %s --check-prefix=RENDER

// Negative verifier tests for the graph dialect: every op gets at least one rule
// violation, checked with --verify-diagnostics. The second RUN line checks how a
// diagnostic is rendered (file:line:col, the quoted source line and a caret) and
// that the tool exits non-zero.

// RENDER: invalid.mlir:[[# @LINE + 4]]:8: error: 'graph.constant' op requires attribute 'value'
// RENDER-NEXT: {{^}}  %0 = graph.constant : () -> tensor<2xf32>
// RENDER-NEXT: {{^}}       ^
func.func @constant_missing_value() -> tensor<2xf32> {
  %0 = graph.constant : () -> tensor<2xf32> // expected-error {{'graph.constant' op requires attribute 'value'}}
  return %0 : tensor<2xf32>
}

// -----

func.func @constant_not_dense() -> tensor<2xf32> {
  // expected-error@+1 {{'graph.constant' op attribute 'value' must be dense elements, got float 1.0}}
  %0 = graph.constant {value = 1.0} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @constant_index() -> tensor<2xindex> {
  // expected-error@+1 {{'graph.constant' op tcc does not support element type index yet (it has f32, f64, f16, bf16, i1, i8, i16, i32, i64)}}
  %0 = graph.constant {value = dense<[1, 2]> : tensor<2xindex>} : () -> tensor<2xindex>
  return %0 : tensor<2xindex>
}

// -----

func.func @constant_result_type() -> tensor<3xf32> {
  // expected-error@+1 {{'graph.constant' op result #0 has type tensor<3xf32>, but the operands and attributes give tensor<2xf32>}}
  %0 = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @constant_two_results() -> tensor<2xf32> {
  // expected-error@+1 {{'graph.constant' op expects 1 results, but has 2}}
  %0:2 = graph.constant {value = dense<1.0> : tensor<2xf32>} : () -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0 : tensor<2xf32>
}

// -----

// Lines are numbered in the whole file, not per chunk, and the quoted line is the
// right one.
// RENDER: invalid.mlir:[[# @LINE + 5]]:8: error: 'graph.add' op shapes [2, 3] and [4] are not broadcast-compatible
// RENDER-NEXT: {{^}}  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>{{$}}
// RENDER-NEXT: {{^}}       ^{{$}}
func.func @add_broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'graph.add' op shapes [2, 3] and [4] are not broadcast-compatible}}
  %0 = graph.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @add_broadcast_inner(%a: tensor<2x1x3xf32>, %b: tensor<5x2x3xf32>) -> tensor<5x2x3xf32> {
  // expected-error@+1 {{shapes [2, 1, 3] and [5, 2, 3] are not broadcast-compatible}}
  %0 = graph.add %a, %b : (tensor<2x1x3xf32>, tensor<5x2x3xf32>) -> tensor<5x2x3xf32>
  return %0 : tensor<5x2x3xf32>
}

// -----

func.func @sub_element_types(%a: tensor<4xf32>, %b: tensor<4xf64>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.sub' op operand element types differ: f32 vs f64}}
  %0 = graph.sub %a, %b : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @mul_i1(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error@+1 {{'graph.mul' op operand #0 has element type i1, expected one of f32, f64, f16, bf16, i8, i16, i32, i64}}
  %0 = graph.mul %a, %a : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @div_result_shape(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>) -> tensor<2x1xf32> {
  // expected-error@+1 {{'graph.div' op result #0 has type tensor<2x1xf32>, but the operands and attributes give tensor<2x3xf32>}}
  %0 = graph.div %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @max_three_operands(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.max' op expects 2 operands, but has 3}}
  %0 = graph.max %a, %a, %a : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @min_scalar_operand(%a: tensor<4xf32>, %b: f32) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.min' op operand #1 must be a tensor, got f32}}
  %0 = graph.min %a, %b : (tensor<4xf32>, f32) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pow_integers(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'graph.pow' op operand #0 has element type i32, expected one of f32, f64}}
  %0 = graph.pow %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @greater_result_not_i1(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.greater' op result #0 has type tensor<4xf32>, but the operands and attributes give tensor<4xi1>}}
  %0 = graph.greater %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @less_broadcast(%a: tensor<3xi32>, %b: tensor<2xi32>) -> tensor<3xi1> {
  // expected-error@+1 {{'graph.less' op shapes [3] and [2] are not broadcast-compatible}}
  %0 = graph.less %a, %b : (tensor<3xi32>, tensor<2xi32>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @equal_element_types(%a: tensor<3xi32>, %b: tensor<3xi64>) -> tensor<3xi1> {
  // expected-error@+1 {{'graph.equal' op operand element types differ: i32 vs i64}}
  %0 = graph.equal %a, %b : (tensor<3xi32>, tensor<3xi64>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @equal_i1(%a: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error@+1 {{'graph.equal' op operand #0 has element type i1, expected one of f32, f64, f16, bf16, i8, i16, i32, i64}}
  %0 = graph.equal %a, %a : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @select_condition_not_i1(%c: tensor<4xf32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.select' op operand #0 has element type f32, expected one of i1}}
  %0 = graph.select %c, %a, %a : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_branch_types(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.select' op operand element types differ: f32 vs i32}}
  %0 = graph.select %c, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_broadcast(%c: tensor<3xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.select' op shapes [3] and [4] are not broadcast-compatible}}
  %0 = graph.select %c, %a, %a : (tensor<3xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @neg_i1(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error@+1 {{'graph.neg' op operand #0 has element type i1, expected one of f32, f64, f16, bf16, i8, i16, i32, i64}}
  %0 = graph.neg %a : (tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @abs_result_shape(%a: tensor<4xi32>) -> tensor<2x2xi32> {
  // expected-error@+1 {{'graph.abs' op result #0 has type tensor<2x2xi32>, but the operands and attributes give tensor<4xi32>}}
  %0 = graph.abs %a : (tensor<4xi32>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

func.func @exp_integer(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'graph.exp' op operand #0 has element type i32, expected one of f32, f64}}
  %0 = graph.exp %a : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @log_integer(%a: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error@+1 {{'graph.log' op operand #0 has element type i64, expected one of f32, f64}}
  %0 = graph.log %a : (tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @sqrt_unknown_attribute(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.sqrt' op has unknown attribute 'fast'}}
  %0 = graph.sqrt %a {fast = true} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @rsqrt_integer(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'graph.rsqrt' op operand #0 has element type i32, expected one of f32, f64}}
  %0 = graph.rsqrt %a : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @reciprocal_two_operands(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.reciprocal' op expects 1 operands, but has 2}}
  %0 = graph.reciprocal %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @tanh_result_element(%a: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error@+1 {{'graph.tanh' op result #0 has type tensor<4xf64>, but the operands and attributes give tensor<4xf32>}}
  %0 = graph.tanh %a : (tensor<4xf32>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @sigmoid_integer(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'graph.sigmoid' op operand #0 has element type i32, expected one of f32, f64}}
  %0 = graph.sigmoid %a : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @erf_integer(%a: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error@+1 {{'graph.erf' op operand #0 has element type i64, expected one of f32, f64}}
  %0 = graph.erf %a : (tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @relu_i1(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error@+1 {{'graph.relu' op operand #0 has element type i1, expected one of f32, f64, f16, bf16, i8, i16, i32, i64}}
  %0 = graph.relu %a : (tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @floor_integer(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'graph.floor' op operand #0 has element type i32, expected one of f32, f64}}
  %0 = graph.floor %a : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @ceil_integer(%a: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error@+1 {{'graph.ceil' op operand #0 has element type i64, expected one of f32, f64}}
  %0 = graph.ceil %a : (tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @gelu_bad_approximate(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.gelu' op attribute 'approximate' must be one of "none", "tanh", got "fast"}}
  %0 = graph.gelu %a {approximate = "fast"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gelu_approximate_kind(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.gelu' op attribute 'approximate' must be a string, got bool true}}
  %0 = graph.gelu %a {approximate = true} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gelu_integer(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'graph.gelu' op operand #0 has element type i32, expected one of f32, f64}}
  %0 = graph.gelu %a : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @clamp_min_above_max(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.clamp' op clamp bounds must satisfy min <= max, got min = 6, max = 0}}
  %0 = graph.clamp %a {min = 6.0, max = 0.0} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_nan_bound(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.clamp' op clamp bounds must satisfy min <= max, got min = NaN}}
  %0 = graph.clamp %a {min = 0x7FF8000000000000 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_min_kind(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.clamp' op attribute 'min' must be a number, got string "0"}}
  %0 = graph.clamp %a {min = "0"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_i1(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error@+1 {{'graph.clamp' op operand #0 has element type i1, expected one of f32, f64, f16, bf16, i8, i16, i32, i64}}
  %0 = graph.clamp %a {min = 0.0} : (tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @cast_shape(%a: tensor<4xf32>) -> tensor<3xi32> {
  // expected-error@+1 {{'graph.cast' op result shape tensor<3xi32> differs from operand shape tensor<4xf32>}}
  %0 = graph.cast %a : (tensor<4xf32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @cast_to_index(%a: tensor<4xf32>) -> tensor<4xindex> {
  // expected-error@+1 {{'graph.cast' op tcc does not support element type index yet}}
  %0 = graph.cast %a : (tensor<4xf32>) -> tensor<4xindex>
  return %0 : tensor<4xindex>
}

// -----

func.func @cast_to_scalar(%a: tensor<4xf32>) -> f32 {
  // expected-error@+1 {{'graph.cast' op operand and result must be tensors}}
  %0 = graph.cast %a : (tensor<4xf32>) -> f32
  return %0 : f32
}

// -----

func.func @matmul_contraction(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.matmul' op contraction dimensions differ: 3 (a) vs 4 (b)}}
  %0 = graph.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @matmul_batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x4xf32>) -> tensor<2x4x4xf32> {
  // expected-error@+1 {{'graph.matmul' op batch dimensions: shapes [2] and [3] are not broadcast-compatible}}
  %0 = graph.matmul %a, %b : (tensor<2x4x8xf32>, tensor<3x8x4xf32>) -> tensor<2x4x4xf32>
  return %0 : tensor<2x4x4xf32>
}

// -----

func.func @matmul_rank0(%a: tensor<f32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.matmul' op matmul operands must have rank >= 1}}
  %0 = graph.matmul %a, %b : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @matmul_vector_result(%a: tensor<8xf32>, %b: tensor<8x16xf32>) -> tensor<1x16xf32> {
  // expected-error@+1 {{'graph.matmul' op result #0 has type tensor<1x16xf32>, but the operands and attributes give tensor<16xf32>}}
  %0 = graph.matmul %a, %b : (tensor<8xf32>, tensor<8x16xf32>) -> tensor<1x16xf32>
  return %0 : tensor<1x16xf32>
}

// -----

func.func @conv2d_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op filter expects 2 input channels per group, but the input has 3 channels in 1 group(s)}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_groups_divide(%x: tensor<1x6x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op input channels (6) and output channels (4) must be divisible by groups (3)}}
  %0 = graph.conv2d %x, %w {groups = 3} : (tensor<1x6x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_depthwise_filter(%x: tensor<1x8x8x8xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op filter expects 8 input channels per group, but the input has 8 channels in 8 group(s)}}
  %0 = graph.conv2d %x, %w {groups = 8} : (tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv2d_bias_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op bias must have shape [8], got tensor<4xf32>}}
  %0 = graph.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>, tensor<4xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv2d_stride_typo(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op has unknown attribute 'stride'}}
  %0 = graph.conv2d %x, %w {stride = [2, 2]} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv2d_strides_length(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op attribute 'strides' must have 2 entries, got 3}}
  %0 = graph.conv2d %x, %w {strides = [1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv2d_zero_stride(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op attribute 'strides' must be positive, got 0}}
  %0 = graph.conv2d %x, %w {strides = array<i64: 1, 0>} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv2d_negative_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op attribute 'pads' must be non-negative, got -1}}
  %0 = graph.conv2d %x, %w {pads = [0, -1, 0, 0]} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv2d_zero_groups(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op attribute 'groups' must be positive, got 0}}
  %0 = graph.conv2d %x, %w {groups = 0} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv2d_groups_kind(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op attribute 'groups' must be an integer, got array [1]}}
  %0 = graph.conv2d %x, %w {groups = [1]} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv2d_strides_kind(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op attribute 'strides' must be a list of integers, got integer 1}}
  %0 = graph.conv2d %x, %w {strides = 1} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv2d_window_too_big(%x: tensor<1x3x4x4xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x1x1xf32> {
  // expected-error@+1 {{'graph.conv2d' op window of extent 5 does not fit the padded height of 4}}
  %0 = graph.conv2d %x, %w {dilations = [2, 1]} : (tensor<1x3x4x4xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x1x1xf32>
  return %0 : tensor<1x8x1x1xf32>
}

// -----

func.func @conv2d_rank(%x: tensor<3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<8x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op conv2d expects a 4-D input (NCHW) and 4-D filter (OIHW), got tensor<3x8x8xf32> and tensor<8x3x3x3xf32>}}
  %0 = graph.conv2d %x, %w : (tensor<3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<8x6x6xf32>
  return %0 : tensor<8x6x6xf32>
}

// -----

func.func @conv2d_element_types(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf64>) -> tensor<1x8x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op operand element types differ: f32 vs f64}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf64>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

func.func @conv2d_integer(%x: tensor<1x3x8x8xi32>, %w: tensor<8x3x3x3xi32>) -> tensor<1x8x6x6xi32> {
  // expected-error@+1 {{'graph.conv2d' op operand #0 has element type i32, expected one of f32, f64}}
  %0 = graph.conv2d %x, %w : (tensor<1x3x8x8xi32>, tensor<8x3x3x3xi32>) -> tensor<1x8x6x6xi32>
  return %0 : tensor<1x8x6x6xi32>
}

// -----

func.func @conv2d_one_operand(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.conv2d' op expects 2 to 3 operands, but has 1}}
  %0 = graph.conv2d %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return %0 : tensor<1x3x8x8xf32>
}

// -----

func.func @conv2d_result_shape(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x32x32xf32> {
  // expected-error@+1 {{'graph.conv2d' op result #0 has type tensor<1x8x32x32xf32>, but the operands and attributes give tensor<1x8x16x16xf32>}}
  %0 = graph.conv2d %x, %w {strides = [2, 2], pads = [1, 1, 1, 1]} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x32x32xf32>
  return %0 : tensor<1x8x32x32xf32>
}

// -----

func.func @max_pool2d_padding(%x: tensor<1x8x8x8xf32>) -> tensor<1x8x5x5xf32> {
  // expected-error@+1 {{'graph.max_pool2d' op padding must be smaller than the kernel (a window could hold only padding)}}
  %0 = graph.max_pool2d %x {kernel = [2, 2], strides = [2, 2], pads = [2, 0, 0, 0]} : (tensor<1x8x8x8xf32>) -> tensor<1x8x5x5xf32>
  return %0 : tensor<1x8x5x5xf32>
}

// -----

func.func @max_pool2d_missing_kernel(%x: tensor<1x8x8x8xf32>) -> tensor<1x8x4x4xf32> {
  // expected-error@+1 {{'graph.max_pool2d' op requires attribute 'kernel'}}
  %0 = graph.max_pool2d %x {strides = [2, 2]} : (tensor<1x8x8x8xf32>) -> tensor<1x8x4x4xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// -----

func.func @max_pool2d_zero_kernel(%x: tensor<1x8x8x8xf32>) -> tensor<1x8x4x4xf32> {
  // expected-error@+1 {{'graph.max_pool2d' op attribute 'kernel' must be positive, got 0}}
  %0 = graph.max_pool2d %x {kernel = [0, 2], strides = [2, 2]} : (tensor<1x8x8x8xf32>) -> tensor<1x8x4x4xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// -----

func.func @avg_pool2d_count_include_pad_kind(%x: tensor<1x8x8x8xf32>) -> tensor<1x8x4x4xf32> {
  // expected-error@+1 {{'graph.avg_pool2d' op attribute 'count_include_pad' must be a bool, got integer 1}}
  %0 = graph.avg_pool2d %x {kernel = [2, 2], strides = [2, 2], count_include_pad = 1} : (tensor<1x8x8x8xf32>) -> tensor<1x8x4x4xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// -----

func.func @avg_pool2d_rank(%x: tensor<8x8x8xf32>) -> tensor<8x4x4xf32> {
  // expected-error@+1 {{'graph.avg_pool2d' op pooling expects a 4-D input (NCHW), got tensor<8x8x8xf32>}}
  %0 = graph.avg_pool2d %x {kernel = [2, 2], strides = [2, 2]} : (tensor<8x8x8xf32>) -> tensor<8x4x4xf32>
  return %0 : tensor<8x4x4xf32>
}

// -----

func.func @avg_pool2d_padding(%x: tensor<1x8x8x8xf32>) -> tensor<1x8x5x5xf32> {
  // expected-error@+1 {{'graph.avg_pool2d' op padding must be smaller than the kernel}}
  %0 = graph.avg_pool2d %x {kernel = [2, 2], strides = [2, 2], pads = [0, 0, 0, 2]} : (tensor<1x8x8x8xf32>) -> tensor<1x8x5x5xf32>
  return %0 : tensor<1x8x5x5xf32>
}

// -----

func.func @reduce_sum_axis_range(%x: tensor<2x3x4xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'graph.reduce_sum' op axis 3 is out of range for rank 3}}
  %0 = graph.reduce_sum %x {axes = [3]} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reduce_sum_negative_axis_range(%x: tensor<2x3x4xf32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{'graph.reduce_sum' op axis -4 is out of range for rank 3}}
  %0 = graph.reduce_sum %x {axes = [-4]} : (tensor<2x3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @reduce_mean_empty_axes(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // expected-error@+1 {{'graph.reduce_mean' op attribute 'axes' must not be empty}}
  %0 = graph.reduce_mean %x {axes = []} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @reduce_mean_integer(%x: tensor<2x3xi32>) -> tensor<2xi32> {
  // expected-error@+1 {{'graph.reduce_mean' op operand #0 has element type i32, expected one of f32, f64}}
  %0 = graph.reduce_mean %x {axes = [1]} : (tensor<2x3xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @reduce_max_duplicate_axes(%x: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'graph.reduce_max' op attribute 'axes' has duplicates}}
  %0 = graph.reduce_max %x {axes = [1, -2]} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @reduce_min_keepdims_kind(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error@+1 {{'graph.reduce_min' op attribute 'keepdims' must be a bool, got string "yes"}}
  %0 = graph.reduce_min %x {axes = [1], keepdims = "yes"} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @reduce_min_missing_axes(%x: tensor<2x3xf32>) -> tensor<f32> {
  // expected-error@+1 {{'graph.reduce_min' op requires attribute 'axes'}}
  %0 = graph.reduce_min %x : (tensor<2x3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_sum_keepdims_result(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.reduce_sum' op result #0 has type tensor<2xf32>, but the operands and attributes give tensor<2x1xf32>}}
  %0 = graph.reduce_sum %x {axes = [1], keepdims = true} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @softmax_axis_range(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'graph.softmax' op axis 2 is out of range for rank 2}}
  %0 = graph.softmax %x {axis = 2} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_missing_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'graph.softmax' op requires attribute 'axis'}}
  %0 = graph.softmax %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_axis_kind(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'graph.softmax' op attribute 'axis' must be an integer, got float 1.0}}
  %0 = graph.softmax %x {axis = 1.0} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reshape_element_count(%x: tensor<2x3x4xf32>) -> tensor<5x5xf32> {
  // expected-error@+1 {{'graph.reshape' op cannot reshape 24 elements to [5, 5]}}
  %0 = graph.reshape %x {shape = [5, 5]} : (tensor<2x3x4xf32>) -> tensor<5x5xf32>
  return %0 : tensor<5x5xf32>
}

// -----

func.func @reshape_inferred_indivisible(%x: tensor<2x3x4xf32>) -> tensor<5x5xf32> {
  // expected-error@+1 {{'graph.reshape' op cannot reshape 24 elements to [5, -1]}}
  %0 = graph.reshape %x {shape = [5, -1]} : (tensor<2x3x4xf32>) -> tensor<5x5xf32>
  return %0 : tensor<5x5xf32>
}

// -----

func.func @reshape_two_unknowns(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  // expected-error@+1 {{'graph.reshape' op invalid reshape target [-1, -1] (at most one -1, no other negatives)}}
  %0 = graph.reshape %x {shape = [-1, -1]} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

func.func @reshape_result_mismatch(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  // expected-error@+1 {{'graph.reshape' op result #0 has type tensor<6x4xf32>, but the operands and attributes give tensor<4x6xf32>}}
  %0 = graph.reshape %x {shape = [4, -1]} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

func.func @transpose_not_permutation(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'graph.transpose' op [0, 0] is not a permutation of 0..2}}
  %0 = graph.transpose %x {perm = [0, 0]} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @transpose_out_of_range(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{'graph.transpose' op [2, 0] is not a permutation of 0..2}}
  %0 = graph.transpose %x {perm = [2, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_rank(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'graph.transpose' op permutation [0] does not match rank 2}}
  %0 = graph.transpose %x {perm = [0]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_to_incompatible(%x: tensor<3xf32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{'graph.broadcast_to' op shapes [3] and [4, 2] are not broadcast-compatible}}
  %0 = graph.broadcast_to %x {shape = [4, 2]} : (tensor<3xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @broadcast_to_shrink(%x: tensor<4x3xf32>) -> tensor<1x3xf32> {
  // expected-error@+1 {{'graph.broadcast_to' op cannot broadcast [4, 3] to [1, 3]}}
  %0 = graph.broadcast_to %x {shape = [1, 3]} : (tensor<4x3xf32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @broadcast_to_lower_rank(%x: tensor<1x3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'graph.broadcast_to' op cannot broadcast [1, 3] to [3]}}
  %0 = graph.broadcast_to %x {shape = [3]} : (tensor<1x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @concat_mismatch(%a: tensor<1x2xf32>, %b: tensor<2x3xf32>) -> tensor<1x5xf32> {
  // expected-error@+1 {{'graph.concat' op operand #1 of shape [2, 3] does not match [1, 2] outside axis 1}}
  %0 = graph.concat %a, %b {axis = 1} : (tensor<1x2xf32>, tensor<2x3xf32>) -> tensor<1x5xf32>
  return %0 : tensor<1x5xf32>
}

// -----

func.func @concat_rank(%a: tensor<1x2xf32>, %b: tensor<2xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'graph.concat' op operand #1 of shape [2] does not match [1, 2] outside axis 1}}
  %0 = graph.concat %a, %b {axis = 1} : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @concat_element_types(%a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.concat' op operand element types differ: f32 vs i32}}
  %0 = graph.concat %a, %b {axis = 0} : (tensor<2xf32>, tensor<2xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @concat_no_operands() -> tensor<0xf32> {
  // expected-error@+1 {{'graph.concat' op expects at least 1 operands, but has 0}}
  %0 = graph.concat {axis = 0} : () -> tensor<0xf32>
  return %0 : tensor<0xf32>
}

// -----

func.func @concat_axis_range(%a: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.concat' op axis 1 is out of range for rank 1}}
  %0 = graph.concat %a, %a {axis = 1} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @split_sizes_sum(%x: tensor<1x5xf32>) -> tensor<1x2xf32> {
  // expected-error@+1 {{'graph.split' op sizes [2, 2] must sum to the axis extent 5}}
  %0:2 = graph.split %x {axis = 1, sizes = [2, 2]} : (tensor<1x5xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>)
  return %0#0 : tensor<1x2xf32>
}

// -----

func.func @split_result_count(%x: tensor<1x5xf32>) -> tensor<1x2xf32> {
  // expected-error@+1 {{'graph.split' op has 3 results but 2 were inferred}}
  %0:3 = graph.split %x {axis = 1, sizes = [2, 3]} : (tensor<1x5xf32>) -> (tensor<1x2xf32>, tensor<1x3xf32>, tensor<1x0xf32>)
  return %0#0 : tensor<1x2xf32>
}

// -----

func.func @split_negative_size(%x: tensor<1x5xf32>) -> tensor<1x6xf32> {
  // expected-error@+1 {{'graph.split' op attribute 'sizes' must be non-negative, got -1}}
  %0:2 = graph.split %x {axis = 1, sizes = [6, -1]} : (tensor<1x5xf32>) -> (tensor<1x6xf32>, tensor<1x0xf32>)
  return %0#0 : tensor<1x6xf32>
}

// -----

func.func @split_result_shape(%x: tensor<1x5xf32>) -> tensor<1x2xf32> {
  // expected-error@+1 {{'graph.split' op result #1 has type tensor<1x2xf32>, but the operands and attributes give tensor<1x3xf32>}}
  %0:2 = graph.split %x {axis = 1, sizes = [2, 3]} : (tensor<1x5xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>)
  return %0#0 : tensor<1x2xf32>
}

// -----

func.func @slice_out_of_bounds(%x: tensor<2x5xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'graph.slice' op slice of dimension 1 (start 3, size 3, step 1) is out of bounds for extent 5}}
  %0 = graph.slice %x {starts = [0, 3], sizes = [2, 3]} : (tensor<2x5xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_step_out_of_bounds(%x: tensor<2x5xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'graph.slice' op slice of dimension 1 (start 1, size 3, step 2) is out of bounds for extent 5}}
  %0 = graph.slice %x {starts = [0, 1], sizes = [2, 3], steps = [1, 2]} : (tensor<2x5xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_negative_start(%x: tensor<2x5xf32>) -> tensor<2x1xf32> {
  // expected-error@+1 {{'graph.slice' op slice of dimension 1 (start -1, size 1, step 1) is out of bounds for extent 5}}
  %0 = graph.slice %x {starts = [0, -1], sizes = [2, 1]} : (tensor<2x5xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @slice_zero_step(%x: tensor<2x5xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'graph.slice' op attribute 'steps' must be positive, got 0}}
  %0 = graph.slice %x {starts = [0, 0], sizes = [2, 2], steps = [1, 0]} : (tensor<2x5xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @slice_starts_length(%x: tensor<2x5xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'graph.slice' op attribute 'starts' must have 2 entries, got 1}}
  %0 = graph.slice %x {starts = [0], sizes = [2, 2]} : (tensor<2x5xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @slice_missing_sizes(%x: tensor<2x5xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'graph.slice' op requires attribute 'sizes'}}
  %0 = graph.slice %x {starts = [0, 0]} : (tensor<2x5xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @pad_negative(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'graph.pad' op attribute 'low' must be non-negative, got -1}}
  %0 = graph.pad %x {low = [0, -1], high = [0, 0]} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @pad_high_length(%x: tensor<2x3xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'graph.pad' op attribute 'high' must have 2 entries, got 3}}
  %0 = graph.pad %x {low = [0, 1], high = [0, 0, 0]} : (tensor<2x3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @pad_value_kind(%x: tensor<2x3xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'graph.pad' op attribute 'value' must be a number, got string "zero"}}
  %0 = graph.pad %x {low = [0, 1], high = [0, 0], value = "zero"} : (tensor<2x3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @gather_float_indices(%x: tensor<10x4xf32>, %i: tensor<3xf32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{'graph.gather' op operand #1 has element type f32, expected one of i32, i64}}
  %0 = graph.gather %x, %i {axis = 0} : (tensor<10x4xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_axis_range(%x: tensor<10x4xf32>, %i: tensor<3xi32>) -> tensor<3x4xf32> {
  // expected-error@+1 {{'graph.gather' op axis -3 is out of range for rank 2}}
  %0 = graph.gather %x, %i {axis = -3} : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_empty_axis(%x: tensor<0x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  // expected-error@+1 {{'graph.gather' op cannot gather from an empty axis}}
  %0 = graph.gather %x, %i {axis = 0} : (tensor<0x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_result_shape(%x: tensor<10x4xf32>, %i: tensor<2x3xi64>) -> tensor<6x4xf32> {
  // expected-error@+1 {{'graph.gather' op result #0 has type tensor<6x4xf32>, but the operands and attributes give tensor<2x3x4xf32>}}
  %0 = graph.gather %x, %i {axis = 0} : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

// 30 channels fit two blocks of 16 (the last one padded), not three.
func.func @layout_transform_wrong_padding(%x: tensor<1x30x7x7xf32>) -> tensor<1x3x7x7x16xf32> {
  // expected-error@+1 {{'graph.layout_transform' op dimension C holds 30 elements in the source but 33 to 48 in the result}}
  %0 = graph.layout_transform %x {src = "NCHW", dst = "NCHW16c"} : (tensor<1x30x7x7xf32>) -> tensor<1x3x7x7x16xf32>
  return %0 : tensor<1x3x7x7x16xf32>
}

// -----

func.func @layout_transform_unpad_too_far(%x: tensor<1x2x7x7x16xf32>) -> tensor<1x12x7x7xf32> {
  // expected-error@+1 {{'graph.layout_transform' op dimension C holds 17 to 32 elements in the source but 12 in the result}}
  %0 = graph.layout_transform %x {src = "NCHW16c", dst = "NCHW"} : (tensor<1x2x7x7x16xf32>) -> tensor<1x12x7x7xf32>
  return %0 : tensor<1x12x7x7xf32>
}

// -----

func.func @layout_transform_bad_block(%x: tensor<1x32x7x7xf32>) -> tensor<1x2x7x7x16xf32> {
  // expected-error@+1 {{'graph.layout_transform' op layout "NCHW16": a block size must be positive and followed by a lowercase letter}}
  %0 = graph.layout_transform %x {src = "NCHW", dst = "NCHW16"} : (tensor<1x32x7x7xf32>) -> tensor<1x2x7x7x16xf32>
  return %0 : tensor<1x2x7x7x16xf32>
}

// -----

func.func @layout_transform_bad_character(%x: tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32> {
  // expected-error@+1 {{'graph.layout_transform' op layout "NC-HW": unexpected character '-'}}
  %0 = graph.layout_transform %x {src = "NC-HW", dst = "NCHW"} : (tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  return %0 : tensor<1x32x7x7xf32>
}

// -----

func.func @layout_transform_repeated_dimension(%x: tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32> {
  // expected-error@+1 {{'graph.layout_transform' op layout "NCCW": dimension 'C' appears twice}}
  %0 = graph.layout_transform %x {src = "NCHW", dst = "NCCW"} : (tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  return %0 : tensor<1x32x7x7xf32>
}

// -----

func.func @layout_transform_orphan_block(%x: tensor<1x32x7x7xf32>) -> tensor<1x2x7x16xf32> {
  // expected-error@+1 {{'graph.layout_transform' op layout "NHW16c": block of 'c' without dimension 'C'}}
  %0 = graph.layout_transform %x {src = "NCHW", dst = "NHW16c"} : (tensor<1x32x7x7xf32>) -> tensor<1x2x7x16xf32>
  return %0 : tensor<1x2x7x16xf32>
}

// -----

func.func @layout_transform_letters(%x: tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32> {
  // expected-error@+1 {{'graph.layout_transform' op source and destination layouts must name the same dimensions}}
  %0 = graph.layout_transform %x {src = "NCHW", dst = "OIHW"} : (tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  return %0 : tensor<1x32x7x7xf32>
}

// -----

func.func @layout_transform_rank(%x: tensor<32x7x7xf32>) -> tensor<32x7x7xf32> {
  // expected-error@+1 {{'graph.layout_transform' op shape of rank 3 does not match a layout of rank 4}}
  %0 = graph.layout_transform %x {src = "NCHW", dst = "NHWC"} : (tensor<32x7x7xf32>) -> tensor<32x7x7xf32>
  return %0 : tensor<32x7x7xf32>
}

// -----

func.func @layout_transform_block_extent(%x: tensor<1x2x7x7x8xf32>) -> tensor<1x16x7x7xf32> {
  // expected-error@+1 {{'graph.layout_transform' op block dimension 16c has extent 8}}
  %0 = graph.layout_transform %x {src = "NCHW16c", dst = "NCHW"} : (tensor<1x2x7x7x8xf32>) -> tensor<1x16x7x7xf32>
  return %0 : tensor<1x16x7x7xf32>
}

// -----

func.func @layout_transform_missing_dst(%x: tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32> {
  // expected-error@+1 {{'graph.layout_transform' op requires attribute 'dst'}}
  %0 = graph.layout_transform %x {src = "NCHW"} : (tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  return %0 : tensor<1x32x7x7xf32>
}

// -----

func.func @layout_transform_src_kind(%x: tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32> {
  // expected-error@+1 {{'graph.layout_transform' op attribute 'src' must be a string, got symbol reference @NCHW}}
  %0 = graph.layout_transform %x {src = @NCHW, dst = "NCHW"} : (tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  return %0 : tensor<1x32x7x7xf32>
}

// -----

// Several problems on one op are all reported.
func.func @several_errors(%x: tensor<1x3x8x8xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error@+2 {{'graph.conv2d' op has unknown attribute 'stride'}}
  // expected-error@+1 {{'graph.conv2d' op has unknown attribute 'padding'}}
  %0 = graph.conv2d %x, %w {stride = [1, 1], padding = [0, 0, 0, 0]} : (tensor<1x3x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

// Errors in different functions of one file are all reported.
func.func @first(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'graph.exp' op operand #0 has element type i32}}
  %0 = graph.exp %a : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
func.func @second(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error@below {{'graph.neg' op operand #0 has element type i1}}
  %0 = graph.neg %a : (tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// A dialect-prefixed attribute is not an unknown-attribute error, but the rules still apply.
func.func @prefixed_attribute(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = graph.sqrt %a {tcc.note = "ok"} : (tensor<4xi32>) -> tensor<4xi32>
  // expected-error@-1 {{'graph.sqrt' op operand #0 has element type i32, expected one of f32, f64}}
  return %0 : tensor<4xi32>
}
