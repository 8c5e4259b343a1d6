// `tcc bench --plot` draws the profile as a picture (an SVG file): a roofline of the
// compute kernels, the memory-bound kernels against each level's bandwidth, and time
// per kernel, the slowest numbered in all three (10 runs: with 2, one slow run of a
// layout transform once made it the slowest; which kernel is slowest is not checked:
// in some processes one small copy before a stride-2 convolution, a pad or a layout
// transform, takes 20-50 us in every run). (The pictures were checked by eye, rendered
// to PNG; this checks their parts are there.)

// RUN: rm -f %t.svg
// RUN: %tcc bench %S/../../../benchmarks/models/small/resnet18.mlir --runs 10 --warmup 3 --threads 1 --plot %t.svg | FileCheck %s --check-prefix=TABLE
// TABLE: latency   median
// RUN: FileCheck %s --check-prefix=SVG --input-file %t.svg
// SVG: <svg width="1100"
// SVG: resnet18.mlir: cranelift, 1 thread(s), {{[0-9.]+}} ms median
// SVG: Compute kernels (conv, matmul): roofline
// SVG: FLOPs per byte of compulsory traffic
// SVG: FMA peak {{[0-9]+}} GFLOP/s
// SVG: memory {{[0-9]+}} GB/s
// SVG: #1
// SVG: Memory-bound kernels: bandwidth of compulsory traffic
// SVG: L1 {{[0-9]+}} GB/s
// SVG: Time per kernel ({{[0-9.]+}} ms per run in all)
// SVG: #1  graph.{{[a-z0-9_]+}} at resnet18.mlir:
// SVG: </svg>

// A file that cannot be written is an error before the benchmark (no table), not a panic.
// RUN: not %tcc bench %S/../../../benchmarks/models/small/resnet18.mlir --runs 1 --warmup 0 --plot %t.no-such-dir/x.svg > %t.nowrite.out 2>&1
// RUN: FileCheck %s --check-prefix=NOWRITE --input-file %t.nowrite.out
// NOWRITE-NOT: latency
// NOWRITE: tcc: error: cannot write '{{.*}}x.svg': No such file or directory
// NOWRITE-NOT: latency
