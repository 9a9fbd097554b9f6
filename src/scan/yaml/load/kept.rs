//! The keep arena ([`Kept`]): the items of anchored collections and of
//! maps that hold a merge key, kept while the stream goes on, and the
//! merges (`<<`) decided there when such a map closes, as kubectl merges
//! (SPEC-YAML.md §2: keys written in the map win, then earlier merged
//! maps). It does not own reading the items back ([`Walk`](super::Walk)) nor
//! when a map is held (the loader's `hold_map`, `stream::merge_maps`).

use alloc::borrow::Cow;
use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use super::item::{data, Item, TextRef};
use crate::error::Fault;
#[cfg(doc)]
use crate::scan::Source;

const BAD_MERGE: &str =
    "a merge key `<<` takes a map, an alias of a map, or a list of those, and this value is none of them";

/// The keep arena of a streaming reader (docs/yaml-streaming.md §1): the
/// items of the current document's anchored collections, copied as they
/// are read (their decoded texts into `store`), which an [`Item::Alias`]
/// replays by index through a [`Walk`](super::Walk). Every reading of one stream shares
/// it (a bet's clone, a skim, the re-reading of [`Source::at`]): reading is
/// the same from the same place, so an item already kept at the index a
/// reading reaches is that item, and is not kept twice.
#[derive(Clone, Debug, Default)]
pub(crate) struct Kept<'a> {
    pub(crate) items: Vec<Item<'a>>,
    pub(crate) store: String,
    /// Map entries a merge keeps: the range of items from a key to the
    /// end of its value.
    pub(crate) entries: Vec<(usize, usize)>,
    /// The merges' working lists, kept from one map to the next (a file
    /// with a merge in each of its entries would allocate them per map).
    scratch: Scratch,
}

/// The working lists of [`Kept::merge`] and [`Kept::merge_value`], empty
/// between calls.
#[derive(Clone, Debug, Default)]
struct Scratch {
    own: Vec<(usize, usize)>,
    writers: Vec<(usize, usize, bool)>,
    decided: Vec<Decided>,
    /// Entries a map offers, last writer first.
    offered: Vec<(usize, usize)>,
    /// The key items seen, with their texts' [`fingerprint`]s ([`Seen`]).
    seen: Vec<(usize, u64)>,
}

/// How many keys [`Seen`] compares one by one before it sorts them in a
/// set: most merged maps are small, and a set costs an allocation per key.
const SEEN_LISTED: usize = 16;

/// The keys a merge has seen, by their decoded texts: a list of key items
/// compared one by one (their texts only where their [`fingerprint`]s
/// agree), moved to a set past [`SEEN_LISTED`] keys (so a large map stays
/// O(n log n)).
struct Seen<'k, 'a> {
    kept: &'k Kept<'a>,
    listed: &'k mut Vec<(usize, u64)>,
    set: BTreeSet<Cow<'k, str>>,
}

