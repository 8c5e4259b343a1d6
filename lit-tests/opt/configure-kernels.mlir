// configure-kernels: the analytic default register tile fills the target's vector
// registers (the XMM and ZMM runs, with `io-bound=false`; UK, tiles that microkernels
// compute, which always take it); with the I/O bound (BOUND), the f32 direct and
// pointwise convolutions of the backend's own code take the candidate with the lowest
// bound.
// RUN: %tcc-opt %s --pass-pipeline='configure-kernels{io-bound=false vector-bits=128 vector-registers=16}' | FileCheck %s --check-prefix=XMM
// RUN: %tcc-opt %s --pass-pipeline='configure-kernels{io-bound=false vector-bits=512 vector-registers=32 prefetch=true}' | FileCheck %s --check-prefix=ZMM
// RUN: %tcc-opt %s --pass-pipeline='configure-kernels{vector-bits=128 vector-registers=16 ukernels=avx512}' | FileCheck %s --check-prefix=UK
// RUN: %tcc-opt %s --pass-pipeline='configure-kernels{vector-bits=512 vector-registers=32 prefetch=true}' | FileCheck %s --check-prefix=BOUND
// RUN: %tcc-opt %s --pass-pipeline='configure-kernels{threads=2 vector-bits=512 vector-registers=32 prefetch=true}' | FileCheck %s --check-prefix=TWO

// With the bound (a 32 KiB L1 by default): the 3x3 conv keeps the default's 14 x 2
// tile, in passes of one input-channel block on one thread (the lowest bound); on two
// threads in one pass, the default's (with passes, a task is a tile's channel group:
// two tasks here, where one thread needs 8). The pointwise one
// takes 6 x 4 tiles (29 of the 32 registers): 2048-column tasks, 16 KB of filters in
// L1. Depthwise convolutions, stems and hand-written configurations are not the
// bound's.
// BOUND-LABEL: func.func @main
// BOUND: config = {chunk_ic = 1, prefetch_input = true, task_w = 56, template = "direct", tile_oc = 2, tile_w = 14}, config_source = "bound"
// TWO-LABEL: func.func @main
// TWO: config = {prefetch_input = true, task_w = 56, template = "direct", tile_oc = 2, tile_w = 14}, config_source = "bound"
// BOUND: config = {task_w = 2048, template = "pointwise", tile_oc = 4, tile_w = 6}, config_source = "bound"
// BOUND-NOT: config_source
// BOUND: config = {template = "depthwise"
// BOUND-NOT: config_source
// BOUND: config = {tile_w = 3}
// BOUND-NOT: config_source
// BOUND: return
// BOUND-LABEL: func.func @stems
// BOUND-NOT: config_source
// BOUND: return

// 56-wide rows, 4 blocks of 16 output channels: 14 columns x 2 blocks = 28 zmm
// accumulators with AVX-512. The same row in blocks of 4 channels with Cranelift's 16
// xmm registers (the broadcast is overwritten by each FMA, so a tile takes one block):
// 14 accumulators, a filter vector and the broadcast.
// The input (200K elements) is larger than the filters (37K): a task is a row, and the
// tasks of a row run for every channel group in turn (`task_w`). The input is the
// caller's tensor: each row prefetches the input rows of the next (`prefetch_input`),
// where the backend prefetches (the ZMM target; XMM is Cranelift's, which does not).
// ZMM: graph.conv2d_nchwc {{.*}}config = {prefetch_input = true, task_w = 56, template = "direct", tile_oc = 2, tile_w = 14}
// XMM: graph.conv2d_nchwc {{.*}}config = {task_w = 56, template = "direct", tile_oc = 1, tile_w = 14}{{.*}}tensor<1x16x56x56x4xf32>
// A 1x1 conv runs over the flattened rows, in chunks whose input (64 channels, 256
// bytes a column) fits in half of L2 (1 MiB by default): 2048 columns. Its filters fit
// in L2, so its tile counts the input passes and takes all 4 blocks.
// ZMM: graph.conv2d_nchwc {{.*}}config = {task_w = 2048, template = "pointwise", tile_oc = 4, tile_w = 4}
// A depthwise one gets its own template.
// ZMM: graph.conv2d_nchwc {{.*}}config = {template = "depthwise"
// A configuration written by hand is kept.
// ZMM: graph.conv2d_nchwc {{.*}}config = {tile_w = 3}
func.func @main(%x: tensor<1x4x56x56x16xf32>, %w: tensor<4x4x3x3x16x16xf32>, %p: tensor<4x4x1x1x16x16xf32>, %d: tensor<4x1x3x3x1x16xf32>) -> (tensor<1x4x56x56x16xf32>, tensor<1x4x56x56x16xf32>, tensor<1x4x56x56x16xf32>, tensor<1x4x56x56x16xf32>) {
  %a = graph.conv2d_nchwc %x, %w {pads = [1, 1, 1, 1]} : (tensor<1x4x56x56x16xf32>, tensor<4x4x3x3x16x16xf32>) -> tensor<1x4x56x56x16xf32>
  %b = graph.conv2d_nchwc %x, %p : (tensor<1x4x56x56x16xf32>, tensor<4x4x1x1x16x16xf32>) -> tensor<1x4x56x56x16xf32>
  %c = graph.conv2d_nchwc %x, %d {pads = [1, 1, 1, 1], groups = 64} : (tensor<1x4x56x56x16xf32>, tensor<4x1x3x3x1x16xf32>) -> tensor<1x4x56x56x16xf32>
  %e = graph.conv2d_nchwc %x, %w {pads = [1, 1, 1, 1], config = {tile_w = 3}} : (tensor<1x4x56x56x16xf32>, tensor<4x4x3x3x16x16xf32>) -> tensor<1x4x56x56x16xf32>
  return %a, %b, %c, %e : tensor<1x4x56x56x16xf32>, tensor<1x4x56x56x16xf32>, tensor<1x4x56x56x16xf32>, tensor<1x4x56x56x16xf32>
}

