// Regression: an empty module printed in generic form, `"builtin.module"() ({\n}) :
// () -> ()`, did not parse back (its region had no block). Single-block ops now get
// their block when a region is written empty.
//
// RUN: %tcc-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: %tcc-opt %s --print-op-generic | %tcc-opt | FileCheck %s
// RUN: printf '"builtin.module"() ({\n}) : () -> ()\n' | %tcc-opt - | FileCheck %s

// GENERIC: "builtin.module"() ({
// GENERIC-NEXT: }) : () -> ()

// CHECK: {{^}}module {
// CHECK-NEXT: {{^}}}

module {
}
