module {
  func.func @main(%arg0: tensor<5x4xi8>, %arg1: tensor<2xi64>) -> tensor<2x4xi8> {
    %0 = tosa.const_shape  {values = dense<[1, 5, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = tosa.const_shape  {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %2 = tosa.const_shape  {values = dense<[2, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %3 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
    %4 = "tosa.const"() <{values = dense<5> : tensor<1xi32>}> : () -> tensor<1xi32>
    %5 = tosa.cast %arg1 : (tensor<2xi64>) -> tensor<2xi32>
    %6 = tosa.add %5, %4 : (tensor<2xi32>, tensor<1xi32>) -> tensor<2xi32>
    %7 = tosa.greater %3, %5 : (tensor<1xi32>, tensor<2xi32>) -> tensor<2xi1>
    %8 = tosa.select %7, %6, %5 : (tensor<2xi1>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    %9 = tosa.reshape %arg0, %0 : (tensor<5x4xi8>, !tosa.shape<3>) -> tensor<1x5x4xi8>
    %10 = tosa.reshape %8, %1 : (tensor<2xi32>, !tosa.shape<2>) -> tensor<1x2xi32>
    %11 = tosa.gather %9, %10 : (tensor<1x5x4xi8>, tensor<1x2xi32>) -> tensor<1x2x4xi8>
    %12 = tosa.reshape %11, %2 : (tensor<1x2x4xi8>, !tosa.shape<2>) -> tensor<2x4xi8>
    return %12 : tensor<2x4xi8>
  }
}
