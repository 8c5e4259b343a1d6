#!/usr/bin/env bash
# Runs every test: the Rust test suite (unit, integration, property and PyTorch
# reference tests), the lit suite, an installed tcc (tools/tcc/tests/install.sh) and
# the Python package (pytest). Needs `lit` and a FileCheck (`pip install lit
# filecheck`), a C compiler, and python3 with venv and PyPI. Runs everything, then
# fails if anything failed.
#
# Optional features are tested too when their system libraries are installed and the
# environment says where (.ci/run does both; see README): the MLIR 22 fallback parser
# (MLIR_SYS_220_PREFIX), the LLVM backend (LLVM_SYS_221_PREFIX) and tcc-rulegen's Z3
# verifier (libz3-dev). With LLVM, the tcc and tcc-cli tests run on both backends, and
# lit runs once per build of tcc.
set -uo pipefail
cd "$(dirname "$0")"

status=0
cargo test --workspace --all-targets --no-fail-fast || status=1
if [ -n "${MLIR_SYS_220_PREFIX:-}" ]; then
  cargo test -p tcc --features mlir --lib --test mlir_import || status=1
fi
if [ -n "${LLVM_SYS_221_PREFIX:-}" ]; then
  cargo test -p tcc -p tcc-cli -p tcc-codegen --features tcc-cli/llvm --no-fail-fast || status=1
fi

# With Z3 (libz3-dev), tcc-rulegen's verifier is tested and re-proves every generated
# rule that is checked in.
if [ -f /usr/include/z3.h ]; then
  cargo test -p tcc-rulegen --features z3 || status=1
  cargo run -q -p tcc-rulegen --features z3 -- --verify || status=1
fi

# lit drives the debug tcc-opt and tcc: the default build, then the LLVM one.
if cargo build -p tcc-opt -p tcc-cli -p tcc-rulegen; then
  lit -sv lit-tests || status=1
else
  status=1
fi
if [ -n "${LLVM_SYS_221_PREFIX:-}" ]; then
  if cargo build -p tcc-opt -p tcc-cli -p tcc-rulegen --features tcc-cli/llvm; then
    lit -sv lit-tests || status=1
  else
    status=1
  fi
fi
# An installed tcc (cargo install into a temporary root) builds and runs the README's
# AOT example from another directory, as an object and as a static library.
tools/tcc/tests/install.sh || status=1
if [ -n "${LLVM_SYS_221_PREFIX:-}" ]; then
  tools/tcc/tests/install.sh --features llvm || status=1
fi
# The Python package, built by maturin into a venv of its own (numpy, maturin and pytest
# come from PyPI), against the checked-in models.
if python3 -m venv target/py-venv && target/py-venv/bin/pip install --quiet ./python pytest; then
  target/py-venv/bin/python -m pytest -q python/tests || status=1
else
  echo "test.sh: building the Python package failed" >&2
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "test.sh: FAILED" >&2
fi
exit "$status"
