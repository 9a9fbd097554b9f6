//! Why a value has no KYAML: the serializer's own small error, and its
//! turning into the crate's one [`Error`](crate::Error) at the entry points.

use alloc::string::String;
use core::fmt;

use crate::error::ErrorKind;

/// The serializer's error: boxed, so that every call of the serializer
/// returns a pointer's width (the public [`crate::Error`] is as large as a
/// text error's position and key make it). The entry points turn it into a
/// [`crate::Error`], which has no position (line and column 0).
#[derive(Debug)]
pub(super) struct Error(alloc::boxed::Box<Inner>);

#[derive(Debug)]
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
}

impl From<Error> for crate::error::Error {
    fn from(err: Error) -> crate::error::Error {
        let Inner { kind, message } = *err.0;
        crate::error::Error::in_value(kind, message.into_boxed_str())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl core::error::Error for Error {}

impl serde::ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error::formatted(ErrorKind::Custom, format_args!("{msg}"))
    }
}
