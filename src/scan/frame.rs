//! Framing: where each JSON document of a byte stream ends, found as the
//! bytes arrive, so that a reader can hand each document to the encoder as
//! soon as it is complete.
//!
//! The framer validates nothing of its own (the tokenizer does that, on the
//! framed document): it follows brackets and their kinds outside strings,
//! strings with the tokenizer's own walk ([`string_step`]), and the end of
//! top-level scalars. A document ends at the bracket that closes
//! its first one, at the quote that closes a top-level string, or before
//! the first byte that cannot continue a top-level number or literal
//! (white space or one of `[{"]},:`, the bytes the tokenizer accepts after
//! one). It ends early, just after the byte that proves it invalid (and
//! the rest of that byte's character), at a closing bracket of the wrong
//! kind, a control byte or a bad escape in a string, or nesting past
//! [`MAX_DEPTH`]: so a bad line of JSON Lines does
//! not take the lines after it along, unless it leaves brackets open.
//!
//! Whatever the bytes, a framed document is a prefix of the document the
//! tokenizer would read from the same place in the whole input, and holds
//! all of it if it is valid; so the encoder finds the same output or the
//! same first error in it as in the whole input.

use super::json_string::{string_step, Found};
use super::utf8_len;
use crate::options::MAX_DEPTH;
use crate::swar;

/// The longest escape, `\uD83D\uDE00` (a surrogate pair): an escape with
/// fewer bytes after its `\` than this may be cut short by the end of what
/// has arrived, so it is judged only once more bytes come.
const LONGEST_ESCAPE: usize = 12;

/// Where the framer is in the document.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum FramerState {
    /// Before the document's first byte.
    Start,
    /// Inside containers, outside strings.
    Structure,
    /// Inside a string; at depth 0 it is the whole document.
    Str,
    /// In a top-level number, literal or other run of bytes.
    Scalar,
}

/// Finds the end of one document, across as many calls as its bytes take
/// to arrive. Never recurses; its nesting is a bit stack.
pub(crate) struct Framer {
    state: FramerState,
    /// How many bytes of the document have been looked at.
    scanned: usize,
    /// How many containers are open.
    depth: usize,
    /// Bit `d` set: the container at depth `d + 1` is a map.
    maps: [u64; MAX_DEPTH / 64],
}

impl Framer {
    pub(crate) fn new() -> Framer {
        Framer {
            state: FramerState::Start,
            scanned: 0,
            depth: 0,
            maps: [0; MAX_DEPTH / 64],
        }
    }

    /// Starts on a new document.
    pub(crate) fn reset(&mut self) {
        (self.state, self.scanned, self.depth) = (FramerState::Start, 0, 0);
    }

    /// The length of the document whose bytes so far are `doc` (it starts
    /// at the document's first byte, which is not white space), once its
    /// end is among them; `None` while it needs more bytes. Each call
    /// looks only at the bytes the calls before it have not seen; `doc`
    /// must start with the same bytes each time.
    pub(crate) fn end(&mut self, doc: &[u8]) -> Option<usize> {
        let mut i = self.scanned;
        let end = self.scan(doc, &mut i);
        // Where to go on, so no byte is looked at twice.
        self.scanned = i;
        end
    }

