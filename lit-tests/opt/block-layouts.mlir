// block-layouts: convolutions, pools and constant-weight matmuls become kernel ops in
// blocked layouts at the target's vector width.
// RUN: %tcc-opt %s --split-input-file --pass-pipeline='block-layouts{vector-bits=128}' | FileCheck %s
// RUN: %tcc-opt %s --split-input-file --pass-pipeline='block-layouts{vector-bits=512}' | FileCheck %s --check-prefix=AVX512
// RUN: %tcc-opt %s --split-input-file --pass-pipeline='block-layouts{vector-bits=512 bf16-dot=true}' | FileCheck %s --check-prefix=BF16
// RUN: %tcc-opt %s --split-input-file --pass-pipeline='block-layouts{vector-bits=512 bf16-dot=true amx-bf16=true}' | FileCheck %s --check-prefix=AMX
// RUN: %tcc-opt %s --split-input-file --pass-pipeline='block-layouts{vector-bits=128 ukernels=sse}' | FileCheck %s --check-prefix=UKERNELS

// Channels round up to whole blocks (6 -> 8, 5 -> 8), the logical ones recorded for FLOP counts; the filter is packed OIHW4i4o,
// the bias becomes the epilogue's add; the epilogue then zeroes the 3 padded output
// channels (a per-channel mask, 1 for real channels, and a zero); the result goes back
// to NCHW with 5 channels.
// CHECK-LABEL: func.func @conv
// CHECK: %[[X:.*]] = graph.layout_transform %arg0 {dst = "NCHW4c", src = "NCHW"} : (tensor<1x6x8x8xf32>) -> tensor<1x2x8x8x4xf32>
// CHECK: %[[W:.*]] = graph.layout_transform %{{.*}} {dst = "OIHW4i4o", src = "OIHW"} : (tensor<5x6x3x3xf32>) -> tensor<2x2x3x3x4x4xf32>
// CHECK: %[[B:.*]] = graph.layout_transform %{{.*}} {dst = "NCHW4c", src = "NCHW"} : (tensor<1x5x1x1xf32>) -> tensor<1x2x1x1x4xf32>
// CHECK: %[[M:.*]] = graph.constant {value = dense<{{\[\[\[\[\[}}1.0, 1.0, 1.0, 1.0]]], {{\[\[\[}}1.0, 0.0, 0.0, 0.0]]]]]> : tensor<1x2x1x1x4xf32>}
// CHECK: %[[Z:.*]] = graph.constant {value = dense<0.0> : tensor<f32>}
// CHECK: %[[Y:.*]] = graph.conv2d_nchwc %[[X]], %[[W]], %[[B]], %[[M]], %[[Z]] {dilations = [1, 1], groups = 1, logical_channels = [6, 5], pads = [1, 1, 1, 1], strides = [1, 1]}
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: tensor<1x2x8x8x4xf32>, %[[EB:.*]]: tensor<1x2x1x1x4xf32>, %[[EM:.*]]: tensor<1x2x1x1x4xf32>, %[[EZ:.*]]: tensor<f32>):
// CHECK-NEXT: %[[S:.*]] = graph.add %[[ACC]], %[[EB]]
// CHECK-NEXT: %[[K:.*]] = graph.greater %[[EM]], %[[EZ]] : (tensor<1x2x1x1x4xf32>, tensor<f32>) -> tensor<1x2x1x1x4xi1>
// CHECK-NEXT: %[[R:.*]] = graph.select %[[K]], %[[S]], %[[EZ]]
// CHECK-NEXT: graph.yield %[[R]]
// CHECK: graph.layout_transform %[[Y]] {dst = "NCHW", src = "NCHW4c"} : (tensor<1x2x8x8x4xf32>) -> tensor<1x5x8x8xf32>
// With 16 lanes, 6 input channels are fewer than a block: they stay unblocked; the
// output is one (padded) block of 16.
// AVX512-LABEL: func.func @conv
// AVX512: graph.layout_transform %arg0 {dst = "NCHW1c", src = "NCHW"} : (tensor<1x6x8x8xf32>) -> tensor<1x6x8x8x1xf32>
// AVX512: graph.conv2d_nchwc {{.*}} -> tensor<1x1x8x8x16xf32>
func.func @conv(%x: tensor<1x6x8x8xf32>) -> tensor<1x5x8x8xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<5x6x3x3xf32>} : () -> tensor<5x6x3x3xf32>
  %b = graph.constant {value = dense<0.25> : tensor<5xf32>} : () -> tensor<5xf32>
  %y = graph.conv2d %x, %w, %b {pads = [1, 1, 1, 1]} : (tensor<1x6x8x8xf32>, tensor<5x6x3x3xf32>, tensor<5xf32>) -> tensor<1x5x8x8xf32>
  return %y : tensor<1x5x8x8xf32>
}

