//! The text format: round trips (printing is a fixed point, generic and pretty forms
//! agree) and located errors for malformed input, including inputs built to break a
//! naive parser (deep nesting, huge numbers, invalid UTF-8, truncation).

use tcc_ir::*;

fn registry() -> Registry {
    let mut r = Registry::new();
    r.allow_unregistered = true;
    r
}

fn parse(src: &str) -> Result<Module, Diagnostics> {
    parse_bytes("t.mlir", src.as_bytes(), &registry()).and_then(|m| verify(&m).map(|_| m))
}

/// Parses, prints, re-parses and checks the fixed point in both forms; returns the text.
fn round_trip(src: &str) -> String {
    let m = parse(src).unwrap_or_else(|e| panic!("{e}"));
    let pretty = print_module(&m, PrintOptions::default());
    let generic = print_module(&m, PrintOptions { generic: true, ..Default::default() });
    let again = parse(&pretty).unwrap_or_else(|e| panic!("{e}\n{pretty}"));
    assert_eq!(print_module(&again, PrintOptions::default()), pretty);
    let from_generic = parse(&generic).unwrap_or_else(|e| panic!("{e}\n{generic}"));
    assert_eq!(print_module(&from_generic, PrintOptions { generic: true, ..Default::default() }), generic);
    assert_eq!(print_module(&from_generic, PrintOptions::default()), pretty);
    pretty
}

/// The error for `src`, checked to be located at `line:col`.
fn error_at(src: &str, line: u32, col: u32) -> String {
    let e = match parse(src) {
        Ok(_) => panic!("expected an error for:\n{src}"),
        Err(e) => e,
    };
    let d = &e.0[0];
    assert_eq!((d.loc.line(), d.loc.col()), (line, col), "wrong location for {:?}: {e}", d.message);
    d.message.clone()
}

#[test]
fn round_trips_structure_and_attributes() {
    let out = round_trip(
        r#"
#map = "aliased"
!t = tensor<2xf32>
module @m attributes {foo.bar = 3 : i32} {
  func.func private @decl(i32) -> f32
  func.func @main(%x: !t {arg.note = "n"}, %y: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) attributes {test.keep} {
    %0:2 = "test.two"(%x, %y) {a = 1, b = [1, 2.5, "s"], c = array<i64: 3, 4>, d = dense<[1.0, 2.5]> : tensor<2xf32>,
        e = "q\"\\\n", f, g = 1.5 : f32, h = dense_resource<blob1> : tensor<2xf32>, i = #map, j = @decl,
        k = {x = true, y = false}, l = f64, m = #test<thing[1, 2]>, n = !test.ty<3>, o = 0x7FC00000 : f32,
        p = dense<"0x0000803F00000040"> : tensor<2xf32>, q = dense<7> : tensor<3xi8>, r = array<f32: 1.5, -2.0>,
        s = -7 : i16, t = dense<> : tensor<0xf32>, u = dense<[[true, false]]> : tensor<1x2xi1>} : (!t, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
    %1 = "test.region"(%0#1) ({
    ^bb0(%a: f32):
      "test.yield"(%a) : (f32) -> ()
    ^bb1:
      "test.yield"() : () -> ()
    }) : (tensor<2xf32>) -> tensor<2xf32> loc("x.py":1:2)
    return %0#0, %1 : tensor<2xf32>, tensor<2xf32>
  }
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}
"#,
    );
    assert!(out.contains("module @m attributes {foo.bar = 3 : i32} {"), "{out}");
    assert!(out.contains("func.func private @decl(i32) -> f32"), "{out}");
    assert!(out.contains("%arg0: tensor<2xf32> {arg.note = \"n\"}"), "{out}");
    assert!(out.contains("o = 0x7FC00000 : f32"), "{out}");
    assert!(out.contains("i = \"aliased\""), "{out}");
    assert!(out.contains("p = dense<[1.0, 2.0]> : tensor<2xf32>"), "{out}");
    assert!(out.contains("q = dense<7> : tensor<3xi8>"), "{out}");
    assert!(out.contains("blob1: \"0x040000000000803F00000040\""), "{out}");
    assert!(out.contains("^bb1:"), "{out}");
}

