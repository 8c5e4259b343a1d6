#!/usr/bin/env bash
# Runs every test: the Rust test suite (unit, integration, property and PyTorch
# reference tests), the lit suite, an installed tcc (tools/tcc/tests/install.sh) and
# the Python package (pytest). Needs `lit` and a FileCheck (`pip install lit
# filecheck`), a C compiler, and python3 with venv and PyPI; it checks for them before
# building anything. Runs every step, then ends with one line: all passed, or which
# steps failed (the exit status says the same).
#
# Optional features are tested too when their system libraries are installed and the
# environment says where (.ci/run does both; see README): the MLIR 22 fallback parser
# (MLIR_SYS_220_PREFIX), the LLVM backend (LLVM_SYS_221_PREFIX) and tcc-rulegen's Z3
# verifier (libz3-dev). With LLVM, the tcc and tcc-cli tests run on both backends, and
# lit runs once per build of tcc.
#
# lit runs the binaries `cargo test` built (the default ones, then the LLVM ones the
# LLVM tests built) rather than building them again with other features.
set -uo pipefail
cd "$(dirname "$0")"

missing=()
command -v cargo >/dev/null || missing+=("cargo (a Rust toolchain: https://rustup.rs)")
command -v lit >/dev/null || missing+=("lit (pip install lit)")
if [ -z "${FILECHECK:-}" ] && ! command -v FileCheck >/dev/null && ! command -v filecheck >/dev/null; then
  missing+=("FileCheck (pip install filecheck, or set FILECHECK)")
fi
command -v cc >/dev/null || missing+=("a C compiler as cc (apt install gcc)")
python3 -c "import venv, ensurepip" 2>/dev/null || missing+=("python3 with venv (apt install python3-venv)")
if [ "${#missing[@]}" -gt 0 ]; then
  printf 'test.sh: missing %s\n' "${missing[@]}" >&2
  exit 1
fi

failed=()
# step NAME COMMAND...: runs a step, timing it; a failure is recorded, not fatal.
step() {
  local name=$1 start=$SECONDS
  shift
  echo "test.sh: -- $name" >&2
  if "$@"; then
    echo "test.sh: $name: passed ($((SECONDS - start)) s)" >&2
  else
    echo "test.sh: $name: FAILED ($((SECONDS - start)) s)" >&2
    failed+=("$name")
  fi
}

step "cargo test" cargo test --workspace --all-targets --no-fail-fast
# lit drives the tcc and tcc-opt that `cargo test` built (for their integration
# tests), and tcc-rulegen (built here: it has none).
lit_default() {
  cargo build -q -p tcc-rulegen && lit -sv lit-tests
}
step "lit" lit_default
if [ -n "${MLIR_SYS_220_PREFIX:-}" ]; then
  step "cargo test (mlir)" cargo test -p tcc --features mlir --lib --test mlir_import
fi
if [ -n "${LLVM_SYS_221_PREFIX:-}" ]; then
  step "cargo test (llvm)" cargo test -p tcc -p tcc-cli -p tcc-codegen --features tcc-cli/llvm --no-fail-fast
  # The LLVM tests built target/debug/tcc with the LLVM backend: lit again, on it.
  step "lit (llvm)" lit -sv lit-tests
fi

# With Z3 (libz3-dev), tcc-rulegen's verifier is tested and re-proves every generated
# rule that is checked in.
if [ -f /usr/include/z3.h ]; then
  step "cargo test (z3)" cargo test -p tcc-rulegen --features z3
  step "rulegen --verify" cargo run -q -p tcc-rulegen --features z3 -- --verify
fi

# An installed tcc (cargo install into a temporary root) builds and runs the README's
# AOT example from another directory, as an object and as a static library.
step "install" tools/tcc/tests/install.sh
if [ -n "${LLVM_SYS_221_PREFIX:-}" ]; then
  step "install (llvm)" tools/tcc/tests/install.sh --features llvm
fi
# The Python package, built by maturin into a venv of its own (numpy, maturin, pytest and
# ml_dtypes, numpy's bfloat16, come from PyPI), against the checked-in models. (Its release build of tcc cannot be
# shared with the installed tcc's: the two resolve features of common dependencies
# differently, and a shared target directory held two builds of each.) Built at
# opt-level 1: the tests check what the package does, not its speed, and the build took
# 5.9 minutes at the release profile's opt-level 3, 4.1 at 1 (2 cores); the tests ran as
# long (17 s).
python_package() {
  python3 -m venv target/py-venv &&
    CARGO_PROFILE_RELEASE_OPT_LEVEL=1 target/py-venv/bin/pip install --quiet ./python pytest ml_dtypes &&
    target/py-venv/bin/python -m pytest -q python/tests
}
step "python" python_package

if [ "${#failed[@]}" -gt 0 ]; then
  echo "test.sh: FAILED: ${failed[*]} (after $SECONDS s)" >&2
  exit 1
fi
echo "test.sh: all tests passed ($SECONDS s)"
