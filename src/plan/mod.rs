//! The first pass over a document: prove it valid before anything is written,
//! and decide what the writing pass cannot see coming. Owns the list
//! verdicts, their numbering and the duplicate-key check; reads the input
//! only through a [`Source`], never its bytes.
//!
//! KYAML cuddles a list (`[{`...`}, {`...`}]`) only if *every* element is a
//! container, a fact that lies after the list's start. Asking it at every
//! list would rescan nested lists once per level (`[[[[...]]]]` is
//! quadratic), so this pass, which reads every event anyway, records one
//! verdict bit per list in document order, and the writing pass reads them
//! back in the same order. Only lists whose first element is a container
//! are numbered ([`ListNumbers`], the one place of that rule): the others
//! (empty, or starting with a scalar) are not cuddled, as the source sees
//! at their start in every pass.
//! When the store is full (only the fixed, no-alloc store can be), the lists
//! past it get their verdicts from a lookahead from the first list not
//! covered ([`Source::skim_list`], taken in by `Skim`), which fills the
//! window again: each lookahead covers a full window of lists, so rescanning
//! stays bounded. A writing pass with no checking pass before it
//! (`to_string`) bets on each list's first element instead, and skims a list
//! only when it loses that bet (see `encode.rs`): the skim covers the list
//! with everything inside it.
//!
//! The same pass (or the writing pass, when it checks) finds duplicate
//! keys: each open map's keys are noted in the store (a hash of the decoded
//! text, and where the key starts, from which the source reads it again
//! when hashes collide), and at the map's end they are compared: pairwise
//! for small maps, through a fixed 128-slot table on the stack for maps of
//! up to 64 keys, else sorted by hash and, where hashes collide, by decoded
//! text, so equal keys end up side by side: `O(n log n)` for `n` keys
//! however the hashes collide. The fixed store holds 512 keys of open maps
//! (`store::FIXED_KEYS`); keys past that are not checked.

mod store;

#[cfg(feature = "alloc")]
pub(crate) use store::Growing;
pub(crate) use store::{Fixed, FixedRoom, KeySeen, Store};

use crate::error::Fault;
use crate::options::MAX_DEPTH;
use crate::scan::{AsText, Event, KeyId, Shapes, Source};
use crate::tiered::{FullRoom, Tiered};

/// A frame's high bit: the container is a list (else a map).
const LIST: u32 = 1 << 31;

/// Numbers the lists of a document for their verdicts, in document order:
/// the one place of the rule that only a list whose first element is a
/// container gets a number (and so a verdict). A list that is empty or
/// starts with a scalar is not cuddled, which every pass sees at its start,
/// so most lists (a coordinate pair, a list of names) need no verdict and
/// take no room.
#[derive(Clone, Copy, Default)]
pub(crate) struct ListNumbers {
    next: usize,
}

impl ListNumbers {
    /// The numbers go on from `next`.
    pub(crate) fn from(next: usize) -> ListNumbers {
        ListNumbers { next }
    }

    /// The number of the list just opened, if it gets one.
    #[inline(always)]
    pub(crate) fn number(&mut self, starts_with_container: bool) -> Option<usize> {
        let n = self.next;
        self.next += usize::from(starts_with_container);
        starts_with_container.then_some(n)
    }
}

/// Verdicts for a window of lists, and the store behind them.
pub(crate) struct Plan<'r, S> {
    store: S,
    /// The number of the first list the window covers (lists are numbered
    /// in document order from 0), and how many lists it covers.
    base: usize,
    covered: usize,
    /// Per open container: its list number (with the `LIST` bit) or the
    /// index of its first key in the store. Kept here, not on the stack of
    /// each scan, so short documents do not pay to clear it every time.
    frames: Tiered<'r, u32, 64, MAX_DEPTH>,
}

/// Where a [`Plan`]'s frames for deep documents go, if one needs them.
pub(crate) type PlanRoom = FullRoom<u32, MAX_DEPTH>;

