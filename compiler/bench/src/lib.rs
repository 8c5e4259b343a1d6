//! `tcc bench` (and the Python package's `Model.bench`): compile a model, run it on
//! random inputs, report latency (median, min, max), GFLOP/s (conv and matmul FLOPs),
//! compile time and a per-kernel profile, as a table or as JSON.
//!
//! The model is compiled with profiling markers; each run's kernel times add up to the
//! run's time (the markers bracket every kernel), and the table reports their mean per
//! run against the mean latency, so the two can be compared. Each compute kernel's
//! GFLOP/s is also given as a percentage of the machine's FMA peak for the backend's
//! vector width on the threads in use (measured by [`crate::peak`]), and every kernel's
//! compulsory memory traffic (its operands read once, its results written once) as
//! GB/s; for a memory-bound kernel (no FLOPs counted) also as a percentage of the
//! measured read bandwidth of the memory level that traffic fits in on those threads
//! ([`crate::bandwidth`]). Kernels of bf16 dot products (`--precision bf16`) are stated
//! against the bf16 dot peak instead, and a reduced precision's output error against an
//! fp32 compile of the same model on the same inputs is reported. A caller can also
//! take the profile itself ([`Profile`]: the CLI draws it).
//!
//! This crate is the measurement lab: it uses the compiler only through its facade
//! (`tcc`), and the compiler uses nothing of it.

pub mod bandwidth;
mod cache;
pub mod peak;

use std::fmt::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use tcc::{DType, ModelBytes, Options, Tensor, TensorSpec};

pub struct Settings {
    pub runs: usize,
    pub warmup: usize,
    pub json: bool,
}

/// One kernel's measurement.
pub struct KernelTime {
    /// The op, with its source location.
    pub label: String,
    /// Mean time per run.
    pub ms: f64,
    pub flops: u64,
    /// Compulsory traffic: operands read once, results written once.
    pub bytes: u64,
}

/// The per-kernel profile with the machine's measured limits on the threads in use.
pub struct Profile {
    /// Model, backend, threads and median latency, in a line.
    pub title: String,
    pub kernels: Vec<KernelTime>,
    pub peak_gflops: f64,
    /// Memory levels, innermost first: name, capacity in bytes, read GB/s.
    pub levels: Vec<(String, u64, f64)>,
}

