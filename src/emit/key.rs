//! When a map key may be written bare: only when no YAML parser could read
//! it as anything but that string.
//!
//! A key is bare when (1) its characters are letters, numbers and `_`, with
//! `-`, `.` and `/` allowed inside, (2) the reference encoder does not find
//! it type-ambiguous (null, bool, number, timestamp, as Go parses them) and
//! (3, our deviation) no number or date pattern of a YAML resolver in wide
//! use matches it: YAML 1.1 as PyYAML reads it, YAML 1.2 core, ruamel.yaml's
//! YAML 1.2 (which allows `_` in numbers), eemeli/yaml's YAML 1.1 floats
//! (whose mantissa may be missing: `e5`) and timestamps (which allow
//! one-digit months and days), and saphyr's hex and octal ints (which allow
//! a sign after the prefix: `0x-1f`).
//!
//! Rule 1 leaves an alphabet without signs, `:`, spaces, `~` or a leading
//! `.`, so the sexagesimal, `.inf` and time-of-day forms of rule 2 can never
//! match a key that reaches it; only the forms that fit the alphabet are
//! checked here. Go's date check (`2006-1-2`, a real date) is left out too:
//! every key it accepts matches the date pattern of rule 3.
//!
//! A key longer than YAML's limit for implicit keys, 1,024 bytes as written,
//! is written as an explicit key, `? key: value` (our deviation: PyYAML,
//! ruamel.yaml and serde_yaml reject the reference's output).

use core::fmt::{self, Write};

use super::string::{write_string, Layout};
use super::unicode::{is_letter, is_number};
#[cfg(test)]
use crate::scan::Spelling;
use crate::scan::{KeyId, Text};
use crate::swar;

/// The longest implicit key YAML parsers accept (YAML 1.2 §7.4.2; libyaml
/// counts bytes, PyYAML characters), quotes and escapes included.
pub(crate) const IMPLICIT_KEY_MAX: usize = 1024;

/// Whether `key` could be written longer than [`IMPLICIT_KEY_MAX`]: an
/// escape writes at most four bytes per decoded byte (DEL as `\x7f`), plus
/// two quotes.
pub(crate) fn needs_measuring(key: &Text<'_>) -> bool {
    4 * key.decoded_len_max() + 2 > IMPLICIT_KEY_MAX
}

/// Writes `key` bare (as its characters) or double-quoted. Inlined for the
/// usual bare key without escapes: one write.
#[inline(always)]
pub(crate) fn write_key<W: Write + ?Sized>(out: &mut W, key: &Text<'_>, bare: bool) -> fmt::Result {
    match key.as_plain() {
        Some(plain) if bare => out.write_str(plain),
        _ => write_other_key(out, key, bare),
    }
}

/// [`write_key`] for a key that is quoted or has escapes.
#[inline(never)]
fn write_other_key<W: Write + ?Sized>(out: &mut W, key: &Text<'_>, bare: bool) -> fmt::Result {
    match bare {
        true => key.chars().try_for_each(|c| out.write_char(c)),
        false => write_string(out, key, Layout::Escaped),
    }
}

/// How many bytes [`write_key`] writes.
pub(crate) fn written_len(key: &Text<'_>, bare: bool) -> usize {
    struct Count(usize);
    impl Write for Count {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.0 += s.len();
            Ok(())
        }
    }
    let mut count = Count(0);
    // Count never fails.
    let _ = write_key(&mut count, key, bare);
    count.0
}

/// The verdicts of [`is_bare`] for recent short keys: documents repeat
/// their keys (`name`, `type`, `description`), and a look-up is cheaper than
/// the rules. Two-way: a key's hash picks a pair of slots, and a new key
/// pushes out the pair's older one, so two keys that share a slot and come
/// in turn do not push each other out every time (the misses measured are
/// in `docs/performance-notes.md`). Each slot holds a key's text as its
/// length and [`KeyId::words`], which tell keys of up to 24 bytes apart
/// exactly.
pub(crate) struct BareCache {
    slots: [Slot<3>; BareCache::SLOTS],
    /// Keys of 25 to 40 bytes without escapes (twitter's
    /// `in_reply_to_status_id_str`, Kubernetes' `x-kubernetes-patch-strategy`),
    /// two-way as well, each told apart by five words ([`swar::long_words`]).
    long: [Slot<5>; BareCache::LONG_SLOTS],
}

