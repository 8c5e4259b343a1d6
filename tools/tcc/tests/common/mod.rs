//! Shared by the CLI tests.

/// The `--backend` values this build of tcc accepts: cranelift, and llvm when built
/// with `--features llvm`.
pub fn backends() -> Vec<&'static str> {
    if cfg!(feature = "llvm") { vec!["cranelift", "llvm"] } else { vec!["cranelift"] }
}
