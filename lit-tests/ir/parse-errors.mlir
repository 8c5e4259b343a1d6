// RUN: %tcc-opt %s --split-input-file --verify-diagnostics
// RUN: not %tcc-opt %s --split-input-file 2>&1 | FileCheck %s --check-prefix=RENDER

// Parser (and structural verifier) errors of the IR core. A parse error ends its chunk,
// so each chunk holds exactly one. The RENDER prefix checks that parse errors are
// located diagnostics (file:line:col) and that the tool exits non-zero.
// RENDER: parse-errors.mlir:[[# @LINE + 4]]:19: error: use of undefined value '%x'
// RENDER-NOT: panicked

func.func @undefined_value() -> tensor<4xf32> {
  %0 = graph.relu %x : (tensor<4xf32>) -> tensor<4xf32> // expected-error {{use of undefined value '%x'}}
  return %0 : tensor<4xf32>
}

// -----

func.func @redefinition(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.relu %a : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error@+1 {{redefinition of SSA value '%0'}}
  %0 = graph.neg %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @argument_redefinition(%a: tensor<4xf32>, %a: tensor<4xf32>) -> tensor<4xf32> { // expected-error {{redefinition of SSA value '%a'}}
  return %a : tensor<4xf32>
}

// -----

func.func @use_type_mismatch(%a: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{use of value '%a' expects different type than prior uses: 'tensor<3xf32>' vs 'tensor<4xf32>'}}
  %0 = graph.relu %a : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @return_use_type_mismatch(%a: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error@+1 {{use of value '%a' expects different type than prior uses: 'tensor<4xi32>' vs 'tensor<4xf32>'}}
  return %a : tensor<4xi32>
}

// -----

func.func @operand_count_vs_types(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{2 operands present, but the type list has 1 types}}
  %0 = graph.add %a, %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @result_binding_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{operation defines 1 results but was provided 2 to bind}}
  %0:2 = graph.relu %a : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

func.func @result_number_out_of_range(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0:2 = graph.split %a {axis = 0, sizes = [2, 2]} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  // expected-error@+1 {{result number 2 of '%0' is out of range}}
  %1 = graph.concat %0#0, %0#2 {axis = 0} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Functions are isolated from above: a value of another function is not visible.
func.func @first(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.relu %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @second() -> tensor<4xf32> {
  return %0 : tensor<4xf32> // expected-error {{use of undefined value '%0'}}
}

// -----

// The structural error is reported at the function.
// expected-error@+1 {{'func.func' op block must end with a terminator, found 'graph.relu'}}
func.func @missing_terminator(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.relu %a : (tensor<4xf32>) -> tensor<4xf32>
}

// -----

// expected-error@+1 {{'func.func' op has an empty block: expected at least a terminator}}
func.func @empty_body() {
^bb0:
}

// -----

// expected-error@+1 {{'func.func' op block must end with a terminator, found 'graph.relu'}}
func.func @return_not_last(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'func.return' op must be the last operation in its block}}
  return %a : tensor<4xf32>
  %0 = graph.relu %a : (tensor<4xf32>) -> tensor<4xf32>
}

// -----

func.func @empty_function_body() { // expected-error {{function body is empty: expected at least a 'return'}}
}

// -----

