//! The loader's output: the data [`Item`]s a YAML reading gives out, one
//! per data event or replay, and the [`TextRef`]s of their strings. It
//! does not own making them (the loader, `load.rs`) nor reading them back
//! (`Walk`).

use alloc::string::String;

use crate::error::{ErrorKind, Fault};
use crate::scan::yaml::attach::Step;
use crate::scan::Text;

/// A string of a key or value: a span of the input, or of the side buffer.
#[derive(Clone, Copy, Debug)]
pub(crate) enum TextRef<'a> {
    Input(Text<'a>),
    Stored { start: usize, end: usize },
}

/// One data event of a document, or an instruction to replay others.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Item<'a> {
    /// A map or list opens; `close` is the index of its [`Item::Close`].
    Open {
        at: usize,
        map: bool,
        close: usize,
    },
    /// In a streaming reader's window, in place of the [`Item::Open`] of a
    /// map that holds a merge key (the outermost such): its items are
    /// `start..end` of the keep arena, merged, and `close` is the number of
    /// its last item in the window, once it is read to its end (until
    /// then `usize::MAX`).
    Held {
        start: usize,
        end: usize,
        close: usize,
    },
    Close {
        at: usize,
        map: bool,
    },
    Key {
        at: usize,
        text: TextRef<'a>,
    },
    Str {
        at: usize,
        text: TextRef<'a>,
    },
    /// A number as JSON number text in the side buffer.
    Number {
        at: usize,
        start: usize,
        end: usize,
    },
    Bool {
        at: usize,
        value: bool,
    },
    Null {
        at: usize,
    },
    /// An alias of a collection: replays `items[start..end]`.
    Alias {
        start: usize,
        end: usize,
    },
    /// A merge key `<<` and its value: replays the entries
    /// `entries[first..last]`, then goes on at `skip_to` (past the value).
    Merge {
        first: usize,
        last: usize,
        skip_to: usize,
    },
    /// The document fails here.
    Fail(Fault),
}

impl Item<'_> {
    /// The item with its stored text (if any) copied from the store `from`
    /// to the end of `to`. Inlined: most items have none.
    #[inline(always)]
    pub(crate) fn stored_again(self, from: &str, to: &mut String) -> Self {
        match self {
            Item::Key {
                text: TextRef::Stored { .. },
                ..
            }
            | Item::Str {
                text: TextRef::Stored { .. },
                ..
            }
            | Item::Number { .. } => self.copy_stored(from, to),
            other => other,
        }
    }

    /// [`Item::stored_again`] of an item with a stored text.
    #[inline(never)]
    fn copy_stored(self, from: &str, to: &mut String) -> Self {
        let mut copy = |start: usize, end: usize| {
            let at = to.len();
            to.push_str(from.get(start..end).unwrap_or(""));
            TextRef::Stored {
                start: at,
                end: to.len(),
            }
        };
        match self {
            Item::Key {
                at,
                text: TextRef::Stored { start, end },
            } => Item::Key {
                at,
                text: copy(start, end),
            },
            Item::Str {
                at,
                text: TextRef::Stored { start, end },
            } => Item::Str {
                at,
                text: copy(start, end),
            },
            Item::Number { at, start, end } => match copy(start, end) {
                TextRef::Stored { start, end } => Item::Number { at, start, end },
                TextRef::Input(_) => self,
            },
            other => other,
        }
    }

    /// What `Settle` (`attach.rs`) is told when a walk reads this item.
    #[inline(always)]
    pub(crate) fn step(&self) -> Step {
        match self {
            Item::Open { .. } | Item::Held { .. } => Step::Open,
            Item::Close { .. } => Step::Close,
            Item::Key { .. } => Step::Key,
            _ => Step::Scalar,
        }
    }
}

/// A data fault at byte `at`: the document's items end with it.
pub(crate) fn data(at: usize, message: &'static str) -> Fault {
    Fault::new(ErrorKind::Data, at, message)
}
