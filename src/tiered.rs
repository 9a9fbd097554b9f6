//! Fixed room that is set up in two steps, so that small documents do not
//! pay for the room that deep or large ones need.
//!
//! The no-alloc path keeps per-depth state for up to `MAX_DEPTH` open
//! containers and a table of keys, tens of kilobytes on the stack. Clearing
//! all of it on every call is more work than converting a short log line
//! (see `docs/performance-notes.md`). A [`Tiered`] array clears only its first `SMALL` entries up front and
//! the full `FULL` entries the first time an index past them is used. The
//! full array is an `Option` local to the function that encodes (see
//! `encode.rs`), lent to the structures that use it: a structure holding
//! it would copy all of it, set up or not, whenever it is moved.

/// An array of `FULL` values whose first `SMALL` are set up at once and the
/// rest when first needed. Indexes past `SMALL` must be set before they are
/// read, as the per-depth state always is (a container's entry is written
/// when it opens).
pub(crate) struct Tiered<'r, T: Copy, const SMALL: usize, const FULL: usize> {
    small: [T; SMALL],
    /// Whether `full` is set up: kept here, so the common case reads no
    /// further than this structure.
    deep: bool,
    /// Once set up, holds every value, the first `SMALL` copied over.
    full: &'r mut Option<[T; FULL]>,
    fill: T,
}

/// Room for a [`Tiered`] array's full values: `None` until an index past
/// the small ones is first used.
pub(crate) type FullRoom<T, const FULL: usize> = Option<[T; FULL]>;

impl<'r, T: Copy, const SMALL: usize, const FULL: usize> Tiered<'r, T, SMALL, FULL> {
    /// Every value `fill`, as far as reads can tell; `full` is where the
    /// full array goes when it is needed (whatever it held is forgotten).
    #[inline(always)]
    pub(crate) fn new(fill: T, full: &'r mut FullRoom<T, FULL>) -> Self {
        *full = None;
        Tiered {
            small: [fill; SMALL],
            deep: false,
            full,
            fill,
        }
    }

    /// The value at `i` (which must be below `SMALL` or set before).
    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> T {
        if !self.deep {
            return self.small[i];
        }
        match &*self.full {
            Some(full) => full[i],
            None => self.fill,
        }
    }

    /// The value at `i`, to change; sets up the full array for an index
    /// past `SMALL`.
    #[inline(always)]
    pub(crate) fn get_mut(&mut self, i: usize) -> &mut T {
        if !self.deep && i < SMALL {
            return &mut self.small[i];
        }
        self.set_up();
        match &mut *self.full {
            Some(full) => &mut full[i],
            // Set up just above: never taken.
            None => &mut self.fill,
        }
    }

    /// The first `len` values (`len` at most `FULL`).
    #[inline(always)]
    pub(crate) fn first_mut(&mut self, len: usize) -> &mut [T] {
        if !self.deep && len <= SMALL {
            return &mut self.small[..len];
        }
        self.set_up();
        match &mut *self.full {
            Some(full) => &mut full[..len],
            // Set up just above: never taken.
            None => &mut self.small[..0],
        }
    }

    /// Every value set up so far: the small array, or the full one.
    #[inline(always)]
    pub(crate) fn set_up_mut(&mut self) -> &mut [T] {
        match &mut *self.full {
            Some(full) if self.deep => full,
            _ => &mut self.small,
        }
    }

    /// Sets up the full array if it is not yet. Building it is left to
    /// [`Tiered::set_up_full`]: inlined, its tens of kilobytes would make
    /// every caller's stack frame that large, probed on every call.
    #[inline(always)]
    fn set_up(&mut self) {
        if !self.deep {
            self.set_up_full();
        }
    }

    /// Sets up the full array: the small one's values, then `fill`.
    #[cold]
    #[inline(never)]
    fn set_up_full(&mut self) {
        self.deep = true;
        let full = self.full.insert([self.fill; FULL]);
        full[..SMALL].copy_from_slice(&self.small);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_survive_the_switch_to_the_full_array() {
        let mut room = None;
        let mut t: Tiered<u32, 4, 16> = Tiered::new(7, &mut room);
        for i in 0..4 {
            *t.get_mut(i) = i as u32;
        }
        assert_eq!(t.first_mut(4), [0, 1, 2, 3]);
        assert_eq!(t.set_up_mut().len(), 4);
        *t.get_mut(10) = 10;
        assert_eq!(t.set_up_mut().len(), 16);
        assert_eq!((t.get(3), t.get(10), t.get(12)), (3, 10, 7));
        assert_eq!(t.first_mut(5), [0, 1, 2, 3, 7]);
        let mut room = None;
        let mut u: Tiered<u8, 2, 8> = Tiered::new(0, &mut room);
        u.first_mut(2)[1] = 9;
        assert_eq!(u.first_mut(6), [0, 9, 0, 0, 0, 0]);
    }
}
