// The vectorize pass: an innermost unit-step loop with a straight-line body becomes
// a vector loop over the largest multiple of the lane count, followed by the original
// loop as the scalar remainder (seeded with the reduced vector accumulators). Loops
// that are not safe or not possible to vectorize are left exactly as they are.
//
// The output must be valid IR: it is printed, parsed and verified again. The vector
// loops are checked as loops (`unroll-iterations=0`); the UNROLL prefix checks a short
// loop with constant bounds emitted without one (the default).
// RUN: %tcc-opt %s --split-input-file --pass-pipeline='vectorize{unroll-iterations=0}' | %tcc-opt --split-input-file | FileCheck %s
// RUN: %tcc-opt %s --split-input-file --pass-pipeline='vectorize{vector-bits=256 unroll-iterations=0}' | FileCheck %s --check-prefix=V256
// RUN: %tcc-opt %s --split-input-file --pass-pipeline=vectorize | %tcc-opt --split-input-file | FileCheck %s --check-prefix=UNROLL
// 32-bit vectors hold a single f32: nothing is vectorized.
// RUN: %tcc-opt %s --split-input-file --pass-pipeline='vectorize{vector-bits=32}' | FileCheck %s --check-prefix=V32
// V32-NOT: vector.

// -- loops that vectorize ----------------------------------------------------------------

// Elementwise, 18 columns: 4 vector iterations over [0, 16), then the scalar
// remainder over [16, 18). The row loop around it is not innermost and stays as is;
// the invariant scalar operand is splatted once, before the vector loop.
// CHECK-LABEL: func.func @elementwise(%arg0: buffer<4x18xf32>, %arg1: buffer<18xf32>, %arg2: buffer<4x18xf32>, %arg3: f32)
// CHECK-DAG: [[C16:%[0-9]+]] = loop.const 16 : index
// CHECK-DAG: [[C4:%[0-9]+]] = loop.const 4 : index
// CHECK: loop.for [[I:%arg[0-9]+]] =
// CHECK-NEXT: [[S:%[0-9]+]] = vector.splat %arg3 : (f32) -> vector<4xf32>
// CHECK-NEXT: loop.for [[J:%arg[0-9]+]] = {{%[0-9]+}} to [[C16]] step [[C4]] {
// CHECK-NEXT: [[X:%[0-9]+]] = vector.load %arg0{{\[}}[[I]], [[J]]] : buffer<4x18xf32>, vector<4xf32>
// CHECK-NEXT: [[Y:%[0-9]+]] = vector.load %arg1{{\[}}[[J]]] : buffer<18xf32>, vector<4xf32>
// CHECK-NEXT: [[M:%[0-9]+]] = loop.mul [[X]], [[Y]] : vector<4xf32>
// CHECK-NEXT: [[R:%[0-9]+]] = loop.add [[M]], [[S]] : vector<4xf32>
// CHECK-NEXT: vector.store [[R]], %arg2{{\[}}[[I]], [[J]]] : buffer<4x18xf32>, vector<4xf32>
// CHECK-NEXT: loop.yield
// CHECK-NEXT: }
// CHECK-NEXT: loop.for [[K:%arg[0-9]+]] = [[C16]] to {{%[0-9]+}} step {{%[0-9]+}} {
// CHECK-NEXT: [[X2:%[0-9]+]] = loop.load %arg0{{\[}}[[I]], [[K]]] : buffer<4x18xf32>
// CHECK-NEXT: [[Y2:%[0-9]+]] = loop.load %arg1{{\[}}[[K]]] : buffer<18xf32>
// CHECK-NEXT: [[M2:%[0-9]+]] = loop.mul [[X2]], [[Y2]] : f32
// CHECK-NEXT: [[R2:%[0-9]+]] = loop.add [[M2]], %arg3 : f32
// CHECK-NEXT: loop.store [[R2]], %arg2{{\[}}[[I]], [[K]]] : buffer<4x18xf32>
// CHECK-NEXT: loop.yield
// CHECK-NEXT: }
// CHECK-NEXT: loop.yield
// CHECK-NEXT: }
// CHECK-NEXT: return
// By default those 4 vector iterations (constant bounds) are 4 copies of the body at
// columns 0, 4, 8 and 12, then the scalar remainder from 16.
// UNROLL-LABEL: func.func @elementwise(
// UNROLL-DAG: [[C0:%[0-9]+]] = loop.const 0 : index
// UNROLL-DAG: [[C4:%[0-9]+]] = loop.const 4 : index
// UNROLL-DAG: [[C8:%[0-9]+]] = loop.const 8 : index
// UNROLL-DAG: [[C12:%[0-9]+]] = loop.const 12 : index
// UNROLL-DAG: [[C16:%[0-9]+]] = loop.const 16 : index
// UNROLL: loop.for [[I:%arg[0-9]+]] =
// UNROLL-NEXT: vector.splat %arg3
// UNROLL-NEXT: vector.load %arg0{{\[}}[[I]], [[C0]]]
// UNROLL-NOT: loop.for
// UNROLL: vector.store {{%[0-9]+}}, %arg2{{\[}}[[I]], [[C0]]]
// UNROLL-NEXT: vector.load %arg0{{\[}}[[I]], [[C4]]]
// UNROLL-NOT: loop.for
// UNROLL: vector.store {{%[0-9]+}}, %arg2{{\[}}[[I]], [[C4]]]
// UNROLL-NEXT: vector.load %arg0{{\[}}[[I]], [[C8]]]
// UNROLL-NOT: loop.for
// UNROLL: vector.store {{%[0-9]+}}, %arg2{{\[}}[[I]], [[C8]]]
// UNROLL-NEXT: vector.load %arg0{{\[}}[[I]], [[C12]]]
// UNROLL-NOT: loop.for
// UNROLL: vector.store {{%[0-9]+}}, %arg2{{\[}}[[I]], [[C12]]]
// UNROLL-NEXT: loop.for {{%arg[0-9]+}} = [[C16]] to
// UNROLL: loop.load %arg0
// With 256-bit vectors: 8 lanes, 2 vector iterations over [0, 16).
// V256-LABEL: func.func @elementwise(
// V256-DAG: [[C8:%[0-9]+]] = loop.const 8 : index
// V256-DAG: [[C16:%[0-9]+]] = loop.const 16 : index
// V256: loop.for {{%arg[0-9]+}} = {{%[0-9]+}} to [[C16]] step [[C8]] {
// V256: loop.add {{%[0-9]+}}, {{%[0-9]+}} : vector<8xf32>
func.func @elementwise(%a: buffer<4x18xf32>, %b: buffer<18xf32>, %out: buffer<4x18xf32>, %s: f32) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c4 = loop.const 4 : index
  %c18 = loop.const 18 : index
  loop.for %i = %c0 to %c4 step %c1 {
    loop.for %j = %c0 to %c18 step %c1 {
      %x = loop.load %a[%i, %j] : buffer<4x18xf32>
      %y = loop.load %b[%j] : buffer<18xf32>
      %m = loop.mul %x, %y : f32
      %r = loop.add %m, %s : f32
      loop.store %r, %out[%i, %j] : buffer<4x18xf32>
      loop.yield
    }
    loop.yield
  }
  return
}