/// A summary of a key's text that two equal texts share: its length and
/// its first and last 8 bytes.
fn fingerprint(text: &str) -> u64 {
    let bytes = text.as_bytes();
    // Whole words where there are 8 bytes (a copy of a shorter slice is a
    // call to memcpy).
    let head = match bytes.first_chunk::<8>() {
        Some(word) => u64::from_le_bytes(*word),
        None => bytes.iter().fold(0, |word, &b| word << 8 | u64::from(b)),
    };
    let tail = bytes
        .last_chunk::<8>()
        .map_or(0, |word| u64::from_le_bytes(*word));
    let len = (bytes.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    head ^ tail.rotate_left(31) ^ len
}

impl<'k, 'a> Seen<'k, 'a> {
    fn new(kept: &'k Kept<'a>, listed: &'k mut Vec<(usize, u64)>) -> Self {
        listed.clear();
        Seen {
            kept,
            listed,
            set: BTreeSet::new(),
        }
    }

    /// Notes the key item `k`: false if its text was seen before.
    fn insert(&mut self, k: usize) -> bool {
        let kept = self.kept;
        let text = kept.key_text(k);
        if self.set.is_empty() {
            let print = fingerprint(&text);
            let same = |&(seen, p): &(usize, u64)| p == print && kept.key_text(seen) == text;
            if self.listed.iter().any(same) {
                return false;
            }
            if self.listed.len() < SEEN_LISTED {
                self.listed.push((k, print));
                return true;
            }
            let listed = self.listed.drain(..).map(|(seen, _)| kept.key_text(seen));
            self.set.extend(listed);
        }
        self.set.insert(text)
    }
}

/// Merges (`<<`), decided in the keep arena: a map that holds a merge key
/// is kept there whole (the reader holds it until it closes), with the
/// anchored maps a merge names, so every index below is the arena's.
impl Kept<'_> {
    /// Appends to `offered` the entries a merge key's value (at item `i`)
    /// offers, in order of precedence: a map's, an alias of a map's, or a
    /// list of those.
    pub(super) fn merge_value(
        &mut self,
        i: usize,
        offered: &mut Vec<(usize, usize)>,
    ) -> Result<(), Fault> {
        let mut scratch = core::mem::take(&mut self.scratch);
        let result = self.offered_by_value(i, offered, &mut scratch);
        self.scratch = scratch;
        result
    }

    fn offered_by_value(
        &self,
        i: usize,
        offered: &mut Vec<(usize, usize)>,
        scratch: &mut Scratch,
    ) -> Result<(), Fault> {
        let items = &self.items;
        match items.get(i) {
            Some(Item::Open { map: false, .. }) => {
                let mut j = i + 1;
                while let Some(item) = items.get(j) {
                    match *item {
                        Item::Close { .. } => break,
                        Item::Open {
                            map: true, close, ..
                        } => {
                            self.offered_by(j, offered, scratch);
                            j = close + 1;
                        }
                        Item::Alias { start, .. } if self.is_map(start) => {
                            self.offered_by(start, offered, scratch);
                            j += 1;
                        }
                        _ => return Err(data(self.at_of(j), BAD_MERGE)),
                    }
                }
            }
            Some(Item::Open { map: true, .. }) => self.offered_by(i, offered, scratch),
            Some(&Item::Alias { start, .. }) if self.is_map(start) => {
                self.offered_by(start, offered, scratch)
            }
            _ => return Err(data(self.at_of(i), BAD_MERGE)),
        }
        Ok(())
    }

    /// Appends the entries the map that opens at item `open` offers to a
    /// merge: its entries, a key written twice there kept only where it
    /// is written last (go-yaml sets a merged map's keys in order, so its
    /// last writer wins).
    fn offered_by(&self, open: usize, out: &mut Vec<(usize, usize)>, scratch: &mut Scratch) {
        let from = out.len();
        self.map_entries(open, out);
        if out.len() - from < 2 {
            return;
        }
        let mut seen = Seen::new(self, &mut scratch.seen);
        let kept = &mut scratch.offered;
        kept.clear();
        kept.extend(
            out.get(from..)
                .unwrap_or_default()
                .iter()
                .rev()
                .filter(|&&(k, _)| seen.insert(k)),
        );
        out.truncate(from);
        out.extend(kept.iter().rev());
    }

    fn is_map(&self, i: usize) -> bool {
        matches!(self.items.get(i), Some(Item::Open { map: true, .. }))
    }

    /// Where item `i` (or the value it replays) starts in the input.
    fn at_of(&self, i: usize) -> usize {
        match self.items.get(i) {
            Some(
                Item::Open { at, .. }
                | Item::Close { at, .. }
                | Item::Key { at, .. }
                | Item::Str { at, .. }
                | Item::Number { at, .. }
                | Item::Bool { at, .. }
                | Item::Null { at },
            ) => *at,
            Some(&Item::Alias { start, .. }) => self.at_of(start),
            _ => 0,
        }
    }

    /// Appends the entries of the map that opens at item `open` (merged
    /// entries included) to `out`.
    fn map_entries(&self, open: usize, out: &mut Vec<(usize, usize)>) {
        let items = &self.items;
        let mut i = open + 1;
        while let Some(item) = items.get(i) {
            match *item {
                Item::Key { .. } => {
                    let end = match items.get(i + 1) {
                        Some(Item::Open { close, .. }) => close + 1,
                        _ => i + 2,
                    };
                    out.push((i, end));
                    i = end;
                }
                Item::Merge {
                    first,
                    last,
                    skip_to,
                } => {
                    out.extend(self.entries.get(first..last).unwrap_or_default());
                    i = skip_to;
                }
                _ => break,
            }
        }
    }

    /// The decoded text of the key item `i`.
    /// The text of the key item `i`, borrowed where it needs no decoding
    /// (most keys: a merge compares them without building strings).
    fn key_text(&self, i: usize) -> Cow<'_, str> {
        match self.items.get(i) {
            Some(Item::Key { text, .. }) => match *text {
                TextRef::Input(t) => match t.as_plain() {
                    Some(s) => Cow::Borrowed(s),
                    None => Cow::Owned(t.chars().collect()),
                },
                TextRef::Stored { start, end } => {
                    Cow::Borrowed(self.store.get(start..end).unwrap_or(""))
                }
            },
            _ => Cow::Borrowed(""),
        }
    }

    /// Decides the merges of the map that opens at `open`, just closed
    /// (`merges`: each merge item and the range of `offers` its value
    /// offers) as kubectl's
    /// go-yaml v2 applies them: in input order, each entry and each merge
    /// setting its keys over what came before, and a merged list's maps
    /// last to first (its first map wins). So the last writer of a key
    /// wins: going through the writers backwards, the first to name a key
    /// keeps it; an entry written here that a later merge overwrites is
    /// skipped (its key item becomes an empty merge that jumps past it).
    pub(super) fn merge(
        &mut self,
        open: usize,
        merges: &[(usize, usize, usize)],
        offers: &[(usize, usize)],
    ) {
        let mut scratch = core::mem::take(&mut self.scratch);
        self.decide(open, merges, offers, &mut scratch);
        let mut first = self.entries.len();
        for decision in scratch.decided.drain(..) {
            match decision {
                Decided::Overwritten { index, skip_to } => {
                    if let Some(item) = self.items.get_mut(index) {
                        *item = Item::Merge {
                            first: 0,
                            last: 0,
                            skip_to,
                        };
                    }
                }
                Decided::Kept(k, end) => self.entries.push((k, end)),
                Decided::MergeDone(index) => {
                    let last = self.entries.len();
                    if let Some(Item::Merge {
                        first: f, last: l, ..
                    }) = self.items.get_mut(index)
                    {
                        (*f, *l) = (first, last);
                    }
                    first = last;
                }
            }
        }
        self.scratch = scratch;
    }

    /// What [`Kept::merge`] does, decided first (into `scratch.decided`)
    /// and applied after: the keys compared borrow the arena.
    fn decide(
        &self,
        open: usize,
        merges: &[(usize, usize, usize)],
        offers: &[(usize, usize)],
        scratch: &mut Scratch,
    ) {
        let own = &mut scratch.own;
        own.clear();
        self.map_entries(open, own);
        // Every writer by item index: (index, end of entry or which merge, is a merge).
        let writers = &mut scratch.writers;
        writers.clear();
        writers.extend(own.iter().map(|&(k, end)| (k, end, false)));
        writers.extend(
            merges
                .iter()
                .enumerate()
                .map(|(n, &(merge, _, _))| (merge, n, true)),
        );
        writers.sort_unstable();
        let decided = &mut scratch.decided;
        decided.clear();
        let mut seen = Seen::new(self, &mut scratch.seen);
        for &(index, other, is_merge) in writers.iter().rev() {
            if !is_merge {
                if !seen.insert(index) {
                    decided.push(Decided::Overwritten {
                        index,
                        skip_to: other,
                    });
                }
                continue;
            }
            let (_, from, to) = merges.get(other).copied().unwrap_or_default();
            for &(k, end) in offers.get(from..to).unwrap_or_default() {
                if seen.insert(k) {
                    decided.push(Decided::Kept(k, end));
                }
            }
            decided.push(Decided::MergeDone(index));
        }
    }
}

