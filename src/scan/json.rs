//! The strict JSON (RFC 8259) tokenizer: a pull parser over one input slice.
//!
//! It validates as it goes, so a consumer that reads a document to its end
//! has proved it valid. Nesting is a bit stack (one bit per open container),
//! never recursion. Streams of concatenated values are read one document at
//! a time with [`Source::next_document`].

use core::convert::Infallible;

use super::json_string::{string_step, Found};
use super::{Event, Shapes, Source, Spelling, Text};
use crate::error::{ErrorKind, Fault};
use crate::options::MAX_DEPTH;
use crate::swar;

/// What the tokenizer expects next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// A value: at the top, after `:`, or after `,` in a list.
    Value,
    /// A value or `]`, right after `[`.
    FirstElement,
    /// A key or `}`, right after `{`.
    FirstKey,
    /// A key, after `,` in a map.
    Key,
    /// The `:` after a key.
    Colon,
    /// `,` or the closing bracket, after a member or element.
    Separator,
    /// The document's value is complete.
    Done,
}

/// Pulls [`Event`]s out of JSON text.
#[derive(Clone)]
pub(crate) struct Tokenizer<'a> {
    /// The input up to its first invalid UTF-8 byte (all of it, usually).
    src: &'a str,
    /// The whole input's length; more than `src.len()` when UTF-8 breaks.
    total: usize,
    pos: usize,
    /// Where the last event's token starts.
    start: usize,
    state: State,
    depth: usize,
    max_depth: usize,
    /// Bit `d` set: the container at depth `d + 1` is a map.
    maps: [u64; MAX_DEPTH / 64],
    /// The innermost open container is a map: its bit in `maps`, kept at
    /// hand because every `,` asks.
    in_map: bool,
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer at `pos` of `input`, before a document.
    pub(crate) fn new(input: &'a [u8], pos: usize, max_depth: usize) -> Tokenizer<'a> {
        let src = match swar::utf8(input) {
            Ok(s) => s,
            // Valid up to there by definition, so this cannot fail.
            Err(e) => core::str::from_utf8(&input[..e.valid_up_to()]).unwrap_or(""),
        };
        Tokenizer {
            src,
            total: input.len(),
            pos,
            start: pos,
            state: State::Done,
            depth: 0,
            max_depth: max_depth.min(MAX_DEPTH),
            maps: [0; MAX_DEPTH / 64],
            in_map: false,
        }
    }

    /// The next byte that is not white space, without reading it: asked
    /// after every `[`, and usually the very next byte. Out of line: the
    /// call costs less than the code it would add to the writing loop.
    #[inline(never)]
    fn next_byte(&self) -> Option<u8> {
        let bytes = self.src.as_bytes();
        match bytes.get(self.pos) {
            Some(b' ' | b'\t' | b'\n' | b'\r') => {
                bytes.get(swar::skip_white_space(bytes, self.pos)).copied()
            }
            next => next.copied(),
        }
    }

    /// [`Source::next_event`]. Inlined into the passes, so events travel
    /// in registers.
    #[inline(always)]
    fn read_event(&mut self) -> Result<Option<Event<'a, Infallible>>, Fault> {
        loop {
            self.skip_ws();
            self.start = self.pos;
            let Some(&b) = self.src.as_bytes().get(self.pos) else {
                return match self.state {
                    State::Done => Ok(None),
                    _ => Err(self.unexpected()),
                };
            };
            match (self.state, b) {
                (State::Done, _) => return Ok(None),
                (State::FirstElement, b']') | (State::FirstKey, b'}') => {
                    return Ok(Some(self.close()))
                }
                (State::Value | State::FirstElement, _) => return self.value(b).map(Some),
                (State::Key | State::FirstKey, b'"') => {
                    let key = self.string()?;
                    // The `:` usually follows at once: taken with the key,
                    // and the one space pretty JSON puts after it too.
                    let bytes = self.src.as_bytes();
                    self.state = match bytes.get(self.pos) {
                        Some(b':') => {
                            self.pos += 1 + usize::from(bytes.get(self.pos + 1) == Some(&b' '));
                            State::Value
                        }
                        _ => State::Colon,
                    };
                    return Ok(Some(Event::Key(key)));
                }
                (State::Colon, b':') => {
                    self.pos += 1;
                    self.state = State::Value;
                }
                (State::Separator, b',') => {
                    self.pos += 1;
                    self.state = if self.in_map {
                        State::Key
                    } else {
                        State::Value
                    };
                }
                (State::Separator, b']') if !self.in_map => return Ok(Some(self.close())),
                (State::Separator, b'}') if self.in_map => return Ok(Some(self.close())),
                _ => return Err(self.unexpected()),
            }
        }
    }

    /// Reads the value starting with byte `b`. Inlined into `next_event`,
    /// as are `open`, `close` and `number`: a call's prologue, epilogue and
    /// result passed through memory cost as much as reading a short number.
    #[inline(always)]
    fn value(&mut self, b: u8) -> Result<Event<'a, Infallible>, Fault> {
        let event = match b {
            b'{' | b'[' => return self.open(b == b'{'),
            b'"' => Event::Str(self.string()?),
            b'-' | b'0'..=b'9' => self.number()?,
            b't' => self.literal("true", Event::Bool(true))?,
            b'f' => self.literal("false", Event::Bool(false))?,
            b'n' => self.literal("null", Event::Null)?,
            _ => return Err(self.unexpected()),
        };
        self.after_value();
        if self.state == State::Done && !matches!(event, Event::Str(_)) {
            self.check_delimited()?;
        }
        Ok(event)
    }

    #[inline(always)]
    fn open(&mut self, map: bool) -> Result<Event<'a, Infallible>, Fault> {
        if self.depth >= self.max_depth {
            return Err(Fault::too_deep(self.pos, self.max_depth));
        }
        let (word, bit) = (self.depth / 64, 1u64 << (self.depth % 64));
        if map {
            self.maps[word] |= bit;
        } else {
            self.maps[word] &= !bit;
        }
        self.depth += 1;
        self.in_map = map;
        self.pos += 1;
        self.state = if map {
            State::FirstKey
        } else {
            State::FirstElement
        };
        Ok(if map {
            Event::MapStart
        } else {
            Event::ListStart
        })
    }

    #[inline(always)]
    fn close(&mut self) -> Event<'a, Infallible> {
        let map = self.in_map;
        self.depth -= 1;
        self.in_map = self.parent_is_map();
        self.pos += 1;
        self.after_value();
        if map {
            Event::MapEnd
        } else {
            Event::ListEnd
        }
    }

    /// After a value: done at the top; inside a container, a `,` right
    /// after the value (the usual case, in compact and pretty JSON alike)
    /// is taken at once, so the next event needs no pass of its own
    /// through the separator state.
    #[inline(always)]
    fn after_value(&mut self) {
        if self.depth == 0 {
            self.state = State::Done;
            return;
        }
        self.state = match self.src.as_bytes().get(self.pos) {
            Some(b',') => {
                self.pos += 1;
                if self.in_map {
                    State::Key
                } else {
                    State::Value
                }
            }
            _ => State::Separator,
        };
    }

    /// Whether the container at `depth` (the one a close returns to) is a map.
    fn parent_is_map(&self) -> bool {
        let d = self.depth.wrapping_sub(1);
        self.depth > 0 && self.maps[d / 64] >> (d % 64) & 1 == 1
    }

    /// A top-level number or literal must not run into the next value.
    fn check_delimited(&self) -> Result<(), Fault> {
        match self.src.as_bytes().get(self.pos) {
            None if self.pos < self.total => {
                Err(Fault::new(ErrorKind::InvalidUtf8, self.pos, "UTF-8"))
            }
            None
            | Some(b' ' | b'\t' | b'\n' | b'\r' | b'[' | b'{' | b'"' | b']' | b'}' | b',' | b':') => {
                Ok(())
            }
            Some(_) => Err(self.error("white space before the next value")),
        }
    }

    /// Reads `word` (`true`, `false` or `null`), which stands for `event`.
    /// Inlined: with `word` known, the comparison is a few instructions.
    #[inline(always)]
    fn literal(
        &mut self,
        word: &'static str,
        event: Event<'a, Infallible>,
    ) -> Result<Event<'a, Infallible>, Fault> {
        if self.src.as_bytes()[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            return Ok(event);
        }
        Err(self.not_literal(word))
    }

    /// The error for a value that starts like `word` but is not it.
    #[cold]
    #[inline(never)]
    fn not_literal(&mut self, word: &'static str) -> Fault {
        // Point at the first byte that differs.
        let rest = &self.src.as_bytes()[self.pos..];
        self.pos += rest
            .iter()
            .zip(word.as_bytes())
            .take_while(|(a, b)| a == b)
            .count();
        match word {
            "true" => self.error_or_eof("`true`"),
            "false" => self.error_or_eof("`false`"),
            _ => self.error_or_eof("`null`"),
        }
    }

    /// Reads a number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    #[inline(always)]
    fn number(&mut self) -> Result<Event<'a, Infallible>, Fault> {
        let bytes = self.src.as_bytes();
        // 0 past the end, which no branch below accepts.
        let at = |i: usize| bytes.get(i).copied().unwrap_or(0);
        let start = self.pos;
        let mut i = start + usize::from(at(start) == b'-');
        if at(i) == b'0' {
            i += 1;
            if at(i).is_ascii_digit() {
                self.pos = i;
                return Err(self.error("no leading zero in a number"));
            }
        } else {
            i = self.digits(i)?;
        }
        if at(i) == b'.' {
            i = self.digits(i + 1)?;
        }
        // `e` and `E` differ only in the bit 0x20.
        let exponent = at(i) | 0x20 == b'e';
        if exponent {
            i += 1;
            i += usize::from(matches!(at(i), b'+' | b'-'));
            i = self.digits(i)?;
        }
        self.pos = i;
        // Only an exponent or 309 digits can reach float64's limit.
        if exponent || i - start > 308 {
            Self::within_f64(&self.src[start..i], start)?;
        }
        Ok(Event::Number {
            text: &self.src[start..i],
            exponent,
        })
    }

    /// Refuses the number `text` at `start` if it is past float64's range
    /// (kubectl and serde_json refuse it; written, `1.0e+400` would be
    /// kubectl's string). Out of line: most numbers never get here.
    #[cold]
    #[inline(never)]
    fn within_f64(text: &str, start: usize) -> Result<(), Fault> {
        match crate::number::past_f64(text) {
            true => Err(Fault::past_f64(start, text.len())),
            false => Ok(()),
        }
    }

    /// Reads one or more ASCII digits from `from`: where they end.
    #[inline(always)]
    fn digits(&mut self, from: usize) -> Result<usize, Fault> {
        let end = swar::skip_digits(self.src.as_bytes(), from);
        if end == from {
            self.pos = from;
            return Err(self.error_or_eof("a digit"));
        }
        Ok(end)
    }

    /// Reads a string starting at its opening quote.
    #[inline(always)]
    fn string(&mut self) -> Result<Text<'a>, Fault> {
        match read_string(self.src, self.pos) {
            Ok((text, end)) => {
                self.pos = end;
                Ok(text)
            }
            Err(fault) => Err(self.or_cut_utf8(fault)),
        }
    }

    /// Inlined: a token usually follows at once, so the call would cost more
    /// than the check.
    #[inline(always)]
    fn skip_ws(&mut self) {
        self.pos = swar::skip_white_space(self.src.as_bytes(), self.pos);
    }

    /// The error for the byte at the current position, given the state.
    fn unexpected(&self) -> Fault {
        let expected = match self.state {
            State::Value | State::Done => "a value",
            State::FirstElement => "a value or `]`",
            State::FirstKey => "a string key or `}`",
            State::Key => "a string key",
            State::Colon => "`:` after an object key",
            State::Separator if self.in_map => "`,` or `}` after an object member",
            State::Separator => "`,` or `]` after a list element",
        };
        self.error_or_eof(expected)
    }

    /// A syntax error at the current position, or the UTF-8 error that cut the input short.
    fn error_or_eof(&self, expected: &'static str) -> Fault {
        self.or_cut_utf8(self.error(expected))
    }

    /// `fault`, unless it is a syntax error at the end of the valid UTF-8
    /// and the input goes on: then the UTF-8 error that cut it short.
    fn or_cut_utf8(&self, fault: Fault) -> Fault {
        let at = fault.offset();
        match fault.kind() == ErrorKind::Syntax && at >= self.src.len() && at < self.total {
            true => Fault::new(ErrorKind::InvalidUtf8, at, "UTF-8"),
            false => fault,
        }
    }

    fn error(&self, expected: &'static str) -> Fault {
        Fault::new(ErrorKind::Syntax, self.pos, expected)
    }
}

