// tcc-opt --list-rules lists every compiled rewrite rule with its use, where it is
// written and its provenance.
//
// RUN: %tcc-opt --list-rules | FileCheck %s
// CHECK-DAG: transpose-of-transpose canonical dialects/graph/rules/canonical/transpose.rules:{{[0-9]+}} (hand-written)
// CHECK-DAG: add-zero-right {{ +}}canonical dialects/graph/rules/canonical/arith.rules:{{[0-9]+}} (hand-written)
// CHECK-DAG: merge-matmuls-sharing-lhs search {{ +}}dialects/graph/rules/search/merge.rules:{{[0-9]+}} (hand-written)
