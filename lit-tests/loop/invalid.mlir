// RUN: %tcc-opt %s --split-input-file --verify-diagnostics
// RUN: not %tcc-opt %s --split-input-file 2>&1 | FileCheck %s --check-prefix=RENDER

// Negative verifier tests for the loop dialect: every op gets at least one rule
// violation, checked with --verify-diagnostics. Mismatches that the pretty syntax
// cannot express (its types are derived from one type) are written in generic form.
// The second RUN line checks the rendering of one diagnostic and the non-zero exit.

// -- loop.const ------------------------------------------------------------------------

// RENDER: invalid.mlir:[[# @LINE + 4]]:8: error: 'loop.const' op result #0 has type f64, but the operands and attributes give f32
// RENDER-NEXT: {{^}}  %0 = "loop.const"() {value = 1.0 : f32} : () -> f64 //
// RENDER-NEXT: {{^}}       ^{{$}}
func.func @const_result_type() {
  %0 = "loop.const"() {value = 1.0 : f32} : () -> f64 // expected-error {{'loop.const' op result #0 has type f64, but the operands and attributes give f32}}
  return
}

// -----

func.func @const_missing_value() {
  // expected-error@+1 {{'loop.const' op requires attribute 'value'}}
  %0 = "loop.const"() : () -> f64
  return
}

// -----

func.func @const_not_scalar() {
  // expected-error@+1 {{attribute 'value' must be a typed integer, float or bool}}
  %0 = loop.const "four"
  return
}

// -----

func.func @const_dense() {
  // expected-error@+1 {{attribute 'value' must be a typed integer, float or bool}}
  %0 = loop.const dense<1.0> : tensor<2xf32>
  return
}

// -----

func.func @const_out_of_range() {
  // expected-error@+1 {{integer 300 is out of range for i1}}
  %0 = loop.const 300 : i1
  return
}

// -----

func.func @const_float_for_int() {
  // expected-error@+1 {{floating point literal 1.5 for integer type i32}}
  %0 = loop.const 1.5 : i32
  return
}

// -----

func.func @const_unknown_attr() {
  // expected-error@+1 {{'loop.const' op has unknown attribute 'foo'}}
  %0 = loop.const 4 : index {foo = 1}
  return
}

// -----

// -- arithmetic: operand classes and types -----------------------------------------------

func.func @add_mixed_types(%a: f32, %b: f64) {
  // expected-error@+1 {{'loop.add' op operand #1 has type f64, expected f32 like operand #0}}
  %0 = "loop.add"(%a, %b) : (f32, f64) -> f32
  return
}

// -----

func.func @mul_scalar_and_vector(%a: f32, %v: vector<4xf32>) {
  // expected-error@+1 {{'loop.mul' op operand #1 has type vector<4xf32>, expected f32 like operand #0}}
  %0 = "loop.mul"(%a, %v) : (f32, vector<4xf32>) -> f32
  return
}

// -----

func.func @sub_lane_mismatch(%a: vector<4xf32>, %b: vector<8xf32>) {
  // expected-error@+1 {{'loop.sub' op operand #1 has type vector<8xf32>, expected vector<4xf32> like operand #0}}
  %0 = "loop.sub"(%a, %b) : (vector<4xf32>, vector<8xf32>) -> vector<4xf32>
  return
}

// -----

func.func @add_result_type(%a: f32) {
  // expected-error@+1 {{'loop.add' op result #0 has type f64, but the operands and attributes give f32}}
  %0 = "loop.add"(%a, %a) : (f32, f32) -> f64
  return
}

// -----

func.func @add_i1(%p: i1) {
  // expected-error@+1 {{'loop.add' op expected a number type, got i1}}
  %0 = loop.add %p, %p : i1
  return
}

// -----

func.func @max_i1_vector(%p: vector<4xi1>) {
  // expected-error@+1 {{'loop.max' op expected a number type, got vector<4xi1>}}
  %0 = loop.max %p, %p : vector<4xi1>
  return
}

// -----

func.func @and_float(%a: f32) {
  // expected-error@+1 {{'loop.and' op expected an integer type, got f32}}
  %0 = loop.and %a, %a : f32
  return
}

// -----

func.func @shl_float_vector(%a: vector<4xf32>) {
  // expected-error@+1 {{'loop.shl' op expected an integer type, got vector<4xf32>}}
  %0 = loop.shl %a, %a : vector<4xf32>
  return
}

