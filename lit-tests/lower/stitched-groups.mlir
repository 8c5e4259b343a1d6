// Stitched fusion groups lowered (convert-graph-to-loop with 512-bit vectors): one
// loop over the rows, per row one loop per set of independent reductions, then one for
// the result. Short rows go in pairs, their loops interleaved. A row whose innermost
// dimension is too short for vectors (a group norm on NCHW4c reduces [H, W, 4]) is
// walked as one run through a flat view of its buffers, and a per-channel value that
// repeats along the run is a vector built once per row from its scalars.
//
// RUN: %tcc-opt %s --split-input-file --pass-pipeline='convert-graph-to-loop{vector-bits=512}' | FileCheck %s

// A softmax over rows of 128: rows in pairs; the max loop, then the exp-and-sum loop
// (which keeps exp in the result buffer), then the scaling loop reading it back.
// CHECK-LABEL: func.func @main(%arg0: buffer<4x128xf32>, %arg1: buffer<4x128xf32>)
// CHECK: loop.for [[P:%arg[0-9]+]] =
// CHECK: [[R0:%[0-9]+]] = loop.mul [[P]]
// CHECK: [[R1:%[0-9]+]] = loop.add [[R0]]
// CHECK: loop.for
// CHECK: vector.load %arg0{{\[}}[[R0]], {{%[0-9]+}}]
// CHECK-NEXT: loop.max
// CHECK-NEXT: vector.load %arg0{{\[}}[[R1]], {{%[0-9]+}}]
// CHECK-NEXT: loop.max
// CHECK: vector.reduce {{%[0-9]+}} {kind = "max"}
// CHECK: loop.for
// CHECK: loop.exp
// CHECK-NEXT: vector.store {{%[0-9]+}}, %arg1{{\[}}[[R0]],
// CHECK-NEXT: loop.add
// CHECK: vector.reduce {{%[0-9]+}} {kind = "add"}
// CHECK: loop.for
// CHECK: vector.load %arg1{{\[}}[[R0]],
// CHECK-NEXT: vector.splat
// CHECK-NEXT: loop.mul
// CHECK-NEXT: vector.store {{%[0-9]+}}, %arg1{{\[}}[[R0]],
func.func @main(%x: tensor<4x128xf32>) -> tensor<4x128xf32> {
  %r = graph.fused %x : (tensor<4x128xf32>) -> tensor<4x128xf32> ({
  ^bb0(%a: tensor<4x128xf32>):
    %m = graph.reduce_max %a {axes = [1], keepdims = true} : (tensor<4x128xf32>) -> tensor<4x1xf32>
    %d = graph.sub %a, %m : (tensor<4x128xf32>, tensor<4x1xf32>) -> tensor<4x128xf32>
    %e = graph.exp %d : (tensor<4x128xf32>) -> tensor<4x128xf32>
    %s = graph.reduce_sum %e {axes = [1], keepdims = true} : (tensor<4x128xf32>) -> tensor<4x1xf32>
    %i = graph.reciprocal %s : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %y = graph.mul %e, %i : (tensor<4x128xf32>, tensor<4x1xf32>) -> tensor<4x128xf32>
    graph.yield %y : tensor<4x128xf32>
  })
  return %r : tensor<4x128xf32>
}

// -----