// -----

// Run-time bounds: the vector loop ends at lb + (max(ub - lb, 0) / 4) * 4, where the
// remainder starts.
// CHECK-LABEL: func.func @dynamic_bounds(%arg0: buffer<64xf32>, %arg1: buffer<64xf32>, %arg2: index, %arg3: index)
// CHECK-DAG: [[C0:%[0-9]+]] = loop.const 0 : index
// CHECK-DAG: [[C4:%[0-9]+]] = loop.const 4 : index
// CHECK: [[N:%[0-9]+]] = loop.sub %arg3, %arg2 : index
// CHECK-NEXT: [[NP:%[0-9]+]] = loop.max [[N]], [[C0]] : index
// CHECK-NEXT: [[Q:%[0-9]+]] = loop.div [[NP]], [[C4]] : index
// CHECK-NEXT: [[NV:%[0-9]+]] = loop.mul [[Q]], [[C4]] : index
// CHECK-NEXT: [[VUB:%[0-9]+]] = loop.add %arg2, [[NV]] : index
// CHECK-NEXT: loop.for [[I:%arg[0-9]+]] = %arg2 to [[VUB]] step [[C4]] {
// CHECK-NEXT: vector.load %arg0{{\[}}[[I]]] : buffer<64xf32>, vector<4xf32>
// CHECK-NEXT: loop.neg {{%[0-9]+}} : vector<4xf32>
// CHECK-NEXT: vector.store
// CHECK: loop.for [[J:%arg[0-9]+]] = [[VUB]] to %arg3 step
// CHECK-NEXT: loop.load %arg0{{\[}}[[J]]] : buffer<64xf32>
func.func @dynamic_bounds(%a: buffer<64xf32>, %b: buffer<64xf32>, %lo: index, %hi: index) {
  %c1 = loop.const 1 : index
  loop.for %i = %lo to %hi step %c1 {
    %x = loop.load %a[%i] : buffer<64xf32>
    %y = loop.neg %x : f32
    loop.store %y, %b[%i] : buffer<64xf32>
    loop.yield
  }
  return
}

