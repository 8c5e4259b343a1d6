//! The machine's fused multiply-add peak for a backend's vector width, measured: the
//! ceiling `tcc bench` states kernel efficiency against.
//!
//! The calibration kernel is compiled by the backend itself from loop IR: one loop of
//! independent vector FMA chains (enough to cover the FMA latency on every pipe), so it
//! runs at the rate the backend's code can reach on this core. When the code calls
//! microkernels, the kernels' FLOPs run in them: the calibration is then the
//! microkernels' level's own FMA chains (`tcc_ukernels::peak`), at its width. It is measured in every
//! benchmark, right after the model's timed runs (about 0.1 s): the clock a core runs
//! at changes between processes (on a 2-core Zen 5 VM the best of a measurement's runs
//! varied from 292 to 306 GFLOP/s from one process to the next, with kernels of the
//! same process at the top of that range), so a peak measured at another time is a
//! ceiling kernels could run above.
//!
//! A run during which the thread did not have its core to itself (its CPU time falls
//! short of the wall-clock time: another process ran there) does not count; when too
//! few runs were undisturbed after a few rounds, the last undisturbed peak measured on
//! this CPU (cached in `$XDG_CACHE_HOME/tcc/fma-peak`) is used, and the peak says so.
//! A kernel faster than the calibration loop raises the peak to its rate
//! ([`Peak::at_least`]): both are lower bounds on the core's peak. Kernels of bf16 dot
//! products (the bf16 precision policy) are stated against the bf16 dot peak
//! ([`dot_peak`]), measured the same way.

use std::time::Instant;

use tcc::backend::CodeGenerator;
use tcc::ir::builtin::{create_func, create_return};
use tcc::ir::{BufferType, Location, Module, ScalarType, Type};
use tcc::lower::builder::Builder;
use tcc::runtime::ukernels;
use tcc::{Error, Model, Options};

/// Iterations of the calibration loop per run.
const STEPS: i64 = 1 << 21;

/// Steps of the AMX calibration loop (four `tdpbf16ps` of 32,768 FLOPs each: about 4 ms
/// at 2 TFLOP/s).
const AMX_STEPS: i64 = 1 << 17;

/// Timed runs of the calibration loop per round (each about 4 ms with 512-bit vectors).
const RUNS: usize = 15;

/// Rounds of runs before falling back on the cached peak.
const ROUNDS: usize = 3;

/// Undisturbed runs a measurement needs.
const UNDISTURBED: usize = 5;

/// A run is disturbed when its thread's CPU time is below this share of its wall time.
pub(crate) const CPU_SHARE: f64 = 0.97;

/// A measured FMA peak.
#[derive(Clone, Debug, PartialEq)]
pub struct Peak {
    /// GFLOP/s of one core (an FMA counts as two FLOPs).
    pub gflops_per_core: f64,
    /// The vector width measured.
    pub vector_bits: u32,
    /// Why the value is not this run's measurement, if it is not.
    pub note: Option<String>,
}

impl Peak {
    /// The peak raised to `gflops_per_core` if that is higher: a rate `what` reached on
    /// this core (a kernel's, counting only its logical FLOPs) is as much a lower bound
    /// on the peak as the calibration loop's. On a Zen 5 VM the FMA-only loop ran a
    /// percent or two slower than a dilated 3x3 convolution (100.6-102.2% of it, in
    /// every run): the clock depends on what the core executes.
    pub fn at_least(self, gflops_per_core: f64, what: &str) -> Peak {
        if gflops_per_core <= self.gflops_per_core {
            return self;
        }
        let raised = format!("raised to the rate of {what}; the calibration loop measured {:.1}", self.gflops_per_core);
        let note = Some(match self.note {
            Some(note) => format!("{note}; {raised}"),
            None => raised,
        });
        Peak { gflops_per_core, note, ..self }
    }
}

