module {
  func.func @main(%arg0: tensor<3x5xbf16>, %arg1: tensor<3x5xf32>, %arg2: tensor<3x5xf16>) -> (tensor<3x5xf32>, tensor<3x5xbf16>, tensor<3x5xi32>, tensor<3x5xbf16>) {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = "tosa.const"() <{values = dense<3.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %2 = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1xbf16>}> : () -> tensor<1x1xbf16>
    %3 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xbf16>}> : () -> tensor<1x1xbf16>
    %4 = tosa.cast %arg0 : (tensor<3x5xbf16>) -> tensor<3x5xf32>
    %5 = tosa.mul %4, %1, %0 : (tensor<3x5xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<3x5xf32>
    %6 = tosa.cast %arg1 : (tensor<3x5xf32>) -> tensor<3x5xbf16>
    %7 = tosa.add %6, %2 : (tensor<3x5xbf16>, tensor<1x1xbf16>) -> tensor<3x5xbf16>
    %8 = tosa.floor %arg0 : (tensor<3x5xbf16>) -> tensor<3x5xbf16>
    %9 = tosa.ceil %arg0 : (tensor<3x5xbf16>) -> tensor<3x5xbf16>
    %10 = tosa.greater %3, %arg0 : (tensor<1x1xbf16>, tensor<3x5xbf16>) -> tensor<3x5xi1>
    %11 = tosa.select %10, %9, %8 : (tensor<3x5xi1>, tensor<3x5xbf16>, tensor<3x5xbf16>) -> tensor<3x5xbf16>
    %12 = tosa.cast %11 : (tensor<3x5xbf16>) -> tensor<3x5xi32>
    %13 = tosa.cast %arg2 : (tensor<3x5xf16>) -> tensor<3x5xbf16>
    return %5, %7, %12, %13 : tensor<3x5xf32>, tensor<3x5xbf16>, tensor<3x5xi32>, tensor<3x5xbf16>
  }
}
