//! String contents as a reader found them, decoded lazily, and the
//! identity of keys ([`KeyId`]) that the duplicate check and the emitter's
//! key cache share.

use super::json_string::{string_step, Found};
use crate::swar;

/// The body of a string as it is spelled in the input, already checked by
/// the reader, with what the emitter must know before it writes the first
/// byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Text<'a> {
    raw: &'a str,
    spelling: Spelling,
    line_feed: bool,
    /// Known to be printable ASCII (0x20 to 0x7E) with nothing to decode:
    /// the emitter may copy it between quotes as it is.
    printable: bool,
}

/// How a [`Text`]'s body is spelled, which says how it decodes.
///
/// Every spelling's escapes and folds are at least as long as what they
/// stand for, so no text decodes to more bytes than its body has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Spelling {
    /// The body is the string itself: nothing to decode.
    Verbatim,
    /// A JSON string body with `\` escapes (RFC 8259 §7).
    JsonEscaped,
    /// The body is the string itself, but may hold characters a
    /// [`Piece::Run`] may not (`"`, `\`, C0 control characters), which a
    /// YAML scalar can hold as they are: each of those is a [`Piece::Char`].
    #[cfg_attr(not(feature = "alloc"), allow(dead_code))]
    Unescaped,
}

/// A decoded part of a [`Text`]: a run of characters that needed no decoding
/// and holds no `"`, `\` or C0 control character, or one character (from an
/// escape, or one of those).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Piece<'a> {
    Run(&'a str),
    Char(char),
}

impl<'a> Text<'a> {
    /// `raw` must be a body the reader checked, spelled as `spelling`
    /// says; `line_feed` says whether it decodes to a line feed.
    pub(crate) fn new(raw: &'a str, spelling: Spelling, line_feed: bool) -> Text<'a> {
        Text {
            raw,
            spelling,
            line_feed,
            printable: false,
        }
    }

    /// A body that the reader found to hold only printable ASCII, with
    /// nothing to decode and nothing a double-quoted string escapes.
    pub(crate) fn printable(raw: &'a str) -> Text<'a> {
        Text {
            printable: true,
            ..Text::new(raw, Spelling::Verbatim, false)
        }
    }

    /// A string that needs no decoding (a Rust `&str`), flagged printable
    /// when it is: verbatim, or [`Spelling::Unescaped`] when it holds `"`,
    /// `\` or C0 controls.
    #[cfg(feature = "serde")]
    pub(crate) fn verbatim(s: &'a str) -> Text<'a> {
        // Most keys and many values are short: a plain loop decides those
        // sooner than the word-at-a-time search sets up.
        if s.len() <= 16 {
            let printable = |b: &u8| matches!(b, 0x20..=0x7E) && !matches!(b, b'"' | b'\\');
            if s.bytes().all(|b| printable(&b)) {
                return Text::printable(s);
            }
        }
        // One word-at-a-time pass: the first `"`, `\` or C0 control, and
        // whether every byte before it is printable ASCII.
        match crate::swar::string_special_printable(s.as_bytes(), 0) {
            (at, true) if at == s.len() => Text::printable(s),
            (at, false) if at == s.len() => Text::new(s, Spelling::Verbatim, false),
            _ => Text::new(s, Spelling::Unescaped, s.contains('\n')),
        }
    }

    /// The body, when it is known to be printable ASCII that needs no
    /// decoding and no escaping.
    pub(crate) fn as_printable(&self) -> Option<&'a str> {
        self.printable.then_some(self.raw)
    }

    /// The body as spelled in the input (escapes not decoded).
    pub(crate) fn raw(&self) -> &'a str {
        self.raw
    }

    /// The most bytes the decoded string can have (see [`Spelling`]).
    pub(crate) fn decoded_len_max(&self) -> usize {
        self.raw.len()
    }

    /// The decoded string, when it needs no decoding.
    pub(crate) fn as_plain(&self) -> Option<&'a str> {
        (self.spelling == Spelling::Verbatim).then_some(self.raw)
    }

    /// Whether the decoded string holds a line feed (it then folds).
    pub(crate) fn has_line_feed(&self) -> bool {
        self.line_feed
    }

    /// The decoded string, piece by piece.
    pub(crate) fn pieces(&self) -> TextPieces<'a> {
        TextPieces {
            rest: self.raw,
            spelling: self.spelling,
        }
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
            hash: hash_key(bytes, words),
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
        let bytes = &buf[..len];
        KeyId {
            hash: hash_key(bytes, swar::words(bytes)),
            words: None,
        }
    }
}

/// How many bytes the UTF-8 character that starts with byte `lead` has
/// (1 for ASCII, 2 to 4 by the lead byte's high bits); `None` for a byte
/// that starts none (a continuation byte, or 0xF8 and up).
#[cfg(feature = "alloc")]
pub(crate) fn utf8_len(lead: u8) -> Option<usize> {
    match lead {
        0..=0x7F => Some(1),
        0xC0..=0xDF => Some(2),
        0xE0..=0xEF => Some(3),
        0xF0..=0xF7 => Some(4),
        _ => None,
    }
}

