// Import plus clean-up on a ResNet stem as torch-mlir writes it: NHWC transposes
// around the conv and the pool, batch norm decomposed into sub/rsqrt/mul/add on
// constants, relu as a clamp. After the graph pipeline what is left is one conv with
// the batch norm folded into its weights and bias, the clamp and the pool, in NCHW.
//
// RUN: %tcc-opt %s --pass-pipeline=convert-tosa-to-graph,canonicalize,cse | FileCheck %s

// CHECK-LABEL: func.func @main(%arg0: tensor<1x3x8x8xf32>)
// CHECK-NEXT: %[[W:.*]] = graph.constant {value = dense<{{.*}}> : tensor<2x3x3x3xf32>}
// b' = (0 - mean) * rsqrt(var + eps) * gamma + beta = [-0.5 * 0.4999994 * 2 + 0.1,
// 1 * 1.99996 * 3 + 0.2]:
// CHECK-NEXT: %[[B:.*]] = graph.constant {value = dense<[-0.39999938, 6.1998796]> : tensor<2xf32>}
// CHECK-NEXT: %[[Y:.*]] = graph.conv2d %arg0, %[[W]], %[[B]] {dilations = [1, 1], groups = 1, pads = [1, 1, 1, 1], strides = [1, 1]} : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x2x8x8xf32>
// CHECK-NEXT: %[[R:.*]] = graph.clamp %[[Y]] {max = 3.4028234663852886e38, min = 0.0}
// CHECK-NEXT: %[[P:.*]] = graph.max_pool2d %[[R]] {kernel = [3, 3], pads = [1, 1, 0, 0], strides = [2, 2]} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT: return %[[P]] : tensor<1x2x4x4xf32>
// CHECK-NOT: transpose
func.func @main(%arg0: tensor<1x3x8x8xf32>) -> tensor<1x2x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %bias = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shape = tosa.const_shape {values = dense<[1, 2, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %w = "tosa.const"() <{values = dense<0.25> : tensor<2x3x3x3xf32>}> : () -> tensor<2x3x3x3xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %var = "tosa.const"() <{values = dense<[4.0, 0.25]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %mean = "tosa.const"() <{values = dense<[[[[0.5]], [[-1.0]]]]> : tensor<1x2x1x1xf32>}> : () -> tensor<1x2x1x1xf32>
  %gamma = "tosa.const"() <{values = dense<[[[[2.0]], [[3.0]]]]> : tensor<1x2x1x1xf32>}> : () -> tensor<1x2x1x1xf32>
  %beta = "tosa.const"() <{values = dense<[[[[0.1]], [[0.2]]]]> : tensor<1x2x1x1xf32>}> : () -> tensor<1x2x1x1xf32>
  %0 = tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32>
  %1 = tosa.conv2d %0, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x2xf32>
  %2 = tosa.transpose %1 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x8x8x2xf32>) -> tensor<1x2x8x8xf32>
  %3 = tosa.add %eps, %var : (tensor<1xf32>, tensor<2xf32>) -> tensor<2xf32>
  %4 = tosa.rsqrt %3 : (tensor<2xf32>) -> tensor<2xf32>
  %5 = tosa.sub %2, %mean : (tensor<1x2x8x8xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x8x8xf32>
  %6 = tosa.reshape %4, %shape : (tensor<2xf32>, !tosa.shape<4>) -> tensor<1x2x1x1xf32>
  %7 = tosa.mul %5, %6, %shift : (tensor<1x2x8x8xf32>, tensor<1x2x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %8 = tosa.mul %7, %gamma, %shift : (tensor<1x2x8x8xf32>, tensor<1x2x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %9 = tosa.add %8, %beta : (tensor<1x2x8x8xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x8x8xf32>
  %10 = tosa.clamp %9 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %11 = tosa.transpose %10 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x2x8x8xf32>) -> tensor<1x8x8x2xf32>
  %12 = tosa.max_pool2d %11 {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x2xf32>) -> tensor<1x4x4x2xf32>
  %13 = tosa.transpose %12 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x4x4x2xf32>) -> tensor<1x2x4x4xf32>
  return %13 : tensor<1x2x4x4xf32>
}
