// Malformed kernel ops get located errors.
// RUN: %tcc-opt %s --split-input-file --verify-diagnostics

func.func @unknown_config_key(%x: tensor<1x1x4x4x4xf32>, %w: tensor<1x1x1x1x4x4xf32>) -> tensor<1x1x4x4x4xf32> {
  // expected-error@+1 {{'graph.conv2d_nchwc' op unknown kernel configuration key 'tiles' (known: template, tile_w, tile_oc, unroll_kw, unroll_ic, edges, chunk_ic, pad_input, prefetch, prefetch_input, task_w)}}
  %y = graph.conv2d_nchwc %x, %w {config = {tiles = 4}} : (tensor<1x1x4x4x4xf32>, tensor<1x1x1x1x4x4xf32>) -> tensor<1x1x4x4x4xf32>
  return %y : tensor<1x1x4x4x4xf32>
}

// -----

func.func @bad_template(%x: tensor<1x1x4x4x4xf32>, %w: tensor<1x1x1x1x4x4xf32>) -> tensor<1x1x4x4x4xf32> {
  // expected-error@+1 {{kernel configuration 'template' must be one of direct, pointwise, depthwise, rows, reference, got "winograd"}}
  %y = graph.conv2d_nchwc %x, %w {config = {template = "winograd"}} : (tensor<1x1x4x4x4xf32>, tensor<1x1x1x1x4x4xf32>) -> tensor<1x1x4x4x4xf32>
  return %y : tensor<1x1x4x4x4xf32>
}

// -----

func.func @zero_tile(%x: tensor<1x1x4x4x4xf32>, %w: tensor<1x1x1x1x4x4xf32>) -> tensor<1x1x4x4x4xf32> {
  // expected-error@+1 {{kernel configuration 'tile_w' must be an integer from 1 to 256, got 0}}
  %y = graph.conv2d_nchwc %x, %w {config = {tile_w = 0}} : (tensor<1x1x4x4x4xf32>, tensor<1x1x1x1x4x4xf32>) -> tensor<1x1x4x4x4xf32>
  return %y : tensor<1x1x4x4x4xf32>
}

// -----

func.func @epilogue_operand_without_region(%x: tensor<1x1x4x4x4xf32>, %w: tensor<1x1x1x1x4x4xf32>, %b: tensor<1x1x1x1x4xf32>) -> tensor<1x1x4x4x4xf32> {
  // expected-error@+1 {{has 1 epilogue operand(s) but no epilogue region}}
  %y = graph.conv2d_nchwc %x, %w, %b : (tensor<1x1x4x4x4xf32>, tensor<1x1x1x1x4x4xf32>, tensor<1x1x1x1x4xf32>) -> tensor<1x1x4x4x4xf32>
  return %y : tensor<1x1x4x4x4xf32>
}

// -----

func.func @epilogue_not_elementwise(%x: tensor<1x1x4x4x4xf32>, %w: tensor<1x1x1x1x4x4xf32>) -> tensor<1x1x4x4x4xf32> {
  // expected-error@+1 {{an epilogue holds elementwise ops only, not 'graph.transpose'}}
  %y = graph.conv2d_nchwc %x, %w : (tensor<1x1x4x4x4xf32>, tensor<1x1x1x1x4x4xf32>) -> tensor<1x1x4x4x4xf32> ({
  ^bb0(%acc: tensor<1x1x4x4x4xf32>):
    %t = graph.transpose %acc {perm = [0, 1, 3, 2, 4]} : (tensor<1x1x4x4x4xf32>) -> tensor<1x1x4x4x4xf32>
    graph.yield %t : tensor<1x1x4x4x4xf32>
  })
  return %y : tensor<1x1x4x4x4xf32>
}

// -----

// An epilogue value may broadcast into the result (a per-channel mask), not exceed it.
func.func @epilogue_value_larger_than_result(%x: tensor<1x1x4x4x4xf32>, %w: tensor<1x1x1x1x4x4xf32>, %b: tensor<2x1x1x1x4xf32>) -> tensor<1x1x4x4x4xf32> {
  // expected-error@+1 {{epilogue op 'graph.greater' changes the result's shape}}
  %y = graph.conv2d_nchwc %x, %w, %b : (tensor<1x1x4x4x4xf32>, tensor<1x1x1x1x4x4xf32>, tensor<2x1x1x1x4xf32>) -> tensor<1x1x4x4x4xf32> ({
  ^bb0(%acc: tensor<1x1x4x4x4xf32>, %m: tensor<2x1x1x1x4xf32>):
    %k = graph.greater %m, %m : (tensor<2x1x1x1x4xf32>, tensor<2x1x1x1x4xf32>) -> tensor<2x1x1x1x4xi1>
    graph.yield %acc : tensor<1x1x4x4x4xf32>
  })
  return %y : tensor<1x1x4x4x4xf32>
}

// -----

func.func @channels_do_not_match(%x: tensor<1x2x4x4x4xf32>, %w: tensor<1x1x1x1x4x4xf32>) -> tensor<1x1x4x4x4xf32> {
  // expected-error@+1 {{filter expects 4 input channels per group, but the input has 8 channels in 1 group(s)}}
  %y = graph.conv2d_nchwc %x, %w : (tensor<1x2x4x4x4xf32>, tensor<1x1x1x1x4x4xf32>) -> tensor<1x1x4x4x4xf32>
  return %y : tensor<1x1x4x4x4xf32>
}

