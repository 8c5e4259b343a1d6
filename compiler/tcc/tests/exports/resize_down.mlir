module {
  func.func @main(%arg0: tensor<1x2x9x10xf32>) -> tensor<1x2x4x3xf32> {
    %0 = "tosa.const"() <{values = dense<[[180, 90, 10, 1]]> : tensor<1x4xi32>}> : () -> tensor<1x4xi32>
    %cst = arith.constant dense<[[[0]], [[1]]]> : tensor<2x1x1xi64>
    %1 = "tosa.const"() <{values = dense<[0, 1, 2, 3]> : tensor<4xi64>}> : () -> tensor<4xi64>
    %2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %3 = tosa.const_shape  {values = dense<[4, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %4 = "tosa.const"() <{values = dense<[0, 1, 2]> : tensor<3xi64>}> : () -> tensor<3xi64>
    %5 = tosa.const_shape  {values = dense<[1, 2, 1, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %6 = tosa.const_shape  {values = dense<[1, 1, 4, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %7 = tosa.const_shape  {values = dense<[1, 1, 1, 3, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %8 = tosa.const_shape  {values = dense<[1, 2, 4, 3, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %9 = tosa.const_shape  {values = dense<[1, 1, 4, 3, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %10 = tosa.const_shape  {values = dense<[1, 2, 1, 3, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %11 = tosa.const_shape  {values = dense<[1, 2, 4, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %12 = tosa.const_shape  {values = dense<[1, 180, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %13 = tosa.const_shape  {values = dense<[24, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %14 = tosa.const_shape  {values = dense<[1, 24]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %15 = tosa.const_shape  {values = dense<[1, 2, 4, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %16 = tosa.const_shape  {values = dense<[1, 1, 1, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %17 = tosa.const_shape  {values = dense<[1, 1, 4, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %18 = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1xf32>}> : () -> tensor<1xf32>
    %19 = "tosa.const"() <{values = dense<2.250000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %20 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %21 = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %22 = "tosa.const"() <{values = dense<-9223372036854775808> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %23 = "tosa.const"() <{values = dense<8> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %24 = "tosa.const"() <{values = dense<3.33333325> : tensor<1xf32>}> : () -> tensor<1xf32>
    %25 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %26 = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
    %27 = "tosa.const"() <{values = dense<-9223372036854775808> : tensor<1xi64>}> : () -> tensor<1xi64>
    %28 = "tosa.const"() <{values = dense<9> : tensor<1xi64>}> : () -> tensor<1xi64>
    %29 = "tosa.const"() <{values = dense<0> : tensor<1x1x1x1x1xi32>}> : () -> tensor<1x1x1x1x1xi32>
    %30 = "tosa.const"() <{values = dense<0> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
    %31 = "tosa.const"() <{values = dense<2> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
    %32 = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %33 = "tosa.const"() <{values = dense<9> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %34 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
    %35 = "tosa.const"() <{values = dense<10> : tensor<1xi32>}> : () -> tensor<1xi32>
    %36 = tosa.cast %1 : (tensor<4xi64>) -> tensor<4xf32>
    %37 = tosa.add %36, %18 : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
    %38 = tosa.mul %37, %19, %2 : (tensor<4xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<4xf32>
    %39 = tosa.sub %38, %18 : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
    %40 = tosa.clamp %39 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<4xf32>) -> tensor<4xf32>
    %41 = tosa.reshape %40, %3 : (tensor<4xf32>, !tosa.shape<2>) -> tensor<4x1xf32>
    %42 = tosa.floor %41 : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %43 = tosa.ceil %41 : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %44 = tosa.greater %20, %41 : (tensor<1x1xf32>, tensor<4x1xf32>) -> tensor<4x1xi1>
    %45 = tosa.select %44, %43, %42 : (tensor<4x1xi1>, tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %46 = tosa.cast %45 : (tensor<4x1xf32>) -> tensor<4x1xi64>
    %47 = tosa.cast %46 : (tensor<4x1xi64>) -> tensor<4x1xi32>
    %48 = tosa.add %47, %21 : (tensor<4x1xi32>, tensor<1x1xi32>) -> tensor<4x1xi32>
    %49 = tosa.cast %48 : (tensor<4x1xi32>) -> tensor<4x1xi64>
    %50 = tosa.maximum %49, %22 : (tensor<4x1xi64>, tensor<1x1xi64>) -> tensor<4x1xi64>
    %51 = tosa.minimum %50, %23 : (tensor<4x1xi64>, tensor<1x1xi64>) -> tensor<4x1xi64>
    %52 = tosa.cast %4 : (tensor<3xi64>) -> tensor<3xf32>
    %53 = tosa.add %52, %18 : (tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>
    %54 = tosa.mul %53, %24, %2 : (tensor<3xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<3xf32>
    %55 = tosa.sub %54, %18 : (tensor<3xf32>, tensor<1xf32>) -> tensor<3xf32>
    %56 = tosa.clamp %55 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<3xf32>) -> tensor<3xf32>
    %57 = tosa.floor %56 : (tensor<3xf32>) -> tensor<3xf32>
    %58 = tosa.ceil %56 : (tensor<3xf32>) -> tensor<3xf32>
    %59 = tosa.greater %25, %56 : (tensor<1xf32>, tensor<3xf32>) -> tensor<3xi1>
    %60 = tosa.select %59, %58, %57 : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %61 = tosa.cast %60 : (tensor<3xf32>) -> tensor<3xi64>
    %62 = tosa.cast %61 : (tensor<3xi64>) -> tensor<3xi32>
    %63 = tosa.add %62, %26 : (tensor<3xi32>, tensor<1xi32>) -> tensor<3xi32>
    %64 = tosa.cast %63 : (tensor<3xi32>) -> tensor<3xi64>
    %65 = tosa.maximum %64, %27 : (tensor<3xi64>, tensor<1xi64>) -> tensor<3xi64>
    %66 = tosa.minimum %65, %28 : (tensor<3xi64>, tensor<1xi64>) -> tensor<3xi64>
    %67 = tosa.cast %cst : (tensor<2x1x1xi64>) -> tensor<2x1x1xi32>
    %68 = tosa.add %67, %31 : (tensor<2x1x1xi32>, tensor<1x1x1xi32>) -> tensor<2x1x1xi32>
    %69 = tosa.greater %30, %67 : (tensor<1x1x1xi32>, tensor<2x1x1xi32>) -> tensor<2x1x1xi1>
    %70 = tosa.select %69, %68, %67 : (tensor<2x1x1xi1>, tensor<2x1x1xi32>, tensor<2x1x1xi32>) -> tensor<2x1x1xi32>
    %71 = tosa.cast %46 : (tensor<4x1xi64>) -> tensor<4x1xi32>
    %72 = tosa.add %71, %33 : (tensor<4x1xi32>, tensor<1x1xi32>) -> tensor<4x1xi32>
    %73 = tosa.greater %32, %71 : (tensor<1x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi1>
    %74 = tosa.select %73, %72, %71 : (tensor<4x1xi1>, tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi32>
    %75 = tosa.cast %61 : (tensor<3xi64>) -> tensor<3xi32>
    %76 = tosa.add %75, %35 : (tensor<3xi32>, tensor<1xi32>) -> tensor<3xi32>
    %77 = tosa.greater %34, %75 : (tensor<1xi32>, tensor<3xi32>) -> tensor<3xi1>
    %78 = tosa.select %77, %76, %75 : (tensor<3xi1>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
    %79 = tosa.reshape %70, %5 : (tensor<2x1x1xi32>, !tosa.shape<5>) -> tensor<1x2x1x1x1xi32>
    %80 = tosa.reshape %74, %6 : (tensor<4x1xi32>, !tosa.shape<5>) -> tensor<1x1x4x1x1xi32>
    %81 = tosa.reshape %78, %7 : (tensor<3xi32>, !tosa.shape<5>) -> tensor<1x1x1x3x1xi32>
    %82 = tosa.tile %29, %8 : (tensor<1x1x1x1x1xi32>, !tosa.shape<5>) -> tensor<1x2x4x3x1xi32>
    %83 = tosa.tile %79, %9 : (tensor<1x2x1x1x1xi32>, !tosa.shape<5>) -> tensor<1x2x4x3x1xi32>
    %84 = tosa.tile %80, %10 : (tensor<1x1x4x1x1xi32>, !tosa.shape<5>) -> tensor<1x2x4x3x1xi32>
    %85 = tosa.tile %81, %11 : (tensor<1x1x1x3x1xi32>, !tosa.shape<5>) -> tensor<1x2x4x3x1xi32>
    %86 = tosa.concat %82, %83, %84, %85 {axis = 4 : i32} : (tensor<1x2x4x3x1xi32>, tensor<1x2x4x3x1xi32>, tensor<1x2x4x3x1xi32>, tensor<1x2x4x3x1xi32>) -> tensor<1x2x4x3x4xi32>
    %87 = tosa.reshape %arg0, %12 : (tensor<1x2x9x10xf32>, !tosa.shape<3>) -> tensor<1x180x1xf32>
    %88 = tosa.reshape %86, %13 : (tensor<1x2x4x3x4xi32>, !tosa.shape<2>) -> tensor<24x4xi32>
    %89 = tosa.mul %88, %0, %2 : (tensor<24x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<24x4xi32>
    %90 = tosa.reduce_sum %89 {axis = 1 : i32} : (tensor<24x4xi32>) -> tensor<24x1xi32>
    %91 = tosa.reshape %90, %14 : (tensor<24x1xi32>, !tosa.shape<2>) -> tensor<1x24xi32>
    %92 = tosa.gather %87, %91 : (tensor<1x180x1xf32>, tensor<1x24xi32>) -> tensor<1x24x1xf32>
    %93 = tosa.reshape %92, %15 : (tensor<1x24x1xf32>, !tosa.shape<4>) -> tensor<1x2x4x3xf32>
    %94 = tosa.cast %66 : (tensor<3xi64>) -> tensor<3xi32>
    %95 = tosa.add %94, %35 : (tensor<3xi32>, tensor<1xi32>) -> tensor<3xi32>
    %96 = tosa.greater %34, %94 : (tensor<1xi32>, tensor<3xi32>) -> tensor<3xi1>
    %97 = tosa.select %96, %95, %94 : (tensor<3xi1>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
    %98 = tosa.reshape %97, %7 : (tensor<3xi32>, !tosa.shape<5>) -> tensor<1x1x1x3x1xi32>
    %99 = tosa.tile %98, %11 : (tensor<1x1x1x3x1xi32>, !tosa.shape<5>) -> tensor<1x2x4x3x1xi32>
    %100 = tosa.concat %82, %83, %84, %99 {axis = 4 : i32} : (tensor<1x2x4x3x1xi32>, tensor<1x2x4x3x1xi32>, tensor<1x2x4x3x1xi32>, tensor<1x2x4x3x1xi32>) -> tensor<1x2x4x3x4xi32>
    %101 = tosa.reshape %100, %13 : (tensor<1x2x4x3x4xi32>, !tosa.shape<2>) -> tensor<24x4xi32>
    %102 = tosa.mul %101, %0, %2 : (tensor<24x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<24x4xi32>
    %103 = tosa.reduce_sum %102 {axis = 1 : i32} : (tensor<24x4xi32>) -> tensor<24x1xi32>
    %104 = tosa.reshape %103, %14 : (tensor<24x1xi32>, !tosa.shape<2>) -> tensor<1x24xi32>
    %105 = tosa.gather %87, %104 : (tensor<1x180x1xf32>, tensor<1x24xi32>) -> tensor<1x24x1xf32>
    %106 = tosa.reshape %105, %15 : (tensor<1x24x1xf32>, !tosa.shape<4>) -> tensor<1x2x4x3xf32>
    %107 = tosa.cast %51 : (tensor<4x1xi64>) -> tensor<4x1xi32>
    %108 = tosa.add %107, %33 : (tensor<4x1xi32>, tensor<1x1xi32>) -> tensor<4x1xi32>
    %109 = tosa.greater %32, %107 : (tensor<1x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi1>
    %110 = tosa.select %109, %108, %107 : (tensor<4x1xi1>, tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi32>
    %111 = tosa.reshape %110, %6 : (tensor<4x1xi32>, !tosa.shape<5>) -> tensor<1x1x4x1x1xi32>
    %112 = tosa.tile %111, %10 : (tensor<1x1x4x1x1xi32>, !tosa.shape<5>) -> tensor<1x2x4x3x1xi32>
    %113 = tosa.concat %82, %83, %112, %85 {axis = 4 : i32} : (tensor<1x2x4x3x1xi32>, tensor<1x2x4x3x1xi32>, tensor<1x2x4x3x1xi32>, tensor<1x2x4x3x1xi32>) -> tensor<1x2x4x3x4xi32>
    %114 = tosa.reshape %113, %13 : (tensor<1x2x4x3x4xi32>, !tosa.shape<2>) -> tensor<24x4xi32>
    %115 = tosa.mul %114, %0, %2 : (tensor<24x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<24x4xi32>
    %116 = tosa.reduce_sum %115 {axis = 1 : i32} : (tensor<24x4xi32>) -> tensor<24x1xi32>
    %117 = tosa.reshape %116, %14 : (tensor<24x1xi32>, !tosa.shape<2>) -> tensor<1x24xi32>
    %118 = tosa.gather %87, %117 : (tensor<1x180x1xf32>, tensor<1x24xi32>) -> tensor<1x24x1xf32>
    %119 = tosa.reshape %118, %15 : (tensor<1x24x1xf32>, !tosa.shape<4>) -> tensor<1x2x4x3xf32>
    %120 = tosa.concat %82, %83, %112, %99 {axis = 4 : i32} : (tensor<1x2x4x3x1xi32>, tensor<1x2x4x3x1xi32>, tensor<1x2x4x3x1xi32>, tensor<1x2x4x3x1xi32>) -> tensor<1x2x4x3x4xi32>
    %121 = tosa.reshape %120, %13 : (tensor<1x2x4x3x4xi32>, !tosa.shape<2>) -> tensor<24x4xi32>
    %122 = tosa.mul %121, %0, %2 : (tensor<24x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<24x4xi32>
    %123 = tosa.reduce_sum %122 {axis = 1 : i32} : (tensor<24x4xi32>) -> tensor<24x1xi32>
    %124 = tosa.reshape %123, %14 : (tensor<24x1xi32>, !tosa.shape<2>) -> tensor<1x24xi32>
    %125 = tosa.gather %87, %124 : (tensor<1x180x1xf32>, tensor<1x24xi32>) -> tensor<1x24x1xf32>
    %126 = tosa.reshape %125, %15 : (tensor<1x24x1xf32>, !tosa.shape<4>) -> tensor<1x2x4x3xf32>
    %127 = tosa.cast %61 : (tensor<3xi64>) -> tensor<3xf32>
    %128 = tosa.sub %56, %127 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %129 = tosa.clamp %128 {max_val = 1.000000e+00 : f32, min_val = 0.000000e+00 : f32} : (tensor<3xf32>) -> tensor<3xf32>
    %130 = tosa.sub %106, %93 : (tensor<1x2x4x3xf32>, tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
    %131 = tosa.reshape %129, %16 : (tensor<3xf32>, !tosa.shape<4>) -> tensor<1x1x1x3xf32>
    %132 = tosa.mul %130, %131, %2 : (tensor<1x2x4x3xf32>, tensor<1x1x1x3xf32>, tensor<1xi8>) -> tensor<1x2x4x3xf32>
    %133 = tosa.add %93, %132 : (tensor<1x2x4x3xf32>, tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
    %134 = tosa.sub %126, %119 : (tensor<1x2x4x3xf32>, tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
    %135 = tosa.mul %134, %131, %2 : (tensor<1x2x4x3xf32>, tensor<1x1x1x3xf32>, tensor<1xi8>) -> tensor<1x2x4x3xf32>
    %136 = tosa.add %119, %135 : (tensor<1x2x4x3xf32>, tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
    %137 = tosa.cast %46 : (tensor<4x1xi64>) -> tensor<4x1xf32>
    %138 = tosa.sub %41, %137 : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %139 = tosa.clamp %138 {max_val = 1.000000e+00 : f32, min_val = 0.000000e+00 : f32} : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %140 = tosa.sub %136, %133 : (tensor<1x2x4x3xf32>, tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
    %141 = tosa.reshape %139, %17 : (tensor<4x1xf32>, !tosa.shape<4>) -> tensor<1x1x4x1xf32>
    %142 = tosa.mul %140, %141, %2 : (tensor<1x2x4x3xf32>, tensor<1x1x4x1xf32>, tensor<1xi8>) -> tensor<1x2x4x3xf32>
    %143 = tosa.add %133, %142 : (tensor<1x2x4x3xf32>, tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
    return %143 : tensor<1x2x4x3xf32>
  }
}
