#!/usr/bin/env bash
# Runs every test: the Rust test suite (unit, integration, property and PyTorch
# reference tests) and the lit suite. Needs `lit` and a FileCheck
# (`pip install lit filecheck`). Runs both suites, then fails if either failed.
set -uo pipefail
cd "$(dirname "$0")"

status=0
cargo test --workspace --all-targets --no-fail-fast || status=1
# lit drives the debug tcc-opt and tcc.
if cargo build -p tcc-opt -p tcc-cli; then
  lit -sv lit-tests || status=1
else
  status=1
fi
# Optional features, when their system libraries are installed (.ci/run installs
# them; see README): the MLIR 22 fallback parser.
if [ -n "${MLIR_SYS_220_PREFIX:-}" ]; then
  cargo test -p tcc --features mlir --lib --test mlir_import || status=1
fi
if [ "$status" -ne 0 ]; then
  echo "test.sh: FAILED" >&2
fi
exit "$status"
