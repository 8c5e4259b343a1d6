// A named module keeps its name and attributes (the name is the `sym_name`
// attribute, printed in the pretty form and not repeated in the dictionary).
//
// RUN: %tcc-opt %s | FileCheck %s
// RUN: %tcc-opt %s | %tcc-opt | FileCheck %s
// RUN: %tcc-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: %tcc-opt %s --print-op-generic | %tcc-opt | FileCheck %s

// CHECK: {{^}}module @m attributes {tcc.version = 1} {
// CHECK-NEXT: func.func private @f()
// CHECK-NEXT: {{^}}}

// GENERIC: "builtin.module"() ({
// GENERIC: }) {sym_name = "m", tcc.version = 1} : () -> ()

module @m attributes {tcc.version = 1} {
  func.func private @f()
}
