// RUN: %tcc-opt %s --split-input-file --verify-diagnostics

// Negative verifier tests for the vector dialect: accesses that are not contiguous
// along a unit-stride innermost dimension, element types that differ from the
// buffer's or the vector's, lanes out of range, splats of the wrong type, and
// reductions of non-vectors.

// A column of a row-major matrix seen through strides [1, 4]: not contiguous.
func.func @load_non_unit_stride(%b: buffer<4x8xf32, [1, 4]>, %i: index) {
  // expected-error@+1 {{'vector.load' op vector access needs a buffer whose innermost dimension has unit stride}}
  %0 = vector.load %b[%i, %i] : buffer<4x8xf32, [1, 4]>, vector<4xf32>
  return
}

// -----

func.func @load_elem_mismatch(%b: buffer<16xf32>, %i: index) {
  // expected-error@+1 {{'vector.load' op vector element type i32 differs from the buffer's f32}}
  %0 = vector.load %b[%i] : buffer<16xf32>, vector<4xi32>
  return
}

// -----

func.func @load_scalar_result(%b: buffer<16xf32>, %i: index) {
  // expected-error@+1 {{'vector.load' op expected a vector type, got f32}}
  %0 = vector.load %b[%i] : buffer<16xf32>, f32
  return
}

// -----

// A rank-0 buffer has no innermost dimension to walk.
func.func @load_rank0(%b: buffer<f32>) {
  // expected-error@+1 {{'vector.load' op vector access needs a buffer whose innermost dimension has unit stride}}
  %0 = vector.load %b[] : buffer<f32>, vector<4xf32>
  return
}

// -----

func.func @load_index_count(%b: buffer<4x16xf32>, %i: index) {
  // expected-error@+1 {{'vector.load' op 1 indices given for a buffer of rank 2}}
  %0 = vector.load %b[%i] : buffer<4x16xf32>, vector<4xf32>
  return
}

// -----

func.func @load_i32_index(%b: buffer<16xf32>, %i: i32) {
  // expected-error@+1 {{'vector.load' op indices must have type index, got i32}}
  %0 = "vector.load"(%b, %i) : (buffer<16xf32>, i32) -> vector<4xf32>
  return
}

// -----

func.func @store_elem_mismatch(%b: buffer<16xf32>, %i: index, %v: vector<2xf64>) {
  // expected-error@+1 {{'vector.store' op vector element type f64 differs from the buffer's f32}}
  vector.store %v, %b[%i] : buffer<16xf32>, vector<2xf64>
  return
}

// -----

// Every other element: not contiguous either.
func.func @store_strided_1d(%b: buffer<16xf32, [2]>, %i: index, %v: vector<4xf32>) {
  // expected-error@+1 {{'vector.store' op vector access needs a buffer whose innermost dimension has unit stride}}
  vector.store %v, %b[%i] : buffer<16xf32, [2]>, vector<4xf32>
  return
}

// -----

func.func @store_scalar(%b: buffer<16xf32>, %i: index, %v: f32) {
  // expected-error@+1 {{'vector.store' op expected a vector type, got f32}}
  "vector.store"(%v, %b, %i) : (f32, buffer<16xf32>, index) -> ()
  return
}

// -----

func.func @store_index_count(%b: buffer<16xf32>, %i: index, %v: vector<4xf32>) {
  // expected-error@+1 {{'vector.store' op 2 indices given for a buffer of rank 1}}
  vector.store %v, %b[%i, %i] : buffer<16xf32>, vector<4xf32>
  return
}

// -----

func.func @splat_elem_mismatch(%x: f64) {
  // expected-error@+1 {{'vector.splat' op cannot splat f64 into vector<4xf32>}}
  %0 = vector.splat %x : (f64) -> vector<4xf32>
  return
}

// -----

func.func @splat_vector_operand(%x: vector<4xf32>) {
  // expected-error@+1 {{'vector.splat' op cannot splat vector<4xf32> into vector<4xf32>}}
  %0 = vector.splat %x : (vector<4xf32>) -> vector<4xf32>
  return
}

// -----

func.func @splat_scalar_result(%x: f32) {
  // expected-error@+1 {{'vector.splat' op cannot splat f32 into f32}}
  %0 = vector.splat %x : (f32) -> f32
  return
}

