//! Reading and writing tensors as NumPy `.npy` files.
//!
//! Reading is bounded by the file's header: the header itself is at most
//! [`MAX_HEADER_BYTES`], the data must be exactly the bytes the header declares (a
//! shorter file and trailing bytes are errors), and the tensor's storage is allocated
//! fallibly before it is filled, so a lying header or an endless stream (`/dev/zero`)
//! gets an error instead of exhausting memory.

use std::io::Read;
use std::path::Path;

use tcc::{DType, Tensor};

/// The longest header accepted (NumPy itself refuses headers over 10,000 bytes unless
/// told otherwise).
pub const MAX_HEADER_BYTES: usize = 65536;

/// What a `.npy` header declares.
#[derive(Debug, PartialEq)]
struct Header {
    dtype: DType,
    shape: Vec<usize>,
    /// Bytes before the data: magic, version, length and the header text.
    len: u64,
}

/// Reads a C-order `.npy` of float32, float64, float16, bfloat16 (`ml_dtypes`), int8, int16,
/// int32, int64 or bool.
pub fn read(path: &Path) -> Result<Tensor, String> {
    let what = || path.display().to_string();
    // Only a regular file (a FIFO would block, a device never end).
    let (file, file_len) = tcc::ir::files::open_regular(path).map_err(|e| format!("cannot read '{}': {e}", what()))?;
    let mut reader = std::io::BufReader::new(file);
    let header = read_header(&mut reader).map_err(|e| format!("'{}' is not a valid .npy file: {e}", what()))?;
    let bytes = header
        .shape
        .iter()
        .try_fold(header.dtype.size(), |n, &d| n.checked_mul(d))
        .ok_or_else(|| format!("'{}': shape {:?} is too large", what(), header.shape))?;
    // The file's length is known: check it before allocating anything.
    let data = file_len.saturating_sub(header.len);
    if data != bytes as u64 {
        let why = if data < bytes as u64 { "holds only" } else { "has trailing bytes:" };
        return Err(format!(
            "'{}': the header declares {}{:?} ({bytes} bytes of data), but the file {why} {data} bytes of data",
            what(),
            header.dtype,
            header.shape
        ));
    }
    let t = Tensor::from_reader(header.dtype, &header.shape, &mut reader).map_err(|e| format!("'{}': {e}", what()))?;
    // Nothing may follow the data (the file may have grown since it was opened).
    let mut probe = [0u8; 1];
    match reader.read(&mut probe) {
        Ok(0) => Ok(t),
        Ok(_) => Err(format!("'{}': trailing bytes after the {bytes} bytes of data the header declares", what())),
        Err(e) => Err(format!("cannot read '{}': {e}", what())),
    }
}

/// Reads and checks the magic string, version and header dictionary.
fn read_header(r: &mut dyn Read) -> Result<Header, String> {
    let mut start = [0u8; 8];
    r.read_exact(&mut start).map_err(|_| "the file is shorter than a .npy header".to_string())?;
    if &start[..6] != b"\x93NUMPY" {
        return Err("it does not start with the .npy magic string".into());
    }
    let (text_len, prefix) = match start[6] {
        1 => {
            let mut n = [0u8; 2];
            r.read_exact(&mut n).map_err(|_| "truncated header".to_string())?;
            (u16::from_le_bytes(n) as usize, 10)
        }
        2 | 3 => {
            let mut n = [0u8; 4];
            r.read_exact(&mut n).map_err(|_| "truncated header".to_string())?;
            (u32::from_le_bytes(n) as usize, 12)
        }
        v => return Err(format!("unsupported .npy version {v}.{}", start[7])),
    };
    if text_len > MAX_HEADER_BYTES {
        return Err(format!("the header is {text_len} bytes long (at most {MAX_HEADER_BYTES} are accepted)"));
    }
    let mut text = vec![0u8; text_len];
    r.read_exact(&mut text).map_err(|_| "truncated header".to_string())?;
    let text = String::from_utf8(text).map_err(|_| "the header is not text".to_string())?;
    let (dtype, fortran, shape) = parse_dict(&text)?;
    if fortran && shape.len() > 1 {
        return Err("it is in Fortran order; save it C-contiguous (np.ascontiguousarray)".into());
    }
    Ok(Header { dtype, shape, len: (prefix + text_len) as u64 })
}

