//! [`Transcoder`]: JSON or YAML from an `io::Read` to KYAML on an
//! `io::Write`, document by document, each written as soon as it is
//! complete.
//!
//! The input is read straight into one buffer that holds the bytes not
//! yet consumed; a framer finds where each document ends (`Framer` for
//! JSON, `YamlFramer` for YAML), and the document alone goes through the
//! same encoder as [`Options::to_writer`] (checked, then written): so each
//! document's output, error and warnings are the whole input's, positions
//! moved to where the document is in the stream. Memory is the largest document plus a chunk:
//! the buffer is set up a chunk at a time, as input arrives.
//! The output is delivered (buffer flushed, writer flushed) before every
//! read, so nothing complete waits on input that may never come.

use core::fmt;
use std::boxed::Box;
use std::io::{self, Read, Write};
use std::vec::Vec;

use crate::encode::{self, OnInvalid};
use crate::error::{line_at, Error, ErrorKind, Fault, Warning};
use crate::io::{encode_into, invalid, Buffered};
use crate::options::{Form, Input, Options};
use crate::scan::{starts_value, FrameEnd, Framer, YamlFramer};
use crate::swar;

/// How much room the buffer gets for reads at a time: set up (touched) as
/// it is given, so it is what memory holds beyond the input itself; a
/// pipe's reads are at most 64 KiB anyway.
const CHUNK: usize = 16 * 1024;

/// Less room than this left after the input read so far, and the buffer
/// gets a new chunk's worth (so that reads stay large).
const MIN_READ: usize = 4096;

const BOM: &[u8] = "\u{FEFF}".as_bytes();

/// Reads JSON or YAML documents from an `io::Read` and writes each as
/// KYAML to an `io::Write` as soon as it is complete and valid. Made by
/// [`Options::transcoder`]; [`Options::transcode`] runs one to the end.
///
/// Memory is bounded by the largest document plus a fixed buffer, however
/// long the stream. Each document is checked completely before any of it
/// is written; the output is flushed whenever the transcoder is about to
/// wait for input, so a pipe that delivers one document at a time (`tail
/// -f`, `kubectl get -w -o json`) gets each one rendered as it arrives.
///
/// A YAML document ([`Options::input`]) is complete at the next line that
/// starts with `---` or `...` (followed by a blank or the line end), or,
/// after a `...`, at the next line that is not a comment: the comments
/// after a document go with it. The output is the same as
/// [`Options::to_writer`]'s for the whole input. In the value form
/// ([`Options::form`]) YAML input is read whole, then written.
///
/// ```
/// use kyaml::Options;
/// let input: &[u8] = b"{\"a\": 1}\n{\"a\": [1,,2]}\n{\"b\": 2}\n";
/// let mut out = Vec::new();
/// let mut docs = Options::new().compact(true).transcoder(input, &mut out);
/// assert!(docs.next_document()?);
/// let err = docs.next_document().unwrap_err();
/// let err = err.get_ref().and_then(|e| e.downcast_ref::<kyaml::Error>()).unwrap();
/// assert_eq!((err.line(), err.column()), (2, 10));
/// assert_eq!(docs.rejected_line(), Some((&b"{\"a\": [1,,2]}"[..], 1)));
/// // After an invalid document, reading resumes at the next line that
/// // starts a value.
/// assert!(docs.next_document()?);
/// assert!(!docs.next_document()?);
/// drop(docs);
/// assert_eq!(out, b"---\n{a: 1}\n---\n{b: 2}\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Transcoder<R, W> {
    opts: Options,
    input: R,
    output: Buffered<W>,
    /// Input read and not yet consumed: `buf[start..end]`; the bytes past
    /// `end` are room for the next read.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// Where `buf[start]` is in the input.
    at: Position,
    framer: Box<Framer>,
    yaml_framer: YamlFramer,
    /// After an invalid YAML document, its length: reading resumes after it.
    rejected_len: usize,
    /// The input text of the last YAML document written or rejected, in `buf`.
    last: core::ops::Range<usize>,
    eof: bool,
    /// Whether the start of the input (and a byte order mark there) is behind.
    started: bool,
    /// The last YAML frame was cut after its `...`, before content or a
    /// directive (no `---` line between): the next is read after a `...`.
    after_dots: bool,
    /// That frame (cut after `...`) ends with a blank line after a comment:
    /// the whole input's writer keeps that blank line if a comment comes
    /// next, which is the next frame's to write ([`WithoutTail`]).
    blank_after_comment: bool,
    /// After an invalid document, its error: reading resumes at the next
    /// line that starts a value.
    rejected: Option<Error>,
    /// The line of the input's first value, and whether it opens as JSON
    /// (`scan::opens_as_json`): a syntax error on that line of an input
    /// that does not gets the hint that it looks like YAML, as the whole
    /// input's would (`scan::looks_like_yaml`).
    first_value: Option<(usize, bool)>,
}