impl<'a> Source<'a> for Tokenizer<'a> {
    /// JSON has no comments.
    type Trivia = Infallible;
    /// Keys are read again from the input.
    type KeyText = Text<'a>;

    /// Skips white space (and a byte order mark at the very start).
    fn next_document(&mut self) -> Result<bool, Fault> {
        let (pos, next) = self.peek_document()?;
        self.pos = pos;
        if next {
            self.state = State::Value;
        }
        Ok(next)
    }

    fn peek_document(&self) -> Result<(usize, bool), Fault> {
        let mut pos = self.pos;
        if pos == 0 && self.src.starts_with('\u{FEFF}') {
            pos = 3;
        }
        pos = swar::skip_white_space(self.src.as_bytes(), pos);
        if pos < self.src.len() {
            return Ok((pos, true));
        }
        match pos < self.total {
            true => Err(Fault::new(ErrorKind::InvalidUtf8, pos, "UTF-8")),
            false => Ok((pos, false)),
        }
    }

    #[inline(always)]
    fn next_event(&mut self) -> Result<Option<Event<'_, Infallible>>, Fault> {
        self.read_event()
    }

    fn at(&self, pos: usize) -> Tokenizer<'a> {
        Tokenizer {
            pos,
            start: pos,
            state: State::Value,
            depth: 0,
            in_map: false,
            ..self.clone()
        }
    }

    #[inline(always)]
    fn pos(&self) -> usize {
        self.pos
    }

    #[inline(always)]
    fn token_start(&self) -> usize {
        self.start
    }

    #[inline(always)]
    fn depth(&self) -> usize {
        self.depth
    }

    #[inline(always)]
    fn list_starts_with_container(&self) -> bool {
        // The byte after `[` decides, unless it is white space.
        match self.src.as_bytes().get(self.pos) {
            Some(b'[' | b'{') => true,
            Some(b' ' | b'\t' | b'\n' | b'\r') => opens_container(self.next_byte()),
            _ => false,
        }
    }

    fn skim_list(&self, shapes: &mut impl Shapes) {
        skim(self.src.as_bytes(), self.start, self.depth - 1, shapes);
    }

    fn key_at(&self, pos: usize) -> Text<'a> {
        match read_string(self.src, pos) {
            Ok((text, _)) => text,
            Err(_) => Text::printable(""),
        }
    }
}

