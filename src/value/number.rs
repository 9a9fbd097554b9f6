//! Numbers of a `Serialize` value, spelled as serde_json spells them (its
//! text is what the two-step route hands the encoder): integers in decimal,
//! floats with the shortest digits that read back the same, in plain
//! decimal near 1 (`1500000.0`, `0.00015`) and with an exponent far from it
//! (`1.5e+16`, `1.5e-7`).
//!
//! A value's float is spelled at once in the KYAML number form the encoder
//! makes of serde_json's text (`1e+20` as `1.0e+20`, see
//! `crate::number::write_exponent_form`), so the emitter writes it in one
//! piece without scanning it again; a map key keeps serde_json's spelling.

use alloc::string::String;
use core::fmt::{self, Write};

/// Appends any integer through `Display` (the 128-bit ones).
pub(super) fn push_display(out: &mut String, n: impl fmt::Display) {
    let _ = write!(out, "{n}");
}

/// Which text of a float: serde_json's (a map key is that text) or the
/// KYAML number form the encoder writes for it (a value). They differ only
/// where a one-digit mantissa has an exponent: `1e+20` and `1.0e+20`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Spelling {
    Json,
    Kyaml,
}

/// A finite `f64` as serde_json writes it, or in KYAML's form of that.
pub(super) fn f64_text(value: f64, spelling: Spelling) -> NumberText {
    let shortest = (value != 0.0).then(|| super::shortest::shortest(value));
    float(value.is_sign_negative(), shortest, F64_PLAIN, spelling)
}

/// A finite `f32` as serde_json writes it, or in KYAML's form of that.
pub(super) fn f32_text(value: f32, spelling: Spelling) -> NumberText {
    let shortest = (value != 0.0).then(|| super::shortest::shortest_f32(value));
    float(value.is_sign_negative(), shortest, F32_PLAIN, spelling)
}

/// The decimal exponents serde_json writes floats without an exponent for.
const F64_PLAIN: core::ops::RangeInclusive<i32> = -5..=15;
const F32_PLAIN: core::ops::RangeInclusive<i32> = -6..=12;

/// `mantissa × 10^exponent` (`None`: zero) as serde_json spells it: plain
/// decimal for the exponents (of the first digit) in `plain` (`1500000.0`,
/// `0.00015`), else with an exponent (`1.5e-7`, `1e+20`, or in KYAML's
/// form `1.0e+20`).
///
/// The digits are written once, where the text needs them; what goes
/// before them is written after, in the room before [`FIRST_DIGIT`]. Every
/// copy is of a fixed length, so none is a call to `memcpy`.
#[inline(always)]
fn float(
    negative: bool,
    shortest: Option<(u64, i32)>,
    plain: core::ops::RangeInclusive<i32>,
    spelling: Spelling,
) -> NumberText {
    const D: usize = FIRST_DIGIT;
    let mut text = NumberText::new();
    let buf = &mut text.buf;
    let Some((mantissa, exponent)) = shortest else {
        buf[D + 1] = b'.';
        text.end = D + 3;
        text.sign(negative);
        return text;
    };
    // At most 17 digits (9 for an `f32`), '0's after them and before.
    let n = text.digits(mantissa);
    let buf = &mut text.buf;
    let exp = exponent + n as i32 - 1;
    if !plain.contains(&exp) {
        // d.ddde±x
        let mut end = D + n;
        if n > 1 {
            buf[D - 1] = buf[D];
            buf[D] = b'.';
            text.start = D - 1;
        } else if spelling == Spelling::Kyaml {
            buf[D + 1] = b'.';
            end += 2;
        }
        buf[end..end + 2].copy_from_slice(if exp < 0 { b"e-" } else { b"e+" });
        text.end = end + 2 + exponent_digits(&mut buf[end + 2..end + 5], exp.unsigned_abs());
    } else if exp < 0 {
        // 0.000ddd (at most 5 zeros, all there already)
        text.start = D - 1 - exp.unsigned_abs() as usize;
        buf[text.start + 1] = b'.';
        text.end = D + n;
    } else if exp as usize >= n - 1 {
        // ddd000.0 (all '0's there already)
        let whole = exp as usize;
        buf[D + whole + 1] = b'.';
        text.end = D + whole + 3;
    } else {
        // dd.dd
        let whole = exp as usize;
        let mut fraction = [0; 16];
        fraction.copy_from_slice(&buf[D + whole + 1..D + whole + 17]);
        buf[D + whole + 2..D + whole + 18].copy_from_slice(&fraction);
        buf[D + whole + 1] = b'.';
        text.end = D + n + 1;
    }
    text.sign(negative);
    text
}