/// The FMA peak of one core for the backend `options` choose, measured now (or, if the
/// core was too busy to measure, the last undisturbed measurement on this CPU).
pub fn fma_peak(options: &Options) -> Result<Peak, Error> {
    let generator =
        CodeGenerator::new(options).map_err(|e| Error::Compile(tcc::ir::Diagnostics::error(Location::unknown(), e)))?;
    let kernels = generator.target().kernel_target();
    let vector_bits = kernels.vector_bits;
    let key = format!("{}|{}|{vector_bits}", tcc::target::host::cpu_model(), options.backend.name());
    let runs = match kernels.ukernels {
        Some(isa) => {
            let flops = 2.0 * (STEPS * ukernels::peak::CHAINS as i64 * isa.lanes() as i64) as f64;
            timed_runs(flops, || {
                std::hint::black_box(ukernels::peak::fma_chains(isa, std::hint::black_box(STEPS)));
                Ok(())
            })?
        }
        None => {
            let (model, flops) = calibration_kernel(&generator)?;
            model.run(&[])?;
            timed_runs(flops, || model.run(&[]).map(drop))?
        }
    };
    let cached = || crate::cache::read("fma-peak", &key).and_then(|v| v.parse::<f64>().ok());
    let (gflops_per_core, note) = choose(&runs, cached);
    if note.is_none() {
        crate::cache::write("fma-peak", &key, &format!("{gflops_per_core:.2}"));
    }
    Ok(Peak { gflops_per_core, vector_bits, note })
}

/// The bf16 dot peak of one core (what the bf16 dot microkernel's instructions reach:
/// AMX's `tdpbf16ps` where the process runs AMX; `vdpbf16ps` on CPUs with AVX512_BF16,
/// 4 FLOPs per lane; elsewhere the dot tile widens to AVX-512 FMAs, whose chains measure
/// it), measured now or cached as [`fma_peak`];
/// `None` when this CPU has no AVX-512 (bf16 kernels then are f32 kernels).
pub fn dot_peak() -> Result<Option<Peak>, Error> {
    let isa = ukernels::Isa::Avx512;
    if !isa.is_supported() {
        return Ok(None);
    }
    let has_amx = ukernels::peak::amx_chains(1).is_some();
    let has_dot = ukernels::peak::dot_chains(1).is_some();
    let chains = if has_dot { ukernels::peak::DOT_CHAINS } else { ukernels::peak::CHAINS } as i64;
    let flops = if has_amx {
        ukernels::peak::AMX_STEP_FLOPS * AMX_STEPS as f64
    } else {
        let per_lane = if has_dot { 4.0 } else { 2.0 };
        per_lane * (STEPS * chains * isa.lanes() as i64) as f64
    };
    let runs = timed_runs(flops, || {
        let sum = if has_amx {
            ukernels::peak::amx_chains(std::hint::black_box(AMX_STEPS))
        } else if has_dot {
            ukernels::peak::dot_chains(std::hint::black_box(STEPS))
        } else {
            ukernels::peak::fma_chains(isa, std::hint::black_box(STEPS))
        };
        std::hint::black_box(sum);
        Ok(())
    })?;
    let instruction = if has_amx {
        "tdpbf16ps"
    } else if has_dot {
        "vdpbf16ps"
    } else {
        "avx512-fma"
    };
    let key = format!("{}|{instruction}", tcc::target::host::cpu_model());
    let cached = || crate::cache::read("dot-peak", &key).and_then(|v| v.parse::<f64>().ok());
    let (gflops_per_core, note) = choose(&runs, cached);
    if note.is_none() {
        crate::cache::write("dot-peak", &key, &format!("{gflops_per_core:.2}"));
    }
    Ok(Some(Peak { gflops_per_core, vector_bits: 512, note }))
}

/// The peak of `runs`: the best undisturbed run when there are enough of them, else the
/// cached value (or the best run, said to be perhaps low), with a note why.
fn choose(runs: &[Run], cached: impl FnOnce() -> Option<f64>) -> (f64, Option<String>) {
    let best = |runs: &mut dyn Iterator<Item = &Run>| runs.map(|r| r.gflops).fold(0.0, f64::max);
    let undisturbed: Vec<&Run> = runs.iter().filter(|r| r.cpu >= CPU_SHARE * r.wall).collect();
    if undisturbed.len() >= UNDISTURBED {
        return (best(&mut undisturbed.into_iter()), None);
    }
    let busy = format!(
        "the core was shared during the calibration ({} of {} runs undisturbed)",
        undisturbed.len(),
        runs.len()
    );
    match cached() {
        Some(g) => (g, Some(format!("{busy}: the last undisturbed value"))),
        None => (best(&mut runs.iter()), Some(format!("{busy}: may be low"))),
    }
}

/// One timed run of the calibration loop: its rate, wall time and the thread's CPU time.
#[derive(Clone, Copy, Debug)]
struct Run {
    gflops: f64,
    wall: f64,
    cpu: f64,
}

/// The calling thread's CPU time in seconds.
pub(crate) fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid timespec to write to; the clock id is a constant.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    if ok { ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9 } else { f64::NAN }
}

