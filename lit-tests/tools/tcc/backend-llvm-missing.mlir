// Without `--features llvm`, asking for the LLVM backend is a clear error.
// UNSUPPORTED: llvm
// RUN: %tcc --print-backends | FileCheck %s --check-prefix=BACKENDS
// BACKENDS: cranelift
// BACKENDS-NOT: llvm
// RUN: not %tcc run %s --backend llvm 2>&1 | FileCheck %s
// RUN: not %tcc %s --emit=llvm 2>&1 | FileCheck %s
// RUN: not %tcc --print-target --backend llvm 2>&1 | FileCheck %s
// CHECK: error: the LLVM backend was not compiled in (build tcc with `--features llvm`, see the README)

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