/// A key's verdict, and the key as its length and `N` words.
#[derive(Clone, Copy)]
struct Slot<const N: usize> {
    /// The length of the key's JSON text; 0 for an empty slot (the empty
    /// key is never looked up).
    len: u8,
    words: [u64; N],
    bare: bool,
}

impl<const N: usize> Slot<N> {
    const EMPTY: Slot<N> = Slot {
        len: 0,
        words: [0; N],
        bare: false,
    };

    /// Whether the slot holds the key of `len` bytes with these words.
    /// Word by word, not as arrays: `words` are the caller's fresh 8-byte
    /// stores, and the 16-byte loads of an array comparison (or copy) wait
    /// until those reach the cache, as store-to-load forwarding fails.
    fn holds(&self, len: usize, words: &[u64; N]) -> bool {
        let mut diff = (usize::from(self.len) ^ len) as u64;
        for (a, b) in self.words.iter().zip(words) {
            diff |= a ^ b;
        }
        diff == 0
    }
}

impl BareCache {
    /// 128 pairs, picked by the top 7 bits of the key's hash. Keys without
    /// [`KeyId::words`] (longer than 24 bytes, or escaped) are checked every
    /// time.
    const SLOTS: usize = 256;
    /// Long keys are fewer: 16 pairs, by the top 4 bits of the hash, two-way
    /// for the same reason as the short ones.
    const LONG_SLOTS: usize = 32;
    /// The keys the long slots hold: those too long for [`KeyId::words`],
    /// up to 40 bytes.
    const LONG_MIN: usize = KeyId::WORDS_MAX + 1;
    const LONG_MAX: usize = 40;

    pub(crate) fn new() -> BareCache {
        BareCache {
            slots: [Slot::EMPTY; BareCache::SLOTS],
            long: [Slot::EMPTY; BareCache::LONG_SLOTS],
        }
    }

    /// Whether `key`, whose identity is `id`, can be written without
    /// quotes, as [`is_bare`] says.
    #[inline]
    pub(crate) fn is_bare(&mut self, key: &Text<'_>, id: &KeyId) -> bool {
        let Some(words) = &id.words else {
            return self.is_bare_long(key, id);
        };
        // The hash's top bits mix all the words; they pick a pair of slots.
        let pair = 2 * (id.hash >> 57) as usize;
        look_up(&mut self.slots, pair, key, words)
    }

    /// [`BareCache::is_bare`] for a key without [`KeyId::words`]: looked up
    /// in the long slots if it is plain and at most 40 bytes long.
    #[inline(never)]
    fn is_bare_long(&mut self, key: &Text<'_>, id: &KeyId) -> bool {
        let raw = key.raw().as_bytes();
        let (Some(_), BareCache::LONG_MIN..=BareCache::LONG_MAX) = (key.as_plain(), raw.len())
        else {
            return is_bare(key);
        };
        let pair = 2 * (id.hash >> 60) as usize;
        look_up(&mut self.long, pair, key, &swar::long_words(raw))
    }
}

/// The verdict on `key`, whose JSON text has these `words`, from the pair of
/// `slots` at `pair` (the more recently filled first), or from [`is_bare`],
/// then kept there in place of the pair's older key.
#[inline(always)]
fn look_up<const N: usize>(
    slots: &mut [Slot<N>],
    pair: usize,
    key: &Text<'_>,
    words: &[u64; N],
) -> bool {
    let len = key.raw().len();
    let Some([newer, older]) = slots.get_mut(pair..pair + 2) else {
        return is_bare(key);
    };
    for slot in [&*newer, &*older] {
        if slot.holds(len, words) {
            return slot.bare;
        }
    }
    let bare = is_bare(key);
    *older = *newer;
    *newer = Slot {
        len: len as u8,
        words: *words,
        bare,
    };
    bare
}

/// A [`BareCache`] set up only once a document has shown enough keys to
/// repay clearing its 10 KiB: a log line of a few keys checks them directly.
pub(crate) struct LazyCache<'r> {
    cache: &'r mut Option<BareCache>,
    /// Keys checked without the cache so far.
    uncached: u32,
}

