// The expand-math pass: f32 exp, log, tanh, erf and pow, on scalars and on vectors,
// become polynomial loop arithmetic (range reduction with loop.round, 2^n built from
// exponent bits with loop.shl and loop.bitcast, mantissa extraction with loop.and and
// loop.or, Horner chains of loop.fma). Constants of a vector expansion are splatted.
// f64 math is left for code generation (a runtime call).
//
// The output must be valid IR: it is printed, parsed and verified again.
// RUN: %tcc-opt %s --pass-pipeline=expand-math | %tcc-opt | FileCheck %s
// Expanding twice changes nothing more.
// RUN: %tcc-opt %s --pass-pipeline=expand-math -o %t.1.mlir
// RUN: %tcc-opt %t.1.mlir --pass-pipeline=expand-math -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// With `ldexp` (AVX-512 targets), exp's 2^n on f32 vectors of 4, 8 or 16 lanes is one
// loop.ldexp; scalars keep the exponent bits.
// RUN: %tcc-opt %s --pass-pipeline='expand-math{ldexp=true}' | %tcc-opt | FileCheck %s --check-prefix=LDEXP

// exp: clamp to [ln(smallest normal), ln(f32 max)], n = round(x log2 e), Cephes
// polynomial, 2^n split in two halves (n >> 1 and n - (n >> 1)) as exponent bits,
// +inf above and 0 below the clamp.
// CHECK-LABEL: func.func @exp_scalar(%arg0: f32) -> f32 {
// CHECK-NOT: loop.exp
// CHECK-DAG: [[HI:%[0-9]+]] = loop.const 88.72283 : f32
// CHECK-DAG: [[LO:%[0-9]+]] = loop.const -87.33655 : f32
// CHECK-DAG: [[LOG2E:%[0-9]+]] = loop.const 1.442695 : f32
// CHECK-DAG: [[C23:%[0-9]+]] = loop.const 23 : i32
// CHECK-DAG: [[C127:%[0-9]+]] = loop.const 127 : i32
// CHECK-DAG: [[INF:%[0-9]+]] = loop.const 0x7F800000 : f32
// CHECK: [[A:%[0-9]+]] = loop.min %arg0, [[HI]] : f32
// CHECK-NEXT: [[B:%[0-9]+]] = loop.max [[A]], [[LO]] : f32
// CHECK-NEXT: [[T:%[0-9]+]] = loop.mul [[B]], [[LOG2E]] : f32
// CHECK-NEXT: [[N:%[0-9]+]] = loop.round [[T]] : f32
// CHECK: loop.fma
// n as an integer: n + 1.5 * 2^23, whose bits hold n above those of 1.5 * 2^23.
// CHECK: [[SH:%[0-9]+]] = loop.add [[N]], {{%[0-9]+}} : f32
// CHECK-NEXT: [[SB:%[0-9]+]] = loop.bitcast [[SH]] : (f32) -> i32
// CHECK-NEXT: [[NI:%[0-9]+]] = loop.sub [[SB]], {{%[0-9]+}} : i32
// CHECK-NEXT: [[HALF:%[0-9]+]] = loop.shr [[NI]], {{%[0-9]+}} : i32
// CHECK-NEXT: [[REST:%[0-9]+]] = loop.sub [[NI]], [[HALF]] : i32
// CHECK-NEXT: [[E1:%[0-9]+]] = loop.add [[HALF]], [[C127]] : i32
// CHECK-NEXT: [[B1:%[0-9]+]] = loop.shl [[E1]], [[C23]] : i32
// CHECK-NEXT: [[S1:%[0-9]+]] = loop.bitcast [[B1]] : (i32) -> f32
// CHECK-NEXT: [[E2:%[0-9]+]] = loop.add [[REST]], [[C127]] : i32
// CHECK-NEXT: [[B2:%[0-9]+]] = loop.shl [[E2]], [[C23]] : i32
// CHECK-NEXT: [[S2:%[0-9]+]] = loop.bitcast [[B2]] : (i32) -> f32
// CHECK-NEXT: [[Y1:%[0-9]+]] = loop.mul {{%[0-9]+}}, [[S1]] : f32
// CHECK-NEXT: [[Y2:%[0-9]+]] = loop.mul [[Y1]], [[S2]] : f32
// CHECK-NEXT: [[OVER:%[0-9]+]] = loop.cmp %arg0, [[HI]] {pred = "gt"} : (f32, f32) -> i1
// CHECK-NEXT: [[Y3:%[0-9]+]] = loop.select [[OVER]], [[INF]], [[Y2]] : (i1, f32, f32) -> f32
// CHECK-NEXT: [[UNDER:%[0-9]+]] = loop.cmp %arg0, [[LO]] {pred = "lt"} : (f32, f32) -> i1
// CHECK-NEXT: [[R:%[0-9]+]] = loop.select [[UNDER]], {{%[0-9]+}}, [[Y3]] : (i1, f32, f32) -> f32
// CHECK-NEXT: return [[R]] : f32
func.func @exp_scalar(%x: f32) -> f32 {
  %0 = loop.exp %x : f32
  return %0 : f32
}

