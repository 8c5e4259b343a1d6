module {
  func.func @main(%arg0: tensor<3x4x5xf32>) -> tensor<i64> {
    %0 = tosa.const_shape  {values = dense<60> : tensor<1xindex>} : () -> !tosa.shape<1>
    %1 = tosa.reshape %arg0, %0 : (tensor<3x4x5xf32>, !tosa.shape<1>) -> tensor<60xf32>
    %2 = tosa.argmax %1 {axis = 0 : i32} : (tensor<60xf32>) -> tensor<i64>
    return %2 : tensor<i64>
  }
}
