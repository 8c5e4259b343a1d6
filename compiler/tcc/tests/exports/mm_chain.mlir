module {
  func.func @main(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %1 = tosa.const_shape  {values = dense<[1, 4, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {values = dense<4> : tensor<2xindex>} : () -> !tosa.shape<2>
    %3 = tosa.reshape %arg0, %1 : (tensor<4x4xf32>, !tosa.shape<3>) -> tensor<1x4x4xf32>
    %4 = tosa.reshape %arg1, %1 : (tensor<4x4xf32>, !tosa.shape<3>) -> tensor<1x4x4xf32>
    %5 = tosa.matmul %3, %4, %0, %0 : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
    %6 = tosa.matmul %3, %5, %0, %0 : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
    %7 = tosa.reshape %6, %2 : (tensor<1x4x4xf32>, !tosa.shape<2>) -> tensor<4x4xf32>
    return %7 : tensor<4x4xf32>
  }
}
