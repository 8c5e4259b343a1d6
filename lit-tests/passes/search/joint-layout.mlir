// Joint layout search: a rewrite that creates a matmul of constant weights gives one
// candidate graph per packed layout of those weights (`rhs_block`, the column block
// of `NK{n}n`, one to four vectors of the target), each costed on its own. The cost
// database here makes the merged matmul slower than the two it replaces in its default
// layout, and faster packed in blocks of 32 columns: the search merges only because
// it tries the layouts, and keeps the layout that pays. (The matmuls of 24 columns cost
// the same in every layout, so splitting the merged one again, which a generated rule
// does, never pays.)
//
// RUN: %tcc-opt %s --pass-pipeline="rewrite-search{vector-bits=512 vector-registers=32 cpu=test-cpu cost-db=%S/Inputs/joint-layout-costs.json verbose=true}" 2>%t.log | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.log
// RUN: %tcc-opt %s --pass-pipeline="rewrite-search{vector-bits=512 vector-registers=32 cpu=test-cpu cost-db=%S/Inputs/joint-layout-costs.json layouts=false}" | FileCheck %s --check-prefix=FIXED
// RUN: %tcc-opt %s --pass-pipeline="rewrite-search{vector-bits=512 vector-registers=32 cpu=test-cpu cost-db=%S/Inputs/joint-layout-costs.json mode=greedy}" | FileCheck %s

// CHECK-LABEL: func.func @merge_in_blocks_of_32
// CHECK: %[[W:.*]] = graph.concat %{{.*}}, %{{.*}} {axis = 1}
// CHECK: %[[M:.*]] = graph.matmul %arg0, %[[W]] {rhs_block = 32} : (tensor<4096x256xf32>, tensor<256x48xf32>) -> tensor<4096x48xf32>
// CHECK: graph.split %[[M]] {axis = 1, sizes = [24, 24]}
// LOG: rules: merge-matmuls-sharing-lhs [rhs_block 32]
// FIXED-LABEL: func.func @merge_in_blocks_of_32
// FIXED-COUNT-2: graph.matmul
// FIXED-NOT: graph.split
// FIXED-NOT: rhs_block
func.func @merge_in_blocks_of_32(%x: tensor<4096x256xf32>) -> (tensor<4096x24xf32>, tensor<4096x24xf32>) {
  %a = graph.constant {value = dense<0.5> : tensor<256x24xf32>} : () -> tensor<256x24xf32>
  %b = graph.constant {value = dense<0.25> : tensor<256x24xf32>} : () -> tensor<256x24xf32>
  %0 = graph.matmul %x, %a : (tensor<4096x256xf32>, tensor<256x24xf32>) -> tensor<4096x24xf32>
  %1 = graph.matmul %x, %b : (tensor<4096x256xf32>, tensor<256x24xf32>) -> tensor<4096x24xf32>
  return %0, %1 : tensor<4096x24xf32>, tensor<4096x24xf32>
}