// -----

func.func @rem_float(%a: f32) {
  // expected-error@+1 {{'loop.rem' op expected an integer type, got f32}}
  %0 = loop.rem %a, %a : f32
  return
}

// -----

func.func @sqrt_int(%a: i32) {
  // expected-error@+1 {{'loop.sqrt' op expected a float type, got i32}}
  %0 = loop.sqrt %a : i32
  return
}

// -----

func.func @exp_index(%a: index) {
  // expected-error@+1 {{'loop.exp' op expected a float type, got index}}
  %0 = loop.exp %a : index
  return
}

// -----

func.func @fma_int_vector(%a: vector<4xi32>) {
  // expected-error@+1 {{'loop.fma' op expected a float type, got vector<4xi32>}}
  %0 = loop.fma %a, %a, %a : vector<4xi32>
  return
}

// -----

func.func @fma_third_operand(%a: f32, %c: f64) {
  // expected-error@+1 {{'loop.fma' op operand #2 has type f64, expected f32 like operand #0}}
  %0 = "loop.fma"(%a, %a, %c) : (f32, f32, f64) -> f32
  return
}

// -----

func.func @neg_buffer(%a: buffer<4xf32>) {
  // expected-error@+1 {{'loop.neg' op expected a scalar or vector type, got buffer<4xf32>}}
  %0 = loop.neg %a : buffer<4xf32>
  return
}

// -----

func.func @neg_two_operands(%a: f32) {
  // expected-error@+1 {{'loop.neg' op expects 1 operands, but has 2}}
  %0 = "loop.neg"(%a, %a) : (f32, f32) -> f32
  return
}

// -----

func.func @pow_one_operand(%a: f32) {
  // expected-error@+1 {{'loop.pow' op expects 2 operands, but has 1}}
  %0 = loop.pow %a : f32
  return
}

// -----

// -- loop.cmp / loop.select --------------------------------------------------------------

func.func @cmp_bad_pred(%a: f32) {
  // expected-error@+1 {{'loop.cmp' op attribute 'pred' must be one of "eq", "ne", "lt", "le", "gt", "ge", got "lte"}}
  %0 = loop.cmp %a, %a {pred = "lte"} : (f32, f32) -> i1
  return
}

// -----

func.func @cmp_no_pred(%a: f32) {
  // expected-error@+1 {{'loop.cmp' op requires attribute 'pred'}}
  %0 = loop.cmp %a, %a : (f32, f32) -> i1
  return
}

// -----

func.func @cmp_float_result(%a: f32) {
  // expected-error@+1 {{'loop.cmp' op result #0 has type f32, but the operands and attributes give i1}}
  %0 = loop.cmp %a, %a {pred = "lt"} : (f32, f32) -> f32
  return
}

// -----

func.func @cmp_vector_scalar_result(%a: vector<4xf32>) {
  // expected-error@+1 {{'loop.cmp' op result #0 has type i1, but the operands and attributes give vector<4xi1>}}
  %0 = loop.cmp %a, %a {pred = "lt"} : (vector<4xf32>, vector<4xf32>) -> i1
  return
}

// -----

func.func @cmp_mixed(%a: f32, %b: i32) {
  // expected-error@+1 {{'loop.cmp' op operand #1 has type i32, expected f32 like operand #0}}
  %0 = loop.cmp %a, %b {pred = "eq"} : (f32, i32) -> i1
  return
}

// -----

func.func @select_arms_differ(%c: i1, %a: f32, %b: f64) {
  // expected-error@+1 {{'loop.select' op select arms differ: f32 vs f64}}
  %0 = loop.select %c, %a, %b : (i1, f32, f64) -> f32
  return
}

// -----

