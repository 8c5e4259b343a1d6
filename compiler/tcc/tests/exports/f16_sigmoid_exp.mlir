module {
  func.func @main(%arg0: tensor<2x5x9xf16>) -> tensor<2x5x9xf16> {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = "tosa.const"() <{values = dense<2.500000e-01> : tensor<1x1x1xf16>}> : () -> tensor<1x1x1xf16>
    %2 = tosa.sigmoid %arg0 : (tensor<2x5x9xf16>) -> tensor<2x5x9xf16>
    %3 = tosa.mul %arg0, %1, %0 : (tensor<2x5x9xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<2x5x9xf16>
    %4 = tosa.exp %3 : (tensor<2x5x9xf16>) -> tensor<2x5x9xf16>
    %5 = tosa.add %2, %4 : (tensor<2x5x9xf16>, tensor<2x5x9xf16>) -> tensor<2x5x9xf16>
    return %5 : tensor<2x5x9xf16>
  }
}
