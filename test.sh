#!/usr/bin/env bash
# Runs every test: the Rust test suite (unit, integration, property and reference
# tests) and the lit suite. Needs `lit` and a FileCheck (`pip install lit filecheck`).
set -euo pipefail
cd "$(dirname "$0")"

cargo test --workspace --all-targets
# lit drives the debug tcc-opt built above.
cargo build -p tcc-opt
lit -sv lit-tests
