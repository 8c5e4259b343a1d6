// rewrite-search applies the search rules where the cost model says they pay. Here the
// analytical estimate decides (no cost database): max(FLOPs / peak, bytes / bandwidth)
// plus a fixed cost per kernel; ops on constants only are free (they fold).
//
// RUN: %tcc-opt %s --pass-pipeline="rewrite-search{verbose=true}" 2>%t.log | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.log
// RUN: %tcc-opt %s --pass-pipeline="rewrite-search{mode=off}" | FileCheck %s --check-prefix=OFF
// RUN: %tcc-opt %s --pass-pipeline="rewrite-search{mode=greedy}" | FileCheck %s --check-prefix=CHECK
// RUN: not %tcc-opt %s --pass-pipeline="rewrite-search{mode=best}" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: pass 'rewrite-search': invalid value 'best' for option 'mode'
// The search stops at its time limit with the best graph found so far (here, none).
// RUN: %tcc-opt %s --pass-pipeline="rewrite-search{time-limit=0 verbose=true}" 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMEOUT
// TIMEOUT: rewrite-search: {{.*}} 0 graphs expanded (stopped at the time limit), 0 candidates
// RUN: not %tcc-opt %s --pass-pipeline="rewrite-search{time-limit=-1}" 2>&1 | FileCheck %s --check-prefix=BADTIME
// BADTIME: option 'time-limit' takes a number of seconds

// Two narrow matmuls of the same tall activations: one matmul by the concatenated
// weights reads the 4 MB of activations once instead of twice, which saves more than
// the split of its result costs.
// CHECK-LABEL: func.func @pays
// CHECK: %[[W:.*]] = graph.concat %{{.*}}, %{{.*}} {axis = 1}
// CHECK: %[[M:.*]] = graph.matmul %arg0, %[[W]] : (tensor<4096x256xf32>, tensor<256x4xf32>) -> tensor<4096x4xf32>
// CHECK: %[[S:.*]]:2 = graph.split %[[M]] {axis = 1, sizes = [2, 2]}
// CHECK: return %[[S]]#0, %[[S]]#1
// OFF-LABEL: func.func @pays
// OFF-COUNT-2: graph.matmul
func.func @pays(%x: tensor<4096x256xf32>) -> (tensor<4096x2xf32>, tensor<4096x2xf32>) {
  %a = graph.constant {value = dense<0.5> : tensor<256x2xf32>} : () -> tensor<256x2xf32>
  %b = graph.constant {value = dense<0.25> : tensor<256x2xf32>} : () -> tensor<256x2xf32>
  %0 = graph.matmul %x, %a : (tensor<4096x256xf32>, tensor<256x2xf32>) -> tensor<4096x2xf32>
  %1 = graph.matmul %x, %b : (tensor<4096x256xf32>, tensor<256x2xf32>) -> tensor<4096x2xf32>
  return %0, %1 : tensor<4096x2xf32>, tensor<4096x2xf32>
}

// Compute-bound matmuls: merging saves no FLOPs and adds the split, so it is skipped.
// CHECK-LABEL: func.func @does_not_pay
// CHECK-COUNT-2: graph.matmul
// CHECK-NOT: graph.split
func.func @does_not_pay(%x: tensor<64x256xf32>) -> (tensor<64x256xf32>, tensor<64x256xf32>) {
  %a = graph.constant {value = dense<0.5> : tensor<256x256xf32>} : () -> tensor<256x256xf32>
  %b = graph.constant {value = dense<0.25> : tensor<256x256xf32>} : () -> tensor<256x256xf32>
  %0 = graph.matmul %x, %a : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
  %1 = graph.matmul %x, %b : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>
  return %0, %1 : tensor<64x256xf32>, tensor<64x256xf32>
}
// LOG: rewrite-search: cost {{.*}} -> {{.*}} ms, {{[0-9]+}} graphs expanded, {{[0-9]+}} candidates ({{.*}}), {{.*}}; rules: merge-matmuls-sharing-lhs

// tcc-opt's flags do the same as the pass.
// RUN: %tcc-opt %s --rewrite-search=taso --search-budget 10 | FileCheck %s
// RUN: %tcc-opt %s --rewrite-search=off --pass-pipeline=cse | FileCheck %s --check-prefix=OFF
// RUN: not %tcc-opt %s --search-budget 10 2>&1 | FileCheck %s --check-prefix=NOMODE
// NOMODE: the following required arguments were not provided
