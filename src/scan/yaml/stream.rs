//! The YAML [`Source`]: the loader (`load.rs`) run one syntax event at a
//! time, its items given out as soon as they are final, without an item
//! list (docs/yaml-streaming.md).
//!
//! Owns the window: the loader pushes items and attachment (`attach.rs`)
//! makes records as the parser reads; an item is final once
//! [`Attach::horizon`](super::attach::Attach::horizon) has passed it (no
//! record can still be placed before it) or its document is complete, and
//! the records before it are then taken, settled ([`Settle`], online, one
//! item of lookahead for a blank line) and given out before it. What was
//! given out is dropped, decoded texts with it, so memory is the input
//! plus the parser's stacks and the items of about one line (the plan adds
//! the keys of the open maps).
//!
//! Reading again: a clone is a saved place (a bet, a skim); [`Source::at`]
//! restarts the current document from a clone saved when it began, so the
//! checking pass and the writing pass read the same bytes with the same
//! code. Keys are read again the same way ([`StreamSource::key_at`]).
//! After a lost bet ([`Source::rewind_and_skim`]) the skim reads on the
//! reader itself and keeps what it gives out, which reading then replays
//! (`kept`): the one-pass writer's memory grows by that list's items, and
//! its input is read once more, not twice.
//! Warnings go to one list shared by every reading of the stream, each
//! noted once: by the first reading that takes the syntax event it is
//! about.
//!
//! Anchors and aliases: the items of an anchored collection are copied
//! into the keep arena (`Kept` in `load/kept.rs`, shared by every reading of
//! the stream) as they are read, and an alias replays them from there
//! through a [`Walk`] (no comments; `open` is false meanwhile, as while a
//! lost bet's skim is replayed); the arena is emptied when the next
//! document opens. Memory then grows by the anchored collections of the
//! current document (a root anchor: the whole document).
//!
//! Merge keys: a merge may drop entries written before it (kubectl's last
//! writer wins), so a map that holds one is held: [`merge_maps`] reads the
//! input once more with the parser alone (only if a `<<` could be a key)
//! and lists those maps by number; the loader keeps such a map in the
//! arena, where its merges are decided as it closes, and nothing from its
//! start on is given out until then. Its window start is then an
//! [`Item::Held`], which the reader gives out by walking the arena
//! (`HeldWalk`), settling the comments the walk passes as the window's
//! walk would; once given out, a held map that nothing may name leaves the
//! arena (not while a one-pass reading's bets may go back to it). A
//! reading that runs ahead (skim, look ahead, keys read again) keeps a
//! copy of the arena in such a stream.
//!
//! Also here: the warnings of a whole stream, located ([`warnings`]).

use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::RefCell;

use super::attach::{Settle, Step};
use super::load::{verbatim, Item, Loader, Merging, TextRef, Walk};
use super::parser::Parser;
use super::syntax::Kind;
use crate::error::{Fault, Warning};
use crate::options::Options;
use crate::scan::resolve::Schema;
use crate::scan::{AsText, Event, Shapes, Source, Text, Trivia};

/// The numbers (maps opened in the stream before it, in input order) of
/// the maps of `input` that hold a key written `<<` (any tag, any style),
/// sorted: the maps the reader holds, which [`Loader`] checks as each map
/// opens. A merge may drop entries written before it (the last writer of
/// a key wins), so a map must be known to hold one when it opens. Most
/// inputs hold no `<<` byte pair at all, found at `memchr` speed, and
/// most others none that a scalar `<<` could be written with
/// ([`may_be_merge_key`]: `cat <<EOF`, `x<<1`): `None` then. The rest
/// (`cat << EOF`, a comment `# a << b`, merge keys) are read once more by
/// the parser alone, up to its first error: the loader reads nothing past
/// it, and its own depth limit is at most this reading's `MAX_DEPTH`, so
/// its error is not later.
pub(super) fn merge_maps(input: &[u8]) -> Option<Rc<[u32]>> {
    let all = hold_all();
    if !all && !may_hold_merge_key(input) {
        return None;
    }
    let mut parser = Parser::new(input, crate::options::MAX_DEPTH);
    // Each open collection: a map's number, and whether a key is next.
    let mut open: Vec<(Option<u32>, bool)> = Vec::new();
    let (mut maps, mut held) = (0u32, Vec::new());
    while let Some(Ok(event)) = parser.next_event() {
        let node = matches!(
            event.kind,
            Kind::MappingStart { .. }
                | Kind::SequenceStart { .. }
                | Kind::Scalar { .. }
                | Kind::Alias { .. }
        );
        let key = match open.last_mut() {
            Some((Some(_), key_next)) if node => core::mem::replace(key_next, !*key_next),
            _ => false,
        };
        match event.kind {
            Kind::MappingStart { .. } => {
                if all {
                    held.push(maps);
                }
                open.push((Some(maps), true));
                maps += 1;
            }
            Kind::SequenceStart { .. } => open.push((None, false)),
            Kind::MappingEnd | Kind::SequenceEnd => {
                open.pop();
            }
            Kind::Scalar { scalar, .. } if key && scalar.as_str() == Some("<<") => {
                if let Some(&(Some(map), _)) = open.last() {
                    held.push(map);
                }
            }
            Kind::DocumentStart { .. } => open.clear(),
            _ => {}
        }
    }
    held.sort_unstable();
    held.dedup();
    (!held.is_empty()).then(|| held.into())
}

