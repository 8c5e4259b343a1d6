module {
  func.func @main(%arg0: tensor<6x4xf32>, %arg1: tensor<2xi64>, %arg2: tensor<2x4xf32>) -> tensor<6x4xf32> {
    %0 = tosa.const_shape  {values = dense<[1, 2, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = tosa.const_shape  {values = dense<[1, 6, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %3 = tosa.const_shape  {values = dense<[6, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %4 = tosa.cast %arg1 : (tensor<2xi64>) -> tensor<2xi32>
    %5 = tosa.reshape %arg2, %0 : (tensor<2x4xf32>, !tosa.shape<3>) -> tensor<1x2x4xf32>
    %6 = tosa.reshape %arg0, %1 : (tensor<6x4xf32>, !tosa.shape<3>) -> tensor<1x6x4xf32>
    %7 = tosa.reshape %4, %2 : (tensor<2xi32>, !tosa.shape<2>) -> tensor<1x2xi32>
    %8 = tosa.scatter %6, %7, %5 : (tensor<1x6x4xf32>, tensor<1x2xi32>, tensor<1x2x4xf32>) -> tensor<1x6x4xf32>
    %9 = tosa.reshape %8, %3 : (tensor<1x6x4xf32>, !tosa.shape<2>) -> tensor<6x4xf32>
    return %9 : tensor<6x4xf32>
  }
}
