//! `tcc bench --plot FILE.svg`: where a model's time goes and how far each kernel is
//! from the machine's limits, as one SVG of three charts (drawn with `plotters`):
//!
//! - a roofline of the compute kernels (conv, matmul): GFLOP/s against FLOPs per byte
//!   of compulsory traffic, under the measured FMA peak and the measured read
//!   bandwidth of each memory level;
//! - the memory-bound kernels (no FLOPs counted): GB/s of compulsory traffic against
//!   its size, under each level's measured bandwidth, drawn across the sizes that fit
//!   in that level;
//! - time per kernel, the largest first.
//!
//! The kernels taking the most time are numbered in all three charts (`#1` the
//! slowest); the time chart names them with their op and source line.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use tcc_bench::{KernelTime as Kernel, Profile};

/// How many kernels get a label, and how many get a bar of their own.
const LABELLED: usize = 6;
const BARS: usize = 24;

/// Writes the three charts of `profile` to `path`.
pub fn write_svg(path: &Path, profile: &Profile) -> Result<(), String> {
    let (title, kernels, ceilings) = (&profile.title, &profile.kernels, profile);
    let mut by_time: Vec<&Kernel> = kernels.iter().filter(|k| k.ms > 0.0).collect();
    by_time.sort_by(|a, b| b.ms.total_cmp(&a.ms));
    let bars = by_time.len().min(BARS);
    let height = 1080 + 22 * bars as u32;
    let root = SVGBackend::new(path, (1100, height)).into_drawing_area();
    let fail = |e: &dyn std::fmt::Display| format!("cannot draw '{}': {e}", path.display());
    root.fill(&WHITE).map_err(|e| fail(&e))?;
    let root = root.titled(title.as_str(), ("sans-serif", 22)).map_err(|e| fail(&e))?;
    let (top, bottom) = root.split_vertically(520);
    let (middle, bottom) = bottom.split_vertically(480);
    let labelled: Vec<&Kernel> = by_time.iter().take(LABELLED).copied().collect();
    // (`labelled[i]` is `#i+1`, as its bar in the time chart.)
    roofline(&top, &by_time, &labelled, ceilings).map_err(|e| fail(&e))?;
    bandwidth(&middle, &by_time, &labelled, ceilings).map_err(|e| fail(&e))?;
    time_bars(&bottom, &by_time, bars).map_err(|e| fail(&e))?;
    root.present().map_err(|e| fail(&e))
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// Powers of ten around `lo..hi` (positive), for a log axis.
fn decades(lo: f64, hi: f64) -> std::ops::Range<f64> {
    let lo = 10f64.powf(lo.max(1e-12).log10().floor());
    let hi = 10f64.powf(hi.max(lo * 10.0).log10().ceil());
    lo..hi
}

fn level_color(i: usize) -> RGBColor {
    [RGBColor(31, 119, 180), RGBColor(44, 160, 44), RGBColor(255, 127, 14), RGBColor(214, 39, 40)][i % 4]
}

fn roofline(area: &Area, kernels: &[&Kernel], labelled: &[&Kernel], c: &Profile) -> DrawResult {
    let compute: Vec<&Kernel> = kernels.iter().filter(|k| k.flops > 0 && k.bytes > 0).copied().collect();
    let point = |k: &Kernel| (k.flops as f64 / k.bytes as f64, k.flops as f64 / (k.ms * 1e-3) / 1e9);
    let xs: Vec<f64> = compute.iter().map(|k| point(k).0).collect();
    let x = decades(xs.iter().copied().fold(0.1, f64::min), xs.iter().copied().fold(100.0, f64::max));
    let y = decades(compute.iter().map(|k| point(k).1).fold(c.peak_gflops / 100.0, f64::min), c.peak_gflops * 2.0);
    let axes = ("FLOPs per byte of compulsory traffic", "GFLOP/s", trim as fn(f64) -> String);
    let mut chart = log_chart(area, "Compute kernels (conv, matmul): roofline", &x, &y, axes)?;
    let peak = c.peak_gflops;
    chart
        .draw_series(LineSeries::new([(x.start, peak), (x.end, peak)], BLACK.stroke_width(2)))?
        .label(format!("FMA peak {peak:.0} GFLOP/s"))
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK.stroke_width(2)));
    for (i, (name, _, gbs)) in c.levels.iter().enumerate() {
        // GFLOP/s = GB/s x FLOPs per byte, up to the peak.
        let knee = peak / gbs;
        let from = x.start.max(y.start / gbs);
        let color = level_color(i);
        chart
            .draw_series(LineSeries::new([(from, gbs * from), (knee.min(x.end), (gbs * knee).min(peak))], color))?
            .label(format!("{name} {gbs:.0} GB/s"))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color));
    }
    points(&mut chart, &compute, labelled, point)?;
    legend(&mut chart, SeriesLabelPosition::LowerRight)
}

