//! The machine's fused multiply-add peak for a backend's vector width, measured: the
//! ceiling `tcc bench` states kernel efficiency against.
//!
//! The calibration kernel is compiled by the backend itself from loop IR: one loop of
//! independent vector FMA chains (enough to cover the FMA latency on every pipe), so it
//! runs at the rate the backend's code can reach on this core. It is measured in every
//! benchmark, right after the model's timed runs (about 0.1 s): the clock a core runs
//! at changes between processes (on a 2-core Zen 5 VM the best of a measurement's runs
//! varied from 292 to 306 GFLOP/s from one process to the next, with kernels of the
//! same process at the top of that range), so a peak measured at another time, or
//! cached, is a ceiling kernels could run above.

use std::time::Instant;

use tcc::backend::CodeGenerator;
use tcc::ir::builtin::{create_func, create_return};
use tcc::ir::{BufferType, Location, Module, ScalarType, Type};
use tcc::lower::builder::Builder;
use tcc::{Error, Model, Options};

/// Iterations of the calibration loop per run.
const STEPS: i64 = 1 << 21;

/// Timed runs of the calibration loop (each about 4 ms with 512-bit vectors).
const RUNS: usize = 15;

/// A measured FMA peak.
#[derive(Clone, Debug, PartialEq)]
pub struct Peak {
    /// GFLOP/s of one core (an FMA counts as two FLOPs).
    pub gflops_per_core: f64,
    /// The vector width measured.
    pub vector_bits: u32,
}

/// The FMA peak of one core for the backend `options` choose, measured now.
pub fn fma_peak(options: &Options) -> Result<Peak, Error> {
    let generator =
        CodeGenerator::new(options).map_err(|e| Error::Compile(tcc::ir::Diagnostics::error(Location::unknown(), e)))?;
    Ok(Peak { gflops_per_core: measure(&generator)?, vector_bits: generator.target().vector_bits })
}

/// Builds, compiles and times the calibration kernel; GFLOP/s of one core.
fn measure(generator: &CodeGenerator) -> Result<f64, Error> {
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
    let flops = 2.0 * (STEPS * chains * lanes as i64) as f64;
    // The best of several runs: interference (a shared core, a timer tick) only slows a
    // run, and on a VM successive medians varied by 5% (290-305 GFLOP/s on a Zen 5)
    // with real kernels running at the top of that range.
    model.run(&[])?;
    let best = (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            model.run(&[]).map(|_| t.elapsed().as_secs_f64())
        })
        .try_fold(f64::INFINITY, |best, t| t.map(|t| best.min(t)))?;
    Ok(flops / best / 1e9)
}
