//! The MLIR lexer: bytes to tokens, tracking line and column.
//!
//! Tokens refer to their text by byte span, so a 100 MB hex string is never copied by
//! lexing. Shapes (`1x3x32xf32`) are not tokenized here: MLIR's dimension lists clash
//! with identifiers, so the parser reads them with [`Lexer::lex_dimension`].

use crate::diagnostics::Location;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Eof,
    /// `foo`, `func.func`, `f32`, `tensor`
    BareIdent,
    /// `%foo` (span covers the name without `%`)
    PercentIdent,
    /// `^bb0`
    CaretIdent,
    /// `@main` or `@"quoted"`
    AtIdent,
    /// `#foo`
    HashIdent,
    /// `!foo`
    BangIdent,
    /// Decimal or `0x` hex integer.
    Integer,
    Float,
    /// `"..."` (span covers the body without quotes, still escaped)
    String,
    LParen,
    RParen,
    LSquare,
    RSquare,
    LBrace,
    RBrace,
    Less,
    Greater,
    Comma,
    Colon,
    Equal,
    Arrow,
    Minus,
    Plus,
    Question,
    Star,
    /// `{-#`
    FileMetadataBegin,
    /// `#-}`
    FileMetadataEnd,
}

impl TokenKind {
    pub fn describe(self) -> &'static str {
        match self {
            TokenKind::Eof => "end of file",
            TokenKind::BareIdent => "identifier",
            TokenKind::PercentIdent => "SSA value",
            TokenKind::CaretIdent => "block label",
            TokenKind::AtIdent => "symbol",
            TokenKind::HashIdent => "attribute alias",
            TokenKind::BangIdent => "type alias",
            TokenKind::Integer => "integer",
            TokenKind::Float => "float",
            TokenKind::String => "string",
            TokenKind::LParen => "'('",
            TokenKind::RParen => "')'",
            TokenKind::LSquare => "'['",
            TokenKind::RSquare => "']'",
            TokenKind::LBrace => "'{'",
            TokenKind::RBrace => "'}'",
            TokenKind::Less => "'<'",
            TokenKind::Greater => "'>'",
            TokenKind::Comma => "','",
            TokenKind::Colon => "':'",
            TokenKind::Equal => "'='",
            TokenKind::Arrow => "'->'",
            TokenKind::Minus => "'-'",
            TokenKind::Plus => "'+'",
            TokenKind::Question => "'?'",
            TokenKind::Star => "'*'",
            TokenKind::FileMetadataBegin => "'{-#'",
            TokenKind::FileMetadataEnd => "'#-}'",
        }
    }
}

#[derive(Copy, Clone, Debug)]
pub struct Token {
    pub kind: TokenKind,
    /// Byte span of the token's text (for identifiers and strings, without sigil/quotes).
    pub start: usize,
    pub end: usize,
    pub line: u32,
    pub col: u32,
}

/// An error message at a line and column.
pub struct LexError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

pub struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    line: u32,
    /// Byte offset of the current line's start.
    line_start: usize,
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.')
}

/// Characters allowed after a sigil (`%`, `^`, `#`, `!`, `@`): MLIR also allows `-`.
fn is_suffix_char(b: u8) -> bool {
    is_ident_char(b) || b == b'-'
}

impl<'a> Lexer<'a> {
    pub fn new(text: &'a str, first_line: u32) -> Lexer<'a> {
        Lexer { text, bytes: text.as_bytes(), pos: 0, line: first_line, line_start: 0 }
    }

    pub fn text(&self) -> &'a str {
        self.text
    }

