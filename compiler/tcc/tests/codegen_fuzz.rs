//! Differential property test of the code generators: random graph-dialect models
//! (`common/difftest`, shared with the cargo-fuzz target `fuzz/fuzz_targets/codegen.rs`),
//! compiled by every backend this build has on 1 and 2 threads, against the reference
//! interpreter. The generator, the standards of comparison and the check are described
//! in `common/difftest/mod.rs`.
//!
//! A fixed set of seeds; `TCC_FUZZ_SEEDS=N` (and `TCC_FUZZ_FIRST=K`) runs others, for a
//! longer search without libFuzzer.

#[path = "common/difftest/mod.rs"]
mod difftest;

use std::collections::BTreeMap;

use difftest::{Source, check, generate, known_issue, optimized_forms};

const SEEDS: u64 = 300;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn compiled_models_match_the_interpreter() {
    let first = env("TCC_FUZZ_FIRST", 1);
    let count = env("TCC_FUZZ_SEEDS", SEEDS);
    let keep_going = std::env::var("TCC_FUZZ_KEEP_GOING").is_ok();
    let backends = tcc::backend::compiled_backends();
    let threads = [1, 2];
    let mut ops: BTreeMap<&str, usize> = BTreeMap::new();
    let mut forms: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut cases, mut agreed, mut combos, mut rejected) = (0, 0, 0, 0);
    // Compile errors by first line: count and first seed.
    let mut errors: BTreeMap<String, (usize, u64)> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut known: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
    let start = std::time::Instant::now();
    for seed in first..first + count {
        let case = generate(&mut Source::from_seed(seed));
        cases += 1;
        for op in &case.ops {
            *ops.entry(op).or_default() += 1;
        }
        for f in optimized_forms(&case.text, backends[0]) {
            *forms.entry(f).or_default() += 1;
        }
        combos += backends.len() * threads.len();
        match check(&case, &backends, &threads, true) {
            Ok(stats) => {
                agreed += stats.agreed;
                if !stats.compile_errors.is_empty() {
                    rejected += 1;
                }
                for e in stats.compile_errors {
                    let first_line = e.lines().next().unwrap_or("").to_string();
                    errors.entry(first_line).or_insert((0, seed)).0 += 1;
                }
            }
            Err(f) if known_issue(&case, &f).is_some() => {
                known.entry(known_issue(&case, &f).unwrap()).or_default().push(seed);
            }
            Err(f) => {
                let report = format!("seed {seed}: {f}");
                if !keep_going {
                    panic!("{report}");
                }
                eprintln!("{report}\n");
                failures.push((seed, f.kind));
            }
        }
    }
    eprintln!(
        "{cases} cases in {:.1} s: {agreed} of {combos} compilations (backends {backends:?} x threads {threads:?}) \
         agreed with the interpreter; {rejected} cases with compile errors",
        start.elapsed().as_secs_f64()
    );
    eprintln!("ops written: {ops:?}");
    eprintln!("optimized forms: {forms:?}");
    for (e, (n, seed)) in &errors {
        eprintln!("compile error x{n} (first: seed {seed}): {e}");
    }
    for (issue, seeds) in &known {
        eprintln!("known issue {issue}: seeds {seeds:?}");
    }
    assert!(failures.is_empty(), "{} failures: {failures:?}", failures.len());
}

/// The minimized findings in `codegen_fuzz/*.mlir`, each checked as the property test
/// checks a case (inputs drawn for its arguments), by the standard its `// STANDARD:`
/// line gives (`exact`, or `tol=T`, an absolute tolerance). A file with `// XFAIL:
/// issue` is a known, unfixed bug (`difftest::known_issue`): it must still fail, so that
/// fixing the bug makes this test point at the file and the issue to retire.
#[test]
fn regressions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/codegen_fuzz");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "mlir"));
    files.sort();
    assert!(!files.is_empty());
    let backends = tcc::backend::compiled_backends();
    let mut problems = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let directive = |name: &str| {
            text.lines().find_map(|l| l.strip_prefix(&format!("// {name}: ")).map(|v| v.trim().to_string()))
        };
        let standard = directive("STANDARD").unwrap_or_else(|| panic!("{}: no // STANDARD: line", path.display()));
        let (exact, tol) = match standard.strip_prefix("tol=") {
            Some(t) => (false, t.parse().unwrap()),
            None => (standard == "exact", 0.0),
        };
        let xfail = directive("XFAIL");
        for seed in 1..=3 {
            let case = difftest::generator::replay_case(&text, seed, exact, tol).unwrap();
            let outcome = check(&case, &backends, &[1, 2], true);
            let name = path.file_name().unwrap().to_string_lossy();
            match (&xfail, outcome) {
                (None, Err(f)) => problems.push(format!("{name} (inputs {seed}): {f}")),
                (Some(issue), Err(f)) => {
                    assert_eq!(known_issue(&case, &f), Some(issue.as_str()), "{name}: {f}");
                    break;
                }
                (Some(issue), Ok(_)) if seed == 3 => problems.push(format!(
                    "{name} passes: if {issue} is fixed, drop its XFAIL line and its entry in difftest::known_issue"
                )),
                _ => {}
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
