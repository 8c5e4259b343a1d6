// The compilation levels added with the AOT path: vectorized loops, objects and their
// headers, Graphviz pictures, the runtime library, and bench.

// RUN: %tcc %s --emit=vector | FileCheck %s --check-prefix=VECTOR
// VECTOR: func.func @main(%arg0: buffer<2x30xf32>, %arg1: buffer<30xf32>, %arg2: buffer<2x30xf32>)
// The four ops are one fusion group: no intermediate tensor, no workspace.
// VECTOR-SAME: tcc.workspace_size = 0
// VECTOR: vector.load %{{.*}} : buffer<2x30xf32>, vector<4xf32>
// VECTOR: loop.fma %{{.*}} : vector<4xf32>
// VECTOR: vector.store
// The scalar remainder loop follows the vector loop.
// VECTOR: loop.for
// VECTOR: loop.fma %{{.*}} : f32
// VECTOR-NOT: loop.exp
// VECTOR-NOT: loop.tanh
// RUN: %tcc %s --emit=vector | %tcc-opt | FileCheck %s --check-prefix=VECTOR

// The lowered loops before vectorization keep the math ops and scalar code only.
// RUN: %tcc %s --emit=loop | FileCheck %s --check-prefix=LOOP
// LOOP-NOT: vector.
// LOOP: loop.tanh %{{.*}} : f32

// Without -o the object and header are the model file's stem, .o and .h, and the
// model's C name is that stem made into a C identifier.
// RUN: rm -rf %t.obj && mkdir -p %t.obj && cd %t.obj && %tcc %s --emit=obj
// RUN: FileCheck %s --check-prefix=HEADER --input-file %t.obj/emit-levels.h
// RUN: test -s %t.obj/emit-levels.o
// HEADER: input 0: f32 [2, 30]
// HEADER: output 0: f32 [2, 30]
// HEADER: #define EMIT_LEVELS_NUM_INPUTS  2
// HEADER: #define EMIT_LEVELS_NUM_OUTPUTS 1
// HEADER: static const int64_t emit_levels_input_numel[EMIT_LEVELS_NUM_INPUTS] = {60, 30};
// HEADER: static const int64_t emit_levels_input_dims_1[1] = {30};
// HEADER: int emit_levels_run(const float *const *inputs, float *const *outputs);
// HEADER: int emit_levels_run_threads(const float *const *inputs, float *const *outputs, int threads);
// HEADER: static inline const char *emit_levels_error_message(int code)

// With -o NAME.o the output's name names the model: header NAME.h, functions NAME_run.
// RUN: %tcc %s --emit=obj -o %t.obj/classifier.o
// RUN: FileCheck %s --check-prefix=FROMOUT --input-file %t.obj/classifier.h
// FROMOUT: #define CLASSIFIER_NUM_INPUTS  2
// FROMOUT: int classifier_run(const float *const *inputs, float *const *outputs);

// --name sets the C name; two names give disjoint exported symbols.
// RUN: %tcc %s --emit=obj --name first -o %t.first.o
// RUN: FileCheck %s --check-prefix=NAMED --input-file %t.first.h
// NAMED: #define FIRST_NUM_INPUTS  2
// NAMED: int first_run(
// RUN: not %tcc %s --emit=obj --name 2bad -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=BADNAME
// BADNAME: tcc: error: --name '2bad' is not a C identifier
// RUN: not %tcc %s --emit=obj -o - 2>&1 | FileCheck %s --check-prefix=OBJSTDOUT
// OBJSTDOUT: --emit=obj writes a file; give it with -o OUT.o
// RUN: not %tcc %s --emit=obj -o %t.no-such-dir/x.o 2>&1 | FileCheck %s --check-prefix=OBJNOWRITE
// OBJNOWRITE: tcc: error: cannot write '{{.*}}x.o'

