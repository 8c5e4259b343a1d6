// convert-graph-to-loop: the loop nest of each family of graph ops.
//
// Each case is a model of its own (the pass lowers the module's @main). The checks
// pin the essential structure: which buffer each load and store touches at which
// indices, the loop bounds, and the arithmetic. Constants are hoisted to the top of
// the function in no particular order, hence CHECK-DAG for them. All ops here are
// small, so no loop.parallel, and every result is returned, so no workspace.
//
// RUN: %tcc-opt %s --split-input-file --pass-pipeline=convert-graph-to-loop | FileCheck %s

// Elementwise add with numpy broadcasting: [2, 1, 4] + [3, 1] -> [2, 3, 4]. The outer
// dimensions are flattened into one loop and split again with rem/div; an extent-1
// dimension of an operand reads index 0.
// CHECK-LABEL: func.func @main(%arg0: buffer<2x1x4xf32>, %arg1: buffer<3x1xf32>, %arg2: buffer<2x3x4xf32>)
// CHECK-SAME: attributes {tcc.num_inputs = 2, tcc.workspace_size = 0}
// CHECK-DAG: [[C0:%[0-9]+]] = loop.const 0 : index
// CHECK-DAG: [[C1:%[0-9]+]] = loop.const 1 : index
// CHECK-DAG: [[C3:%[0-9]+]] = loop.const 3 : index
// CHECK-DAG: [[C4:%[0-9]+]] = loop.const 4 : index
// CHECK-DAG: [[C6:%[0-9]+]] = loop.const 6 : index
// CHECK-NOT: loop.workspace
// CHECK: loop.for [[FLAT:%arg[0-9]+]] = [[C0]] to [[C6]] step [[C1]] {
// CHECK-NEXT: [[I1:%[0-9]+]] = loop.rem [[FLAT]], [[C3]] : index
// CHECK-NEXT: [[I0:%[0-9]+]] = loop.div [[FLAT]], [[C3]] : index
// CHECK-NEXT: loop.for [[I2:%arg[0-9]+]] = [[C0]] to [[C4]] step [[C1]] {
// CHECK-NEXT: [[A:%[0-9]+]] = loop.load %arg0{{\[}}[[I0]], [[C0]], [[I2]]] : buffer<2x1x4xf32>
// CHECK-NEXT: [[B:%[0-9]+]] = loop.load %arg1{{\[}}[[I1]], [[C0]]] : buffer<3x1xf32>
// CHECK-NEXT: [[S:%[0-9]+]] = loop.add [[A]], [[B]] : f32
// CHECK-NEXT: loop.store [[S]], %arg2{{\[}}[[I0]], [[I1]], [[I2]]] : buffer<2x3x4xf32>
// CHECK-NEXT: loop.yield
// CHECK-NEXT: }
// CHECK-NEXT: loop.yield
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @main(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %0 = graph.add %a, %b : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// A rank-0 operand broadcasts without indices.
// CHECK-LABEL: func.func @main(%arg0: buffer<3xf32>, %arg1: buffer<f32>, %arg2: buffer<3xf32>)
// CHECK: loop.for [[I:%arg[0-9]+]] =
// CHECK-NEXT: [[A:%[0-9]+]] = loop.load %arg0{{\[}}[[I]]] : buffer<3xf32>
// CHECK-NEXT: [[B:%[0-9]+]] = loop.load %arg1[] : buffer<f32>
// CHECK-NEXT: [[M:%[0-9]+]] = loop.max [[A]], [[B]] : f32
// CHECK-NEXT: loop.store [[M]], %arg2{{\[}}[[I]]] : buffer<3xf32>
func.func @main(%a: tensor<3xf32>, %b: tensor<f32>) -> tensor<3xf32> {
  %0 = graph.max %a, %b : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Integer division is guarded: a zero divisor fails a located run-time check (and
// divides by one instead), MIN / -1 divides by one too.
// CHECK-LABEL: func.func @main(%arg0: buffer<2x3xi32>, %arg1: buffer<2x3xi32>, %arg2: buffer<2x3xi32>)
// CHECK-DAG: [[ZERO:%[0-9]+]] = loop.const 0 : i32
// CHECK-DAG: [[ONE:%[0-9]+]] = loop.const 1 : i32
// CHECK-DAG: [[MONE:%[0-9]+]] = loop.const -1 : i32
// CHECK-DAG: [[MIN:%[0-9]+]] = loop.const -2147483648 : i32
// CHECK: [[A:%[0-9]+]] = loop.load %arg0
// CHECK-NEXT: [[D:%[0-9]+]] = loop.load %arg1
// CHECK-NEXT: [[NZ:%[0-9]+]] = loop.cmp [[D]], [[ZERO]] {pred = "ne"} : (i32, i32) -> i1
// CHECK-NEXT: loop.assert [[NZ]] {message = "integer division by zero in 'graph.div' at {{.*}}convert-graph-to-loop.mlir:[[# @LINE + 10]]:8"} : (i1) -> ()
// CHECK-NEXT: [[Z:%[0-9]+]] = loop.cmp [[D]], [[ZERO]] {pred = "eq"}
// CHECK-NEXT: [[AMIN:%[0-9]+]] = loop.cmp [[A]], [[MIN]] {pred = "eq"}
// CHECK-NEXT: [[DM1:%[0-9]+]] = loop.cmp [[D]], [[MONE]] {pred = "eq"}
// CHECK-NEXT: [[OV:%[0-9]+]] = loop.and [[AMIN]], [[DM1]] : i1
// CHECK-NEXT: [[BAD:%[0-9]+]] = loop.or [[Z]], [[OV]] : i1
// CHECK-NEXT: [[SAFE:%[0-9]+]] = loop.select [[BAD]], [[ONE]], [[D]] : (i1, i32, i32) -> i32
// CHECK-NEXT: [[Q:%[0-9]+]] = loop.div [[A]], [[SAFE]] : i32
// CHECK-NEXT: loop.store [[Q]], %arg2
func.func @main(%x: tensor<2x3xi32>, %y: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = graph.div %x, %y : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// Matmul accumulates rows of the output in place: out[i, :] = 0, then
// out[i, j] = fma(a[i, k], b[k, j], out[i, j]) with j innermost (unit stride in b and
// out, for the vectorizer).
// CHECK-LABEL: func.func @main(%arg0: buffer<3x4xf32>, %arg1: buffer<4x5xf32>, %arg2: buffer<3x5xf32>)
// CHECK-SAME: tcc.workspace_size = 0
// CHECK-DAG: [[C0:%[0-9]+]] = loop.const 0 : index
// CHECK-DAG: [[C1:%[0-9]+]] = loop.const 1 : index
// CHECK-DAG: [[C3:%[0-9]+]] = loop.const 3 : index
// CHECK-DAG: [[C4:%[0-9]+]] = loop.const 4 : index
// CHECK-DAG: [[C5:%[0-9]+]] = loop.const 5 : index
// CHECK-DAG: [[ZERO:%[0-9]+]] = loop.const 0.0 : f32
// CHECK-NOT: loop.parallel
// CHECK: loop.for [[I:%arg[0-9]+]] = [[C0]] to [[C3]] step [[C1]] {
// CHECK-NEXT: loop.for [[J0:%arg[0-9]+]] = [[C0]] to [[C5]] step [[C1]] {
// CHECK-NEXT: loop.store [[ZERO]], %arg2{{\[}}[[I]], [[J0]]] : buffer<3x5xf32>
// CHECK-NEXT: loop.yield
// CHECK-NEXT: }
// CHECK-NEXT: loop.for [[K:%arg[0-9]+]] = [[C0]] to [[C4]] step [[C1]] {
// CHECK-NEXT: [[A:%[0-9]+]] = loop.load %arg0{{\[}}[[I]], [[K]]] : buffer<3x4xf32>
// CHECK-NEXT: loop.for [[J:%arg[0-9]+]] = [[C0]] to [[C5]] step [[C1]] {
// CHECK-NEXT: [[B:%[0-9]+]] = loop.load %arg1{{\[}}[[K]], [[J]]] : buffer<4x5xf32>
// CHECK-NEXT: [[ACC:%[0-9]+]] = loop.load %arg2{{\[}}[[I]], [[J]]] : buffer<3x5xf32>
// CHECK-NEXT: [[R:%[0-9]+]] = loop.fma [[A]], [[B]], [[ACC]] : f32
// CHECK-NEXT: loop.store [[R]], %arg2{{\[}}[[I]], [[J]]] : buffer<3x5xf32>
// CHECK-NOT: loop.parallel
func.func @main(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = graph.matmul %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// Integer matmul multiplies and adds (no fma on integers).
// CHECK-LABEL: func.func @main(%arg0: buffer<2x2xi64>, %arg1: buffer<2x2xi64>, %arg2: buffer<2x2xi64>)
// CHECK: loop.const 0 : i64
// CHECK: [[A:%[0-9]+]] = loop.load %arg0
// CHECK: [[B:%[0-9]+]] = loop.load %arg1
// CHECK-NEXT: [[ACC:%[0-9]+]] = loop.load %arg2
// CHECK-NEXT: [[P:%[0-9]+]] = loop.mul [[A]], [[B]] : i64
// CHECK-NEXT: [[S:%[0-9]+]] = loop.add [[ACC]], [[P]] : i64
// CHECK-NEXT: loop.store [[S]], %arg2
// CHECK-NOT: loop.fma
func.func @main(%a: tensor<2x2xi64>, %b: tensor<2x2xi64>) -> tensor<2x2xi64> {
  %0 = graph.matmul %a, %b : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

// -----

// conv2d (f64: f32 ones take the row template, kernel-templates.mlir), 3x3 kernel,
// padding 1, stride 1: the scalar reference nest, one loop over the output rows (n, o, y);
// the row starts as the bias; the kernel rows that land inside the input are
// kh in [max(1 - y, 0), min(5 - y + 1, 3)) (0 when 5 - y < 0), the output columns that
// land inside for a kernel column kw are [max(1 - kw, 0), min(5 - kw + 1, 5)), and
// the input is read at (y + kh - 1, x + kw - 1) with no padding test in the innermost
// loop.
// CHECK-LABEL: func.func @main(%arg0: buffer<1x2x5x5xf64>, %arg1: buffer<3x2x3x3xf64>, %arg2: buffer<3xf64>, %arg3: buffer<1x3x5x5xf64>)
// CHECK-SAME: tcc.num_inputs = 3, tcc.workspace_size = 0
// CHECK-DAG: [[C0:%[0-9]+]] = loop.const 0 : index
// CHECK-DAG: [[C1:%[0-9]+]] = loop.const 1 : index
// CHECK-DAG: [[C2:%[0-9]+]] = loop.const 2 : index
// CHECK-DAG: [[C3:%[0-9]+]] = loop.const 3 : index
// CHECK-DAG: [[C5:%[0-9]+]] = loop.const 5 : index
// CHECK-DAG: [[C15:%[0-9]+]] = loop.const 15 : index
// CHECK-NOT: loop.parallel
// CHECK: loop.for [[ROW:%arg[0-9]+]] = [[C0]] to [[C15]] step [[C1]] {
// CHECK-NEXT: [[Y:%[0-9]+]] = loop.rem [[ROW]], [[C5]] : index
// CHECK-NEXT: [[R1:%[0-9]+]] = loop.div [[ROW]], [[C5]] : index
// CHECK-NEXT: [[O:%[0-9]+]] = loop.rem [[R1]], [[C3]] : index
// CHECK-NEXT: [[N:%[0-9]+]] = loop.div [[R1]], [[C3]] : index
// CHECK-NEXT: [[BIAS:%[0-9]+]] = loop.load %arg2{{\[}}[[O]]] : buffer<3xf64>
// CHECK-NEXT: loop.for [[X0:%arg[0-9]+]] = [[C0]] to [[C5]] step [[C1]] {
// CHECK-NEXT: loop.store [[BIAS]], %arg3{{\[}}[[N]], [[O]], [[Y]], [[X0]]] : buffer<1x3x5x5xf64>
// CHECK-NEXT: loop.yield
// CHECK-NEXT: }
// CHECK-NEXT: [[T:%[0-9]+]] = loop.sub [[C1]], [[Y]] : index
// CHECK-NEXT: [[KHLO:%[0-9]+]] = loop.max [[T]], [[C0]] : index
// CHECK-NEXT: [[U:%[0-9]+]] = loop.sub [[C5]], [[Y]] : index
// CHECK-NEXT: [[U1:%[0-9]+]] = loop.add [[U]], [[C1]] : index
// CHECK-NEXT: [[HI:%[0-9]+]] = loop.min [[U1]], [[C3]] : index
// CHECK-NEXT: [[NEG:%[0-9]+]] = loop.cmp [[U]], [[C0]] {pred = "lt"} : (index, index) -> i1
// CHECK-NEXT: [[KHHI:%[0-9]+]] = loop.select [[NEG]], [[C0]], [[HI]] : (i1, index, index) -> index
// CHECK: loop.for [[CI:%arg[0-9]+]] = [[C0]] to [[C2]] step [[C1]] {
// CHECK-NEXT: [[IC:%[0-9]+]] = loop.add {{%[0-9]+}}, [[CI]] : index
// CHECK-NEXT: loop.for [[KH:%arg[0-9]+]] = [[KHLO]] to [[KHHI]] step [[C1]] {
// CHECK-NEXT: [[YK:%[0-9]+]] = loop.add [[KH]], [[Y]] : index
// CHECK-NEXT: [[IY:%[0-9]+]] = loop.sub [[YK]], [[C1]] : index
// CHECK-NEXT: loop.for [[KW:%arg[0-9]+]] = [[C0]] to [[C3]] step [[C1]] {
// CHECK-NEXT: [[W:%[0-9]+]] = loop.load %arg1{{\[}}[[O]], [[CI]], [[KH]], [[KW]]] : buffer<3x2x3x3xf64>
// CHECK-NEXT: [[T2:%[0-9]+]] = loop.sub [[C1]], [[KW]] : index
// CHECK-NEXT: [[XLO:%[0-9]+]] = loop.max [[T2]], [[C0]] : index
// CHECK-NEXT: [[U2:%[0-9]+]] = loop.sub [[C5]], [[KW]] : index
// CHECK-NEXT: [[U3:%[0-9]+]] = loop.add [[U2]], [[C1]] : index
// CHECK-NEXT: [[HI2:%[0-9]+]] = loop.min [[U3]], [[C5]] : index
// CHECK-NEXT: [[NEG2:%[0-9]+]] = loop.cmp [[U2]], [[C0]] {pred = "lt"}
// CHECK-NEXT: [[XHI:%[0-9]+]] = loop.select [[NEG2]], [[C0]], [[HI2]]
// CHECK-NEXT: [[OFF:%[0-9]+]] = loop.sub [[KW]], [[C1]] : index
// CHECK-NEXT: loop.for [[XO:%arg[0-9]+]] = [[XLO]] to [[XHI]] step [[C1]] {
// CHECK-NEXT: [[IX:%[0-9]+]] = loop.add [[XO]], [[OFF]] : index
// CHECK-NEXT: [[XV:%[0-9]+]] = loop.load %arg0{{\[}}[[N]], [[IC]], [[IY]], [[IX]]] : buffer<1x2x5x5xf64>
// CHECK-NEXT: [[ACC:%[0-9]+]] = loop.load %arg3{{\[}}[[N]], [[O]], [[Y]], [[XO]]] : buffer<1x3x5x5xf64>
// CHECK-NEXT: [[R:%[0-9]+]] = loop.fma [[XV]], [[W]], [[ACC]] : f64
// CHECK-NEXT: loop.store [[R]], %arg3{{\[}}[[N]], [[O]], [[Y]], [[XO]]] : buffer<1x3x5x5xf64>
// CHECK-NEXT: loop.yield
func.func @main(%x: tensor<1x2x5x5xf64>, %w: tensor<3x2x3x3xf64>, %b: tensor<3xf64>) -> tensor<1x3x5x5xf64> {
  %0 = graph.conv2d %x, %w, %b {strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], groups = 1} : (tensor<1x2x5x5xf64>, tensor<3x2x3x3xf64>, tensor<3xf64>) -> tensor<1x3x5x5xf64>
  return %0 : tensor<1x3x5x5xf64>
}

// -----

// Without bias the row starts at 0.0.
// CHECK-LABEL: func.func @main(%arg0: buffer<1x1x4x4xf64>, %arg1: buffer<1x1x2x2xf64>, %arg2: buffer<1x1x3x3xf64>)
// CHECK-DAG: [[ZERO:%[0-9]+]] = loop.const 0.0 : f64
// CHECK: loop.store [[ZERO]], %arg2
// CHECK: loop.fma
func.func @main(%x: tensor<1x1x4x4xf64>, %w: tensor<1x1x2x2xf64>) -> tensor<1x1x3x3xf64> {
  %0 = graph.conv2d %x, %w {strides = [1, 1], pads = [0, 0, 0, 0], dilations = [1, 1], groups = 1} : (tensor<1x1x4x4xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x3x3xf64>
  return %0 : tensor<1x1x3x3xf64>
}

// -----

// reduce_sum over axis 1 with keepdims: the reduced loop carries the sum, the kept
// dimensions are stored at index 0 of the reduced one. The innermost dimension is kept
// and holds whole vectors (4 lanes by default): the sum is a vector over it.
// CHECK-LABEL: func.func @main(%arg0: buffer<2x3x4xf32>, %arg1: buffer<2x1x4xf32>)
// CHECK-DAG: [[C0:%[0-9]+]] = loop.const 0 : index
// CHECK-DAG: [[C1:%[0-9]+]] = loop.const 1 : index
// CHECK-DAG: [[C3:%[0-9]+]] = loop.const 3 : index
// CHECK-DAG: [[ZERO:%[0-9]+]] = loop.const 0.0 : f32
// CHECK: loop.for [[I:%arg[0-9]+]] =
// CHECK-NEXT: loop.for [[K:%arg[0-9]+]] =
// CHECK-NEXT: [[L:%[0-9]+]] = loop.mul [[K]]
// CHECK-NEXT: [[Z:%[0-9]+]] = vector.splat [[ZERO]] : (f32) -> vector<4xf32>
// CHECK-NEXT: [[SUM:%[0-9]+]] = loop.for [[J:%arg[0-9]+]] = [[C0]] to [[C3]] step [[C1]] iter_args([[ACC:%arg[0-9]+]] = [[Z]]) -> (vector<4xf32>) {
// CHECK-NEXT: [[X:%[0-9]+]] = vector.load %arg0{{\[}}[[I]], [[J]], [[L]]] : buffer<2x3x4xf32>, vector<4xf32>
// CHECK-NEXT: [[S:%[0-9]+]] = loop.add [[ACC]], [[X]] : vector<4xf32>
// CHECK-NEXT: loop.yield [[S]] : vector<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: vector.store [[SUM]], %arg1{{\[}}[[I]], [[C0]], [[L]]] : buffer<2x1x4xf32>, vector<4xf32>
func.func @main(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %0 = graph.reduce_sum %x {axes = [1], keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return %0 : tensor<2x1x4xf32>
}

// -----

// The same with 5 elements innermost (not whole vectors): a scalar sum per element.
// CHECK-LABEL: func.func @main(%arg0: buffer<2x3x5xf32>, %arg1: buffer<2x1x5xf32>)
// CHECK: loop.for [[I:%arg[0-9]+]] =
// CHECK-NEXT: loop.for [[K:%arg[0-9]+]] =
// CHECK-NEXT: [[SUM:%[0-9]+]] = loop.for [[J:%arg[0-9]+]] = {{.*}} -> (f32) {
// CHECK-NEXT: [[X:%[0-9]+]] = loop.load %arg0{{\[}}[[I]], [[J]], [[K]]] : buffer<2x3x5xf32>
// CHECK-NEXT: [[S:%[0-9]+]] = loop.add [[ACC:%arg[0-9]+]], [[X]] : f32
func.func @main(%x: tensor<2x3x5xf32>) -> tensor<2x1x5xf32> {
  %0 = graph.reduce_sum %x {axes = [1], keepdims = true} : (tensor<2x3x5xf32>) -> tensor<2x1x5xf32>
  return %0 : tensor<2x1x5xf32>
}

// -----

// reduce_max over axes 0 and 2: nested loops thread the accumulator, starting at -inf.
// CHECK-LABEL: func.func @main(%arg0: buffer<2x3x4xf32>, %arg1: buffer<3xf32>)
// CHECK-DAG: [[NINF:%[0-9]+]] = loop.const 0xFF800000 : f32
// CHECK-DAG: [[C2:%[0-9]+]] = loop.const 2 : index
// CHECK-DAG: [[C4:%[0-9]+]] = loop.const 4 : index
// CHECK: loop.for [[J:%arg[0-9]+]] =
// CHECK-NEXT: [[M:%[0-9]+]] = loop.for [[I:%arg[0-9]+]] = {{%[0-9]+}} to [[C2]] step {{%[0-9]+}} iter_args([[A0:%arg[0-9]+]] = [[NINF]]) -> (f32) {
// CHECK-NEXT: [[IN:%[0-9]+]] = loop.for [[K:%arg[0-9]+]] = {{%[0-9]+}} to [[C4]] step {{%[0-9]+}} iter_args([[A1:%arg[0-9]+]] = [[A0]]) -> (f32) {
// CHECK-NEXT: [[X:%[0-9]+]] = loop.load %arg0{{\[}}[[I]], [[J]], [[K]]] : buffer<2x3x4xf32>
// CHECK-NEXT: [[MX:%[0-9]+]] = loop.max [[A1]], [[X]] : f32
// CHECK-NEXT: loop.yield [[MX]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: loop.yield [[IN]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: loop.store [[M]], %arg1{{\[}}[[J]]] : buffer<3xf32>
func.func @main(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %0 = graph.reduce_max %x {axes = [0, 2]} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// reduce_mean divides the sum by the element count; reduce_min of i32 starts at
// INT32_MAX.
// CHECK-LABEL: func.func @main(%arg0: buffer<2x3x4xf32>, %arg1: buffer<2x3xi32>, %arg2: buffer<2x3xf32>, %arg3: buffer<2xi32>)
// CHECK-DAG: [[FOUR:%[0-9]+]] = loop.const 4.0 : f32
// CHECK-DAG: [[IMAX:%[0-9]+]] = loop.const 2147483647 : i32
// CHECK: [[SUM:%[0-9]+]] = loop.for
// CHECK: loop.add
// CHECK: [[MEAN:%[0-9]+]] = loop.div [[SUM]], [[FOUR]] : f32
// CHECK-NEXT: loop.store [[MEAN]], %arg2
// CHECK: loop.for {{.*}} iter_args({{%arg[0-9]+}} = [[IMAX]]) -> (i32)
// CHECK: loop.min {{.*}} : i32
func.func @main(%x: tensor<2x3x4xf32>, %y: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2xi32>) {
  %0 = graph.reduce_mean %x {axes = [-1]} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
  %1 = graph.reduce_min %y {axes = [1]} : (tensor<2x3xi32>) -> tensor<2xi32>
  return %0, %1 : tensor<2x3xf32>, tensor<2xi32>
}

// -----

// softmax along the last axis, per row: the max, then e^(x - max) stored in the
// output while summing, then a division of the output by the sum.
// CHECK-LABEL: func.func @main(%arg0: buffer<2x5xf32>, %arg1: buffer<2x5xf32>)
// CHECK-DAG: [[ZERO:%[0-9]+]] = loop.const 0.0 : f32
// CHECK-DAG: [[NINF:%[0-9]+]] = loop.const 0xFF800000 : f32
// CHECK-DAG: [[C5:%[0-9]+]] = loop.const 5 : index
// CHECK: loop.for [[R:%arg[0-9]+]] =
// CHECK-NEXT: [[MAX:%[0-9]+]] = loop.for [[J:%arg[0-9]+]] = {{%[0-9]+}} to [[C5]] step {{%[0-9]+}} iter_args([[A:%arg[0-9]+]] = [[NINF]]) -> (f32) {
// CHECK-NEXT: [[X:%[0-9]+]] = loop.load %arg0{{\[}}[[R]], [[J]]]
// CHECK-NEXT: [[M:%[0-9]+]] = loop.max [[A]], [[X]] : f32
// CHECK-NEXT: loop.yield [[M]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: [[SUM:%[0-9]+]] = loop.for [[J2:%arg[0-9]+]] = {{%[0-9]+}} to [[C5]] step {{%[0-9]+}} iter_args([[S:%arg[0-9]+]] = [[ZERO]]) -> (f32) {
// CHECK-NEXT: [[X2:%[0-9]+]] = loop.load %arg0{{\[}}[[R]], [[J2]]]
// CHECK-NEXT: [[D:%[0-9]+]] = loop.sub [[X2]], [[MAX]] : f32
// CHECK-NEXT: [[E:%[0-9]+]] = loop.exp [[D]] : f32
// CHECK-NEXT: loop.store [[E]], %arg1{{\[}}[[R]], [[J2]]]
// CHECK-NEXT: [[S2:%[0-9]+]] = loop.add [[S]], [[E]] : f32
// CHECK-NEXT: loop.yield [[S2]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: loop.for [[J3:%arg[0-9]+]] = {{%[0-9]+}} to [[C5]] step
// CHECK-NEXT: [[E2:%[0-9]+]] = loop.load %arg1{{\[}}[[R]], [[J3]]]
// CHECK-NEXT: [[Q:%[0-9]+]] = loop.div [[E2]], [[SUM]] : f32
// CHECK-NEXT: loop.store [[Q]], %arg1{{\[}}[[R]], [[J3]]]
func.func @main(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = graph.softmax %x {axis = -1} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// softmax along axis 0 walks a column: the row loop enumerates the other dimensions.
// CHECK-LABEL: func.func @main(%arg0: buffer<3x4xf32>, %arg1: buffer<3x4xf32>)
// CHECK-DAG: [[C3:%[0-9]+]] = loop.const 3 : index
// CHECK-DAG: [[C4:%[0-9]+]] = loop.const 4 : index
// CHECK: loop.for [[COL:%arg[0-9]+]] = {{%[0-9]+}} to [[C4]] step
// CHECK-NEXT: loop.for [[I:%arg[0-9]+]] = {{%[0-9]+}} to [[C3]] step {{.*}} iter_args
// CHECK-NEXT: loop.load %arg0{{\[}}[[I]], [[COL]]]
func.func @main(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = graph.softmax %x {axis = 0} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// reshape copies through flat views of both buffers.
// CHECK-LABEL: func.func @main(%arg0: buffer<2x3xf32>, %arg1: buffer<3x2xf32>)
// CHECK-DAG: [[C6:%[0-9]+]] = loop.const 6 : index
// CHECK: [[SRC:%[0-9]+]] = loop.view %arg0 : (buffer<2x3xf32>) -> buffer<6xf32>
// CHECK-NEXT: [[DST:%[0-9]+]] = loop.view %arg1 : (buffer<3x2xf32>) -> buffer<6xf32>
// CHECK-NEXT: loop.for [[I:%arg[0-9]+]] = {{%[0-9]+}} to [[C6]] step
// CHECK-NEXT: [[X:%[0-9]+]] = loop.load [[SRC]]{{\[}}[[I]]] : buffer<6xf32>
// CHECK-NEXT: loop.store [[X]], [[DST]]{{\[}}[[I]]] : buffer<6xf32>
func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = graph.reshape %x {shape = [3, 2]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// transpose with perm [1, 2, 0]: out[a, b, c] = in[c, a, b] (not the inverse
// permutation, which would read in[b, c, a]).
// CHECK-LABEL: func.func @main(%arg0: buffer<2x3x4xf32>, %arg1: buffer<3x4x2xf32>)
// CHECK-DAG: [[C2:%[0-9]+]] = loop.const 2 : index
// CHECK-DAG: [[C4:%[0-9]+]] = loop.const 4 : index
// CHECK-DAG: [[C12:%[0-9]+]] = loop.const 12 : index
// CHECK: loop.for [[FLAT:%arg[0-9]+]] = {{%[0-9]+}} to [[C12]] step
// CHECK-NEXT: [[B:%[0-9]+]] = loop.rem [[FLAT]], [[C4]] : index
// CHECK-NEXT: [[A:%[0-9]+]] = loop.div [[FLAT]], [[C4]] : index
// CHECK-NEXT: loop.for [[C:%arg[0-9]+]] = {{%[0-9]+}} to [[C2]] step
// CHECK-NEXT: [[X:%[0-9]+]] = loop.load %arg0{{\[}}[[C]], [[A]], [[B]]] : buffer<2x3x4xf32>
// CHECK-NEXT: loop.store [[X]], %arg1{{\[}}[[A]], [[B]], [[C]]] : buffer<3x4x2xf32>
func.func @main(%x: tensor<2x3x4xf32>) -> tensor<3x4x2xf32> {
  %0 = graph.transpose %x {perm = [1, 2, 0]} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  return %0 : tensor<3x4x2xf32>
}

// -----

// concat along axis 1: one copy loop per input, the second shifted by the first's
// extent (3).
// CHECK-LABEL: func.func @main(%arg0: buffer<2x3xf32>, %arg1: buffer<2x2xf32>, %arg2: buffer<2x5xf32>)
// CHECK-DAG: [[C2:%[0-9]+]] = loop.const 2 : index
// CHECK-DAG: [[C3:%[0-9]+]] = loop.const 3 : index
// CHECK: loop.for [[I:%arg[0-9]+]] = {{%[0-9]+}} to [[C2]] step
// CHECK-NEXT: loop.for [[J:%arg[0-9]+]] = {{%[0-9]+}} to [[C3]] step
// CHECK-NEXT: [[X:%[0-9]+]] = loop.load %arg0{{\[}}[[I]], [[J]]] : buffer<2x3xf32>
// CHECK-NEXT: loop.store [[X]], %arg2{{\[}}[[I]], [[J]]] : buffer<2x5xf32>
// CHECK: loop.for [[I2:%arg[0-9]+]] = {{%[0-9]+}} to [[C2]] step
// CHECK-NEXT: loop.for [[J2:%arg[0-9]+]] = {{%[0-9]+}} to [[C2]] step
// CHECK-NEXT: [[SH:%[0-9]+]] = loop.add [[J2]], [[C3]] : index
// CHECK-NEXT: [[Y:%[0-9]+]] = loop.load %arg1{{\[}}[[I2]], [[J2]]] : buffer<2x2xf32>
// CHECK-NEXT: loop.store [[Y]], %arg2{{\[}}[[I2]], [[SH]]] : buffer<2x5xf32>
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x2xf32>) -> tensor<2x5xf32> {
  %0 = graph.concat %a, %b {axis = -1} : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// gather along axis 0: per row, the index is read, converted to index, wrapped if
// negative, checked at run time with a message naming the op, its location and the
// extent, and clamped so the load stays in bounds even when the check fails; then the
// row is copied in a unit-step loop.
// CHECK-LABEL: func.func @main(%arg0: buffer<5x3xf32>, %arg1: buffer<4xi64>, %arg2: buffer<4x3xf32>)
// CHECK-DAG: [[C0:%[0-9]+]] = loop.const 0 : index
// CHECK-DAG: [[C4:%[0-9]+]] = loop.const 4 : index
// CHECK-DAG: [[C5:%[0-9]+]] = loop.const 5 : index
// CHECK: [[XV:%[0-9]+]] = loop.view %arg0 : (buffer<5x3xf32>) -> buffer<1x5x3xf32>
// CHECK: [[YV:%[0-9]+]] = loop.view %arg2 : (buffer<4x3xf32>) -> buffer<1x4x3xf32>
// CHECK: loop.for [[I:%arg[0-9]+]] = [[C0]] to [[C4]] step
// CHECK-NEXT: [[RAW:%[0-9]+]] = loop.load %arg1{{\[}}[[I]]] : buffer<4xi64>
// CHECK-NEXT: [[K:%[0-9]+]] = loop.cast [[RAW]] : (i64) -> index
// CHECK-NEXT: [[NEG:%[0-9]+]] = loop.cmp [[K]], [[C0]] {pred = "lt"} : (index, index) -> i1
// CHECK-NEXT: [[WR:%[0-9]+]] = loop.add [[K]], [[C5]] : index
// CHECK-NEXT: [[K2:%[0-9]+]] = loop.select [[NEG]], [[WR]], [[K]] : (i1, index, index) -> index
// CHECK-NEXT: [[GE:%[0-9]+]] = loop.cmp [[K2]], [[C0]] {pred = "ge"}
// CHECK-NEXT: [[LT:%[0-9]+]] = loop.cmp [[K2]], [[C5]] {pred = "lt"}
// CHECK-NEXT: [[OK:%[0-9]+]] = loop.and [[GE]], [[LT]] : i1
// CHECK-NEXT: loop.assert [[OK]] {message = "index out of range in 'graph.gather' at {{.*}}convert-graph-to-loop.mlir:[[# @LINE + 7]]:8 (axis 0 has extent 5)"} : (i1) -> ()
// CHECK-NEXT: [[LO:%[0-9]+]] = loop.max [[K2]], [[C0]] : index
// CHECK-NEXT: [[CL:%[0-9]+]] = loop.min [[LO]], [[C4]] : index
// CHECK-NEXT: loop.for [[J:%arg[0-9]+]] =
// CHECK-NEXT: [[X:%[0-9]+]] = loop.load [[XV]]{{\[}}[[C0]], [[CL]], [[J]]] : buffer<1x5x3xf32>
// CHECK-NEXT: loop.store [[X]], [[YV]]{{\[}}[[C0]], [[I]], [[J]]] : buffer<1x4x3xf32>
func.func @main(%x: tensor<5x3xf32>, %i: tensor<4xi64>) -> tensor<4x3xf32> {
  %0 = graph.gather %x, %i {axis = 0} : (tensor<5x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// pad with low = [1, 2], high = [0, 1] and value -1.5, a row at a time: the fill
// before the input's columns, the input row (its outer index clamped), the fill after
// it; a row outside the input (row 0) has an empty copy range and is fill throughout.
// CHECK-LABEL: func.func @main(%arg0: buffer<2x3xf32>, %arg1: buffer<3x6xf32>)
// CHECK-DAG: [[C0:%[0-9]+]] = loop.const 0 : index
// CHECK-DAG: [[C1:%[0-9]+]] = loop.const 1 : index
// CHECK-DAG: [[C2:%[0-9]+]] = loop.const 2 : index
// CHECK-DAG: [[C3:%[0-9]+]] = loop.const 3 : index
// CHECK-DAG: [[C5:%[0-9]+]] = loop.const 5 : index
// CHECK-DAG: [[C6:%[0-9]+]] = loop.const 6 : index
// CHECK-DAG: [[FILL:%[0-9]+]] = loop.const -1.5 : f32
// CHECK: loop.for [[I:%arg[0-9]+]] = [[C0]] to [[C3]] step
// CHECK-NEXT: [[TI:%[0-9]+]] = loop.sub [[I]], [[C1]] : index
// CHECK-NEXT: [[GE:%[0-9]+]] = loop.cmp [[TI]], [[C0]] {pred = "ge"}
// CHECK-NEXT: [[LT:%[0-9]+]] = loop.cmp [[TI]], [[C2]] {pred = "lt"}
// CHECK-NEXT: [[OK:%[0-9]+]] = loop.and [[GE]], [[LT]] : i1
// CHECK-NEXT: [[M:%[0-9]+]] = loop.max [[TI]], [[C0]] : index
// CHECK-NEXT: [[SI:%[0-9]+]] = loop.min [[M]], [[C1]] : index
// CHECK-NEXT: [[START:%[0-9]+]] = loop.select [[OK]], [[C2]], [[C6]]
// CHECK-NEXT: [[END:%[0-9]+]] = loop.select [[OK]], [[C5]], [[C6]]
// CHECK-NEXT: loop.for [[J:%arg[0-9]+]] = [[C0]] to [[START]] step [[C1]] {
// CHECK-NEXT: loop.store [[FILL]], %arg1{{\[}}[[I]], [[J]]] : buffer<3x6xf32>
// CHECK: loop.for [[K:%arg[0-9]+]] = [[START]] to [[END]] step [[C1]] {
// CHECK-NEXT: [[SJ:%[0-9]+]] = loop.sub [[K]], [[C2]] : index
// CHECK-NEXT: [[X:%[0-9]+]] = loop.load %arg0{{\[}}[[SI]], [[SJ]]] : buffer<2x3xf32>
// CHECK-NEXT: loop.store [[X]], %arg1{{\[}}[[I]], [[K]]] : buffer<3x6xf32>
// CHECK: loop.for [[L:%arg[0-9]+]] = [[END]] to [[C6]] step [[C1]] {
// CHECK-NEXT: loop.store [[FILL]], %arg1{{\[}}[[I]], [[L]]] : buffer<3x6xf32>
func.func @main(%x: tensor<2x3xf32>) -> tensor<3x6xf32> {
  %0 = graph.pad %x {low = [1, 2], high = [0, 1], value = -1.5} : (tensor<2x3xf32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

// Constants become read-only constant buffers sharing the data.
// CHECK-LABEL: func.func @main(%arg0: buffer<2xf32>, %arg1: buffer<2xf32>)
// CHECK: [[W:%[0-9]+]] = loop.constant_buffer {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> buffer<2xf32>
// CHECK: loop.load [[W]]
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = graph.constant {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = graph.mul %x, %c : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A returned reshape of a tensor nothing else uses: the tensor is computed straight into
// a view of the output buffer (no workspace, no copy at the end).
// CHECK-LABEL: func.func @main(%arg0: buffer<2x3x1xf32>, %arg1: buffer<2x3xf32>) attributes {tcc.num_inputs = 1, tcc.workspace_size = 0}
// CHECK: [[OUT:%[0-9]+]] = loop.view %arg1 : (buffer<2x3xf32>) -> buffer<2x3x1xf32>
// CHECK: loop.exp
// CHECK-NEXT: loop.store {{.*}}, [[OUT]]{{\[}}
// CHECK-NOT: loop.store
// CHECK: return
func.func @main(%x: tensor<2x3x1xf32>) -> tensor<2x3xf32> {
  %0 = graph.exp %x : (tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %1 = graph.reshape %0 {shape = [2, 3]} : (tensor<2x3x1xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
