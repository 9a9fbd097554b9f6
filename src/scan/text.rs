//! String contents as the tokenizer found them, decoded lazily.

use crate::swar;

/// The body of a string (between its quotes) in the input's own escaping,
/// already validated by the tokenizer, with what the emitter must know before
/// it writes the first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Text<'a> {
    raw: &'a str,
    escaped: bool,
    line_feed: bool,
    /// Known to be printable ASCII (0x20 to 0x7E) with no escapes: the
    /// emitter may copy it between quotes as it is.
    printable: bool,
}

/// A decoded part of a [`Text`]: a run of characters that needed no decoding,
/// or one character that came from an escape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Piece<'a> {
    Run(&'a str),
    Char(char),
}

impl<'a> Text<'a> {
    /// `raw` must be a validated JSON string body; `escaped` says whether it
    /// holds a `\`, `line_feed` whether it decodes to a line feed.
    pub(crate) fn new(raw: &'a str, escaped: bool, line_feed: bool) -> Text<'a> {
        Text {
            raw,
            escaped,
            line_feed,
            printable: false,
        }
    }

    /// A body that the tokenizer found to hold only printable ASCII, no
    /// `\` and no `"`.
    pub(crate) fn printable(raw: &'a str) -> Text<'a> {
        Text {
            printable: true,
            ..Text::new(raw, false, false)
        }
    }

    /// The body, when it is known to be printable ASCII that needs no
    /// decoding and no escaping.
    pub(crate) fn as_printable(&self) -> Option<&'a str> {
        self.printable.then_some(self.raw)
    }

    /// The body as written in the input (escapes not decoded).
    pub(crate) fn raw(&self) -> &'a str {
        self.raw
    }

    /// The decoded string, when it needs no decoding.
    pub(crate) fn as_plain(&self) -> Option<&'a str> {
        (!self.escaped).then_some(self.raw)
    }

    /// Whether the decoded string holds a line feed (it then folds).
    pub(crate) fn has_line_feed(&self) -> bool {
        self.line_feed
    }

    /// The decoded string, piece by piece.
    pub(crate) fn pieces(&self) -> Pieces<'a> {
        Pieces { rest: self.raw }
    }

    /// The decoded string, character by character.
    pub(crate) fn chars(&self) -> impl Iterator<Item = char> + 'a {
        self.pieces().flat_map(|p| {
            let (run, ch) = match p {
                Piece::Run(run) => (run, None),
                Piece::Char(c) => ("", Some(c)),
            };
            run.chars().chain(ch)
        })
    }

    /// Whether two texts decode to the same string.
    pub(crate) fn decodes_same(&self, other: &Text<'_>) -> bool {
        self.cmp_decoded(other).is_eq()
    }

    /// Orders two texts by their decoded strings (in code point order, which
    /// is also the byte order of their UTF-8).
    pub(crate) fn cmp_decoded(&self, other: &Text<'_>) -> core::cmp::Ordering {
        match (self.as_plain(), other.as_plain()) {
            (Some(a), Some(b)) => a.cmp(b),
            _ => self.chars().cmp(other.chars()),
        }
    }
}

/// What a key is, worked out once and used twice: by the duplicate-key
/// check and by the cache of quoting verdicts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeyId {
    /// A hash of the first 128 bytes of the key's decoded UTF-8 text: equal
    /// keys hash equal however they were escaped.
    pub(crate) hash: u64,
    /// For a key of 1 to 24 bytes with no escapes: its [`swar::words`],
    /// which with its length tell it from every other key exactly.
    pub(crate) words: Option<[u64; 3]>,
}

impl KeyId {
    /// The longest key that has [`KeyId::words`].
    pub(crate) const WORDS_MAX: usize = 24;
    /// How much of a key's decoded text its hash covers.
    const HASHED: usize = 128;

    /// The identity of the key `text`. Inlined: every key asks, and most
    /// have no escapes.
    #[inline(always)]
    pub(crate) fn of(text: &Text<'_>) -> KeyId {
        let Some(plain) = text.as_plain() else {
            return KeyId::of_escaped(text);
        };
        let bytes = &plain.as_bytes()[..plain.len().min(KeyId::HASHED)];
        let words = swar::words(bytes);
        let short = (1..=KeyId::WORDS_MAX).contains(&plain.len());
        KeyId {
            hash: hash_words(bytes.len(), words),
            words: short.then_some(words),
        }
    }