#[test]
fn location_aliases_are_accepted() {
    let src =
        "func.func @f() {\n  return loc(#loc1)\n} loc(#loc)\n#loc = loc(\"m.py\":1:1)\n#loc1 = loc(\"m.py\":2:5)\n";
    let m = parse(src).unwrap_or_else(|e| panic!("{e}"));
    assert!(m.func("f").is_some());
}

#[test]
fn large_constants_print_as_hex_and_share_resources() {
    let vals: Vec<String> = (0..40).map(|i| format!("{i}.5")).collect();
    let src = format!(
        "func.func @f() -> tensor<40xf32> {{\n  %0 = \"test.c\"() {{v = dense<[{}]> : tensor<40xf32>}} : () -> tensor<40xf32>\n  return %0 : tensor<40xf32>\n}}\n",
        vals.join(", ")
    );
    let out = round_trip(&src);
    assert!(out.contains("dense<\"0x0000003F"), "{out}");
    // A resource used twice is printed once and shared by both attributes.
    let src = "func.func @f() {\n  \"test.a\"() {v = dense_resource<w> : tensor<1xf32>} : () -> ()\n  \"test.b\"() {v = dense_resource<w> : tensor<1xf32>} : () -> ()\n  return\n}\n{-# dialect_resources: { builtin: { w: \"0x040000000000803F\" } } #-}\n";
    let m = parse(src).unwrap();
    let f = m.func("f").unwrap();
    let ops: Vec<Op> = m.block_ops(builtin::func_entry(&m, f).unwrap()).collect();
    let r0 = m.attr(ops[0], "v").unwrap().as_dense().unwrap().resource().unwrap().clone();
    let r1 = m.attr(ops[1], "v").unwrap().as_dense().unwrap().resource().unwrap().clone();
    assert!(std::sync::Arc::ptr_eq(&r0, &r1));
    assert_eq!(print_module(&m, PrintOptions::default()).matches("w: \"0x").count(), 1);
}

