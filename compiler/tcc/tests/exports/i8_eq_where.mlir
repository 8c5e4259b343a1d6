module {
  func.func @main(%arg0: tensor<3x4xi8>, %arg1: tensor<3x4xi8>) -> tensor<3x4xi8> {
    %0 = tosa.equal %arg0, %arg1 : (tensor<3x4xi8>, tensor<3x4xi8>) -> tensor<3x4xi1>
    %1 = tosa.select %0, %arg0, %arg1 : (tensor<3x4xi1>, tensor<3x4xi8>, tensor<3x4xi8>) -> tensor<3x4xi8>
    return %1 : tensor<3x4xi8>
  }
}