// On vectors the same code runs lane-wise, with splatted constants.
// CHECK-LABEL: func.func @exp_vector(%arg0: vector<4xf32>) -> vector<4xf32> {
// CHECK-NOT: loop.exp
// CHECK: [[HI:%[0-9]+]] = vector.splat {{%[0-9]+}} : (f32) -> vector<4xf32>
// CHECK: loop.min %arg0, [[HI]] : vector<4xf32>
// CHECK: loop.round {{%[0-9]+}} : vector<4xf32>
// No float-to-int conversion (scalarized by LLVM on x86): a bitcast.
// CHECK-NOT: loop.cast {{.*}} -> vector<4xi32>
// CHECK: loop.bitcast {{%[0-9]+}} : (vector<4xf32>) -> vector<4xi32>
// CHECK: loop.shl {{%[0-9]+}}, {{%[0-9]+}} : vector<4xi32>
// CHECK-NEXT: loop.bitcast {{%[0-9]+}} : (vector<4xi32>) -> vector<4xf32>
// CHECK: loop.select {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} : (vector<4xi1>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK-NOT: loop.exp
// CHECK: return
func.func @exp_vector(%x: vector<4xf32>) -> vector<4xf32> {
  %0 = loop.exp %x : vector<4xf32>
  return %0 : vector<4xf32>
}

// log: the exponent and mantissa are taken from the bits (subnormals scaled by 2^23
// first), then a polynomial in the mantissa; log(0) = -inf, log(x < 0) = NaN,
// log(+inf) = +inf, NaN stays NaN.
// CHECK-LABEL: func.func @log_scalar(%arg0: f32) -> f32 {
// CHECK-NOT: loop.log
// CHECK-DAG: loop.const 8388607 : i32
// CHECK-DAG: loop.const 1056964608 : i32
// CHECK-DAG: loop.const 0x7FC00000 : f32
// CHECK-DAG: loop.const 0xFF800000 : f32
// CHECK: [[BITS:%[0-9]+]] = loop.bitcast {{%[0-9]+}} : (f32) -> i32
// CHECK-NEXT: [[RAW:%[0-9]+]] = loop.shr [[BITS]], {{%[0-9]+}} : i32
// CHECK: [[MANT:%[0-9]+]] = loop.and [[BITS]], {{%[0-9]+}} : i32
// CHECK-NEXT: [[MB:%[0-9]+]] = loop.or [[MANT]], {{%[0-9]+}} : i32
// CHECK-NEXT: loop.bitcast [[MB]] : (i32) -> f32
// CHECK: loop.fma
// CHECK: [[NAN:%[0-9]+]] = loop.cmp %arg0, %arg0 {pred = "ne"} : (f32, f32) -> i1
// CHECK-NEXT: [[R:%[0-9]+]] = loop.select [[NAN]], %arg0, {{%[0-9]+}} : (i1, f32, f32) -> f32
// CHECK-NEXT: return [[R]] : f32
func.func @log_scalar(%x: f32) -> f32 {
  %0 = loop.log %x : f32
  return %0 : f32
}

