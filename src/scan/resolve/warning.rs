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
    /// When the two schemas agree: what YAML 1.1 readers other than
    /// kubectl (PyYAML) read instead.
    pub(crate) yaml11: Option<Yaml11>,
}

/// What a YAML 1.1 reader such as PyYAML reads where kubectl and YAML 1.2
/// agree and the KYAML written would read otherwise to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Yaml11 {
    /// `1:20`, `-1:30:00.5`: a base-60 number.
    Sexagesimal,
    /// `2024-01-31`, `2001-12-14t21:59:43.10-05:00`: a date or a time.
    Timestamp,
    /// `1e3`, `1.5e3`: a float to both schemas, a string to PyYAML (its
    /// floats need a `.` and a signed exponent), while the KYAML written,
    /// `1.0e+3`, is a float to it.
    NotFloat,
}

/// What YAML 1.1 readers other than kubectl (PyYAML's resolver) read in
/// the plain scalar `text` that both schemas read as `value`, where it
/// differs from how they read the KYAML written; `None` where they read it
/// alike. Reached only by texts that [`read_alike`] cannot settle.
pub(crate) fn yaml11_differs(text: &str, value: &Value<'_>) -> Option<Yaml11> {
    let bytes = text.as_bytes();
    let unsigned = bytes
        .strip_prefix(b"-")
        .or(bytes.strip_prefix(b"+"))
        .unwrap_or(bytes);
    let digit = |b: &u8| b.is_ascii_digit();
    match value {
        Value::Str(_) => {
            // `dddd-d?d-d?d`, alone or followed by a time: PyYAML's
            // timestamp (any text of that start is left to it).
            let date = bytes.len() >= 8
                && bytes[..4].iter().all(digit)
                && bytes[4] == b'-'
                && bytes[5..].iter().take_while(|b| digit(b)).count() >= 1;
            if date {
                let rest = &bytes[5..];
                let month = rest.iter().take_while(|b| digit(b)).count();
                let day = rest
                    .get(month + 1..)
                    .map_or(0, |r| r.iter().take_while(|b| digit(b)).count());
                if month <= 2 && rest.get(month) == Some(&b'-') && (1..=2).contains(&day) {
                    return Some(Yaml11::Timestamp);
                }
            }
            // `[1-9][0-9_]*(:[0-5]?[0-9])+`, with `\.[0-9_]*` after for a float.
            let (whole, fraction) = match unsigned.iter().position(|&b| b == b'.') {
                Some(dot) => (&unsigned[..dot], Some(&unsigned[dot + 1..])),
                None => (unsigned, None),
            };
            let mut parts = whole.split(|&b| b == b':');
            let first = parts.next().unwrap_or_default();
            let head = first.first().is_some_and(digit)
                && first.iter().all(|&b| b.is_ascii_digit() || b == b'_')
                && (fraction.is_some() || first[0] != b'0');
            let mut sixties = 0;
            let rest = parts.all(|p| {
                sixties += 1;
                matches!(p, [a, b] if (b'0'..=b'5').contains(a) && digit(b))
                    || matches!(p, [a] if digit(a))
            });
            let fraction =
                fraction.is_none_or(|f| f.iter().all(|&b| b.is_ascii_digit() || b == b'_'));
            (head && rest && sixties > 0 && fraction).then_some(Yaml11::Sexagesimal)
        }
        Value::Number(Number::Float(_)) => {
            // PyYAML's float: a `.`, and an exponent (if any) with a sign.
            let dot = unsigned.contains(&b'.');
            let exponent = unsigned.iter().position(|&b| b == b'e' || b == b'E');
            let signed = exponent.is_none_or(|e| matches!(unsigned.get(e + 1), Some(b'+' | b'-')));
            let named = unsigned.first() == Some(&b'.')
                && unsigned.len() > 1
                && !unsigned[1].is_ascii_digit();
            let pyyaml_float = named || (dot && signed);
            (!pyyaml_float).then_some(Yaml11::NotFloat)
        }
        _ => None,
    }
}

impl Ambiguity<'_> {
    /// Whether the two readings differ as keys too (`.inf` is an error
    /// and a float to the two schemas, but the key `.inf` to both).
    pub(crate) fn as_keys(&self) -> bool {
        if self.yaml11.is_some() {
            // PyYAML's key is a number or a date, not the text.
            return true;
        }
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
        if let Some(yaml11) = self.yaml11 {
            let what = match yaml11 {
                Yaml11::Sexagesimal => "a base-60 number",
                Yaml11::Timestamp => "a date or time",
                Yaml11::NotFloat => "a string",
            };
            write!(
                f,
                "plain scalar '{}' is {what} to YAML 1.1 readers such as PyYAML but {} \
                 under schemas kubectl and yaml-1.2",
                self.text,
                Reading(&self.reading),
            )?;
            return match (yaml11, &self.reading) {
                (Yaml11::NotFloat, Ok(Value::Number(n))) => {
                    f.write_str("; write it as ")?;
                    n.write_json(f)?;
                    f.write_str(" to mean the same to all")
                }
                _ => f.write_str("; quote it to keep the string"),
            };
        }
        write!(
            f,
            "plain scalar '{}' is {} under schema {} but {} under {}",
            self.text,
            Reading(&self.reading),
            self.schema.name(),
            Reading(&self.other),
            self.schema.other().name(),
        )?;
        // A string or a refusal on either side: quoting keeps the string.
        let string_or_refused =
            |r: &Result<Value<'_>, Refusal>| matches!(r, Ok(Value::Str(_)) | Err(_));
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