/// Whether `input` may hold a scalar written `<<`: a `<<` byte pair that
/// [`may_be_merge_key`] does not rule out.
fn may_hold_merge_key(input: &[u8]) -> bool {
    // `<` is rare, so the bytes around one are looked at there.
    let mut at = 0;
    loop {
        at = crate::swar::less_than(input, at);
        match input.get(at) {
            None => return false,
            Some(_) if may_be_merge_key(input, at) => return true,
            Some(_) => at += 1,
        }
    }
}

#[cfg(test)]
std::thread_local! {
    /// Tests: every map is held, as if each held a merge key (what the
    /// reader gives out must not change).
    pub(super) static HOLD_ALL: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// Whether every map is held (`HOLD_ALL`, tests only).
fn hold_all() -> bool {
    #[cfg(test)]
    return HOLD_ALL.with(core::cell::Cell::get);
    #[cfg(not(test))]
    false
}

/// Whether the `<` at `at` may start a scalar written `<<`: plain, it is
/// `<<` with no byte of a plain scalar on either side (before: the input's
/// start, a byte order mark's last byte, a space, a tab, a line break, a
/// flow indicator or `:` (`{"a":<<}`); after: its end, one of those but
/// `[` and `{`); quoted, `'<<'` or `"<<"`.
fn may_be_merge_key(input: &[u8], at: usize) -> bool {
    if input.get(at + 1) != Some(&b'<') {
        return false;
    }
    let before = at.checked_sub(1).and_then(|i| input.get(i)).copied();
    let after = input.get(at + 2).copied();
    let plain_before = before.is_none_or(|b| b"\xBF \t\r\n[]{},:".contains(&b));
    let plain_after = after.is_none_or(|b| b" \t\r\n]},:".contains(&b));
    let quoted = matches!(
        (before, after),
        (Some(b'\''), Some(b'\'')) | (Some(b'"'), Some(b'"'))
    );
    (plain_before && plain_after) || quoted
}

/// The warnings of the YAML `input` under `opts`, located.
pub(crate) fn warnings(input: &[u8], opts: Options) -> Vec<Warning> {
    let (schema, depth) = (opts.yaml_schema(), opts.depth_limit());
    let noted = Rc::new(RefCell::new(Noted::default()));
    StreamSource::new(input, schema, depth, Some(noted.clone())).read_rest();
    let noted = noted.borrow();
    super::load::locate_warnings(input, &noted.warnings)
}

/// The warnings of every reading of one stream.
#[derive(Debug, Default)]
pub(crate) struct Noted {
    /// How many syntax events some reading has taken: the warnings of an
    /// event are noted by the first reading past it.
    through: usize,
    pub(crate) warnings: Vec<crate::error::NotedWarning>,
}

/// A document's keys with where each starts, in document order.
type KeysByPosition<'a> = Rc<Vec<(usize, KeyText<'a>)>>;

/// A key read again ([`StreamSource::key_at`]): a span of the input, or
/// decoded.
#[derive(Clone, Debug)]
pub(crate) enum KeyText<'a> {
    Input(Text<'a>),
    Decoded(String),
}

impl AsText for KeyText<'_> {
    fn as_text(&self) -> Text<'_> {
        match self {
            KeyText::Input(text) => *text,
            KeyText::Decoded(s) => verbatim(s),
        }
    }
}