// -----

func.func @packed_columns(%a: tensor<8x16xf32>, %bp: tensor<3x16x4xf32>) -> tensor<8x13xf32> {
  // expected-error@+1 {{result tensor<8x13xf32> does not match operands tensor<8x16xf32> and packed tensor<3x16x4xf32> (K = 16, N <= 12)}}
  %y = graph.matmul_packed %a, %bp : (tensor<8x16xf32>, tensor<3x16x4xf32>) -> tensor<8x13xf32>
  return %y : tensor<8x13xf32>
}

// -----

func.func @bf16_pairs_into_bf16(%a: tensor<8x6xbf16>, %bp: tensor<3x3x4x2xbf16>) -> tensor<8x10xbf16> {
  // expected-error@+1 {{or bf16 operands packed [N/n, K/2, n, 2] with an f32 result; got tensor<8x6xbf16>, tensor<3x3x4x2xbf16> -> tensor<8x10xbf16>}}
  %y = graph.matmul_packed %a, %bp : (tensor<8x6xbf16>, tensor<3x3x4x2xbf16>) -> tensor<8x10xbf16>
  return %y : tensor<8x10xbf16>
}

// -----

func.func @bf16_pairs_too_short(%a: tensor<8x8xbf16>, %bp: tensor<3x3x4x2xbf16>) -> tensor<8x10xf32> {
  // expected-error@+1 {{does not match operands tensor<8x8xbf16> and packed tensor<3x3x4x2xbf16> (K <= 6, N <= 12)}}
  %y = graph.matmul_packed %a, %bp : (tensor<8x8xbf16>, tensor<3x3x4x2xbf16>) -> tensor<8x10xf32>
  return %y : tensor<8x10xf32>
}

// -----

func.func @yield_outside(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.yield' op yields 1 value(s) of types}}
  graph.yield %x : tensor<4xf32>
}

// -----

func.func @fused_with_a_reshape(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  // expected-error@+1 {{'graph.fused' op a group holds elementwise ops and reductions, not 'graph.reshape'}}
  %r = graph.fused %x : (tensor<4x8xf32>) -> tensor<32xf32> ({
  ^bb0(%a: tensor<4x8xf32>):
    %0 = graph.reshape %a {shape = [32]} : (tensor<4x8xf32>) -> tensor<32xf32>
    graph.yield %0 : tensor<32xf32>
  })
  return %r : tensor<32xf32>
}

// -----

func.func @fused_reduction_of_outer_rows(%x: tensor<4x8xf32>) -> tensor<1x8xf32> {
  // expected-error@+1 {{'graph.fused' op a group with several reductions, or whose result uses a reduction, must reduce the same innermost dimensions}}
  %r = graph.fused %x : (tensor<4x8xf32>) -> tensor<1x8xf32> ({
  ^bb0(%a: tensor<4x8xf32>):
    %0 = graph.reduce_sum %a {axes = [0], keepdims = true} : (tensor<4x8xf32>) -> tensor<1x8xf32>
    %1 = graph.neg %0 : (tensor<1x8xf32>) -> tensor<1x8xf32>
    graph.yield %1 : tensor<1x8xf32>
  })
  return %r : tensor<1x8xf32>
}

// -----

func.func @fused_reductions_of_different_rows(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'graph.fused' op a group with several reductions, or whose result uses a reduction, must reduce the same innermost dimensions}}
  %r = graph.fused %x : (tensor<4x8xf32>) -> tensor<4x8xf32> ({
  ^bb0(%a: tensor<4x8xf32>):
    %0 = graph.reduce_max %a {axes = [1], keepdims = true} : (tensor<4x8xf32>) -> tensor<4x1xf32>
    %1 = graph.reduce_sum %a {axes = [0, 1], keepdims = true} : (tensor<4x8xf32>) -> tensor<1x1xf32>
    %2 = graph.sub %a, %0 : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
    %3 = graph.mul %2, %1 : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
    graph.yield %3 : tensor<4x8xf32>
  })
  return %r : tensor<4x8xf32>
}

// -----

func.func @fused_reduction_dropping_dims(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.fused' op a reduction in a group must keep dimensions}}
  %r = graph.fused %x : (tensor<4x8xf32>) -> tensor<4xf32> ({
  ^bb0(%a: tensor<4x8xf32>):
    %0 = graph.reduce_sum %a {axes = [1], keepdims = false} : (tensor<4x8xf32>) -> tensor<4xf32>
    graph.yield %0 : tensor<4xf32>
  })
  return %r : tensor<4xf32>
}

// -----

func.func @fused_yield_not_last(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'graph.fused' op the region must yield the result of its last op}}
  %r = graph.fused %x : (tensor<4x8xf32>) -> tensor<4x8xf32> ({
  ^bb0(%a: tensor<4x8xf32>):
    %0 = graph.neg %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
    %1 = graph.abs %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
    graph.yield %0 : tensor<4x8xf32>
  })
  return %r : tensor<4x8xf32>
}

// -----

func.func @fused_bad_arguments(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'graph.fused' op the block's arguments must have the operands' types}}
  %r = graph.fused %x : (tensor<4x8xf32>) -> tensor<4x8xf32> ({
  ^bb0(%a: tensor<4x8xf64>):
    %0 = graph.cast %a : (tensor<4x8xf64>) -> tensor<4x8xf32>
    graph.yield %0 : tensor<4x8xf32>
  })
  return %r : tensor<4x8xf32>
}
