//! Scalar resolution: what a YAML scalar's text means as JSON data under a
//! schema (SPEC-YAML.md §1), and how that data is spelled.
//!
//! This module owns the schema rules, and nothing of YAML syntax: it is given
//! a scalar's decoded text (and its tag, if any) and answers null, a boolean,
//! a number, a string, or a refusal. Two schemas:
//!
//! - [`Schema::Kubectl`]: what `kubectl apply -f` reads (`sigs.k8s.io/yaml`'s
//!   `YAMLToJSON`, a go-yaml v2 resolver). The oracle is
//!   `../shared/compat/kubectl_read.py`; `tests/data/plain-scalars.jsonl` is
//!   its reading of 4,000 random plain scalars.
//! - [`Schema::Yaml12`]: the YAML 1.2 core schema.
//!
//! Numbers are written in the one spelling every parser reads the same way
//! (integers in decimal, floats as JSON numbers with the JSON path's exponent
//! rule), without a heap. The representation ([`Int`], [`Float`]) is the
//! source span plus what the edits need:
//!
//! - an integer whose value had to be worked out (another base, `_`
//!   separators, kubectl's 64-bit range) keeps its value as sign and `u128`
//!   magnitude, written by `core::fmt` (no heap); a decimal integer under
//!   `yaml-1.2`, of any length, keeps its digits' span and is written without
//!   the `+` and the leading zeros;
//! - a float keeps its source span and is written by [`Float::write_json`]:
//!   no `+`, no `_`, no superfluous leading zeros, a `0` before a leading `.`
//!   and after a trailing one, and the exponent by the JSON path's rule
//!   (`emit::write_exponent_form`: `1e3` → `1.0e+3`).
//!
//! Everything here is `no_std`, allocates nothing, never panics, and runs in
//! time linear in the text (float keys parse at most 800 significant digits
//! on the stack).

use core::fmt::{self, Write};

use crate::emit::write_exponent_form;
use crate::swar::skip_digits;

// `Schema` is public and in every build; what it means is here, in
// builds with the YAML reader (`alloc`).
pub(crate) use crate::Schema;

impl Schema {
    /// The name the command line and messages use.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Schema::Kubectl => "kubectl",
            Schema::Yaml12 => "yaml-1.2",
        }
    }

    /// The other schema.
    pub(crate) fn other(self) -> Schema {
        match self {
            Schema::Kubectl => Schema::Yaml12,
            Schema::Yaml12 => Schema::Kubectl,
        }
    }
}

/// Why a scalar has no JSON reading. The caller adds the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// What is wrong, in words, lower case, no position.
    pub(crate) message: &'static str,
}

const NOT_FINITE: Refusal = Refusal {
    message:
        "kubectl refuses infinity and NaN (JSON has no such number); quote it to keep the string",
};
const PAST_U128: Refusal = Refusal {
    message: "this octal or hexadecimal integer is past 128 bits: write it in decimal or quote it",
};
const NULL_KEY: Refusal = Refusal {
    message: "a null key has no JSON form (a JSON key is a string), and kubectl refuses it",
};
const KEY_PAST_INT64: Refusal = Refusal {
    message: "this integer key is past int64, and kubectl refuses it; quote it to keep the string",
};
const NOT_INT: Refusal = Refusal {
    message: "a !!int value that is not an integer to kubectl (it refuses it)",
};
const NOT_FLOAT: Refusal = Refusal {
    message: "a !!float value that is not a number in float64's range to kubectl (it refuses it)",
};
const NOT_BOOL: Refusal = Refusal {
    message: "a !!bool value that is not a boolean to kubectl (it refuses it)",
};
const NOT_NULL: Refusal = Refusal {
    message: "a !!null value that is not null to kubectl (it refuses it)",
};
const NOT_TIMESTAMP: Refusal = Refusal {
    message: "a !!timestamp value that is not a date or time to kubectl (it refuses it)",
};
const BAD_BINARY: Refusal = Refusal {
    message: "this !!binary value is not base64 of UTF-8 text",
};