// CHECK-LABEL: func.func @log_vector(%arg0: vector<4xf32>) -> vector<4xf32> {
// CHECK-NOT: loop.log
// CHECK: loop.bitcast {{%[0-9]+}} : (vector<4xf32>) -> vector<4xi32>
// CHECK: loop.and {{%[0-9]+}}, {{%[0-9]+}} : vector<4xi32>
// CHECK: loop.fma {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} : vector<4xf32>
// CHECK-NOT: loop.log
// CHECK: return
func.func @log_vector(%x: vector<4xf32>) -> vector<4xf32> {
  %0 = loop.log %x : vector<4xf32>
  return %0 : vector<4xf32>
}

// tanh: an odd polynomial below |x| = 0.625, 1 - 2 / (e^{2|x|} + 1) above (with exp
// expanded inline too).
// CHECK-LABEL: func.func @tanh_scalar(%arg0: f32) -> f32 {
// CHECK-NOT: loop.tanh
// CHECK-NOT: loop.exp
// CHECK-DAG: [[LIMIT:%[0-9]+]] = loop.const 0.625 : f32
// CHECK: [[AX:%[0-9]+]] = loop.abs %arg0 : f32
// CHECK: loop.round
// CHECK: loop.bitcast
// CHECK: loop.div
// CHECK: [[SMALL:%[0-9]+]] = loop.cmp [[AX]], [[LIMIT]] {pred = "lt"} : (f32, f32) -> i1
// CHECK-NEXT: [[R:%[0-9]+]] = loop.select [[SMALL]], {{%[0-9]+}}, {{%[0-9]+}} : (i1, f32, f32) -> f32
// CHECK-NEXT: return [[R]] : f32
func.func @tanh_scalar(%x: f32) -> f32 {
  %0 = loop.tanh %x : f32
  return %0 : f32
}

// CHECK-LABEL: func.func @tanh_vector(%arg0: vector<8xf32>) -> vector<8xf32> {
// CHECK-NOT: loop.tanh
// CHECK-NOT: loop.exp
// CHECK: loop.abs %arg0 : vector<8xf32>
// CHECK: loop.round {{%[0-9]+}} : vector<8xf32>
// CHECK: loop.select {{.*}} : (vector<8xi1>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// CHECK: return {{%[0-9]+}} : vector<8xf32>
func.func @tanh_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = loop.tanh %x : vector<8xf32>
  return %0 : vector<8xf32>
}

// erf: a rational approximation on [-4, 4] (x clamped), p(x^2) x / q(x^2).
// CHECK-LABEL: func.func @erf_scalar(%arg0: f32) -> f32 {
// CHECK-NOT: loop.erf
// CHECK-DAG: [[FOUR:%[0-9]+]] = loop.const 4.0 : f32
// CHECK-DAG: [[MFOUR:%[0-9]+]] = loop.const -4.0 : f32
// CHECK: [[A:%[0-9]+]] = loop.min %arg0, [[FOUR]] : f32
// CHECK-NEXT: [[XC:%[0-9]+]] = loop.max [[A]], [[MFOUR]] : f32
// CHECK-NEXT: [[X2:%[0-9]+]] = loop.mul [[XC]], [[XC]] : f32
// CHECK: [[P:%[0-9]+]] = loop.mul [[XC]], {{%[0-9]+}} : f32
// CHECK: [[R:%[0-9]+]] = loop.div [[P]], {{%[0-9]+}} : f32
// CHECK-NEXT: return [[R]] : f32
func.func @erf_scalar(%x: f32) -> f32 {
  %0 = loop.erf %x : f32
  return %0 : f32
}

// CHECK-LABEL: func.func @erf_vector(%arg0: vector<4xf32>) -> vector<4xf32> {
// CHECK-NOT: loop.erf
// CHECK: loop.min %arg0, {{%[0-9]+}} : vector<4xf32>
// CHECK: loop.div {{%[0-9]+}}, {{%[0-9]+}} : vector<4xf32>
// CHECK-NEXT: return
func.func @erf_vector(%x: vector<4xf32>) -> vector<4xf32> {
  %0 = loop.erf %x : vector<4xf32>
  return %0 : vector<4xf32>
}

