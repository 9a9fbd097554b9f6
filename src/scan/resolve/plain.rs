//! Reading a plain (unquoted, untagged) scalar under a schema: the entry
//! points ([`resolve_plain`], and [`resolve_plain_warned`] with the other
//! schema's reading when it differs), the fast paths that both schemas read
//! alike, and each schema's rules (kubectl's go-yaml v2 resolver, the YAML
//! 1.2 core schema).

use super::number::{
    float_syntax, go_dot_float, go_int, go_signed_binary, magnitude, past_f64, Float, Int, Number,
};
use super::reading::{Refusal, Value, NOT_FINITE, PAST_U128};
use super::warning::{read_alike, written_alike, yaml11_differs, Ambiguity};
use crate::options::Schema;
use crate::swar::skip_digits;

/// Resolves a plain (unquoted, untagged) scalar's text under `schema`.
///
/// `<<` is the string `<<` here; whether it is a merge key is the caller's
/// call (kubectl merges on a plain `<<` key).
///
/// A plain scalar that spans lines needs no resolving: folding puts a space
/// or a line feed in its text, and no reading but the string has one.
pub(crate) fn resolve_plain(text: &str, schema: Schema) -> Result<Value<'_>, Refusal> {
    if !may_be_special(text) {
        return Ok(Value::Str(text));
    }
    if let Some(number) = plain_json_number(text) {
        return Ok(Value::Number(number));
    }
    match schema {
        Schema::Kubectl => resolve_kubectl(text),
        Schema::Yaml12 => resolve_yaml12(text),
    }
}

/// Whether a plain scalar can be anything but a string under either schema:
/// it is empty, starts with a byte that some number or `.inf`/`.nan`
/// starts with (`~`, `.`, a sign, a digit), or is at most five bytes (the
/// longest keyword, `false`) starting with the first letter of `y`/`yes`,
/// `n`/`no`/`null`, `true`, `false`, `on`/`off`. Every other text is the
/// same string under both, decided by its first byte and length.
pub(super) fn may_be_special(text: &str) -> bool {
    match text.as_bytes().first() {
        None => true,
        Some(b'~' | b'.' | b'+' | b'-' | b'0'..=b'9') => true,
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O') => {
            text.len() <= 5
        }
        Some(_) => false,
    }
}

/// The number a plain scalar in a JSON number's canonical spelling stands
/// for, read the same by both schemas and written as the text itself: an
/// integer `-?(0|[1-9][0-9]*)` of at most 18 digits (inside int64, so
/// kubectl's range does not enter), or a float
/// `-?(0|[1-9][0-9]*)\.[0-9]+([eE][-+][0-9]{1,2})?` of at most 40 bytes (far
/// inside float64's range, so kubectl's overflow rule does not enter).
/// `None` for anything else, which the schema's own rules then read: this
/// is the fast path for the numbers that data mostly holds.
pub(super) fn plain_json_number(text: &str) -> Option<Number<'_>> {
    let bytes = text.as_bytes();
    let negative = bytes.first() == Some(&b'-');
    let start = usize::from(negative);
    let whole_end = skip_digits(bytes, start);
    let whole = bytes.get(start..whole_end)?;
    if whole.is_empty() || (whole.len() > 1 && whole.first() == Some(&b'0')) {
        return None;
    }
    if whole_end == bytes.len() {
        if whole.len() > 18 || (negative && whole == b"0") {
            return None;
        }
        let digits = text.get(start..)?;
        return Some(Number::Int(Int::Decimal { negative, digits }));
    }
    if bytes.len() > 40 || bytes.get(whole_end) != Some(&b'.') {
        return None;
    }
    let fraction_end = skip_digits(bytes, whole_end + 1);
    if fraction_end == whole_end + 1 {
        return None;
    }
    if fraction_end < bytes.len() {
        // An exponent: `e` or `E`, a sign, one or two digits, the end.
        let (Some(b'e' | b'E'), Some(b'+' | b'-')) =
            (bytes.get(fraction_end), bytes.get(fraction_end + 1))
        else {
            return None;
        };
        let exponent = fraction_end + 2;
        let end = skip_digits(bytes, exponent);
        if end != bytes.len() || !(1..=2).contains(&(end - exponent)) {
            return None;
        }
    }
    Some(Number::Float(Float::Json(text)))
}

