//! The ANSI colour of a diff (`{:#}`, or `color(true)`): the codes, and a
//! changed line with its changed words in reverse video.

use core::fmt;

use super::hunks::write_text;
use super::words::Word;

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