/// Rounds of timed runs of `run` (`flops` each) until enough were undisturbed (or
/// [`ROUNDS`] of them).
fn timed_runs(flops: f64, mut run: impl FnMut() -> Result<(), Error>) -> Result<Vec<Run>, Error> {
    let mut runs = Vec::new();
    for _ in 0..ROUNDS {
        for _ in 0..RUNS {
            let (t, c) = (Instant::now(), thread_cpu_seconds());
            run()?;
            let (wall, cpu) = (t.elapsed().as_secs_f64(), thread_cpu_seconds() - c);
            // Without a thread clock every run counts as undisturbed.
            let cpu = if cpu.is_nan() { wall } else { cpu };
            runs.push(Run { gflops: flops / wall / 1e9, wall, cpu });
        }
        if runs.iter().filter(|r| r.cpu >= CPU_SHARE * r.wall).count() >= UNDISTURBED {
            break;
        }
    }
    Ok(runs)
}

/// The calibration kernel, compiled for one thread, and the FLOPs of one run.
fn calibration_kernel(generator: &CodeGenerator) -> Result<(Model, f64), Error> {
    let target = generator.target();
    let lanes = target.f32_lanes() as u32;
    // Independent chains: latency 4 x 2 pipes needs 8; leave registers for the operands.
    let chains = (target.vector_registers as i64 - 4).clamp(8, 16);
    let loc = Location::unknown();
    let mut m = Module::new(loc.clone());
    let out = Type::Buffer(std::sync::Arc::new(
        BufferType::new(vec![chains * lanes as i64], ScalarType::F32, None).expect("valid buffer"),
    ));
    let (func, entry) = create_func(&mut m, "main", vec![out], vec![], loc.clone());
    tcc::loop_dialect::abi::set_entry_info(&mut m, func, 0, 0);
    let buf = m.block_args(entry)[0];
    {
        let mut b = Builder::new(&mut m, entry, loc.clone());
        let (a, c) = (b.scalar(ScalarType::F32, 0.999_999), b.scalar(ScalarType::F32, 1e-6));
        let (a, c) = (b.splat(a, lanes), b.splat(c, lanes));
        let init: Vec<_> = (0..chains)
            .map(|k| {
                let s = b.scalar(ScalarType::F32, k as f64);
                b.splat(s, lanes)
            })
            .collect();
        let (lo, hi, one) = (b.index(0), b.index(STEPS), b.index(1));
        // acc = acc * a + c: the accumulator is the multiplicand every backend's FMA
        // overwrites, so the loop needs no register moves.
        let accs = b.for_loop(lo, hi, one, &init, |b, _, accs| accs.iter().map(|&x| b.fma(x, a, c)).collect());
        for (k, &acc) in accs.iter().enumerate() {
            let at = b.index(k as i64 * lanes as i64);
            b.vstore(acc, buf, &[at]);
        }
    }
    create_return(&mut m, entry, &[], loc);
    let compiled = generator.jit(&m, false)?;
    let model = Model::from_compiled(compiled, 1)?;
    Ok((model, 2.0 * (STEPS * chains * lanes as i64) as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_faster_kernel_raises_the_peak() {
        let peak = Peak { gflops_per_core: 286.0, vector_bits: 512, note: None };
        assert_eq!(peak.clone().at_least(280.0, "conv"), peak);
        let raised = peak.at_least(290.2, "graph.conv2d_nchwc at m.mlir:4:8");
        assert_eq!(raised.gflops_per_core, 290.2);
        let note = raised.note.unwrap();
        assert!(note.contains("graph.conv2d_nchwc at m.mlir:4:8") && note.contains("286.0"), "{note}");
    }

    #[test]
    fn disturbed_runs_do_not_set_the_peak() {
        let run = |gflops, cpu| Run { gflops, wall: 1.0, cpu };
        // Enough undisturbed runs: the best of them, not the faster disturbed one.
        let mut runs = vec![run(300.0, 1.0); 5];
        runs[2].gflops = 305.0;
        runs.push(run(320.0, 0.5));
        assert_eq!(choose(&runs, || Some(1.0)), (305.0, None));
        // Too few: the cached value, said so.
        let runs = vec![run(150.0, 0.6), run(290.0, 1.0)];
        let (g, note) = choose(&runs, || Some(301.0));
        assert_eq!(g, 301.0);
        assert!(note.unwrap().contains("1 of 2 runs undisturbed"));
        // Nothing cached: the best run, flagged.
        let (g, note) = choose(&runs, || None);
        assert_eq!(g, 290.0);
        assert!(note.unwrap().ends_with("may be low"));
    }
}