// A static library holds the model and the runtime; its header is NAME.h for libNAME.a.
// RUN: rm -rf %t.lib && mkdir -p %t.lib
// RUN: %tcc %s --emit=staticlib -o %t.lib/libmine.a
// RUN: FileCheck %s --check-prefix=LIBHEADER --input-file %t.lib/mine.h
// LIBHEADER: (a library from `tcc --emit=staticlib` holds it: cc main.c libmine.a -lpthread -lm)
// LIBHEADER: int mine_run(
// RUN: not %tcc %s --emit=staticlib -o - 2>&1 | FileCheck %s --check-prefix=LIBSTDOUT
// LIBSTDOUT: tcc: error: --emit=staticlib writes a file; give it with -o libNAME.a

// Other element types compile too; the header's typed entry point takes their C types.
// RUN: echo 'func.func @main(%%x: tensor<2xi32>) -> tensor<2xi32> { return %%x : tensor<2xi32> }' > %t.i32.mlir
// RUN: rm -rf %t.cabi && mkdir -p %t.cabi && %tcc %t.i32.mlir --emit=obj -o %t.cabi/ints.o
// RUN: FileCheck %s --check-prefix=CABI --input-file %t.cabi/ints.h
// CABI: static inline int ints_run_typed(const int32_t *input0, int32_t *output0) {

// RUN: %tcc %s --emit=dot | FileCheck %s --check-prefix=DOT
// DOT: digraph model {
// DOT-DAG: in0 [shape=ellipse, label="input 0\ntensor<2x30xf32>"];
// DOT-DAG: label="tanh\ntensor<2x30xf32>"
// DOT-DAG: label="clamp\nmax=1.0 min=-1.0\ntensor<2x30xf32>"
// DOT-DAG: out0 [shape=ellipse, label="output 0\ntensor<2x30xf32>"];
// The four ops are one fusion group, drawn as a cluster.
// DOT-DAG: subgraph cluster_op0 {
// DOT-DAG: label="fused group"
// DOT: }

// RUN: %tcc --print-runtime-lib | FileCheck %s --check-prefix=RTLIB
// RTLIB: {{^/.*libtcc_runtime.*\.a$}}

// RUN: %tcc --print-target | FileCheck %s --check-prefix=TARGET
// TARGET: cranelift (host): 128-bit vectors x 16 registers, {{(no )?}}FMA, {{[0-9]+}} core

// RUN: %tcc bench %s --runs 3 --warmup 1 --threads 1 | FileCheck %s --check-prefix=BENCH
// BENCH: backend   cranelift, 1 thread(s)
// BENCH-NEXT: target    cranelift (host): 128-bit vectors x 16 registers, {{(no )?}}FMA, {{[0-9]+}} core
// BENCH: latency   median
// BENCH: peak      {{[0-9.]+}} GFLOP/s per core with {{128|256|512}}-bit FMA
// BENCH: bandwidth L1 {{[0-9]+}}, L2 {{[0-9]+}}, L3 {{[0-9]+}}, memory {{[0-9]+}} GB/s read
// BENCH: share    ms/run  GFLOP/s  % peak    GB/s  % bw (level)  kernel
// One row for the fusion group, naming its ops, with its share of the bandwidth of the
// level its data fits in.
// BENCH: {{[0-9.]+}}% (L1)    graph.fused(tanh, mul, add, clamp) at
// RUN: %tcc bench %s --runs 2 --json | FileCheck %s --check-prefix=JSON
// JSON: {"model": "{{.*}}emit-levels.mlir", "backend": "cranelift", "target": "cranelift (host): 128-bit vectors{{.*}}"kernels": [{"name": "graph.
// RUN: not %tcc bench %s --runs 0 2>&1 | FileCheck %s --check-prefix=ZERORUNS
// ZERORUNS: error: invalid value '0' for '--runs <RUNS>'

func.func @main(%x: tensor<2x30xf32>, %b: tensor<30xf32>) -> tensor<2x30xf32> {
  %t = graph.tanh %x : (tensor<2x30xf32>) -> tensor<2x30xf32>
  %m = graph.mul %t, %x : (tensor<2x30xf32>, tensor<2x30xf32>) -> tensor<2x30xf32>
  %a = graph.add %m, %b : (tensor<2x30xf32>, tensor<30xf32>) -> tensor<2x30xf32>
  %c = graph.clamp %a {min = -1.0, max = 1.0} : (tensor<2x30xf32>) -> tensor<2x30xf32>
  return %c : tensor<2x30xf32>
}
