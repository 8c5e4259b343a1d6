//! `tcc tune`: tunes a model's kernels ([`tcc::tune`]) with a progress line on
//! standard error (kernels done, the current one's configurations measured, its best
//! against its default, time left) and a table of what was chosen at the end.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::Duration;

use tcc::Options;
use tcc::tune::{Progress, TuneReport};

pub fn tune(model: &Path, budget: Duration, again: bool, options: &Options) -> Result<(), String> {
    let module = crate::parse(model)?;
    let terminal = std::io::stderr().is_terminal();
    let mut last_kernel = String::new();
    let mut show = |p: &Progress| {
        let ms = |s: Option<f64>| s.map_or("-".to_string(), |s| format!("{:.4} ms", s * 1e3));
        let line = format!(
            "[{}/{}] {}: {}/{} configurations, best {} (default {}), {} left",
            p.done + 1,
            p.total,
            p.kernel,
            p.measured,
            p.candidates,
            ms(p.best_seconds),
            ms(p.default_seconds),
            minutes(p.left)
        );
        let mut err = std::io::stderr().lock();
        if terminal {
            let _ = write!(err, "\r\x1b[2K{line}");
        } else if last_kernel != p.kernel {
            // Not a terminal: a line when a kernel starts.
            let _ = writeln!(err, "[{}/{}] {}: {} configurations", p.done + 1, p.total, p.kernel, p.candidates);
        }
        last_kernel = p.kernel.to_string();
    };
    let report = tcc::tune::tune(module, options, budget, again, &mut show).map_err(|e| e.to_string())?;
    if terminal {
        eprintln!();
    }
    print!("{}", table(&report));
    Ok(())
}

fn minutes(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

/// The report as a table: each kernel's default and chosen time, the configurations
/// measured, the chosen configuration; then the totals.
fn table(r: &TuneReport) -> String {
    let mut out = format!("machine   {}\ndatabase  {}\n", r.machine, r.database.display());
    out += "  default ms    tuned ms  speedup  measured  configuration, kernel\n";
    let (mut before, mut after) = (0.0, 0.0);
    for k in &r.kernels {
        let (d, b) = (k.default_seconds.unwrap_or(f64::NAN), k.best_seconds.unwrap_or(f64::NAN));
        if d.is_finite() && b.is_finite() {
            before += d;
            after += b;
        }
        let measured =
            if k.measured == 0 { "database".to_string() } else { format!("{}/{}", k.measured, k.candidates) };
        out += &format!(
            "{:>12.4} {:>11.4} {:>7.2}x {:>9}  {} {}\n",
            d * 1e3,
            b * 1e3,
            d / b,
            measured,
            k.config.as_deref().unwrap_or("(not measured)"),
            k.kernel
        );
    }
    out += &format!(
        "{} kernels in {:.1} s; the kernels alone, summed: {:.3} ms with the defaults, {:.3} ms tuned ({:.2}x)\n",
        r.kernels.len(),
        r.elapsed.as_secs_f64(),
        before * 1e3,
        after * 1e3,
        before / after
    );
    out
}
