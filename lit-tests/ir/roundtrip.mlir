// Round trip of the IR core: modules, functions, attributes of every kind, types,
// aliases, generic ops with regions (unregistered, under --allow-unregistered-dialect),
// and the printer's canonical value numbering. The printed text is a fixed point.
//
// RUN: %tcc-opt %s --split-input-file --allow-unregistered-dialect | FileCheck %s
// RUN: %tcc-opt %s --split-input-file --allow-unregistered-dialect | %tcc-opt --split-input-file --allow-unregistered-dialect | FileCheck %s
// RUN: %tcc-opt %s --split-input-file --allow-unregistered-dialect --print-op-generic | %tcc-opt --split-input-file --allow-unregistered-dialect | FileCheck %s
// RUN: %tcc-opt %s --split-input-file --allow-unregistered-dialect -o %t.1.mlir
// RUN: %tcc-opt %t.1.mlir --split-input-file --allow-unregistered-dialect -o %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir

// Aliases are expanded where used; attribute dictionaries print sorted by name; the
// f64 and i64 types are implicit; signless integers print signed; non-finite floats
// print as hex bit patterns of their type; strings escape quotes, backslashes, control
// and non-ASCII bytes. (Empty modules are tested in empty-module.mlir: the generic form
// of an empty module does not parse back, see generic-empty-module.mlir.)

