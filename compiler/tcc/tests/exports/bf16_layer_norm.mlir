module {
  func.func @main(%arg0: tensor<3x20xbf16>) -> tensor<3x20xbf16> {
    %0 = "tosa.const"() <{values = dense_resource<torch_tensor_20_torch.bfloat16_1> : tensor<20xbf16>}> : () -> tensor<20xbf16>
    %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %2 = tosa.const_shape  {values = dense<[1, 20]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %3 = "tosa.const"() <{values = dense<5.000000e-02> : tensor<1x1xf64>}> : () -> tensor<1x1xf64>
    %4 = "tosa.const"() <{values = dense<5.000000e-02> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %5 = "tosa.const"() <{values = dense<9.99999974E-6> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %6 = "tosa.const"() <{values = dense_resource<torch_tensor_20_torch.bfloat16> : tensor<1x20xbf16>}> : () -> tensor<1x20xbf16>
    %7 = tosa.cast %arg0 : (tensor<3x20xbf16>) -> tensor<3x20xf32>
    %8 = tosa.cast %7 : (tensor<3x20xf32>) -> tensor<3x20xf64>
    %9 = tosa.reduce_sum %8 {axis = 1 : i32} : (tensor<3x20xf64>) -> tensor<3x1xf64>
    %10 = tosa.mul %9, %3, %1 : (tensor<3x1xf64>, tensor<1x1xf64>, tensor<1xi8>) -> tensor<3x1xf64>
    %11 = tosa.sub %8, %10 : (tensor<3x20xf64>, tensor<3x1xf64>) -> tensor<3x20xf64>
    %12 = tosa.mul %11, %11, %1 : (tensor<3x20xf64>, tensor<3x20xf64>, tensor<1xi8>) -> tensor<3x20xf64>
    %13 = tosa.reduce_sum %12 {axis = 1 : i32} : (tensor<3x20xf64>) -> tensor<3x1xf64>
    %14 = tosa.mul %13, %3, %1 : (tensor<3x1xf64>, tensor<1x1xf64>, tensor<1xi8>) -> tensor<3x1xf64>
    %15 = tosa.cast %14 : (tensor<3x1xf64>) -> tensor<3x1xf32>
    %16 = tosa.reduce_sum %7 {axis = 1 : i32} : (tensor<3x20xf32>) -> tensor<3x1xf32>
    %17 = tosa.mul %16, %4, %1 : (tensor<3x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<3x1xf32>
    %18 = tosa.add %15, %5 : (tensor<3x1xf32>, tensor<1x1xf32>) -> tensor<3x1xf32>
    %19 = tosa.rsqrt %18 : (tensor<3x1xf32>) -> tensor<3x1xf32>
    %20 = tosa.sub %7, %17 : (tensor<3x20xf32>, tensor<3x1xf32>) -> tensor<3x20xf32>
    %21 = tosa.mul %20, %19, %1 : (tensor<3x20xf32>, tensor<3x1xf32>, tensor<1xi8>) -> tensor<3x20xf32>
    %22 = tosa.cast %6 : (tensor<1x20xbf16>) -> tensor<1x20xf32>
    %23 = tosa.mul %21, %22, %1 : (tensor<3x20xf32>, tensor<1x20xf32>, tensor<1xi8>) -> tensor<3x20xf32>
    %24 = tosa.cast %0 : (tensor<20xbf16>) -> tensor<20xf32>
    %25 = tosa.reshape %24, %2 : (tensor<20xf32>, !tosa.shape<2>) -> tensor<1x20xf32>
    %26 = tosa.add %23, %25 : (tensor<3x20xf32>, tensor<1x20xf32>) -> tensor<3x20xf32>
    %27 = tosa.cast %26 : (tensor<3x20xf32>) -> tensor<3x20xbf16>
    return %27 : tensor<3x20xbf16>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_20_torch.bfloat16_1: "0x0200000010BF293F6D3FFBBE1CC0A23E6A3D6A3DFC3E8DBDC83FEABF613FE7BDDE3E933E86BEF5BF873F8E3E",
      torch_tensor_20_torch.bfloat16: "0x02000000BCBE8E3E32BF163F75BF41BE7BBFB7BFAF3EE6BE8ABFE1BE0E3F30BF1BBE4ABE513EAA3FB3BF883F"
    }
  }
#-}
