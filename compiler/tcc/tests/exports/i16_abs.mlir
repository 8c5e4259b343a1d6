module {
  func.func @main(%arg0: tensor<3x4xi16>) -> tensor<3x4xi16> {
    %0 = tosa.abs %arg0 : (tensor<3x4xi16>) -> tensor<3x4xi16>
    return %0 : tensor<3x4xi16>
  }
}