fn bandwidth(area: &Area, kernels: &[&Kernel], labelled: &[&Kernel], c: &Profile) -> DrawResult {
    let memory: Vec<&Kernel> = kernels.iter().filter(|k| k.flops == 0 && k.bytes > 0).copied().collect();
    let point = |k: &Kernel| (k.bytes as f64, k.bytes as f64 / (k.ms * 1e-3) / 1e9);
    // The last level (memory) holds everything: the chart ends a decade past the one
    // before it, or past the largest kernel.
    let inner = &c.levels[..c.levels.len().saturating_sub(1)];
    let largest_level = inner.iter().map(|l| l.1 as f64 * 10.0).fold(1e6, f64::max);
    let x = decades(
        memory.iter().map(|k| point(k).0).fold(1e4, f64::min),
        largest_level.max(memory.iter().map(|k| point(k).0).fold(0.0, f64::max)),
    );
    let fastest = c.levels.iter().map(|l| l.2).fold(1.0, f64::max);
    let y = decades(memory.iter().map(|k| point(k).1).fold(fastest / 1000.0, f64::min), fastest * 2.0);
    let axes = ("bytes read and written", "GB/s", bytes_label as fn(f64) -> String);
    let mut chart = log_chart(area, "Memory-bound kernels: bandwidth of compulsory traffic", &x, &y, axes)?;
    let mut from = x.start;
    for (i, (name, capacity, gbs)) in c.levels.iter().enumerate() {
        // Traffic up to the level's capacity fits in it (the last level: all sizes).
        let to = if i + 1 == c.levels.len() { x.end } else { (*capacity as f64).clamp(from, x.end) };
        let color = level_color(i);
        chart
            .draw_series(LineSeries::new([(from, *gbs), (to, *gbs)], color.stroke_width(2)))?
            .label(format!("{name} {gbs:.0} GB/s"))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color.stroke_width(2)));
        from = to;
    }
    points(&mut chart, &memory, labelled, point)?;
    legend(&mut chart, SeriesLabelPosition::LowerLeft)
}

type LogChart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<LogCoord<f64>, LogCoord<f64>>>;

/// A chart with log axes over `x` and `y`: its caption, and the axes' descriptions and
/// x label format (`axes`); y labels are plain numbers.
fn log_chart<'a, 'b>(
    area: &'a Area<'b>,
    caption: &str,
    x: &std::ops::Range<f64>,
    y: &std::ops::Range<f64>,
    (x_desc, y_desc, x_label): (&str, &str, fn(f64) -> String),
) -> Result<LogChart<'a, 'b>, DrawingAreaErrorKind<std::io::Error>> {
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x.clone().log_scale(), y.clone().log_scale())?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_label_formatter(&|v| x_label(*v))
        .y_label_formatter(&|v| trim(*v))
        .draw()?;
    Ok(chart)
}

/// The legend of the lines drawn, boxed, at `position`.
fn legend<'a, 'b: 'a>(chart: &mut LogChart<'a, 'b>, position: SeriesLabelPosition) -> DrawResult {
    chart.configure_series_labels().position(position).background_style(WHITE.mix(0.8)).border_style(BLACK).draw()
}