/// Writes `e` (1 to 999) in decimal from `out[0]`; its length.
fn exponent_digits(out: &mut [u8], e: u32) -> usize {
    let pair = |n: u32| [b'0' + (n / 10) as u8, b'0' + (n % 10) as u8];
    if e >= 100 {
        out[0] = b'0' + (e / 100) as u8;
        out[1..3].copy_from_slice(&pair(e % 100));
        3
    } else if e >= 10 {
        out[..2].copy_from_slice(&pair(e));
        2
    } else {
        out[0] = b'0' + e as u8;
        1
    }
}

/// Where a number's first digit goes in [`NumberText`]: room before it
/// for a sign, `0.` and zeros, and for the leading zeros of the groups of
/// eight digits.
const FIRST_DIGIT: usize = 24;

/// A number's text, built on the stack: `buf[start..end]`.
pub(super) struct NumberText {
    buf: [u8; 64],
    start: usize,
    end: usize,
}

impl NumberText {
    fn new() -> Self {
        NumberText {
            buf: [b'0'; 64],
            start: FIRST_DIGIT,
            end: FIRST_DIGIT,
        }
    }

    pub(super) fn as_str(&self) -> &str {
        let text = &self.buf[self.start..self.end];
        debug_assert!(text.is_ascii());
        // Not `str::from_utf8`: checking the bytes cost about 60
        // instructions a number, a tenth of a float's time through
        // `kyaml::value` (examples/bench_value.rs, canada.json).
        #[allow(unsafe_code)]
        // SAFETY: `buf` is private to this module, whose functions only
        // ever put ASCII in it (digits, `-`, `.`, `e` and `+`), and ASCII
        // is UTF-8.
        unsafe {
            core::str::from_utf8_unchecked(text)
        }
    }

    /// Puts a `-` before the text if `negative`.
    fn sign(&mut self, negative: bool) {
        if negative {
            self.start -= 1;
            self.buf[self.start] = b'-';
        }
    }

    /// Writes the decimal digits of `n` from [`FIRST_DIGIT`] (`'0'`s before
    /// and after them) and says how many there are (at least one: `0` is
    /// "0"). Eight digits at a time, each eight with a few multiplications
    /// in one 64-bit word ([`numerals8`]), not a division per digit or pair.
    fn digits(&mut self, n: u64) -> usize {
        const E8: u64 = 100_000_000;
        const E16: u64 = E8 * E8;
        // The top group is below 10^4 (u64::MAX has 20 digits), and one
        // digit for a float's 17 at most: written in the group's last byte.
        let top = (n / E16) as u32;
        let groups = [
            match top {
                0..10 => u64::from(top) << 56,
                _ => numerals8(top),
            },
            numerals8((n % E16 / E8) as u32),
            numerals8((n % E8) as u32),
        ];
        // Little-endian: a group's first digit is its lowest byte, so its
        // leading zero digits are its trailing zero bytes.
        let leading_zeros = match groups {
            [0, 0, last] => 16 + (last.trailing_zeros() / 8).min(7),
            [0, middle, _] => 8 + middle.trailing_zeros() / 8,
            [first, _, _] => first.trailing_zeros() / 8,
        } as usize;
        let at = FIRST_DIGIT - leading_zeros;
        for (i, group) in groups.into_iter().enumerate() {
            let bytes = (group | 0x3030_3030_3030_3030).to_le_bytes();
            self.buf[at + 8 * i..at + 8 * i + 8].copy_from_slice(&bytes);
        }
        24 - leading_zeros
    }
}

