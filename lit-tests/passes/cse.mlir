// The cse pass: equal pure ops (same kind, operands, attributes and result types) are
// merged into the first one when it is visible; nothing else is changed (cse does not
// remove dead code).
//
// RUN: %tcc-opt %s --pass-pipeline=cse --allow-unregistered-dialect | FileCheck %s

// Equal ops merge, and so do the ops that become equal once their operands are merged.
// CHECK-LABEL: func.func @merge(%arg0: tensor<4xf32>)
// CHECK-NEXT: %0 = graph.relu %arg0 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %1 = graph.exp %0 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %2 = graph.add %1, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %2, %0 : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
func.func @merge(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = graph.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.exp %0 : (tensor<4xf32>) -> tensor<4xf32>
  %3 = graph.exp %1 : (tensor<4xf32>) -> tensor<4xf32>
  %4 = graph.add %2, %3 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %4, %1 : tensor<4xf32>, tensor<4xf32>
}

// Equal constants merge (dense attributes compare by value, whatever their spelling:
// a list of equal elements, a splat, hex); different values do not.
// CHECK-LABEL: func.func @constants()
// CHECK-NEXT: %0 = graph.constant {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT: %1 = graph.constant {value = dense<2.0> : tensor<2xf32>} : () -> tensor<2xf32>
// CHECK-NEXT: %2 = graph.constant {value = dense<1.0> : tensor<2xf64>} : () -> tensor<2xf64>
// CHECK-NEXT: return %0, %0, %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf64>
// CHECK-NEXT: }
func.func @constants() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf64>) {
  %0 = graph.constant {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = graph.constant {value = dense<[1.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = graph.constant {value = dense<"0x0000803F0000803F"> : tensor<2xf32>} : () -> tensor<2xf32>
  %3 = graph.constant {value = dense<2.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %4 = graph.constant {value = dense<1.0> : tensor<2xf64>} : () -> tensor<2xf64>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf64>
}

// Different attributes, operands or result types keep ops apart. An absent optional
// attribute is not the same attribute as its default spelled out.
// CHECK-LABEL: func.func @different(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>)
// CHECK-NEXT: %0 = graph.softmax %arg0 {axis = 0}
// CHECK-NEXT: %1 = graph.softmax %arg0 {axis = 1}
// CHECK-NEXT: %2 = graph.softmax %arg1 {axis = 0}
// CHECK-NEXT: %3 = graph.cast %arg0 : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK-NEXT: %4 = graph.cast %arg0 : (tensor<2x3xf32>) -> tensor<2x3xi64>
// CHECK-NEXT: %5 = graph.gelu %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %6 = graph.gelu %arg0 {approximate = "none"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %7 = graph.sub %arg0, %arg1
// CHECK-NEXT: %8 = graph.sub %arg1, %arg0
// CHECK-NEXT: return %0, %1, %2, %3, %4, %5, %6, %7, %8 :
func.func @different(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xi64>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = graph.softmax %x {axis = 0} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = graph.softmax %x {axis = 1} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = graph.softmax %y {axis = 0} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = graph.cast %x : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %4 = graph.cast %x : (tensor<2x3xf32>) -> tensor<2x3xi64>
  %5 = graph.gelu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = graph.gelu %x {approximate = "none"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = graph.sub %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %8 = graph.sub %y, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3xi64>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// Multi-result ops merge as a whole; uses of every result are redirected.
// CHECK-LABEL: func.func @multi_result(%arg0: tensor<4xf32>)
// CHECK-NEXT: %0:2 = graph.split %arg0 {axis = 0, sizes = [1, 3]}
// CHECK-NEXT: return %0#1, %0#0, %0#1 :
// CHECK-NEXT: }
func.func @multi_result(%x: tensor<4xf32>) -> (tensor<3xf32>, tensor<1xf32>, tensor<3xf32>) {
  %0:2 = graph.split %x {axis = 0, sizes = [1, 3]} : (tensor<4xf32>) -> (tensor<1xf32>, tensor<3xf32>)
  %1:2 = graph.split %x {axis = 0, sizes = [1, 3]} : (tensor<4xf32>) -> (tensor<1xf32>, tensor<3xf32>)
  return %0#1, %1#0, %1#1 : tensor<3xf32>, tensor<1xf32>, tensor<3xf32>
}

// Functions are isolated: equal constants in two functions are not merged.
// CHECK-LABEL: func.func @first()
// CHECK-NEXT: %0 = graph.constant {value = dense<3> : tensor<2xi32>}
// CHECK-NEXT: return %0
// CHECK-LABEL: func.func @second()
// CHECK-NEXT: %0 = graph.constant {value = dense<3> : tensor<2xi32>}
// CHECK-NEXT: return %0
func.func @first() -> tensor<2xi32> {
  %0 = graph.constant {value = dense<3> : tensor<2xi32>} : () -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
func.func @second() -> tensor<2xi32> {
  %0 = graph.constant {value = dense<3> : tensor<2xi32>} : () -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// Regions: an op inside a region merges with an equal op of an enclosing block that
// comes before it; equal ops in sibling regions stay apart, and an op after the region
// does not merge with one inside it.
// CHECK-LABEL: func.func @regions(%arg0: tensor<4xf32>)
// CHECK-NEXT: %0 = graph.neg %arg0
// CHECK-NEXT: "test.region"() ({
// CHECK-NEXT: %1 = graph.abs %arg0
// CHECK-NEXT: "test.use"(%0, %1, %1)
// CHECK-NEXT: }, {
// CHECK-NEXT: %2 = graph.abs %arg0
// CHECK-NEXT: "test.use"(%2)
// CHECK-NEXT: }) : () -> ()
// CHECK-NEXT: %3 = graph.abs %arg0
// CHECK-NEXT: return %0, %3 :
// CHECK-NEXT: }
func.func @regions(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = graph.neg %x : (tensor<4xf32>) -> tensor<4xf32>
  "test.region"() ({
    %1 = graph.neg %x : (tensor<4xf32>) -> tensor<4xf32>
    %2 = graph.abs %x : (tensor<4xf32>) -> tensor<4xf32>
    %3 = graph.abs %x : (tensor<4xf32>) -> tensor<4xf32>
    "test.use"(%1, %2, %3) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> ()
  }, {
    %4 = graph.abs %x : (tensor<4xf32>) -> tensor<4xf32>
    "test.use"(%4) : (tensor<4xf32>) -> ()
  }) : () -> ()
  %5 = graph.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %5 : tensor<4xf32>, tensor<4xf32>
}

// Ops of unknown effect are never merged.
// CHECK-LABEL: func.func @unregistered()
// CHECK-NEXT: %0 = "test.random"() : () -> tensor<4xf32>
// CHECK-NEXT: %1 = "test.random"() : () -> tensor<4xf32>
// CHECK-NEXT: return %0, %1
func.func @unregistered() -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "test.random"() : () -> tensor<4xf32>
  %1 = "test.random"() : () -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// cse leaves dead ops alone (that is canonicalize's job), merged or not.
// CHECK-LABEL: func.func @dead(%arg0: tensor<4xf32>)
// CHECK-NEXT: %0 = graph.tanh %arg0
// CHECK-NEXT: return %arg0
func.func @dead(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  return %x : tensor<4xf32>
}
