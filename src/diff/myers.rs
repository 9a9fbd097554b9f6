//! The line diff: Myers' O((N+M)·D) algorithm in linear space, on
//! sequences of interned ids, with a deterministic cost budget.
//!
//! [`Interner`] turns lines (or words) into `u32` ids, equal text to equal
//! id, with an open-addressing table written here (`alloc` only, no std
//! `HashMap`). [`diff`] marks which elements of each side are not part of
//! the common subsequence it finds. It divides and conquers on the middle
//! snake of Myers' paper ("An O(ND) Difference Algorithm and Its
//! Variations", 1986, section 4b), with an explicit stack instead of
//! recursion, and trims each sub-problem's common prefix and suffix first.
//!
//! The [`Budget`] counts work (diagonals visited plus elements compared) and
//! never time, so the same inputs always give the same marks. While it lasts,
//! the marks are a minimal edit script; once a search runs out, it splits at
//! the furthest point either search reached, and every sub-problem left is
//! trimmed and then marked changed as a whole: valid, not minimal, and the
//! whole run stays within the budget plus time linear in the input.

use alloc::vec;
use alloc::vec::Vec;

/// Interns strings as dense `u32` ids: equal strings, equal ids; ids count
/// up from 0 in order of first appearance.
pub(crate) struct Interner<'a> {
    /// `0` is empty; otherwise the id plus one.
    slots: Vec<u32>,
    keys: Vec<&'a str>,
}

impl<'a> Interner<'a> {
    /// An interner that holds `n` distinct strings without growing.
    pub(crate) fn with_capacity(n: usize) -> Interner<'a> {
        Interner {
            slots: vec![0; (n.saturating_mul(2)).max(16).next_power_of_two()],
            keys: Vec::with_capacity(n),
        }
    }

    /// The id of `s`.
    pub(crate) fn id(&mut self, s: &'a str) -> u32 {
        if self.keys.len() * 2 >= self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = hash(s) as usize & mask;
        loop {
            match self.slots[i] {
                0 => {
                    self.keys.push(s);
                    let id = self.keys.len() as u32;
                    self.slots[i] = id;
                    return id - 1;
                }
                slot if self.keys.get(slot as usize - 1) == Some(&s) => return slot - 1,
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let mut slots = vec![0u32; size];
        for (id, key) in self.keys.iter().enumerate() {
            let mut i = hash(key) as usize & (size - 1);
            while slots[i] != 0 {
                i = (i + 1) & (size - 1);
            }
            slots[i] = id as u32 + 1;
        }
        self.slots = slots;
    }
}

/// A 64-bit multiplicative hash over eight bytes at a time. Only equality
/// of ids leaves the interner, so the output never depends on it.
fn hash(s: &str) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let bytes = s.as_bytes();
    let mut h = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    let mut word = [0u8; 8];
    let rest = chunks.remainder();
    word[..rest.len()].copy_from_slice(rest);
    h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    h ^ (h >> 29)
}

/// How much work [`diff`] may do: one unit per diagonal visited and per
/// pair of elements compared. Counted, never timed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget(pub(crate) u64);

impl Budget {
    /// The budget for lines: a fixed allowance plus 64 units per element
    /// of the two sides, so a diff costs at most a constant times its input.
    /// Two renderings that differ in a few thousand scattered places stay
    /// minimal; two unrelated files of 100,000 lines each run out.
    pub(crate) fn for_lines(elements: usize) -> Budget {
        Budget((1u64 << 20).saturating_add((elements as u64).saturating_mul(64)))
    }
}

/// One sub-problem: `a[a0..a1]` against `b[b0..b1]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span {
    pub(crate) a0: usize,
    pub(crate) a1: usize,
    pub(crate) b0: usize,
    pub(crate) b1: usize,
}

