//! `tcc tune`: tunes a model's kernels ([`tcc::tune`]) with a progress line on
//! standard error after each round (the kernels' time with their best configurations
//! so far against the defaults, time left) and a table of what was chosen at the end.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::Duration;

use tcc::Options;
use tcc::tune::{Progress, TuneReport, TuneSettings, TunedKernel};

pub fn tune(model: &Path, settings: &TuneSettings, options: &Options) -> Result<(), String> {
    let module = crate::parse(model)?;
    let terminal = std::io::stderr().is_terminal();
    let mut show = |p: &Progress| {
        let ms = |s: Option<f64>| s.map_or("-".to_string(), |s| format!("{:.3} ms", s * 1e3));
        let line = format!(
            "round {}/{}: {} kernels, {} per run with their best configurations ({} with the defaults), {} left",
            p.round,
            p.rounds,
            p.kernels,
            ms(p.best_seconds),
            ms(p.default_seconds),
            minutes(p.left)
        );
        let mut err = std::io::stderr().lock();
        if terminal {
            let _ = write!(err, "\r\x1b[2K{line}");
        } else {
            let _ = writeln!(err, "{line}");
        }
    };
    let report = tcc::tune::tune(module, options, settings, &mut show).map_err(|e| e.to_string())?;
    if terminal {
        eprintln!();
    }
    print!("{}", table(&report));
    Ok(())
}

/// One line per kernel (with the pruned column or not) appended to `out`; returns the
/// kernels' default and chosen seconds, summed where both are known.
fn rows(out: &mut String, kernels: &[TunedKernel], with_pruned: bool) -> (f64, f64) {
    let (mut before, mut after) = (0.0, 0.0);
    for k in kernels {
        let (d, b) = (k.default_seconds.unwrap_or(f64::NAN), k.best_seconds.unwrap_or(f64::NAN));
        if d.is_finite() && b.is_finite() {
            before += d;
            after += b;
        }
        let pruned = if with_pruned { format!(" {:>7}", k.pruned) } else { String::new() };
        *out += &format!(
            "{:>12.4} {:>11.4} {:>7.2}x {:>9}{pruned}  {} {} (x{})\n",
            d * 1e3,
            b * 1e3,
            d / b,
            measured(k),
            k.config.as_deref().unwrap_or("(not measured)"),
            k.kernel,
            k.instances
        );
    }
    (before, after)
}

/// How many of a kernel's configurations were measured now: "database" when it was
/// found there, "-" when it could not be measured (its time not told apart from another
/// kernel's at its location).
fn measured(k: &TunedKernel) -> String {
    match (k.measured, &k.config) {
        (0, Some(_)) => "database".to_string(),
        (0, None) => "-".to_string(),
        (n, _) => format!("{n}/{}", k.candidates),
    }
}

fn minutes(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// The report as a table: each kernel's default and chosen time, the configurations
/// measured, the chosen configuration; then the totals.
fn table(r: &TuneReport) -> String {
    let mut out = format!(
        "machine   {}\ndatabase  {}\nrounds    {} of {} (the model compiled and timed with each kernel's next candidate)\n",
        r.machine,
        r.database.display(),
        r.rounds,
        r.rounds_wanted
    );
    if !r.winograd.is_empty() {
        out += "   direct ms   chosen ms  speedup  measured  choice, convolution (instances)\n";
        let (before, after) = rows(&mut out, &r.winograd, false);
        out += &format!(
            "{} convolution(s): {:.3} ms per run direct, {:.3} ms as chosen ({:.2}x); their kernels follow\n",
            r.winograd.len(),
            before * 1e3,
            after * 1e3,
            before / after
        );
    }
    out += "  default ms    tuned ms  speedup  measured  pruned  configuration, kernel (instances)\n";
    let (before, after) = rows(&mut out, &r.kernels, true);
    let (pruned, all) = r.kernels.iter().fold((0, 0), |(p, a), k| (p + k.pruned, a + k.candidates));
    out += &format!("{pruned} of {all} configurations pruned by the I/O bound\n");
    out += &format!(
        "{} kernels in {:.1} s; their time per run in the model, summed: {:.3} ms with the defaults, {:.3} ms tuned ({:.2}x)\n",
        r.kernels.len(),
        r.elapsed.as_secs_f64(),
        before * 1e3,
        after * 1e3,
        before / after
    );
    out
}
