module {
  func.func @main(%arg0: tensor<3x4xi8>) -> tensor<3x4xi8> {
    %0 = tosa.const_shape  {values = dense<[4, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %1 = tosa.reshape %arg0, %0 : (tensor<3x4xi8>, !tosa.shape<2>) -> tensor<4x3xi8>
    %2 = tosa.transpose %1 {perms = array<i32: 1, 0>} : (tensor<4x3xi8>) -> tensor<3x4xi8>
    return %2 : tensor<3x4xi8>
  }
}
