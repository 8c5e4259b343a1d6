//! Builds `libtcc_runtime.a`, the runtime that objects compiled by tcc link against, and
//! puts it in `OUT_DIR` so the library carries it (`include_bytes!` in
//! `src/runtime_lib.rs`): an installed tcc (`cargo install --path tools/tcc`) has no
//! cargo target directory to find it in.
//!
//! The runtime is built by a nested cargo, in release mode without debug information,
//! for the target this crate is built for, in a target directory of its own next to
//! the outer one (so every profile and feature set of this crate shares one build),
//! then stripped of the standard library's debug information if `strip` is installed.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let runtime = manifest_dir.join("../../runtime");
    // The runtime and the crates it is built from (its ABI and its microkernels).
    for watched in ["src", "Cargo.toml", "abi/src", "abi/Cargo.toml", "ukernels/src", "ukernels/Cargo.toml"] {
        println!("cargo:rerun-if-changed={}", runtime.join(watched).display());
    }
    let target = std::env::var("TARGET").expect("cargo sets TARGET");
    // OUT_DIR is <target dir>/[<triple>/]<profile>/build/<crate>-<hash>/out.
    let shared =
        out.ancestors().nth(4).map(|t| t.join("tcc-runtime-build")).unwrap_or_else(|| out.join("runtime-build"));
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "--lib", "--quiet", "--target", &target])
        .arg("--manifest-path")
        .arg(runtime.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&shared)
        .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
        .env("CARGO_PROFILE_RELEASE_STRIP", "debuginfo")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .status()
        .unwrap_or_else(|e| panic!("cannot run cargo to build the runtime library: {e}"));
    assert!(status.success(), "building the runtime library (tcc-runtime) failed");
    let built = shared.join(&target).join("release").join("libtcc_runtime.a");
    // The debug information of Rust's precompiled standard library is 40% of the
    // archive; `strip` (binutils, there wherever `cc` links) drops it when it is here.
    let stripped = out.join("libtcc_runtime.stripped.a");
    let strip_ok = Command::new("strip")
        .arg("--strip-debug")
        .arg(&built)
        .arg("-o")
        .arg(&stripped)
        .status()
        .is_ok_and(|s| s.success());
    copy_if_changed(if strip_ok { &stripped } else { &built }, &out.join("libtcc_runtime.a"));
}

/// Copies `from` to `to` unless `to` already holds the same bytes (so an unchanged
/// runtime does not rebuild this crate).
fn copy_if_changed(from: &Path, to: &Path) {
    let bytes = std::fs::read(from).unwrap_or_else(|e| panic!("cannot read {}: {e}", from.display()));
    if std::fs::read(to).ok().as_deref() != Some(&bytes[..]) {
        std::fs::write(to, &bytes).unwrap_or_else(|e| panic!("cannot write {}: {e}", to.display()));
    }
}
