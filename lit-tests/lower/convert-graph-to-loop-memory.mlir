// convert-graph-to-loop: where tensors live. Inputs are the argument buffers, a
// returned op result is computed straight into its output buffer, constants are
// constant buffers, and every other tensor gets a workspace buffer at an offset
// planned from lifetimes (64-byte aligned, largest first, lowest free offset), so the
// memory of dead tensors is reused. Returned inputs and constants, and a tensor
// returned twice, are copied into the output buffers at the end.
//
// RUN: %tcc-opt %s --split-input-file --pass-pipeline=convert-graph-to-loop | FileCheck %s

// A chain exp -> neg -> abs -> sqrt of 256-byte tensors. exp's result dies at neg, so
// abs's result reuses its memory; sqrt's result is returned and written into %arg1.
// CHECK-LABEL: func.func @main(%arg0: buffer<4x16xf32>, %arg1: buffer<4x16xf32>)
// CHECK-SAME: attributes {tcc.num_inputs = 1, tcc.workspace_size = 512}
// CHECK: [[T0:%[0-9]+]] = loop.workspace {offset = 0} : () -> buffer<4x16xf32>
// CHECK: loop.exp
// CHECK-NEXT: loop.store {{%[0-9]+}}, [[T0]]
// CHECK: [[T1:%[0-9]+]] = loop.workspace {offset = 256} : () -> buffer<4x16xf32>
// CHECK: loop.load [[T0]]
// CHECK-NEXT: loop.neg
// CHECK-NEXT: loop.store {{%[0-9]+}}, [[T1]]
// CHECK: [[T2:%[0-9]+]] = loop.workspace {offset = 0} : () -> buffer<4x16xf32>
// CHECK: loop.load [[T1]]
// CHECK-NEXT: loop.abs
// CHECK-NEXT: loop.store {{%[0-9]+}}, [[T2]]
// CHECK-NOT: loop.workspace
// CHECK: loop.load [[T2]]
// CHECK-NEXT: loop.sqrt
// CHECK-NEXT: loop.store {{%[0-9]+}}, %arg1
// CHECK-NOT: loop.for
// CHECK: return
func.func @main(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = graph.exp %x : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = graph.neg %0 : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = graph.abs %1 : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %3 = graph.sqrt %2 : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %3 : tensor<4x16xf32>
}

// -----

// Two 12-byte tensors alive together: each takes a 64-byte slot. An op's operands and
// results never share memory (%0 is still read by the add that ends its life).
// CHECK-LABEL: func.func @main(%arg0: buffer<3xf32>, %arg1: buffer<3xf32>)
// CHECK-SAME: tcc.workspace_size = 128
// CHECK: loop.workspace {offset = 0} : () -> buffer<3xf32>
// CHECK: loop.workspace {offset = 64} : () -> buffer<3xf32>
// CHECK-NOT: loop.workspace
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = graph.exp %x : (tensor<3xf32>) -> tensor<3xf32>
  %1 = graph.neg %0 : (tensor<3xf32>) -> tensor<3xf32>
  %2 = graph.add %0, %1 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %2 : tensor<3xf32>
}

// -----

// Sizes differ: the 1 KiB tensor is placed first; once it is dead, the small tensors
// reuse its memory. The reshape is a view of the sum's buffer, not a copy, so the
// sum's memory stays live until the view's last use.
// CHECK-LABEL: func.func @main(%arg0: buffer<16x16xf32>, %arg1: buffer<4xf32>, %arg2: buffer<4xf32>)
// CHECK-SAME: tcc.num_inputs = 2, tcc.workspace_size = 1088
// CHECK: loop.workspace {offset = 0} : () -> buffer<16x16xf32>
// CHECK: [[SUM:%[0-9]+]] = loop.workspace {offset = 1024} : () -> buffer<16xf32>
// CHECK: [[VIEW:%[0-9]+]] = loop.view [[SUM]] : (buffer<16xf32>) -> buffer<4x4xf32>
// CHECK: loop.workspace {offset = 0} : () -> buffer<4xf32>
// CHECK: load [[VIEW]]
// CHECK-NOT: loop.workspace
func.func @main(%x: tensor<16x16xf32>, %s: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.exp %x : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %1 = graph.reduce_sum %0 {axes = [1]} : (tensor<16x16xf32>) -> tensor<16xf32>
  %2 = graph.reshape %1 {shape = [4, 4]} : (tensor<16xf32>) -> tensor<4x4xf32>
  %3 = graph.reduce_max %2 {axes = [0]} : (tensor<4x4xf32>) -> tensor<4xf32>
  %4 = graph.add %3, %s : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}

// -----

