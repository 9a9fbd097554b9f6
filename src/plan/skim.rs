//! The lookahead for cuddling verdicts: a skim over one list that trusts
//! the input to be JSON and looks only at brackets, commas, string quotes
//! and the first byte of each list element.
//!
//! It validates nothing, so it serves a writing pass that validates as it
//! goes (or follows a checking pass): on valid JSON its verdicts are exact,
//! and on invalid JSON the document fails anyway. Whatever the bytes, it
//! reads each at most once, indexes nothing out of range and stops at the
//! end of the input or at `MAX_DEPTH`.

use super::{opens_container, Plan, Store, LIST};
use crate::swar;
use crate::MAX_DEPTH;

/// What a byte means to the skim.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Other,
    Quote,
    Open,
    Close,
    Comma,
}

const CLASSES: [Class; 256] = {
    let mut t = [Class::Other; 256];
    t[b'"' as usize] = Class::Quote;
    t[b'[' as usize] = Class::Open;
    t[b'{' as usize] = Class::Open;
    t[b']' as usize] = Class::Close;
    t[b'}' as usize] = Class::Close;
    t[b',' as usize] = Class::Comma;
    t
};

impl<S: Store> Plan<'_, S> {
    /// Skims the list whose `[` is at `pos` in `src` and whose frame is
    /// `frames[depth]`, and keeps the verdicts of the lists it holds,
    /// numbered from `base` (itself first), as far as the store has room.
    pub(super) fn skim(&mut self, src: &[u8], mut pos: usize, mut depth: usize, base: usize) {
        let top = depth;
        let mut lists = 0usize;
        // The next byte that is not white space starts an element (not the
        // first) of the innermost container, a list.
        let mut element = false;
        (self.base, self.covered) = (base, 0);
        loop {
            if element {
                element = false;
                pos = swar::skip_white_space(src, pos);
                // A scalar element: not cuddled.
                if !opens_container(src.get(pos).copied()) {
                    self.set_verdict((self.frames.get(depth - 1) & !LIST) as usize, false);
                }
            }
            pos = swar::maybe_structural(src, pos);
            let Some(&b) = src.get(pos) else { return };
            pos += 1;
            match CLASSES[b as usize] {
                Class::Other => {}
                Class::Quote => pos = skip_string(src, pos),
                Class::Open if depth == MAX_DEPTH => return,
                Class::Open if b == b'[' => {
                    // Numbered as the other passes number lists.
                    pos = swar::skip_white_space(src, pos);
                    let numbered = opens_container(src.get(pos).copied());
                    self.open_list(depth, numbered.then_some(lists));
                    lists += usize::from(numbered);
                    depth += 1;
                }
                Class::Open => {
                    *self.frames.get_mut(depth) = 0;
                    depth += 1;
                }
                Class::Close => {
                    depth -= 1;
                    if depth == top {
                        return;
                    }
                }
                Class::Comma => element = self.frames.get(depth - 1) & LIST != 0,
            }
        }
    }
}

/// The position just past the closing quote of the string body at `pos`.
fn skip_string(src: &[u8], mut pos: usize) -> usize {
    loop {
        pos = swar::string_special(src, pos);
        match src.get(pos) {
            Some(b'"') => return pos + 1,
            Some(b'\\') => pos += 2,
            Some(_) => pos += 1,
            None => return pos,
        }
    }
}
