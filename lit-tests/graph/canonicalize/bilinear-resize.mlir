// The bilinear-resize pattern: torch-mlir's export of F.interpolate(mode="bilinear")
// (four gathers of the flattened image with constant indices, two blends along W, one
// along H) becomes one graph.resize_bilinear, when the indices and weights are exactly
// those of one of its coordinate conventions; a weight one ulp off keeps the gathers.
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | %tcc-opt | FileCheck %s
//
// A real export, whose index tensors are computed from ranges by casts, tiles, a concat
// and a reduction (evaluated by the pattern), both conventions:
// RUN: %tcc-opt %S/../../../compiler/tcc/tests/exports/resize_up_odd.mlir --pass-pipeline=convert-tosa-to-graph,canonicalize | FileCheck %s --check-prefix=EXPORT
// RUN: %tcc-opt %S/../../../compiler/tcc/tests/exports/resize_down_corners.mlir --pass-pipeline=convert-tosa-to-graph,canonicalize | FileCheck %s --check-prefix=CORNERS
// EXPORT-NOT: graph.gather
// EXPORT: graph.resize_bilinear %arg0 {align_corners = false, size = [11, 13]} : (tensor<2x3x5x7xf32>) -> tensor<2x3x11x13xf32>
// EXPORT-NOT: graph.gather
// CORNERS-NOT: graph.gather
// CORNERS: graph.resize_bilinear %arg0 {align_corners = true, size = [3, 5]} : (tensor<1x2x7x11xf32>) -> tensor<1x2x3x5xf32>
// CORNERS-NOT: graph.gather

// CHECK-LABEL: func.func @upsample
// CHECK-NEXT: %[[R:.*]] = graph.resize_bilinear %arg0 {align_corners = false, size = [4, 5]} : (tensor<1x2x2x3xf32>) -> tensor<1x2x4x5xf32>
// CHECK-NEXT: return %[[R]]

// CHECK-LABEL: func.func @align_corners
// CHECK-NEXT: %[[R:.*]] = graph.resize_bilinear %arg0 {align_corners = true, size = [5, 3]} : (tensor<2x1x3x2xf32>) -> tensor<2x1x5x3xf32>
// CHECK-NEXT: return %[[R]]

// CHECK-LABEL: func.func @not_bilinear
// CHECK-NOT: graph.resize_bilinear
// CHECK-COUNT-4: graph.gather
// CHECK-NOT: graph.resize_bilinear
// CHECK: return

