//! The strict JSON (RFC 8259) tokenizer: a pull parser over one input slice.
//!
//! It validates as it goes, so a consumer that reads a document to its end
//! has proved it valid. Nesting is a bit stack (one bit per open container),
//! never recursion. Streams of concatenated values are read one document at
//! a time with [`Tokenizer::next_document`].

use super::{Event, Text};
use crate::error::{ErrorKind, Fault};
use crate::swar;
use crate::MAX_DEPTH;

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
        let src = match core::str::from_utf8(input) {
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

    /// A fresh tokenizer over the same input at `pos`, before a value there.
    pub(crate) fn at(&self, pos: usize) -> Tokenizer<'a> {
        Tokenizer {
            pos,
            start: pos,
            state: State::Value,
            depth: 0,
            in_map: false,
            ..self.clone()
        }
    }

    /// The input text the tokenizer reads (up to any invalid UTF-8).
    pub(crate) fn source(&self) -> &'a str {
        self.src
    }

    /// The byte offset just past the last token read.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// The next byte that is not white space, without reading it: asked
    /// after every `[`, and usually the very next byte. Out of line: inlined
    /// into the writing loop it cost more than the call (canada +1%).
    #[inline(never)]
    pub(crate) fn next_byte(&self) -> Option<u8> {
        let bytes = self.src.as_bytes();
        match bytes.get(self.pos) {
            Some(b' ' | b'\t' | b'\n' | b'\r') => {
                bytes.get(swar::skip_white_space(bytes, self.pos)).copied()
            }
            next => next.copied(),
        }
    }

    /// How many containers are open.
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    /// The byte offset where the last event's token starts.
    pub(crate) fn token_start(&self) -> usize {
        self.start
    }

    /// Skips white space (and a byte order mark at the very start) and says
    /// whether another document follows; if so, the next events are its.
    pub(crate) fn next_document(&mut self) -> Result<bool, Fault> {
        let (pos, next) = self.peek_document()?;
        self.pos = pos;
        if next {
            self.state = State::Value;
        }
        Ok(next)
    }

    /// Where the next document would start, and whether there is one,
    /// without moving: what [`Tokenizer::next_document`] would find.
    pub(crate) fn peek_document(&self) -> Result<(usize, bool), Fault> {
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

    /// The next event of the current document, or `None` once it is complete.
    /// Inlined into its two callers, so events travel in registers.
    #[inline(always)]
    pub(crate) fn next_event(&mut self) -> Result<Option<Event<'a>>, Fault> {
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
                    self.state = State::Colon;
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
    fn value(&mut self, b: u8) -> Result<Event<'a>, Fault> {
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
    fn open(&mut self, map: bool) -> Result<Event<'a>, Fault> {
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
    fn close(&mut self) -> Event<'a> {
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

    fn after_value(&mut self) {
        self.state = if self.depth == 0 {
            State::Done
        } else {
            State::Separator
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

    fn literal(&mut self, word: &'static str, event: Event<'a>) -> Result<Event<'a>, Fault> {
        if self.src.as_bytes()[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            return Ok(event);
        }
        // Point at the first byte that differs.
        let rest = &self.src.as_bytes()[self.pos..];
        self.pos += rest
            .iter()
            .zip(word.as_bytes())
            .take_while(|(a, b)| a == b)
            .count();
        Err(match word {
            "true" => self.error_or_eof("`true`"),
            "false" => self.error_or_eof("`false`"),
            _ => self.error_or_eof("`null`"),
        })
    }

    /// Reads a number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    #[inline(always)]
    fn number(&mut self) -> Result<Event<'a>, Fault> {
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
        Ok(Event::Number {
            text: &self.src[start..i],
            exponent,
        })
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

    /// Reads a string starting at its opening quote. Inlined, for the
    /// common string of printable ASCII found in one scan; the rest is out
    /// of line.
    #[inline(always)]
    fn string(&mut self) -> Result<Text<'a>, Fault> {
        let bytes = self.src.as_bytes();
        let body = self.pos + 1;
        let (i, printable) = swar::string_special_printable(bytes, body);
        let whole = printable && bytes.get(i) == Some(&b'"');
        let (end, escaped, line_feed) = match whole {
            true => (i, false, false),
            false => self.string_rest(i)?,
        };
        self.pos = end + 1;
        let raw = &self.src[body..end];
        Ok(match whole {
            true => Text::printable(raw),
            false => Text::new(raw, escaped, line_feed),
        })
    }

    /// The rest of a string from its first byte at `i` that is not
    /// printable ASCII: where its closing quote is, whether it has escapes
    /// and whether one is a line feed. Not a [`Text`]: its flags come back
    /// one by one, so the caller reads them the way they were written (a
    /// `Text` written here and read back in words waits for the stores).
    #[inline(never)]
    fn string_rest(&mut self, mut i: usize) -> Result<(usize, bool, bool), Fault> {
        let bytes = self.src.as_bytes();
        let (mut escaped, mut line_feed) = (false, false);
        loop {
            i = swar::string_special(bytes, i);
            match bytes.get(i) {
                Some(b'"') => break,
                Some(b'\\') => {
                    escaped = true;
                    let (len, lf) = self.escape(i)?;
                    line_feed |= lf;
                    i += len;
                }
                Some(_) => {
                    self.pos = i;
                    return Err(self.error("`\\u` escape for a control character in a string"));
                }
                None => {
                    self.pos = i;
                    return Err(self.error_or_eof("`\"` to close the string"));
                }
            }
        }
        Ok((i, escaped, line_feed))
    }

    /// Checks the escape at `at`: its length and whether it is a line feed.
    fn escape(&mut self, at: usize) -> Result<(usize, bool), Fault> {
        let bytes = self.src.as_bytes();
        match bytes.get(at + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'r' | b't') => Ok((2, false)),
            Some(b'n') => Ok((2, true)),
            Some(b'u') => {
                let unit = self.hex4(at + 2)?;
                if !(0xD800..0xE000).contains(&unit) {
                    return Ok((6, unit == 0x0A));
                }
                let low = match bytes.get(at + 6..at + 8) {
                    Some(b"\\u") if unit < 0xDC00 => self.hex4(at + 8)?,
                    // Cut off where the pair's second half would be.
                    None if unit < 0xDC00 && bytes[at + 6..].iter().all(|&b| b == b'\\') => {
                        self.pos = bytes.len();
                        return Err(self.error_or_eof("`\\u` and the low half of a surrogate pair"));
                    }
                    _ => 0,
                };
                if !(0xDC00..0xE000).contains(&low) {
                    self.pos = at;
                    return Err(Fault::new(ErrorKind::LoneSurrogate, at, "a surrogate pair"));
                }
                Ok((12, false))
            }
            _ => {
                self.pos = at + 1;
                Err(self.error_or_eof("an escape: one of `\"\\/bfnrtu` after `\\`"))
            }
        }
    }

    /// The value of the four hex digits at `at`.
    fn hex4(&mut self, at: usize) -> Result<u32, Fault> {
        let bytes = self.src.as_bytes();
        match super::text::hex4(bytes.get(at..).unwrap_or_default()) {
            Some(v) => Ok(v),
            None => {
                self.pos = at
                    + bytes
                        .get(at..)
                        .unwrap_or_default()
                        .iter()
                        .take(4)
                        .take_while(|b| b.is_ascii_hexdigit())
                        .count();
                Err(self.error_or_eof("four hex digits after `\\u`"))
            }
        }
    }

    /// Inlined: a token usually follows at once, and the call cost more
    /// than the check (a quarter of the checking pass on citm_catalog).
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
        if self.pos >= self.src.len() && self.pos < self.total {
            return Fault::new(ErrorKind::InvalidUtf8, self.pos, "UTF-8");
        }
        self.error(expected)
    }

    fn error(&self, expected: &'static str) -> Fault {
        Fault::new(ErrorKind::Syntax, self.pos, expected)
    }
}