/// The streaming YAML reader (see the module docs).
#[derive(Clone)]
pub(crate) struct StreamSource<'a> {
    loader: Loader<'a>,
    /// Syntax events taken, for [`Noted::through`].
    events: usize,
    /// The parser has ended or failed (and the loader finished).
    finished: bool,
    /// Items before this number are final, and their records taken.
    horizon: usize,
    /// Final records of the current document, in order, from
    /// `records_next` on not settled yet.
    records: Vec<(usize, Trivia<'a>)>,
    records_next: usize,
    settle: Settle<'a>,
    /// `settle.out` from here on is not given out yet.
    settled_next: usize,
    /// The last item stepped over and not yet told to `settle`.
    unsettled: Option<Step>,
    /// The document has had a record (then `settle` knows it).
    settling: bool,
    /// A document is open (`loader.out.docs[0]`) and its events are read
    /// from the window; false also while a lost bet's skim is replayed
    /// (`kept`), so that `next_event` asks one question before reading.
    /// [`StreamSource::in_document`] says whether a document is open.
    open: bool,
    /// Where the current document's items end once it is closed, else
    /// `usize::MAX` (see [`StreamSource::note_end`]).
    end: usize,
    /// The number of the item given out next, and whether its records are
    /// settled.
    next: usize,
    prepared: bool,
    depth: usize,
    at: usize,
    /// Comments before the current document's header, from
    /// `preamble_next` on.
    preamble: Vec<Trivia<'a>>,
    preamble_next: usize,
    noted: Option<Rc<RefCell<Noted>>>,
    /// This reader when the current document began, for [`Source::at`].
    start: Option<Rc<StreamSource<'a>>>,
    /// The current document's keys by position, read again from `start`
    /// once, when [`Source::key_at`] is first asked: the duplicate check
    /// may ask for many (strangers whose hashes collide are sorted by
    /// text), and a read per question made a map of 3,000 such keys take
    /// 9 s. Held only after that question, and dropped with the document.
    keys: RefCell<Option<KeysByPosition<'a>>>,
    /// What a lost bet's skim gave out ([`Source::rewind_and_skim`]),
    /// given out again while `replaying`: the items numbered from
    /// `kept.0` (the next) to `kept.1`, which the window keeps (and
    /// `loader.out.store` their texts), and the comments given out among
    /// them, from `kept_comment` on, each with the number of the item it
    /// came before.
    kept: (usize, usize),
    kept_comments: Vec<(usize, Trivia<'a>)>,
    kept_comment: usize,
    replaying: bool,
    /// The replay of an alias from the keep arena (`Loader::keep`), while
    /// it lasts (then `open` is false, as while `replaying`).
    alias: Option<Walk>,
    /// The decoded text of the item an alias replays.
    replayed: String,
    /// A held map being given out (then `open` is false).
    held: Option<Box<HeldWalk>>,
    /// Held maps leave the keep arena once given out: false for a reading
    /// that places bets (set by [`StreamSource::one_pass`]), whose marks
    /// share the arena and may go back to a held map given out.
    reclaim: bool,
}

/// A map that holds a merge key, given out from the keep arena, where its
/// merges were decided (`Kept`), as the loaded walk read it: `give` is the
/// walk of the events given out, and `feed` runs one item ahead of it,
/// telling [`Settle`] each item and the records it reaches (as
/// [`StreamSource::settle_through`] does one item ahead in the window).
/// A record is reached where a walk reading the map's own items (or an
/// inline merged map's, past the merge key) passes its slot: arena index
/// `start + i` is the window's item `open + i`.
#[derive(Clone, Debug)]
struct HeldWalk {
    give: Walk,
    feed: Walk,
    /// The item `feed` read and told, not given out yet.
    ahead: bool,
    feed_done: bool,
    /// `feed` is where `give` is, not kept in step (see
    /// [`StreamSource::held_step`]).
    feed_at_give: bool,
    start: usize,
    end: usize,
    open: usize,
    close: usize,
}

impl HeldWalk {
    /// Whether `walk` has passed the record slot `slot`.
    fn reaches(&self, walk: &Walk, slot: usize) -> bool {
        walk.reaches(slot, self.start, self.open)
    }
}

impl<'a> StreamSource<'a> {
    /// A reader of the YAML stream `input`; its warnings go to `noted`,
    /// if given.
    pub(crate) fn new(
        input: &'a [u8],
        schema: Schema,
        depth_limit: usize,
        noted: Option<Rc<RefCell<Noted>>>,
    ) -> StreamSource<'a> {
        let mut loader = Loader::new(input, schema, depth_limit);
        // A keep arena for the anchors and the maps with merge keys.
        loader.keep = Some(Rc::default());
        loader.merging = merge_maps(input).map(|held| Box::new(Merging::new(held)));
        StreamSource {
            loader,
            events: 0,
            finished: false,
            horizon: 0,
            records: Vec::new(),
            records_next: 0,
            settle: Settle::new(0),
            settled_next: 0,
            unsettled: None,
            settling: false,
            open: false,
            end: usize::MAX,
            next: 0,
            prepared: false,
            depth: 0,
            at: 0,
            preamble: Vec::new(),
            preamble_next: 0,
            noted,
            start: None,
            keys: RefCell::new(None),
            kept: (0, 0),
            kept_comments: Vec::new(),
            kept_comment: 0,
            replaying: false,
            alias: None,
            replayed: String::new(),
            held: None,
            reclaim: true,
        }
    }

    /// A reading that runs ahead of this one and is then dropped (a skim, a
    /// look ahead, keys read again) keeps what it reads in a copy of the
    /// keep arena, where a stream holds maps: a held map's items are
    /// rewritten as it closes, and given out ones leave the arena, so a
    /// reading ahead would change what this one reads.
    fn own_arena(&mut self) {
        if let (Some(_), Some(keep)) = (&self.loader.merging, &self.loader.keep) {
            let copy = keep.borrow().clone();
            self.loader.keep = Some(Rc::new(RefCell::new(copy)));
        }
    }

    /// This reading writes in one pass, placing bets (clones it may go
    /// back to): the held maps it gave out stay in the keep arena until
    /// the document ends.
    pub(crate) fn one_pass(&mut self) {
        self.reclaim = false;
    }

    /// Takes one syntax event into the loader; false once the stream is
    /// over.
    #[inline(always)]
    fn pull(&mut self) -> bool {
        if self.finished {
            return false;
        }
        let docs = self.loader.out.docs.len();
        match self.loader.parser.next_event() {
            None => {
                self.loader.finish();
                self.finished = true;
            }
            Some(event) => {
                self.events += 1;
                let step = event.and_then(|e| self.loader.step(e.at, e.kind));
                if let Err(fault) = step {
                    self.loader.fail(fault);
                    self.loader.finish();
                    self.finished = true;
                }
            }
        }
        if !self.loader.out.warnings.is_empty() {
            self.note_warnings();
        }
        if self.finished || self.loader.out.docs.len() != docs {
            // The document before is complete, its foot included.
            self.loader.attach.take_all(&mut self.records);
            self.note_end();
        }
        let attach = &mut self.loader.attach;
        let horizon = attach.release(self.loader.out.base + self.loader.out.items.len());
        self.horizon = attach.take_final(horizon, &mut self.records);
        true
    }

    #[inline(never)]
    fn note_warnings(&mut self) {
        let warnings = &mut self.loader.out.warnings;
        if let Some(noted) = &self.noted {
            let mut noted = noted.borrow_mut();
            if self.events > noted.through {
                noted.through = self.events;
                noted.warnings.append(warnings);
            }
        }
        warnings.clear();
    }

    /// Reads the rest of the stream for its warnings (after an error that
    /// was not the reader's, as a reading to the end would).
    pub(crate) fn read_rest(&mut self) {
        if self.loader.merging.is_none() {
            // Nothing is replayed any more.
            self.loader.keep = None;
        }
        loop {
            let docs = self.loader.out.docs.len();
            if !self.pull() {
                break;
            }
            if self.loader.out.docs.len() != docs && self.loader.hold().is_none() {
                // Nothing of the documents before is replayed.
                self.loader.drop_kept();
            }
            let transient = self.loader.merging.as_ref().and_then(|m| m.transient);
            if let (None, Some(t)) = (self.loader.hold(), transient) {
                self.loader.release_held(t.start, t.end);
            }
            let out = &mut self.loader.out;
            out.base += out.items.len();
            out.items.clear();
            out.store.clear();
            self.records.clear();
        }
    }

    /// The current document is complete (the next one began, or the
    /// stream ended): its records are all taken.
    #[inline(always)]
    fn closed(&self) -> bool {
        self.finished || self.loader.out.docs.len() > 1
    }

    /// Notes where the current document's items end, once it is closed
    /// (its end is set before: at its `DocumentEnd`, or its failure),
    /// so that giving an item out asks one comparison.
    fn note_end(&mut self) {
        let doc = self.loader.out.docs.first().filter(|_| self.closed());
        self.end = doc.map_or(usize::MAX, |d| d.end);
    }

    /// The item numbered `n`, if it is in the window.
    #[inline(always)]
    fn item(&self, n: usize) -> Option<Item<'a>> {
        let out = &self.loader.out;
        n.checked_sub(out.base)
            .and_then(|i| out.items.get(i))
            .copied()
    }

    /// Settles the records before item `n` and, if a blank line waits for
    /// it, the item.
    fn settle_through(&mut self, n: usize) {
        self.settle_records(|slot| slot <= n);
        if n >= self.end {
            return;
        }
        if let Some(item) = self.item(n) {
            let step = item.step();
            match self.settle.holds_blank() {
                true => self.settle.item(step),
                false => self.unsettled = Some(step),
            }
        }
    }

    /// Settles the records from `records_next` on that `reached` says are
    /// passed, in order.
    #[inline(always)]
    fn settle_records(&mut self, reached: impl Fn(usize) -> bool) {
        while let Some(&(slot, trivia)) = self.records.get(self.records_next) {
            if !reached(slot) {
                break;
            }
            if !self.settling {
                self.settling = true;
                let first = self.loader.out.docs.first().map_or(0, |d| d.first);
                let has_item = self.item(first).is_some() || self.next > first;
                self.settle.document(!has_item);
            }
            if let Some(step) = self.unsettled.take() {
                self.settle.item(step);
            }
            self.settle.record(slot, trivia);
            self.records_next += 1;
        }
        if self.records_next == self.records.len() {
            self.records.clear();
            self.records_next = 0;
        }
    }

    /// Gives out item `next`, `item`: its event, or its failure (staying
    /// on it).
    #[inline(always)]
    fn give_out(&mut self, item: Item<'a>) -> Result<Option<Event<'_, Trivia<'a>>>, Fault> {
        if let Item::Fail(fault) = item {
            return Err(fault);
        }
        self.next += 1;
        self.prepared = false;
        if let Item::Open { map: false, .. } = item {
            // The first element is looked at (`list_starts_with_container`).
            while self.item(self.next).is_none() && !self.closed() {
                self.pull();
            }
        }
        Ok(Some(self.item_event(item)))
    }

    /// The event of a data item (an alias: the first of its replay): the
    /// position and depth it sets are what the driver asks for next.
    #[inline(always)]
    fn item_event(&mut self, item: Item<'a>) -> Event<'_, Trivia<'a>> {
        self.data_event(item, false)
    }

    /// Starts replaying the kept items `start..end` (an alias), giving out
    /// the first.
    #[inline(never)]
    fn replay_alias(&mut self, start: usize, end: usize) -> Event<'_, Trivia<'a>> {
        self.alias = Some(Walk::new(start, end));
        self.open = false;
        self.alias_event().unwrap_or(Event::Null)
    }

    /// The next event of the alias being replayed; after the last, reading
    /// goes on where it was.
    #[inline(never)]
    fn alias_event(&mut self) -> Option<Event<'_, Trivia<'a>>> {
        let walk = self.alias.as_mut()?;
        let keep = self.loader.keep.as_ref()?;
        let kept = keep.borrow();
        let item = loop {
            match walk.next_item(&kept.items, &kept.entries) {
                Some(Some(item)) => break Some(item),
                Some(None) => continue,
                None => break None,
            }
        };
        if walk.is_done() || item.is_none() {
            self.alias = None;
            self.open = !self.replaying;
        }
        // Its decoded text is copied out of the shared arena.
        self.replayed.clear();
        let item = item?.stored_again(&kept.store, &mut self.replayed);
        drop(kept);
        Some(self.data_event(item, true))
    }

    /// The event of a data item, its stored text in the window's store or,
    /// `replayed`, in [`StreamSource::replayed`] (an alias in the window:
    /// the first event of its replay).
    #[inline(always)]
    fn data_event(&mut self, item: Item<'a>, replayed: bool) -> Event<'_, Trivia<'a>> {
        match item {
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
                Event::Key(text_in(self.store(replayed), text))
            }
            Item::Str { at, text } => {
                self.at = at;
                Event::Str(text_in(self.store(replayed), text))
            }
            Item::Number { at, start, end } => {
                self.at = at;
                Event::Number {
                    text: self.store(replayed).get(start..end).unwrap_or("0"),
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
            // Only in the window (a replay's walk follows nested ones).
            Item::Alias { start, end } => self.replay_alias(start, end),
            Item::Held { .. } => self.enter_held(),
            // Not met: merges are in held maps, whose walk follows them,
            // and failures are returned before.
            Item::Merge { .. } | Item::Fail(_) => Event::Null,
        }
    }

    /// Starts giving out the held map of [`Item::Held`] number `next - 1`:
    /// its start, once it has closed and every record before its end is
    /// final (its items are then `start..end` of the keep arena, and it
    /// ends at item `close` of the window).
    #[inline(never)]
    fn enter_held(&mut self) -> Event<'_, Trivia<'a>> {
        let n = self.next - 1;
        let (start, end, close) = loop {
            match self.item(n) {
                Some(Item::Held { start, end, close })
                    if (close != usize::MAX && self.horizon > close) || self.closed() =>
                {
                    break (start, end, close);
                }
                _ if self.closed() => break (0, 0, n),
                _ => {
                    self.pull();
                }
            }
        };
        let at = self
            .loader
            .keep
            .as_ref()
            .and_then(|keep| match keep.borrow().items.get(start) {
                Some(&Item::Open { at, .. }) => Some(at),
                _ => None,
            });
        self.held = Some(Box::new(HeldWalk {
            give: Walk::new(start + 1, end),
            feed: Walk::new(start + 1, end),
            ahead: false,
            feed_done: false,
            feed_at_give: false,
            start,
            end,
            open: self.next - 1,
            close,
        }));
        self.open = false;
        self.at = at.unwrap_or(self.at);
        self.depth += 1;
        Event::MapStart
    }

    /// The next of a held map: a comment or blank line due, or an item
    /// (its stored text moved to `replayed`), or its end (then reading
    /// goes on in the window after it). Asked where
    /// [`StreamSource::held_item`] has no item.
    #[inline(never)]
    fn held_step(&mut self) -> Held<'a> {
        let Some(mut walk) = self.held.take() else {
            return Held::Done;
        };
        let Some(keep) = self.loader.keep.clone() else {
            return Held::Done;
        };
        let kept = keep.borrow();
        let step = loop {
            if core::mem::take(&mut walk.feed_at_give) {
                walk.feed.follow(&walk.give);
            }
            if !walk.ahead && !walk.feed_done {
                // The feed reads one item ahead, settling what it reaches.
                loop {
                    self.settle_records(|slot| walk.reaches(&walk.feed, slot));
                    match walk.feed.next_item(&kept.items, &kept.entries) {
                        None => walk.feed_done = true,
                        Some(None) => continue,
                        Some(Some(item)) => {
                            let step = item.step();
                            match self.settle.holds_blank() {
                                true => self.settle.item(step),
                                false => self.unsettled = Some(step),
                            }
                            walk.ahead = true;
                        }
                    }
                    break;
                }
            }
            if let Some(&(slot, trivia)) = self.settle.out.get(self.settled_next) {
                if walk.reaches(&walk.give, slot) {
                    self.settled_next += 1;
                    if self.settled_next == self.settle.out.len() {
                        self.settle.out.clear();
                        self.settled_next = 0;
                    }
                    break Held::Trivia(trivia);
                }
            }
            match walk.give.next_item(&kept.items, &kept.entries) {
                None => break Held::Done,
                Some(None) => continue,
                Some(Some(item)) => {
                    walk.ahead = false;
                    self.replayed.clear();
                    break Held::Item(item.stored_again(&kept.store, &mut self.replayed));
                }
            }
        };
        drop(kept);
        match step {
            Held::Done => {
                // On in the window, after its last item.
                (self.open, self.next, self.prepared) = (true, walk.close + 1, false);
                if self.reclaim {
                    self.loader.release_held(walk.start, walk.end);
                }
                if self.next - self.loader.out.base >= 1024 {
                    self.drop_given();
                }
            }
            _ => self.held = Some(walk),
        }
        step
    }

    /// The next of a held map (see [`StreamSource::held_step`]): out of
    /// `read_event`, whose every caller it would slow, and apart from
    /// `held_step`, whose set-up most items do not need.
    #[inline(never)]
    fn held_next(&mut self) -> Held<'a> {
        match self.held_item() {
            Some(item) => Held::Item(item),
            None => self.held_step(),
        }
    }

    /// The next item of the held map being given out where nothing is to
    /// be settled or given out before it in this map (the common case: no
    /// record its walk can reach waits, as in `read_event`'s fast path in
    /// the window), told as `feed` would tell it; `feed` is moved to
    /// `give` only where a record is due again. None otherwise, or at the
    /// map's end: [`StreamSource::held_step`] then walks on.
    #[inline(always)]
    fn held_item(&mut self) -> Option<Item<'a>> {
        let walk = self.held.as_deref_mut()?;
        // The greatest record slot a walk of this map reaches.
        let reach = walk.end - walk.start + walk.open;
        let due = self.records.get(self.records_next);
        if walk.ahead
            || self.settle.out.get(self.settled_next).is_some()
            || self.settle.holds_blank()
            || due.is_some_and(|&(slot, _)| slot <= reach)
        {
            return None;
        }
        let kept = self.loader.keep.as_ref()?.borrow();
        walk.feed_at_give = true;
        loop {
            match walk.give.next_item(&kept.items, &kept.entries)? {
                None => continue,
                Some(item) => {
                    self.unsettled = Some(item.step());
                    self.replayed.clear();
                    return Some(item.stored_again(&kept.store, &mut self.replayed));
                }
            }
        }
    }

    /// Where stored texts are: the window's store, or `replayed`, the text
    /// of the item an alias replays.
    #[inline(always)]
    fn store(&self, replayed: bool) -> &str {
        match replayed {
            true => &self.replayed,
            false => &self.loader.out.store,
        }
    }
}

