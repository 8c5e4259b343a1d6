// The tcc driver's --emit: the model after each compilation level.
//
// graph: the optimized graph (canonicalize, cse): x * 1 is gone. (Without --emit,
// tcc prints a summary of the model: summary.mlir.)
// RUN: %tcc %s --emit=graph | FileCheck %s --check-prefix=GRAPH
//
// loop: lowered, vectorized for 128-bit vectors and with f32 math expanded; the
// printed IR is valid and parses back.
// RUN: %tcc %s --emit=vector | FileCheck %s --check-prefix=LOOP
// RUN: %tcc %s --emit=loop | FileCheck %s --check-prefix=NAIVE
// RUN: %tcc %s --emit=vector | %tcc-opt | FileCheck %s --check-prefix=LOOP
//
// clif: Cranelift IR with 4 x f32 vectors and fused multiply-adds.
// RUN: %tcc %s --emit=clif | FileCheck %s --check-prefix=CLIF
//
// asm: x86-64 machine code using vector FMA on xmm registers (Cranelift targets the
// host, so this expects an x86-64 host with FMA).
// RUN: %tcc %s --emit=asm | FileCheck %s --check-prefix=ASM
//
// -o writes the file and nothing to stdout; `-o -` is stdout.
// RUN: %tcc %s --emit=vector -o %t.loop.mlir > %t.stdout
// RUN: FileCheck %s --check-prefix=LOOP --input-file %t.loop.mlir
// RUN: FileCheck %s --check-prefix=EMPTY --allow-empty --input-file %t.stdout
// RUN: %tcc %s --emit=clif --output %t.clif
// RUN: FileCheck %s --check-prefix=CLIF --input-file %t.clif
// RUN: %tcc %s --emit=graph -o - | FileCheck %s --check-prefix=GRAPH
// RUN: not %tcc %s --emit=loop -o %t.missing-dir/out.mlir 2>&1 | FileCheck %s --check-prefix=NOWRITE
//
// Usage errors: an unknown --emit value, no model at all.
// RUN: not %tcc %s --emit=llvm-ir 2>&1 | FileCheck %s --check-prefix=BADEMIT
// RUN: not %tcc 2>&1 | FileCheck %s --check-prefix=NOMODEL
//
// A missing model file, and a model that does not parse (located diagnostic).
// RUN: not %tcc %t.does-not-exist.mlir --emit=loop 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: echo "func.func @main() {" > %t.bad.mlir
// RUN: not %tcc %t.bad.mlir --emit=graph 2>&1 | FileCheck %s --check-prefix=BADMODEL
//
// bf16 at the model's interface: its bits in C (`uint16_t`; compilers disagree on
// `__bf16`).
// RUN: echo 'func.func @main(%%x: tensor<2xbf16>) -> tensor<2xbf16> { return %%x : tensor<2xbf16> }' > %t.bf16.mlir
// RUN: %tcc %t.bf16.mlir --emit=obj -o %t.bf16.o
// RUN: FileCheck %s --check-prefix=BF16 --input-file %t.bf16.h
//
// RUN: not %tcc %s --emit=asm --backend bogus 2>&1 | FileCheck %s --check-prefix=BADBACKEND

// (The matmul broadcasts its right operand over a batch of two, so no kernel
// template takes it: this shows the naive nests and the vectorizer.)
func.func @main(%a: tensor<2x4x8xf32>, %b: tensor<8x16xf32>) -> tensor<2x4x16xf32> {
  %one = graph.constant {value = dense<1.0> : tensor<16xf32>} : () -> tensor<16xf32>
  %0 = graph.matmul %a, %b : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  %1 = graph.mul %0, %one : (tensor<2x4x16xf32>, tensor<16xf32>) -> tensor<2x4x16xf32>
  %2 = graph.sigmoid %1 : (tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return %2 : tensor<2x4x16xf32>
}

// GRAPH: module {
// GRAPH-NEXT: func.func @main(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x16xf32>) -> tensor<2x4x16xf32> {
// GRAPH-NEXT: %0 = graph.matmul %arg0, %arg1 : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
// GRAPH-NEXT: %1 = graph.sigmoid %0 : (tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
// GRAPH-NEXT: return %1 : tensor<2x4x16xf32>
// GRAPH-NEXT: }
// GRAPH-NEXT: }

// Before vectorization: scalar loops, math not yet expanded.
// NAIVE: func.func @main(%arg0: buffer<2x4x8xf32>, %arg1: buffer<8x16xf32>, %arg2: buffer<2x4x16xf32>)
// NAIVE-NOT: vector.
// NAIVE: loop.fma {{.*}} : f32
// NAIVE: loop.exp {{.*}} : f32

// LOOP: func.func @main(%arg0: buffer<2x4x8xf32>, %arg1: buffer<8x16xf32>, %arg2: buffer<2x4x16xf32>) attributes {tcc.num_inputs = 2, tcc.workspace_size = 512} {
// LOOP-NOT: graph.
// LOOP: [[WS:%[0-9]+]] = loop.workspace {offset = 0} : () -> buffer<2x4x16xf32>
// LOOP: vector.load %arg1{{\[}}{{.*}}] : buffer<8x16xf32>, vector<4xf32>
// LOOP: loop.fma {{.*}} : vector<4xf32>
// LOOP: vector.store {{%[0-9]+}}, [[WS]]
// LOOP-NOT: loop.exp
// LOOP: loop.round {{%[0-9]+}} : vector<4xf32>
// LOOP-NOT: loop.exp
// LOOP: vector.store {{%[0-9]+}}, %arg2{{\[}}
// LOOP-NOT: loop.exp
// LOOP: return

// CLIF: ; tcc_model_main
// CLIF-NEXT: function {{.*}}(i64, i64, i64, i64)
// CLIF: [[S:v[0-9]+]] = splat.f32x4 v{{[0-9]+}}{{$}}
// CLIF: [[B:v[0-9]+]] = load.f32x4 notrap
// CLIF: [[ACC:v[0-9]+]] = load.f32x4 notrap
// CLIF-NEXT: [[R:v[0-9]+]] = fma [[S]], [[B]], [[ACC]]
// CLIF: store notrap [[R]], v{{[0-9]+}}

// ASM: tcc_model_main:
// ASM: vfmadd{{[0-9]+}}ps {{.*}}%xmm{{[0-9]+}}
// ASM: ret

// EMPTY-NOT: {{.}}
// NOWRITE: tcc: error: cannot write '{{.*}}missing-dir{{[/\\]}}out.mlir': {{.+}}
// BADEMIT: error: invalid value 'llvm-ir' for '--emit <EMIT>'
// BADEMIT: [possible values: graph, loop, vector, clif, llvm, asm, obj, staticlib, dot]
// NOMODEL: tcc: error: no model given (see `tcc --help`)
// MISSING: tcc: error: cannot read '{{.*}}does-not-exist.mlir': {{.+}}
// BADMODEL: bad.mlir:2:1: error: {{.+}}
// BF16: input 0: bf16 [2]
// BF16: static inline int {{.*}}_run_typed(const uint16_t *input0, uint16_t *output0)
// BADBACKEND: error: invalid value 'bogus' for '--backend <BACKEND>': unknown backend 'bogus' (expected cranelift or llvm)