impl<'r, S: Store> Plan<'r, S> {
    pub(crate) fn new(store: S, room: &'r mut PlanRoom) -> Plan<'r, S> {
        Plan {
            store,
            base: 0,
            covered: 0,
            frames: Tiered::new(0, room),
        }
    }

    /// Reads one document to its end, checking it completely, and keeps the
    /// verdicts of its lists (unless `verdicts` is false: compact output
    /// does not need them).
    pub(crate) fn check<'a>(
        &mut self,
        src: &mut impl Source<'a>,
        verdicts: bool,
    ) -> Result<(), Fault> {
        let (mut depth, mut lists) = (0usize, ListNumbers::default());
        // The frame of the innermost open container, read by every scalar.
        let mut parent = None;
        (self.base, self.covered) = (0, 0);
        while let Some(event) = src.next_event()? {
            match event {
                Event::MapStart => {
                    self.open_map(depth);
                    parent = Some(self.frames.get(depth));
                    depth += 1;
                    continue;
                }
                Event::ListStart => {
                    let n = match verdicts {
                        true => lists.number(src.list_starts_with_container()),
                        false => None,
                    };
                    self.open_list(depth, n);
                    parent = Some(self.frames.get(depth));
                    depth += 1;
                    continue;
                }
                Event::ListEnd => {
                    depth -= 1;
                    parent = depth.checked_sub(1).map(|d| self.frames.get(d));
                }
                Event::MapEnd => {
                    depth -= 1;
                    self.close_map(depth, src)?;
                    parent = depth.checked_sub(1).map(|d| self.frames.get(d));
                }
                Event::Key(text) => self.push_key(&KeyId::of(&text), src.token_start()),
                // A comment or blank line directly in a list uncuddles it
                // (SPEC-YAML.md §3), as a scalar element does.
                Event::Str(_)
                | Event::Number { .. }
                | Event::Bool(_)
                | Event::Null
                | Event::Trivia(_) => {
                    if let Some(frame) = parent.filter(|f| f & LIST != 0) {
                        self.set_verdict((frame & !LIST) as usize, false);
                    }
                }
            }
        }
        Ok(())
    }

    /// Drops the verdicts kept, so every list of the next document is
    /// decided by a skim (for a writing pass with no checking pass).
    pub(crate) fn forget_verdicts(&mut self) {
        (self.base, self.covered) = (0, 0);
    }

