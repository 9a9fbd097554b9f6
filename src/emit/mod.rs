//! Output side: the KYAML emitter, a push state machine over a [`Sink`].
//!
//! It is told each event of a document in order (with the cuddling verdict
//! for each list, which the plan or a bet worked out) and writes at once:
//! no tree, no buffer, no recursion. Per open container it keeps one byte
//! of flags, and the indent level of the innermost one. Owns KYAML syntax:
//! layout (here) and indentation (`indent.rs`), the quoting and escaping of strings
//! (`string.rs`) and keys (`key.rs`, with the cache of bare-key verdicts),
//! and where numbers go (their spelling, shared with the YAML resolver,
//! is `crate::number`'s). It sees [`Text`]s and never
//! input bytes, and checks nothing about the input.

mod indent;
mod key;
mod string;
mod unicode;

use core::fmt::{Result, Write};

use self::indent::{indent, NEWLINE_SPACES};
use crate::number;
#[cfg(feature = "alloc")]
pub(crate) use crate::number::write_exponent_form;
use crate::options::{Form, Options, MAX_DEPTH};
use crate::scan::{KeyId, Text, Trivia};
use crate::tiered::{FullRoom, Tiered};
#[cfg(feature = "alloc")]
pub(crate) use string::write_escape;
pub(crate) use string::Layout;
#[cfg(feature = "alloc")]
pub(crate) use unicode::is_print;

/// The container is a list (else a map).
const LIST: u8 = 1;
/// The list is cuddled: its elements (all containers) follow `[` on the
/// same line and share its indent level.
const CUDDLED: u8 = 2;
/// The container has had a member or element.
const NONEMPTY: u8 = 4;
/// Set for every open container, so the flags of "no container" are 0.
const OPEN: u8 = 8;

/// Where the driver writes, and whether it can take back what it got.
///
/// A sink that can ([`Sink::TAKES_BACK`]: a `String` that is dropped on an
/// error, a buffer on the stack) lets the driver check a document as it
/// writes it, in one pass, and go back when a bet on a list's layout is
/// lost. One that cannot (any other `fmt::Write`, as [`KeepsAll`]) gets
/// each document only after a checking pass proved it valid.
///
/// A sink is held by value (a reference, or a wrapper of one) and hands
/// out the `fmt::Write` behind it, so each write goes through one pointer,
/// as it would without the trait.
pub(crate) trait Sink {
    /// What the output is written into.
    type Out: Write + ?Sized;
    /// Whether [`Sink::take_back`] works.
    const TAKES_BACK: bool;
    fn out(&mut self) -> &mut Self::Out;
    /// How much has been written (0 for a sink that cannot take back).
    fn written(&self) -> usize;
    /// Keeps only the first `len` bytes written.
    fn take_back(&mut self, len: usize);

    /// Writes the first `len` bytes of [`NEWLINE_SPACES`] (a line feed
    /// and an indent), `len` at most its length. A sink may copy a fixed
    /// [`SHORT_PREFIX`] bytes and cut the rest off: a copy of a known
    /// length needs no call to `memcpy`, which costs more than the copy
    /// for these short pieces, written for every member.
    #[inline(always)]
    fn write_prefix(&mut self, len: usize) -> Result {
        self.out().write_str(&NEWLINE_SPACES[..len])
    }

    /// Writes a list element on a line of its own: the first `len` bytes
    /// of [`NEWLINE_SPACES`] (as [`Sink::write_prefix`]), `text` and the
    /// trailing comma. One call, so a sink can make room once for all three.
    #[inline(always)]
    fn write_element(&mut self, len: usize, text: &str) -> Result {
        self.write_prefix(len)?;
        self.out().write_str(text)?;
        self.out().write_str(",")
    }
}

/// How many bytes [`Sink::write_prefix`] may copy at once: a line feed and
/// seven indent levels. 32 (fifteen levels) measured more instructions on
/// all four benchmark files, the deeper lines being rare.
#[cfg(feature = "alloc")]
const SHORT_PREFIX: usize = 16;

/// The first [`SHORT_PREFIX`] bytes of [`NEWLINE_SPACES`], which is ASCII.
#[cfg(feature = "alloc")]
const INDENT_CHUNK: &[u8; SHORT_PREFIX] = {
    assert!(NEWLINE_SPACES.is_ascii());
    match NEWLINE_SPACES.as_bytes().first_chunk() {
        Some(chunk) => chunk,
        None => panic!("NEWLINE_SPACES is shorter than SHORT_PREFIX"),
    }
};