    /// [`Framer::end`] from byte `*i` on, leaving `*i` past what it looked at.
    fn scan(&mut self, doc: &[u8], i: &mut usize) -> Option<usize> {
        loop {
            match self.state {
                FramerState::Start => {
                    let &b = doc.get(*i)?;
                    *i += 1;
                    match b {
                        b'{' | b'[' => {
                            self.open(b == b'{');
                            self.state = FramerState::Structure;
                        }
                        b'"' => self.state = FramerState::Str,
                        // A document of one byte that cannot start a value.
                        b']' | b'}' | b',' | b':' => return Some(*i),
                        _ => self.state = FramerState::Scalar,
                    }
                }
                FramerState::Scalar => {
                    let rest = doc.get(*i..).unwrap_or_default();
                    match rest.iter().position(|&b| ends_scalar(b)) {
                        Some(n) => {
                            *i += n;
                            return Some(*i);
                        }
                        None => {
                            *i = doc.len();
                            return None;
                        }
                    }
                }
                FramerState::Str => match string_step(doc, *i) {
                    (at, Found::Quote) => {
                        *i = at + 1;
                        if self.depth == 0 {
                            return Some(*i);
                        }
                        self.state = FramerState::Structure;
                    }
                    (at, Found::Escape { len, .. }) => *i = at + len,
                    // The end of what has arrived, or an escape it may cut short.
                    (at, Found::Invalid(_))
                        if doc.get(at).is_none_or(|&b| b == b'\\')
                            && doc.len() - at < LONGEST_ESCAPE =>
                    {
                        *i = at;
                        return None;
                    }
                    // No valid string goes on: the document ends with the
                    // bytes the tokenizer needs to say why, and the rest of
                    // a character they cut (a document cut inside one would
                    // fail as invalid UTF-8 there, which the input does not).
                    (at, Found::Invalid(_)) => {
                        let needed = match doc.get(at) {
                            Some(b'\\') => LONGEST_ESCAPE,
                            _ => 1,
                        };
                        let mut end = at + needed;
                        while end < doc.len() && cut_inside_a_character(doc, end) {
                            end += 1;
                        }
                        if cut_inside_a_character(doc, end) {
                            // Its other bytes have not arrived.
                            *i = at;
                            return None;
                        }
                        *i = end;
                        return Some(*i);
                    }
                },
                FramerState::Structure => {
                    *i = swar::maybe_structural(doc, *i);
                    let &b = doc.get(*i)?;
                    *i += 1;
                    match b {
                        b'"' => self.state = FramerState::Str,
                        b'{' | b'[' if self.depth == MAX_DEPTH => return Some(*i),
                        b'{' | b'[' => self.open(b == b'{'),
                        b'}' | b']' => {
                            if self.in_map() != (b == b'}') {
                                return Some(*i);
                            }
                            self.depth -= 1;
                            if self.depth == 0 {
                                return Some(*i);
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    fn open(&mut self, map: bool) {
        let d = self.depth;
        let bit = 1u64 << (d % 64);
        let word = &mut self.maps[d / 64];
        *word = if map { *word | bit } else { *word & !bit };
        self.depth += 1;
    }

    /// Whether the innermost open container is a map.
    fn in_map(&self) -> bool {
        let d = self.depth - 1;
        self.maps[d / 64] >> (d % 64) & 1 == 1
    }
}

/// Whether the character that byte `end - 1` of `doc` belongs to goes on
/// past `end`, by the length its first byte gives.
fn cut_inside_a_character(doc: &[u8], end: usize) -> bool {
    for back in 1..=3 {
        let Some(&b) = end.checked_sub(back).and_then(|j| doc.get(j)) else {
            return false;
        };
        let len = match utf8_len(b) {
            Some(len) => len,
            None if b & 0xC0 == 0x80 => continue,
            None => return false,
        };
        return len > back;
    }
    false
}

/// Whether a value can start with byte `b` (where a reader that lost its
/// place looks for the next document).
pub(crate) fn starts_value(b: u8) -> bool {
    matches!(
        b,
        b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n'
    )
}

/// Whether `b` ends a top-level number or literal: the bytes the tokenizer
/// accepts right after one.
fn ends_scalar(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t' | b'\n' | b'\r' | b'[' | b'{' | b'"' | b']' | b'}' | b',' | b':'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document lengths `framer` finds in `input` fed in pieces of
    /// `step` bytes, and what is left unframed at the end.
    fn frames(input: &[u8], step: usize) -> (std::vec::Vec<usize>, usize) {
        let mut framer = Framer::new();
        let (mut found, mut start, mut have) = (std::vec::Vec::new(), 0, 0);
        loop {
            while start < have && matches!(input[start], b' ' | b'\n' | b'\t' | b'\r') {
                start += 1;
            }
            if start < have {
                if let Some(len) = framer.end(&input[start..have]) {
                    found.push(len);
                    start += len;
                    framer.reset();
                    continue;
                }
            }
            if have == input.len() {
                return (found, have - start);
            }
            have = (have + step).min(input.len());
        }
    }

    #[test]
    fn documents_end_where_their_first_bracket_closes() {
        let input = br#"{"a": [1, "]}", {"b": "\"}"}]} [[]]{}"x\"y" 12 true"#;
        for step in [1, 2, 3, 7, input.len()] {
            let (found, rest) = frames(input, step);
            // The last scalar needs the end of input to be known complete.
            assert_eq!(
                (found.as_slice(), rest),
                (&[30, 4, 2, 6, 2][..], 4),
                "{step}"
            );
        }
    }

    #[test]
    fn invalid_documents_end_at_the_byte_that_proves_it() {
        for (input, len) in [
            (&b"{\"a\": [1}\n{}"[..], 9),
            (b"[1, \"x\ny\"]", 7),
            // A bad escape: its `\` and the 11 bytes after it.
            (b"[\"\\x\", \"abcdefghijklmn\"]", 14),
            (b"[\"\\ud800\\u0041\"]", 14),
            // Cut after a two-byte character's first byte: the character
            // goes along (from the bytes fuzz target).
            (b"[\"\\ud83d\\ude0\xd1\x8a\x9b0\"]", 15),
            (b"]", 1),
            (b",", 1),
            (b"1x 2", 2),
            (b"nul[]", 3),
        ] {
            assert_eq!(frames(input, 1).0.first(), Some(&len), "{input:?}");
        }
        let deep = [b'['; MAX_DEPTH + 5];
        assert_eq!(frames(&deep, 1000).0, [MAX_DEPTH + 1]);
    }

    #[test]
    fn an_open_document_waits_for_more() {
        for input in [
            &b"{\"a\": [1,"[..],
            b"\"abc\\",
            b"[\"\\u12",
            b"123",
            // A bad escape's bytes end inside a character whose rest has
            // not come yet.
            b"[\"\\ud83d\\ude0\xd1",
        ] {
            assert_eq!(frames(input, 1), (std::vec![], input.len()), "{input:?}");
        }
    }
}
