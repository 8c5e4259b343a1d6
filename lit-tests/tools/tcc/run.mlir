// `tcc run`: JIT-compile a model and run it on .npy inputs, printing a summary of
// each output or saving it as .npy.
//
// This file's own model compares two [2, 10] tensors: it returns 1e6 * max |a - b|.
// The other models and the inputs are the reference cases of the graph dialect
// (small_cnn: conv, relu, pools, batch norm, linear, softmax; gather with i64 indices).
//
// RUN: %tcc run %S/../../../dialects/graph/tests/reference/models/small_cnn.mlir --input %S/../../../dialects/graph/tests/reference/data/small_cnn.in0.npy | FileCheck %s --check-prefix=SUMMARY
//
// --output saves the result (and prints nothing). The file is a valid .npy of shape
// [2, 10] that matches PyTorch's output to 1e-5 ...
// RUN: %tcc run %S/../../../dialects/graph/tests/reference/models/small_cnn.mlir -i %S/../../../dialects/graph/tests/reference/data/small_cnn.in0.npy --output %t.y.npy > %t.stdout
// RUN: FileCheck %s --check-prefix=EMPTY --allow-empty --input-file %t.stdout
// RUN: %tcc run %s --input %t.y.npy --input %S/../../../dialects/graph/tests/reference/data/small_cnn.out0.npy | FileCheck %s --check-prefix=CLOSE
// ... and that the model rejects as an input, naming the shape it expects.
// RUN: not %tcc run %S/../../../dialects/graph/tests/reference/models/small_cnn.mlir -i %t.y.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
//
// One thread and two threads (the model has parallel loops) give the same bits.
// RUN: %tcc run %S/../../../dialects/graph/tests/reference/models/small_cnn.mlir -i %S/../../../dialects/graph/tests/reference/data/small_cnn.in0.npy --threads 1 -o %t.t1.npy
// RUN: %tcc run %S/../../../dialects/graph/tests/reference/models/small_cnn.mlir -i %S/../../../dialects/graph/tests/reference/data/small_cnn.in0.npy --threads 2 -o %t.t2.npy
// RUN: %tcc run %s -i %t.t1.npy -i %t.t2.npy | FileCheck %s --check-prefix=SAME
// RUN: %tcc run %s -i %t.t1.npy -i %S/../../../dialects/graph/tests/reference/data/small_cnn.out0.npy | FileCheck %s --check-prefix=CLOSE
// RUN: %tcc run %S/../../../dialects/graph/tests/reference/models/small_cnn.mlir -i %S/../../../dialects/graph/tests/reference/data/small_cnn.in0.npy --threads 2 | FileCheck %s --check-prefix=SUMMARY
//
// Wrong number of inputs or outputs.
// RUN: not %tcc run %s -i %t.y.npy 2>&1 | FileCheck %s --check-prefix=ONE-INPUT
// RUN: not %tcc run %s 2>&1 | FileCheck %s --check-prefix=NO-INPUT
// RUN: not %tcc run %s -i %t.y.npy -i %t.y.npy -i %t.y.npy 2>&1 | FileCheck %s --check-prefix=THREE-INPUTS
// RUN: not %tcc run %s -i %t.y.npy -i %t.y.npy -o %t.a.npy -o %t.b.npy 2>&1 | FileCheck %s --check-prefix=TWO-OUTPUTS
//
// Bad input files: wrong element type, missing, not .npy.
// RUN: not %tcc run %s -i %S/../../../dialects/graph/tests/reference/data/gather_axis1_i64.in1.npy -i %t.y.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not %tcc run %s -i %t.does-not-exist.npy -i %t.y.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not %tcc run %s -i %s -i %t.y.npy 2>&1 | FileCheck %s --check-prefix=NOT-NPY
// RUN: not %tcc run %s -i %t.y.npy -i %t.y.npy -o %t.missing-dir/out.npy 2>&1 | FileCheck %s --check-prefix=NOWRITE
//
// A run-time check fails: gather indices [[0, 1, -1], [5, 6, -7]] on an axis of
// extent 6 (written here as a .npy by hand).
// RUN: printf "\x93NUMPY\x01\x00v\x00{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }                                                          \n\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\xff\x05\x00\x00\x00\x00\x00\x00\x00\x06\x00\x00\x00\x00\x00\x00\x00\xf9\xff\xff\xff\xff\xff\xff\xff" > %t.bad-indices.npy
// RUN: not %tcc run %S/../../../dialects/graph/tests/reference/models/gather_axis1_i64.mlir -i %S/../../../dialects/graph/tests/reference/data/gather_axis1_i64.in0.npy -i %t.bad-indices.npy 2>&1 | FileCheck %s --check-prefix=GATHER

func.func @main(%a: tensor<2x10xf32>, %b: tensor<2x10xf32>) -> tensor<f32> {
  %0 = graph.sub %a, %b : (tensor<2x10xf32>, tensor<2x10xf32>) -> tensor<2x10xf32>
  %1 = graph.abs %0 : (tensor<2x10xf32>) -> tensor<2x10xf32>
  %scale = graph.constant {value = dense<1.0e6> : tensor<f32>} : () -> tensor<f32>
  %2 = graph.mul %1, %scale : (tensor<2x10xf32>, tensor<f32>) -> tensor<2x10xf32>
  %3 = graph.reduce_max %2 {axes = [0, 1]} : (tensor<2x10xf32>) -> tensor<f32>
  return %3 : tensor<f32>
}

// Softmax rows sum to 1: the mean of the 20 probabilities is 0.1.
// SUMMARY: output #0: f32[2, 10] min 0.{{[0-9]+}} max 0.{{[0-9]+}} mean 0.100000 [0.{{[0-9]+}}, 0.{{[0-9]+}}, 0.{{[0-9]+}}, 0.{{[0-9]+}}, 0.{{[0-9]+}}, 0.{{[0-9]+}}, ...]
// SUMMARY-NOT: output #1
// EMPTY-NOT: {{.}}
// CLOSE: output #0: f32[] min {{.*}} max {{[0-9]}}.{{[0-9]+}} mean
// SAME: output #0: f32[] min 0.000000 max 0.000000 mean 0.000000 [0.000000]
// SHAPE: tcc: error: input #0 has shape [2, 10], the model expects [2, 3, 16, 16]
// ONE-INPUT: tcc: error: the model takes 2 inputs (f32[2, 10], f32[2, 10]), 1 given with --input
// NO-INPUT: tcc: error: the model takes 2 inputs (f32[2, 10], f32[2, 10]), 0 given with --input
// THREE-INPUTS: tcc: error: the model takes 2 inputs (f32[2, 10], f32[2, 10]), 3 given with --input
// TWO-OUTPUTS: tcc: error: the model has 1 output, 2 --output files given
// DTYPE: tcc: error: input #0 has element type i64, the model expects f32
// MISSING: tcc: error: cannot read '{{.*}}does-not-exist.npy': {{.+}}
// NOT-NPY: tcc: error: '{{.*}}run.mlir' is not a valid .npy file: {{.+}}
// NOWRITE: tcc: error: cannot write '{{.*}}missing-dir{{[/\\]}}out.npy': {{.+}}
// GATHER: tcc: error: run-time check failed: index out of range in 'graph.gather' at {{.*}}gather_axis1_i64.mlir:4:8 (axis 1 has extent 6)
