//! The crates' dependency arrows, checked against the design (docs/architecture.md):
//! `ir`, `target` <- `rules` <- dialects <- `opt`, `lower` <- `codegen` <- `tcc` <- tools
//! and examples. Tools use the facade (`tcc`, and `tcc-bench` for measurement), not its
//! parts; dialects do not depend on each other; code generation sees the runtime only
//! through its ABI crate and needs nothing of the lowering; the runtime (with its
//! microkernels) depends on nothing of the compiler.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Each crate and the tcc crates it may depend on (normal and build dependencies).
const ALLOWED: &[(&str, &[&str])] = &[
    ("tcc-ir", &["tcc-runtime-abi"]),
    ("tcc-runtime-abi", &[]),
    // The target names the runtime microkernels' ISA level, an ABI agreement.
    ("tcc-target", &["tcc-runtime-abi"]),
    ("tcc-rules", &["tcc-ir", "tcc-target"]),
    ("tcc-dialect-graph", &["tcc-ir", "tcc-target", "tcc-rules"]),
    ("tcc-dialect-loop", &["tcc-ir", "tcc-target"]),
    ("tcc-dialect-vector", &["tcc-ir", "tcc-target"]),
    ("tcc-dialect-tosa", &["tcc-ir", "tcc-target"]),
    ("tcc-graph-opt", &["tcc-ir", "tcc-target", "tcc-rules", "tcc-dialect-graph"]),
    (
        "tcc-lower",
        &["tcc-ir", "tcc-target", "tcc-dialect-graph", "tcc-dialect-loop", "tcc-dialect-vector", "tcc-dialect-tosa"],
    ),
    ("tcc-codegen", &["tcc-ir", "tcc-target", "tcc-dialect-loop", "tcc-dialect-vector", "tcc-runtime-abi"]),
    ("tcc-ukernels", &["tcc-runtime-abi"]),
    ("tcc-runtime", &["tcc-runtime-abi", "tcc-ukernels"]),
    (
        "tcc",
        &[
            "tcc-ir",
            "tcc-target",
            "tcc-rules",
            "tcc-dialect-graph",
            "tcc-dialect-loop",
            "tcc-dialect-vector",
            "tcc-dialect-tosa",
            "tcc-graph-opt",
            "tcc-lower",
            "tcc-codegen",
            "tcc-runtime",
        ],
    ),
    ("tcc-bench", &["tcc"]),
    ("tcc-cli", &["tcc", "tcc-bench"]),
    ("tcc-opt", &["tcc"]),
    ("tcc-rulegen", &["tcc"]),
    ("tcc-benchmarks", &["tcc", "tcc-bench"]),
    ("tcc-python", &["tcc", "tcc-bench"]),
    ("tcc-embed-example", &["tcc"]),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The package name and the tcc dependencies (normal and build) of a manifest.
fn manifest(path: &Path) -> (String, Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut name = String::new();
    let mut deps = Vec::new();
    let mut section = String::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.trim_matches(|c| c == '[' || c == ']').to_string();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        let key = key.trim().split('.').next().unwrap_or("").trim_matches('"');
        if section == "package" && key == "name" {
            name = value.trim().trim_matches('"').to_string();
        }
        if (section == "dependencies" || section == "build-dependencies") && (key == "tcc" || key.starts_with("tcc-")) {
            deps.push(key.to_string());
        }
    }
    (name, deps)
}

/// Every manifest: the workspace members and the Python package.
fn manifests() -> Vec<PathBuf> {
    let workspace = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let members = workspace.split("members = [").nth(1).and_then(|s| s.split(']').next()).unwrap();
    let mut paths: Vec<PathBuf> = members
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .map(|m| root().join(m).join("Cargo.toml"))
        .collect();
    paths.push(root().join("python/Cargo.toml"));
    paths
}

#[test]
fn dependencies_point_the_way_the_design_says() {
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut problems = Vec::new();
    let mut seen = Vec::new();
    for path in manifests() {
        let (name, deps) = manifest(&path);
        seen.push(name.clone());
        let Some(ok) = allowed.get(name.as_str()) else {
            problems.push(format!("{name} ({}) has no place in the design's table", path.display()));
            continue;
        };
        for d in deps.iter().filter(|d| !ok.contains(&d.as_str())) {
            problems.push(format!("{name} depends on {d}, which the design does not allow"));
        }
    }
    for (name, _) in ALLOWED {
        assert!(seen.iter().any(|s| s == name), "{name} is in the table but not in the workspace");
    }
    assert!(problems.is_empty(), "crate dependency arrows:\n  {}", problems.join("\n  "));
}

#[test]
fn the_checker_reads_what_manifests_say() {
    let (name, deps) = manifest(&root().join("compiler/codegen/Cargo.toml"));
    assert_eq!(name, "tcc-codegen");
    assert!(deps.contains(&"tcc-ir".to_string()) && deps.contains(&"tcc-runtime-abi".to_string()), "{deps:?}");
    assert!(!deps.contains(&"tcc-runtime".to_string()) && !deps.contains(&"tcc-lower".to_string()), "{deps:?}");
}
