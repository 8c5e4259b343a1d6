module {
  func.func @main(%arg0: tensor<2x3x5x7xf32>) -> tensor<2x3x11x13xf32> {
    %0 = "tosa.const"() <{values = dense<[[105, 35, 7, 1]]> : tensor<1x4xi32>}> : () -> tensor<1x4xi32>
    %cst = arith.constant dense<[[[0]], [[1]], [[2]]]> : tensor<3x1x1xi64>
    %cst_0 = arith.constant dense<[[[[0]]], [[[1]]]]> : tensor<2x1x1x1xi64>
    %1 = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]> : tensor<11xi64>}> : () -> tensor<11xi64>
    %2 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %3 = tosa.const_shape  {values = dense<[11, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %4 = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]> : tensor<13xi64>}> : () -> tensor<13xi64>
    %5 = tosa.const_shape  {values = dense<[2, 1, 1, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %6 = tosa.const_shape  {values = dense<[1, 3, 1, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %7 = tosa.const_shape  {values = dense<[1, 1, 11, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %8 = tosa.const_shape  {values = dense<[1, 1, 1, 13, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %9 = tosa.const_shape  {values = dense<[1, 3, 11, 13, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %10 = tosa.const_shape  {values = dense<[2, 1, 11, 13, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %11 = tosa.const_shape  {values = dense<[2, 3, 1, 13, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %12 = tosa.const_shape  {values = dense<[2, 3, 11, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
    %13 = tosa.const_shape  {values = dense<[1, 210, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %14 = tosa.const_shape  {values = dense<[858, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %15 = tosa.const_shape  {values = dense<[1, 858]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %16 = tosa.const_shape  {values = dense<[2, 3, 11, 13]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %17 = tosa.const_shape  {values = dense<[1, 1, 1, 13]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %18 = tosa.const_shape  {values = dense<[1, 1, 11, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %19 = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1xf32>}> : () -> tensor<1xf32>
    %20 = "tosa.const"() <{values = dense<0.454545468> : tensor<1xf32>}> : () -> tensor<1xf32>
    %21 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %22 = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %23 = "tosa.const"() <{values = dense<-9223372036854775808> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %24 = "tosa.const"() <{values = dense<4> : tensor<1x1xi64>}> : () -> tensor<1x1xi64>
    %25 = "tosa.const"() <{values = dense<0.538461566> : tensor<1xf32>}> : () -> tensor<1xf32>
    %26 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %27 = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
    %28 = "tosa.const"() <{values = dense<-9223372036854775808> : tensor<1xi64>}> : () -> tensor<1xi64>
    %29 = "tosa.const"() <{values = dense<6> : tensor<1xi64>}> : () -> tensor<1xi64>
    %30 = "tosa.const"() <{values = dense<0> : tensor<1x1x1x1xi32>}> : () -> tensor<1x1x1x1xi32>
    %31 = "tosa.const"() <{values = dense<2> : tensor<1x1x1x1xi32>}> : () -> tensor<1x1x1x1xi32>
    %32 = "tosa.const"() <{values = dense<0> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
    %33 = "tosa.const"() <{values = dense<3> : tensor<1x1x1xi32>}> : () -> tensor<1x1x1xi32>
    %34 = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %35 = "tosa.const"() <{values = dense<5> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %36 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
    %37 = "tosa.const"() <{values = dense<7> : tensor<1xi32>}> : () -> tensor<1xi32>
    %38 = tosa.cast %1 : (tensor<11xi64>) -> tensor<11xf32>
    %39 = tosa.add %38, %19 : (tensor<11xf32>, tensor<1xf32>) -> tensor<11xf32>
    %40 = tosa.mul %39, %20, %2 : (tensor<11xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<11xf32>
    %41 = tosa.sub %40, %19 : (tensor<11xf32>, tensor<1xf32>) -> tensor<11xf32>
    %42 = tosa.clamp %41 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<11xf32>) -> tensor<11xf32>
    %43 = tosa.reshape %42, %3 : (tensor<11xf32>, !tosa.shape<2>) -> tensor<11x1xf32>
    %44 = tosa.floor %43 : (tensor<11x1xf32>) -> tensor<11x1xf32>
    %45 = tosa.ceil %43 : (tensor<11x1xf32>) -> tensor<11x1xf32>
    %46 = tosa.greater %21, %43 : (tensor<1x1xf32>, tensor<11x1xf32>) -> tensor<11x1xi1>
    %47 = tosa.select %46, %45, %44 : (tensor<11x1xi1>, tensor<11x1xf32>, tensor<11x1xf32>) -> tensor<11x1xf32>
    %48 = tosa.cast %47 : (tensor<11x1xf32>) -> tensor<11x1xi64>
    %49 = tosa.cast %48 : (tensor<11x1xi64>) -> tensor<11x1xi32>
    %50 = tosa.add %49, %22 : (tensor<11x1xi32>, tensor<1x1xi32>) -> tensor<11x1xi32>
    %51 = tosa.cast %50 : (tensor<11x1xi32>) -> tensor<11x1xi64>
    %52 = tosa.maximum %51, %23 : (tensor<11x1xi64>, tensor<1x1xi64>) -> tensor<11x1xi64>
    %53 = tosa.minimum %52, %24 : (tensor<11x1xi64>, tensor<1x1xi64>) -> tensor<11x1xi64>
    %54 = tosa.cast %4 : (tensor<13xi64>) -> tensor<13xf32>
    %55 = tosa.add %54, %19 : (tensor<13xf32>, tensor<1xf32>) -> tensor<13xf32>
    %56 = tosa.mul %55, %25, %2 : (tensor<13xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<13xf32>
    %57 = tosa.sub %56, %19 : (tensor<13xf32>, tensor<1xf32>) -> tensor<13xf32>
    %58 = tosa.clamp %57 {max_val = 3.40282347E+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<13xf32>) -> tensor<13xf32>
    %59 = tosa.floor %58 : (tensor<13xf32>) -> tensor<13xf32>
    %60 = tosa.ceil %58 : (tensor<13xf32>) -> tensor<13xf32>
    %61 = tosa.greater %26, %58 : (tensor<1xf32>, tensor<13xf32>) -> tensor<13xi1>
    %62 = tosa.select %61, %60, %59 : (tensor<13xi1>, tensor<13xf32>, tensor<13xf32>) -> tensor<13xf32>
    %63 = tosa.cast %62 : (tensor<13xf32>) -> tensor<13xi64>
    %64 = tosa.cast %63 : (tensor<13xi64>) -> tensor<13xi32>
    %65 = tosa.add %64, %27 : (tensor<13xi32>, tensor<1xi32>) -> tensor<13xi32>
    %66 = tosa.cast %65 : (tensor<13xi32>) -> tensor<13xi64>
    %67 = tosa.maximum %66, %28 : (tensor<13xi64>, tensor<1xi64>) -> tensor<13xi64>
    %68 = tosa.minimum %67, %29 : (tensor<13xi64>, tensor<1xi64>) -> tensor<13xi64>
    %69 = tosa.cast %cst_0 : (tensor<2x1x1x1xi64>) -> tensor<2x1x1x1xi32>
    %70 = tosa.add %69, %31 : (tensor<2x1x1x1xi32>, tensor<1x1x1x1xi32>) -> tensor<2x1x1x1xi32>
    %71 = tosa.greater %30, %69 : (tensor<1x1x1x1xi32>, tensor<2x1x1x1xi32>) -> tensor<2x1x1x1xi1>
    %72 = tosa.select %71, %70, %69 : (tensor<2x1x1x1xi1>, tensor<2x1x1x1xi32>, tensor<2x1x1x1xi32>) -> tensor<2x1x1x1xi32>
    %73 = tosa.reshape %72, %5 : (tensor<2x1x1x1xi32>, !tosa.shape<5>) -> tensor<2x1x1x1x1xi32>
    %74 = tosa.cast %cst : (tensor<3x1x1xi64>) -> tensor<3x1x1xi32>
    %75 = tosa.add %74, %33 : (tensor<3x1x1xi32>, tensor<1x1x1xi32>) -> tensor<3x1x1xi32>
    %76 = tosa.greater %32, %74 : (tensor<1x1x1xi32>, tensor<3x1x1xi32>) -> tensor<3x1x1xi1>
    %77 = tosa.select %76, %75, %74 : (tensor<3x1x1xi1>, tensor<3x1x1xi32>, tensor<3x1x1xi32>) -> tensor<3x1x1xi32>
    %78 = tosa.cast %48 : (tensor<11x1xi64>) -> tensor<11x1xi32>
    %79 = tosa.add %78, %35 : (tensor<11x1xi32>, tensor<1x1xi32>) -> tensor<11x1xi32>
    %80 = tosa.greater %34, %78 : (tensor<1x1xi32>, tensor<11x1xi32>) -> tensor<11x1xi1>
    %81 = tosa.select %80, %79, %78 : (tensor<11x1xi1>, tensor<11x1xi32>, tensor<11x1xi32>) -> tensor<11x1xi32>
    %82 = tosa.cast %63 : (tensor<13xi64>) -> tensor<13xi32>
    %83 = tosa.add %82, %37 : (tensor<13xi32>, tensor<1xi32>) -> tensor<13xi32>
    %84 = tosa.greater %36, %82 : (tensor<1xi32>, tensor<13xi32>) -> tensor<13xi1>
    %85 = tosa.select %84, %83, %82 : (tensor<13xi1>, tensor<13xi32>, tensor<13xi32>) -> tensor<13xi32>
    %86 = tosa.reshape %77, %6 : (tensor<3x1x1xi32>, !tosa.shape<5>) -> tensor<1x3x1x1x1xi32>
    %87 = tosa.reshape %81, %7 : (tensor<11x1xi32>, !tosa.shape<5>) -> tensor<1x1x11x1x1xi32>
    %88 = tosa.reshape %85, %8 : (tensor<13xi32>, !tosa.shape<5>) -> tensor<1x1x1x13x1xi32>
    %89 = tosa.tile %73, %9 : (tensor<2x1x1x1x1xi32>, !tosa.shape<5>) -> tensor<2x3x11x13x1xi32>
    %90 = tosa.tile %86, %10 : (tensor<1x3x1x1x1xi32>, !tosa.shape<5>) -> tensor<2x3x11x13x1xi32>
    %91 = tosa.tile %87, %11 : (tensor<1x1x11x1x1xi32>, !tosa.shape<5>) -> tensor<2x3x11x13x1xi32>
    %92 = tosa.tile %88, %12 : (tensor<1x1x1x13x1xi32>, !tosa.shape<5>) -> tensor<2x3x11x13x1xi32>
    %93 = tosa.concat %89, %90, %91, %92 {axis = 4 : i32} : (tensor<2x3x11x13x1xi32>, tensor<2x3x11x13x1xi32>, tensor<2x3x11x13x1xi32>, tensor<2x3x11x13x1xi32>) -> tensor<2x3x11x13x4xi32>
    %94 = tosa.reshape %arg0, %13 : (tensor<2x3x5x7xf32>, !tosa.shape<3>) -> tensor<1x210x1xf32>
    %95 = tosa.reshape %93, %14 : (tensor<2x3x11x13x4xi32>, !tosa.shape<2>) -> tensor<858x4xi32>
    %96 = tosa.mul %95, %0, %2 : (tensor<858x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<858x4xi32>
    %97 = tosa.reduce_sum %96 {axis = 1 : i32} : (tensor<858x4xi32>) -> tensor<858x1xi32>
    %98 = tosa.reshape %97, %15 : (tensor<858x1xi32>, !tosa.shape<2>) -> tensor<1x858xi32>
    %99 = tosa.gather %94, %98 : (tensor<1x210x1xf32>, tensor<1x858xi32>) -> tensor<1x858x1xf32>
    %100 = tosa.reshape %99, %16 : (tensor<1x858x1xf32>, !tosa.shape<4>) -> tensor<2x3x11x13xf32>
    %101 = tosa.cast %68 : (tensor<13xi64>) -> tensor<13xi32>
    %102 = tosa.add %101, %37 : (tensor<13xi32>, tensor<1xi32>) -> tensor<13xi32>
    %103 = tosa.greater %36, %101 : (tensor<1xi32>, tensor<13xi32>) -> tensor<13xi1>
    %104 = tosa.select %103, %102, %101 : (tensor<13xi1>, tensor<13xi32>, tensor<13xi32>) -> tensor<13xi32>
    %105 = tosa.reshape %104, %8 : (tensor<13xi32>, !tosa.shape<5>) -> tensor<1x1x1x13x1xi32>
    %106 = tosa.tile %105, %12 : (tensor<1x1x1x13x1xi32>, !tosa.shape<5>) -> tensor<2x3x11x13x1xi32>
    %107 = tosa.concat %89, %90, %91, %106 {axis = 4 : i32} : (tensor<2x3x11x13x1xi32>, tensor<2x3x11x13x1xi32>, tensor<2x3x11x13x1xi32>, tensor<2x3x11x13x1xi32>) -> tensor<2x3x11x13x4xi32>
    %108 = tosa.reshape %107, %14 : (tensor<2x3x11x13x4xi32>, !tosa.shape<2>) -> tensor<858x4xi32>
    %109 = tosa.mul %108, %0, %2 : (tensor<858x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<858x4xi32>
    %110 = tosa.reduce_sum %109 {axis = 1 : i32} : (tensor<858x4xi32>) -> tensor<858x1xi32>
    %111 = tosa.reshape %110, %15 : (tensor<858x1xi32>, !tosa.shape<2>) -> tensor<1x858xi32>
    %112 = tosa.gather %94, %111 : (tensor<1x210x1xf32>, tensor<1x858xi32>) -> tensor<1x858x1xf32>
    %113 = tosa.reshape %112, %16 : (tensor<1x858x1xf32>, !tosa.shape<4>) -> tensor<2x3x11x13xf32>
    %114 = tosa.cast %53 : (tensor<11x1xi64>) -> tensor<11x1xi32>
    %115 = tosa.add %114, %35 : (tensor<11x1xi32>, tensor<1x1xi32>) -> tensor<11x1xi32>
    %116 = tosa.greater %34, %114 : (tensor<1x1xi32>, tensor<11x1xi32>) -> tensor<11x1xi1>
    %117 = tosa.select %116, %115, %114 : (tensor<11x1xi1>, tensor<11x1xi32>, tensor<11x1xi32>) -> tensor<11x1xi32>
    %118 = tosa.reshape %117, %7 : (tensor<11x1xi32>, !tosa.shape<5>) -> tensor<1x1x11x1x1xi32>
    %119 = tosa.tile %118, %11 : (tensor<1x1x11x1x1xi32>, !tosa.shape<5>) -> tensor<2x3x11x13x1xi32>
    %120 = tosa.concat %89, %90, %119, %92 {axis = 4 : i32} : (tensor<2x3x11x13x1xi32>, tensor<2x3x11x13x1xi32>, tensor<2x3x11x13x1xi32>, tensor<2x3x11x13x1xi32>) -> tensor<2x3x11x13x4xi32>
    %121 = tosa.reshape %120, %14 : (tensor<2x3x11x13x4xi32>, !tosa.shape<2>) -> tensor<858x4xi32>
    %122 = tosa.mul %121, %0, %2 : (tensor<858x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<858x4xi32>
    %123 = tosa.reduce_sum %122 {axis = 1 : i32} : (tensor<858x4xi32>) -> tensor<858x1xi32>
    %124 = tosa.reshape %123, %15 : (tensor<858x1xi32>, !tosa.shape<2>) -> tensor<1x858xi32>
    %125 = tosa.gather %94, %124 : (tensor<1x210x1xf32>, tensor<1x858xi32>) -> tensor<1x858x1xf32>
    %126 = tosa.reshape %125, %16 : (tensor<1x858x1xf32>, !tosa.shape<4>) -> tensor<2x3x11x13xf32>
    %127 = tosa.concat %89, %90, %119, %106 {axis = 4 : i32} : (tensor<2x3x11x13x1xi32>, tensor<2x3x11x13x1xi32>, tensor<2x3x11x13x1xi32>, tensor<2x3x11x13x1xi32>) -> tensor<2x3x11x13x4xi32>
    %128 = tosa.reshape %127, %14 : (tensor<2x3x11x13x4xi32>, !tosa.shape<2>) -> tensor<858x4xi32>
    %129 = tosa.mul %128, %0, %2 : (tensor<858x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<858x4xi32>
    %130 = tosa.reduce_sum %129 {axis = 1 : i32} : (tensor<858x4xi32>) -> tensor<858x1xi32>
    %131 = tosa.reshape %130, %15 : (tensor<858x1xi32>, !tosa.shape<2>) -> tensor<1x858xi32>
    %132 = tosa.gather %94, %131 : (tensor<1x210x1xf32>, tensor<1x858xi32>) -> tensor<1x858x1xf32>
    %133 = tosa.reshape %132, %16 : (tensor<1x858x1xf32>, !tosa.shape<4>) -> tensor<2x3x11x13xf32>
    %134 = tosa.cast %63 : (tensor<13xi64>) -> tensor<13xf32>
    %135 = tosa.sub %58, %134 : (tensor<13xf32>, tensor<13xf32>) -> tensor<13xf32>
    %136 = tosa.clamp %135 {max_val = 1.000000e+00 : f32, min_val = 0.000000e+00 : f32} : (tensor<13xf32>) -> tensor<13xf32>
    %137 = tosa.sub %113, %100 : (tensor<2x3x11x13xf32>, tensor<2x3x11x13xf32>) -> tensor<2x3x11x13xf32>
    %138 = tosa.reshape %136, %17 : (tensor<13xf32>, !tosa.shape<4>) -> tensor<1x1x1x13xf32>
    %139 = tosa.mul %137, %138, %2 : (tensor<2x3x11x13xf32>, tensor<1x1x1x13xf32>, tensor<1xi8>) -> tensor<2x3x11x13xf32>
    %140 = tosa.add %100, %139 : (tensor<2x3x11x13xf32>, tensor<2x3x11x13xf32>) -> tensor<2x3x11x13xf32>
    %141 = tosa.sub %133, %126 : (tensor<2x3x11x13xf32>, tensor<2x3x11x13xf32>) -> tensor<2x3x11x13xf32>
    %142 = tosa.mul %141, %138, %2 : (tensor<2x3x11x13xf32>, tensor<1x1x1x13xf32>, tensor<1xi8>) -> tensor<2x3x11x13xf32>
    %143 = tosa.add %126, %142 : (tensor<2x3x11x13xf32>, tensor<2x3x11x13xf32>) -> tensor<2x3x11x13xf32>
    %144 = tosa.cast %48 : (tensor<11x1xi64>) -> tensor<11x1xf32>
    %145 = tosa.sub %43, %144 : (tensor<11x1xf32>, tensor<11x1xf32>) -> tensor<11x1xf32>
    %146 = tosa.clamp %145 {max_val = 1.000000e+00 : f32, min_val = 0.000000e+00 : f32} : (tensor<11x1xf32>) -> tensor<11x1xf32>
    %147 = tosa.sub %143, %140 : (tensor<2x3x11x13xf32>, tensor<2x3x11x13xf32>) -> tensor<2x3x11x13xf32>
    %148 = tosa.reshape %146, %18 : (tensor<11x1xf32>, !tosa.shape<4>) -> tensor<1x1x11x1xf32>
    %149 = tosa.mul %147, %148, %2 : (tensor<2x3x11x13xf32>, tensor<1x1x11x1xf32>, tensor<1xi8>) -> tensor<2x3x11x13xf32>
    %150 = tosa.add %140, %149 : (tensor<2x3x11x13xf32>, tensor<2x3x11x13xf32>) -> tensor<2x3x11x13xf32>
    return %150 : tensor<2x3x11x13xf32>
  }
}
