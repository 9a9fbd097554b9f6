//! Framing YAML: where each document of a YAML stream ends, found line by
//! line as the bytes arrive, without the parser, so that a reader can hand
//! each document to the encoder as soon as it is complete.
//!
//! A document ends only at a line that the scanner, whatever it is
//! reading, takes for the end of one ([`document_marker`]): a `---` or
//! `...` at column 0 followed by a space, a tab, a line end or the end of
//! the input. YAML 1.2 forbids such a line inside any scalar or flow
//! collection (`c-forbidden`, §9.1.4: a block scalar, a plain or quoted
//! scalar, a flow collection all end there, or fail), and the scanner
//! does the same (`Scanner::document_marker`, looked at before any token
//! at a line's start and in every scalar's line loop).
//!
//! A frame is one document with the lines around it that belong to it:
//! - before it, comments, blank lines and directives (`%`) up to and
//!   including its `---` line (the document head);
//! - after it, if a `...` ends it, that line and the comments and blank
//!   lines after it: comments between two documents belong to the one
//!   they follow (SPEC-YAML.md §2–§3).
//!
//! The frame ends before the next `---` line, or, after a `...`, before the
//! next directive or content line. Anchors are scoped to a document, so
//! each frame reads alone as it reads in the whole stream. A frame never
//! starts with a byte order mark (a line that starts with one stays with
//! the frame before it), so the reader that sees a frame alone never takes
//! a mark inside the stream for the one at its start. Line ends are `\n`
//! (a CR LF ends with one); a marker after another line break (a lone CR,
//! NEL) does not end a frame, and the scanner refuses it anyway. Where the
//! framer does not cut, the frame holds two documents, which reads as in
//! the whole stream: cutting less only delays output.

/// A document marker line: which one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Marker {
    /// `---`: a document starts (and the one before it ends).
    Start,
    /// `...`: the document ends.
    End,
}

/// The document marker that `line` (a line of the stream from its first
/// byte: at least four bytes of it, or all of the stream that is left)
/// opens with, if any: `---` or `...` followed by a space, a tab, a line
/// end or the end of the input. The one rule of where a document ends;
/// it must find a marker only where the scanner finds one
/// (`Scanner::document_marker`).
pub(crate) fn document_marker(line: &[u8]) -> Option<Marker> {
    let marker = match line.get(..3)? {
        b"---" => Marker::Start,
        b"..." => Marker::End,
        _ => return None,
    };
    matches!(line.get(3), None | Some(b' ' | b'\t' | b'\r' | b'\n')).then_some(marker)
}

/// What a line is to the framer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Line {
    Marker(Marker),
    /// `%` at column 0: a directive, before a document.
    Directive,
    /// Blank, or only a comment.
    Trivia,
    /// Anything else (a line starting with a byte order mark too).
    Content,
}

/// What the line starting `rest` is, once enough of it has arrived
/// (`complete`: all of the stream has).
fn classify(rest: &[u8], complete: bool) -> Option<Line> {
    let head = &rest[..rest.len().min(3)];
    if rest.len() < 4 && !complete && (b"---".starts_with(head) || b"...".starts_with(head)) {
        // Maybe a marker: its fourth byte decides.
        return None;
    }
    if let Some(marker) = document_marker(rest) {
        return Some(Line::Marker(marker));
    }
    if rest.first() == Some(&b'%') {
        return Some(Line::Directive);
    }
    match rest.iter().find(|&&b| !matches!(b, b' ' | b'\t' | b'\r')) {
        Some(b'#' | b'\n') => Some(Line::Trivia),
        Some(_) => Some(Line::Content),
        None if complete => Some(Line::Trivia),
        None => None,
    }
}

/// Where a frame ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct FrameEnd {
    /// Its length.
    pub(crate) len: usize,
    /// Whether a `---` line follows it: the reader that sees the frame
    /// alone must see that its document ends at a marker, as the scanner
    /// of the whole stream does (comments at the document's end are placed
    /// by what follows it).
    pub(crate) before_start: bool,
}

/// Finds the end of one frame, across as many calls as its bytes take to
/// arrive; each byte is looked at once.
pub(crate) struct YamlFramer {
    /// Where the line being looked at starts.
    line: usize,
    /// Whether that line has been classified (its end not found yet).
    classified: bool,
    /// How far that line has been searched for its line feed.
    searched: usize,
    /// Whether the frame's document has begun (a `---` or content).
    document: bool,
    /// Whether a `...` has ended it.
    ended: bool,
}

impl YamlFramer {
    pub(crate) fn new() -> YamlFramer {
        YamlFramer {
            line: 0,
            classified: false,
            searched: 0,
            document: false,
            ended: false,
        }
    }

    /// Starts on a new frame.
    pub(crate) fn reset(&mut self) {
        *self = YamlFramer::new();
    }

    /// Leaves the first `n` bytes of the frame out of the framing (a byte
    /// order mark: line 1 starts after it).
    pub(crate) fn skip(&mut self, n: usize) {
        (self.line, self.searched) = (n, n);
    }

