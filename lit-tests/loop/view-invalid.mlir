// Verifier errors of loop.view. (Regression: it was once missing from the dialect's
// op list, so these never ran on parsed IR.)
//
// RUN: %tcc-opt %s --split-input-file --verify-diagnostics

// Negative verifier tests for loop.view.
//
// BUG: loop.view is not registered (missing from ALL in dialects/loop/src/lib.rs), so
// these ops fail to parse ("unregistered operation 'loop.view'") instead of reaching
// the view verifier. Remove the XFAIL once loop.view is registered.

func.func @view_count(%b: buffer<2x3xf32>) {
  // expected-error@+1 {{'loop.view' op cannot view buffer<2x3xf32> as buffer<5xf32>: element type or count differs}}
  %0 = loop.view %b : (buffer<2x3xf32>) -> buffer<5xf32>
  return
}

// -----

func.func @view_elem(%b: buffer<2x3xf32>) {
  // expected-error@+1 {{'loop.view' op cannot view buffer<2x3xf32> as buffer<6xi32>: element type or count differs}}
  %0 = loop.view %b : (buffer<2x3xf32>) -> buffer<6xi32>
  return
}

// -----

func.func @view_strided_source(%b: buffer<2x3xf32, [1, 2]>) {
  // expected-error@+1 {{'loop.view' op views reshape row-major buffers only}}
  %0 = loop.view %b : (buffer<2x3xf32, [1, 2]>) -> buffer<6xf32>
  return
}

// -----

func.func @view_strided_result(%b: buffer<6xf32>) {
  // expected-error@+1 {{'loop.view' op views reshape row-major buffers only}}
  %0 = loop.view %b : (buffer<6xf32>) -> buffer<2x3xf32, [3, 1]>
  return
}

// -----

func.func @view_not_buffer(%x: f32) {
  // expected-error@+1 {{'loop.view' op expected buffers, got f32 and buffer<1xf32>}}
  %0 = loop.view %x : (f32) -> buffer<1xf32>
  return
}

// -----

func.func @view_two_operands(%b: buffer<6xf32>) {
  // expected-error@+1 {{'loop.view' op expects 1 operands, but has 2}}
  %0 = "loop.view"(%b, %b) : (buffer<6xf32>, buffer<6xf32>) -> buffer<6xf32>
  return
}
