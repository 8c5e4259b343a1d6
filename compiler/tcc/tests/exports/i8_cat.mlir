module {
  func.func @main(%arg0: tensor<3x4xi8>, %arg1: tensor<3x2xi8>) -> tensor<3x6xi8> {
    %0 = tosa.concat %arg0, %arg1 {axis = 1 : i32} : (tensor<3x4xi8>, tensor<3x2xi8>) -> tensor<3x6xi8>
    return %0 : tensor<3x6xi8>
  }
}
