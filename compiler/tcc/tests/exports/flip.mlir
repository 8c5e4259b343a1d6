module {
  func.func @main(%arg0: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
    %0 = tosa.reverse %arg0 {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %1 = tosa.reverse %0 {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    return %1 : tensor<2x3x4xf32>
  }
}