// -----

// Reductions: each accumulator becomes a vector starting at the identity of its
// combining op (0 for add, -inf for max), is reduced horizontally after the vector
// loop, combined with the original initial value, and seeds the scalar remainder.
// CHECK-LABEL: func.func @reduction(%arg0: buffer<10xf32>) -> (f32, f32)
// CHECK-DAG: [[C4:%[0-9]+]] = loop.const 4 : index
// CHECK-DAG: [[C8:%[0-9]+]] = loop.const 8 : index
// CHECK-DAG: [[INIT_S:%[0-9]+]] = loop.const 1.5 : f32
// CHECK-DAG: [[INIT_M:%[0-9]+]] = loop.const -7.0 : f32
// CHECK-DAG: [[ZERO:%[0-9]+]] = loop.const 0.0 : f32
// CHECK-DAG: [[NINF:%[0-9]+]] = loop.const 0xFF800000 : f32
// CHECK: [[VZ:%[0-9]+]] = vector.splat [[ZERO]] : (f32) -> vector<4xf32>
// CHECK-NEXT: [[VN:%[0-9]+]] = vector.splat [[NINF]] : (f32) -> vector<4xf32>
// CHECK-NEXT: [[V:%[0-9]+]]:2 = loop.for [[I:%arg[0-9]+]] = {{%[0-9]+}} to [[C8]] step [[C4]] iter_args([[VS:%arg[0-9]+]] = [[VZ]], [[VM:%arg[0-9]+]] = [[VN]]) -> (vector<4xf32>, vector<4xf32>) {
// CHECK-NEXT: [[X:%[0-9]+]] = vector.load %arg0{{\[}}[[I]]] : buffer<10xf32>, vector<4xf32>
// CHECK-NEXT: [[SQ:%[0-9]+]] = loop.mul [[X]], [[X]] : vector<4xf32>
// CHECK-NEXT: [[S2:%[0-9]+]] = loop.add [[VS]], [[SQ]] : vector<4xf32>
// CHECK-NEXT: [[M2:%[0-9]+]] = loop.max [[VM]], [[X]] : vector<4xf32>
// CHECK-NEXT: loop.yield [[S2]], [[M2]] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: [[RS:%[0-9]+]] = vector.reduce [[V]]#0 {kind = "add"} : (vector<4xf32>) -> f32
// CHECK-NEXT: [[SEED_S:%[0-9]+]] = loop.add [[INIT_S]], [[RS]] : f32
// CHECK-NEXT: [[RM:%[0-9]+]] = vector.reduce [[V]]#1 {kind = "max"} : (vector<4xf32>) -> f32
// CHECK-NEXT: [[SEED_M:%[0-9]+]] = loop.max [[INIT_M]], [[RM]] : f32
// CHECK-NEXT: [[T:%[0-9]+]]:2 = loop.for [[J:%arg[0-9]+]] = [[C8]] to {{%[0-9]+}} step {{%[0-9]+}} iter_args([[A:%arg[0-9]+]] = [[SEED_S]], [[B:%arg[0-9]+]] = [[SEED_M]]) -> (f32, f32) {
// CHECK-NEXT: [[X2:%[0-9]+]] = loop.load %arg0{{\[}}[[J]]] : buffer<10xf32>
// CHECK-NEXT: [[SQ2:%[0-9]+]] = loop.mul [[X2]], [[X2]] : f32
// CHECK-NEXT: [[A2:%[0-9]+]] = loop.add [[A]], [[SQ2]] : f32
// CHECK-NEXT: [[B2:%[0-9]+]] = loop.max [[B]], [[X2]] : f32
// CHECK-NEXT: loop.yield [[A2]], [[B2]] : f32, f32
// CHECK-NEXT: }
// CHECK-NEXT: return [[T]]#0, [[T]]#1 : f32, f32
// Unrolled (2 constant vector iterations), the accumulators chain through the copies.
// UNROLL-LABEL: func.func @reduction(
// UNROLL: [[X0:%[0-9]+]] = vector.load %arg0
// UNROLL-NEXT: [[SQ0:%[0-9]+]] = loop.mul [[X0]], [[X0]] : vector<4xf32>
// UNROLL-NEXT: [[S0:%[0-9]+]] = loop.add {{%[0-9]+}}, [[SQ0]] : vector<4xf32>
// UNROLL-NEXT: [[M0:%[0-9]+]] = loop.max {{%[0-9]+}}, [[X0]] : vector<4xf32>
// UNROLL-NEXT: [[X1:%[0-9]+]] = vector.load %arg0
// UNROLL-NEXT: [[SQ1:%[0-9]+]] = loop.mul [[X1]], [[X1]] : vector<4xf32>
// UNROLL-NEXT: [[S1:%[0-9]+]] = loop.add [[S0]], [[SQ1]] : vector<4xf32>
// UNROLL-NEXT: [[M1:%[0-9]+]] = loop.max [[M0]], [[X1]] : vector<4xf32>
// UNROLL-NEXT: vector.reduce [[S1]] {kind = "add"}
// UNROLL: vector.reduce [[M1]] {kind = "max"}
func.func @reduction(%a: buffer<10xf32>) -> (f32, f32) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c10 = loop.const 10 : index
  %init_s = loop.const 1.5 : f32
  %init_m = loop.const -7.0 : f32
  %s, %m = loop.for %i = %c0 to %c10 step %c1 iter_args(%acc = %init_s, %mx = %init_m) -> (f32, f32) {
    %x = loop.load %a[%i] : buffer<10xf32>
    %sq = loop.mul %x, %x : f32
    %acc2 = loop.add %acc, %sq : f32
    %mx2 = loop.max %mx, %x : f32
    loop.yield %acc2, %mx2 : f32, f32
  }
  return %s, %m : f32, f32
}