/// The `descr`, `fortran_order` and `shape` of a header's dictionary literal, e.g.
/// `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }`.
fn parse_dict(text: &str) -> Result<(DType, bool, Vec<usize>), String> {
    let body = text.trim().strip_prefix('{').and_then(|t| t.trim_end().strip_suffix('}'));
    let body = body.ok_or("the header is not a dictionary")?;
    let (mut dtype, mut fortran, mut shape) = (None, None, None);
    let mut rest = body.trim_start();
    while !rest.is_empty() {
        let (key, after) = quoted(rest).ok_or("a header key is not a quoted string")?;
        let after = after.trim_start().strip_prefix(':').ok_or("':' expected after a header key")?.trim_start();
        rest = match key {
            "descr" => {
                let (d, after) = quoted(after).ok_or("'descr' is not a string")?;
                dtype = Some(DESCRS.iter().find(|&&(_, name)| name == d).map(|&(t, _)| t).ok_or_else(|| {
                    format!("dtype '{d}': tcc reads float32, float64, float16, int8, int16, int32, int64 and bool")
                })?);
                after
            }
            "fortran_order" => {
                let (value, after) = if let Some(a) = after.strip_prefix("True") {
                    (true, a)
                } else {
                    (false, after.strip_prefix("False").ok_or("'fortran_order' is not True or False")?)
                };
                fortran = Some(value);
                after
            }
            "shape" => {
                let inner = after.strip_prefix('(').ok_or("'shape' is not a tuple")?;
                let close = inner.find(')').ok_or("'shape' is not a tuple")?;
                let dims = inner[..close]
                    .split(',')
                    .map(str::trim)
                    .filter(|d| !d.is_empty())
                    .map(|d| d.parse::<usize>().map_err(|_| format!("dimension '{d}' of 'shape' is not a size")))
                    .collect::<Result<Vec<_>, _>>()?;
                shape = Some(dims);
                &inner[close + 1..]
            }
            other => return Err(format!("unknown header key '{other}'")),
        }
        .trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    Ok((
        dtype.ok_or("the header has no 'descr'")?,
        fortran.ok_or("the header has no 'fortran_order'")?,
        shape.ok_or("the header has no 'shape'")?,
    ))
}

/// A single- or double-quoted string at the start of `s`, and what follows it.
fn quoted(s: &str) -> Option<(&str, &str)> {
    let q = s.chars().next().filter(|&c| c == '\'' || c == '"')?;
    let end = s[1..].find(q)? + 1;
    Some((&s[1..end], &s[end + 1..]))
}

/// Each dtype's `descr` (little-endian).
/// NumPy has no bfloat16: `ml_dtypes`' arrays of it save as two-byte voids.
const DESCRS: [(DType, &str); 9] = [
    (DType::F32, "<f4"),
    (DType::F64, "<f8"),
    (DType::F16, "<f2"),
    (DType::BF16, "<V2"),
    (DType::I8, "|i1"),
    (DType::I16, "<i2"),
    (DType::I32, "<i4"),
    (DType::I64, "<i8"),
    (DType::Bool, "|b1"),
];

/// Writes a tensor as `.npy` (version 1.0, C order).
pub fn write(path: &Path, t: &Tensor) -> Result<(), String> {
    let descr = DESCRS.iter().find(|&&(d, _)| d == t.dtype()).map_or("", |&(_, name)| name);
    let dims: Vec<String> = t.shape().iter().map(|d| d.to_string()).collect();
    let shape = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    // Magic (6), version (2), length (2), header: a multiple of 64 bytes, ending in '\n'.
    let unpadded = 10 + header.len() + 1;
    header.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    bytes.extend_from_slice(t.bytes());
    std::fs::write(path, bytes).map_err(|e| format!("cannot write '{}': {e}", path.display()))
}

/// How far `got` is from `want`: the largest absolute difference and that difference
/// relative to the largest |want| (the output's scale; 1 if all of `want` is zero).
/// NaN where exactly one of them is NaN counts as an infinite error. A different
/// element type or shape is an error.
pub fn compare(got: &Tensor, want: &Tensor) -> Result<(f64, f64), String> {
    if got.dtype() != want.dtype() {
        return Err(format!(
            "is {}{:?}, but the reference is {}{:?}",
            got.dtype(),
            got.shape(),
            want.dtype(),
            want.shape()
        ));
    }
    if got.shape() != want.shape() {
        return Err(format!("shape {:?} differs from the expected {:?}", got.shape(), want.shape()));
    }
    let (g, w) = (got.to_f64s(), want.to_f64s());
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
    let v = t.to_f64s();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_dictionaries() {
        let d = parse_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }").unwrap();
        assert_eq!(d, (DType::F32, false, vec![2, 3]));
        // Scalars, one dimension, double quotes, any key order, no trailing comma.
        let d = parse_dict(r#"{"shape": (), "fortran_order": True, "descr": "|b1"}"#).unwrap();
        assert_eq!(d, (DType::Bool, true, vec![]));
        assert_eq!(parse_dict("{'descr': '<i8', 'fortran_order': False, 'shape': (7,)}").unwrap().2, vec![7]);
        for (bad, why) in [
            ("{'descr': '<f4', 'shape': (2,)}", "no 'fortran_order'"),
            ("{'descr': '>f4', 'fortran_order': False, 'shape': (2,)}", "dtype '>f4'"),
            ("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,)}", "not a size"),
            ("{'descr': '<f4', 'fortran_order': False, 'shape': [2]}", "not a tuple"),
            ("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", "not True or False"),
            ("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", "unknown header key 'x'"),
            ("('descr', '<f4')", "not a dictionary"),
        ] {
            let e = parse_dict(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    /// What `write` writes, `read` reads back (every dtype, scalars, one and three
    /// dimensions), with the header padded as NumPy pads it.
    #[test]
    fn written_files_read_back() {
        let dir = std::env::temp_dir().join(format!("tcc-npy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for dtype in DType::ALL {
            for shape in [vec![], vec![5], vec![2, 1, 3]] {
                let n: usize = shape.iter().product();
                let bytes: Vec<u8> =
                    (0..n * dtype.size()).map(|i| if dtype == DType::Bool { (i % 2) as u8 } else { i as u8 }).collect();
                let t = Tensor::from_bytes(dtype, &shape, &bytes).unwrap();
                let path = dir.join(format!("{dtype}-{}.npy", shape.len()));
                write(&path, &t).unwrap();
                let file = std::fs::read(&path).unwrap();
                let header_len = 10 + u16::from_le_bytes([file[8], file[9]]) as usize;
                assert_eq!(header_len % 64, 0, "{dtype} {shape:?}");
                let back = read(&path).unwrap();
                assert_eq!(
                    (back.dtype(), back.shape(), back.bytes()),
                    (dtype, &shape[..], t.bytes()),
                    "{dtype} {shape:?}"
                );
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
