//! Attributes: the compile-time constants attached to operations.
//!
//! The forms are MLIR's: integers and floats with a type (`3 : i32`, `1.5 : f32`;
//! `i64` and `f64` are the untyped defaults), booleans, strings, types, arrays,
//! dense arrays (`array<i64: 1, 2>`), dense elements (`dense<..>`, `dense<"0x..">`,
//! `dense_resource<name>`), dictionaries, symbol references (`@main`) and opaque
//! dialect attributes (`#tosa<...>`, kept verbatim). Attributes are immutable values;
//! aggregates are behind `Arc` so cloning is cheap. An operation's attributes are an
//! [`AttrDict`], kept sorted by name so printing is deterministic.

use std::fmt::{self, Write};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::dense::{DenseElements, Scalar};
use crate::types::{ScalarType, Type};

#[derive(Clone, Debug)]
pub enum Attribute {
    Unit,
    Bool(bool),
    Int(i64, ScalarType),
    Float(f64, ScalarType),
    String(Arc<str>),
    Type(Type),
    Array(Arc<[Attribute]>),
    /// `array<i64: 1, 2>` and other integer dense arrays.
    DenseInts(ScalarType, Arc<[i64]>),
    /// `array<f32: 1.0>` and other float dense arrays.
    DenseFloats(ScalarType, Arc<[f64]>),
    Dense(DenseElements),
    Dict(AttrDict),
    SymbolRef(Arc<str>),
    /// A dialect attribute kept verbatim, without the leading `#`.
    Opaque(Arc<str>),
}

impl Attribute {
    pub fn i64(v: i64) -> Attribute {
        Attribute::Int(v, ScalarType::I64)
    }
    pub fn f64(v: f64) -> Attribute {
        Attribute::Float(v, ScalarType::F64)
    }
    pub fn string(s: &str) -> Attribute {
        Attribute::String(s.into())
    }
    /// An array of i64 in the `[1, 2]` form.
    pub fn i64_list(values: &[i64]) -> Attribute {
        Attribute::Array(values.iter().map(|&v| Attribute::i64(v)).collect())
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Attribute::Int(v, _) => Some(*v),
            _ => None,
        }
    }
    /// A number as f64 (integers convert).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Attribute::Float(v, _) => Some(*v),
            Attribute::Int(v, _) => Some(*v as f64),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Attribute::Bool(b) => Some(*b),
            Attribute::Unit => Some(true),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Attribute::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_type(&self) -> Option<&Type> {
        match self {
            Attribute::Type(t) => Some(t),
            _ => None,
        }
    }
    pub fn as_dense(&self) -> Option<&DenseElements> {
        match self {
            Attribute::Dense(d) => Some(d),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&[Attribute]> {
        match self {
            Attribute::Array(a) => Some(a),
            _ => None,
        }
    }
    pub fn as_dict(&self) -> Option<&AttrDict> {
        match self {
            Attribute::Dict(d) => Some(d),
            _ => None,
        }
    }
    /// An integer list in any of its spellings: `[1, 2]`, `array<i64: 1, 2>`, or a
    /// dense integer tensor.
    pub fn as_i64_list(&self) -> Option<Vec<i64>> {
        match self {
            Attribute::Array(items) => items.iter().map(|a| a.as_i64()).collect(),
            Attribute::DenseInts(_, v) => Some(v.to_vec()),
            Attribute::Dense(d) if d.elem().is_integer() && d.ty().rank() <= 1 => Some(d.to_i64s()),
            _ => None,
        }
    }

    /// A short name of the attribute's kind, for error messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Attribute::Unit => "unit",
            Attribute::Bool(_) => "bool",
            Attribute::Int(..) => "integer",
            Attribute::Float(..) => "float",
            Attribute::String(_) => "string",
            Attribute::Type(_) => "type",
            Attribute::Array(_) => "array",
            Attribute::DenseInts(..) | Attribute::DenseFloats(..) => "dense array",
            Attribute::Dense(_) => "dense elements",
            Attribute::Dict(_) => "dictionary",
            Attribute::SymbolRef(_) => "symbol reference",
            Attribute::Opaque(_) => "dialect attribute",
        }
    }
}

impl PartialEq for Attribute {
    fn eq(&self, other: &Self) -> bool {
        use Attribute::*;
        match (self, other) {
            (Unit, Unit) => true,
            (Bool(a), Bool(b)) => a == b,
            (Int(a, ta), Int(b, tb)) => a == b && ta == tb,
            (Float(a, ta), Float(b, tb)) => a.to_bits() == b.to_bits() && ta == tb,
            (String(a), String(b)) | (SymbolRef(a), SymbolRef(b)) | (Opaque(a), Opaque(b)) => a == b,
            (Type(a), Type(b)) => a == b,
            (Array(a), Array(b)) => a == b,
            (DenseInts(ta, a), DenseInts(tb, b)) => ta == tb && a == b,
            (DenseFloats(ta, a), DenseFloats(tb, b)) => {
                ta == tb && a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.to_bits() == y.to_bits())
            }
            (Dense(a), Dense(b)) => a == b,
            (Dict(a), Dict(b)) => a == b,
            _ => false,
        }
    }
}
impl Eq for Attribute {}