impl<'r> LazyCache<'r> {
    /// Keys checked directly before the cache is set up.
    const DIRECT: u32 = 32;

    /// No cache yet; `room` is where it goes (whatever it held is forgotten).
    pub(crate) fn new(room: &'r mut Option<BareCache>) -> LazyCache<'r> {
        *room = None;
        LazyCache {
            cache: room,
            uncached: 0,
        }
    }

    /// Whether `key`, whose identity is `id`, can be written without
    /// quotes, as [`is_bare`] says.
    #[inline(always)]
    pub(crate) fn is_bare(&mut self, key: &Text<'_>, id: &KeyId) -> bool {
        if let Some(cache) = self.cache {
            return cache.is_bare(key, id);
        }
        self.uncached += 1;
        if self.uncached == LazyCache::DIRECT {
            build_cache(self.cache);
        }
        is_bare(key)
    }
}

/// Sets up a [`BareCache`] in `room`. Out of line, so that its 10 KiB are
/// not in the stack frame of every key's write.
#[cold]
#[inline(never)]
fn build_cache(room: &mut Option<BareCache>) {
    *room = Some(BareCache::new());
}

/// Whether `key` can be written without quotes.
pub(crate) fn is_bare(key: &Text<'_>) -> bool {
    if let Some(plain) = key.as_plain() {
        let word = match plain.is_ascii() {
            true => is_ascii_word(plain.as_bytes()),
            false => is_plain_word(plain.chars()),
        };
        return word && !is_ambiguous(plain);
    }
    if !is_plain_word(key.chars()) {
        return false;
    }
    // Every ambiguous form is ASCII: decode into a small buffer. A key that
    // does not fit is quoted, which is always correct YAML.
    let mut buf = [0u8; 256];
    let mut len = 0;
    for c in key.chars() {
        if !c.is_ascii() {
            return true;
        }
        match buf.get_mut(len) {
            Some(slot) => *slot = c as u8,
            None => return false,
        }
        len += 1;
    }
    !is_ambiguous(core::str::from_utf8(&buf[..len]).unwrap_or("~"))
}

/// Rule 1 for ASCII text, by table: every byte a word byte or `-./`, the
/// first and last a word byte.
fn is_ascii_word(s: &[u8]) -> bool {
    let class = |c: &u8| ASCII_CLASS[usize::from(*c)];
    match (s.first(), s.last()) {
        (Some(first), Some(last)) => {
            class(first) == WORD && class(last) == WORD && s.iter().all(|c| class(c) != 0)
        }
        _ => false,
    }
}

/// Letters, digits and `_`.
const WORD: u8 = 1;
/// `-`, `.` and `/`: allowed inside a bare key only.
const INNER: u8 = 2;

/// The rule-1 class of each byte (0: not allowed in a bare key).
static ASCII_CLASS: [u8; 256] = {
    let mut table = [0; 256];
    let mut c = 0;
    while c < 128 {
        let b = c as u8;
        table[c] = if b.is_ascii_alphanumeric() || b == b'_' {
            WORD
        } else if matches!(b, b'-' | b'.' | b'/') {
            INNER
        } else {
            0
        };
        c += 1;
    }
    table
};

/// Rule 1: letters, numbers, `_`; `-`, `.`, `/` not first or last.
fn is_plain_word(mut chars: impl Iterator<Item = char>) -> bool {
    let Some(first) = chars.next() else {
        return false;
    };
    let mut last = first;
    for c in chars.by_ref() {
        if rule_1_class(c) == 0 {
            return false;
        }
        last = c;
    }
    rule_1_class(first) == WORD && rule_1_class(last) == WORD
}

/// The rule-1 class of any character: [`ASCII_CLASS`] for ASCII, else a
/// word character if it is a letter or a number.
fn rule_1_class(c: char) -> u8 {
    match c.is_ascii() {
        true => ASCII_CLASS[c as usize],
        false if is_letter(c) || is_number(c) => WORD,
        false => 0,
    }
}

/// Rules 2 and 3 for a key that passed rule 1.
fn is_ambiguous(s: &str) -> bool {
    let b = s.as_bytes();
    if !b
        .iter()
        .find(|&&c| c != b'_')
        .is_some_and(u8::is_ascii_digit)
    {
        // Without a leading digit (Go removes `_` first), only words and
        // bare exponents match.
        return is_null_or_bool(s) || go_float_word(s) || bare_exponent(b);
    }
    go_number_like(s) || resolver_number(b) || resolver_date(b)
}

/// Go's null check, `strconv.ParseBool`, and the YAML 1.1 boolean words.
fn is_null_or_bool(s: &str) -> bool {
    if s.len() > 5 {
        return false;
    }
    const GO_BOOL: [&str; 12] = [
        "1", "t", "T", "TRUE", "true", "True", "0", "f", "F", "FALSE", "false", "False",
    ];
    const WORDS: [&str; 9] = ["null", "y", "yes", "on", "n", "no", "off", "true", "false"];
    GO_BOOL.contains(&s) || WORDS.iter().any(|w| w.eq_ignore_ascii_case(s))
}

/// The words Go's `strconv.ParseFloat` reads as numbers, once `_` is removed.
fn go_float_word(s: &str) -> bool {
    if !s.starts_with(['i', 'I', 'n', 'N', '_']) {
        return false;
    }
    let letters = || {
        s.bytes()
            .filter(|&c| c != b'_')
            .map(|c| c.to_ascii_lowercase())
    };
    ["inf", "infinity", "nan"]
        .iter()
        .any(|w| letters().eq(w.bytes()))
}

/// eemeli/yaml's YAML 1.1 float with no mantissa, `[eE][-+]?[0-9]+`, which it
/// reads as NaN (rule 1 leaves no `+`).
fn bare_exponent(s: &[u8]) -> bool {
    match s {
        [b'e' | b'E', b'-', digits @ ..] | [b'e' | b'E', digits @ ..] => {
            !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
        }
        _ => false,
    }
}

/// Go `strconv.ParseInt(s, 0, 64)` or `ParseFloat(s, 64)` succeeds after
/// every `_` is removed.
fn go_number_like(s: &str) -> bool {
    let mut buf = [0u8; 64];
    let mut len = 0;
    for &c in s.as_bytes().iter().filter(|&&c| c != b'_') {
        let Some(slot) = buf.get_mut(len) else {
            // Too long to copy: only a long run of digits (with `_`, `.`,
            // an exponent) gets here, and a pattern below catches those.
            return s.bytes().all(|c| c.is_ascii_digit() || c == b'_');
        };
        *slot = c;
        len += 1;
    }
    let t = &buf[..len];
    go_parse_int(t) || go_parse_float(t)
}

/// Go `strconv.ParseInt(s, 0, 64)` on an unsigned string.
fn go_parse_int(s: &[u8]) -> bool {
    let (digits, radix) = match s {
        [b'0', b'x' | b'X', rest @ ..] => (rest, 16),
        [b'0', b'o' | b'O', rest @ ..] => (rest, 8),
        [b'0', b'b' | b'B', rest @ ..] => (rest, 2),
        [b'0', rest @ ..] if !rest.is_empty() => (rest, 8),
        _ => (s, 10),
    };
    !digits.is_empty()
        && digits
            .iter()
            .try_fold(0i64, |acc, &d| {
                let d = char::from(d).to_digit(radix)?;
                acc.checked_mul(i64::from(radix))?.checked_add(i64::from(d))
            })
            .is_some()
}

/// Go `strconv.ParseFloat(s, 64)` on an unsigned string: decimal or hex
/// (which needs a `p` exponent), and not out of range.
fn go_parse_float(s: &[u8]) -> bool {
    if let [b'0', b'x' | b'X', rest @ ..] = s {
        return go_hex_float(rest);
    }
    let mant = span(s, 0, u8::is_ascii_digit);
    let frac = if s.get(mant) == Some(&b'.') {
        span(s, mant + 1, u8::is_ascii_digit)
    } else {
        0
    };
    let mut i = mant + usize::from(s.get(mant) == Some(&b'.')) + frac;
    if mant + frac == 0 {
        return false;
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        i += 1 + usize::from(matches!(s.get(i + 1), Some(b'+' | b'-')));
        let exp = span(s, i, u8::is_ascii_digit);
        if exp == 0 {
            return false;
        }
        i += exp;
    }
    // In range: Go reports overflow to infinity as an error.
    i == s.len()
        && core::str::from_utf8(s)
            .ok()
            .and_then(|t| t.parse::<f64>().ok())
            .is_some_and(f64::is_finite)
}

/// The rest of a Go hex float after `0x`: `h*(.h*)?p[+-]?d+`, in range.
fn go_hex_float(s: &[u8]) -> bool {
    let int = span(s, 0, u8::is_ascii_hexdigit);
    let dot = usize::from(s.get(int) == Some(&b'.'));
    let frac = if dot == 1 {
        span(s, int + 1, u8::is_ascii_hexdigit)
    } else {
        0
    };
    let mut i = int + dot + frac;
    if int + frac == 0 || !matches!(s.get(i), Some(b'p' | b'P')) {
        return false;
    }
    i += 1;
    let negative = s.get(i) == Some(&b'-');
    i += usize::from(matches!(s.get(i), Some(b'+' | b'-')));
    let exp_digits = &s[i..];
    if exp_digits.is_empty() || !exp_digits.iter().all(u8::is_ascii_digit) {
        return false;
    }
    // Binary magnitude: the mantissa's significant bits, shifted.
    let digits = s[..int + dot + frac].iter().filter(|&&c| c != b'.');
    let lead_zeros = digits.clone().take_while(|&&c| c == b'0').count();
    let sig_digits = int.saturating_sub(lead_zeros) as i64;
    let exp = exp_digits.iter().try_fold(0i64, |a, &d| {
        a.checked_mul(10)?.checked_add(i64::from(d - b'0'))
    });
    let Some(exp) = exp else { return negative };
    let exp = if negative { -exp } else { exp };
    sig_digits * 4 + exp <= 1024
}

/// The union of the resolvers' number patterns, for a key that starts with a
/// digit (rule 1 leaves no sign and no leading `.`):
/// `[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?`, `0b[01_]+`, `0o[0-7_]+`,
/// `0x[0-9a-fA-F_]+`, and saphyr's `0o-[0-7]+` and `0x-[0-9a-fA-F]+` (Rust's
/// `from_str_radix` after the prefix takes a sign). It holds YAML 1.1's ints
/// and floats (whose exponent needs a sign), YAML 1.2 core's, and
/// ruamel.yaml's YAML 1.2 ones, which allow `_`.
fn resolver_number(s: &[u8]) -> bool {
    let all = |rest: &[u8], ok: fn(&u8) -> bool| {
        !rest.is_empty() && rest.iter().all(|c| *c == b'_' || ok(c))
    };
    let negative = |rest: &[u8], ok: fn(&u8) -> bool| match rest {
        [b'-', digits @ ..] => !digits.is_empty() && digits.iter().all(ok),
        _ => false,
    };
    let octal = |c: &u8| matches!(c, b'0'..=b'7');
    match s {
        [b'0', b'b', rest @ ..] => all(rest, |c| matches!(c, b'0' | b'1')),
        [b'0', b'o', rest @ ..] => all(rest, octal) || negative(rest, octal),
        [b'0', b'x', rest @ ..] => {
            all(rest, u8::is_ascii_hexdigit) || negative(rest, u8::is_ascii_hexdigit)
        }
        _ => {
            let digit_ = |c: &u8| c.is_ascii_digit() || *c == b'_';
            let mut i = span(s, 0, digit_);
            if i == 0 || !s[0].is_ascii_digit() {
                return false;
            }
            if s.get(i) == Some(&b'.') {
                i += 1 + span(s, i + 1, digit_);
            }
            match &s[i..] {
                [] => true,
                [b'e' | b'E', rest @ ..] => {
                    let exp = rest
                        .strip_prefix(b"-")
                        .or_else(|| rest.strip_prefix(b"+"))
                        .unwrap_or(rest);
                    !exp.is_empty() && exp.iter().all(u8::is_ascii_digit)
                }
                _ => false,
            }
        }
    }
}

/// The date part of a YAML 1.1 timestamp as eemeli/yaml reads it,
/// `[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}`, real date or not (PyYAML fails on
/// `2025-02-30`; eemeli/yaml reads `2024-2-31` as March 2).
fn resolver_date(s: &[u8]) -> bool {
    let four = s.len() >= 4 && s[..4].iter().all(u8::is_ascii_digit);
    let Some(rest) = four.then(|| &s[4..]).and_then(|r| r.strip_prefix(b"-")) else {
        return false;
    };
    let Some(rest) = skip_1_or_2_digits(rest).and_then(|r| r.strip_prefix(b"-")) else {
        return false;
    };
    skip_1_or_2_digits(rest).is_some_and(<[u8]>::is_empty)
}

/// What follows one or two leading digits, if `s` starts with one or two.
fn skip_1_or_2_digits(s: &[u8]) -> Option<&[u8]> {
    let n = span(s, 0, u8::is_ascii_digit);
    (1..=2).contains(&n).then(|| &s[n..])
}

/// How many bytes from `from` satisfy `ok`.
fn span(s: &[u8], from: usize, ok: impl Fn(&u8) -> bool) -> usize {
    s.get(from..)
        .unwrap_or_default()
        .iter()
        .take_while(|c| ok(c))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bare(s: &str) -> bool {
        is_bare(&Text::new(s, Spelling::Verbatim, false))
    }

    #[test]
    fn the_cache_gives_the_rules_verdict() {
        // Keys that differ in one byte, or only in their middle, share
        // slots; each must keep its own verdict however the slots churn.
        let mut keys = std::vec::Vec::new();
        for stem in ["on", "yes", "1e5", "0x1F", "a", "name", "2024-1-1", "é", ""] {
            for n in 0..40 {
                keys.push(std::format!("{stem}{n}"));
                keys.push(std::format!("{n}{stem}"));
                keys.push(std::format!("x{stem}{n:>20}"));
                // Long keys: 25 to 40 bytes (five words), and past that,
                // bare and quoted, some differing only in their middle.
                keys.push(std::format!("{stem}-{n:0>30}"));
                keys.push(std::format!("x{n:0>12}{stem:_>18}y"));
                keys.push(std::format!("{stem}{n:0>40}"));
                // Same length, one a number (quoted), one a word (bare).
                keys.push(std::format!("{n:0>30}"));
                keys.push(std::format!("a{n:0>29}"));
            }
            keys.push(stem.into());
        }
        let mut cache = BareCache::new();
        for round in 0..3 {
            for k in keys.iter().rev().skip(round).step_by(round + 1) {
                let text = Text::new(k, Spelling::Verbatim, false);
                let id = KeyId::of(&text);
                assert_eq!(cache.is_bare(&text, &id), is_bare(&text), "{k:?}");
            }
        }
        // A JSON-escaped key goes by the rules every time.
        let escaped = Text::new("\\u0079es", Spelling::JsonEscaped, false);
        let id = KeyId::of(&escaped);
        assert!(id.words.is_none());
        assert_eq!(cache.is_bare(&escaped, &id), is_bare(&escaped));
        assert_eq!(cache.is_bare(&escaped, &id), is_bare(&escaped));
    }

    #[test]
    fn a_pair_of_slots_tells_keys_apart_by_every_word() {
        // Keys of one length that differ in one byte of word `w` only, one
        // bare and one quoted (a space), in the same pair of slots: each
        // must get its own verdict whichever was looked up last.
        fn check<const N: usize>(len: usize, words: fn(&[u8]) -> [u64; N]) {
            for w in 0..N {
                let mut slots = [Slot::<N>::EMPTY; 2];
                let keys: std::vec::Vec<std::string::String> = [b'b', b' ']
                    .iter()
                    .map(|&c| {
                        let mut k = std::vec![b'a'; len];
                        k[8 * w + 3] = c;
                        std::string::String::from_utf8(k).unwrap()
                    })
                    .collect();
                for k in keys.iter().chain(&keys).chain(keys.iter().rev()) {
                    let text = Text::new(k, Spelling::Verbatim, false);
                    let verdict = look_up(&mut slots, 0, &text, &words(k.as_bytes()));
                    assert_eq!(verdict, k.contains('b'), "word {w} of {k:?}");
                }
            }
        }
        check(KeyId::WORDS_MAX, swar::words);
        check(BareCache::LONG_MAX, swar::long_words);
    }

    #[test]
    fn rule_1_alphabet() {
        for k in [
            "a",
            "app.kubernetes.io/name",
            "with-dash",
            "_",
            "日本語",
            "x١٢",
            "a.b/c-d_e",
        ] {
            assert!(bare(k), "{k}");
        }
        for k in [
            "",
            "-a",
            "a-",
            ".a",
            "a.",
            "/a",
            "a/",
            "a b",
            "a:b",
            "é\u{301}",
            "a\u{200b}",
            "~",
            "<<",
            "=",
        ] {
            assert!(!bare(k), "{k:?}");
        }
    }

    #[test]
    fn rule_2_go_ambiguity() {
        for k in [
            "null", "NuLL", "t", "F", "True", "yEs", "Off", "1", "0", "_1", "__1__2__", "0x_1f",
            "0o17", "0b101", "017", "inf", "Infinity", "NaN", "n_a_n", "tRUE",
        ] {
            assert!(!bare(k), "{k}");
        }
        for k in [
            "1e10",
            "1E10",
            "1.5",
            "123456789012345678901234567890",
            "0x1p3",
            "0x1.8p-2",
            "2006-1-2",
            "2024-2-29",
        ] {
            assert!(!bare(k), "{k}");
        }
        // Go says no: not bool, an int needs digits, a hex float needs `p`.
        for k in ["0x", "0b", "nan1", "0x1.8", "0xp3"] {
            assert!(bare(k), "{k}");
        }
    }

    #[test]
    fn rule_2_words_in_every_case() {
        for word in ["null", "y", "yes", "on", "n", "no", "off", "true", "false"] {
            for mask in 0..1u32 << word.len() {
                let k: std::string::String = (word.chars().enumerate())
                    .map(|(i, c)| match mask >> i & 1 {
                        1 => c.to_ascii_uppercase(),
                        _ => c,
                    })
                    .collect();
                assert!(!bare(&k), "{k}");
            }
        }
    }

    #[test]
    fn rule_3_resolver_patterns() {
        for k in [
            "2025-02-30",
            "2006-13-01",
            "0x_",
            "0b_",
            "1e400",
            "0_7",
            "1_000",
            "1_0.5",
            "0o8_",
            "1.2e-3",
            // Not real dates, but eemeli/yaml 1.1 reads them as dates.
            "2023-2-29",
            "2006-1-32",
            // ruamel.yaml's YAML 1.2 allows `_`: an int, and an infinity.
            "0o_",
            "1_0e999",
            // eemeli/yaml 1.1 reads a float without mantissa (as NaN).
            "e5",
            "E-05",
            // saphyr reads a sign after the prefix (as a negative int).
            "0x-1F",
            "0o-17",
            // Past i64, which saphyr reads as text: the pattern quotes it
            // all the same, as it does `1e400`.
            "0x-8000000000000001",
        ] {
            assert_eq!(bare(k), k == "0o8_", "{k}");
        }
        // Range errors alone do not quote, and version strings stay bare.
        for k in [
            "1e101_000",
            "1.2.3",
            "10.0.0.1",
            "v1.2",
            "1.2.3-rc.1",
            "0x1p99999",
            "2024-02-300",
            "20240-1-1",
            "1e5x",
            "e_5",
            "_e5",
            "e5e",
            "ee5",
            "0x-g",
            "0o-8",
            "0x-_1",
            "0b-1",
        ] {
            assert!(bare(k), "{k}");
        }
    }

    #[test]
    fn escaped_keys_decode_first() {
        assert!(is_bare(&Text::new("a\\/b", Spelling::JsonEscaped, false)));
        assert!(!is_bare(&Text::new(
            "\\u0031",
            Spelling::JsonEscaped,
            false
        )));
        assert!(is_bare(&Text::new(
            "\\u00e9t\\u00e9",
            Spelling::JsonEscaped,
            false
        )));
        assert!(!is_bare(&Text::new("a\\nb", Spelling::JsonEscaped, true)));
    }
}