/// The text `text` of an item whose stored texts are in `store`.
fn text_in<'s>(store: &'s str, text: TextRef<'s>) -> Text<'s> {
    match text {
        TextRef::Input(text) => text,
        TextRef::Stored { start, end } => verbatim(store.get(start..end).unwrap_or("")),
    }
}

impl<'a> StreamSource<'a> {
    /// Reads the list just opened to its end (or the document's first
    /// error), telling `shapes` what it holds (see [`Source::skim_list`]);
    /// with `KEEP`, keeps the window and notes the comments given out in
    /// `kept_comments`.
    fn skim<const KEEP: bool>(&mut self, shapes: &mut impl Shapes) {
        let base = self.depth.saturating_sub(1);
        shapes.list(base, self.list_starts_with_container());
        // The next event is the first element of the list just opened.
        let mut first = true;
        loop {
            let event = match KEEP {
                true => self.read_event::<false>(),
                false => self.read_event::<true>(),
            };
            let (kind, trivia) = match event {
                Ok(Some(Event::Trivia(trivia))) => (Skimmed::Trivia, Some(trivia)),
                Ok(Some(event)) => (Skimmed::of(&event), None),
                _ => return,
            };
            if let (true, Some(trivia)) = (KEEP, trivia) {
                self.kept_comments.push((self.next, trivia));
            }
            let holder = self.depth;
            match kind {
                Skimmed::Open(map) => {
                    let d = self.depth - 1;
                    match map {
                        true => shapes.map(d),
                        false => shapes.list(d, self.list_starts_with_container()),
                    }
                    first = !map;
                }
                Skimmed::Close => {
                    if self.depth <= base {
                        return;
                    }
                    first = false;
                }
                Skimmed::Key => {}
                // Directly in a list, it uncuddles it.
                Skimmed::Trivia => {
                    if holder > 0 && shapes.is_list(holder - 1) {
                        shapes.scalar_element(holder - 1);
                    }
                }
                Skimmed::Scalar => {
                    if holder > 0 && !first && shapes.is_list(holder - 1) {
                        shapes.scalar_element(holder - 1);
                    }
                    first = false;
                }
            }
        }
    }