    pub fn slice(&self, start: usize, end: usize) -> &'a str {
        &self.text[start..end]
    }

    /// Byte offset of the next unread character.
    pub fn pos(&self) -> usize {
        self.pos
    }

    fn col_at(&self, pos: usize) -> u32 {
        (pos.saturating_sub(self.line_start) + 1) as u32
    }

    fn error(&self, pos: usize, message: impl Into<String>) -> LexError {
        LexError { line: self.line, col: self.col_at(pos), message: message.into() }
    }

    fn peek_byte(&self, offset: usize) -> u8 {
        self.bytes.get(self.pos + offset).copied().unwrap_or(0)
    }

    fn skip_trivia(&mut self) {
        while self.pos < self.bytes.len() {
            match self.bytes[self.pos] {
                b'\n' => {
                    self.pos += 1;
                    self.line += 1;
                    self.line_start = self.pos;
                }
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b'/' if self.peek_byte(1) == b'/' => {
                    while self.pos < self.bytes.len() && self.bytes[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
    }

    /// The next raw byte after trivia (0 at end of input).
    pub fn peek_char(&mut self) -> u8 {
        self.skip_trivia();
        self.peek_byte(0)
    }

    pub fn next_token(&mut self) -> Result<Token, LexError> {
        self.skip_trivia();
        let start = self.pos;
        let (line, col) = (self.line, self.col_at(start));
        let tok = |kind, s: usize, e: usize| Token { kind, start: s, end: e, line, col };
        let Some(&b) = self.bytes.get(self.pos) else {
            return Ok(tok(TokenKind::Eof, start, start));
        };
        let single = |lexer: &mut Self, kind| {
            lexer.pos += 1;
            Ok(tok(kind, start, start + 1))
        };
        match b {
            b'(' => single(self, TokenKind::LParen),
            b')' => single(self, TokenKind::RParen),
            b'[' => single(self, TokenKind::LSquare),
            b']' => single(self, TokenKind::RSquare),
            b'{' if self.peek_byte(1) == b'-' && self.peek_byte(2) == b'#' => {
                self.pos += 3;
                Ok(tok(TokenKind::FileMetadataBegin, start, self.pos))
            }
            b'{' => single(self, TokenKind::LBrace),
            b'}' => single(self, TokenKind::RBrace),
            b'<' => single(self, TokenKind::Less),
            b'>' => single(self, TokenKind::Greater),
            b',' => single(self, TokenKind::Comma),
            b':' => single(self, TokenKind::Colon),
            b'=' => single(self, TokenKind::Equal),
            b'?' => single(self, TokenKind::Question),
            b'*' => single(self, TokenKind::Star),
            b'+' => single(self, TokenKind::Plus),
            b'-' if self.peek_byte(1) == b'>' => {
                self.pos += 2;
                Ok(tok(TokenKind::Arrow, start, self.pos))
            }
            b'-' => single(self, TokenKind::Minus),
            b'#' if self.peek_byte(1) == b'-' && self.peek_byte(2) == b'}' => {
                self.pos += 3;
                Ok(tok(TokenKind::FileMetadataEnd, start, self.pos))
            }
            b'"' => {
                let (s, e) = self.lex_string_body()?;
                Ok(tok(TokenKind::String, s, e))
            }
            b'%' | b'^' | b'#' | b'!' => {
                let kind = match b {
                    b'%' => TokenKind::PercentIdent,
                    b'^' => TokenKind::CaretIdent,
                    b'#' => TokenKind::HashIdent,
                    _ => TokenKind::BangIdent,
                };
                self.pos += 1;
                let s = self.pos;
                while self.pos < self.bytes.len() && is_suffix_char(self.bytes[self.pos]) {
                    self.pos += 1;
                }
                if self.pos == s {
                    return Err(self.error(start, format!("expected an identifier after '{}'", b as char)));
                }
                Ok(tok(kind, s, self.pos))
            }
            b'@' => {
                self.pos += 1;
                if self.peek_byte(0) == b'"' {
                    let (s, e) = self.lex_string_body()?;
                    return Ok(tok(TokenKind::AtIdent, s, e));
                }
                let s = self.pos;
                while self.pos < self.bytes.len() && is_suffix_char(self.bytes[self.pos]) {
                    self.pos += 1;
                }
                if self.pos == s {
                    return Err(self.error(start, "expected a symbol name after '@'"));
                }
                Ok(tok(TokenKind::AtIdent, s, self.pos))
            }
            b'0'..=b'9' => self.lex_number(line, col),
            b if is_ident_start(b) => {
                while self.pos < self.bytes.len() && is_ident_char(self.bytes[self.pos]) {
                    self.pos += 1;
                }
                Ok(tok(TokenKind::BareIdent, start, self.pos))
            }
            _ => {
                let c = self.text[start..].chars().next().unwrap_or('?');
                Err(self.error(start, format!("unexpected character '{}'", c.escape_debug())))
            }
        }
    }

    /// Lexes `"..."` starting at the opening quote; returns the body span.
    /// Advances over string bytes that need no attention (not a quote, backslash or
    /// newline), 32 at a time: resource blobs are hundreds of megabytes of hex digits.
    fn skip_plain_string_bytes(&mut self) {
        let special = |b: u8| (b == b'"') | (b == b'\\') | (b == b'\n');
        while let Some(chunk) = self.bytes.get(self.pos..self.pos + 32) {
            let chunk: &[u8; 32] = chunk.try_into().expect("32 bytes");
            if chunk.iter().fold(0u8, |any, &b| any | special(b) as u8) != 0 {
                self.pos += chunk.iter().position(|&b| special(b)).expect("a special byte");
                return;
            }
            self.pos += 32;
        }
    }

    fn lex_string_body(&mut self) -> Result<(usize, usize), LexError> {
        let open = self.pos;
        self.pos += 1;
        let s = self.pos;
        loop {
            self.skip_plain_string_bytes();
            match self.bytes.get(self.pos) {
                None => return Err(self.error(open, "unterminated string literal")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok((s, self.pos - 1));
                }
                Some(b'\n') => return Err(self.error(open, "unterminated string literal (newline in string)")),
                Some(b'\\') => self.pos += 2,
                Some(_) => self.pos += 1,
            }
        }
    }

    fn lex_number(&mut self, line: u32, col: u32) -> Result<Token, LexError> {
        let start = self.pos;
        let tok = |kind, end| Token { kind, start, end, line, col };
        if self.peek_byte(0) == b'0' && self.peek_byte(1) == b'x' && self.peek_byte(2).is_ascii_hexdigit() {
            self.pos += 2;
            while self.peek_byte(0).is_ascii_hexdigit() {
                self.pos += 1;
            }
            return Ok(tok(TokenKind::Integer, self.pos));
        }
        while self.peek_byte(0).is_ascii_digit() {
            self.pos += 1;
        }
        if self.peek_byte(0) != b'.' {
            return Ok(tok(TokenKind::Integer, self.pos));
        }
        self.pos += 1;
        while self.peek_byte(0).is_ascii_digit() {
            self.pos += 1;
        }
        if matches!(self.peek_byte(0), b'e' | b'E') {
            let sign = matches!(self.peek_byte(1), b'+' | b'-') as usize;
            if self.peek_byte(1 + sign).is_ascii_digit() {
                self.pos += 1 + sign;
                while self.peek_byte(0).is_ascii_digit() {
                    self.pos += 1;
                }
            }
        }
        Ok(tok(TokenKind::Float, self.pos))
    }

    /// In a shape (`tensor<1x?x3xf32>`): lexes one dimension `N` or `?` followed by
    /// `x`, returning its text, or `None` (consuming nothing) if the next characters
    /// are not a dimension (the element type follows).
    pub fn lex_dimension(&mut self) -> Option<(&'a str, u32, u32)> {
        self.skip_trivia();
        let start = self.pos;
        let mut end = start;
        if self.bytes.get(end) == Some(&b'?') {
            end += 1;
        } else {
            while self.bytes.get(end).is_some_and(|b| b.is_ascii_digit()) {
                end += 1;
            }
        }
        if end == start || self.bytes.get(end) != Some(&b'x') {
            return None;
        }
        let col = self.col_at(start);
        self.pos = end + 1;
        Some((&self.text[start..end], self.line, col))
    }

    /// Lexes a balanced `<...>` or `(...)` body verbatim, starting at the opening
    /// bracket, for dialect types/attributes and locations the parser does not model.
    /// Returns the span including the brackets.
    pub fn lex_balanced(&mut self) -> Result<(usize, usize), LexError> {
        self.skip_trivia();
        let start = self.pos;
        // The scan may cross lines: locate its error where it began.
        let unbalanced = LexError { line: self.line, col: self.col_at(start), message: "unbalanced brackets".into() };
        let mut stack: Vec<u8> = Vec::new();
        loop {
            let Some(&b) = self.bytes.get(self.pos) else {
                return Err(unbalanced);
            };
            match b {
                b'<' | b'(' | b'[' | b'{' => {
                    if stack.len() >= 256 {
                        return Err(self.error(self.pos, "nesting too deep"));
                    }
                    stack.push(b)
                }
                b'>' if self.pos > 0 && self.bytes[self.pos - 1] == b'-' => {} // `->`
                b'>' | b')' | b']' | b'}' => {
                    let open = match b {
                        b'>' => b'<',
                        b')' => b'(',
                        b']' => b'[',
                        _ => b'{',
                    };
                    if stack.pop() != Some(open) {
                        return Err(self.error(self.pos, "mismatched bracket"));
                    }
                }
                b'"' => {
                    self.lex_string_body()?;
                    continue;
                }
                b'\n' => {
                    self.line += 1;
                    self.line_start = self.pos + 1;
                }
                _ => {}
            }
            self.pos += 1;
            if stack.is_empty() {
                return Ok((start, self.pos));
            }
        }
    }

    /// The location of a token in `file`.
    pub fn loc(file: &std::sync::Arc<crate::SourceFile>, tok: &Token) -> Location {
        Location::new(file.clone(), tok.line, tok.col)
    }
}

/// Resolves the escapes of a string literal body (`\"`, `\\`, `\n`, `\t`, `\HH`).
pub fn unescape(body: &str) -> Result<String, String> {
    if !body.contains('\\') {
        return Ok(body.to_string());
    }
    let bytes = body.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        match bytes.get(i + 1) {
            Some(b'"') => out.push(b'"'),
            Some(b'\\') => out.push(b'\\'),
            Some(b'n') => out.push(b'\n'),
            Some(b't') => out.push(b'\t'),
            Some(&h) if h.is_ascii_hexdigit() && bytes.get(i + 2).is_some_and(|c| c.is_ascii_hexdigit()) => {
                let hex = &body[i + 1..i + 3];
                out.push(u8::from_str_radix(hex, 16).map_err(|e| e.to_string())?);
                i += 1;
            }
            _ => return Err("invalid escape sequence in string".into()),
        }
        i += 2;
    }
    String::from_utf8(out).map_err(|_| "string literal is not valid UTF-8 after unescaping".into())
}

/// Decodes hex digits (no `0x`) into bytes.
pub fn decode_hex(hex: &str) -> Result<Vec<u8>, String> {
    let b = hex.as_bytes();
    if !b.len().is_multiple_of(2) {
        return Err("hex data has an odd number of digits".into());
    }
    fn val(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    }
    let mut out = Vec::with_capacity(b.len() / 2);
    for pair in b.chunks_exact(2) {
        match (val(pair[0]), val(pair[1])) {
            (Some(h), Some(l)) => out.push(h << 4 | l),
            _ => return Err("invalid hex digit".into()),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{Lexer, TokenKind};

    /// The body of the string literal at the start of `text`, or the lexer's error.
    fn string_body(text: &str) -> Result<String, String> {
        let mut lexer = Lexer::new(text, 1);
        let t = lexer.next_token().map_err(|e| e.message)?;
        assert_eq!(t.kind, TokenKind::String);
        Ok(lexer.slice(t.start, t.end).to_string())
    }

    #[test]
    fn strings_end_at_the_first_unescaped_quote_wherever_it_falls() {
        // Lengths around the 32-byte steps of the fast scan, with the quote, an escaped
        // quote and an escaped backslash at every position.
        for n in 0..100 {
            let plain = "a".repeat(n);
            assert_eq!(string_body(&format!("\"{plain}\" tail")).unwrap(), plain);
            let escaped = format!("{plain}\\\"{plain}");
            assert_eq!(string_body(&format!("\"{escaped}\"")).unwrap(), escaped);
            let backslash = format!("{plain}\\\\");
            assert_eq!(string_body(&format!("\"{backslash}\"x\"")).unwrap(), backslash);
        }
    }

    #[test]
    fn unterminated_strings_and_newlines_are_errors_at_any_length() {
        for n in [0, 5, 31, 32, 33, 64, 100] {
            let plain = "0".repeat(n);
            assert!(string_body(&format!("\"{plain}")).unwrap_err().contains("unterminated"));
            assert!(string_body(&format!("\"{plain}\n\"")).unwrap_err().contains("newline"));
        }
    }
}
