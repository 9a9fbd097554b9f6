//! Map keys: a resolved plain scalar turned into key text as kubectl's
//! `YAMLToJSON` does ([`Key`]: booleans as words, integers in decimal,
//! floats as Go's shortest float32 text).

use super::number::{float_value, Buf, Float, Number};
use super::reading::{Refusal, Value, KEY_PAST_INT64, NOT_FINITE, NULL_KEY};
use core::fmt::{self, Write};

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
        Value::Number(Number::Float(f)) => Ok(Key::Float32(match f {
            // float64 first, then float32, as Go converts (rounding twice).
            Float::Finite(text) | Float::Json(text) => float_value(text) as f32,
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
