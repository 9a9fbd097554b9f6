//! Double-quoted strings: which characters are escaped and how, and how a
//! string with line feeds is folded over several lines.

use super::indent::indent;
use super::unicode::{is_print, is_print_utf8_2, is_print_utf8_3};
use crate::scan::{Piece, Text};
use crate::swar;
use core::fmt::{Result, Write};

/// How a string is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// One line; line feed and tab escaped (compact form, and all keys).
    Escaped,
    /// One line, tab written as itself (regular form, no line feed).
    Line,
    /// Folded, one input line per output line, at this indent level.
    Folded(usize),
}

/// Writes `text` as a double-quoted string. Inlined for printable ASCII
/// without escapes, which goes between the quotes as it is.
#[inline(always)]
pub(crate) fn write_string<W: Write + ?Sized>(
    out: &mut W,
    text: &Text<'_>,
    layout: Layout,
) -> Result {
    if let Some(printable) = text.as_printable() {
        out.write_str("\"")?;
        out.write_str(printable)?;
        return out.write_str("\"");
    }
    write_other_string(out, text, layout)
}

/// [`write_string`] for text with escapes or other characters.
#[inline(never)]
fn write_other_string<W: Write + ?Sized>(out: &mut W, text: &Text<'_>, layout: Layout) -> Result {
    let Layout::Folded(level) = layout else {
        out.write_str("\"")?;
        if let Some(plain) = text.as_plain() {
            // No escapes to look for (non-ASCII text, say): one run.
            write_run(out, plain)?;
            return out.write_str("\"");
        }
        for piece in text.pieces() {
            match piece {
                Piece::Run(run) => write_run(out, run)?,
                Piece::Char(c) => write_char(out, c, layout)?,
            }
        }
        return out.write_str("\"");
    };
    let mut fold = Fold {
        level,
        line_start: true,
    };
    out.write_str("\"\\\n")?;
    for piece in text.pieces() {
        match piece {
            Piece::Run(run) => {
                fold.begin_line(out, run.starts_with(' '))?;
                write_run(out, run)?;
            }
            Piece::Char('\n') => {
                fold.begin_line(out, false)?;
                out.write_str("\\n\\\n")?;
                fold.line_start = true;
            }
            Piece::Char(c) => {
                fold.begin_line(out, matches!(c, ' ' | '\t'))?;
                write_char(out, c, layout)?;
            }
        }
    }
    if !fold.line_start {
        out.write_str("\\\n")?;
    }
    indent(out, level)?;
    out.write_str("\"")
}

/// Where a folded string is: its indent level, and whether its current
/// output line is still empty.
struct Fold {
    level: usize,
    line_start: bool,
}

impl Fold {
    /// Starts the output line if nothing is on it yet: the indent, then the
    /// marker, which is `\` when the line begins with a literal space or tab
    /// (YAML would drop it otherwise), else a space that YAML drops.
    fn begin_line<W: Write + ?Sized>(&mut self, out: &mut W, white: bool) -> Result {
        if self.line_start {
            self.line_start = false;
            indent(out, self.level)?;
            out.write_str(if white { "\\" } else { " " })?;
        }
        Ok(())
    }
}

/// Writes a run of decoded characters (no `\\`, `"` or C0 control characters,
/// as [`Piece::Run`] promises), escaping DEL and non-printable characters.
/// Printable ASCII goes a word at a time, printable two- and three-byte
/// characters (Cyrillic or CJK text, say) are checked from their bytes in a
/// tight loop, and the few others are decoded one by one.
fn write_run<W: Write + ?Sized>(out: &mut W, run: &str) -> Result {
    let bytes = run.as_bytes();
    let (mut clean, mut i) = (0, 0);
    while i < bytes.len() {
        i = swar::not_printable_ascii(bytes, i);
        while let Some(&[lead, mid, last]) = bytes.get(i..i + 3) {
            if lead & 0xF0 != 0xE0 || !is_print_utf8_3([lead, mid, last]) {
                break;
            }
            i += 3;
        }
        while let Some(&[lead, last]) = bytes.get(i..i + 2) {
            if lead & 0xE0 != 0xC0 || !is_print_utf8_2([lead, last]) {
                break;
            }
            i += 2;
        }
        if let Some((c, len)) = wide_char(bytes, i) {
            if c == '\u{7f}' || !is_print(c) {
                out.write_str(&run[clean..i])?;
                write_escape(out, c)?;
                clean = i + len;
            }
            i += len;
        }
    }
    out.write_str(&run[clean..])
}