// -----

// An image's three colours stay unblocked (NCHW1c); depthwise keeps one input channel
// per output channel (filter OIHW1i4o, groups over the padded channels).
// CHECK-LABEL: func.func @stem_and_depthwise
// CHECK: graph.layout_transform %arg0 {dst = "NCHW1c", src = "NCHW"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8x1xf32>
// CHECK: graph.conv2d_nchwc {{.*}} : (tensor<1x3x8x8x1xf32>, tensor<2x3x3x3x1x4xf32>, tensor<1x2x1x1x4xf32>, tensor<f32>) -> tensor<1x2x4x4x4xf32>
// CHECK: graph.layout_transform {{.*}} {dst = "OIHW1i4o", src = "OIHW"} : (tensor<6x1x3x3xf32>) -> tensor<2x1x3x3x1x4xf32>
// CHECK: graph.conv2d_nchwc {{.*}}groups = 8{{.*}} : (tensor<1x2x4x4x4xf32>, tensor<2x1x3x3x1x4xf32>) -> tensor<1x2x4x4x4xf32>
func.func @stem_and_depthwise(%x: tensor<1x3x8x8xf32>) -> tensor<1x6x4x4xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<6x3x3x3xf32>} : () -> tensor<6x3x3x3xf32>
  %y = graph.conv2d %x, %w {strides = [2, 2], pads = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<6x3x3x3xf32>) -> tensor<1x6x4x4xf32>
  %d = graph.constant {value = dense<0.5> : tensor<6x1x3x3xf32>} : () -> tensor<6x1x3x3xf32>
  %z = graph.conv2d %y, %d {pads = [1, 1, 1, 1], groups = 6} : (tensor<1x6x4x4xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x4x4xf32>
  return %z : tensor<1x6x4x4xf32>
}

// -----

// Pools run blocked; a matmul by a constant gets its right operand packed (10 columns
// in blocks of 4: the last one padded); a matmul of two activations is batched.
// CHECK-LABEL: func.func @pool_and_matmuls
// CHECK: graph.max_pool2d_nchwc {{.*}} : (tensor<1x1x4x4x4xf32>) -> tensor<1x1x2x2x4xf32>
// CHECK: graph.layout_transform {{.*}} {dst = "NK{{[0-9]+}}n", src = "KN"} : (tensor<16x10xf32>)
// CHECK: graph.matmul_packed
// CHECK: graph.batch_matmul %arg1, %arg2 : (tensor<2x3x5xf32>, tensor<2x5x7xf32>) -> tensor<2x3x7xf32>
// So is one by a batch of constants (a Winograd convolution's filters).
// CHECK: %[[U:.*]] = graph.constant {{.*}} tensor<2x5x7xf32>
// CHECK: graph.batch_matmul %arg1, %[[U]] : (tensor<2x3x5xf32>, tensor<2x5x7xf32>) -> tensor<2x3x7xf32>
func.func @pool_and_matmuls(%x: tensor<1x4x4x4xf32>, %a: tensor<2x3x5xf32>, %b: tensor<2x5x7xf32>) -> (tensor<1x4x2x2xf32>, tensor<1x10xf32>, tensor<2x3x7xf32>, tensor<2x3x7xf32>) {
  %p = graph.max_pool2d %x {kernel = [2, 2], strides = [2, 2]} : (tensor<1x4x4x4xf32>) -> tensor<1x4x2x2xf32>
  %f = graph.reshape %x {shape = [4, 16]} : (tensor<1x4x4x4xf32>) -> tensor<4x16xf32>
  %r = graph.slice %f {starts = [0, 0], sizes = [1, 16]} : (tensor<4x16xf32>) -> tensor<1x16xf32>
  %w = graph.constant {value = dense<0.5> : tensor<16x10xf32>} : () -> tensor<16x10xf32>
  %m = graph.matmul %r, %w : (tensor<1x16xf32>, tensor<16x10xf32>) -> tensor<1x10xf32>
  %q = graph.matmul %a, %b : (tensor<2x3x5xf32>, tensor<2x5x7xf32>) -> tensor<2x3x7xf32>
  %u = graph.constant {value = dense<0.25> : tensor<2x5x7xf32>} : () -> tensor<2x5x7xf32>
  %c = graph.matmul %a, %u : (tensor<2x3x5xf32>, tensor<2x5x7xf32>) -> tensor<2x3x7xf32>
  return %p, %m, %q, %c : tensor<1x4x2x2xf32>, tensor<1x10xf32>, tensor<2x3x7xf32>, tensor<2x3x7xf32>
}

