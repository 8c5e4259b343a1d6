module {
  func.func @main(%arg0: tensor<3x4xi8>) -> tensor<3xi8> {
    %0 = tosa.const_shape  {values = dense<3> : tensor<1xindex>} : () -> !tosa.shape<1>
    %1 = tosa.reduce_max %arg0 {axis = 1 : i32} : (tensor<3x4xi8>) -> tensor<3x1xi8>
    %2 = tosa.reshape %1, %0 : (tensor<3x1xi8>, !tosa.shape<1>) -> tensor<3xi8>
    return %2 : tensor<3xi8>
  }
}
