//! Sixteen bytes per step with SSE2, which every x86_64 processor has: the
//! same searches as the word-at-a-time ones, for the long runs of string
//! text that dominate real documents.
//!
//! Each function is compiled with the `sse2` target feature, so the
//! intrinsics inside are safe calls; calling the function itself is
//! `unsafe` only because Rust asks the caller to promise the feature (see
//! the SAFETY comments in the parent module).

use core::arch::x86_64::{
    __m128i, _mm_cmpeq_epi8, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    _mm_set_epi64x,
};
#[cfg(feature = "alloc")]
use core::arch::x86_64::{
    _mm_add_epi8, _mm_and_si128, _mm_andnot_si128, _mm_cmplt_epi8, _mm_setzero_si128,
};

/// The 16 bytes of `s` at `i`, if there are 16.
#[inline]
#[target_feature(enable = "sse2")]
fn load(s: &[u8], i: usize) -> Option<__m128i> {
    let chunk = s.get(i..i + 16)?;
    let half = |b: &[u8]| {
        let mut word = [0; 8];
        word.copy_from_slice(b);
        i64::from_le_bytes(word)
    };
    // The compiler fuses the two halves into one unaligned load.
    Some(_mm_set_epi64x(half(&chunk[8..]), half(&chunk[..8])))
}

/// One bit per byte of `v`: `"`, `\` or a control byte (below 0x20).
#[inline]
#[target_feature(enable = "sse2")]
fn special(v: __m128i) -> u32 {
    let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
    let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
    // max(v, 0x1F) == 0x1F exactly when v <= 0x1F, unsigned.
    let limit = _mm_set1_epi8(0x1F);
    let control = _mm_cmpeq_epi8(_mm_max_epu8(v, limit), limit);
    _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control)) as u32
}

/// Scans whole 16-byte blocks of a string body from `from`: `Ok` with the
/// index of the first `"`, `\` or control byte and whether every byte before
/// it is printable ASCII, or `Err` with where fewer than 16 bytes are left
/// and whether every byte before that is printable ASCII.
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn string_special_printable(
    s: &[u8],
    from: usize,
) -> Result<(usize, bool), (usize, bool)> {
    let (mut i, mut wide) = (from, 0);
    while let Some(v) = load(s, i) {
        // The top bit is set for bytes >= 0x80; DEL compares equal to itself.
        let del = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F));
        let w = _mm_movemask_epi8(_mm_or_si128(v, del)) as u32;
        let hit = special(v);
        if hit != 0 {
            let below = (hit & hit.wrapping_neg()) - 1;
            return Ok((i + hit.trailing_zeros() as usize, wide | w & below == 0));
        }
        wide |= w;
        i += 16;
    }
    Err((i, wide == 0))
}

/// Like [`string_special_printable`], without the printable check.
#[target_feature(enable = "sse2")]
pub(super) fn string_special(s: &[u8], from: usize) -> Result<usize, usize> {
    let mut i = from;
    while let Some(v) = load(s, i) {
        let hit = special(v);
        if hit != 0 {
            return Ok(i + hit.trailing_zeros() as usize);
        }
        i += 16;
    }
    Err(i)
}

/// One bit per byte of `v` (the 16 bytes at some `i`; `next` is the 16 at
/// `i + 1`) that [`yaml_special`](super::yaml_special) stops at: a control
/// byte but tab, LF and CR; DEL; and the first byte of C2 80..9F (NEL and
/// the other C1 controls), of E2 80 (U+2000..U+203F, which holds U+2028 and
/// U+2029) and of EF BF (U+FFC0..U+FFFF, which holds U+FFFE and U+FFFF).
#[cfg(feature = "alloc")]
#[inline]
#[target_feature(enable = "sse2")]
fn yaml_special_bits(v: __m128i, next: __m128i) -> u32 {
    let eq = |v: __m128i, b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
    // max(v, 0x1F) == 0x1F exactly when v <= 0x1F, unsigned.
    let limit = _mm_set1_epi8(0x1F);
    let control = _mm_cmpeq_epi8(_mm_max_epu8(v, limit), limit);
    let white = _mm_or_si128(_mm_or_si128(eq(v, b'\t'), eq(v, b'\n')), eq(v, b'\r'));
    let ascii = _mm_or_si128(_mm_andnot_si128(white, control), eq(v, 0x7F));
    // Most text, CJK included, has no C2, E2 or EF lead (C2 | 0x20 is E2).
    let leads = _mm_or_si128(eq(_mm_or_si128(v, _mm_set1_epi8(0x20)), 0xE2), eq(v, 0xEF));
    if _mm_movemask_epi8(leads) == 0 {
        return _mm_movemask_epi8(ascii) as u32;
    }
    let c1_limit = _mm_set1_epi8(0x9Fu8 as i8);
    let c1 = _mm_and_si128(
        eq(v, 0xC2),
        _mm_cmpeq_epi8(_mm_max_epu8(next, c1_limit), c1_limit),
    );
    let breaks = _mm_and_si128(eq(v, 0xE2), eq(next, 0x80));
    let nonchars = _mm_and_si128(eq(v, 0xEF), eq(next, 0xBF));
    _mm_movemask_epi8(_mm_or_si128(
        _mm_or_si128(ascii, c1),
        _mm_or_si128(breaks, nonchars),
    )) as u32
}

