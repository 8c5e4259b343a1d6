//! Tensors as the runtime sees them: a dtype, a shape and 64-byte aligned storage.

use std::fmt;

pub use tcc_runtime_abi::DType;

/// A Rust type that can be a tensor element.
pub trait Element: Copy + 'static {
    const DTYPE: DType;
}
impl Element for f32 {
    const DTYPE: DType = DType::F32;
}
impl Element for f64 {
    const DTYPE: DType = DType::F64;
}
impl Element for tcc_runtime_abi::F16 {
    const DTYPE: DType = DType::F16;
}
impl Element for tcc_runtime_abi::BF16 {
    const DTYPE: DType = DType::BF16;
}
impl Element for i8 {
    const DTYPE: DType = DType::I8;
}
impl Element for i16 {
    const DTYPE: DType = DType::I16;
}
impl Element for i32 {
    const DTYPE: DType = DType::I32;
}
impl Element for i64 {
    const DTYPE: DType = DType::I64;
}
impl Element for bool {
    const DTYPE: DType = DType::Bool;
}

/// Bytes in a 64-byte aligned allocation (cache-line and AVX-512 aligned).
pub struct AlignedBuf {
    words: Vec<Line>,
    len: usize,
}

#[repr(C, align(64))]
#[derive(Copy, Clone)]
struct Line([u8; 64]);

impl AlignedBuf {
    /// `len` zero bytes; an error (not an abort) when the memory cannot be had.
    pub fn try_zeroed(len: usize) -> Result<AlignedBuf, String> {
        let lines = len.div_ceil(64).max(1);
        let mut words: Vec<Line> = Vec::new();
        words.try_reserve_exact(lines).map_err(|_| format!("cannot allocate {len} bytes"))?;
        words.resize(lines, Line([0; 64]));
        Ok(AlignedBuf { words, len })
    }
    /// `len` zero bytes; aborts when the memory cannot be had (small, known sizes).
    pub fn zeroed(len: usize) -> AlignedBuf {
        AlignedBuf { words: vec![Line([0; 64]); len.div_ceil(64).max(1)], len }
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn as_ptr(&self) -> *const u8 {
        self.words.as_ptr().cast()
    }
    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.words.as_mut_ptr().cast()
    }
    pub fn as_bytes(&self) -> &[u8] {
        // SAFETY: `words` holds at least `len` initialized bytes.
        unsafe { std::slice::from_raw_parts(self.as_ptr(), self.len) }
    }
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as above, uniquely borrowed.
        unsafe { std::slice::from_raw_parts_mut(self.as_mut_ptr(), self.len) }
    }
}

impl Clone for AlignedBuf {
    fn clone(&self) -> Self {
        AlignedBuf { words: self.words.clone(), len: self.len }
    }
}

/// A dense row-major tensor.
#[derive(Clone)]
pub struct Tensor {
    dtype: DType,
    shape: Vec<usize>,
    data: AlignedBuf,
}

impl Tensor {
    /// A tensor of zeros.
    pub fn zeros(dtype: DType, shape: &[usize]) -> Result<Tensor, String> {
        let numel = checked_numel(shape)?;
        let bytes = numel.checked_mul(dtype.size()).ok_or("tensor too large")?;
        let data = AlignedBuf::try_zeroed(bytes).map_err(|e| format!("tensor {dtype}{shape:?}: {e}"))?;
        Ok(Tensor { dtype, shape: shape.to_vec(), data })
    }

    /// A tensor holding a copy of `values` with the given shape.
    pub fn from_slice<T: Element>(values: &[T], shape: &[usize]) -> Result<Tensor, String> {
        let numel = checked_numel(shape)?;
        if numel != values.len() {
            return Err(format!("shape {shape:?} needs {numel} elements, got {}", values.len()));
        }
        let mut t = Tensor::zeros(T::DTYPE, shape)?;
        let bytes = t.data.as_bytes_mut();
        // SAFETY: `values` is `numel` plain elements of size dtype.size(), which is
        // exactly `bytes.len()`; bool is one byte holding 0 or 1.
        unsafe { std::ptr::copy_nonoverlapping(values.as_ptr().cast::<u8>(), bytes.as_mut_ptr(), bytes.len()) };
        Ok(t)
    }

