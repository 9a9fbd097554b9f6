//! Tagged scalars: which tag a node names ([`TagKind`]), what a tag makes
//! of a scalar's text as kubectl reads it ([`resolve_tagged`]: `!!str`,
//! `!!int`, `!!timestamp`, ...), and `!!binary`'s base64, checked and
//! decoded without a heap ([`Binary`]).

use super::number::{Int, Number};
use super::plain::resolve_plain;
use super::reading::{
    Refusal, Value, BAD_BINARY, NOT_BOOL, NOT_FLOAT, NOT_INT, NOT_NULL, NOT_TIMESTAMP,
};
use crate::options::Schema;
use core::fmt::{self, Write};

/// A tag on a scalar, as far as the data is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TagKind<'t> {
    Str,
    Int,
    Float,
    Bool,
    Null,
    /// `!!timestamp`: a string in JSON (kubectl keeps the text).
    Timestamp,
    /// `!!binary`: base64 of UTF-8 text.
    Binary,
    /// `!!map` or `!!seq` (on a collection they change nothing).
    Map,
    Seq,
    /// `!`, the non-specific tag: a string.
    NonSpecific,
    /// `!!merge`: on a key `<<` a merge, else a string (the caller decides).
    Merge,
    /// Any other tag (`!foo`, `!!set`): the caller warns and drops it.
    Other(&'t str),
}

impl<'t> TagKind<'t> {
    /// Names a tag, given as the YAML shorthand (`!!int`), verbatim
    /// (`!<tag:yaml.org,2002:int>`) or resolved (`tag:yaml.org,2002:int`).
    pub(crate) fn of(tag: &'t str) -> TagKind<'t> {
        let name = tag
            .strip_prefix("!!")
            .or_else(|| tag.strip_prefix("tag:yaml.org,2002:"))
            .or_else(|| {
                tag.strip_prefix("!<tag:yaml.org,2002:")
                    .and_then(|t| t.strip_suffix('>'))
            });
        match name {
            Some("str") => TagKind::Str,
            Some("int") => TagKind::Int,
            Some("float") => TagKind::Float,
            Some("bool") => TagKind::Bool,
            Some("null") => TagKind::Null,
            Some("timestamp") => TagKind::Timestamp,
            Some("binary") => TagKind::Binary,
            Some("map") => TagKind::Map,
            Some("seq") => TagKind::Seq,
            Some("merge") => TagKind::Merge,
            _ if tag == "!" => TagKind::NonSpecific,
            _ => TagKind::Other(tag),
        }
    }
}

/// A tagged scalar's data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tagged<'a> {
    Value(Value<'a>),
    /// A `!!binary` scalar whose text is checked to be base64 of UTF-8
    /// text: the string is [`Binary::write_text`]'s output.
    Binary(Binary<'a>),
}

/// Applies a tag to a scalar's decoded text (any style), as kubectl does:
/// `!!int`, `!!float`, `!!bool`, `!!null` take the text that a plain
/// scalar of their kind would be (`!!int "42"` → 42, `!!bool "yes"` → true
/// under kubectl) and refuse any other (`!!int 1.5`, `!!bool 1`; an empty
/// text is null, so only `!!null` takes it); `!!float` takes an integer
/// too; `!!timestamp` takes a date or time ([`is_timestamp`]) and keeps its
/// text; `!!str`, `!`, a collection tag, and `!!merge` (off a merge key)
/// keep the text as a string; `!!binary` is decoded. Any other tag gives
/// the string too, which is what kubectl reads (go-yaml v2 resolves no
/// scalar it does not know the tag of); the caller warns that it dropped
/// the tag.
pub(crate) fn resolve_tagged<'a>(
    tag: TagKind<'_>,
    text: &'a str,
    schema: Schema,
) -> Result<Tagged<'a>, Refusal> {
    let value = || resolve_plain(text, schema);
    match tag {
        TagKind::Int => match value() {
            Ok(v @ Value::Number(Number::Int(int))) if int_to_kubectl(int) => Ok(Tagged::Value(v)),
            _ => Err(NOT_INT),
        },
        TagKind::Float => match value() {
            Ok(v @ Value::Number(_)) => Ok(Tagged::Value(v)),
            _ => Err(NOT_FLOAT),
        },
        TagKind::Bool => match value() {
            Ok(v @ Value::Bool(_)) => Ok(Tagged::Value(v)),
            _ => Err(NOT_BOOL),
        },
        TagKind::Null => match value() {
            Ok(Value::Null) => Ok(Tagged::Value(Value::Null)),
            _ => Err(NOT_NULL),
        },
        TagKind::Timestamp if is_timestamp(text) => Ok(Tagged::Value(Value::Str(text))),
        TagKind::Timestamp => Err(NOT_TIMESTAMP),
        TagKind::Binary => Binary::new(text).map(Tagged::Binary),
        TagKind::Str
        | TagKind::Map
        | TagKind::Seq
        | TagKind::NonSpecific
        | TagKind::Merge
        | TagKind::Other(_) => Ok(Tagged::Value(Value::Str(text))),
    }
}

