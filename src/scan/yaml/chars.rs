//! Bytes of YAML syntax: which bytes end a token or a plain scalar, which
//! characters go-yaml refuses, and the word-at-a-time searches (for a line's
//! end, the next of three bytes, the first byte that is not a space) and
//! one-line lookaheads that the scanner and the scalar decoder share. Plain
//! functions of a byte slice: no scanner state.

use crate::scan::utf8_len;

/// Whether `b` ends a token: white space, a line break, the input's end,
/// or in flow context a flow indicator.
#[inline]
pub(super) fn ends_token(b: Option<&u8>, flow: bool) -> bool {
    is_blank_or_end(b) || (flow && b.is_some_and(|&c| is_flow_indicator(c)))
}

#[inline]
pub(super) fn is_blank_or_end(b: Option<&u8>) -> bool {
    matches!(b, None | Some(b' ' | b'\t' | b'\n' | b'\r'))
}

#[inline]
pub(super) fn is_flow_indicator(b: u8) -> bool {
    matches!(b, b',' | b'[' | b']' | b'{' | b'}')
}

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// Flags bytes of `w` equal to `b` (see `crate::swar`).
#[inline(always)]
fn eq_bytes(w: u64, b: u8) -> u64 {
    let x = w ^ (LO * b as u64);
    x.wrapping_sub(LO) & !x & HI
}

/// The first byte at or after `from` that may end a plain scalar's run:
/// `:`, `#`, a line break, and in flow context a flow indicator, or `len`.
#[inline]
pub(super) fn plain_stop(s: &[u8], from: usize, flow: bool) -> usize {
    let mut i = match crate::swar::plain_stop_blocks(s, from, flow) {
        Ok(at) => return at,
        Err(rest) => rest,
    };
    while let Some(chunk) = s.get(i..i + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let mut f = eq_bytes(w, b':') | eq_bytes(w, b'#') | eq_bytes(w, b'\n') | eq_bytes(w, b'\r');
        if flow {
            // `[`, `]`, `{`, `}` are 0x5B, 0x5D, 0x7B, 0x7D: `b & 0xD9 == 0x59`
            // also holds for `Y`, `_`, `y`, DEL, which the exact check skips.
            f |= eq_bytes(w & (LO * 0xD9), 0x59) | eq_bytes(w, b',') | eq_bytes(w, b'?');
        }
        if f != 0 {
            let at = i + (f.trailing_zeros() / 8) as usize;
            if is_plain_stop(s[at], flow) {
                return at;
            }
            i = at + 1;
            continue;
        }
        i += 8;
    }
    while i < s.len() && !is_plain_stop(s[i], flow) {
        i += 1;
    }
    i
}

/// go-yaml ends a plain scalar in a flow collection at `?` too.
fn is_plain_stop(b: u8, flow: bool) -> bool {
    matches!(b, b':' | b'#' | b'\n' | b'\r') || (flow && (is_flow_indicator(b) || b == b'?'))
}

/// The first character of `s` that go-yaml's reader refuses (a control
/// character other than tab, LF and CR; DEL; C1 controls but NEL; U+FFFE,
/// U+FFFF), and where the first NEL, U+2028 or U+2029 before it is.
pub(super) fn refused_character(s: &[u8]) -> (Option<usize>, usize) {
    let mut odd = usize::MAX;
    let mut i = 0;
    loop {
        i = crate::swar::yaml_special(s, i);
        let Some(&b) = s.get(i) else {
            return (None, odd);
        };
        if b < 0x80 {
            return (Some(i), odd);
        }
        let len = utf8_len(b).unwrap_or(1);
        if line_break_at(s, i).is_some() {
            // NEL, U+2028, U+2029: the only line breaks at or above 0x80.
            odd = odd.min(i);
        } else if matches!(
            s.get(i..i + len),
            Some([0xC2, 0x80..=0x9F] | [0xEF, 0xBF, 0xBE | 0xBF])
        ) {
            return (Some(i), odd);
        }
        i += len;
    }
}

/// The line break at `i` as go-yaml reads it: its length, and the
/// character it stands for in a block scalar. LF, CR LF, a lone CR and NEL
/// are a line feed; U+2028 and U+2029 stay themselves (YAML 1.2 reads NEL,
/// U+2028 and U+2029 as text). The one list of go-yaml's line breaks.
#[inline]
pub(super) fn line_break_at(b: &[u8], i: usize) -> Option<(usize, char)> {
    match b.get(i..)? {
        [b'\r', b'\n', ..] => Some((2, '\n')),
        [b'\n' | b'\r', ..] => Some((1, '\n')),
        [0xC2, 0x85, ..] => Some((2, '\n')),
        [0xE2, 0x80, 0xA8, ..] => Some((3, '\u{2028}')),
        [0xE2, 0x80, 0xA9, ..] => Some((3, '\u{2029}')),
        _ => None,
    }
}

