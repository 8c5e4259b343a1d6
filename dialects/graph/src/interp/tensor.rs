//! The interpreter's tensor: a shape and a vector of one of the graph dialect's element
//! types, row-major. Deliberately plain: the interpreter is the correctness oracle.

use tcc_ir::dense::{bf16_to_f32, f16_to_f32, f32_to_bf16, f32_to_f16};
use tcc_ir::{DenseElements, Scalar, ScalarType, TensorType};

/// Element data of one of the graph dialect's element types.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    F32(Vec<f32>),
    F64(Vec<f64>),
    /// IEEE half precision, as its bits.
    F16(Vec<u16>),
    /// bfloat16, as its bits.
    BF16(Vec<u16>),
    I1(Vec<bool>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
}

/// `$body` on the vector of whichever variant `$data` holds (bound to `$v`).
macro_rules! with_data {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            Data::F32($v) => $body,
            Data::F64($v) => $body,
            Data::F16($v) => $body,
            Data::BF16($v) => $body,
            Data::I1($v) => $body,
            Data::I8($v) => $body,
            Data::I16($v) => $body,
            Data::I32($v) => $body,
            Data::I64($v) => $body,
        }
    };
}

/// `$body` on the vector of whichever variant `$data` holds, wrapped in that variant.
macro_rules! map_data {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            Data::F32($v) => Data::F32($body),
            Data::F64($v) => Data::F64($body),
            Data::F16($v) => Data::F16($body),
            Data::BF16($v) => Data::BF16($body),
            Data::I1($v) => Data::I1($body),
            Data::I8($v) => Data::I8($body),
            Data::I16($v) => Data::I16($body),
            Data::I32($v) => Data::I32($body),
            Data::I64($v) => Data::I64($body),
        }
    };
}

#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    shape: Vec<usize>,
    data: Data,
}

