// The expand-half pass: loop.cast between f16 and f32, on scalars and vectors, becomes
// integer arithmetic on the bits (f16 values are only reinterpreted as i16). Widening:
// the exponent rebiased by adding 112 << 23, infinities and NaNs given the f32
// exponent, subnormals converted as integers and scaled by 2^-24, the sign or-ed back.
// Narrowing: round to nearest even by adding 0xfff and the lowest kept bit, subnormals
// through |x| * 2^24 rounded, 65520 and up to infinity, NaN to 0x7e00. A rounding
// widened again is rounded in f32 lanes (the 13 dropped bits masked off with -8192, no
// 16-bit packing); the narrowing stays for its other uses.
//
// The output must be valid IR: it is printed, parsed and verified again.
// RUN: %tcc-opt %s --pass-pipeline=expand-half | %tcc-opt | FileCheck %s
// Expanding twice changes nothing more.
// RUN: %tcc-opt %s --pass-pipeline=expand-half -o %t.1.mlir
// RUN: %tcc-opt %t.1.mlir --pass-pipeline=expand-half -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir

// CHECK-LABEL: func.func @widen_scalar(%arg0: f16) -> f32 {
// CHECK-NOT: loop.cast {{.*}}(f16)
// CHECK-DAG: [[REBIAS:%[0-9]+]] = loop.const 939524096 : i32
// CHECK-DAG: [[EXP:%[0-9]+]] = loop.const 2139095040 : i32
// CHECK-DAG: [[TINY:%[0-9]+]] = loop.const 5.9604645e-8 : f32
// CHECK: [[BITS:%[0-9]+]] = loop.bitcast %arg0 : (f16) -> i16
// CHECK-NEXT: loop.cast [[BITS]] : (i16) -> i32
// CHECK: loop.add {{%[0-9]+}}, [[REBIAS]] : i32
// CHECK: loop.or {{%[0-9]+}}, [[EXP]] : i32
// CHECK: loop.mul {{%[0-9]+}}, [[TINY]] : f32
// CHECK: [[R:%[0-9]+]] = loop.bitcast {{%[0-9]+}} : (i32) -> f32
// CHECK-NEXT: return [[R]] : f32
func.func @widen_scalar(%arg0: f16) -> f32 {
  %0 = loop.cast %arg0 : (f16) -> f32
  return %0 : f32
}

// CHECK-LABEL: func.func @narrow_vector(%arg0: vector<4xf32>) -> vector<4xf16> {
// CHECK-NOT: loop.cast {{.*}}-> vector<4xf16>
// CHECK-DAG: loop.const 4095 : i32
// CHECK-DAG: loop.const 16777216.0 : f32
// CHECK-DAG: loop.const 1199566848 : i32
// CHECK-DAG: loop.const 32256 : i32
// CHECK: loop.bitcast %arg0 : (vector<4xf32>) -> vector<4xi32>
// CHECK: loop.round {{%[0-9]+}} : vector<4xf32>
// CHECK: [[H:%[0-9]+]] = loop.cast {{%[0-9]+}} : (vector<4xi32>) -> vector<4xi16>
// CHECK-NEXT: [[R:%[0-9]+]] = loop.bitcast [[H]] : (vector<4xi16>) -> vector<4xf16>
// CHECK-NEXT: return [[R]] : vector<4xf16>
func.func @narrow_vector(%arg0: vector<4xf32>) -> vector<4xf16> {
  %0 = loop.cast %arg0 : (vector<4xf32>) -> vector<4xf16>
  return %0 : vector<4xf16>
}

// CHECK-LABEL: func.func @round_trip(%arg0: vector<4xf32>) -> (vector<4xf32>, vector<4xf16>) {
// CHECK-NOT: loop.cast {{.*}}(vector<4xf16>)
// CHECK-DAG: loop.const -8192 : i32
// CHECK-DAG: [[QNAN:%[0-9]+]] = loop.const 2143289344 : i32
// CHECK: [[H:%[0-9]+]] = loop.bitcast {{%[0-9]+}} : (vector<4xi16>) -> vector<4xf16>
// CHECK: vector.splat [[QNAN]] : (i32) -> vector<4xi32>
// CHECK: [[R:%[0-9]+]] = loop.bitcast {{%[0-9]+}} : (vector<4xi32>) -> vector<4xf32>
// CHECK-NEXT: return [[R]], [[H]] : vector<4xf32>, vector<4xf16>
func.func @round_trip(%arg0: vector<4xf32>) -> (vector<4xf32>, vector<4xf16>) {
  %0 = loop.cast %arg0 : (vector<4xf32>) -> vector<4xf16>
  %1 = loop.cast %0 : (vector<4xf16>) -> vector<4xf32>
  return %1, %0 : vector<4xf32>, vector<4xf16>
}

// Other casts stay.
// CHECK-LABEL: func.func @f64(%arg0: f32) -> f64 {
// CHECK-NEXT: loop.cast %arg0 : (f32) -> f64
func.func @f64(%arg0: f32) -> f64 {
  %0 = loop.cast %arg0 : (f32) -> f64
  return %0 : f64
}

// bf16: widening puts the bits in the high half (a shift by 16); narrowing adds 0x7fff
// and the lowest kept bit, keeps the high half (-65536), and makes a NaN quiet (or
// 0x400000) instead; a rounding widened again stays in f32 lanes.
// CHECK-LABEL: func.func @bf16(%arg0: vector<4xbf16>, %arg1: vector<4xf32>) -> (vector<4xf32>, vector<4xbf16>, vector<4xf32>) {
// CHECK-NOT: loop.cast {{.*}}bf16
// CHECK-DAG: loop.const 16 : i32
// CHECK-DAG: loop.const 32767 : i32
// CHECK-DAG: loop.const -65536 : i32
// CHECK-DAG: loop.const 4194304 : i32
// CHECK: loop.bitcast %arg0 : (vector<4xbf16>) -> vector<4xi16>
// CHECK: loop.shl
// CHECK: loop.bitcast {{.*}} : (vector<4xi16>) -> vector<4xbf16>
// CHECK: return
func.func @bf16(%arg0: vector<4xbf16>, %arg1: vector<4xf32>) -> (vector<4xf32>, vector<4xbf16>, vector<4xf32>) {
  %0 = loop.cast %arg0 : (vector<4xbf16>) -> vector<4xf32>
  %1 = loop.cast %arg1 : (vector<4xf32>) -> vector<4xbf16>
  %2 = loop.cast %1 : (vector<4xbf16>) -> vector<4xf32>
  return %0, %1, %2 : vector<4xf32>, vector<4xbf16>, vector<4xf32>
}
