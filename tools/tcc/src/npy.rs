//! Reading and writing tensors as NumPy `.npy` files (via the `npyz` crate).

use std::path::Path;

use npyz::WriterBuilder;
use tcc::{DType, Tensor};

/// Reads a C-order `.npy` of float32, float64, int32, int64 or bool.
pub fn read(path: &Path) -> Result<Tensor, String> {
    let what = || path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", what()))?;
    let npy = npyz::NpyFile::new(&bytes[..]).map_err(|e| format!("'{}' is not a valid .npy file: {e}", what()))?;
    let shape: Vec<usize> = npy.shape().iter().map(|&d| d as usize).collect();
    if shape.len() > 1 && npy.order() != npyz::Order::C {
        return Err(format!("'{}' is in Fortran order; save it C-contiguous (np.ascontiguousarray)", what()));
    }
    let descr = match npy.dtype() {
        npyz::DType::Plain(t) => t.to_string(),
        other => return Err(format!("'{}' has unsupported dtype {}", what(), other.descr())),
    };
    let err = |e: std::io::Error| format!("cannot read the data of '{}': {e}", what());
    let t = match descr.as_str() {
        "<f4" => Tensor::from_slice(&npy.into_vec::<f32>().map_err(err)?, &shape),
        "<f8" => Tensor::from_slice(&npy.into_vec::<f64>().map_err(err)?, &shape),
        "<i4" => Tensor::from_slice(&npy.into_vec::<i32>().map_err(err)?, &shape),
        "<i8" => Tensor::from_slice(&npy.into_vec::<i64>().map_err(err)?, &shape),
        "|b1" => Tensor::from_slice(&npy.into_vec::<bool>().map_err(err)?, &shape),
        other => {
            return Err(format!("'{}' has dtype {other}; tcc reads float32, float64, int32, int64 and bool", what()));
        }
    };
    t.map_err(|e| format!("'{}': {e}", what()))
}

fn write_values<T: npyz::Serialize + npyz::AutoSerialize + Copy>(
    path: &Path,
    shape: &[u64],
    values: &[T],
) -> std::io::Result<()> {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut w = npyz::WriteOptions::new().default_dtype().shape(shape).writer(&mut file).begin_nd()?;
    w.extend(values.iter().copied())?;
    w.finish()
}

/// Writes a tensor as `.npy`.
pub fn write(path: &Path, t: &Tensor) -> Result<(), String> {
    let shape: Vec<u64> = t.shape().iter().map(|&d| d as u64).collect();
    let r = match t.dtype() {
        DType::F32 => write_values(path, &shape, t.as_slice::<f32>().unwrap_or_default()),
        DType::F64 => write_values(path, &shape, t.as_slice::<f64>().unwrap_or_default()),
        DType::I32 => write_values(path, &shape, t.as_slice::<i32>().unwrap_or_default()),
        DType::I64 => write_values(path, &shape, t.as_slice::<i64>().unwrap_or_default()),
        DType::Bool => write_values(path, &shape, t.as_slice::<bool>().unwrap_or_default()),
    };
    r.map_err(|e| format!("cannot write '{}': {e}", path.display()))
}

/// The elements as f64.
fn values(t: &Tensor) -> Vec<f64> {
    match t.dtype() {
        DType::F32 => t.as_slice::<f32>().unwrap_or_default().iter().map(|&x| x as f64).collect(),
        DType::F64 => t.as_slice::<f64>().unwrap_or_default().to_vec(),
        DType::I32 => t.as_slice::<i32>().unwrap_or_default().iter().map(|&x| x as f64).collect(),
        DType::I64 => t.as_slice::<i64>().unwrap_or_default().iter().map(|&x| x as f64).collect(),
        DType::Bool => t.as_slice::<bool>().unwrap_or_default().iter().map(|&x| x as u8 as f64).collect(),
    }
}

/// How far `got` is from `want`: the largest absolute difference and that difference
/// relative to the largest |want| (the output's scale; 1 if all of `want` is zero).
/// NaN where exactly one of them is NaN counts as an infinite error.
pub fn compare(got: &Tensor, want: &Tensor) -> Result<(f64, f64), String> {
    if got.shape() != want.shape() {
        return Err(format!("shape {:?} differs from the expected {:?}", got.shape(), want.shape()));
    }
    let (g, w) = (values(got), values(want));
    let mut max_err = 0.0f64;
    for (&a, &b) in g.iter().zip(&w) {
        let err = if a.is_nan() || b.is_nan() {
            if a.is_nan() && b.is_nan() { 0.0 } else { f64::INFINITY }
        } else if a == b {
            0.0
        } else {
            (a - b).abs()
        };
        max_err = max_err.max(err);
    }
    let scale = w.iter().filter(|x| x.is_finite()).fold(0.0f64, |m, &x| m.max(x.abs()));
    let scale = if scale > 0.0 { scale } else { 1.0 };
    Ok((max_err, max_err / scale))
}

/// A one-line summary: dtype, shape, min / max / mean and the first values.
pub fn summary(t: &Tensor) -> String {
    let v = values(t);
    let first: Vec<String> = v.iter().take(6).map(|x| format!("{x:.6}")).collect();
    let more = if v.len() > 6 { ", ..." } else { "" };
    if v.is_empty() {
        return format!("{}{:?} (empty)", t.dtype(), t.shape());
    }
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    format!("{}{:?} min {min:.6} max {max:.6} mean {mean:.6} [{}{more}]", t.dtype(), t.shape(), first.join(", "))
}
