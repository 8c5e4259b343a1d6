//! Checks the rule files under `rules/` and generates their tables (`$OUT_DIR/rules.rs`,
//! see `tcc_rules::tables`): every file is included as text for `rules::interp` to run;
//! `rules/canonical/*.rules` are canonicalization rules, every other directory's rules
//! are for the rewrite search. A rule file with an error fails the build with the
//! error's file, line and column.

use std::path::{Path, PathBuf};

fn rule_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rule_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rules") {
            out.push(p);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let rules_dir = root.join("rules");
    println!("cargo::rerun-if-changed={}", rules_dir.display());
    let mut files = Vec::new();
    rule_files(&rules_dir, &mut files);
    // Canonicalization rules first (the order canonicalization tries them in), then the
    // hand-written search rules, then the generated ones (the order the search tries
    // rules at an op, which breaks ties between equally cheap rewrites).
    let rank = |f: &PathBuf| {
        let rel = f.strip_prefix(&rules_dir).unwrap_or(f);
        if rel.starts_with("canonical") {
            0
        } else if rel.starts_with("generated") {
            2
        } else {
            1
        }
    };
    files.sort_by_key(rank);
    let mut sources = Vec::new();
    for f in &files {
        println!("cargo::rerun-if-changed={}", f.display());
        let rel = f.strip_prefix(&root).unwrap_or(f);
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| {
            eprintln!("{}: error: {e}", rel.display());
            std::process::exit(1)
        });
        sources.push(tcc_rules::Source {
            path: format!("dialects/graph/{}", rel.display()),
            text,
            canonical: rel.starts_with("rules/canonical"),
            include_from: f.display().to_string(),
        });
    }
    let code = tcc_rules::compile(&sources).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("rules.rs");
    std::fs::write(&out, code).unwrap_or_else(|e| {
        eprintln!("{}: error: {e}", out.display());
        std::process::exit(1)
    });
}
