//! Numbers: the input text, except that an exponent form is spelled the way
//! YAML 1.1 resolvers read as a float.

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

#[cfg(test)]
mod tests {
    use super::write_exponent_form;
    use std::string::String;

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

    #[test]
    fn exponents_get_a_dot_and_a_sign() {
        assert_eq!(number("1e10"), "1.0e+10");
        assert_eq!(number("2.5E3"), "2.5E+3");
        assert_eq!(number("-1e-7"), "-1.0e-7");
        assert_eq!(number("1.5e+3"), "1.5e+3");
        assert_eq!(number("0E0"), "0.0E+0");
    }
}
