//! `tcc`, the compiler driver (`tcc run`, `tcc bench`, `tcc MODEL --emit=..`).
//!
//! Code generation arrives with the JIT and AOT issues; until then this binary only
//! says so, and `tcc-opt` is the tool that parses, verifies and optimizes models.

use std::process::ExitCode;

fn main() -> ExitCode {
    eprintln!(
        "tcc: the compiler driver is not built yet (code generation arrives with the JIT issue).\n\
         Use tcc-opt to parse, verify and optimize a model, e.g.\n  \
         tcc-opt model.mlir --pass-pipeline=canonicalize,cse"
    );
    ExitCode::from(2)
}