/// The data a scalar stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Value<'a> {
    Null,
    Bool(bool),
    Number(Number<'a>),
    /// A string: the scalar's text itself.
    Str(&'a str),
}

/// A number, written by [`Number::write_json`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Number<'a> {
    Int(Int<'a>),
    Float(Float<'a>),
}

/// An integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Int<'a> {
    /// Its value: the sign (never set for zero) and the magnitude.
    Value { negative: bool, magnitude: u128 },
    /// A decimal integer whose digits are its value in any schema (under
    /// `yaml-1.2` of any length, leading zeros included; under `kubectl`
    /// only [`plain_json_number`]'s, at most 18 digits and no leading zero):
    /// the sign (never set when every digit is `0`) and the digits' span
    /// (`[0-9]+`).
    Decimal { negative: bool, digits: &'a str },
}

/// A float.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Float<'a> {
    /// A finite float's text, which matches
    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` once every `_`
    /// is dropped (only kubectl allows `_`).
    Finite(&'a str),
    /// A finite float already in JSON's spelling, as [`plain_json_number`]
    /// reads it (`-?(0|[1-9][0-9]*)\.[0-9]+([eE][-+][0-9]{1,2})?`, at most
    /// 40 bytes): written as it is, with no editing pass.
    Json(&'a str),
    /// Past float64's range (`kubectl` only), and spelled as floats are
    /// written (`1.0E+400`: what the JSON path writes for `1E400`):
    /// kubectl reads this text as a string, other readers a float, so it
    /// is written as it is and, as a key, is that text.
    PastRange(&'a str),
    /// `.inf` or `-.inf` (`yaml-1.2` only).
    Infinity { negative: bool },
    /// `.nan` (`yaml-1.2` only).
    NaN,
}

impl Number<'_> {
    /// Writes the number in the one spelling every parser reads the same
    /// way: `0777` (kubectl) → `511`, `+12` → `12`, `1_000` → `1000`,
    /// `.5` → `0.5`, `12.` → `12.0`, `1e3` → `1.0e+3`; `.inf`, `-.inf` and
    /// `.nan` (`yaml-1.2`, not JSON numbers) as those words.
    pub(crate) fn write_json<W: Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        match self {
            Number::Int(i) => i.write_json(out),
            Number::Float(f) => f.write_json(out),
        }
    }
}

impl Int<'_> {
    /// Writes the integer in decimal, without `+` or leading zeros.
    pub(crate) fn write_json<W: Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        match *self {
            Int::Value {
                negative,
                magnitude,
            } => write!(out, "{}{magnitude}", if negative { "-" } else { "" }),
            Int::Decimal { negative, digits } => {
                if negative {
                    out.write_str("-")?;
                }
                out.write_str(without_leading_zeros(digits))
            }
        }
    }

    /// The value as sign and magnitude, when the magnitude fits 128 bits.
    fn value(&self) -> Option<(bool, u128)> {
        match *self {
            Int::Value {
                negative,
                magnitude,
            } => Some((negative, magnitude)),
            Int::Decimal { negative, digits } => Some((negative, magnitude(digits.bytes(), 10)?)),
        }
    }

    /// The value, when it fits `i64`.
    fn as_i64(&self) -> Option<i64> {
        let (negative, magnitude) = self.value()?;
        if negative {
            0i64.checked_sub_unsigned(u64::try_from(magnitude).ok()?)
        } else {
            i64::try_from(magnitude).ok()
        }
    }
}

/// `digits` without its leading zeros, or `0` when all are zero.
fn without_leading_zeros(digits: &str) -> &str {
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() && !digits.is_empty() {
        "0"
    } else {
        trimmed
    }
}

impl Float<'_> {
    /// Writes the float as a JSON number (see [`Number::write_json`]).
    pub(crate) fn write_json<W: Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        match *self {
            Float::Json(text) | Float::PastRange(text) => out.write_str(text),
            Float::Finite(text) => write_float_text(out, text),
            Float::Infinity { negative: false } => out.write_str(".inf"),
            Float::Infinity { negative: true } => out.write_str("-.inf"),
            Float::NaN => out.write_str(".nan"),
        }
    }
}

/// Writes a finite float's YAML text (the float pattern, `_` allowed) as a
/// JSON number: sign, leading zeros, `_`, a bare `.` and the exponent
/// edited (see [`Number::write_json`]).
fn write_float_text<W: Write + ?Sized>(out: &mut W, text: &str) -> fmt::Result {
    let rest = match text.as_bytes().first() {
        Some(b'-') => {
            out.write_str("-")?;
            text.get(1..).unwrap_or("")
        }
        Some(b'+') => text.get(1..).unwrap_or(""),
        _ => text,
    };
    // Leading zeros go, but one stays before `.`, an exponent or the
    // end; a mantissa that starts with `.` gets one.
    let mut start = rest.len();
    let mut last_zero = None;
    for (i, b) in rest.bytes().enumerate() {
        match b {
            b'0' => last_zero = Some(i),
            b'_' => {}
            _ => {
                start = i;
                break;
            }
        }
    }
    if !rest.as_bytes().get(start).is_some_and(u8::is_ascii_digit) {
        match last_zero {
            Some(zero) => start = zero,
            None => out.write_str("0")?,
        }
    }
    let mut digits = JsonDigits {
        out,
        held_plus: false,
    };
    write_exponent_form(&mut digits, rest.get(start..).unwrap_or(""))?;
    digits.finish()
}

/// Whether a float's text is already spelled as [`write_float_text`]
/// writes it (`1.0E+400`, not `1E400`).
fn written_as_spelled(text: &str) -> bool {
    /// Compares what is written with the text, without storing it.
    struct Same<'t>(Option<&'t str>);
    impl Write for Same<'_> {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.0 = self.0.and_then(|rest| rest.strip_prefix(s));
            Ok(())
        }
    }
    let mut same = Same(Some(text));
    write_float_text(&mut same, text).is_ok() && same.0 == Some("")
}

/// Takes what `write_exponent_form` writes for a float's YAML text and
/// passes on JSON number text: every `_` dropped, a `0` after a `.` that
/// ends the mantissa, and the `+` that the exponent rule adds (which it
/// writes as a piece of its own) dropped when the source's sign follows a
/// `_` (`1e_-3`).
struct JsonDigits<'w, W: Write + ?Sized> {
    out: &'w mut W,
    held_plus: bool,
}

impl<W: Write + ?Sized> JsonDigits<'_, W> {
    fn finish(self) -> fmt::Result {
        if self.held_plus {
            self.out.write_str("+")?;
        }
        Ok(())
    }
}

impl<W: Write + ?Sized> Write for JsonDigits<'_, W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if s == "+" {
            self.held_plus = true;
            return Ok(());
        }
        let Some(first) = s.bytes().find(|&b| b != b'_') else {
            return Ok(());
        };
        if core::mem::take(&mut self.held_plus) && first != b'+' && first != b'-' {
            self.out.write_str("+")?;
        }
        for piece in s.split('_') {
            self.out.write_str(piece)?;
        }
        if s.trim_end_matches('_').ends_with('.') {
            self.out.write_str("0")?;
        }
        Ok(())
    }
}

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
fn may_be_special(text: &str) -> bool {
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
fn plain_json_number(text: &str) -> Option<Number<'_>> {
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
fn resolve_kubectl(text: &str) -> Result<Value<'_>, Refusal> {
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
            if float_syntax(text.bytes().filter(|&b| b != b'_')) {
                if !past_f64(text) {
                    return Ok(Value::Number(Number::Float(Float::Finite(text))));
                }
                if written_as_spelled(text) {
                    return Ok(Value::Number(Number::Float(Float::PastRange(text))));
                }
            }
            // Past float64's range, or no number: a string (go-yaml v2's
            // last try, `0b` digits in base 2, fails past 64 bits as well).
            Ok(Value::Str(text))
        }
        _ => Ok(Value::Str(text)),
    }
}

/// The YAML 1.2 core schema.
fn resolve_yaml12(text: &str) -> Result<Value<'_>, Refusal> {
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

/// The value of `digits` (all valid in `radix`), or `None` past `u128`.
fn magnitude(digits: impl Iterator<Item = u8>, radix: u32) -> Option<u128> {
    let mut value: u128 = 0;
    for b in digits {
        let digit = (b as char).to_digit(radix)?;
        value = value
            .checked_mul(u128::from(radix))?
            .checked_add(u128::from(digit))?;
    }
    Some(value)
}

/// Go's `strconv.ParseInt(s, 0, 64)`, then `ParseUint(s, 0, 64)`, on the text
/// with every `_` removed: `[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)`
/// in `[-2^63, 2^64)`. The sign comes back unset for zero.
fn go_int(text: &str) -> Option<(bool, u128)> {
    let mut bytes = text.bytes().filter(|&b| b != b'_').peekable();
    let negative = match bytes.peek() {
        Some(b'-') => {
            bytes.next();
            true
        }
        Some(b'+') => {
            bytes.next();
            false
        }
        _ => false,
    };
    let radix = match bytes.next()? {
        b'0' => match bytes.peek().map(u8::to_ascii_lowercase) {
            None => 8,
            Some(b'x' | b'o' | b'b') => {
                let radix = match bytes.next().map(|b| b.to_ascii_lowercase()) {
                    Some(b'x') => 16,
                    Some(b'o') => 8,
                    _ => 2,
                };
                bytes.peek()?;
                radix
            }
            Some(_) => 8,
        },
        first @ b'1'..=b'9' => {
            let magnitude = magnitude(core::iter::once(first).chain(bytes), 10)?;
            return in_go_range(negative, magnitude);
        }
        _ => return None,
    };
    in_go_range(negative, magnitude(bytes, radix)?)
}

/// go-yaml v2's last try at an integer, where Go's base-0 parsing fails:
/// `0b`, a sign, binary digits (`ParseInt(s[2:], 2, 64)` on the text with
/// every `_` removed): `0b+1` is 1 and `0b-1` is -1, within int64 (a sign
/// keeps `ParseUint` out). The sign comes back unset for zero.
fn go_signed_binary(text: &str) -> Option<(bool, u128)> {
    let mut bytes = text.bytes().filter(|&b| b != b'_').peekable();
    if (bytes.next(), bytes.next()) != (Some(b'0'), Some(b'b')) {
        return None;
    }
    let negative = match bytes.next()? {
        b'+' => false,
        b'-' => true,
        _ => return None,
    };
    bytes.peek()?;
    let magnitude = magnitude(bytes, 2)?;
    let fits = if negative {
        magnitude <= 1 << 63
    } else {
        magnitude < 1 << 63
    };
    fits.then_some((negative && magnitude != 0, magnitude))
}

fn in_go_range(negative: bool, magnitude: u128) -> Option<(bool, u128)> {
    let fits = if negative {
        magnitude <= 1 << 63
    } else {
        magnitude < 1 << 64
    };
    fits.then_some((negative, magnitude))
}

/// Whether `bytes` match `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`,
/// the float pattern of both schemas.
fn float_syntax(bytes: impl Iterator<Item = u8>) -> bool {
    let mut bytes = bytes.peekable();
    if matches!(bytes.peek(), Some(b'-' | b'+')) {
        bytes.next();
    }
    let mut whole = 0;
    while bytes.next_if(u8::is_ascii_digit).is_some() {
        whole += 1;
    }
    let mut fraction = 0;
    if bytes.next_if_eq(&b'.').is_some() {
        while bytes.next_if(u8::is_ascii_digit).is_some() {
            fraction += 1;
        }
        if whole == 0 && fraction == 0 {
            return false;
        }
    } else if whole == 0 {
        return false;
    }
    if bytes.next_if(|&b| b == b'e' || b == b'E').is_some() {
        bytes.next_if(|&b| b == b'-' || b == b'+');
        if bytes.next_if(u8::is_ascii_digit).is_none() {
            return false;
        }
        while bytes.next_if(u8::is_ascii_digit).is_some() {}
    }
    bytes.next().is_none()
}

/// Whether a text that starts with `.` is a decimal float to Go's
/// `ParseFloat` (and Python's `float`): `\.D(_?D)*([eE][-+]?D(_?D)*)?`.
fn go_dot_float(bytes: &[u8]) -> bool {
    /// The end of `D(_?D)*` from `i`, if it is there.
    fn digits(bytes: &[u8], mut i: usize) -> Option<usize> {
        if !bytes.get(i)?.is_ascii_digit() {
            return None;
        }
        i += 1;
        loop {
            match bytes.get(i) {
                Some(b) if b.is_ascii_digit() => i += 1,
                Some(b'_') if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => i += 2,
                _ => return Some(i),
            }
        }
    }
    let Some(mut i) = digits(bytes, 1) else {
        return false;
    };
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        match digits(bytes, i) {
            Some(end) => i = end,
            None => return false,
        }
    }
    i == bytes.len()
}

/// A decimal float's text (float pattern, `_` allowed anywhere) as
/// `0.D × 10^exp10`: where its mantissa is, and the power of ten.
struct Scientific<'a> {
    negative: bool,
    /// The mantissa's text (no sign, no exponent).
    mantissa: &'a str,
    /// The power of ten, saturated far past any float's range.
    exp10: i64,
    /// Whether any digit is not `0`.
    nonzero: bool,
}

impl<'a> Scientific<'a> {
    fn of(text: &'a str) -> Scientific<'a> {
        let (negative, body) = match text.as_bytes().first() {
            Some(b'-') => (true, text.get(1..).unwrap_or("")),
            Some(b'+') => (false, text.get(1..).unwrap_or("")),
            _ => (false, text),
        };
        let (mantissa, exponent) = match body.find(['e', 'E']) {
            Some(e) => (body.get(..e).unwrap_or(""), body.get(e + 1..).unwrap_or("")),
            None => (body, ""),
        };
        const CAP: i64 = 1 << 40;
        let mut exp: i64 = 0;
        for b in exponent.bytes().filter(u8::is_ascii_digit) {
            exp = (exp * 10 + i64::from(b - b'0')).min(CAP);
        }
        if exponent.contains('-') {
            exp = -exp;
        }
        let (mut seen_dot, mut seen_digit) = (false, false);
        let (mut whole, mut zeros_after_dot) = (0i64, 0i64);
        for b in mantissa.bytes() {
            match b {
                b'.' => seen_dot = true,
                b'0' if !seen_digit => zeros_after_dot += i64::from(seen_dot),
                b'0'..=b'9' => {
                    seen_digit = true;
                    whole += i64::from(!seen_dot);
                }
                _ => {}
            }
        }
        let exp10 = if whole > 0 {
            whole.min(CAP)
        } else {
            -zeros_after_dot.min(CAP)
        };
        Scientific {
            negative,
            mantissa,
            exp10: exp10 + exp,
            nonzero: seen_digit,
        }
    }

    /// The significant digits, from the first that is not `0`.
    fn digits(&self) -> impl Iterator<Item = u8> + 'a {
        self.mantissa
            .bytes()
            .filter(u8::is_ascii_digit)
            .skip_while(|&b| b == b'0')
    }
}

/// `2^1024 - 2^970`, the least number that rounds to float64 infinity (the
/// midpoint between the largest float64 and `2^1024` rounds to even, up).
const F64_OVERFLOW: &str = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792";

/// Whether a decimal float's text is past float64's range (Go's
/// `ParseFloat` fails, Python's `float` gives infinity), exactly: its value
/// is at least [`F64_OVERFLOW`].
fn past_f64(text: &str) -> bool {
    let number = Scientific::of(text);
    if !number.nonzero || number.exp10 < F64_OVERFLOW.len() as i64 {
        return false;
    }
    if number.exp10 > F64_OVERFLOW.len() as i64 {
        return true;
    }
    let mut digits = number.digits();
    let limit = F64_OVERFLOW.as_bytes();
    for (i, &l) in limit.iter().enumerate() {
        match digits.next() {
            Some(d) if d == l => {}
            Some(d) => return d > l,
            // The digits ran out: as large only if the rest of the limit is 0.
            None => return limit.get(i..).unwrap_or(&[]).iter().all(|&b| b == b'0'),
        }
    }
    true
}

/// The nearest float64 to a decimal float's text (float pattern, `_`
/// allowed). At most 800 significant digits are read, and one more that
/// stands for all the rest (a `1` when any of them is not `0`): float64
/// rounding needs no more than 767 to decide.
fn float_value(text: &str) -> f64 {
    let number = Scientific::of(text);
    let signed = |v: f64| if number.negative { -v } else { v };
    if !number.nonzero || number.exp10 < -400 {
        return signed(0.0);
    }
    if number.exp10 > 400 {
        return signed(f64::INFINITY);
    }
    let mut buf = Buf::<840>::new();
    let _ = buf.write_str("0.");
    let mut digits = number.digits();
    for d in digits.by_ref().take(800) {
        buf.push(d);
    }
    if digits.any(|d| d != b'0') {
        buf.push(b'1');
    }
    let _ = write!(buf, "e{}", number.exp10);
    signed(buf.as_str().parse::<f64>().unwrap_or(f64::NAN))
}

/// A few bytes on the stack, written through `fmt::Write`.
struct Buf<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Buf<N> {
    fn new() -> Self {
        Buf {
            bytes: [0; N],
            len: 0,
        }
    }

    /// Appends an ASCII byte (dropped when full).
    fn push(&mut self, b: u8) {
        if let Some(slot) = self.bytes.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }

    fn as_str(&self) -> &str {
        core::str::from_utf8(self.bytes.get(..self.len).unwrap_or(&[])).unwrap_or("")
    }
}

impl<const N: usize> Write for Buf<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let slot = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// A map key as text, the way kubectl's `YAMLToJSON` turns a resolved plain
/// key into a JSON key; written by [`Key::write_text`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Key<'a> {
    /// A string key: its text.
    Str(&'a str),
    /// `true` or `false`.
    Bool(bool),
    /// An integer in `i64`: in decimal.
    Int(i64),
    /// A float: Go's `strconv.FormatFloat(f, 'g', -1, 32)` of it, the
    /// shortest text that reads back as the same float32 (`1e3` → `1000`,
    /// `1e6` → `1e+06`, `0.1` → `0.1`); past float32's range `.inf` or
    /// `-.inf`, and `.nan` (sigs.k8s.io/yaml's words for Go's `+Inf`,
    /// `-Inf`, `NaN`).
    Float32(f32),
}

/// Resolves a plain key under `schema` and turns it into key text
/// (`1` → "1", `on` → "true" under kubectl, `1e3` → "1000"). A null key and
/// an integer key past int64 are refused, as kubectl refuses them.
#[cfg(test)] // Only the tests call it.
pub(crate) fn resolve_key(text: &str, schema: Schema) -> Result<Key<'_>, Refusal> {
    plain_key(text, resolve_plain(text, schema))
}

/// The key of a plain scalar `text` read as `reading`: [`key_of`] it, but
/// kubectl refuses infinity and NaN only as values: as a key, a float
/// like any other (`.inf:`, `-.Inf:`, `.NaN:` are the keys `.inf`,
/// `-.inf`, `.nan`).
pub(crate) fn plain_key<'a>(
    text: &'a str,
    reading: Result<Value<'a>, Refusal>,
) -> Result<Key<'a>, Refusal> {
    match reading {
        Err(NOT_FINITE) => Ok(Key::Float32(match text.as_bytes() {
            [b'-', ..] => f32::NEG_INFINITY,
            [b'+' | b'.', b'i' | b'I' | b'.', ..] => f32::INFINITY,
            _ => f32::NAN,
        })),
        reading => key_of(reading?),
    }
}

/// The key text of a resolved scalar (a null or an integer past int64 is
/// refused).
pub(crate) fn key_of(value: Value<'_>) -> Result<Key<'_>, Refusal> {
    match value {
        Value::Null => Err(NULL_KEY),
        Value::Bool(b) => Ok(Key::Bool(b)),
        Value::Str(s) => Ok(Key::Str(s)),
        Value::Number(Number::Int(i)) => i.as_i64().map(Key::Int).ok_or(KEY_PAST_INT64),
        // kubectl's text for a float it cannot hold.
        Value::Number(Number::Float(Float::PastRange(s))) => Ok(Key::Str(s)),
        Value::Number(Number::Float(f)) => Ok(Key::Float32(match f {
            // float64 first, then float32, as Go converts (rounding twice).
            Float::Finite(text) | Float::Json(text) | Float::PastRange(text) => {
                float_value(text) as f32
            }
            Float::Infinity { negative: false } => f32::INFINITY,
            Float::Infinity { negative: true } => f32::NEG_INFINITY,
            Float::NaN => f32::NAN,
        })),
    }
}

impl Key<'_> {
    /// Writes the key's text (a string key as it is: quoting is the
    /// emitter's).
    pub(crate) fn write_text<W: Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        match *self {
            Key::Str(s) => out.write_str(s),
            Key::Bool(b) => out.write_str(if b { "true" } else { "false" }),
            Key::Int(i) => write!(out, "{i}"),
            Key::Float32(f) => write_go_float32(out, f),
        }
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)`: the shortest digits that
/// read back as `f`, in `%e` form (`1e+06`, two exponent digits at least)
/// when the decimal exponent is below -4 or at least 6, else in `%f` form.
fn write_go_float32<W: Write + ?Sized>(out: &mut W, f: f32) -> fmt::Result {
    // sigs.k8s.io/yaml's words for Go's `NaN`, `+Inf`, `-Inf`.
    if f.is_nan() {
        return out.write_str(".nan");
    }
    let sign = if f.is_sign_negative() { "-" } else { "" };
    if f.is_infinite() {
        return out.write_str(if f < 0.0 { "-.inf" } else { ".inf" });
    }
    if f == 0.0 {
        return write!(out, "{sign}0");
    }
    // Rust's `{:e}` gives the same shortest digits: `1.5e-7`, `1e3`.
    let mut shortest = Buf::<32>::new();
    write!(shortest, "{:e}", f.abs())?;
    let (mantissa, exp) = shortest.as_str().split_once('e').ok_or(fmt::Error)?;
    let exp: i32 = exp.parse().map_err(|_| fmt::Error)?;
    let (first, rest) = mantissa.split_at_checked(1).ok_or(fmt::Error)?;
    let rest = rest.strip_prefix('.').unwrap_or(rest);
    out.write_str(sign)?;
    if !(-4..6).contains(&exp) {
        let dot = if rest.is_empty() { "" } else { "." };
        let exp_sign = if exp < 0 { '-' } else { '+' };
        return write!(
            out,
            "{first}{dot}{rest}e{exp_sign}{:02}",
            exp.unsigned_abs()
        );
    }
    if exp < 0 {
        out.write_str("0.")?;
        for _ in 1..exp.unsigned_abs() {
            out.write_str("0")?;
        }
        return write!(out, "{first}{rest}");
    }
    // `exp` in 0..6: the first `exp + 1` digits are whole.
    let whole = exp.unsigned_abs() as usize;
    out.write_str(first)?;
    let (int_rest, fraction) = rest
        .split_at_checked(whole.min(rest.len()))
        .ok_or(fmt::Error)?;
    out.write_str(int_rest)?;
    for _ in int_rest.len()..whole {
        out.write_str("0")?;
    }
    if !fraction.is_empty() {
        write!(out, ".{fraction}")?;
    }
    Ok(())
}

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

/// Whether the two schemas read the plain scalar `text` differently, that
/// is, whether the output under one would differ from the output under the
/// other (`08` is the float 8 to kubectl and the integer 8 to YAML 1.2,
/// both written `8`: no difference).
#[cfg(test)] // Only the tests call it.
pub(crate) fn ambiguity(text: &str, schema: Schema) -> Option<Ambiguity<'_>> {
    resolve_plain_warned(text, schema).1
}

/// [`resolve_plain`] and [`ambiguity`] at once, each schema's reading
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
    let ambiguity = (!same).then_some(Ambiguity {
        text,
        schema,
        reading,
        other,
    });
    (reading, ambiguity)
}