impl<R: Read, W: Write> Transcoder<R, W> {
    pub(crate) fn new(opts: Options, input: R, output: W) -> Transcoder<R, W> {
        Transcoder {
            opts,
            input,
            output: Buffered::new(output),
            buf: Vec::new(),
            start: 0,
            end: 0,
            at: Position {
                offset: 0,
                line: 1,
                column: 1,
            },
            framer: Box::new(Framer::new()),
            yaml_framer: YamlFramer::new(),
            rejected_len: 0,
            last: 0..0,
            eof: false,
            started: false,
            after_dots: false,
            blank_after_comment: false,
            first_value: None,
            rejected: None,
        }
    }

    /// Reads the next document and writes it: `Ok(true)` once written,
    /// `Ok(false)` at the end of the input (everything written has then
    /// been flushed).
    ///
    /// An invalid document is an `io::Error` of kind `InvalidData` whose
    /// inner error is the [`Error`], positioned in the whole
    /// input; nothing of it is written, and the documents before it have
    /// been flushed. The next call then resumes at the next line whose first byte
    /// starts a value (`{`, `[`, `"`, `-`, a digit, `t`, `f` or `n`): in
    /// JSON Lines, the next line; in YAML, at the next document. Any other
    /// error is the reader's or the writer's own.
    ///
    /// YAML's warnings are dropped; see
    /// [`next_document_with_warnings`](Transcoder::next_document_with_warnings).
    pub fn next_document(&mut self) -> io::Result<bool> {
        self.next_document_with_warnings(&mut Vec::new())
    }

