//! Dense element storage for constants: splats, inline bytes and shared resource blobs.
//!
//! Element data is kept as little-endian bytes in a cache-line aligned buffer, exactly as
//! MLIR's hex form spells it (`i1` takes one byte per element). Large weights arrive
//! as `dense_resource<name>` blobs; the blob is decoded from hex once and then shared by
//! `Arc` between every attribute, pass and backend that reads it, never copied.

use std::fmt;
use std::sync::{Arc, OnceLock};

use crate::types::{ScalarType, TensorType};

/// Bytes in a 64-byte (cache-line) aligned allocation, so typed views (`&[f32]`,
/// `&[i64]`) are free and the JIT's kernels read constants (packed weights) in whole
/// cache lines: an AVX-512 load from an allocation malloc aligned to 16 bytes spans two
/// lines (a packed matmul 5-7% slower on an Intel Xeon, on both backends).
pub struct AlignedBytes {
    words: Words,
    len: usize,
}

/// The allocation behind [`AlignedBytes`]: cache lines, or f32s taken over without a
/// copy (folded weights) when their allocation happens to be 64-byte aligned.
enum Words {
    Lines(Vec<Line>),
    F32(Vec<f32>),
}

/// One cache line of bytes.
#[repr(C, align(64))]
#[derive(Copy, Clone)]
struct Line([u8; LINE]);

const LINE: usize = 64;

impl AlignedBytes {
    pub fn zeroed(len: usize) -> AlignedBytes {
        AlignedBytes { words: Words::Lines(vec![Line([0; LINE]); len.div_ceil(LINE)]), len }
    }

    /// `len` zero bytes, or an error naming the bytes asked for when the allocation
    /// fails (sizes that come from a model).
    pub fn try_zeroed(len: usize) -> Result<AlignedBytes, String> {
        let mut words = Vec::new();
        words.try_reserve_exact(len.div_ceil(LINE)).map_err(|_| format!("cannot allocate {len} bytes"))?;
        words.resize(len.div_ceil(LINE), Line([0; LINE]));
        Ok(AlignedBytes { words: Words::Lines(words), len })
    }

    /// The little-endian bytes of `values`, without a copy where the allocation allows.
    pub fn from_f32s(values: Vec<f32>) -> AlignedBytes {
        let len = values.len() * 4;
        if cfg!(target_endian = "little") && (values.as_ptr() as usize).is_multiple_of(LINE) {
            return AlignedBytes { words: Words::F32(values), len };
        }
        let mut b = AlignedBytes::zeroed(len);
        for (out, v) in b.as_mut_slice().chunks_exact_mut(4).zip(&values) {
            out.copy_from_slice(&v.to_le_bytes());
        }
        b
    }

    fn as_ptr(&self) -> *const u8 {
        match &self.words {
            Words::Lines(w) => w.as_ptr().cast(),
            Words::F32(w) => w.as_ptr().cast(),
        }
    }

    fn as_mut_ptr(&mut self) -> *mut u8 {
        match &mut self.words {
            Words::Lines(w) => w.as_mut_ptr().cast(),
            Words::F32(w) => w.as_mut_ptr().cast(),
        }
    }

    pub fn from_slice(bytes: &[u8]) -> AlignedBytes {
        let mut b = AlignedBytes::zeroed(bytes.len());
        b.as_mut_slice().copy_from_slice(bytes);
        b
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: `words` holds at least `len` initialized bytes; u8 has no alignment.
        unsafe { std::slice::from_raw_parts(self.as_ptr(), self.len) }
    }

    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as above, uniquely borrowed.
        unsafe { std::slice::from_raw_parts_mut(self.as_mut_ptr(), self.len) }
    }
}

impl Clone for AlignedBytes {
    /// A copy in cache lines (a cloned `Vec<f32>` might not be aligned).
    fn clone(&self) -> AlignedBytes {
        AlignedBytes::from_slice(self.as_slice())
    }
}

impl fmt::Debug for AlignedBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AlignedBytes({} bytes)", self.len)
    }
}

/// A named blob from a `{-# dialect_resources: { builtin: { name: "0x.." } } #-}`
/// section. The parser creates it when it first sees `dense_resource<name>` and fills
/// it when it reaches the section at the end of the file.
pub struct Resource {
    name: Arc<str>,
    /// Alignment recorded in the blob's 4-byte header.
    alignment: OnceLock<u32>,
    data: OnceLock<AlignedBytes>,
}

