module {
  func.func @main(%arg0: tensor<5x6xi32>) -> tensor<1x6xi64> {
    %0 = tosa.const_shape  {values = dense<[1, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %1 = tosa.cast %arg0 : (tensor<5x6xi32>) -> tensor<5x6xf32>
    %2 = tosa.argmax %1 {axis = 0 : i32} : (tensor<5x6xf32>) -> tensor<6xi64>
    %3 = tosa.reshape %2, %0 : (tensor<6xi64>, !tosa.shape<2>) -> tensor<1x6xi64>
    return %3 : tensor<1x6xi64>
  }
}
