# -*- Python -*-
# lit configuration for tcc's FileCheck tests.
#
# Run from the repository root with:
#     cargo build -p tcc-opt && lit -v lit-tests
#
# Environment:
#   TCC_BIN_DIR  directory holding tcc-opt (and later tcc); default <repo>/target/debug
#   FILECHECK    the FileCheck to use; default `FileCheck` if on PATH, else `filecheck`
#                (the Python port)

import os
import shutil

import lit.formats

config.name = "tcc"
config.suffixes = [".mlir", ".rules"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = config.test_source_root

# Tests are shell pipelines. They are run by lit's internal shell, which provides
# `not` (and `env`, `cd`, `mkdir`, `rm`, `echo`) as builtins, so the suite needs no
# LLVM utilities beyond a FileCheck. (`ShTest(True)`, the external shell, has no
# `not` unless LLVM's is on PATH, and lit >= 23 rejects it outright.)
config.test_format = lit.formats.ShTest(execute_external=False)

repo_root = os.path.dirname(config.test_source_root)
tools_dir = os.environ.get("TCC_BIN_DIR") or os.path.join(repo_root, "target", "debug")
tools_dir = os.path.abspath(tools_dir)


def find_tool(name):
    for candidate in (name, name + ".exe"):
        path = os.path.join(tools_dir, candidate)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


tcc_opt = find_tool("tcc-opt")
if tcc_opt is None:
    lit_config.fatal(
        "tcc-opt not found in %s; build it with cargo build -p tcc-opt "
        "(or set TCC_BIN_DIR to the directory that holds it)" % tools_dir
    )

# `%tcc` is reserved for the compiler driver of later issues; it is only substituted
# once the binary exists, so tests that use it fail loudly until then.
tcc = find_tool("tcc") or os.path.join(tools_dir, "tcc")

# The rule-file checker, for the tests of the rule language (`rules/`).
tcc_rulegen = find_tool("tcc-rulegen") or os.path.join(tools_dir, "tcc-rulegen")

# Optional parts of the build, for `REQUIRES:` lines: `llvm` when tcc has the LLVM
# backend.
if os.path.exists(tcc):
    import subprocess

    backends = subprocess.run([tcc, "--print-backends"], capture_output=True, text=True).stdout.split()
    if "llvm" in backends:
        config.available_features.add("llvm")

filecheck = os.environ.get("FILECHECK")
if not filecheck:
    filecheck = shutil.which("FileCheck") or shutil.which("filecheck")
if not filecheck:
    lit_config.fatal("no FileCheck found: install LLVM's FileCheck or `pip install filecheck`, or set FILECHECK")

# Longest keys first: lit applies substitutions in order, and `%tcc` is a prefix of
# `%tcc-opt`.
config.substitutions.append(("%tcc-opt", tcc_opt))
config.substitutions.append(("%tcc-rulegen", tcc_rulegen))
config.substitutions.append(("%tcc", tcc))
# Tests write `| FileCheck %s`; only the bare word is replaced (not CHECK prefixes
# such as `--check-prefix=FileCheck`, nor paths containing it).
config.substitutions.append((r"(?<![\w/.=-])FileCheck(?![\w/.-])", filecheck))

# Deterministic output: no Rust backtraces in diagnostics checked by tests.
config.environment["RUST_BACKTRACE"] = "0"
config.environment["NO_COLOR"] = "1"
# Inputs without a trailing newline, non-UTF-8 bytes etc. are made with printf.
config.environment["LC_ALL"] = "C"

lit_config.note("using tcc-opt: %s" % tcc_opt)
lit_config.note("using FileCheck: %s" % filecheck)
