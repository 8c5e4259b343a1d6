//! The rule language: graph rewrites as data. A rule file holds S-expression rules
//! (`(rule NAME SOURCE => TARGET (if GUARD...) (by PROVENANCE))`, see [`ast`]); this
//! crate parses them with located errors ([`parse`]), rejects duplicate and shadowed
//! rules ([`check`]), and generates from a dialect's build script ([`compile`]) the
//! tables that include the files as text for the dialect's interpreter, the one engine
//! every rule runs in ([`tables`]). It depends on nothing, so build scripts stay cheap.

pub mod ast;
pub mod builtins;
pub mod check;
pub mod parse;
pub mod sexpr;
pub mod tables;

pub use ast::{Expr, Pattern, Provenance, Rule, RuleFile};
pub use sexpr::{Pos, RuleError};

/// One rule file.
pub struct Source {
    /// The path shown in messages and recorded in the tables.
    pub path: String,
    pub text: String,
    /// Whether its rules are canonicalization rules (always applied, first match wins)
    /// rather than rules only the cost-based search applies.
    pub canonical: bool,
    /// The absolute path the dialect includes the file's text from.
    pub include_from: String,
}

/// Parses and checks `sources` and generates the dialect's rule tables
/// ([`tables::generate`]); errors are rendered with the file, line, column and source
/// line.
pub fn compile(sources: &[Source]) -> Result<String, String> {
    let mut files = Vec::new();
    for s in sources {
        let f = parse::parse_file(&s.path, &s.text).map_err(|e| e.render(&s.path, &s.text))?;
        files.push((f, s));
    }
    // Canonicalization files first, in file order: the order the driver tries them in.
    files.sort_by_key(|(_, s)| !s.canonical);
    let located = |canonical_only: bool| -> Vec<check::Located> {
        files
            .iter()
            .filter(|(_, s)| s.canonical || !canonical_only)
            .flat_map(|(f, s)| f.rules.iter().map(|rule| check::Located { file: &s.path, rule }))
            .collect()
    };
    if let Err((file, e)) = check::check_rules(&located(false), &located(true)) {
        let text = sources.iter().find(|s| s.path == file).map_or("", |s| s.text.as_str());
        return Err(e.render(&file, text));
    }
    let tables: Vec<tables::RuleSource> = files
        .iter()
        .map(|(f, s)| tables::RuleSource {
            file: &s.path,
            include_from: &s.include_from,
            rules: &f.rules,
            canonical: s.canonical,
        })
        .collect();
    Ok(tables::generate(&tables))
}

/// Parses and checks rule files without generating code (`tcc-rulegen check`).
pub fn check_sources(sources: &[Source]) -> Result<usize, String> {
    compile(sources)?;
    let mut n = 0;
    for s in sources {
        n += parse::parse_file(&s.path, &s.text).map_err(|e| e.render(&s.path, &s.text))?.rules.len();
    }
    Ok(n)
}
