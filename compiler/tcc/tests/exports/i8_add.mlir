module {
  func.func @main(%arg0: tensor<3x4xi8>, %arg1: tensor<3x4xi8>) -> tensor<3x4xi8> {
    %0 = tosa.add %arg0, %arg1 : (tensor<3x4xi8>, tensor<3x4xi8>) -> tensor<3x4xi8>
    return %0 : tensor<3x4xi8>
  }
}
