module {
  func.func @main(%arg0: tensor<3x37xbf16>, %arg1: tensor<37xbf16>) -> tensor<3x37xbf16> {
    %0 = tosa.const_shape  {values = dense<[1, 37]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %1 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %2 = tosa.reshape %arg1, %0 : (tensor<37xbf16>, !tosa.shape<2>) -> tensor<1x37xbf16>
    %3 = tosa.add %arg0, %2 : (tensor<3x37xbf16>, tensor<1x37xbf16>) -> tensor<3x37xbf16>
    %4 = tosa.mul %3, %arg0, %1 : (tensor<3x37xbf16>, tensor<3x37xbf16>, tensor<1xi8>) -> tensor<3x37xbf16>
    return %4 : tensor<3x37xbf16>
  }
}
