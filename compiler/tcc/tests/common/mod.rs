//! Helpers shared by the integration tests: .npy loading and tolerant comparison.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use tcc::{DType, Tensor};

pub fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../dialects/graph/tests/reference")
}

/// Reads a C-order .npy of f32, f64, i32, i64 or bool.
pub fn load_npy(path: &Path) -> Tensor {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let npy = npyz::NpyFile::new(&bytes[..]).unwrap();
    let shape: Vec<usize> = npy.shape().iter().map(|&d| d as usize).collect();
    let descr = match npy.dtype() {
        npyz::DType::Plain(t) => t.to_string(),
        other => panic!("unsupported dtype {}", other.descr()),
    };
    match descr.as_str() {
        "<f4" => Tensor::from_slice(&npy.into_vec::<f32>().unwrap(), &shape),
        "<f8" => Tensor::from_slice(&npy.into_vec::<f64>().unwrap(), &shape),
        "<i4" => Tensor::from_slice(&npy.into_vec::<i32>().unwrap(), &shape),
        "<i8" => Tensor::from_slice(&npy.into_vec::<i64>().unwrap(), &shape),
        "|b1" => Tensor::from_slice(&npy.into_vec::<bool>().unwrap(), &shape),
        other => panic!("unsupported dtype {other}"),
    }
    .unwrap()
}

pub fn to_f64s(t: &Tensor) -> Vec<f64> {
    match t.dtype() {
        DType::F32 => t.as_slice::<f32>().unwrap().iter().map(|&x| x as f64).collect(),
        DType::F64 => t.as_slice::<f64>().unwrap().to_vec(),
        DType::I32 => t.as_slice::<i32>().unwrap().iter().map(|&x| x as f64).collect(),
        DType::I64 => t.as_slice::<i64>().unwrap().iter().map(|&x| x as f64).collect(),
        DType::Bool => t.as_slice::<bool>().unwrap().iter().map(|&x| x as u8 as f64).collect(),
    }
}

/// The largest error and the tolerance `rel * max(1, max |want|)`; NaN must match NaN
/// and infinities must match exactly.
pub fn max_error(got: &[f64], want: &[f64]) -> Result<f64, String> {
    if got.len() != want.len() {
        return Err(format!("{} elements, expected {}", got.len(), want.len()));
    }
    let mut worst = 0.0f64;
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        if w.is_nan() || g.is_nan() || w.is_infinite() || g.is_infinite() {
            let same = (w.is_nan() && g.is_nan()) || g == w;
            if !same {
                return Err(format!("element {i}: got {g}, want {w}"));
            }
            continue;
        }
        worst = worst.max((g - w).abs());
    }
    Ok(worst)
}

pub fn scale(want: &[f64]) -> f64 {
    want.iter().filter(|x| x.is_finite()).fold(1.0f64, |m, &x| m.max(x.abs()))
}