/// Whether both schemas surely read `text` alike, from its shape alone.
/// They differ only on numbers (a digit, sign or `.` first) and on
/// kubectl's extra booleans (`y`, `yes`, `n`, `no`, `on`, `off`); among
/// numbers, a JSON-style decimal without exponent (`-12`, `0.5`, no
/// leading zero, no `_`) reads alike unless it is long: an integer past
/// 38 digits, or a float long enough to pass float64's range (309).
fn read_alike(text: &str) -> bool {
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
fn written_alike(a: &Value<'_>, b: &Value<'_>) -> bool {
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

/// A tag on a scalar, as far as the data is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tag<'t> {
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

impl<'t> Tag<'t> {
    /// Names a tag, given as the YAML shorthand (`!!int`), verbatim
    /// (`!<tag:yaml.org,2002:int>`) or resolved (`tag:yaml.org,2002:int`).
    pub(crate) fn of(tag: &'t str) -> Tag<'t> {
        let name = tag
            .strip_prefix("!!")
            .or_else(|| tag.strip_prefix("tag:yaml.org,2002:"))
            .or_else(|| {
                tag.strip_prefix("!<tag:yaml.org,2002:")
                    .and_then(|t| t.strip_suffix('>'))
            });
        match name {
            Some("str") => Tag::Str,
            Some("int") => Tag::Int,
            Some("float") => Tag::Float,
            Some("bool") => Tag::Bool,
            Some("null") => Tag::Null,
            Some("timestamp") => Tag::Timestamp,
            Some("binary") => Tag::Binary,
            Some("map") => Tag::Map,
            Some("seq") => Tag::Seq,
            Some("merge") => Tag::Merge,
            _ if tag == "!" => Tag::NonSpecific,
            _ => Tag::Other(tag),
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
    tag: Tag<'_>,
    text: &'a str,
    schema: Schema,
) -> Result<Tagged<'a>, Refusal> {
    let value = || resolve_plain(text, schema);
    match tag {
        Tag::Int => match value() {
            Ok(v @ Value::Number(Number::Int(int))) if int_to_kubectl(int) => Ok(Tagged::Value(v)),
            _ => Err(NOT_INT),
        },
        Tag::Float => match value() {
            Ok(Value::Number(Number::Float(Float::PastRange(_)))) => Err(NOT_FLOAT),
            Ok(v @ Value::Number(_)) => Ok(Tagged::Value(v)),
            _ => Err(NOT_FLOAT),
        },
        Tag::Bool => match value() {
            Ok(v @ Value::Bool(_)) => Ok(Tagged::Value(v)),
            _ => Err(NOT_BOOL),
        },
        Tag::Null => match value() {
            Ok(Value::Null) => Ok(Tagged::Value(Value::Null)),
            _ => Err(NOT_NULL),
        },
        Tag::Timestamp if is_timestamp(text) => Ok(Tagged::Value(Value::Str(text))),
        Tag::Timestamp => Err(NOT_TIMESTAMP),
        Tag::Binary => Binary::new(text).map(Tagged::Binary),
        Tag::Str | Tag::Map | Tag::Seq | Tag::NonSpecific | Tag::Merge | Tag::Other(_) => {
            Ok(Tagged::Value(Value::Str(text)))
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value as Json;
    use std::format;
    use std::string::{String, ToString};
    use std::vec::Vec;

    use Schema::{Kubectl, Yaml12};

    /// A reading as text: `null`, `true`, the written number, `"string"`,
    /// or `error`.
    fn read(text: &str, schema: Schema) -> String {
        match resolve_plain(text, schema) {
            Ok(Value::Null) => "null".into(),
            Ok(Value::Bool(b)) => b.to_string(),
            Ok(Value::Number(n)) => {
                let mut out = String::new();
                n.write_json(&mut out).unwrap();
                out
            }
            Ok(Value::Str(s)) => format!("{s:?}"),
            Err(_) => "error".into(),
        }
    }

    /// A reading by the schema's own rules alone (no fast path), the float
    /// written by the full editor: the oracle of the fast paths.
    fn read_by_rules(text: &str, schema: Schema) -> String {
        let value = match schema {
            Kubectl => resolve_kubectl(text),
            Yaml12 => resolve_yaml12(text),
        };
        let mut out = String::new();
        match value {
            Ok(Value::Number(Number::Float(Float::Finite(t) | Float::Json(t)))) => {
                write_float_text(&mut out, t).unwrap();
                out
            }
            Ok(Value::Number(n)) => {
                n.write_json(&mut out).unwrap();
                out
            }
            Ok(Value::Null) => "null".into(),
            Ok(Value::Bool(b)) => b.to_string(),
            Ok(Value::Str(s)) => format!("{s:?}"),
            Err(_) => "error".into(),
        }
    }

    /// The fast paths (a first byte no keyword or number starts with; a
    /// number in JSON's canonical spelling) give what the schemas' rules
    /// give, and the shortcut in `ambiguity` is right: both schemas agree
    /// there. Texts: 300,000 pseudo-random strings over the bytes numbers
    /// and keywords are made of, plus edge cases at the fast path's limits.
    #[test]
    fn fast_paths_agree_with_the_rules() {
        const BYTES: &[u8] = b"0123456789000-+.eE_xob~ynNtTa";
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "-0.0",
            "00",
            "012",
            "123456789012345678",
            "1234567890123456789",
            "-999999999999999999",
            "9223372036854775808",
            "1.5e+99",
            "1.5e+999",
            "1.5e99",
            "1e+5",
            "0.5",
            ".5",
            "5.",
            "1234567890123456789012345678901234567.5",
            "12345678901234567890123456789012345678.5",
            "1234567890123456789012345678901234.5e+99",
            "1_000",
        ]
        .iter()
        .map(|t| t.to_string())
        .collect();
        // Every keyword of either schema, and it with a byte more.
        for word in [
            "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE",
            "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null",
            "NULL", "~", ".inf", "-.Inf", "+.INF", ".nan", ".NaN",
        ] {
            texts.extend([word.to_string(), format!("{word}s"), format!("{word}_")]);
        }
        for _ in 0..300_000 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let len = (seed >> 59) as usize % 12 + 1;
            let mut text = String::new();
            let mut bits = seed;
            for _ in 0..len {
                bits = bits.rotate_left(5) ^ 0x5851_F42D_4C95_7F2D;
                bits = bits.wrapping_mul(0x2545_F491_4F6C_DD1D);
                text.push(BYTES[(bits >> 58) as usize % BYTES.len()] as char);
            }
            texts.push(text);
        }
        let mut fast = 0;
        for text in &texts {
            let number = plain_json_number(text);
            for schema in [Kubectl, Yaml12] {
                assert_eq!(
                    read(text, schema),
                    read_by_rules(text, schema),
                    "{text:?} {schema:?}"
                );
            }
            if number.is_some() {
                fast += 1;
                assert_eq!(read_by_rules(text, Kubectl), *text, "{text:?}");
                assert_eq!(read_by_rules(text, Yaml12), *text, "{text:?}");
            }
            if !may_be_special(text) {
                assert_eq!(read_by_rules(text, Kubectl), format!("{text:?}"));
                assert_eq!(read_by_rules(text, Yaml12), format!("{text:?}"));
            }
        }
        // The texts reach the fast path often enough to test it.
        assert!(fast > 5_000, "{fast}");
    }

    /// A plain key's text, or `None` when it is refused.
    fn key_text(text: &str, schema: Schema) -> Option<String> {
        let k = resolve_key(text, schema).ok()?;
        let mut out = String::new();
        k.write_text(&mut out).unwrap();
        Some(out)
    }

    fn key(text: &str, schema: Schema) -> String {
        key_text(text, schema).unwrap_or_else(|| "error".into())
    }

    fn check(schema: Schema, table: &[(&str, &str)]) {
        for &(text, want) in table {
            assert_eq!(read(text, schema), want, "{text:?} under {}", schema.name());
        }
    }

    #[test]
    fn kubectl_words() {
        check(
            Kubectl,
            &[
                ("y", "true"),
                ("Y", "true"),
                ("yes", "true"),
                ("Yes", "true"),
                ("YES", "true"),
                ("true", "true"),
                ("True", "true"),
                ("TRUE", "true"),
                ("on", "true"),
                ("On", "true"),
                ("ON", "true"),
                ("n", "false"),
                ("N", "false"),
                ("no", "false"),
                ("No", "false"),
                ("NO", "false"),
                ("false", "false"),
                ("False", "false"),
                ("FALSE", "false"),
                ("off", "false"),
                ("Off", "false"),
                ("OFF", "false"),
                ("", "null"),
                ("~", "null"),
                ("null", "null"),
                ("Null", "null"),
                ("NULL", "null"),
                ("yEs", "\"yEs\""),
                ("nULL", "\"nULL\""),
                ("t", "\"t\""),
                ("<<", "\"<<\""),
                ("inf", "\"inf\""),
                ("nan", "\"nan\""),
                (".iNf", "\".iNf\""),
            ],
        );
        for refused in [
            ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.INF", "-.inf", "-.Inf",
        ] {
            assert_eq!(
                resolve_plain(refused, Kubectl),
                Err(NOT_FINITE),
                "{refused}"
            );
        }
    }

    #[test]
    fn kubectl_integers() {
        check(
            Kubectl,
            &[
                ("0", "0"),
                ("-0", "-0"),
                ("+0", "0"),
                ("0777", "511"),
                ("017", "15"),
                ("012", "10"),
                ("00", "0"),
                ("0o17", "15"),
                ("0O17", "15"),
                ("0x1F", "31"),
                ("0X1f", "31"),
                ("0x_1F", "31"),
                ("0b101", "5"),
                ("-0b101", "-5"),
                ("0B11", "3"),
                ("1_000", "1000"),
                ("1__0", "10"),
                ("1_", "1"),
                ("-_1", "-1"),
                ("+12", "12"),
                ("-12", "-12"),
                ("-0x10", "-16"),
                ("9223372036854775807", "9223372036854775807"),
                ("-9223372036854775808", "-9223372036854775808"),
                ("18446744073709551615", "18446744073709551615"),
                ("0xFFFFFFFFFFFFFFFF", "18446744073709551615"),
                // Past uint64, or below int64: a float, or a string.
                ("18446744073709551616", "18446744073709551616"),
                ("-9223372036854775809", "-9223372036854775809"),
                ("0x10000000000000000", "\"0x10000000000000000\""),
                (
                    "0b11111111111111111111111111111111111111111111111111111111111111111",
                    "\"0b11111111111111111111111111111111111111111111111111111111111111111\"",
                ),
                ("_1", "\"_1\""),
                ("0x", "\"0x\""),
                ("0o", "\"0o\""),
                ("0b", "\"0b\""),
                ("0xG", "\"0xG\""),
                ("0o8", "\"0o8\""),
                ("+", "\"+\""),
                ("-", "\"-\""),
                ("--1", "\"--1\""),
                ("1:20", "\"1:20\""),
                ("2024-01-02", "\"2024-01-02\""),
            ],
        );
        // The kind of number is kept (the text does not say).
        assert!(matches!(
            resolve_plain("08", Kubectl),
            Ok(Value::Number(Number::Float(_)))
        ));
        assert!(matches!(
            resolve_plain("0777", Kubectl),
            Ok(Value::Number(Number::Int(_)))
        ));
    }

    #[test]
    fn kubectl_floats() {
        check(
            Kubectl,
            &[
                ("08", "8"),
                ("-08", "-8"),
                ("09.5", "9.5"),
                ("1e3", "1.0e+3"),
                ("1E3", "1.0E+3"),
                ("1e+3", "1.0e+3"),
                ("1e-3", "1.0e-3"),
                ("-1.5e-3", "-1.5e-3"),
                ("1.", "1.0"),
                ("12.", "12.0"),
                ("0.5", "0.5"),
                (".5", "0.5"),
                ("-.5", "-0.5"),
                ("+.5", "0.5"),
                ("1.5_0", "1.50"),
                (".5_5", "0.55"),
                (".5e1_0", "0.5e+10"),
                ("-0.0", "-0.0"),
                ("000.000", "0.000"),
                ("00e3", "0.0e+3"),
                ("-00.5", "-0.5"),
                ("+.5e3", "0.5e+3"),
                ("0_0_7.5", "7.5"),
                ("-_.5", "-0.5"),
                ("12.e3", "12.0e+3"),
                ("12._e3", "12.0e+3"),
                ("1_e3", "1.0e+3"),
                ("1e_+3", "1.0e+3"),
                ("1e_-3", "1.0e-3"),
                ("1e+_3", "1.0e+3"),
                ("1e_+_3", "1.0e+3"),
                ("1_000.5e1_0", "1000.5e+10"),
                ("123456789012345678901234", "123456789012345678901234"),
                ("0e99999999999999999999", "0.0e+99999999999999999999"),
                // Go's ParseFloat: `_` only between digits after a leading `.`.
                ("._5", "\"._5\""),
                (".5_", "\".5_\""),
                (".5__5", "\".5__5\""),
                (".5e_3", "\".5e_3\""),
                (".", "\".\""),
                ("..", "\"..\""),
                (".e3", "\".e3\""),
                ("1.2.3", "\"1.2.3\""),
                ("1e", "\"1e\""),
                ("3e", "\"3e\""),
                ("e3", "\"e3\""),
                ("10.0.0.1", "\"10.0.0.1\""),
                ("1e400", "\"1e400\""),
                ("-1e400", "\"-1e400\""),
                (".1e310", "\".1e310\""),
            ],
        );
    }

    #[test]
    fn float64_range_is_exact() {
        let max = "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368";
        assert!(!past_f64(max));
        assert!(!past_f64("17976931348623158e292"));
        assert!(past_f64("17976931348623159e292"));
        assert!(past_f64(F64_OVERFLOW));
        assert!(past_f64(&format!("{F64_OVERFLOW}.000")));
        assert!(past_f64(&format!("{F64_OVERFLOW}0e-1")));
        let below = format!("{}1.9999", F64_OVERFLOW.get(..308).unwrap());
        assert_eq!(below.len(), 309 + 5);
        assert!(!past_f64(&below));
        assert!(!past_f64("0.0e999999999999999999999999"));
        assert!(past_f64("1_7_9.77e3_06"));
        assert!(!past_f64("1.79e308"));
        assert!(past_f64("1.8e308"));
        assert!(!past_f64(".00001e-9999999999999999999"));
        assert_eq!(float_value("17976931348623158e292"), f64::MAX);
        assert_eq!(float_value("-1_000.5e-1"), -100.05);
        assert_eq!(float_value(".5"), 0.5);
        assert_eq!(float_value("0.000"), 0.0);
        assert_eq!(float_value("1e-400"), 0.0);
        let long = format!("0.{}1", "0".repeat(2000));
        assert_eq!(float_value(&long), 0.0);
        // 2^-1075 (half the least subnormal), plus a little far away: rounds up.
        let half_least = "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324";
        assert_eq!(float_value(half_least), 0.0);
        assert_eq!(float_value(&format!("{half_least}1")), 0.0);
        let just_over = format!("{}1e-324", half_least.trim_end_matches("e-324"));
        assert_eq!(float_value(&just_over), f64::from_bits(1));
        let far_over = format!(
            "{}{}1e-324",
            half_least.trim_end_matches("e-324"),
            "0".repeat(1000)
        );
        assert_eq!(float_value(&far_over), f64::from_bits(1));
    }

    #[test]
    fn yaml12_core_schema() {
        check(
            Yaml12,
            &[
                ("true", "true"),
                ("True", "true"),
                ("TRUE", "true"),
                ("false", "false"),
                ("False", "false"),
                ("FALSE", "false"),
                ("yes", "\"yes\""),
                ("on", "\"on\""),
                ("y", "\"y\""),
                ("off", "\"off\""),
                ("tRUE", "\"tRUE\""),
                ("", "null"),
                ("~", "null"),
                ("null", "null"),
                ("Null", "null"),
                ("NULL", "null"),
                ("0", "0"),
                ("-0", "-0"),
                ("+0", "0"),
                ("0777", "777"),
                ("+12", "12"),
                ("-012", "-12"),
                ("007", "7"),
                ("0o17", "15"),
                ("0x1F", "31"),
                ("0x1f", "31"),
                ("0O17", "\"0O17\""),
                ("0X1F", "\"0X1F\""),
                ("-0x1F", "\"-0x1F\""),
                ("0b101", "\"0b101\""),
                ("1_000", "\"1_000\""),
                ("0o8", "\"0o8\""),
                (
                    "123456789012345678901234567890",
                    "123456789012345678901234567890",
                ),
                (
                    "-000123456789012345678901234567890",
                    "-123456789012345678901234567890",
                ),
                (
                    "0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
                    "340282366920938463463374607431768211455",
                ),
                ("1e3", "1.0e+3"),
                (".5", "0.5"),
                ("12.", "12.0"),
                ("-.5e-3", "-0.5e-3"),
                ("08", "8"),
                ("1e400", "1.0e+400"),
                (".inf", ".inf"),
                (".Inf", ".inf"),
                ("+.INF", ".inf"),
                ("-.inf", "-.inf"),
                ("-.Inf", "-.inf"),
                (".nan", ".nan"),
                (".NaN", ".nan"),
                (".NAN", ".nan"),
                ("-.nan", "\"-.nan\""),
                (".5_5", "\".5_5\""),
                ("1:20", "\"1:20\""),
                ("<<", "\"<<\""),
            ],
        );
        assert_eq!(
            resolve_plain("0x1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", Yaml12),
            Err(PAST_U128)
        );
    }

    #[test]
    fn keys() {
        for (text, want) in [
            ("1", "1"),
            ("on", "true"),
            ("no", "false"),
            ("0777", "511"),
            ("-0x10", "-16"),
            ("1e3", "1000"),
            ("1e6", "1e+06"),
            ("1e-7", "1e-07"),
            ("0.1", "0.1"),
            ("1.5", "1.5"),
            ("123456", "123456"),
            ("1234567.0", "1.234567e+06"),
            ("0.0001", "0.0001"),
            ("0.00001", "1e-05"),
            ("16777217.0", "1.6777216e+07"),
            ("1e38", "1e+38"),
            ("-0.0", "-0"),
            ("0.0", "0"),
            ("3.4028235e38", "3.4028235e+38"),
            ("1e39", ".inf"),
            ("-1e39", "-.inf"),
            ("3.5e38", ".inf"),
            ("1e-46", "0"),
            ("1e-45", "1e-45"),
            ("100.", "100"),
            ("12.5", "12.5"),
            ("-3.25e2", "-325"),
            ("08", "8"),
            ("123456789012345678901234", "1.2345679e+23"),
            ("9223372036854775807", "9223372036854775807"),
            ("-9223372036854775808", "-9223372036854775808"),
            ("9223372036854775808", "error"),
            ("18446744073709551615", "error"),
            ("~", "error"),
            ("", "error"),
            // As keys, infinity and NaN are floats like any other.
            (".inf", ".inf"),
            ("-.Inf", "-.inf"),
            ("+.INF", ".inf"),
            (".NaN", ".nan"),
            (".Nan", ".Nan"),
            ("0b+1", "1"),
            ("0b-1", "-1"),
            ("name", "name"),
            ("<<", "<<"),
        ] {
            assert_eq!(key(text, Kubectl), want, "key {text:?}");
        }
        for (text, want) in [
            ("yes", "yes"),
            ("0777", "777"),
            (".inf", ".inf"),
            ("-.inf", "-.inf"),
            (".nan", ".nan"),
            ("99999999999999999999", "error"),
            ("null", "error"),
            ("True", "true"),
            ("1e3", "1000"),
        ] {
            assert_eq!(key(text, Yaml12), want, "key {text:?} under yaml-1.2");
        }
    }

    #[test]
    fn ambiguities() {
        let warn = |text: &str, schema: Schema| ambiguity(text, schema).map(|a| a.to_string());
        for (text, schema, want) in [
            ("yes", Kubectl, "plain scalar 'yes' is the boolean true under schema kubectl but the string \"yes\" under yaml-1.2; quote it to keep the string"),
            ("yes", Yaml12, "plain scalar 'yes' is the string \"yes\" under schema yaml-1.2 but the boolean true under kubectl; quote it to keep the string"),
            ("0777", Kubectl, "plain scalar '0777' is the integer 511 under schema kubectl but the integer 777 under yaml-1.2; write it as 511 to mean the same under both"),
            ("1_000", Kubectl, "plain scalar '1_000' is the integer 1000 under schema kubectl but the string \"1_000\" under yaml-1.2; quote it to keep the string"),
            (".inf", Yaml12, "plain scalar '.inf' is the float .inf under schema yaml-1.2 but an error under kubectl; quote it to keep the string"),
            ("1e400", Kubectl, "plain scalar '1e400' is the string \"1e400\" under schema kubectl but the float 1.0e+400 under yaml-1.2; quote it to keep the string"),
        ] {
            assert_eq!(warn(text, schema).as_deref(), Some(want));
        }
        for differ in [
            "on", "Off", "y", "N", "0b101", "0O17", "017", "0x_1F", "1__0", "12_3.5", "-0b1",
            "+0x1", ".5_5", "1e_3",
        ] {
            assert!(ambiguity(differ, Kubectl).is_some(), "{differ}");
            assert!(ambiguity(differ, Yaml12).is_some(), "{differ}");
        }
        for same in [
            "true",
            "False",
            "NULL",
            "~",
            "",
            "12",
            "+12",
            "-0",
            "0x1F",
            "0o17",
            "08",
            "-08",
            "1e3",
            ".5",
            "12.",
            "-1.5e-3",
            "99999999999999999999",
            "-9223372036854775809",
            "2024-01-02",
            "name",
            "<<",
            "0",
            "00",
            "1:20",
        ] {
            assert_eq!(warn(same, Kubectl), None, "{same}");
            assert_eq!(warn(same, Yaml12), None, "{same}");
        }
    }

    fn tagged(tag: &str, text: &str, schema: Schema) -> String {
        match resolve_tagged(Tag::of(tag), text, schema) {
            Ok(Tagged::Value(Value::Str(s))) => format!("{s:?}"),
            Ok(Tagged::Value(_)) => read(text, schema),
            Ok(Tagged::Binary(b)) => {
                let mut out = String::new();
                b.write_text(&mut out).unwrap();
                assert_eq!(b.bytes().collect::<Vec<u8>>(), out.as_bytes());
                format!("binary {out:?}")
            }
            Err(_) => "error".into(),
        }
    }

    #[test]
    fn tags() {
        assert_eq!(Tag::of("!!str"), Tag::Str);
        assert_eq!(Tag::of("tag:yaml.org,2002:int"), Tag::Int);
        assert_eq!(Tag::of("!<tag:yaml.org,2002:float>"), Tag::Float);
        assert_eq!(Tag::of("!!bool"), Tag::Bool);
        assert_eq!(Tag::of("!!null"), Tag::Null);
        assert_eq!(Tag::of("!!timestamp"), Tag::Timestamp);
        assert_eq!(Tag::of("!!binary"), Tag::Binary);
        assert_eq!(Tag::of("!!map"), Tag::Map);
        assert_eq!(Tag::of("!!seq"), Tag::Seq);
        assert_eq!(Tag::of("!"), Tag::NonSpecific);
        assert_eq!(Tag::of("!foo"), Tag::Other("!foo"));
        assert_eq!(Tag::of("!!set"), Tag::Other("!!set"));
        // The "explicit tags" case of yaml-data.jsonl.
        for (tag, text, want) in [
            ("!!str", "123", "\"123\""),
            ("!!int", "42", "42"),
            ("!!float", "1", "1"),
            ("!!bool", "yes", "true"),
            ("!!null", "", "null"),
            ("!!str", "on", "\"on\""),
            ("!!binary", "aGVsbG8=", "binary \"hello\""),
            ("!foo", "bar", "\"bar\""),
            ("!foo", "12", "\"12\""),
            ("!!timestamp", "2001-12-14", "\"2001-12-14\""),
            ("!", "on", "\"on\""),
            ("!!int", "abc", "error"),
            ("!!int", "1.5", "error"),
            ("!!int", "on", "error"),
            ("!!int", "", "error"),
            ("!!int", "0x1F", "31"),
            ("!!int", "99999999999999999999", "error"),
            ("!!float", "abc", "error"),
            ("!!float", "1e400", "error"),
            ("!!bool", "1", "error"),
            ("!!null", "~", "null"),
            ("!!null", "foo", "error"),
            ("!!timestamp", "foo", "error"),
            (
                "!!timestamp",
                "2001-12-14 21:59:43.10",
                "\"2001-12-14 21:59:43.10\"",
            ),
            ("!!timestamp", "2001-02-30", "error"),
            ("!!merge", "foo", "\"foo\""),
            ("!!float", ".inf", "error"),
        ] {
            assert_eq!(tagged(tag, text, Kubectl), want, "{tag} {text}");
        }
        // YAML 1.2's core schema has no `yes`: its `!!bool` refuses it.
        assert_eq!(tagged("!!bool", "yes", Yaml12), "error");
        assert_eq!(tagged("!!float", ".inf", Yaml12), ".inf");
    }

    #[test]
    fn binary() {
        for (text, want) in [
            ("", Some("")),
            ("YQ==", Some("a")),
            ("YR==", Some("a")),
            ("YWI=", Some("ab")),
            ("YWJj", Some("abc")),
            ("aGVs\n bG8=\n", Some("hello")),
            ("aGVs\tbG8=", Some("hello")),
            ("w6k=", Some("é")),
            ("8J+YgA==", Some("😀")),
            ("YQ", None),
            ("YQ=", None),
            ("Y===", None),
            ("YQ==YQ==", None),
            ("=YQ=", None),
            ("YQ=a", None),
            ("Y", None),
            ("YWJ$", None),
            ("/w==", None),
            ("w6", None),
        ] {
            let got = Binary::new(text).ok().map(|b| {
                let mut out = String::new();
                b.write_text(&mut out).unwrap();
                out
            });
            assert_eq!(got.as_deref(), want, "{text:?}");
        }
        // Long text crosses the 64-byte buffer with characters split.
        let long: String = "é😀a".repeat(100);
        let encoded = base64(long.as_bytes());
        let mut out = String::new();
        Binary::new(&encoded).unwrap().write_text(&mut out).unwrap();
        assert_eq!(out, long);
        let mut bad = long.into_bytes();
        bad[150] = 0xFF;
        assert_eq!(Binary::new(&base64(&bad)), Err(BAD_BINARY));
    }

    fn base64(bytes: &[u8]) -> String {
        const DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            let n =
                chunk.iter().fold(0u32, |n, &b| n << 8 | u32::from(b)) << (8 * (3 - chunk.len()));
            for i in 0..4 {
                if i <= chunk.len() {
                    out.push(DIGITS[(n >> (18 - 6 * i) & 63) as usize] as char);
                } else {
                    out.push('=');
                }
            }
        }
        out
    }

    /// Our reading as JSON data (a refusal as `None`).
    fn as_json(reading: Result<Value<'_>, Refusal>) -> Option<Json> {
        Some(match reading.ok()? {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(b),
            // kubectl reads it as its text.
            Value::Str(s) | Value::Number(Number::Float(Float::PastRange(s))) => {
                Json::String(s.into())
            }
            Value::Number(n) => {
                let mut text = String::new();
                n.write_json(&mut text).unwrap();
                // Rust's own float parsing (serde_json's refuses some texts
                // near float64's limit).
                match serde_json::from_str::<Json>(&text) {
                    Ok(n @ Json::Number(_)) if !n.is_f64() => n,
                    _ => Json::from(text.parse::<f64>().unwrap()),
                }
            }
        })
    }

    /// Equal data, numbers by value.
    fn same(a: &Json, b: &Json) -> bool {
        match (a, b) {
            (Json::Number(x), Json::Number(y)) => {
                match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                    (Some(x), Some(y), _, _) => x == y,
                    (_, _, Some(x), Some(y)) => x == y,
                    // serde_json's float parsing can be one unit in the last
                    // place off; the text we write has every digit of the source.
                    _ => match (x.as_f64(), y.as_f64()) {
                        (Some(x), Some(y)) => (x - y).abs() <= 4e-16 * x.abs().max(y.abs()),
                        _ => false,
                    },
                }
            }
            _ => a == b,
        }
    }

    fn data(file: &str) -> String {
        std::fs::read_to_string(format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR")))
            .unwrap()
    }

    /// Every plain-scalar case of yaml-data.jsonl (`v: X`, `X: v`, `- X`)
    /// read by the resolver alone.
    #[test]
    fn yaml_data_plain_scalars() {
        let (mut cases, mut passed) = (0, 0);
        for line in data("yaml-data.jsonl").lines() {
            let case: Json = serde_json::from_str(line).unwrap();
            let yaml = case["yaml"].as_str().unwrap();
            let name = case["name"].as_str().unwrap();
            let (scalar, place) = if let Some(x) = name.strip_prefix("value '") {
                (
                    yaml.strip_prefix("v: ").and_then(|y| y.strip_suffix('\n')),
                    x,
                )
            } else if let Some(x) = name.strip_prefix("key '") {
                (yaml.strip_suffix(": v\n"), x)
            } else if let Some(x) = name.strip_prefix("list item '") {
                (
                    yaml.strip_prefix("- ").and_then(|y| y.strip_suffix('\n')),
                    x,
                )
            } else {
                continue;
            };
            let scalar = scalar.unwrap_or_else(|| panic!("{name}: {yaml:?}"));
            assert_eq!(place.strip_suffix('\''), Some(scalar), "{name}");
            let want = case.get("kubectl").map(|docs| docs[0].clone());
            if scalar == "-" && !name.starts_with("key") {
                // `v: -` (a syntax error) and `- -` (a list in a list): a
                // block sequence entry, not a scalar.
                continue;
            }
            cases += 1;
            let ok = if name.starts_with("key") {
                let got = key_text(scalar, Kubectl);
                match (&want, got) {
                    (Some(Json::Object(m)), Some(k)) => {
                        m.len() == 1 && m.get(&k) == Some(&Json::String("v".into()))
                    }
                    (None, None) => true,
                    _ => false,
                }
            } else {
                let value = want.as_ref().map(|w| {
                    if name.starts_with("value") {
                        w["v"].clone()
                    } else {
                        w[0].clone()
                    }
                });
                match (value, as_json(resolve_plain(scalar, Kubectl))) {
                    (Some(w), Some(g)) => same(&w, &g),
                    (None, None) => true,
                    _ => false,
                }
            };
            assert!(ok, "{name}: {scalar:?} want {want:?}");
            passed += 1;
        }
        std::eprintln!("yaml-data.jsonl plain scalars: {passed}/{cases}");
        assert_eq!(cases, 297);
    }

    /// `read_alike`, the shortcut past the second reading, hides nothing:
    /// over the 4,000 random scalars and long numbers, a scalar it skips is
    /// read alike by both schemas.
    #[test]
    fn ambiguity_shortcut_skips_only_what_reads_alike() {
        let mut skipped = 0;
        let long = [
            "1".repeat(299),
            "9".repeat(400),
            format!("{}.5", "9".repeat(310)),
        ];
        let rows = data("plain-scalars.jsonl");
        let texts = rows
            .lines()
            .map(|line| {
                let row: Json = serde_json::from_str(line).unwrap();
                row["scalar"].as_str().unwrap().to_string()
            })
            .chain(long);
        for text in texts {
            let text = text.as_str();
            if read_alike(text) {
                let (a, b) = (resolve_plain(text, Kubectl), resolve_plain(text, Yaml12));
                let alike = match (&a, &b) {
                    (Ok(x), Ok(y)) => written_alike(x, y),
                    (Err(_), Err(_)) => true,
                    _ => false,
                };
                assert!(alike, "{text:?}: {a:?} / {b:?}");
                skipped += 1;
            }
        }
        assert!(skipped > 800, "{skipped}");
    }

    /// The same 4,000 scalars as eemeli's `yaml` (YAML 1.2 core schema)
    /// reads them (tools/gen_plain_scalars_yaml12.js).
    #[test]
    fn random_plain_scalars_agree_with_yaml12_core() {
        let (mut rows, mut agree, mut known) = (0, 0, 0);
        for line in data("plain-scalars-yaml12.jsonl").lines() {
            let row: Json = serde_json::from_str(line).unwrap();
            let scalar = row["scalar"].as_str().unwrap();
            let (kind, text) = (
                row["value"]["type"].as_str().unwrap(),
                row["value"]["text"].as_str().unwrap(),
            );
            rows += 1;
            let got = resolve_plain(scalar, Yaml12);
            let written = |n: &Number<'_>| {
                let mut out = String::new();
                n.write_json(&mut out).unwrap();
                out
            };
            let ok = match (kind, got) {
                ("null", Ok(Value::Null)) => true,
                ("bool", Ok(Value::Bool(b))) => text == b.to_string(),
                // A negative zero keeps its sign (Python's int has none).
                ("int", Ok(Value::Number(n @ Number::Int(_)))) => {
                    let ours = written(&n);
                    ours == text || ours == "-0" && text == "0"
                }
                ("int", Err(PAST_U128)) if text.parse::<u128>().is_err() => {
                    // Our limit: octal and hexadecimal up to 128 bits.
                    known += 1;
                    continue;
                }
                ("float", Ok(Value::Number(Number::Float(Float::NaN)))) => text == "NaN",
                ("float", Ok(Value::Number(Number::Float(Float::Infinity { negative })))) => {
                    text == if negative { "-Infinity" } else { "Infinity" }
                }
                ("float", Ok(Value::Number(n @ Number::Float(_)))) => {
                    let ours: f64 = written(&n).parse().unwrap();
                    if ours.is_infinite() {
                        // Past float64: we keep the text, as the JSON path does.
                        assert!(text.ends_with("Infinity"), "{scalar}");
                        known += 1;
                        continue;
                    }
                    ours == text.parse::<f64>().unwrap()
                }
                ("str", Ok(Value::Str(s))) => s == text,
                _ => false,
            };
            assert!(
                ok,
                "{scalar:?}: want {kind} {text}, got {:?}",
                resolve_plain(scalar, Yaml12)
            );
            agree += 1;
        }
        std::eprintln!(
            "plain-scalars-yaml12.jsonl: {rows} scalars, {agree} agree, {known} known differences"
        );
        assert_eq!(agree + known, rows);
        assert_eq!(rows, 4000);
    }

    /// 4,000 random plain scalars as kubectl_read.py reads them
    /// (tools/gen_plain_scalars.py), as values and as keys.
    #[test]
    fn random_plain_scalars_agree_with_kubectl_read() {
        let (mut rows, mut values, mut keys, mut known) = (0, 0, 0, 0);
        for line in data("plain-scalars.jsonl").lines() {
            let row: Json = serde_json::from_str(line).unwrap();
            let scalar = row["scalar"].as_str().unwrap();
            rows += 1;
            let got = as_json(resolve_plain(scalar, Kubectl));
            let python_big_binary = {
                // kubectl_read.py's last try reads `0b` digits of any length;
                // go-yaml v2's stops at 64 bits and keeps the string.
                let p: String = scalar.chars().filter(|&c| c != '_').collect();
                let digits = p.strip_prefix("-").unwrap_or(&p).strip_prefix("0b");
                digits.is_some_and(|d| d.len() > 64 && d.bytes().all(|b| b == b'0' || b == b'1'))
                    && go_int(scalar).is_none()
            };
            if python_big_binary {
                assert_eq!(got, Some(Json::String(scalar.into())), "{scalar}");
                known += 1;
            } else {
                match (row.get("value"), &got) {
                    (Some(w), Some(g)) => {
                        assert!(same(w, g), "value {scalar:?}: want {w}, got {g}")
                    }
                    (None, None) => {}
                    (w, g) => panic!("value {scalar:?}: want {w:?}, got {g:?}"),
                }
                values += 1;
            }
            let got = key_text(scalar, Kubectl);
            let not_finite = resolve_plain(scalar, Kubectl) == Err(NOT_FINITE);
            if row.get("key_oracle_crash").is_some() || not_finite {
                // Past float32, Go's FormatFloat writes the infinity,
                // sigs.k8s.io/yaml `.inf`; kubectl_read.py crashes on it,
                // and refuses `.inf` and `.nan` as keys, which kubectl
                // reads (tests/kubectl_scalars.rs asks the real one).
                let want = match scalar.to_ascii_lowercase().trim_start_matches('+') {
                    ".nan" => ".nan",
                    s if s.starts_with('-') => "-.inf",
                    _ => ".inf",
                };
                assert_eq!(got.as_deref(), Some(want), "key {scalar:?}");
                known += 1;
            } else if scalar == "<<" {
                // A merge key: the caller's (kubectl_read.py wants a map after it).
                assert_eq!(got.as_deref(), Some("<<"));
                known += 1;
            } else if python_big_binary {
                assert_eq!(got.as_deref(), Some(scalar));
                known += 1;
            } else {
                assert_eq!(
                    got.as_deref(),
                    row.get("key").map(|k| k.as_str().unwrap()),
                    "key {scalar:?}"
                );
                keys += 1;
            }
        }
        std::eprintln!(
            "plain-scalars.jsonl: {rows} scalars, values agree {values}, keys agree {keys}, {known} known oracle differences"
        );
        assert_eq!(rows, 4000);
        assert_eq!(values + keys + known, 2 * rows);
    }
}