// A masked softmax's test for rows all minus infinity (as torch-mlir exports BERT's
// attention): the comparison's 0 or 1 as i32, reduced with min, is vectors of i32 as
// wide as the compared floats, in the max loop.
// CHECK-LABEL: func.func @main(%arg0: buffer<4x128xf32>, %arg1: buffer<4x128xf32>)
// CHECK: loop.for
// CHECK: [[X:%[0-9]+]] = vector.load %arg0{{\[}}{{%[0-9]+}}, {{%[0-9]+}}] : buffer<4x128xf32>, vector<16xf32>
// CHECK-NEXT: loop.max {{%arg[0-9]+}}, [[X]] : vector<16xf32>
// CHECK: [[M:%[0-9]+]] = loop.cmp [[X]], {{%[0-9]+}} {pred = "eq"} : (vector<16xf32>, vector<16xf32>) -> vector<16xi1>
// CHECK-NEXT: [[I:%[0-9]+]] = loop.cast [[M]] : (vector<16xi1>) -> vector<16xi32>
// CHECK-NEXT: loop.min {{%arg[0-9]+}}, [[I]] : vector<16xi32>
// CHECK: vector.reduce {{%[0-9]+}} {kind = "min"} : (vector<16xi32>) -> i32
func.func @main(%x: tensor<4x128xf32>) -> tensor<4x128xf32> {
  %ninf = graph.constant {value = dense<0xFF800000> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %zero = graph.constant {value = dense<0.0> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %r = graph.fused %x, %ninf, %zero : (tensor<4x128xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<4x128xf32> ({
  ^bb0(%a: tensor<4x128xf32>, %n: tensor<1x1xf32>, %z: tensor<1x1xf32>):
    %m = graph.reduce_max %a {axes = [1], keepdims = true} : (tensor<4x128xf32>) -> tensor<4x1xf32>
    %d = graph.sub %a, %m : (tensor<4x128xf32>, tensor<4x1xf32>) -> tensor<4x128xf32>
    %e = graph.exp %d : (tensor<4x128xf32>) -> tensor<4x128xf32>
    %s = graph.reduce_sum %e {axes = [1], keepdims = true} : (tensor<4x128xf32>) -> tensor<4x1xf32>
    %i = graph.reciprocal %s : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %y = graph.mul %e, %i : (tensor<4x128xf32>, tensor<4x1xf32>) -> tensor<4x128xf32>
    %q = graph.equal %a, %n : (tensor<4x128xf32>, tensor<1x1xf32>) -> tensor<4x128xi1>
    %c = graph.cast %q : (tensor<4x128xi1>) -> tensor<4x128xi32>
    %all = graph.reduce_min %c {axes = [1], keepdims = true} : (tensor<4x128xi32>) -> tensor<4x1xi32>
    %b = graph.cast %all : (tensor<4x1xi32>) -> tensor<4x1xi1>
    %o = graph.select %b, %z, %y : (tensor<4x1xi1>, tensor<1x1xf32>, tensor<4x128xf32>) -> tensor<4x128xf32>
    graph.yield %o : tensor<4x128xf32>
  })
  return %r : tensor<4x128xf32>
}

// -----

// A group norm on NCHW4c, rows [4, 4, 4]: the buffers seen as [1, 2, 64], vectors of 16
// along the run; gamma ([1, 2, 1, 1, 4]) scaled by the row's rsqrt at each of its 4
// phases, repeated into a vector of 16 once per row.
// CHECK-LABEL: func.func @main(%arg0: buffer<1x2x4x4x4xf32>, %arg1: buffer<1x2x1x1x4xf32>, %arg2: buffer<1x2x4x4x4xf32>)
// CHECK: [[FLAT:%[0-9]+]] = loop.view %arg0 : (buffer<1x2x4x4x4xf32>) -> buffer<1x2x64xf32>
// CHECK: vector.load [[FLAT]]{{.*}} : buffer<1x2x64xf32>, vector<16xf32>
// CHECK: loop.fma
// CHECK: [[RS:%[0-9]+]] = loop.rsqrt
// CHECK: [[G0:%[0-9]+]] = loop.load %arg1
// CHECK-NEXT: [[S0:%[0-9]+]] = loop.mul [[RS]], [[G0]] : f32
// CHECK-NEXT: [[G1:%[0-9]+]] = loop.load %arg1
// CHECK-NEXT: [[S1:%[0-9]+]] = loop.mul [[RS]], [[G1]] : f32
// CHECK: [[V:%[0-9]+]] = vector.splat [[S0]] : (f32) -> vector<16xf32>
// CHECK-NEXT: vector.insert [[S1]], [[V]] {index = 1}
// CHECK: vector.insert [[S1]], {{%[0-9]+}} {index = 13}
// CHECK: [[OUT:%[0-9]+]] = loop.view %arg2 : (buffer<1x2x4x4x4xf32>) -> buffer<1x2x64xf32>
// CHECK: vector.store {{%[0-9]+}}, [[OUT]]
func.func @main(%x: tensor<1x2x4x4x4xf32>, %gamma: tensor<1x2x1x1x4xf32>) -> tensor<1x2x4x4x4xf32> {
  %r = graph.fused %x, %gamma : (tensor<1x2x4x4x4xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x4x4x4xf32> ({
  ^bb0(%a: tensor<1x2x4x4x4xf32>, %g: tensor<1x2x1x1x4xf32>):
    %m = graph.reduce_mean %a {axes = [2, 3, 4], keepdims = true} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x1x1x1xf32>
    %d = graph.sub %a, %m : (tensor<1x2x4x4x4xf32>, tensor<1x2x1x1x1xf32>) -> tensor<1x2x4x4x4xf32>
    %sq = graph.mul %d, %d : (tensor<1x2x4x4x4xf32>, tensor<1x2x4x4x4xf32>) -> tensor<1x2x4x4x4xf32>
    %v = graph.reduce_mean %sq {axes = [2, 3, 4], keepdims = true} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x1x1x1xf32>
    %rs = graph.rsqrt %v : (tensor<1x2x1x1x1xf32>) -> tensor<1x2x1x1x1xf32>
    %sc = graph.mul %rs, %g : (tensor<1x2x1x1x1xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x1x1x4xf32>
    %y = graph.mul %d, %sc : (tensor<1x2x4x4x4xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x4x4x4xf32>
    graph.yield %y : tensor<1x2x4x4x4xf32>
  })
  return %r : tensor<1x2x4x4x4xf32>
}
