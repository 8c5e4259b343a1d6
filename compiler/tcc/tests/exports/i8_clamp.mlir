module {
  func.func @main(%arg0: tensor<3x4xi8>) -> tensor<3x4xi8> {
    %0 = tosa.clamp %arg0 {max_val = 7 : i8, min_val = -5 : i8} : (tensor<3x4xi8>) -> tensor<3x4xi8>
    return %0 : tensor<3x4xi8>
  }
}