impl Data {
    pub fn len(&self) -> usize {
        with_data!(self, v => v.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every element as f64 (exact for every supported type but i64 beyond 2^53).
    pub fn to_f64s(&self) -> Vec<f64> {
        match self {
            Data::F32(v) => v.iter().map(|&x| x as f64).collect(),
            Data::F64(v) => v.clone(),
            Data::F16(v) => v.iter().map(|&x| f16_to_f32(x) as f64).collect(),
            Data::BF16(v) => v.iter().map(|&x| bf16_to_f32(x) as f64).collect(),
            Data::I1(v) => v.iter().map(|&x| x as u8 as f64).collect(),
            Data::I8(v) => v.iter().map(|&x| x as f64).collect(),
            Data::I16(v) => v.iter().map(|&x| x as f64).collect(),
            Data::I32(v) => v.iter().map(|&x| x as f64).collect(),
            Data::I64(v) => v.iter().map(|&x| x as f64).collect(),
        }
    }
}

/// Element types the graph dialect (and so the interpreter) supports.
pub const GRAPH_ELEMENT_TYPES: [ScalarType; 9] = [
    ScalarType::F32,
    ScalarType::F64,
    ScalarType::F16,
    ScalarType::BF16,
    ScalarType::I1,
    ScalarType::I8,
    ScalarType::I16,
    ScalarType::I32,
    ScalarType::I64,
];

impl Tensor {
    pub fn new(shape: Vec<usize>, data: Data) -> Result<Tensor, String> {
        let t = Tensor { shape, data };
        if t.len() != t.numel() {
            return Err(format!("tensor of shape {:?} needs {} elements, got {}", t.shape, t.numel(), t.len()));
        }
        Ok(t)
    }

    pub fn f32(shape: &[usize], values: Vec<f32>) -> Result<Tensor, String> {
        Tensor::new(shape.to_vec(), Data::F32(values))
    }

    /// A tensor of element type `elem` from f64 values (rounded/converted per element).
    pub fn from_f64s(elem: ScalarType, shape: Vec<usize>, v: Vec<f64>) -> Result<Tensor, String> {
        let data = match elem {
            ScalarType::F32 => Data::F32(v.into_iter().map(|x| x as f32).collect()),
            ScalarType::F64 => Data::F64(v),
            // Through f32, as the compiled code converts (f64 -> f32 -> f16).
            ScalarType::F16 => Data::F16(v.into_iter().map(|x| f32_to_f16(x as f32)).collect()),
            ScalarType::BF16 => Data::BF16(v.into_iter().map(|x| f32_to_bf16(x as f32)).collect()),
            ScalarType::I1 => Data::I1(v.into_iter().map(|x| x != 0.0).collect()),
            ScalarType::I8 => Data::I8(v.into_iter().map(|x| x as i8).collect()),
            ScalarType::I16 => Data::I16(v.into_iter().map(|x| x as i16).collect()),
            ScalarType::I32 => Data::I32(v.into_iter().map(|x| x as i32).collect()),
            ScalarType::I64 => Data::I64(v.into_iter().map(|x| x as i64).collect()),
            other => return Err(format!("element type {other} is not supported by the interpreter")),
        };
        Tensor::new(shape, data)
    }

    /// This tensor's floats converted to float type `elem` through f32 (so exactly what
    /// [`Tensor::from_f64s`] of its values gives), without f64 values in between: `None`
    /// unless both types are among f32, f16 and bf16.
    pub fn float_cast(&self, elem: ScalarType) -> Option<Tensor> {
        let f32s: Vec<f32> = match &self.data {
            Data::F32(v) => v.clone(),
            Data::F16(v) => v.iter().map(|&h| f16_to_f32(h)).collect(),
            Data::BF16(v) => v.iter().map(|&h| bf16_to_f32(h)).collect(),
            _ => return None,
        };
        let data = match elem {
            ScalarType::F32 => Data::F32(f32s),
            ScalarType::F16 => Data::F16(f32s.into_iter().map(f32_to_f16).collect()),
            ScalarType::BF16 => Data::BF16(f32s.into_iter().map(f32_to_bf16).collect()),
            _ => return None,
        };
        Tensor::new(self.shape.clone(), data).ok()
    }

    /// A 16-bit float tensor's values widened to f32 and rounded back, in place (every
    /// value but a NaN comes back as it was; a NaN comes back quiet).
    pub fn round_half_through_f32(&mut self) {
        match &mut self.data {
            Data::F16(v) => v.iter_mut().for_each(|h| *h = f32_to_f16(f16_to_f32(*h))),
            Data::BF16(v) => v.iter_mut().for_each(|h| *h = f32_to_bf16(bf16_to_f32(*h))),
            _ => {}
        }
    }

    /// A tensor of integer element type `elem` from i64 values (wrapped to the width).
    pub fn from_i64s(elem: ScalarType, shape: Vec<usize>, v: Vec<i64>) -> Result<Tensor, String> {
        let data = match elem {
            ScalarType::I1 => Data::I1(v.into_iter().map(|x| x != 0).collect()),
            ScalarType::I8 => Data::I8(v.into_iter().map(|x| x as i8).collect()),
            ScalarType::I16 => Data::I16(v.into_iter().map(|x| x as i16).collect()),
            ScalarType::I32 => Data::I32(v.into_iter().map(|x| x as i32).collect()),
            ScalarType::I64 => Data::I64(v),
            ScalarType::F32 | ScalarType::F64 => {
                return Tensor::from_f64s(elem, shape, v.into_iter().map(|x| x as f64).collect());
            }
            ScalarType::F16 | ScalarType::BF16 => {
                // Through f32, as the compiled code converts (i64 -> f32 -> f16).
                return Tensor::from_f64s(elem, shape, v.into_iter().map(|x| x as f32 as f64).collect());
            }
            other => return Err(format!("element type {other} is not supported by the interpreter")),
        };
        Tensor::new(shape, data)
    }

    pub fn zeros(elem: ScalarType, shape: &[usize]) -> Result<Tensor, String> {
        let n = shape.iter().product();
        Tensor::from_f64s(elem, shape.to_vec(), vec![0.0; n])
    }

    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    pub fn rank(&self) -> usize {
        self.shape.len()
    }
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }
    pub fn data(&self) -> &Data {
        &self.data
    }
    fn len(&self) -> usize {
        self.data.len()
    }

    pub fn elem(&self) -> ScalarType {
        match &self.data {
            Data::F32(_) => ScalarType::F32,
            Data::F64(_) => ScalarType::F64,
            Data::F16(_) => ScalarType::F16,
            Data::BF16(_) => ScalarType::BF16,
            Data::I1(_) => ScalarType::I1,
            Data::I8(_) => ScalarType::I8,
            Data::I16(_) => ScalarType::I16,
            Data::I32(_) => ScalarType::I32,
            Data::I64(_) => ScalarType::I64,
        }
    }

    pub fn is_float(&self) -> bool {
        self.elem().is_float()
    }

    /// Every element as f64 (exact for every supported type but i64 beyond 2^53).
    pub fn to_f64s(&self) -> Vec<f64> {
        self.data.to_f64s()
    }

    /// Every element as i64 (floats truncate toward zero, saturating).
    pub fn to_i64s(&self) -> Vec<i64> {
        match &self.data {
            Data::F32(v) => v.iter().map(|&x| x as i64).collect(),
            Data::F64(v) => v.iter().map(|&x| x as i64).collect(),
            Data::F16(v) => v.iter().map(|&x| f16_to_f32(x) as i64).collect(),
            Data::BF16(v) => v.iter().map(|&x| bf16_to_f32(x) as i64).collect(),
            Data::I1(v) => v.iter().map(|&x| x as i64).collect(),
            Data::I8(v) => v.iter().map(|&x| x as i64).collect(),
            Data::I16(v) => v.iter().map(|&x| x as i64).collect(),
            Data::I32(v) => v.iter().map(|&x| x as i64).collect(),
            Data::I64(v) => v.clone(),
        }
    }

    /// This tensor converted to element type `to` if its elements are of type `from`
    /// (itself otherwise).
    pub fn converted(&self, from: ScalarType, to: ScalarType) -> Tensor {
        if self.elem() != from {
            return self.clone();
        }
        if let Some(t) = self.float_cast(to) {
            return t;
        }
        Tensor::from_f64s(to, self.shape.clone(), self.to_f64s()).expect("the same shape")
    }

    pub fn as_f32s(&self) -> Option<&[f32]> {
        match &self.data {
            Data::F32(v) => Some(v),
            _ => None,
        }
    }

    /// Same data, another shape with the same element count.
    pub fn reshaped(&self, shape: Vec<usize>) -> Result<Tensor, String> {
        Tensor::new(shape, self.data.clone())
    }

    /// Picks elements by flat index (the building block of every data movement op).
    pub fn gather_flat(&self, shape: Vec<usize>, idx: &[usize]) -> Tensor {
        fn pick<T: Copy>(v: &[T], idx: &[usize]) -> Vec<T> {
            idx.iter().map(|&i| v[i]).collect()
        }
        let data = map_data!(&self.data, v => pick(v, idx));
        Tensor { shape, data }
    }

    /// The strided view of this tensor's elements (see [`gather_view`]): a transpose,
    /// slice or broadcast without an index per element.
    pub fn view(&self, shape: Vec<usize>, offset: usize, strides: &[usize]) -> Tensor {
        let data = map_data!(&self.data, v => gather_view(v, &shape, offset, strides));
        Tensor { shape, data }
    }

    /// `parts` side by side along `axis` (a tensor of `shape`; every part has this
    /// rank and the element type of the first).
    pub fn concat(parts: &[&Tensor], axis: usize, shape: Vec<usize>) -> Result<Tensor, String> {
        let elem = parts.first().map(|t| t.elem()).ok_or("nothing to concatenate")?;
        if parts.iter().any(|t| t.elem() != elem || t.rank() != shape.len()) {
            return Err("parts differ in element type or rank".into());
        }
        let shapes: Vec<&[usize]> = parts.iter().map(|t| t.shape()).collect();
        macro_rules! join {
            ($variant:ident) => {{
                let vs: Vec<&[_]> = parts
                    .iter()
                    .map(|t| match &t.data {
                        Data::$variant(v) => v.as_slice(),
                        _ => unreachable!("element types checked above"),
                    })
                    .collect();
                Data::$variant(concat_into(&vs, &shapes, axis, &shape))
            }};
        }
        let data = match elem {
            ScalarType::F32 => join!(F32),
            ScalarType::F64 => join!(F64),
            ScalarType::F16 => join!(F16),
            ScalarType::BF16 => join!(BF16),
            ScalarType::I1 => join!(I1),
            ScalarType::I8 => join!(I8),
            ScalarType::I16 => join!(I16),
            ScalarType::I32 => join!(I32),
            _ => join!(I64),
        };
        Tensor::new(shape, data)
    }

    /// This tensor moved to another layout by `plan` (padding zero), of `shape`.
    pub fn relayout(&self, plan: &crate::layout::TransformPlan, shape: Vec<usize>) -> Tensor {
        let data = map_data!(&self.data, v => plan.apply(v));
        Tensor { shape, data }
    }

    /// The tensor type describing this tensor.
    pub fn tensor_type(&self) -> TensorType {
        TensorType::new(self.shape.iter().map(|&d| d as i64).collect(), self.elem())
            .expect("interpreter tensors have valid shapes")
    }

    /// Reads a dense constant.
    pub fn from_dense(d: &DenseElements) -> Result<Tensor, String> {
        let shape = d.ty().dims();
        let n = d.numel();
        let halves = || {
            let bytes = d.raw_bytes()?;
            Some(bytes.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])).collect::<Vec<u16>>())
        };
        let data = match d.elem() {
            ScalarType::F32 => Data::F32(d.to_f32s().expect("f32 elements")),
            // 16-bit floats stored inline: their bits as they are.
            ScalarType::F16 if let Some(h) = halves() => Data::F16(h),
            ScalarType::BF16 if let Some(h) = halves() => Data::BF16(h),
            ScalarType::F64 => Data::F64((0..n).map(|i| d.get(i).as_f64()).collect()),
            ScalarType::F16 => Data::F16((0..n).map(|i| f32_to_f16(d.get(i).as_f64() as f32)).collect()),
            ScalarType::BF16 => Data::BF16((0..n).map(|i| f32_to_bf16(d.get(i).as_f64() as f32)).collect()),
            ScalarType::I1 => Data::I1((0..n).map(|i| d.get(i).as_i64() != 0).collect()),
            ScalarType::I8 => Data::I8((0..n).map(|i| d.get(i).as_i64() as i8).collect()),
            ScalarType::I16 => Data::I16((0..n).map(|i| d.get(i).as_i64() as i16).collect()),
            ScalarType::I32 => Data::I32((0..n).map(|i| d.get(i).as_i64() as i32).collect()),
            ScalarType::I64 => Data::I64((0..n).map(|i| d.get(i).as_i64()).collect()),
            other => return Err(format!("constants of element type {other} are not supported by the interpreter")),
        };
        Tensor::new(shape, data)
    }

    /// Writes this tensor as a dense constant.
    pub fn to_dense(&self) -> DenseElements {
        self.clone().into_dense()
    }

    /// The same, taking the data over (f32 elements are not copied).
    pub fn into_dense(self) -> DenseElements {
        let ty = self.tensor_type();
        let scalars: Vec<Scalar> = match self.data {
            Data::F32(v) => return DenseElements::from_f32_vec(ty, v).expect("element count matches the shape"),
            // 16-bit floats as their bits (a folded model's bf16 weights: no scalars).
            Data::F16(v) | Data::BF16(v) => {
                let bytes: Vec<u8> = v.iter().flat_map(|h| h.to_le_bytes()).collect();
                return DenseElements::from_bytes(ty, tcc_ir::dense::AlignedBytes::from_slice(&bytes))
                    .expect("element count matches the shape");
            }
            Data::F64(v) => v.iter().map(|&x| Scalar::Float(x)).collect(),
            Data::I1(v) => v.iter().map(|&x| Scalar::Int(x as i64)).collect(),
            Data::I8(v) => v.iter().map(|&x| Scalar::Int(x as i64)).collect(),
            Data::I16(v) => v.iter().map(|&x| Scalar::Int(x as i64)).collect(),
            Data::I32(v) => v.iter().map(|&x| Scalar::Int(x as i64)).collect(),
            Data::I64(v) => v.iter().map(|&x| Scalar::Int(x)).collect(),
        };
        DenseElements::from_scalars(ty, &scalars).expect("element count matches the shape")
    }
}