impl Resource {
    pub fn new(name: &str) -> Arc<Resource> {
        Arc::new(Resource { name: name.into(), alignment: OnceLock::new(), data: OnceLock::new() })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Stores the blob; returns false if it was already filled.
    pub fn fill(&self, alignment: u32, data: AlignedBytes) -> bool {
        let fresh = self.data.set(data).is_ok();
        if fresh {
            let _ = self.alignment.set(alignment);
        }
        fresh
    }

    pub fn is_filled(&self) -> bool {
        self.data.get().is_some()
    }

    pub fn alignment(&self) -> u32 {
        self.alignment.get().copied().unwrap_or(4)
    }

    /// The blob's bytes (empty if the resource was never defined; the parser rejects
    /// such files, so only hand-built IR can observe that).
    pub fn bytes(&self) -> &[u8] {
        self.data.get().map(|d| d.as_slice()).unwrap_or(&[])
    }
}

impl fmt::Debug for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Resource({}, {} bytes)", self.name, self.bytes().len())
    }
}

#[derive(Clone, Debug)]
enum Storage {
    /// One element repeated; little-endian bytes of the element.
    Splat([u8; 8]),
    Inline(Arc<AlignedBytes>),
    Resource(Arc<Resource>),
}

/// The value of a `dense<..>` or `dense_resource<..>` attribute: a tensor type and its
/// elements.
#[derive(Clone, Debug)]
pub struct DenseElements {
    ty: Arc<TensorType>,
    storage: Storage,
}

impl DenseElements {
    /// Every element equal to `value` (converted to the element type).
    pub fn splat(ty: TensorType, value: Scalar) -> DenseElements {
        let mut bytes = [0u8; 8];
        encode(ty.elem(), value, &mut bytes);
        DenseElements { ty: Arc::new(ty), storage: Storage::Splat(bytes) }
    }

    /// Elements from raw little-endian bytes; the length must be `numel * byte_size`.
    /// For `i1`, any nonzero byte is `true` (stored as 1).
    pub fn from_bytes(ty: TensorType, mut bytes: AlignedBytes) -> Result<DenseElements, String> {
        let want = ty.numel() * ty.elem().byte_size();
        if bytes.len() != want {
            return Err(format!("expected {want} bytes of data for {ty}, got {}", bytes.len()));
        }
        if ty.elem() == ScalarType::I1 {
            bytes.as_mut_slice().iter_mut().for_each(|b| *b = (*b != 0) as u8);
        }
        Ok(DenseElements { ty: Arc::new(ty), storage: Storage::Inline(Arc::new(bytes)) })
    }

    /// Elements converted from scalars (one per element).
    pub fn from_scalars(ty: TensorType, values: &[Scalar]) -> Result<DenseElements, String> {
        if values.len() != ty.numel() {
            return Err(format!("expected {} elements for {ty}, got {}", ty.numel(), values.len()));
        }
        let size = ty.elem().byte_size();
        let mut bytes = AlignedBytes::zeroed(values.len() * size);
        let out = bytes.as_mut_slice();
        let mut tmp = [0u8; 8];
        for (i, v) in values.iter().enumerate() {
            encode(ty.elem(), *v, &mut tmp);
            out[i * size..(i + 1) * size].copy_from_slice(&tmp[..size]);
        }
        DenseElements::from_bytes(ty, bytes)
    }

    pub fn from_f32s(ty: TensorType, values: &[f32]) -> Result<DenseElements, String> {
        if ty.elem() != ScalarType::F32 {
            let scalars: Vec<Scalar> = values.iter().map(|&v| Scalar::Float(v as f64)).collect();
            return Self::from_scalars(ty, &scalars);
        }
        if values.len() != ty.numel() {
            return Err(format!("expected {} elements for {ty}, got {}", ty.numel(), values.len()));
        }
        DenseElements::from_bytes(ty, AlignedBytes::from_f32s(values.to_vec()))
    }

    /// The same, taking the values over (no copy of a folded weight).
    pub fn from_f32_vec(ty: TensorType, values: Vec<f32>) -> Result<DenseElements, String> {
        if ty.elem() != ScalarType::F32 || values.len() != ty.numel() {
            return Self::from_f32s(ty, &values);
        }
        DenseElements::from_bytes(ty, AlignedBytes::from_f32s(values))
    }

