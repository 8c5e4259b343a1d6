// Import of every TOSA op tcc supports (pretty and generic forms) into the graph
// dialect, before any clean-up: convert-tosa-to-graph alone.
//
// RUN: %tcc-opt %s --pass-pipeline=convert-tosa-to-graph | FileCheck %s
// The imported module verifies and prints as a fixed point.
// RUN: %tcc-opt %s --pass-pipeline=convert-tosa-to-graph | %tcc-opt | FileCheck %s

// CHECK-LABEL: func.func @constants()
// CHECK-NEXT: %0 = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>}
// CHECK-NEXT: %1 = graph.constant {value = dense_resource<idx> : tensor<2x2xi64>}
// CHECK-NEXT: return %0, %1
func.func @constants() -> (tensor<2xf32>, tensor<2x2xi64>) {
  %0 = "tosa.const"() <{values = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %1 = arith.constant dense_resource<idx> : tensor<2x2xi64>
  return %0, %1 : tensor<2xf32>, tensor<2x2xi64>
}

// One-to-one ops keep their operands (numpy broadcasting covers TOSA's); the mul
// shift and negate zero points are checked and dropped; greater_equal is
// greater-or-equal without NaNs; nan_mode = "IGNORE" selects the other operand (or
// min_val) where an operand is NaN.
// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT: %0 = graph.add %arg0, %arg1 : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %1 = graph.mul %0, %arg1
// CHECK-NEXT: %2 = graph.neg %1
// CHECK-NEXT: %3 = graph.rsqrt %2
// CHECK-NEXT: %4 = graph.greater %3, %arg1
// CHECK-NEXT: %5 = graph.equal %3, %arg1
// CHECK-NEXT: %6 = graph.select %4, %4, %5
// CHECK-NEXT: %7 = graph.select %arg2, %3, %arg0
// CHECK-NEXT: %8 = graph.max %7, %arg1
// CHECK-NEXT: %9 = graph.min %8, %arg1
// CHECK-NEXT: %10 = graph.equal %8, %8
// CHECK-NEXT: %11 = graph.equal %arg1, %arg1
// CHECK-NEXT: %12 = graph.select %11, %9, %8
// CHECK-NEXT: %13 = graph.select %10, %12, %arg1
// CHECK-NEXT: %14 = graph.clamp %13 {max = 6.0, min = 0.0}
// CHECK-NEXT: %15 = graph.clamp %13 {max = 1.0, min = -1.0}
// CHECK-NEXT: %16 = graph.equal %13, %13
// CHECK-NEXT: %17 = graph.constant {value = dense<-1.0> : tensor<f32>}
// CHECK-NEXT: %18 = graph.select %16, %15, %17
// CHECK-NEXT: return %0, %14, %6, %18, %2
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<1x3xf32>, %c: tensor<2x3xi1>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.add %a, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.mul %0, %b, %shift : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<1xi8>) -> tensor<2x3xf32>
  %2 = tosa.negate %1, %zp, %zp : (tensor<2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  %3 = tosa.rsqrt %2 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = tosa.greater_equal %3, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
  %5 = tosa.select %c, %3, %a : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = tosa.maximum %5, %b : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %7 = tosa.minimum %6, %b {nan_mode = "IGNORE"} : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %8 = tosa.clamp %7 {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %9 = tosa.clamp %7 {min_val = -1.0 : f32, max_val = 1.0 : f32, nan_mode = "IGNORE"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %8, %4, %9, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>
}

// float -> int rounds half to even before the (saturating) graph cast:
// f = floor(x), d = x - f, then f + 1 if d > 0.5, f + (f mod 2) if d == 0.5.
// CHECK-LABEL: func.func @casts
// CHECK-NEXT: %0 = graph.cast %arg0 : (tensor<4xf32>) -> tensor<4xf64>
// CHECK-NEXT: %1 = graph.cast %arg1 : (tensor<4xi64>) -> tensor<4xi32>
// CHECK-NEXT: %2 = graph.floor %arg0
// CHECK-NEXT: %3 = graph.sub %arg0, %2
// CHECK: %[[UP:.*]] = graph.greater %3,
// CHECK-NEXT: %[[TIE:.*]] = graph.equal %3,
// CHECK: %[[R:.*]] = graph.add %2,
// CHECK-NEXT: %[[I:.*]] = graph.cast %[[R]] : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT: return %0, %1, %[[I]]
func.func @casts(%x: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xf64>, tensor<4xi32>, tensor<4xi32>) {
  %0 = tosa.cast %x : (tensor<4xf32>) -> tensor<4xf64>
  %1 = tosa.cast %i : (tensor<4xi64>) -> tensor<4xi32>
  %2 = tosa.cast %x : (tensor<4xf32>) -> tensor<4xi32>
  return %0, %1, %2 : tensor<4xf64>, tensor<4xi32>, tensor<4xi32>
}

// Reductions keep the axis; all/any over i1 are min/max over 0/1 integers; a product
// is `graph.reduce_prod`.
// CHECK-LABEL: func.func @reductions
// CHECK-NEXT: %0 = graph.reduce_sum %arg0 {axes = [1], keepdims = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %1 = graph.reduce_max %arg0 {axes = [0], keepdims = true} : (tensor<2x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %2 = graph.cast %arg1 : (tensor<2x3xi1>) -> tensor<2x3xi32>
// CHECK-NEXT: %3 = graph.reduce_min %2 {axes = [1], keepdims = true}
// CHECK-NEXT: %4 = graph.cast %3 : (tensor<2x1xi32>) -> tensor<2x1xi1>
// CHECK-NEXT: %5 = graph.cast %arg1 : (tensor<2x3xi1>) -> tensor<2x3xi32>
// CHECK-NEXT: %6 = graph.reduce_max %5 {axes = [0], keepdims = true}
// CHECK-NEXT: %7 = graph.cast %6 : (tensor<1x3xi32>) -> tensor<1x3xi1>
// CHECK-NEXT: %8 = graph.reduce_prod %arg2 {axes = [1], keepdims = true} : (tensor<2x3xi32>) -> tensor<2x1xi32>
func.func @reductions(%x: tensor<2x3xf32>, %p: tensor<2x3xi1>, %i: tensor<2x3xi32>) -> (tensor<2x1xf32>, tensor<1x3xf32>, tensor<2x1xi1>, tensor<1x3xi1>, tensor<2x1xi32>) {
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %1 = tosa.reduce_max %x {axis = 0 : i32} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %2 = tosa.reduce_all %p {axis = 1 : i32} : (tensor<2x3xi1>) -> tensor<2x1xi1>
  %3 = tosa.reduce_any %p {axis = 0 : i32} : (tensor<2x3xi1>) -> tensor<1x3xi1>
  %4 = tosa.reduce_product %i {axis = 1 : i32} : (tensor<2x3xi32>) -> tensor<2x1xi32>
  return %0, %1, %2, %3, %4 : tensor<2x1xf32>, tensor<1x3xf32>, tensor<2x1xi1>, tensor<1x3xi1>, tensor<2x1xi32>
}

// Shape operands become attributes (-1 resolved from the result type or the
// operand); pad takes [low0, high0, low1, high1, ..]; tile is reshape, broadcast,
// reshape. The const_shape ops are gone.
// CHECK-LABEL: func.func @data_movement
// CHECK-NEXT: %0 = graph.reshape %arg0 {shape = [6, 4]} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: %1 = graph.transpose %arg0 {perm = [2, 0, 1]} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: %2 = graph.slice %arg0 {sizes = [1, 2, 4], starts = [1, 0, 0]}
// CHECK-NEXT: %3 = graph.concat %arg0, %arg0 {axis = 2}
// CHECK-NEXT: %4 = graph.pad %arg0 {high = [0, 1, 0], low = [0, 1, 0], value = -1.0}
// CHECK-NEXT: %5 = graph.reshape %arg0 {shape = [1, 2, 1, 3, 1, 4]}
// CHECK-NEXT: %6 = graph.broadcast_to %5 {shape = [2, 2, 1, 3, 1, 4]}
// CHECK-NEXT: %7 = graph.reshape %6 {shape = [4, 3, 4]}
// CHECK-NOT: tosa.const_shape
func.func @data_movement(%x: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<4x2x3xf32>, tensor<1x2x4xf32>, tensor<2x3x8xf32>, tensor<2x5x4xf32>, tensor<4x3x4xf32>) {
  %shape = tosa.const_shape {values = dense<[6, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %start = tosa.const_shape {values = dense<[1, 0, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[1, 2, -1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %padding = tosa.const_shape {values = dense<[0, 0, 1, 1, 0, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %multiples = tosa.const_shape {values = dense<[2, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %pad_value = "tosa.const"() <{values = dense<-1.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.reshape %x, %shape : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<6x4xf32>
  %1 = tosa.transpose %x {perms = array<i32: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %2 = tosa.slice %x, %start, %size : (tensor<2x3x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x2x4xf32>
  %3 = tosa.concat %x, %x {axis = 2 : i32} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x8xf32>
  %4 = tosa.pad %x, %padding, %pad_value : (tensor<2x3x4xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<2x5x4xf32>
  %5 = tosa.tile %x, %multiples : (tensor<2x3x4xf32>, !tosa.shape<3>) -> tensor<4x3x4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<6x4xf32>, tensor<4x2x3xf32>, tensor<1x2x4xf32>, tensor<2x3x8xf32>, tensor<2x5x4xf32>, tensor<4x3x4xf32>
}

// Batched gather: values flattened to [N*K, C], indices offset by n*K.
// CHECK-LABEL: func.func @gather
// CHECK-NEXT: %0 = graph.reshape %arg0 {shape = [10, 3]} : (tensor<2x5x3xf32>) -> tensor<10x3xf32>
// CHECK-NEXT: %1 = graph.constant {value = dense<{{\[\[}}0], [5]]> : tensor<2x1xi32>}
// CHECK-NEXT: %2 = graph.add %arg1, %1
// CHECK-NEXT: %3 = graph.gather %0, %2 {axis = 0} : (tensor<10x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
func.func @gather(%values: tensor<2x5x3xf32>, %indices: tensor<2x4xi32>) -> tensor<2x4x3xf32> {
  %0 = tosa.gather %values, %indices : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// Reverse (torch.flip): a gather of the indices n-1, .., 0 along the axis; identity is
// its operand.
// CHECK-LABEL: func.func @reverse
// CHECK-NEXT: %0 = graph.constant {value = dense<[2, 1, 0]> : tensor<3xi64>}
// CHECK-NEXT: %1 = graph.gather %arg0, %0 {axis = 1} : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
// CHECK-NEXT: return %1
func.func @reverse(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = tosa.reverse %x {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %1 = tosa.identity %0 : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}

// Scatter: graph.scatter on the same operands.
// CHECK-LABEL: func.func @scatter
// CHECK-NEXT: %0 = graph.scatter %arg0, %arg1, %arg2 : (tensor<1x6x4xf32>, tensor<1x2xi32>, tensor<1x2x4xf32>) -> tensor<1x6x4xf32>
func.func @scatter(%v: tensor<1x6x4xf32>, %i: tensor<1x2xi32>, %u: tensor<1x2x4xf32>) -> tensor<1x6x4xf32> {
  %0 = tosa.scatter %v, %i, %u : (tensor<1x6x4xf32>, tensor<1x2xi32>, tensor<1x2x4xf32>) -> tensor<1x6x4xf32>
  return %0 : tensor<1x6x4xf32>
}

// Argmax: graph.argmax's i64 indices, cast to the declared index type when it differs.
// CHECK-LABEL: func.func @argmax
// CHECK-NEXT: %0 = graph.argmax %arg0 {axis = 1} : (tensor<3x5xf32>) -> tensor<3xi64>
// CHECK-NEXT: %1 = graph.argmax %arg0 {axis = 0} : (tensor<3x5xf32>) -> tensor<5xi64>
// CHECK-NEXT: %2 = graph.cast %1 : (tensor<5xi64>) -> tensor<5xi32>
func.func @argmax(%x: tensor<3x5xf32>) -> (tensor<3xi64>, tensor<5xi32>) {
  %0 = tosa.argmax %x {axis = 1 : i32} : (tensor<3x5xf32>) -> tensor<3xi64>
  %1 = tosa.argmax %x {axis = 0 : i32, nan_mode = "PROPAGATE"} : (tensor<3x5xf32>) -> tensor<5xi32>
  return %0, %1 : tensor<3xi64>, tensor<5xi32>
}

// CHECK-LABEL: func.func @matmul
// CHECK: %0 = graph.matmul %arg0, %arg1 : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
func.func @matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// i8 operands accumulated in i32 (TOSA's integer matmul): widened first; i8 arithmetic
// stays i8 (it wraps).
// CHECK-LABEL: func.func @matmul_i8
// CHECK-NEXT: %0 = graph.cast %arg0 : (tensor<1x3x4xi8>) -> tensor<1x3x4xi32>
// CHECK-NEXT: %1 = graph.cast %arg1 : (tensor<1x4x2xi8>) -> tensor<1x4x2xi32>
// CHECK-NEXT: %2 = graph.matmul %0, %1 : (tensor<1x3x4xi32>, tensor<1x4x2xi32>) -> tensor<1x3x2xi32>
// CHECK-NEXT: %3 = graph.add %arg0, %arg0 : (tensor<1x3x4xi8>, tensor<1x3x4xi8>) -> tensor<1x3x4xi8>
func.func @matmul_i8(%a: tensor<1x3x4xi8>, %b: tensor<1x4x2xi8>) -> (tensor<1x3x2xi32>, tensor<1x3x4xi8>) {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x3x4xi8>, tensor<1x4x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x2xi32>
  %1 = tosa.add %a, %a : (tensor<1x3x4xi8>, tensor<1x3x4xi8>) -> tensor<1x3x4xi8>
  return %0, %1 : tensor<1x3x2xi32>, tensor<1x3x4xi8>
}

// f16 operands accumulated in f32 (TOSA's f16 matmul with an f32 result): widened
// first; f16 arithmetic imports as f16 ops (widen-half computes them in f32 later).
// CHECK-LABEL: func.func @matmul_f16
// CHECK-NEXT: %0 = graph.cast %arg0 : (tensor<1x3x4xf16>) -> tensor<1x3x4xf32>
// CHECK-NEXT: %1 = graph.cast %arg1 : (tensor<1x4x2xf16>) -> tensor<1x4x2xf32>
// CHECK-NEXT: %2 = graph.matmul %0, %1 : (tensor<1x3x4xf32>, tensor<1x4x2xf32>) -> tensor<1x3x2xf32>
// CHECK-NEXT: %3 = graph.add %arg0, %arg0 : (tensor<1x3x4xf16>, tensor<1x3x4xf16>) -> tensor<1x3x4xf16>
func.func @matmul_f16(%a: tensor<1x3x4xf16>, %b: tensor<1x4x2xf16>) -> (tensor<1x3x2xf32>, tensor<1x3x4xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x3x4xf16>, tensor<1x4x2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x3x2xf32>
  %1 = tosa.add %a, %a : (tensor<1x3x4xf16>, tensor<1x3x4xf16>) -> tensor<1x3x4xf16>
  return %0, %1 : tensor<1x3x2xf32>, tensor<1x3x4xf16>
}

// transpose_conv2d: a conv2d over the input with stride - 1 zeros between its cells
// (reshape, pad, reshape, slice), padded by kernel - 1 + out_pad, with the kernel flipped
// (two gathers); out_pad may crop (-1 on the right).
// CHECK-LABEL: func.func @transpose_conv2d
// CHECK: graph.reshape %{{[0-9]+}} {shape = [1, 4, 2, 1, 3, 1]}
// CHECK-NEXT: graph.pad %{{[0-9]+}} {high = [0, 0, 0, 1, 0, 0], low = [0, 0, 0, 0, 0, 0]}
// CHECK-NEXT: graph.reshape %{{[0-9]+}} {shape = [1, 4, 4, 3]}
// CHECK-NEXT: graph.slice %{{[0-9]+}} {sizes = [1, 4, 3, 3], starts = [0, 0, 0, 0]}
// CHECK: graph.gather %arg1, %{{[0-9]+}} {axis = 1}
// CHECK: graph.gather %{{[0-9]+}}, %{{[0-9]+}} {axis = 2}
// CHECK: graph.conv2d {{.*}}{dilations = [1, 1], groups = 1, pads = [2, 2, 2, 0], strides = [1, 1]} : (tensor<1x4x3x3xf32>, tensor<5x4x3x2xf32>, tensor<5xf32>) -> tensor<1x5x5x4xf32>
func.func @transpose_conv2d(%x: tensor<1x2x3x4xf32>, %w: tensor<5x3x2x4xf32>, %b: tensor<5xf32>) -> tensor<1x5x4x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 1, -1>, stride = array<i64: 2, 1>} : (tensor<1x2x3x4xf32>, tensor<5x3x2x4xf32>, tensor<5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x4x5xf32>
  return %0 : tensor<1x5x4x5xf32>
}

// NHWC input and OHWI weights to NCHW/OIHW and back; TOSA's pad
// [top, bottom, left, right] becomes graph's [top, left, bottom, right].
// CHECK-LABEL: func.func @conv2d
// CHECK: %0 = graph.transpose %arg1 {perm = [0, 3, 1, 2]} : (tensor<4x3x3x3xf32>) -> tensor<4x3x3x3xf32>
// CHECK-NEXT: %1 = graph.transpose %arg0 {perm = [0, 3, 1, 2]} : (tensor<1x8x8x3xf32>) -> tensor<1x3x8x8xf32>
// CHECK-NEXT: %2 = graph.conv2d %1, %0, %arg2 {dilations = [1, 2], groups = 1, pads = [1, 1, 0, 1], strides = [2, 2]}
// CHECK-NEXT: %3 = graph.transpose %2 {perm = [0, 2, 3, 1]} : (tensor<1x4x4x3xf32>) -> tensor<1x4x3x4xf32>
// CHECK-NEXT: return %3
func.func @conv2d(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x3x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 2>, pad = array<i64: 1, 0, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3x4xf32>
  return %0 : tensor<1x4x3x4xf32>
}

// HWCM weights become [C*M, 1, KH, KW] with groups = C; a one-element bias
// broadcasts to every output channel.
// CHECK-LABEL: func.func @depthwise
// CHECK: %1 = graph.transpose %arg1 {perm = [2, 3, 0, 1]} : (tensor<3x3x2x3xf32>) -> tensor<2x3x3x3xf32>
// CHECK-NEXT: %2 = graph.reshape %1 {shape = [6, 1, 3, 3]}
// CHECK-NEXT: %3 = graph.broadcast_to %0 {shape = [6]}
// CHECK-NEXT: %4 = graph.transpose %arg0 {perm = [0, 3, 1, 2]}
// CHECK-NEXT: %5 = graph.conv2d %4, %2, %3 {dilations = [1, 1], groups = 2, pads = [1, 1, 1, 1], strides = [1, 1]}
// CHECK-NEXT: %6 = graph.transpose %5 {perm = [0, 2, 3, 1]}
func.func @depthwise(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x3xf32>) -> tensor<1x5x5x6xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x5x5x2xf32>, tensor<3x3x2x3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x5x5x6xf32>
  return %0 : tensor<1x5x5x6xf32>
}

// Pools in NCHW between transposes; avg_pool2d divides by the window's input
// cells only (count_include_pad = false).
// CHECK-LABEL: func.func @pools
// CHECK: %0 = graph.transpose %arg0 {perm = [0, 3, 1, 2]}
// CHECK-NEXT: %1 = graph.max_pool2d %0 {kernel = [3, 3], pads = [1, 1, 0, 0], strides = [2, 2]}
// CHECK-NEXT: %2 = graph.transpose %1 {perm = [0, 2, 3, 1]}
// CHECK: %4 = graph.avg_pool2d %3 {count_include_pad = false, kernel = [2, 2], pads = [0, 0, 0, 0], strides = [2, 2]}
func.func @pools(%x: tensor<1x6x6x2xf32>) -> (tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x6x6x2xf32>) -> tensor<1x3x3x2xf32>
  %1 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x6x6x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x2xf32>
  return %0, %1 : tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>
}

// MLIR 22 prints NaN modes as enum attributes.
// CHECK-LABEL: func.func @nan_mode_enum
// CHECK-NEXT: %0 = graph.clamp %arg0 {max = 1.0, min = 0.0}
// CHECK-NEXT: %1 = graph.equal %arg0, %arg0
// CHECK-NEXT: %2 = graph.constant {value = dense<0.0> : tensor<f32>}
// CHECK-NEXT: %3 = graph.select %1, %0, %2
func.func @nan_mode_enum(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.clamp %x {min_val = 0.0 : f32, max_val = 1.0 : f32, nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// The generic form of a pretty op parses too.
// CHECK-LABEL: func.func @generic_form
// CHECK-NEXT: %0 = graph.sub %arg0, %arg0
func.func @generic_form(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tosa.sub"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Integer ops: intdiv is graph.div on integers (which truncates toward zero); the
// bitwise and logical ops are graph.and/or/xor/not (on i1 for the logical ones); the
// shifts keep their operands; arithmetic_right_shift with round adds the last bit
// shifted out where the amount is positive.
// CHECK-LABEL: func.func @integer
// CHECK-NEXT: %0 = graph.div %arg0, %arg1 : (tensor<6xi64>, tensor<1xi64>) -> tensor<6xi64>
// CHECK-NEXT: %1 = graph.and %arg2, %arg3 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: %2 = graph.or %1, %arg3
// CHECK-NEXT: %3 = graph.xor %2, %arg3
// CHECK-NEXT: %4 = graph.not %3 : (tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: %5 = graph.shift_left %4, %arg3 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT: %6 = graph.shift_right_logical %5, %arg3
// CHECK-NEXT: %7 = graph.shift_right %6, %arg3
// CHECK-NEXT: %8 = graph.shift_right %7, %arg3
// CHECK-NEXT: %9 = graph.constant {value = dense<0> : tensor<i32>}
// CHECK-NEXT: %10 = graph.constant {value = dense<1> : tensor<i32>}
// CHECK-NEXT: %11 = graph.greater %arg3, %9 : (tensor<4xi32>, tensor<i32>) -> tensor<4xi1>
// CHECK-NEXT: %12 = graph.sub %arg3, %10
// CHECK-NEXT: %13 = graph.select %11, %12, %9
// CHECK-NEXT: %14 = graph.shift_right %7, %13
// CHECK-NEXT: %15 = graph.and %14, %10
// CHECK-NEXT: %16 = graph.select %11, %15, %9
// CHECK-NEXT: %17 = graph.add %8, %16
// CHECK-NEXT: %18 = graph.and %arg4, %arg5 : (tensor<3xi1>, tensor<1xi1>) -> tensor<3xi1>
// CHECK-NEXT: %19 = graph.or %18, %arg5
// CHECK-NEXT: %20 = graph.xor %19, %arg5
// CHECK-NEXT: %21 = graph.not %20 : (tensor<3xi1>) -> tensor<3xi1>
// CHECK-NEXT: return %0, %17, %21
func.func @integer(%a: tensor<6xi64>, %b: tensor<1xi64>, %c: tensor<4xi32>, %d: tensor<4xi32>, %p: tensor<3xi1>, %q: tensor<1xi1>)
    -> (tensor<6xi64>, tensor<4xi32>, tensor<3xi1>) {
  %0 = tosa.intdiv %a, %b : (tensor<6xi64>, tensor<1xi64>) -> tensor<6xi64>
  %1 = tosa.bitwise_and %c, %d : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = tosa.bitwise_or %1, %d : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %3 = tosa.bitwise_xor %2, %d : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %4 = tosa.bitwise_not %3 : (tensor<4xi32>) -> tensor<4xi32>
  %5 = tosa.logical_left_shift %4, %d : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %6 = tosa.logical_right_shift %5, %d : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %7 = tosa.arithmetic_right_shift %6, %d {round = false} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %8 = tosa.arithmetic_right_shift %7, %d {round = true} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %9 = tosa.logical_and %p, %q : (tensor<3xi1>, tensor<1xi1>) -> tensor<3xi1>
  %10 = tosa.logical_or %9, %q : (tensor<3xi1>, tensor<1xi1>) -> tensor<3xi1>
  %11 = tosa.logical_xor %10, %q : (tensor<3xi1>, tensor<1xi1>) -> tensor<3xi1>
  %12 = tosa.logical_not %11 : (tensor<3xi1>) -> tensor<3xi1>
  return %0, %8, %12 : tensor<6xi64>, tensor<4xi32>, tensor<3xi1>
}

// Sine and cosine (rotary position embeddings) map one to one.
// CHECK-LABEL: func.func @trigonometry
// CHECK-NEXT: %0 = graph.sin %arg0 : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %1 = graph.cos %arg0 : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: return %0, %1
func.func @trigonometry(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %0 = tosa.sin %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = "tosa.cos"(%x) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0, %1 : tensor<2x8xf32>, tensor<2x8xf32>
}

// conv3d: the input padded in depth (front 1), then for each kernel depth the input
// depths it reads (start kd * dilation, step stride) folded into the batch, convolved
// in 2-D with that depth's weights (the bias in the first only), summed, unfolded.
// CHECK-LABEL: func.func @conv3d
// CHECK: %[[P:[0-9]+]] = graph.pad %arg0 {high = [0, 0, 0, 0, 0], low = [0, 1, 0, 0, 0]}
// CHECK: graph.slice %[[P]] {sizes = [1, 2, 4, 4, 2], starts = [0, 0, 0, 0, 0], steps = [1, 1, 1, 1, 1]}
// CHECK: graph.slice %arg1 {sizes = [5, 1, 3, 3, 2], starts = [0, 0, 0, 0, 0]}
// CHECK: %[[A:[0-9]+]] = graph.conv2d %{{[0-9]+}}, %{{[0-9]+}}, %arg2 {dilations = [1, 1], groups = 1, pads = [0, 1, 0, 1], strides = [2, 1]} : (tensor<2x2x4x4xf32>, tensor<5x2x3x3xf32>, tensor<5xf32>) -> tensor<2x5x1x4xf32>
// CHECK: graph.slice %[[P]] {sizes = [1, 2, 4, 4, 2], starts = [0, 2, 0, 0, 0], steps = [1, 1, 1, 1, 1]}
// CHECK: %[[B:[0-9]+]] = graph.conv2d %{{[0-9]+}}, %{{[0-9]+}} {dilations = [1, 1], groups = 1, pads = [0, 1, 0, 1], strides = [2, 1]}
// CHECK: %[[S:[0-9]+]] = graph.add %[[A]], %[[B]]
// CHECK: %[[T:[0-9]+]] = graph.transpose %[[S]] {perm = [0, 2, 3, 1]}
// CHECK: graph.reshape %[[T]] {shape = [1, 2, 1, 4, 5]}
func.func @conv3d(%x: tensor<1x3x4x4x2xf32>, %w: tensor<5x2x3x3x2xf32>, %b: tensor<5xf32>) -> tensor<1x2x1x4x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv3d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 1, 1>, pad = array<i64: 1, 0, 0, 0, 1, 1>, stride = array<i64: 1, 2, 1>} : (tensor<1x3x4x4x2xf32>, tensor<5x2x3x3x2xf32>, tensor<5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x1x4x5xf32>
  return %0 : tensor<1x2x1x4x5xf32>
}

{-#
  dialect_resources: {
    builtin: {
      idx: "0x08000000010000000000000002000000000000000300000000000000FFFFFFFFFFFFFFFF"
    }
  }
#-}