// -----

// A strided 1x1 convolution (a ResNet downsample) subsamples its input with a strided
// slice and runs as a stride-1 pointwise one over the 4x4 pixels it reads.
// CHECK-LABEL: func.func @downsample
// CHECK: %[[S:.*]] = graph.slice %arg0 {sizes = [1, 8, 4, 4], starts = [0, 0, 0, 0], steps = [1, 1, 2, 2]} : (tensor<1x8x7x7xf32>) -> tensor<1x8x4x4xf32>
// CHECK: %[[X:.*]] = graph.layout_transform %[[S]] {dst = "NCHW4c", src = "NCHW"}
// CHECK: graph.conv2d_nchwc %[[X]], {{.*}}strides = [1, 1]} : (tensor<1x2x4x4x4xf32>, tensor<4x2x1x1x4x4xf32>) -> tensor<1x4x4x4x4xf32>
func.func @downsample(%x: tensor<1x8x7x7xf32>) -> tensor<1x16x4x4xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<16x8x1x1xf32>} : () -> tensor<16x8x1x1xf32>
  %y = graph.conv2d %x, %w {strides = [2, 2]} : (tensor<1x8x7x7xf32>, tensor<16x8x1x1xf32>) -> tensor<1x16x4x4xf32>
  return %y : tensor<1x16x4x4xf32>
}

// -----

// Groups of 5 channels fill no 4-lane block, and 3-pixel rows are too narrow for the
// row template: the input is read in blocks of gcd(5, 4) = 1 channel (each group whole
// blocks) and each group's output channels are padded to whole blocks (NGCHW4c viewed
// as NCHW4c of 2 x 2 blocks, the filter GOIHW1i4o), the padded output lanes of each
// group zeroed by the epilogue's mask.
// CHECK-LABEL: func.func @group_padded
// CHECK: graph.layout_transform %arg0 {dst = "NCHW1c", src = "NCHW"} : (tensor<1x10x3x3xf32>) -> tensor<1x10x3x3x1xf32>
// CHECK: graph.layout_transform {{.*}} {dst = "GOIHW1i4o", src = "GOIHW"} : (tensor<2x5x5x3x3xf32>) -> tensor<2x2x5x3x3x1x4xf32>
// CHECK: dense<{{\[\[\[\[\[}}1.0, 1.0, 1.0, 1.0]]], {{\[\[\[}}1.0, 0.0, 0.0, 0.0]]], {{\[\[\[}}1.0, 1.0, 1.0, 1.0]]], {{\[\[\[}}1.0, 0.0, 0.0, 0.0]]]]]>
// CHECK: graph.conv2d_nchwc {{.*}} {dilations = [1, 1], groups = 2, logical_channels = [10, 10], pads = [1, 1, 1, 1], strides = [1, 1]} : (tensor<1x10x3x3x1xf32>, tensor<4x5x3x3x1x4xf32>
// CHECK: graph.layout_transform {{.*}} {dst = "NGCHW", src = "NGCHW4c"} : (tensor<1x2x2x3x3x4xf32>) -> tensor<1x2x5x3x3xf32>
// CHECK: graph.reshape {{.*}} {shape = [1, 10, 3, 3]}
func.func @group_padded(%x: tensor<1x10x3x3xf32>) -> tensor<1x10x3x3xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<10x5x3x3xf32>} : () -> tensor<10x5x3x3xf32>
  %b = graph.constant {value = dense<0.25> : tensor<10xf32>} : () -> tensor<10xf32>
  %0 = graph.conv2d %x, %w, %b {pads = [1, 1, 1, 1], groups = 2} : (tensor<1x10x3x3xf32>, tensor<10x5x3x3xf32>, tensor<10xf32>) -> tensor<1x10x3x3xf32>
  return %0 : tensor<1x10x3x3xf32>
}

