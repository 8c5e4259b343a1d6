// reduce-precision: the bf16 policy's numerics. The input and weights of each f32
// matmul, convolution reading at least 16 channels per output channel and first layer
// (ungrouped, at most 4 input channels) are rounded to bf16 (a cast to bf16 and back);
// biases, other ops, depthwise convolutions and the other convolutions of few channels
// stay f32. Constant weights fold to bf16 values (1 + 2^-8,
// halfway between 1 and the next bf16, rounds to even: 1.0). Applying it twice changes
// nothing more.
// RUN: %tcc-opt %s --pass-pipeline=reduce-precision | %tcc-opt | FileCheck %s
// RUN: %tcc-opt %s --pass-pipeline=reduce-precision,canonicalize,cse | FileCheck %s --check-prefix=FOLD
// RUN: %tcc-opt %s --pass-pipeline=reduce-precision -o %t.1.mlir
// RUN: %tcc-opt %t.1.mlir --pass-pipeline=reduce-precision -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir

// CHECK-LABEL: func.func @main(
// CHECK: [[X16:%[0-9]+]] = graph.cast %arg0 : (tensor<1x16x5x5xf32>) -> tensor<1x16x5x5xbf16>
// CHECK-NEXT: [[X:%[0-9]+]] = graph.cast [[X16]] : (tensor<1x16x5x5xbf16>) -> tensor<1x16x5x5xf32>
// CHECK-NEXT: [[W16:%[0-9]+]] = graph.cast %{{[0-9]+}} : (tensor<3x16x3x3xf32>) -> tensor<3x16x3x3xbf16>
// CHECK-NEXT: [[W:%[0-9]+]] = graph.cast [[W16]] : (tensor<3x16x3x3xbf16>) -> tensor<3x16x3x3xf32>
// CHECK-NEXT: graph.conv2d [[X]], [[W]], %{{[0-9]+}} {pads = [1, 1, 1, 1]}
// CHECK: graph.cast %arg1 : (tensor<3x4xf32>) -> tensor<3x4xbf16>
// CHECK: graph.cast %arg2 : (tensor<4x2xf32>) -> tensor<4x2xbf16>
// CHECK: graph.matmul
// CHECK-NOT: graph.cast
// CHECK: graph.conv2d %arg3, %{{[0-9]+}} {groups = 4
// CHECK: graph.cast %arg4 : (tensor<1x3x5x5xf32>) -> tensor<1x3x5x5xbf16>
// CHECK: graph.conv2d %{{[0-9]+}}, %{{[0-9]+}} :
// CHECK-NOT: graph.cast
// CHECK: graph.conv2d %arg5, %{{[0-9]+}} :
// FOLD-LABEL: func.func @main(
// FOLD-DAG: graph.constant {value = dense<1.0> : tensor<3x16x3x3xf32>}
// FOLD-DAG: graph.constant {value = dense<1.0039063> : tensor<3xf32>}
// FOLD-NOT: tensor<3x16x3x3xbf16>
func.func @main(%x: tensor<1x16x5x5xf32>, %a: tensor<3x4xf32>, %b: tensor<4x2xf32>, %d: tensor<1x4x5x5xf32>, %rgb: tensor<1x3x5x5xf32>, %e: tensor<1x8x5x5xf32>) -> (tensor<1x3x5x5xf32>, tensor<3x2xf32>, tensor<1x4x3x3xf32>, tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>) {
  %w = graph.constant {value = dense<1.00390625> : tensor<3x16x3x3xf32>} : () -> tensor<3x16x3x3xf32>
  %bias = graph.constant {value = dense<1.00390625> : tensor<3xf32>} : () -> tensor<3xf32>
  %0 = graph.conv2d %x, %w, %bias {pads = [1, 1, 1, 1]} : (tensor<1x16x5x5xf32>, tensor<3x16x3x3xf32>, tensor<3xf32>) -> tensor<1x3x5x5xf32>
  %1 = graph.matmul %a, %b : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %dw = graph.constant {value = dense<0.5> : tensor<4x1x3x3xf32>} : () -> tensor<4x1x3x3xf32>
  %2 = graph.conv2d %d, %dw {groups = 4} : (tensor<1x4x5x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32>
  %sw = graph.constant {value = dense<0.5> : tensor<2x3x1x1xf32>} : () -> tensor<2x3x1x1xf32>
  %3 = graph.conv2d %rgb, %sw : (tensor<1x3x5x5xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x5x5xf32>
  %ew = graph.constant {value = dense<0.5> : tensor<2x8x1x1xf32>} : () -> tensor<2x8x1x1xf32>
  %4 = graph.conv2d %e, %ew : (tensor<1x8x5x5xf32>, tensor<2x8x1x1xf32>) -> tensor<1x2x5x5xf32>
  return %0, %1, %2, %3, %4 : tensor<1x3x5x5xf32>, tensor<3x2xf32>, tensor<1x4x3x3xf32>, tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>
}
