module {
  func.func @main(%arg0: tensor<4x5xf32>, %arg1: tensor<4xi64>) -> tensor<f32> {
    %0 = tosa.const_shape  {values = dense<[4, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %1 = tosa.const_shape  {values = dense<[4, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = "tosa.const"() <{values = dense<[[[0]], [[1]], [[2]], [[3]]]> : tensor<4x1x1xi32>}> : () -> tensor<4x1x1xi32>
    %3 = tosa.const_shape  {values = dense<[1, 20, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = tosa.const_shape  {values = dense<[4, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %5 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %6 = tosa.const_shape  {values = dense<[1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %7 = tosa.const_shape  {values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
    %8 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %9 = tosa.const_shape  {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
    %10 = "tosa.const"() <{values = dense<-100> : tensor<1xi64>}> : () -> tensor<1xi64>
    %11 = "tosa.const"() <{values = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
    %12 = "tosa.const"() <{values = dense<[[5, 1]]> : tensor<1x2xi32>}> : () -> tensor<1x2xi32>
    %13 = tosa.equal %arg1, %10 : (tensor<4xi64>, tensor<1xi64>) -> tensor<4xi1>
    %14 = tosa.select %13, %11, %arg1 : (tensor<4xi1>, tensor<1xi64>, tensor<4xi64>) -> tensor<4xi64>
    %15 = tosa.reshape %14, %0 : (tensor<4xi64>, !tosa.shape<2>) -> tensor<4x1xi64>
    %16 = tosa.cast %15 : (tensor<4x1xi64>) -> tensor<4x1xi32>
    %17 = tosa.reshape %16, %1 : (tensor<4x1xi32>, !tosa.shape<3>) -> tensor<4x1x1xi32>
    %18 = tosa.concat %2, %17 {axis = 2 : i32} : (tensor<4x1x1xi32>, tensor<4x1x1xi32>) -> tensor<4x1x2xi32>
    %19 = tosa.reshape %arg0, %3 : (tensor<4x5xf32>, !tosa.shape<3>) -> tensor<1x20x1xf32>
    %20 = tosa.reshape %18, %4 : (tensor<4x1x2xi32>, !tosa.shape<2>) -> tensor<4x2xi32>
    %21 = tosa.mul %20, %12, %5 : (tensor<4x2xi32>, tensor<1x2xi32>, tensor<1xi8>) -> tensor<4x2xi32>
    %22 = tosa.reduce_sum %21 {axis = 1 : i32} : (tensor<4x2xi32>) -> tensor<4x1xi32>
    %23 = tosa.reshape %22, %6 : (tensor<4x1xi32>, !tosa.shape<2>) -> tensor<1x4xi32>
    %24 = tosa.gather %19, %23 : (tensor<1x20x1xf32>, tensor<1x4xi32>) -> tensor<1x4x1xf32>
    %25 = tosa.reshape %24, %7 : (tensor<1x4x1xf32>, !tosa.shape<1>) -> tensor<4xf32>
    %26 = tosa.negate %25, %8, %8 : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
    %27 = tosa.select %13, %8, %26 : (tensor<4xi1>, tensor<1xf32>, tensor<4xf32>) -> tensor<4xf32>
    %28 = tosa.logical_not %13 : (tensor<4xi1>) -> tensor<4xi1>
    %29 = tosa.cast %28 : (tensor<4xi1>) -> tensor<4xi64>
    %30 = tosa.reduce_sum %29 {axis = 0 : i32} : (tensor<4xi64>) -> tensor<1xi64>
    %31 = tosa.reshape %30, %9 : (tensor<1xi64>, !tosa.shape<0>) -> tensor<i64>
    %32 = tosa.cast %31 : (tensor<i64>) -> tensor<f32>
    %33 = tosa.reduce_sum %27 {axis = 0 : i32} : (tensor<4xf32>) -> tensor<1xf32>
    %34 = tosa.reshape %33, %9 : (tensor<1xf32>, !tosa.shape<0>) -> tensor<f32>
    %35 = tosa.reciprocal %32 : (tensor<f32>) -> tensor<f32>
    %36 = tosa.mul %34, %35, %5 : (tensor<f32>, tensor<f32>, tensor<1xi8>) -> tensor<f32>
    return %36 : tensor<f32>
  }
}
