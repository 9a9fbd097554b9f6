//! What the parser produces: [`SyntaxEvent`]s (a [`Kind`] and the byte
//! offset where its syntax starts), a node's [`Props`], and its [`SyntaxTag`]
//! resolved against `%TAG`, which decodes its own `%XX` escapes.

use super::scalar::Scalar;
use crate::scan::utf8_len;

/// One parse event and the byte offset where its syntax starts (for a
/// collection end: where the token that closed it starts, or the next token).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SyntaxEvent<'a> {
    pub(crate) at: usize,
    pub(crate) kind: Kind<'a>,
}

/// What a [`SyntaxEvent`] is.
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
    /// The input at `at` is YAML 1.2 but kubectl refuses it or never
    /// reads it: `what` it expects instead (an error under the `kubectl`
    /// schema).
    Refused {
        what: &'static str,
    },
}

/// A node's properties.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Props<'a> {
    /// `&name`: the name.
    pub(crate) anchor: Option<&'a str>,
    pub(crate) tag: Option<SyntaxTag<'a>>,
}

/// A tag after `%TAG` resolution: the full tag is `prefix` followed by
/// `suffix` with its `%XX` escapes decoded ([`SyntaxTag::chars`]). The
/// non-specific tag `!` has prefix `!` and an empty suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SyntaxTag<'a> {
    pub(crate) prefix: &'a str,
    /// As written (URI escapes not decoded); checked by the scanner.
    pub(crate) suffix: &'a str,
}

impl<'a> SyntaxTag<'a> {
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
