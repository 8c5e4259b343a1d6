module {
  func.func @main(%arg0: tensor<6xf32>, %arg1: tensor<3xi64>, %arg2: tensor<3xf32>) -> tensor<6xf32> {
    %0 = tosa.const_shape  {values = dense<[1, 3, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = tosa.const_shape  {values = dense<[1, 6, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %3 = tosa.const_shape  {values = dense<6> : tensor<1xindex>} : () -> !tosa.shape<1>
    %4 = tosa.cast %arg1 : (tensor<3xi64>) -> tensor<3xi32>
    %5 = tosa.reshape %arg2, %0 : (tensor<3xf32>, !tosa.shape<3>) -> tensor<1x3x1xf32>
    %6 = tosa.reshape %arg0, %1 : (tensor<6xf32>, !tosa.shape<3>) -> tensor<1x6x1xf32>
    %7 = tosa.reshape %4, %2 : (tensor<3xi32>, !tosa.shape<2>) -> tensor<1x3xi32>
    %8 = tosa.scatter %6, %7, %5 : (tensor<1x6x1xf32>, tensor<1x3xi32>, tensor<1x3x1xf32>) -> tensor<1x6x1xf32>
    %9 = tosa.reshape %8, %3 : (tensor<1x6x1xf32>, !tosa.shape<1>) -> tensor<6xf32>
    return %9 : tensor<6xf32>
  }
}