// -----

// Product and minimum reductions of i32 start at 1 and INT32_MAX.
// CHECK-LABEL: func.func @int_reduction(
// CHECK-DAG: [[ONE:%[0-9]+]] = loop.const 1 : i32
// CHECK-DAG: [[MAX:%[0-9]+]] = loop.const 2147483647 : i32
// CHECK: vector.splat [[ONE]] : (i32) -> vector<4xi32>
// CHECK: vector.splat [[MAX]] : (i32) -> vector<4xi32>
// CHECK: loop.mul {{.*}} : vector<4xi32>
// CHECK: loop.min {{.*}} : vector<4xi32>
// CHECK: vector.reduce {{%[0-9]+}}#0 {kind = "mul"} : (vector<4xi32>) -> i32
// CHECK: vector.reduce {{%[0-9]+}}#1 {kind = "min"} : (vector<4xi32>) -> i32
func.func @int_reduction(%a: buffer<32xi32>, %p0: i32, %m0: i32) -> (i32, i32) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c32 = loop.const 32 : index
  %p, %m = loop.for %i = %c0 to %c32 step %c1 iter_args(%acc = %p0, %mn = %m0) -> (i32, i32) {
    %x = loop.load %a[%i] : buffer<32xi32>
    %acc2 = loop.mul %acc, %x : i32
    %mn2 = loop.min %mn, %x : i32
    loop.yield %acc2, %mn2 : i32, i32
  }
  return %p, %m : i32, i32
}

// -----

// The innermost loop of a convolution: the input is read at xo + offset (still unit
// stride), the weight is invariant (splatted), and the output row is loaded and
// stored at the same indices (in-place accumulation is lane-independent).
// CHECK-LABEL: func.func @conv_row(
// CHECK: [[W:%[0-9]+]] = loop.load %arg1
// CHECK: [[WS:%[0-9]+]] = vector.splat [[W]] : (f32) -> vector<4xf32>
// CHECK-NEXT: loop.for [[XO:%arg[0-9]+]] = %arg11 to {{%[0-9]+}} step {{%[0-9]+}} {
// CHECK-NEXT: [[IX:%[0-9]+]] = loop.add [[XO]], %arg13 : index
// CHECK-NEXT: [[XV:%[0-9]+]] = vector.load %arg0[%arg3, %arg4, %arg5, [[IX]]] : buffer<1x2x5x5xf32>, vector<4xf32>
// CHECK-NEXT: [[ACC:%[0-9]+]] = vector.load %arg2[%arg3, %arg6, %arg10, [[XO]]] : buffer<1x3x5x5xf32>, vector<4xf32>
// CHECK-NEXT: [[R:%[0-9]+]] = loop.fma [[XV]], [[WS]], [[ACC]] : vector<4xf32>
// CHECK-NEXT: vector.store [[R]], %arg2[%arg3, %arg6, %arg10, [[XO]]] : buffer<1x3x5x5xf32>, vector<4xf32>
// CHECK: loop.for {{%arg[0-9]+}} = {{%[0-9]+}} to %arg12 step
// CHECK: loop.fma {{.*}} : f32
func.func @conv_row(%x: buffer<1x2x5x5xf32>, %w: buffer<3x2x3x3xf32>, %out: buffer<1x3x5x5xf32>, %n: index, %ic: index, %iy: index, %o: index, %ci: index, %kh: index, %kw: index, %y: index, %xlo: index, %xhi: index, %off: index) {
  %c1 = loop.const 1 : index
  %wv = loop.load %w[%o, %ci, %kh, %kw] : buffer<3x2x3x3xf32>
  loop.for %xo = %xlo to %xhi step %c1 {
    %ix = loop.add %xo, %off : index
    %xv = loop.load %x[%n, %ic, %iy, %ix] : buffer<1x2x5x5xf32>
    %acc = loop.load %out[%n, %o, %y, %xo] : buffer<1x3x5x5xf32>
    %r = loop.fma %xv, %wv, %acc : f32
    loop.store %r, %out[%n, %o, %y, %xo] : buffer<1x3x5x5xf32>
    loop.yield
  }
  return
}