    /// [`KeyId::of`] a key with escapes: the hash of its decoded text.
    #[inline(never)]
    fn of_escaped(text: &Text<'_>) -> KeyId {
        let mut buf = [0u8; KeyId::HASHED];
        let mut len = 0;
        for c in text.chars() {
            let mut utf8 = [0; 4];
            let utf8 = c.encode_utf8(&mut utf8).as_bytes();
            let take = utf8.len().min(KeyId::HASHED - len);
            buf[len..len + take].copy_from_slice(&utf8[..take]);
            len += take;
        }
        KeyId {
            hash: hash_words(len, swar::words(&buf[..len])),
            words: None,
        }
    }
}

/// Mixes a length and its bytes' [`swar::words`], so that the top bits
/// depend on every word. Keys longer than 24 bytes that share their words
/// collide, and are then told apart by their text.
fn hash_words(len: usize, [a, b, c]: [u64; 3]) -> u64 {
    let h = (len as u64 ^ a).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let h = (h.rotate_left(29) ^ b).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    (h.rotate_left(29) ^ c).wrapping_mul(0x94D0_49BB_1331_11EB)
}

/// Iterator over the [`Piece`]s of a JSON string body.
pub(crate) struct Pieces<'a> {
    rest: &'a str,
}

impl<'a> Iterator for Pieces<'a> {
    type Item = Piece<'a>;

    fn next(&mut self) -> Option<Piece<'a>> {
        let bytes = self.rest.as_bytes();
        match swar::find_byte(bytes, 0, b'\\') {
            _ if bytes.is_empty() => None,
            i if i == bytes.len() => Some(Piece::Run(core::mem::take(&mut self.rest))),
            0 => {
                let (c, len) = decode_escape(bytes);
                self.rest = &self.rest[len..];
                Some(Piece::Char(c))
            }
            i => {
                let (run, rest) = self.rest.split_at(i);
                self.rest = rest;
                Some(Piece::Run(run))
            }
        }
    }
}

/// Decodes the escape at the start of `s` (which the tokenizer validated):
/// the character and the escape's length in bytes.
fn decode_escape(s: &[u8]) -> (char, usize) {
    let c = match s.get(1) {
        Some(b'b') => '\u{8}',
        Some(b'f') => '\u{c}',
        Some(b'n') => '\n',
        Some(b'r') => '\r',
        Some(b't') => '\t',
        Some(b'u') => return decode_unicode(s),
        Some(&b) => char::from(b), // `"`, `\`, `/` stand for themselves
        None => '\\',
    };
    (c, 2)
}

/// Decodes `\uXXXX`, or a surrogate pair `\uXXXX\uXXXX`, at the start of `s`.
fn decode_unicode(s: &[u8]) -> (char, usize) {
    let hi = hex4(&s[2..]).unwrap_or(0xFFFD);
    if (0xD800..0xDC00).contains(&hi) {
        if let Some(lo) = s.get(8..).and_then(hex4) {
            let c = 0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF);
            return (char::from_u32(c).unwrap_or('\u{FFFD}'), 12);
        }
    }
    (char::from_u32(hi).unwrap_or('\u{FFFD}'), 6)
}

/// The value of four hex digits at the start of `s`, if they are there.
pub(crate) fn hex4(s: &[u8]) -> Option<u32> {
    s.get(..4)?
        .iter()
        .try_fold(0, |acc, &b| Some(acc << 4 | char::from(b).to_digit(16)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Piece::*;

    fn pieces(raw: &str) -> [Option<Piece<'_>>; 4] {
        let mut it = Text::new(raw, true, false).pieces();
        [it.next(), it.next(), it.next(), it.next()]
    }

    #[test]
    fn runs_and_escapes() {
        assert_eq!(
            pieces("ab\\ncd"),
            [Some(Run("ab")), Some(Char('\n')), Some(Run("cd")), None]
        );
        assert_eq!(
            pieces("\\\"\\\\\\/"),
            [Some(Char('"')), Some(Char('\\')), Some(Char('/')), None]
        );
        assert_eq!(
            pieces("\\ud83d\\ude00x"),
            [Some(Char('😀')), Some(Run("x")), None, None]
        );
        assert_eq!(
            pieces("\\u00e9\\b\\f"),
            [
                Some(Char('é')),
                Some(Char('\u{8}')),
                Some(Char('\u{c}')),
                None
            ]
        );
        assert_eq!(pieces(""), [None, None, None, None]);
    }

    #[test]
    fn equal_after_decoding() {
        let a = Text::new("a\\u0062", true, false);
        assert!(a.decodes_same(&Text::new("ab", false, false)));
        assert!(!a.decodes_same(&Text::new("abc", false, false)));
        assert!(Text::new("x", false, false).decodes_same(&Text::new("x", false, false)));
    }
}
