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
}

/// Merges (`<<`), decided in the keep arena: a map that holds a merge key
/// is kept there whole (the reader holds it until it closes), with the
/// anchored maps a merge names, so every index below is the arena's.
impl Kept<'_> {
    /// The entries a merge key's value (at item `i`) offers, in order of
    /// precedence: a map's, an alias of a map's, or a list of those.
    pub(super) fn merge_value(&self, i: usize) -> Result<Vec<(usize, usize)>, Fault> {
        let items = &self.items;
        let mut offered = Vec::new();
        match items.get(i) {
            Some(Item::Open { map: false, .. }) => {
                let mut j = i + 1;
                while let Some(item) = items.get(j) {
                    match *item {
                        Item::Close { .. } => break,
                        Item::Open {
                            map: true, close, ..
                        } => {
                            self.offered_by(j, &mut offered);
                            j = close + 1;
                        }
                        Item::Alias { start, .. } if self.is_map(start) => {
                            self.offered_by(start, &mut offered);
                            j += 1;
                        }
                        _ => return Err(data(self.at_of(j), BAD_MERGE)),
                    }
                }
            }
            Some(Item::Open { map: true, .. }) => self.offered_by(i, &mut offered),
            Some(&Item::Alias { start, .. }) if self.is_map(start) => {
                self.offered_by(start, &mut offered)
            }
            _ => return Err(data(self.at_of(i), BAD_MERGE)),
        }
        Ok(offered)
    }

    /// Appends the entries the map that opens at item `open` offers to a
    /// merge: its entries, a key written twice there kept only where it
    /// is written last (go-yaml sets a merged map's keys in order, so its
    /// last writer wins).
    fn offered_by(&self, open: usize, out: &mut Vec<(usize, usize)>) {
        let from = out.len();
        self.map_entries(open, out);
        if out.len() - from < 2 {
            return;
        }
        let mut seen = BTreeSet::new();
        let mut kept: Vec<(usize, usize)> = out
            .drain(from..)
            .rev()
            .filter(|&(k, _)| seen.insert(self.key_text(k)))
            .collect();
        kept.reverse();
        out.extend(kept);
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
    /// (`merges`: each merge item and the entries its value offers) as kubectl's
    /// go-yaml v2 applies them: in input order, each entry and each merge
    /// setting its keys over what came before, and a merged list's maps
    /// last to first (its first map wins). So the last writer of a key
    /// wins: going through the writers backwards, the first to name a key
    /// keeps it; an entry written here that a later merge overwrites is
    /// skipped (its key item becomes an empty merge that jumps past it).
    pub(super) fn merge(&mut self, open: usize, merges: &[(usize, Vec<(usize, usize)>)]) {
        let mut own = Vec::new();
        self.map_entries(open, &mut own);
        // Every writer by item index: (index, end of entry or which merge, is a merge).
        let mut writers: Vec<(usize, usize, bool)> = own
            .iter()
            .map(|&(k, end)| (k, end, false))
            .chain(
                merges
                    .iter()
                    .enumerate()
                    .map(|(n, &(merge, _))| (merge, n, true)),
            )
            .collect();
        writers.sort_unstable();
        // Decided first, applied after: the keys compared borrow the arena.
        let mut decided = Vec::new();
        let mut seen = BTreeSet::new();
        for &(index, other, is_merge) in writers.iter().rev() {
            if !is_merge {
                if !seen.insert(self.key_text(index)) {
                    decided.push(Decided::Overwritten {
                        index,
                        skip_to: other,
                    });
                }
                continue;
            }
            for &(k, end) in merges[other].1.iter() {
                if seen.insert(self.key_text(k)) {
                    decided.push(Decided::Kept(k, end));
                }
            }
            decided.push(Decided::MergeDone(index));
        }
        drop(seen);
        let mut first = self.entries.len();
        for decision in decided {
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
    }
}

/// What [`Kept::merge`] decided for one writer of a map's keys.
enum Decided {
    /// An own entry a later writer overwrites: its key item becomes an
    /// empty merge that jumps to `skip_to`, past the entry.
    Overwritten { index: usize, skip_to: usize },
    /// An entry a merge offers and keeps (key item, end).
    Kept(usize, usize),
    /// The merge item `index` has its kept entries pushed.
    MergeDone(usize),
}