// -----

// A load with invariant indices is uniform: a scalar load (and scalar math) in the
// vector loop, splatted where a vector needs it. f32 math vectorizes.
// CHECK-LABEL: func.func @uniform(
// CHECK: loop.for [[I:%arg[0-9]+]] =
// CHECK-NEXT: [[X:%[0-9]+]] = vector.load %arg0{{\[}}[[I]]] : buffer<16xf32>, vector<4xf32>
// CHECK-NEXT: [[SC:%[0-9]+]] = loop.load %arg1[%arg3] : buffer<2xf32>
// CHECK-NEXT: [[E:%[0-9]+]] = loop.exp [[SC]] : f32
// CHECK-NEXT: [[T:%[0-9]+]] = loop.tanh [[X]] : vector<4xf32>
// CHECK-NEXT: [[ES:%[0-9]+]] = vector.splat [[E]] : (f32) -> vector<4xf32>
// CHECK-NEXT: [[R:%[0-9]+]] = loop.mul [[T]], [[ES]] : vector<4xf32>
// CHECK-NEXT: vector.store [[R]], %arg2{{\[}}[[I]]]
func.func @uniform(%a: buffer<16xf32>, %s: buffer<2xf32>, %out: buffer<16xf32>, %k: index) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c16 = loop.const 16 : index
  loop.for %i = %c0 to %c16 step %c1 {
    %x = loop.load %a[%i] : buffer<16xf32>
    %sc = loop.load %s[%k] : buffer<2xf32>
    %e = loop.exp %sc : f32
    %t = loop.tanh %x : f32
    %r = loop.mul %t, %e : f32
    loop.store %r, %out[%i] : buffer<16xf32>
    loop.yield
  }
  return
}

// -----

// Index arithmetic inside the loop on invariant values only (a strided slice's
// `start + row * step` of an outer dimension) is uniform: it stays scalar, and the
// accesses it addresses are still contiguous in the loop's index.
// CHECK-LABEL: func.func @uniform_index(
// CHECK: loop.for [[J:%arg[0-9]+]] =
// CHECK-NEXT: [[R:%[0-9]+]] = loop.mul %arg2, {{%[0-9]+}} : index
// CHECK-NEXT: [[RS:%[0-9]+]] = loop.add [[R]], {{%[0-9]+}} : index
// CHECK-NEXT: [[X:%[0-9]+]] = vector.load %arg0{{\[}}[[RS]], [[J]]] : buffer<9x16xf32>, vector<4xf32>
// CHECK-NEXT: vector.store [[X]], %arg1{{\[}}%arg2, [[J]]] : buffer<4x16xf32>, vector<4xf32>
func.func @uniform_index(%a: buffer<9x16xf32>, %out: buffer<4x16xf32>, %row: index) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c2 = loop.const 2 : index
  %c16 = loop.const 16 : index
  loop.for %j = %c0 to %c16 step %c1 {
    %r = loop.mul %row, %c2 : index
    %rs = loop.add %r, %c1 : index
    %x = loop.load %a[%rs, %j] : buffer<9x16xf32>
    loop.store %x, %out[%row, %j] : buffer<4x16xf32>
    loop.yield
  }
  return
}

// -----

