//! The word diff of a changed line against its counterpart: which words
//! to highlight in colour.

use alloc::vec;
use alloc::vec::Vec;

use super::myers::{self, Budget, Interner, Span};

/// A word of a line (byte range) and whether it changed.
pub(super) type Word = (usize, usize, bool);

/// Splits both lines into words (runs of letters, digits and `_`; runs of
/// white space; any other character alone) and marks those not in the
/// common subsequence of the two.
pub(super) fn changed_words(old: &str, new: &str) -> (Vec<Word>, Vec<Word>) {
    let (wo, wn) = (words(old), words(new));
    let mut interner = Interner::with_capacity(wo.len() + wn.len());
    let io: Vec<u32> = wo.iter().map(|&(s, e)| interner.id(&old[s..e])).collect();
    let inn: Vec<u32> = wn.iter().map(|&(s, e)| interner.id(&new[s..e])).collect();
    let (mut del, mut ins) = (vec![false; io.len()], vec![false; inn.len()]);
    let span = Span {
        a0: 0,
        a1: io.len(),
        b0: 0,
        b1: inn.len(),
    };
    let mut budget = Budget(4096 + 64 * (io.len() + inn.len()) as u64);
    myers::diff(&io, &inn, &[span], &mut del, &mut ins, &mut budget);
    let mark = |w: Vec<(usize, usize)>, m: Vec<bool>| {
        w.into_iter().zip(m).map(|((s, e), c)| (s, e, c)).collect()
    };
    (mark(wo, del), mark(wn, ins))
}

/// The byte ranges of `line`'s words.
pub(super) fn words(line: &str) -> Vec<(usize, usize)> {
    let class = |c: char| {
        if c.is_alphanumeric() || c == '_' {
            1
        } else if c == ' ' || c == '\t' {
            2
        } else {
            0
        }
    };
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut last = 0;
    for (i, c) in line.char_indices() {
        let k = class(c);
        match out.last_mut() {
            Some(w) if k != 0 && k == last => w.1 = i + c.len_utf8(),
            _ => out.push((i, i + c.len_utf8())),
        }
        last = k;
    }
    out
}
