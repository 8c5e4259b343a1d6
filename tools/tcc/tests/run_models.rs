//! `tcc run` (the binary) on the small CNN, attention block, group-norm block and
//! elementwise mix from the PyTorch reference set, with every backend of the build:
//! outputs match PyTorch within 1e-4 of the output's scale, and 1 and 2 threads give
//! identical bytes.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn reference() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../dialects/graph/tests/reference")
}

fn read_f32(path: &Path) -> (Vec<u64>, Vec<f32>) {
    let bytes = std::fs::read(path).unwrap();
    let npy = npyz::NpyFile::new(&bytes[..]).unwrap();
    let shape = npy.shape().to_vec();
    (shape, npy.into_vec::<f32>().unwrap())
}

fn run(model: &str, backend: &str, threads: u32, out: &Path) {
    run_with(model, backend, threads, out, &[]);
}

fn run_with(model: &str, backend: &str, threads: u32, out: &Path, extra: &[&str]) {
    let r = reference();
    let status = Command::new(env!("CARGO_BIN_EXE_tcc"))
        .args(["run", r.join(format!("models/{model}.mlir")).to_str().unwrap()])
        .args(["--input", r.join(format!("data/{model}.in0.npy")).to_str().unwrap()])
        .args(["--output", out.to_str().unwrap(), "--threads", &threads.to_string(), "--backend", backend])
        .args(extra)
        .status()
        .unwrap();
    assert!(status.success(), "tcc run --backend {backend} {model} failed");
}

#[test]
fn tcc_run_matches_pytorch() {
    let dir = std::env::temp_dir().join(format!("tcc-run-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let models = ["small_cnn", "attention_block", "group_norm_block", "elementwise_mix"];
    for (model, backend) in models.iter().flat_map(|m| common::backends().into_iter().map(move |b| (m, b))) {
        let (one, two) = (dir.join(format!("{model}.{backend}.1.npy")), dir.join(format!("{model}.{backend}.2.npy")));
        run(model, backend, 1, &one);
        run(model, backend, 2, &two);
        let (shape, got) = read_f32(&one);
        let (want_shape, want) = read_f32(&reference().join(format!("data/{model}.out0.npy")));
        assert_eq!(shape, want_shape, "{model}");
        let scale = want.iter().fold(1.0f32, |m, x| m.max(x.abs()));
        let err = got.iter().zip(&want).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
        println!("{model} ({backend}): max error {err:.3e} (scale {scale})");
        assert!(err <= 1e-4 * scale, "{model} ({backend}): max error {err} exceeds {}", 1e-4 * scale);
        let same = std::fs::read(&one).unwrap() == std::fs::read(&two).unwrap();
        assert!(same, "{model} ({backend}): 1 and 2 threads differ");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `--precision bf16`: convolution and matmul operands rounded to bf16, so the outputs
/// move away from PyTorch's f32 ones by about bf16's precision, not further; 1 and 2
/// threads still agree to the byte.
#[test]
fn bf16_precision_stays_within_bf16_of_pytorch() {
    let dir = std::env::temp_dir().join(format!("tcc-run-bf16-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (model, backend) in
        ["small_cnn", "attention_block"].iter().flat_map(|m| common::backends().into_iter().map(move |b| (m, b)))
    {
        let (one, two) = (dir.join(format!("{model}.{backend}.1.npy")), dir.join(format!("{model}.{backend}.2.npy")));
        run_with(model, backend, 1, &one, &["--precision", "bf16"]);
        run_with(model, backend, 2, &two, &["--precision", "bf16"]);
        let (_, got) = read_f32(&one);
        let (_, want) = read_f32(&reference().join(format!("data/{model}.out0.npy")));
        let scale = want.iter().fold(1e-30f32, |m, x| m.max(x.abs()));
        let err = got.iter().zip(&want).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max) / scale;
        println!("{model} ({backend}, bf16): relative error {err:.3e}");
        // bf16 keeps 8 significant bits (relative rounding 2^-9 = 2e-3 per operand).
        assert!(err <= 2e-2, "{model} ({backend}): bf16 error {err} too large");
        assert!(err > 1e-5, "{model} ({backend}): bf16 error {err}: the operands were not rounded");
        let same = std::fs::read(&one).unwrap() == std::fs::read(&two).unwrap();
        assert!(same, "{model} ({backend}, bf16): 1 and 2 threads differ");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_tcc"))
        .args(["run", reference().join("models/small_cnn.mlir").to_str().unwrap(), "--precision", "fp16"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("unknown precision 'fp16' (expected fp32 or bf16)"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_inputs_are_clear_errors() {
    let r = reference();
    let out = Command::new(env!("CARGO_BIN_EXE_tcc"))
        .args(["run", r.join("models/small_cnn.mlir").to_str().unwrap()])
        .args(["--input", r.join("data/attention_block.in0.npy").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("input #0 has shape [2, 8, 32], the model expects [2, 3, 16, 16]"), "{err}");
}