func.func @select_scalar_mask_for_vectors(%c: i1, %a: vector<4xf32>) {
  // expected-error@+1 {{'loop.select' op condition must be vector<4xi1>, got i1}}
  %0 = loop.select %c, %a, %a : (i1, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  return
}

// -----

func.func @select_int_condition(%c: i32, %a: f32) {
  // expected-error@+1 {{'loop.select' op condition must be i1, got i32}}
  %0 = loop.select %c, %a, %a : (i32, f32, f32) -> f32
  return
}

// -----

// -- loop.cast / loop.bitcast ------------------------------------------------------------

func.func @cast_lanes(%a: vector<4xf32>) {
  // expected-error@+1 {{'loop.cast' op cannot cast vector<4xf32> to vector<8xi32>: lane counts differ}}
  %0 = loop.cast %a : (vector<4xf32>) -> vector<8xi32>
  return
}

// -----

func.func @cast_vector_to_scalar(%a: vector<4xf32>) {
  // expected-error@+1 {{'loop.cast' op cannot cast vector<4xf32> to i32: lane counts differ}}
  %0 = loop.cast %a : (vector<4xf32>) -> i32
  return
}

// -----

func.func @cast_buffer(%a: buffer<4xf32>) {
  // expected-error@+1 {{'loop.cast' op expected a scalar or vector type, got buffer<4xf32>}}
  %0 = loop.cast %a : (buffer<4xf32>) -> i32
  return
}

// -----

func.func @bitcast_size(%a: f32) {
  // expected-error@+1 {{'loop.bitcast' op cannot bitcast f32 to i64: sizes differ}}
  %0 = loop.bitcast %a : (f32) -> i64
  return
}

// -----

// Same total bits, different lane counts: not a bitcast either.
func.func @bitcast_lanes(%a: vector<4xf32>) {
  // expected-error@+1 {{'loop.bitcast' op cannot bitcast vector<4xf32> to vector<2xf64>: sizes differ}}
  %0 = loop.bitcast %a : (vector<4xf32>) -> vector<2xf64>
  return
}

// -----

func.func @bitcast_scalar_to_vector(%a: f32) {
  // expected-error@+1 {{'loop.bitcast' op cannot bitcast f32 to vector<1xi32>: sizes differ}}
  %0 = loop.bitcast %a : (f32) -> vector<1xi32>
  return
}

// -----

// -- loop.workspace / loop.constant_buffer -----------------------------------------------

func.func @workspace_misaligned() {
  // expected-error@+1 {{'loop.workspace' op offset 6 must be non-negative and a multiple of the element size}}
  %0 = loop.workspace {offset = 6} : () -> buffer<4xf32>
  return
}

// -----

// 4 is a multiple of f32's size but not of f64's.
func.func @workspace_misaligned_f64() {
  // expected-error@+1 {{'loop.workspace' op offset 4 must be non-negative and a multiple of the element size}}
  %0 = loop.workspace {offset = 4} : () -> buffer<2xf64>
  return
}

// -----

func.func @workspace_negative() {
  // expected-error@+1 {{'loop.workspace' op offset -64 must be non-negative and a multiple of the element size}}
  %0 = loop.workspace {offset = -64} : () -> buffer<4xf32>
  return
}

// -----

func.func @workspace_no_offset() {
  // expected-error@+1 {{'loop.workspace' op requires attribute 'offset'}}
  %0 = loop.workspace : () -> buffer<4xf32>
  return
}

// -----

func.func @workspace_float_offset() {
  // expected-error@+1 {{'loop.workspace' op attribute 'offset' must be an integer, got float 1.0}}
  %0 = loop.workspace {offset = 1.0} : () -> buffer<4xf32>
  return
}

// -----

func.func @workspace_not_buffer() {
  // expected-error@+1 {{'loop.workspace' op result must be a buffer, got f32}}
  %0 = loop.workspace {offset = 0} : () -> f32
  return
}

// -----

func.func @constant_buffer_shape() {
  // expected-error@+1 {{'loop.constant_buffer' op value of type tensor<3xf32> does not match the row-major buffer buffer<4xf32>}}
  %0 = loop.constant_buffer {value = dense<1.0> : tensor<3xf32>} : () -> buffer<4xf32>
  return
}

// -----

func.func @constant_buffer_elem() {
  // expected-error@+1 {{'loop.constant_buffer' op value of type tensor<4xi32> does not match the row-major buffer buffer<4xf32>}}
  %0 = loop.constant_buffer {value = dense<1> : tensor<4xi32>} : () -> buffer<4xf32>
  return
}

// -----

func.func @constant_buffer_strided() {
  // expected-error@+1 {{'loop.constant_buffer' op value of type tensor<2x2xf32> does not match the row-major buffer buffer<2x2xf32, [1, 2]>}}
  %0 = loop.constant_buffer {value = dense<1.0> : tensor<2x2xf32>} : () -> buffer<2x2xf32, [1, 2]>
  return
}

// -----

func.func @constant_buffer_not_dense() {
  // expected-error@+1 {{'loop.constant_buffer' op attribute 'value' must be dense elements, got float 1.0 : f32}}
  %0 = loop.constant_buffer {value = 1.0 : f32} : () -> buffer<f32>
  return
}

// -----

// -- loop.load / loop.store --------------------------------------------------------------

func.func @load_too_few_indices(%b: buffer<4x8xf32>, %i: index) {
  // expected-error@+1 {{'loop.load' op 1 indices given for a buffer of rank 2}}
  %0 = loop.load %b[%i] : buffer<4x8xf32>
  return
}

// -----

func.func @load_rank0_with_index(%b: buffer<f32>, %i: index) {
  // expected-error@+1 {{'loop.load' op 1 indices given for a buffer of rank 0}}
  %0 = loop.load %b[%i] : buffer<f32>
  return
}

// -----

func.func @load_i32_indices(%b: buffer<4x8xf32>, %i: i32) {
  // expected-error@+1 {{'loop.load' op indices must have type index, got i32}}
  %0 = "loop.load"(%b, %i, %i) : (buffer<4x8xf32>, i32, i32) -> f32
  return
}

// -----

func.func @load_result_type(%b: buffer<4x8xf32>, %i: index) {
  // expected-error@+1 {{'loop.load' op result type f64 differs from the buffer's element type f32}}
  %0 = "loop.load"(%b, %i, %i) : (buffer<4x8xf32>, index, index) -> f64
  return
}

// -----

func.func @load_vector_result(%b: buffer<16xf32>, %i: index) {
  // expected-error@+1 {{'loop.load' op result type vector<4xf32> differs from the buffer's element type f32}}
  %0 = "loop.load"(%b, %i) : (buffer<16xf32>, index) -> vector<4xf32>
  return
}

// -----

func.func @load_not_buffer(%b: f32, %i: index) {
  // expected-error@+1 {{'loop.load' op operand #0 must be a buffer, got f32}}
  %0 = "loop.load"(%b, %i) : (f32, index) -> f32
  return
}

// -----

func.func @load_pretty_not_buffer(%b: f32, %i: index) {
  // expected-error@+1 {{expected a buffer type, got f32}}
  %0 = loop.load %b[%i] : f32
  return
}

// -----

func.func @store_too_many_indices(%b: buffer<4x8xf32>, %i: index, %v: f32) {
  // expected-error@+1 {{'loop.store' op 3 indices given for a buffer of rank 2}}
  loop.store %v, %b[%i, %i, %i] : buffer<4x8xf32>
  return
}

// -----

func.func @store_value_type(%b: buffer<4x8xf32>, %i: index, %v: f64) {
  // expected-error@+1 {{'loop.store' op stored value of type f64 differs from the buffer's element type f32}}
  "loop.store"(%v, %b, %i, %i) : (f64, buffer<4x8xf32>, index, index) -> ()
  return
}

// -----

func.func @store_vector(%b: buffer<4xf32>, %i: index, %v: vector<4xf32>) {
  // expected-error@+1 {{'loop.store' op stored value of type vector<4xf32> differs from the buffer's element type f32}}
  "loop.store"(%v, %b, %i) : (vector<4xf32>, buffer<4xf32>, index) -> ()
  return
}

// -----

func.func @store_index_type(%b: buffer<4xf32>, %i: i64, %v: f32) {
  // expected-error@+1 {{'loop.store' op indices must have type index, got i64}}
  "loop.store"(%v, %b, %i) : (f32, buffer<4xf32>, i64) -> ()
  return
}

// -----

func.func @store_result(%b: buffer<4xf32>, %i: index, %v: f32) {
  // expected-error@+1 {{'loop.store' op expects 0 results, but has 1}}
  %0 = "loop.store"(%v, %b, %i) : (f32, buffer<4xf32>, index) -> f32
  return
}

// -----

// -- loop.for ----------------------------------------------------------------------------

func.func @for_non_index_bound(%n: i32) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  // expected-error@+1 {{'loop.for' op bounds and step must be index values}}
  "loop.for"(%c0, %n, %c1) ({
  ^bb0(%i: index):
    "loop.yield"() : () -> ()
  }) : (index, i32, index) -> ()
  return
}

