//! The runtime library C programs link compiled models with (`libtcc_runtime.a`), and
//! self-contained static libraries of a model.
//!
//! The library is built with this crate (`build.rs`) and carried in it, so an installed
//! tcc needs no build tree: [`runtime_library`] writes it once into a per-user cache
//! directory named after its content and returns that path; [`static_library`] makes
//! one archive of a model's object and the runtime's members, with the symbol index
//! linkers need, so `cc main.c libNAME.a -lpthread -lm` links a model.

use std::path::PathBuf;

use object::read::archive::ArchiveFile;
use object::{Object, ObjectSymbol};

/// The runtime library's bytes (an `ar` archive of the runtime and Rust's standard
/// library, built for this crate's target).
pub static RUNTIME_LIBRARY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/libtcc_runtime.a"));

/// FNV-1a: a stable name for the library's content (std's hashers may change).
fn fingerprint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// The per-user cache directory: `$XDG_CACHE_HOME/tcc`, `$HOME/.cache/tcc`, or the
/// temporary directory.
pub(crate) fn cache_dir() -> PathBuf {
    let non_empty = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    non_empty("XDG_CACHE_HOME")
        .or_else(|| non_empty("HOME").map(|h| h.join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
        .join("tcc")
}

/// The path of `libtcc_runtime.a`: this build's copy, written into the cache directory
/// the first time it is asked for (to a temporary name, then renamed, so concurrent
/// callers never see half a file).
pub fn runtime_library() -> Result<PathBuf, String> {
    let dir = cache_dir().join(format!("runtime-{}-{:016x}", env!("CARGO_PKG_VERSION"), fingerprint(RUNTIME_LIBRARY)));
    let path = dir.join("libtcc_runtime.a");
    if std::fs::metadata(&path).is_ok_and(|m| m.len() == RUNTIME_LIBRARY.len() as u64) {
        return Ok(path);
    }
    let fail = |e: std::io::Error| format!("cannot write the runtime library to {}: {e}", dir.display());
    std::fs::create_dir_all(&dir).map_err(fail)?;
    let temporary = dir.join(format!("libtcc_runtime.a.{}.tmp", std::process::id()));
    std::fs::write(&temporary, RUNTIME_LIBRARY).map_err(fail)?;
    std::fs::rename(&temporary, &path).map_err(fail)?;
    Ok(path)
}

/// One member of an archive being written.
struct Member<'a> {
    name: String,
    data: &'a [u8],
    /// The global symbols it defines (for the archive's index).
    symbols: Vec<Vec<u8>>,
}

/// A static library holding the model object `model` (as member `model_name.o`) and
/// every member of the runtime library.
pub fn static_library(model: &[u8], model_name: &str) -> Result<Vec<u8>, String> {
    let runtime = ArchiveFile::parse(RUNTIME_LIBRARY).map_err(|e| format!("the runtime library is unreadable: {e}"))?;
    let mut members = vec![Member { name: format!("{model_name}.o"), data: model, symbols: defined_symbols(model) }];
    for m in runtime.members() {
        let m = m.map_err(|e| format!("the runtime library is unreadable: {e}"))?;
        let data = m.data(RUNTIME_LIBRARY).map_err(|e| format!("the runtime library is unreadable: {e}"))?;
        let name = String::from_utf8_lossy(m.name()).into_owned();
        members.push(Member { symbols: defined_symbols(data), name, data });
    }
    Ok(write_archive(&members))
}

/// The global symbols an object defines (none for a member that is not an object).
fn defined_symbols(data: &[u8]) -> Vec<Vec<u8>> {
    let Ok(file) = object::File::parse(data) else { return Vec::new() };
    file.symbols()
        .filter(|s| s.is_global() && s.is_definition())
        .filter_map(|s| s.name_bytes().ok().map(<[u8]>::to_vec))
        .collect()
}

/// A System V (GNU) `ar` archive: the symbol index `/`, the long-name table `//`, then
/// the members, each 2-byte aligned.
fn write_archive(members: &[Member]) -> Vec<u8> {
    fn header(out: &mut Vec<u8>, name: &str, size: usize) {
        let h = format!("{name:<16}{:<12}{:<6}{:<6}{:<8}{size:<10}`\n", 0, 0, 0, 644);
        debug_assert_eq!(h.len(), 60);
        out.extend_from_slice(h.as_bytes());
    }
    // Member names over 15 bytes go to the long-name table, referenced as `/offset`.
    let mut long_names = Vec::new();
    let names: Vec<String> = members
        .iter()
        .map(|m| {
            if m.name.len() <= 15 && !m.name.contains('/') {
                format!("{}/", m.name)
            } else {
                let at = long_names.len();
                long_names.extend_from_slice(m.name.as_bytes());
                long_names.extend_from_slice(b"/\n");
                format!("/{at}")
            }
        })
        .collect();
    let symbol_count: usize = members.iter().map(|m| m.symbols.len()).sum();
    let string_bytes: usize = members.iter().flat_map(|m| &m.symbols).map(|s| s.len() + 1).sum();
    let index_size = 4 + 4 * symbol_count + string_bytes;
    let padded = |n: usize| n + n % 2;
    // Where each member's header will be.
    let mut offset = 8 + 60 + padded(index_size);
    if !long_names.is_empty() {
        offset += 60 + padded(long_names.len());
    }
    let mut member_offsets = Vec::with_capacity(members.len());
    for m in members {
        member_offsets.push(offset);
        offset += 60 + padded(m.data.len());
    }
    let mut out = Vec::with_capacity(offset);
    out.extend_from_slice(b"!<arch>\n");
    header(&mut out, "/", index_size);
    out.extend_from_slice(&(symbol_count as u32).to_be_bytes());
    for (m, &at) in members.iter().zip(&member_offsets) {
        for _ in &m.symbols {
            out.extend_from_slice(&(at as u32).to_be_bytes());
        }
    }
    for s in members.iter().flat_map(|m| &m.symbols) {
        out.extend_from_slice(s);
        out.push(0);
    }
    if index_size % 2 == 1 {
        out.push(b'\n');
    }
    if !long_names.is_empty() {
        header(&mut out, "//", long_names.len());
        out.extend_from_slice(&long_names);
        if long_names.len() % 2 == 1 {
            out.push(b'\n');
        }
    }
    for (m, name) in members.iter().zip(&names) {
        header(&mut out, name, m.data.len());
        out.extend_from_slice(m.data);
        if m.data.len() % 2 == 1 {
            out.push(b'\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runtime_library_is_an_archive_with_the_entry_points() {
        let runtime = ArchiveFile::parse(RUNTIME_LIBRARY).unwrap();
        let symbols: Vec<Vec<u8>> =
            runtime.members().flat_map(|m| defined_symbols(m.unwrap().data(RUNTIME_LIBRARY).unwrap())).collect();
        assert!(symbols.iter().any(|s| s == b"tcc_parallel_for_blocks"), "tcc_parallel_for_blocks not defined");
    }

    #[test]
    fn written_archives_read_back_with_their_index() {
        let members = [
            Member { name: "a.o".into(), data: b"abc", symbols: vec![b"one".to_vec(), b"two".to_vec()] },
            Member { name: "a_much_longer_member_name.o".into(), data: b"wxyz", symbols: vec![b"three".to_vec()] },
            Member { name: "b.o".into(), data: b"", symbols: vec![] },
        ];
        let bytes = write_archive(&members);
        let archive = ArchiveFile::parse(&bytes[..]).unwrap();
        let read: Vec<(Vec<u8>, Vec<u8>)> = archive
            .members()
            .map(|m| {
                let m = m.unwrap();
                (m.name().to_vec(), m.data(&bytes[..]).unwrap().to_vec())
            })
            .collect();
        assert_eq!(read.len(), 3);
        for (m, (name, data)) in members.iter().zip(&read) {
            assert_eq!(name, m.name.as_bytes());
            assert_eq!(data, m.data);
        }
        let index: Vec<(Vec<u8>, u64)> = archive
            .symbols()
            .unwrap()
            .unwrap()
            .map(|s| {
                let s = s.unwrap();
                (s.name().to_vec(), s.offset().0)
            })
            .collect();
        let names: Vec<&[u8]> = index.iter().map(|(n, _)| &n[..]).collect();
        assert_eq!(names, [&b"one"[..], b"two", b"three"]);
        // Each symbol points at its member's header.
        assert_eq!(index[0].1, index[1].1);
        assert_ne!(index[0].1, index[2].1);
    }
}
