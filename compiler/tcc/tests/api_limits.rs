//! The Rust API under bad options and oversized models: a program embedding tcc gets
//! an `Err` for each, never an abort. The memory budget refuses a model before
//! anything is allocated; with it lifted, allocations no machine can satisfy are
//! errors too. Thread counts are checked as everywhere else (1 to 256).

use tcc::{Backend, Error, Runtime, Tensor};

/// y = x + 1 on 2x3 f32: 24 bytes of input, 24 of output, a 4-byte constant.
const ADD_ONE: &str = r#"func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = graph.constant {value = dense<1.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %0 = graph.add %x, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}"#;

fn splat_model(shape: &str) -> String {
    format!(
        r#"func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{
  %c = graph.constant {{value = dense<1.5> : tensor<{shape}xf32>}} : () -> tensor<{shape}xf32>
  %r = graph.reduce_max %c {{axes = [0, 1]}} : (tensor<{shape}xf32>) -> tensor<f32>
  %b = graph.broadcast_to %r {{shape = [4]}} : (tensor<f32>) -> tensor<4xf32>
  %0 = graph.add %x, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}}"#
    )
}

fn broadcast_matmul_model(rows: u64, cols: u64) -> String {
    format!(
        r#"func.func @main(%x: tensor<1x{cols}xf32>, %w: tensor<{cols}x1xf32>) -> tensor<{rows}x1xf32> {{
  %b = graph.broadcast_to %x {{shape = [{rows}, {cols}]}} : (tensor<1x{cols}xf32>) -> tensor<{rows}x{cols}xf32>
  %0 = graph.matmul %b, %w : (tensor<{rows}x{cols}xf32>, tensor<{cols}x1xf32>) -> tensor<{rows}x1xf32>
  return %0 : tensor<{rows}x1xf32>
}}"#
    )
}

fn error_text(r: Result<tcc::Model, Error>) -> (Error, String) {
    let e = r.expect_err("expected an error");
    let text = e.to_string();
    (e, text)
}

fn x() -> Tensor {
    Tensor::from_slice(&[0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0], &[2, 3]).unwrap()
}

#[test]
fn the_budget_refuses_models_before_allocating() {
    for backend in tcc::backend::compiled_backends() {
        let b = || Runtime::builder().backend(backend);
        let (e, text) = error_text(b().max_memory(51).load_str(ADD_ONE));
        assert!(matches!(e, Error::Compile(_)), "{e:?}");
        assert!(text.contains("needs 52 bytes") && text.contains("budget of 51 bytes"), "{text}");
        let y = b().max_memory(52).load_str(ADD_ONE).unwrap().run(&[x()]).unwrap();
        assert_eq!(y[0].as_slice::<f32>().unwrap(), &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        // 40 GB: over the default budget (a share of this machine's memory) and 1 GiB.
        for builder in [b(), b().max_memory(1 << 30)] {
            let (e, text) = error_text(builder.load_str(&splat_model("100000x100000")));
            assert!(matches!(e, Error::Compile(_)), "{e:?}");
            assert!(
                text.contains("<string>:2:8") && text.contains("tensor<100000x100000xf32> (40000000000 bytes)"),
                "{text}"
            );
            let (_, text) = error_text(b().max_memory(1 << 30).load_str(&broadcast_matmul_model(100000, 100000)));
            assert!(text.contains("37.3 GiB of workspace"), "{text}");
        }
    }
}

#[test]
fn allocations_past_a_lifted_budget_are_errors() {
    // 2^46 bytes (64 TiB): refused by Linux unless it overcommits always.
    if std::fs::read_to_string("/proc/sys/vm/overcommit_memory").is_ok_and(|m| m.trim() == "1") {
        eprintln!("skipped: vm.overcommit_memory = 1 grants any allocation");
        return;
    }
    for backend in tcc::backend::compiled_backends() {
        let b = || Runtime::builder().backend(backend).max_memory(u64::MAX);
        let (e, text) = error_text(b().load_str(&splat_model("16777216x1048576")));
        assert!(matches!(e, Error::Compile(_)), "{e:?}");
        assert!(text.contains("constant tensor<16777216x1048576xf32>: cannot allocate 70368744177664 bytes"), "{text}");
        let (e, text) = error_text(b().load_str(&broadcast_matmul_model(16777216, 1048576)));
        assert!(matches!(e, Error::Run(_)), "{e:?}");
        assert!(text.contains("workspace: cannot allocate 70368744177664 bytes"), "{text}");
    }
}

#[test]
fn thread_counts_are_checked() {
    for bad in [0, 257, 1 << 20, usize::MAX] {
        let (e, text) = error_text(Runtime::builder().threads(bad).load_str(ADD_ONE));
        assert!(matches!(e, Error::InvalidOption(_)), "{bad}: {e:?}");
        assert!(text.contains("invalid thread count"), "{text}");
    }
    for ok in [1, 2, 7, 256] {
        let m = Runtime::builder().threads(ok).load_str(ADD_ONE).unwrap();
        assert_eq!(m.threads(), ok);
        assert_eq!(m.run(&[x()]).unwrap()[0].as_slice::<f32>().unwrap()[5], 6.0);
    }
    let compiled =
        tcc::compile(tcc::parse_model("m", ADD_ONE.as_bytes().to_vec()).unwrap(), &Default::default(), false);
    let e = tcc::Model::from_compiled(compiled.unwrap(), 0).expect_err("0 threads");
    assert!(matches!(e, Error::InvalidOption(_)), "{e:?}");
}

#[test]
fn only_regular_files_are_loaded() {
    for path in ["/dev/zero", "/"] {
        let (e, text) = error_text(Runtime::load(path));
        assert!(matches!(e, Error::Io(_)), "{e:?}");
        assert!(text.contains("not a regular file"), "{text}");
    }
    let (e, _) = error_text(Runtime::builder().backend(Backend::Cranelift).load("/no/such/model.mlir"));
    assert!(matches!(e, Error::Io(_)), "{e:?}");
}

/// A model file large enough to be memory-mapped: `ADD_ONE` after a 2 MiB comment,
/// with `tail` appended.
fn large_model_file(name: &str, tail: &[u8]) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("tcc-api-limits-{}-{name}.mlir", std::process::id()));
    let mut bytes = format!("// {}\n{ADD_ONE}\n", "x".repeat(2 << 20)).into_bytes();
    bytes.extend_from_slice(tail);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn large_files_are_mapped_and_parsed_with_located_errors() {
    let good = large_model_file("good", b"");
    let model = Runtime::load(&good).unwrap();
    let y = model.run(&[x()]).unwrap();
    assert_eq!(y[0].as_slice::<f32>().unwrap(), &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);

    let bad_utf8 = large_model_file("utf8", b"// \xff\n");
    let (_, text) = error_text(Runtime::load(&bad_utf8));
    assert!(text.contains(":7:4: error: input is not valid UTF-8"), "{text}");

    let bad_op = large_model_file("op", b"%z = nonsense\n");
    let (_, text) = error_text(Runtime::load(&bad_op));
    assert!(text.contains(":7:6: error: unknown operation 'nonsense'"), "{text}");
    for p in [good, bad_utf8, bad_op] {
        std::fs::remove_file(p).unwrap();
    }
}
