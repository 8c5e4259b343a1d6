// Pass pipelines: pass order and options, MLIR-style op-anchored nesting (accepted and
// flattened), pipeline errors, --print-ir-after-all, --timing and --list-passes.
//
// No pipeline, or canonicalize with zero sweeps, leaves the IR as written:
// RUN: %tcc-opt %s | FileCheck %s --check-prefix=NOOP
// RUN: %tcc-opt %s --pass-pipeline='canonicalize{max-iterations=0}' | FileCheck %s --check-prefix=NOOP
//
// RUN: %tcc-opt %s --pass-pipeline=canonicalize | FileCheck %s --check-prefix=CANON
// RUN: %tcc-opt %s --pass-pipeline='canonicalize{max-iterations=1}' | FileCheck %s --check-prefix=CANON
// RUN: %tcc-opt %s --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s --check-prefix=CANON
// RUN: %tcc-opt %s --pass-pipeline='builtin.module(func.func(canonicalize))' | FileCheck %s --check-prefix=CANON
// RUN: %tcc-opt %s --pass-pipeline=cse | FileCheck %s --check-prefix=CSE
//
// Order matters: cse after canonicalize merges what folding made equal; before it, it
// finds nothing to merge.
// RUN: %tcc-opt %s --pass-pipeline=canonicalize,cse | FileCheck %s --check-prefix=BOTH
// RUN: %tcc-opt %s --pass-pipeline=' canonicalize , cse ' | FileCheck %s --check-prefix=BOTH
// RUN: %tcc-opt %s --pass-pipeline='builtin.module(func.func(canonicalize), cse)' | FileCheck %s --check-prefix=BOTH
// RUN: %tcc-opt %s --pass-pipeline='cse,canonicalize' | FileCheck %s --check-prefix=CANON
//
// --print-ir-after-all dumps to stderr after each pass; stdout holds only the result.
// RUN: %tcc-opt %s --pass-pipeline=canonicalize,cse --print-ir-after-all -o %t.mlir 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: FileCheck %s --check-prefix=BOTH --input-file %t.mlir
// RUN: %tcc-opt %s --pass-pipeline=canonicalize --print-ir-after-all 2>%t.stderr | FileCheck %s --check-prefix=CANON
// RUN: FileCheck %s --check-prefix=DUMP-CANON --input-file %t.stderr
//
// --timing reports each step on stderr (the verifier runs after each pass when asked).
// RUN: %tcc-opt %s --pass-pipeline=canonicalize,cse --timing --verify-each=true -o %t.timing.mlir 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: %tcc-opt %s --pass-pipeline=canonicalize,cse --timing --verify-each=false -o %t.timing.mlir 2>&1 | FileCheck %s --check-prefix=TIMING-NOVERIFY
// RUN: FileCheck %s --check-prefix=BOTH --input-file %t.timing.mlir
//
// Pipeline errors are reported before the input is read, with a non-zero exit.
// RUN: not %tcc-opt %s --pass-pipeline=bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %tcc-opt %t.does-not-exist.mlir --pass-pipeline=canonicalize,bogus 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %tcc-opt %s --pass-pipeline='builtin.module(bogus)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %tcc-opt %s --pass-pipeline='canonicalize{foo=1}' 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not %tcc-opt %s --pass-pipeline='cse{max-iterations=1}' 2>&1 | FileCheck %s --check-prefix=CSEOPT
// RUN: not %tcc-opt %s --pass-pipeline='canonicalize{max-iterations=many}' 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: not %tcc-opt %s --pass-pipeline='canonicalize{max-iterations}' 2>&1 | FileCheck %s --check-prefix=NOVALUE
// RUN: not %tcc-opt %s --pass-pipeline='canonicalize{max-iterations=1' 2>&1 | FileCheck %s --check-prefix=UNTERMINATED
// RUN: not %tcc-opt %s --pass-pipeline='builtin.module(canonicalize' 2>&1 | FileCheck %s --check-prefix=UNCLOSED
// RUN: not %tcc-opt %s --pass-pipeline='canonicalize)' 2>&1 | FileCheck %s --check-prefix=STRAY
// RUN: not %tcc-opt %s --pass-pipeline='canonicalize,,cse' 2>&1 | FileCheck %s --check-prefix=EMPTY
//
// RUN: %tcc-opt --list-passes | FileCheck %s --check-prefix=LIST

