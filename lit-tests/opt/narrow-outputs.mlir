// narrow-outputs: a bf16 dot kernel (bf16 input, pair-packed weights, f32 result) whose
// result is only cast to bf16 stores it rounded: the cast joins its epilogue as the
// last step and the kernel's result is bf16. A padded convolution is configured to get
// its padding as a `graph.pad` (`pad_input`); input-channel passes, results read as
// f32 too, f32 kernels and epilogues the microkernel does not apply keep the cast.
// RUN: %tcc-opt %s --pass-pipeline='narrow-outputs' | FileCheck %s
// RUN: %tcc-opt %s --pass-pipeline='narrow-outputs,materialize-padding' | FileCheck %s --check-prefix=PAD
// RUN: %tcc-opt %s --pass-pipeline='narrow-outputs{depthwise=true}' | FileCheck %s --check-prefix=DW

// CHECK-LABEL: func.func @conv
// CHECK: %[[Y:.*]] = graph.conv2d_nchwc %arg0, %{{.*}}, %arg1 {config = {pad_input = true, tile_w = 3}, pads = [1, 1, 1, 1]} : ({{.*}}) -> tensor<1x1x4x4x16xbf16> ({
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: tensor<1x1x4x4x16xf32>, %[[B:.*]]: tensor<1x1x1x1x16xf32>):
// CHECK-NEXT: %[[S:.*]] = graph.add %[[ACC]], %[[B]]
// CHECK-NEXT: %[[R:.*]] = graph.relu %[[S]]
// CHECK-NEXT: %[[N:.*]] = graph.cast %[[R]] : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xbf16>
// CHECK-NEXT: graph.yield %[[N]] : tensor<1x1x4x4x16xbf16>
// CHECK: return %[[Y]] : tensor<1x1x4x4x16xbf16>
// PAD-LABEL: func.func @conv
// PAD: %[[P:.*]] = graph.pad %arg0 {high = [0, 0, 1, 1, 0], low = [0, 0, 1, 1, 0]}
// PAD: graph.conv2d_nchwc %[[P]], {{.*}} pads = [0, 0, 0, 0]
func.func @conv(%x: tensor<1x1x4x4x16xbf16>, %b: tensor<1x1x1x1x16xf32>) -> tensor<1x1x4x4x16xbf16> {
  %w = graph.constant {value = dense<1.0> : tensor<1x1x3x3x8x16x2xbf16>} : () -> tensor<1x1x3x3x8x16x2xbf16>
  %y = graph.conv2d_nchwc %x, %w, %b {pads = [1, 1, 1, 1], config = {tile_w = 3}} : (tensor<1x1x4x4x16xbf16>, tensor<1x1x3x3x8x16x2xbf16>, tensor<1x1x1x1x16xf32>) -> tensor<1x1x4x4x16xf32> ({
  ^bb0(%acc: tensor<1x1x4x4x16xf32>, %bias: tensor<1x1x1x1x16xf32>):
    %s = graph.add %acc, %bias : (tensor<1x1x4x4x16xf32>, tensor<1x1x1x1x16xf32>) -> tensor<1x1x4x4x16xf32>
    %r = graph.relu %s : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xf32>
    graph.yield %r : tensor<1x1x4x4x16xf32>
  })
  %n = graph.cast %y : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xbf16>
  return %n : tensor<1x1x4x4x16xbf16>
}

// A matmul with no epilogue gets one of the cast alone.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[Y:.*]] = graph.matmul_packed %arg0, %{{.*}} : ({{.*}}) -> tensor<4x16xbf16> ({
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: tensor<4x16xf32>):
// CHECK-NEXT: %[[N:.*]] = graph.cast %[[ACC]] : (tensor<4x16xf32>) -> tensor<4x16xbf16>
// CHECK-NEXT: graph.yield %[[N]] : tensor<4x16xbf16>
func.func @matmul(%a: tensor<4x8xbf16>) -> tensor<4x16xbf16> {
  %w = graph.constant {value = dense<1.0> : tensor<1x4x16x2xbf16>} : () -> tensor<1x4x16x2xbf16>
  %y = graph.matmul_packed %a, %w : (tensor<4x8xbf16>, tensor<1x4x16x2xbf16>) -> tensor<4x16xf32>
  %n = graph.cast %y : (tensor<4x16xf32>) -> tensor<4x16xbf16>
  return %n : tensor<4x16xbf16>
}

