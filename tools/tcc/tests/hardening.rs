//! Bad input and oversized models through the `tcc` binary: every case exits with a
//! clear message and status 1 (2 for a bad command line), never by a signal (an abort
//! on a failed allocation, a segfault) and never by reading without end.
//!
//! The memory cases are the ones that once aborted the process: a 100000x100000 splat
//! constant, a broadcast to 100000x100000 feeding a matmul, a 1073741824x4
//! intermediate, `tcc bench` of a softmax on tensor<2x99999999999x4x5xf32>. With the
//! default budget they are refused when compiled; with the budget lifted, sizes no
//! machine has (2^46 bytes, the largest a tensor type may have) show that the
//! allocations themselves fail with an error rather than an abort.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A fresh directory for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tcc-hardening-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

fn tcc(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tcc"));
    c.args(args).env_remove("TCC_NUM_THREADS").env_remove("TCC_INJECT_PANIC").env_remove("RUST_BACKTRACE");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

/// Asserts `tcc args` exits with `code` (not by a signal) and its stderr contains
/// every one of `wanted`.
fn fails(args: &[&str], env: &[(&str, &str)], code: i32, wanted: &[&str]) {
    let out = tcc(args, env);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "tcc {args:?}: {:?}\n{err}", out.status);
    for w in wanted {
        assert!(err.contains(w), "tcc {args:?}: stderr lacks '{w}':\n{err}");
    }
}

fn succeeds(args: &[&str], env: &[(&str, &str)]) -> String {
    let out = tcc(args, env);
    assert!(out.status.success(), "tcc {args:?}: {:?}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A .npy file's bytes: a version 1.0 header for `descr` and `shape` in C order, then
/// `data`.
fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    npy_in_order(descr, "False", shape, data)
}

fn npy_in_order(descr: &str, fortran: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    let mut dict = format!("{{'descr': '{descr}', 'fortran_order': {fortran}, 'shape': {shape}, }}");
    while (10 + dict.len() + 1) % 64 != 0 {
        dict.push(' ');
    }
    dict.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((dict.len() as u16).to_le_bytes());
    out.extend(dict.as_bytes());
    out.extend(data);
    out
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// y = x + 1 on 2x3 f32.
const ADD_ONE: &str = r#"func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = graph.constant {value = dense<1.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %0 = graph.add %x, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
"#;

/// A splat constant of `shape` (`AxB`) reduced to a scalar added to a 4-vector: the
/// constant is the model's only large tensor.
fn splat_model(shape: &str, dims: &str) -> String {
    format!(
        r#"func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{
  %c = graph.constant {{value = dense<1.5> : tensor<{shape}xf32>}} : () -> tensor<{shape}xf32>
  %r = graph.reduce_max %c {{axes = {dims}}} : (tensor<{shape}xf32>) -> tensor<f32>
  %b = graph.broadcast_to %r {{shape = [4]}} : (tensor<f32>) -> tensor<4xf32>
  %0 = graph.add %x, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}}
"#
    )
}

/// A row broadcast to `rows` x `cols` feeding a matmul: the broadcast is materialized
/// in the workspace.
fn broadcast_matmul_model(rows: u64, cols: u64) -> String {
    format!(
        r#"func.func @main(%x: tensor<1x{cols}xf32>, %w: tensor<{cols}x1xf32>) -> tensor<{rows}x1xf32> {{
  %b = graph.broadcast_to %x {{shape = [{rows}, {cols}]}} : (tensor<1x{cols}xf32>) -> tensor<{rows}x{cols}xf32>
  %0 = graph.matmul %b, %w : (tensor<{rows}x{cols}xf32>, tensor<{cols}x1xf32>) -> tensor<{rows}x1xf32>
  return %0 : tensor<{rows}x1xf32>
}}
"#
    )
}

const BIG_INTERMEDIATE: &str = r#"func.func @main(%x: tensor<1073741824x4xf32>) -> tensor<4xf32> {
  %e = graph.exp %x : (tensor<1073741824x4xf32>) -> tensor<1073741824x4xf32>
  %r = graph.reduce_sum %e {axes = [0]} : (tensor<1073741824x4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"#;

const HUGE_SOFTMAX: &str = r#"func.func @main(%x: tensor<2x99999999999x4x5xf32>) -> tensor<2x99999999999x4x5xf32> {
  %0 = graph.softmax %x {axis = 3} : (tensor<2x99999999999x4x5xf32>) -> tensor<2x99999999999x4x5xf32>
  return %0 : tensor<2x99999999999x4x5xf32>
}
"#;

