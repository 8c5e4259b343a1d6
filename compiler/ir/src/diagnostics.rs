//! Source locations and diagnostics.
//!
//! A [`Location`] names a line and column in a [`SourceFile`] (or is unknown, for IR
//! built by code). A [`Diagnostic`] is a located message with a severity and notes; a
//! [`Diagnostics`] list is the error type of every fallible entry point (parse, verify,
//! passes) and renders as `file:line:col: error: message`, followed by the source line
//! and a caret, the way compilers users already know print errors.

use std::fmt;
use std::sync::{Arc, OnceLock};

/// The text of one input, kept so diagnostics can quote it.
pub struct SourceFile {
    name: String,
    /// Owned, or a mapped file (a model's gigabyte of weights is not copied).
    text: Box<dyn AsRef<str> + Send + Sync>,
    /// Line number of the text's first line (not 1 for `--split-input-file` chunks).
    first_line: u32,
    line_starts: OnceLock<Vec<usize>>,
}

impl SourceFile {
    /// `text` is moved in when given as a `String` (no copy of large inputs).
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Arc<SourceFile> {
        Self::with_first_line(name, text, 1)
    }

    pub fn with_first_line(name: impl Into<String>, text: impl Into<String>, first_line: u32) -> Arc<SourceFile> {
        Self::from_text(name, text.into(), first_line)
    }

    /// A file whose text is held by `text` (a `String`, or a memory-mapped file).
    pub fn from_text(
        name: impl Into<String>,
        text: impl AsRef<str> + Send + Sync + 'static,
        first_line: u32,
    ) -> Arc<SourceFile> {
        Arc::new(SourceFile { name: name.into(), text: Box::new(text), first_line, line_starts: OnceLock::new() })
    }

    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn text(&self) -> &str {
        (*self.text).as_ref()
    }
    pub fn first_line(&self) -> u32 {
        self.first_line
    }

    /// The text of line `line` (numbered as in locations), without its newline.
    pub fn line_text(&self, line: u32) -> Option<&str> {
        let starts = self.line_starts.get_or_init(|| {
            let mut v = vec![0];
            v.extend(self.text().bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1));
            v
        });
        let idx = line.checked_sub(self.first_line)? as usize;
        let start = *starts.get(idx)?;
        let end = starts.get(idx + 1).map(|e| e - 1).unwrap_or(self.text().len());
        let s = self.text().get(start..end)?;
        Some(s.strip_suffix('\r').unwrap_or(s))
    }
}

impl fmt::Debug for SourceFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SourceFile({})", self.name)
    }
}

/// A position in a source file (1-based line and byte column), or unknown.
#[derive(Clone, Default)]
pub struct Location {
    file: Option<Arc<SourceFile>>,
    line: u32,
    col: u32,
}

impl Location {
    pub fn unknown() -> Location {
        Location::default()
    }
    pub fn new(file: Arc<SourceFile>, line: u32, col: u32) -> Location {
        Location { file: Some(file), line, col }
    }
    /// A whole file (no line or column: what is wrong is the file as a whole).
    pub fn whole_file(name: &str) -> Location {
        Location { file: Some(SourceFile::new(name, "")), line: 0, col: 0 }
    }
    /// The whole file this location is in (unknown if it is).
    pub fn in_file(&self) -> Location {
        self.file.as_ref().map_or_else(Location::unknown, |f| Location::whole_file(f.name()))
    }
    pub fn file(&self) -> Option<&Arc<SourceFile>> {
        self.file.as_ref()
    }
    pub fn line(&self) -> u32 {
        self.line
    }
    pub fn col(&self) -> u32 {
        self.col
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(file) if self.line == 0 => f.write_str(&file.name),
            Some(file) => write!(f, "{}:{}:{}", file.name, self.line, self.col),
            None => f.write_str("<unknown>"),
        }
    }
}

impl fmt::Debug for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl PartialEq for Location {
    fn eq(&self, other: &Self) -> bool {
        let same_file = match (&self.file, &other.file) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        same_file && self.line == other.line && self.col == other.col
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
    Remark,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub loc: Location,
    pub message: String,
    pub notes: Vec<Diagnostic>,
}

impl Diagnostic {
    pub fn error(loc: Location, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, loc, message: message.into(), notes: Vec::new() }
    }

    pub fn with_note(mut self, loc: Location, message: impl Into<String>) -> Diagnostic {
        self.notes.push(Diagnostic { severity: Severity::Note, loc, message: message.into(), notes: Vec::new() });
        self
    }
}

/// Longest stretch of a source line quoted in a diagnostic.
const MAX_QUOTED: usize = 120;

fn render(f: &mut fmt::Formatter<'_>, d: &Diagnostic) -> fmt::Result {
    writeln!(f, "{}: {}: {}", d.loc, d.severity.name(), d.message)?;
    if let Some(line) = d.loc.file.as_ref().and_then(|file| file.line_text(d.loc.line)) {
        // Quote at most MAX_QUOTED characters around the column (lines of hex can be
        // megabytes long), then put a caret under the column.
        let col = (d.loc.col.max(1) - 1) as usize;
        let col = col.min(line.len());
        let mut start = col.saturating_sub(MAX_QUOTED / 2);
        while !line.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (start + MAX_QUOTED).min(line.len());
        while !line.is_char_boundary(end) {
            end -= 1;
        }
        let quoted: String = line[start..end].chars().map(|c| if c == '\t' { ' ' } else { c }).collect();
        let caret = line.get(start..col).map(|s| s.chars().count()).unwrap_or(0);
        writeln!(f, "{quoted}")?;
        writeln!(f, "{:caret$}^", "")?;
    }
    for note in &d.notes {
        render(f, note)?;
    }
    Ok(())
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        render(f, self)
    }
}

/// One or more diagnostics: the error type of parsing, verification and passes.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn new() -> Diagnostics {
        Diagnostics(Vec::new())
    }
    pub fn error(loc: Location, message: impl Into<String>) -> Diagnostics {
        Diagnostics(vec![Diagnostic::error(loc, message)])
    }
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(|d| d.severity == Severity::Error)
    }
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter()
    }
    /// `Ok(())` if no errors were collected, else `Err(self)`.
    pub fn into_result(self) -> Result<(), Diagnostics> {
        if self.has_errors() { Err(self) } else { Ok(()) }
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            render(f, d)?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_location_source_line_and_caret() {
        let file = SourceFile::new("m.mlir", "line one\n  %0 = bad\n");
        let d = Diagnostic::error(Location::new(file, 2, 8), "unknown op");
        assert_eq!(d.to_string(), "m.mlir:2:8: error: unknown op\n  %0 = bad\n       ^\n");
    }

    #[test]
    fn long_lines_are_clipped_around_the_column() {
        let long = format!("{}X{}", "a".repeat(5000), "b".repeat(5000));
        let file = SourceFile::new("m.mlir", long);
        let d = Diagnostic::error(Location::new(file, 1, 5001), "here");
        let text = d.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[1].len() <= MAX_QUOTED);
        let caret = lines[2].find('^').unwrap();
        assert_eq!(&lines[1][caret..caret + 1], "X");
    }
}
