module {
  func.func @main(%arg0: tensor<2x3xf16>, %arg1: tensor<3x4xf16>) -> tensor<6x3xf16> {
    %0 = tosa.reverse %arg0 {axis = 1 : i32} : (tensor<2x3xf16>) -> tensor<2x3xf16>
    %1 = tosa.transpose %arg1 {perms = array<i32: 1, 0>} : (tensor<3x4xf16>) -> tensor<4x3xf16>
    %2 = tosa.concat %0, %1 {axis = 0 : i32} : (tensor<2x3xf16>, tensor<4x3xf16>) -> tensor<6x3xf16>
    return %2 : tensor<6x3xf16>
  }
}
