module {
  func.func @main(%arg0: tensor<3x17xi8>, %arg1: tensor<3x17xi8>) -> tensor<3x17xi8> {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = tosa.mul %arg0, %arg1, %0 : (tensor<3x17xi8>, tensor<3x17xi8>, tensor<1xi8>) -> tensor<3x17xi8>
    return %1 : tensor<3x17xi8>
  }
}