// -----

// A channel multiplier (2 output channels per input channel) fills no block: blocks of
// one channel (NCHW1c, the same memory as NCHW) for the row template, the padding moved
// into a graph.pad of the input, the bias the epilogue's add.
// CHECK-LABEL: func.func @multiplier
// CHECK: %[[P:.*]] = graph.pad %arg0 {high = [0, 0, 1, 1], low = [0, 0, 1, 1]} : (tensor<1x3x6x6xf32>) -> tensor<1x3x8x8xf32>
// CHECK: graph.layout_transform %[[P]] {dst = "NCHW1c", src = "NCHW"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8x1xf32>
// CHECK: graph.layout_transform {{.*}} {dst = "OIHW1i1o", src = "OIHW"} : (tensor<6x1x3x3xf32>) -> tensor<6x1x3x3x1x1xf32>
// CHECK: graph.conv2d_nchwc {{.*}} {dilations = [1, 1], groups = 3, logical_channels = [3, 6], pads = [0, 0, 0, 0], strides = [1, 1]} : (tensor<1x3x8x8x1xf32>, tensor<6x1x3x3x1x1xf32>, tensor<1x6x1x1x1xf32>) -> tensor<1x6x6x6x1xf32>
// CHECK: graph.add
// CHECK: graph.layout_transform {{.*}} {dst = "NCHW", src = "NCHW1c"} : (tensor<1x6x6x6x1xf32>) -> tensor<1x6x6x6xf32>
func.func @multiplier(%x: tensor<1x3x6x6xf32>) -> tensor<1x6x6x6xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<6x1x3x3xf32>} : () -> tensor<6x1x3x3xf32>
  %b = graph.constant {value = dense<0.25> : tensor<6xf32>} : () -> tensor<6xf32>
  %0 = graph.conv2d %x, %w, %b {pads = [1, 1, 1, 1], groups = 3} : (tensor<1x3x6x6xf32>, tensor<6x1x3x3xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

// A channel multiplier of 2 on whole blocks of input channels (8 = two blocks of 4),
// where the code does not call microkernels: blocked like a depthwise convolution, its
// filter's output channels reordered (reshape, transpose, reshape: a constant, folded
// later) so that filter block i*2 + j holds multiple j of input block i's channels; the
// depthwise template interleaves the two products into the output's blocks. With
// microkernels, the row template's blocks of one channel.
// CHECK-LABEL: func.func @multiplier_blocks
// CHECK: %[[X:.*]] = graph.layout_transform %arg0 {dst = "NCHW4c", src = "NCHW"} : (tensor<1x8x6x6xf32>) -> tensor<1x2x6x6x4xf32>
// CHECK: %[[S:.*]] = graph.reshape {{.*}} {shape = [2, 4, 2, 9]} : (tensor<16x1x3x3xf32>) -> tensor<2x4x2x9xf32>
// CHECK: %[[T:.*]] = graph.transpose %[[S]] {perm = [0, 2, 1, 3]} : (tensor<2x4x2x9xf32>) -> tensor<2x2x4x9xf32>
// CHECK: %[[R:.*]] = graph.reshape %[[T]] {shape = [16, 1, 3, 3]} : (tensor<2x2x4x9xf32>) -> tensor<16x1x3x3xf32>
// CHECK: %[[W:.*]] = graph.layout_transform %[[R]] {dst = "OIHW1i4o", src = "OIHW"} : (tensor<16x1x3x3xf32>) -> tensor<4x1x3x3x1x4xf32>
// CHECK: graph.conv2d_nchwc %[[X]], %[[W]], {{.*}} {dilations = [1, 1], groups = 8, logical_channels = [8, 16], pads = [1, 1, 1, 1], strides = [1, 1]} : (tensor<1x2x6x6x4xf32>, tensor<4x1x3x3x1x4xf32>, tensor<1x4x1x1x4xf32>) -> tensor<1x4x6x6x4xf32>
// UKERNELS-LABEL: func.func @multiplier_blocks
// UKERNELS: graph.conv2d_nchwc {{.*}} : (tensor<1x8x8x8x1xf32>, tensor<16x1x3x3x1x1xf32>, {{.*}}) -> tensor<1x16x6x6x1xf32>
func.func @multiplier_blocks(%x: tensor<1x8x6x6xf32>) -> tensor<1x16x6x6xf32> {
  %w = graph.constant {value = dense<0.5> : tensor<16x1x3x3xf32>} : () -> tensor<16x1x3x3xf32>
  %b = graph.constant {value = dense<0.25> : tensor<16xf32>} : () -> tensor<16xf32>
  %0 = graph.conv2d %x, %w, %b {pads = [1, 1, 1, 1], groups = 8} : (tensor<1x8x6x6xf32>, tensor<16x1x3x3xf32>, tensor<16xf32>) -> tensor<1x16x6x6xf32>
  return %0 : tensor<1x16x6x6xf32>
}

// -----

// With the bf16 dot microkernel, a matmul whose left operand is a widened bf16 value
// takes the bf16 value and its constant right operand cast to bf16 and packed in pairs
// of rows (NK{n}n2k, the block dividing N), with an f32 result. N not a multiple of 16
// lanes is computed as the next multiple (zero weights past N) and sliced back. Without
// the dot, or with K odd, or weights that are not bf16 values (0.1: the cast would round
// them, and fp32 must stay exact), the f32 packing.
// BF16-LABEL: func.func @bf16_operands
// BF16: %[[W:.*]] = graph.cast %{{.*}} : (tensor<6x48xf32>) -> tensor<6x48xbf16>
// BF16: %[[P:.*]] = graph.layout_transform %[[W]] {dst = "NK{{(16|48)}}n2k", src = "KN"} : (tensor<6x48xbf16>) -> tensor<{{(3x3x16|1x3x48)}}x2xbf16>
// BF16: graph.matmul_packed %arg0, %[[P]] : (tensor<4x6xbf16>, tensor<{{.*}}x2xbf16>) -> tensor<4x48xf32>
// BF16: %[[V:.*]] = graph.layout_transform {{.*}} {dst = "NK{{(16|48)}}n2k", src = "KN"} : (tensor<6x40xbf16>) -> tensor<{{(3x3x16|1x3x48)}}x2xbf16>
// BF16: %[[M:.*]] = graph.matmul_packed %arg0, %[[V]] : ({{.*}}) -> tensor<4x48xf32>
// BF16: graph.slice %[[M]] {sizes = [4, 40], starts = [0, 0]} : (tensor<4x48xf32>) -> tensor<4x40xf32>
// BF16: graph.layout_transform {{.*}} {dst = "NK{{[0-9]+}}n", src = "KN"} : (tensor<5x48xf32>)
// BF16: graph.layout_transform {{.*}} {dst = "NK{{[0-9]+}}n", src = "KN"} : (tensor<6x32xf32>)
// AVX512-LABEL: func.func @bf16_operands
// AVX512-NOT: bf16> ->{{.*}}graph.matmul_packed
// AVX512: graph.matmul_packed %{{.*}} : (tensor<4x6xf32>
func.func @bf16_operands(%x: tensor<4x6xbf16>, %y: tensor<4x5xbf16>) -> (tensor<4x48xf32>, tensor<4x40xf32>, tensor<4x48xf32>, tensor<4x32xf32>) {
  %a = graph.cast %x : (tensor<4x6xbf16>) -> tensor<4x6xf32>
  %w = graph.constant {value = dense<0.5> : tensor<6x48xf32>} : () -> tensor<6x48xf32>
  %0 = graph.matmul %a, %w : (tensor<4x6xf32>, tensor<6x48xf32>) -> tensor<4x48xf32>
  %v = graph.constant {value = dense<0.5> : tensor<6x40xf32>} : () -> tensor<6x40xf32>
  %1 = graph.matmul %a, %v : (tensor<4x6xf32>, tensor<6x40xf32>) -> tensor<4x40xf32>
  %b = graph.cast %y : (tensor<4x5xbf16>) -> tensor<4x5xf32>
  %u = graph.constant {value = dense<0.5> : tensor<5x48xf32>} : () -> tensor<5x48xf32>
  %2 = graph.matmul %b, %u : (tensor<4x5xf32>, tensor<5x48xf32>) -> tensor<4x48xf32>
  %t = graph.constant {value = dense<0.1> : tensor<6x32xf32>} : () -> tensor<6x32xf32>
  %3 = graph.matmul %a, %t : (tensor<4x6xf32>, tensor<6x32xf32>) -> tensor<4x32xf32>
  return %0, %1, %2, %3 : tensor<4x48xf32>, tensor<4x40xf32>, tensor<4x48xf32>, tensor<4x32xf32>
}

// -----

// A convolution of a widened bf16 input with a constant filter: the bf16 input in
// blocks of 16, the filter cast to bf16 and packed with pairs of input channels side by
// side (OIHW8i16o2i), an f32 result. The first layer's 3 channels are read in blocks
// of 4 (two pairs, the fourth channel zero).
// BF16-LABEL: func.func @bf16_conv
// BF16: %[[X:.*]] = graph.layout_transform %arg0 {dst = "NCHW16c", src = "NCHW"} : (tensor<1x32x6x6xbf16>) -> tensor<1x2x6x6x16xbf16>
// BF16: %[[W:.*]] = graph.cast %{{.*}} : (tensor<16x32x3x3xf32>) -> tensor<16x32x3x3xbf16>
// BF16: %[[P:.*]] = graph.layout_transform %[[W]] {dst = "OIHW8i16o2i", src = "OIHW"} : (tensor<16x32x3x3xbf16>) -> tensor<1x2x3x3x8x16x2xbf16>
// BF16: graph.conv2d_nchwc %[[X]], %[[P]], {{.*}} : (tensor<1x2x6x6x16xbf16>, tensor<1x2x3x3x8x16x2xbf16>, tensor<1x1x1x1x16xf32>) -> tensor<1x1x6x6x16xf32>
// BF16: graph.layout_transform %arg1 {dst = "NCHW4c", src = "NCHW"} : (tensor<1x3x8x8xbf16>) -> tensor<1x1x8x8x4xbf16>
// BF16: graph.conv2d_nchwc {{.*}} : (tensor<1x1x8x8x4xbf16>, tensor<1x1x3x3x2x16x2xbf16>
func.func @bf16_conv(%x: tensor<1x32x6x6xbf16>, %y: tensor<1x3x8x8xbf16>) -> (tensor<1x16x6x6xf32>, tensor<1x16x8x8xf32>) {
  %a = graph.cast %x : (tensor<1x32x6x6xbf16>) -> tensor<1x32x6x6xf32>
  %w = graph.constant {value = dense<0.5> : tensor<16x32x3x3xf32>} : () -> tensor<16x32x3x3xf32>
  %b = graph.constant {value = dense<0.25> : tensor<16xf32>} : () -> tensor<16xf32>
  %0 = graph.conv2d %a, %w, %b {pads = [1, 1, 1, 1]} : (tensor<1x32x6x6xf32>, tensor<16x32x3x3xf32>, tensor<16xf32>) -> tensor<1x16x6x6xf32>
  %c = graph.cast %y : (tensor<1x3x8x8xbf16>) -> tensor<1x3x8x8xf32>
  %v = graph.constant {value = dense<0.5> : tensor<16x3x3x3xf32>} : () -> tensor<16x3x3x3xf32>
  %1 = graph.conv2d %c, %v, %b {pads = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  return %0, %1 : tensor<1x16x6x6xf32>, tensor<1x16x8x8xf32>
}

// -----

// On AMX tiles (`amx-bf16`), a bf16 convolution whose input and output channels fill
// blocks of 32 takes blocks of 32 (one `tdpbf16ps` takes 16 pairs of a row's
// channels), and a max pool of its result keeps them; with 16 input channels the
// input blocks stay 16 wide. An output a depthwise convolution reads (in blocks of 16)
// stays in blocks of 16, and so does the input of a convolution that reads one.
// AMX-LABEL: func.func @amx_blocks
// AMX: graph.layout_transform %arg0 {dst = "NCHW32c", src = "NCHW"} : (tensor<1x64x6x6xbf16>) -> tensor<1x2x6x6x32xbf16>
// AMX: graph.layout_transform %{{.*}} {dst = "OIHW16i32o2i", src = "OIHW"} : (tensor<64x64x3x3xbf16>) -> tensor<2x2x3x3x16x32x2xbf16>
// AMX: graph.conv2d_nchwc {{.*}} -> tensor<1x2x6x6x32xf32>
// AMX: graph.max_pool2d_nchwc %{{.*}} : (tensor<1x2x6x6x32xf32>) -> tensor<1x2x3x3x32xf32>
// AMX: graph.layout_transform %arg1 {dst = "NCHW16c", src = "NCHW"} : (tensor<1x16x6x6xbf16>) -> tensor<1x1x6x6x16xbf16>
// AMX: graph.conv2d_nchwc {{.*}} -> tensor<1x1x6x6x32xf32>
// AMX: graph.layout_transform %arg0 {dst = "NCHW32c", src = "NCHW"}
// AMX: graph.conv2d_nchwc {{.*}} -> tensor<1x4x6x6x16xf32>
// AMX: graph.conv2d_nchwc {{.*}} {{.*}}groups = 64{{.*}} -> tensor<1x4x6x6x16xf32>
// AMX: graph.layout_transform %{{.*}} {dst = "NCHW16c", src = "NCHW"} : (tensor<1x64x6x6xbf16>)
// AMX: graph.conv2d_nchwc {{.*}} : (tensor<1x4x6x6x16xbf16>, tensor<2x4x1x1x8x32x2xbf16>{{.*}} -> tensor<1x2x6x6x32xf32>
func.func @amx_blocks(%x: tensor<1x64x6x6xbf16>, %y: tensor<1x16x6x6xbf16>) -> (tensor<1x64x3x3xf32>, tensor<1x32x6x6xf32>, tensor<1x64x6x6xf32>) {
  %a = graph.cast %x : (tensor<1x64x6x6xbf16>) -> tensor<1x64x6x6xf32>
  %w = graph.constant {value = dense<0.5> : tensor<64x64x3x3xf32>} : () -> tensor<64x64x3x3xf32>
  %0 = graph.conv2d %a, %w {pads = [1, 1, 1, 1]} : (tensor<1x64x6x6xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x6x6xf32>
  %1 = graph.max_pool2d %0 {kernel = [2, 2], strides = [2, 2]} : (tensor<1x64x6x6xf32>) -> tensor<1x64x3x3xf32>
  %c = graph.cast %y : (tensor<1x16x6x6xbf16>) -> tensor<1x16x6x6xf32>
  %v = graph.constant {value = dense<0.5> : tensor<32x16x3x3xf32>} : () -> tensor<32x16x3x3xf32>
  %2 = graph.conv2d %c, %v {pads = [1, 1, 1, 1]} : (tensor<1x16x6x6xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x6x6xf32>
  %u = graph.constant {value = dense<0.5> : tensor<64x64x1x1xf32>} : () -> tensor<64x64x1x1xf32>
  %3 = graph.conv2d %a, %u : (tensor<1x64x6x6xf32>, tensor<64x64x1x1xf32>) -> tensor<1x64x6x6xf32>
  %d = graph.constant {value = dense<0.5> : tensor<64x1x3x3xf32>} : () -> tensor<64x1x3x3xf32>
  %4 = graph.conv2d %3, %d {pads = [1, 1, 1, 1], groups = 64} : (tensor<1x64x6x6xf32>, tensor<64x1x3x3xf32>) -> tensor<1x64x6x6xf32>
  %5 = graph.cast %4 : (tensor<1x64x6x6xf32>) -> tensor<1x64x6x6xbf16>
  %6 = graph.cast %5 : (tensor<1x64x6x6xbf16>) -> tensor<1x64x6x6xf32>
  %t = graph.constant {value = dense<0.5> : tensor<64x64x1x1xf32>} : () -> tensor<64x64x1x1xf32>
  %7 = graph.conv2d %6, %t : (tensor<1x64x6x6xf32>, tensor<64x64x1x1xf32>) -> tensor<1x64x6x6xf32>
  return %1, %2, %7 : tensor<1x64x3x3xf32>, tensor<1x32x6x6xf32>, tensor<1x64x6x6xf32>
}
