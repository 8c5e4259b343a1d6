module {
  func.func @main(%arg0: tensor<3x5xf32>, %arg1: tensor<3x2xi64>, %arg2: tensor<3x2xf32>) -> tensor<3x5xf32> {
    %0 = tosa.const_shape  {values = dense<[3, 2, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = "tosa.const"() <{values = dense<[[[0], [0]], [[1], [1]], [[2], [2]]]> : tensor<3x2x1xi32>}> : () -> tensor<3x2x1xi32>
    %2 = tosa.const_shape  {values = dense<[1, 6, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[1, 15, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = tosa.const_shape  {values = dense<[6, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %5 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %6 = tosa.const_shape  {values = dense<[1, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %7 = tosa.const_shape  {values = dense<[3, 5]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %8 = "tosa.const"() <{values = dense<[[5, 1]]> : tensor<1x2xi32>}> : () -> tensor<1x2xi32>
    %9 = tosa.cast %arg1 : (tensor<3x2xi64>) -> tensor<3x2xi32>
    %10 = tosa.reshape %9, %0 : (tensor<3x2xi32>, !tosa.shape<3>) -> tensor<3x2x1xi32>
    %11 = tosa.concat %1, %10 {axis = 2 : i32} : (tensor<3x2x1xi32>, tensor<3x2x1xi32>) -> tensor<3x2x2xi32>
    %12 = tosa.reshape %arg2, %2 : (tensor<3x2xf32>, !tosa.shape<3>) -> tensor<1x6x1xf32>
    %13 = tosa.reshape %arg0, %3 : (tensor<3x5xf32>, !tosa.shape<3>) -> tensor<1x15x1xf32>
    %14 = tosa.reshape %11, %4 : (tensor<3x2x2xi32>, !tosa.shape<2>) -> tensor<6x2xi32>
    %15 = tosa.mul %14, %8, %5 : (tensor<6x2xi32>, tensor<1x2xi32>, tensor<1xi8>) -> tensor<6x2xi32>
    %16 = tosa.reduce_sum %15 {axis = 1 : i32} : (tensor<6x2xi32>) -> tensor<6x1xi32>
    %17 = tosa.reshape %16, %6 : (tensor<6x1xi32>, !tosa.shape<2>) -> tensor<1x6xi32>
    %18 = tosa.scatter %13, %17, %12 : (tensor<1x15x1xf32>, tensor<1x6xi32>, tensor<1x6x1xf32>) -> tensor<1x15x1xf32>
    %19 = tosa.reshape %18, %7 : (tensor<1x15x1xf32>, !tosa.shape<2>) -> tensor<3x5xf32>
    return %19 : tensor<3x5xf32>
  }
}