// pow: exp(b log |a|) (both expanded), the sign from a's sign bit for odd integral b,
// NaN for a finite negative base and a fractional exponent, and 1 for b = 0 or a = 1.
// CHECK-LABEL: func.func @pow_scalar(%arg0: f32, %arg1: f32) -> f32 {
// CHECK-NOT: loop.pow
// CHECK-NOT: loop.exp
// CHECK-NOT: loop.log
// CHECK-DAG: [[ONE:%[0-9]+]] = loop.const 1.0 : f32
// CHECK: loop.abs %arg0 : f32
// CHECK: loop.round
// CHECK: loop.floor %arg1 : f32
// CHECK: [[SIGNBITS:%[0-9]+]] = loop.bitcast %arg0 : (f32) -> i32
// CHECK-NEXT: loop.cmp [[SIGNBITS]], {{%[0-9]+}} {pred = "lt"} : (i32, i32) -> i1
// CHECK: [[BZERO:%[0-9]+]] = loop.cmp %arg1, {{%[0-9]+}} {pred = "eq"}
// CHECK-NEXT: [[R1:%[0-9]+]] = loop.select [[BZERO]], [[ONE]], {{%[0-9]+}}
// CHECK-NEXT: [[AONE:%[0-9]+]] = loop.cmp %arg0, [[ONE]] {pred = "eq"}
// CHECK-NEXT: [[R:%[0-9]+]] = loop.select [[AONE]], [[ONE]], [[R1]] : (i1, f32, f32) -> f32
// CHECK-NEXT: return [[R]] : f32
func.func @pow_scalar(%a: f32, %b: f32) -> f32 {
  %0 = loop.pow %a, %b : f32
  return %0 : f32
}

// CHECK-LABEL: func.func @pow_vector(%arg0: vector<4xf32>, %arg1: vector<4xf32>) -> vector<4xf32> {
// CHECK-NOT: loop.pow
// CHECK-NOT: loop.exp
// CHECK-NOT: loop.log
// CHECK: loop.bitcast %arg0 : (vector<4xf32>) -> vector<4xi32>
// CHECK: return
func.func @pow_vector(%a: vector<4xf32>, %b: vector<4xf32>) -> vector<4xf32> {
  %0 = loop.pow %a, %b : vector<4xf32>
  return %0 : vector<4xf32>
}

// f64 math, scalar or vector, is left alone; only the f32 op next to it is expanded.
// CHECK-LABEL: func.func @f64_untouched(%arg0: f64, %arg1: vector<2xf64>, %arg2: f32) -> (f64, f64, vector<2xf64>, f64, f64, f32) {
// CHECK: [[E:%[0-9]+]] = loop.exp %arg0 : f64
// CHECK-NEXT: [[L:%[0-9]+]] = loop.log %arg0 : f64
// CHECK-NEXT: [[T:%[0-9]+]] = loop.tanh %arg1 : vector<2xf64>
// CHECK-NEXT: [[F:%[0-9]+]] = loop.erf %arg0 : f64
// CHECK-NEXT: [[P:%[0-9]+]] = loop.pow %arg0, %arg0 : f64
// CHECK-NOT: loop.exp {{.*}} : f32
// CHECK: loop.round {{%[0-9]+}} : f32
// CHECK-NOT: loop.exp {{.*}} : f32
// CHECK: return [[E]], [[L]], [[T]], [[F]], [[P]], {{%[0-9]+}} :
func.func @f64_untouched(%d: f64, %vd: vector<2xf64>, %x: f32) -> (f64, f64, vector<2xf64>, f64, f64, f32) {
  %0 = loop.exp %d : f64
  %1 = loop.log %d : f64
  %2 = loop.tanh %vd : vector<2xf64>
  %3 = loop.erf %d : f64
  %4 = loop.pow %d, %d : f64
  %5 = loop.exp %x : f32
  return %0, %1, %2, %3, %4, %5 : f64, f64, vector<2xf64>, f64, f64, f32
}

