// convert-graph-to-loop: the outermost loop of an op runs on the thread pool
// (loop.parallel) when the op does at least 2^15 element operations (transcendental
// functions count 16 each), and sequentially otherwise. A long 1-D loop is cut into
// blocks of 2048 so it can run in parallel too. Parallel loops are never nested.
//
// RUN: %tcc-opt %s --split-input-file --pass-pipeline=convert-graph-to-loop | FileCheck %s

// Same shape, 2048 elements: exp (cost 16, 32768 >= 2^15) is parallel over the rows,
// neg (cost 1) is not.
// CHECK-LABEL: func.func @main(%arg0: buffer<2x1024xf32>, %arg1: buffer<2x1024xf32>, %arg2: buffer<2x1024xf32>)
// CHECK-DAG: [[C0:%[0-9]+]] = loop.const 0 : index
// CHECK-DAG: [[C2:%[0-9]+]] = loop.const 2 : index
// CHECK-DAG: [[C1024:%[0-9]+]] = loop.const 1024 : index
// CHECK: loop.parallel [[R:%arg[0-9]+]] = [[C0]] to [[C2]] {
// CHECK-NEXT: loop.for [[J:%arg[0-9]+]] = [[C0]] to [[C1024]] step
// CHECK-NEXT: loop.load %arg0{{\[}}[[R]], [[J]]]
// CHECK-NEXT: loop.exp
// CHECK-NEXT: loop.store {{%[0-9]+}}, %arg1{{\[}}[[R]], [[J]]]
// CHECK: loop.for [[R2:%arg[0-9]+]] = [[C0]] to [[C2]] step
// CHECK-NEXT: loop.for [[J2:%arg[0-9]+]] = [[C0]] to [[C1024]] step
// CHECK-NEXT: loop.load %arg0{{\[}}[[R2]], [[J2]]]
// CHECK-NEXT: loop.neg
// CHECK-NOT: loop.parallel
func.func @main(%x: tensor<2x1024xf32>) -> (tensor<2x1024xf32>, tensor<2x1024xf32>) {
  %0 = graph.exp %x : (tensor<2x1024xf32>) -> tensor<2x1024xf32>
  %1 = graph.neg %x : (tensor<2x1024xf32>) -> tensor<2x1024xf32>
  return %0, %1 : tensor<2x1024xf32>, tensor<2x1024xf32>
}

// -----

// The threshold: 32 x 1024 additions are parallel, 31 x 1024 are not.
// CHECK-LABEL: func.func @main(%arg0: buffer<32x1024xf32>, %arg1: buffer<31x1024xf32>, %arg2: buffer<32x1024xf32>, %arg3: buffer<31x1024xf32>)
// CHECK-DAG: [[C31:%[0-9]+]] = loop.const 31 : index
// CHECK-DAG: [[C32:%[0-9]+]] = loop.const 32 : index
// CHECK: loop.parallel {{%arg[0-9]+}} = {{%[0-9]+}} to [[C32]] {
// CHECK: loop.add
// CHECK: loop.for {{%arg[0-9]+}} = {{%[0-9]+}} to [[C31]] step
// CHECK: loop.add
// CHECK-NOT: loop.parallel
func.func @main(%x: tensor<32x1024xf32>, %y: tensor<31x1024xf32>) -> (tensor<32x1024xf32>, tensor<31x1024xf32>) {
  %0 = graph.add %x, %x : (tensor<32x1024xf32>, tensor<32x1024xf32>) -> tensor<32x1024xf32>
  %1 = graph.add %y, %y : (tensor<31x1024xf32>, tensor<31x1024xf32>) -> tensor<31x1024xf32>
  return %0, %1 : tensor<32x1024xf32>, tensor<31x1024xf32>
}

// -----

// A long 1-D loop: 3 blocks of 2048, the last one cut at 5000.
// CHECK-LABEL: func.func @main(%arg0: buffer<5000xf32>, %arg1: buffer<5000xf32>)
// CHECK-DAG: [[C0:%[0-9]+]] = loop.const 0 : index
// CHECK-DAG: [[C3:%[0-9]+]] = loop.const 3 : index
// CHECK-DAG: [[C2048:%[0-9]+]] = loop.const 2048 : index
// CHECK-DAG: [[C5000:%[0-9]+]] = loop.const 5000 : index
// CHECK: loop.parallel [[B:%arg[0-9]+]] = [[C0]] to [[C3]] {
// CHECK-NEXT: [[LO:%[0-9]+]] = loop.mul [[B]], [[C2048]] : index
// CHECK-NEXT: [[END:%[0-9]+]] = loop.add [[LO]], [[C2048]] : index
// CHECK-NEXT: [[HI:%[0-9]+]] = loop.min [[END]], [[C5000]] : index
// CHECK-NEXT: loop.for [[I:%arg[0-9]+]] = [[LO]] to [[HI]] step
// CHECK-NEXT: loop.load %arg0{{\[}}[[I]]]
// CHECK-NEXT: loop.exp
// CHECK-NEXT: loop.store {{%[0-9]+}}, %arg1{{\[}}[[I]]]
func.func @main(%x: tensor<5000xf32>) -> tensor<5000xf32> {
  %0 = graph.exp %x : (tensor<5000xf32>) -> tensor<5000xf32>
  return %0 : tensor<5000xf32>
}