/// go-yaml v2's plain scalars, as `kubectl_read.py` spells them out.
pub(super) fn resolve_kubectl(text: &str) -> Result<Value<'_>, Refusal> {
    match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return Ok(Value::Bool(true))
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return Ok(Value::Bool(false))
        }
        "" | "~" | "null" | "Null" | "NULL" => return Ok(Value::Null),
        ".nan" | ".NaN" | ".NAN" | ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF"
        | "-.inf" | "-.Inf" | "-.INF" => return Err(NOT_FINITE),
        _ => {}
    }
    let bytes = text.as_bytes();
    match bytes.first() {
        // Go's ParseFloat on the text as it is (`_` only between digits).
        Some(b'.') if go_dot_float(bytes) && !past_f64(text) => {
            Ok(Value::Number(Number::Float(Float::Finite(text))))
        }
        Some(b'+' | b'-' | b'0'..=b'9') => {
            // Go's ParseInt(s, 0, 64), then ParseUint, then the float
            // pattern, all with every `_` removed.
            if let Some((negative, magnitude)) = go_int(text).or_else(|| go_signed_binary(text)) {
                return Ok(Value::Number(Number::Int(Int::Value {
                    negative,
                    magnitude,
                })));
            }
            if float_syntax(text.bytes().filter(|&b| b != b'_')) && !past_f64(text) {
                return Ok(Value::Number(Number::Float(Float::Finite(text))));
            }
            // Past float64's range, or no number: a string (go-yaml v2's
            // last try, `0b` digits in base 2, fails past 64 bits as well),
            // quoted when written, however it is spelled (`1.0e+400` too:
            // other readers read a float there).
            Ok(Value::Str(text))
        }
        _ => Ok(Value::Str(text)),
    }
}

/// The YAML 1.2 core schema.
pub(super) fn resolve_yaml12(text: &str) -> Result<Value<'_>, Refusal> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Ok(Value::Null),
        "true" | "True" | "TRUE" => return Ok(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Ok(Value::Bool(false)),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Ok(Value::Number(Number::Float(Float::Infinity {
                negative: false,
            })))
        }
        "-.inf" | "-.Inf" | "-.INF" => {
            return Ok(Value::Number(Number::Float(Float::Infinity {
                negative: true,
            })))
        }
        ".nan" | ".NaN" | ".NAN" => return Ok(Value::Number(Number::Float(Float::NaN))),
        _ => {}
    }
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, text.get(1..).unwrap_or("")),
        Some(b'+') => (false, text.get(1..).unwrap_or("")),
        _ => (false, text),
    };
    if !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(Value::Number(Number::Int(Int::Decimal {
            negative,
            digits: unsigned,
        })));
    }
    for (prefix, radix) in [("0o", 8), ("0x", 16)] {
        if let Some(digits) = text.strip_prefix(prefix) {
            if !digits.is_empty() && digits.bytes().all(|b| (b as char).is_digit(radix)) {
                let magnitude = magnitude(digits.bytes(), radix).ok_or(PAST_U128)?;
                return Ok(Value::Number(Number::Int(Int::Value {
                    negative: false,
                    magnitude,
                })));
            }
        }
    }
    if float_syntax(text.bytes()) {
        // Past float64's range it is still a float in YAML 1.2; its text is
        // kept, as the JSON path keeps `1e400`.
        return Ok(Value::Number(Number::Float(Float::Finite(text))));
    }
    Ok(Value::Str(text))
}

/// [`resolve_plain`] and the [`Ambiguity`] the two schemas show at once, each schema's reading
/// worked out once (and the other's only when it could differ).
pub(crate) fn resolve_plain_warned(
    text: &str,
    schema: Schema,
) -> (Result<Value<'_>, Refusal>, Option<Ambiguity<'_>>) {
    // The fast paths read alike under both schemas (the test
    // `fast_paths_agree_with_the_rules`): one look, no second reading.
    if !may_be_special(text) {
        return (Ok(Value::Str(text)), None);
    }
    if let Some(number) = plain_json_number(text) {
        return (Ok(Value::Number(number)), None);
    }
    let reading = resolve_plain(text, schema);
    if read_alike(text) {
        return (reading, None);
    }
    let other = resolve_plain(text, schema.other());
    let same = match (&reading, &other) {
        (Err(_), Err(_)) => true,
        (Ok(a), Ok(b)) => written_alike(a, b),
        _ => false,
    };
    // Both schemas agree: YAML 1.1 readers besides kubectl may not.
    let yaml11 = match (same, &reading) {
        (true, Ok(value)) => yaml11_differs(text, value),
        _ => None,
    };
    let ambiguity = (!same || yaml11.is_some()).then_some(Ambiguity {
        text,
        schema,
        reading,
        other,
        yaml11,
    });
    (reading, ambiguity)
}