func.func @return_type_mismatch(%a: tensor<4xf32>) -> tensor<4xi32> {
  %0 = graph.relu %a : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error@+1 {{'func.return' op type of return operand 0 (tensor<4xf32>) doesn't match function result type (tensor<4xi32>) in function @return_type_mismatch}}
  return %0 : tensor<4xf32>
}

// -----

func.func @return_count_mismatch(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error@+1 {{'func.return' op has 1 operands, but enclosing function (@return_count_mismatch) returns 2}}
  return %a : tensor<4xf32>
}

// -----

// expected-error@+1 {{'func.return' op expects parent op 'func.func'}}
return

// -----

func.func @unregistered_pretty(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{unknown operation 'foo.bar': tcc knows the dialects}}
  %0 = foo.bar %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unregistered_generic(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{unknown operation 'foo.bar'}}
  %0 = "foo.bar"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unknown_graph_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{the graph dialect has no op 'graph.swish' (its ops are listed in docs/ops.md)}}
  %0 = graph.swish %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dynamic_dimension(%a: tensor<?x4xf32>) -> tensor<4xf32> // expected-error {{dynamic dimensions are not supported (tcc needs static shapes)}}

// -----

func.func @unranked(%a: tensor<*xf32>) -> tensor<4xf32> // expected-error {{unranked tensor types are not supported (tcc needs static shapes)}}

// -----

func.func @dimension_too_large(%a: tensor<99999999999999999999xf32>) // expected-error {{dimension 99999999999999999999 is too large}}

// -----

func.func @numel_overflow(%a: tensor<4294967296x4294967296xf32>) // expected-error {{invalid tensor type: shape 4294967296x4294967296 is too large}}

// -----

// 2^44 f32 elements are 2^46 bytes, the largest type allowed; one more doubling is not.
func.func @byte_size_limit(%a: tensor<17592186044416xf32>, %b: tensor<17592186044416x2xf32>) // expected-error {{invalid tensor type: shape 17592186044416x2 is too large}}

// -----

func.func @rank_limit(%a: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>) // expected-error {{rank exceeds the maximum of 64}}

// -----

module attributes {tcc.value = 300 : i8} { // expected-error {{integer 300 is out of range for i8}}
}

// -----

module attributes {tcc.value = -129 : i8} { // expected-error {{integer -129 is out of range for i8}}
}

// -----

module attributes {tcc.value = 2 : i1} { // expected-error {{integer 2 is out of range for i1}}
}

// -----

module attributes {tcc.value = 18446744073709551616} { // expected-error {{integer literal 18446744073709551616 is out of range}}
}

// -----

module attributes {tcc.value = 1.5 : i32} { // expected-error {{floating point literal 1.5 for integer type i32}}
}

// -----

module attributes {tcc.value = 0x1FFFFFFFF : f32} { // expected-error {{hexadecimal literal 0x1FFFFFFFF is too wide for f32}}
}

// -----

func.func @dense_element_out_of_range() -> tensor<2xi32> {
  // expected-error@+1 {{integer 2147483648000 is out of range for i32}}
  %0 = graph.constant {value = dense<[1, 2147483648000]> : tensor<2xi32>} : () -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @dense_shape_mismatch() -> tensor<2xf32> {
  // expected-error@+1 {{dense literal has shape [3] but the type is tensor<2xf32>}}
  %0 = graph.constant {value = dense<[1.0, 2.0, 3.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dense_nested_shape_mismatch() -> tensor<3x2xf32> {
  // expected-error@+1 {{dense literal has shape [2, 3] but the type is tensor<3x2xf32>}}
  %0 = graph.constant {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<3x2xf32>} : () -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @dense_not_rectangular() -> tensor<2x2xf32> {
  // expected-error@+1 {{dense literal is not rectangular}}
  %0 = graph.constant {value = dense<[[1.0, 2.0], [3.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @dense_empty_for_nonempty() -> tensor<2xf32> {
  // expected-error@+1 {{empty dense elements for tensor<2xf32>, which has 2 elements}}
  %0 = graph.constant {value = dense<> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dense_bool_for_float() -> tensor<2xf32> {
  // expected-error@+1 {{boolean literal for element type f32}}
  %0 = graph.constant {value = dense<true> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dense_non_tensor_type() -> tensor<2xf32> {
  // expected-error@+1 {{dense elements need a tensor type, found f32}}
  %0 = graph.constant {value = dense<1.0> : f32} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dense_hex_wrong_size() -> tensor<2xf32> {
  // expected-error@+1 {{hex data does not match the type: expected 8 bytes of data for tensor<2xf32>, got 12}}
  %0 = graph.constant {value = dense<"0x0000803F0000004000004040"> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dense_hex_odd_digits() -> tensor<2xi8> {
  // expected-error@+1 {{hex data has an odd number of digits}}
  %0 = graph.constant {value = dense<"0x010"> : tensor<2xi8>} : () -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

func.func @dense_hex_bad_digit() -> tensor<2xi8> {
  // expected-error@+1 {{invalid hex digit in data}}
  %0 = graph.constant {value = dense<"0x01zz"> : tensor<2xi8>} : () -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

func.func @dense_string_not_hex() -> tensor<2xi8> {
  // expected-error@+1 {{dense string data must be hex starting with "0x"}}
  %0 = graph.constant {value = dense<"abc"> : tensor<2xi8>} : () -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

func.func @resource_undefined() -> tensor<4xf32> {
  // expected-error@+1 {{resource 'missing' is not defined in the file's dialect_resources section}}
  %0 = graph.constant {value = dense_resource<missing> : tensor<4xf32>} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @resource_wrong_size() -> tensor<4xf32> {
  // expected-error@+1 {{resource 'w' holds 8 bytes but tensor<4xf32> needs 16}}
  %0 = graph.constant {value = dense_resource<w> : tensor<4xf32>} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F00000040"
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    builtin: {
      w: "0x04000000",
      w: "0x04000000" // expected-error {{duplicate resource 'w'}}
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    builtin: {
      w: "0400" // expected-error {{resource blob must be a hex string starting with "0x"}}
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    builtin: {
      w: "0x0400" // expected-error {{resource blob is shorter than its 4-byte alignment header}}
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    builtin: {
      w: "0x0300000000000000" // expected-error {{resource alignment 3 is not a power of two}}
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    tosa: { // expected-error {{resources of dialect 'tosa' are not supported}}
      w: "0x04000000"
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    builtin: {
      w: "0x04000000"
    }
  }
#-}
func.func @after_resources() // expected-error {{expected end of file after the '{-# .. #-}' section}}

// -----

func.func @f() attributes {tcc.name = "abc} // expected-error {{unterminated string literal}}

// -----

func.func @f() attributes {tcc.name = "a\qb"} // expected-error {{invalid escape sequence in string}}

// -----

func.func @f() attributes {tcc.name = "\FF"} // expected-error {{string literal is not valid UTF-8 after unescaping}}

// -----

// expected-error@+1 {{nesting is deeper than the limit of 100}}
module attributes {tcc.deep = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]} {
}

// -----

// expected-error@+1 {{nesting is deeper than the limit of 100}}
func.func @deep_type(%a: ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((()))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))f32) {
  return
}

// -----

func.func @truncated(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.relu %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
// The end of a split chunk is reported on the separator's line.
// expected-error@+2 {{unexpected end of file: expected '}' to end the region}}

// -----

func.func @truncated_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+3 {{expected ':' before the operation's type, found end of file}}
  %0 = graph.relu %a

// -----

func.func @unknown_type(%a: tensor<4xfoo>) // expected-error {{unknown type 'foo'}}

// -----

func.func @unsupported_element_type(%a: tensor<4xi7>) // expected-error {{element type 'i7' is not supported by tcc}}

// -----

func.func @unsupported_type(%a: memref<4xf32>) // expected-error {{type 'memref' is not supported by tcc}}

// -----

func.func @undefined_type_alias(%a: !mytype) // expected-error {{undefined type alias '!mytype'}}

// -----

module attributes {tcc.v = #myattr} { // expected-error {{undefined attribute alias '#myattr'}}
}

// -----

#a = 1
#a = 2 // expected-error {{redefinition of attribute alias '#a'}}

// -----

!t = tensor<4xf32>
!t = tensor<4xf32> // expected-error {{redefinition of type alias '!t'}}

// -----

module attributes {tcc.v = affine_map<(d0) -> (d0)>} { // expected-error {{attribute 'affine_map' is not supported by tcc}}
}

// -----

func.func @duplicate_attribute(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{duplicate attribute 'axis'}}
  %0 = graph.softmax %a {axis = 0, axis = 1} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @successors() {
  // expected-error@+1 {{block successors are not supported}}
  "func.return"()[^bb1] : () -> ()
^bb1:
  return
}

// -----

func.func @block_label_redefinition() {
^bb0:
  return
// expected-note@-2 {{previously defined here}}
^bb0: // expected-error {{redefinition of block '^bb0'}}
  return
}

// -----

func.func @entry_label_with_arguments(%a: tensor<4xf32>) {
^bb0: // expected-error {{the entry block's arguments are declared by the op; it takes no label}}
  return
}

// -----

func.func @unnamed_arguments_with_body(tensor<4xf32>) { // expected-error {{a function with a body needs named arguments}}
  return
}

// -----

func.func @not_a_function_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{expected a function type '(..) -> ..', found tensor<4xf32>}}
  %0 = graph.relu %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unexpected_character() {
  return ` // expected-error {{unexpected character '`'}}
}

// -----

func.func @vector_lanes(%a: vector<2048xf32>) // expected-error {{vector lane count must be between 1 and 1024}}

// -----

func.func @expected_type(%a: 42) // expected-error {{expected a type}}

// -----

// A file holding something other than operations.
42 // expected-error {{expected operation name, found '42'}}