#[test]
fn models_over_the_memory_budget_are_refused_when_compiled() {
    let dir = scratch("budget");
    let splat = write(&dir, "splat.mlir", splat_model("100000x100000", "[0, 1]"));
    let bmm = write(&dir, "bmm.mlir", broadcast_matmul_model(100000, 100000));
    let inter = write(&dir, "inter.mlir", BIG_INTERMEDIATE);
    let softmax = write(&dir, "softmax.mlir", HUGE_SOFTMAX);
    // A budget small enough for any CI machine: 1 GiB.
    for backend in common::backends() {
        let b = ["--backend", backend, "--max-memory", "1G"];
        let with = |args: &[&'static str], model: &str| -> Vec<String> {
            args.iter()
                .map(|s| s.to_string())
                .chain([model.to_string()])
                .chain(b.iter().map(|s| s.to_string()))
                .collect()
        };
        let check = |args: Vec<String>, located: &str, wanted: &[&str]| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let mut all = vec![located, "more than the budget of 1.0 GiB"];
            all.extend(wanted);
            fails(&args, &[], 1, &all);
        };
        let big = "its largest tensor is tensor<100000x100000xf32> (40000000000 bytes)";
        check(
            with(&["run"], &splat),
            "splat.mlir:2:8: error: the model needs 37.3 GiB",
            &[big, "37.3 GiB of expanded constants"],
        );
        check(with(&["bench"], &splat), "splat.mlir:2:8: error", &[big]);
        check(with(&["--emit=obj", "-o", "/dev/null"], &splat), "splat.mlir:2:8: error", &[big]);
        check(with(&["run"], &bmm), "bmm.mlir:2:8: error", &[big, "37.3 GiB of workspace"]);
        check(
            with(&["run"], &inter),
            "inter.mlir:",
            &["tensor<1073741824x4xf32> (17179869184 bytes)", "16.0 GiB of inputs"],
        );
        check(with(&["bench"], &softmax), "softmax.mlir:1:1: error", &["29.1 TiB", "(15999999999840 bytes)"]);
    }
    // The default budget (a share of this machine's memory) refuses them too.
    fails(&["run", &splat], &[], 1, &["more than the budget of", "--max-memory"]);
    fails(&["bench", &softmax], &[], 1, &["more than the budget of"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_budget_counts_every_buffer_of_a_run() {
    let dir = scratch("exact");
    let model = write(&dir, "add.mlir", ADD_ONE);
    let x = write(&dir, "x.npy", npy("<f4", "(2, 3)", &f32_bytes(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])));
    // 24 bytes of input, 24 of output, 4 of the constant (a uniform constant is one
    // value), no workspace.
    fails(
        &["run", &model, "-i", &x, "--max-memory", "51"],
        &[],
        1,
        &[
            "the model needs 52 bytes",
            "(24 bytes of inputs, 24 bytes of outputs, 0 bytes of workspace",
            "budget of 51 bytes",
        ],
    );
    let out = succeeds(&["run", &model, "-i", &x, "--max-memory", "52"], &[]);
    assert!(out.contains("min 2.000000 max 7.000000"), "{out}");
    for bad in ["0", "12X", "-5", "abc", "16E"] {
        fails(&["run", &model, "-i", &x, &format!("--max-memory={bad}")], &[], 2, &["--max-memory"]);
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A model whose weights (2 MiB, with data) are its bulk: `x[1, 512] @ W[512, 1024]`.
fn weight_model() -> String {
    let w: Vec<f32> = (0..512 * 1024).map(|i| (i % 7) as f32 * 0.125).collect();
    let hex: String = f32_bytes(&w).iter().map(|b| format!("{b:02X}")).collect();
    format!(
        r#"func.func @main(%x: tensor<1x512xf32>) -> tensor<1x1024xf32> {{
  %w = graph.constant {{value = dense<"0x{hex}"> : tensor<512x1024xf32>}} : () -> tensor<512x1024xf32>
  %y = graph.matmul %x, %w : (tensor<1x512xf32>, tensor<512x1024xf32>) -> tensor<1x1024xf32>
  return %y : tensor<1x1024xf32>
}}
"#
    )
}

#[test]
fn weights_count_against_the_budget() {
    let dir = scratch("weights");
    let model = write(&dir, "weights.mlir", weight_model());
    let x = write(&dir, "x.npy", npy("<f4", "(1, 512)", &f32_bytes(&[1.0; 512])));
    // Refused as read, before the weights are packed: they alone exceed the budget.
    fails(
        &["run", &model, "-i", &x, "--max-memory", "1M"],
        &[],
        1,
        &["weights.mlir:2:8: error: the model's weights take 2.0 MiB", "budget of 1.0 MiB", "tensor<512x1024xf32>"],
    );
    // The same weight in TOSA (`tosa.const`), refused as read too.
    let hex = weight_model().split('"').nth(1).expect("the weight's hex").to_string();
    let tosa = write(
        &dir,
        "tosa.mlir",
        format!(
            "func.func @main(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> {{\n  %w = \"tosa.const\"() <{{values = \
             dense<\"{hex}\"> : tensor<512x1024xf32>}}> : () -> tensor<512x1024xf32>\n  %0 = tosa.add %x, %w : \
             (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32>\n  return %0 : tensor<512x1024xf32>\n}}\n"
        ),
    );
    let object = dir.join("tosa.o");
    fails(
        &[&tosa, "--emit=obj", "-o", object.to_str().unwrap(), "--max-memory", "1M"],
        &[],
        1,
        &["tosa.mlir:2:8: error: the model's weights take 2.0 MiB"],
    );
    // Weights (2097152 bytes) under the budget, the whole run (6 KiB more: the input and
    // the output) over it: refused after lowering, the weights counted with the rest.
    fails(&["run", &model, "-i", &x, "--max-memory", "2100000"], &[], 1, &["2.0 MiB of weights", "budget of 2.0 MiB"]);
    succeeds(&["run", &model, "-i", &x, "--max-memory", "64M"], &[]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn allocations_beyond_the_budget_fail_with_errors_not_aborts() {
    // 2^46 bytes (64 TiB) and 16 TB: Linux refuses allocations larger than memory and
    // swap together, unless told to overcommit always (vm.overcommit_memory = 1),
    // where the zeroing would touch the pages instead.
    if std::fs::read_to_string("/proc/sys/vm/overcommit_memory").is_ok_and(|m| m.trim() == "1") {
        eprintln!("skipped: vm.overcommit_memory = 1 grants any allocation");
        return;
    }
    let dir = scratch("alloc");
    let splat = write(&dir, "splat.mlir", splat_model("16777216x1048576", "[0, 1]"));
    let bmm = write(&dir, "bmm.mlir", broadcast_matmul_model(16777216, 1048576));
    let softmax = write(&dir, "softmax.mlir", HUGE_SOFTMAX);
    let x = write(&dir, "x.npy", npy("<f4", "(4,)", &f32_bytes(&[1.0; 4])));
    for backend in common::backends() {
        let lifted = ["--backend", backend, "--max-memory", "8E"];
        let args = |a: &[&'static str]| -> Vec<&str> { a.iter().copied().chain(lifted).collect() };
        fails(
            &[args(&["run"]), vec![splat.as_str(), "-i", x.as_str()]].concat(),
            &[],
            1,
            &["out of memory: constant tensor<16777216x1048576xf32>: cannot allocate 70368744177664 bytes"],
        );
        fails(
            &[args(&["run"]), vec![bmm.as_str()]].concat(),
            &[],
            1,
            &["cannot load the model: workspace: cannot allocate 70368744177664 bytes"],
        );
        // No workspace: the model loads, then bench's random input cannot be made.
        fails(
            &[args(&["bench"]), vec![softmax.as_str()]].concat(),
            &[],
            1,
            &["random input #0: tensor f32[2, 99999999999, 4, 5]: cannot allocate 15999999999840 bytes"],
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn thread_counts_are_validated_everywhere() {
    let dir = scratch("threads");
    let model = write(&dir, "add.mlir", ADD_ONE);
    let x = write(&dir, "x.npy", npy("<f4", "(2, 3)", &f32_bytes(&[0.0; 6])));
    for bad in ["0", "257", "1000", "-1", "abc", "99999999999999999999999"] {
        fails(&["run", &model, "-i", &x, &format!("--threads={bad}")], &[], 2, &["--threads"]);
        fails(&["bench", &model, &format!("--threads={bad}")], &[], 2, &["--threads"]);
    }
    fails(&["run", &model, "-i", &x, "--threads", "0"], &[], 2, &["it must be from 1 to 256"]);
    fails(&["run", &model, "-i", &x, "--threads", "257"], &[], 2, &["at most 256 threads"]);
    // A negative value after a space is the option's value, refused for what it is (not
    // clap's "use '-- -1'" tip).
    for (option, wanted) in [
        ("--threads", "invalid value '-1' for '--threads <THREADS>'"),
        ("--runs", "invalid value '-1' for '--runs <RUNS>'"),
        ("--warmup", "invalid value '-1' for '--warmup <WARMUP>'"),
        ("--max-memory", "invalid value '-1' for '--max-memory <SIZE>'"),
    ] {
        let out = tcc(&["bench", &model, option, "-1"], &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{option} -1: {err}");
        assert!(err.contains(wanted) && !err.contains("tip:"), "{option} -1: {err}");
    }
    for bad in ["abc", "0", "-2", "300", "99999999999999999999999", "2.5"] {
        let env = [("TCC_NUM_THREADS", bad)];
        fails(&["run", &model, "-i", &x], &env, 1, &["TCC_NUM_THREADS"]);
        fails(&["bench", &model, "--runs", "1"], &env, 1, &["TCC_NUM_THREADS"]);
        // An explicit count does not consult the variable.
        succeeds(&["run", &model, "-i", &x, "--threads", "2"], &env);
    }
    fails(&["run", &model, "-i", &x], &[("TCC_NUM_THREADS", "abc")], 1, &["invalid TCC_NUM_THREADS 'abc'"]);
    // The limit itself and an empty variable (the default) are fine.
    succeeds(&["run", &model, "-i", &x, "--threads", "256"], &[]);
    succeeds(&["run", &model, "-i", &x], &[("TCC_NUM_THREADS", "")]);
    succeeds(&["run", &model, "-i", &x], &[("TCC_NUM_THREADS", "3")]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn model_files_must_be_regular_files() {
    let dir = scratch("model-file");
    let d = dir.to_str().unwrap();
    for path in ["/dev/zero", d] {
        fails(&["run", path], &[], 1, &[&format!("cannot read '{path}': not a regular file")]);
        fails(&["bench", path], &[], 1, &["not a regular file"]);
        fails(&[path, "--emit=graph"], &[], 1, &["not a regular file"]);
    }
    fails(&["run", &format!("{d}/missing.mlir")], &[], 1, &["cannot read", "missing.mlir"]);
    std::fs::remove_dir_all(&dir).ok();
}

/// `tcc args` with a time limit: a FIFO without a writer blocked `open()` forever.
fn tcc_within(args: &[&str], env: &[(&str, &str)], seconds: u64) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tcc"));
    c.args(args).env_remove("TCC_NUM_THREADS").stdout(Stdio::piped()).stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed().as_secs() >= seconds {
            child.kill().unwrap();
            panic!("tcc {args:?} did not finish within {seconds} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn fifos_and_endless_files_are_refused_at_once() {
    let dir = scratch("fifo");
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let fifo = fifo.to_str().unwrap();
    let model = write(&dir, "add.mlir", ADD_ONE);
    let x = write(&dir, "x.npy", npy("<f4", "(2, 3)", &f32_bytes(&[1.0; 6])));
    let refused = |args: &[&str], env: &[(&str, &str)], wanted: &str| {
        let out = tcc_within(args, env, 30);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "tcc {args:?}: {:?}\n{err}", out.status);
        assert!(err.contains(wanted), "tcc {args:?}: stderr lacks '{wanted}':\n{err}");
    };
    // The model, an input, a reference output, a cost database.
    refused(&["run", fifo], &[], "not a regular file but a FIFO");
    refused(&["run", &model, "-i", fifo], &[], "not a regular file but a FIFO");
    refused(&["run", &model, "-i", &x, "--expect", fifo], &[], "not a regular file but a FIFO");
    for db in [fifo, "/dev/zero"] {
        refused(&["run", &model, "-i", &x, "--cost-db", db], &[], "not a regular file");
    }
    // The peak and bandwidth caches as a FIFO and a link to /dev/zero: ignored (the
    // measurements are taken again), the run ends normally.
    let cache = dir.join("cache");
    std::fs::create_dir_all(cache.join("tcc")).unwrap();
    assert!(Command::new("mkfifo").arg(cache.join("tcc").join("fma-peak")).status().unwrap().success());
    std::os::unix::fs::symlink("/dev/zero", cache.join("tcc").join("bandwidth")).unwrap();
    let out = tcc_within(&["bench", &model, "--runs", "2"], &[("XDG_CACHE_HOME", cache.to_str().unwrap())], 120);
    assert!(out.status.success(), "{:?}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    std::fs::remove_dir_all(&dir).ok();
}

/// A billion channels and more: refused by the budget at once, and a pool compiled
/// (nothing sized by the channels allocated) when the budget allows it. The layout
/// analysis of a pool's blocked input listed one offset per channel, 8-32 GB, and
/// aborted either way.
#[test]
fn huge_channel_counts_are_refused_by_the_budget_not_aborts() {
    let dir = scratch("channels");
    for c in ["1000000000", "4000000000"] {
        let pool = write(
            &dir,
            &format!("pool{c}.mlir"),
            format!(
                "func.func @main(%x: tensor<1x{c}x2x2xf32>) -> tensor<1x{c}x1x1xf32> {{\n  %0 = graph.max_pool2d %x \
                 {{kernel = [2, 2], strides = [2, 2]}} : (tensor<1x{c}x2x2xf32>) -> tensor<1x{c}x1x1xf32>\n  return %0 : \
                 tensor<1x{c}x1x1xf32>\n}}\n"
            ),
        );
        let conv = write(
            &dir,
            &format!("conv{c}.mlir"),
            format!(
                "func.func @main(%x: tensor<1x{c}x2x2xf32>) -> tensor<1x{c}x2x2xf32> {{\n  %w = graph.constant {{value = \
                 dense<0.5> : tensor<{c}x1x1x1xf32>}} : () -> tensor<{c}x1x1x1xf32>\n  %0 = graph.conv2d %x, %w {{groups = \
                 {c}}} : (tensor<1x{c}x2x2xf32>, tensor<{c}x1x1x1xf32>) -> tensor<1x{c}x2x2xf32>\n  return %0 : \
                 tensor<1x{c}x2x2xf32>\n}}\n"
            ),
        );
        for (model, budgets) in [(&pool, &[("16G", 1), ("1E", 0)][..]), (&conv, &[("16G", 1)][..])] {
            let object = format!("{model}.o");
            for &(budget, code) in budgets {
                let out = tcc_within(&[model, "--emit=obj", "-o", &object, "--max-memory", budget], &[], 60);
                let err = String::from_utf8_lossy(&out.stderr);
                assert_eq!(out.status.code(), Some(code), "{model} under {budget}: {:?}\n{err}", out.status);
                if code == 1 {
                    assert!(err.contains("more than the") && err.contains("budget of 16.0 GiB"), "{err}");
                }
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A chain of `n` elementwise ops on `tensor<64xf32>`, each using the one before, half
/// of them also using the argument or one shared constant (thousands of users each).
fn chain_model(n: usize) -> String {
    let t = "tensor<64xf32>";
    let mut text =
        format!("func.func @main(%x: {t}) -> {t} {{\n  %c = graph.constant {{value = dense<0.5> : {t}}} : () -> {t}\n");
    let mut prev = "%x".to_string();
    for i in 0..n {
        let op = match i % 4 {
            0 => format!("graph.exp {prev} : ({t}) -> {t}"),
            1 => format!("graph.add {prev}, %x : ({t}, {t}) -> {t}"),
            2 => format!("graph.relu {prev} : ({t}) -> {t}"),
            _ => format!("graph.mul {prev}, %c : ({t}, {t}) -> {t}"),
        };
        text += &format!("  %{i} = {op}\n");
        prev = format!("%{i}");
    }
    text + &format!("  return {prev} : {t}\n}}\n")
}

/// Compile time grows about linearly with the op count: a 5,000-op chain compiles well
/// within the limit (a debug build; the rewrite search's sibling matching, its
/// constant-folding test and `fuse-memory-bound` were each quadratic or worse: 4,000 ops
/// took 53 s in a release build, 10,000 twelve minutes).
#[test]
fn long_chains_compile_in_near_linear_time() {
    let dir = scratch("chain");
    let model = write(&dir, "chain.mlir", chain_model(5000));
    let object = dir.join("chain.o");
    let out = tcc_within(&[&model, "--emit=obj", "-o", object.to_str().unwrap()], &[], 180);
    assert!(out.status.success(), "{:?}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    std::fs::remove_dir_all(&dir).ok();
}

/// A model file truncated while tcc reads it (re-exported in place): an error or a
/// result, never a signal (a mapped file's vanished pages raised SIGBUS).
#[test]
fn a_model_truncated_while_it_is_read_is_no_signal() {
    let dir = scratch("truncated");
    // 32 MiB of comment lines, then the model.
    let filler = "// ".to_string() + &"x".repeat(1020) + "\n";
    let text = filler.repeat(32 << 10) + ADD_ONE;
    for attempt in 0..4 {
        let model = write(&dir, "big.mlir", &text);
        let child = Command::new(env!("CARGO_BIN_EXE_tcc"))
            .args([&model, "--emit=graph", "-o", "/dev/null"])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(5 * attempt));
        std::fs::OpenOptions::new().write(true).open(&model).unwrap().set_len(4096).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.code().is_some(),
            "attempt {attempt}: {:?}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn npy_files_are_read_exactly_as_their_header_declares() {
    let dir = scratch("npy");
    let model = write(&dir, "add.mlir", ADD_ONE);
    let data = f32_bytes(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let good = write(&dir, "good.npy", npy("<f4", "(2, 3)", &data));
    succeeds(&["run", &model, "-i", &good], &[]);
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "trailing.npy",
            npy("<f4", "(2, 3)", &[&data[..], &[0u8; 4]].concat()),
            "has trailing bytes: 28 bytes of data",
        ),
        ("short.npy", npy("<f4", "(2, 3)", &data[..20]), "holds only 20 bytes of data"),
        // A header that promises far more than the file holds: refused before allocating.
        ("lying.npy", npy("<f4", "(1000000000, 1000000000)", &data), "declares f32[1000000000, 1000000000]"),
        ("overflow.npy", npy("<f4", "(4294967296, 4294967296, 4294967296)", &data), "is too large"),
        ("fortran.npy", npy_in_order("<f4", "True", "(2, 3)", &data), "Fortran order"),
        ("dtype.npy", npy(">f4", "(2, 3)", &data[..24]), "dtype '>f4'"),
        ("magic.npy", b"not a numpy file at all".to_vec(), "does not start with the .npy magic"),
        ("empty.npy", Vec::new(), "shorter than a .npy header"),
        ("version.npy", b"\x93NUMPY\x07\x00\x10\x00".to_vec(), "unsupported .npy version 7.0"),
        // Version 2 allows a 4 GiB header; a longer one than NumPy writes is refused.
        ("header.npy", [&b"\x93NUMPY\x02\x00"[..], &u32::MAX.to_le_bytes()].concat(), "the header is 4294967295 bytes"),
        (
            "dict.npy",
            npy("<f4", "(2, 3)", &data).iter().map(|&b| if b == b'{' { b'[' } else { b }).collect(),
            "not a dictionary",
        ),
    ];
    for (name, bytes, wanted) in cases {
        let path = write(&dir, name, &bytes);
        fails(&["run", &model, "-i", &path], &[], 1, &[name, wanted]);
        fails(&["run", &model, "-i", &good, "--expect", &path], &[], 1, &[name, wanted]);
    }
    // A device that never ends and a directory: not regular files.
    fails(&["run", &model, "-i", "/dev/zero"], &[], 1, &["cannot read '/dev/zero': not a regular file but a device"]);
    fails(&["run", &model, "-i", d(&dir)], &[], 1, &["not a regular file but a directory"]);
    std::fs::remove_dir_all(&dir).ok();
}

fn d(dir: &Path) -> &str {
    dir.to_str().unwrap()
}

#[test]
fn references_must_match_the_outputs_type_and_the_tolerance_must_be_a_number() {
    let dir = scratch("expect");
    let model = write(&dir, "add.mlir", ADD_ONE);
    let x = write(&dir, "x.npy", npy("<f4", "(2, 3)", &f32_bytes(&[0.0; 6])));
    let ones = write(&dir, "ones.npy", npy("<f4", "(2, 3)", &f32_bytes(&[1.0; 6])));
    let out = succeeds(&["run", &model, "-i", &x, "--expect", &ones], &[]);
    assert!(out.contains("max error 0.000e0") && out.contains(": ok"), "{out}");
    // An int32 reference holding the same values is a different tensor.
    let ints: Vec<u8> = [1i32; 6].iter().flat_map(|v| v.to_le_bytes()).collect();
    let i32s = write(&dir, "i32.npy", npy("<i4", "(2, 3)", &ints));
    fails(
        &["run", &model, "-i", &x, "--expect", &i32s],
        &[],
        1,
        &["output #0: is f32[2, 3], but the reference is i32[2, 3]"],
    );
    let flat = write(&dir, "flat.npy", npy("<f4", "(6,)", &f32_bytes(&[1.0; 6])));
    fails(&["run", &model, "-i", &x, "--expect", &flat], &[], 1, &["shape [2, 3] differs from the expected [6]"]);
    for bad in ["nan", "NaN", "inf", "-inf", "-1", "-0.5", "x"] {
        fails(&["run", &model, "-i", &x, "--expect", &ones, &format!("--tolerance={bad}")], &[], 2, &["--tolerance"]);
    }
    let twos = write(&dir, "twos.npy", npy("<f4", "(2, 3)", &f32_bytes(&[2.0; 6])));
    fails(&["run", &model, "-i", &x, "--expect", &twos], &[], 1, &["differ from the reference"]);
    succeeds(&["run", &model, "-i", &x, "--expect", &twos, "--tolerance", "0.5"], &[]);
    std::fs::remove_dir_all(&dir).ok();
}

/// A panic inside tcc (forced with TCC_INJECT_PANIC in a pass, in code generation, in
/// a run) is an internal error with exit status 1 and one message naming where, not
/// exit 101 and a Rust backtrace.
#[test]
fn internal_errors_are_messages_not_panics() {
    let dir = scratch("internal");
    let model = write(&dir, "add.mlir", ADD_ONE);
    let x = write(&dir, "x.npy", npy("<f4", "(2, 3)", &f32_bytes(&[0.0; 6])));
    let obj = dir.join("add.o");
    let cases: [(&str, &[&str], &str); 5] = [
        ("cse", &["run", &model, "-i", &x], "add.mlir: error: internal compiler error in pass 'cse'"),
        ("canonicalize", &[&model, "--emit=graph"], "internal compiler error in pass 'canonicalize'"),
        ("codegen", &["run", &model, "-i", &x], "add.mlir: error: internal compiler error in code generation"),
        ("codegen", &[&model, "--emit=obj", "-o", obj.to_str().unwrap()], "internal compiler error in code generation"),
        ("run", &["run", &model, "-i", &x], "tcc: error: internal error in the runtime"),
    ];
    for (site, args, wanted) in cases {
        let out = tcc(args, &[("TCC_INJECT_PANIC", site)]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "TCC_INJECT_PANIC={site} tcc {args:?}:\n{err}");
        assert!(err.contains(wanted) && err.contains("a bug in tcc"), "TCC_INJECT_PANIC={site}: {err}");
        assert!(!err.contains("panicked at") && !err.contains("backtrace"), "TCC_INJECT_PANIC={site}: {err}");
    }
    // Without the injection the same commands work.
    succeeds(&["run", &model, "-i", &x], &[]);
    std::fs::remove_dir_all(&dir).ok();
}
