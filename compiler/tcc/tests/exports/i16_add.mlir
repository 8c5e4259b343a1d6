module {
  func.func @main(%arg0: tensor<3x4xi16>, %arg1: tensor<3x4xi16>) -> tensor<3x4xi16> {
    %0 = tosa.add %arg0, %arg1 : (tensor<3x4xi16>, tensor<3x4xi16>) -> tensor<3x4xi16>
    return %0 : tensor<3x4xi16>
  }
}