// Views of views: the exp's memory lives until the last use of the second view (the
// add), so neither the neg's result nor the add's takes it. A reshape of an input views
// the argument buffer; a returned reshape is a copy into its output buffer.
// CHECK-LABEL: func.func @main(%arg0: buffer<8xf32>, %arg1: buffer<2x4xf32>, %arg2: buffer<8xf32>)
// CHECK-SAME: tcc.workspace_size = 192
// CHECK: [[E:%[0-9]+]] = loop.workspace {offset = 0} : () -> buffer<8xf32>
// CHECK: [[V1:%[0-9]+]] = loop.view [[E]] : (buffer<8xf32>) -> buffer<4x2xf32>
// CHECK: [[V2:%[0-9]+]] = loop.view [[V1]] : (buffer<4x2xf32>) -> buffer<2x4xf32>
// CHECK: loop.workspace {offset = 64} : () -> buffer<8xf32>
// CHECK: loop.workspace {offset = 128} : () -> buffer<2x4xf32>
// CHECK: loop.load [[V2]]
// CHECK: loop.view %arg0 : (buffer<8xf32>) -> buffer<2x4xf32>
// CHECK: loop.store {{%[0-9]+}}, %arg2
func.func @main(%x: tensor<8xf32>) -> (tensor<2x4xf32>, tensor<8xf32>) {
  %0 = graph.exp %x : (tensor<8xf32>) -> tensor<8xf32>
  %1 = graph.reshape %0 {shape = [4, 2]} : (tensor<8xf32>) -> tensor<4x2xf32>
  %2 = graph.reshape %1 {shape = [2, 4]} : (tensor<4x2xf32>) -> tensor<2x4xf32>
  %3 = graph.neg %x : (tensor<8xf32>) -> tensor<8xf32>
  %4 = graph.reshape %3 {shape = [2, 4]} : (tensor<8xf32>) -> tensor<2x4xf32>
  %5 = graph.add %2, %4 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %6 = graph.reshape %x {shape = [2, 4]} : (tensor<8xf32>) -> tensor<2x4xf32>
  %7 = graph.mul %5, %6 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %8 = graph.reshape %7 {shape = [8]} : (tensor<2x4xf32>) -> tensor<8xf32>
  return %7, %8 : tensor<2x4xf32>, tensor<8xf32>
}

// -----

// Every intermediate is returned: no workspace at all, both results are computed in
// their output buffers, and the second op reads the first's output buffer.
// CHECK-LABEL: func.func @main(%arg0: buffer<8xf32>, %arg1: buffer<8xf32>, %arg2: buffer<8xf32>)
// CHECK-SAME: tcc.num_inputs = 1, tcc.workspace_size = 0
// CHECK-NOT: loop.workspace
// CHECK: loop.exp
// CHECK-NEXT: loop.store {{%[0-9]+}}, %arg1
// CHECK: loop.load %arg1
// CHECK-NEXT: loop.neg
// CHECK-NEXT: loop.store {{%[0-9]+}}, %arg2
// CHECK-NOT: loop.for
// CHECK: return
func.func @main(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = graph.exp %x : (tensor<8xf32>) -> tensor<8xf32>
  %1 = graph.neg %0 : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Returning an input copies it; a tensor returned twice is computed into the first
// output and copied into the second; a returned constant is copied from its constant
// buffer. The copies come after the computation, in the order of the results.
// CHECK-LABEL: func.func @main(%arg0: buffer<3xf32>, %arg1: buffer<2x2xf32>, %arg2: buffer<3xf32>, %arg3: buffer<3xf32>, %arg4: buffer<2x2xf32>, %arg5: buffer<2xf32>)
// CHECK-SAME: tcc.num_inputs = 2, tcc.workspace_size = 0
// CHECK: [[K:%[0-9]+]] = loop.constant_buffer {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> buffer<2xf32>
// CHECK: loop.for [[I:%arg[0-9]+]] =
// CHECK-NEXT: loop.load %arg0{{\[}}[[I]]]
// CHECK-NEXT: loop.exp
// CHECK-NEXT: loop.store {{%[0-9]+}}, %arg2{{\[}}[[I]]]
// CHECK: loop.for [[J:%arg[0-9]+]] =
// CHECK-NEXT: [[V:%[0-9]+]] = loop.load %arg2{{\[}}[[J]]] : buffer<3xf32>
// CHECK-NEXT: loop.store [[V]], %arg3{{\[}}[[J]]] : buffer<3xf32>
// CHECK: loop.for [[A:%arg[0-9]+]] =
// CHECK-NEXT: loop.for [[B:%arg[0-9]+]] =
// CHECK-NEXT: [[Y:%[0-9]+]] = loop.load %arg1{{\[}}[[A]], [[B]]] : buffer<2x2xf32>
// CHECK-NEXT: loop.store [[Y]], %arg4{{\[}}[[A]], [[B]]] : buffer<2x2xf32>
// CHECK: loop.for [[C:%arg[0-9]+]] =
// CHECK-NEXT: [[W:%[0-9]+]] = loop.load [[K]]{{\[}}[[C]]] : buffer<2xf32>
// CHECK-NEXT: loop.store [[W]], %arg5{{\[}}[[C]]] : buffer<2xf32>
// CHECK-NOT: loop.store
// CHECK: return
func.func @main(%x: tensor<3xf32>, %y: tensor<2x2xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<2x2xf32>, tensor<2xf32>) {
  %c = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = graph.exp %x : (tensor<3xf32>) -> tensor<3xf32>
  return %0, %0, %y, %c : tensor<3xf32>, tensor<3xf32>, tensor<2x2xf32>, tensor<2xf32>
}

// -----

// The identity model: a single copy loop, no workspace.
// CHECK-LABEL: func.func @main(%arg0: buffer<2x3xi64>, %arg1: buffer<2x3xi64>)
// CHECK-SAME: tcc.num_inputs = 1, tcc.workspace_size = 0
// CHECK-NOT: loop.workspace
// CHECK: loop.for [[I:%arg[0-9]+]] =
// CHECK-NEXT: loop.for [[J:%arg[0-9]+]] =
// CHECK-NEXT: [[V:%[0-9]+]] = loop.load %arg0{{\[}}[[I]], [[J]]] : buffer<2x3xi64>
// CHECK-NEXT: loop.store [[V]], %arg1{{\[}}[[I]], [[J]]] : buffer<2x3xi64>
func.func @main(%x: tensor<2x3xi64>) -> tensor<2x3xi64> {
  return %x : tensor<2x3xi64>
}

// -----

// A model that is not called @main is lowered to @main when it is the only function.
// CHECK-LABEL: func.func @main(%arg0: buffer<2xf32>, %arg1: buffer<2xf32>)
// CHECK-NOT: @model
func.func @model(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = graph.relu %x : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
