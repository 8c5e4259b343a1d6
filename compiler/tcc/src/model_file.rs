//! Reading model files. A model is read into memory, not mapped: a mapped file that
//! another process truncates while tcc reads it (re-exporting a model in place) kills
//! the reader with SIGBUS, while a read only comes up short (then the parser reports
//! where the text ends). Reading the largest torchvision export (317 MB of hex weights)
//! takes no longer than mapping it did (RESULTS.md, "Hardening, second round").
//!
//! Only a regular file is read ([`tcc_ir::files::open_regular`]): a directory, a device
//! such as `/dev/zero` or a FIFO is refused at once.

use std::io::Read;
use std::ops::Deref;
use std::path::Path;

/// The bytes of a model.
pub struct ModelBytes(Vec<u8>);

impl Deref for ModelBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl From<Vec<u8>> for ModelBytes {
    fn from(v: Vec<u8>) -> ModelBytes {
        ModelBytes(v)
    }
}

impl ModelBytes {
    /// The bytes as text, if they are UTF-8 (otherwise the bytes back, with the error).
    pub fn into_text(self) -> Result<ModelText, (ModelBytes, std::str::Utf8Error)> {
        match std::str::from_utf8(&self) {
            Ok(_) => Ok(ModelText(self)),
            Err(e) => Err((self, e)),
        }
    }

    /// The bytes in a vector.
    pub fn into_vec(self) -> Vec<u8> {
        self.0
    }
}

/// Model bytes known to be UTF-8.
pub struct ModelText(ModelBytes);

impl AsRef<str> for ModelText {
    fn as_ref(&self) -> &str {
        // SAFETY: `into_text` checked that the bytes are UTF-8, and the vector owned
        // here does not change afterwards.
        unsafe { std::str::from_utf8_unchecked(&self.0) }
    }
}

/// The bytes of the model file at `path`, a regular file (anything else is refused: it
/// may never end, or block). A file that grows while it is read is read up to the
/// length it had when opened; one that shrinks comes up short.
pub fn read_model_file(path: &Path) -> Result<ModelBytes, String> {
    let cannot = |e: std::io::Error| format!("cannot read '{}': {e}", path.display());
    let (file, len) = tcc_ir::files::open_regular(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(len as usize)
        .map_err(|_| format!("cannot read '{}': its {len} bytes do not fit in memory", path.display()))?;
    file.take(len).read_to_end(&mut bytes).map_err(cannot)?;
    Ok(ModelBytes(bytes))
}

/// What a file that is not MLIR text looks like (a NumPy array, an ONNX model, a ZIP
/// archive, any binary file), from its first bytes; `None` for text.
pub fn not_mlir_text(bytes: &[u8]) -> Option<&'static str> {
    let head = &bytes[..bytes.len().min(4096)];
    if head.starts_with(b"\x93NUMPY") {
        return Some("a NumPy array (arrays are a model's inputs: `tcc run MODEL.mlir --input A.npy`)");
    }
    if head.starts_with(b"PK\x03\x04") {
        return Some("a ZIP archive (a PyTorch checkpoint or an .npz)");
    }
    // An ONNX ModelProto starts with its ir_version (field 1, a varint), then usually
    // the producer's name or the opset imports.
    if let [0x08, version, tag, ..] = head
        && *version < 0x20
        && matches!(tag, 0x12 | 0x1a | 0x22 | 0x3a | 0x42)
    {
        return Some("an ONNX model");
    }
    let control = head.iter().filter(|&&b| b < 0x09 || (0x0e..0x20).contains(&b)).count();
    (head.contains(&0) || control * 10 > head.len()).then_some("a binary file")
}

/// The one-line error for a model file that is not MLIR text.
pub fn not_mlir_text_error(what: &str) -> String {
    format!(
        "this is {what}, not MLIR text: tcc reads models as MLIR, its graph dialect or TOSA as torch-mlir \
         exports it (torch_mlir.fx.export_and_import(model, example, output_type=\"tosa\"); see the README)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_that_are_not_mlir_text_are_recognised() {
        assert!(not_mlir_text(b"\x93NUMPY\x01\x00v\x00{'descr'").unwrap().contains("NumPy"));
        assert!(not_mlir_text(b"PK\x03\x04\x14\x00").unwrap().contains("ZIP"));
        assert!(not_mlir_text(b"\x08\x08\x12\x07pytorch\x1a\x052.5.0").unwrap().contains("ONNX"));
        assert_eq!(not_mlir_text(b"\x7fELF\x02\x01\x01\x00\x00"), Some("a binary file"));
        assert_eq!(not_mlir_text(b"func.func @main() {\n  return\n}\n"), None);
        // A text file with one stray byte is text (its parser error locates the byte).
        assert_eq!(not_mlir_text(b"// \xff\nfunc.func @main() {\n  return\n}\n"), None);
        assert_eq!(not_mlir_text(b""), None);
    }
}
