//! Passes and the pass manager.
//!
//! A [`Pass`] transforms a whole module. Passes are created by name from a
//! [`PassRegistry`] through a pipeline string (`canonicalize,cse`,
//! `canonicalize{max-iterations=4}`; MLIR's `builtin.module(func.func(...))` nesting
//! is accepted and flattened, since every pass here runs on the whole module). The
//! [`PassManager`] runs them in order and can verify after each pass, dump the IR after
//! each pass, and time each pass; a pass that panics fails the run with an internal
//! error naming it.

use std::collections::BTreeMap;
use std::fmt;
use std::time::{Duration, Instant};

use crate::diagnostics::{Diagnostic, Diagnostics, Location};
use crate::internal_error::{catch_internal_error, inject_panic, internal_error};
use crate::module::Module;
use crate::printer::{PrintOptions, print_module};
use crate::verifier::verify;

pub trait Pass {
    /// The name used in pipelines.
    fn name(&self) -> &'static str;
    fn run(&self, m: &mut Module) -> Result<(), Diagnostics>;
}

/// Options given to a pass in a pipeline: `name{key=value key2=value}`.
#[derive(Clone, Debug, Default)]
pub struct PassOptions {
    values: BTreeMap<String, String>,
}

impl PassOptions {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(|s| s.as_str())
    }

    pub fn parse_or<T: std::str::FromStr>(&self, key: &str, default: T) -> Result<T, String> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| format!("invalid value '{v}' for option '{key}'")),
        }
    }
}

/// How to make a pass by name.
pub struct PassInfo {
    pub name: &'static str,
    pub summary: &'static str,
    /// Option names and their documentation.
    pub options: &'static [(&'static str, &'static str)],
    pub create: fn(&PassOptions) -> Result<Box<dyn Pass>, String>,
}

#[derive(Clone, Default)]
pub struct PassRegistry {
    passes: BTreeMap<&'static str, &'static PassInfo>,
}

impl PassRegistry {
    /// A registry with the generic passes (`canonicalize`, `cse`).
    pub fn new() -> PassRegistry {
        let mut r = PassRegistry::default();
        r.register(&crate::canonicalize::CANONICALIZE);
        r.register(&crate::cse::CSE);
        r
    }

    pub fn register(&mut self, info: &'static PassInfo) {
        self.passes.insert(info.name, info);
    }

    pub fn passes(&self) -> impl Iterator<Item = &'static PassInfo> + '_ {
        self.passes.values().copied()
    }

    /// Builds the passes of a pipeline string.
    pub fn parse_pipeline(&self, text: &str) -> Result<Vec<Box<dyn Pass>>, String> {
        let mut out = Vec::new();
        let mut p = PipelineParser { s: text.as_bytes(), pos: 0 };
        p.parse_list(self, &mut out, 0)?;
        p.skip_ws();
        if p.pos != p.s.len() {
            return Err(format!(
                "unexpected '{}' in pass pipeline at offset {}",
                text[p.pos..].chars().next().unwrap_or(' '),
                p.pos
            ));
        }
        Ok(out)
    }
}

struct PipelineParser<'a> {
    s: &'a [u8],
    pos: usize,
}

impl PipelineParser<'_> {
    fn skip_ws(&mut self) {
        while self.s.get(self.pos).is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn name(&mut self) -> String {
        self.skip_ws();
        let start = self.pos;
        while self.s.get(self.pos).is_some_and(|&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')) {
            self.pos += 1;
        }
        String::from_utf8_lossy(&self.s[start..self.pos]).into_owned()
    }

    fn parse_list(&mut self, reg: &PassRegistry, out: &mut Vec<Box<dyn Pass>>, depth: usize) -> Result<(), String> {
        if depth > 16 {
            return Err("pass pipeline nests too deeply".into());
        }
        self.skip_ws();
        if self.pos == self.s.len() || self.s[self.pos] == b')' {
            return Ok(());
        }
        loop {
            let name = self.name();
            if name.is_empty() {
                return Err(format!("expected a pass name at offset {}", self.pos));
            }
            self.skip_ws();
            if self.s.get(self.pos) == Some(&b'(') {
                // An op anchor such as builtin.module(...) or func.func(...).
                self.pos += 1;
                self.parse_list(reg, out, depth + 1)?;
                self.skip_ws();
                if self.s.get(self.pos) != Some(&b')') {
                    return Err(format!("expected ')' to close '{name}(' in pass pipeline"));
                }
                self.pos += 1;
            } else {
                let info = reg.passes.get(name.as_str()).ok_or_else(|| {
                    let known: Vec<&str> = reg.passes.keys().copied().collect();
                    format!("unknown pass '{name}' (known passes: {})", known.join(", "))
                })?;
                let mut options = PassOptions::default();
                if self.s.get(self.pos) == Some(&b'{') {
                    self.pos += 1;
                    let close =
                        self.s[self.pos..].iter().position(|&b| b == b'}').ok_or("unterminated '{' in pass options")?;
                    let body = String::from_utf8_lossy(&self.s[self.pos..self.pos + close]).into_owned();
                    self.pos += close + 1;
                    for item in body.split_whitespace() {
                        let (k, v) =
                            item.split_once('=').ok_or_else(|| format!("pass option '{item}' must be key=value"))?;
                        if !info.options.iter().any(|(n, _)| *n == k) {
                            return Err(format!("pass '{name}' has no option '{k}'"));
                        }
                        options.values.insert(k.to_string(), v.to_string());
                    }
                }
                out.push((info.create)(&options).map_err(|e| format!("pass '{name}': {e}"))?);
            }
            self.skip_ws();
            if self.s.get(self.pos) == Some(&b',') {
                self.pos += 1;
            } else {
                return Ok(());
            }
        }
    }
}