/// Random input #`index` for `spec`: floats uniform in [-1, 1), integers in [0, 4),
/// bools alternating; deterministic. Its storage is allocated fallibly (an error names
/// the input, its type and the bytes asked for).
fn random_input(spec: &TensorSpec, index: usize) -> Result<Tensor, String> {
    let mut t = Tensor::zeros(spec.dtype, &spec.shape).map_err(|e| format!("random input #{index}: {e}"))?;
    let mut state = (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let unit = |x: u64| (x >> 40) as f64 / (1u64 << 24) as f64 * 2.0 - 1.0;
    fn fill<T: tcc::runtime::Element>(t: &mut Tensor, mut value: impl FnMut(usize) -> T) {
        for (i, x) in t.as_mut_slice::<T>().unwrap_or_default().iter_mut().enumerate() {
            *x = value(i);
        }
    }
    match spec.dtype {
        DType::F32 => fill(&mut t, |_| unit(next()) as f32),
        DType::F64 => fill(&mut t, |_| unit(next())),
        DType::F16 => fill(&mut t, |_| tcc::F16(tcc::ir::dense::f32_to_f16(unit(next()) as f32))),
        DType::BF16 => fill(&mut t, |_| tcc::BF16(tcc::ir::dense::f32_to_bf16(unit(next()) as f32))),
        DType::I8 => fill(&mut t, |_| (next() % 4) as i8),
        DType::I16 => fill(&mut t, |_| (next() % 4) as i16),
        DType::I32 => fill(&mut t, |_| (next() % 4) as i32),
        DType::I64 => fill(&mut t, |_| (next() % 4) as i64),
        DType::Bool => fill(&mut t, |i| i % 2 == 0),
    }
    Ok(t)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Benchmarks the model file at `model` (see [`bench_bytes`]).
pub fn bench(
    model: &Path,
    options: Options,
    s: &Settings,
    on_profile: Option<&mut dyn FnMut(&Profile) -> Result<(), String>>,
) -> Result<String, String> {
    let start = Instant::now();
    let bytes = tcc::read_model_file(model)?;
    bench_bytes(&model.display().to_string(), bytes, start, options, s, on_profile)
}

/// The largest output error of `compiled` (a reduced precision, or Winograd
/// convolutions) against the same model compiled exactly (fp32, direct convolutions),
/// on `inputs`: per output max |y - y_fp32| / max |y_fp32|.
fn error_against_fp32(
    module: tcc::ir::Module,
    options: &Options,
    compiled: &tcc::Model,
    inputs: &[Tensor],
) -> Result<f64, String> {
    let fp32 =
        Options { precision: tcc::Precision::Fp32, winograd: tcc::Winograd::Off, profile: false, ..options.clone() };
    let exact = tcc::Model::compile(module, &fp32).map_err(|e| e.to_string())?;
    let (want, got) = (exact.run(inputs).map_err(|e| e.to_string())?, compiled.run(inputs).map_err(|e| e.to_string())?);
    let mut worst = 0.0f64;
    for (w, g) in want.iter().zip(&got) {
        let (w, g) = (w.to_f64s(), g.to_f64s());
        let scale = w.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let diff = w.iter().zip(&g).fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        worst = worst.max(if scale > 0.0 { diff / scale } else { diff });
    }
    Ok(worst)
}

/// Benchmarks the model in `bytes` (`name` locates errors), timing compilation from
/// `start`; returns the table or JSON, and gives the profile to `on_profile` first.
pub fn bench_bytes(
    name: &str,
    bytes: impl Into<ModelBytes>,
    start: Instant,
    mut options: Options,
    s: &Settings,
    on_profile: Option<&mut dyn FnMut(&Profile) -> Result<(), String>>,
) -> Result<String, String> {
    let model = Path::new(name);
    options.profile = true;
    let module = tcc::parse_model(name, bytes).map_err(|d| d.to_string())?;
    // Under a reduced precision or Winograd asked for, the same model in fp32, direct,
    // gives the reference outputs (not for the default Winograd policy, whose error is
    // within fp32's fidelity bar).
    let inexact = options.precision != tcc::Precision::Fp32 || options.winograd.is_explicit();
    let reference = inexact.then(|| module.clone());
    let compiled = tcc::Model::compile(module, &options).map_err(|e| e.to_string())?;
    let compile_time = start.elapsed();
    let target = tcc::backend::CodeGenerator::new(&options)?.describe();
    let inputs: Vec<Tensor> =
        compiled.inputs().iter().enumerate().map(|(i, spec)| random_input(spec, i)).collect::<Result<_, _>>()?;
    let kernels = compiled.compiled().kernels.clone();
    let bandwidth = crate::bandwidth::measured(compiled.threads());

    for _ in 0..s.warmup {
        compiled.run(&inputs).map_err(|e| e.to_string())?;
    }
    tcc::runtime::profile::take();
    let mut times = Vec::with_capacity(s.runs);
    for _ in 0..s.runs {
        let t = Instant::now();
        compiled.run(&inputs).map_err(|e| e.to_string())?;
        times.push(t.elapsed());
    }
    let kernel_times = tcc::runtime::profile::take();
    let mut per_kernel: Vec<Duration> = kernel_times.iter().map(|t| t.total).collect();
    let mut fastest_run: Vec<Duration> = kernel_times.iter().map(|t| t.fastest).collect();
    let precision_error = match reference {
        Some(module) => Some(error_against_fp32(module, &options, &compiled, &inputs)?),
        None => None,
    };
    per_kernel.resize(kernels.len(), Duration::ZERO);
    fastest_run.resize(kernels.len(), Duration::ZERO);
    let runs = s.runs.max(1) as u32;
    let mut sorted = times.clone();
    sorted.sort();
    let (min, max) = (sorted.first().copied().unwrap_or_default(), sorted.last().copied().unwrap_or_default());
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or_default();
    let mean = times.iter().sum::<Duration>() / runs;
    let flops: u64 = kernels.iter().map(|k| k.flops).sum();
    let gflops = if median.is_zero() { 0.0 } else { flops as f64 / median.as_secs_f64() / 1e9 };
    let kernel_sum = per_kernel.iter().sum::<Duration>() / runs;
    let mut order: Vec<usize> = (0..kernels.len()).collect();
    order.sort_by(|&a, &b| per_kernel[b].cmp(&per_kernel[a]));
    let share =
        |d: Duration| if kernel_sum.is_zero() { 0.0 } else { 100.0 * d.as_secs_f64() / kernel_sum.as_secs_f64() };
    // Measured now, at the clock the runs had.
    let rate = |amount: u64, d: Duration| if d.is_zero() { 0.0 } else { amount as f64 / d.as_secs_f64() / 1e9 };
    let threads = compiled.threads() as f64;
    // Each peak raised to the rate of the fastest kernel measured against it (the f32
    // kernels against the FMA peak, the bf16 dot kernels against the dot peak).
    let fastest = |bf16: bool| {
        let per_core = |i: usize| rate(kernels[i].flops, per_kernel[i] / runs);
        (0..kernels.len())
            .filter(|&i| kernels[i].flops > 0 && kernels[i].bf16 == bf16)
            .max_by(|&a, &b| per_core(a).total_cmp(&per_core(b)))
    };
    let raise = |p: crate::peak::Peak, i: usize| {
        let k = &kernels[i];
        p.at_least(rate(k.flops, per_kernel[i] / runs) / threads, &format!("{} at {}", k.name, k.loc))
    };
    let mut peak = crate::peak::fma_peak(&options).map_err(|e| e.to_string())?;
    if let Some(i) = fastest(false) {
        peak = raise(peak, i);
    }
    let machine_peak = peak.gflops_per_core * threads;
    let dot_peak = match fastest(true) {
        None => None,
        Some(i) => crate::peak::dot_peak().map_err(|e| e.to_string())?.map(|p| raise(p, i)),
    };
    let peak_of = |i: usize| match (&dot_peak, kernels[i].bf16) {
        (Some(p), true) => p.gflops_per_core * threads,
        _ => machine_peak,
    };
    // The model's share of the peak: the time its FLOPs take at the peaks of their
    // kernels (the dot peak for bf16 kernels) over the median.
    let ideal_secs: f64 =
        (0..kernels.len()).map(|i| kernels[i].flops as f64 / (peak_of(i) * 1e9)).filter(|t| t.is_finite()).sum();
    let peak_percent = if median.is_zero() { 0.0 } else { 100.0 * ideal_secs / median.as_secs_f64() };

    if let Some(take) = on_profile {
        let profile = Profile {
            title: format!(
                "{}: {}, {} thread(s), {:.3} ms median",
                model.file_name().map_or_else(|| name.to_string(), |n| n.to_string_lossy().into_owned()),
                options.backend.name(),
                compiled.threads(),
                ms(median)
            ),
            kernels: kernels
                .iter()
                .zip(&per_kernel)
                .map(|(k, &t)| KernelTime {
                    label: format!("{}{} at {}", k.name, if k.naive { " (naive)" } else { "" }, k.loc),
                    ms: ms(t / runs),
                    flops: k.flops,
                    bytes: k.bytes,
                })
                .collect(),
            peak_gflops: machine_peak,
            levels: bandwidth.levels.iter().map(|l| (l.name.to_string(), l.capacity as u64, l.gb_per_s)).collect(),
        };
        take(&profile)?;
    }

    let mut out = String::new();
    if s.json {
        out += "{";
        let _ = write!(out, "\"model\": {}, ", json_string(&model.display().to_string()));
        let _ = write!(out, "\"backend\": {}, ", json_string(options.backend.name()));
        let _ = write!(out, "\"target\": {}, ", json_string(&target));
        let _ = write!(out, "\"precision\": {}, ", json_string(options.precision.name()));
        let _ = write!(out, "\"winograd\": {}, ", json_string(options.winograd_policy().name()));
        if let Some(e) = precision_error {
            let _ = write!(out, "\"error_vs_fp32\": {e:.3e}, ");
        }
        let _ = write!(out, "\"threads\": {}, \"runs\": {}, \"warmup\": {}, ", compiled.threads(), s.runs, s.warmup);
        let _ = write!(out, "\"compile_ms\": {:.3}, ", ms(compile_time));
        let _ = write!(
            out,
            "\"latency_ms\": {{\"median\": {:.4}, \"min\": {:.4}, \"max\": {:.4}, \"mean\": {:.4}}}, ",
            ms(median),
            ms(min),
            ms(max),
            ms(mean)
        );
        let _ = write!(out, "\"flops\": {flops}, \"gflops_per_s\": {gflops:.3}, ");
        let _ = write!(
            out,
            "\"peak_gflops_per_core\": {:.2}, \"peak_note\": {}, \"peak_percent\": {:.2}, ",
            peak.gflops_per_core,
            peak.note.as_deref().map_or_else(|| "null".to_string(), json_string),
            peak_percent
        );
        if let Some(p) = &dot_peak {
            let note = p.note.as_deref().map_or_else(|| "null".to_string(), json_string);
            let _ = write!(out, "\"dot_peak_gflops_per_core\": {:.2}, \"dot_peak_note\": {note}, ", p.gflops_per_core);
        }
        let note = bandwidth.note.as_deref().map_or_else(|| "null".to_string(), json_string);
        let _ = write!(out, "\"bandwidth_note\": {note}, ");
        let _ = write!(out, "\"kernels_ms\": {:.4}, \"kernels\": [", ms(kernel_sum));
        for (n, &i) in order.iter().enumerate() {
            let k = &kernels[i];
            let t = per_kernel[i] / runs;
            let _ = write!(
                out,
                "{}{{\"name\": {}, \"loc\": {}, \"ms\": {:.4}, \"min_ms\": {:.4}, \"share\": {:.2}, \"flops\": {}, \"bytes\": {}, \
                 \"gflops_per_s\": {:.3}, \"peak_percent\": {:.2}, \"gb_per_s\": {:.3}, \"level\": {}, \
                 \"bandwidth_percent\": {:.2}, \"naive\": {}, \"bf16\": {}, \"tuned\": {}}}",
                if n > 0 { ", " } else { "" },
                json_string(&k.name),
                json_string(&k.loc),
                ms(t),
                ms(fastest_run[i]),
                share(t),
                k.flops,
                k.bytes,
                rate(k.flops, t),
                100.0 * rate(k.flops, t) / peak_of(i),
                rate(k.bytes, t),
                json_string(bandwidth.level_for(k.bytes).name),
                100.0 * rate(k.bytes, t) / bandwidth.level_for(k.bytes).gb_per_s,
                k.naive,
                k.bf16,
                k.tuned
            );
        }
        out += "]}\n";
        return Ok(out);
    }
    let _ = writeln!(out, "model     {}", model.display());
    let _ = writeln!(
        out,
        "backend   {}, {} thread(s), precision {}{}",
        options.backend.name(),
        compiled.threads(),
        options.precision,
        match options.winograd {
            tcc::Winograd::F2 | tcc::Winograd::F4 => format!(", Winograd {}", options.winograd),
            _ => String::new(),
        }
    );
    let _ = writeln!(out, "target    {target}");
    let _ = writeln!(out, "compile   {:.1} ms", ms(compile_time));
    if let Some(e) = precision_error {
        let _ = writeln!(
            out,
            "error     {e:.3e} of the output's scale against an exact compile (fp32, direct convolutions; max |y - \
             y_fp32| / max |y_fp32| over the outputs, on the same inputs)"
        );
    }
    let _ = writeln!(
        out,
        "latency   median {:.3} ms, min {:.3} ms, max {:.3} ms ({} after {} warm-up)",
        ms(median),
        ms(min),
        ms(max),
        tcc::runtime::count(s.runs, "run"),
        s.warmup
    );
    let amount = match flops {
        f if f >= 1_000_000_000 => format!("{:.3} GFLOP", f as f64 / 1e9),
        f if f >= 1_000_000 => format!("{:.3} MFLOP", f as f64 / 1e6),
        f => format!("{:.3} kFLOP", f as f64 / 1e3),
    };
    let _ = writeln!(
        out,
        "compute   {amount} per run (conv, matmul), {gflops:.2} GFLOP/s at the median = {:.1}% of peak",
        peak_percent
    );
    let _ = writeln!(
        out,
        "peak      {:.1} GFLOP/s per core with {}-bit FMA ({}), x {} thread(s)",
        peak.gflops_per_core,
        peak.vector_bits,
        peak.note.as_deref().unwrap_or("measured after the runs"),
        compiled.threads()
    );
    if let Some(p) = &dot_peak {
        let _ = writeln!(
            out,
            "dot peak  {:.1} GFLOP/s per core with bf16 dot products ({}), x {} thread(s): the bf16 kernels' % peak",
            p.gflops_per_core,
            p.note.as_deref().unwrap_or("measured after the runs"),
            compiled.threads()
        );
    }
    let levels: Vec<String> = bandwidth.levels.iter().map(|l| format!("{} {:.0}", l.name, l.gb_per_s)).collect();
    let _ = writeln!(
        out,
        "bandwidth {} GB/s read ({}), x {} thread(s)",
        levels.join(", "),
        match (&bandwidth.note, bandwidth.cached) {
            (Some(note), _) => format!("measured now; {note}"),
            (None, true) => "measured earlier on this CPU".into(),
            (None, false) => "measured now".into(),
        },
        compiled.threads()
    );
    let _ = writeln!(out, "\n   share    ms/run  GFLOP/s  % peak    GB/s  % bw (level)  kernel");
    for &i in &order {
        let k = &kernels[i];
        let t = per_kernel[i] / runs;
        let compute = if k.flops > 0 {
            format!("{:7.1}  {:5.1}%", rate(k.flops, t), 100.0 * rate(k.flops, t) / peak_of(i))
        } else {
            format!("{:7}  {:6}", "", "")
        };
        // Memory-bound kernels: compulsory traffic against the bandwidth of the level
        // their data fits in.
        let level = bandwidth.level_for(k.bytes);
        let memory = if k.flops == 0 {
            format!("{:5.1}% {:6}", 100.0 * rate(k.bytes, t) / level.gb_per_s, format!("({})", level.name))
        } else {
            format!("{:13}", "")
        };
        let _ = writeln!(
            out,
            "  {:5.1}%  {:8.4}  {compute}  {:6.1}  {memory}  {}{} at {}",
            share(t),
            ms(t),
            rate(k.bytes, t),
            k.name,
            if k.naive { " (naive: no template took it)" } else { "" },
            k.loc
        );
    }
    let _ = writeln!(
        out,
        "\n  kernels {:.4} ms per run = {:.1}% of the mean latency {:.4} ms",
        ms(kernel_sum),
        if mean.is_zero() { 0.0 } else { 100.0 * kernel_sum.as_secs_f64() / mean.as_secs_f64() },
        ms(mean)
    );
    // The compute kernels (convolutions and matmuls) and those whose configuration `tcc
    // tune` chose.
    let configurable: Vec<usize> = (0..kernels.len()).filter(|&i| kernels[i].flops > 0).collect();
    let tuned: Vec<usize> = configurable.iter().copied().filter(|&i| kernels[i].tuned).collect();
    // (A float sum starts at -0.0: an empty one printed "-0.0%".)
    let time = |ids: &[usize]| ids.iter().map(|&i| per_kernel[i].as_secs_f64()).fold(0.0, |a, b| a + b);
    let _ = writeln!(
        out,
        "  tuned   {} of {} conv and matmul kernels configured by the tuning database ({:.1}% of their time)",
        tuned.len(),
        configurable.len(),
        if configurable.is_empty() { 0.0 } else { 100.0 * time(&tuned) / time(&configurable).max(f64::MIN_POSITIVE) }
    );
    Ok(out)
}
