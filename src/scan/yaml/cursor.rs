//! The YAML [`Source`] for inputs with merge keys (others stream,
//! `stream.rs`): a cursor over a [`Loaded`] stream, giving
//! out its items as data events and its comments and blank lines as
//! [`Event::Trivia`] where attachment settled them (`attach.rs`).
//!
//! Owns reading a loaded stream as the driver reads a source: documents
//! opened by index or by where they start, a saved place (`Clone`), the
//! skim of a list, keys looked up by position. It decides nothing about
//! the data (the loader did, `load.rs`) or about where a comment goes
//! (attachment did): each record is given out as it is, when the walk
//! reaches its slot.

use super::load::{verbatim, Item, Loaded, TextRef, Walk};
use crate::error::Fault;
use crate::scan::{Event, Shapes, Source, Text, Trivia};

/// A cursor over a [`Loaded`] stream: the YAML [`Source`].
#[derive(Clone, Debug)]
pub(crate) struct YamlSource<'l> {
    loaded: &'l Loaded<'l>,
    /// The document [`Source::next_document`] opens next.
    next_doc: usize,
    walk: Walk,
    depth: usize,
    at: usize,
    /// The current document's comments and blank lines not yet read: a
    /// range of [`Loaded::trivia`].
    trivia: (usize, usize),
    /// Records of [`YamlSource::trivia`] are left: events take the way
    /// that gives them out.
    with_trivia: bool,
    /// Those before its header: a range of [`Loaded::preambles`].
    preamble: (usize, usize),
}

impl<'l> YamlSource<'l> {
    pub(crate) fn new(loaded: &'l Loaded<'l>) -> YamlSource<'l> {
        YamlSource {
            loaded,
            next_doc: 0,
            walk: Walk::new(0, 0),
            depth: 0,
            at: 0,
            trivia: (0, 0),
            with_trivia: false,
            preamble: (0, 0),
        }
    }

    /// Opens document `index`.
    fn begin(&mut self, index: usize) -> bool {
        let Some(doc) = self.loaded.docs.get(index) else {
            return false;
        };
        self.next_doc = index + 1;
        self.walk.restart(doc.first, doc.end);
        self.depth = 0;
        self.at = doc.start;
        (self.trivia, self.preamble) = (doc.trivia, doc.preamble);
        self.with_trivia = doc.trivia.0 < doc.trivia.1;
        true
    }

    /// [`Source::next_event`], its texts those of the loaded stream (the
    /// trait lends them only until the next event).
    fn read_event(&mut self) -> Result<Option<Event<'l, Trivia<'l>>>, Fault> {
        if self.with_trivia {
            return self.next_event_with_trivia();
        }
        loop {
            match self
                .walk
                .next_item(&self.loaded.items, &self.loaded.entries)
            {
                None => return Ok(None),
                Some(None) => continue,
                Some(Some(item)) => return self.item_event(item),
            }
        }
    }

    /// The comment or blank line due before the item read next (see
    /// [`Walk::reaches`]).
    fn due_trivia(&mut self) -> Option<Trivia<'l>> {
        let (next, end) = self.trivia;
        if next >= end {
            return None;
        }
        let &(slot, trivia) = self.loaded.trivia.get(next)?;
        if !self.walk.reaches(slot) {
            return None;
        }
        self.trivia.0 += 1;
        Some(trivia)
    }

    /// [`Source::next_event`] while comments or blank lines of the
    /// document are still to come: out of line, so that documents without
    /// them (and the rest of one after its last) read items only.
    #[inline(never)]
    fn next_event_with_trivia(&mut self) -> Result<Option<Event<'l, Trivia<'l>>>, Fault> {
        let event = self.next_item_or_trivia();
        self.with_trivia = self.trivia.0 < self.trivia.1;
        event
    }

    fn next_item_or_trivia(&mut self) -> Result<Option<Event<'l, Trivia<'l>>>, Fault> {
        loop {
            if let Some(trivia) = self.due_trivia() {
                return Ok(Some(Event::Trivia(trivia)));
            }
            match self
                .walk
                .next_item(&self.loaded.items, &self.loaded.entries)
            {
                None => return Ok(None),
                Some(None) => continue,
                Some(Some(item)) => return self.item_event(item),
            }
        }
    }

    /// The event of a data item, where it is given out: the position and
    /// depth it sets are what the driver asks for next.
    #[inline(always)]
    fn item_event(&mut self, item: Item<'l>) -> Result<Option<Event<'l, Trivia<'l>>>, Fault> {
        let event = match item {
            Item::Open { at, map, .. } => {
                self.at = at;
                self.depth += 1;
                match map {
                    true => Event::MapStart,
                    false => Event::ListStart,
                }
            }
            Item::Close { at, map } => {
                self.at = at;
                self.depth = self.depth.saturating_sub(1);
                match map {
                    true => Event::MapEnd,
                    false => Event::ListEnd,
                }
            }
            Item::Key { at, text } => {
                self.at = at;
                Event::Key(self.text(text))
            }
            Item::Str { at, text } => {
                self.at = at;
                Event::Str(self.text(text))
            }
            Item::Number { at, start, end } => {
                self.at = at;
                Event::Number {
                    text: self.loaded.store.get(start..end).unwrap_or("0"),
                    exponent: false,
                }
            }
            Item::Bool { at, value } => {
                self.at = at;
                Event::Bool(value)
            }
            Item::Null { at } => {
                self.at = at;
                Event::Null
            }
            Item::Fail(fault) => return Err(fault),
            // The walk follows replays.
            Item::Alias { .. } | Item::Merge { .. } => return Ok(None),
        };
        Ok(Some(event))
    }

    fn text(&self, text: TextRef<'l>) -> Text<'l> {
        match text {
            TextRef::Input(text) => text,
            TextRef::Stored { start, end } => {
                verbatim(self.loaded.store.get(start..end).unwrap_or(""))
            }
        }
    }
}

