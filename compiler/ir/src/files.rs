//! Reading files tcc did not write (models, inputs, caches, databases): only regular
//! files, opened without blocking and read with a size bound. A FIFO blocks in `open()`
//! until a writer comes, and `/dev/zero` (or a link to it) never ends; so a path is
//! opened non-blocking, checked to be a regular file through the open descriptor (no
//! window for a swap between the check and the read), and read up to a limit.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// The file at `path` opened for reading, with its length, if it is a regular file. The
/// error for anything else (a directory, a device, a FIFO, a socket) is of kind
/// `InvalidInput` and says what it is.
pub fn open_regular(path: &Path) -> io::Result<(File, u64)> {
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a directory"
        } else {
            use std::os::unix::fs::FileTypeExt;
            let t = meta.file_type();
            if t.is_fifo() {
                "a FIFO"
            } else if t.is_char_device() || t.is_block_device() {
                "a device"
            } else if t.is_socket() {
                "a socket"
            } else {
                "not a regular file"
            }
        };
        let message = if what.starts_with("not") { what.to_string() } else { format!("not a regular file but {what}") };
        return Err(io::Error::new(io::ErrorKind::InvalidInput, message));
    }
    Ok((file, meta.len()))
}

/// The bytes of the regular file at `path`, if it holds at most `limit` bytes (a file
/// that grows while it is read is cut off at `limit + 1` bytes and refused).
pub fn read_bounded(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let (file, len) = open_regular(path)?;
    let too_large = || io::Error::new(io::ErrorKind::InvalidData, format!("larger than {limit} bytes"));
    if len > limit {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// [`read_bounded`] as UTF-8 text.
pub fn read_bounded_string(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read_bounded(path, limit)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("tcc-ir-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn only_regular_files_within_the_bound_are_read() {
        let path = scratch("small");
        std::fs::write(&path, b"12345").unwrap();
        assert_eq!(read_bounded(&path, 5).unwrap(), b"12345");
        assert_eq!(read_bounded(&path, 4).unwrap_err().kind(), io::ErrorKind::InvalidData);
        let dir = path.parent().unwrap();
        assert!(read_bounded(dir, 10).unwrap_err().to_string().contains("directory"));
        let zero = read_bounded(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert!(zero.to_string().contains("device"), "{zero}");
        // A FIFO without a writer: refused at once instead of blocking in open().
        let fifo = scratch("fifo");
        let _ = std::fs::remove_file(&fifo);
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(read_bounded(&fifo, 10).unwrap_err().to_string().contains("FIFO"));
        std::fs::remove_file(&fifo).unwrap();
    }
}