// -----

func.func @for_non_index_step(%n: index, %s: i64) {
  %c0 = loop.const 0 : index
  // expected-error@+1 {{'loop.for' op bounds and step must be index values}}
  "loop.for"(%c0, %n, %s) ({
  ^bb0(%i: index):
    "loop.yield"() : () -> ()
  }) : (index, index, i64) -> ()
  return
}

// -----

func.func @for_missing_step(%n: index) {
  %c0 = loop.const 0 : index
  // expected-error@+1 {{expected 'step'}}
  loop.for %i = %c0 to %n {
    loop.yield
  }
  return
}

// -----

func.func @for_yield_type(%n: index, %z: f32) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  // expected-error@+1 {{'loop.for' op loop.yield must produce the loop-carried value types}}
  %r = loop.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
    %d = loop.cast %acc : (f32) -> f64
    loop.yield %d : f64
  }
  return
}

// -----

func.func @for_yield_nothing(%n: index, %z: f32) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  // expected-error@+1 {{'loop.for' op loop.yield must produce the loop-carried value types}}
  %r = loop.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
    loop.yield
  }
  return
}

// -----

func.func @for_yield_too_many(%n: index, %z: f32) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  // expected-error@+1 {{'loop.for' op loop.yield of a loop without carried values takes no operands}}
  loop.for %i = %c0 to %n step %c1 {
    loop.yield %z : f32
  }
  return
}

