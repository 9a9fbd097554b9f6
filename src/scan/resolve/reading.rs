//! What a reading is: a [`Value`] (null, a boolean, a number, a string) or
//! a [`Refusal`] with its message, and the names of the two schemas.

use super::number::Number;
use crate::options::Schema;

impl Schema {
    /// The name the command line and messages use.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Schema::Kubectl => "kubectl",
            Schema::Yaml12 => "yaml-1.2",
        }
    }

    /// The other schema.
    pub(crate) fn other(self) -> Schema {
        match self {
            Schema::Kubectl => Schema::Yaml12,
            Schema::Yaml12 => Schema::Kubectl,
        }
    }
}

/// Why a scalar has no JSON reading. The caller adds the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// What is wrong, in words, lower case, no position.
    pub(crate) message: &'static str,
}

pub(super) const NOT_FINITE: Refusal = Refusal {
    message:
        "kubectl refuses infinity and NaN (JSON has no such number); quote it to keep the string",
};
pub(super) const PAST_U128: Refusal = Refusal {
    message: "this octal or hexadecimal integer is past 128 bits: write it in decimal or quote it",
};
pub(super) const NULL_KEY: Refusal = Refusal {
    message: "a null key has no JSON form (a JSON key is a string), and kubectl refuses it",
};
pub(super) const KEY_PAST_INT64: Refusal = Refusal {
    message: "this integer key is past int64, and kubectl refuses it; quote it to keep the string",
};
pub(super) const NOT_INT: Refusal = Refusal {
    message: "a !!int value that is not an integer to kubectl (it refuses it)",
};
pub(super) const NOT_FLOAT: Refusal = Refusal {
    message: "a !!float value that is not a number in float64's range to kubectl (it refuses it)",
};
pub(super) const NOT_BOOL: Refusal = Refusal {
    message: "a !!bool value that is not a boolean to kubectl (it refuses it)",
};
pub(super) const NOT_NULL: Refusal = Refusal {
    message: "a !!null value that is not null to kubectl (it refuses it)",
};
pub(super) const NOT_TIMESTAMP: Refusal = Refusal {
    message: "a !!timestamp value that is not a date or time to kubectl (it refuses it)",
};
pub(super) const BAD_BINARY: Refusal = Refusal {
    message: "this !!binary value is not base64 of UTF-8 text",
};

/// The data a scalar stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Value<'a> {
    Null,
    Bool(bool),
    Number(Number<'a>),
    /// A string: the scalar's text itself.
    Str(&'a str),
}
