module {
  func.func @main(%arg0: tensor<4x7xf32>) -> tensor<4xi64> {
    %0 = tosa.argmax %arg0 {axis = 1 : i32} : (tensor<4x7xf32>) -> tensor<4xi64>
    return %0 : tensor<4xi64>
  }
}
