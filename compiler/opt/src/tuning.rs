//! The tuning database: for each kernel a machine ran, the configuration `tcc tune`
//! measured fastest there, which `configure-kernels` takes before the analytic default
//! ([`TuningDb`] is its [`ConfigSource`]). And the candidates the tuner measures: the
//! configurations around a kernel's default that its template accepts
//! ([`candidates`]). The database also holds, for each stride-1 3x3 convolution tuned
//! under a Winograd policy, whether it ran faster as a Winograd convolution
//! ([`winograd_key`]).
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
use tcc_dialect_graph::GraphOp;
use tcc_dialect_graph::config::{
    ConfigSource, ConvClass, ConvConfig, ConvGeometry, ConvTemplate, Edges, KernelConfig, KernelKey, MatmulConfig,
    PoolConfig,
};
use tcc_ir::{AttrDict, Attribute, Module, Op};
use tcc_target::Target;

use crate::kernel_config::default_config;

/// The file format's version; files of another version read as empty.
pub const TUNING_DB_VERSION: u32 = 1;

/// A kernel's tuned configuration and what was measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tuned {
    /// The configuration's fields (integers, booleans and names).
    pub config: BTreeMap<String, serde_json::Value>,
    /// Seconds per run of the kernel in the model (all its instances) with it, and with
    /// the analytic default.
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

/// How far above the best candidate's I/O bound ([`crate::io_bound`]) a candidate's
/// may be for the tuner to measure it.
pub const BOUND_FACTOR: f64 = 1.15;

/// What the tuner measures of a kernel: its candidate configurations, and how many the
/// I/O bound pruned.
#[derive(Clone, Debug, Default)]
pub struct Candidates {
    pub configs: Vec<KernelConfig>,
    pub pruned: usize,
}

/// The configurations of kernel op `op` the tuner measures for `target`: the analytic
/// default first, then the register tiles around it that fit the target's registers
/// (and, for convolutions, the other placement of a row's edge columns, the other
/// task order, input-channel passes and the padded input), each once, the tiles
/// nearest the default's first (a budget that ends the search early has measured
/// those). Unless `exhaustive`, they are pruned by MACO's I/O bound
/// ([`crate::io_bound::loads_per_fma`]: at the register file and the level-1 cache):
/// the best of the kernel's candidates sets the bound, and those whose own exceeds it
/// by more than [`BOUND_FACTOR`] are not measured. The default always is, and so are
/// its variants the bound cannot tell apart from it (edges, padding, task order);
/// pools, which do no FMAs, are not pruned.
pub fn candidates(m: &Module, op: Op, target: &Target, exhaustive: bool) -> Candidates {
    let configs = all_candidates(m, op, target);
    if exhaustive {
        return Candidates { configs, pruned: 0 };
    }
    let bound = |c: &KernelConfig| crate::io_bound::loads_per_fma(m, op, c, target);
    let Some(best) = configs.iter().filter_map(bound).min_by(f64::total_cmp) else {
        return Candidates { configs, pruned: 0 };
    };
    let total = configs.len();
    let default = configs[0].clone();
    let kept: Vec<KernelConfig> = configs
        .into_iter()
        .enumerate()
        .filter(|(i, c)| *i == 0 || unseen_variant(c, &default) || bound(c).is_none_or(|l| l <= BOUND_FACTOR * best))
        .map(|(_, c)| c)
        .collect();
    Candidates { pruned: total - kept.len(), configs: kept }
}

/// Whether `c` is `default` but for what the I/O bound cannot see: where a row's edge
/// columns go, whether the input is padded explicitly, the task order.
fn unseen_variant(c: &KernelConfig, default: &KernelConfig) -> bool {
    match (c, default) {
        (KernelConfig::Conv(c), KernelConfig::Conv(d)) => {
            ConvConfig { edges: d.edges, pad_input: d.pad_input, task_w: d.task_w, ..c.clone() } == *d
        }
        _ => false,
    }
}