    /// The elements of an f32 constant as f32s (a splat expanded).
    pub fn to_f32s(&self) -> Option<Vec<f32>> {
        if self.elem() != ScalarType::F32 {
            return None;
        }
        Some(match self.raw_bytes() {
            Some(b) => {
                let mut v = vec![0f32; b.len() / 4];
                for (x, c) in v.iter_mut().zip(b.chunks_exact(4)) {
                    *x = f32::from_le_bytes(c.try_into().expect("4 bytes"));
                }
                v
            }
            None => vec![self.get(0).as_f64() as f32; self.numel()],
        })
    }

    /// Elements held in a shared resource blob; its size must match the type.
    pub fn from_resource(ty: TensorType, resource: Arc<Resource>) -> Result<DenseElements, String> {
        let want = ty.numel() * ty.elem().byte_size();
        if resource.is_filled() && resource.bytes().len() != want {
            return Err(format!(
                "resource '{}' holds {} bytes but {ty} needs {want}",
                resource.name(),
                resource.bytes().len()
            ));
        }
        Ok(DenseElements { ty: Arc::new(ty), storage: Storage::Resource(resource) })
    }

    pub fn ty(&self) -> &TensorType {
        &self.ty
    }
    pub fn elem(&self) -> ScalarType {
        self.ty.elem()
    }
    pub fn numel(&self) -> usize {
        self.ty.numel()
    }
    pub fn is_splat(&self) -> bool {
        matches!(self.storage, Storage::Splat(_))
    }
    pub fn resource(&self) -> Option<&Arc<Resource>> {
        match &self.storage {
            Storage::Resource(r) => Some(r),
            _ => None,
        }
    }

    /// The same elements under another type with the same element count and type
    /// (a reshape); storage is shared.
    pub fn reshaped(&self, ty: TensorType) -> Option<DenseElements> {
        (ty.numel() == self.numel() && ty.elem() == self.elem())
            .then(|| DenseElements { ty: Arc::new(ty), storage: self.storage.clone() })
    }

    /// All element bytes, or `None` for a splat.
    pub fn raw_bytes(&self) -> Option<&[u8]> {
        match &self.storage {
            Storage::Splat(_) => None,
            Storage::Inline(b) => Some(b.as_slice()),
            Storage::Resource(r) => Some(r.bytes()),
        }
    }

    /// The bytes of element `i` (little-endian, `byte_size` long).
    pub fn element_bytes(&self, i: usize) -> &[u8] {
        let size = self.elem().byte_size();
        match &self.storage {
            Storage::Splat(b) => &b[..size],
            _ => &self.raw_bytes().unwrap_or(&[])[i * size..(i + 1) * size],
        }
    }

    pub fn get(&self, i: usize) -> Scalar {
        decode(self.elem(), self.element_bytes(i))
    }

    /// Whether every element is equal (true for a splat, and checked for data).
    pub fn all_equal(&self) -> bool {
        match self.raw_bytes() {
            None => true,
            Some(_) if self.elem() == ScalarType::I1 => (1..self.numel()).all(|i| self.get(i) == self.get(0)),
            Some(bytes) => {
                let size = self.elem().byte_size();
                bytes.chunks_exact(size).all(|c| c == &bytes[..size])
            }
        }
    }

    pub fn to_f64s(&self) -> Vec<f64> {
        (0..self.numel()).map(|i| self.get(i).as_f64()).collect()
    }

    pub fn to_i64s(&self) -> Vec<i64> {
        (0..self.numel()).map(|i| self.get(i).as_i64()).collect()
    }

    /// Little-endian bytes of every element (expands a splat).
    pub fn to_bytes(&self) -> Vec<u8> {
        match self.raw_bytes() {
            Some(b) => b.to_vec(),
            None => self.element_bytes(0).repeat(self.numel()),
        }
    }

    /// Every element's bytes in fresh aligned storage (expands a splat), or an error
    /// naming the constant's type and bytes when they cannot be allocated.
    pub fn try_to_aligned_bytes(&self) -> Result<AlignedBytes, String> {
        let size = self.elem().byte_size();
        let len = self.numel().checked_mul(size).ok_or_else(|| format!("constant {} is too large", self.ty))?;
        let mut out = AlignedBytes::try_zeroed(len).map_err(|e| format!("constant {}: {e}", self.ty))?;
        match self.raw_bytes() {
            Some(b) => out.as_mut_slice().copy_from_slice(b),
            None => {
                let one = self.element_bytes(0);
                out.as_mut_slice().chunks_exact_mut(size.max(1)).for_each(|c| c.copy_from_slice(one));
            }
        }
        Ok(out)
    }

