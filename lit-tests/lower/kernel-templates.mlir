// The kernel templates at loop level: register tiles as loop-carried vectors.
// RUN: %tcc-opt %s --split-input-file --pass-pipeline='convert-graph-to-loop{vector-bits=128}' | FileCheck %s

// A 3x3 conv, tile 6 columns x 2 blocks: a parallel loop over (block pair, row), the
// 12 accumulators carried through the loops over input-channel blocks, kernel rows and
// (kernel column x input channel); each step loads two filter vectors, broadcasts an
// input element per column and issues 12 FMAs; each output vector is stored once.
// CHECK-LABEL: func.func @main
// CHECK: loop.view %arg1 : (buffer<4x4x3x3x4x4xf32>) -> buffer<4x4x3x12x4xf32>
// CHECK: loop.parallel
// CHECK: %{{[0-9]+}}:12 = loop.for {{.*}} iter_args({{.*}}) -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// The row's first tile spans its left edge: kernel columns unrolled, each skipping the
// columns it does not reach.
// CHECK: vector.load %arg1[{{.*}}] {readonly = true} : buffer<4x4x3x3x4x4xf32>, vector<4xf32>
// CHECK: vector.store {{.*}} : buffer<1x4x14x14x4xf32>, vector<4xf32>
// Interior tiles: one loop over kernel column x input channel, through row views.
// CHECK: vector.load {{.*}} {readonly = true} : buffer<4x4x3x12x4xf32>, vector<4xf32>
// CHECK: loop.load {{.*}} {readonly = true} : buffer<1x4x14x56xf32>
// CHECK-NEXT: vector.splat
// CHECK-NEXT: loop.fma
// CHECK-NEXT: loop.fma
func.func @main(%x: tensor<1x4x14x14x4xf32>, %w: tensor<4x4x3x3x4x4xf32>) -> tensor<1x4x14x14x4xf32> {
  %y = graph.conv2d_nchwc %x, %w {pads = [1, 1, 1, 1], config = {template = "direct", tile_w = 6, tile_oc = 2}}
     : (tensor<1x4x14x14x4xf32>, tensor<4x4x3x3x4x4xf32>) -> tensor<1x4x14x14x4xf32>
  return %y : tensor<1x4x14x14x4xf32>
}

// -----

// Packing an activation into NCHW4c transposes 4x4 tiles in registers: two rounds of
// lane interleaving.
// CHECK-LABEL: func.func @main
// CHECK: vector.load
// CHECK: vector.shuffle {{.*}} {mask = [0, 4, 1, 5]}
// CHECK: vector.shuffle {{.*}} {mask = [2, 6, 3, 7]}
// CHECK: vector.store
func.func @main(%x: tensor<1x8x2x8xf32>) -> tensor<1x2x2x8x4xf32> {
  %y = graph.layout_transform %x {src = "NCHW", dst = "NCHW4c"} : (tensor<1x8x2x8xf32>) -> tensor<1x2x2x8x4xf32>
  return %y : tensor<1x2x2x8x4xf32>
}

// -----

// Adding a unit block keeps the element order: a flat copy.
// CHECK-LABEL: func.func @main
// CHECK: loop.view %arg0 : (buffer<1x3x4x4xf32>) -> buffer<48xf32>
// CHECK-NOT: loop.div
func.func @main(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4x1xf32> {
  %y = graph.layout_transform %x {src = "NCHW", dst = "NCHW1c"} : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4x1xf32>
  return %y : tensor<1x3x4x4x1xf32>
}

// -----

// The row template (graph.conv2d in NCHW, groups of 3 channels): a task per output row
// of a tile of 3 channels (one group) x 3 vectors of 4 pixels, 9 accumulators carried
// through the loops over the group's input channels and the kernel rows. Each step
// loads the pixel vectors once per kernel column (stride 2: two loads, the second one
// element early, and a shuffle) and broadcasts one weight per channel for 3 FMAs.
// CHECK-LABEL: func.func @main
// CHECK: loop.parallel {{%arg[0-9]+}} = {{%[0-9]+}} to {{%[0-9]+}} {
// CHECK: %{{[0-9]+}}:9 = loop.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// CHECK: %{{[0-9]+}}:9 = loop.for
// CHECK-NEXT: loop.add
// CHECK-NEXT: [[A:%[0-9]+]] = vector.load %arg0[{{.*}}] {readonly = true} : buffer<1x6x9x33xf32>, vector<4xf32>
// CHECK-NEXT: [[B:%[0-9]+]] = vector.load %arg0[{{.*}}] {readonly = true} : buffer<1x6x9x33xf32>, vector<4xf32>
// CHECK-NEXT: vector.shuffle [[A]], [[B]] {mask = [0, 2, 5, 7]}
// CHECK: loop.load %arg1[{{.*}}] {readonly = true} : buffer<6x3x3x3xf32>
// CHECK-NEXT: vector.splat
// CHECK-NEXT: loop.fma
// CHECK-NEXT: loop.fma
// CHECK-NEXT: loop.fma
// CHECK: vector.store {{.*}} : buffer<1x6x4x16xf32>, vector<4xf32>
func.func @main(%x: tensor<1x6x9x33xf32>, %w: tensor<6x3x3x3xf32>) -> tensor<1x6x4x16xf32> {
  %y = graph.conv2d %x, %w {strides = [2, 2], groups = 2} : (tensor<1x6x9x33xf32>, tensor<6x3x3x3xf32>) -> tensor<1x6x4x16xf32>
  return %y : tensor<1x6x4x16xf32>
}
