module {
  func.func @main(%arg0: tensor<3x4xi8>) -> tensor<3x4xi8> {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = tosa.negate %arg0, %0, %0 : (tensor<3x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<3x4xi8>
    return %1 : tensor<3x4xi8>
  }
}