/// Whether kubectl reads `int` as an integer: within int64 or uint64 (past
/// them, go-yaml v2 reads a float).
fn int_to_kubectl(int: Int<'_>) -> bool {
    match int {
        Int::Decimal { .. } => true,
        Int::Value {
            negative: false,
            magnitude,
        } => magnitude <= u128::from(u64::MAX),
        Int::Value {
            negative: true,
            magnitude,
        } => magnitude <= 1u128 << 63,
    }
}

/// Whether `text` is a timestamp to go-yaml v2 (`!!timestamp` takes it):
/// four digits and `-` first, then one of Go's layouts
/// `2006-1-2T15:4:5.999999999Z07:00` (or with `t`),
/// `2006-1-2 15:4:5.999999999` (any run of spaces for the space) and
/// `2006-1-2`, with Go's ranges (a real day of the month, hour below 24,
/// minute and second below 60).
pub(crate) fn is_timestamp(text: &str) -> bool {
    /// One or two digits (Go's `getnum` for `1`, `2`, `15`, `4`, `5`).
    fn num(s: &[u8]) -> Option<(u32, &[u8])> {
        match s {
            [a @ b'0'..=b'9', b @ b'0'..=b'9', rest @ ..] => {
                Some((u32::from(a - b'0') * 10 + u32::from(b - b'0'), rest))
            }
            [a @ b'0'..=b'9', rest @ ..] => Some((u32::from(a - b'0'), rest)),
            _ => None,
        }
    }
    fn date(s: &[u8]) -> Option<&[u8]> {
        let (year, rest) = match s {
            [a, b, c, d, b'-', rest @ ..] if [a, b, c, d].iter().all(|x| x.is_ascii_digit()) => {
                let year = [a, b, c, d]
                    .iter()
                    .fold(0, |n, &&x| n * 10 + u32::from(x - b'0'));
                (year, rest)
            }
            _ => return None,
        };
        let (month, rest) = num(rest)?;
        let rest = rest.strip_prefix(b"-")?;
        let (day, rest) = num(rest)?;
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        let days = match month {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            1..=12 => 31,
            _ => return None,
        };
        (1..=days).contains(&day).then_some(rest)
    }
    fn time(s: &[u8]) -> Option<&[u8]> {
        let (hour, rest) = num(s)?;
        let (minute, rest) = num(rest.strip_prefix(b":")?)?;
        let (second, rest) = num(rest.strip_prefix(b":")?)?;
        if hour >= 24 || minute >= 60 || second >= 60 {
            return None;
        }
        // An optional fraction: `.` or `,` and any number of digits.
        Some(match rest {
            [b'.' | b',', b'0'..=b'9', more @ ..] => {
                let digits = more.iter().take_while(|b| b.is_ascii_digit()).count();
                &more[digits..]
            }
            _ => rest,
        })
    }
    fn zone(s: &[u8]) -> Option<&[u8]> {
        match s {
            [b'Z', rest @ ..] => Some(rest),
            [b'+' | b'-', h1, h2, b':', m1, m2, rest @ ..]
                if [h1, h2, m1, m2].iter().all(|b| b.is_ascii_digit()) =>
            {
                let hour = (h1 - b'0') * 10 + (h2 - b'0');
                let minute = (m1 - b'0') * 10 + (m2 - b'0');
                (hour <= 24 && minute <= 60).then_some(rest)
            }
            _ => None,
        }
    }
    let Some(rest) = date(text.as_bytes()) else {
        return false;
    };
    match rest {
        [] => true,
        [b'T' | b't', rest @ ..] => {
            matches!(time(rest).and_then(zone), Some([]))
        }
        [b' ', ..] => {
            let spaces = rest.iter().take_while(|&&b| b == b' ').count();
            matches!(time(&rest[spaces..]), Some([]))
        }
        _ => false,
    }
}

