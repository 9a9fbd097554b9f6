//! When the two schemas read a plain scalar differently: the
//! [`Ambiguity`] that is warned of, the rules that decide from a text's
//! shape or from the two readings whether the output would differ, and the
//! warning's words.

use super::key::{plain_key, Key};
use super::number::{magnitude, Float, Number};
use super::reading::{Refusal, Value};
use crate::options::Schema;
use core::fmt;

/// A plain scalar that the two schemas read differently, with both
/// readings. Its `Display` is the warning's text:
/// `plain scalar 'yes' is the boolean true under schema kubectl but the
/// string "yes" under yaml-1.2; quote it to keep the string`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Ambiguity<'a> {
    pub(crate) text: &'a str,
    /// The schema in use, and its reading.
    pub(crate) schema: Schema,
    pub(crate) reading: Result<Value<'a>, Refusal>,
    /// The other schema's reading.
    pub(crate) other: Result<Value<'a>, Refusal>,
}

impl Ambiguity<'_> {
    /// Whether the two readings differ as keys too (`.inf` is an error
    /// and a float to the two schemas, but the key `.inf` to both).
    pub(crate) fn as_keys(&self) -> bool {
        match (
            plain_key(self.text, self.reading),
            plain_key(self.text, self.other),
        ) {
            (Ok(Key::Float32(a)), Ok(Key::Float32(b))) => {
                a.to_bits() != b.to_bits() && !(a.is_nan() && b.is_nan())
            }
            (Ok(a), Ok(b)) => a != b,
            (Err(_), Err(_)) => false,
            _ => true,
        }
    }
}

/// Whether both schemas surely read `text` alike, from its shape alone.
/// They differ only on numbers (a digit, sign or `.` first) and on
/// kubectl's extra booleans (`y`, `yes`, `n`, `no`, `on`, `off`); among
/// numbers, a JSON-style decimal without exponent (`-12`, `0.5`, no
/// leading zero, no `_`) reads alike unless it is long: an integer past
/// 38 digits, or a float long enough to pass float64's range (309).
pub(super) fn read_alike(text: &str) -> bool {
    let bytes = text.as_bytes();
    if !matches!(
        bytes.first(),
        Some(b'0'..=b'9' | b'+' | b'-' | b'.' | b'y' | b'Y' | b'n' | b'N' | b'o' | b'O')
    ) {
        return true;
    }
    let digits = bytes.strip_prefix(b"-").unwrap_or(bytes);
    let (whole, fraction) = match digits.iter().position(|&b| b == b'.') {
        Some(dot) => (&digits[..dot], Some(&digits[dot + 1..])),
        None => (digits, None),
    };
    let all_digits = |d: &[u8]| !d.is_empty() && d.iter().all(u8::is_ascii_digit);
    // An integer past `u128` compares as text (see `numbers_alike`).
    let short = match fraction {
        Some(_) => text.len() < 300,
        None => text.len() < 39,
    };
    short
        && all_digits(whole)
        && (whole == b"0" || whole[0] != b'0')
        && fraction.is_none_or(all_digits)
}

/// Whether two readings of the same text are written the same.
pub(super) fn written_alike(a: &Value<'_>, b: &Value<'_>) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => numbers_alike(x, y),
        _ => a == b,
    }
}

/// Whether two numbers read from the same text are written the same: the
/// same float text, or the same integer (a float text of digits only is
/// written as that integer).
fn numbers_alike(a: &Number<'_>, b: &Number<'_>) -> bool {
    let integer = |n: &Number<'_>| match *n {
        Number::Int(i) => i.value(),
        Number::Float(Float::Finite(t) | Float::Json(t))
            if t.bytes().all(|b| !matches!(b, b'.' | b'e' | b'E')) =>
        {
            let negative = t.starts_with('-');
            let digits = t.bytes().filter(u8::is_ascii_digit);
            Some((negative, magnitude(digits, 10)?))
        }
        Number::Float(_) => None,
    };
    match (integer(a), integer(b)) {
        (Some((na, ma)), Some((nb, mb))) => (na && ma != 0) == (nb && mb != 0) && ma == mb,
        _ => a == b,
    }
}

impl fmt::Display for Ambiguity<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "plain scalar '{}' is {} under schema {} but {} under {}",
            self.text,
            Reading(&self.reading),
            self.schema.name(),
            Reading(&self.other),
            self.schema.other().name(),
        )?;
        // A string (or a float kubectl reads as its text) or a refusal
        // on either side: quoting keeps the string.
        let string_or_refused = |r: &Result<Value<'_>, Refusal>| {
            matches!(
                r,
                Ok(Value::Str(_) | Value::Number(Number::Float(Float::PastRange(_)))) | Err(_)
            )
        };
        match (&self.reading, &self.other) {
            (a, b) if string_or_refused(a) || string_or_refused(b) => {
                f.write_str("; quote it to keep the string")
            }
            (Ok(Value::Number(n)), Ok(_)) => {
                f.write_str("; write it as ")?;
                n.write_json(f)?;
                f.write_str(" to mean the same under both")
            }
            // Null or a boolean against another: no word means both.
            _ => Ok(()),
        }
    }
}

/// A reading in words: `the boolean true`, `the integer 511`, `null`,
/// `the string "yes"`, `an error`.
struct Reading<'r, 'a>(&'r Result<Value<'a>, Refusal>);

impl fmt::Display for Reading<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Ok(Value::Null) => f.write_str("null"),
            Ok(Value::Bool(b)) => write!(f, "the boolean {b}"),
            Ok(Value::Number(Number::Float(Float::PastRange(s)))) => {
                write!(f, "the string {s:?} (past float64's range)")
            }
            Ok(Value::Number(n @ Number::Int(_))) => {
                f.write_str("the integer ")?;
                n.write_json(f)
            }
            Ok(Value::Number(n @ Number::Float(_))) => {
                f.write_str("the float ")?;
                n.write_json(f)
            }
            Ok(Value::Str(s)) => write!(f, "the string {s:?}"),
            Err(_) => f.write_str("an error"),
        }
    }
}
