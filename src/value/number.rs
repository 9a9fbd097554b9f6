//! Numbers of a `Serialize` value, spelled as serde_json spells them (its
//! text is what the two-step route hands the encoder): integers in decimal,
//! floats with the shortest digits that read back the same, in plain
//! decimal near 1 (`1500000.0`, `0.00015`) and with an exponent far from it
//! (`1.5e+16`, `1.5e-7`).

use core::fmt::{self, Write};

/// Room for any integer up to 128 bits and any float's spelling.
pub(super) struct Digits {
    buf: [u8; 64],
    len: usize,
}

impl Digits {
    pub(super) const fn new() -> Digits {
        Digits {
            buf: [0; 64],
            len: 0,
        }
    }

    pub(super) fn as_str(&self) -> &str {
        // Only `&str`s and ASCII digits are written into it.
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("0")
    }

    fn push(&mut self, bytes: &[u8]) {
        let end = (self.len + bytes.len()).min(self.buf.len());
        self.buf[self.len..end].copy_from_slice(&bytes[..end - self.len]);
        self.len = end;
    }

    /// `n` in decimal, after a `-` if `negative`.
    pub(super) fn integer(&mut self, negative: bool, mut n: u64) -> &str {
        let mut tmp = [0u8; 20];
        let mut at = tmp.len();
        loop {
            at -= 1;
            tmp[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.len = 0;
        if negative {
            self.push(b"-");
        }
        self.push(&tmp[at..]);
        self.as_str()
    }

    /// Any integer through `Display` (the 128-bit ones).
    pub(super) fn display(&mut self, n: impl fmt::Display) -> &str {
        self.len = 0;
        let _ = write!(self, "{n}");
        self.as_str()
    }

    /// A finite float as serde_json writes it, and whether the text has an
    /// exponent. `plain` is the range of decimal exponents written without
    /// one: `-5..=15` for `f64`, `-6..=12` for `f32`.
    pub(super) fn float(
        &mut self,
        value: impl fmt::LowerExp,
        plain: core::ops::RangeInclusive<i32>,
    ) -> (&str, bool) {
        // `{:e}` gives the shortest digits that read back as the same
        // float, as serde_json's formatter does: `-1.5e-7`, `1e20`.
        let mut sci = Digits::new();
        let _ = write!(sci, "{value:e}");
        let text = &sci.buf[..sci.len];
        let e_at = text.iter().position(|&b| b == b'e').unwrap_or(text.len());
        let (mantissa, exponent) = (&text[..e_at], &text[(e_at + 1).min(text.len())..]);
        let exp = parse_exponent(exponent);
        self.len = 0;
        let (negative, mantissa) = match mantissa.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, mantissa),
        };
        if negative {
            self.push(b"-");
        }
        if !plain.contains(&exp) {
            // `1.5e-7`, `1e+20`: the mantissa as it is, the sign always.
            self.push(mantissa);
            self.push(if exp < 0 { b"e-" } else { b"e+" });
            self.push(&exponent[usize::from(exponent.first() == Some(&b'-'))..]);
            return (self.as_str(), true);
        }
        // The digits without the point: d.ddd × 10^exp.
        let mut digits = [0u8; 24];
        let mut n = 0;
        for &b in mantissa.iter().filter(|b| b.is_ascii_digit()) {
            if n < digits.len() {
                digits[n] = b;
                n += 1;
            }
        }
        let digits = &digits[..n];
        if exp < 0 {
            // 0.000ddd
            self.push(b"0.");
            for _ in 0..(-exp - 1) {
                self.push(b"0");
            }
            self.push(digits);
        } else {
            let whole = exp as usize + 1;
            if whole >= digits.len() {
                // ddd000.0
                self.push(digits);
                for _ in digits.len()..whole {
                    self.push(b"0");
                }
                self.push(b".0");
            } else {
                // dd.dd
                self.push(&digits[..whole]);
                self.push(b".");
                self.push(&digits[whole..]);
            }
        }
        (self.as_str(), false)
    }
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

impl Write for Digits {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Digits;

    fn f64_text(v: f64) -> (std::string::String, bool) {
        let mut d = Digits::new();
        let (text, exponent) = d.float(v, -5..=15);
        (text.into(), exponent)
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
            let mut d = Digits::new();
            assert_eq!(d.float(v, -6..=12).0, serde_json::to_string(&v).unwrap());
        }
    }

    #[test]
    fn integers_in_decimal() {
        let mut d = Digits::new();
        assert_eq!(d.integer(false, 0), "0");
        assert_eq!(d.integer(true, 1 << 63), "-9223372036854775808");
        assert_eq!(d.integer(false, u64::MAX), "18446744073709551615");
        assert_eq!(
            d.display(i128::MIN),
            "-170141183460469231731687303715884105728"
        );
    }
}
