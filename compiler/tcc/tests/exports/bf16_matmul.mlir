module {
  func.func @main(%arg0: tensor<2x5x24xbf16>, %arg1: tensor<24x7xbf16>) -> tensor<2x5x7xbf16> {
    %0 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xbf16>}> : () -> tensor<1xbf16>
    %1 = tosa.const_shape  {values = dense<[1, 10, 24]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = tosa.const_shape  {values = dense<[1, 24, 7]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[10, 7]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %4 = tosa.const_shape  {values = dense<[2, 5, 7]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %5 = tosa.reshape %arg0, %1 : (tensor<2x5x24xbf16>, !tosa.shape<3>) -> tensor<1x10x24xbf16>
    %6 = tosa.reshape %arg1, %2 : (tensor<24x7xbf16>, !tosa.shape<3>) -> tensor<1x24x7xbf16>
    %7 = tosa.matmul %5, %6, %0, %0 : (tensor<1x10x24xbf16>, tensor<1x24x7xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x10x7xf32>
    %8 = tosa.reshape %7, %3 : (tensor<1x10x7xf32>, !tosa.shape<2>) -> tensor<10x7xf32>
    %9 = tosa.cast %8 : (tensor<10x7xf32>) -> tensor<10x7xbf16>
    %10 = tosa.reshape %9, %4 : (tensor<10x7xbf16>, !tosa.shape<3>) -> tensor<2x5x7xbf16>
    return %10 : tensor<2x5x7xbf16>
  }
}
