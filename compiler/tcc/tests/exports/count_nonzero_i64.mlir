module {
  func.func @main(%arg0: tensor<3x5xi64>) -> tensor<i64> {
    %0 = tosa.const_shape  {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
    %1 = "tosa.const"() <{values = dense<0> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %2 = tosa.equal %arg0, %1 : (tensor<3x5xi64>, tensor<1x1xi64>) -> tensor<3x5xi1>
    %3 = tosa.logical_not %2 : (tensor<3x5xi1>) -> tensor<3x5xi1>
    %4 = tosa.cast %3 : (tensor<3x5xi1>) -> tensor<3x5xi64>
    %5 = tosa.reduce_sum %4 {axis = 0 : i32} : (tensor<3x5xi64>) -> tensor<1x5xi64>
    %6 = tosa.reduce_sum %5 {axis = 1 : i32} : (tensor<1x5xi64>) -> tensor<1x1xi64>
    %7 = tosa.reshape %6, %0 : (tensor<1x1xi64>, !tosa.shape<0>) -> tensor<i64>
    return %7 : tensor<i64>
  }
}
