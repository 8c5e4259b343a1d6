module {
  func.func @main(%arg0: tensor<3x4xi8>, %arg1: tensor<4x2xi8>) -> tensor<3x2xi8> {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = tosa.const_shape  {values = dense<[1, 3, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {values = dense<[1, 4, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %4 = tosa.reshape %arg0, %1 : (tensor<3x4xi8>, !tosa.shape<3>) -> tensor<1x3x4xi8>
    %5 = tosa.reshape %arg1, %2 : (tensor<4x2xi8>, !tosa.shape<3>) -> tensor<1x4x2xi8>
    %6 = tosa.matmul %4, %5, %0, %0 : (tensor<1x3x4xi8>, tensor<1x4x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x2xi32>
    %7 = tosa.reshape %6, %3 : (tensor<1x3x2xi32>, !tosa.shape<2>) -> tensor<3x2xi32>
    %8 = tosa.cast %7 : (tensor<3x2xi32>) -> tensor<3x2xi8>
    return %8 : tensor<3x2xi8>
  }
}