/// The character at `i` of valid UTF-8 and its length, unless it is
/// printable ASCII or `i` is the end.
#[inline(always)]
fn wide_char(s: &[u8], i: usize) -> Option<(char, usize)> {
    let lead = u32::from(*s.get(i)?);
    let next = |k: usize| u32::from(s.get(i + k).copied().unwrap_or(0x80) & 0x3F);
    let (code, len) = match lead {
        0..=0x7E => return None,
        0x7F => (lead, 1),
        0x80..=0xDF => ((lead & 0x1F) << 6 | next(1), 2),
        0xE0..=0xEF => ((lead & 0x0F) << 12 | next(1) << 6 | next(2), 3),
        _ => (
            (lead & 0x07) << 18 | next(1) << 12 | next(2) << 6 | next(3),
            4,
        ),
    };
    Some((char::from_u32(code).unwrap_or('\u{FFFD}'), len))
}

/// Writes one character that came from an escape in the input.
fn write_char<W: Write + ?Sized>(out: &mut W, c: char, layout: Layout) -> Result {
    match c {
        '\t' if layout != Layout::Escaped => out.write_char('\t'),
        c if c != '"' && c != '\\' && is_print(c) => out.write_char(c),
        c => write_escape(out, c),
    }
}

/// Writes the YAML escape for a character that cannot appear as itself.
pub(crate) fn write_escape<W: Write + ?Sized>(out: &mut W, c: char) -> Result {
    let named = match c {
        '"' => "\\\"",
        '\\' => "\\\\",
        '\0' => "\\0",
        '\u{7}' => "\\a",
        '\u{8}' => "\\b",
        '\t' => "\\t",
        '\n' => "\\n",
        '\u{b}' => "\\v",
        '\u{c}' => "\\f",
        '\r' => "\\r",
        '\u{1b}' => "\\e",
        '\u{85}' => "\\N",
        '\u{a0}' => "\\_",
        '\u{2028}' => "\\L",
        '\u{2029}' => "\\P",
        c => return write_hex(out, c),
    };
    out.write_str(named)
}

/// `\xHH` below U+0080, `\uHHHH` below U+10000, else `\UHHHHHHHH`.
fn write_hex<W: Write + ?Sized>(out: &mut W, c: char) -> Result {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let code = u32::from(c);
    let (prefix, digits) = match code {
        0..=0x7F => (b'x', 2),
        0x80..=0xFFFF => (b'u', 4),
        _ => (b'U', 8),
    };
    let mut buf = [b'\\', prefix, 0, 0, 0, 0, 0, 0, 0, 0];
    for (i, slot) in buf[2..2 + digits].iter_mut().enumerate() {
        *slot = HEX[(code >> (4 * (digits - 1 - i)) & 0xF) as usize];
    }
    // All bytes are ASCII.
    out.write_str(core::str::from_utf8(&buf[..2 + digits]).unwrap_or("\\ufffd"))
}

/// Writes text that is not JSON-escaped as a one-line double-quoted string;
/// each invalid UTF-8 sequence in it becomes U+FFFD.
pub(crate) fn write_plain<W: Write + ?Sized>(out: &mut W, text: &[u8]) -> Result {
    out.write_str("\"")?;
    for chunk in text.utf8_chunks() {
        let lost = (!chunk.invalid().is_empty()).then_some(char::REPLACEMENT_CHARACTER);
        chunk
            .valid()
            .chars()
            .chain(lost)
            .try_for_each(|c| write_char(out, c, Layout::Escaped))?;
    }
    out.write_str("\"")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String;

    /// What `write_run` must write, one character at a time.
    fn reference(run: &str) -> String {
        let mut out = String::new();
        for c in run.chars() {
            if c != '\u{7f}' && is_print(c) {
                out.push(c);
            } else {
                write_escape(&mut out, c).unwrap();
            }
        }
        out
    }

    #[test]
    fn runs_decode_every_character_length() {
        // Every 7th code point and the escaped ones, alone, between ASCII,
        // in pairs and after a full word of ASCII.
        let special = [
            '\u{7f}', '\u{85}', '\u{a0}', '\u{ad}', '\u{2028}', '\u{feff}',
        ];
        let sampled = (0x7Fu32..=0x10FFFF).step_by(7).filter_map(char::from_u32);
        for c in sampled.chain(special) {
            for run in [
                std::format!("{c}"),
                std::format!("a{c}b"),
                std::format!("{c}{c}é"),
                std::format!("abcdefgh{c}"),
            ] {
                let mut out = String::new();
                write_run(&mut out, &run).unwrap();
                assert_eq!(out, reference(&run), "{:?}", c);
            }
        }
    }
}