func.func @xmm(%x: tensor<1x16x56x56x4xf32>, %w: tensor<16x16x3x3x4x4xf32>) -> tensor<1x16x56x56x4xf32> {
  %a = graph.conv2d_nchwc %x, %w {pads = [1, 1, 1, 1]} : (tensor<1x16x56x56x4xf32>, tensor<16x16x3x3x4x4xf32>) -> tensor<1x16x56x56x4xf32>
  return %a : tensor<1x16x56x56x4xf32>
}

// 512 channels at 7x7: the filters of a task's two output blocks (590 KB) exceed half
// of L2, so the conv runs in input-channel passes of one block (18 KB of filters each).
// With 4-lane blocks and one block per tile, a task's filters are 73 KB: one pass.
// All 9.4 MB of filters exceed L2: the next group's are prefetched (ZMM; Cranelift's XMM
// target has no prefetch).
// ZMM-LABEL: func.func @passes
// ZMM: config = {chunk_ic = 1, prefetch = true, prefetch_input = true, template = "direct", tile_oc = 2, tile_w = 7}
// With AVX-512 microkernels (called from Cranelift's 128-bit code) the tiles are theirs;
// a call covers a quarter of L2's filters (14 blocks) and the padding moves into the
// input, so that a row is one call over the whole window (`pad_input`).
// UK-LABEL: func.func @passes
// UK: config = {chunk_ic = 14, pad_input = true, prefetch = true, template = "direct", tile_oc = 2, tile_w = 7}
// XMM-LABEL: func.func @passes
// XMM-NOT: chunk_ic
// XMM-NOT: prefetch
// XMM: return
func.func @passes(%x: tensor<1x32x7x7x16xf32>, %w: tensor<32x32x3x3x16x16xf32>, %y: tensor<1x128x7x7x4xf32>, %v: tensor<128x128x3x3x4x4xf32>) -> (tensor<1x32x7x7x16xf32>, tensor<1x128x7x7x4xf32>) {
  %a = graph.conv2d_nchwc %x, %w {pads = [1, 1, 1, 1]} : (tensor<1x32x7x7x16xf32>, tensor<32x32x3x3x16x16xf32>) -> tensor<1x32x7x7x16xf32>
  %b = graph.conv2d_nchwc %y, %v {pads = [1, 1, 1, 1]} : (tensor<1x128x7x7x4xf32>, tensor<128x128x3x3x4x4xf32>) -> tensor<1x128x7x7x4xf32>
  return %a, %b : tensor<1x32x7x7x16xf32>, tensor<1x128x7x7x4xf32>
}

// An input computed by the model (here by a conv) is not the caller's: no
// `prefetch_input`; a reshape of the caller's tensor (a view) is.
// ZMM-LABEL: func.func @inputs
// ZMM: config = {prefetch_input = true, task_w = 56, template = "direct"
// ZMM: config = {task_w = 56, template = "direct"
// ZMM: return
func.func @inputs(%x: tensor<1x4x56x56x16xf32>, %w: tensor<4x4x3x3x16x16xf32>) -> tensor<1x4x56x56x16xf32> {
  %r = graph.reshape %x {shape = [1, 4, 56, 56, 16]} : (tensor<1x4x56x56x16xf32>) -> tensor<1x4x56x56x16xf32>
  %a = graph.conv2d_nchwc %r, %w {pads = [1, 1, 1, 1]} : (tensor<1x4x56x56x16xf32>, tensor<4x4x3x3x16x16xf32>) -> tensor<1x4x56x56x16xf32>
  %b = graph.conv2d_nchwc %a, %w {pads = [1, 1, 1, 1]} : (tensor<1x4x56x56x16xf32>, tensor<4x4x3x3x16x16xf32>) -> tensor<1x4x56x56x16xf32>
  return %b : tensor<1x4x56x56x16xf32>
}

// A stem (3 input channels in blocks of one, 3x3 at stride 1): neighbouring columns
// broadcast the same input elements, which LLVM keeps in registers, so with 32
// registers the accumulators take at most half of them (8 x 2 rather than 14 x 2), and
// a loop iteration covers the kernel row's 3 taps (`unroll_ic`). ViT's patches (16x16
// at stride 16) share no input: a full tile, one tap per iteration. (AVX-512 blocks of
// 16 channels; the XMM run only checks that the file configures.)
// ZMM-LABEL: func.func @stems
// ZMM: config = {prefetch_input = true, task_w = 224, template = "direct", tile_oc = 2, tile_w = 8, unroll_ic = 3}
// ZMM: config = {prefetch_input = true, task_w = 14, template = "direct", tile_oc = 2, tile_w = 14}
func.func @stems(%x: tensor<1x3x224x224x1xf32>, %w: tensor<4x3x3x3x1x16xf32>, %v: tensor<12x3x16x16x1x16xf32>) -> (tensor<1x4x224x224x16xf32>, tensor<1x12x14x14x16xf32>) {
  %a = graph.conv2d_nchwc %x, %w {pads = [1, 1, 1, 1]} : (tensor<1x3x224x224x1xf32>, tensor<4x3x3x3x1x16xf32>) -> tensor<1x4x224x224x16xf32>
  %b = graph.conv2d_nchwc %x, %v {strides = [16, 16]} : (tensor<1x3x224x224x1xf32>, tensor<12x3x16x16x1x16xf32>) -> tensor<1x12x14x14x16xf32>
  return %a, %b : tensor<1x4x224x224x16xf32>, tensor<1x12x14x14x16xf32>
}