    /// Where the frame whose bytes so far are `text` ends, once that is
    /// among them; `None` while it needs more bytes. `complete`: `text`
    /// holds the rest of the stream (its end then ends the frame, which
    /// the caller knows). `text` must start with the same bytes each time.
    pub(crate) fn end(&mut self, text: &[u8], complete: bool) -> Option<FrameEnd> {
        loop {
            if !self.classified {
                let rest = text.get(self.line..)?;
                if rest.is_empty() {
                    return None;
                }
                let line = classify(rest, complete)?;
                if let Some(end) = self.take(line, rest[0]) {
                    return Some(end);
                }
                (self.classified, self.searched) = (true, self.line);
            }
            let rest = text.get(self.searched..).unwrap_or_default();
            match rest.iter().position(|&b| b == b'\n') {
                Some(at) => {
                    (self.line, self.classified) = (self.searched + at + 1, false);
                }
                None => {
                    self.searched = text.len();
                    return None;
                }
            }
        }
    }

    /// Takes a line that starts with `first` into the frame, or ends the
    /// frame before it.
    fn take(&mut self, line: Line, first: u8) -> Option<FrameEnd> {
        let len = self.line;
        let cut = |before_start| FrameEnd { len, before_start };
        match line {
            Line::Marker(Marker::Start) if self.document => return Some(cut(true)),
            Line::Marker(Marker::Start) => self.document = true,
            Line::Marker(Marker::End) => self.ended = self.document,
            Line::Trivia => {}
            // The next document's directives or content.
            Line::Directive | Line::Content if self.ended && first != BOM_FIRST => {
                return Some(cut(false))
            }
            Line::Directive if !self.document => {}
            Line::Directive | Line::Content => (self.document, self.ended) = (true, false),
        }
        None
    }
}

/// The first byte of a byte order mark (in UTF-8).
const BOM_FIRST: u8 = 0xEF;

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// The frames `input` is cut into when fed `step` bytes at a time, and
    /// whether a `---` line follows each.
    fn frames(input: &[u8], step: usize) -> Vec<(&[u8], bool)> {
        let mut framer = YamlFramer::new();
        let (mut found, mut start, mut have) = (Vec::new(), 0, 0);
        while start < input.len() {
            let complete = have == input.len();
            match framer.end(&input[start..have], complete) {
                Some(end) => {
                    found.push((&input[start..start + end.len], end.before_start));
                    start += end.len;
                    framer.reset();
                }
                None if complete => {
                    found.push((&input[start..], false));
                    start = input.len();
                }
                None => have = (have + step).min(input.len()),
            }
        }
        found
    }

    fn all_steps(input: &[u8], want: &[(&[u8], bool)]) {
        for step in [1, 2, 3, 5, input.len().max(1)] {
            assert_eq!(
                frames(input, step),
                want,
                "{} by {step}",
                input.escape_ascii()
            );
        }
    }

    #[test]
    fn markers_need_a_blank_or_the_end_after_them() {
        for (line, want) in [
            (&b"---"[..], Some(Marker::Start)),
            (b"--- a", Some(Marker::Start)),
            (b"---\t", Some(Marker::Start)),
            (b"---\r\n", Some(Marker::Start)),
            (b"...\n", Some(Marker::End)),
            (b"... # c", Some(Marker::End)),
            (b"---a", None),
            (b"---#c", None),
            (b"--", None),
            (b" ---", None),
            (b"....", None),
        ] {
            assert_eq!(document_marker(line), want, "{line:?}");
        }
    }

    #[test]
    fn a_start_marker_ends_the_document_before_it() {
        all_steps(
            b"a: 1\n# foot\n\n---\nb: |\n  x\n--- c\n",
            &[
                (b"a: 1\n# foot\n\n", true),
                (b"---\nb: |\n  x\n", true),
                (b"--- c\n", false),
            ],
        );
    }

    #[test]
    fn comments_and_directives_before_the_first_marker_are_its_head() {
        all_steps(
            b"# head\n%YAML 1.2\n\n---\na: 1\n---\n",
            &[
                (b"# head\n%YAML 1.2\n\n---\na: 1\n", true),
                (b"---\n", false),
            ],
        );
        all_steps(b"---\n---\n", &[(b"---\n", true), (b"---\n", false)]);
    }

    #[test]
    fn an_end_marker_keeps_the_comments_after_it() {
        all_steps(
            b"a: 1\n...\n# foot\n\n%YAML 1.2\n---\nb\n...\nc\n",
            &[
                (b"a: 1\n...\n# foot\n\n", false),
                (b"%YAML 1.2\n---\nb\n...\n", false),
                (b"c\n", false),
            ],
        );
        // Before a document, `...` ends nothing.
        all_steps(b"...\n# c\na\n", &[(b"...\n# c\na\n", false)]);
    }

    #[test]
    fn no_frame_starts_with_a_byte_order_mark() {
        all_steps(
            b"a\n...\n\xEF\xBB\xBFb\n",
            &[(b"a\n...\n\xEF\xBB\xBFb\n", false)],
        );
    }

    #[test]
    fn crlf_and_a_last_line_without_a_line_end() {
        all_steps(
            b"a: 1\r\n---\r\nb: 2\r\n---",
            &[
                (b"a: 1\r\n", true),
                (b"---\r\nb: 2\r\n", true),
                (b"---", false),
            ],
        );
        // A marker after a lone CR is no line's start here.
        all_steps(b"a\r---\rb", &[(b"a\r---\rb", false)]);
    }
}