// -----

func.func @for_no_terminator(%n: index, %z: f32) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  // expected-error@+1 {{'loop.for' op block must end with a terminator, found 'loop.add'}}
  loop.for %i = %c0 to %n step %c1 {
    %x = loop.add %z, %z : f32
  }
  return
}

// -----

func.func @for_result_type(%n: index, %z: f32) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  // expected-error@+1 {{'loop.for' op results must match the loop-carried initial values}}
  %r = "loop.for"(%c0, %n, %c1, %z) ({
  ^bb0(%i: index, %acc: f32):
    "loop.yield"(%acc) : (f32) -> ()
  }) : (index, index, index, f32) -> f64
  return
}

// -----

func.func @for_missing_block_arg(%n: index, %z: f32) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  // expected-error@+1 {{'loop.for' op body arguments must be the induction variable then the loop-carried values}}
  %r = "loop.for"(%c0, %n, %c1, %z) ({
  ^bb0(%i: index):
    "loop.yield"(%z) : (f32) -> ()
  }) : (index, index, index, f32) -> f32
  return
}

// -----

func.func @for_iv_type(%n: index) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  // expected-error@+1 {{'loop.for' op body arguments must be the induction variable then the loop-carried values}}
  "loop.for"(%c0, %n, %c1) ({
  ^bb0(%i: i64):
    "loop.yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

// -- loop.parallel -----------------------------------------------------------------------

func.func @parallel_no_blocks(%n: index) {
  %c0 = loop.const 0 : index
  // expected-error@+1 {{'loop.parallel' op 'blocks' must be a positive integer}}
  loop.parallel %i = %c0 to %n {
    loop.yield
  } attributes {blocks = 0}
  return
}

// -----

func.func @parallel_nested(%n: index) {
  %c0 = loop.const 0 : index
  loop.parallel %i = %c0 to %n {
    // expected-error@+1 {{'loop.parallel' op parallel loops must not be nested}}
    loop.parallel %j = %c0 to %n {
      loop.yield
    }
    loop.yield
  }
  return
}

// -----

// Nesting through a sequential loop counts too.
func.func @parallel_nested_deep(%n: index) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  loop.parallel %i = %c0 to %n {
    loop.for %k = %c0 to %n step %c1 {
      // expected-error@+1 {{'loop.parallel' op parallel loops must not be nested}}
      loop.parallel %j = %c0 to %n {
        loop.yield
      }
      loop.yield
    }
    loop.yield
  }
  return
}

// -----

func.func @parallel_non_index_bounds(%n: i64) {
  %c0 = loop.const 0 : i64
  // expected-error@+1 {{'loop.parallel' op bounds must be index values}}
  "loop.parallel"(%c0, %n) ({
  ^bb0(%i: index):
    "loop.yield"() : () -> ()
  }) : (i64, i64) -> ()
  return
}

// -----

func.func @parallel_yields_value(%n: index, %z: f32) {
  %c0 = loop.const 0 : index
  // expected-error@+1 {{'loop.parallel' op loop.yield of a loop without carried values takes no operands}}
  loop.parallel %i = %c0 to %n {
    loop.yield %z : f32
  }
  return
}

// -----

func.func @parallel_two_blocks(%n: index) {
  %c0 = loop.const 0 : index
  // expected-error@+1 {{'loop.parallel' op body must be one block, found 2}}
  "loop.parallel"(%c0, %n) ({
  ^bb0(%i: index):
    "loop.yield"() : () -> ()
  ^bb1:
    "loop.yield"() : () -> ()
  }) : (index, index) -> ()
  return
}

// -----

func.func @parallel_extra_arg(%n: index) {
  %c0 = loop.const 0 : index
  // expected-error@+1 {{'loop.parallel' op body arguments must be the induction variable then the loop-carried values}}
  "loop.parallel"(%c0, %n) ({
  ^bb0(%i: index, %j: index):
    "loop.yield"() : () -> ()
  }) : (index, index) -> ()
  return
}

// -----

func.func @parallel_result(%n: index) {
  %c0 = loop.const 0 : index
  // expected-error@+1 {{'loop.parallel' op expects 0 results, but has 1}}
  %r = "loop.parallel"(%c0, %n) ({
  ^bb0(%i: index):
    "loop.yield"() : () -> ()
  }) : (index, index) -> f32
  return
}

// -----

// -- loop.yield --------------------------------------------------------------------------

func.func @yield_outside_loop(%z: f32) {
  // expected-error@+1 {{'loop.yield' op expects parent op 'loop.for' or 'loop.parallel'}}
  loop.yield %z : f32
}

// -----

// -- loop.assert -------------------------------------------------------------------------

func.func @assert_i32(%c: i32) {
  // expected-error@+1 {{'loop.assert' op condition must be i1, got i32}}
  loop.assert %c {message = "x"} : (i32) -> ()
  return
}

// -----

func.func @assert_vector(%c: vector<4xi1>) {
  // expected-error@+1 {{'loop.assert' op condition must be i1, got vector<4xi1>}}
  loop.assert %c {message = "x"} : (vector<4xi1>) -> ()
  return
}

// -----

func.func @assert_no_message(%c: i1) {
  // expected-error@+1 {{'loop.assert' op requires attribute 'message'}}
  loop.assert %c : (i1) -> ()
  return
}

// -----

func.func @assert_int_message(%c: i1) {
  // expected-error@+1 {{'loop.assert' op attribute 'message' must be a string, got integer 3}}
  loop.assert %c {message = 3} : (i1) -> ()
  return
}

// -----

// -- loop.address / loop.microkernel ---------------------------------------------------

func.func @address_not_index(%b: buffer<4xf32>, %c0: index) {
  // expected-error@+1 {{'loop.address' op result must be an index, got f32}}
  %p = "loop.address"(%b, %c0) : (buffer<4xf32>, index) -> f32
  return
}

// -----

func.func @microkernel_unknown_isa(%a: index) {
  // expected-error@+1 {{'loop.microkernel' op 'isa' must be avx512, avx2 or sse}}
  loop.microkernel %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a {isa = "avx9"} : (index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index) -> ()
  return
}

// -----

func.func @microkernel_too_few(%a: index) {
  // expected-error@+1 {{'loop.microkernel' op expects 38 operands, but has 2}}
  loop.microkernel %a, %a {isa = "sse"} : (index, index) -> ()
  return
}

// -----

func.func @microkernel_not_index(%a: index, %f: f32) {
  // expected-error@+1 {{'loop.microkernel' op operand 'vectors' must be an index, got f32}}
  loop.microkernel %a, %a, %a, %a, %f, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a, %a {isa = "sse"} : (index, index, index, index, f32, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index) -> ()
  return
}

// -----

func.func @column_sums_sse(%a: index) {
  // expected-error@+1 {{'loop.column_sums' op 'isa' must be avx512 or avx2}}
  loop.column_sums %a, %a, %a, %a, %a, %a, %a {isa = "sse"} : (index, index, index, index, index, index, index) -> ()
  return
}

// -----

func.func @column_sums_not_index(%a: index, %f: f32) {
  // expected-error@+1 {{'loop.column_sums' op operand 'columns' must be an index, got f32}}
  loop.column_sums %a, %a, %a, %f, %a, %a, %a {isa = "avx2", widen = true} : (index, index, index, f32, index, index, index) -> ()
  return
}
