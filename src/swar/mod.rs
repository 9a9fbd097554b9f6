//! Word-at-a-time ("SWAR") byte searches, eight bytes per step; on x86_64
//! the string searches go sixteen bytes per step with SSE2 first.
//!
//! Each search returns the index of the first byte that needs attention, or
//! the slice length. The bit tricks flag every byte that matches; borrows and
//! carries can also flag bytes *above* a match, never below one, so the lowest
//! flagged byte (`trailing_zeros` on a little-endian load) is exact.

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2;

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// Flags bytes of `w` equal to zero.
#[inline(always)]
const fn zero_bytes(w: u64) -> u64 {
    w.wrapping_sub(LO) & !w & HI
}

/// Flags bytes of `w` equal to `b`.
#[inline(always)]
const fn eq_bytes(w: u64, b: u8) -> u64 {
    zero_bytes(w ^ (LO * b as u64))
}

/// Flags bytes of `w` below 0x20 (the control bytes JSON strings may not hold).
#[inline(always)]
const fn control_bytes(w: u64) -> u64 {
    w.wrapping_sub(LO * 0x20) & !w & HI
}

/// Runs `flags` over `s` from `from` a word at a time, then byte by byte.
#[inline(always)]
fn find(s: &[u8], from: usize, flags: impl Fn(u64) -> u64, hit: impl Fn(u8) -> bool) -> usize {
    let mut i = from;
    while let Some(chunk) = s.get(i..i + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let f = flags(u64::from_le_bytes(word));
        if f != 0 {
            return i + (f.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < s.len() && !hit(s[i]) {
        i += 1;
    }
    i
}

/// The first `"`, `\` or control byte at or after `from` in a JSON string body.
#[inline]
pub(crate) fn string_special(s: &[u8], from: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[allow(unsafe_code)]
    // SAFETY: the function needs SSE2, which this cfg guarantees (it is
    // part of every x86_64 target's baseline); it touches memory only
    // through bounds-checked slices.
    let from = match unsafe { sse2::string_special(s, from) } {
        Ok(at) => return at,
        Err(rest) => rest,
    };
    find(
        s,
        from,
        |w| eq_bytes(w, b'"') | eq_bytes(w, b'\\') | control_bytes(w),
        |b| b == b'"' || b == b'\\' || b < 0x20,
    )
}

/// Like [`string_special`], and whether every byte before the one found is
/// printable ASCII: no DEL and no byte of a multi-byte character.
#[inline(always)]
pub(crate) fn string_special_printable(s: &[u8], from: usize) -> (usize, bool) {
    let start = from;
    // b + 1 sets the top bit exactly for 0x7F; bytes >= 0x80 have it already.
    let wide = |w: u64| (w.wrapping_add(LO) | w) & HI;
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[allow(unsafe_code)]
    // SAFETY: as in `string_special`.
    let (from, mut seen) = match unsafe { sse2::string_special_printable(s, from) } {
        Ok(found) => return found,
        Err((rest, printable)) => (rest, u64::from(!printable)),
    };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    let mut seen = 0;
    let mut i = from;
    while let Some(chunk) = s.get(i..i + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let special = eq_bytes(w, b'"') | eq_bytes(w, b'\\') | control_bytes(w);
        if special != 0 {
            // Only the bytes below the first special one count; a carry
            // from a wide byte flags bytes above it only.
            let below = (special & special.wrapping_neg()) - 1;
            let at = i + (special.trailing_zeros() / 8) as usize;
            return (at, seen | wide(w) & below == 0);
        }
        seen |= wide(w);
        i += 8;
    }
    printable_tail(s, start, i, seen)
}

/// The end of [`string_special_printable`]: fewer than 8 bytes left from
/// `i`, one word holds them all ([`tail_word`]). Out of line: the JSON
/// tokenizer's string loop (whose strings end inside the input, so it
/// never comes here but at the input's end) kept the straight-line code
/// inlined at +0.7% instructions on twitter and citm_catalog.
#[inline(never)]
fn printable_tail(s: &[u8], start: usize, i: usize, seen: u64) -> (usize, bool) {
    let wide = |w: u64| (w.wrapping_add(LO) | w) & HI;
    let Some((w, base)) = tail_word(s, start, i) else {
        return (i, seen == 0);
    };
    let special = eq_bytes(w, b'"') | eq_bytes(w, b'\\') | control_bytes(w);
    if special == 0 {
        return (s.len(), seen | wide(w) == 0);
    }
    let below = (special & special.wrapping_neg()) - 1;
    let at = base(special.trailing_zeros() as usize / 8);
    (at, seen | wide(w) & below == 0)
}

/// The bytes of `s` from `i` (fewer than eight, at least one) as one word,
/// for a search that found nothing in `s[from..i]`, and where byte `k` of
/// the word lies in `s`: the last eight bytes of `s` if they start at or
/// after `from` (the ones before `i` again, which flag nothing); else the
/// first four from `i` and the last four (overlapping, for four to seven
/// bytes); else (one to three) the first, the second (or the last) and
/// the last, then bytes `a`, which no search here flags. A flag from a
/// byte that lies twice is at its first place, so the lowest flagged byte
/// is the first match as a byte loop finds it. Straight-line code in place
/// of a loop of up to seven bytes: most YAML scalars and keys are short.
#[inline(always)]
fn tail_word(s: &[u8], from: usize, i: usize) -> Option<(u64, impl Fn(usize) -> usize)> {
    let len = s.len();
    let left = len.checked_sub(i).filter(|&n| n > 0)?;
    let four = |at: usize| {
        let mut word = [0; 4];
        word.copy_from_slice(&s[at..at + 4]);
        u64::from(u32::from_le_bytes(word))
    };
    // Byte k of the word is s[lo + k] for k < 4 (never past the last
    // byte), s[hi + k - 4] above.
    let (w, lo, hi) = if len >= from + 8 {
        (four(len - 8) | four(len - 4) << 32, len - 8, len - 4)
    } else if left >= 4 {
        (four(i) | four(len - 4) << 32, i, len - 4)
    } else {
        let b = |at: usize| u64::from(s[at.min(len - 1)]);
        let pad = (LO * u64::from(b'a')) & !0xFF_FFFF;
        (b(i) | b(i + 1) << 8 | b(i + 2) << 16 | pad, i, 0)
    };
    Some((w, move |k: usize| match k < 4 {
        true => (lo + k).min(len - 1),
        false => hi + (k - 4),
    }))
}

/// The first byte at or after `from` that is not an ASCII digit.
#[inline]
pub(crate) fn skip_digits(s: &[u8], from: usize) -> usize {
    // Above '9': adding 0x46 reaches the top bit. Below '0': subtracting
    // 0x30 borrows into it. Non-ASCII bytes have it already.
    let flags = |w: u64| (w.wrapping_add(LO * 0x46) | w.wrapping_sub(LO * 0x30) | w) & HI;
    find(s, from, flags, |c| !c.is_ascii_digit())
}

/// The first byte at or after `from` that may be JSON structure outside a
/// string: `"`, `,`, `[`, `]`, `{` or `}`, found as `b & 0xD9 == 0x59`,
/// which also holds for `Y`, `_`, `y` and DEL (none of which valid JSON has
/// outside strings).
#[inline]
pub(crate) fn maybe_structural(s: &[u8], from: usize) -> usize {
    let bracket = |w: u64| eq_bytes(w & (LO * 0xD9), 0x59);
    find(
        s,
        from,
        |w| bracket(w) | eq_bytes(w, b'"') | eq_bytes(w, b','),
        |b| b & 0xD9 == 0x59 || b == b'"' || b == b',',
    )
}

/// The first byte at or after `from` that is not printable ASCII when
/// already inside a decoded run: DEL (0x7F) or any non-ASCII byte.
#[inline]
pub(crate) fn not_printable_ascii(s: &[u8], from: usize) -> usize {
    // b + 1 sets the top bit exactly for 0x7F; bytes >= 0x80 have it already.
    find(s, from, |w| (w.wrapping_add(LO) | w) & HI, |b| b >= 0x7F)
}

/// The first byte at or after `from` that YAML text may not hold as it
/// is, or may hold only in some places: exactly, every control byte other
/// than tab, line feed and carriage return, and DEL; of multi-byte
/// characters, a superset of the first bytes of C1 controls (NEL among
/// them), U+2028, U+2029, U+FFFE and U+FFFF (the caller looks at the
/// character: most it stops at are printable). It never passes one of
/// these, so the caller needs no second look at what lies before.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn yaml_special(s: &[u8], from: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[allow(unsafe_code)]
    // SAFETY: as in `string_special`.
    let from = match unsafe { sse2::yaml_special(s, from) } {
        Ok(at) => return at,
        Err(rest) => rest,
    };
    // Each exact per byte: adding to the low seven bits never carries out.
    // Every byte above 0x7F stops it here (the superset the caller allows).
    let below_space = |w: u64| !((w & !HI) + LO * 0x60) & !w & HI;
    let eq = |w: u64, b: u8| {
        let x = w ^ (LO * b as u64);
        !(((x & !HI) + !HI) | x) & HI
    };
    find(
        s,
        from,
        |w| {
            (below_space(w) & !(eq(w, b'\t') | eq(w, b'\n') | eq(w, b'\r')))
                | eq(w, 0x7F)
                | (w & HI)
        },
        |b| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b >= 0x7F,
    )
}

/// The first `<` at or after `from`: what may start a merge key (`<<`).
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn less_than(s: &[u8], from: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[allow(unsafe_code)]
    // SAFETY: as in `string_special`.
    let from = match unsafe { sse2::less_than(s, from) } {
        Ok(at) => return at,
        Err(rest) => rest,
    };
    find(s, from, |w| eq_bytes(w, b'<'), |b| b == b'<')
}

/// Where a search for the first byte that may end a YAML plain scalar's
/// run (`:`, `#`, LF, CR, and with `flow` `,`, `[`, `]`, `{`, `}`, `?`) from
/// `from` goes on: `Ok` with that byte's index, found sixteen bytes a step
/// on x86_64, or `Err` with where the caller's word-at-a-time search takes
/// over (fewer than 16 bytes left; `from` elsewhere).
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn plain_stop_blocks(s: &[u8], from: usize, flow: bool) -> Result<usize, usize> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[allow(unsafe_code)]
    // SAFETY: as in `string_special`.
    let found = unsafe { sse2::plain_stop(s, from, flow) };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    let found = {
        // No block search off x86_64 (WebAssembly: web/wasm).
        let _ = (s, flow);
        Err(from)
    };
    found
}

/// Three words that, with its length, tell a byte string of up to 24 bytes
/// from every other exactly: bytes 0..8, 8..16 and the last eight, where
/// shorter strings fill their words by overlapping loads of four bytes or
/// single bytes. Fixed-size loads only, so no byte loop and no `memcmp`.
#[inline]
pub(crate) fn words(s: &[u8]) -> [u64; 3] {
    let n = s.len();
    let word = |b: &[u8]| {
        let mut w = [0; 8];
        w.copy_from_slice(&b[..8]);
        u64::from_le_bytes(w)
    };
    let half = |b: &[u8]| {
        let mut w = [0; 4];
        w.copy_from_slice(&b[..4]);
        u64::from(u32::from_le_bytes(w))
    };
    match n {
        0 => [0; 3],
        1..=3 => [
            u64::from(s[0]) | u64::from(s[n / 2]) << 8 | u64::from(s[n - 1]) << 16,
            0,
            0,
        ],
        4..=7 => [half(s) | half(&s[n - 4..]) << 32, 0, 0],
        8..=16 => [word(s), 0, word(&s[n - 8..])],
        _ => [word(s), word(&s[8..]), word(&s[n - 8..])],
    }
}

/// Like [`words`] for a byte string of 16 to 40 bytes: five words, those at
/// 0, 8 and 16 and the two that end 8 bytes before the end and at the end
/// (overlapping the others in shorter strings), tell it from every other
/// of its length.
#[inline]
pub(crate) fn long_words(s: &[u8]) -> [u64; 5] {
    // 0 for a word past the end, which only strings under 8 bytes have.
    let word = |at: usize| {
        let mut w = [0; 8];
        match s.get(at..at + 8) {
            Some(b) => w.copy_from_slice(b),
            None => return 0,
        }
        u64::from_le_bytes(w)
    };
    let n = s.len();
    [
        word(0),
        word(8.min(n.saturating_sub(8))),
        word(16.min(n.saturating_sub(8))),
        word(n.saturating_sub(16)),
        word(n.saturating_sub(8)),
    ]
}

/// The first byte at or after `from` that is not JSON white space. A run
/// of spaces (the indentation of pretty-printed JSON) goes sixteen bytes
/// per step with SSE2, else eight: the lowest set bit of the word XOR eight
/// spaces lies in the first byte that is not a space.
#[inline]
pub(crate) fn skip_white_space(s: &[u8], from: usize) -> usize {
    let mut i = from;
    loop {
        match s.get(i) {
            Some(b' ') => {
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                #[allow(unsafe_code)]
                // SAFETY: as in `string_special`.
                if let Some(n) = unsafe { sse2::leading_spaces(s, i) } {
                    i += n;
                    continue;
                }
                match s.get(i..i + 8) {
                    Some(chunk) => {
                        let mut word = [0; 8];
                        word.copy_from_slice(chunk);
                        let x = u64::from_le_bytes(word) ^ (LO * u64::from(b' '));
                        i += if x == 0 {
                            8
                        } else {
                            (x.trailing_zeros() / 8) as usize
                        };
                    }
                    None => i += 1,
                }
            }
            Some(b'\t' | b'\n' | b'\r') => i += 1,
            _ => return i,
        }
    }
}

/// `s` as a `str`, or where its UTF-8 breaks: `core::str::from_utf8`,
/// faster than `from_utf8` alone
/// on text that is mostly ASCII, as JSON is: blocks of 256 ASCII bytes are
/// passed over with an `or` of their words (which the compiler turns into
/// vector instructions), and only the runs of blocks that hold other bytes
/// go through `from_utf8`.
pub(crate) fn utf8(s: &[u8]) -> Result<&str, core::str::Utf8Error> {
    const BLOCK: usize = 256;
    let ascii = |block: &[u8]| {
        let words = block.chunks_exact(8);
        let any = words.fold(0, |acc, w| {
            acc | u64::from_le_bytes(w.try_into().unwrap_or([0; 8]))
        });
        any & HI == 0
    };
    // Where the run of blocks not yet checked starts, if one is open.
    let mut run = None;
    let mut i = 0;
    while let Some(block) = s.get(i..i + BLOCK) {
        match (ascii(block), run) {
            (true, Some(start)) => {
                if core::str::from_utf8(&s[start..i]).is_err() {
                    return core::str::from_utf8(s);
                }
                run = None;
            }
            (false, None) => run = Some(i),
            _ => {}
        }
        i += BLOCK;
    }
    if core::str::from_utf8(&s[run.unwrap_or(i)..]).is_err() {
        // Where it breaks, told of the whole.
        return core::str::from_utf8(s);
    }
    #[allow(unsafe_code)]
    // SAFETY: `s` is cut into pieces, each of which is ASCII (the blocks
    // passed over) or was found valid UTF-8 by `core::str::from_utf8`
    // (each run of other blocks, and the rest after the last block); text
    // made of valid UTF-8 pieces, one after the other, is valid UTF-8.
    Ok(unsafe { core::str::from_utf8_unchecked(s) })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `utf8` says what `core::str::from_utf8` says, for text of ASCII
    /// blocks and other ones, with a character or a broken one put
    /// across, inside and after the blocks' edges. Run under Miri too: the
    /// `str` it makes without checking is then read whole.
    #[test]
    fn utf8_agrees_with_the_standard_check() {
        let pieces: [&[u8]; 7] = [
            "é".as_bytes(),
            "日本".as_bytes(),
            "😀".as_bytes(),
            b"\xff",
            b"\xc3",
            b"\xe6\x97",
            b"\xed\xa0\x80",
        ];
        let len = if cfg!(miri) { 520 } else { 1100 };
        let step = if cfg!(miri) { 61 } else { 7 };
        for piece in pieces {
            for at in (0..len).step_by(step).chain([254, 255, 256, 510, 511, 512]) {
                for second in [None, Some(at + 300)] {
                    let mut text = std::vec![b'a'; len];
                    text.splice(at..at, piece.iter().copied());
                    if let Some(more) = second.filter(|&m| m < text.len()) {
                        text.splice(more..more, "ü".bytes());
                    }
                    let want = core::str::from_utf8(&text);
                    let got = utf8(&text);
                    assert_eq!(got, want, "{piece:?} at {at}");
                    if let Ok(got) = got {
                        assert_eq!(got.chars().count(), want.unwrap_or("").chars().count());
                    }
                }
            }
        }
        assert_eq!(utf8(b""), Ok(""));
    }

    /// Every byte value; under Miri (which checks the SSE2 path's memory
    /// accesses, slowly) the classes' edges only.
    fn bytes() -> std::vec::Vec<u8> {
        match cfg!(miri) {
            true => std::vec![0, 0x1F, 0x20, b'"', b'\\', b'a', 0x7E, 0x7F, 0x80, 0xFF],
            false => (0..=255).collect(),
        }
    }

    /// Calls `check(s, b, at)` for every prefix `s` of `base` (up to 40
    /// bytes: whole SSE2 blocks, then words, then single bytes) with byte
    /// `b` put at each position `at` in it (or nowhere, `at == len`).
    fn each_variant(base: [u8; 40], mut check: impl FnMut(&[u8], u8, usize)) {
        for len in 0..=base.len() {
            for at in 0..=len {
                for b in bytes() {
                    let mut s = base;
                    if at < len {
                        s[at] = b;
                    }
                    check(&s[..len], b, at);
                }
            }
        }
    }

    /// What `yaml_special` must find in `s`, by the definition: the first
    /// refused ASCII byte, or the first byte of C2 80..9F, E2 80 A8/A9 or
    /// EF BF BE/BF.
    fn yaml_special_oracle(s: &[u8]) -> usize {
        (0..s.len())
            .find(|&i| match s[i..] {
                [c, ..] if c < 0x80 => {
                    (c < 0x20 && !matches!(c, b'\t' | b'\n' | b'\r')) || c == 0x7F
                }
                [0xC2, 0x80..=0x9F, ..]
                | [0xE2, 0x80, 0xA8 | 0xA9, ..]
                | [0xEF, 0xBF, 0xBE | 0xBF, ..] => true,
                _ => false,
            })
            .unwrap_or(s.len())
    }

    /// `yaml_special(s, 0)` against the oracle: it may stop early, but only
    /// at a byte above 0x7F, and never after the oracle's byte.
    fn check_yaml_special(s: &[u8], what: &dyn core::fmt::Debug) {
        let (got, want) = (yaml_special(s, 0), yaml_special_oracle(s));
        assert!(got <= want, "{what:?}: passed {want} (stopped at {got})");
        assert!(
            got == want || s[got] >= 0x80,
            "{what:?}: stopped at {got}, ASCII {:#x}",
            s[got]
        );
    }

    /// Bases of white space and text long enough for the 64-byte blocks
    /// and their exact 16-byte tails, with every byte at every position
    /// (the flags must neither miss a byte next to a line feed nor flag
    /// one), and each two-byte start of a special character at every
    /// position (the next byte is read across a 16-byte step).
    #[test]
    fn yaml_special_every_position_and_every_byte() {
        let mut base = [b'a'; 150];
        for (i, b) in base.iter_mut().enumerate() {
            *b = b"a \n\t\r b  x: y\n"[i % 14];
        }
        let mut plain = base;
        plain
            .iter_mut()
            .for_each(|b| *b = if *b < 0x20 && *b != b'\n' { b' ' } else { *b });
        // Short ones with tabs and CRs (looked at exactly), long ones
        // without (passed by the 64-byte blocks until the byte put in).
        let short = (0..=40).map(|len| (len, base));
        let long = [63, 64, 65, 66, 80, 81, 128, 129, 130, 150].map(|len| (len, plain));
        for (len, base) in short.chain(long) {
            for at in 0..len {
                for b in bytes() {
                    let mut s = base;
                    s[at] = b;
                    check_yaml_special(&s[..len], &(b, at, len));
                }
                for pair in [
                    [0xC2, 0x80],
                    [0xC2, 0x85],
                    [0xC2, 0x9F],
                    [0xC2, 0xA0],
                    [0xE2, 0x80],
                    [0xE2, 0x81],
                    [0xEF, 0xBF],
                    [0xEF, 0xBE],
                ] {
                    for third in [0x80, 0xA8, 0xA9, 0xAA, 0xBD, 0xBE, 0xBF] {
                        let mut s = base;
                        for (k, &c) in pair.iter().chain([&third]).enumerate() {
                            if let Some(slot) = s.get_mut(at + k) {
                                *slot = c;
                            }
                        }
                        check_yaml_special(&s[..len], &(pair, third, at, len));
                    }
                }
            }
        }
    }

    /// A stop for every special character: the oracle's position exactly
    /// where the character stands alone in ASCII text.
    #[test]
    fn yaml_special_stops_at_each_special_character() {
        for c in [
            '\u{85}', '\u{80}', '\u{9F}', '\u{2028}', '\u{2029}', '\u{FFFE}', '\u{FFFF}',
        ] {
            for at in 0..100 {
                let mut s = std::string::String::from("key: value\n").repeat(10);
                s.truncate(at);
                s.push(c);
                s.push_str(&"text ".repeat(20));
                assert_eq!(yaml_special(s.as_bytes(), 0), at, "{c:?} at {at}");
            }
        }
    }

    #[test]
    fn every_position_and_every_byte() {
        each_variant([b'a'; 40], |s, b, at| {
            let len = s.len();
            let want = s.iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20);
            assert_eq!(string_special(s, 0), want.unwrap_or(len), "{b:#x} at {at}");
            let want = s.iter().position(|&c| b"\",[]{}Y_y\x7f".contains(&c));
            assert_eq!(
                maybe_structural(s, 0),
                want.unwrap_or(len),
                "{b:#x} at {at}"
            );
            let special = string_special(s, 0);
            let printable = s[..special].iter().all(|&c| c < 0x7F);
            let found = string_special_printable(s, 0);
            assert_eq!(found, (special, printable), "{b:#x} at {at}");
            let want = s.iter().position(|&c| c >= 0x7F);
            assert_eq!(
                not_printable_ascii(s, 0),
                want.unwrap_or(len),
                "{b:#x} at {at}"
            );
        });
    }

    #[test]
    fn printable_counts_only_bytes_before_the_special_one() {
        let lens = if cfg!(miri) { 30..34 } else { 1..40 };
        for len in lens {
            for wide_at in 0..len {
                for special_at in 0..len {
                    for (wide, special) in [(0xC3, b'"'), (0x7F, b'\\'), (0xFF, 0x1F)] {
                        let mut s = [b'a'; 40];
                        s[wide_at] = wide;
                        s[special_at] = special;
                        let s = &s[..len];
                        let found = string_special_printable(s, 0);
                        let want = (special_at, wide_at >= special_at);
                        assert_eq!(found, want, "{s:?}");
                    }
                }
            }
        }
    }

    /// From any start: a special or wide byte before `from` is not looked
    /// at (the short tail's word reaches back only over bytes from `from`).
    #[test]
    fn printable_from_any_start_ignores_the_bytes_before_it() {
        let lens = if cfg!(miri) { 14..18usize } else { 1..34 };
        for len in lens {
            for from in 0..=len {
                for special_at in from..=len {
                    for wide_at in [None, Some(from), Some(len.saturating_sub(1))] {
                        // Every byte before `from` is special and wide.
                        let mut s = [b'a'; 40];
                        s[..from].fill(b'"');
                        if from > 1 {
                            s[from - 1] = 0xC3;
                        }
                        if let Some(w) = wide_at.filter(|&w| w < len && w >= from) {
                            s[w] = 0xC3;
                        }
                        if special_at < len {
                            s[special_at] = b'\\';
                        }
                        let s = &s[..len];
                        let at = (from..len).find(|&k| s[k] == b'\\').unwrap_or(len);
                        let printable = s[from..at].iter().all(|&c| c < 0x7F);
                        let found = string_special_printable(s, from);
                        assert_eq!(found, (at, printable), "{s:?} from {from}");
                    }
                }
            }
        }
    }

    #[test]
    fn words_tell_short_strings_apart() {
        // Strings over a small alphabet, grouped by length: no two of up to
        // 24 bytes may share their three words, nor two of 16 to 40 bytes
        // their five (one map: three words never equal five).
        let mut seen = std::collections::HashMap::new();
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for len in 0..=40 {
            for i in 0..if cfg!(miri) { 20 } else { 3000 } {
                let mut s: std::vec::Vec<u8> = (0..len)
                    .map(|_| {
                        rng ^= rng << 13;
                        rng ^= rng >> 7;
                        rng ^= rng << 17;
                        b"ab\x00\xff"[(rng % 4) as usize]
                    })
                    .collect();
                // Also every string that differs from `aaa…` in one byte, so
                // that a byte no word covers cannot hide among random ones.
                if i <= len {
                    s = std::vec![b'a'; len];
                    if let Some(b) = s.get_mut(i) {
                        *b = b'b';
                    }
                }
                let short = (len <= 24).then(|| words(&s).to_vec());
                let long = (len >= 16).then(|| long_words(&s).to_vec());
                for words in short.into_iter().chain(long) {
                    if let Some(other) = seen.insert((len, words), s.clone()) {
                        assert_eq!(other, s);
                    }
                }
            }
        }
    }

    #[test]
    fn white_space_every_position_and_every_byte() {
        let mut base = [b' '; 40];
        for (at, c) in [(1, b'\n'), (7, b'\t'), (13, b'\r'), (30, b'\n')] {
            base[at] = c;
        }
        each_variant(base, |s, b, at| {
            let want = s.iter().position(|c| !b" \t\n\r".contains(c));
            assert_eq!(
                skip_white_space(s, 0),
                want.unwrap_or(s.len()),
                "{b:#x} at {at}"
            );
        });
    }

    #[test]
    fn white_space_runs() {
        assert_eq!(skip_white_space(b"", 0), 0);
        assert_eq!(skip_white_space(b"x", 0), 0);
        assert_eq!(skip_white_space(b" \t\r\n x", 0), 5);
        for n in 0..40 {
            let mut s = [b' '; 41];
            s[n] = b'{';
            assert_eq!(skip_white_space(&s, 0), n);
            assert_eq!(skip_white_space(&s[..n], 0), n);
        }
    }

    #[test]
    fn a_match_hides_no_earlier_match() {
        // 0x00 then 0x01 borrows into the next byte; the first flag is exact.
        assert_eq!(string_special(b"ab\x00\x01cdefgh", 0), 2);
        assert_eq!(not_printable_ascii(b"ab\xff\x7ecdefgh", 0), 2);
        assert_eq!(not_printable_ascii(b"abc\x7fdefgh", 1), 3);
        // A wide byte counts below the first special byte, never above.
        assert_eq!(string_special_printable(b"a\xff\"cdefgh", 0), (2, false));
        assert_eq!(string_special_printable(b"ab\"\xff\x7edefgh", 0), (2, true));
        assert_eq!(string_special_printable(b"abcdefgh\x7f\\x", 0), (9, false));
        assert_eq!(string_special_printable(b"abcdefgh\\\x7fx", 0), (8, true));
    }
}