func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %one = graph.constant {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %two = graph.constant {value = dense<2.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %sum = graph.add %one, %one : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %0 = graph.mul %x, %one : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = graph.relu %0 : (tensor<4xf32>) -> tensor<4xf32>
  %2 = graph.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %3 = graph.mul %1, %sum : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = graph.mul %2, %two : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %dead = graph.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  return %3, %4 : tensor<4xf32>, tensor<4xf32>
}

// NOOP-LABEL: func.func @main(%arg0: tensor<4xf32>)
// NOOP-NEXT: %0 = graph.constant {value = dense<1.0> : tensor<4xf32>}
// NOOP-NEXT: %1 = graph.constant {value = dense<2.0> : tensor<4xf32>}
// NOOP-NEXT: %2 = graph.add %0, %0
// NOOP-NEXT: %3 = graph.mul %arg0, %0
// NOOP-NEXT: %4 = graph.relu %3
// NOOP-NEXT: %5 = graph.relu %arg0
// NOOP-NEXT: %6 = graph.mul %4, %2
// NOOP-NEXT: %7 = graph.mul %5, %1
// NOOP-NEXT: %8 = graph.exp %arg0
// NOOP-NEXT: return %6, %7

// Folded constant, x * 1 gone, dead exp gone, the uniform constants one value each
// (broadcast by the muls); the two relus and constants still apart.
// CANON-NOT: IR Dump
// CANON-LABEL: func.func @main(%arg0: tensor<4xf32>)
// CANON-NEXT: %0 = graph.relu %arg0
// CANON-NEXT: %1 = graph.relu %arg0
// CANON-NEXT: %2 = graph.constant {value = dense<2.0> : tensor<1xf32>}
// CANON-NEXT: %3 = graph.mul %0, %2
// CANON-NEXT: %4 = graph.constant {value = dense<2.0> : tensor<1xf32>}
// CANON-NEXT: %5 = graph.mul %1, %4
// CANON-NEXT: return %3, %5
// CANON-NOT: IR Dump

// CSE-LABEL: func.func @main(%arg0: tensor<4xf32>)
// CSE-NEXT: %0 = graph.constant {value = dense<1.0> : tensor<4xf32>}
// CSE-NEXT: %1 = graph.constant {value = dense<2.0> : tensor<4xf32>}
// CSE-NEXT: %2 = graph.add %0, %0
// CSE-NEXT: %3 = graph.mul %arg0, %0
// CSE-NEXT: %4 = graph.relu %3
// CSE-NEXT: %5 = graph.relu %arg0
// CSE-NEXT: %6 = graph.mul %4, %2
// CSE-NEXT: %7 = graph.mul %5, %1
// CSE-NEXT: %8 = graph.exp %arg0
// CSE-NEXT: return %6, %7

// BOTH-LABEL: func.func @main(%arg0: tensor<4xf32>)
// BOTH-NEXT: %0 = graph.relu %arg0 : (tensor<4xf32>) -> tensor<4xf32>
// BOTH-NEXT: %1 = graph.constant {value = dense<2.0> : tensor<1xf32>} : () -> tensor<1xf32>
// BOTH-NEXT: %2 = graph.mul %0, %1 : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
// BOTH-NEXT: return %2, %2 : tensor<4xf32>, tensor<4xf32>
// BOTH-NEXT: }
// BOTH-NEXT: }

// DUMP: // -----// IR Dump After canonicalize //----- //
// DUMP-NEXT: module {
// DUMP-NEXT: func.func @main(%arg0: tensor<4xf32>)
// DUMP-NEXT: %0 = graph.relu %arg0
// DUMP-NEXT: %1 = graph.relu %arg0
// DUMP: // -----// IR Dump After cse //----- //
// DUMP-NEXT: module {
// DUMP-NEXT: func.func @main(%arg0: tensor<4xf32>)
// DUMP-NEXT: %0 = graph.relu %arg0
// DUMP-NEXT: %1 = graph.constant {value = dense<2.0> : tensor<1xf32>}
// DUMP-NOT: IR Dump

// DUMP-CANON: // -----// IR Dump After canonicalize //----- //
// DUMP-CANON-NEXT: module {
// DUMP-CANON-NOT: IR Dump

// TIMING: ... Execution time report ...
// TIMING: Total Execution Time: {{[0-9]+\.[0-9]+}} seconds
// TIMING: ----Wall Time----  ----Name----
// TIMING-NEXT: {{[0-9]+\.[0-9]+ +\( *[0-9]+\.[0-9]%\)}}  parse
// TIMING-NEXT: {{[0-9]+\.[0-9]+ +\( *[0-9]+\.[0-9]%\)}}  verify
// TIMING-NEXT: {{[0-9]+\.[0-9]+ +\( *[0-9]+\.[0-9]%\)}}  canonicalize
// TIMING-NEXT: {{[0-9]+\.[0-9]+ +\( *[0-9]+\.[0-9]%\)}}  (verifier)
// TIMING-NEXT: {{[0-9]+\.[0-9]+ +\( *[0-9]+\.[0-9]%\)}}  cse
// TIMING-NEXT: {{[0-9]+\.[0-9]+ +\( *[0-9]+\.[0-9]%\)}}  (verifier)
// TIMING-NEXT: {{[0-9]+\.[0-9]+ +\( *[0-9]+\.[0-9]%\)}}  print
// TIMING-NEXT: {{[0-9]+\.[0-9]+}} (100.0%)  Total

// TIMING-NOVERIFY: ----Wall Time----  ----Name----
// TIMING-NOVERIFY-NEXT: parse
// TIMING-NOVERIFY-NEXT: verify
// TIMING-NOVERIFY-NEXT: canonicalize
// TIMING-NOVERIFY-NEXT: cse
// TIMING-NOVERIFY-NEXT: print
// TIMING-NOVERIFY-NEXT: Total

// UNKNOWN: tcc-opt: error: unknown pass 'bogus' (known passes: block-layouts, canonicalize, configure-kernels, convert-graph-to-loop, convert-tosa-to-graph, cse, expand-half, expand-math, fuse-epilogues, fuse-memory-bound, materialize-padding, narrow-outputs, offload-math, propagate-layouts, reduce-precision, rewrite-search, vectorize, widen-half, winograd-convolutions)
// UNKNOWN-NOT: module
// BADOPT: tcc-opt: error: pass 'canonicalize' has no option 'foo'
// CSEOPT: tcc-opt: error: pass 'cse' has no option 'max-iterations'
// BADVALUE: tcc-opt: error: pass 'canonicalize': invalid value 'many' for option 'max-iterations'
// NOVALUE: tcc-opt: error: pass option 'max-iterations' must be key=value
// UNTERMINATED: tcc-opt: error: unterminated '{' in pass options
// UNCLOSED: tcc-opt: error: expected ')' to close 'builtin.module(' in pass pipeline
// STRAY: tcc-opt: error: unexpected ')' in pass pipeline at offset 12
// EMPTY: tcc-opt: error: expected a pass name at offset 13

// LIST: {{^}}block-layouts {{ *}}Convert convolutions, pools and constant-weight matmuls to blocked kernel ops
// LIST-NEXT: {{^}}    vector-bits: SIMD register width in bits (default 128)
// LIST-NEXT: {{^}}    vector-registers: number of SIMD registers (default 16)
// LIST-NEXT: {{^}}    fma:
// LIST-NEXT: {{^}}    ldexp:
// LIST-NEXT: {{^}}    cores:
// LIST-NEXT: {{^}}    l1:
// LIST-NEXT: {{^}}    l2:
// LIST-NEXT: {{^}}    prefetch:
// LIST-NEXT: {{^}}    ukernels: ISA level of the microkernels the code calls: avx512, avx2, sse or none (default none)
// LIST-NEXT: {{^}}    bf16-dot: bf16 matmuls call the AVX-512 bf16 dot microkernel (default false)
// LIST-NEXT: {{^}}    amx-bf16: the bf16 dot microkernel runs on AMX tiles (default false)
// LIST-NEXT: {{^}}canonicalize {{ *}}Remove dead ops and apply each op's canonicalization patterns to a fixed point
// LIST-NEXT: {{^}}    max-iterations: sweeps over the IR before stopping (default 10)
// LIST-NEXT: {{^}}configure-kernels {{ *}}Give every kernel op without a `config` its configuration: tuned, else the I/O bound's optimum or the analytic default for the target
// LIST-NEXT: {{^}}    io-bound: untuned kernels the I/O bound ranks take its optimum; false: the analytic default (default true)
// LIST-NEXT: {{^}}    threads: threads the code will run on (default: the target's cores)
// LIST-NEXT: {{^}}    vector-bits: SIMD register width in bits (default 128)
// LIST:      {{^}}convert-graph-to-loop {{ *}}Lower the graph dialect to loop nests
// LIST-NEXT: {{^}}    profile: insert loop.kernel markers for the profiler (default false)
// LIST-NEXT: {{^}}    vector-bits: SIMD register width the kernel templates use (default 128)
// LIST-NEXT: {{^}}convert-tosa-to-graph {{ *}}Import TOSA and arith.constant ops into the graph dialect
// LIST-NEXT: {{^}}cse {{ *}}Merge identical pure operations
// LIST-NEXT: {{^}}expand-half {{ *}}Expand the f16/bf16 <-> f32 conversions into integer loop arithmetic
// LIST-NEXT: {{^}}expand-math {{ *}}Expand the f32 transcendental functions
// LIST-NEXT: {{^}}    ldexp: scale f32 vectors by 2^n with loop.ldexp
// LIST-NEXT: {{^}}fuse-epilogues {{ *}}Fuse elementwise consumers of kernel ops
// LIST-NEXT: {{^}}fuse-memory-bound {{ *}}Stitch memory-bound ops into fusion groups
// LIST-NEXT: {{^}}materialize-padding {{ *}}Move the padding of convolutions configured with `pad_input`
// LIST-NEXT: {{^}}narrow-outputs {{ *}}Store the results of bf16 dot kernels (and depthwise convolutions) read only as bf16 rounded
// LIST-NEXT: {{^}}    depthwise: narrow depthwise convolutions' results too
// LIST-NEXT: {{^}}offload-math {{ *}}Compute vector loops' exp and erf with the runtime's array math
// LIST-NEXT: {{^}}    isa: the ISA level: avx512 or avx2
// LIST-NEXT: {{^}}propagate-layouts {{ *}}Move NCHW[x]c -> NCHW transforms past layout-oblivious ops
// LIST-NEXT: {{^}}reduce-precision {{ *}}Round the inputs and weights of f32 convolutions and matmuls to bf16
// LIST-NEXT: {{^}}rewrite-search {{ *}}Applies the search rules where the cost model says they pay
// LIST-NEXT: {{^}}    mode: off, greedy, taso or eqsat (default taso)
// LIST:      {{^}}vectorize {{ *}}Turn innermost unit-stride loops into vector loops
// LIST-NEXT: {{^}}    vector-bits: SIMD register width in bits (default 128)
// LIST-NEXT: {{^}}    unroll-iterations: vector loops with constant bounds of at most this many iterations are emitted without a loop (default 4)
// LIST-NEXT: {{^}}widen-half {{ *}}Compute every f16 and bf16 graph op in f32 between casts
// LIST-NEXT: {{^}}winograd-convolutions {{ *}}Rewrite stride-1 3x3 convolutions as Winograd F(m x m, 3 x 3) transforms
// LIST-NEXT: {{^}}    tile: the output tile: 2x2 or 4x4 (default 4x4)
// LIST-NEXT: {{^}}    all: rewrite every eligible convolution, not only those where it pays (default false)
