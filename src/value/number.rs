//! Numbers of a `Serialize` value, spelled as serde_json spells them (its
//! text is what the two-step route hands the encoder): integers in decimal,
//! floats with the shortest digits that read back the same, in plain
//! decimal near 1 (`1500000.0`, `0.00015`) and with an exponent far from it
//! (`1.5e+16`, `1.5e-7`).

use alloc::string::String;
use core::fmt::{self, Write};

/// Appends any integer through `Display` (the 128-bit ones).
pub(super) fn push_display(out: &mut String, n: impl fmt::Display) {
    let _ = write!(out, "{n}");
}

/// Appends a finite `f64` as serde_json writes it and says whether the
/// text has an exponent.
pub(super) fn f64_text(value: f64) -> NumberText {
    let shortest = (value != 0.0).then(|| super::shortest::shortest(value));
    float(value.is_sign_negative(), shortest, F64_PLAIN)
}

/// Appends a finite `f32` as serde_json writes it and says whether the
/// text has an exponent.
pub(super) fn f32_text(value: f32) -> NumberText {
    let shortest = (value != 0.0).then(|| super::shortest::shortest_f32(value));
    float(value.is_sign_negative(), shortest, F32_PLAIN)
}

/// The decimal exponents serde_json writes floats without an exponent for.
const F64_PLAIN: core::ops::RangeInclusive<i32> = -5..=15;
const F32_PLAIN: core::ops::RangeInclusive<i32> = -6..=12;

/// Appends `mantissa × 10^exponent` (`None`: zero) as serde_json spells
/// it: plain decimal for the exponents (of the first digit) in `plain`
/// (`1500000.0`, `0.00015`), else with an exponent (`1.5e-7`, `1e+20`);
/// says which.
///
/// Every copy of digits is of a fixed 20 bytes from a zero-padded array
/// (the lengths are then set), so none is a call to `memcpy`: on a file of
/// coordinates this was a fifth of the time.
fn float(
    negative: bool,
    shortest: Option<(u64, i32)>,
    plain: core::ops::RangeInclusive<i32>,
) -> NumberText {
    let mut buf = [b'0'; 48];
    let mut p = 0;
    if negative {
        buf[0] = b'-';
        p = 1;
    }
    let Some((mantissa, exponent)) = shortest else {
        buf[p..p + 3].copy_from_slice(b"0.0");
        return NumberText {
            buf,
            len: p + 3,
            exponent: false,
        };
    };
    // The digits from index 0, zeros after them.
    let mut d = [0u8; 40];
    let n = left_aligned(&mut d, mantissa);
    let exp = exponent + n as i32 - 1;
    let with_exponent = !plain.contains(&exp);
    let end = if with_exponent {
        // d.ddde±x
        buf[p] = d[0];
        let mut q = p + 1;
        if n > 1 {
            buf[q] = b'.';
            buf[q + 1..q + 21].copy_from_slice(&d[1..21]);
            q += n;
        }
        buf[q..q + 2].copy_from_slice(if exp < 0 { b"e-" } else { b"e+" });
        let mut e = [0u8; 40];
        let len = left_aligned(&mut e, u64::from(exp.unsigned_abs()));
        buf[q + 2..q + 5].copy_from_slice(&e[..3]);
        q + 2 + len
    } else if exp < 0 {
        // 0.000ddd (at most 5 zeros)
        let zeros = (-exp - 1) as usize;
        buf[p + 1] = b'.';
        let at = p + 2 + zeros;
        buf[at..at + 20].copy_from_slice(&d[..20]);
        at + n
    } else if exp as usize >= n - 1 {
        // ddd000.0 (`buf` is '0' where nothing is copied)
        let whole = exp as usize;
        buf[p..p + 20].copy_from_slice(&d[..20]);
        buf[p + n..p + n + 16].fill(b'0');
        buf[p + whole + 1] = b'.';
        buf[p + whole + 2] = b'0';
        p + whole + 3
    } else {
        // dd.dd
        let whole = exp as usize;
        buf[p..p + 20].copy_from_slice(&d[..20]);
        buf[p + whole + 1] = b'.';
        buf[p + whole + 2..p + whole + 22].copy_from_slice(&d[whole + 1..whole + 21]);
        p + n + 1
    };
    NumberText {
        buf,
        len: end,
        exponent: with_exponent,
    }
}

/// A number's text in JSON's grammar, built on the stack.
pub(super) struct NumberText {
    buf: [u8; 48],
    len: usize,
    /// Whether the text has an exponent part.
    pub(super) exponent: bool,
}

impl NumberText {
    pub(super) fn as_str(&self) -> &str {
        // Only digits, signs, `.` and `e` are ever written.
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("0")
    }
}

/// "00" to "99", for two digits at a time.
const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Writes `n` in decimal from `d[0]`, two digits at a time; its length.
fn left_aligned(d: &mut [u8; 40], mut n: u64) -> usize {
    let len = n.checked_ilog10().unwrap_or(0) as usize + 1;
    let mut at = len;
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        at -= 2;
        d[at] = PAIRS[pair];
        d[at + 1] = PAIRS[pair + 1];
    }
    if n >= 10 {
        d[0] = PAIRS[n as usize * 2];
        d[1] = PAIRS[n as usize * 2 + 1];
    } else {
        d[0] = b'0' + n as u8;
    }
    len
}

/// `n` in decimal, after a `-` if `negative`.
pub(super) fn integer_text(negative: bool, n: u64) -> NumberText {
    let mut buf = [0u8; 48];
    let p = usize::from(negative);
    buf[0] = b'-';
    let mut d = [0u8; 40];
    let len = left_aligned(&mut d, n);
    buf[p..p + 20].copy_from_slice(&d[..20]);
    NumberText {
        buf,
        len: p + len,
        exponent: false,
    }
}

#[cfg(test)]
mod tests {
    use super::{f32_text, f64_text, integer_text, push_display};
    use std::string::String;

    fn f64_spelling(v: f64) -> (String, bool) {
        let text = f64_text(v);
        (text.as_str().into(), text.exponent)
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
            let (text, exponent) = f64_spelling(v);
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
            assert_eq!(f32_text(v).as_str(), serde_json::to_string(&v).unwrap());
        }
    }

    #[test]
    fn integers_in_decimal() {
        let text = |negative, n| String::from(integer_text(negative, n).as_str());
        assert_eq!(text(false, 0), "0");
        assert_eq!(text(true, 1 << 63), "-9223372036854775808");
        assert_eq!(text(false, u64::MAX), "18446744073709551615");
        let mut out = String::new();
        push_display(&mut out, i128::MIN);
        assert_eq!(out, "-170141183460469231731687303715884105728");
    }
}
