module {
  func.func @main(%arg0: tensor<1x2x7x11xf32>) -> tensor<1x2x3x5xf32> {
    %0 = "tosa.const"() <{values = dense<[[154, 77, 11, 1]]> : tensor<1x4xi32>}> : () -> tensor<1x4xi32>
    %cst = arith.constant dense<[[[0]], [[1]]]> : tensor<2x1x1xi64>
    %1 = "tosa.const"() <{values = dense<[0, 1, 2]> : tensor<3xi64>}> : () -> tensor<3xi64>
    %2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %3 = tosa.const_shape  {values = dense<[3, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %4 = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4]> : tensor<5xi64>}> : () -> tensor<5xi64>
    %5 = tosa.const_shape  {values = dense<[1, 2, 1, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %6 = tosa.const_shape  {values = dense<[1, 1, 3, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %7 = tosa.const_shape  {values = dense<[1, 1, 1, 5, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %8 = tosa.const_shape  {values = dense<[1, 2, 3, 5, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %9 = tosa.const_shape  {values = dense<[1, 1, 3, 5, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %10 = tosa.const_shape  {values = dense<[1, 2, 1, 5, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %11 = tosa.const_shape  {values = dense<[1, 2, 3, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %12 = tosa.const_shape  {values = dense<[1, 154, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %13 = tosa.const_shape  {values = dense<[30, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %14 = tosa.const_shape  {values = dense<[1, 30]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %15 = tosa.const_shape  {values = dense<[1, 2, 3, 5]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %16 = tosa.const_shape  {values = dense<[1, 1, 1, 5]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %17 = tosa.const_shape  {values = dense<[1, 1, 3, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %18 = "tosa.const"() <{values = dense<3.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %19 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %20 = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %21 = "tosa.const"() <{values = dense<-9223372036854775808> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %22 = "tosa.const"() <{values = dense<6> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %23 = "tosa.const"() <{values = dense<2.500000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %24 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %25 = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
    %26 = "tosa.const"() <{values = dense<-9223372036854775808> : tensor<1xi64>}> : () -> tensor<1xi64>
    %27 = "tosa.const"() <{values = dense<10> : tensor<1xi64>}> : () -> tensor<1xi64>
    %28 = "tosa.const"() <{values = dense<0> : tensor<1x1x1x1x1xi32>}> : () -> tensor<1x1x1x1x1xi32>
    %29 = "tosa.const"() <{values = dense<0> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
    %30 = "tosa.const"() <{values = dense<2> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
    %31 = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %32 = "tosa.const"() <{values = dense<7> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %33 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
    %34 = "tosa.const"() <{values = dense<11> : tensor<1xi32>}> : () -> tensor<1xi32>
    %35 = tosa.cast %1 : (tensor<3xi64>) -> tensor<3xf32>
    %36 = tosa.mul %35, %18, %2 : (tensor<3xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<3xf32>
    %37 = tosa.clamp %36 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<3xf32>) -> tensor<3xf32>
    %38 = tosa.reshape %37, %3 : (tensor<3xf32>, !tosa.shape<2>) -> tensor<3x1xf32>
    %39 = tosa.floor %38 : (tensor<3x1xf32>) -> tensor<3x1xf32>
    %40 = tosa.ceil %38 : (tensor<3x1xf32>) -> tensor<3x1xf32>
    %41 = tosa.greater %19, %38 : (tensor<1x1xf32>, tensor<3x1xf32>) -> tensor<3x1xi1>
    %42 = tosa.select %41, %40, %39 : (tensor<3x1xi1>, tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
    %43 = tosa.cast %42 : (tensor<3x1xf32>) -> tensor<3x1xi64>
    %44 = tosa.cast %43 : (tensor<3x1xi64>) -> tensor<3x1xi32>
    %45 = tosa.add %44, %20 : (tensor<3x1xi32>, tensor<1x1xi32>) -> tensor<3x1xi32>
    %46 = tosa.cast %45 : (tensor<3x1xi32>) -> tensor<3x1xi64>
    %47 = tosa.maximum %46, %21 : (tensor<3x1xi64>, tensor<1x1xi64>) -> tensor<3x1xi64>
    %48 = tosa.minimum %47, %22 : (tensor<3x1xi64>, tensor<1x1xi64>) -> tensor<3x1xi64>
    %49 = tosa.cast %4 : (tensor<5xi64>) -> tensor<5xf32>
    %50 = tosa.mul %49, %23, %2 : (tensor<5xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<5xf32>
    %51 = tosa.clamp %50 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<5xf32>) -> tensor<5xf32>
    %52 = tosa.floor %51 : (tensor<5xf32>) -> tensor<5xf32>
    %53 = tosa.ceil %51 : (tensor<5xf32>) -> tensor<5xf32>
    %54 = tosa.greater %24, %51 : (tensor<1xf32>, tensor<5xf32>) -> tensor<5xi1>
    %55 = tosa.select %54, %53, %52 : (tensor<5xi1>, tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
    %56 = tosa.cast %55 : (tensor<5xf32>) -> tensor<5xi64>
    %57 = tosa.cast %56 : (tensor<5xi64>) -> tensor<5xi32>
    %58 = tosa.add %57, %25 : (tensor<5xi32>, tensor<1xi32>) -> tensor<5xi32>
    %59 = tosa.cast %58 : (tensor<5xi32>) -> tensor<5xi64>
    %60 = tosa.maximum %59, %26 : (tensor<5xi64>, tensor<1xi64>) -> tensor<5xi64>
    %61 = tosa.minimum %60, %27 : (tensor<5xi64>, tensor<1xi64>) -> tensor<5xi64>
    %62 = tosa.cast %cst : (tensor<2x1x1xi64>) -> tensor<2x1x1xi32>
    %63 = tosa.add %62, %30 : (tensor<2x1x1xi32>, tensor<1x1x1xi32>) -> tensor<2x1x1xi32>
    %64 = tosa.greater %29, %62 : (tensor<1x1x1xi32>, tensor<2x1x1xi32>) -> tensor<2x1x1xi1>
    %65 = tosa.select %64, %63, %62 : (tensor<2x1x1xi1>, tensor<2x1x1xi32>, tensor<2x1x1xi32>) -> tensor<2x1x1xi32>
    %66 = tosa.cast %43 : (tensor<3x1xi64>) -> tensor<3x1xi32>
    %67 = tosa.add %66, %32 : (tensor<3x1xi32>, tensor<1x1xi32>) -> tensor<3x1xi32>
    %68 = tosa.greater %31, %66 : (tensor<1x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi1>
    %69 = tosa.select %68, %67, %66 : (tensor<3x1xi1>, tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi32>
    %70 = tosa.cast %56 : (tensor<5xi64>) -> tensor<5xi32>
    %71 = tosa.add %70, %34 : (tensor<5xi32>, tensor<1xi32>) -> tensor<5xi32>
    %72 = tosa.greater %33, %70 : (tensor<1xi32>, tensor<5xi32>) -> tensor<5xi1>
    %73 = tosa.select %72, %71, %70 : (tensor<5xi1>, tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %74 = tosa.reshape %65, %5 : (tensor<2x1x1xi32>, !tosa.shape<5>) -> tensor<1x2x1x1x1xi32>
    %75 = tosa.reshape %69, %6 : (tensor<3x1xi32>, !tosa.shape<5>) -> tensor<1x1x3x1x1xi32>
    %76 = tosa.reshape %73, %7 : (tensor<5xi32>, !tosa.shape<5>) -> tensor<1x1x1x5x1xi32>
    %77 = tosa.tile %28, %8 : (tensor<1x1x1x1x1xi32>, !tosa.shape<5>) -> tensor<1x2x3x5x1xi32>
    %78 = tosa.tile %74, %9 : (tensor<1x2x1x1x1xi32>, !tosa.shape<5>) -> tensor<1x2x3x5x1xi32>
    %79 = tosa.tile %75, %10 : (tensor<1x1x3x1x1xi32>, !tosa.shape<5>) -> tensor<1x2x3x5x1xi32>
    %80 = tosa.tile %76, %11 : (tensor<1x1x1x5x1xi32>, !tosa.shape<5>) -> tensor<1x2x3x5x1xi32>
    %81 = tosa.concat %77, %78, %79, %80 {axis = 4 : i32} : (tensor<1x2x3x5x1xi32>, tensor<1x2x3x5x1xi32>, tensor<1x2x3x5x1xi32>, tensor<1x2x3x5x1xi32>) -> tensor<1x2x3x5x4xi32>
    %82 = tosa.reshape %arg0, %12 : (tensor<1x2x7x11xf32>, !tosa.shape<3>) -> tensor<1x154x1xf32>
    %83 = tosa.reshape %81, %13 : (tensor<1x2x3x5x4xi32>, !tosa.shape<2>) -> tensor<30x4xi32>
    %84 = tosa.mul %83, %0, %2 : (tensor<30x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<30x4xi32>
    %85 = tosa.reduce_sum %84 {axis = 1 : i32} : (tensor<30x4xi32>) -> tensor<30x1xi32>
    %86 = tosa.reshape %85, %14 : (tensor<30x1xi32>, !tosa.shape<2>) -> tensor<1x30xi32>
    %87 = tosa.gather %82, %86 : (tensor<1x154x1xf32>, tensor<1x30xi32>) -> tensor<1x30x1xf32>
    %88 = tosa.reshape %87, %15 : (tensor<1x30x1xf32>, !tosa.shape<4>) -> tensor<1x2x3x5xf32>
    %89 = tosa.cast %61 : (tensor<5xi64>) -> tensor<5xi32>
    %90 = tosa.add %89, %34 : (tensor<5xi32>, tensor<1xi32>) -> tensor<5xi32>
    %91 = tosa.greater %33, %89 : (tensor<1xi32>, tensor<5xi32>) -> tensor<5xi1>
    %92 = tosa.select %91, %90, %89 : (tensor<5xi1>, tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
    %93 = tosa.reshape %92, %7 : (tensor<5xi32>, !tosa.shape<5>) -> tensor<1x1x1x5x1xi32>
    %94 = tosa.tile %93, %11 : (tensor<1x1x1x5x1xi32>, !tosa.shape<5>) -> tensor<1x2x3x5x1xi32>
    %95 = tosa.concat %77, %78, %79, %94 {axis = 4 : i32} : (tensor<1x2x3x5x1xi32>, tensor<1x2x3x5x1xi32>, tensor<1x2x3x5x1xi32>, tensor<1x2x3x5x1xi32>) -> tensor<1x2x3x5x4xi32>
    %96 = tosa.reshape %95, %13 : (tensor<1x2x3x5x4xi32>, !tosa.shape<2>) -> tensor<30x4xi32>
    %97 = tosa.mul %96, %0, %2 : (tensor<30x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<30x4xi32>
    %98 = tosa.reduce_sum %97 {axis = 1 : i32} : (tensor<30x4xi32>) -> tensor<30x1xi32>
    %99 = tosa.reshape %98, %14 : (tensor<30x1xi32>, !tosa.shape<2>) -> tensor<1x30xi32>
    %100 = tosa.gather %82, %99 : (tensor<1x154x1xf32>, tensor<1x30xi32>) -> tensor<1x30x1xf32>
    %101 = tosa.reshape %100, %15 : (tensor<1x30x1xf32>, !tosa.shape<4>) -> tensor<1x2x3x5xf32>
    %102 = tosa.cast %48 : (tensor<3x1xi64>) -> tensor<3x1xi32>
    %103 = tosa.add %102, %32 : (tensor<3x1xi32>, tensor<1x1xi32>) -> tensor<3x1xi32>
    %104 = tosa.greater %31, %102 : (tensor<1x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi1>
    %105 = tosa.select %104, %103, %102 : (tensor<3x1xi1>, tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi32>
    %106 = tosa.reshape %105, %6 : (tensor<3x1xi32>, !tosa.shape<5>) -> tensor<1x1x3x1x1xi32>
    %107 = tosa.tile %106, %10 : (tensor<1x1x3x1x1xi32>, !tosa.shape<5>) -> tensor<1x2x3x5x1xi32>
    %108 = tosa.concat %77, %78, %107, %80 {axis = 4 : i32} : (tensor<1x2x3x5x1xi32>, tensor<1x2x3x5x1xi32>, tensor<1x2x3x5x1xi32>, tensor<1x2x3x5x1xi32>) -> tensor<1x2x3x5x4xi32>
    %109 = tosa.reshape %108, %13 : (tensor<1x2x3x5x4xi32>, !tosa.shape<2>) -> tensor<30x4xi32>
    %110 = tosa.mul %109, %0, %2 : (tensor<30x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<30x4xi32>
    %111 = tosa.reduce_sum %110 {axis = 1 : i32} : (tensor<30x4xi32>) -> tensor<30x1xi32>
    %112 = tosa.reshape %111, %14 : (tensor<30x1xi32>, !tosa.shape<2>) -> tensor<1x30xi32>
    %113 = tosa.gather %82, %112 : (tensor<1x154x1xf32>, tensor<1x30xi32>) -> tensor<1x30x1xf32>
    %114 = tosa.reshape %113, %15 : (tensor<1x30x1xf32>, !tosa.shape<4>) -> tensor<1x2x3x5xf32>
    %115 = tosa.concat %77, %78, %107, %94 {axis = 4 : i32} : (tensor<1x2x3x5x1xi32>, tensor<1x2x3x5x1xi32>, tensor<1x2x3x5x1xi32>, tensor<1x2x3x5x1xi32>) -> tensor<1x2x3x5x4xi32>
    %116 = tosa.reshape %115, %13 : (tensor<1x2x3x5x4xi32>, !tosa.shape<2>) -> tensor<30x4xi32>
    %117 = tosa.mul %116, %0, %2 : (tensor<30x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<30x4xi32>
    %118 = tosa.reduce_sum %117 {axis = 1 : i32} : (tensor<30x4xi32>) -> tensor<30x1xi32>
    %119 = tosa.reshape %118, %14 : (tensor<30x1xi32>, !tosa.shape<2>) -> tensor<1x30xi32>
    %120 = tosa.gather %82, %119 : (tensor<1x154x1xf32>, tensor<1x30xi32>) -> tensor<1x30x1xf32>
    %121 = tosa.reshape %120, %15 : (tensor<1x30x1xf32>, !tosa.shape<4>) -> tensor<1x2x3x5xf32>
    %122 = tosa.cast %56 : (tensor<5xi64>) -> tensor<5xf32>
    %123 = tosa.sub %51, %122 : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
    %124 = tosa.clamp %123 {max_val = 1.000000e+00 : f32, min_val = 0.000000e+00 : f32} : (tensor<5xf32>) -> tensor<5xf32>
    %125 = tosa.sub %101, %88 : (tensor<1x2x3x5xf32>, tensor<1x2x3x5xf32>) -> tensor<1x2x3x5xf32>
    %126 = tosa.reshape %124, %16 : (tensor<5xf32>, !tosa.shape<4>) -> tensor<1x1x1x5xf32>
    %127 = tosa.mul %125, %126, %2 : (tensor<1x2x3x5xf32>, tensor<1x1x1x5xf32>, tensor<1xi8>) -> tensor<1x2x3x5xf32>
    %128 = tosa.add %88, %127 : (tensor<1x2x3x5xf32>, tensor<1x2x3x5xf32>) -> tensor<1x2x3x5xf32>
    %129 = tosa.sub %121, %114 : (tensor<1x2x3x5xf32>, tensor<1x2x3x5xf32>) -> tensor<1x2x3x5xf32>
    %130 = tosa.mul %129, %126, %2 : (tensor<1x2x3x5xf32>, tensor<1x1x1x5xf32>, tensor<1xi8>) -> tensor<1x2x3x5xf32>
    %131 = tosa.add %114, %130 : (tensor<1x2x3x5xf32>, tensor<1x2x3x5xf32>) -> tensor<1x2x3x5xf32>
    %132 = tosa.cast %43 : (tensor<3x1xi64>) -> tensor<3x1xf32>
    %133 = tosa.sub %38, %132 : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
    %134 = tosa.clamp %133 {max_val = 1.000000e+00 : f32, min_val = 0.000000e+00 : f32} : (tensor<3x1xf32>) -> tensor<3x1xf32>
    %135 = tosa.sub %131, %128 : (tensor<1x2x3x5xf32>, tensor<1x2x3x5xf32>) -> tensor<1x2x3x5xf32>
    %136 = tosa.reshape %134, %17 : (tensor<3x1xf32>, !tosa.shape<4>) -> tensor<1x1x3x1xf32>
    %137 = tosa.mul %135, %136, %2 : (tensor<1x2x3x5xf32>, tensor<1x1x3x1xf32>, tensor<1xi8>) -> tensor<1x2x3x5xf32>
    %138 = tosa.add %128, %137 : (tensor<1x2x3x5xf32>, tensor<1x2x3x5xf32>) -> tensor<1x2x3x5xf32>
    return %138 : tensor<1x2x3x5xf32>
  }
}
