// A weight plus a low-rank adapter's update kept apart: x @ W + x @ D. The generated rule
// matrix-1396 distributes x over the sum, the constants fold, and two matmuls become one
// (benchmarks/RESULTS.md, issue 12, third part).
func.func @main(%x: tensor<256x1024xf32>) -> tensor<256x1024xf32> {
  %a = graph.constant {value = dense<0.5> : tensor<1024x1024xf32>} : () -> tensor<1024x1024xf32>
  %b = graph.constant {value = dense<0.25> : tensor<1024x1024xf32>} : () -> tensor<1024x1024xf32>
  %0 = graph.matmul %x, %a : (tensor<256x1024xf32>, tensor<1024x1024xf32>) -> tensor<256x1024xf32>
  %1 = graph.matmul %x, %b : (tensor<256x1024xf32>, tensor<1024x1024xf32>) -> tensor<256x1024xf32>
  %2 = graph.add %0, %1 : (tensor<256x1024xf32>, tensor<256x1024xf32>) -> tensor<256x1024xf32>
  return %2 : tensor<256x1024xf32>
}
