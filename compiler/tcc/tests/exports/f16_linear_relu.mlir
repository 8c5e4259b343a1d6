module {
  func.func @main(%arg0: tensor<3x16xf16>) -> tensor<3x12xf16> {
    %0 = "tosa.const"() <{values = dense_resource<torch_tensor_12_torch.float16> : tensor<12xf16>}> : () -> tensor<12xf16>
    %1 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %2 = tosa.const_shape  {values = dense<[1, 3, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %3 = tosa.const_shape  {values = dense<[1, 16, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %4 = tosa.const_shape  {values = dense<[3, 12]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %5 = tosa.const_shape  {values = dense<[1, 12]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %6 = "tosa.const"() <{values = dense<"0x8D2A6A347837253202BE74AF493F7CA5FA363E31213E1BB31BB6F723BB3E24391D2819BD663ACFBEE63CF93BB3BB5BA004304C39A03505BE70AD802B872BC2BB76BC603C1B34E334FA34A3BCBEBB4FB42C3D97BAE23899BD09BB8B3D7A37D0BDD638E8BC82AF20B478BA41B52338AD356238C13BD63C283CC23791B9A1A6DD353FC072354F3CC33B98BFA3BFA3389536953B9F3B9C3C73B981BD04BB323B4035FFBD1C29D732993F02BF933A41BC1838BB407D39B53B0A368A3849BBD239543EF0BA5CBF443C47379334EAB9B8BD803BA83550B9BBB661375133F53A9BBBD23A5E3B6ABD4C3567B887AC9EB3E03F0427EA3A21B8E9B8AB3AF6398D34F633B53F5A3C584166BAF533FDB10D3627B4F4B37A3B59B59E3BA33E6FBF5C3B84B7D63FDBB129BC1A3DAEB8D83803B447AFCF326C38D73ADFB277408EBAB540853BDFBA3A319AB840B575B9983F99BE083F9B35893CCD39DABF1F2CA63CDD3D9C3DE236E63A2C3F36B451382E3F97C005B6503B943AE63B32B9C237A1AFA13DE7B3BA3B"> : tensor<16x12xf16>}> : () -> tensor<16x12xf16>
    %7 = tosa.cast %0 : (tensor<12xf16>) -> tensor<12xf32>
    %8 = tosa.cast %arg0 : (tensor<3x16xf16>) -> tensor<3x16xf32>
    %9 = tosa.cast %6 : (tensor<16x12xf16>) -> tensor<16x12xf32>
    %10 = tosa.reshape %8, %2 : (tensor<3x16xf32>, !tosa.shape<3>) -> tensor<1x3x16xf32>
    %11 = tosa.reshape %9, %3 : (tensor<16x12xf32>, !tosa.shape<3>) -> tensor<1x16x12xf32>
    %12 = tosa.matmul %10, %11, %1, %1 : (tensor<1x3x16xf32>, tensor<1x16x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x12xf32>
    %13 = tosa.reshape %12, %4 : (tensor<1x3x12xf32>, !tosa.shape<2>) -> tensor<3x12xf32>
    %14 = tosa.reshape %7, %5 : (tensor<12xf32>, !tosa.shape<2>) -> tensor<1x12xf32>
    %15 = tosa.add %13, %14 : (tensor<3x12xf32>, tensor<1x12xf32>) -> tensor<3x12xf32>
    %16 = tosa.cast %15 : (tensor<3x12xf32>) -> tensor<3x12xf16>
    %17 = tosa.clamp %16 {max_val = 6.550400e+04 : f16, min_val = 0.000000e+00 : f16} : (tensor<3x12xf16>) -> tensor<3x12xf16>
    return %17 : tensor<3x12xf16>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_12_torch.float16: "0x020000008633CEACA4B1C435F5BB9139AF3B73B4773F09A0FAB1C83C"
    }
  }
#-}
