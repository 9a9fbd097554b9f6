//! The ANSI colour of a diff (`{:#}`, or `color(true)`): the codes, and a
//! changed line with its changed words in reverse video; and `write_text`,
//! a part of a line with what does not print escaped (plain and coloured
//! lines alike).

use core::fmt;

use super::words::Word;
use crate::emit::{is_print, write_escape};

/// Writes `lead` (colour and sign), the line with its changed words in
/// reverse video (`escaped` as [`write_text`] does), and the reset.
pub(super) fn write_colored(
    f: &mut fmt::Formatter<'_>,
    lead: &str,
    line: &str,
    words: Option<&[Word]>,
    escaped: bool,
) -> fmt::Result {
    f.write_str(lead)?;
    match words {
        None => write_text(f, line, escaped)?,
        Some(words) => {
            let mut on = false;
            for &(s, e, changed) in words {
                if changed != on {
                    f.write_str(if changed { "\x1b[7m" } else { "\x1b[27m" })?;
                    on = changed;
                }
                write_text(f, line.get(s..e).unwrap_or(""), escaped)?;
            }
            if on {
                f.write_str("\x1b[27m")?;
            }
        }
    }
    f.write_str("\x1b[0m\n")
}

/// Writes part of a line; `escaped`, with each character that does not
/// print (`emit::is_print`: a TAB, a control, a format character, a space
/// other than U+0020) as its YAML escape, as the encoder writes it in a
/// string.
pub(super) fn write_text(f: &mut fmt::Formatter<'_>, text: &str, escaped: bool) -> fmt::Result {
    if !escaped || text.bytes().all(|b| matches!(b, b' '..=b'~')) {
        return f.write_str(text);
    }
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if !is_print(c) {
            f.write_str(&text[start..i])?;
            write_escape(f, c)?;
            start = i + c.len_utf8();
        }
    }
    f.write_str(&text[start..])
}
