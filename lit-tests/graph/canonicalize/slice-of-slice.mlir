// The slice-of-slice rule (rules/canonical/slice.rules): two slices compose into one,
// steps multiply (absent steps are ones, and all-one steps are left out).
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s

// CHECK-LABEL: func.func @compose(%arg0: tensor<10x8xf32>)
// CHECK-NEXT: %0 = graph.slice %arg0 {sizes = [3, 2], starts = [3, 1]} : (tensor<10x8xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: return %0
func.func @compose(%x: tensor<10x8xf32>) -> tensor<3x2xf32> {
  %0 = graph.slice %x {starts = [1, 0], sizes = [8, 7]} : (tensor<10x8xf32>) -> tensor<8x7xf32>
  %1 = graph.slice %0 {starts = [2, 1], sizes = [3, 2]} : (tensor<8x7xf32>) -> tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}

// Element j of the result is x[1 + 2 * (1 + 3 * j)] = x[3 + 6 * j].
// CHECK-LABEL: func.func @steps(%arg0: tensor<20xf32>)
// CHECK-NEXT: %0 = graph.slice %arg0 {sizes = [3], starts = [3], steps = [6]} : (tensor<20xf32>) -> tensor<3xf32>
// CHECK-NEXT: return %0
func.func @steps(%x: tensor<20xf32>) -> tensor<3xf32> {
  %0 = graph.slice %x {starts = [1], sizes = [9], steps = [2]} : (tensor<20xf32>) -> tensor<9xf32>
  %1 = graph.slice %0 {starts = [1], sizes = [3], steps = [3]} : (tensor<9xf32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}

// One slice with steps, one without: the steps carry over.
// CHECK-LABEL: func.func @one_side_steps(%arg0: tensor<20xf32>)
// CHECK-NEXT: %0 = graph.slice %arg0 {sizes = [4], starts = [5], steps = [2]} : (tensor<20xf32>) -> tensor<4xf32>
func.func @one_side_steps(%x: tensor<20xf32>) -> tensor<4xf32> {
  %0 = graph.slice %x {starts = [1], sizes = [9], steps = [2]} : (tensor<20xf32>) -> tensor<9xf32>
  %1 = graph.slice %0 {starts = [2], sizes = [4]} : (tensor<9xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// Explicit unit steps compose to none.
// CHECK-LABEL: func.func @unit_steps(%arg0: tensor<20xf32>)
// CHECK-NEXT: %0 = graph.slice %arg0 {sizes = [4], starts = [3]} : (tensor<20xf32>) -> tensor<4xf32>
func.func @unit_steps(%x: tensor<20xf32>) -> tensor<4xf32> {
  %0 = graph.slice %x {starts = [1], sizes = [9], steps = [1]} : (tensor<20xf32>) -> tensor<9xf32>
  %1 = graph.slice %0 {starts = [2], sizes = [4], steps = [1]} : (tensor<9xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