// CHECK-LABEL: module @attributes attributes {
// CHECK-SAME: tcc.alias = dense<[1, 2]> : tensor<2xi32>,
// CHECK-SAME: tcc.array = [1, "two", 3.0, [4]],
// CHECK-SAME: tcc.bf16 = -2.0 : bf16,
// CHECK-SAME: tcc.bool_false = false, tcc.bool_true = true,
// CHECK-SAME: tcc.bools = array<i1: true, false>,
// CHECK-SAME: tcc.dense_f64_nan = dense<0x7FF8000000000000> : tensor<2xf64>,
// CHECK-SAME: tcc.dense_special = dense<[0x7FC00000, 0x7F800000, 0xFF800000, -0.0]> : tensor<4xf32>,
// CHECK-SAME: tcc.dict = {a = "x", b = 1, nested = {c}},
// CHECK-SAME: tcc.empty_array = [], tcc.empty_ints = array<i64>, tcc.empty_str = "",
// CHECK-SAME: tcc.exp = 10000000000.0,
// CHECK-SAME: tcc.f16 = 0.5 : f16, tcc.f32 = 1.5 : f32, tcc.f64 = 2.5,
// CHECK-SAME: tcc.floats = array<f32: 1.5, -0.25>,
// CHECK-SAME: tcc.fn_type = (f32, i1) -> i32,
// CHECK-SAME: tcc.hex = 16 : i32,
// CHECK-SAME: tcc.i1 = 1 : i1, tcc.i16 = -32768 : i16, tcc.i32 = -7 : i32, tcc.i64 = 42, tcc.i8 = -1 : i8, tcc.index = 3 : index,
// CHECK-SAME: tcc.inf = 0x7F800000 : f32,
// CHECK-SAME: tcc.ints = array<i32: 1, -2>,
// CHECK-SAME: tcc.list = [1, 2, 3],
// CHECK-SAME: tcc.nan = 0x7FC00000 : f32, tcc.neginf = 0xFF800000 : f32,
// CHECK-SAME: tcc.negzero = -0.0,
// CHECK-SAME: tcc.opaque = #tosa<shape 4>,
// CHECK-SAME: "tcc.quoted name" = 1,
// CHECK-SAME: tcc.quoted_sym = @"with space",
// CHECK-SAME: tcc.small = 1.0e-7 : f32,
// CHECK-SAME: tcc.str = "a\"b\\c\nd\te\01",
// CHECK-SAME: tcc.sym = @main,
// CHECK-SAME: tcc.type = tensor<2xf32>,
// CHECK-SAME: tcc.unit,
// CHECK-SAME: tcc.utf8 = "caf\C3\A9"} {
// CHECK-NEXT: func.func @main(%arg0: tensor<4xf32> {tcc.flag, tcc.name = "input"}, %arg1: tensor<2x3xf32>) -> (tensor<4xf32> {tcc.out}, tensor<2x3xf32>) attributes {tcc.entry} {
// CHECK-NEXT: return %arg0, %arg1 : tensor<4xf32>, tensor<2x3xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @declaration(tensor<4xf32>, i32) -> (f32, i1)
// CHECK-NEXT: func.func @types(%arg0: f32, %arg1: vector<4xf32>, %arg2: buffer<4x8xf32, [8, 1]>, %arg3: buffer<2xi64>, %arg4: tensor<4xf32, "NCHW">, %arg5: !tosa.shape<4>, %arg6: !foo.bar, %arg7: none, %arg8: index, %arg9: f16, %arg10: bf16, %arg11: i8, %arg12: i16, %arg13: (f32) -> (i1, i1), %arg14: tensor<0x3xi1>) {
// CHECK-NEXT: return
// CHECK-NEXT: }
// Trailing locations are accepted and dropped.
// CHECK-NEXT: func.func public @multi(%arg0: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
// CHECK-NEXT: %0 = graph.relu %arg0 : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %arg0, %0, %arg0 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.func nested @nested_visibility() {
// CHECK: func.func @"quoted name"() {
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NOT: loc(

#dense_alias = dense<[1, 2]> : tensor<2xi32>
#list = [1, 2, 3]
!vec4 = vector<4xf32>
!t = tensor<2x3xf32>

module @attributes attributes {tcc.bool_true = true, tcc.bool_false = false, tcc.unit, tcc.i64 = 42, tcc.i32 = -7 : i32, tcc.i8 = 255 : i8, tcc.i16 = -32768 : i16, tcc.i1 = 1 : i1, tcc.index = 3 : index, tcc.hex = 0x10 : i32, tcc.f64 = 2.5, tcc.f32 = 1.5 : f32, tcc.f16 = 0.5 : f16, tcc.bf16 = -2.0 : bf16, tcc.exp = 1.0e10, tcc.negzero = -0.0, tcc.small = 1.0e-7 : f32, tcc.str = "a\"b\\c\nd\te\01", tcc.utf8 = "caf\C3\A9", tcc.empty_str = "", tcc.array = [1, "two", 3.0, [4]], tcc.empty_array = [], tcc.dict = {b = 1, a = "x", nested = {c}}, tcc.sym = @main, tcc.quoted_sym = @"with space", tcc.type = tensor<2xf32>, tcc.fn_type = (f32, i1) -> i32, tcc.opaque = #tosa<shape 4>, tcc.alias = #dense_alias, tcc.list = #list, tcc.ints = array<i32: 1, -2>, tcc.floats = array<f32: 1.5, -0.25>, tcc.bools = array<i1: true, false>, tcc.empty_ints = array<i64>, "tcc.quoted name" = 1, tcc.nan = 0x7FC00000 : f32, tcc.inf = 0x7F800000 : f32, tcc.neginf = 0xFF800000 : f32, tcc.dense_special = dense<[0x7FC00000, 0x7F800000, 0xFF800000, -0.0]> : tensor<4xf32>, tcc.dense_f64_nan = dense<0x7FF8000000000000> : tensor<2xf64>} {
  func.func @main(%arg0: tensor<4xf32> {tcc.name = "input", tcc.flag}, %arg1: !t) -> (tensor<4xf32> {tcc.out}, !t) attributes {tcc.entry} {
    return %arg0, %arg1 : tensor<4xf32>, !t
  }
  func.func private @declaration(tensor<4xf32>, i32) -> (f32, i1)
  func.func @types(%a: f32, %b: !vec4, %c: buffer<4x8xf32, [8, 1]>, %d: buffer<2xi64>, %e: tensor<4xf32, "NCHW">, %f: !tosa.shape<4>, %g: !foo.bar, %h: none, %i: index, %j: f16, %k: bf16, %l: i8, %m: i16, %n: (f32) -> (i1, i1), %o: tensor<0x3xi1>) {
    return
  }
  func.func public @multi(%x: tensor<2xf32> loc("a.py":1:2)) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
    %0 = graph.relu %x : (tensor<2xf32>) -> tensor<2xf32> loc(unknown)
    return %x, %0, %x : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  }
  func.func nested @nested_visibility() {
    return
  }
  func.func @"quoted name"() {
    return
  }
}

// -----

// Generic ops with regions, block arguments and several blocks. Unregistered ops are
// not isolated from above, so a region sees the function's values; numbering of
// results and block arguments continues through nested regions.