    /// The next event (see [`Source::next_event`]); with `DROP`, the
    /// window is dropped once everything loaded was given out (not while a
    /// lost bet's skim keeps it).
    #[inline(always)]
    fn read_event<const DROP: bool>(&mut self) -> Result<Option<Event<'_, Trivia<'a>>>, Fault> {
        if !self.open {
            if self.alias.is_some() {
                return Ok(self.alias_event());
            }
            if self.held.is_some() {
                match self.held_next() {
                    Held::Trivia(trivia) => return Ok(Some(Event::Trivia(trivia))),
                    Held::Item(Item::Fail(fault)) => return Err(fault),
                    Held::Item(item) => return Ok(Some(self.data_event(item, true))),
                    // Reading goes on in the window (`open`).
                    Held::Done => {}
                }
            }
        }
        if !self.open {
            return match self.replaying {
                true => Ok(Some(self.replay())),
                false => Ok(None),
            };
        }
        let out = &mut self.loader.out;
        if DROP && self.next == out.base + out.items.len() && !out.items.is_empty() {
            // Everything loaded was given out.
            out.base = self.next;
            out.items.clear();
            out.store.clear();
        }
        loop {
            if !self.prepared {
                if self.next >= self.horizon && !self.closed() {
                    self.pull();
                    continue;
                }
                if self.records.is_empty()
                    && self.settle.out.is_empty()
                    && !self.settle.holds_blank()
                {
                    // Nothing to settle or give out before item `next`
                    // (the common case, without comments): what
                    // `settle_through` would do, and the item.
                    if self.next >= self.end {
                        return Ok(None);
                    }
                    let Some(item) = self.item(self.next) else {
                        return Ok(None);
                    };
                    self.unsettled = Some(item.step());
                    return self.give_out(item);
                }
                self.settle_through(self.next);
                self.prepared = true;
            }
            if let Some(&(slot, trivia)) = self.settle.out.get(self.settled_next) {
                if slot <= self.next {
                    self.settled_next += 1;
                    if self.settled_next == self.settle.out.len() {
                        self.settle.out.clear();
                        self.settled_next = 0;
                    }
                    return Ok(Some(Event::Trivia(trivia)));
                }
            }
            if self.next >= self.end {
                return Ok(None);
            }
            let Some(item) = self.item(self.next) else {
                return Ok(None);
            };
            return self.give_out(item);
        }
    }

