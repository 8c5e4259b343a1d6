module {
  func.func @main(%arg0: tensor<3x4xi1>, %arg1: tensor<3x4xi1>) -> tensor<3x4xi1> {
    %0 = tosa.logical_and %arg0, %arg1 : (tensor<3x4xi1>, tensor<3x4xi1>) -> tensor<3x4xi1>
    return %0 : tensor<3x4xi1>
  }
}