// CHECK-LABEL: func.func @regions(%arg0: tensor<4xf32>, %arg1: i64) -> tensor<4xf32> {
// CHECK-NEXT: %0 = "test.loop"(%arg1) ({
// CHECK-NEXT: ^bb0(%arg2: i64, %arg3: tensor<4xf32>):
// CHECK-NEXT: %1 = graph.relu %arg3 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %2 = "test.add"(%1, %arg0) {tcc.note = "uses a value from above"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: "test.yield"(%2) : (tensor<4xf32>) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: "test.yield"() : () -> ()
// CHECK-NEXT: }) {kind = "sequential"} : (i64) -> tensor<4xf32>
// CHECK-NEXT: "test.multi_block"() ({
// CHECK-NEXT: ^bb0:
// CHECK-NEXT: "test.br"() : () -> ()
// CHECK-NEXT: ^bb1(%arg4: f32, %arg5: f32):
// CHECK-NEXT: %3:2 = "test.pair"(%arg4, %arg5) : (f32, f32) -> (f32, f32)
// CHECK-NEXT: "test.use"(%3#1, %3#0) : (f32, f32) -> ()
// CHECK-NEXT: }) : () -> ()
// CHECK-NEXT: "test.empty_region"() ({
// CHECK-NEXT: }) : () -> ()
// CHECK-NEXT: "test.no_results"(%0, %0) : (tensor<4xf32>, tensor<4xf32>) -> ()
// CHECK-NEXT: %4 = "test.nested"() ({
// CHECK-NEXT: "test.inner"() ({
// CHECK-NEXT: ^bb0(%arg6: i1):
// CHECK-NEXT: "test.yield"(%arg6) : (i1) -> ()
// CHECK-NEXT: }) : () -> ()
// CHECK-NEXT: }) : () -> i32
// CHECK-NEXT: return %0 : tensor<4xf32>
// CHECK-NEXT: }
func.func @regions(%arg0: tensor<4xf32>, %n: i64) -> tensor<4xf32> {
  %0 = "test.loop"(%n) ({
  ^bb0(%i: i64, %acc: tensor<4xf32>):
    %1 = graph.relu %acc : (tensor<4xf32>) -> tensor<4xf32>
    %2 = "test.add"(%1, %arg0) {tcc.note = "uses a value from above"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "test.yield"(%2) : (tensor<4xf32>) -> ()
  }, {
    "test.yield"() : () -> ()
  }) {kind = "sequential"} : (i64) -> tensor<4xf32>
  "test.multi_block"() ({
  ^entry:
    "test.br"() : () -> ()
  ^next(%x: f32, %y: f32):
    %z:2 = "test.pair"(%x, %y) : (f32, f32) -> (f32, f32)
    "test.use"(%z#1, %z#0) : (f32, f32) -> ()
  }) : () -> ()
  "test.empty_region"() ({
  }) : () -> ()
  "test.no_results"(%0, %0) : (tensor<4xf32>, tensor<4xf32>) -> ()
  %5 = "test.nested"() ({
    "test.inner"() ({
      ^bb0(%deep: i1):
        "test.yield"(%deep) : (i1) -> ()
    }) : () -> ()
  }) : () -> i32
  return %0 : tensor<4xf32>
}

// -----

// Two top-level modules are wrapped in an implicit one; a single explicit module is
// the module itself (not nested).

// CHECK-LABEL: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: module {
// CHECK-NEXT: func.func private @g(tensor<1xi1>)
// CHECK-NEXT: }
// CHECK-NEXT: module attributes {tcc.x = 1} {
// CHECK-NEXT: func.func private @f()
// CHECK-NEXT: }
// CHECK-NEXT: }
module {
  func.func private @g(tensor<1xi1>)
}
module attributes {tcc.x = 1} {
  func.func private @f()
}

// -----

// Locations, inline or through `#loc` aliases defined anywhere in the file, are
// accepted and dropped: tcc locates ops by their position in the parsed file.
// CHECK-LABEL: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @located(%arg0: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT: %0 = graph.abs %arg0 : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %0 : tensor<2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NOT: loc(
func.func @located(%x: tensor<2xf32> loc(#arg_loc)) -> tensor<2xf32> {
  %0 = graph.abs %x : (tensor<2xf32>) -> tensor<2xf32> loc(#op_loc)
  return %0 : tensor<2xf32> loc("model.py":12:3)
} loc(#func_loc)
#arg_loc = loc("model.py":10:7)
#op_loc = loc(fused["model.py":11:3, "torch/nn.py":99:1])
#func_loc = loc(unknown)

// -----

// Nesting well within the parser's depth limit is fine.
// CHECK: module attributes {tcc.deep = {{\[+}}1{{\]+}}} {
// CHECK-NEXT: func.func private @h()
module attributes {tcc.deep = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]} {
  func.func private @h()
}