/// The hash of the (at most [`KeyId::HASHED`]) bytes of a key, given their
/// [`swar::words`]: the length and the words mixed so that the top bits
/// depend on every word, and for a key over 24 bytes, whose words skip its
/// middle, every eight bytes from byte 16 on mixed in too. Keys that share
/// a long prefix and suffix (`io.k8s.api.core.v1.Pod…Spec`) are common in
/// real maps, and a collision costs the duplicate check a reading of the
/// key texts again (`Source::key_at`: for a streamed document, the whole
/// document read a second time).
#[inline]
fn hash_key(bytes: &[u8], [a, b, c]: [u64; 3]) -> u64 {
    let h = (bytes.len() as u64 ^ a).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let h = (h.rotate_left(29) ^ b).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let mut h = (h.rotate_left(29) ^ c).wrapping_mul(0x94D0_49BB_1331_11EB);
    if bytes.len() > KeyId::WORDS_MAX {
        h = hash_middle(h, bytes);
    }
    h
}

/// Mixes into `h` the bytes from 16 to `bytes.len() - 8`, which
/// [`swar::words`] skips, eight at a time (the last word overlapping the one
/// before it when they are not a multiple of eight).
#[inline(never)]
fn hash_middle(mut h: u64, bytes: &[u8]) -> u64 {
    let word = |at: usize| {
        let mut w = [0; 8];
        w.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let last = bytes.len() - 16;
    let mut at = 16;
    while at < last {
        h = (h.rotate_left(29) ^ word(at)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        at += 8;
    }
    (h.rotate_left(29) ^ word(last)).wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// Iterator over the [`Piece`]s of a [`Text`].
pub(crate) struct TextPieces<'a> {
    rest: &'a str,
    spelling: Spelling,
}

/// The next piece of `rest`, a string that may hold characters a
/// [`Piece::Run`] may not: a run up to the first of them, or that one.
fn next_unescaped<'a>(rest: &mut &'a str) -> Option<Piece<'a>> {
    let special = |b: &u8| matches!(b, b'"' | b'\\' | 0..=0x1F);
    match rest.bytes().position(|b| special(&b)) {
        Some(0) => {
            let c = rest.chars().next()?;
            *rest = rest.get(c.len_utf8()..).unwrap_or("");
            Some(Piece::Char(c))
        }
        Some(i) => {
            let (run, tail) = rest.split_at_checked(i)?;
            *rest = tail;
            Some(Piece::Run(run))
        }
        None if rest.is_empty() => None,
        None => Some(Piece::Run(core::mem::take(rest))),
    }
}

/// The next decoded [`Piece`] of a checked JSON string body, taken off the
/// front of `rest`.
fn next_piece<'a>(rest: &mut &'a str) -> Option<Piece<'a>> {
    if rest.is_empty() {
        return None;
    }
    match string_step(rest.as_bytes(), 0) {
        (0, Found::Escape { c, len }) => {
            *rest = rest.get(len..).unwrap_or_default();
            Some(Piece::Char(c))
        }
        (at, _) => {
            // A checked body holds no quote and no bad escape: `at` is an
            // escape or the end. Anything else ends the text, unread.
            let at = if at == 0 { rest.len() } else { at };
            let (run, tail) = rest.split_at(at.min(rest.len()));
            *rest = tail;
            Some(Piece::Run(run))
        }
    }
}

impl<'a> Iterator for TextPieces<'a> {
    type Item = Piece<'a>;

    fn next(&mut self) -> Option<Piece<'a>> {
        match self.spelling {
            Spelling::Verbatim if self.rest.is_empty() => None,
            Spelling::Verbatim => Some(Piece::Run(core::mem::take(&mut self.rest))),
            Spelling::JsonEscaped => next_piece(&mut self.rest),
            Spelling::Unescaped => next_unescaped(&mut self.rest),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Piece::*;

    fn pieces(raw: &str) -> [Option<Piece<'_>>; 4] {
        let mut it = Text::new(raw, Spelling::JsonEscaped, false).pieces();
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
        let a = Text::new("a\\u0062", Spelling::JsonEscaped, false);
        assert!(a.decodes_same(&Text::new("ab", Spelling::Verbatim, false)));
        assert!(!a.decodes_same(&Text::new("abc", Spelling::Verbatim, false)));
        assert!(
            Text::new("x", Spelling::Verbatim, false).decodes_same(&Text::new(
                "x",
                Spelling::Verbatim,
                false
            ))
        );
    }

    #[test]
    fn long_keys_alike_at_both_ends_hash_apart() {
        let hash = |raw: &str| KeyId::of(&Text::new(raw, Spelling::JsonEscaped, false)).hash;
        // Same length, same first 16 and last 8 bytes: only the middle
        // differs, at each of its bytes in turn.
        let base = "io.k8s.api.core.v1.PodSpecTemplate.status";
        for at in 16..base.len() - 8 {
            let mut other = base.as_bytes().to_vec();
            other[at] = b'_';
            let other = core::str::from_utf8(&other).unwrap();
            assert_ne!(hash(base), hash(other), "byte {at}");
        }
        // Escaped or not, a long key hashes as its decoded text, up to the
        // bytes the hash covers.
        let plain = "k".repeat(20) + "\\u00e9" + &"v".repeat(150);
        let decoded = "k".repeat(20) + "é" + &"v".repeat(150);
        assert_eq!(hash(&plain), hash(&decoded));
        assert_eq!(hash(&(decoded.clone() + "x")), hash(&(decoded + "y")));
    }
}
