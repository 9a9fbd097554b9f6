//! What the scanner hands the parser: [`Token`]s, each a [`Tok`] and where
//! it starts, and the readings a [`Tok::Lenient`] names (input that is not
//! YAML 1.2 but that go-yaml, kubectl's reader, reads) and those a
//! [`Tok::Refused`] names (YAML 1.2 that kubectl refuses or never reads).

use super::scalar::Scalar;

/// A token and where it starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Token<'a> {
    pub(super) at: usize,
    pub(super) kind: Tok<'a>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Tok<'a> {
    StreamStart,
    StreamEnd,
    /// `%YAML major.minor`.
    Version,
    /// `%TAG handle prefix`.
    TagDirective {
        handle: &'a str,
        prefix: &'a str,
    },
    /// Another `%` directive: ignored.
    Reserved,
    DocStart,
    DocEnd,
    BlockSeqStart,
    BlockMapStart,
    BlockEnd,
    FlowSeqStart,
    FlowSeqEnd,
    FlowMapStart,
    FlowMapEnd,
    BlockEntry,
    FlowEntry,
    Key,
    Value,
    Alias(&'a str),
    Anchor(&'a str),
    /// `handle` as written (`!`, `!!`, `!name!`, or empty for `!<verbatim>`).
    Tag {
        handle: &'a str,
        suffix: &'a str,
    },
    Scalar(Scalar<'a>),
    Comment {
        text: &'a str,
        trailing: bool,
    },
    Blank,
    /// What follows is not YAML 1.2 but go-yaml (kubectl) reads it: what,
    /// in words (a warning says so).
    Lenient(&'static str),
    /// What follows is YAML 1.2 but kubectl refuses it, or never reads it:
    /// what kubectl expects instead, in words (an error under the
    /// `kubectl` schema; the `yaml-1.2` schema reads it as YAML 1.2).
    Refused(&'static str),
}

// What a `Tok::Lenient` says, one constant per reading.

/// A flow collection's line at or left of the block indentation.
pub(super) const LENIENT_FLOW_INDENT: &str =
    "a line of a flow collection indented no deeper than the block it is in";
/// NEL, U+2028, U+2029 or a lone CR between tokens.
pub(super) const LENIENT_LINE_BREAK: &str =
    "a line break other than LF or CR LF (NEL, U+2028, U+2029, a lone CR)";
/// A block scalar's leading empty lines more indented than its first line.
pub(super) const LENIENT_BLOCK_EMPTY_LINES: &str =
    "a block scalar whose leading empty lines are more indented than the line after them";
/// A comment with no white space before its `#`.
pub(super) const LENIENT_COMMENT: &str = "a comment with no white space before its '#'";
/// A quoted scalar's line at or left of the block indentation.
pub(super) const LENIENT_QUOTED_INDENT: &str =
    "a line of a quoted string indented no deeper than the block it is in";
/// `\'` in a double-quoted scalar: go-yaml reads `'`.
pub(super) const LENIENT_QUOTE_ESCAPE: &str =
    "the escape \\' in a double-quoted string, which kubectl reads as '";

// What a `Tok::Refused` expects instead, one constant per refusal.

/// A `%` directive: kubectl splits the file at its `---` line, so the
/// directive is a document of its own, which go-yaml refuses.
pub(super) const REFUSED_DIRECTIVE: &str = "a document without a '%' directive (kubectl refuses any directive: 'did not find expected <document start>'; drop it, or read the file with --schema yaml-1.2)";
/// Text after `---` on its line (`--- {a: 1}`, `--- |`, `---x`).
pub(super) const REFUSED_MARKER_TEXT: &str = "only a comment after '---' on its line (kubectl refuses the file: 'invalid Yaml document separator'; put the node on the next line)";
/// A line that starts with `---` and text inside a scalar (a block
/// scalar's at column 0, a quoted or plain scalar's continuation):
/// kubectl's splitter refuses it wherever it is.
pub(super) const REFUSED_DASHES_LINE: &str = "no line that starts with '---' and text, inside a scalar too (kubectl refuses the file: 'invalid Yaml document separator')";
/// Content after `...` before the next `---` line.
pub(super) const REFUSED_AFTER_END: &str = "a '---' line before this content (after '...', kubectl reads only the first document up to the next '---' line and never reads this one)";
/// `\/` in a double-quoted scalar.
pub(super) const REFUSED_SLASH_ESCAPE: &str =
    "'/' without a backslash (kubectl refuses the escape \\/: 'found unknown escape character')";