    /// Whether list number `n`, which `src` has just opened, is cuddled
    /// (all its elements are containers): from the verdicts kept, or else
    /// from a skim of the list, whose verdicts then replace the window.
    /// Only lists whose first element is a container are numbered (see
    /// [`ListNumbers`]).
    pub(crate) fn verdict_or_skim<'a>(&mut self, n: usize, src: &impl Source<'a>) -> bool {
        self.verdict_or(n, |skim| src.skim_list(skim))
    }

    /// [`Plan::verdict_or_skim`] for list number `n` of a lost bet: `src`
    /// goes back to `mark`, saved just after the list's start, and the
    /// skim is [`Source::rewind_and_skim`]'s (which may keep what it reads
    /// for the writing that follows).
    pub(crate) fn verdict_after_rewind<'a, Src: Source<'a>>(
        &mut self,
        n: usize,
        src: &mut Src,
        mark: Src,
    ) -> bool {
        let mut mark = Some(mark);
        let verdict = self.verdict_or(n, |skim| {
            if let Some(mark) = mark.take() {
                src.rewind_and_skim(mark, skim);
            }
        });
        if let Some(mark) = mark {
            // Decided without a skim: only the going back.
            *src = mark;
        }
        verdict
    }

    /// The verdict of list number `n`, kept or found by `skim`, whose
    /// verdicts then replace the window.
    #[inline(always)]
    fn verdict_or(&mut self, n: usize, skim: impl FnOnce(&mut Skim<'_, 'r, S>)) -> bool {
        if !(self.base..self.base + self.covered).contains(&n) {
            // The list's own frame sits below the frames of the maps that
            // enclose it, which a writing pass may be keeping.
            (self.base, self.covered) = (n, 0);
            skim(&mut Skim {
                plan: self,
                lists: ListNumbers::default(),
            });
        }
        let i = n - self.base;
        self.store.verdicts_mut()[i / 64] >> (i % 64) & 1 == 1
    }

    /// Opens a list in `frames[depth]`: if it is list number `n` (of the
    /// window) and the store has room for its verdict, that starts as
    /// cuddled; else its scalars set nothing.
    fn open_list(&mut self, depth: usize, n: Option<usize>) {
        let kept = n.filter(|&n| self.store.reserve_verdicts(n + 1));
        *self.frames.get_mut(depth) = LIST | kept.map_or(u32::MAX >> 1, |n| n as u32);
        if let Some(n) = kept {
            self.set_verdict(n, true);
            self.covered = n + 1;
        }
    }

    fn set_verdict(&mut self, i: usize, cuddled: bool) {
        if let Some(word) = self.store.verdicts_mut().get_mut(i / 64) {
            let bit = 1u64 << (i % 64);
            *word = if cuddled { *word | bit } else { *word & !bit };
        }
    }

    /// How many keys of open maps are noted.
    pub(crate) fn keys_len(&mut self) -> usize {
        self.store.keys_mut().len()
    }

    /// Forgets the keys noted after the first `len`.
    pub(crate) fn truncate_keys(&mut self, len: usize) {
        self.store.truncate_keys(len);
    }

    /// Starts the key list of the map whose frame is `frames[depth]`.
    pub(crate) fn open_map(&mut self, depth: usize) {
        *self.frames.get_mut(depth) = self.store.keys_mut().len() as u32;
    }

    /// Notes a key of the innermost open map, which starts at `at`.
    pub(crate) fn push_key(&mut self, id: &KeyId, at: usize) {
        // A full fixed store leaves the key unchecked (documented limit).
        let _checked = self.store.push_key(KeySeen { hash: id.hash, at });
    }

    /// Checks the keys of the map whose frame is `frames[depth]`, which
    /// just closed, then forgets them. Inlined for the maps of one key, or
    /// of two or three whose hashes all differ (most maps of an API
    /// document), which need no comparison of texts: the call to
    /// [`Plan::check_keys`] and its prologue cost more than their check.
    #[inline(always)]
    pub(crate) fn close_map<'a>(
        &mut self,
        depth: usize,
        src: &impl Source<'a>,
    ) -> Result<(), Fault> {
        let first_key = self.frames.get(depth) as usize;
        let unique = match self.store.keys_mut().get(first_key..) {
            Some([] | [_]) | None => true,
            Some([a, b]) => a.hash != b.hash,
            Some([a, b, c]) => a.hash != b.hash && a.hash != c.hash && b.hash != c.hash,
            Some(_) => false,
        };
        if unique {
            self.store.truncate_keys(first_key);
            return Ok(());
        }
        self.check_keys(first_key, src)
    }

    /// [`Plan::close_map`] for the keys from `first_key` on.
    #[inline(never)]
    fn check_keys<'a>(&mut self, first_key: usize, src: &impl Source<'a>) -> Result<(), Fault> {
        let keys = self
            .store
            .keys_mut()
            .get_mut(first_key..)
            .unwrap_or_default();
        let dup = duplicate(keys, |key| src.key_at(key.at));
        self.store.truncate_keys(first_key);
        match dup {
            Some((first, again)) => Err(Fault::duplicate(again.at, first.at)),
            None => Ok(()),
        }
    }
}

/// The repeated key whose second occurrence comes first in the input, with
/// its first occurrence; `text_of` reads a key's text again.
fn duplicate<K: AsText>(
    keys: &mut [KeySeen],
    text_of: impl Fn(&KeySeen) -> K,
) -> Option<(KeySeen, KeySeen)> {
    let same = |a: &KeySeen, b: &KeySeen| {
        a.hash == b.hash && text_of(a).as_text().decodes_same(&text_of(b).as_text())
    };
    // Most maps are small: comparing hashes pairwise beats sorting them.
    if keys.len() <= SMALL_MAP {
        return (1..keys.len()).find_map(|j| {
            keys[..j]
                .iter()
                .find(|k| same(k, &keys[j]))
                .map(|k| (*k, keys[j]))
        });
    }
    // Medium maps (an API object's fields): a table on the stack, filled
    // in input order, finds the first key seen before in one probe or two.
    if keys.len() <= MEDIUM_MAP {
        let mut table = [0u8; 2 * MEDIUM_MAP];
        let mask = table.len() - 1;
        for (j, key) in keys.iter().enumerate() {
            let mut slot = (key.hash >> 57) as usize;
            loop {
                match usize::from(table[slot & mask]) {
                    // Slots hold index + 1; at most half of them are filled.
                    0 => break table[slot & mask] = j as u8 + 1,
                    i if same(&keys[i - 1], key) => return Some((keys[i - 1], *key)),
                    _ => slot += 1,
                }
            }
        }
        return None;
    }
    // Sorting by hash is a sort of integers. A run of equal hashes holds
    // equal keys (and strangers: keys over 24 bytes alike where the hash
    // looks); its two first members in input order are its earliest
    // repetition if they are equal. A run whose second member comes after
    // the earliest repetition found so far cannot hold an earlier one, and
    // is not read: a text is asked for twice per run at most, besides
    // strangers (a source may read the document again for each text).
    keys.sort_unstable_by_key(|k| k.hash);
    let mut earliest: Option<(KeySeen, KeySeen)> = None;
    for run in keys
        .chunk_by_mut(|a, b| a.hash == b.hash)
        .filter(|run| run.len() > 1)
    {
        let (first, second) = first_two(run);
        if earliest.is_some_and(|(_, again)| again.at < second.at) {
            continue;
        }
        if same(&first, &second) {
            earliest = Some((first, second));
            continue;
        }
        // Strangers share the hash: the run's earliest repetition, by text.
        run.sort_unstable_by(|a, b| {
            let order = text_of(a).as_text().cmp_decoded(&text_of(b).as_text());
            order.then(a.at.cmp(&b.at))
        });
        let repeats = run
            .windows(2)
            .filter(|w| same(&w[0], &w[1]))
            .map(|w| (w[0], w[1]));
        earliest = earliest
            .into_iter()
            .chain(repeats)
            .min_by_key(|(_, again)| again.at);
    }
    earliest
}