impl Hash for Attribute {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Attribute::Unit => {}
            Attribute::Bool(b) => b.hash(state),
            Attribute::Int(v, t) => (v, t).hash(state),
            Attribute::Float(v, t) => (v.to_bits(), t).hash(state),
            Attribute::String(s) | Attribute::SymbolRef(s) | Attribute::Opaque(s) => s.hash(state),
            Attribute::Type(t) => t.hash(state),
            Attribute::Array(a) => a.hash(state),
            Attribute::DenseInts(t, v) => (t, v).hash(state),
            Attribute::DenseFloats(t, v) => {
                t.hash(state);
                v.iter().for_each(|x| x.to_bits().hash(state))
            }
            Attribute::Dense(d) => d.hash(state),
            Attribute::Dict(d) => d.hash(state),
        }
    }
}

/// An operation's attributes: name/value pairs sorted by name, names unique.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct AttrDict {
    entries: Vec<(Arc<str>, Attribute)>,
}

impl AttrDict {
    pub fn new() -> AttrDict {
        AttrDict::default()
    }

    pub fn get(&self, name: &str) -> Option<&Attribute> {
        self.entries.binary_search_by(|(k, _)| (**k).cmp(name)).ok().map(|i| &self.entries[i].1)
    }

    /// Sets `name`, returning the previous value.
    pub fn set(&mut self, name: &str, value: Attribute) -> Option<Attribute> {
        match self.entries.binary_search_by(|(k, _)| (**k).cmp(name)) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (name.into(), value));
                None
            }
        }
    }

    pub fn with(mut self, name: &str, value: Attribute) -> AttrDict {
        self.set(name, value);
        self
    }

    pub fn remove(&mut self, name: &str) -> Option<Attribute> {
        let i = self.entries.binary_search_by(|(k, _)| (**k).cmp(name)).ok()?;
        Some(self.entries.remove(i).1)
    }

    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Attribute)> {
        self.entries.iter().map(|(k, v)| (&**k, v))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl<'a> FromIterator<(&'a str, Attribute)> for AttrDict {
    fn from_iter<I: IntoIterator<Item = (&'a str, Attribute)>>(iter: I) -> Self {
        let mut d = AttrDict::new();
        for (k, v) in iter {
            d.set(k, v);
        }
        d
    }
}

// ---------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------

/// Dense constants with more elements than this print as hex.
pub const MAX_LITERAL_ELEMENTS: usize = 16;

/// Whether `s` can be printed without quotes as an attribute name or symbol.
pub fn is_bare_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'))
}

/// Writes `s` as a quoted MLIR string literal.
pub fn write_quoted(f: &mut impl Write, s: &str) -> fmt::Result {
    f.write_char('"')?;
    for b in s.bytes() {
        match b {
            b'"' => f.write_str("\\\"")?,
            b'\\' => f.write_str("\\\\")?,
            b'\n' => f.write_str("\\n")?,
            b'\t' => f.write_str("\\t")?,
            0x20..=0x7e => f.write_char(b as char)?,
            _ => write!(f, "\\{b:02X}")?,
        }
    }
    f.write_char('"')
}

fn write_name(f: &mut impl Write, s: &str) -> fmt::Result {
    if is_bare_identifier(s) { f.write_str(s) } else { write_quoted(f, s) }
}

/// Formats a float so it re-parses to the same value of type `ty`: the shortest
/// decimal that round-trips, always with a `.`; infinities and NaNs as hex bit
/// patterns of the type, as MLIR does.
pub fn format_float(v: f64, ty: ScalarType) -> String {
    if !v.is_finite() {
        return match ty {
            ScalarType::F64 => format!("0x{:016X}", v.to_bits()),
            ScalarType::F16 => format!("0x{:04X}", crate::dense::f32_to_f16(v as f32)),
            ScalarType::BF16 => format!("0x{:04X}", crate::dense::f32_to_bf16(v as f32)),
            _ => format!("0x{:08X}", (v as f32).to_bits()),
        };
    }
    let s = if ty == ScalarType::F64 { format!("{v:?}") } else { format!("{:?}", v as f32) };
    if s.contains('.') {
        s
    } else if let Some(e) = s.find('e') {
        format!("{}.0{}", &s[..e], &s[e..])
    } else {
        format!("{s}.0")
    }
}

fn write_scalar(f: &mut impl Write, ty: ScalarType, v: Scalar) -> fmt::Result {
    match (ty, v) {
        (ScalarType::I1, v) => f.write_str(if v.as_i64() != 0 { "true" } else { "false" }),
        (t, v) if t.is_float() => f.write_str(&format_float(v.as_f64(), t)),
        (_, v) => write!(f, "{}", v.as_i64()),
    }
}

