//! Numbers as the schemas read them and as they are written: [`Number`],
//! [`Int`] and [`Float`] (the source span plus what the edits need), their
//! JSON spelling ([`Number::write_json`], the exponent by the JSON path's
//! rule), and the readers of number syntax the schemas share (Go's integer
//! bases, float syntax, float64's range, a float's value).

use crate::emit::write_exponent_form;
pub(super) use crate::number::past_f64;
use crate::number::Scientific;
#[cfg(test)]
pub(super) use crate::number::F64_OVERFLOW;
use core::fmt::{self, Write};

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
    /// only [`plain_json_number`](super::plain::plain_json_number)'s, at most 18 digits and no leading zero):
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
    /// A finite float already in JSON's spelling, as [`plain_json_number`](super::plain::plain_json_number)
    /// reads it (`-?(0|[1-9][0-9]*)\.[0-9]+([eE][-+][0-9]{1,2})?`, at most
    /// 40 bytes): written as it is, with no editing pass.
    Json(&'a str),
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
    pub(super) fn value(&self) -> Option<(bool, u128)> {
        match *self {
            Int::Value {
                negative,
                magnitude,
            } => Some((negative, magnitude)),
            Int::Decimal { negative, digits } => Some((negative, magnitude(digits.bytes(), 10)?)),
        }
    }

    /// The value, when it fits `i64`.
    pub(super) fn as_i64(&self) -> Option<i64> {
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
            Float::Json(text) => out.write_str(text),
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
pub(super) fn write_float_text<W: Write + ?Sized>(out: &mut W, text: &str) -> fmt::Result {
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

/// The value of `digits` (all valid in `radix`), or `None` past `u128`.
pub(super) fn magnitude(digits: impl Iterator<Item = u8>, radix: u32) -> Option<u128> {
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
pub(super) fn go_int(text: &str) -> Option<(bool, u128)> {
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
pub(super) fn go_signed_binary(text: &str) -> Option<(bool, u128)> {
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
pub(super) fn float_syntax(bytes: impl Iterator<Item = u8>) -> bool {
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
pub(super) fn go_dot_float(bytes: &[u8]) -> bool {
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

/// The nearest float64 to a decimal float's text (float pattern, `_`
/// allowed). At most 800 significant digits are read, and one more that
/// stands for all the rest (a `1` when any of them is not `0`): float64
/// rounding needs no more than 767 to decide.
pub(super) fn float_value(text: &str) -> f64 {
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
pub(super) struct Buf<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> Buf<N> {
    pub(super) fn new() -> Self {
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

    pub(super) fn as_str(&self) -> &str {
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
