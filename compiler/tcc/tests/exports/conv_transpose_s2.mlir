module {
  func.func @main(%arg0: tensor<2x3x5x6xf32>) -> tensor<2x4x10x12xf32> {
    %0 = "tosa.const"() <{values = dense_resource<torch_tensor_4_torch.float32> : tensor<4xf32>}> : () -> tensor<4xf32>
    %1 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %2 = tosa.const_shape  {values = dense<[2, 10, 12, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %3 = tosa.const_shape  {values = dense<[0, 1, 1, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %4 = "tosa.const"() <{values = dense<"0xCFBAF83FE139EFBDE0B48F3F87B2183FD1C60FBF290F1BBFBE3D88BEA7C89B3E7EEA30BF106FC53F6BD5BBBEE09A443FDC74D73D56E93CBE105D12BE3C9987BFC177883F45AE723E02BA86BF787235BFA54326BFA363B5BF39449B3F19AF07C02CCC2F3EEE099C3EAC0A5CBF30A4B13F89566ABD741AE53F4E8E093E3A6A903F496D443FDAD8683FF4C10B402317DBBEB886403F545AB43DDBFD55BE5DF5E7BD79B21EC059A9AD3FCA6147BF5DCEBFBFBCE7823FC2928E3FE341C2BF02353FBF7254ACBF928AEF3E6F5CA63E3E4ECABCE6DC9D3FB52B8FBF18CAF13D02D2AC3EBBDEEB3E4026213EBC83D6BD43A9853FCF88293FD515A0BFF24FD9BEF9F888BF8F07833FAE321FBFF26E2C3D2E916CBFBB38C93FD254483F73E83BBF1BDF3DBFA6FFD5BFA2E0AB3F3B9EB7BF2F14123E86EFA33E8FA2B13EB0FBEABFFEEB18BF3E26E0BDA3E0C5BE4B2D15BF5266E33DE4B75BBF34232C3FD325C8BE03987D3E590A2BBF5A47ACBF3582B33ED35691BF2638543F5CE4553F3261B8BF296B003F4CF8E33EAD62B63E45F0673EAE5E423F406BFE3E1B49A7BE6A72D03F792B74BF26DC353E11A790BE65D59CBE69178D3C"> : tensor<4x3x3x3xf32>}> : () -> tensor<4x3x3x3xf32>
    %5 = tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>} : (tensor<2x3x5x6xf32>) -> tensor<2x5x6x3xf32>
    %6 = tosa.transpose_conv2d %5, %4, %0, %1, %1 {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<2x5x6x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x11x13x4xf32>
    %7 = tosa.slice %6, %3, %2 : (tensor<2x11x13x4xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<2x10x12x4xf32>
    %8 = tosa.transpose %7 {perms = array<i32: 0, 3, 1, 2>} : (tensor<2x10x12x4xf32>) -> tensor<2x4x10x12xf32>
    return %8 : tensor<2x4x10x12xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_4_torch.float32: "0x040000001997993DF6A6EEBF2256E4BFAB0CB43E"
    }
  }
#-}
