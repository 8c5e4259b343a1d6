module {
  func.func @main(%arg0: tensor<3x7x5xf32>) -> tensor<3x5xf32> {
    %0 = tosa.const_shape  {values = dense<[3, 5]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %1 = tosa.reduce_product %arg0 {axis = 1 : i32} : (tensor<3x7x5xf32>) -> tensor<3x1x5xf32>
    %2 = tosa.reshape %1, %0 : (tensor<3x1x5xf32>, !tosa.shape<2>) -> tensor<3x5xf32>
    return %2 : tensor<3x5xf32>
  }
}
