module {
  func.func @main(%arg0: tensor<4x6xf32>) -> tensor<f32> {
    %0 = tosa.const_shape  {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
    %1 = tosa.reduce_product %arg0 {axis = 0 : i32} : (tensor<4x6xf32>) -> tensor<1x6xf32>
    %2 = tosa.reduce_product %1 {axis = 1 : i32} : (tensor<1x6xf32>) -> tensor<1x1xf32>
    %3 = tosa.reshape %2, %0 : (tensor<1x1xf32>, !tosa.shape<0>) -> tensor<f32>
    return %3 : tensor<f32>
  }
}