#[test]
fn floats_round_trip_bit_exactly() {
    for bits in [0x3DCCCCCDu32, 0x00000001, 0x7F7FFFFF, 0x80000000, 0x33D6BF95, 0x7F800000, 0xFF800000] {
        let v = f32::from_bits(bits);
        let attr = Attribute::Float(v as f64, ScalarType::F32);
        let src = format!("\"test.op\"() {{v = {attr}}} : () -> ()\n");
        let m = parse(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        let op = m.block_ops(m.body()).next().unwrap();
        let got = m.attr(op, "v").unwrap().as_f64().unwrap() as f32;
        assert_eq!(got.to_bits(), bits, "{src}");
    }
}

#[test]
fn errors_are_located() {
    assert!(error_at("func.func @f() {\n  return %x : f32\n}\n", 2, 10).contains("undefined value '%x'"));
    assert!(error_at("\"a.b\"() : () -> tensor<?xf32>\n", 1, 24).contains("dynamic dimensions"));
    assert!(error_at("\"a.b\"() : () -> tensor<*xf32>\n", 1, 23).contains("unranked"));
    assert!(error_at("\"a.b\"() : () -> tensor<99999999999999999999xf32>\n", 1, 24).contains("too large"));
    assert!(error_at("\"a.b\"() : () -> tensor<4294967296x4294967296xf32>\n", 1, 17).contains("too large"));
    assert!(error_at("\"a.b\"() {v = 300 : i8} : () -> ()\n", 1, 14).contains("out of range for i8"));
    assert!(error_at("\"a.b\"() {v = dense<[1, 2]> : tensor<3xi32>} : () -> ()\n", 1, 14).contains("shape [2]"));
    assert!(error_at("\"a.b\"() {v = dense<\"0x0011\"> : tensor<3xi32>} : () -> ()\n", 1, 14).contains("bytes"));
    assert!(error_at("\"a.b\"() {v = dense_resource<r> : tensor<2xf32>} : () -> ()\n", 1, 14).contains("not defined"));
    let wrong_size = "\"a.b\"() {v = dense_resource<r> : tensor<2xf32>} : () -> ()\n{-# dialect_resources: { builtin: { r: \"0x0400000000000000\" } } #-}\n";
    assert!(error_at(wrong_size, 1, 14).contains("holds 4 bytes"));
    assert!(error_at("\"a.b\"() {v = \"abc} : () -> ()\n", 1, 14).contains("unterminated string"));
    assert!(error_at("\"a.b\"() {v = \"\\q\"} : () -> ()\n", 1, 14).contains("escape"));
    assert!(
        error_at("func.func @f(%a: f32) {\n  %0 = \"a.b\"(%a) : (i32) -> f32\n", 2, 14)
            .contains("expects different type")
    );
    assert!(
        error_at("func.func @f() {\n  %0 = \"a.b\"() : () -> f32\n  %0 = \"a.b\"() : () -> f32\n", 3, 3)
            .contains("redefinition")
    );
    assert!(
        error_at("func.func @f() -> f32 {\n  %0 = \"a.b\"() : () -> i32\n  return %0 : i32\n}\n", 3, 3)
            .contains("doesn't match function result type")
    );
    assert!(
        error_at("func.func @f() {\n  func.func @g() {\n    return\n  }\n}\n", 1, 1)
            .contains("must end with a terminator")
    );
    assert!(error_at("func.func @f() {\n  foo.bar\n", 2, 3).contains("unknown operation 'foo.bar'"));
    assert!(error_at("\"a.b\"()[^bb1] : () -> ()\n", 1, 8).contains("successors"));
    assert!(error_at("\"a.b\"() : () -> memref<2xf32>\n", 1, 17).contains("not supported"));
    assert!(error_at("\"a.b\"() : () -> ui8\n", 1, 17).contains("not supported"));
    assert!(error_at("\"a.b\"() : () -> foo\n", 1, 17).contains("unknown type"));
    assert!(error_at("func.func @f() {\n", 2, 1).contains("end of file"));
    assert!(error_at("func.func @f() {\n}\n", 1, 16).contains("function body is empty"));
    assert!(error_at("\"a.b\"() {v = #undefined} : () -> ()\n", 1, 14).contains("undefined attribute alias"));
    assert!(error_at("\"a.b\"() {v = 1, v = 2} : () -> ()\n", 1, 17).contains("duplicate attribute"));
}

#[test]
fn invalid_utf8_is_located() {
    let bytes = b"func.func @f() {\n  \"a.b\"() {s = \"\xff\"} : () -> ()\n";
    let e = parse_bytes("t.mlir", bytes, &registry()).unwrap_err();
    let d = &e.0[0];
    assert!(d.message.contains("UTF-8"));
    assert_eq!((d.loc.line(), d.loc.col()), (2, 17));
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let n = 100_000;
    let cases = [
        format!("\"a.b\"() {{v = {}1{}}} : () -> ()", "[".repeat(n), "]".repeat(n)),
        format!("\"a.b\"() {{v = {}}} : () -> ()", "{x = ".repeat(n)),
        format!("\"a.b\"() : () -> {}", "(".repeat(n)),
        format!("\"a.b\"() {{v = dense<{}1{}> : tensor<1xf32>}} : () -> ()", "[".repeat(n), "]".repeat(n)),
        format!("{}{}", "\"a.b\"() ({".repeat(n), "})".repeat(n)),
        format!("func.func @f() {{ {} }}", "\"a.b\"() ({ ".repeat(n)),
    ];
    // Run on a small stack to prove recursion is bounded.
    let handle = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            for src in cases {
                let e = parse(&src).expect_err("deep nesting must fail");
                assert!(e.0[0].message.contains("nesting") || e.0[0].message.contains("expected"), "{e}");
            }
        })
        .unwrap();
    handle.join().expect("parser overflowed its stack or panicked");
}

#[test]
fn truncations_of_a_valid_file_never_panic() {
    let src = r#"module {
  func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = "t.op"(%x) {a = [1, 2], b = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, r = dense_resource<w> : tensor<1xf32>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
{-# dialect_resources: { builtin: { w: "0x040000000000803F" } } #-}
"#;
    assert!(parse(src).is_ok());
    for cut in 0..src.len() {
        let truncated = &src.as_bytes()[..cut];
        let _ = parse_bytes("t.mlir", truncated, &registry()).and_then(|m| verify(&m));
    }
}

/// Inputs the fuzzer found crashing once; each must now give an error.
#[test]
fn fuzz_regressions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let _ = parse_bytes("crash.mlir", &bytes, &registry()).and_then(|m| verify(&m));
        n += 1;
    }
    assert!(n > 0, "no regression inputs in {}", dir.display());
}
