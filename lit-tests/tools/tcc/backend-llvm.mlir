// The LLVM backend: the same model through LLVM 22 with the host's vector width.
// REQUIRES: llvm

// RUN: %tcc --print-backends | FileCheck %s --check-prefix=BACKENDS
// BACKENDS: cranelift
// BACKENDS-NEXT: llvm

// The target description: the named CPU's vector width, registers and FMA.
// RUN: %tcc --print-target --backend llvm --cpu x86-64-v4 | FileCheck %s --check-prefix=TARGET-V4
// TARGET-V4: llvm ({{.*}}x86-64-v4): 512-bit vectors x 32 registers, FMA, {{[0-9]+}} core
// RUN: %tcc --print-target --backend llvm --cpu x86-64-v2 | FileCheck %s --check-prefix=TARGET-V2
// TARGET-V2: llvm ({{.*}}x86-64-v2): 128-bit vectors x 16 registers, no FMA, {{[0-9]+}} core
// RUN: not %tcc --print-target --backend llvm --cpu pentium 2>&1 | FileCheck %s --check-prefix=BAD-CPU
// BAD-CPU: error: {{.*}}CPU 'pentium' (known: native, x86-64,

// The lowering takes its vector width from the backend: 16 f32 lanes with AVX-512
// (`--cpu x86-64-v4` pins it, so the test does not depend on the host).
// RUN: %tcc %s --backend llvm --cpu x86-64-v4 --emit=vector | FileCheck %s --check-prefix=VECTOR
// VECTOR: vector<16xf32>
// RUN: %tcc %s --backend llvm --cpu x86-64-v3 --emit=vector | FileCheck %s --check-prefix=AVX2
// AVX2: vector<8xf32>
// AVX2-NOT: vector<16xf32>

// LLVM IR of the optimized module: every function carries the CPU; weights are
// declared, not listed (the object file has them). The 36x36 matmul weight is packed
// in panels of 16 columns, 36 x 48 floats.
// RUN: %tcc %s --emit=llvm --cpu x86-64-v4 | FileCheck %s --check-prefix=IR
// IR: @tcc_model_const_{{[0-9]+}} = external {{.*}}constant [6912 x i8], align 64
// IR: define {{.*}}void @tcc_model_main(ptr
// IR: attributes #0 = { {{.*}}"min-legal-vector-width"="512" {{.*}}"target-cpu"="x86-64-v4"

// Assembly of the conv and matmul kernels: 512-bit FMAs on zmm registers.
// RUN: %tcc %s --backend llvm --cpu x86-64-v4 --emit=asm | FileCheck %s --check-prefix=ASM
// ASM: tcc_model_main:
// ASM: vfmadd{{[0-9]+}}ps {{.*}}%zmm

// Run a real model (ResNet-18, reduced width, from torch-mlir) on 1 and 2 threads and
// compare with PyTorch.
// RUN: %tcc run %S/../../../benchmarks/models/small/resnet18.mlir --backend llvm -i %S/../../../benchmarks/models/small/resnet18.in0.npy -e %S/../../../benchmarks/models/small/resnet18.out0.npy | FileCheck %s --check-prefix=RESNET
// RUN: %tcc run %S/../../../benchmarks/models/small/resnet18.mlir --backend llvm --threads 2 -i %S/../../../benchmarks/models/small/resnet18.in0.npy -e %S/../../../benchmarks/models/small/resnet18.out0.npy | FileCheck %s --check-prefix=RESNET
// RESNET: output #0: max error {{.*}}: ok

// An object with the same C interface as Cranelift's.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %tcc %s --backend llvm --emit=obj -o %t.dir/backend_llvm.o
// RUN: FileCheck %s --check-prefix=HEADER --input-file %t.dir/backend_llvm.h
// HEADER: int backend_llvm_run(const float *const *inputs, float *const *outputs);

// Errors: an unknown CPU, a non-x86 target, running code for another machine, and
// Cranelift IR from the LLVM backend.
// RUN: not %tcc %s --backend llvm --cpu pentium9 --emit=asm 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: error: code generation does not support CPU 'pentium9' (known: native, x86-64,
// RUN: not %tcc %s --backend llvm --target aarch64-unknown-linux-gnu --emit=asm 2>&1 | FileCheck %s --check-prefix=ARCH
// ARCH: target 'aarch64-unknown-linux-gnu': tcc generates x86-64 code only
// RUN: not %tcc run %s --backend llvm --cpu znver4 2>&1 | FileCheck %s --check-prefix=JIT
// JIT: error: code generation does not support running code for {{.*}} (znver4) on this machine: --cpu/--target are for --emit=obj|asm|llvm
// RUN: not %tcc %s --backend llvm --emit=clif 2>&1 | FileCheck %s --check-prefix=CLIF
// CLIF: tcc: error: --emit=clif shows Cranelift IR; with --backend llvm use --emit=llvm
// RUN: not %tcc %s --cpu znver4 --emit=asm 2>&1 | FileCheck %s --check-prefix=NOLLVM
// NOLLVM: --cpu and --target choose what LLVM generates code for; add --backend llvm

func.func @main(%x: tensor<1x4x6x6xf32>) -> tensor<1x8x6x6xf32> {
  %w = graph.constant {value = dense<0.25> : tensor<8x4x3x3xf32>} : () -> tensor<8x4x3x3xf32>
  %y = graph.conv2d %x, %w {pads = [1, 1, 1, 1]} : (tensor<1x4x6x6xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  %r = graph.reshape %y {shape = [8, 36]} : (tensor<1x8x6x6xf32>) -> tensor<8x36xf32>
  %m = graph.constant {value = dense<0.5> : tensor<36x36xf32>} : () -> tensor<36x36xf32>
  %p = graph.matmul %r, %m : (tensor<8x36xf32>, tensor<36x36xf32>) -> tensor<8x36xf32>
  %q = graph.reshape %p {shape = [1, 8, 6, 6]} : (tensor<8x36xf32>) -> tensor<1x8x6x6xf32>
  %s = graph.relu %q : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %s : tensor<1x8x6x6xf32>
}
