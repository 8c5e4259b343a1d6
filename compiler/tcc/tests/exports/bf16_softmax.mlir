module {
  func.func @main(%arg0: tensor<4x33xbf16>) -> tensor<4x33xbf16> {
    %0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %1 = tosa.cast %arg0 : (tensor<4x33xbf16>) -> tensor<4x33xf32>
    %2 = tosa.reduce_max %1 {axis = 1 : i32} : (tensor<4x33xf32>) -> tensor<4x1xf32>
    %3 = tosa.sub %1, %2 : (tensor<4x33xf32>, tensor<4x1xf32>) -> tensor<4x33xf32>
    %4 = tosa.exp %3 : (tensor<4x33xf32>) -> tensor<4x33xf32>
    %5 = tosa.reduce_sum %4 {axis = 1 : i32} : (tensor<4x33xf32>) -> tensor<4x1xf32>
    %6 = tosa.reciprocal %5 : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %7 = tosa.mul %4, %6, %0 : (tensor<4x33xf32>, tensor<4x1xf32>, tensor<1xi8>) -> tensor<4x33xf32>
    %8 = tosa.cast %7 : (tensor<4x33xf32>) -> tensor<4x33xbf16>
    return %8 : tensor<4x33xbf16>
  }
}
