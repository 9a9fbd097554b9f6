//! Sixteen bytes per step with SSE2, which every x86_64 processor has: the
//! same searches as the word-at-a-time ones, for the long runs of string
//! text that dominate real documents.
//!
//! Each function is compiled with the `sse2` target feature, so the
//! intrinsics inside are safe calls; calling the function itself is
//! `unsafe` only because Rust asks the caller to promise the feature (see
//! the SAFETY comments in the parent module).

#[cfg(feature = "alloc")]
use core::arch::x86_64::_mm_andnot_si128;
use core::arch::x86_64::{
    __m128i, _mm_cmpeq_epi8, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    _mm_set_epi64x,
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

/// Scans whole 16-byte blocks from `from` for the first byte
/// [`yaml_special`](super::yaml_special) looks for: `Ok` with its index, or
/// `Err` with where fewer than 16 bytes are left.
#[cfg(feature = "alloc")]
#[target_feature(enable = "sse2")]
pub(super) fn yaml_special(s: &[u8], from: usize) -> Result<usize, usize> {
    let mut i = from;
    while let Some(v) = load(s, i) {
        // max(v, 0x1F) == 0x1F exactly when v <= 0x1F, unsigned.
        let limit = _mm_set1_epi8(0x1F);
        let control = _mm_cmpeq_epi8(_mm_max_epu8(v, limit), limit);
        let eq = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
        let white = _mm_or_si128(_mm_or_si128(eq(b'\t'), eq(b'\n')), eq(b'\r'));
        // Control bytes but white space; DEL; the top bit (non-ASCII).
        let mask = _mm_movemask_epi8(_mm_or_si128(_mm_andnot_si128(white, control), eq(0x7F)))
            as u32
            | _mm_movemask_epi8(v) as u32;
        if mask != 0 {
            return Ok(i + mask.trailing_zeros() as usize);
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
