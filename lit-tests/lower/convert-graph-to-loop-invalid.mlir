// RUN: %tcc-opt %s --split-input-file --verify-diagnostics --pass-pipeline=convert-graph-to-loop
// RUN: not %tcc-opt %s --split-input-file --pass-pipeline=convert-graph-to-loop 2>&1 | FileCheck %s --check-prefix=RENDER

// convert-graph-to-loop errors: there is no model function to lower, or the model's
// interface is not made of tensors. They are located diagnostics, and the tool exits
// with a failure.

// RENDER: convert-graph-to-loop-invalid.mlir:[[# @LINE + 2]]:1: error: the module has no function to run
// expected-error@+1 {{the module has no function to run}}
module {
}

// -----

// A lone declaration is the model, but it has nothing to lower.
module {
  // expected-error@+1 {{the model's function has no body}}
  func.func private @helper(tensor<2xf32>) -> tensor<2xf32>
}

// -----

// expected-error@+1 {{the module has several functions and none is named @main}}
module {
  func.func @a(%x: tensor<2xf32>) -> tensor<2xf32> {
    return %x : tensor<2xf32>
  }
  func.func @b(%x: tensor<2xf32>) -> tensor<2xf32> {
    return %x : tensor<2xf32>
  }
}

// -----

// expected-error@+1 {{the model's function has no body}}
func.func private @main(tensor<2xf32>) -> tensor<2xf32>

// -----

// RENDER: convert-graph-to-loop-invalid.mlir:[[# @LINE + 2]]:1: error: model inputs and outputs must be tensors, found f32
// expected-error@+1 {{model inputs and outputs must be tensors, found f32}}
func.func @main(%x: f32) -> tensor<2xf32> {
  %0 = graph.constant {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// expected-error@+1 {{model inputs and outputs must be tensors, found index}}
func.func @main(%x: tensor<2xf32>) -> index {
  %c = loop.const 0 : index
  return %c : index
}

// -----

// expected-error@+1 {{model inputs and outputs must be tensors, found vector<4xf32>}}
func.func @main(%x: tensor<2xf32>) -> vector<4xf32> {
  %c = loop.const 1.0 : f32
  %v = vector.splat %c : (f32) -> vector<4xf32>
  return %v : vector<4xf32>
}

// -----

// expected-error@+1 {{model inputs and outputs must be tensors, found buffer<2xf32>}}
func.func @main(%x: buffer<2xf32>) {
  return
}
