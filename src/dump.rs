//! [`Dump`]: KYAML for log lines and messages, through `{}` and `{:#}`.

use core::fmt;

use crate::emit::write_text;
use crate::error::ErrorKind;
use crate::{encode, Form, Options};

/// Displays JSON as a KYAML value: `{}` compact on one line, `{:#}` in the
/// regular layout. Allocates nothing.
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
/// names the error, so the line still parses as YAML.
///
/// ```
/// use kyaml::Dump;
/// assert_eq!(
///     format!("{}", Dump("{\"a\": tru}")),
///     r#""{\"a\": tru}" # invalid JSON: expected `true` at line 1, column 10"#
/// );
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Dump<'a>(pub &'a str);

impl fmt::Display for Dump<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opts = Options::new().form(Form::Value).compact(!f.alternate());
        match encode::encode_fixed(self.0.as_bytes(), opts, f) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == ErrorKind::Write => Err(fmt::Error),
            Err(e) => {
                write_text(f, self.0)?;
                write!(f, " # invalid JSON: {e}")
            }
        }
    }
}
