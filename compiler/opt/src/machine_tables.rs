//! The file format of tcc's per-machine databases (measured op costs, tuned kernel
//! configurations): JSON holding a format version and one table per machine, each
//! mapping keys to entries. A missing file or one of another version reads as empty; a
//! file that cannot be parsed is an error when read and replaced when written; writes
//! go through a temporary file and a rename and keep the other machines' tables.

use std::collections::BTreeMap;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The most bytes such a file may hold (a few hundred bytes per entry and machine;
/// anything larger is not one).
const FILE_LIMIT: u64 = 64 << 20;

#[derive(Serialize, Deserialize)]
#[serde(bound = "T: Serialize + DeserializeOwned")]
struct Tables<T> {
    #[serde(default)]
    version: u32,
    machines: BTreeMap<String, BTreeMap<String, T>>,
}

/// Every machine's table in the file at `path` (`what` names the database in errors):
/// empty if the file does not exist or is not of `version`.
fn read_all<T: Serialize + DeserializeOwned>(
    path: &Path,
    version: u32,
    what: &str,
) -> Result<BTreeMap<String, BTreeMap<String, T>>, String> {
    let text = match tcc_ir::files::read_bounded_string(path, FILE_LIMIT) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let not_one = |e: serde_json::Error| format!("{}: not a {what}: {e}", path.display());
    let found =
        serde_json::from_str::<serde_json::Value>(&text).map_err(not_one)?.get("version").and_then(|v| v.as_u64());
    if found != Some(version as u64) {
        return Ok(BTreeMap::new());
    }
    Ok(serde_json::from_str::<Tables<T>>(&text).map_err(not_one)?.machines)
}

/// The table of `machine` in the file at `path` (empty if it has none).
pub(crate) fn read<T: Serialize + DeserializeOwned>(
    path: &Path,
    version: u32,
    what: &str,
    machine: &str,
) -> Result<BTreeMap<String, T>, String> {
    Ok(read_all(path, version, what)?.remove(machine).unwrap_or_default())
}

/// Writes `table` as the table of `machine` into the file at `path`, next to the other
/// machines' (a file that cannot be parsed, or of another version, is replaced).
pub(crate) fn write<T: Serialize + DeserializeOwned + Clone>(
    path: &Path,
    version: u32,
    machine: &str,
    table: &BTreeMap<String, T>,
) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut machines = read_all::<T>(path, version, "database").unwrap_or_default();
    machines.insert(machine.to_string(), table.clone());
    let text = serde_json::to_string_pretty(&Tables { version, machines }).map_err(|e| e.to_string())?;
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}
