//! The tuning database: for each kernel a machine ran, the configuration `tcc tune`
//! measured fastest there, which `configure-kernels` takes before the untuned choice
//! ([`TuningDb`] is its [`ConfigSource`]). The database also holds, for each stride-1
//! 3x3 convolution tuned under a Winograd policy, whether it ran faster as a Winograd
//! convolution ([`winograd_key`]).
//!
//! The file (`tuning.json` in tcc's cache directory by default) holds one table per
//! machine, keyed like the cost database by what the measurements are valid for (CPU
//! model, backend, microkernel level, threads), each mapping a kernel's
//! [`KernelKey`] to its configuration and the times measured. A file of another version
//! reads as empty; one that cannot be parsed is an error when read and replaced when
//! written.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use tcc_dialect_graph::config::{ConfigSource, ConvConfig, KernelConfig, KernelKey, MatmulConfig, PoolConfig};
use tcc_ir::{AttrDict, Attribute, Module, Op};

/// The file format's version; files of another version read as empty.
pub const TUNING_DB_VERSION: u32 = 1;

/// A kernel's tuned configuration and what was measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tuned {
    /// The configuration's fields (integers, booleans and names).
    pub config: BTreeMap<String, serde_json::Value>,
    /// Seconds per run of the kernel in the model (all its instances) with it, and with
    /// its untuned configuration.
    pub seconds: f64,
    pub default_seconds: f64,
    /// Configurations measured.
    pub candidates: usize,
}

impl Tuned {
    /// The entry for `config` with its measurements.
    pub fn new(config: &KernelConfig, seconds: f64, default_seconds: f64, candidates: usize) -> Tuned {
        let mut fields = BTreeMap::new();
        for (key, value) in config.to_dict().iter() {
            let json = match value {
                Attribute::Bool(b) => serde_json::Value::from(*b),
                Attribute::String(s) => serde_json::Value::from(s.to_string()),
                other => match other.as_i64() {
                    Some(i) => serde_json::Value::from(i),
                    None => continue,
                },
            };
            fields.insert(key.to_string(), json);
        }
        Tuned { config: fields, seconds, default_seconds, candidates }
    }

    /// The entry for a convolution's Winograd choice ([`winograd_key`]): as a Winograd
    /// convolution or direct, and the seconds measured each way.
    pub fn winograd(winograd: bool, seconds: f64, direct_seconds: f64) -> Tuned {
        let config = BTreeMap::from([("winograd".to_string(), serde_json::Value::from(winograd))]);
        Tuned { config, seconds, default_seconds: direct_seconds, candidates: 2 }
    }

    /// The configuration, read as the kind of kernel `key` names; `None` if it does not
    /// spell one (a file edited by hand, or written by another version).
    pub fn config_for(&self, key: &KernelKey) -> Option<KernelConfig> {
        let mut d = AttrDict::new();
        for (k, v) in &self.config {
            let attr = match v {
                serde_json::Value::Bool(b) => Attribute::Bool(*b),
                serde_json::Value::String(s) => Attribute::string(s),
                serde_json::Value::Number(n) => Attribute::i64(n.as_i64()?),
                _ => return None,
            };
            d.set(k, attr);
        }
        let op = key.0.split_whitespace().next()?;
        Some(match op {
            "graph.conv2d_nchwc" => KernelConfig::Conv(ConvConfig::from_dict(&d).ok()?),
            "graph.matmul_packed" | "graph.batch_matmul" => KernelConfig::Matmul(MatmulConfig::from_dict(&d).ok()?),
            "graph.max_pool2d_nchwc" | "graph.avg_pool2d_nchwc" => KernelConfig::Pool(PoolConfig::from_dict(&d).ok()?),
            _ => return None,
        })
    }
}

/// The tuned kernels of one machine.
#[derive(Clone, Debug, Default)]
pub struct TuningDb {
    /// What the measurements are valid for: CPU model, backend, microkernel level,
    /// threads.
    pub machine: String,
    /// By [`KernelKey`].
    pub kernels: BTreeMap<String, Tuned>,
}