/// Row-major strides of a shape.
pub fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1];
    }
    s
}

/// `shape` with two stride vectors, simplified for walking: extent-1 dimensions
/// dropped and adjacent dimensions merged where both stride vectors allow it (so a
/// 1x1 filter times a per-channel scale walks `[O, I]`, not `[O, I, 1, 1]`, and the
/// innermost loop is as long as it can be).
fn coalesce(shape: &[usize], sa: &[usize], sb: &[usize]) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let (mut n, mut a, mut b) = (Vec::new(), Vec::new(), Vec::new());
    for d in 0..shape.len() {
        if shape[d] == 1 {
            continue;
        }
        match (n.last_mut(), a.last_mut(), b.last_mut()) {
            (Some(last_n), Some(last_a), Some(last_b))
                if *last_a == sa[d] * shape[d] && *last_b == sb[d] * shape[d] =>
            {
                *last_n *= shape[d];
                *last_a = sa[d];
                *last_b = sb[d];
            }
            _ => {
                n.push(shape[d]);
                a.push(sa[d]);
                b.push(sb[d]);
            }
        }
    }
    (n, a, b)
}

/// Calls `f(i, j)` with the flat offsets into two strided operands (strides `sa`, `sb`)
/// for every index of `shape` in row-major order.
pub fn for_each_pair(shape: &[usize], sa: &[usize], sb: &[usize], mut f: impl FnMut(usize, usize)) {
    fn level(shape: &[usize], sa: &[usize], sb: &[usize], a: usize, b: usize, f: &mut impl FnMut(usize, usize)) {
        match shape {
            [] => f(a, b),
            [n] => match (sa[0], sb[0]) {
                (1, 1) => (0..*n).for_each(|i| f(a + i, b + i)),
                (1, 0) => (0..*n).for_each(|i| f(a + i, b)),
                (sa, sb) => (0..*n).for_each(|i| f(a + i * sa, b + i * sb)),
            },
            [n, ..] => (0..*n).for_each(|i| level(&shape[1..], &sa[1..], &sb[1..], a + i * sa[0], b + i * sb[0], f)),
        }
    }
    if shape.contains(&0) {
        return;
    }
    let (shape, sa, sb) = coalesce(shape, sa, sb);
    level(&shape, &sa, &sb, 0, 0, &mut f);
}

