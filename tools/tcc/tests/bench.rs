//! `tcc bench` on every example model: it runs, reports the fields it promises, and its
//! per-kernel times add up to the measured mean latency within 10% (the profiling
//! markers bracket every kernel, so only the run's entry overhead is outside them).
//! This machine is shared: one stall outside the markers skews a 50 µs run, so a model
//! gets three attempts; time lost by the profiler would fail all three. The tests take
//! turns (the other's `tcc bench` on the second core stalled the timed one), and the
//! timed runs use one thread: on a shared 2-vCPU host, waking the second thread took
//! from a few to tens of µs (small_cnn's kernels 0.48-0.84 of its 10-60 µs latency on
//! two threads, in three attempts, twice on 2026-11-27; 0.96 on one thread).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// Held by each test while it runs `tcc bench`.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn models() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut v: Vec<PathBuf> = std::fs::read_dir(root.join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    for m in ["small_cnn", "attention_block", "group_norm_block", "elementwise_mix"] {
        v.push(root.join(format!("dialects/graph/tests/reference/models/{m}.mlir")));
    }
    v
}

/// The number after `"key": ` in a JSON text.
fn number(json: &str, key: &str) -> f64 {
    let at = json.find(&format!("\"{key}\": ")).unwrap_or_else(|| panic!("no {key} in {json}")) + key.len() + 4;
    let end = json[at..].find([',', '}']).unwrap() + at;
    json[at..end].trim().parse().unwrap()
}

#[test]
fn bench_reports_and_kernels_add_up() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for model in models() {
        let mut ratios = Vec::new();
        for attempt in 0..3 {
            let out = Command::new(env!("CARGO_BIN_EXE_tcc"))
                .args(["bench", model.to_str().unwrap(), "--runs", "30", "--warmup", "3", "--threads", "1", "--json"])
                .output()
                .unwrap();
            assert!(out.status.success(), "{}: {}", model.display(), String::from_utf8_lossy(&out.stderr));
            let json = String::from_utf8(out.stdout).unwrap();
            for key in [
                "compile_ms",
                "median",
                "min",
                "max",
                "flops",
                "gflops_per_s",
                "threads",
                "peak_gflops_per_core",
                "peak_percent",
                "gb_per_s",
                "bandwidth_percent",
            ] {
                number(&json, key);
            }
            assert!(json.contains("\"kernels\": [{\"name\": \"graph."), "{json}");
            let (kernels, mean, median) = (number(&json, "kernels_ms"), number(&json, "mean"), number(&json, "median"));
            println!("{}: kernels {kernels:.4} ms, latency mean {mean:.4} ms, median {median:.4} ms", model.display());
            ratios.push(kernels / mean);
            // Within 10% of the mean or the median latency, plus 3 µs for the per-run work
            // outside the kernels (entry, argument checks; unoptimized in the test build),
            // which dominates models that run in microseconds: examples/cnn.mlir runs in 7
            // µs here, 1.8-2.0 µs of it outside its kernels (2026-11-28, Zen 5). The median
            // too, because one slow run of a 10 µs model moves its mean by more than that:
            // with LLVM the kernels took 0.0105 ms of a 0.0109 ms median but of a 0.0151 ms
            // mean, one of the 30 runs taking 0.13 ms (2026-11-28, Zen 5, in CI three
            // attempts in a row).
            let close = |latency: f64| (kernels - latency).abs() <= 0.1 * latency + 0.003;
            if close(mean) || close(median) {
                break;
            }
            assert!(attempt < 2, "{}: kernels add up to {ratios:.3?} of the latency", model.display());
        }
    }
}

#[test]
fn bench_table_is_human_readable() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let model = &models()[0];
    let out = Command::new(env!("CARGO_BIN_EXE_tcc"))
        .args(["bench", model.to_str().unwrap(), "--runs", "3"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let parts = [
        "compile",
        "latency   median",
        "GFLOP/s",
        "% of peak",
        "peak      ",
        "bandwidth L1 ",
        "share    ms/run  GFLOP/s  % peak    GB/s  % bw (level)  kernel",
        "of the mean latency",
    ];
    for part in parts {
        assert!(text.contains(part), "missing {part:?} in:\n{text}");
    }
}

/// `--precision bf16`: the matmuls of the attention block that take the bf16 dot kernels
/// (on a CPU with AVX-512; none elsewhere) are marked bf16 and stated against the bf16
/// dot peak, which the report gives, with the output's error against an fp32 compile
/// (within bf16's precision, and not zero: the operands were rounded).
#[test]
fn bf16_kernels_are_stated_against_the_dot_peak() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let model = root.join("dialects/graph/tests/reference/models/attention_block.mlir");
    let out = Command::new(env!("CARGO_BIN_EXE_tcc"))
        .args(["bench", model.to_str().unwrap(), "--runs", "3", "--threads", "1", "--precision", "bf16", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json = String::from_utf8(out.stdout).unwrap();
    assert!(json.contains("\"precision\": \"bf16\""), "{json}");
    let avx512 = tcc::Isa::Avx512.is_supported();
    assert_eq!(json.contains("\"bf16\": true"), avx512, "{json}");
    assert_eq!(json.contains("\"dot_peak_gflops_per_core\": "), avx512, "{json}");
    if avx512 {
        assert!(number(&json, "dot_peak_gflops_per_core") > 0.0);
    }
    let error = number(&json, "error_vs_fp32");
    assert!(error > 0.0 && error < 2e-2, "{json}");
}
