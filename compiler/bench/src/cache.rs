//! Measurements kept between runs: one file per kind in `$XDG_CACHE_HOME/tcc` (or
//! `~/.cache/tcc`), a `key|value` line per key. A write replaces its key's line (the
//! file is rewritten through a temporary file and a rename), so the file holds one line
//! per machine measured; a read takes a bounded amount of a regular file only (a cache
//! file that is a link to `/dev/zero` or a FIFO reads as empty).

use std::path::{Path, PathBuf};

/// The most bytes a cache file may hold: a line per machine measured.
const CACHE_FILE_LIMIT: u64 = 1 << 20;

fn cache_file(name: &str) -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))?;
    Some(base.join("tcc").join(name))
}

/// The `key|value` lines of the cache file at `path` (none if it is missing, not a
/// regular file, too large or not text).
fn lines(path: &Path) -> Vec<(String, String)> {
    let text = tcc::ir::files::read_bounded_string(path, CACHE_FILE_LIMIT).unwrap_or_default();
    text.lines().filter_map(|l| l.split_once('|')).map(|(k, v)| (k.to_string(), v.trim().to_string())).collect()
}

/// The value cached for `key` in the cache file `name` (the last line for it, in files
/// written before keys had one line each).
pub fn read(name: &str, key: &str) -> Option<String> {
    read_at(&cache_file(name)?, key)
}

fn read_at(path: &Path, key: &str) -> Option<String> {
    lines(path).into_iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Records a measurement in the cache file `name`, replacing the key's earlier one;
/// failures to write are ignored (the cache is an optimization).
pub fn write(name: &str, key: &str, value: &str) {
    if let Some(path) = cache_file(name) {
        write_at(&path, key, value);
    }
}

fn write_at(path: &Path, key: &str, value: &str) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let mut entries: Vec<(String, String)> = lines(path).into_iter().filter(|(k, _)| k != key).collect();
    entries.push((key.to_string(), value.to_string()));
    let text: String = entries.iter().map(|(k, v)| format!("{k}|{v}\n")).collect();
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    if std::fs::write(&tmp, text).is_err() || std::fs::rename(&tmp, path).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_has_one_line_and_bad_files_read_as_empty() {
        let dir = std::env::temp_dir().join(format!("tcc-cache-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("kind");
        write_at(&file, "cpu-a", "1.0");
        write_at(&file, "cpu-b", "2.0");
        write_at(&file, "cpu-a", "3.0");
        assert_eq!(read_at(&file, "cpu-a").as_deref(), Some("3.0"));
        assert_eq!(read_at(&file, "cpu-b").as_deref(), Some("2.0"));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "cpu-b|2.0\ncpu-a|3.0\n");
        // A file written before keys had one line each: the last line for a key wins.
        std::fs::write(&file, "cpu-a|1.0\ncpu-a|4.0\n").unwrap();
        assert_eq!(read_at(&file, "cpu-a").as_deref(), Some("4.0"));
        // A cache file that is a link to /dev/zero: no value, at once.
        let zero = dir.join("zero");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        assert_eq!(read_at(&zero, "cpu-a"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
