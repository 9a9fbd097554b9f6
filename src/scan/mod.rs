//! Input side: readers that turn input text into [`Event`]s, behind the
//! [`Source`] trait.
//!
//! Owns everything about input syntax: where tokens start and end, how a
//! string is spelled and decoded ([`Text`], [`Spelling`]), the walk over a
//! JSON string body and its escapes (`json_string.rs`, one function each,
//! below the tokenizer, the framer and `Text`), the skim that looks
//! ahead over a list without checking it, and where each document of a
//! byte stream ends (`frame.rs` for JSON, `yaml_frame.rs` for YAML). Nothing outside
//! this module reads input bytes: the plan, the emitter and the driver see
//! events, positions (byte offsets, for errors and for reading again from a
//! saved place) and [`Text`]s that decode themselves into [`Piece`]s.
//!
//! A second dialect (a YAML reader) is another [`Source`]: it produces the
//! same events, with its own [`Spelling`]s for keys and strings, numbers
//! already in JSON's number grammar, and [`Trivia`] (comments and blank
//! lines), which the JSON reader never produces.

mod event;
#[cfg(feature = "std")]
mod frame;
mod json;
mod json_string;
#[cfg(feature = "alloc")]
pub(crate) mod resolve;
mod text;
// The YAML reader keeps a document's events: it needs `alloc`.
#[cfg(feature = "alloc")]
mod yaml;
#[cfg(feature = "std")]
mod yaml_frame;

pub(crate) use self::event::{AsText, Event, Shapes, Source, Trivia};
#[cfg(feature = "std")]
pub(crate) use self::frame::{starts_value, Framer};
pub(crate) use self::json::Tokenizer;
#[cfg(feature = "alloc")]
pub(crate) use self::text::utf8_len;
pub(crate) use self::text::{KeyId, Piece, Spelling, Text};
#[cfg(feature = "alloc")]
pub(crate) use self::yaml::comments as yaml_comments;
#[cfg(feature = "alloc")]
pub(crate) use self::yaml::cursor::YamlSource;
#[cfg(feature = "alloc")]
pub(crate) use self::yaml::load::{load as load_yaml, locate_warnings};
#[cfg(feature = "alloc")]
pub(crate) use self::yaml::stream::{streams as yaml_streams, warnings, Noted, StreamSource};
#[cfg(feature = "alloc")]
pub(crate) use self::yaml::syntax_events as yaml_syntax_events;
#[cfg(feature = "std")]
pub(crate) use self::yaml_frame::{FrameEnd, YamlFramer};
