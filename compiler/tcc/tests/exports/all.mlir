module {
  func.func @main(%arg0: tensor<3x5xf32>) -> tensor<i1> {
    %0 = tosa.const_shape  {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
    %1 = "tosa.const"() <{values = dense<0.10000000149011612> : tensor<1x1xf64>}> : () -> tensor<1x1xf64>
    %2 = tosa.cast %arg0 : (tensor<3x5xf32>) -> tensor<3x5xf64>
    %3 = tosa.greater %2, %1 : (tensor<3x5xf64>, tensor<1x1xf64>) -> tensor<3x5xi1>
    %4 = tosa.reduce_all %3 {axis = 0 : i32} : (tensor<3x5xi1>) -> tensor<1x5xi1>
    %5 = tosa.reduce_all %4 {axis = 1 : i32} : (tensor<1x5xi1>) -> tensor<1x1xi1>
    %6 = tosa.reshape %5, %0 : (tensor<1x1xi1>, !tosa.shape<0>) -> tensor<i1>
    return %6 : tensor<i1>
  }
}
