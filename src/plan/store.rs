//! Where the first pass keeps what it learns: fixed arrays on the stack, or
//! (with `alloc`) vectors that grow.

use crate::tiered::{FullRoom, Tiered};

/// A key seen in an open map: a hash of its decoded text, and where it
/// starts in the input (the source reads it again from there).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KeySeen {
    pub(crate) hash: u64,
    pub(crate) at: usize,
}

/// Room for the keys of the open maps and the cuddling verdicts of lists.
pub(crate) trait Store {
    /// Appends a key; `false` if there is no room.
    fn push_key(&mut self, key: KeySeen) -> bool;
    /// The keys pushed and not yet truncated away.
    fn keys_mut(&mut self) -> &mut [KeySeen];
    fn truncate_keys(&mut self, len: usize);
    /// Makes room for verdict bits `0..bits`; `false` if there is no room.
    fn reserve_verdicts(&mut self, bits: usize) -> bool;
    /// The verdict words (bit `i` of the window in word `i / 64`).
    fn verdicts_mut(&mut self) -> &mut [u64];
}

/// Fixed-size room, for the path that never allocates. Set up in two steps
/// (see [`Tiered`]): 32 keys and 512 lists first.
pub(crate) struct Fixed<'r> {
    keys: Tiered<'r, KeySeen, 32, FIXED_KEYS>,
    key_len: usize,
    verdicts: Tiered<'r, u64, 8, FIXED_VERDICT_WORDS>,
}

/// Keys of all open maps that the no-alloc path checks for duplicates.
/// (Free constants: an associated one of `Fixed<'r>` could not size its
/// own fields.)
const FIXED_KEYS: usize = 512;
/// List verdicts held at once (64 bits a word).
const FIXED_VERDICT_WORDS: usize = 512;

/// Where a [`Fixed`] store's full tables go, if a document needs them.
#[derive(Default)]
pub(crate) struct FixedRoom {
    keys: FullRoom<KeySeen, FIXED_KEYS>,
    verdicts: FullRoom<u64, FIXED_VERDICT_WORDS>,
}

impl<'r> Fixed<'r> {
    pub(crate) fn new(room: &'r mut FixedRoom) -> Fixed<'r> {
        Fixed {
            keys: Tiered::new(KeySeen::default(), &mut room.keys),
            key_len: 0,
            verdicts: Tiered::new(0, &mut room.verdicts),
        }
    }
}

impl Store for Fixed<'_> {
    fn push_key(&mut self, key: KeySeen) -> bool {
        if self.key_len == FIXED_KEYS {
            return false;
        }
        *self.keys.get_mut(self.key_len) = key;
        self.key_len += 1;
        true
    }

    fn keys_mut(&mut self) -> &mut [KeySeen] {
        self.keys.first_mut(self.key_len)
    }

    fn truncate_keys(&mut self, len: usize) {
        self.key_len = self.key_len.min(len);
    }

    fn reserve_verdicts(&mut self, bits: usize) -> bool {
        let words = bits.div_ceil(64);
        let room = words <= FIXED_VERDICT_WORDS;
        if room {
            self.verdicts.first_mut(words);
        }
        room
    }

    fn verdicts_mut(&mut self) -> &mut [u64] {
        self.verdicts.set_up_mut()
    }
}

/// Room that grows, so every key is checked and every verdict kept.
#[cfg(feature = "alloc")]
#[derive(Default)]
pub(crate) struct Growing {
    keys: alloc::vec::Vec<KeySeen>,
    verdicts: alloc::vec::Vec<u64>,
}

#[cfg(feature = "alloc")]
impl Store for Growing {
    fn push_key(&mut self, key: KeySeen) -> bool {
        self.keys.push(key);
        true
    }

    fn keys_mut(&mut self) -> &mut [KeySeen] {
        &mut self.keys
    }

    fn truncate_keys(&mut self, len: usize) {
        self.keys.truncate(len);
    }

    fn reserve_verdicts(&mut self, bits: usize) -> bool {
        let words = bits.div_ceil(64);
        if self.verdicts.len() < words {
            self.verdicts.resize(words.max(2 * self.verdicts.len()), 0);
        }
        true
    }

    fn verdicts_mut(&mut self) -> &mut [u64] {
        &mut self.verdicts
    }
}
