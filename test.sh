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
if [ "$status" -ne 0 ]; then
  echo "test.sh: FAILED" >&2
fi
exit "$status"