impl<'l> Source<'l> for YamlSource<'l> {
    type Trivia = crate::scan::Trivia<'l>;
    /// Keys are looked up in the loaded stream, which outlives the cursor.
    type KeyText = Text<'l>;

    fn next_document(&mut self) -> Result<bool, Fault> {
        match self.begin(self.next_doc) {
            true => Ok(true),
            false => {
                // An input of nothing but comments: they are its preamble.
                self.preamble = self.loaded.tail;
                self.loaded.after.map_or(Ok(false), Err)
            }
        }
    }

    fn peek_document(&self) -> Result<(usize, bool), Fault> {
        match (self.loaded.docs.get(self.next_doc), self.loaded.after) {
            (Some(doc), _) => Ok((doc.start, true)),
            (None, Some(fault)) => Err(fault),
            (None, None) => Ok((self.at, false)),
        }
    }

    #[inline(always)]
    fn next_event(&mut self) -> Result<Option<Event<'_, Self::Trivia>>, Fault> {
        self.read_event()
    }

    fn at(&self, pos: usize) -> Self {
        let mut again = self.clone();
        let current = self.next_doc.checked_sub(1);
        let index = current
            .filter(|&i| self.loaded.docs.get(i).is_some_and(|d| d.start == pos))
            .or_else(|| self.loaded.docs.iter().position(|d| d.start == pos));
        if let Some(index) = index {
            again.begin(index);
        }
        again
    }

    fn pos(&self) -> usize {
        self.at
    }

    fn token_start(&self) -> usize {
        self.at
    }

    fn depth(&self) -> usize {
        self.depth
    }

    fn list_starts_with_container(&self) -> bool {
        let items = &self.loaded.items;
        match items.get(self.walk.next_index()) {
            Some(Item::Open { .. }) => true,
            Some(&Item::Alias { start, .. }) => matches!(items.get(start), Some(Item::Open { .. })),
            _ => false,
        }
    }

    fn skim_list(&self, shapes: &mut impl Shapes) {
        let mut cursor = self.clone();
        let base = self.depth.saturating_sub(1);
        shapes.list(base, self.list_starts_with_container());
        // The next event is the first element of the list just opened.
        let mut first = true;
        while let Ok(Some(event)) = cursor.read_event() {
            let holder = cursor.depth;
            match event {
                Event::MapStart | Event::ListStart => {
                    let d = cursor.depth - 1;
                    match event {
                        Event::MapStart => shapes.map(d),
                        _ => shapes.list(d, cursor.list_starts_with_container()),
                    }
                    first = matches!(event, Event::ListStart);
                }
                Event::MapEnd | Event::ListEnd => {
                    if cursor.depth <= base {
                        return;
                    }
                    first = false;
                }
                Event::Key(_) => {}
                // Directly in a list, it uncuddles it.
                Event::Trivia(_) => {
                    if holder > 0 && shapes.is_list(holder - 1) {
                        shapes.scalar_element(holder - 1);
                    }
                }
                Event::Str(_) | Event::Number { .. } | Event::Bool(_) | Event::Null => {
                    if holder > 0 && !first && shapes.is_list(holder - 1) {
                        shapes.scalar_element(holder - 1);
                    }
                    first = false;
                }
            }
        }
    }

    fn preamble(&mut self) -> Option<Trivia<'l>> {
        let (next, end) = self.preamble;
        let trivia = *self.loaded.preambles.get(next).filter(|_| next < end)?;
        self.preamble.0 += 1;
        Some(trivia)
    }

    fn document_is_empty(&self) -> bool {
        let current = self.next_doc.checked_sub(1);
        current
            .and_then(|i| self.loaded.docs.get(i))
            .is_some_and(|doc| doc.first == doc.end)
    }

    fn key_at(&self, pos: usize) -> Text<'l> {
        let keys = &self.loaded.keys;
        match keys.binary_search_by_key(&pos, |&(at, _)| at) {
            Ok(i) => keys
                .get(i)
                .map_or(Text::printable(""), |&(_, t)| self.text(t)),
            Err(_) => Text::printable(""),
        }
    }
}
