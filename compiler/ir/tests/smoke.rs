use tcc_ir::*;

fn rt(src: &str) -> String {
    let mut reg = Registry::new();
    reg.allow_unregistered = true;
    let m = parse_bytes("t.mlir", src.as_bytes(), &reg).unwrap_or_else(|e| panic!("{e}"));
    verify(&m).unwrap_or_else(|e| panic!("{e}"));
    let a = print_module(&m, PrintOptions::default());
    let m2 = parse_bytes("t2.mlir", a.as_bytes(), &reg).unwrap_or_else(|e| panic!("{e}\n{a}"));
    let b = print_module(&m2, PrintOptions::default());
    assert_eq!(a, b);
    let g = print_module(&m, PrintOptions { generic: true });
    let m3 = parse_bytes("t3.mlir", g.as_bytes(), &reg).unwrap_or_else(|e| panic!("{e}\n{g}"));
    assert_eq!(print_module(&m3, PrintOptions { generic: true }), g);
    assert_eq!(print_module(&m3, PrintOptions::default()), a);
    a
}

#[test]
fn smoke() {
    let out = rt(r#"
func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0:2 = "test.two"(%x, %y) {a = 1, b = [1, 2], c = array<i64: 3, 4>, d = dense<[1.0, 2.5]> : tensor<2xf32>, e = "s\"q", f, g = 1.5 : f32, h = dense_resource<blob1> : tensor<2xf32>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  %1 = "test.one"(%0#1) ({
  ^bb0(%a: f32):
    "test.yield"(%a) : (f32) -> ()
  }) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0#0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}
"#);
    println!("{out}");
}
