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