// -----

func.func @reduce_result_type(%v: vector<4xf32>) {
  // expected-error@+1 {{'vector.reduce' op lane type f64 differs from the element type of vector<4xf32>}}
  %0 = vector.reduce %v {kind = "add"} : (vector<4xf32>) -> f64
  return
}

// -----

func.func @reduce_bad_kind(%v: vector<4xf32>) {
  // expected-error@+1 {{'vector.reduce' op attribute 'kind' must be one of "add", "mul", "max", "min", got "sum"}}
  %0 = vector.reduce %v {kind = "sum"} : (vector<4xf32>) -> f32
  return
}

// -----

func.func @reduce_no_kind(%v: vector<4xf32>) {
  // expected-error@+1 {{'vector.reduce' op requires attribute 'kind'}}
  %0 = vector.reduce %v : (vector<4xf32>) -> f32
  return
}

// -----

func.func @reduce_scalar(%v: f32) {
  // expected-error@+1 {{'vector.reduce' op expected a vector, got f32}}
  %0 = vector.reduce %v {kind = "add"} : (f32) -> f32
  return
}

// -----

func.func @extract_lane_past_end(%v: vector<4xf32>) {
  // expected-error@+1 {{'vector.extract' op lane 4 is out of range for vector<4xf32>}}
  %0 = vector.extract %v {index = 4} : (vector<4xf32>) -> f32
  return
}

// -----

func.func @extract_negative_lane(%v: vector<4xf32>) {
  // expected-error@+1 {{'vector.extract' op lane -1 is out of range for vector<4xf32>}}
  %0 = vector.extract %v {index = -1} : (vector<4xf32>) -> f32
  return
}

// -----

func.func @extract_type(%v: vector<4xf32>) {
  // expected-error@+1 {{'vector.extract' op lane type i32 differs from the element type of vector<4xf32>}}
  %0 = vector.extract %v {index = 1} : (vector<4xf32>) -> i32
  return
}

// -----

func.func @extract_no_index(%v: vector<4xf32>) {
  // expected-error@+1 {{'vector.extract' op requires attribute 'index'}}
  %0 = vector.extract %v : (vector<4xf32>) -> f32
  return
}

// -----

func.func @insert_lane_past_end(%v: vector<4xf32>, %x: f32) {
  // expected-error@+1 {{'vector.insert' op lane 4 is out of range for vector<4xf32>}}
  %0 = vector.insert %x, %v {index = 4} : (f32, vector<4xf32>) -> vector<4xf32>
  return
}

// -----

func.func @insert_scalar_type(%v: vector<4xf32>, %x: f64) {
  // expected-error@+1 {{'vector.insert' op lane type f64 differs from the element type of vector<4xf32>}}
  %0 = vector.insert %x, %v {index = 1} : (f64, vector<4xf32>) -> vector<4xf32>
  return
}

// -----

func.func @insert_result_lanes(%v: vector<4xf32>, %x: f32) {
  // expected-error@+1 {{'vector.insert' op result #0 has type vector<8xf32>, but the operands and attributes give vector<4xf32>}}
  %0 = vector.insert %x, %v {index = 1} : (f32, vector<4xf32>) -> vector<8xf32>
  return
}

// -----

func.func @insert_operands_swapped(%v: vector<4xf32>, %x: f32) {
  // expected-error@+1 {{'vector.insert' op expected a vector, got f32}}
  %0 = vector.insert %v, %x {index = 1} : (vector<4xf32>, f32) -> f32
  return
}

// -----

func.func @extract_float_index(%v: vector<4xf32>, %x: f32) {
  // expected-error@+1 {{'vector.extract' op attribute 'index' must be an integer, got float 1.0}}
  %0 = vector.extract %v {index = 1.0} : (vector<4xf32>) -> f32
  return
}

// -----

func.func @shuffle_mask_out_of_range(%a: vector<4xf32>) {
  // expected-error@+1 {{'vector.shuffle' op mask must have 4 lanes, each below 8}}
  %0 = vector.shuffle %a, %a {mask = [0, 1, 2, 8]} : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  return
}