/// Marks in `del` the elements of `a`, and in `ins` those of `b`, that are
/// not in the common subsequence found, for each span of `spans` on its own
/// (elements outside every span stay as they are). The unmarked elements of
/// a span, in order, are equal pairwise. Deterministic; linear memory. The
/// work done is at most `budget`, and at most [`Budget::for_lines`] of the
/// elements that both sides hold.
pub(crate) fn diff(
    a: &[u32],
    b: &[u32],
    spans: &[Span],
    del: &mut [bool],
    ins: &mut [bool],
    budget: &mut Budget,
) {
    // An element that the other side never holds is in no common
    // subsequence: mark it now and diff the rest, which keeps the result
    // minimal and makes unrelated inputs much shorter (GNU diff does the
    // same). `held` has bit 1 for ids in `a`, bit 2 for ids in `b`.
    let ids = a.iter().chain(b).max().map_or(0, |&id| id as usize + 1);
    let mut held = vec![0u8; ids];
    a.iter().for_each(|&id| held[id as usize] |= 1);
    b.iter().for_each(|&id| held[id as usize] |= 2);
    let (mut kept_a, mut kept_b) = (Vec::new(), Vec::new());
    let mut kept_spans = Vec::with_capacity(spans.len());
    for s in spans {
        let (a0, b0) = (kept_a.len(), kept_b.len());
        kept_a.extend((s.a0..s.a1).filter(|&i| held[a[i] as usize] == 3));
        kept_b.extend((s.b0..s.b1).filter(|&j| held[b[j] as usize] == 3));
        del[s.a0..s.a1].iter_mut().for_each(|d| *d = true);
        ins[s.b0..s.b1].iter_mut().for_each(|i| *i = true);
        kept_spans.push(Span {
            a0,
            a1: kept_a.len(),
            b0,
            b1: kept_b.len(),
        });
    }
    let ids_a: Vec<u32> = kept_a.iter().map(|&i| a[i]).collect();
    let ids_b: Vec<u32> = kept_b.iter().map(|&j| b[j]).collect();
    let mut kept_del = vec![false; ids_a.len()];
    let mut kept_ins = vec![false; ids_b.len()];
    // The budget follows what is left to diff: unrelated inputs, most of
    // whose lines just went, get less.
    budget.0 = budget.0.min(Budget::for_lines(ids_a.len() + ids_b.len()).0);
    diff_kept(
        &ids_a,
        &ids_b,
        &kept_spans,
        &mut kept_del,
        &mut kept_ins,
        budget,
    );
    for (&i, &d) in kept_a.iter().zip(&kept_del) {
        del[i] = d;
    }
    for (&j, &d) in kept_b.iter().zip(&kept_ins) {
        ins[j] = d;
    }
}

/// [`diff`] on sequences whose every element the other side holds.
fn diff_kept(
    a: &[u32],
    b: &[u32],
    spans: &[Span],
    del: &mut [bool],
    ins: &mut [bool],
    budget: &mut Budget,
) {
    let largest = spans
        .iter()
        .map(|s| (s.a1 - s.a0) + (s.b1 - s.b0))
        .max()
        .unwrap_or(0);
    let mut fronts = Fronts::new(largest);
    let mut stack: Vec<Span> = spans.iter().rev().copied().collect();
    while let Some(Span {
        mut a0,
        mut a1,
        mut b0,
        mut b1,
    }) = stack.pop()
    {
        while a0 < a1 && b0 < b1 && a[a0] == b[b0] {
            a0 += 1;
            b0 += 1;
        }
        while a0 < a1 && b0 < b1 && a[a1 - 1] == b[b1 - 1] {
            a1 -= 1;
            b1 -= 1;
        }
        if a0 == a1 || b0 == b1 || budget.0 == 0 {
            del[a0..a1].iter_mut().for_each(|d| *d = true);
            ins[b0..b1].iter_mut().for_each(|i| *i = true);
            continue;
        }
        let (x, y) = fronts.middle_snake(&a[a0..a1], &b[b0..b1], budget);
        // The right half goes on the stack first, so the left is done first.
        stack.push(Span {
            a0: a0 + x,
            a1,
            b0: b0 + y,
            b1,
        });
        stack.push(Span {
            a0,
            a1: a0 + x,
            b0,
            b1: b0 + y,
        });
    }
}