func.func @upsample(%x: tensor<1x2x2x3xf32>) -> tensor<1x2x4x5xf32> {
  %flat = graph.reshape %x {shape = [12, 1]} : (tensor<1x2x2x3xf32>) -> tensor<12x1xf32>
  %ig00 = graph.constant {value = dense<[0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 3, 3, 4, 4, 5, 6, 6, 7, 7, 8, 6, 6, 7, 7, 8, 6, 6, 7, 7, 8, 9, 9, 10, 10, 11]> : tensor<40xi32>} : () -> tensor<40xi32>
  %tg00 = graph.gather %flat, %ig00 {axis = 0} : (tensor<12x1xf32>, tensor<40xi32>) -> tensor<40x1xf32>
  %g00 = graph.reshape %tg00 {shape = [1, 2, 4, 5]} : (tensor<40x1xf32>) -> tensor<1x2x4x5xf32>
  %ig01 = graph.constant {value = dense<[1, 1, 2, 2, 2, 1, 1, 2, 2, 2, 1, 1, 2, 2, 2, 4, 4, 5, 5, 5, 7, 7, 8, 8, 8, 7, 7, 8, 8, 8, 7, 7, 8, 8, 8, 10, 10, 11, 11, 11]> : tensor<40xi32>} : () -> tensor<40xi32>
  %tg01 = graph.gather %flat, %ig01 {axis = 0} : (tensor<12x1xf32>, tensor<40xi32>) -> tensor<40x1xf32>
  %g01 = graph.reshape %tg01 {shape = [1, 2, 4, 5]} : (tensor<40x1xf32>) -> tensor<1x2x4x5xf32>
  %ig10 = graph.constant {value = dense<[3, 3, 4, 4, 5, 3, 3, 4, 4, 5, 3, 3, 4, 4, 5, 3, 3, 4, 4, 5, 9, 9, 10, 10, 11, 9, 9, 10, 10, 11, 9, 9, 10, 10, 11, 9, 9, 10, 10, 11]> : tensor<40xi32>} : () -> tensor<40xi32>
  %tg10 = graph.gather %flat, %ig10 {axis = 0} : (tensor<12x1xf32>, tensor<40xi32>) -> tensor<40x1xf32>
  %g10 = graph.reshape %tg10 {shape = [1, 2, 4, 5]} : (tensor<40x1xf32>) -> tensor<1x2x4x5xf32>
  %ig11 = graph.constant {value = dense<[4, 4, 5, 5, 5, 4, 4, 5, 5, 5, 4, 4, 5, 5, 5, 4, 4, 5, 5, 5, 10, 10, 11, 11, 11, 10, 10, 11, 11, 11, 10, 10, 11, 11, 11, 10, 10, 11, 11, 11]> : tensor<40xi32>} : () -> tensor<40xi32>
  %tg11 = graph.gather %flat, %ig11 {axis = 0} : (tensor<12x1xf32>, tensor<40xi32>) -> tensor<40x1xf32>
  %g11 = graph.reshape %tg11 {shape = [1, 2, 4, 5]} : (tensor<40x1xf32>) -> tensor<1x2x4x5xf32>
  %wx = graph.constant {value = dense<[[[[0.0, 0.40000003576278687, 0.0, 0.6000001430511475, 0.20000004768371582]]]]> : tensor<1x1x1x5xf32>} : () -> tensor<1x1x1x5xf32>
  %wy = graph.constant {value = dense<[[[[0.0], [0.25], [0.75], [0.25]]]]> : tensor<1x1x4x1xf32>} : () -> tensor<1x1x4x1xf32>
  %top_d = graph.sub %g01, %g00 : (tensor<1x2x4x5xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  %top_m = graph.mul %top_d, %wx : (tensor<1x2x4x5xf32>, tensor<1x1x1x5xf32>) -> tensor<1x2x4x5xf32>
  %top = graph.add %g00, %top_m : (tensor<1x2x4x5xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  %bottom_d = graph.sub %g11, %g10 : (tensor<1x2x4x5xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  %bottom_m = graph.mul %bottom_d, %wx : (tensor<1x2x4x5xf32>, tensor<1x1x1x5xf32>) -> tensor<1x2x4x5xf32>
  %bottom = graph.add %g10, %bottom_m : (tensor<1x2x4x5xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  %out_d = graph.sub %bottom, %top : (tensor<1x2x4x5xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  %out_m = graph.mul %out_d, %wy : (tensor<1x2x4x5xf32>, tensor<1x1x4x1xf32>) -> tensor<1x2x4x5xf32>
  %out = graph.add %top, %out_m : (tensor<1x2x4x5xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  return %out : tensor<1x2x4x5xf32>
}

func.func @align_corners(%x: tensor<2x1x3x2xf32>) -> tensor<2x1x5x3xf32> {
  %flat = graph.reshape %x {shape = [12, 1]} : (tensor<2x1x3x2xf32>) -> tensor<12x1xf32>
  %ig00 = graph.constant {value = dense<[0, 0, 1, 0, 0, 1, 2, 2, 3, 2, 2, 3, 4, 4, 5, 6, 6, 7, 6, 6, 7, 8, 8, 9, 8, 8, 9, 10, 10, 11]> : tensor<30xi32>} : () -> tensor<30xi32>
  %tg00 = graph.gather %flat, %ig00 {axis = 0} : (tensor<12x1xf32>, tensor<30xi32>) -> tensor<30x1xf32>
  %g00 = graph.reshape %tg00 {shape = [2, 1, 5, 3]} : (tensor<30x1xf32>) -> tensor<2x1x5x3xf32>
  %ig01 = graph.constant {value = dense<[1, 1, 1, 1, 1, 1, 3, 3, 3, 3, 3, 3, 5, 5, 5, 7, 7, 7, 7, 7, 7, 9, 9, 9, 9, 9, 9, 11, 11, 11]> : tensor<30xi32>} : () -> tensor<30xi32>
  %tg01 = graph.gather %flat, %ig01 {axis = 0} : (tensor<12x1xf32>, tensor<30xi32>) -> tensor<30x1xf32>
  %g01 = graph.reshape %tg01 {shape = [2, 1, 5, 3]} : (tensor<30x1xf32>) -> tensor<2x1x5x3xf32>
  %ig10 = graph.constant {value = dense<[2, 2, 3, 2, 2, 3, 4, 4, 5, 4, 4, 5, 4, 4, 5, 8, 8, 9, 8, 8, 9, 10, 10, 11, 10, 10, 11, 10, 10, 11]> : tensor<30xi32>} : () -> tensor<30xi32>
  %tg10 = graph.gather %flat, %ig10 {axis = 0} : (tensor<12x1xf32>, tensor<30xi32>) -> tensor<30x1xf32>
  %g10 = graph.reshape %tg10 {shape = [2, 1, 5, 3]} : (tensor<30x1xf32>) -> tensor<2x1x5x3xf32>
  %ig11 = graph.constant {value = dense<[3, 3, 3, 3, 3, 3, 5, 5, 5, 5, 5, 5, 5, 5, 5, 9, 9, 9, 9, 9, 9, 11, 11, 11, 11, 11, 11, 11, 11, 11]> : tensor<30xi32>} : () -> tensor<30xi32>
  %tg11 = graph.gather %flat, %ig11 {axis = 0} : (tensor<12x1xf32>, tensor<30xi32>) -> tensor<30x1xf32>
  %g11 = graph.reshape %tg11 {shape = [2, 1, 5, 3]} : (tensor<30x1xf32>) -> tensor<2x1x5x3xf32>
  %wx = graph.constant {value = dense<[[[[0.0, 0.5, 0.0]]]]> : tensor<1x1x1x3xf32>} : () -> tensor<1x1x1x3xf32>
  %wy = graph.constant {value = dense<[[[[0.0], [0.5], [0.0], [0.5], [0.0]]]]> : tensor<1x1x5x1xf32>} : () -> tensor<1x1x5x1xf32>
  %top_d = graph.sub %g01, %g00 : (tensor<2x1x5x3xf32>, tensor<2x1x5x3xf32>) -> tensor<2x1x5x3xf32>
  %top_m = graph.mul %top_d, %wx : (tensor<2x1x5x3xf32>, tensor<1x1x1x3xf32>) -> tensor<2x1x5x3xf32>
  %top = graph.add %g00, %top_m : (tensor<2x1x5x3xf32>, tensor<2x1x5x3xf32>) -> tensor<2x1x5x3xf32>
  %bottom_d = graph.sub %g11, %g10 : (tensor<2x1x5x3xf32>, tensor<2x1x5x3xf32>) -> tensor<2x1x5x3xf32>
  %bottom_m = graph.mul %bottom_d, %wx : (tensor<2x1x5x3xf32>, tensor<1x1x1x3xf32>) -> tensor<2x1x5x3xf32>
  %bottom = graph.add %g10, %bottom_m : (tensor<2x1x5x3xf32>, tensor<2x1x5x3xf32>) -> tensor<2x1x5x3xf32>
  %out_d = graph.sub %bottom, %top : (tensor<2x1x5x3xf32>, tensor<2x1x5x3xf32>) -> tensor<2x1x5x3xf32>
  %out_m = graph.mul %out_d, %wy : (tensor<2x1x5x3xf32>, tensor<1x1x5x1xf32>) -> tensor<2x1x5x3xf32>
  %out = graph.add %top, %out_m : (tensor<2x1x5x3xf32>, tensor<2x1x5x3xf32>) -> tensor<2x1x5x3xf32>
  return %out : tensor<2x1x5x3xf32>
}

func.func @not_bilinear(%x: tensor<1x2x2x3xf32>) -> tensor<1x2x4x5xf32> {
  %flat = graph.reshape %x {shape = [12, 1]} : (tensor<1x2x2x3xf32>) -> tensor<12x1xf32>
  %ig00 = graph.constant {value = dense<[0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 3, 3, 4, 4, 5, 6, 6, 7, 7, 8, 6, 6, 7, 7, 8, 6, 6, 7, 7, 8, 9, 9, 10, 10, 11]> : tensor<40xi32>} : () -> tensor<40xi32>
  %tg00 = graph.gather %flat, %ig00 {axis = 0} : (tensor<12x1xf32>, tensor<40xi32>) -> tensor<40x1xf32>
  %g00 = graph.reshape %tg00 {shape = [1, 2, 4, 5]} : (tensor<40x1xf32>) -> tensor<1x2x4x5xf32>
  %ig01 = graph.constant {value = dense<[1, 1, 2, 2, 2, 1, 1, 2, 2, 2, 1, 1, 2, 2, 2, 4, 4, 5, 5, 5, 7, 7, 8, 8, 8, 7, 7, 8, 8, 8, 7, 7, 8, 8, 8, 10, 10, 11, 11, 11]> : tensor<40xi32>} : () -> tensor<40xi32>
  %tg01 = graph.gather %flat, %ig01 {axis = 0} : (tensor<12x1xf32>, tensor<40xi32>) -> tensor<40x1xf32>
  %g01 = graph.reshape %tg01 {shape = [1, 2, 4, 5]} : (tensor<40x1xf32>) -> tensor<1x2x4x5xf32>
  %ig10 = graph.constant {value = dense<[3, 3, 4, 4, 5, 3, 3, 4, 4, 5, 3, 3, 4, 4, 5, 3, 3, 4, 4, 5, 9, 9, 10, 10, 11, 9, 9, 10, 10, 11, 9, 9, 10, 10, 11, 9, 9, 10, 10, 11]> : tensor<40xi32>} : () -> tensor<40xi32>
  %tg10 = graph.gather %flat, %ig10 {axis = 0} : (tensor<12x1xf32>, tensor<40xi32>) -> tensor<40x1xf32>
  %g10 = graph.reshape %tg10 {shape = [1, 2, 4, 5]} : (tensor<40x1xf32>) -> tensor<1x2x4x5xf32>
  %ig11 = graph.constant {value = dense<[4, 4, 5, 5, 5, 4, 4, 5, 5, 5, 4, 4, 5, 5, 5, 4, 4, 5, 5, 5, 10, 10, 11, 11, 11, 10, 10, 11, 11, 11, 10, 10, 11, 11, 11, 10, 10, 11, 11, 11]> : tensor<40xi32>} : () -> tensor<40xi32>
  %tg11 = graph.gather %flat, %ig11 {axis = 0} : (tensor<12x1xf32>, tensor<40xi32>) -> tensor<40x1xf32>
  %g11 = graph.reshape %tg11 {shape = [1, 2, 4, 5]} : (tensor<40x1xf32>) -> tensor<1x2x4x5xf32>
  %wx = graph.constant {value = dense<[[[[0.0, 0.40000006556510925, 0.0, 0.6000001430511475, 0.20000004768371582]]]]> : tensor<1x1x1x5xf32>} : () -> tensor<1x1x1x5xf32>
  %wy = graph.constant {value = dense<[[[[0.0], [0.25], [0.75], [0.25]]]]> : tensor<1x1x4x1xf32>} : () -> tensor<1x1x4x1xf32>
  %top_d = graph.sub %g01, %g00 : (tensor<1x2x4x5xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  %top_m = graph.mul %top_d, %wx : (tensor<1x2x4x5xf32>, tensor<1x1x1x5xf32>) -> tensor<1x2x4x5xf32>
  %top = graph.add %g00, %top_m : (tensor<1x2x4x5xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  %bottom_d = graph.sub %g11, %g10 : (tensor<1x2x4x5xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  %bottom_m = graph.mul %bottom_d, %wx : (tensor<1x2x4x5xf32>, tensor<1x1x1x5xf32>) -> tensor<1x2x4x5xf32>
  %bottom = graph.add %g10, %bottom_m : (tensor<1x2x4x5xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  %out_d = graph.sub %bottom, %top : (tensor<1x2x4x5xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  %out_m = graph.mul %out_d, %wy : (tensor<1x2x4x5xf32>, tensor<1x1x4x1xf32>) -> tensor<1x2x4x5xf32>
  %out = graph.add %top, %out_m : (tensor<1x2x4x5xf32>, tensor<1x2x4x5xf32>) -> tensor<1x2x4x5xf32>
  return %out : tensor<1x2x4x5xf32>
}
