//! The YAML 1.2 syntax layer: a pull parser from input bytes to syntax
//! [`Event`]s with byte offsets, comments and blank lines included.
//!
//! It owns YAML *syntax* only: documents, block and flow collections,
//! properties (anchors and tags, resolved against `%TAG`), aliases as names,
//! scalars as undecoded source spans with their style, and every comment and
//! blank line in input order. It does not resolve plain scalars to null,
//! bool or numbers (that is `scan::resolve`), expand aliases, or check keys.
//!
//! Layers: [`scanner`] turns bytes into tokens, deciding implicit keys by a
//! lookahead bounded by one line and 1024 characters (so no token queue and
//! no quadratic rescans); [`parser`] is an explicit state machine over those
//! tokens (no recursion); [`scalar`] decodes a scalar's span lazily into
//! [`Piece`](crate::scan::Piece)s. Nothing allocates: every stack (block indentation, flow
//! nesting, parser states) is a fixed array bounded by [`crate::MAX_DEPTH`],
//! and deeper input is [`ErrorKind::TooDeep`](crate::ErrorKind::TooDeep).
//!
//! Positions: a comment between a node's properties and its content
//! (`key: &a # note` then the value on the next line) comes out before the
//! node's event; everything else comes out in input order. Line breaks are
//! `\n` and `\r\n`; as go-yaml (kubectl) reads them, also a lone `\r` and,
//! between tokens, NEL, U+2028 and U+2029, each warned of as a
//! [`Kind::Lenient`] event (like every input kubectl reads and YAML 1.2
//! does not; docs/yaml.md lists them).
//!
//! Use: [`Parser::new`]`(input, max_depth)` is an iterator of
//! `Result<`[`Event`]`, Fault>` that ends after [`Kind::StreamEnd`] or the
//! first error. An [`Event`] is its byte offset `at` and a [`Kind`]: stream
//! and document bounds, `MappingStart`/`SequenceStart` (with [`Props`] and
//! whether flow style) and their ends, `Scalar` ([`Props`] and a
//! [`Scalar`]), `Alias`, `Comment` and `BlankLine`. A [`Scalar`] tells its
//! [`Style`], its source span ([`Scalar::raw`]), and decodes lazily:
//! [`Scalar::pieces`] (runs of source text and single characters),
//! [`Scalar::as_str`] (the text when it is one source run: what schema
//! resolution looks at). Tags come resolved
//! against `%TAG` as a [`Tag`] (prefix and still-escaped suffix); the
//! directives themselves are not events.
//!
//! Tests (`tests.rs`): the whole yaml-test-suite in its event notation
//! (every error case rejected and every event stream equal, the same with
//! CR LF line breaks, except the cases kubectl reads otherwise, listed in
//! tests/common/kubectl_suite.rs), its `in.json` data, the corpus-yaml manifests as
//! kubectl reads them with their 1,192 comments, the bench YAML files as
//! their JSON, the depth and key-length limits, large inputs, and no panic
//! on every prefix and on mutated bytes of every suite input.

#[cfg(feature = "alloc")]
mod attach;
#[cfg(feature = "alloc")]
pub(crate) mod cursor;
#[cfg(feature = "alloc")]
pub(crate) mod load;
mod parser;
mod scalar;
mod scanner;
#[cfg(test)]
mod tests;

use super::utf8_len;
#[allow(unused_imports)]
pub(crate) use parser::Parser;
#[allow(unused_imports)]
pub(crate) use scalar::{Chomp, Pieces, Scalar, Style};

/// One parse event and the byte offset where its syntax starts (for a
/// collection end: where the token that closed it starts, or the next token).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Event<'a> {
    pub(crate) at: usize,
    pub(crate) kind: Kind<'a>,
}

