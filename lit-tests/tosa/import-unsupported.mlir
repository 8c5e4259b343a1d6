// A TOSA op tcc does not know is an error naming it: at parse time, or at import when
// --allow-unregistered-dialect lets its generic form parse.
//
// RUN: not %tcc-opt %s --pass-pipeline=convert-tosa-to-graph 2>&1 | FileCheck %s --check-prefix=PRETTY
// RUN: not %tcc-opt %s --split-input-file --allow-unregistered-dialect --pass-pipeline=convert-tosa-to-graph 2>&1 | FileCheck %s --check-prefix=GENERIC

// PRETTY: import-unsupported.mlir:[[# @LINE + 3]]:8: error: tcc does not support 'tosa.rfft2d' yet (the tosa ops it supports are listed in docs/tosa.md)
// GENERIC: import-unsupported.mlir:[[# @LINE + 2]]:8: error: cannot import 'tosa.rfft2d': tcc does not support this TOSA op yet (the ones it supports are listed in docs/tosa.md)
func.func @main(%x: tensor<1x4x4xf32>) -> tensor<1x4x3xf32> {
  %0 = "tosa.rfft2d"(%x) : (tensor<1x4x4xf32>) -> tensor<1x4x3xf32>
  return %0 : tensor<1x4x3xf32>
}
