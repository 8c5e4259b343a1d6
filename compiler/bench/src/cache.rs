//! Measurements kept between runs: one file per kind in `$XDG_CACHE_HOME/tcc` (or
//! `~/.cache/tcc`), a `key|value` line per measurement, the last one for a key winning.

fn cache_file(name: &str) -> Option<std::path::PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".cache")))?;
    Some(base.join("tcc").join(name))
}

/// The last value cached for `key` in the cache file `name`.
pub fn read(name: &str, key: &str) -> Option<String> {
    let text = std::fs::read_to_string(cache_file(name)?).ok()?;
    text.lines().rev().find_map(|l| Some(l.strip_prefix(key)?.strip_prefix('|')?.trim().to_string()))
}

/// Appends a measurement to the cache file `name`; failures to write are ignored (the
/// cache is an optimization).
pub fn write(name: &str, key: &str, value: &str) {
    let Some(path) = cache_file(name) else { return };
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    use std::io::Write;
    if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(&path) {
        let _ = writeln!(f, "{key}|{value}");
    }
}