// Kept: input-channel passes (partial sums go through the output), a result also read
// as f32, an f32 kernel, an epilogue step the microkernel does not apply (sigmoid).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: graph.cast
func.func @kept(%x: tensor<1x2x4x4x16xbf16>, %f: tensor<1x1x4x4x16xf32>) -> (tensor<1x1x4x4x16xbf16>, tensor<1x1x4x4x16xbf16>, tensor<1x1x4x4x16xf32>, tensor<1x1x4x4x16xbf16>, tensor<1x1x4x4x16xbf16>) {
  %w = graph.constant {value = dense<1.0> : tensor<1x2x1x1x8x16x2xbf16>} : () -> tensor<1x2x1x1x8x16x2xbf16>
  %wf = graph.constant {value = dense<1.0> : tensor<1x1x1x1x16x16xf32>} : () -> tensor<1x1x1x1x16x16xf32>
  %a = graph.conv2d_nchwc %x, %w {config = {chunk_ic = 1}} : (tensor<1x2x4x4x16xbf16>, tensor<1x2x1x1x8x16x2xbf16>) -> tensor<1x1x4x4x16xf32>
  %an = graph.cast %a : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xbf16>
  %b = graph.conv2d_nchwc %x, %w : (tensor<1x2x4x4x16xbf16>, tensor<1x2x1x1x8x16x2xbf16>) -> tensor<1x1x4x4x16xf32>
  %bn = graph.cast %b : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xbf16>
  %c = graph.conv2d_nchwc %f, %wf : (tensor<1x1x4x4x16xf32>, tensor<1x1x1x1x16x16xf32>) -> tensor<1x1x4x4x16xf32>
  %cn = graph.cast %c : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xbf16>
  %d = graph.conv2d_nchwc %x, %w : (tensor<1x2x4x4x16xbf16>, tensor<1x2x1x1x8x16x2xbf16>) -> tensor<1x1x4x4x16xf32> ({
  ^bb0(%acc: tensor<1x1x4x4x16xf32>):
    %s = graph.sigmoid %acc : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xf32>
    graph.yield %s : tensor<1x1x4x4x16xf32>
  })
  %dn = graph.cast %d : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xbf16>
  return %an, %bn, %b, %cn, %dn : tensor<1x1x4x4x16xbf16>, tensor<1x1x4x4x16xbf16>, tensor<1x1x4x4x16xf32>, tensor<1x1x4x4x16xbf16>, tensor<1x1x4x4x16xbf16>
}

