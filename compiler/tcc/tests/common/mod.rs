//! Helpers shared by the integration tests: .npy loading, tolerant comparison, and the
//! deterministic random draws of the property tests.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use tcc::Tensor;

pub fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../dialects/graph/tests/reference")
}

/// Reads a C-order .npy of f32, f64, f16, i8, i16, i32, i64 or bool.
pub fn load_npy(path: &Path) -> Tensor {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let npy = npyz::NpyFile::new(&bytes[..]).unwrap();
    let shape: Vec<usize> = npy.shape().iter().map(|&d| d as usize).collect();
    let descr = match npy.dtype() {
        npyz::DType::Plain(t) => t.to_string(),
        other => panic!("unsupported dtype {}", other.descr()),
    };
    let numel: usize = shape.iter().product();
    match descr.as_str() {
        // npyz reads halves only with the `half` crate: the data is the file's end.
        "<f2" => Tensor::from_bytes(tcc::DType::F16, &shape, &bytes[bytes.len() - 2 * numel..]),
        // bf16 as `ml_dtypes` saves it: two-byte voids.
        "<V2" | "|V2" => Tensor::from_bytes(tcc::DType::BF16, &shape, &bytes[bytes.len() - 2 * numel..]),
        "<f4" => Tensor::from_slice(&npy.into_vec::<f32>().unwrap(), &shape),
        "<f8" => Tensor::from_slice(&npy.into_vec::<f64>().unwrap(), &shape),
        "<i4" => Tensor::from_slice(&npy.into_vec::<i32>().unwrap(), &shape),
        "<i8" => Tensor::from_slice(&npy.into_vec::<i64>().unwrap(), &shape),
        "|i1" => Tensor::from_slice(&npy.into_vec::<i8>().unwrap(), &shape),
        "<i2" => Tensor::from_slice(&npy.into_vec::<i16>().unwrap(), &shape),
        "|b1" => Tensor::from_slice(&npy.into_vec::<bool>().unwrap(), &shape),
        other => panic!("unsupported dtype {other}"),
    }
    .unwrap()
}

/// The file stems of the `.mlir` files in `dir`, sorted.
pub fn mlir_stems(dir: &Path) -> Vec<String> {
    let mut stems: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    stems.sort();
    stems
}

/// The tensors `{prefix}0.npy`, `{prefix}1.npy`, .. (as many as exist).
pub fn load_npys(prefix: &Path) -> Vec<Tensor> {
    (0..)
        .map(|i| PathBuf::from(format!("{}{i}.npy", prefix.display())))
        .take_while(|p| p.exists())
        .map(|p| load_npy(&p))
        .collect()
}

pub fn to_f64s(t: &Tensor) -> Vec<f64> {
    t.to_f64s()
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

/// Why `got` differs from `want` by more than 1e-4 of the output's scale, if it does.
pub fn mismatch(got: &[f64], want: &[f64]) -> Option<String> {
    match max_error(got, want) {
        Ok(e) if e <= 1e-4 * scale(want) => None,
        Ok(e) => Some(format!("max error {e}")),
        Err(e) => Some(e),
    }
}

/// xorshift64*: deterministic draws, reproducible from the printed seed. Each property
/// test adds the draws it needs (shapes, tensors) through a trait of its own.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// An integer in `lo..=hi`.
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() % 10_000) as f64 / 10_000.0 < p
    }
    pub fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.int(0, v.len() as i64 - 1) as usize]
    }
    /// `n` values in [-1000, 1000] / `scale`.
    pub fn values(&mut self, n: i64, scale: f32) -> Vec<f32> {
        (0..n).map(|_| self.int(-1000, 1000) as f32 / scale).collect()
    }
}

/// The code generators a property test compiles case `seed` with: Cranelift, calling the
/// microkernels of one ISA level (every level this CPU runs, and none, in turn over the
/// seeds), and LLVM when it is built in. Each with a name for messages.
#[allow(dead_code)]
pub fn code_generators(seed: u64) -> Vec<(String, tcc::RuntimeBuilder)> {
    let mut levels: Vec<&str> = tcc::Isa::ALL.iter().filter(|i| i.is_supported()).map(|i| i.name()).collect();
    levels.push("none");
    let level = levels[(seed as usize) % levels.len()];
    let mut out = Vec::new();
    for backend in tcc::backend::compiled_backends() {
        let builder = tcc::Runtime::builder().backend(backend);
        if backend == tcc::Backend::Cranelift {
            out.push((format!("Cranelift ({level} microkernels)"), builder.isa(level)));
        } else {
            out.push((format!("{backend:?}"), builder));
        }
    }
    out
}
