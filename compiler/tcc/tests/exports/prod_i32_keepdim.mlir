module {
  func.func @main(%arg0: tensor<5x9xi32>) -> tensor<1x9xi64> {
    %0 = tosa.const_shape  {values = dense<[1, 9]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %1 = tosa.const_shape  {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
    %2 = tosa.const_shape  {values = dense<[1, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %3 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %4 = tosa.const_shape  {values = dense<[2, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %5 = tosa.const_shape  {values = dense<[3, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %6 = tosa.const_shape  {values = dense<[4, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %7 = tosa.cast %arg0 : (tensor<5x9xi32>) -> tensor<5x9xi64>
    %8 = tosa.slice %7, %1, %0 : (tensor<5x9xi64>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x9xi64>
    %9 = tosa.slice %7, %2, %0 : (tensor<5x9xi64>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x9xi64>
    %10 = tosa.mul %8, %9, %3 : (tensor<1x9xi64>, tensor<1x9xi64>, tensor<1xi8>) -> tensor<1x9xi64>
    %11 = tosa.slice %7, %4, %0 : (tensor<5x9xi64>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x9xi64>
    %12 = tosa.mul %10, %11, %3 : (tensor<1x9xi64>, tensor<1x9xi64>, tensor<1xi8>) -> tensor<1x9xi64>
    %13 = tosa.slice %7, %5, %0 : (tensor<5x9xi64>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x9xi64>
    %14 = tosa.mul %12, %13, %3 : (tensor<1x9xi64>, tensor<1x9xi64>, tensor<1xi8>) -> tensor<1x9xi64>
    %15 = tosa.slice %7, %6, %0 : (tensor<5x9xi64>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x9xi64>
    %16 = tosa.mul %14, %15, %3 : (tensor<1x9xi64>, tensor<1x9xi64>, tensor<1xi8>) -> tensor<1x9xi64>
    return %16 : tensor<1x9xi64>
  }
}