    /// A tensor from raw little-endian element bytes.
    pub fn from_bytes(dtype: DType, shape: &[usize], bytes: &[u8]) -> Result<Tensor, String> {
        let mut t = Tensor::zeros(dtype, shape)?;
        if t.data.len() != bytes.len() {
            return Err(format!("shape {shape:?} of {dtype} needs {} bytes, got {}", t.data.len(), bytes.len()));
        }
        t.data.as_bytes_mut().copy_from_slice(bytes);
        if dtype == DType::Bool {
            t.data.as_bytes_mut().iter_mut().for_each(|b| *b = (*b != 0) as u8);
        }
        Ok(t)
    }

    /// A tensor whose little-endian element bytes are read from `reader`: exactly as
    /// many as the shape needs (the storage is allocated first, fallibly; a short read
    /// is an error).
    pub fn from_reader(dtype: DType, shape: &[usize], reader: &mut dyn std::io::Read) -> Result<Tensor, String> {
        let mut t = Tensor::zeros(dtype, shape)?;
        let want = t.data.len();
        reader.read_exact(t.data.as_bytes_mut()).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => format!("the data ends before the {want} bytes of {dtype}{shape:?}"),
            _ => format!("cannot read the data: {e}"),
        })?;
        if dtype == DType::Bool {
            t.data.as_bytes_mut().iter_mut().for_each(|b| *b = (*b != 0) as u8);
        }
        Ok(t)
    }

    pub fn dtype(&self) -> DType {
        self.dtype
    }
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }
    pub fn bytes(&self) -> &[u8] {
        self.data.as_bytes()
    }
    pub fn as_ptr(&self) -> *const u8 {
        self.data.as_ptr()
    }
    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.data.as_mut_ptr()
    }

    /// The elements, if `T` is this tensor's element type.
    pub fn as_slice<T: Element>(&self) -> Option<&[T]> {
        if T::DTYPE != self.dtype {
            return None;
        }
        // SAFETY: the storage is 64-byte aligned and holds numel elements of T.
        Some(unsafe { std::slice::from_raw_parts(self.data.as_ptr().cast::<T>(), self.numel()) })
    }

    /// The elements, mutably, if `T` is this tensor's element type.
    pub fn as_mut_slice<T: Element>(&mut self) -> Option<&mut [T]> {
        if T::DTYPE != self.dtype {
            return None;
        }
        let n = self.numel();
        // SAFETY: as `as_slice`, uniquely borrowed; every T is plain data (a bool
        // written through the slice stays 0 or 1).
        Some(unsafe { std::slice::from_raw_parts_mut(self.data.as_mut_ptr().cast::<T>(), n) })
    }

    pub fn to_vec<T: Element>(&self) -> Option<Vec<T>> {
        self.as_slice().map(|s| s.to_vec())
    }

    /// Every element as f64, whatever the dtype (exact but for i64 beyond 2^53; a
    /// bool is 0 or 1): for comparing and printing.
    pub fn to_f64s(&self) -> Vec<f64> {
        fn widen<T: Element>(t: &Tensor, f: impl Fn(T) -> f64) -> Vec<f64> {
            t.as_slice::<T>().unwrap_or_default().iter().map(|&x| f(x)).collect()
        }
        match self.dtype {
            DType::F32 => widen(self, |x: f32| x as f64),
            DType::F64 => widen(self, |x: f64| x),
            DType::F16 => widen(self, |x: tcc_runtime_abi::F16| x.to_f32() as f64),
            DType::BF16 => widen(self, |x: tcc_runtime_abi::BF16| x.to_f32() as f64),
            DType::I8 => widen(self, |x: i8| x as f64),
            DType::I16 => widen(self, |x: i16| x as f64),
            DType::I32 => widen(self, |x: i32| x as f64),
            DType::I64 => widen(self, |x: i64| x as f64),
            DType::Bool => widen(self, |x: bool| x as u8 as f64),
        }
    }
}

impl fmt::Debug for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tensor({}, {:?})", self.dtype, self.shape)
    }
}

fn checked_numel(shape: &[usize]) -> Result<usize, String> {
    shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d)).ok_or_else(|| format!("shape {shape:?} is too large"))
}