// Comparisons give lane masks for select; an i32 shift takes a splatted amount; f64
// arithmetic (not math) vectorizes with 2 lanes.
// CHECK-LABEL: func.func @masks_shifts_f64(
// CHECK: [[P:%[0-9]+]] = loop.cmp {{%[0-9]+}}, {{%[0-9]+}} {pred = "gt"} : (vector<4xf32>, vector<4xf32>) -> vector<4xi1>
// CHECK-NEXT: loop.select [[P]], {{%[0-9]+}}, {{%[0-9]+}} : (vector<4xi1>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK: loop.shl {{%[0-9]+}}, {{%[0-9]+}} : vector<4xi32>
// CHECK: loop.add {{%[0-9]+}}, {{%[0-9]+}} : vector<2xf64>
func.func @masks_shifts_f64(%a: buffer<16xf32>, %out: buffer<16xf32>, %ia: buffer<16xi32>, %iout: buffer<16xi32>, %k: i32, %d: buffer<9xf64>, %dout: buffer<9xf64>) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c9 = loop.const 9 : index
  %c16 = loop.const 16 : index
  %zero = loop.const 0.0 : f32
  loop.for %i = %c0 to %c16 step %c1 {
    %x = loop.load %a[%i] : buffer<16xf32>
    %p = loop.cmp %x, %zero {pred = "gt"} : (f32, f32) -> i1
    %r = loop.select %p, %x, %zero : (i1, f32, f32) -> f32
    loop.store %r, %out[%i] : buffer<16xf32>
    loop.yield
  }
  loop.for %i = %c0 to %c16 step %c1 {
    %x = loop.load %ia[%i] : buffer<16xi32>
    %r = loop.shl %x, %k : i32
    loop.store %r, %iout[%i] : buffer<16xi32>
    loop.yield
  }
  loop.for %i = %c0 to %c9 step %c1 {
    %x = loop.load %d[%i] : buffer<9xf64>
    %r = loop.add %x, %x : f64
    loop.store %r, %dout[%i] : buffer<9xf64>
    loop.yield
  }
  return
}

// -----

// f32 data summed in f64 (a norm's variance as torch-mlir exports it): lanes as many as
// f64 has, the f32 values half-width vectors that are only loaded and widened, or
// narrowed and stored.
// CHECK-LABEL: func.func @widen_narrow(
// CHECK: [[X:%[0-9]+]] = vector.load %arg0[{{%[0-9a-z]+}}] : buffer<16xf32>, vector<2xf32>
// CHECK-NEXT: [[W:%[0-9]+]] = loop.cast [[X]] : (vector<2xf32>) -> vector<2xf64>
// CHECK: loop.add {{%[0-9a-z]+}}, [[W]] : vector<2xf64>
// CHECK: [[N:%[0-9]+]] = loop.cast {{%[0-9]+}} : (vector<2xf64>) -> vector<2xf32>
// CHECK-NEXT: vector.store [[N]], %arg2[{{%[0-9a-z]+}}] : buffer<16xf32>, vector<2xf32>
// V256-LABEL: func.func @widen_narrow(
// V256: vector.load %arg0[{{%[0-9a-z]+}}] : buffer<16xf32>, vector<4xf32>
func.func @widen_narrow(%a: buffer<16xf32>, %acc: buffer<16xf64>, %out: buffer<16xf32>) -> f64 {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c16 = loop.const 16 : index
  %zero = loop.const 0.0 : f64
  %s = loop.for %i = %c0 to %c16 step %c1 iter_args(%sum = %zero) -> (f64) {
    %x = loop.load %a[%i] : buffer<16xf32>
    %w = loop.cast %x : (f32) -> f64
    %t = loop.add %sum, %w : f64
    loop.yield %t : f64
  }
  loop.for %i = %c0 to %c16 step %c1 {
    %x = loop.load %acc[%i] : buffer<16xf64>
    %y = loop.mul %x, %x : f64
    %n = loop.cast %y : (f64) -> f32
    loop.store %n, %out[%i] : buffer<16xf32>
    loop.yield
  }
  return %s : f64
}

// -----

// f32 arithmetic before the widening (a bias added to a group norm's input, then summed
// per channel in f64): half-width f32 vectors computed on lane by lane.
// CHECK-LABEL: func.func @narrow_arithmetic(
// CHECK: [[X:%[0-9]+]] = vector.load %arg0[{{%[0-9a-z]+}}] : buffer<16xf32>, vector<2xf32>
// CHECK: [[B:%[0-9]+]] = vector.load %arg1[{{%[0-9a-z]+}}] : buffer<16xf32>, vector<2xf32>
// CHECK-NEXT: [[S:%[0-9]+]] = loop.add [[X]], [[B]] : vector<2xf32>
// CHECK-NEXT: [[M:%[0-9]+]] = loop.mul [[S]], [[S]] : vector<2xf32>
// CHECK-NEXT: [[W:%[0-9]+]] = loop.cast [[M]] : (vector<2xf32>) -> vector<2xf64>
// CHECK: loop.add {{%[0-9a-z]+}}, [[W]] : vector<2xf64>
// CHECK: vector.store {{%[0-9]+}}, %arg2[{{%[0-9a-z]+}}] : buffer<16xf64>, vector<2xf64>
func.func @narrow_arithmetic(%a: buffer<16xf32>, %bias: buffer<16xf32>, %acc: buffer<16xf64>) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c16 = loop.const 16 : index
  loop.for %i = %c0 to %c16 step %c1 {
    %x = loop.load %a[%i] : buffer<16xf32>
    %b = loop.load %bias[%i] : buffer<16xf32>
    %s = loop.add %x, %b : f32
    %m = loop.mul %s, %s : f32
    %w = loop.cast %m : (f32) -> f64
    %old = loop.load %acc[%i] : buffer<16xf64>
    %new = loop.add %old, %w : f64
    loop.store %new, %acc[%i] : buffer<16xf64>
    loop.yield
  }
  return
}

