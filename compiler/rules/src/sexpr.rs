//! S-expressions with source positions: the concrete syntax of rule files.
//!
//! A rule file is a sequence of S-expressions. Atoms are symbols (`transpose`, `=>`,
//! `same-type`), pattern variables (`?x`), keywords (`:perm`), integers, floats and
//! strings; `( ... )` is a list and `[ ... ]` a list literal (in expressions). `;`
//! starts a comment to the end of the line. Every node remembers where it starts, so
//! that every later error can point at its cause.

use std::fmt;

/// A position in a rule file (1-based line and column, in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// An error at a position of a rule file.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleError {
    pub pos: Pos,
    pub message: String,
}

impl RuleError {
    pub fn new(pos: Pos, message: impl Into<String>) -> RuleError {
        RuleError { pos, message: message.into() }
    }

    /// `file:line:col: error: message`, then the source line and a caret under the column.
    pub fn render(&self, file: &str, source: &str) -> String {
        let mut out = format!("{file}:{}: error: {}", self.pos, self.message);
        if let Some(line) = source.lines().nth(self.pos.line.saturating_sub(1) as usize) {
            let caret = " ".repeat(self.pos.col.saturating_sub(1) as usize);
            out.push_str(&format!("\n{line}\n{caret}^"));
        }
        out
    }
}

/// One S-expression node.
#[derive(Clone, Debug, PartialEq)]
pub enum Sexp {
    /// A bare symbol: `transpose`, `=>`, `rule`.
    Symbol(String, Pos),
    /// `?name`: a pattern variable (the name without `?`).
    Var(String, Pos),
    /// `:name`: an attribute keyword (the name without `:`).
    Keyword(String, Pos),
    Int(i64, Pos),
    Float(f64, Pos),
    Str(String, Pos),
    /// `( ... )`.
    List(Vec<Sexp>, Pos),
    /// `[ ... ]`.
    Bracket(Vec<Sexp>, Pos),
}

impl Sexp {
    pub fn pos(&self) -> Pos {
        match self {
            Sexp::Symbol(_, p)
            | Sexp::Var(_, p)
            | Sexp::Keyword(_, p)
            | Sexp::Int(_, p)
            | Sexp::Float(_, p)
            | Sexp::Str(_, p)
            | Sexp::List(_, p)
            | Sexp::Bracket(_, p) => *p,
        }
    }

    /// The symbol's text, if this is a symbol.
    pub fn symbol(&self) -> Option<&str> {
        match self {
            Sexp::Symbol(s, _) => Some(s),
            _ => None,
        }
    }

    /// What this node is, for error messages.
    pub fn describe(&self) -> String {
        match self {
            Sexp::Symbol(s, _) => format!("`{s}`"),
            Sexp::Var(s, _) => format!("`?{s}`"),
            Sexp::Keyword(s, _) => format!("`:{s}`"),
            Sexp::Int(v, _) => format!("`{v}`"),
            Sexp::Float(v, _) => format!("`{v}`"),
            Sexp::Str(s, _) => format!("{s:?}"),
            Sexp::List(..) => "a list".into(),
            Sexp::Bracket(..) => "a `[...]` list".into(),
        }
    }
}

fn is_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_-+*/.<>=!&|%".contains(c)
}

struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    pos: Pos,
}