    /// [`next_document`](Transcoder::next_document), the YAML document's
    /// warnings appended to `warnings` (those of an invalid document too),
    /// positioned in the whole input, as
    /// [`Options::to_writer_with_warnings`] finds them.
    ///
    /// ```
    /// use kyaml::{Input, Options};
    /// let input: &[u8] = b"a: yes\n---\nb: [1,\n---\nc: 3\n";
    /// let mut out = Vec::new();
    /// let mut warnings = Vec::new();
    /// let mut docs = Options::new().input(Input::Yaml).compact(true).transcoder(input, &mut out);
    /// assert!(docs.next_document_with_warnings(&mut warnings)?);
    /// assert_eq!((warnings[0].line, warnings[0].column), (1, 4));
    /// let err = docs.next_document().unwrap_err();
    /// let err = err.get_ref().and_then(|e| e.downcast_ref::<kyaml::Error>()).unwrap();
    /// assert_eq!((err.line(), err.column()), (4, 1));
    /// // Reading resumes at the next document.
    /// assert!(docs.next_document()?);
    /// assert!(!docs.next_document()?);
    /// drop(docs);
    /// assert_eq!(out, b"---\n{a: true}\n---\n{c: 3}\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn next_document_with_warnings(&mut self, warnings: &mut Vec<Warning>) -> io::Result<bool> {
        self.last = 0..0;
        match self.opts.input_language() {
            Input::Json => self.next_json_document(),
            _ if self.opts.output_form() == Form::Value => self.whole_input(warnings),
            _ => self.next_yaml_document(warnings),
        }
    }

    /// The input text of the YAML document the last call to
    /// [`next_document`](Transcoder::next_document) wrote or rejected, with
    /// the comments and blank lines that belong to it (with the value
    /// form, the whole input); empty for JSON, and after the end.
    pub fn last_document(&self) -> &[u8] {
        self.buf.get(self.last.clone()).unwrap_or_default()
    }

    /// [`next_document`](Transcoder::next_document) for JSON.
    fn next_json_document(&mut self) -> io::Result<bool> {
        if self.rejected.take().is_some() {
            self.skip_to_a_line_with_a_value()?;
        }
        if !self.started {
            self.skip_byte_order_mark()?;
        }
        // White space between documents.
        loop {
            let n = swar::skip_white_space(self.unread(), 0);
            self.consume(n);
            if self.start < self.end {
                break;
            }
            if !self.fill()? {
                self.output.deliver()?;
                return Ok(false);
            }
        }
        self.framer.reset();
        let len = loop {
            if let Some(len) = self.framer.end(&self.buf[self.start..self.end]) {
                break len;
            }
            if !self.fill()? {
                break self.end - self.start;
            }
        };
        // In value form a document is valid only if no other value
        // follows it: the encoder sees the next byte that is not white
        // space, if there is one.
        let mut seen = len;
        if self.opts.output_form() == Form::Value {
            loop {
                seen = swar::skip_white_space(self.unread(), seen);
                if self.start + seen < self.end {
                    seen += 1;
                    break;
                }
                if !self.fill()? {
                    break;
                }
            }
        }
        let doc = &self.buf[self.start..self.start + seen];
        if self.first_value.is_none() {
            // The white space before it is consumed: the document starts
            // with its value, as `scan::looks_like_yaml` finds it.
            if let Some(&first) = doc.first() {
                self.first_value = Some((self.at.line, crate::scan::opens_as_json(first)));
            }
        }
        let checked = if self.at.offset > 0 && doc.starts_with(BOM) {
            // Only the input's first bytes may be a byte order mark; the
            // encoder, which sees this document alone, would skip it.
            Err(Fault::new(ErrorKind::Syntax, 0, "a value").locate(doc, None))
        } else {
            encode_into(doc, self.opts, &mut self.output, OnInvalid::KeepBefore)?
        };
        match checked {
            Ok(()) => {
                self.consume(len);
                Ok(true)
            }
            Err(e) => {
                let e = e.within(self.at.offset, self.at.line, self.at.column);
                let hint = e.kind() == ErrorKind::Syntax
                    && self.opts.input_language() == Input::Json
                    && self.first_value == Some((e.line(), false));
                let e = e.with_yaml_hint(hint);
                self.rejected = Some(e.clone());
                self.output.deliver()?;
                Err(invalid(e))
            }
        }
    }

    /// After [`next_document`](Transcoder::next_document) rejected an
    /// invalid document, for showing its error in context: the line the
    /// error is on, as far as it has been read and without its line feed,
    /// and the column of its first character. The line starts no earlier
    /// than the document: where an earlier document ends on the same line,
    /// that column is past 1. `None` if the last call rejected nothing.
    pub fn rejected_line(&self) -> Option<(&[u8], usize)> {
        let err = self.rejected.as_ref()?;
        let text = self.unread();
        let line = line_at(text, err.offset().saturating_sub(self.at.offset));
        let first = if line.start == 0 { self.at.column } else { 1 };
        Some((text.get(line).unwrap_or_default(), first))
    }

    /// Delivers to the writer all that the documents read so far wrote
    /// (some may still be held in the transcoder's buffer after
    /// [`next_document`](Transcoder::next_document) returns), and flushes
    /// it: the writer then holds the last document's output whole, for a
    /// caller that handles each document's output on its own.
    pub fn flush(&mut self) -> io::Result<()> {
        self.output.deliver()
    }

    /// The writer, for example to see what it holds.
    pub fn get_ref(&self) -> &W {
        self.output.inner()
    }

    /// The reader and the writer. What is written has been delivered if
    /// the last call to [`next_document`](Transcoder::next_document)
    /// returned `Ok(false)` or an invalid document's error.
    pub fn into_inner(self) -> (R, W) {
        (self.input, self.output.into_inner())
    }

    /// [`next_document`](Transcoder::next_document) for YAML: the next
    /// frame (one document and the lines that belong to it), encoded
    /// alone.
    fn next_yaml_document(&mut self, warnings: &mut Vec<Warning>) -> io::Result<bool> {
        if self.rejected.take().is_some() {
            self.consume(self.rejected_len);
        }
        while self.start == self.end {
            if !self.fill()? {
                self.output.deliver()?;
                return Ok(false);
            }
        }
        self.yaml_framer.reset();
        if !self.started {
            // The input's byte order mark stays in the first document,
            // where the encoder reads it as it reads the whole input's.
            while self.end < BOM.len() && BOM.starts_with(self.unread()) && self.fill()? {}
            if self.unread().starts_with(BOM) {
                self.yaml_framer.skip(BOM.len());
            }
            self.started = true;
        }
        let after_dots = core::mem::take(&mut self.after_dots);
        let blank_first = core::mem::take(&mut self.blank_after_comment);
        let FrameEnd { len, before_start } = loop {
            let unread = &self.buf[self.start..self.end];
            if let Some(end) = self.yaml_framer.end(unread, self.eof) {
                // Cut before a line other than `---`: after a `...`.
                self.after_dots = !end.before_start;
                break end;
            }
            if self.eof {
                break FrameEnd {
                    len: self.end - self.start,
                    before_start: false,
                };
            }
            // At the end, the framer looks at the last line again.
            self.fill()?;
        };
        // Before a `---` line, the document is read with the marker after
        // it, so that it ends as in the whole input; the empty document
        // the marker starts writes `---\n`, which is left out.
        let seen = len + if before_start { START.len() } else { 0 };
        let doc = &self.buf[self.start..self.start + seen];
        let first = warnings.len();
        let tail = if before_start { START_WRITTEN } else { b"" };
        let mut sink = WithoutTail::new(&mut self.output, tail);
        sink.blank_before_comment = blank_first && self.opts.comment_output();
        // Where the text read starts in the input: its line 1 is the
        // frame's, but for a frame read after `...`.
        let mut at = (self.at.offset, self.at.line, self.at.column);
        let after_end;
        let text = if after_dots && self.opts.yaml_schema() == crate::options::Schema::Kubectl {
            // The frame is read after a `...`, as the whole input's reader
            // reads it there: what kubectl never reads (content) is
            // refused, what kubectl drops unread (a `%YAML`) is read.
            // The frame starts a line, the line after `AFTER_END`.
            after_end = [AFTER_END, doc].concat();
            at = (
                at.0.saturating_sub(AFTER_END.len()),
                at.1.saturating_sub(1),
                1,
            );
            &after_end[..]
        } else {
            doc
        };
        let checked =
            encode::encode_yaml(text, self.opts, &mut sink, warnings, OnInvalid::KeepBefore);
        // After an error, what is held is the end of the documents before
        // the invalid one.
        let finished = sink.finish(checked.is_ok());
        if finished.is_err()
            || checked
                .as_ref()
                .is_err_and(|e| e.kind() == ErrorKind::Write)
        {
            return Err(self
                .output
                .take_error()
                .unwrap_or_else(|| io::ErrorKind::Other.into()));
        }
        for warning in &mut warnings[first..] {
            warning.within(at.0, at.1, at.2);
        }
        self.last = self.start..self.start + len;
        match checked {
            Ok(()) => {
                self.blank_after_comment = self.after_dots && ends_blank_after_comment(&doc[..len]);
                self.consume(len);
                Ok(true)
            }
            Err(e) => {
                let e = e.within(at.0, at.1, at.2);
                (self.rejected, self.rejected_len) = (Some(e.clone()), len);
                self.output.deliver()?;
                Err(invalid(e))
            }
        }
    }

    /// YAML in the value form is not framed: all of it is read and written
    /// as by [`Options::to_writer`], its documents counted as one.
    fn whole_input(&mut self, warnings: &mut Vec<Warning>) -> io::Result<bool> {
        if self.started {
            self.output.deliver()?;
            return Ok(false);
        }
        while self.fill()? {}
        self.started = true;
        let input = &self.buf[..self.end];
        let checked = match encode::encode_yaml(
            input,
            self.opts,
            &mut self.output,
            warnings,
            OnInvalid::KeepBefore,
        ) {
            Err(e) if e.kind() == ErrorKind::Write => {
                return Err(self
                    .output
                    .take_error()
                    .unwrap_or_else(|| io::Error::other(e)));
            }
            checked => checked,
        };
        self.output.deliver()?;
        self.last = 0..self.end;
        checked.map(|()| true).map_err(invalid)
    }

    /// Reads more input: `false` at its end. Delivers all output first:
    /// the read may wait.
    fn fill(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        self.output.deliver()?;
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            (self.start, self.end) = (0, self.end - self.start);
        }
        if self.buf.len() - self.end < MIN_READ {
            // Only this much is set up (touched) now; the vector's own
            // growth reserves more without touching it.
            self.buf.resize(self.end + CHUNK, 0);
        }
        loop {
            match self.input.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(n) => {
                    self.end = (self.end + n).min(self.buf.len());
                    return Ok(true);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// The input read and not yet consumed.
    fn unread(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    /// Drops the first `n` unconsumed bytes.
    fn consume(&mut self, n: usize) {
        self.at.advance(&self.buf[self.start..self.start + n]);
        self.start += n;
    }

    /// Skips a byte order mark at the very start of the input.
    fn skip_byte_order_mark(&mut self) -> io::Result<()> {
        while self.end < BOM.len() && BOM.starts_with(self.unread()) && self.fill()? {}
        if self.unread().starts_with(BOM) {
            // The mark is no character of line 1.
            self.start = BOM.len();
            self.at.offset = BOM.len();
        }
        self.started = true;
        Ok(())
    }

    /// After an invalid document: skips to the first line after the one it
    /// starts on whose first byte starts a value.
    fn skip_to_a_line_with_a_value(&mut self) -> io::Result<()> {
        loop {
            loop {
                let rest = self.unread();
                if let Some(line_feed) = rest.iter().position(|&b| b == b'\n') {
                    self.consume(line_feed + 1);
                    break;
                }
                self.consume(rest.len());
                if !self.fill()? {
                    return Ok(());
                }
            }
            while self.start == self.end {
                if !self.fill()? {
                    return Ok(());
                }
            }
            if starts_value(self.buf[self.start]) {
                return Ok(());
            }
        }
    }
}

/// A place in the input: byte offset, 1-based line and column (in
/// characters), as [`Error`] counts them.
#[derive(Clone, Copy, Debug)]
struct Position {
    offset: usize,
    line: usize,
    column: usize,
}

impl Position {
    /// Moves past `bytes`.
    fn advance(&mut self, bytes: &[u8]) {
        self.offset += bytes.len();
        let tail = match bytes.iter().rposition(|&b| b == b'\n') {
            Some(at) => {
                self.line += bytes.iter().filter(|&&b| b == b'\n').count();
                self.column = 1;
                &bytes[at + 1..]
            }
            None => bytes,
        };
        // Every byte but UTF-8 continuation bytes starts a character.
        self.column += tail.iter().filter(|&&b| b & 0xC0 != 0x80).count();
    }
}

/// The line that starts a YAML document, as much of it as a reader needs
/// to see that the document before it ends there.
const START: &[u8] = b"---";

/// What a YAML frame cut after a `...` line is read after, under the
/// kubectl schema: such a line, so that its reader stands where the whole
/// input's stands there.
const AFTER_END: &[u8] = b"...\n";

/// What the encoder writes for the empty document [`START`] alone starts.
const START_WRITTEN: &[u8] = b"---\n";

/// Whether a frame cut after its `...` (so that what follows the `...` in
/// it is comments and blank lines) ends with a blank line after a line
/// holding a comment.
fn ends_blank_after_comment(frame: &[u8]) -> bool {
    let blank = |line: &[u8]| line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'));
    let lines = frame
        .strip_suffix(b"\n")
        .unwrap_or(frame)
        .rsplit(|&b| b == b'\n');
    for (blanks, line) in lines.enumerate() {
        if !blank(line) {
            return blanks > 0 && line.contains(&b'#');
        }
    }
    false
}

/// A sink that writes all it is given but its last bytes, dropped if they
/// are `tail` (the output of a document the caller added to the input):
/// the last `tail.len()` bytes are held back until more comes or
/// [`WithoutTail::finish`].
struct WithoutTail<'a, W> {
    sink: &'a mut Buffered<W>,
    /// A blank line goes first if the text starts with a comment (see
    /// `Transcoder::blank_after_comment`); looked at on the first write.
    blank_before_comment: bool,
    /// At most as long as `held`.
    tail: &'static [u8],
    held: [u8; 4],
    len: usize,
}

impl<'a, W: Write> WithoutTail<'a, W> {
    fn new(sink: &'a mut Buffered<W>, tail: &'static [u8]) -> WithoutTail<'a, W> {
        WithoutTail {
            sink,
            blank_before_comment: false,
            tail,
            held: [0; 4],
            len: 0,
        }
    }

    /// Writes what is held, but drops the tail if `complete` (the text
    /// written is all of it) and the text ended with it.
    fn finish(self, complete: bool) -> fmt::Result {
        match complete && &self.held[..self.len] == self.tail {
            true => Ok(()),
            false => self.sink.write_bytes(&self.held[..self.len]),
        }
    }
}

impl<W: Write> fmt::Write for WithoutTail<'_, W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let (s, n) = (s.as_bytes(), self.tail.len());
        if !s.is_empty() && core::mem::take(&mut self.blank_before_comment) && s[0] == b'#' {
            self.sink.write_bytes(b"\n")?;
        }
        if s.len() >= n {
            self.sink.write_bytes(&self.held[..self.len])?;
            let (written, kept) = s.split_at(s.len() - n);
            self.sink.write_bytes(written)?;
            self.held[..n].copy_from_slice(kept);
            self.len = n;
            return Ok(());
        }
        // What is held and `s` make more than the tail: the oldest go.
        let out = (self.len + s.len()).saturating_sub(n);
        self.sink.write_bytes(&self.held[..out])?;
        self.held.copy_within(out..self.len, 0);
        self.len -= out;
        self.held[self.len..self.len + s.len()].copy_from_slice(s);
        self.len += s.len();
        Ok(())
    }
}
