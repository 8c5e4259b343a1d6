module {
  func.func @main(%arg0: tensor<3x9xi16>, %arg1: tensor<3x9xi16>) -> tensor<3x9xi16> {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = tosa.mul %arg0, %arg1, %0 : (tensor<3x9xi16>, tensor<3x9xi16>, tensor<1xi8>) -> tensor<3x9xi16>
    return %1 : tensor<3x9xi16>
  }
}
