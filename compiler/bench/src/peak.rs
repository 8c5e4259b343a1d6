//! The machine's fused multiply-add peak for a backend's vector width, measured: the
//! ceiling `tcc bench` states kernel efficiency against.
//!
//! The calibration kernel is compiled by the backend itself from loop IR: one loop of
//! independent vector FMA chains (enough to cover the FMA latency on every pipe), so it
//! runs at the rate the backend's code can reach on this core. Results are cached per
//! CPU model, backend and vector width in `$XDG_CACHE_HOME/tcc/fma-peak` (or
//! `~/.cache/tcc/fma-peak`), since the measurement takes a noticeable fraction of a
//! second and a CPU's peak does not change.

use std::time::Instant;

use tcc::backend::CodeGenerator;
use tcc::ir::builtin::{create_func, create_return};
use tcc::ir::{BufferType, Location, Module, ScalarType, Type};
use tcc::lower::builder::Builder;
use tcc::{Error, Model, Options};

use crate::cache::{read as read_cache, write as write_cache};

/// Iterations of the calibration loop per run.
const STEPS: i64 = 1 << 21;

/// A measured FMA peak.
#[derive(Clone, Debug, PartialEq)]
pub struct Peak {
    /// GFLOP/s of one core (an FMA counts as two FLOPs).
    pub gflops_per_core: f64,
    /// The vector width measured.
    pub vector_bits: u32,
    /// Whether the value came from the cache.
    pub cached: bool,
}

/// The FMA peak of one core for the backend `options` choose: from the cache, or
/// measured (and cached).
pub fn fma_peak(options: &Options) -> Result<Peak, Error> {
    let generator = code_generator(options)?;
    let bits = generator.target().vector_bits;
    if let Some(g) = read_cache("fma-peak", &cache_key(options, bits)).and_then(|v| v.parse().ok()) {
        return Ok(Peak { gflops_per_core: g, vector_bits: bits, cached: true });
    }
    measure_and_cache(&generator, options)
}

/// `peak` again, measured now, when it came from the cache and a model ran faster per
/// core than it (`achieved`, GFLOP/s per core): the cached value was measured while the
/// core was shared or throttled, and every percentage against it would be wrong.
pub fn recheck_peak(options: &Options, peak: Peak, achieved: f64) -> Result<Peak, Error> {
    if !is_stale(&peak, achieved) {
        return Ok(peak);
    }
    measure_and_cache(&code_generator(options)?, options)
}

/// Whether a model's rate per core (`achieved`) shows that `peak` is too low: it came
/// from the cache and was beaten by more than measurement noise.
fn is_stale(peak: &Peak, achieved: f64) -> bool {
    peak.cached && achieved > peak.gflops_per_core * 1.02
}

fn code_generator(options: &Options) -> Result<CodeGenerator, Error> {
    CodeGenerator::new(options).map_err(|e| Error::Compile(tcc::ir::Diagnostics::error(Location::unknown(), e)))
}

/// Measures the peak now and caches it.
fn measure_and_cache(generator: &CodeGenerator, options: &Options) -> Result<Peak, Error> {
    let bits = generator.target().vector_bits;
    let g = measure(generator)?;
    write_cache("fma-peak", &cache_key(options, bits), &format!("{g:.2}"));
    Ok(Peak { gflops_per_core: g, vector_bits: bits, cached: false })
}

/// The cache key of a peak: CPU model, backend and vector width.
fn cache_key(options: &Options, bits: u32) -> String {
    format!("{}|{}|{bits}", tcc::target::host::cpu_model(), options.backend.name())
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
    // The median of several runs, not the best: the kernels it is compared with run
    // for seconds, at the clock a core sustains, not at a short burst's.
    model.run(&[])?;
    let mut times = Vec::new();
    for _ in 0..9 {
        let t = Instant::now();
        model.run(&[])?;
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    Ok(flops / times[times.len() / 2] / 1e9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_cached_peak_beaten_beyond_noise_is_stale() {
        let peak = |cached| Peak { gflops_per_core: 100.0, vector_bits: 512, cached };
        assert!(is_stale(&peak(true), 187.0));
        assert!(!is_stale(&peak(true), 101.0), "within 2% is noise");
        assert!(!is_stale(&peak(true), 80.0));
        assert!(!is_stale(&peak(false), 187.0), "a peak measured now is not measured again");
    }
}
