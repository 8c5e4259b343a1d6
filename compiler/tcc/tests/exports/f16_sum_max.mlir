module {
  func.func @main(%arg0: tensor<6x10xf16>) -> (tensor<6xf16>, tensor<10xf16>) {
    %0 = tosa.const_shape  {values = dense<6> : tensor<1xindex>} : () -> !tosa.shape<1>
    %1 = tosa.const_shape  {values = dense<10> : tensor<1xindex>} : () -> !tosa.shape<1>
    %2 = tosa.reduce_sum %arg0 {axis = 1 : i32} : (tensor<6x10xf16>) -> tensor<6x1xf16>
    %3 = tosa.reshape %2, %0 : (tensor<6x1xf16>, !tosa.shape<1>) -> tensor<6xf16>
    %4 = tosa.reduce_max %arg0 {axis = 0 : i32} : (tensor<6x10xf16>) -> tensor<1x10xf16>
    %5 = tosa.reshape %4, %1 : (tensor<1x10xf16>, !tosa.shape<1>) -> tensor<10xf16>
    return %3, %5 : tensor<6xf16>, tensor<10xf16>
  }
}