impl Reader<'_> {
    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.pos.line += 1;
            self.pos.col = 1;
        } else {
            self.pos.col += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while let Some(&c) = self.chars.peek() {
            if c == ';' {
                while self.chars.peek().is_some_and(|&c| c != '\n') {
                    self.bump();
                }
            } else if c.is_whitespace() {
                self.bump();
            } else {
                break;
            }
        }
    }

    fn word(&mut self) -> String {
        let mut s = String::new();
        while let Some(&c) = self.chars.peek() {
            if !is_symbol_char(c) {
                break;
            }
            s.push(c);
            self.bump();
        }
        s
    }

    /// Reads one node; `None` at the end of the input.
    fn node(&mut self) -> Result<Option<Sexp>, RuleError> {
        self.skip_space();
        let start = self.pos;
        let Some(&c) = self.chars.peek() else { return Ok(None) };
        match c {
            '(' | '[' => {
                self.bump();
                let close = if c == '(' { ')' } else { ']' };
                let mut items = Vec::new();
                loop {
                    self.skip_space();
                    match self.chars.peek() {
                        None => return Err(RuleError::new(start, format!("unclosed `{c}`: expected `{close}`"))),
                        Some(&d) if d == close => {
                            self.bump();
                            break;
                        }
                        Some(&d) if d == ')' || d == ']' => {
                            return Err(RuleError::new(self.pos, format!("`{d}` closes `{c}`: expected `{close}`")));
                        }
                        Some(_) => items.push(self.node()?.expect("not at the end")),
                    }
                }
                Ok(Some(if c == '(' { Sexp::List(items, start) } else { Sexp::Bracket(items, start) }))
            }
            ')' | ']' => Err(RuleError::new(start, format!("unexpected `{c}`"))),
            '"' => {
                self.bump();
                let mut s = String::new();
                loop {
                    match self.bump() {
                        None | Some('\n') => return Err(RuleError::new(start, "unterminated string")),
                        Some('"') => break,
                        Some('\\') => match self.bump() {
                            Some(e @ ('"' | '\\')) => s.push(e),
                            Some('n') => s.push('\n'),
                            _ => return Err(RuleError::new(self.pos, "unknown escape in string")),
                        },
                        Some(ch) => s.push(ch),
                    }
                }
                Ok(Some(Sexp::Str(s, start)))
            }
            '?' | ':' => {
                self.bump();
                let name = self.word();
                if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                    let what = if c == '?' { "a variable" } else { "a keyword" };
                    return Err(RuleError::new(start, format!("expected a name after `{c}` ({what})")));
                }
                Ok(Some(if c == '?' { Sexp::Var(name, start) } else { Sexp::Keyword(name, start) }))
            }
            c if is_symbol_char(c) => {
                let w = self.word();
                let numeric = w.starts_with(|c: char| c.is_ascii_digit())
                    || (w.len() > 1 && w.starts_with('-') && w[1..].starts_with(|c: char| c.is_ascii_digit()));
                if !numeric {
                    return Ok(Some(Sexp::Symbol(w, start)));
                }
                if let Ok(v) = w.parse::<i64>() {
                    return Ok(Some(Sexp::Int(v, start)));
                }
                match w.parse::<f64>() {
                    Ok(v) => Ok(Some(Sexp::Float(v, start))),
                    Err(_) => Err(RuleError::new(start, format!("malformed number `{w}`"))),
                }
            }
            other => Err(RuleError::new(start, format!("unexpected character `{other}`"))),
        }
    }
}

/// Reads every top-level S-expression of `source`.
pub fn read_all(source: &str) -> Result<Vec<Sexp>, RuleError> {
    let mut r = Reader { chars: source.chars().peekable(), pos: Pos { line: 1, col: 1 } };
    let mut out = Vec::new();
    while let Some(n) = r.node()? {
        out.push(n);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_atoms_lists_and_positions() {
        let s = read_all("; c\n(rule a-b ?x :perm [1 -2] 2.5 \"s\\\"\")").unwrap();
        assert_eq!(s.len(), 1);
        let Sexp::List(items, p) = &s[0] else { panic!() };
        assert_eq!(*p, Pos { line: 2, col: 1 });
        assert_eq!(items[1], Sexp::Symbol("a-b".into(), Pos { line: 2, col: 7 }));
        assert_eq!(items[2], Sexp::Var("x".into(), Pos { line: 2, col: 11 }));
        assert_eq!(items[3], Sexp::Keyword("perm".into(), Pos { line: 2, col: 14 }));
        let Sexp::Bracket(l, _) = &items[4] else { panic!() };
        assert_eq!(l[1], Sexp::Int(-2, Pos { line: 2, col: 23 }));
        assert_eq!(items[5], Sexp::Float(2.5, Pos { line: 2, col: 27 }));
        assert_eq!(items[6], Sexp::Str("s\"".into(), Pos { line: 2, col: 31 }));
    }

    #[test]
    fn errors_point_at_their_cause() {
        assert_eq!(read_all("(a\n (b)").unwrap_err().pos, Pos { line: 1, col: 1 });
        assert_eq!(read_all("(a ]").unwrap_err().pos, Pos { line: 1, col: 4 });
        assert_eq!(read_all("  )").unwrap_err().pos, Pos { line: 1, col: 3 });
        assert_eq!(read_all("(a \"x\n\")").unwrap_err().pos, Pos { line: 1, col: 4 });
        assert_eq!(read_all("(? x)").unwrap_err().pos, Pos { line: 1, col: 2 });
        assert_eq!(read_all("(1.2.3)").unwrap_err().pos, Pos { line: 1, col: 2 });
        assert_eq!(read_all("(a $)").unwrap_err().pos, Pos { line: 1, col: 4 });
        let e = read_all("(a ]").unwrap_err().render("f.rules", "(a ]");
        assert_eq!(e, "f.rules:1:4: error: `]` closes `(`: expected `)`\n(a ]\n   ^");
    }
}