/// The buffer `to_string` and the value module write into: bytes, not a
/// `String`, so that cutting a fixed-size copy back
/// ([`Sink::write_prefix`]) is a length store rather than a call of
/// `String::truncate`, which the compiler keeps out of line with its
/// char-boundary check.
/// Bytes come in only as whole `&str`s and as prefixes of the ASCII
/// [`NEWLINE_SPACES`], and are taken back only to a char boundary, so the
/// buffer is always UTF-8 ([`TextBuf::into_string`]).
#[cfg(feature = "alloc")]
pub(crate) struct TextBuf(alloc::vec::Vec<u8>);

#[cfg(feature = "alloc")]
impl TextBuf {
    pub(crate) fn with_capacity(capacity: usize) -> TextBuf {
        TextBuf(alloc::vec::Vec::with_capacity(capacity))
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Keeps the first `len` bytes, if `len` is a char boundary (a length
    /// an earlier write ended at); else keeps all, which no caller asks.
    pub(crate) fn truncate(&mut self, len: usize) {
        if self.0.get(len).is_none_or(|&b| (b as i8) >= -0x40) {
            self.0.truncate(len);
        }
    }

    pub(crate) fn into_string(self) -> alloc::string::String {
        #[allow(unsafe_code)]
        // SAFETY: the buffer holds only whole `&str`s (`write_str`) and
        // ASCII (`write_prefix`), cut only at char boundaries
        // (`truncate` checks; `write_prefix` cuts inside its ASCII copy):
        // a concatenation of UTF-8 strings, which is UTF-8.
        unsafe {
            alloc::string::String::from_utf8_unchecked(self.0)
        }
    }
}

#[cfg(feature = "alloc")]
impl Write for TextBuf {
    #[inline(always)]
    fn write_str(&mut self, s: &str) -> Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

#[cfg(feature = "alloc")]
impl Sink for &mut TextBuf {
    type Out = TextBuf;
    const TAKES_BACK: bool = true;

    #[inline(always)]
    fn out(&mut self) -> &mut TextBuf {
        self
    }

    fn written(&self) -> usize {
        self.len()
    }

    fn take_back(&mut self, len: usize) {
        self.truncate(len);
    }

    /// Makes room once, then copies the fixed [`SHORT_PREFIX`] bytes of
    /// the indent, the text over the indent's unused tail, and the comma:
    /// no capacity check or length store between the three. On canada (a
    /// number per line) 46.46 -> 43.62 M instructions, 7-8% of the time.
    #[inline(always)]
    fn write_element(&mut self, len: usize, text: &str) -> Result {
        if len > SHORT_PREFIX {
            self.write_prefix(len)?;
            self.0.extend_from_slice(text.as_bytes());
            self.0.push(b',');
            return Ok(());
        }
        let (start, n) = (self.0.len(), text.len());
        self.0.reserve(SHORT_PREFIX + n + 1);
        #[allow(unsafe_code)]
        // SAFETY: `reserve` made room for `SHORT_PREFIX + n + 1` bytes
        // from `start`, and every write below stays inside it (`len` is at
        // most `SHORT_PREFIX`); the fixed copy reads `INDENT_CHUNK`, which
        // is `SHORT_PREFIX` bytes long. `text`, a shared borrow, cannot overlap the
        // buffer we hold mutably. The first `len + n + 1` bytes from
        // `start` are then written (the indent's first `len` bytes by the
        // fixed copy, then `text`, then the comma), so the new length
        // covers written bytes only; they are ASCII, a whole `&str` and
        // ASCII, which keeps the buffer UTF-8 (see `into_string`).
        unsafe {
            let at = self.0.as_mut_ptr().add(start);
            core::ptr::copy_nonoverlapping(INDENT_CHUNK.as_ptr(), at, SHORT_PREFIX);
            core::ptr::copy_nonoverlapping(text.as_ptr(), at.add(len), n);
            at.add(len + n).write(b',');
            self.0.set_len(start + len + n + 1);
        }
        Ok(())
    }

    #[inline(always)]
    fn write_prefix(&mut self, len: usize) -> Result {
        match len <= SHORT_PREFIX {
            true => {
                let end = self.0.len() + len;
                self.0.extend_from_slice(INDENT_CHUNK);
                self.0.truncate(end);
            }
            false => self.0.extend_from_slice(&NEWLINE_SPACES.as_bytes()[..len]),
        }
        Ok(())
    }
}

/// A sink that keeps all it gets, so the driver checks each document
/// before writing it.
pub(crate) struct KeepsAll<'w, W: ?Sized>(pub(crate) &'w mut W);

impl<W: Write + ?Sized> Sink for KeepsAll<'_, W> {
    type Out = W;
    const TAKES_BACK: bool = false;

    #[inline(always)]
    fn out(&mut self) -> &mut W {
        self.0
    }

    fn written(&self) -> usize {
        0
    }

    /// Never called: nothing is written before it is checked.
    fn take_back(&mut self, _: usize) {}
}

/// Where an emitter stood: see [`Emitter::mark`].
#[derive(Clone, Copy)]
pub(crate) struct Mark {
    written: usize,
    depth: usize,
    level: usize,
    /// The flags of the container the next value goes into.
    parent: u8,
}

/// Writes the events of one document as KYAML. The per-event methods for
/// brackets, numbers and words, and the separators, are inlined into the
/// writing loop: most of their work is a flag test and one write. So is
/// [`Emitter::key`], whose call's register saving cost more than a tenth of
/// its work; [`Emitter::string`] is not, as inlining it too measured no
/// better (docs/performance-notes.md).
pub(crate) struct Emitter<'w, K> {
    out: K,
    compact: bool,
    /// Whether trivia is written (regular form, comments on).
    trivia: bool,
    /// Document form: a `---` header and a final line feed per document.
    document: bool,
    depth: usize,
    /// The indent level of the innermost open container.
    level: usize,
    /// The flags of the innermost open container (0 outside all): read
    /// for every event, so kept apart from the others.
    top: u8,
    /// The flags of the enclosing containers, saved as each child opened.
    flags: Tiered<'w, u8, 64, MAX_DEPTH>,
    /// Which recent keys may be written bare.
    bare_keys: key::LazyCache<'w>,
}