/// One dot per kernel, the labelled ones red and numbered by their rank in time.
fn points<'a, DB: DrawingBackend + 'a>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<LogCoord<f64>, LogCoord<f64>>>,
    kernels: &[&Kernel],
    labelled: &[&Kernel],
    point: impl Fn(&Kernel) -> (f64, f64),
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let dot = RGBColor(90, 90, 90).mix(0.7).filled();
    chart.draw_series(kernels.iter().map(|k| Circle::new(point(k), 4, dot)))?;
    let ranked = labelled.iter().enumerate().filter(|(_, l)| kernels.iter().any(|k| std::ptr::eq(**l, *k)));
    chart.draw_series(ranked.map(|(rank, k)| {
        // Alternate sides so neighbouring numbers do not overlap.
        let dx = if rank % 2 == 0 { 7 } else { -24 };
        EmptyElement::at(point(k))
            + Circle::new((0, 0), 5, RED.filled())
            + Text::new(format!("#{}", rank + 1), (dx, -14 + 8 * (rank as i32 % 3)), ("sans-serif", 13))
    }))?;
    Ok(())
}

/// Bytes with a decimal prefix (the axis has a tick per power of ten).
fn bytes_label(v: f64) -> String {
    let units = ["B", "kB", "MB", "GB", "TB"];
    let i = ((v.max(1.0).log10() / 3.0).floor() as usize).min(units.len() - 1);
    format!("{} {}", trim(v / 1000f64.powi(i as i32)), units[i])
}

/// A number for an axis: three significant digits, without trailing zeros (ticks of
/// a fast model's milliseconds read 0.002, 0.004, not 0, 0).
fn trim(v: f64) -> String {
    if v.abs() >= 100.0 || v == 0.0 {
        return format!("{v:.0}");
    }
    let decimals = (2 - v.abs().log10().floor() as i32).clamp(0, 12) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
}

/// A label without the model's directory: `op at file:line:col` keeps the file name.
fn short(label: &str) -> String {
    match label.split_once(" at ") {
        Some((op, loc)) => format!("{op} at {}", loc.rsplit('/').next().unwrap_or(loc)),
        None => label.to_string(),
    }
}

fn time_bars(area: &Area, by_time: &[&Kernel], bars: usize) -> DrawResult {
    let total: f64 = by_time.iter().map(|k| k.ms).sum();
    let rest: f64 = by_time.iter().skip(bars).map(|k| k.ms).sum();
    let mut rows: Vec<(String, f64)> = by_time
        .iter()
        .take(bars)
        .enumerate()
        .map(|(i, k)| (format!("#{}  {}", i + 1, short(&k.label)), k.ms))
        .collect();
    if rest > 0.0 {
        rows.push((format!("{} other kernels", by_time.len() - bars), rest));
    }
    let longest = rows.iter().map(|r| r.1).fold(1e-6, f64::max);
    let mut chart = ChartBuilder::on(area)
        .caption(format!("Time per kernel ({total:.3} ms per run in all)"), ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(10)
        .build_cartesian_2d(0.0..longest * 1.9, (0..rows.len()).into_segmented())?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .disable_y_axis()
        .x_desc("ms per run")
        .x_label_formatter(&|v| trim(*v))
        .draw()?;
    let bar = RGBColor(31, 119, 180).filled();
    for (i, (label, ms)) in rows.iter().enumerate() {
        let row = rows.len() - 1 - i;
        chart.draw_series([Rectangle::new(
            [(0.0, SegmentValue::Exact(row)), (*ms, SegmentValue::Exact(row + 1))],
            bar,
        )])?;
        let share = 100.0 * ms / total.max(1e-12);
        chart.draw_series([Text::new(
            format!("{ms:.4} ms ({share:.1}%)  {label}"),
            (ms + longest * 0.01, SegmentValue::Exact(row + 1)),
            ("sans-serif", 12),
        )])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::trim;

    #[test]
    fn axis_numbers_keep_three_significant_digits() {
        let cases = [(0.0, "0"), (0.0025, "0.0025"), (0.004, "0.004"), (0.01, "0.01"), (1.5, "1.5"), (12.34, "12.3")];
        for (v, want) in cases {
            assert_eq!(trim(v), want, "{v}");
        }
        assert_eq!(trim(250.4), "250");
        assert_eq!(trim(1e-9), "0.000000001");
    }
}
