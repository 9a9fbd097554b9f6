//! [`Dump`]: KYAML for log lines and messages, through `{}` and `{:#}`.

use core::fmt;

use crate::emit::write_text;
use crate::encode;
use crate::error::{Error, ErrorKind};
use crate::options::{Form, Input, Options};

/// Displays JSON as a KYAML value: `{}` compact on one line, `{:#}` in the
/// regular layout. Allocates nothing. The JSON is anything that is
/// `AsRef<[u8]>`: `&str`, `&[u8]`, `String`, `Vec<u8>`.
///
/// ```
/// use kyaml::Dump;
/// let json = r#"{"user": "ana", "roles": ["admin", "dev"]}"#;
/// assert_eq!(format!("{}", Dump(json)), r#"{user: "ana", roles: ["admin", "dev"]}"#);
/// assert_eq!(format!("{:#}", Dump(json)), "{\n  user: \"ana\",\n  roles: [\n    \"admin\",\n    \"dev\",\n  ],\n}");
/// ```
///
/// Text that is not exactly one JSON value is not lost and does not
/// panic: it is shown as one KYAML string, followed by a YAML comment that
/// names the error, so the line still parses as YAML. Bytes that are not
/// UTF-8 show as U+FFFD there.
///
/// ```
/// use kyaml::Dump;
/// assert_eq!(
///     format!("{}", Dump("{\"a\": tru}")),
///     r#""{\"a\": tru}" # invalid JSON: expected `true` at line 1, column 10"#
/// );
/// assert_eq!(
///     format!("{}", Dump(b"[\"\xFF\"]")),
///     "\"[\\\"\u{FFFD}\\\"]\" # invalid JSON: invalid UTF-8 at line 1, column 3"
/// );
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Dump<T>(pub T);

impl<T: AsRef<[u8]>> fmt::Display for Dump<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        show(self.0.as_ref(), f)
    }
}

/// [`Dump`]'s work, compiled once in this crate whatever `T` is: left
/// generic, its instantiation moved to each caller's crate, and the
/// encoder's code in this one changed shape (`to_string` on citm_catalog
/// +2.3% instructions).
fn show(json: &[u8], f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let opts = Options::new().form(Form::Value).compact(!f.alternate());
    match encode::encode_fixed(json, opts, f) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::Write => Err(fmt::Error),
        Err(e) => write_invalid(f, json, Input::Json, &e),
    }
}

/// Writes input that is not valid as [`Dump`] and [`Diff`](crate::Diff)
/// show it: one KYAML string of its text (bytes that are not UTF-8 as
/// U+FFFD), then a YAML comment naming the language and the error, so the
/// line still parses as YAML.
pub(crate) fn write_invalid(
    out: &mut dyn fmt::Write,
    input: &[u8],
    language: Input,
    error: &Error,
) -> fmt::Result {
    write_text(out, input)?;
    let language = match language {
        Input::Json => "JSON",
        #[cfg(feature = "alloc")]
        Input::Yaml => "YAML",
    };
    write!(out, " # invalid {language}: {error}")
}