impl TuningDb {
    /// An empty table for `machine`.
    pub fn new(machine: &str) -> TuningDb {
        TuningDb { machine: machine.to_string(), kernels: BTreeMap::new() }
    }

    /// The table of `machine` in the file `path`: empty if the file does not exist,
    /// has no table for it or is of another version; an error if it cannot be read or
    /// parsed.
    pub fn load(path: &Path, machine: &str) -> Result<TuningDb, String> {
        let kernels = crate::machine_tables::read(path, TUNING_DB_VERSION, "tuning database", machine)?;
        Ok(TuningDb { machine: machine.to_string(), kernels })
    }

    /// Writes the table into the file `path`, next to the other machines' (through a
    /// temporary file, then a rename). A file that cannot be parsed is replaced.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        crate::machine_tables::write(path, TUNING_DB_VERSION, &self.machine, &self.kernels)
    }
}

impl TuningDb {
    /// The measured Winograd choice of a convolution ([`winograd_key`]), if any.
    pub fn winograd(&self, key: &KernelKey) -> Option<bool> {
        self.kernels.get(&key.0)?.config.get("winograd")?.as_bool()
    }
}

/// The key of graph convolution `op`'s Winograd choice with output tiles of `tile`
/// (`2x2` or `4x4`): its kernel key, prefixed.
pub fn winograd_key(m: &Module, op: Op, tile: &str) -> KernelKey {
    KernelKey(format!("winograd {tile} {}", KernelKey::of(m, op).0))
}

impl ConfigSource for TuningDb {
    fn lookup(&self, key: &KernelKey) -> Option<KernelConfig> {
        self.kernels.get(&key.0)?.config_for(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tcc_dialect_graph::config::{ConvTemplate, Edges};

    fn key(text: &str) -> KernelKey {
        KernelKey(text.to_string())
    }

    #[test]
    fn configurations_survive_the_file() {
        let config = KernelConfig::Conv(ConvConfig {
            template: Some(ConvTemplate::Depthwise),
            tile_w: Some(5),
            edges: Some(Edges::Split),
            prefetch: Some(true),
            ..Default::default()
        });
        let dir = std::env::temp_dir().join(format!("tcc-tuning-{}", std::process::id()));
        let path = dir.join("tuning.json");
        let mut db = TuningDb::new("cpu / Llvm / 1 threads");
        let k = key("graph.conv2d_nchwc {groups = 8} (tensor<1x1x4x4x8xf32>) -> (tensor<1x1x4x4x8xf32>)");
        db.kernels.insert(k.0.clone(), Tuned::new(&config, 1e-5, 2e-5, 7));
        db.save(&path).unwrap();
        // Another machine's table is kept next to it.
        TuningDb::new("other").save(&path).unwrap();
        let back = TuningDb::load(&path, "cpu / Llvm / 1 threads").unwrap();
        assert_eq!(back.lookup(&k), Some(config));
        assert_eq!(back.kernels[&k.0].candidates, 7);
        assert!(TuningDb::load(&path, "other").unwrap().kernels.is_empty());
        // A configuration that does not spell one of its kernel's is not used.
        let matmul = key("graph.matmul_packed (tensor<4x8xf32>) -> (tensor<4x16xf32>)");
        let mut odd = back.kernels[&k.0].clone();
        odd.config.insert("tile_w".into(), serde_json::Value::from(5));
        assert_eq!(odd.config_for(&matmul), None);
        // Not a database: an error; another version: empty.
        std::fs::write(&path, "{not json").unwrap();
        assert!(TuningDb::load(&path, "cpu").unwrap_err().contains("not a tuning database"));
        std::fs::write(&path, r#"{"version": 999, "machines": {"cpu": {}}}"#).unwrap();
        assert!(TuningDb::load(&path, "cpu").unwrap().kernels.is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
