module {
  func.func @main(%arg0: tensor<3x16xbf16>) -> tensor<3x12xbf16> {
    %0 = "tosa.const"() <{values = dense_resource<torch_tensor_12_torch.bfloat16> : tensor<12xbf16>}> : () -> tensor<12xbf16>
    %1 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %2 = tosa.const_shape  {values = dense<[1, 3, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[1, 16, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = tosa.const_shape  {values = dense<[3, 12]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %5 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %6 = tosa.const_shape  {values = dense<[1, 12]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %7 = "tosa.const"() <{values = dense<"0xACBDBB3F0F3FF63D343FDF3E16BF393D1CC0E83FB2BC70BEE23EB93E2DBF073FBEBFF4BDB8BFE7BEDBBF48BC16BF17C032BE82BFF2BE06BF50BFCD3EBD3F823FA9BECB3FC53FA43E7FBE1B3E433FCB3FDCBDBB3FA4BE843FE43FADBFD23DC4BE9BBF083F2E4018BF34BFC3BFA13ECBBF73BF26BE033DA7BE653F343F103F31BFFC3FFE3E753EB6BFB0BFE0BFB8BF1F40613FF53E07C0403F943E873F80BE6ABFFE3F063F0C3FB5BF763FF53F9CBFAF3E0FBF8E3F17406BBFBFBF02BB93BFBABFB93FAC3F8C3F5E3F90BE23BF243F41BEC3BFCABFA0BFA4BDD73FB63E193F7E3EAD3DE33E88BDA93F4A3E8CBE44BF91BFF83FCABF443F8CBF8D3DB83E45BFAC3F96BFE2BEA8BD28BFA93E9FBF55BEB63F8D3EDEBE6ABED33D843F883F77BF45BF683FA0BE053ECF3F243FDBBEEA3E843F55BE53408B399FBF373F893FD4BE693FD4BFC03E903E77BF933FD5BE423FF9BCD7BF19BF343FE1BEDB3E4B3BD8BE0EBF3CC0743FD23FD93F53BF973F26BE49BFCDBE853D69BFA13F88BF433FE9BDF3BE"> : tensor<16x12xbf16>}> : () -> tensor<16x12xbf16>
    %8 = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1xbf16>}> : () -> tensor<1x1xbf16>
    %9 = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1x1xbf16>}> : () -> tensor<1x1xbf16>
    %10 = "tosa.const"() <{values = dense<7.070310e-01> : tensor<1x1xbf16>}> : () -> tensor<1x1xbf16>
    %11 = tosa.cast %0 : (tensor<12xbf16>) -> tensor<12xf32>
    %12 = tosa.cast %arg0 : (tensor<3x16xbf16>) -> tensor<3x16xf32>
    %13 = tosa.cast %7 : (tensor<16x12xbf16>) -> tensor<16x12xf32>
    %14 = tosa.reshape %12, %2 : (tensor<3x16xf32>, !tosa.shape<3>) -> tensor<1x3x16xf32>
    %15 = tosa.reshape %13, %3 : (tensor<16x12xf32>, !tosa.shape<3>) -> tensor<1x16x12xf32>
    %16 = tosa.matmul %14, %15, %1, %1 : (tensor<1x3x16xf32>, tensor<1x16x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x12xf32>
    %17 = tosa.reshape %16, %4 : (tensor<1x3x12xf32>, !tosa.shape<2>) -> tensor<3x12xf32>
    %18 = tosa.reshape %11, %6 : (tensor<12xf32>, !tosa.shape<2>) -> tensor<1x12xf32>
    %19 = tosa.add %17, %18 : (tensor<3x12xf32>, tensor<1x12xf32>) -> tensor<3x12xf32>
    %20 = tosa.cast %19 : (tensor<3x12xf32>) -> tensor<3x12xbf16>
    %21 = tosa.mul %20, %10, %5 : (tensor<3x12xbf16>, tensor<1x1xbf16>, tensor<1xi8>) -> tensor<3x12xbf16>
    %22 = tosa.erf %21 : (tensor<3x12xbf16>) -> tensor<3x12xbf16>
    %23 = tosa.add %22, %8 : (tensor<3x12xbf16>, tensor<1x1xbf16>) -> tensor<3x12xbf16>
    %24 = tosa.mul %9, %23, %5 : (tensor<1x1xbf16>, tensor<3x12xbf16>, tensor<1xi8>) -> tensor<3x12xbf16>
    %25 = tosa.mul %20, %24, %5 : (tensor<3x12xbf16>, tensor<3x12xbf16>, tensor<1xi8>) -> tensor<3x12xbf16>
    return %25 : tensor<3x12xbf16>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_12_torch.bfloat16: "0x02000000613F88BF9C3DE4BEA73FEBBDF1BF02C0613F953F573F31BF"
    }
  }
#-}
