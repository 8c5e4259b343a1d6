//! What `tcc MODEL.mlir` prints without `--emit`: a model's entry function (its inputs
//! and outputs), its ops counted by kind, its parameters (constant elements and bytes),
//! and the commands that do something with it. A few lines whatever the model's size:
//! the first thing a new user sees should fit on a screen, not be the model re-printed
//! with megabytes of weights.

use std::collections::BTreeMap;
use std::fmt::Write;

use tcc_ir::{Attribute, Module, builtin};
use tcc_runtime::count;

/// How many op kinds the summary names before it sums the rest as "other".
const NAMED_OP_KINDS: usize = 12;

/// The column the op list wraps at.
const LINE_WIDTH: usize = 88;

/// The summary of `module`, read from `file` (named in the "next steps" lines).
pub fn model_summary(module: &Module, file: &str) -> String {
    let mut out = String::new();
    let funcs = module.funcs();
    let _ = writeln!(out, "{file}: {}", count(funcs.len(), "function"));
    for &func in &funcs {
        let name = builtin::func_name(module, func);
        let _ = writeln!(out, "  @{name}");
        if let Some(ty) = builtin::func_type(module, func) {
            for (i, t) in ty.inputs.iter().enumerate() {
                let _ = writeln!(out, "    input  #{i}: {t}");
            }
            for (i, t) in ty.results.iter().enumerate() {
                let _ = writeln!(out, "    output #{i}: {t}");
            }
        }
    }

    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let (mut parameters, mut parameter_bytes) = (0usize, 0usize);
    for op in module.walk(module.top()) {
        let name = module.name(op);
        if matches!(name, "builtin.module" | "func.func" | "func.return") {
            continue;
        }
        *kinds.entry(name).or_default() += 1;
        for (_, attr) in module.attrs(op).iter() {
            if let Attribute::Dense(d) = attr {
                parameters += d.numel();
                parameter_bytes += d.numel() * d.elem().byte_size();
            }
        }
    }
    let total: usize = kinds.values().sum();
    let mut by_count: Vec<(&str, usize)> = kinds.into_iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut named: Vec<String> = by_count.iter().take(NAMED_OP_KINDS).map(|(k, n)| format!("{n} {k}")).collect();
    let rest: usize = by_count.iter().skip(NAMED_OP_KINDS).map(|(_, n)| n).sum();
    if rest > 0 {
        named.push(format!("{rest} other"));
    }
    let _ = writeln!(out, "{}:", count(total, "op"));
    wrap(&mut out, &named, "  ", LINE_WIDTH);
    let _ = writeln!(out, "parameters: {} ({})", metric(parameters), bytes(parameter_bytes));
    let next = [
        (format!("tcc bench {file}"), "time it on random inputs, kernel by kernel"),
        (format!("tcc run {file} -i X.npy ..."), "run it on .npy inputs, one per input"),
        (format!("tcc {file} --emit=obj -o model.o"), "compile it to an object file and a C header"),
        (format!("tcc {file} --emit=graph"), "print it after the graph optimizations"),
    ];
    let width = next.iter().map(|(c, _)| c.len()).max().unwrap_or(0);
    let _ = writeln!(out, "next:");
    for (command, what) in next {
        let _ = writeln!(out, "  {command:width$}   {what}");
    }
    out
}

/// Appends `items`, comma-separated, on lines of at most `width` columns after `indent`.
fn wrap(out: &mut String, items: &[String], indent: &str, width: usize) {
    let mut line = String::new();
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() { format!("{item},") } else { item.clone() };
        if !line.is_empty() && indent.len() + line.len() + 1 + piece.len() > width {
            let _ = writeln!(out, "{indent}{line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{indent}{line}");
    }
}

/// A number with a metric suffix past ten thousand: `11.7M`.
fn metric(n: usize) -> String {
    match n {
        0..10_000 => n.to_string(),
        10_000..10_000_000 => format!("{:.1}K", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// A byte size in the largest binary unit that keeps it at least 1.
fn bytes(n: usize) -> String {
    const UNITS: [&str; 4] = ["B", "KiB", "MiB", "GiB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 { format!("{n} B") } else { format!("{value:.1} {}", UNITS[unit]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_a_person_would_write_them() {
        assert_eq!(count(1, "input"), "1 input");
        assert_eq!(count(2, "input"), "2 inputs");
        assert_eq!(metric(9_999), "9999");
        assert_eq!(metric(11_689_512), "11.7M");
        assert_eq!(metric(25_000), "25.0K");
        assert_eq!(bytes(512), "512 B");
        assert_eq!(bytes(46_758_048), "44.6 MiB");
        let mut out = String::new();
        let items: Vec<String> = ["3 a.b", "2 c.d", "1 e.f"].map(String::from).to_vec();
        wrap(&mut out, &items, "  ", 17);
        assert_eq!(out, "  3 a.b, 2 c.d,\n  1 e.f\n");
    }
}