// Math inside loops (as after vectorize) is expanded in place, in the loop body.
// CHECK-LABEL: func.func @in_loop(%arg0: buffer<16xf32>, %arg1: buffer<16xf32>) {
// CHECK: loop.for [[I:%arg[0-9]+]] =
// CHECK-NEXT: [[X:%[0-9]+]] = vector.load %arg0{{\[}}[[I]]] : buffer<16xf32>, vector<4xf32>
// CHECK-NOT: loop.exp
// CHECK: loop.round {{%[0-9]+}} : vector<4xf32>
// CHECK-NOT: loop.exp
// CHECK: vector.store {{%[0-9]+}}, %arg1{{\[}}[[I]]] : buffer<16xf32>, vector<4xf32>
// CHECK-NEXT: loop.yield
func.func @in_loop(%a: buffer<16xf32>, %out: buffer<16xf32>) {
  %c0 = loop.const 0 : index
  %c4 = loop.const 4 : index
  %c16 = loop.const 16 : index
  loop.for %i = %c0 to %c16 step %c4 {
    %x = vector.load %a[%i] : buffer<16xf32>, vector<4xf32>
    %e = loop.exp %x : vector<4xf32>
    vector.store %e, %out[%i] : buffer<16xf32>, vector<4xf32>
    loop.yield
  }
  return
}

// LDEXP-LABEL: func.func @exp_ldexp_vector(%arg0: vector<16xf32>) -> vector<16xf32> {
// LDEXP: [[N:%[0-9]+]] = loop.round
// LDEXP: loop.ldexp {{%[0-9]+}}, [[N]] : vector<16xf32>
// LDEXP-NOT: loop.shl
// LDEXP: return
// LDEXP-LABEL: func.func @exp_ldexp_scalar(%arg0: f32) -> f32 {
// LDEXP-NOT: loop.ldexp
// LDEXP: loop.shl
// LDEXP: return
func.func @exp_ldexp_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %r = loop.exp %x : vector<16xf32>
  return %r : vector<16xf32>
}
func.func @exp_ldexp_scalar(%x: f32) -> f32 {
  %r = loop.exp %x : f32
  return %r : f32
}

// sin and cos: q = round(x 2/pi), r = x - q pi/2 in three fused steps (Cody-Waite),
// Cephes' polynomials for sin r and cos r, the quadrant from q's low bits (q + 1 for
// cos) choosing and negating; no transcendental op is left.
// CHECK-LABEL: func.func @sin_cos(%arg0: vector<4xf32>, %arg1: f32) -> (f32, vector<4xf32>) {
// CHECK-NOT: loop.sin
// CHECK-NOT: loop.cos
// CHECK-DAG: loop.const 0.63661975 : f32
// CHECK-DAG: loop.const -1.5703125 : f32
// CHECK: [[T:%[0-9]+]] = loop.mul %arg1, {{%[0-9]+}} : f32
// CHECK-NEXT: [[Q:%[0-9]+]] = loop.round [[T]] : f32
// CHECK-NEXT: [[R:%[0-9]+]] = loop.fma [[Q]], {{%[0-9]+}}, %arg1 : f32
// CHECK-NEXT: loop.fma [[Q]], {{%[0-9]+}}, [[R]] : f32
// CHECK: loop.and {{.*}} : i32
// CHECK: loop.select {{.*}} : (i1, f32, f32) -> f32
// CHECK: [[V:%[0-9]+]] = loop.mul %arg0, {{%[0-9]+}} : vector<4xf32>
// CHECK-NEXT: loop.round [[V]] : vector<4xf32>
// CHECK: loop.select {{.*}} : (vector<4xi1>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK: return
func.func @sin_cos(%v: vector<4xf32>, %x: f32) -> (f32, vector<4xf32>) {
  %s = loop.sin %x : f32
  %c = loop.cos %v : vector<4xf32>
  return %s, %c : f32, vector<4xf32>
}