/// The two searches' furthest-reaching `x` per diagonal, `-1` where not
/// reached; sized once for the largest span, reset after each search.
struct Fronts {
    forward: Vec<isize>,
    backward: Vec<isize>,
    /// Index of diagonal 0.
    center: isize,
}

impl Fronts {
    fn new(largest: usize) -> Fronts {
        let half = largest.div_ceil(2) as isize + 2;
        Fronts {
            forward: vec![-1; (2 * half + 1) as usize],
            backward: vec![-1; (2 * half + 1) as usize],
            center: half,
        }
    }

    fn get(v: &[isize], i: isize) -> isize {
        usize::try_from(i)
            .ok()
            .and_then(|i| v.get(i))
            .copied()
            .unwrap_or(-1)
    }

    fn set(v: &mut [isize], i: isize, x: isize) {
        if let Some(slot) = usize::try_from(i).ok().and_then(|i| v.get_mut(i)) {
            *slot = x;
        }
    }

    /// A point `(x, y)` on a shortest edit path of `a` against `b`, both
    /// non-empty, with first and last elements unequal; never `(0, 0)` nor
    /// `(a.len(), b.len())`. Past the budget: the furthest point a search
    /// reached, which splits the problem just as well, though not on a
    /// shortest path.
    fn middle_snake(&mut self, a: &[u32], b: &[u32], budget: &mut Budget) -> (usize, usize) {
        let (n, m) = (a.len() as isize, b.len() as isize);
        let delta = n - m;
        let odd = delta & 1 != 0;
        let c = self.center;
        let max_d = (n + m + 1) / 2;
        Self::set(&mut self.forward, c + 1, 0);
        Self::set(&mut self.backward, c + 1, 0);
        // Which diagonals ran off the grid, as in diff-match-patch's bisect.
        let (mut f_start, mut f_end, mut b_start, mut b_end) = (0, 0, 0, 0);
        let mut found = None;
        let mut best = (0isize, 0isize, 0isize); // (x + y, x, y) of the furthest point
        let mut d = 0;
        'search: while d <= max_d {
            let mut work: u64 = 0;
            let mut k = -d + f_start;
            while k <= d - f_end {
                let x = extend(&mut self.forward, c + k, k == -d, k == d, &mut work, |x| {
                    let y = x - k;
                    x < n && y < m && x >= 0 && y >= 0 && a[x as usize] == b[y as usize]
                });
                let y = x - k;
                if x > n {
                    f_end += 2;
                } else if y > m {
                    f_start += 2;
                } else {
                    if x + y > best.0 && x >= 0 && y >= 0 {
                        best = (x + y, x, y);
                    }
                    if odd {
                        let back = Self::get(&self.backward, c + delta - k);
                        if back != -1 && x >= n - back {
                            found = Some((x, y));
                            break 'search;
                        }
                    }
                }
                k += 2;
            }
            let mut k = -d + b_start;
            while k <= d - b_end {
                let x = extend(&mut self.backward, c + k, k == -d, k == d, &mut work, |x| {
                    let y = x - k;
                    x < n
                        && y < m
                        && x >= 0
                        && y >= 0
                        && a[(n - x - 1) as usize] == b[(m - y - 1) as usize]
                });
                let y = x - k;
                if x > n {
                    b_end += 2;
                } else if y > m {
                    b_start += 2;
                } else {
                    if (x + y) > best.0 && x >= 0 && y >= 0 {
                        best = (x + y, n - x, m - y);
                    }
                    if !odd {
                        let fx = Self::get(&self.forward, c + delta - k);
                        if fx != -1 && fx >= n - x {
                            found = Some((fx, fx - (delta - k)));
                            break 'search;
                        }
                    }
                }
                k += 2;
            }
            budget.0 = budget.0.saturating_sub(work);
            if budget.0 == 0 {
                break;
            }
            d += 1;
        }
        // Reset what this search touched: diagonals -d-1 ..= d+1.
        let reach = (d + 2).min(c);
        for i in (c - reach)..=(c + reach) {
            Self::set(&mut self.forward, i, -1);
            Self::set(&mut self.backward, i, -1);
        }
        let (x, y) = match found {
            Some(point) => point,
            None => (best.1, best.2),
        };
        // A split must leave two smaller problems. It does: with both ends
        // unequal, a shortest path has at least two edits, and the overlap
        // is found after at least one edit from each end. This keeps it so
        // whatever happens (and for the furthest-point split).
        let (x, y) = (x.clamp(0, n) as usize, y.clamp(0, m) as usize);
        if (x, y) == (0, 0) || (x, y) == (a.len(), b.len()) {
            (1.min(a.len()), 0)
        } else {
            (x, y)
        }
    }
}

