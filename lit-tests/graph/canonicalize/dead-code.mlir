// Dead-code removal in canonicalize: pure ops whose results are all unused are
// erased, transitively; terminators, ops with a use and ops of unknown effect stay.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @dead_chain(%arg0: tensor<4xf32>)
// CHECK-NEXT: return %arg0 : tensor<4xf32>
// CHECK-NEXT: }
func.func @dead_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = graph.constant {value = dense<2.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = graph.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.mul %0, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.exp %1 : (tensor<4xf32>) -> tensor<4xf32>
  %3:2 = graph.split %2 {axis = 0, sizes = [1, 3]} : (tensor<4xf32>) -> (tensor<1xf32>, tensor<3xf32>)
  return %x : tensor<4xf32>
}

// Live ops stay, dead ones in between go; a multi-result op with one used result is
// live.
// CHECK-LABEL: func.func @partly_dead(%arg0: tensor<4xf32>)
// CHECK-NEXT: %0 = graph.relu %arg0 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %1:2 = graph.split %0 {axis = 0, sizes = [1, 3]} : (tensor<4xf32>) -> (tensor<1xf32>, tensor<3xf32>)
// CHECK-NEXT: return %1#1 : tensor<3xf32>
// CHECK-NEXT: }
func.func @partly_dead(%x: tensor<4xf32>) -> tensor<3xf32> {
  %0 = graph.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %dead = graph.tanh %0 : (tensor<4xf32>) -> tensor<4xf32>
  %1:2 = graph.split %0 {axis = 0, sizes = [1, 3]} : (tensor<4xf32>) -> (tensor<1xf32>, tensor<3xf32>)
  %dead2 = graph.neg %1#0 : (tensor<1xf32>) -> tensor<1xf32>
  return %1#1 : tensor<3xf32>
}

// Unregistered ops may have side effects: they stay, and so do the ops they use.
// CHECK-LABEL: func.func @unknown_effects(%arg0: tensor<4xf32>)
// CHECK-NEXT: %0 = graph.sqrt %arg0 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: "test.print"(%0) : (tensor<4xf32>) -> ()
// CHECK-NEXT: %1 = "test.unused_result"() : () -> tensor<4xf32>
// CHECK-NEXT: return
// CHECK-NEXT: }
func.func @unknown_effects(%x: tensor<4xf32>) {
  %0 = graph.sqrt %x : (tensor<4xf32>) -> tensor<4xf32>
  "test.print"(%0) : (tensor<4xf32>) -> ()
  %1 = "test.unused_result"() : () -> tensor<4xf32>
  %2 = graph.floor %x : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// Ops inside regions of other ops are cleaned up too.
// CHECK-LABEL: func.func @in_region(%arg0: tensor<4xf32>)
// CHECK-NEXT: "test.region"() ({
// CHECK-NEXT: %0 = graph.ceil %arg0 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: "test.yield"(%0) : (tensor<4xf32>) -> ()
// CHECK-NEXT: }) : () -> ()
// CHECK-NEXT: return
func.func @in_region(%x: tensor<4xf32>) {
  "test.region"() ({
    %dead = graph.erf %x : (tensor<4xf32>) -> tensor<4xf32>
    %0 = graph.ceil %x : (tensor<4xf32>) -> tensor<4xf32>
    "test.yield"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
  return
}

// Functions are never erased, even when unused; their arguments stay.
// CHECK-LABEL: func.func private @unused_declaration(tensor<4xf32>)
// CHECK-LABEL: func.func @unused_function(%arg0: tensor<4xf32>, %arg1: tensor<4xi32>)
// CHECK-NEXT: return
func.func private @unused_declaration(tensor<4xf32>)
func.func @unused_function(%x: tensor<4xf32>, %y: tensor<4xi32>) {
  %0 = graph.abs %y : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// CHECK-NOT: graph.tanh
// CHECK-NOT: graph.erf
