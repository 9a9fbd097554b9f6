//! Numbers of a `Serialize` value, spelled as serde_json spells them (its
//! text is what the two-step route hands the encoder): integers in decimal,
//! floats with the shortest digits that read back the same, in plain
//! decimal near 1 (`1500000.0`, `0.00015`) and with an exponent far from it
//! (`1.5e+16`, `1.5e-7`).

use alloc::string::String;
use core::fmt::{self, Write};

/// Appends `n` in decimal, after a `-` if `negative`.
pub(super) fn push_integer(out: &mut String, negative: bool, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if negative {
        out.push('-');
    }
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
}

/// Appends any integer through `Display` (the 128-bit ones).
pub(super) fn push_display(out: &mut String, n: impl fmt::Display) {
    let _ = write!(out, "{n}");
}

/// Appends a finite float as serde_json writes it and says whether the
/// text has an exponent. `plain` is the range of decimal exponents written
/// without one: `-5..=15` for `f64`, `-6..=12` for `f32`. `scratch` is
/// room for the digits.
pub(super) fn push_float(
    out: &mut String,
    scratch: &mut String,
    value: impl fmt::LowerExp,
    plain: core::ops::RangeInclusive<i32>,
) -> bool {
    // `{:e}` gives the shortest digits that read back as the same float,
    // as serde_json's formatter does: `-1.5e-7`, `1e20`.
    scratch.clear();
    let _ = write!(scratch, "{value:e}");
    let (mantissa, exponent) = scratch.split_once('e').unwrap_or((scratch, "0"));
    let exp = parse_exponent(exponent.as_bytes());
    if !plain.contains(&exp) {
        // `1.5e-7`, `1e+20`: the mantissa as it is, the sign always.
        out.push_str(mantissa);
        out.push_str(if exp < 0 { "e-" } else { "e+" });
        out.push_str(exponent.trim_start_matches('-'));
        return true;
    }
    let (negative, mantissa) = match mantissa.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, mantissa),
    };
    if negative {
        out.push('-');
    }
    // d.ddd × 10^exp: the first digit, then the rest.
    let (first, rest) = mantissa.split_at(1.min(mantissa.len()));
    let rest = rest.strip_prefix('.').unwrap_or(rest);
    if exp < 0 {
        // 0.000ddd
        out.push_str("0.");
        out.extend(core::iter::repeat_n('0', (-exp - 1) as usize));
        out.push_str(first);
        out.push_str(rest);
        return false;
    }
    let whole = exp as usize;
    out.push_str(first);
    if whole >= rest.len() {
        // ddd000.0
        out.push_str(rest);
        out.extend(core::iter::repeat_n('0', whole - rest.len()));
        out.push_str(".0");
    } else {
        // dd.dd
        out.push_str(&rest[..whole]);
        out.push('.');
        out.push_str(&rest[whole..]);
    }
    false
}

/// The exponent of a `{:e}` spelling: an optional `-` and digits.
fn parse_exponent(text: &[u8]) -> i32 {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text),
    };
    let n = digits
        .iter()
        .fold(0i32, |n, &d| n * 10 + i32::from(d.wrapping_sub(b'0')));
    if negative {
        -n
    } else {
        n
    }
}

#[cfg(test)]
mod tests {
    use super::{push_display, push_float, push_integer};
    use std::string::String;

    fn f64_text(v: f64) -> (String, bool) {
        let mut out = String::new();
        let exponent = push_float(&mut out, &mut String::new(), v, -5..=15);
        (out, exponent)
    }

    #[test]
    fn floats_are_spelled_as_serde_json_spells_them() {
        for v in [
            0.0,
            -0.0,
            1.0,
            1.5,
            15.0,
            0.15,
            1.5e-5,
            1.5e-6,
            1.5e15,
            1.5e16,
            1e20,
            5e-324,
            1.7976931348623157e308,
            -2.5e-300,
            12345.678,
            9007199254740993.0,
        ] {
            let (text, exponent) = f64_text(v);
            assert_eq!(text, serde_json::to_string(&v).unwrap(), "{v:e}");
            assert_eq!(exponent, text.contains('e'));
        }
        for v in [
            1.5e-7f32,
            1.5e-6,
            1.5e12,
            1.5e13,
            16777216.0,
            3.4028235e38,
            1e-45,
        ] {
            let mut out = String::new();
            push_float(&mut out, &mut String::new(), v, -6..=12);
            assert_eq!(out, serde_json::to_string(&v).unwrap());
        }
    }

    #[test]
    fn integers_in_decimal() {
        let text = |negative, n| {
            let mut out = String::new();
            push_integer(&mut out, negative, n);
            out
        };
        assert_eq!(text(false, 0), "0");
        assert_eq!(text(true, 1 << 63), "-9223372036854775808");
        assert_eq!(text(false, u64::MAX), "18446744073709551615");
        let mut out = String::new();
        push_display(&mut out, i128::MIN);
        assert_eq!(out, "-170141183460469231731687303715884105728");
    }
}