// The residual stream: a result read as the residual of another dot kernel (and cast
// to bf16) is stored as bf16, and the reader widens it in its epilogue.
// CHECK-LABEL: func.func @residual
// CHECK: %[[A:.*]] = graph.conv2d_nchwc %arg0, %{{.*}} : ({{.*}}) -> tensor<1x1x4x4x16xbf16> ({
// CHECK: %[[B:.*]] = graph.conv2d_nchwc %arg0, %{{.*}}, %[[A]] : ({{.*}}, tensor<1x1x4x4x16xbf16>) -> tensor<1x1x4x4x16xbf16> ({
// CHECK-NEXT: ^bb0(%[[ACC:.*]]: tensor<1x1x4x4x16xf32>, %[[RES:.*]]: tensor<1x1x4x4x16xbf16>):
// CHECK-NEXT: %[[W:.*]] = graph.cast %[[RES]] : (tensor<1x1x4x4x16xbf16>) -> tensor<1x1x4x4x16xf32>
// CHECK-NEXT: %[[S:.*]] = graph.add %[[ACC]], %[[W]]
// CHECK-NEXT: %[[N:.*]] = graph.cast %[[S]] : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xbf16>
// CHECK-NEXT: graph.yield %[[N]]
// CHECK: return %[[A]], %[[B]]
func.func @residual(%x: tensor<1x2x4x4x16xbf16>) -> (tensor<1x1x4x4x16xbf16>, tensor<1x1x4x4x16xbf16>) {
  %w = graph.constant {value = dense<1.0> : tensor<1x2x1x1x8x16x2xbf16>} : () -> tensor<1x2x1x1x8x16x2xbf16>
  %a = graph.conv2d_nchwc %x, %w : (tensor<1x2x4x4x16xbf16>, tensor<1x2x1x1x8x16x2xbf16>) -> tensor<1x1x4x4x16xf32>
  %b = graph.conv2d_nchwc %x, %w, %a : (tensor<1x2x4x4x16xbf16>, tensor<1x2x1x1x8x16x2xbf16>, tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xf32> ({
  ^bb0(%acc: tensor<1x1x4x4x16xf32>, %res: tensor<1x1x4x4x16xf32>):
    %s = graph.add %acc, %res : (tensor<1x1x4x4x16xf32>, tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xf32>
    graph.yield %s : tensor<1x1x4x4x16xf32>
  })
  %an = graph.cast %a : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xbf16>
  %bn = graph.cast %b : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xbf16>
  return %an, %bn : tensor<1x1x4x4x16xbf16>, tensor<1x1x4x4x16xbf16>
}

// Kept f32: a residual also returned as f32, and one an f32 kernel adds.
// CHECK-LABEL: func.func @residual_kept
// CHECK: %[[A:.*]] = graph.conv2d_nchwc %arg0, %{{.*}} : ({{.*}}) -> tensor<1x1x4x4x16xf32>
// CHECK: graph.conv2d_nchwc %arg0, %{{.*}}, %[[A]] : ({{.*}}, tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xbf16>
// CHECK: %[[C:.*]] = graph.conv2d_nchwc %arg0, %{{.*}} : ({{.*}}) -> tensor<1x1x4x4x16xf32>
// CHECK: graph.conv2d_nchwc %arg1, %{{.*}}, %[[C]] : ({{.*}}, tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xf32>
func.func @residual_kept(%x: tensor<1x2x4x4x16xbf16>, %f: tensor<1x1x4x4x16xf32>) -> (tensor<1x1x4x4x16xf32>, tensor<1x1x4x4x16xbf16>, tensor<1x1x4x4x16xf32>) {
  %w = graph.constant {value = dense<1.0> : tensor<1x2x1x1x8x16x2xbf16>} : () -> tensor<1x2x1x1x8x16x2xbf16>
  %wf = graph.constant {value = dense<1.0> : tensor<1x1x1x1x16x16xf32>} : () -> tensor<1x1x1x1x16x16xf32>
  %a = graph.conv2d_nchwc %x, %w : (tensor<1x2x4x4x16xbf16>, tensor<1x2x1x1x8x16x2xbf16>) -> tensor<1x1x4x4x16xf32>
  %b = graph.conv2d_nchwc %x, %w, %a : (tensor<1x2x4x4x16xbf16>, tensor<1x2x1x1x8x16x2xbf16>, tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xf32> ({
  ^bb0(%acc: tensor<1x1x4x4x16xf32>, %res: tensor<1x1x4x4x16xf32>):
    %s = graph.add %acc, %res : (tensor<1x1x4x4x16xf32>, tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xf32>
    graph.yield %s : tensor<1x1x4x4x16xf32>
  })
  %bn = graph.cast %b : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xbf16>
  %c = graph.conv2d_nchwc %x, %w : (tensor<1x2x4x4x16xbf16>, tensor<1x2x1x1x8x16x2xbf16>) -> tensor<1x1x4x4x16xf32>
  %d = graph.conv2d_nchwc %f, %wf, %c : (tensor<1x1x4x4x16xf32>, tensor<1x1x1x1x16x16xf32>, tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xf32> ({
  ^bb0(%acc: tensor<1x1x4x4x16xf32>, %res: tensor<1x1x4x4x16xf32>):
    %s = graph.add %acc, %res : (tensor<1x1x4x4x16xf32>, tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xf32>
    graph.yield %s : tensor<1x1x4x4x16xf32>
  })
  return %a, %bn, %d : tensor<1x1x4x4x16xf32>, tensor<1x1x4x4x16xbf16>, tensor<1x1x4x4x16xf32>
}

// A depthwise convolution (f32, its template generated code) read only by a cast to
// bf16: narrowed with `depthwise`, as the dot kernels are; kept by default, and kept
// when its result is also read as f32.
// CHECK-LABEL: func.func @depthwise
// CHECK: graph.conv2d_nchwc {{.*}} -> tensor<1x1x4x4x16xf32>
// CHECK: graph.cast %{{.*}} : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xbf16>
// DW-LABEL: func.func @depthwise
// DW: %[[Y:.*]] = graph.conv2d_nchwc {{.*}} -> tensor<1x1x4x4x16xbf16> ({
// DW-NEXT: ^bb0(%[[ACC:.*]]: tensor<1x1x4x4x16xf32>):
// DW-NEXT: %[[C:.*]] = graph.clamp %[[ACC]]
// DW-NEXT: %[[N:.*]] = graph.cast %[[C]] : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xbf16>
// DW-NEXT: graph.yield %[[N]] : tensor<1x1x4x4x16xbf16>
// DW: %[[K:.*]] = graph.conv2d_nchwc {{.*}} -> tensor<1x1x4x4x16xf32>
// DW: %[[KN:.*]] = graph.cast %[[K]] : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xbf16>
// DW: return %[[Y]], %[[KN]], %[[K]]
func.func @depthwise(%x: tensor<1x1x4x4x16xf32>) -> (tensor<1x1x4x4x16xbf16>, tensor<1x1x4x4x16xbf16>, tensor<1x1x4x4x16xf32>) {
  %w = graph.constant {value = dense<0.5> : tensor<1x1x3x3x1x16xf32>} : () -> tensor<1x1x3x3x1x16xf32>
  %y = graph.conv2d_nchwc %x, %w {pads = [1, 1, 1, 1], groups = 16, config = {template = "depthwise", tile_w = 4}} : (tensor<1x1x4x4x16xf32>, tensor<1x1x3x3x1x16xf32>) -> tensor<1x1x4x4x16xf32> ({
  ^bb0(%acc: tensor<1x1x4x4x16xf32>):
    %c = graph.clamp %acc {min = 0.0, max = 6.0} : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xf32>
    graph.yield %c : tensor<1x1x4x4x16xf32>
  })
  %n = graph.cast %y : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xbf16>
  %k = graph.conv2d_nchwc %x, %w {pads = [1, 1, 1, 1], groups = 16, config = {template = "depthwise", tile_w = 4}} : (tensor<1x1x4x4x16xf32>, tensor<1x1x3x3x1x16xf32>) -> tensor<1x1x4x4x16xf32>
  %kn = graph.cast %k : (tensor<1x1x4x4x16xf32>) -> tensor<1x1x4x4x16xbf16>
  return %n, %kn, %k : tensor<1x1x4x4x16xbf16>, tensor<1x1x4x4x16xbf16>, tensor<1x1x4x4x16xf32>
}