/// A block scalar's line from `from`: where its text ends, where the next
/// line starts, and its line break as [`line_break_at`] reads it (none at
/// the input's end). NEL, U+2028 and U+2029 are looked for only with
/// `odd_breaks` (the input holds one); else only LF and CR.
pub(super) fn block_line(b: &[u8], from: usize, odd_breaks: bool) -> (usize, usize, Option<char>) {
    // Without `odd_breaks`, the search stops only at LF, CR or the end.
    let mut i = if odd_breaks {
        from
    } else {
        next_of(b, from, b'\n', b'\r', b'\r')
    };
    while i < b.len() {
        if let Some((len, brk)) = line_break_at(b, i) {
            return (i, i + len, Some(brk));
        }
        i += 1;
    }
    (i, i, None)
}

/// How many characters `s` holds (UTF-8 lead bytes).
#[inline]
pub(super) fn char_count(s: &[u8]) -> usize {
    s.iter().filter(|&&c| c & 0xC0 != 0x80).count()
}

#[inline]
pub(super) fn is_uri_char(c: u8) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            b'-' | b'#'
                | b';'
                | b'/'
                | b'?'
                | b':'
                | b'@'
                | b'&'
                | b'='
                | b'+'
                | b'$'
                | b'_'
                | b'.'
                | b'~'
                | b'*'
                | b'\''
                | b'('
                | b')'
                | b'%'
        )
        || c >= 0x80
}

/// The first byte at or after `from` that is not a space (indentation
/// goes eight bytes a step: the lowest set bit of the word XOR eight spaces
/// lies in the first byte that is not a space).
#[inline]
pub(super) fn skip_spaces(s: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(chunk) = s.get(i..i + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word) ^ (LO * u64::from(b' '));
        if x != 0 {
            return i + (x.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while s.get(i) == Some(&b' ') {
        i += 1;
    }
    i
}

/// The first of three bytes at or after `from`.
#[inline]
pub(super) fn next_of(s: &[u8], from: usize, a: u8, b: u8, c: u8) -> usize {
    let mut i = from;
    while let Some(chunk) = s.get(i..i + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let f = eq_bytes(w, a) | eq_bytes(w, b) | eq_bytes(w, c);
        if f != 0 {
            return i + (f.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < s.len() && s[i] != a && s[i] != b && s[i] != c {
        i += 1;
    }
    i
}

/// Lookahead: the end (past the closing quote) of a one-line quoted scalar
/// opening at `at`, or `None` if it does not close on its line.
#[inline]
pub(super) fn quoted_end(b: &[u8], at: usize, double: bool) -> Option<usize> {
    let mut i = at + 1;
    loop {
        i = next_of(
            b,
            i,
            if double { b'"' } else { b'\'' },
            if double { b'\\' } else { b'\n' },
            b'\n',
        );
        match b.get(i)? {
            b'\n' => return None,
            b'\\' => i += 2,
            b'\'' if b.get(i + 1) == Some(&b'\'') => i += 2,
            _ => return Some(i + 1),
        }
    }
}

/// Lookahead: the end (past the closing bracket) of a one-line flow
/// collection opening at `at`, or `None`.
#[inline]
pub(super) fn flow_end(b: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = at;
    loop {
        match *b.get(i)? {
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            q @ (b'"' | b'\'')
                if i == at || matches!(b[i - 1], b' ' | b'\t' | b',' | b'[' | b'{' | b':') =>
            {
                i = quoted_end(b, i, q == b'"')?;
                continue;
            }
            b'#' if matches!(b[i - 1], b' ' | b'\t') => return None,
            b'\n' | b'\r' => return None,
            _ => {}
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle: [`is_plain_stop`] byte by byte.
    fn plain_stop_oracle(s: &[u8], from: usize, flow: bool) -> usize {
        (from..s.len())
            .find(|&i| is_plain_stop(s[i], flow))
            .unwrap_or(s.len())
    }

    /// `plain_stop` (16-byte blocks, then words, then bytes) against the
    /// oracle: every byte value at every position of every length up to 40
    /// from several starts, in block and flow context. Under Miri (which
    /// checks the SSE2 path's memory accesses: `cargo +nightly miri test
    /// --lib swar`) the stops and their neighbours only, at lengths either
    /// side of the 16-byte blocks.
    #[test]
    fn plain_stop_swar_and_sse2_every_position_and_every_byte() {
        let bytes: std::vec::Vec<u8> = match cfg!(miri) {
            true => b"\n\r #:,?[]{}Z\\|^~\x7f\x80\xff".to_vec(),
            false => (0..=255).collect(),
        };
        let base = *b"abc de_fYy~.-/ghijklmnopqrstuvwxyz012345";
        let lens: std::vec::Vec<usize> = match cfg!(miri) {
            true => std::vec![15, 16, 17, 33],
            false => (0..=base.len()).collect(),
        };
        for len in lens {
            for at in 0..=len {
                for &b in &bytes {
                    let mut s = base;
                    if at < len {
                        s[at] = b;
                    }
                    let s = &s[..len];
                    for from in [0, 1, 8, 17].into_iter().filter(|&f| f <= len) {
                        for flow in [false, true] {
                            assert_eq!(
                                plain_stop(s, from, flow),
                                plain_stop_oracle(s, from, flow),
                                "{b:#x} at {at} of {len} from {from}, flow {flow}"
                            );
                        }
                    }
                }
            }
        }
    }
}
