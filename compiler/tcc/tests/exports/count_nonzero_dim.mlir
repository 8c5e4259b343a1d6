module {
  func.func @main(%arg0: tensor<3x6xi64>) -> tensor<3xi64> {
    %0 = tosa.const_shape  {values = dense<3> : tensor<1xindex>} : () -> !tosa.shape<1>
    %1 = "tosa.const"() <{values = dense<0> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %2 = tosa.equal %arg0, %1 : (tensor<3x6xi64>, tensor<1x1xi64>) -> tensor<3x6xi1>
    %3 = tosa.logical_not %2 : (tensor<3x6xi1>) -> tensor<3x6xi1>
    %4 = tosa.cast %3 : (tensor<3x6xi1>) -> tensor<3x6xi64>
    %5 = tosa.reduce_sum %4 {axis = 1 : i32} : (tensor<3x6xi64>) -> tensor<3x1xi64>
    %6 = tosa.reshape %5, %0 : (tensor<3x1xi64>, !tosa.shape<1>) -> tensor<3xi64>
    return %6 : tensor<3xi64>
  }
}