/// What an [`Event`] is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind<'a> {
    StreamStart,
    StreamEnd,
    /// `explicit`: the document opened with `---`.
    DocumentStart {
        explicit: bool,
    },
    /// `explicit`: the document closed with `...`.
    DocumentEnd {
        explicit: bool,
    },
    /// The entries follow as key, value, key, value ... until `MappingEnd`.
    MappingStart {
        props: Props<'a>,
        flow: bool,
    },
    MappingEnd,
    SequenceStart {
        props: Props<'a>,
        flow: bool,
    },
    SequenceEnd,
    /// A scalar; an empty node (`key:` with no value) is an empty plain one.
    Scalar {
        props: Props<'a>,
        scalar: Scalar<'a>,
    },
    /// `*name`.
    Alias {
        name: &'a str,
    },
    /// `# text`: `text` is everything after the `#` up to the line break.
    /// `trailing`: content precedes it on its line.
    Comment {
        text: &'a str,
        trailing: bool,
    },
    /// A line holding only white space, outside any scalar; `at` is its start.
    BlankLine,
    /// The input at `at` is not YAML 1.2, but go-yaml (kubectl's reader)
    /// reads it, and so does this parser: `what` says what it is.
    Lenient {
        what: &'static str,
    },
}

/// A node's properties.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Props<'a> {
    /// `&name`: the name.
    pub(crate) anchor: Option<&'a str>,
    pub(crate) tag: Option<Tag<'a>>,
}

/// A tag after `%TAG` resolution: the full tag is `prefix` followed by
/// `suffix` with its `%XX` escapes decoded ([`Tag::chars`]). The
/// non-specific tag `!` has prefix `!` and an empty suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tag<'a> {
    pub(crate) prefix: &'a str,
    /// As written (URI escapes not decoded); checked by the scanner.
    pub(crate) suffix: &'a str,
}

impl<'a> Tag<'a> {
    /// The prefix `tag:yaml.org,2002:` of the `!!` handle by default.
    pub(crate) const CORE: &'static str = "tag:yaml.org,2002:";

    /// The whole tag, `%XX` escapes of the suffix decoded as UTF-8 bytes
    /// (a sequence that is not UTF-8 comes out as U+FFFD).
    pub(crate) fn chars(&self) -> impl Iterator<Item = char> + 'a {
        self.prefix.chars().chain(UriChars {
            rest: self.suffix.as_bytes(),
        })
    }
}

/// Decodes `%XX` escapes of a tag suffix.
struct UriChars<'a> {
    rest: &'a [u8],
}

impl Iterator for UriChars<'_> {
    type Item = char;
    fn next(&mut self) -> Option<char> {
        let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
        let escaped = |r: &[u8]| -> Option<u8> {
            match r {
                [b'%', h, l, ..] => Some(hex(*h)? << 4 | hex(*l)?),
                _ => None,
            }
        };
        let first = *self.rest.first()?;
        let Some(lead) = escaped(self.rest) else {
            // Not an escape: one UTF-8 character as written.
            let len = utf8_len(first).unwrap_or(4);
            let (ch, rest) = self.rest.split_at(len.min(self.rest.len()));
            self.rest = rest;
            return core::str::from_utf8(ch)
                .ok()
                .and_then(|s| s.chars().next())
                .or(Some('\u{FFFD}'));
        };
        let len = utf8_len(lead).unwrap_or(1);
        let mut buf = [0u8; 4];
        let mut n = 0;
        while n < len {
            match escaped(self.rest) {
                Some(b) => {
                    buf[n] = b;
                    n += 1;
                    self.rest = &self.rest[3..];
                }
                None => break,
            }
        }
        Some(
            core::str::from_utf8(&buf[..n])
                .ok()
                .and_then(|s| s.chars().next())
                .unwrap_or('\u{FFFD}'),
        )
    }
}

/// The comments of the YAML stream `input`, in input order, up to its
/// first syntax error: each one's document (0-based: a comment before the
/// first document or between two belongs to the one before it, or to the
/// first) and its text after `#`, trailing white space removed.
#[cfg(feature = "alloc")]
pub(crate) fn comments(input: &[u8]) -> alloc::vec::Vec<(usize, &str)> {
    let mut parser = Parser::new(input, crate::MAX_DEPTH);
    let mut out = alloc::vec::Vec::new();
    let mut started = 0usize;
    while let Some(Ok(event)) = parser.next_event() {
        match event.kind {
            Kind::DocumentStart { .. } => started += 1,
            Kind::Comment { text, .. } => out.push((started.saturating_sub(1), text.trim_end())),
            _ => {}
        }
    }
    out
}