    /// Drops the items given out from the window when they are most of
    /// it, the stored texts of the others moved to a new store (asked
    /// after a held map is given out): the loader may always be ahead of
    /// the reader where maps are held (each is given out once the next
    /// line is read), so the window is not always empty when reading asks
    /// for more.
    #[inline(never)]
    fn drop_given(&mut self) {
        let out = &mut self.loader.out;
        let given = self.next - out.base;
        if given * 2 < out.items.len() {
            return;
        }
        // In place: the window keeps its capacity (a new list would grow
        // again item by item).
        out.items.drain(..given.min(out.items.len()));
        let mut store = String::new();
        for item in out.items.iter_mut() {
            *item = item.stored_again(&out.store, &mut store);
        }
        out.store.clear();
        out.store.push_str(&store);
        out.base = self.next;
    }

    /// Whether a document is open (see `open`).
    fn in_document(&self) -> bool {
        self.open || self.replaying || self.alias.is_some() || self.held.is_some()
    }

    /// Gives out the next event kept by a lost bet's skim, as it was given
    /// out then; after the last, reading goes on from the input.
    #[inline(never)]
    fn replay(&mut self) -> Event<'_, Trivia<'a>> {
        let (next, end) = self.kept;
        let comment = self.kept_comments.get(self.kept_comment);
        let given = match comment {
            Some(&(before, trivia)) if before <= next => {
                self.kept_comment += 1;
                Err(trivia)
            }
            _ => {
                self.kept.0 = next + 1;
                Ok(next)
            }
        };
        if self.kept.0 >= end && self.kept_comment == self.kept_comments.len() {
            self.kept_comments.clear();
            (self.kept_comment, self.replaying, self.open) = (0, false, true);
        }
        match given {
            Err(trivia) => Event::Trivia(trivia),
            Ok(n) => {
                let item = self.item(n).unwrap_or(Item::Null { at: self.at });
                self.item_event(item)
            }
        }
    }
}

