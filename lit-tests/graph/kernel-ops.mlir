// The compiler's kernel ops print and parse: blocked convolution with an epilogue
// region and a kernel configuration, blocked pools, packed and batched matmuls.
// RUN: %tcc-opt %s | FileCheck %s
// RUN: %tcc-opt %s | %tcc-opt | FileCheck %s
// RUN: %tcc-opt %s --print-op-generic | %tcc-opt | FileCheck %s

// CHECK-LABEL: func.func @conv
// CHECK: %[[Y:.*]] = graph.conv2d_nchwc %arg0, %arg1, %arg2, %arg3 {config = {template = "direct", tile_oc = 2, tile_w = 6}, pads = [1, 1, 1, 1]} : (tensor<1x2x8x8x4xf32>, tensor<2x2x3x3x4x4xf32>, tensor<1x2x1x1x4xf32>, tensor<1x2x8x8x4xf32>) -> tensor<1x2x8x8x4xf32> ({
// CHECK-NEXT: ^bb0(%arg0: tensor<1x2x8x8x4xf32>, %arg1: tensor<1x2x1x1x4xf32>, %arg2: tensor<1x2x8x8x4xf32>):
// CHECK-NEXT:   %0 = graph.add %arg0, %arg1
// CHECK-NEXT:   %1 = graph.add %0, %arg2
// CHECK-NEXT:   %2 = graph.relu %1
// CHECK-NEXT:   graph.yield %2 : tensor<1x2x8x8x4xf32>
// CHECK-NEXT: })
// CHECK: graph.max_pool2d_nchwc %[[Y]] {config = {tile_w = 4}, kernel = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]} : (tensor<1x2x8x8x4xf32>) -> tensor<1x2x4x4x4xf32>
func.func @conv(%x: tensor<1x2x8x8x4xf32>, %w: tensor<2x2x3x3x4x4xf32>, %b: tensor<1x2x1x1x4xf32>, %r: tensor<1x2x8x8x4xf32>) -> tensor<1x2x4x4x4xf32> {
  %y = graph.conv2d_nchwc %x, %w, %b, %r {pads = [1, 1, 1, 1], config = {template = "direct", tile_w = 6, tile_oc = 2}}
     : (tensor<1x2x8x8x4xf32>, tensor<2x2x3x3x4x4xf32>, tensor<1x2x1x1x4xf32>, tensor<1x2x8x8x4xf32>) -> tensor<1x2x8x8x4xf32> ({
  ^bb0(%acc: tensor<1x2x8x8x4xf32>, %bias: tensor<1x2x1x1x4xf32>, %res: tensor<1x2x8x8x4xf32>):
    %0 = graph.add %acc, %bias : (tensor<1x2x8x8x4xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x8x8x4xf32>
    %1 = graph.add %0, %res : (tensor<1x2x8x8x4xf32>, tensor<1x2x8x8x4xf32>) -> tensor<1x2x8x8x4xf32>
    %2 = graph.relu %1 : (tensor<1x2x8x8x4xf32>) -> tensor<1x2x8x8x4xf32>
    graph.yield %2 : tensor<1x2x8x8x4xf32>
  })
  %p = graph.max_pool2d_nchwc %y {kernel = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1], config = {tile_w = 4}}
     : (tensor<1x2x8x8x4xf32>) -> tensor<1x2x4x4x4xf32>
  return %p : tensor<1x2x4x4x4xf32>
}

// bf16 operands, the right one packed in pairs of rows (NK4n2k, K = 5 padded to 6),
// into f32.
// CHECK-LABEL: func.func @bf16_matmul
// CHECK: graph.matmul_packed %arg0, %arg1 : (tensor<8x5xbf16>, tensor<3x3x4x2xbf16>) -> tensor<8x10xf32>
func.func @bf16_matmul(%a: tensor<8x5xbf16>, %bp: tensor<3x3x4x2xbf16>) -> tensor<8x10xf32> {
  %y = graph.matmul_packed %a, %bp : (tensor<8x5xbf16>, tensor<3x3x4x2xbf16>) -> tensor<8x10xf32>
  return %y : tensor<8x10xf32>
}

// A bf16 input and a bf16 pair filter (OIHW2i4o2i: input channels in pairs) into f32.
// CHECK-LABEL: func.func @bf16_conv
// CHECK: graph.conv2d_nchwc %arg0, %arg1 {pads = [1, 1, 1, 1]} : (tensor<1x1x5x5x4xbf16>, tensor<2x1x3x3x2x4x2xbf16>) -> tensor<1x2x5x5x4xf32>
func.func @bf16_conv(%x: tensor<1x1x5x5x4xbf16>, %w: tensor<2x1x3x3x2x4x2xbf16>) -> tensor<1x2x5x5x4xf32> {
  %y = graph.conv2d_nchwc %x, %w {pads = [1, 1, 1, 1]} : (tensor<1x1x5x5x4xbf16>, tensor<2x1x3x3x2x4x2xbf16>) -> tensor<1x2x5x5x4xf32>
  return %y : tensor<1x2x5x5x4xf32>
}

// CHECK-LABEL: func.func @matmuls
// CHECK: graph.matmul_packed %arg0, %arg1 {config = {tile_m = 4, tile_n = 1}} : (tensor<8x16xf32>, tensor<3x16x4xf32>) -> tensor<8x10xf32>
// CHECK: graph.batch_matmul %arg2, %arg3 : (tensor<2x8x16xf32>, tensor<2x16x5xf32>) -> tensor<2x8x5xf32>
func.func @matmuls(%a: tensor<8x16xf32>, %bp: tensor<3x16x4xf32>, %q: tensor<2x8x16xf32>, %k: tensor<2x16x5xf32>) -> (tensor<8x10xf32>, tensor<2x8x5xf32>) {
  %y = graph.matmul_packed %a, %bp {config = {tile_m = 4, tile_n = 1}} : (tensor<8x16xf32>, tensor<3x16x4xf32>) -> tensor<8x10xf32>
  %z = graph.batch_matmul %q, %k : (tensor<2x8x16xf32>, tensor<2x16x5xf32>) -> tensor<2x8x5xf32>
  return %y, %z : tensor<8x10xf32>, tensor<2x8x5xf32>
}