/// For every multi-index of `shape` in row-major order, `sum(index[d] * strides[d])`:
/// the flat source offsets of a strided view (a transpose, a broadcast with stride-0
/// dimensions), computed without per-element index vectors.
pub fn strided_offsets(shape: &[usize], strides: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(shape.iter().product());
    for_each_pair(shape, strides, strides, |i, _| out.push(i));
    out
}

/// The elements of a strided view of `v`: for every index of `shape` in row-major
/// order, `v[offset + sum(index[d] * strides[d])]`.
fn gather_view<T: Copy>(v: &[T], shape: &[usize], offset: usize, strides: &[usize]) -> Vec<T> {
    let n: usize = shape.iter().product();
    let mut out = Vec::with_capacity(n);
    if n == 0 {
        return out;
    }
    let v = &v[offset..];
    for_each_pair(shape, strides, strides, |i, _| out.push(v[i]));
    out
}

/// `parts` laid side by side along `axis` into a tensor of `shape`.
fn concat_into<T: Copy + Default>(parts: &[&[T]], part_shapes: &[&[usize]], axis: usize, shape: &[usize]) -> Vec<T> {
    let mut out = vec![T::default(); shape.iter().product()];
    let out_strides = strides(shape);
    let mut offset = 0;
    for (v, s) in parts.iter().zip(part_shapes) {
        let dst = &mut out[offset..];
        for_each_pair(s, &out_strides, &strides(s), |o, i| dst[o] = v[i]);
        offset += s[axis] * out_strides[axis];
    }
    out
}

/// Calls `f(index, flat)` for every multi-index of `shape` in row-major order.
pub fn for_each_index(shape: &[usize], mut f: impl FnMut(&[usize], usize)) {
    let n: usize = shape.iter().product();
    let mut idx = vec![0usize; shape.len()];
    for flat in 0..n {
        f(&idx, flat);
        for d in (0..shape.len()).rev() {
            idx[d] += 1;
            if idx[d] < shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

impl Tensor {
    /// The elements of `parts` one after another, as a 1-D tensor (all parts must share
    /// an element type).
    pub fn concat_flat(parts: &[&Tensor]) -> Result<Tensor, String> {
        let elem = parts.first().map(|t| t.elem()).ok_or("nothing to concatenate")?;
        if parts.iter().any(|t| t.elem() != elem) {
            return Err("element types differ".into());
        }
        let n = parts.iter().map(|t| t.numel()).sum();
        let data = if elem.is_float() {
            let v: Vec<f64> = parts.iter().flat_map(|t| t.to_f64s()).collect();
            return Tensor::from_f64s(elem, vec![n], v);
        } else {
            parts.iter().flat_map(|t| t.to_i64s()).collect()
        };
        Tensor::from_i64s(elem, vec![n], data)
    }
}
