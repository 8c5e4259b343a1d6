//! The rule language: graph rewrites as data. A rule file holds S-expression rules
//! (`(rule NAME SOURCE => TARGET (if GUARD...) (by PROVENANCE))`, see [`ast`]); this
//! crate parses them with located errors ([`parse`]), rejects duplicate and shadowed
//! rules ([`check`]) and turns them into Rust matchers ([`codegen`]) from a dialect's
//! build script ([`compile`]), or includes them as text for the dialect to interpret.
//! It depends on nothing, so build scripts stay cheap.

pub mod ast;
pub mod builtins;
pub mod check;
pub mod codegen;
pub mod parse;
pub mod sexpr;

pub use ast::{Expr, Pattern, Provenance, Rule, RuleFile};
pub use sexpr::{Pos, RuleError};

/// One rule file to compile.
pub struct Source {
    /// The path shown in messages and recorded in the generated table.
    pub path: String,
    pub text: String,
    /// Whether its rules are canonicalization rules (always applied, first match wins)
    /// rather than rules only the cost-based search applies.
    pub canonical: bool,
    /// Interpret the file's rules at run time, including the text from this absolute
    /// path, rather than compile them (for the generated rules: thousands of matchers
    /// would take minutes to compile).
    pub interpret_from: Option<String>,
}

/// Parses, checks and compiles `sources` into Rust; errors are rendered with the
/// file, line, column and source line.
pub fn compile(sources: &[Source]) -> Result<String, String> {
    let mut files = Vec::new();
    for s in sources {
        let f = parse::parse_file(&s.path, &s.text).map_err(|e| e.render(&s.path, &s.text))?;
        files.push((f, s));
    }
    // Canonicalization rules first, in file order: the order the driver tries them in.
    let mut ordered: Vec<codegen::RuleInput> = Vec::new();
    for canonical in [true, false] {
        for (f, s) in &files {
            if s.canonical == canonical && s.interpret_from.is_none() {
                ordered.extend(f.rules.iter().map(|rule| codegen::RuleInput { file: &s.path, rule, canonical }));
            }
        }
    }
    let interpreted: Vec<codegen::Interpreted> = files
        .iter()
        .filter_map(|(f, s)| {
            let include_from = s.interpret_from.as_deref()?;
            Some(codegen::Interpreted { file: &s.path, include_from, rules: &f.rules })
        })
        .collect();
    if let Some((_, s)) = files.iter().find(|(_, s)| s.canonical && s.interpret_from.is_some()) {
        return Err(format!("{}: error: canonicalization rules are compiled, not interpreted", s.path));
    }
    let all: Vec<check::Located> = ordered
        .iter()
        .map(|r| check::Located { file: r.file, rule: r.rule })
        .chain(interpreted.iter().flat_map(|f| f.rules.iter().map(|rule| check::Located { file: f.file, rule })))
        .collect();
    let canon: Vec<check::Located> =
        ordered.iter().filter(|r| r.canonical).map(|r| check::Located { file: r.file, rule: r.rule }).collect();
    if let Err((file, e)) = check::check_rules(&all, &canon) {
        let text = sources.iter().find(|s| s.path == file).map_or("", |s| s.text.as_str());
        return Err(e.render(&file, text));
    }
    Ok(codegen::generate(&ordered, &interpreted))
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