/// Every candidate of [`candidates`], unpruned.
fn all_candidates(m: &Module, op: Op, target: &Target) -> Vec<KernelConfig> {
    let Some(default) = default_config(m, op, target) else { return Vec::new() };
    let registers = target.kernel_target().vector_registers as i64;
    let mut out = vec![default.clone()];
    let mut push = |c: KernelConfig| {
        if !out.contains(&c) {
            out.push(c);
        }
    };
    match (&default, tcc_dialect_graph::kind_of(m, op)) {
        (KernelConfig::Conv(d), Some(GraphOp::Conv2dNchwc)) => {
            let mut found = conv_candidates(m, op, d, registers);
            let distance = |c: &ConvConfig| 4 * (c.tile_oc() - d.tile_oc()).abs() + (c.tile_w() - d.tile_w()).abs();
            found.sort_by_key(distance);
            for c in found {
                push(KernelConfig::Conv(c));
            }
        }
        (KernelConfig::Matmul(d), _) => {
            let vectors = d.tile_n();
            let mut rows: Vec<i64> = (1..=((registers - 2) / vectors.max(1) - 1).clamp(1, 16)).collect();
            rows.sort_by_key(|r| (r - d.tile_m()).abs());
            for tile_m in rows {
                push(KernelConfig::Matmul(MatmulConfig { tile_m: Some(tile_m), ..d.clone() }));
            }
        }
        (KernelConfig::Pool(d), _) => {
            let mut widths: Vec<i64> = (1..=8).collect();
            widths.sort_by_key(|w| (w - d.tile_w()).abs());
            for tile_w in widths {
                push(KernelConfig::Pool(PoolConfig { tile_w: Some(tile_w) }));
            }
        }
        _ => {}
    }
    out
}

/// A convolution's candidates (its default `d` aside): register tiles of `tile_w`
/// columns x `tile_oc` blocks whose accumulators fit `registers` with a few to spare,
/// the other edge placement, tasks by columns or by channel group.
fn conv_candidates(m: &Module, op: Op, d: &ConvConfig, registers: i64) -> Vec<ConvConfig> {
    let Some(geometry) = ConvGeometry::of(m, op) else { return Vec::new() };
    let out = crate::shape(m, m.result(op, 0));
    let cols = if d.template == Some(ConvTemplate::Pointwise) { out[2] * out[3] } else { out[3] };
    let mut found = Vec::new();
    match d.template {
        Some(ConvTemplate::Depthwise) => {
            // A tile of columns, a vector per multiple of each.
            let multiples = if geometry.class() == ConvClass::Multiplier { geometry.multiplier() } else { 1 };
            for tile_w in 1..=((registers - 2) / multiples).clamp(1, 16).min(cols) {
                for edges in [Edges::Merged, Edges::Split] {
                    found.push(ConvConfig { tile_w: Some(tile_w), edges: Some(edges), ..d.clone() });
                }
            }
        }
        Some(ConvTemplate::Direct | ConvTemplate::Pointwise) => {
            // A channel group's last tile may be partial.
            let blocks = out[1] / geometry.groups.max(1);
            for tile_oc in 1..=4.min(blocks) {
                let most = (registers - tile_oc - 1) / tile_oc;
                for tile_w in 1..=most.clamp(1, 28).min(cols) {
                    let tile = ConvConfig { tile_w: Some(tile_w), tile_oc: Some(tile_oc), ..d.clone() };
                    if d.template == Some(ConvTemplate::Direct) && geometry.pads.iter().any(|&p| p > 0) {
                        let other = if d.edges() == Edges::Merged { Edges::Split } else { Edges::Merged };
                        found.push(ConvConfig { edges: Some(other), ..tile.clone() });
                    }
                    found.push(tile);
                }
            }
            // The other task order: by columns (every channel group over the same
            // columns in turn) or by channel group.
            let task_w = match d.task_w {
                Some(_) => None,
                None => Some(cols.min(256)),
            };
            found.push(ConvConfig { task_w, ..d.clone() });
            if d.template == Some(ConvTemplate::Direct) {
                found.extend(pass_candidates(m, op, d, &geometry));
            }
        }
        _ => {}
    }
    found
}

/// A direct convolution's default tile in input-channel passes of every power of two
/// of blocks below its blocks (or in one pass), each on its padded input and not
/// (`pad_input`: when it has padding and no dilation, whose taps on padding a padded
/// input would compute): the choices `configure-kernels` makes from the filters' size
/// against the caches, measured instead.
fn pass_candidates(m: &Module, op: Op, d: &ConvConfig, geometry: &ConvGeometry) -> Vec<ConvConfig> {
    let blocks = crate::shape(m, m.operand(op, 1)).get(1).copied().unwrap_or(1);
    let chunks = std::iter::once(None).chain((0..).map(|i| 1i64 << i).take_while(|&c| c < blocks).map(Some));
    let pads: &[Option<bool>] = if geometry.pads.iter().any(|&p| p > 0) && geometry.dilations == [1, 1] {
        &[None, Some(true)]
    } else {
        &[None]
    };
    chunks
        .flat_map(|chunk_ic| pads.iter().map(move |&pad_input| (chunk_ic, pad_input)))
        .filter(|&(chunk_ic, pad_input)| (chunk_ic, pad_input) != (d.chunk_ic, d.pad_input))
        .map(|(chunk_ic, pad_input)| ConvConfig { chunk_ic, pad_input, ..d.clone() })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