    fn content_eq(&self, other: &DenseElements) -> bool {
        if self.ty != other.ty {
            return false;
        }
        match (&self.storage, &other.storage) {
            (Storage::Inline(a), Storage::Inline(b)) if Arc::ptr_eq(a, b) => true,
            (Storage::Resource(a), Storage::Resource(b)) if Arc::ptr_eq(a, b) => true,
            (Storage::Splat(a), Storage::Splat(b)) => a == b,
            // i1 blobs may hold any nonzero byte for true.
            _ if self.elem() == ScalarType::I1 => (0..self.numel()).all(|i| self.get(i) == other.get(i)),
            _ => (0..self.numel()).all(|i| self.element_bytes(i) == other.element_bytes(i)),
        }
    }
}

impl PartialEq for DenseElements {
    fn eq(&self, other: &Self) -> bool {
        self.content_eq(other)
    }
}
impl Eq for DenseElements {}

impl std::hash::Hash for DenseElements {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // Consistent with `eq`: the type and the first element identify a bucket.
        self.ty.hash(state);
        if self.numel() > 0 {
            match self.elem() {
                ScalarType::I1 => self.get(0).as_i64().hash(state),
                _ => self.element_bytes(0).hash(state),
            }
        }
    }
}

/// One element value, independent of its storage width.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Scalar {
    Int(i64),
    Float(f64),
}

impl Scalar {
    pub fn as_f64(self) -> f64 {
        match self {
            Scalar::Int(v) => v as f64,
            Scalar::Float(v) => v,
        }
    }
    pub fn as_i64(self) -> i64 {
        match self {
            Scalar::Int(v) => v,
            Scalar::Float(v) => v as i64,
        }
    }
}

/// Writes `value` as element type `ty` into the first `byte_size` bytes of `out`
/// (floats round to nearest, integers wrap to the width, i1 is `value != 0`).
pub fn encode(ty: ScalarType, value: Scalar, out: &mut [u8; 8]) {
    let int = || match value {
        Scalar::Int(v) => v,
        Scalar::Float(v) => v as i64,
    };
    let float = value.as_f64();
    *out = [0; 8];
    match ty {
        ScalarType::I1 => out[0] = (int() != 0) as u8,
        ScalarType::I8 => out[..1].copy_from_slice(&(int() as i8).to_le_bytes()),
        ScalarType::I16 => out[..2].copy_from_slice(&(int() as i16).to_le_bytes()),
        ScalarType::I32 => out[..4].copy_from_slice(&(int() as i32).to_le_bytes()),
        ScalarType::I64 | ScalarType::Index => *out = int().to_le_bytes(),
        ScalarType::F16 => out[..2].copy_from_slice(&f32_to_f16(float as f32).to_le_bytes()),
        ScalarType::BF16 => out[..2].copy_from_slice(&f32_to_bf16(float as f32).to_le_bytes()),
        ScalarType::F32 => out[..4].copy_from_slice(&(float as f32).to_le_bytes()),
        ScalarType::F64 => *out = float.to_le_bytes(),
    }
}

/// Reads an element of type `ty` from its little-endian bytes.
pub fn decode(ty: ScalarType, b: &[u8]) -> Scalar {
    let arr = |n: usize| {
        let mut a = [0u8; 8];
        a[..n].copy_from_slice(&b[..n]);
        a
    };
    match ty {
        ScalarType::I1 => Scalar::Int((b[0] != 0) as i64),
        ScalarType::I8 => Scalar::Int(b[0] as i8 as i64),
        ScalarType::I16 => Scalar::Int(i16::from_le_bytes([b[0], b[1]]) as i64),
        ScalarType::I32 => Scalar::Int(i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as i64),
        ScalarType::I64 | ScalarType::Index => Scalar::Int(i64::from_le_bytes(arr(8))),
        ScalarType::F16 => Scalar::Float(f16_to_f32(u16::from_le_bytes([b[0], b[1]])) as f64),
        ScalarType::BF16 => Scalar::Float(bf16_to_f32(u16::from_le_bytes([b[0], b[1]])) as f64),
        ScalarType::F32 => Scalar::Float(f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64),
        ScalarType::F64 => Scalar::Float(f64::from_le_bytes(arr(8))),
    }
}

