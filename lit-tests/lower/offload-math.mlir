// The offload-math pass: a vector loop whose exp (or erf) value is stored runs in
// chunks of 64 elements through loop.array_math, the arguments stored where the values
// go; the original loop computes what the chunks leave. Loops that read the buffer they
// store, whose arguments read a buffer the loop stores, or whose function feeds a
// carried value without a store are left as they are; without a level that has array
// math (no `isa`, or SSE) nothing changes.
//
// RUN: %tcc-opt %s --split-input-file --pass-pipeline='offload-math{isa=avx2}' | %tcc-opt --split-input-file | FileCheck %s
// RUN: %tcc-opt %s --split-input-file --pass-pipeline='offload-math' | FileCheck %s --check-prefix=NONE
// RUN: %tcc-opt %s --split-input-file --pass-pipeline='offload-math{isa=sse}' | FileCheck %s --check-prefix=NONE
// NONE-NOT: loop.array_math

// CHECK-LABEL: func.func @stored
// CHECK: loop.for [[C:%arg[0-9]+]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: loop.for [[I:%arg[0-9]+]] = [[C]] to
// CHECK-NEXT: [[X:%[0-9]+]] = vector.load %arg0{{\[}}[[I]]] : buffer<300xf32>, vector<4xf32>
// CHECK-NEXT: [[T:%[0-9]+]] = loop.mul [[X]], [[X]] : vector<4xf32>
// CHECK-NEXT: vector.store [[T]], %arg1{{\[}}[[I]]] : buffer<300xf32>, vector<4xf32>
// CHECK: [[P:%[0-9]+]] = loop.address %arg1{{\[}}[[C]]] : buffer<300xf32>
// CHECK-NEXT: loop.array_math [[P]], %{{.*}} {fn = "exp", isa = "avx2"} : (index, index) -> ()
// CHECK: loop.for [[J:%arg[0-9]+]] = [[C]] to
// CHECK-NEXT: [[E:%[0-9]+]] = vector.load %arg1{{\[}}[[J]]] : buffer<300xf32>, vector<4xf32>
// CHECK: vector.store [[E]], %arg1{{\[}}[[J]]]
// The rest, from where the chunks end, inline.
// CHECK: loop.exp
func.func @stored(%x: buffer<300xf32>, %y: buffer<300xf32>) {
  %c0 = loop.const 0 : index
  %c4 = loop.const 4 : index
  %c300 = loop.const 300 : index
  loop.for %i = %c0 to %c300 step %c4 {
    %v = vector.load %x[%i] : buffer<300xf32>, vector<4xf32>
    %t = loop.mul %v, %v : vector<4xf32>
    %e = loop.exp %t : vector<4xf32>
    vector.store %e, %y[%i] : buffer<300xf32>, vector<4xf32>
    loop.yield
  }
  return
}

// -----

// In place: the loop reads the buffer it stores.
// CHECK-LABEL: func.func @in_place
// CHECK-NOT: loop.array_math
// CHECK: loop.erf
func.func @in_place(%y: buffer<256xf32>) {
  %c0 = loop.const 0 : index
  %c4 = loop.const 4 : index
  %c256 = loop.const 256 : index
  loop.for %i = %c0 to %c256 step %c4 {
    %v = vector.load %y[%i] : buffer<256xf32>, vector<4xf32>
    %e = loop.erf %v : vector<4xf32>
    vector.store %e, %y[%i] : buffer<256xf32>, vector<4xf32>
    loop.yield
  }
  return
}

// -----

// The argument reads a buffer the loop stores (another than the values').
// CHECK-LABEL: func.func @argument_reads_stored
// CHECK-NOT: loop.array_math
// CHECK: loop.exp
func.func @argument_reads_stored(%y: buffer<256xf32>, %z: buffer<256xf32>) {
  %c0 = loop.const 0 : index
  %c4 = loop.const 4 : index
  %c256 = loop.const 256 : index
  loop.for %i = %c0 to %c256 step %c4 {
    %v = vector.load %z[%i] : buffer<256xf32>, vector<4xf32>
    %e = loop.exp %v : vector<4xf32>
    vector.store %e, %y[%i] : buffer<256xf32>, vector<4xf32>
    %w = loop.add %v, %v : vector<4xf32>
    vector.store %w, %z[%i] : buffer<256xf32>, vector<4xf32>
    loop.yield
  }
  return
}

// -----

// Only summed, never stored: nowhere to put the values.
// CHECK-LABEL: func.func @only_summed
// CHECK-NOT: loop.array_math
// CHECK: loop.exp
func.func @only_summed(%x: buffer<256xf32>) -> vector<4xf32> {
  %c0 = loop.const 0 : index
  %c4 = loop.const 4 : index
  %c256 = loop.const 256 : index
  %zero = loop.const 0.0 : f32
  %init = vector.splat %zero : (f32) -> vector<4xf32>
  %s = loop.for %i = %c0 to %c256 step %c4 iter_args(%acc = %init) -> (vector<4xf32>) {
    %v = vector.load %x[%i] : buffer<256xf32>, vector<4xf32>
    %e = loop.exp %v : vector<4xf32>
    %a = loop.add %acc, %e : vector<4xf32>
    loop.yield %a : vector<4xf32>
  }
  return %s : vector<4xf32>
}
