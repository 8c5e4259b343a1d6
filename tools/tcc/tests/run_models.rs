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
    let r = reference();
    let status = Command::new(env!("CARGO_BIN_EXE_tcc"))
        .args(["run", r.join(format!("models/{model}.mlir")).to_str().unwrap()])
        .args(["--input", r.join(format!("data/{model}.in0.npy")).to_str().unwrap()])
        .args(["--output", out.to_str().unwrap(), "--threads", &threads.to_string(), "--backend", backend])
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