/// One search's step on the diagonal at index `i` of `v`: one edit from the
/// neighbour that reached further (the one below at the round's lowest
/// diagonal, `low`; the one above at its highest, `high`), then along the
/// snake while `same(x)` says the next elements are equal. Stores and
/// returns the `x` reached, and counts the work.
fn extend(
    v: &mut [isize],
    i: isize,
    low: bool,
    high: bool,
    work: &mut u64,
    same: impl Fn(isize) -> bool,
) -> isize {
    let (below, above) = (Fronts::get(v, i - 1), Fronts::get(v, i + 1));
    // `max` in the middle: the same choice as `below < above`, without a
    // branch the processor would mispredict half the time.
    let mut x = if low {
        above
    } else if high {
        below + 1
    } else {
        above.max(below + 1)
    };
    while same(x) {
        x += 1;
        *work += 1;
    }
    *work += 1;
    Fronts::set(v, i, x);
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Marks for `a` against `b` with a budget that never runs out.
    fn marks(a: &[u32], b: &[u32]) -> (Vec<bool>, Vec<bool>) {
        let (mut del, mut ins) = (vec![false; a.len()], vec![false; b.len()]);
        let span = Span {
            a0: 0,
            a1: a.len(),
            b0: 0,
            b1: b.len(),
        };
        diff(a, b, &[span], &mut del, &mut ins, &mut Budget(u64::MAX));
        (del, ins)
    }

    /// The unmarked elements of each side, in order, must be the same
    /// sequence; returns the edit distance the marks claim.
    fn check_valid(a: &[u32], b: &[u32], del: &[bool], ins: &[bool]) -> usize {
        let kept_a: Vec<u32> = a.iter().zip(del).filter(|p| !*p.1).map(|p| *p.0).collect();
        let kept_b: Vec<u32> = b.iter().zip(ins).filter(|p| !*p.1).map(|p| *p.0).collect();
        assert_eq!(kept_a, kept_b, "a={a:?} b={b:?}");
        del.iter().filter(|d| **d).count() + ins.iter().filter(|i| **i).count()
    }

    /// The naive quadratic LCS: the oracle for the minimal edit distance.
    fn lcs(a: &[u32], b: &[u32]) -> usize {
        let mut row = vec![0usize; b.len() + 1];
        for &x in a {
            let mut diag = 0;
            for (j, &y) in b.iter().enumerate() {
                let up = row[j + 1];
                row[j + 1] = if x == y { diag + 1 } else { up.max(row[j]) };
                diag = up;
            }
        }
        row[b.len()]
    }

    /// A small deterministic generator (xorshift), so failures reproduce.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn seq(&mut self, max_len: u64, alphabet: u64) -> Vec<u32> {
            let len = self.next() % (max_len + 1);
            (0..len).map(|_| (self.next() % alphabet) as u32).collect()
        }
    }

    #[test]
    fn minimal_against_the_lcs_oracle_on_random_sequences() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for round in 0..20_000 {
            let alphabet = 1 + round % 6;
            let a = rng.seq(12, alphabet as u64);
            let b = if round % 3 == 0 {
                // A mutation of `a`: closer inputs, longer snakes.
                let mut b = a.clone();
                for _ in 0..rng.next() % 4 {
                    let at = (rng.next() as usize) % (b.len() + 1);
                    match rng.next() % 3 {
                        0 if at < b.len() => {
                            b.remove(at);
                        }
                        1 if at < b.len() => b[at] = (rng.next() % 7) as u32,
                        _ => b.insert(at, (rng.next() % 7) as u32),
                    }
                }
                b
            } else {
                rng.seq(12, alphabet as u64)
            };
            let (del, ins) = marks(&a, &b);
            let distance = check_valid(&a, &b, &del, &ins);
            assert_eq!(
                distance,
                a.len() + b.len() - 2 * lcs(&a, &b),
                "not minimal: a={a:?} b={b:?}"
            );
        }
    }

    #[test]
    fn spans_are_diffed_each_on_its_own() {
        // Two documents each: the `9` of the first may not pair with the second's.
        let a = [1, 9, 0, 2];
        let b = [1, 0, 9, 2];
        let spans = [
            Span {
                a0: 0,
                a1: 2,
                b0: 0,
                b1: 2,
            },
            Span {
                a0: 2,
                a1: 4,
                b0: 2,
                b1: 4,
            },
        ];
        let (mut del, mut ins) = (vec![false; 4], vec![false; 4]);
        diff(&a, &b, &spans, &mut del, &mut ins, &mut Budget(u64::MAX));
        // Together, `1 0 2` or `1 9 2` would be common (two edits); apart, four.
        assert_eq!(del, [false, true, true, false]);
        assert_eq!(ins, [false, true, true, false]);
    }

    #[test]
    fn a_spent_budget_still_gives_a_valid_script() {
        let mut rng = Rng(99);
        for budget in [0u64, 1, 5, 40, 300] {
            for _ in 0..500 {
                let a = rng.seq(40, 4);
                let b = rng.seq(40, 4);
                let (mut del, mut ins) = (vec![false; a.len()], vec![false; b.len()]);
                let span = Span {
                    a0: 0,
                    a1: a.len(),
                    b0: 0,
                    b1: b.len(),
                };
                diff(&a, &b, &[span], &mut del, &mut ins, &mut Budget(budget));
                check_valid(&a, &b, &del, &ins);
            }
        }
    }

    #[test]
    fn a_large_unrelated_pair_stays_within_its_budget() {
        // 20,000 lines each, nothing in common but a few ids: the budget
        // runs out, and the result is still a valid script.
        let mut rng = Rng(7);
        let a: Vec<u32> = (0..20_000).map(|_| (rng.next() % 50) as u32).collect();
        let b: Vec<u32> = (0..20_000).map(|_| (rng.next() % 50) as u32 + 25).collect();
        let (mut del, mut ins) = (vec![false; a.len()], vec![false; b.len()]);
        let span = Span {
            a0: 0,
            a1: a.len(),
            b0: 0,
            b1: b.len(),
        };
        let mut budget = Budget::for_lines(a.len() + b.len());
        diff(&a, &b, &[span], &mut del, &mut ins, &mut budget);
        check_valid(&a, &b, &del, &ins);
        assert_eq!(budget.0, 0, "this pair is meant to exhaust the budget");
    }

    #[test]
    fn interner_gives_equal_ids_to_equal_text_only() {
        let words: Vec<alloc::string::String> = (0..1000)
            .map(|i| alloc::format!("line {}", i % 300))
            .collect();
        let mut interner = Interner::with_capacity(4);
        let ids: Vec<u32> = words.iter().map(|w| interner.id(w)).collect();
        for (i, w) in words.iter().enumerate() {
            for (j, v) in words.iter().enumerate().step_by(37) {
                assert_eq!(ids[i] == ids[j], w == v);
            }
        }
        assert_eq!(ids[..3], [0, 1, 2]);
        assert_eq!(*ids.iter().max().unwrap(), 299);
    }
}
