//! Types: scalars, ranked static tensors (with an optional layout encoding), buffers,
//! vectors, functions, and opaque dialect types.
//!
//! Types are values: cheap to clone (aggregates sit behind an `Arc`), compared
//! structurally, and printed in MLIR syntax (`tensor<1x3x32x32xf32>`, `vector<4xf32>`,
//! `buffer<4x8xf32, [8, 1]>`, `(f32) -> f32`, `!tosa.shape<2>`). Construction of a
//! tensor or buffer type checks that the shape is static, non-negative and that its
//! element count and byte size fit in memory arithmetic, so later code may multiply dims
//! without overflow checks.

use std::fmt;
use std::sync::Arc;

use crate::attributes::Attribute;

/// Element types.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarType {
    I1,
    I8,
    I16,
    I32,
    I64,
    Index,
    F16,
    BF16,
    F32,
    F64,
}

impl ScalarType {
    pub const ALL: [ScalarType; 10] = [
        ScalarType::I1,
        ScalarType::I8,
        ScalarType::I16,
        ScalarType::I32,
        ScalarType::I64,
        ScalarType::Index,
        ScalarType::F16,
        ScalarType::BF16,
        ScalarType::F32,
        ScalarType::F64,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ScalarType::I1 => "i1",
            ScalarType::I8 => "i8",
            ScalarType::I16 => "i16",
            ScalarType::I32 => "i32",
            ScalarType::I64 => "i64",
            ScalarType::Index => "index",
            ScalarType::F16 => "f16",
            ScalarType::BF16 => "bf16",
            ScalarType::F32 => "f32",
            ScalarType::F64 => "f64",
        }
    }

    pub fn from_name(name: &str) -> Option<ScalarType> {
        ScalarType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Bytes per element in dense storage (i1 takes a whole byte, index 8).
    pub fn byte_size(self) -> usize {
        match self {
            ScalarType::I1 | ScalarType::I8 => 1,
            ScalarType::I16 | ScalarType::F16 | ScalarType::BF16 => 2,
            ScalarType::I32 | ScalarType::F32 => 4,
            ScalarType::I64 | ScalarType::Index | ScalarType::F64 => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, ScalarType::F16 | ScalarType::BF16 | ScalarType::F32 | ScalarType::F64)
    }

    /// The 16-bit floats (`f16`, `bf16`): storage types, computed in f32 (widened
    /// exactly, results rounded to nearest even).
    pub fn is_half(self) -> bool {
        matches!(self, ScalarType::F16 | ScalarType::BF16)
    }

    /// Integer types including `i1` and `index`.
    pub fn is_integer(self) -> bool {
        !self.is_float()
    }

    /// Bit width of an integer type (`index` counts as 64).
    pub fn int_bits(self) -> Option<u32> {
        match self {
            ScalarType::I1 => Some(1),
            ScalarType::I8 => Some(8),
            ScalarType::I16 => Some(16),
            ScalarType::I32 => Some(32),
            ScalarType::I64 | ScalarType::Index => Some(64),
            _ => None,
        }
    }

    /// The smallest and largest value of an integer type (signed; i1 is 0 or 1).
    pub fn int_range(self) -> (i64, i64) {
        match self.int_bits() {
            Some(1) => (0, 1),
            Some(bits) if bits < 64 => (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1),
            _ => (i64::MIN, i64::MAX),
        }
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Largest number of bytes a tensor or buffer type may describe (keeps every size
/// computation in range of `isize` with room to spare).
pub const MAX_TYPE_BYTES: u64 = 1 << 46;
/// Largest rank accepted.
pub const MAX_RANK: usize = 64;

/// Checks a static shape and returns its element count, or a message.
pub fn checked_numel(shape: &[i64], elem: ScalarType) -> Result<u64, String> {
    if shape.len() > MAX_RANK {
        return Err(format!("rank {} exceeds the maximum of {MAX_RANK}", shape.len()));
    }
    let mut n: u64 = 1;
    for &d in shape {
        if d < 0 {
            return Err(format!("dimension {d} is negative"));
        }
        n = n
            .checked_mul(d as u64)
            .filter(|n| n.saturating_mul(elem.byte_size() as u64) <= MAX_TYPE_BYTES)
            .ok_or_else(|| format!("shape {} is too large", format_shape(shape)))?;
    }
    Ok(n)
}

fn format_shape(shape: &[i64]) -> String {
    shape.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("x")
}

/// A ranked tensor with static shape. `encoding` is an optional layout attribute
/// (e.g. the string `"NCHW16c"`), printed as MLIR's tensor encoding.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TensorType {
    shape: Vec<i64>,
    elem: ScalarType,
    encoding: Option<Attribute>,
}

impl TensorType {
    pub fn new(shape: Vec<i64>, elem: ScalarType) -> Result<TensorType, String> {
        Self::with_encoding(shape, elem, None)
    }

    pub fn with_encoding(shape: Vec<i64>, elem: ScalarType, encoding: Option<Attribute>) -> Result<TensorType, String> {
        checked_numel(&shape, elem)?;
        Ok(TensorType { shape, elem, encoding })
    }

    pub fn shape(&self) -> &[i64] {
        &self.shape
    }
    pub fn dims(&self) -> Vec<usize> {
        self.shape.iter().map(|&d| d as usize).collect()
    }
    pub fn rank(&self) -> usize {
        self.shape.len()
    }
    pub fn elem(&self) -> ScalarType {
        self.elem
    }
    pub fn encoding(&self) -> Option<&Attribute> {
        self.encoding.as_ref()
    }
    /// Element count (cannot overflow: checked at construction).
    pub fn numel(&self) -> usize {
        self.shape.iter().product::<i64>() as usize
    }
}

/// A buffer in the `loop` dialect: shape, element type and strides in elements
/// (`None` means the row-major strides of the shape).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BufferType {
    shape: Vec<i64>,
    elem: ScalarType,
    strides: Option<Vec<i64>>,
}

impl BufferType {
    pub fn new(shape: Vec<i64>, elem: ScalarType, strides: Option<Vec<i64>>) -> Result<Self, String> {
        checked_numel(&shape, elem)?;
        if let Some(s) = &strides
            && s.len() != shape.len()
        {
            return Err(format!("{} strides given for rank {}", s.len(), shape.len()));
        }
        Ok(BufferType { shape, elem, strides })
    }
    pub fn shape(&self) -> &[i64] {
        &self.shape
    }
    pub fn elem(&self) -> ScalarType {
        self.elem
    }
    /// The strides, in elements (row-major if none were given).
    pub fn strides(&self) -> Vec<i64> {
        match &self.strides {
            Some(s) => s.clone(),
            None => row_major_strides(&self.shape),
        }
    }
    pub fn explicit_strides(&self) -> Option<&[i64]> {
        self.strides.as_deref()
    }
}

/// Row-major strides of a shape, in elements.
pub fn row_major_strides(shape: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1].max(1);
    }
    strides
}