/// Whether a value starting with `b` is a container.
fn opens_container(b: Option<u8>) -> bool {
    matches!(b, Some(b'[' | b'{'))
}

/// Reads the string whose opening quote is at `quote`: its body as a
/// [`Text`] and the position just past its closing quote. Inlined, for
/// the common string of printable ASCII found in one search; the rest is
/// out of line.
#[inline(always)]
fn read_string(src: &str, quote: usize) -> Result<(Text<'_>, usize), Fault> {
    let bytes = src.as_bytes();
    let body = quote + 1;
    let (i, printable) = swar::string_special_printable(bytes, body);
    let whole = printable && bytes.get(i) == Some(&b'"');
    let (end, escaped, line_feed) = match whole {
        true => (i, false, false),
        false => string_rest(bytes, i)?,
    };
    let raw = src.get(body..end).unwrap_or_default();
    let text = match (whole, escaped) {
        (true, _) => Text::printable(raw),
        (false, false) => Text::new(raw, Spelling::Verbatim, line_feed),
        (false, true) => Text::new(raw, Spelling::JsonEscaped, line_feed),
    };
    Ok((text, end + 1))
}

/// The rest of a string from its first byte at `i` that is not printable
/// ASCII: where its closing quote is, whether it has escapes and whether
/// one is a line feed. Not a [`Text`]: its flags come back one by one, so
/// the caller reads them the way they were written (a `Text` written here
/// and read back in words waits for the stores to land).
#[inline(never)]
fn string_rest(bytes: &[u8], mut i: usize) -> Result<(usize, bool, bool), Fault> {
    let (mut escaped, mut line_feed) = (false, false);
    loop {
        match string_step(bytes, i) {
            (at, Found::Quote) => return Ok((at, escaped, line_feed)),
            (at, Found::Escape { c, len }) => {
                escaped = true;
                line_feed |= c == '\n';
                i = at + len;
            }
            (_, Found::Invalid(fault)) => return Err(fault),
        }
    }
}

