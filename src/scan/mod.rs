//! Input side: tokenizers that turn input text into [`Event`]s.
//!
//! The emitter sees only events and [`Text`], never input syntax: a string
//! arrives as a [`Text`] that decodes itself into [`Piece`]s, so a second
//! input dialect (KYAML itself, with bare keys, comments and folded strings)
//! can be added as another tokenizer and another `Text` decoding without
//! touching the emitter.

mod json;
pub(crate) mod resolve;
mod text;

pub(crate) use json::Tokenizer;
pub(crate) use text::{KeyId, Piece, Text};

/// One step of a document, in document order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Event<'a> {
    /// `{`: the members follow as `Key` then value, until `MapEnd`.
    MapStart,
    MapEnd,
    /// `[`: the elements follow until `ListEnd`.
    ListStart,
    ListEnd,
    /// A map key, always a string.
    Key(Text<'a>),
    /// A string value.
    Str(Text<'a>),
    /// A number, as its input text (already checked against the grammar),
    /// and whether it has an exponent part.
    Number {
        text: &'a str,
        exponent: bool,
    },
    Bool(bool),
    Null,
}