/// IEEE half to single precision (exact). (The runtime's `F16::to_f32` widens the
/// same way for display; a test holds the two together.)
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let mant = (h & 0x3ff) as u32;
    let bits = match (exp, mant) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: value = m * 2^-24.
            let v = m as f32 * f32::from_bits(0x3380_0000);
            return if sign != 0 { -v } else { v };
        }
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 112) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// Single to half precision, round to nearest even; beyond the largest half, infinity;
/// a NaN stays a NaN (quiet, with its sign). The definition of f16 narrowing: the
/// interpreter, constant folding and `expand-half`'s tests use it.
pub fn f32_to_f16(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xff) as i32;
    let mant = x & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rounded = (m + half - 1 + ((m >> shift) & 1)) >> shift;
        return sign | rounded as u16;
    }
    let rounded = mant + 0xfff + ((mant >> 13) & 1);
    if rounded & 0x80_0000 != 0 {
        // Mantissa overflowed into the exponent.
        let e = e + 1;
        if e >= 0x1f {
            return sign | 0x7c00;
        }
        return sign | ((e as u16) << 10);
    }
    sign | ((e as u16) << 10) | (rounded >> 13) as u16
}

/// Single to bfloat16, round to nearest even.
/// bfloat16 to single precision (exact: the high half of the f32 bits).
pub fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits((h as u32) << 16)
}

pub fn f32_to_bf16(f: f32) -> u16 {
    let x = f.to_bits();
    if f.is_nan() {
        return ((x >> 16) | 0x40) as u16;
    }
    ((x + 0x7fff + ((x >> 16) & 1)) >> 16) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_data_is_cache_line_aligned() {
        let aligned = |b: &AlignedBytes| (b.as_slice().as_ptr() as usize).is_multiple_of(64);
        // f32s whose own allocation is (most likely) not: every offset of a larger one.
        let big: Vec<f32> = (0..4096).map(|i| i as f32).collect();
        for skip in 0..16 {
            let values = big[skip..].to_vec();
            let b = AlignedBytes::from_f32s(values.clone());
            assert!(aligned(&b) && aligned(&b.clone()));
            assert_eq!(b.as_slice().len(), values.len() * 4);
            assert_eq!(&b.as_slice()[..4], &(skip as f32).to_le_bytes());
        }
        for len in [0, 1, 63, 64, 65, 1 << 20] {
            assert!(aligned(&AlignedBytes::zeroed(len)));
            assert!(aligned(&AlignedBytes::try_zeroed(len).unwrap()));
            assert!(aligned(&AlignedBytes::from_slice(&vec![7u8; len])));
        }
    }

    #[test]
    fn half_round_trips_every_finite_value() {
        for h in 0u16..=0xffff {
            let f = f16_to_f32(h);
            if f.is_nan() {
                assert!(f16_to_f32(f32_to_f16(f)).is_nan());
            } else {
                assert_eq!(f32_to_f16(f), h, "half {h:#06x} -> {f}");
            }
        }
    }

    #[test]
    fn half_rounds_to_nearest_even() {
        assert_eq!(f32_to_f16(1.0 + 1.0 / 2048.0), 0x3c00); // tie, to even
        assert_eq!(f32_to_f16(1.0 + 3.0 / 2048.0), 0x3c02); // tie, to even (up)
        assert_eq!(f32_to_f16(65520.0), 0x7c00); // rounds to infinity
    }

    #[test]
    fn splat_and_data_compare_by_content() {
        let ty = TensorType::new(vec![2, 2], ScalarType::F32).unwrap();
        let a = DenseElements::splat(ty.clone(), Scalar::Float(1.5));
        let b = DenseElements::from_f32s(ty, &[1.5; 4]).unwrap();
        assert_eq!(a, b);
        assert!(b.all_equal());
        assert_eq!(a.to_f64s(), vec![1.5; 4]);
    }

    #[test]
    fn f32s_taken_over_read_back_and_clone_aligned() {
        for n in [0, 1, 3, 1000] {
            let values: Vec<f32> = (0..n).map(|i| i as f32 * -0.25).collect();
            let ty = TensorType::new(vec![n as i64], ScalarType::F32).unwrap();
            let d = DenseElements::from_f32_vec(ty, values.clone()).unwrap();
            assert_eq!(d.to_f32s().unwrap(), values);
            let bytes = AlignedBytes::from_f32s(values.clone());
            let copy = bytes.clone();
            assert_eq!(copy.as_slice(), bytes.as_slice());
            assert!((copy.as_slice().as_ptr() as usize).is_multiple_of(8));
        }
    }

    #[test]
    fn wrong_byte_count_is_an_error() {
        let ty = TensorType::new(vec![3], ScalarType::F32).unwrap();
        assert!(DenseElements::from_bytes(ty, AlignedBytes::zeroed(8)).is_err());
    }
}
