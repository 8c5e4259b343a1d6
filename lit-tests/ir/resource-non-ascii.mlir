// Regression: a non-ASCII character in a resource blob's 4-byte header made the
// parser slice inside a UTF-8 character and panic. It is now an 'invalid hex' error.
//
// RUN: %tcc-opt %s --verify-diagnostics
// RUN: not %tcc-opt %s 2>&1 | FileCheck %s

// CHECK-NOT: panicked
// CHECK: error: {{.*}}hex
// CHECK-NOT: panicked

func.func @f() -> tensor<1xf32> {
  %0 = graph.constant {value = dense_resource<w> : tensor<1xf32>} : () -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x0400000é0000803F" // expected-error {{hex}}
    }
  }
#-}