/// What [`Kept::merge`] decided for one writer of a map's keys.
#[derive(Clone, Copy, Debug)]
enum Decided {
    /// An own entry a later writer overwrites: its key item becomes an
    /// empty merge that jumps to `skip_to`, past the entry.
    Overwritten { index: usize, skip_to: usize },
    /// An entry a merge offers and keeps (key item, end).
    Kept(usize, usize),
    /// The merge item `index` has its kept entries pushed.
    MergeDone(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Seen`] answers as a set of the key texts does, before and after
    /// it moves its list to a set: keys met again early and late, among
    /// up to three times [`SEEN_LISTED`] keys.
    #[test]
    fn seen_keys_answer_as_a_set() {
        for n in [
            2,
            SEEN_LISTED - 1,
            SEEN_LISTED,
            SEEN_LISTED + 1,
            3 * SEEN_LISTED,
        ] {
            let mut kept = Kept::default();
            // Each key twice and every third one thrice, spread out.
            let names: Vec<usize> = (0..n)
                .chain((0..n).rev())
                .chain((0..n).step_by(3))
                .collect();
            for name in &names {
                let start = kept.store.len();
                // Keys of as many digits share their fingerprints.
                kept.store
                    .push_str(&alloc::format!("12345678{name}87654321"));
                let end = kept.store.len();
                let text = TextRef::Stored { start, end };
                kept.items.push(Item::Key { at: 0, text });
            }
            let mut listed = Vec::new();
            let mut seen = Seen::new(&kept, &mut listed);
            let mut set = BTreeSet::new();
            for (i, name) in names.iter().enumerate() {
                assert_eq!(seen.insert(i), set.insert(name), "{n} keys, key {i}");
            }
        }
    }
}
