//! Reading model files. A torch-mlir export carries its weights as hex text, a
//! gigabyte for the largest torchvision models, so a model file is memory-mapped rather
//! than copied into the heap: the parser, the resource decoder and diagnostics all read
//! the page cache directly. Small files and anything that cannot be mapped are read.
//!
//! A mapped file must not be changed by another process while tcc reads it (as with
//! LLVM's mapped inputs); tcc itself only reads it.

use std::fs::File;
use std::ops::Deref;
use std::path::Path;

/// The bytes of a model: read into memory, or mapped.
pub struct ModelBytes(Repr);

enum Repr {
    Read(Vec<u8>),
    Mapped(memmap2::Mmap),
}

impl Deref for ModelBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Repr::Read(v) => v,
            Repr::Mapped(m) => m,
        }
    }
}

impl From<Vec<u8>> for ModelBytes {
    fn from(v: Vec<u8>) -> ModelBytes {
        ModelBytes(Repr::Read(v))
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

    /// The bytes in a vector (a copy if they are mapped).
    pub fn into_vec(self) -> Vec<u8> {
        match self.0 {
            Repr::Read(v) => v,
            Repr::Mapped(m) => m.to_vec(),
        }
    }
}

/// Model bytes known to be UTF-8.
pub struct ModelText(ModelBytes);

impl AsRef<str> for ModelText {
    fn as_ref(&self) -> &str {
        // SAFETY: `into_text` checked that the bytes are UTF-8, and neither a vector
        // owned here nor a read-only private mapping changes afterwards.
        unsafe { std::str::from_utf8_unchecked(&self.0) }
    }
}

/// Files below this size are read: mapping costs more than it saves.
const MAP_FROM_BYTES: u64 = 1 << 20;

/// The bytes of the model file at `path`: only a regular file is read (a directory, a
/// device such as `/dev/zero` or a pipe is refused: they may never end).
pub fn read_model_file(path: &Path) -> Result<ModelBytes, String> {
    let cannot = |e: std::io::Error| format!("cannot read '{}': {e}", path.display());
    let file = File::open(path).map_err(cannot)?;
    let meta = file.metadata().map_err(cannot)?;
    if !meta.is_file() {
        return Err(format!("cannot read '{}': not a regular file", path.display()));
    }
    if meta.len() >= MAP_FROM_BYTES {
        // SAFETY: a read-only private mapping of a regular file; see the module
        // documentation for the one requirement on other processes.
        if let Ok(map) = unsafe { memmap2::Mmap::map(&file) } {
            return Ok(ModelBytes(Repr::Mapped(map)));
        }
    }
    std::fs::read(path).map(ModelBytes::from).map_err(cannot)
}