/// Where an [`Emitter`]'s flags for deep documents and its key cache go,
/// if a document needs them.
#[derive(Default)]
pub(crate) struct Room {
    flags: FullRoom<u8, MAX_DEPTH>,
    bare_keys: Option<key::BareCache>,
}

impl<'w, K: Sink> Emitter<'w, K> {
    pub(crate) fn new(out: K, opts: Options, room: &'w mut Room) -> Emitter<'w, K> {
        Emitter {
            out,
            compact: opts.compact_layout(),
            trivia: !opts.compact_layout() && opts.comment_output(),
            document: opts.output_form() == Form::Document,
            depth: 0,
            level: 0,
            top: 0,
            flags: Tiered::new(0, &mut room.flags),
            bare_keys: key::LazyCache::new(&mut room.bare_keys),
        }
    }

    /// Whether the innermost open container is a list written cuddled.
    pub(crate) fn in_cuddled_list(&self) -> bool {
        self.top & CUDDLED != 0
    }

    /// The state before the next value, to go back to with `rewind`.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            written: self.out.written(),
            depth: self.depth,
            level: self.level,
            parent: self.top,
        }
    }

    /// Takes back everything written since `mark`.
    pub(crate) fn rewind(&mut self, mark: Mark) {
        self.out.take_back(mark.written);
        (self.depth, self.level, self.top) = (mark.depth, mark.level, mark.parent);
    }

    /// The sink, between documents.
    pub(crate) fn sink(&mut self) -> &mut K {
        &mut self.out
    }

    pub(crate) fn is_compact(&self) -> bool {
        self.compact
    }

    pub(crate) fn begin_document(&mut self) -> Result {
        if self.document {
            self.out.out().write_str("---\n")?;
        }
        Ok(())
    }

    /// Ends a document; `empty`: no value was written (a YAML document that
    /// is empty or only comments), so in the document form its header and
    /// comments are all, and the value form writes `null`, its value.
    pub(crate) fn end_document(&mut self, empty: bool) -> Result {
        match (self.document, empty) {
            (true, false) => self.out.out().write_str("\n"),
            (false, true) => self.out.out().write_str("null"),
            _ => Ok(()),
        }
    }

    #[inline(always)]
    pub(crate) fn map_start(&mut self) -> Result {
        self.open(0, "{")
    }

    /// Opens a list; `cuddled` is the first pass's verdict (ignored in compact form).
    #[inline(always)]
    pub(crate) fn list_start(&mut self, cuddled: bool) -> Result {
        self.open(
            LIST | if cuddled && !self.compact { CUDDLED } else { 0 },
            "[",
        )
    }

    /// Closes the innermost container.
    #[inline(always)]
    pub(crate) fn end(&mut self) -> Result {
        self.depth -= 1;
        let flags = self.top;
        self.top = self.flags.get(self.depth);
        let bracket = if flags & LIST != 0 { "]" } else { "}" };
        if flags & (NONEMPTY | CUDDLED) == NONEMPTY && !self.compact {
            self.newline(self.level)?;
        }
        self.out.out().write_str(bracket)?;
        // Back to the parent's level: a cuddled parent shares ours.
        if self.top & (OPEN | CUDDLED) == OPEN {
            self.level -= 1;
        }
        self.after_value()
    }

    /// Writes a map key; `id` is its [`KeyId`], which the caller may
    /// share with the duplicate-key check.
    #[inline(always)]
    pub(crate) fn key(&mut self, key: &Text<'_>, id: &KeyId) -> Result {
        self.separate()?;
        let bare = self.bare_keys.is_bare(key, id);
        if key::needs_measuring(key) && key::written_len(key, bare) > key::IMPLICIT_KEY_MAX {
            self.out.out().write_str("? ")?;
        }
        key::write_key(self.out.out(), key, bare)?;
        self.out.out().write_str(": ")
    }

    pub(crate) fn string(&mut self, text: &Text<'_>) -> Result {
        self.before_value()?;
        let layout = match (self.compact, text.has_line_feed()) {
            (true, _) => Layout::Escaped,
            (false, false) => Layout::Line,
            (false, true) => Layout::Folded(self.value_level() + 1),
        };
        string::write_string(self.out.out(), text, layout)?;
        self.after_value()
    }

    #[inline(always)]
    pub(crate) fn number(&mut self, text: &str, exponent: bool) -> Result {
        if !exponent {
            return self.verbatim(text);
        }
        self.before_value()?;
        number::write_exponent_form(self.out.out(), text)?;
        self.after_value()
    }

    /// Writes a comment or a blank line where the source placed it
    /// (SPEC-YAML.md §3): an own-line comment at the indentation of what
    /// follows (at the document level, on the line before the root or
    /// before the `---` header), a line comment after the comma just
    /// written, a blank line as it is (the source gives out only those
    /// that separate two things). The compact form has no room for any.
    /// Only a source with comments calls this, so it costs the JSON path
    /// nothing.
    #[inline(never)]
    pub(crate) fn trivia(&mut self, trivia: Trivia<'_>) -> Result {
        if !self.trivia {
            return Ok(());
        }
        match trivia {
            Trivia::Comment(text) if self.top == 0 => {
                let w = self.out.out();
                w.write_char('#')?;
                w.write_str(text.trim_end())?;
                w.write_char('\n')
            }
            Trivia::Comment(text) => {
                // The container is no longer empty: its closing bracket
                // and what follows go on lines of their own.
                self.top |= NONEMPTY;
                self.newline(self.value_level())?;
                let w = self.out.out();
                w.write_char('#')?;
                w.write_str(text.trim_end())
            }
            Trivia::DocumentFoot(text) => {
                let w = self.out.out();
                w.write_str("\n#")?;
                w.write_str(text.trim_end())
            }
            Trivia::LineComment(text) => {
                let w = self.out.out();
                w.write_str(" #")?;
                w.write_str(text.trim_end())
            }
            Trivia::BlankLine => self.out.out().write_char('\n'),
        }
    }

    /// Writes `true`, `false` or `null`, which read the same in KYAML.
    #[inline(always)]
    pub(crate) fn bool_or_null(&mut self, word: &str) -> Result {
        self.verbatim(word)
    }

    /// Writes a scalar that is written as it is. An element of a regular
    /// list (an uncuddled one, not compact) goes with its new line, indent
    /// and comma in one [`Sink::write_element`]: what [`Emitter::before_value`],
    /// the text and [`Emitter::after_value`] would write.
    #[inline(always)]
    fn verbatim(&mut self, text: &str) -> Result {
        let len = 1 + 2 * (self.level + 1);
        if self.top & (LIST | CUDDLED) == LIST && !self.compact && len <= NEWLINE_SPACES.len() {
            self.top |= NONEMPTY;
            return self.out.write_element(len, text);
        }
        self.before_value()?;
        self.out.out().write_str(text)?;
        self.after_value()
    }

    #[inline(always)]
    fn open(&mut self, flags: u8, bracket: &str) -> Result {
        self.before_value()?;
        self.level = self.value_level();
        *self.flags.get_mut(self.depth) = self.top;
        self.top = flags | OPEN;
        self.depth += 1;
        self.out.out().write_str(bracket)
    }

    /// The indent level of a value about to be written in the innermost container.
    #[inline(always)]
    fn value_level(&self) -> usize {
        match self.top {
            0 => 0,
            top if top & CUDDLED != 0 => self.level,
            _ => self.level + 1,
        }
    }

    /// What comes before a member or a list element: a separator or a new line.
    #[inline(always)]
    fn separate(&mut self) -> Result {
        if self.top == 0 {
            return Ok(());
        }
        let first = self.top & NONEMPTY == 0;
        self.top |= NONEMPTY;
        let cuddled = self.top & CUDDLED != 0;
        if self.compact || cuddled {
            return if first {
                Ok(())
            } else {
                self.out.out().write_str(", ")
            };
        }
        self.newline(self.level + 1)
    }

    /// Before a value: in a list it starts an element; in a map the key did.
    #[inline(always)]
    fn before_value(&mut self) -> Result {
        match self.top & LIST {
            0 => Ok(()),
            _ => self.separate(),
        }
    }

    /// After a value: the trailing comma of a regular, uncuddled container.
    #[inline(always)]
    fn after_value(&mut self) -> Result {
        match self.top & (OPEN | CUDDLED) {
            OPEN if !self.compact => self.out.out().write_str(","),
            _ => Ok(()),
        }
    }

    /// A line feed and the indent of `level`, in one write when it fits.
    #[inline(always)]
    fn newline(&mut self, level: usize) -> Result {
        match 1 + 2 * level {
            len if len <= NEWLINE_SPACES.len() => self.out.write_prefix(len),
            _ => {
                self.out.out().write_str("\n")?;
                indent(self.out.out(), level)
            }
        }
    }
}