// -----

// -- loops that must not vectorize -------------------------------------------------------

// Step 2.
// CHECK-LABEL: func.func @non_unit_step(
// CHECK-DAG: [[C2:%[0-9]+]] = loop.const 2 : index
// CHECK-NOT: vector.
// CHECK: loop.for {{%arg[0-9]+}} = {{%[0-9]+}} to {{%[0-9]+}} step [[C2]] {
// CHECK-NOT: vector.
// CHECK: return
func.func @non_unit_step(%a: buffer<16xf32>, %out: buffer<16xf32>) {
  %c0 = loop.const 0 : index
  %c2 = loop.const 2 : index
  %c16 = loop.const 16 : index
  loop.for %i = %c0 to %c16 step %c2 {
    %x = loop.load %a[%i] : buffer<16xf32>
    loop.store %x, %out[%i] : buffer<16xf32>
    loop.yield
  }
  return
}

// -----

// The induction variable indexes the innermost dimension of a buffer whose innermost
// stride is 8, not 1.
// CHECK-LABEL: func.func @strided_buffer(
// CHECK-NOT: vector.
// CHECK: loop.load %arg0[%arg2, {{%arg[0-9]+}}] : buffer<8x8xf32, [1, 8]>
// CHECK-NOT: vector.
// CHECK: return
func.func @strided_buffer(%a: buffer<8x8xf32, [1, 8]>, %out: buffer<8xf32>, %r: index) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c8 = loop.const 8 : index
  loop.for %i = %c0 to %c8 step %c1 {
    %x = loop.load %a[%r, %i] : buffer<8x8xf32, [1, 8]>
    loop.store %x, %out[%i] : buffer<8xf32>
    loop.yield
  }
  return
}

// -----

// The induction variable walks an outer dimension (a column of a row-major matrix).
// CHECK-LABEL: func.func @column_walk(
// CHECK-NOT: vector.
// CHECK: return
func.func @column_walk(%a: buffer<8x8xf32>, %out: buffer<8xf32>, %c: index) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c8 = loop.const 8 : index
  loop.for %i = %c0 to %c8 step %c1 {
    %x = loop.load %a[%i, %c] : buffer<8x8xf32>
    loop.store %x, %out[%i] : buffer<8xf32>
    loop.yield
  }
  return
}

// -----

// Reversed (c - i) and scaled (2 i) indices are not unit stride.
// CHECK-LABEL: func.func @non_affine_index(
// CHECK-NOT: vector.
// CHECK: return
func.func @non_affine_index(%a: buffer<32xf32>, %out: buffer<32xf32>) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c2 = loop.const 2 : index
  %c15 = loop.const 15 : index
  %c16 = loop.const 16 : index
  loop.for %i = %c0 to %c16 step %c1 {
    %r = loop.sub %c15, %i : index
    %x = loop.load %a[%r] : buffer<32xf32>
    loop.store %x, %out[%i] : buffer<32xf32>
    loop.yield
  }
  loop.for %i = %c0 to %c16 step %c1 {
    %d = loop.mul %i, %c2 : index
    %x = loop.load %a[%d] : buffer<32xf32>
    loop.store %x, %out[%i] : buffer<32xf32>
    loop.yield
  }
  return
}

// -----

// b[i] = b[i + 1]: a buffer stored in the loop is loaded at another index, so lanes
// would depend on each other.
// CHECK-LABEL: func.func @store_load_other_index(
// CHECK-NOT: vector.
// CHECK: return
func.func @store_load_other_index(%b: buffer<17xf32>) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c16 = loop.const 16 : index
  loop.for %i = %c0 to %c16 step %c1 {
    %j = loop.add %i, %c1 : index
    %x = loop.load %b[%j] : buffer<17xf32>
    loop.store %x, %b[%i] : buffer<17xf32>
    loop.yield
  }
  return
}

// -----

// b[i] = b[0]: a stored buffer must not be loaded uniformly either.
// CHECK-LABEL: func.func @store_load_uniform(
// CHECK-NOT: vector.
// CHECK: return
func.func @store_load_uniform(%b: buffer<16xf32>) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c16 = loop.const 16 : index
  loop.for %i = %c0 to %c16 step %c1 {
    %x = loop.load %b[%c0] : buffer<16xf32>
    loop.store %x, %b[%i] : buffer<16xf32>
    loop.yield
  }
  return
}