impl<'a> StreamSource<'a> {
    /// Every key of the current document with where its event starts, in
    /// document order, read again from the document's start (up to its
    /// end or first error).
    fn read_keys(&self) -> Vec<(usize, KeyText<'a>)> {
        let mut keys = Vec::new();
        let Some(start) = &self.start else {
            return keys;
        };
        let mut again = StreamSource::clone(start);
        again.noted = None;
        again.own_arena();
        loop {
            let found = match again.next_event() {
                Ok(Some(Event::Key(text))) => String::from(text.raw()),
                Ok(Some(_)) => continue,
                _ => return keys,
            };
            // A held map's key is not the window's item.
            let item = match again.held {
                Some(_) => None,
                None => again.next.checked_sub(1).and_then(|n| again.item(n)),
            };
            let text = match item {
                Some(Item::Key {
                    text: TextRef::Input(text),
                    ..
                }) => KeyText::Input(text),
                _ => KeyText::Decoded(found),
            };
            keys.push((again.at, text));
        }
    }

    /// The keys [`StreamSource::read_keys`] read, by position: an alias
    /// replays keys read before, which are kept once.
    fn keys_by_position(&self) -> Vec<(usize, KeyText<'a>)> {
        let mut keys = self.read_keys();
        keys.sort_by_key(|&(at, _)| at);
        keys.dedup_by_key(|&mut (at, _)| at);
        keys
    }
}

