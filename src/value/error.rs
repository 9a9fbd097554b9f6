//! [`Error`]: why a value has no KYAML.

use alloc::string::String;
use core::fmt;

use crate::error::ErrorKind;

/// Why a value has no KYAML: its [`ErrorKind`] and a message.
///
/// ```
/// use std::collections::BTreeMap;
/// let map = BTreeMap::from([((1, 2), "a tuple key")]);
/// let err = kyaml::value::to_string(&map).unwrap_err();
/// assert_eq!(err.kind(), kyaml::ErrorKind::Data);
/// assert_eq!(err.to_string(), "key must be a string");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Error(alloc::boxed::Box<Inner>);

/// Boxed, so that every call of the serializer returns a pointer's width.
#[derive(Clone, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    message: String,
}

impl Error {
    pub(super) fn new(kind: ErrorKind, message: &str) -> Error {
        Error::formatted(kind, format_args!("{message}"))
    }

    pub(super) fn formatted(kind: ErrorKind, message: fmt::Arguments<'_>) -> Error {
        let mut text = String::new();
        let _ = fmt::write(&mut text, message);
        Error(alloc::boxed::Box::new(Inner {
            kind,
            message: text,
        }))
    }

    pub(super) fn duplicate_key(key: &str) -> Error {
        Error::formatted(
            ErrorKind::DuplicateKey,
            format_args!("duplicate key {key:?}"),
        )
    }

    /// What went wrong: [`ErrorKind::Data`] (a map key serde_json cannot
    /// write), [`ErrorKind::DuplicateKey`], [`ErrorKind::TooDeep`],
    /// [`ErrorKind::Write`] (the sink failed) or [`ErrorKind::Custom`]
    /// (the value's `Serialize` failed).
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

/// `Error(Data, "key must be a string")`.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Error")
            .field(&self.0.kind)
            .field(&self.0.message)
            .finish()
    }
}

impl core::error::Error for Error {}

impl serde::ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error::formatted(ErrorKind::Custom, format_args!("{msg}"))
    }
}

#[cfg(feature = "std")]
impl From<Error> for std::io::Error {
    /// `InvalidData`, or `Other` for a failed sink, with the error inside.
    fn from(err: Error) -> std::io::Error {
        let kind = match err.kind() {
            ErrorKind::Write => std::io::ErrorKind::Other,
            _ => std::io::ErrorKind::InvalidData,
        };
        std::io::Error::new(kind, err)
    }
}
