// An input with no operations (only comments, or nothing at all) is an empty module,
// and an explicit empty module prints the same way.
//
// RUN: %tcc-opt %s | FileCheck %s
// RUN: %tcc-opt %s | %tcc-opt | FileCheck %s
// RUN: printf '' | %tcc-opt - | FileCheck %s
// RUN: printf 'module {\n}\n' | %tcc-opt - | FileCheck %s
// RUN: printf 'module {}' | %tcc-opt - | FileCheck %s

// CHECK: {{^}}module {
// CHECK-NEXT: {{^}}}
// CHECK-NOT: {{.}}
