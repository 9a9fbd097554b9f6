//! How a number is spelled in KYAML: the input text, except that an
//! exponent form is spelled the way YAML 1.1 resolvers read as a float.
//!
//! Both sides need this rule, so it sits below both: the emitter writes
//! JSON numbers with it, and the YAML resolver (`scan/resolve/number.rs`)
//! runs a YAML float through it to tell whether the text is already
//! spelled so.
//!
//! The contract callers may rely on: the `+` the rule adds before an
//! unsigned exponent is written as a `write_str` call of its own (`"+"`,
//! never joined to the digits). The resolver's `JsonDigits` depends on it
//! to drop that `+` when the source's own sign follows a `_` (`1e_-3`);
//! `the_added_plus_is_a_piece_of_its_own` below holds it.
//!
//! And where float64's range ends ([`past_f64`], exact, on the text: no
//! allocation), which the JSON tokenizer and the YAML resolver both ask.

use core::fmt::{Result, Write};

/// Writes a JSON number that has an exponent part (text without one passes
/// through).
/// `1e10` becomes `1.0e+10`: YAML 1.1 (PyYAML, and others in 1.1 mode)
/// reads a float only with a `.` in the mantissa and a sign on the
/// exponent, and reads `1e10` as a string.
pub(crate) fn write_exponent_form<W: Write + ?Sized>(out: &mut W, text: &str) -> Result {
    let Some(e) = text.bytes().position(|b| b | 0x20 == b'e') else {
        return out.write_str(text);
    };
    let (mantissa, exponent) = text.split_at(e);
    out.write_str(mantissa)?;
    if !mantissa.as_bytes().contains(&b'.') {
        out.write_str(".0")?;
    }
    let (marker, digits) = exponent.split_at(1);
    out.write_str(marker)?;
    if !digits.starts_with(['+', '-']) {
        out.write_str("+")?;
    }
    out.write_str(digits)
}

/// A decimal float's text (float pattern, `_` allowed anywhere) as
/// `0.D × 10^exp10`: where its mantissa is, and the power of ten.
pub(crate) struct Scientific<'a> {
    /// Read by the YAML resolver's `float_value` (`alloc`).
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    pub(crate) negative: bool,
    /// The mantissa's text (no sign, no exponent).
    pub(crate) mantissa: &'a str,
    /// The power of ten, saturated far past any float's range.
    pub(crate) exp10: i64,
    /// Whether any digit is not `0`.
    pub(crate) nonzero: bool,
}

impl<'a> Scientific<'a> {
    pub(crate) fn of(text: &'a str) -> Scientific<'a> {
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
    pub(crate) fn digits(&self) -> impl Iterator<Item = u8> + 'a {
        self.mantissa
            .bytes()
            .filter(u8::is_ascii_digit)
            .skip_while(|&b| b == b'0')
    }
}

/// `2^1024 - 2^970`, the least number that rounds to float64 infinity (the
/// midpoint between the largest float64 and `2^1024` rounds to even, up).
pub(crate) const F64_OVERFLOW: &str = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792";

/// Whether a decimal float's text is past float64's range (Go's
/// `ParseFloat` fails, Python's `float` gives infinity), exactly: its value
/// is at least [`F64_OVERFLOW`].
pub(crate) fn past_f64(text: &str) -> bool {
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

#[cfg(test)]
mod tests {
    use super::write_exponent_form;
    use std::string::String;
    use std::vec::Vec;

    fn number(text: &str) -> String {
        let mut out = String::new();
        write_exponent_form(&mut out, text).unwrap();
        out
    }

    #[test]
    fn plain_numbers_pass_through() {
        for n in ["0", "-0", "12", "-3.25", "123456789012345678901234567890"] {
            assert_eq!(number(n), n);
        }
    }

    /// The pieces `write_exponent_form` hands its writer, one per call.
    fn pieces(text: &str) -> Vec<String> {
        struct Recorder(Vec<String>);
        impl core::fmt::Write for Recorder {
            fn write_str(&mut self, s: &str) -> core::fmt::Result {
                self.0.push(s.into());
                Ok(())
            }
        }
        let mut out = Recorder(Vec::new());
        write_exponent_form(&mut out, text).unwrap();
        out.0
    }

    #[test]
    fn the_added_plus_is_a_piece_of_its_own() {
        assert_eq!(pieces("1e10"), ["1", ".0", "e", "+", "10"]);
        assert_eq!(pieces("2.5E_-3"), ["2.5", "E", "+", "_-3"]);
        assert_eq!(pieces("1e-7"), ["1", ".0", "e", "-7"]);
        assert!(!pieces("1.5e+3").contains(&"+".into()));
    }

    #[test]
    fn exponents_get_a_dot_and_a_sign() {
        assert_eq!(number("1e10"), "1.0e+10");
        assert_eq!(number("2.5E3"), "2.5E+3");
        assert_eq!(number("-1e-7"), "-1.0e-7");
        assert_eq!(number("1.5e+3"), "1.5e+3");
        assert_eq!(number("0E0"), "0.0E+0");
    }
}