impl<'a> Source<'a> for StreamSource<'a> {
    type Trivia = Trivia<'a>;
    type KeyText = KeyText<'a>;

    /// The next event of the current document (see [`Source::next_event`]).
    fn next_event(&mut self) -> Result<Option<Event<'_, Trivia<'a>>>, Fault> {
        self.read_event::<true>()
    }

    /// Moves to the next document (see [`Source::next_document`]).
    fn next_document(&mut self) -> Result<bool, Fault> {
        if self.in_document() {
            // The rest of the current one, unread.
            while !self.closed() {
                self.pull();
            }
            self.loader.out.docs.remove(0);
            self.note_end();
        }
        while self.loader.out.docs.is_empty() && self.pull() {}
        let out = &mut self.loader.out;
        out.base += out.items.len();
        out.items.clear();
        out.store.clear();
        (self.records_next, self.settled_next) = (0, 0);
        self.records.clear();
        self.settle.out.clear();
        // A blank line the last document held (before its end) is not
        // this one's.
        self.settle.document(false);
        (self.unsettled, self.settling, self.prepared) = (None, false, false);
        self.preamble.clear();
        self.preamble_next = 0;
        self.depth = 0;
        self.kept_comments.clear();
        (self.kept_comment, self.replaying, self.alias) = (0, false, None);
        self.held = None;
        // The loader has read no further than this document's start.
        self.loader.drop_kept();
        let Some(&doc) = self.loader.out.docs.first() else {
            // An input of nothing but comments: they are its preamble.
            self.open = false;
            let (start, end) = self.loader.out.tail;
            let preambles = &self.loader.attach.preambles;
            self.preamble
                .extend_from_slice(preambles.get(start..end).unwrap_or_default());
            return self.loader.out.after.map_or(Ok(false), Err);
        };
        self.open = true;
        self.next = doc.first;
        self.at = doc.start;
        let (start, end) = doc.preamble;
        let preambles = &mut self.loader.attach.preambles;
        self.preamble
            .extend_from_slice(preambles.get(start..end).unwrap_or_default());
        preambles.clear();
        self.start = None;
        self.keys = RefCell::new(None);
        let mut start = self.clone();
        start.noted = self.noted.clone();
        self.start = Some(Rc::new(start));
        Ok(true)
    }

    /// Where the next document starts, and whether there is one (see
    /// [`Source::peek_document`]).
    fn peek_document(&self) -> Result<(usize, bool), Fault> {
        if !self.closed() {
            let mut ahead = self.clone();
            ahead.noted = None;
            ahead.own_arena();
            while !ahead.closed() {
                ahead.pull();
            }
            return ahead.peek_document();
        }
        let docs = &self.loader.out.docs;
        match (
            docs.get(usize::from(self.in_document())),
            self.loader.out.after,
        ) {
            (Some(doc), _) => Ok((doc.start, true)),
            (None, Some(fault)) => Err(fault),
            (None, None) => Ok((self.at, false)),
        }
    }

    /// The current document read again from its start (see
    /// [`Source::at`]).
    fn at(&self, pos: usize) -> StreamSource<'a> {
        match &self.start {
            Some(start) if start.at == pos => {
                let mut again = StreamSource::clone(start);
                again.start = self.start.clone();
                again
            }
            _ => self.clone(),
        }
    }

    fn pos(&self) -> usize {
        self.at
    }

    fn depth(&self) -> usize {
        self.depth
    }

    /// Asked right after a list opened: its first element, looked at when
    /// the list's start was given out.
    fn list_starts_with_container(&self) -> bool {
        let walk = self.alias.as_ref().or(self.held.as_ref().map(|h| &h.give));
        if let (Some(walk), Some(keep)) = (walk, &self.loader.keep) {
            let kept = keep.borrow();
            let item = kept.items.get(walk.next_index());
            return matches!(item, Some(Item::Open { .. } | Item::Alias { .. }));
        }
        // Replaying, the item after the list's start is the next kept.
        let next = match self.replaying {
            true => self.kept.0,
            false => self.next,
        };
        // An alias names a collection (a scalar's is read again).
        matches!(
            self.item(next),
            Some(Item::Open { .. } | Item::Alias { .. } | Item::Held { .. })
        )
    }

    /// Looks over the list just opened to its end (see
    /// [`Source::skim_list`]): a clone reads on.
    fn skim_list(&self, shapes: &mut impl Shapes) {
        let mut cursor = self.clone();
        cursor.noted = None;
        cursor.own_arena();
        cursor.skim::<false>(shapes);
    }

    /// Goes back to the lost bet's `mark` and skims its list there,
    /// keeping what the skim gives out: reading on replays it (see
    /// [`StreamSource::kept`]), so the list is read from the input once
    /// more, not twice.
    fn rewind_and_skim(&mut self, mark: Self, shapes: &mut impl Shapes) {
        *self = mark;
        if self.alias.is_some() || self.loader.merging.is_some() {
            // A list an alias replays, or in a stream with held maps
            // (whose walk the window's replay does not follow): skimmed
            // on a clone, read again.
            return self.skim_list(shapes);
        }
        let (at, depth) = (self.at, self.depth);
        self.kept_comments.clear();
        let first = self.next;
        self.skim::<true>(shapes);
        (self.at, self.depth, self.kept_comment) = (at, depth, 0);
        self.kept = (first, self.next);
        // Replayed first (see `open`).
        self.replaying = first < self.next || !self.kept_comments.is_empty();
        self.open = !self.replaying;
    }

    fn preamble(&mut self) -> Option<Trivia<'a>> {
        let trivia = *self.preamble.get(self.preamble_next)?;
        self.preamble_next += 1;
        Some(trivia)
    }

    fn document_is_empty(&self) -> bool {
        let doc = self.loader.out.docs.first();
        self.in_document() && doc.is_some_and(|d| self.closed() && d.first == d.end)
    }

    /// The key whose event started at `pos` in the current document: from
    /// the document's keys, read again from its start the first time.
    fn key_at(&self, pos: usize) -> KeyText<'a> {
        let cached = self.keys.borrow().clone();
        let keys = cached.unwrap_or_else(|| {
            let keys = Rc::new(self.keys_by_position());
            *self.keys.borrow_mut() = Some(Rc::clone(&keys));
            keys
        });
        match keys.binary_search_by_key(&pos, |&(at, _)| at) {
            Ok(i) => keys[i].1.clone(),
            Err(_) => KeyText::Input(Text::printable("")),
        }
    }

    fn token_start(&self) -> usize {
        self.at
    }
}

/// What [`StreamSource::held_step`] gives out next.
enum Held<'a> {
    Trivia(Trivia<'a>),
    Item(Item<'a>),
    Done,
}

/// What a skim needs of an event.
#[derive(Clone, Copy)]
enum Skimmed {
    Open(bool),
    Close,
    Key,
    Scalar,
    Trivia,
}

impl Skimmed {
    fn of<T>(event: &Event<'_, T>) -> Skimmed {
        match event {
            Event::MapStart => Skimmed::Open(true),
            Event::ListStart => Skimmed::Open(false),
            Event::MapEnd | Event::ListEnd => Skimmed::Close,
            Event::Key(_) => Skimmed::Key,
            Event::Trivia(_) => Skimmed::Trivia,
            _ => Skimmed::Scalar,
        }
    }
}