/// The text of a `!!binary` scalar, checked: white space aside, strict
/// base64 (`A-Za-z0-9+/`, `=` padding to a multiple of 4, nothing after
/// it) of UTF-8 text. The decoded text is never stored: [`Binary::bytes`]
/// decodes it as it goes, and [`Binary::write_text`] writes it through a
/// 64-byte buffer on the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Binary<'a> {
    text: &'a str,
}

impl<'a> Binary<'a> {
    /// Checks `text` (one pass over the base64, one decoding it). White
    /// space is skipped, so the source lines of a plain or block scalar's
    /// content serve as well as its decoded text (folding and indentation
    /// are white space).
    pub(crate) fn new(text: &'a str) -> Result<Binary<'a>, Refusal> {
        let (mut data, mut padding) = (0usize, 0usize);
        for c in text.chars().filter(|&c| !base64_space(c)) {
            match c {
                '=' => padding += 1,
                _ if padding > 0 || sextet(c).is_none() => return Err(BAD_BINARY),
                _ => data += 1,
            }
        }
        let padded = match padding {
            0 => data % 4 == 0,
            1 => data % 4 == 3,
            2 => data % 4 == 2,
            _ => false,
        };
        if !padded {
            return Err(BAD_BINARY);
        }
        let binary = Binary { text };
        binary.write_text(&mut Discard).map_err(|_| BAD_BINARY)?;
        Ok(binary)
    }

    /// The decoded bytes (UTF-8, as [`Binary::new`] checked).
    pub(crate) fn bytes(&self) -> Base64Bytes<'a> {
        Base64Bytes {
            chars: self.text.chars(),
            bits: 0,
            count: 0,
        }
    }

    /// Writes the decoded text.
    pub(crate) fn write_text<W: Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        let mut buf = [0u8; 64];
        let mut len = 0;
        for b in self.bytes() {
            let Some(slot) = buf.get_mut(len) else {
                return Err(fmt::Error);
            };
            *slot = b;
            len += 1;
            if len == buf.len() {
                // Write what is whole UTF-8; keep a split character's start.
                let whole = utf8_prefix(buf.get(..len).unwrap_or(&[]))?;
                out.write_str(whole)?;
                let written = whole.len();
                buf.copy_within(written..len, 0);
                len -= written;
            }
        }
        let rest = buf.get(..len).unwrap_or(&[]);
        out.write_str(core::str::from_utf8(rest).map_err(|_| fmt::Error)?)
    }
}

/// The longest prefix of `bytes` that is whole UTF-8, if what follows it
/// is the start of a character that goes on.
fn utf8_prefix(bytes: &[u8]) -> Result<&str, fmt::Error> {
    match core::str::from_utf8(bytes) {
        Ok(s) => Ok(s),
        Err(e) if e.error_len().is_none() => {
            core::str::from_utf8(bytes.get(..e.valid_up_to()).unwrap_or(&[]))
                .map_err(|_| fmt::Error)
        }
        Err(_) => Err(fmt::Error),
    }
}

/// A sink that keeps nothing.
struct Discard;

impl Write for Discard {
    fn write_str(&mut self, _: &str) -> fmt::Result {
        Ok(())
    }
}

/// White space inside base64, which `kubectl_read.py` removes (Python's
/// `str.split()`).
fn base64_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// A base64 digit's value.
fn sextet(c: char) -> Option<u32> {
    match c {
        'A'..='Z' => Some(c as u32 - 'A' as u32),
        'a'..='z' => Some(c as u32 - 'a' as u32 + 26),
        '0'..='9' => Some(c as u32 - '0' as u32 + 52),
        '+' => Some(62),
        '/' => Some(63),
        _ => None,
    }
}

/// The bytes that base64 text stands for (white space, padding, and
/// anything not base64 skipped).
pub(crate) struct Base64Bytes<'a> {
    chars: core::str::Chars<'a>,
    bits: u32,
    count: u32,
}

impl Iterator for Base64Bytes<'_> {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        loop {
            if self.count >= 8 {
                self.count -= 8;
                return Some((self.bits >> self.count) as u8);
            }
            let value = sextet(self.chars.next()?);
            if let Some(v) = value {
                self.bits = (self.bits << 6 | v) & 0xFFFF;
                self.count += 6;
            }
        }
    }
}
