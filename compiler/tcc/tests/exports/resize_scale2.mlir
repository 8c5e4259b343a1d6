module {
  func.func @main(%arg0: tensor<1x5x6x6xf32>) -> tensor<1x5x12x12xf32> {
    %0 = "tosa.const"() <{values = dense<[[180, 36, 6, 1]]> : tensor<1x4xi32>}> : () -> tensor<1x4xi32>
    %cst = arith.constant dense<[[[0]], [[1]], [[2]], [[3]], [[4]]]> : tensor<5x1x1xi64>
    %1 = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]> : tensor<12xi64>}> : () -> tensor<12xi64>
    %2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %3 = tosa.const_shape  {values = dense<[12, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %4 = tosa.const_shape  {values = dense<[1, 5, 1, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %5 = tosa.const_shape  {values = dense<[1, 1, 12, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %6 = tosa.const_shape  {values = dense<[1, 1, 1, 12, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %7 = tosa.const_shape  {values = dense<[1, 5, 12, 12, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %8 = tosa.const_shape  {values = dense<[1, 1, 12, 12, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %9 = tosa.const_shape  {values = dense<[1, 5, 1, 12, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %10 = tosa.const_shape  {values = dense<[1, 5, 12, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %11 = tosa.const_shape  {values = dense<[1, 180, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %12 = tosa.const_shape  {values = dense<[720, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %13 = tosa.const_shape  {values = dense<[1, 720]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %14 = tosa.const_shape  {values = dense<[1, 5, 12, 12]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %15 = tosa.const_shape  {values = dense<[1, 1, 1, 12]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %16 = tosa.const_shape  {values = dense<[1, 1, 12, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %17 = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1xf32>}> : () -> tensor<1xf32>
    %18 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %19 = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %20 = "tosa.const"() <{values = dense<-9223372036854775808> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %21 = "tosa.const"() <{values = dense<5> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %22 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %23 = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
    %24 = "tosa.const"() <{values = dense<-9223372036854775808> : tensor<1xi64>}> : () -> tensor<1xi64>
    %25 = "tosa.const"() <{values = dense<5> : tensor<1xi64>}> : () -> tensor<1xi64>
    %26 = "tosa.const"() <{values = dense<0> : tensor<1x1x1x1x1xi32>}> : () -> tensor<1x1x1x1x1xi32>
    %27 = "tosa.const"() <{values = dense<0> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
    %28 = "tosa.const"() <{values = dense<5> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
    %29 = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %30 = "tosa.const"() <{values = dense<6> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %31 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
    %32 = "tosa.const"() <{values = dense<6> : tensor<1xi32>}> : () -> tensor<1xi32>
    %33 = tosa.cast %1 : (tensor<12xi64>) -> tensor<12xf32>
    %34 = tosa.add %33, %17 : (tensor<12xf32>, tensor<1xf32>) -> tensor<12xf32>
    %35 = tosa.mul %34, %17, %2 : (tensor<12xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<12xf32>
    %36 = tosa.sub %35, %17 : (tensor<12xf32>, tensor<1xf32>) -> tensor<12xf32>
    %37 = tosa.clamp %36 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<12xf32>) -> tensor<12xf32>
    %38 = tosa.reshape %37, %3 : (tensor<12xf32>, !tosa.shape<2>) -> tensor<12x1xf32>
    %39 = tosa.floor %38 : (tensor<12x1xf32>) -> tensor<12x1xf32>
    %40 = tosa.ceil %38 : (tensor<12x1xf32>) -> tensor<12x1xf32>
    %41 = tosa.greater %18, %38 : (tensor<1x1xf32>, tensor<12x1xf32>) -> tensor<12x1xi1>
    %42 = tosa.select %41, %40, %39 : (tensor<12x1xi1>, tensor<12x1xf32>, tensor<12x1xf32>) -> tensor<12x1xf32>
    %43 = tosa.cast %42 : (tensor<12x1xf32>) -> tensor<12x1xi64>
    %44 = tosa.cast %43 : (tensor<12x1xi64>) -> tensor<12x1xi32>
    %45 = tosa.add %44, %19 : (tensor<12x1xi32>, tensor<1x1xi32>) -> tensor<12x1xi32>
    %46 = tosa.cast %45 : (tensor<12x1xi32>) -> tensor<12x1xi64>
    %47 = tosa.maximum %46, %20 : (tensor<12x1xi64>, tensor<1x1xi64>) -> tensor<12x1xi64>
    %48 = tosa.minimum %47, %21 : (tensor<12x1xi64>, tensor<1x1xi64>) -> tensor<12x1xi64>
    %49 = tosa.floor %37 : (tensor<12xf32>) -> tensor<12xf32>
    %50 = tosa.ceil %37 : (tensor<12xf32>) -> tensor<12xf32>
    %51 = tosa.greater %22, %37 : (tensor<1xf32>, tensor<12xf32>) -> tensor<12xi1>
    %52 = tosa.select %51, %50, %49 : (tensor<12xi1>, tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %53 = tosa.cast %52 : (tensor<12xf32>) -> tensor<12xi64>
    %54 = tosa.cast %53 : (tensor<12xi64>) -> tensor<12xi32>
    %55 = tosa.add %54, %23 : (tensor<12xi32>, tensor<1xi32>) -> tensor<12xi32>
    %56 = tosa.cast %55 : (tensor<12xi32>) -> tensor<12xi64>
    %57 = tosa.maximum %56, %24 : (tensor<12xi64>, tensor<1xi64>) -> tensor<12xi64>
    %58 = tosa.minimum %57, %25 : (tensor<12xi64>, tensor<1xi64>) -> tensor<12xi64>
    %59 = tosa.cast %cst : (tensor<5x1x1xi64>) -> tensor<5x1x1xi32>
    %60 = tosa.add %59, %28 : (tensor<5x1x1xi32>, tensor<1x1x1xi32>) -> tensor<5x1x1xi32>
    %61 = tosa.greater %27, %59 : (tensor<1x1x1xi32>, tensor<5x1x1xi32>) -> tensor<5x1x1xi1>
    %62 = tosa.select %61, %60, %59 : (tensor<5x1x1xi1>, tensor<5x1x1xi32>, tensor<5x1x1xi32>) -> tensor<5x1x1xi32>
    %63 = tosa.cast %43 : (tensor<12x1xi64>) -> tensor<12x1xi32>
    %64 = tosa.add %63, %30 : (tensor<12x1xi32>, tensor<1x1xi32>) -> tensor<12x1xi32>
    %65 = tosa.greater %29, %63 : (tensor<1x1xi32>, tensor<12x1xi32>) -> tensor<12x1xi1>
    %66 = tosa.select %65, %64, %63 : (tensor<12x1xi1>, tensor<12x1xi32>, tensor<12x1xi32>) -> tensor<12x1xi32>
    %67 = tosa.cast %53 : (tensor<12xi64>) -> tensor<12xi32>
    %68 = tosa.add %67, %32 : (tensor<12xi32>, tensor<1xi32>) -> tensor<12xi32>
    %69 = tosa.greater %31, %67 : (tensor<1xi32>, tensor<12xi32>) -> tensor<12xi1>
    %70 = tosa.select %69, %68, %67 : (tensor<12xi1>, tensor<12xi32>, tensor<12xi32>) -> tensor<12xi32>
    %71 = tosa.reshape %62, %4 : (tensor<5x1x1xi32>, !tosa.shape<5>) -> tensor<1x5x1x1x1xi32>
    %72 = tosa.reshape %66, %5 : (tensor<12x1xi32>, !tosa.shape<5>) -> tensor<1x1x12x1x1xi32>
    %73 = tosa.reshape %70, %6 : (tensor<12xi32>, !tosa.shape<5>) -> tensor<1x1x1x12x1xi32>
    %74 = tosa.tile %26, %7 : (tensor<1x1x1x1x1xi32>, !tosa.shape<5>) -> tensor<1x5x12x12x1xi32>
    %75 = tosa.tile %71, %8 : (tensor<1x5x1x1x1xi32>, !tosa.shape<5>) -> tensor<1x5x12x12x1xi32>
    %76 = tosa.tile %72, %9 : (tensor<1x1x12x1x1xi32>, !tosa.shape<5>) -> tensor<1x5x12x12x1xi32>
    %77 = tosa.tile %73, %10 : (tensor<1x1x1x12x1xi32>, !tosa.shape<5>) -> tensor<1x5x12x12x1xi32>
    %78 = tosa.concat %74, %75, %76, %77 {axis = 4 : i32} : (tensor<1x5x12x12x1xi32>, tensor<1x5x12x12x1xi32>, tensor<1x5x12x12x1xi32>, tensor<1x5x12x12x1xi32>) -> tensor<1x5x12x12x4xi32>
    %79 = tosa.reshape %arg0, %11 : (tensor<1x5x6x6xf32>, !tosa.shape<3>) -> tensor<1x180x1xf32>
    %80 = tosa.reshape %78, %12 : (tensor<1x5x12x12x4xi32>, !tosa.shape<2>) -> tensor<720x4xi32>
    %81 = tosa.mul %80, %0, %2 : (tensor<720x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<720x4xi32>
    %82 = tosa.reduce_sum %81 {axis = 1 : i32} : (tensor<720x4xi32>) -> tensor<720x1xi32>
    %83 = tosa.reshape %82, %13 : (tensor<720x1xi32>, !tosa.shape<2>) -> tensor<1x720xi32>
    %84 = tosa.gather %79, %83 : (tensor<1x180x1xf32>, tensor<1x720xi32>) -> tensor<1x720x1xf32>
    %85 = tosa.reshape %84, %14 : (tensor<1x720x1xf32>, !tosa.shape<4>) -> tensor<1x5x12x12xf32>
    %86 = tosa.cast %58 : (tensor<12xi64>) -> tensor<12xi32>
    %87 = tosa.add %86, %32 : (tensor<12xi32>, tensor<1xi32>) -> tensor<12xi32>
    %88 = tosa.greater %31, %86 : (tensor<1xi32>, tensor<12xi32>) -> tensor<12xi1>
    %89 = tosa.select %88, %87, %86 : (tensor<12xi1>, tensor<12xi32>, tensor<12xi32>) -> tensor<12xi32>
    %90 = tosa.reshape %89, %6 : (tensor<12xi32>, !tosa.shape<5>) -> tensor<1x1x1x12x1xi32>
    %91 = tosa.tile %90, %10 : (tensor<1x1x1x12x1xi32>, !tosa.shape<5>) -> tensor<1x5x12x12x1xi32>
    %92 = tosa.concat %74, %75, %76, %91 {axis = 4 : i32} : (tensor<1x5x12x12x1xi32>, tensor<1x5x12x12x1xi32>, tensor<1x5x12x12x1xi32>, tensor<1x5x12x12x1xi32>) -> tensor<1x5x12x12x4xi32>
    %93 = tosa.reshape %92, %12 : (tensor<1x5x12x12x4xi32>, !tosa.shape<2>) -> tensor<720x4xi32>
    %94 = tosa.mul %93, %0, %2 : (tensor<720x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<720x4xi32>
    %95 = tosa.reduce_sum %94 {axis = 1 : i32} : (tensor<720x4xi32>) -> tensor<720x1xi32>
    %96 = tosa.reshape %95, %13 : (tensor<720x1xi32>, !tosa.shape<2>) -> tensor<1x720xi32>
    %97 = tosa.gather %79, %96 : (tensor<1x180x1xf32>, tensor<1x720xi32>) -> tensor<1x720x1xf32>
    %98 = tosa.reshape %97, %14 : (tensor<1x720x1xf32>, !tosa.shape<4>) -> tensor<1x5x12x12xf32>
    %99 = tosa.cast %48 : (tensor<12x1xi64>) -> tensor<12x1xi32>
    %100 = tosa.add %99, %30 : (tensor<12x1xi32>, tensor<1x1xi32>) -> tensor<12x1xi32>
    %101 = tosa.greater %29, %99 : (tensor<1x1xi32>, tensor<12x1xi32>) -> tensor<12x1xi1>
    %102 = tosa.select %101, %100, %99 : (tensor<12x1xi1>, tensor<12x1xi32>, tensor<12x1xi32>) -> tensor<12x1xi32>
    %103 = tosa.reshape %102, %5 : (tensor<12x1xi32>, !tosa.shape<5>) -> tensor<1x1x12x1x1xi32>
    %104 = tosa.tile %103, %9 : (tensor<1x1x12x1x1xi32>, !tosa.shape<5>) -> tensor<1x5x12x12x1xi32>
    %105 = tosa.concat %74, %75, %104, %77 {axis = 4 : i32} : (tensor<1x5x12x12x1xi32>, tensor<1x5x12x12x1xi32>, tensor<1x5x12x12x1xi32>, tensor<1x5x12x12x1xi32>) -> tensor<1x5x12x12x4xi32>
    %106 = tosa.reshape %105, %12 : (tensor<1x5x12x12x4xi32>, !tosa.shape<2>) -> tensor<720x4xi32>
    %107 = tosa.mul %106, %0, %2 : (tensor<720x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<720x4xi32>
    %108 = tosa.reduce_sum %107 {axis = 1 : i32} : (tensor<720x4xi32>) -> tensor<720x1xi32>
    %109 = tosa.reshape %108, %13 : (tensor<720x1xi32>, !tosa.shape<2>) -> tensor<1x720xi32>
    %110 = tosa.gather %79, %109 : (tensor<1x180x1xf32>, tensor<1x720xi32>) -> tensor<1x720x1xf32>
    %111 = tosa.reshape %110, %14 : (tensor<1x720x1xf32>, !tosa.shape<4>) -> tensor<1x5x12x12xf32>
    %112 = tosa.concat %74, %75, %104, %91 {axis = 4 : i32} : (tensor<1x5x12x12x1xi32>, tensor<1x5x12x12x1xi32>, tensor<1x5x12x12x1xi32>, tensor<1x5x12x12x1xi32>) -> tensor<1x5x12x12x4xi32>
    %113 = tosa.reshape %112, %12 : (tensor<1x5x12x12x4xi32>, !tosa.shape<2>) -> tensor<720x4xi32>
    %114 = tosa.mul %113, %0, %2 : (tensor<720x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<720x4xi32>
    %115 = tosa.reduce_sum %114 {axis = 1 : i32} : (tensor<720x4xi32>) -> tensor<720x1xi32>
    %116 = tosa.reshape %115, %13 : (tensor<720x1xi32>, !tosa.shape<2>) -> tensor<1x720xi32>
    %117 = tosa.gather %79, %116 : (tensor<1x180x1xf32>, tensor<1x720xi32>) -> tensor<1x720x1xf32>
    %118 = tosa.reshape %117, %14 : (tensor<1x720x1xf32>, !tosa.shape<4>) -> tensor<1x5x12x12xf32>
    %119 = tosa.cast %53 : (tensor<12xi64>) -> tensor<12xf32>
    %120 = tosa.sub %37, %119 : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %121 = tosa.clamp %120 {max_val = 1.000000e+00 : f32, min_val = 0.000000e+00 : f32} : (tensor<12xf32>) -> tensor<12xf32>
    %122 = tosa.sub %98, %85 : (tensor<1x5x12x12xf32>, tensor<1x5x12x12xf32>) -> tensor<1x5x12x12xf32>
    %123 = tosa.reshape %121, %15 : (tensor<12xf32>, !tosa.shape<4>) -> tensor<1x1x1x12xf32>
    %124 = tosa.mul %122, %123, %2 : (tensor<1x5x12x12xf32>, tensor<1x1x1x12xf32>, tensor<1xi8>) -> tensor<1x5x12x12xf32>
    %125 = tosa.add %85, %124 : (tensor<1x5x12x12xf32>, tensor<1x5x12x12xf32>) -> tensor<1x5x12x12xf32>
    %126 = tosa.sub %118, %111 : (tensor<1x5x12x12xf32>, tensor<1x5x12x12xf32>) -> tensor<1x5x12x12xf32>
    %127 = tosa.mul %126, %123, %2 : (tensor<1x5x12x12xf32>, tensor<1x1x1x12xf32>, tensor<1xi8>) -> tensor<1x5x12x12xf32>
    %128 = tosa.add %111, %127 : (tensor<1x5x12x12xf32>, tensor<1x5x12x12xf32>) -> tensor<1x5x12x12xf32>
    %129 = tosa.cast %43 : (tensor<12x1xi64>) -> tensor<12x1xf32>
    %130 = tosa.sub %38, %129 : (tensor<12x1xf32>, tensor<12x1xf32>) -> tensor<12x1xf32>
    %131 = tosa.clamp %130 {max_val = 1.000000e+00 : f32, min_val = 0.000000e+00 : f32} : (tensor<12x1xf32>) -> tensor<12x1xf32>
    %132 = tosa.sub %128, %125 : (tensor<1x5x12x12xf32>, tensor<1x5x12x12xf32>) -> tensor<1x5x12x12xf32>
    %133 = tosa.reshape %131, %16 : (tensor<12x1xf32>, !tosa.shape<4>) -> tensor<1x1x12x1xf32>
    %134 = tosa.mul %132, %133, %2 : (tensor<1x5x12x12xf32>, tensor<1x1x12x1xf32>, tensor<1xi8>) -> tensor<1x5x12x12xf32>
    %135 = tosa.add %125, %134 : (tensor<1x5x12x12xf32>, tensor<1x5x12x12xf32>) -> tensor<1x5x12x12xf32>
    return %135 : tensor<1x5x12x12xf32>
  }
}