fn write_hex(f: &mut impl Write, bytes: &[u8]) -> fmt::Result {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut buf = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        buf.push(HEX[(b >> 4) as usize] as char);
        buf.push(HEX[(b & 15) as usize] as char);
    }
    f.write_str(&buf)
}

/// Writes the hex body of a resource blob: its 4-byte alignment header, then the data.
pub fn write_resource_hex(f: &mut impl Write, alignment: u32, bytes: &[u8]) -> fmt::Result {
    f.write_str("\"0x")?;
    write_hex(f, &alignment.to_le_bytes())?;
    write_hex(f, bytes)?;
    f.write_char('"')
}

fn write_dense(f: &mut impl Write, d: &DenseElements) -> fmt::Result {
    if let Some(r) = d.resource() {
        f.write_str("dense_resource<")?;
        write_name(f, r.name())?;
        return write!(f, "> : {}", d.ty());
    }
    let elem = d.elem();
    f.write_str("dense<")?;
    if d.numel() == 0 {
    } else if d.is_splat() || (d.numel() > 1 && d.all_equal()) {
        write_scalar(f, elem, d.get(0))?;
    } else if d.numel() <= MAX_LITERAL_ELEMENTS {
        write_nested(f, d, d.ty().shape(), 0)?;
    } else {
        f.write_str("\"0x")?;
        write_hex(f, &d.to_bytes())?;
        f.write_char('"')?;
    }
    write!(f, "> : {}", d.ty())
}

fn write_nested(f: &mut impl Write, d: &DenseElements, shape: &[i64], offset: usize) -> fmt::Result {
    let Some((&n, rest)) = shape.split_first() else {
        return write_scalar(f, d.elem(), d.get(offset));
    };
    let inner: usize = rest.iter().product::<i64>() as usize;
    f.write_char('[')?;
    for i in 0..n as usize {
        if i > 0 {
            f.write_str(", ")?;
        }
        write_nested(f, d, rest, offset + i * inner)?;
    }
    f.write_char(']')
}

impl fmt::Display for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Attribute::Unit => f.write_str("unit"),
            Attribute::Bool(b) => write!(f, "{b}"),
            Attribute::Int(v, ScalarType::I64) => write!(f, "{v}"),
            Attribute::Int(v, t) => write!(f, "{v} : {t}"),
            // Infinities and NaNs print as hex bits, which would read back as an integer
            // without the type.
            Attribute::Float(v, ScalarType::F64) if v.is_finite() => f.write_str(&format_float(*v, ScalarType::F64)),
            Attribute::Float(v, t) => write!(f, "{} : {t}", format_float(*v, *t)),
            Attribute::String(s) => write_quoted(f, s),
            Attribute::Type(t) => write!(f, "{t}"),
            Attribute::Array(items) => {
                f.write_char('[')?;
                for (i, a) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{a}")?;
                }
                f.write_char(']')
            }
            Attribute::DenseInts(t, v) => {
                write!(f, "array<{t}")?;
                for (i, x) in v.iter().enumerate() {
                    f.write_str(if i == 0 { ": " } else { ", " })?;
                    if *t == ScalarType::I1 {
                        f.write_str(if *x != 0 { "true" } else { "false" })?;
                    } else {
                        write!(f, "{x}")?;
                    }
                }
                f.write_char('>')
            }
            Attribute::DenseFloats(t, v) => {
                write!(f, "array<{t}")?;
                for (i, x) in v.iter().enumerate() {
                    f.write_str(if i == 0 { ": " } else { ", " })?;
                    f.write_str(&format_float(*x, *t))?;
                }
                f.write_char('>')
            }
            Attribute::Dense(d) => write_dense(f, d),
            Attribute::Dict(d) => write!(f, "{d}"),
            Attribute::SymbolRef(s) => {
                f.write_char('@')?;
                write_name(f, s)
            }
            Attribute::Opaque(s) => write!(f, "#{s}"),
        }
    }
}

impl fmt::Display for AttrDict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('{')?;
        for (i, (k, v)) in self.entries.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write_name(f, k)?;
            if !matches!(v, Attribute::Unit) {
                write!(f, " = {v}")?;
            }
        }
        f.write_char('}')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_with_a_point_and_round_trip() {
        assert_eq!(format_float(1.0, ScalarType::F32), "1.0");
        assert_eq!(format_float(1e-7, ScalarType::F32), "1.0e-7");
        assert_eq!(format_float(0.1f32 as f64, ScalarType::F32), "0.1");
        assert_eq!(format_float(f64::INFINITY, ScalarType::F32), "0x7F800000");
        assert_eq!(format_float(-0.0, ScalarType::F64), "-0.0");
        let v = 0.1f64;
        assert_eq!(format_float(v, ScalarType::F64).parse::<f64>().unwrap(), v);
    }

    #[test]
    fn dict_stays_sorted() {
        let d: AttrDict = [("b", Attribute::i64(1)), ("a", Attribute::Unit)].into_iter().collect();
        assert_eq!(d.to_string(), "{a, b = 1}");
    }
}
