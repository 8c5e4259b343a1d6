//! The interpreter's tensor: a shape and a vector of one of the graph dialect's element
//! types, row-major. Deliberately plain: the interpreter is the correctness oracle.

use tcc_ir::{DenseElements, Scalar, ScalarType, TensorType};

/// Element data of one of the graph dialect's element types.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    F32(Vec<f32>),
    F64(Vec<f64>),
    I1(Vec<bool>),
    I32(Vec<i32>),
    I64(Vec<i64>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    shape: Vec<usize>,
    data: Data,
}

/// Element types the graph dialect (and so the interpreter) supports.
pub const GRAPH_ELEMENT_TYPES: [ScalarType; 5] =
    [ScalarType::F32, ScalarType::F64, ScalarType::I1, ScalarType::I32, ScalarType::I64];

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
            ScalarType::I1 => Data::I1(v.into_iter().map(|x| x != 0.0).collect()),
            ScalarType::I32 => Data::I32(v.into_iter().map(|x| x as i32).collect()),
            ScalarType::I64 => Data::I64(v.into_iter().map(|x| x as i64).collect()),
            other => return Err(format!("element type {other} is not supported by the interpreter")),
        };
        Tensor::new(shape, data)
    }

    /// A tensor of integer element type `elem` from i64 values (wrapped to the width).
    pub fn from_i64s(elem: ScalarType, shape: Vec<usize>, v: Vec<i64>) -> Result<Tensor, String> {
        let data = match elem {
            ScalarType::I1 => Data::I1(v.into_iter().map(|x| x != 0).collect()),
            ScalarType::I32 => Data::I32(v.into_iter().map(|x| x as i32).collect()),
            ScalarType::I64 => Data::I64(v),
            ScalarType::F32 | ScalarType::F64 => {
                return Tensor::from_f64s(elem, shape, v.into_iter().map(|x| x as f64).collect());
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
        match &self.data {
            Data::F32(v) => v.len(),
            Data::F64(v) => v.len(),
            Data::I1(v) => v.len(),
            Data::I32(v) => v.len(),
            Data::I64(v) => v.len(),
        }
    }

    pub fn elem(&self) -> ScalarType {
        match &self.data {
            Data::F32(_) => ScalarType::F32,
            Data::F64(_) => ScalarType::F64,
            Data::I1(_) => ScalarType::I1,
            Data::I32(_) => ScalarType::I32,
            Data::I64(_) => ScalarType::I64,
        }
    }

    pub fn is_float(&self) -> bool {
        self.elem().is_float()
    }

    /// Every element as f64 (exact for every supported type but i64 beyond 2^53).
    pub fn to_f64s(&self) -> Vec<f64> {
        match &self.data {
            Data::F32(v) => v.iter().map(|&x| x as f64).collect(),
            Data::F64(v) => v.clone(),
            Data::I1(v) => v.iter().map(|&x| x as u8 as f64).collect(),
            Data::I32(v) => v.iter().map(|&x| x as f64).collect(),
            Data::I64(v) => v.iter().map(|&x| x as f64).collect(),
        }
    }

    /// Every element as i64 (floats truncate toward zero, saturating).
    pub fn to_i64s(&self) -> Vec<i64> {
        match &self.data {
            Data::F32(v) => v.iter().map(|&x| x as i64).collect(),
            Data::F64(v) => v.iter().map(|&x| x as i64).collect(),
            Data::I1(v) => v.iter().map(|&x| x as i64).collect(),
            Data::I32(v) => v.iter().map(|&x| x as i64).collect(),
            Data::I64(v) => v.clone(),
        }
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
        let data = match &self.data {
            Data::F32(v) => Data::F32(pick(v, idx)),
            Data::F64(v) => Data::F64(pick(v, idx)),
            Data::I1(v) => Data::I1(pick(v, idx)),
            Data::I32(v) => Data::I32(pick(v, idx)),
            Data::I64(v) => Data::I64(pick(v, idx)),
        };
        Tensor { shape, data }
    }

    /// This tensor moved to another layout by `plan` (padding zero), of `shape`.
    pub fn relayout(&self, plan: &crate::layout::TransformPlan, shape: Vec<usize>) -> Tensor {
        let data = match &self.data {
            Data::F32(v) => Data::F32(plan.apply(v)),
            Data::F64(v) => Data::F64(plan.apply(v)),
            Data::I1(v) => Data::I1(plan.apply(v)),
            Data::I32(v) => Data::I32(plan.apply(v)),
            Data::I64(v) => Data::I64(plan.apply(v)),
        };
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
        let data = match d.elem() {
            ScalarType::F32 => Data::F32(d.to_f32s().expect("f32 elements")),
            ScalarType::F64 => Data::F64((0..n).map(|i| d.get(i).as_f64()).collect()),
            ScalarType::I1 => Data::I1((0..n).map(|i| d.get(i).as_i64() != 0).collect()),
            ScalarType::I32 => Data::I32((0..n).map(|i| d.get(i).as_i64() as i32).collect()),
            ScalarType::I64 => Data::I64((0..n).map(|i| d.get(i).as_i64()).collect()),
            other => return Err(format!("constants of element type {other} are not supported by the interpreter")),
        };
        Tensor::new(shape, data)
    }

    /// Writes this tensor as a dense constant.
    pub fn to_dense(&self) -> DenseElements {
        if let Data::F32(v) = &self.data {
            return DenseElements::from_f32s(self.tensor_type(), v).expect("element count matches the shape");
        }
        let scalars: Vec<Scalar> = match &self.data {
            Data::F32(v) => v.iter().map(|&x| Scalar::Float(x as f64)).collect(),
            Data::F64(v) => v.iter().map(|&x| Scalar::Float(x)).collect(),
            Data::I1(v) => v.iter().map(|&x| Scalar::Int(x as i64)).collect(),
            Data::I32(v) => v.iter().map(|&x| Scalar::Int(x as i64)).collect(),
            Data::I64(v) => v.iter().map(|&x| Scalar::Int(x)).collect(),
        };
        DenseElements::from_scalars(self.tensor_type(), &scalars).expect("element count matches the shape")
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

/// For every multi-index of `shape` in row-major order, `sum(index[d] * strides[d])`:
/// the flat source offsets of a strided view (a transpose, a broadcast with stride-0
/// dimensions), computed without per-element index vectors.
pub fn strided_offsets(shape: &[usize], strides: &[usize]) -> Vec<usize> {
    fn level(shape: &[usize], strides: &[usize], base: usize, out: &mut Vec<usize>) {
        match (shape, strides) {
            ([], _) => out.push(base),
            ([n], [s]) => out.extend((0..*n).map(|i| base + i * s)),
            ([n, rest @ ..], [s, srest @ ..]) => {
                for i in 0..*n {
                    level(rest, srest, base + i * s, out);
                }
            }
            _ => unreachable!("one stride per dimension"),
        }
    }
    let mut out = Vec::with_capacity(shape.iter().product());
    level(shape, strides, 0, &mut out);
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