/// The eight decimal digits of `n` (below 10^8, leading zeros included),
/// one a byte, the first in the lowest byte (SWAR: split in halves of
/// four digits, then pairs, then digits, all lanes at once).
fn numerals8(n: u32) -> u64 {
    let n = u64::from(n);
    // Two 32-bit lanes: the first four digits, the last four.
    let fours = (n / 10_000) | ((n % 10_000) << 32);
    // x / 100 for x < 10^4 is (x · 10486) >> 20; four 16-bit lanes.
    let hundreds = ((fours * 10_486) >> 20) & 0x0000_007F_0000_007F;
    let pairs = hundreds | ((fours - 100 * hundreds) << 16);
    // x / 10 for x < 100 is (x · 103) >> 10; eight 8-bit lanes.
    let tens = ((pairs * 103) >> 10) & 0x000F_000F_000F_000F;
    tens | ((pairs - 10 * tens) << 8)
}

/// `n` in decimal, after a `-` if `negative`.
pub(super) fn integer_text(negative: bool, n: u64) -> NumberText {
    let mut text = NumberText::new();
    text.end = FIRST_DIGIT + text.digits(n);
    text.sign(negative);
    text
}

#[cfg(test)]
mod tests {
    use super::{f32_text, f64_text, integer_text, push_display, NumberText, Spelling};
    use std::string::String;

    /// serde_json's text of `v`, and the KYAML form the encoder makes of it.
    fn expected<T: serde::Serialize>(v: T) -> (String, String) {
        let json = serde_json::to_string(&v).unwrap();
        let mut kyaml = String::new();
        crate::number::write_exponent_form(&mut kyaml, &json).unwrap();
        (json, kyaml)
    }

    #[test]
    fn floats_are_spelled_as_serde_json_spells_them() {
        for v in [
            0.0,
            -0.0,
            1.0,
            -1.0,
            -1.5e-5,
            -12345.678,
            -1.5e16,
            -1e20,
            -1e-7,
            1.5,
            15.0,
            0.15,
            1.5e-5,
            1.5e-6,
            1e-6,
            1.5e15,
            1.5e16,
            1e20,
            -1e-20,
            5e-324,
            1.7976931348623157e308,
            -2.5e-300,
            12345.678,
            9007199254740993.0,
            123456789012345680.0,
        ] {
            let (json, kyaml) = expected(v);
            assert_eq!(f64_text(v, Spelling::Json).as_str(), json, "{v:e}");
            assert_eq!(f64_text(v, Spelling::Kyaml).as_str(), kyaml, "{v:e}");
        }
        for v in [
            1.5e-7f32,
            1.5e-6,
            1e-7,
            1.5e12,
            1.5e13,
            1e13,
            16777216.0,
            3.4028235e38,
            1e-45,
        ] {
            let (json, kyaml) = expected(v);
            assert_eq!(f32_text(v, Spelling::Json).as_str(), json, "{v:e}");
            assert_eq!(f32_text(v, Spelling::Kyaml).as_str(), kyaml, "{v:e}");
        }
    }

    #[test]
    fn digits_in_decimal() {
        let edges = [0, 9, 10, 99_999_999, 100_000_000, u64::MAX, 1 << 53];
        let powers = (0..20).flat_map(|k| [10u64.pow(k), 10u64.pow(k) - 1, 10u64.pow(k) + 1]);
        // Fewer under Miri (`as_str`'s `unsafe` is checked there).
        let count = if cfg!(miri) { 300 } else { 200_000u64 };
        let steps = (0..count).map(|i| i * 7_919 + i * i * 104_729);
        for n in edges.into_iter().chain(powers).chain(steps) {
            let mut text = NumberText::new();
            text.end = super::FIRST_DIGIT + text.digits(n);
            assert_eq!(text.as_str(), std::format!("{n}"));
            // '0's before and after, which the floats' spellings use.
            assert!(text.buf.iter().all(u8::is_ascii_digit), "{n}");
        }
    }

    #[test]
    fn integers_in_decimal() {
        let text = |negative, n| String::from(integer_text(negative, n).as_str());
        assert_eq!(text(false, 0), "0");
        assert_eq!(text(true, 7), "-7");
        assert_eq!(text(true, 1 << 63), "-9223372036854775808");
        assert_eq!(text(false, u64::MAX), "18446744073709551615");
        let mut out = String::new();
        push_display(&mut out, i128::MIN);
        assert_eq!(out, "-170141183460469231731687303715884105728");
    }
}