/// A superset of [`yaml_special_bits`] that is cheap to test: any byte
/// below 0x20 but LF, or above 0x7E. One LF a line is the only control
/// byte most documents hold, so a block without one of these (most blocks
/// of most documents) is passed with five operations per 16 bytes.
#[cfg(feature = "alloc")]
#[inline]
#[target_feature(enable = "sse2")]
fn maybe_yaml_special(v: __m128i) -> __m128i {
    // v + 1 wraps 0x7F..=0xFF to 0x80..=0xFF and 0x00: with 0x00..=0x1F
    // (now 0x01..=0x20) exactly the bytes below 0x21 as signed.
    let outside = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8(1)), _mm_set1_epi8(0x21));
    _mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(b'\n' as i8)), outside)
}

/// The first 64-byte block at or after `i` that holds a byte
/// [`maybe_yaml_special`] flags, or where fewer than 64 bytes are left.
/// Not inlined: alone, its loop keeps every constant in a register.
#[cfg(feature = "alloc")]
#[inline(never)]
#[target_feature(enable = "sse2")]
fn skip_quiet_blocks(s: &[u8], mut i: usize) -> usize {
    // One bounds check a block: the four loads inside it need none.
    while let Some(block) = s.get(i..i + 64) {
        let rough = |k| load(block, k).map_or(_mm_setzero_si128(), |v| maybe_yaml_special(v));
        let any = _mm_or_si128(
            _mm_or_si128(rough(0), rough(16)),
            _mm_or_si128(rough(32), rough(48)),
        );
        if _mm_movemask_epi8(any) != 0 {
            break;
        }
        i += 64;
    }
    i
}

/// Scans `s` from `from` for the first byte
/// [`yaml_special`](super::yaml_special) looks for: `Ok` with its index, or
/// `Err` with where fewer than 17 bytes are left (each step looks at the
/// byte after its 16). Blocks of 64 bytes with nothing that
/// [`maybe_yaml_special`] flags are passed whole; the others are looked at
/// exactly, 16 bytes at a time.
#[cfg(feature = "alloc")]
#[target_feature(enable = "sse2")]
pub(super) fn yaml_special(s: &[u8], from: usize) -> Result<usize, usize> {
    let mut i = from;
    loop {
        i = skip_quiet_blocks(s, i);
        // Exactly, up to the next 64-byte block (or the end).
        for _ in 0..4 {
            let (Some(v), Some(next)) = (load(s, i), load(s, i + 1)) else {
                return Err(i);
            };
            let hit = yaml_special_bits(v, next);
            if hit != 0 {
                return Ok(i + hit.trailing_zeros() as usize);
            }
            i += 16;
        }
    }
}

/// Flags the bytes of `v` equal to `b`.
#[cfg(feature = "alloc")]
#[inline]
#[target_feature(enable = "sse2")]
fn eq(v: __m128i, b: u8) -> __m128i {
    _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8))
}

/// Scans whole 16-byte blocks from `from` for the first byte that may end
/// a YAML plain scalar's run ([`plain_stop_blocks`](super::plain_stop_blocks)): `Ok`
/// with its index, or `Err` with where fewer than 16 bytes are left.
#[cfg(feature = "alloc")]
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn plain_stop(s: &[u8], from: usize, flow: bool) -> Result<usize, usize> {
    let mut i = from;
    while let Some(v) = load(s, i) {
        let mut hit = _mm_or_si128(
            _mm_or_si128(eq(v, b':'), eq(v, b'#')),
            _mm_or_si128(eq(v, b'\n'), eq(v, b'\r')),
        );
        if flow {
            // `[` and `{`, `]` and `}` differ only in bit 0x20.
            let folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
            let brackets = _mm_or_si128(eq(folded, b'{'), eq(folded, b'}'));
            hit = _mm_or_si128(
                hit,
                _mm_or_si128(brackets, _mm_or_si128(eq(v, b','), eq(v, b'?'))),
            );
        }
        let bits = _mm_movemask_epi8(hit);
        if bits != 0 {
            return Ok(i + bits.trailing_zeros() as usize);
        }
        i += 16;
    }
    Err(i)
}

/// Scans whole 16-byte blocks from `from` for the first `<`
/// ([`less_than`](super::less_than)): `Ok` with its index, or `Err` with
/// where fewer than 16 bytes are left.
#[cfg(feature = "alloc")]
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn less_than(s: &[u8], from: usize) -> Result<usize, usize> {
    let mut i = from;
    while let Some(v) = load(s, i) {
        let hit = eq(v, b'<');
        let bits = _mm_movemask_epi8(hit);
        if bits != 0 {
            return Ok(i + bits.trailing_zeros() as usize);
        }
        i += 16;
    }
    Err(i)
}

/// How many of the 16 bytes at `i` are spaces before the first other byte
/// (16 if all are), if there are 16.
#[inline]
#[target_feature(enable = "sse2")]
pub(super) fn leading_spaces(s: &[u8], i: usize) -> Option<usize> {
    let spaces = _mm_movemask_epi8(_mm_cmpeq_epi8(load(s, i)?, _mm_set1_epi8(b' ' as i8)));
    // Bit 16 stops the count at 16.
    Some((!spaces as u32 | 1 << 16).trailing_zeros() as usize)
}