/// The two members of `run` (of at least two) that come first in the input.
fn first_two(run: &[KeySeen]) -> (KeySeen, KeySeen) {
    let (mut first, mut second) = match run[0].at < run[1].at {
        true => (run[0], run[1]),
        false => (run[1], run[0]),
    };
    for &key in &run[2..] {
        if key.at < first.at {
            (first, second) = (key, first);
        } else if key.at < second.at {
            second = key;
        }
    }
    (first, second)
}

/// Up to this many keys, a map's keys are compared pairwise (at most 28
/// comparisons of hashes).
const SMALL_MAP: usize = 8;

/// Up to this many keys (which fit a `u8` index), a map's keys go into a
/// table of twice as many slots, indexed by the top bits of their hashes.
const MEDIUM_MAP: usize = 64;

/// The plan's side of a skim: what a [`Source::skim_list`] reports
/// becomes verdicts, numbered as every other pass numbers lists.
/// The lists it reports are numbered from the skimmed list, which is
/// number `base` of the document.
struct Skim<'p, 'r, S> {
    plan: &'p mut Plan<'r, S>,
    lists: ListNumbers,
}

impl<S: Store> Shapes for Skim<'_, '_, S> {
    fn list(&mut self, depth: usize, starts_with_container: bool) {
        let n = self.lists.number(starts_with_container);
        self.plan.open_list(depth, n);
    }

    fn map(&mut self, depth: usize) {
        *self.plan.frames.get_mut(depth) = 0;
    }

    fn is_list(&self, depth: usize) -> bool {
        self.plan.frames.get(depth) & LIST != 0
    }

    fn scalar_element(&mut self, depth: usize) {
        let frame = self.plan.frames.get(depth);
        self.plan.set_verdict((frame & !LIST) as usize, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::Text;

    /// Keys of `src` (a list of plain `"..."` keys) with the given hashes.
    fn keys(src: &str, hash: impl Fn(usize) -> u64) -> std::vec::Vec<KeySeen> {
        let starts = src
            .match_indices('"')
            .map(|(i, _)| i)
            .collect::<std::vec::Vec<_>>();
        starts
            .chunks(2)
            .enumerate()
            .map(|(n, q)| KeySeen {
                hash: hash(n),
                at: q[0],
            })
            .collect()
    }

    /// The text of a key of `src` as [`keys`] found it.
    fn text<'a>(src: &'a str) -> impl Fn(&KeySeen) -> Text<'a> {
        move |key| {
            let body = &src[key.at + 1..];
            Text::new(
                &body[..body.find('"').unwrap()],
                crate::scan::Spelling::Verbatim,
                false,
            )
        }
    }