/// What a byte means to the skim.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Other,
    Quote,
    Open,
    Close,
    Comma,
}

const CLASSES: [Class; 256] = {
    let mut t = [Class::Other; 256];
    t[b'"' as usize] = Class::Quote;
    t[b'[' as usize] = Class::Open;
    t[b'{' as usize] = Class::Open;
    t[b']' as usize] = Class::Close;
    t[b'}' as usize] = Class::Close;
    t[b',' as usize] = Class::Comma;
    t
};

/// The lookahead for cuddling verdicts: skims the list whose `[` is at
/// `pos` of `src` and whose frame is at `depth`, trusting the input to be
/// JSON: it looks only at brackets, commas, strings and the first byte of
/// each list element, and tells `shapes`.
///
/// It checks nothing, so it serves a writing pass that checks as it goes
/// (or follows a checking pass): on valid JSON what it reports is exact,
/// and on invalid JSON the document fails anyway. Whatever the bytes, it
/// reads each at most once, indexes nothing out of range and stops at the
/// end of the input, at a string it cannot read or at `MAX_DEPTH`.
fn skim(src: &[u8], mut pos: usize, mut depth: usize, shapes: &mut impl Shapes) {
    let top = depth;
    // The next byte that is not white space starts an element (not the
    // first) of the innermost container, a list.
    let mut element = false;
    loop {
        if element {
            element = false;
            pos = swar::skip_white_space(src, pos);
            if !opens_container(src.get(pos).copied()) {
                shapes.scalar_element(depth - 1);
            }
        }
        pos = swar::maybe_structural(src, pos);
        let Some(&b) = src.get(pos) else { return };
        pos += 1;
        match CLASSES[b as usize] {
            Class::Other => {}
            Class::Quote => loop {
                match string_step(src, pos) {
                    (at, Found::Quote) => break pos = at + 1,
                    (at, Found::Escape { len, .. }) => pos = at + len,
                    (_, Found::Invalid(_)) => return,
                }
            },
            Class::Open if depth == MAX_DEPTH => return,
            Class::Open if b == b'[' => {
                pos = swar::skip_white_space(src, pos);
                shapes.list(depth, opens_container(src.get(pos).copied()));
                depth += 1;
            }
            Class::Open => {
                shapes.map(depth);
                depth += 1;
            }
            Class::Close => {
                depth -= 1;
                if depth == top {
                    return;
                }
            }
            Class::Comma => element = shapes.is_list(depth - 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// What a skim reported, in order.
    #[derive(Default)]
    struct Recorded {
        seen: Vec<(char, usize, bool)>,
        lists: Vec<bool>,
    }

    impl Shapes for Recorded {
        fn list(&mut self, depth: usize, starts_with_container: bool) {
            self.seen.push(('[', depth, starts_with_container));
            self.lists.truncate(depth);
            self.lists.push(true);
        }
        fn map(&mut self, depth: usize) {
            self.seen.push(('{', depth, false));
            self.lists.truncate(depth);
            self.lists.push(false);
        }
        fn is_list(&self, depth: usize) -> bool {
            self.lists[depth]
        }
        fn scalar_element(&mut self, depth: usize) {
            self.seen.push(('s', depth, false));
        }
    }

    /// Skims the list at the start of the value of `{"k": ...}`.
    fn skim_of(json: &str) -> Vec<(char, usize, bool)> {
        let mut src = Tokenizer::new(json.as_bytes(), 0, 100);
        assert!(src.next_document().unwrap());
        let mut recorded = Recorded::default();
        recorded.lists.push(false);
        loop {
            match src.next_event().unwrap() {
                Some(Event::ListStart) => break,
                Some(_) => {}
                None => panic!("no list in {json}"),
            }
        }
        src.skim_list(&mut recorded);
        recorded.seen
    }

    #[test]
    fn the_skim_reports_shapes_past_strings_that_hold_brackets() {
        let seen = skim_of(r#"{"k": [{"a": "]["}, [1, "\"]"], [[2]], 3], "after": [4]}"#);
        assert_eq!(
            seen,
            [
                ('[', 1, true),
                ('{', 2, false),
                ('[', 2, false),
                ('s', 2, false),
                ('[', 2, true),
                ('[', 3, false),
                ('s', 1, false),
            ]
        );
    }

    #[test]
    fn a_key_is_read_again_as_it_was_first_read() {
        let json = r#"{"plain": 1, "esc\u00e9\n": 2, "é": 3}"#;
        let mut src = Tokenizer::new(json.as_bytes(), 0, 100);
        assert!(src.next_document().unwrap());
        let mut keys = 0;
        // The tokenizer's own reading, whose texts are the input's: the
        // trait's lends them only until the next call.
        while let Some(event) = src.read_event().unwrap() {
            if let Event::Key(text) = event {
                let again = src.key_at(src.token_start());
                assert!(text.decodes_same(&again), "{text:?} {again:?}");
                assert_eq!(text.raw(), again.raw());
                keys += 1;
            }
        }
        assert_eq!(keys, 3);
    }
}
