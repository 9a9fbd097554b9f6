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
pub(crate) use self::yaml::load::locate_warnings;
#[cfg(feature = "alloc")]
pub(crate) use self::yaml::stream::{warnings, Noted, StreamSource};
#[cfg(feature = "alloc")]
pub(crate) use self::yaml::syntax_events as yaml_syntax_events;
#[cfg(feature = "std")]
pub(crate) use self::yaml_frame::{FrameEnd, YamlFramer};

/// Whether JSON input whose syntax error is at `offset` looks like YAML,
/// by the guess the `kyaml` command makes of an input's language
/// (`cli::language`): its first value does not open as JSON's documents
/// do ([`opens_as_json`]), and the error is on that value's line, line
/// feed included (the line is no JSON, or a start of it cut off). Reads no
/// further than that line; only an error's message asks. A stream, which
/// sees one document at a time, asks the same on lines.
///
/// The first value starts where JSON's white space ends, where a stream's
/// first document starts; `cli::language` skips any ASCII white space, so
/// the two differ only on input that opens with a form feed or a vertical
/// tab, which is neither JSON nor YAML there.
pub(crate) fn looks_like_yaml(input: &[u8], offset: usize) -> bool {
    let rest = input.strip_prefix("\u{FEFF}".as_bytes()).unwrap_or(input);
    let skipped = input.len() - rest.len();
    let start = crate::swar::skip_white_space(rest, 0);
    let Some(&first) = rest.get(start) else {
        return false;
    };
    let first_line_end = rest[start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(input.len(), |end| skipped + start + end);
    !opens_as_json(first) && offset <= first_line_end
}

/// Whether a first value that opens with `byte` is taken for JSON by the
/// guess of [`looks_like_yaml`]: a map, a list or a string.
pub(crate) fn opens_as_json(byte: u8) -> bool {
    matches!(byte, b'{' | b'[' | b'"')
}
