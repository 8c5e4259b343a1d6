module {
  func.func @main(%arg0: tensor<3x4xi8>) -> tensor<3x4xf32> {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = "tosa.const"() <{values = dense<2.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %2 = tosa.cast %arg0 : (tensor<3x4xi8>) -> tensor<3x4xf32>
    %3 = tosa.mul %2, %1, %0 : (tensor<3x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<3x4xf32>
    return %3 : tensor<3x4xf32>
  }
}