/// Wall-clock time per named step.
#[derive(Clone, Debug, Default)]
pub struct Timing {
    entries: Vec<(String, Duration)>,
}

impl Timing {
    pub fn record(&mut self, name: &str, d: Duration) {
        self.entries.push((name.to_string(), d));
    }

    /// Runs `f`, recording its time under `name`.
    pub fn time<T>(&mut self, name: &str, f: impl FnOnce() -> T) -> T {
        let t = Instant::now();
        let r = f();
        self.record(name, t.elapsed());
        r
    }

    pub fn total(&self) -> Duration {
        self.entries.iter().map(|e| e.1).sum()
    }
}

impl fmt::Display for Timing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.total().as_secs_f64().max(1e-12);
        writeln!(f, "===-------------------------------------------------------------------------===")?;
        writeln!(f, "                         ... Execution time report ...")?;
        writeln!(f, "===-------------------------------------------------------------------------===")?;
        writeln!(f, "  Total Execution Time: {:.4} seconds\n", total)?;
        writeln!(f, "  ----Wall Time----  ----Name----")?;
        for (name, d) in &self.entries {
            let s = d.as_secs_f64();
            writeln!(f, "  {s:.4} ({:5.1}%)  {name}", 100.0 * s / total)?;
        }
        writeln!(f, "  {total:.4} (100.0%)  Total")
    }
}

/// Runs a list of passes.
pub struct PassManager {
    passes: Vec<Box<dyn Pass>>,
    /// Verify the module after each pass (on by default in debug builds).
    pub verify_each: bool,
    /// Print the module to stderr after each pass.
    pub print_ir_after_all: bool,
    pub print_options: PrintOptions,
    pub timing: Option<Timing>,
}

impl PassManager {
    pub fn new(passes: Vec<Box<dyn Pass>>) -> PassManager {
        PassManager {
            passes,
            verify_each: cfg!(debug_assertions),
            print_ir_after_all: false,
            print_options: PrintOptions::default(),
            timing: None,
        }
    }

    pub fn run(&mut self, m: &mut Module) -> Result<(), Diagnostics> {
        for pass in &self.passes {
            let start = Instant::now();
            let name = pass.name();
            catch_internal_error(|| {
                inject_panic(name);
                pass.run(m)
            })
            .map_err(|message| internal_error(m.loc(m.top()).in_file(), &format!("pass '{name}'"), &message))??;
            if let Some(t) = &mut self.timing {
                t.record(pass.name(), start.elapsed());
            }
            if self.print_ir_after_all {
                eprintln!(
                    "// -----// IR Dump After {} //----- //\n{}",
                    pass.name(),
                    print_module(m, self.print_options)
                );
            }
            if self.verify_each {
                let start = Instant::now();
                verify(m).map_err(|mut d| {
                    d.push(Diagnostic {
                        severity: crate::diagnostics::Severity::Note,
                        loc: Location::unknown(),
                        message: format!("the module no longer verifies after pass '{}'", pass.name()),
                        notes: Vec::new(),
                    });
                    d
                })?;
                if let Some(t) = &mut self.timing {
                    t.record("(verifier)", start.elapsed());
                }
            }
        }
        Ok(())
    }
}
