//! Parsing of the file-level resource section,
//! `{-# dialect_resources: { builtin: { name: "0x<alignment><data>" } } #-}`.
//!
//! Blobs are decoded from hex once, straight into aligned storage, and shared by every
//! `dense_resource<name>` that names them. The section comes last in a file, after
//! its uses, so each use is recorded and checked against its blob's size at the end.

use crate::dense::{AlignedBytes, Resource};
use crate::diagnostics::Diagnostic;
use crate::lexer::{TokenKind, unescape};
use crate::parser::Parser;

type PResult<T> = Result<T, Diagnostic>;

impl Parser<'_> {
    /// `{-# dialect_resources: { builtin: { name: "0x..", .. } } #-}`
    pub(crate) fn parse_file_metadata(&mut self) -> PResult<()> {
        self.expect(TokenKind::FileMetadataBegin, "")?;
        loop {
            if self.kind() == TokenKind::FileMetadataEnd {
                break;
            }
            let section_loc = self.loc();
            let section = self.expect(TokenKind::BareIdent, "(resource section name)")?;
            let section = self.lexer().slice(section.start, section.end);
            self.expect(TokenKind::Colon, "after resource section name")?;
            if section != "dialect_resources" {
                return Err(Diagnostic::error(section_loc, format!("unsupported resource section '{section}'")));
            }
            self.expect(TokenKind::LBrace, "to start dialect resources")?;
            while self.kind() != TokenKind::RBrace {
                let dialect_loc = self.loc();
                let dialect = self.expect(TokenKind::BareIdent, "(dialect name)")?;
                let dialect = self.lexer().slice(dialect.start, dialect.end);
                if dialect != "builtin" {
                    return Err(Diagnostic::error(
                        dialect_loc,
                        format!("resources of dialect '{dialect}' are not supported"),
                    ));
                }
                self.expect(TokenKind::Colon, "after dialect name")?;
                self.expect(TokenKind::LBrace, "to start the dialect's resources")?;
                while self.kind() != TokenKind::RBrace {
                    self.parse_resource_entry()?;
                    if !self.consume_if(TokenKind::Comma)? {
                        break;
                    }
                }
                self.expect(TokenKind::RBrace, "to end the dialect's resources")?;
                if !self.consume_if(TokenKind::Comma)? {
                    break;
                }
            }
            self.expect(TokenKind::RBrace, "to end dialect resources")?;
            if !self.consume_if(TokenKind::Comma)? {
                break;
            }
        }
        self.expect(TokenKind::FileMetadataEnd, "to end the file metadata")?;
        Ok(())
    }

    fn parse_resource_entry(&mut self) -> PResult<()> {
        let loc = self.loc();
        let name = match self.kind() {
            TokenKind::BareIdent => self.text().to_string(),
            TokenKind::String => unescape(self.text()).map_err(|m| Diagnostic::error(loc.clone(), m))?,
            _ => return self.error(format!("expected resource name, found {}", self.describe_current())),
        };
        self.advance()?;
        self.expect(TokenKind::Colon, "after resource name")?;
        let blob_loc = self.loc();
        let blob = self.expect(TokenKind::String, "(hex blob)")?;
        let hex = self.lexer().slice(blob.start, blob.end);
        let Some(hex) = hex.strip_prefix("0x") else {
            return Err(Diagnostic::error(blob_loc, "resource blob must be a hex string starting with \"0x\""));
        };
        if hex.len() < 8 {
            return Err(Diagnostic::error(blob_loc, "resource blob is shorter than its 4-byte alignment header"));
        }
        if !hex.is_char_boundary(8) {
            return Err(Diagnostic::error(blob_loc, "invalid hex digit in resource blob"));
        }
        let header = crate::lexer::decode_hex(&hex[..8]).map_err(|m| Diagnostic::error(blob_loc.clone(), m))?;
        let alignment = u32::from_le_bytes([header[0], header[1], header[2], header[3]]);
        if !alignment.is_power_of_two() {
            return Err(Diagnostic::error(blob_loc, format!("resource alignment {alignment} is not a power of two")));
        }
        let data = decode_hex_aligned(&hex[8..]).map_err(|m| Diagnostic::error(blob_loc.clone(), m))?;
        let resource = self.resources.entry(name.clone()).or_insert_with(|| Resource::new(&name)).clone();
        if !resource.fill(alignment, data) {
            return Err(Diagnostic::error(loc, format!("duplicate resource '{name}'")));
        }
        Ok(())
    }

    pub(crate) fn check_resources(&self) -> PResult<()> {
        for (loc, res, ty) in &self.resource_uses {
            if !res.is_filled() {
                return Err(Diagnostic::error(
                    loc.clone(),
                    format!("resource '{}' is not defined in the file's dialect_resources section", res.name()),
                ));
            }
            let want = ty.numel() * ty.elem().byte_size();
            if res.bytes().len() != want {
                return Err(Diagnostic::error(
                    loc.clone(),
                    format!("resource '{}' holds {} bytes but {ty} needs {want}", res.name(), res.bytes().len()),
                ));
            }
        }
        Ok(())
    }
}

/// Decodes hex digits straight into aligned storage (one copy of the data).
pub fn decode_hex_aligned(hex: &str) -> Result<AlignedBytes, String> {
    let b = hex.as_bytes();
    if !b.len().is_multiple_of(2) {
        return Err("hex data has an odd number of digits".into());
    }
    let mut out = AlignedBytes::zeroed(b.len() / 2);
    let dst = out.as_mut_slice();
    const fn table() -> [u8; 256] {
        let mut t = [0xffu8; 256];
        let mut i = 0;
        while i < 10 {
            t[b'0' as usize + i] = i as u8;
            i += 1;
        }
        let mut i = 0;
        while i < 6 {
            t[b'a' as usize + i] = 10 + i as u8;
            t[b'A' as usize + i] = 10 + i as u8;
            i += 1;
        }
        t
    }
    static TABLE: [u8; 256] = table();
    for (d, pair) in dst.iter_mut().zip(b.chunks_exact(2)) {
        let (h, l) = (TABLE[pair[0] as usize], TABLE[pair[1] as usize]);
        if (h | l) == 0xff {
            return Err("invalid hex digit in data".into());
        }
        *d = h << 4 | l;
    }
    Ok(out)
}