/// Writes any text as one double-quoted KYAML string on one line.
pub(crate) fn write_text<W: Write + ?Sized>(out: &mut W, text: &[u8]) -> Result {
    string::write_plain(out, text)
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::{Sink, TextBuf, NEWLINE_SPACES, SHORT_PREFIX};
    use core::fmt::Write;

    /// The byte buffer's fixed-size copy writes exactly the prefix asked
    /// for, after what was there, for every length, shorter and longer
    /// than the fixed copy. Run under Miri too: the `String` it ends in is
    /// made without a check, and read whole.
    #[test]
    fn text_buf_write_prefix_writes_exactly_the_prefix() {
        assert!(NEWLINE_SPACES.len() > SHORT_PREFIX);
        for len in 0..=NEWLINE_SPACES.len() {
            let mut out = TextBuf::with_capacity(0);
            out.write_str("é").unwrap();
            (&mut out).write_prefix(len).unwrap();
            let out = out.into_string();
            assert_eq!(out.len(), 2 + len);
            assert_eq!(&out[2..], &NEWLINE_SPACES[..len]);
            assert!(core::str::from_utf8(out.as_bytes()).is_ok());
        }
    }

    /// The byte buffer's one-call element writes what the three writes
    /// it stands for write, for every indent length and texts longer and
    /// shorter than the fixed copy. Run under Miri too (its `unsafe`).
    #[test]
    fn text_buf_write_element_writes_indent_text_and_comma() {
        for len in 0..=NEWLINE_SPACES.len() {
            for text in [
                "",
                "1",
                "-65.613616999999977",
                "null",
                "ünïcödé text of more than sixteen bytes",
            ] {
                let mut out = TextBuf::with_capacity(0);
                out.write_str("é").unwrap();
                (&mut out).write_element(len, text).unwrap();
                let expected = std::format!("é{}{text},", &NEWLINE_SPACES[..len]);
                assert_eq!(out.into_string(), expected);
            }
        }
    }

    /// Taking back to a length inside a character is refused, so the
    /// buffer stays UTF-8; to a char boundary it is done.
    #[test]
    fn text_buf_takes_back_only_to_a_char_boundary() {
        let mut out = TextBuf::with_capacity(0);
        out.write_str("aé€").unwrap();
        for (len, kept) in [
            (6, "aé€"),
            (5, "aé€"),
            (4, "aé€"),
            (3, "aé"),
            (2, "aé"),
            (1, "a"),
            (0, ""),
        ] {
            (&mut out).take_back(len);
            assert_eq!(Sink::written(&&mut out), kept.len(), "{len}");
        }
        out.write_str("ü").unwrap();
        assert_eq!(out.into_string(), "ü");
    }
}
