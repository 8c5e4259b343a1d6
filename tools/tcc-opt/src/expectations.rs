//! `--verify-diagnostics`: checks the diagnostics a file produces against its
//! `// expected-error@+1 {{message}}` annotations, as `mlir-opt` does.
//!
//! Annotations: `expected-error`, `expected-warning`, `expected-note`,
//! `expected-remark`, optionally `@+N` / `@-N` (relative line) or `@above` / `@below`,
//! then one or more `{{substring}}`. Each diagnostic must match one expectation on its
//! line and every expectation must be matched.

use tcc::ir::{Diagnostic, Severity};

struct Expected {
    severity: Severity,
    line: u32,
    message: String,
    /// Where the annotation itself is written.
    annotation_line: u32,
    matched: bool,
}

fn parse_expectations(text: &str, first_line: u32) -> Result<Vec<Expected>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = first_line + i as u32;
        let mut rest = line;
        while let Some(pos) = rest.find("expected-") {
            rest = &rest[pos + "expected-".len()..];
            let (severity, after) = match () {
                _ if rest.starts_with("error") => (Severity::Error, &rest[5..]),
                _ if rest.starts_with("warning") => (Severity::Warning, &rest[7..]),
                _ if rest.starts_with("note") => (Severity::Note, &rest[4..]),
                _ if rest.starts_with("remark") => (Severity::Remark, &rest[6..]),
                _ => continue,
            };
            let mut after = after;
            let mut target = line_no;
            if let Some(spec) = after.strip_prefix('@') {
                let end = spec.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(spec.len());
                let offset = &spec[..end];
                target = match offset {
                    "above" => line_no - 1,
                    "below" => line_no + 1,
                    _ => {
                        let n: i64 = offset
                            .trim_start_matches('+')
                            .parse()
                            .map_err(|_| format!("line {line_no}: invalid expected-* offset '@{offset}'"))?;
                        u32::try_from(line_no as i64 + n).map_err(|_| format!("line {line_no}: offset out of range"))?
                    }
                };
                after = &spec[end..];
            }
            let after = after.trim_start();
            let Some(body) = after.strip_prefix("{{") else {
                return Err(format!("line {line_no}: expected '{{{{' after the expected-* annotation"));
            };
            let end = body.find("}}").ok_or_else(|| format!("line {line_no}: unterminated '{{{{'"))?;
            out.push(Expected {
                severity,
                line: target,
                message: body[..end].to_string(),
                annotation_line: line_no,
                matched: false,
            });
            rest = &body[end + 2..];
        }
    }
    Ok(out)
}

/// Matches `diags` (with their notes) against the annotations in `text`. Returns the
/// problems found, rendered for the user (empty if everything matched).
pub fn check(text: &str, first_line: u32, file: &str, diags: &[Diagnostic]) -> Vec<String> {
    let mut expected = match parse_expectations(text, first_line) {
        Ok(e) => e,
        Err(e) => return vec![format!("{file}:{e}")],
    };
    let mut problems = Vec::new();
    let mut all: Vec<&Diagnostic> = Vec::new();
    for d in diags {
        all.push(d);
        all.extend(d.notes.iter());
    }
    for d in all {
        let found = expected.iter_mut().find(|e| {
            !e.matched && e.severity == d.severity && e.line == d.loc.line() && d.message.contains(&e.message)
        });
        match found {
            Some(e) => e.matched = true,
            None => problems.push(format!("unexpected {}: {}", d.severity.name(), d.to_string().trim_end())),
        }
    }
    for e in expected.iter().filter(|e| !e.matched) {
        problems.push(format!(
            "{file}:{}: error: expected {} \"{}\" on line {} was not produced",
            e.annotation_line,
            e.severity.name(),
            e.message,
            e.line
        ));
    }
    problems
}