    /// A well-spread hash for key number `n` whose text stands for `id`.
    fn spread(id: u64) -> u64 {
        (id + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    #[test]
    fn colliding_hashes_are_told_apart_by_text() {
        // Medium (table) and large (sorted) maps whose keys all share one
        // hash: only real repeats count, and the earliest second
        // occurrence wins.
        for (len, distinct) in [(40, 37), (100, 97)] {
            let mut src = std::string::String::new();
            for i in 0..len {
                src += &std::format!("\"k{}\" ", i % distinct);
            }
            let mut all = keys(&src, |_| 7);
            let (first, again) = duplicate(&mut all, text(&src)).unwrap();
            assert_eq!(
                (text(&src)(&first).raw(), text(&src)(&again).raw()),
                ("k0", "k0")
            );
            assert!(first.at < again.at);
            let mut unique = keys(&src, |_| 7);
            unique.truncate(distinct);
            assert!(duplicate(&mut unique, text(&src)).is_none());
        }
    }

    /// A key text that owns its decoded text, as a source that decodes
    /// keys into a scratch buffer hands out from `key_at`.
    struct Owned(std::string::String);

    impl AsText for Owned {
        fn as_text(&self) -> Text<'_> {
            Text::new(&self.0, crate::scan::Spelling::Verbatim, false)
        }
    }

    #[test]
    fn keys_that_own_their_text_are_compared_by_it() {
        // A large map (sorted by text) whose hashes all collide: two owned
        // texts are held at once, and the earliest repeat is still found.
        let mut src = std::string::String::new();
        for i in 0..100 {
            src += &std::format!("\"k{}\" ", i % 97);
        }
        let owned = |key: &KeySeen| Owned(text(&src)(key).raw().into());
        let mut all = keys(&src, |_| 7);
        let (first, again) = duplicate(&mut all, owned).unwrap();
        assert_eq!(
            (owned(&first).0, owned(&again).0),
            ("k0".into(), "k0".into())
        );
        assert!(first.at < again.at);
    }

    #[test]
    fn a_large_map_asks_for_few_texts() {
        // The streaming YAML reader reads the document again for each text
        // (`Source::key_at`): a map of 2,000 keys, 500 texts repeated over
        // asks for a few texts, whatever the number of repeats, and still names
        // the earliest repeat (`k5` again at key 500).
        let mut src = std::string::String::new();
        for i in 0..2000 {
            src += &std::format!("\"k{}\" ", if i < 500 { i } else { (i - 495) % 500 });
        }
        let asked = core::cell::Cell::new(0);
        let counted = |key: &KeySeen| {
            asked.set(asked.get() + 1);
            text(&src)(key)
        };
        for hash in [spread as fn(u64) -> u64, |id| id % 7] {
            asked.set(0);
            let ids = |n: usize| if n < 500 { n } else { (n - 495) % 500 };
            let mut all = keys(&src, |n| hash(ids(n) as u64));
            let (first, again) = duplicate(&mut all, counted).unwrap();
            assert_eq!(
                (first.at, text(&src)(&again).raw()),
                (src.find("\"k5\"").unwrap(), "k5")
            );
            assert_eq!(again.at, src.match_indices('"').nth(1000).unwrap().0);
            // With 7 hashes for 500 texts, runs hold strangers and are
            // sorted by text: only the answer is held to.
            // Runs come in hash order: two texts for each that beats the
            // earliest repeat so far (a dozen here), not two per repeat.
            if hash(1) == spread(1) {
                assert!(asked.get() <= 40, "{} texts", asked.get());
            }
        }
    }

    #[test]
    fn the_earliest_repeat_is_reported_in_maps_of_every_size() {
        // `b` repeats before `a` does, in maps of 5 keys (pairwise), 45
        // (table) and 105 (sorted), with crowded and with spread hashes.
        let small = "\"a\" \"b\" \"c\" \"b\" \"a\"";
        let padded = |n: usize| {
            let pad = (0..n).map(|i| std::format!("\"x{i}\""));
            std::format!("{small} {}", pad.collect::<std::vec::Vec<_>>().join(" "))
        };
        let (medium, large) = (padded(40), padded(100));
        for src in [small, medium.as_str(), large.as_str()] {
            let id = |n: usize| [1, 2, 3, 2, 1].get(n).copied().unwrap_or(n as u64 + 10);
            for hash in [&id as &dyn Fn(usize) -> u64, &|n| spread(id(n))] {
                let mut all = keys(src, hash);
                let found = duplicate(&mut all, text(src)).map(|(f, a)| (f.at, a.at));
                assert_eq!(found, Some((4, 12)), "{src}");
            }
        }
        // No repeat at all, in each size.
        for n in [3, 40, 100] {
            let src = padded(n).replacen("\"a\" \"b\" \"c\" \"b\" \"a\" ", "", 1);
            let mut all = keys(&src, |n| spread(n as u64));
            assert!(duplicate(&mut all, text(&src)).is_none(), "{src}");
        }
    }
}
