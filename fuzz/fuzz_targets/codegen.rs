//! Differential fuzzing of the code generators against the reference interpreter.
//!
//! libFuzzer's input drives the generator of `compiler/tcc/tests/common/difftest` (the
//! same source as the property test `codegen_fuzz.rs`, included with `#[path]`): each
//! input becomes a random well-typed graph-dialect model with its inputs, which the
//! interpreter runs as the oracle and every backend of this build compiles and runs on
//! 1 and 2 threads. A result outside its standard (bit for bit, or within the bound its
//! ops allow; see `difftest/mod.rs`), a run-time error where the interpreter succeeds,
//! a panic or a crash is a finding; a clean compile error is not. Known, unfixed bugs
//! (`difftest::known_issue`) are skipped so the search goes on.
//!
//! Build with `--features llvm` to fuzz the LLVM backend too; `TCC_FUZZ_BACKENDS=llvm`
//! (or `cranelift`) restricts the check to one backend.

#![no_main]

#[path = "../../compiler/tcc/tests/common/difftest/mod.rs"]
mod difftest;

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

fn backends() -> &'static [tcc::Backend] {
    static BACKENDS: OnceLock<Vec<tcc::Backend>> = OnceLock::new();
    BACKENDS.get_or_init(|| {
        let mut all = tcc::backend::compiled_backends();
        if let Ok(only) = std::env::var("TCC_FUZZ_BACKENDS") {
            all.retain(|b| only.split(',').any(|o| o.trim().eq_ignore_ascii_case(b.name())));
        }
        assert!(!all.is_empty(), "TCC_FUZZ_BACKENDS selects none of {:?}", tcc::backend::compiled_backends());
        all
    })
}

fuzz_target!(|data: &[u8]| {
    let case = difftest::generate(&mut difftest::Source::from_bytes(data));
    match difftest::check(&case, backends(), &[1, 2], false) {
        Ok(_) => {}
        Err(f) if difftest::known_issue(&case, &f).is_some() => {}
        Err(f) => panic!("{f}"),
    }
});