// -----

// A store at an invariant index (every iteration writes the same element).
// CHECK-LABEL: func.func @store_invariant(
// CHECK-NOT: vector.
// CHECK: return
func.func @store_invariant(%a: buffer<16xf32>, %out: buffer<1xf32>) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c16 = loop.const 16 : index
  loop.for %i = %c0 to %c16 step %c1 {
    %x = loop.load %a[%i] : buffer<16xf32>
    loop.store %x, %out[%c0] : buffer<1xf32>
    loop.yield
  }
  return
}

// -----

// f64 math is a runtime call, with no vector form.
// CHECK-LABEL: func.func @f64_math(
// CHECK-NOT: vector.
// CHECK: loop.exp {{%[0-9]+}} : f64
// CHECK-NOT: vector.
// CHECK: return
func.func @f64_math(%a: buffer<8xf64>, %out: buffer<8xf64>) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c8 = loop.const 8 : index
  loop.for %i = %c0 to %c8 step %c1 {
    %x = loop.load %a[%i] : buffer<8xf64>
    %e = loop.exp %x : f64
    loop.store %e, %out[%i] : buffer<8xf64>
    loop.yield
  }
  return
}

// -----

// i1 buffers are not accessed with vectors.
// CHECK-LABEL: func.func @i1_buffer(
// CHECK-NOT: vector.
// CHECK: return
func.func @i1_buffer(%a: buffer<16xi1>, %out: buffer<16xf32>) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c16 = loop.const 16 : index
  %one = loop.const 1.0 : f32
  %zero = loop.const 0.0 : f32
  loop.for %i = %c0 to %c16 step %c1 {
    %p = loop.load %a[%i] : buffer<16xi1>
    %x = loop.select %p, %one, %zero : (i1, f32, f32) -> f32
    loop.store %x, %out[%i] : buffer<16xf32>
    loop.yield
  }
  return
}

// -----

// The induction variable used as a value (not an address) would need a vector of
// lane indices.
// CHECK-LABEL: func.func @index_as_value(
// CHECK-NOT: vector.
// CHECK: loop.cast {{%arg[0-9]+}} : (index) -> f32
// CHECK-NOT: vector.
// CHECK: return
func.func @index_as_value(%out: buffer<16xf32>) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c16 = loop.const 16 : index
  loop.for %i = %c0 to %c16 step %c1 {
    %x = loop.cast %i : (index) -> f32
    loop.store %x, %out[%i] : buffer<16xf32>
    loop.yield
  }
  return
}

// -----

// A carried value that is not a reduction (acc - x).
// CHECK-LABEL: func.func @not_a_reduction(
// CHECK-NOT: vector.
// CHECK: return
func.func @not_a_reduction(%a: buffer<16xf32>) -> f32 {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c16 = loop.const 16 : index
  %zero = loop.const 0.0 : f32
  %r = loop.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    %x = loop.load %a[%i] : buffer<16xf32>
    %s = loop.sub %acc, %x : f32
    loop.yield %s : f32
  }
  return %r : f32
}

// -----

// A 64-bit integer -> float conversion (no vector form on every target).
// CHECK-LABEL: func.func @widths(
// CHECK-NOT: vector.
// CHECK: return
func.func @widths(%out: buffer<16xf64>, %ia: buffer<16xi64>) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c16 = loop.const 16 : index
  loop.for %i = %c0 to %c16 step %c1 {
    %x = loop.load %ia[%i] : buffer<16xi64>
    %d = loop.cast %x : (i64) -> f64
    loop.store %d, %out[%i] : buffer<16xf64>
    loop.yield
  }
  return
}

// -----

// f32 values compared next to f64 ones: two widths where a narrow value makes a mask
// (whose lanes would be as wide as the f32 ones) stay scalar.
// CHECK-LABEL: func.func @narrow_compare(
// CHECK-NOT: vector.
// CHECK: return
func.func @narrow_compare(%a: buffer<16xf32>, %out: buffer<16xf64>) {
  %c0 = loop.const 0 : index
  %c1 = loop.const 1 : index
  %c16 = loop.const 16 : index
  %zero = loop.const 0.0 : f32
  loop.for %i = %c0 to %c16 step %c1 {
    %x = loop.load %a[%i] : buffer<16xf32>
    %p = loop.cmp %x, %zero {pred = "gt"} : (f32, f32) -> i1
    %y = loop.select %p, %x, %zero : (i1, f32, f32) -> f32
    %w = loop.cast %y : (f32) -> f64
    loop.store %w, %out[%i] : buffer<16xf64>
    loop.yield
  }
  return
}