// -----

// A short 1-D loop of cheap work stays one sequential loop.
// CHECK-LABEL: func.func @main(%arg0: buffer<8192xf32>, %arg1: buffer<8192xf32>)
// CHECK-NOT: loop.parallel
// CHECK: loop.for
// CHECK-NOT: loop.parallel
func.func @main(%x: tensor<8192xf32>) -> tensor<8192xf32> {
  %0 = graph.neg %x : (tensor<8192xf32>) -> tensor<8192xf32>
  return %0 : tensor<8192xf32>
}

// -----

// Matmul: 16 rows x 64 columns x 32 products = 32768, parallel over the rows, with
// the k and j loops sequential inside.
// CHECK-LABEL: func.func @main(%arg0: buffer<16x32xf32>, %arg1: buffer<32x64xf32>, %arg2: buffer<16x64xf32>)
// CHECK-DAG: [[C16:%[0-9]+]] = loop.const 16 : index
// CHECK: loop.parallel [[I:%arg[0-9]+]] = {{%[0-9]+}} to [[C16]] {
// CHECK-NOT: loop.parallel
// CHECK: loop.load %arg0{{\[}}[[I]],
// CHECK-NOT: loop.parallel
// CHECK: loop.fma
// CHECK-NOT: loop.parallel
func.func @main(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>) -> tensor<16x64xf32> {
  %0 = graph.matmul %a, %b : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}

// -----

// A single-row matmul never runs in parallel, however much work it does.
// CHECK-LABEL: func.func @main(%arg0: buffer<1x256xf32>, %arg1: buffer<256x256xf32>, %arg2: buffer<1x256xf32>)
// CHECK-NOT: loop.parallel
// CHECK: loop.fma
func.func @main(%a: tensor<1x256xf32>, %b: tensor<256x256xf32>) -> tensor<1x256xf32> {
  %0 = graph.matmul %a, %b : (tensor<1x256xf32>, tensor<256x256xf32>) -> tensor<1x256xf32>
  return %0 : tensor<1x256xf32>
}

// -----

// The reference nest of a conv2d (f64) sends its rows (n, o, y) to the pool when the
// multiply-adds are many.
// CHECK-LABEL: func.func @main(%arg0: buffer<1x8x16x16xf64>, %arg1: buffer<8x8x3x3xf64>, %arg2: buffer<1x8x16x16xf64>)
// CHECK-DAG: [[C128:%[0-9]+]] = loop.const 128 : index
// CHECK: loop.parallel {{%arg[0-9]+}} = {{%[0-9]+}} to [[C128]] {
// CHECK-NOT: loop.parallel
// CHECK: loop.fma
func.func @main(%x: tensor<1x8x16x16xf64>, %w: tensor<8x8x3x3xf64>) -> tensor<1x8x16x16xf64> {
  %0 = graph.conv2d %x, %w {strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], groups = 1} : (tensor<1x8x16x16xf64>, tensor<8x8x3x3xf64>) -> tensor<1x8x16x16xf64>
  return %0 : tensor<1x8x16x16xf64>
}

// -----

// Too few rows for the pool (one), and a long one: the row is split in chunks, one
// parallel task each (4096 steps of 16 elements in 8 chunks of 512), each leaving its
// partial sum in scratch memory of the workspace; the row then combines them in order.
// CHECK-LABEL: func.func @main(%arg0: buffer<1x65536xf32>, %arg1: buffer<1x1xf32>)
// CHECK-SAME: tcc.workspace_size = 64
// CHECK: [[P:%[0-9]+]] = loop.workspace {offset = 0} : () -> buffer<8xf32>
// CHECK: loop.parallel [[C:%arg[0-9]+]] =
// CHECK: [[LO:%[0-9]+]] = loop.mul [[C]]
// CHECK: [[HI:%[0-9]+]] = loop.min
// CHECK: loop.for {{%arg[0-9]+}} = [[LO]] to [[HI]]
// CHECK: vector.reduce
// CHECK: loop.store {{%[0-9]+}}, [[P]]{{\[}}[[C]]]
// CHECK: loop.load [[P]]
// CHECK-COUNT-7: loop.load [[P]]
// CHECK: loop.store {{%[0-9]+}}, %arg1
func.func @main(%x: tensor<1x65536xf32>) -> tensor<1x1xf32> {
  %0 = graph.reduce_sum %x {axes = [1], keepdims = true} : (tensor<1x65536xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}
