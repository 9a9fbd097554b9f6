//! The YAML 1.2 syntax layer: a pull parser from input bytes to syntax
//! [`SyntaxEvent`](syntax::SyntaxEvent)s with byte offsets, comments and
//! blank lines included, and (with `alloc`) the
//! [`Source`](crate::scan::Source)s that read them as data.
//!
//! It owns YAML *syntax* only: documents, block and flow collections,
//! properties (anchors and tags, resolved against `%TAG`), aliases as names,
//! scalars as undecoded source spans with their style, and every comment and
//! blank line in input order. It does not resolve plain scalars to null,
//! bool or numbers (that is `scan::resolve`), expand aliases, or check keys.
//!
//! Layers, each a file: [`chars`] holds the byte classes and word-at-a-time
//! searches; [`scanner`] turns bytes into [`token`]s, deciding implicit keys
//! by a lookahead bounded by one line and 1024 characters (so no token
//! queue and no quadratic rescans); [`parser`] is an explicit state machine
//! over those tokens (no recursion) that produces the [`syntax`] events;
//! [`scalar`] decodes a scalar's span lazily into
//! [`Piece`](crate::scan::Piece)s. The parser allocates nothing: every
//! stack (block indentation, flow nesting, parser states) is a fixed array
//! bounded by [`crate::MAX_DEPTH`], and deeper input is
//! [`ErrorKind::TooDeep`](crate::ErrorKind::TooDeep).
//!
//! Data, with `alloc`: `load.rs` owns what the events mean (the loader's
//! step, one syntax event to data items) and `attach.rs` where comments
//! and blank lines go. `stream.rs` is the [`Source`](crate::scan::Source):
//! it runs the loader as it reads, keeping no item list (only the items of
//! anchored collections, which aliases replay, until the document ends,
//! and of a map that holds a merge key, until it is given out). This file
//! re-exports nothing: the rest of the crate reads YAML through those
//! files (via `crate::scan`) and [`comments`].
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
//! `Result<`[`SyntaxEvent`](syntax::SyntaxEvent)`, Fault>` that ends after
//! [`Kind::StreamEnd`] or the first error. An event is its byte offset `at`
//! and a [`Kind`]: stream and document bounds,
//! `MappingStart`/`SequenceStart` (with [`Props`](syntax::Props) and
//! whether flow style) and their ends, `Scalar` (props and a
//! [`Scalar`](scalar::Scalar)), `Alias`, `Comment` and `BlankLine`. A
//! scalar tells its [`Style`](scalar::Style), its source span
//! ([`Scalar::raw`](scalar::Scalar::raw)), and decodes lazily:
//! [`Scalar::pieces`](scalar::Scalar::pieces) (runs of source text and
//! single characters), [`Scalar::as_str`](scalar::Scalar::as_str) (the text
//! when it is one source run: what schema resolution looks at). Tags come
//! resolved against `%TAG` as a [`SyntaxTag`](syntax::SyntaxTag) (prefix
//! and still-escaped suffix); the directives themselves are not events.
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
mod chars;
#[cfg(feature = "alloc")]
pub(crate) mod load;
mod parser;
mod scalar;
mod scanner;
#[cfg(feature = "alloc")]
pub(crate) mod stream;
mod syntax;
#[cfg(test)]
mod tests;
mod token;

use self::parser::Parser;
use self::syntax::Kind;

/// How many syntax events the YAML stream `input` holds, or its first
/// error: the scanner and the parser alone, each event dropped as it
/// comes, nothing loaded or written. Only for the parse-only row of
/// `benches/yaml-parsers` (`Options::yaml_syntax_events`).
pub(crate) fn syntax_events(input: &[u8], max_depth: usize) -> Result<usize, crate::error::Fault> {
    let mut parser = Parser::new(input, max_depth);
    let mut count = 0;
    while let Some(event) = parser.next_event() {
        core::hint::black_box(event?);
        count += 1;
    }
    Ok(count)
}

/// The comments of the YAML stream `input`, in input order, up to its
/// first syntax error: each one's document (0-based: a comment before the
/// first document or between two belongs to the one before it, or to the
/// first) and its text after `#`, trailing white space removed.
#[cfg(feature = "alloc")]
pub(crate) fn comments(input: &[u8]) -> alloc::vec::Vec<(usize, &str)> {
    let mut parser = Parser::new(input, crate::options::MAX_DEPTH);
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