/// A SIMD vector of `lanes` elements.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct VectorType {
    pub lanes: u32,
    pub elem: ScalarType,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FunctionType {
    pub inputs: Vec<Type>,
    pub results: Vec<Type>,
}

/// Any IR type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Scalar(ScalarType),
    Tensor(Arc<TensorType>),
    Buffer(Arc<BufferType>),
    Vector(VectorType),
    Function(Arc<FunctionType>),
    None,
    /// A dialect type this crate does not model, kept verbatim without the leading
    /// `!` (for example `tosa.shape<4>`).
    Opaque(Arc<str>),
}

impl Type {
    pub fn tensor(shape: Vec<i64>, elem: ScalarType) -> Result<Type, String> {
        Ok(Type::Tensor(Arc::new(TensorType::new(shape, elem)?)))
    }

    pub fn from_tensor(t: TensorType) -> Type {
        Type::Tensor(Arc::new(t))
    }

    pub fn function(inputs: Vec<Type>, results: Vec<Type>) -> Type {
        Type::Function(Arc::new(FunctionType { inputs, results }))
    }

    pub fn as_tensor(&self) -> Option<&TensorType> {
        match self {
            Type::Tensor(t) => Some(t),
            _ => None,
        }
    }
    pub fn as_function(&self) -> Option<&FunctionType> {
        match self {
            Type::Function(t) => Some(t),
            _ => None,
        }
    }
    pub fn as_scalar(&self) -> Option<ScalarType> {
        match self {
            Type::Scalar(s) => Some(*s),
            _ => None,
        }
    }
    pub fn as_buffer(&self) -> Option<&BufferType> {
        match self {
            Type::Buffer(b) => Some(b),
            _ => None,
        }
    }
    pub fn as_vector(&self) -> Option<VectorType> {
        match self {
            Type::Vector(v) => Some(*v),
            _ => None,
        }
    }
    /// The element type of a tensor, buffer or vector, or the scalar itself.
    pub fn elem(&self) -> Option<ScalarType> {
        match self {
            Type::Scalar(s) => Some(*s),
            Type::Tensor(t) => Some(t.elem),
            Type::Buffer(b) => Some(b.elem),
            Type::Vector(v) => Some(v.elem),
            _ => None,
        }
    }
}

fn write_dims(f: &mut fmt::Formatter<'_>, shape: &[i64]) -> fmt::Result {
    for d in shape {
        write!(f, "{d}x")?;
    }
    Ok(())
}

fn write_list(f: &mut fmt::Formatter<'_>, items: &[i64]) -> fmt::Result {
    f.write_str("[")?;
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{x}")?;
    }
    f.write_str("]")
}

impl fmt::Display for TensorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("tensor<")?;
        write_dims(f, &self.shape)?;
        write!(f, "{}", self.elem)?;
        if let Some(enc) = &self.encoding {
            write!(f, ", {enc}")?;
        }
        f.write_str(">")
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Scalar(s) => write!(f, "{s}"),
            Type::Tensor(t) => write!(f, "{t}"),
            Type::Buffer(b) => {
                f.write_str("buffer<")?;
                write_dims(f, &b.shape)?;
                write!(f, "{}", b.elem)?;
                if let Some(s) = &b.strides {
                    f.write_str(", ")?;
                    write_list(f, s)?;
                }
                f.write_str(">")
            }
            Type::Vector(v) => write!(f, "vector<{}x{}>", v.lanes, v.elem),
            Type::Function(func) => {
                f.write_str("(")?;
                for (i, t) in func.inputs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(") -> ")?;
                write_result_types(f, &func.results)
            }
            Type::None => f.write_str("none"),
            Type::Opaque(s) => write!(f, "!{s}"),
        }
    }
}

/// Writes a result type list as MLIR does: a single non-function type bare, anything
/// else parenthesized.
pub fn write_result_types(f: &mut impl fmt::Write, results: &[Type]) -> fmt::Result {
    if results.len() == 1 && !matches!(results[0], Type::Function(_)) {
        return write!(f, "{}", results[0]);
    }
    f.write_str("(")?;
    for (i, t) in results.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{t}")?;
    }
    f.write_str(")")
}
