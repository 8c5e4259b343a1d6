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

/// Decodes hex digits straight into aligned storage (one copy of the data); large
/// blobs are decoded in parallel, one piece per core.
pub fn decode_hex_aligned(hex: &str) -> Result<AlignedBytes, String> {
    let b = hex.as_bytes();
    if !b.len().is_multiple_of(2) {
        return Err("hex data has an odd number of digits".into());
    }
    let mut out = AlignedBytes::try_zeroed(b.len() / 2)?;
    let dst = out.as_mut_slice();
    const PARALLEL_FROM_BYTES: usize = 1 << 22;
    let pieces = if dst.len() < PARALLEL_FROM_BYTES {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get()).min(8)
    };
    let per_piece = dst.len().div_ceil(pieces).max(1);
    let (first, rest) = dst.split_at_mut(per_piece.min(dst.len()));
    let (first_hex, rest_hex) = b.split_at(2 * first.len());
    let all_valid = std::thread::scope(|scope| {
        let workers: Vec<_> = rest
            .chunks_mut(per_piece)
            .zip(rest_hex.chunks(2 * per_piece))
            .map(|(d, h)| scope.spawn(move || decode_hex_into(h, d)))
            .collect();
        let first_valid = decode_hex_into(first_hex, first);
        workers.into_iter().fold(first_valid, |ok, w| ok & w.join().unwrap_or(false))
    });
    if !all_valid {
        return Err("invalid hex digit in data".into());
    }
    Ok(out)
}

/// The value of one hex digit and whether it is one, without branches (so the loop
/// over a block vectorizes).
#[inline(always)]
fn hex_digit(c: u8) -> (u8, bool) {
    let digit = c.wrapping_sub(b'0');
    let letter = (c | 0x20).wrapping_sub(b'a');
    let is_digit = digit < 10;
    (if is_digit { digit } else { letter.wrapping_add(10) }, is_digit | (letter < 6))
}

/// Decodes `hex` (twice as long as `dst`) into `dst`; false if a digit is invalid.
fn decode_hex_into(hex: &[u8], dst: &mut [u8]) -> bool {
    let mut valid = true;
    let mut blocks = dst.chunks_exact_mut(16);
    let mut digits = hex.chunks_exact(32);
    for (d, h) in (&mut blocks).zip(&mut digits) {
        let h: &[u8; 32] = h.try_into().expect("32 digits");
        for k in 0..16 {
            let ((hi, hi_ok), (lo, lo_ok)) = (hex_digit(h[2 * k]), hex_digit(h[2 * k + 1]));
            d[k] = hi << 4 | lo;
            valid &= hi_ok & lo_ok;
        }
    }
    for (d, h) in blocks.into_remainder().iter_mut().zip(digits.remainder().chunks_exact(2)) {
        let ((hi, hi_ok), (lo, lo_ok)) = (hex_digit(h[0]), hex_digit(h[1]));
        *d = hi << 4 | lo;
        valid &= hi_ok & lo_ok;
    }
    valid
}

#[cfg(test)]
mod tests {
    use super::decode_hex_aligned;

    /// Hex of `bytes` with letters in the case `upper` asks for.
    fn hex(bytes: &[u8], upper: bool) -> String {
        bytes.iter().map(|b| if upper { format!("{b:02X}") } else { format!("{b:02x}") }).collect()
    }

    #[test]
    fn decodes_every_byte_in_both_cases_at_every_length() {
        let all: Vec<u8> = (0..=255u8).chain((0..=255u8).rev()).collect();
        for n in [0, 1, 15, 16, 17, 31, 32, 33, 100, all.len()] {
            for upper in [false, true] {
                let text = hex(&all[..n], upper);
                assert_eq!(decode_hex_aligned(&text).unwrap().as_slice(), &all[..n], "{n} bytes, upper {upper}");
            }
        }
    }

    #[test]
    fn large_blobs_decode_in_pieces_and_find_a_bad_digit_in_any_piece() {
        // Larger than the parallel threshold, with a length that does not split evenly.
        let bytes: Vec<u8> = (0..(5 << 20) + 7).map(|i: usize| (i.wrapping_mul(2_654_435_761) >> 7) as u8).collect();
        let mut text = hex(&bytes, false);
        assert_eq!(decode_hex_aligned(&text).unwrap().as_slice(), &bytes[..]);
        for at in [0, text.len() / 2 + 1, text.len() - 1] {
            let saved = text.as_bytes()[at];
            text.replace_range(at..at + 1, "g");
            assert!(decode_hex_aligned(&text).is_err(), "bad digit at {at} not found");
            text.replace_range(at..at + 1, std::str::from_utf8(&[saved]).unwrap());
        }
    }

    #[test]
    fn rejects_non_digits_and_odd_lengths() {
        for bad in ["0g", "g0", "zz", "0 ", ":0", "@0", "`0", "/0", "0G", "abc"] {
            let long = format!("{}{bad}", "00".repeat(40));
            assert!(decode_hex_aligned(bad).is_err(), "{bad:?} accepted");
            assert!(decode_hex_aligned(&long).is_err(), "{long:?} accepted");
        }
    }
}
