module {
  func.func @main(%arg0: tensor<1x3x9x10xf16>) -> tensor<1x8x9x10xf16> {
    %0 = "tosa.const"() <{values = dense_resource<torch_tensor_8_torch.float16_2> : tensor<8xf16>}> : () -> tensor<8xf16>
    %1 = "tosa.const"() <{values = dense_resource<torch_tensor_8_torch.float16_1> : tensor<8xf16>}> : () -> tensor<8xf16>
    %2 = "tosa.const"() <{values = dense_resource<torch_tensor_8_torch.float16> : tensor<8xf16>}> : () -> tensor<8xf16>
    %3 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}> : () -> tensor<1xf16>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = tosa.const_shape  {values = dense<[1, 8, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %6 = "tosa.const"() <{values = dense<"0xB7B0F4B7A5B70AC072B7873C8EB2583A3A3698B896ACEBB4743D6EBCB7AB359D2AB6B5BAB8368CBA5DB4EDB5903EACB1C7BEE4B818AF37B19BBD2E3DFE380D3C6FC274B8A43A2D3517BE529B7EBC87A842AF75BC2F2D2234683CB6BCF23052391F3CD2BD5AB469B65840D83CDABE07BFF6B15138843D90B36BAAED3AAB3716BF28C02534A33B64BEF1BDDD34D03B11B5373C8BB35D302E3911BDA9389EB9DE3189BFA03F90B4E8B8F53A4A3986391AB8E1A748BE233EC9B40E33C5BD0DBE2337123CD2BAD8385FBC5CBE1FB0DF395A35143B363C27B3C8AD8E3876C043B834402D3AA924AB3687BE03AD063C25B9593873BE133EAF3F464069307FB9DD31ACBCCBB3052EA1297D3541383B3BEBAF26BBA2B8AC12BEB46FBFB2B90234DB35183EC33A93A2A6384D342A33DFB981B5543BA43767BA9DBE4C2DDF1EEB3B19BA1AC0DB347B3CAA38F4BBC337A732033C862A913C4C38A83CAD370EB8C0391D400EBFA8BCF7B7183EFA2FB9B8343C843817B9073A0EBC6133E63819371B3BE1BF7138F23BD1BAE3B97CB8A837BEB944B9643A3F42F2BF39BF063B013EEF391A3DBB3C2CBF373C13B5E938AC37E62B8DBC9622"> : tensor<8x3x3x3xf16>}> : () -> tensor<8x3x3x3xf16>
    %7 = "tosa.const"() <{values = dense<9.99999974E-6> : tensor<1xf32>}> : () -> tensor<1xf32>
    %8 = "tosa.const"() <{values = dense_resource<torch_tensor_8_torch.float16_3> : tensor<1x8x1x1xf16>}> : () -> tensor<1x8x1x1xf16>
    %9 = "tosa.const"() <{values = dense_resource<torch_tensor_8_torch.float16_4> : tensor<8x1x1xf16>}> : () -> tensor<8x1x1xf16>
    %10 = tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x9x10xf16>) -> tensor<1x9x10x3xf16>
    %11 = tosa.conv2d %10, %6, %2, %3, %3 {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x9x10x3xf16>, tensor<8x3x3x3xf16>, tensor<8xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x9x10x8xf16>
    %12 = tosa.transpose %11 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x9x10x8xf16>) -> tensor<1x8x9x10xf16>
    %13 = tosa.cast %1 : (tensor<8xf16>) -> tensor<8xf32>
    %14 = tosa.cast %0 : (tensor<8xf16>) -> tensor<8xf32>
    %15 = tosa.add %14, %7 : (tensor<8xf32>, tensor<1xf32>) -> tensor<8xf32>
    %16 = tosa.rsqrt %15 : (tensor<8xf32>) -> tensor<8xf32>
    %17 = tosa.reshape %13, %5 : (tensor<8xf32>, !tosa.shape<4>) -> tensor<1x8x1x1xf32>
    %18 = tosa.cast %12 : (tensor<1x8x9x10xf16>) -> tensor<1x8x9x10xf32>
    %19 = tosa.sub %18, %17 : (tensor<1x8x9x10xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x9x10xf32>
    %20 = tosa.reshape %16, %5 : (tensor<8xf32>, !tosa.shape<4>) -> tensor<1x8x1x1xf32>
    %21 = tosa.mul %19, %20, %4 : (tensor<1x8x9x10xf32>, tensor<1x8x1x1xf32>, tensor<1xi8>) -> tensor<1x8x9x10xf32>
    %22 = tosa.cast %8 : (tensor<1x8x1x1xf16>) -> tensor<1x8x1x1xf32>
    %23 = tosa.mul %21, %22, %4 : (tensor<1x8x9x10xf32>, tensor<1x8x1x1xf32>, tensor<1xi8>) -> tensor<1x8x9x10xf32>
    %24 = tosa.cast %9 : (tensor<8x1x1xf16>) -> tensor<8x1x1xf32>
    %25 = tosa.reshape %24, %5 : (tensor<8x1x1xf32>, !tosa.shape<4>) -> tensor<1x8x1x1xf32>
    %26 = tosa.add %23, %25 : (tensor<1x8x9x10xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x9x10xf32>
    %27 = tosa.cast %26 : (tensor<1x8x9x10xf32>) -> tensor<1x8x9x10xf16>
    return %27 : tensor<1x8x9x10xf16>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_8_torch.float16_2: "0x02000000003C003C003C003C003C003C003C003C",
      torch_tensor_8_torch.float16_1: "0x0200000000000000000000000000000000000000",
      torch_tensor_8_torch.float16: "0x0200000030BD1BBEC63EFB3226B439B44824AAB9",
      torch_tensor_8_torch.float16_3: "0x020000003431903BDF40C2BCDBBD43B81EAC21B6",
      torch_tensor_8_torch.float16_4: "0x02000000AD39C3B2F131333D4EBD553C38A1373E"
    }
  }
#-}
