//! The one walk over a JSON string body and its escapes, below every
//! reader of JSON strings: the tokenizer (`json.rs`) checks a string with
//! [`string_step`], the framer (`frame.rs`) finds where it ends with it,
//! and [`Text`](super::Text) decodes a checked body with it. An escape is
//! checked and decoded by one function, [`escape`].

use crate::error::{ErrorKind, Fault};
use crate::swar;

/// What [`string_step`] stopped at.
pub(super) enum Found {
    /// The closing quote.
    Quote,
    /// A valid escape, `len` bytes long, that stands for `c`.
    Escape { c: char, len: usize },
    /// What is not allowed there: a control byte, a bad escape, or the end
    /// of the input (of the body, for a body already checked).
    Invalid(Fault),
}

/// The one walk over a JSON string body: from `i`, skips the bytes that
/// stand for themselves and says what stops it, and where.
#[inline(always)]
pub(super) fn string_step(bytes: &[u8], i: usize) -> (usize, Found) {
    let at = swar::string_special(bytes, i);
    let found = match bytes.get(at) {
        Some(b'"') => Found::Quote,
        Some(b'\\') => match escape(bytes, at) {
            Ok((c, len)) => Found::Escape { c, len },
            Err(fault) => Found::Invalid(fault),
        },
        Some(_) => Found::Invalid(Fault::new(
            ErrorKind::Syntax,
            at,
            "`\\u` escape for a control character in a string",
        )),
        None => Found::Invalid(Fault::new(
            ErrorKind::Syntax,
            at,
            "`\"` to close the string",
        )),
    };
    (at, found)
}

/// Checks and decodes the escape whose `\` is at `at`: the character it
/// stands for and its length.
#[inline]
fn escape(bytes: &[u8], at: usize) -> Result<(char, usize), Fault> {
    let c = match bytes.get(at + 1) {
        Some(b'"') => '"',
        Some(b'\\') => '\\',
        Some(b'/') => '/',
        Some(b'b') => '\u{8}',
        Some(b'f') => '\u{c}',
        Some(b'n') => '\n',
        Some(b'r') => '\r',
        Some(b't') => '\t',
        Some(b'u') => return unicode_escape(bytes, at),
        _ => {
            return Err(Fault::new(
                ErrorKind::Syntax,
                at + 1,
                "an escape: one of `\"\\/bfnrtu` after `\\`",
            ))
        }
    };
    Ok((c, 2))
}

/// [`escape`] for `\uXXXX`, or a surrogate pair `\uXXXX\uXXXX`.
fn unicode_escape(bytes: &[u8], at: usize) -> Result<(char, usize), Fault> {
    let unit = hex4(bytes, at + 2)?;
    if !(0xD800..0xE000).contains(&unit) {
        // Not a surrogate: always a character.
        return Ok((char::from_u32(unit).unwrap_or('\u{FFFD}'), 6));
    }
    let low = match bytes.get(at + 6..at + 8) {
        Some(b"\\u") if unit < 0xDC00 => hex4(bytes, at + 8)?,
        // Cut off where the pair's second half would be.
        None if unit < 0xDC00
            && bytes
                .get(at + 6..)
                .unwrap_or_default()
                .iter()
                .all(|&b| b == b'\\') =>
        {
            return Err(Fault::new(
                ErrorKind::Syntax,
                bytes.len(),
                "`\\u` and the low half of a surrogate pair",
            ));
        }
        _ => 0,
    };
    if !(0xDC00..0xE000).contains(&low) {
        return Err(Fault::new(ErrorKind::LoneSurrogate, at, "a surrogate pair"));
    }
    let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
    Ok((char::from_u32(code).unwrap_or('\u{FFFD}'), 12))
}

/// The value of the four hex digits at `at`; the error points at the
/// first byte that is not one.
fn hex4(bytes: &[u8], at: usize) -> Result<u32, Fault> {
    let digits = bytes.get(at..).unwrap_or_default();
    let value = digits.get(..4).and_then(|four| {
        four.iter()
            .try_fold(0, |acc, &b| Some(acc << 4 | char::from(b).to_digit(16)?))
    });
    value.ok_or_else(|| {
        let good = digits.iter().take(4).take_while(|b| b.is_ascii_hexdigit());
        Fault::new(
            ErrorKind::Syntax,
            at + good.count(),
            "four hex digits after `\\u`",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_are_checked_and_decoded_by_one_function() {
        let decoded = |s: &str| escape(s.as_bytes(), 0);
        assert_eq!(decoded("\\n"), Ok(('\n', 2)));
        assert_eq!(decoded("\\/"), Ok(('/', 2)));
        assert_eq!(decoded("\\u00e9"), Ok(('é', 6)));
        assert_eq!(decoded("\\ud83d\\ude00"), Ok(('😀', 12)));
        let fault = |s: &str| escape(s.as_bytes(), 0).map_err(|f| (f.kind(), f.offset()));
        assert_eq!(fault("\\x"), Err((ErrorKind::Syntax, 1)));
        assert_eq!(fault("\\u00g0"), Err((ErrorKind::Syntax, 4)));
        assert_eq!(fault("\\ude00"), Err((ErrorKind::LoneSurrogate, 0)));
        assert_eq!(fault("\\ud83d\\u0041"), Err((ErrorKind::LoneSurrogate, 0)));
        assert_eq!(fault("\\ud83d\\"), Err((ErrorKind::Syntax, 7)));
    }
}
