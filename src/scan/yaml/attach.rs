//! Where each comment and blank line of a YAML stream goes (SPEC-YAML.md
//! §2–§4): the one owner of that decision, in two steps.
//!
//! While the stream is loaded ([`Attach`]): an own-line comment group
//! becomes the head comment of the next item, or the foot comment of a
//! collection that ends after it, by rules (a)–(c) (by indentation); a
//! comment after content on its line is that content's line comment, one
//! after `key:` goes after the key's collection value (or is its scalar
//! value's line comment), one after a dash (or `---`, or an opening
//! bracket) is a head comment of what follows; comments before the root,
//! after it, before the first `---`. Each is recorded as a [`Trivia`] and
//! the index of the loaded item it is written before (a *slot*). Blank
//! lines: runs become one; none is kept before a first item or at a
//! document's start or end.
//!
//! Once the stream is loaded ([`Settle`]): the records are met in the
//! order the driver will read them, aliases and merges replayed, and
//! settled into exactly what is written (a blank line only between two
//! things, a line comment only right after its value). The source gives
//! each settled record out when its walk reaches the slot; the emitter
//! writes what it is given.

use alloc::vec::Vec;

use crate::scan::Trivia;

/// What the next node is to its collection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// A document's root.
    Root,
    /// A map's key.
    Key,
    /// A map's value.
    Value,
    /// A list's element.
    Element,
}

/// An open collection, as attachment sees it.
#[derive(Clone, Debug, Default)]
struct AttachFrame<'a> {
    flow: bool,
    /// Where its first item's node starts, and whether it is a list
    /// element (whose column is its dash's): the items' column.
    first_item: Option<(usize, bool)>,
    /// Whether an item has come.
    any_item: bool,
    /// A comment after the `key:` whose value this is: written after the
    /// closing bracket.
    after_close: Option<&'a str>,
}

/// The attachment state of a stream being loaded.
#[derive(Clone, Debug)]
pub(super) struct Attach<'a> {
    input: &'a [u8],
    frames: Vec<AttachFrame<'a>>,
    /// Own-line comments and blank lines not placed yet, in input order.
    pending: Vec<Trivia<'a>>,
    /// The column of each comment of `pending` (`None` for blank lines).
    columns: Vec<Option<usize>>,
    /// Where each of `pending` starts in the input.
    offsets: Vec<usize>,
    /// Where in `pending` the comments after a dash (or `---`, or `[`) on
    /// their line start: they go inside the next collection, before its
    /// first item.
    inside: Option<usize>,
    /// Block collections that ended since `pending` began, innermost first:
    /// the slot of the closing item and the column of the items.
    passed: Vec<(usize, Option<usize>)>,
    /// Where the last token that takes a line comment ends, and the index
    /// of its item if it was a key.
    last: Option<(usize, Option<usize>)>,
    /// A comment after `key:` (the key's item index and the text), waiting
    /// for the value.
    key_comment: Option<(usize, &'a str)>,
    /// The comment after `key:` became the scalar value's line comment:
    /// its record, and the key's slot, if a comment on the value's line
    /// comes too (it then is the item's head comment).
    from_key: Option<(usize, usize)>,
    /// Comment for the next collection to open (its `after_close`).
    next_after_close: Option<&'a str>,
    /// The root collection's slot and how many of `pending` came before
    /// it: the head of its first item, or, if it has none, of the root.
    root_head: Option<(usize, usize)>,
    /// Where this document's records start (counted as [`Attach::made`]).
    doc_first: usize,
    /// How many records were taken out of `trivia` by
    /// [`Attach::take_final`] (a streaming reader's): record numbers count
    /// them.
    taken: usize,
    /// The highest [`Attach::horizon`] reported: no record may be made
    /// below it (checked in debug builds).
    #[cfg(debug_assertions)]
    floor: usize,
    /// Every record: the slot and what to write, ordered by slot within
    /// each document.
    pub(super) trivia: Vec<(usize, Trivia<'a>)>,
    /// Comments before a document's `---`, and of an input with no
    /// document.
    pub(super) preambles: Vec<Trivia<'a>>,
}

impl<'a> Attach<'a> {
    pub(super) fn new(input: &'a [u8]) -> Attach<'a> {
        Attach {
            input,
            frames: Vec::new(),
            pending: Vec::new(),
            columns: Vec::new(),
            offsets: Vec::new(),
            inside: None,
            passed: Vec::new(),
            last: None,
            key_comment: None,
            from_key: None,
            next_after_close: None,
            root_head: None,
            doc_first: 0,
            taken: 0,
            #[cfg(debug_assertions)]
            floor: 0,
            trivia: Vec::new(),
            preambles: Vec::new(),
        }
    }

    /// The smallest slot a record not made yet can still get, when the
    /// next item is at slot `next` (slots are the items' running sequence
    /// numbers): the items before it, and the records at slots before it,
    /// are final. What can still place a record behind `next`: the foot of
    /// a block collection closed while a comment group waits (`passed`,
    /// innermost and so earliest first), the root's head (`root_head`), a
    /// comment after `key:` (`key_comment`, and `last` when the last token
    /// was a key: one may still follow it on its line), and a line comment
    /// that may still become its key's head comment (`from_key`). Every
    /// record's slot is checked against it in debug builds (`record`).
    #[inline(always)]
    pub(super) fn horizon(&self, next: usize) -> usize {
        let mut horizon = next;
        if let Some(&(slot, _)) = self.passed.first() {
            horizon = horizon.min(slot);
        }
        if let Some((slot, _)) = self.root_head {
            horizon = horizon.min(slot);
        }
        if let Some((key, _)) = self.key_comment {
            horizon = horizon.min(key);
        }
        if let Some((_, Some(key))) = self.last {
            horizon = horizon.min(key);
        }
        if let Some((_, key)) = self.from_key {
            horizon = horizon.min(key);
        }
        horizon
    }

    /// Reports [`Attach::horizon`] at `next` as released: in debug builds,
    /// every record made from now on is checked to lie at or past it, and
    /// it never goes back.
    #[inline(always)]
    pub(super) fn release(&mut self, next: usize) -> usize {
        let horizon = self.horizon(next);
        #[cfg(debug_assertions)]
        {
            debug_assert!(
                horizon >= self.floor,
                "the horizon went back from {} to {horizon}",
                self.floor
            );
            self.floor = self.floor.max(horizon);
        }
        horizon
    }

    /// How many records were made (in this document and before it): the
    /// number the next one gets.
    pub(super) fn made(&self) -> usize {
        self.taken + self.trivia.len()
    }

    /// Takes the records that are final into `out`, in the order they are
    /// written: those of documents before this one (complete, ordered),
    /// then this document's at slots before `horizon` (reported by
    /// [`Attach::release`]), stable-sorted by slot, as
    /// [`Attach::document_end`] sorts them (no later record can come
    /// before them). Returns how far items are final: `horizon`, or less
    /// while a line comment may still move to its key (`from_key` points
    /// at it by number, so nothing is taken then).
    #[inline(always)]
    pub(super) fn take_final(
        &mut self,
        horizon: usize,
        out: &mut Vec<(usize, Trivia<'a>)>,
    ) -> usize {
        match self.trivia.is_empty() {
            true => horizon,
            false => self.take_final_records(horizon, out),
        }
    }

    /// [`Attach::take_final`] when there are records.
    #[inline(never)]
    fn take_final_records(&mut self, horizon: usize, out: &mut Vec<(usize, Trivia<'a>)>) -> usize {
        let before = self
            .doc_first
            .saturating_sub(self.taken)
            .min(self.trivia.len());
        if self.from_key.is_some() {
            let current = self.trivia.get(before..).unwrap_or_default();
            let lowest = current.iter().map(|r| r.0).min();
            return lowest.map_or(horizon, |slot| slot.min(horizon));
        }
        let current = self.trivia.get_mut(before..).unwrap_or_default();
        if !current.is_sorted_by_key(|r| r.0) {
            current.sort_by_key(|r| r.0);
        }
        let due = before + current.iter().take_while(|r| r.0 < horizon).count();
        if due > 0 {
            // Else (a comment waiting for its node) nothing moves.
            out.extend(self.trivia.drain(..due));
            self.taken += due;
        }
        horizon
    }

    /// Takes every record left into `out`: the document is complete (the
    /// next one started, or the stream ended).
    pub(super) fn take_all(&mut self, out: &mut Vec<(usize, Trivia<'a>)>) {
        self.taken += self.trivia.len();
        out.append(&mut self.trivia);
    }

    /// Checks (in debug builds) that a record at `slot` is not behind a
    /// horizon already released.
    #[inline(always)]
    fn check_slot(&self, slot: usize) {
        #[cfg(debug_assertions)]
        debug_assert!(
            slot >= self.floor,
            "a record at slot {slot}, behind the released horizon {}",
            self.floor
        );
        let _ = slot;
    }

    /// Makes the record `trivia` at `slot`.
    fn record(&mut self, slot: usize, trivia: Trivia<'a>) {
        self.check_slot(slot);
        self.trivia.push((slot, trivia));
    }

    fn line_start(&self, at: usize) -> usize {
        let before = self.input.get(..at).unwrap_or(self.input);
        before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1)
    }

    fn column_of(&self, at: usize) -> usize {
        at.saturating_sub(self.line_start(at))
    }

    /// A comment: `trailing` when content precedes it on its line.
    pub(super) fn comment(&mut self, at: usize, text: &'a str, trailing: bool, slot: usize) {
        let same_line = trailing
            && self.last.is_some_and(|(end, _)| {
                at < end
                    || !self
                        .input
                        .get(end..at)
                        .is_some_and(|gap| gap.contains(&b'\n'))
            });
        if !same_line {
            if trailing && self.inside.is_none() {
                self.inside = Some(self.pending.len());
            }
            self.pending.push(Trivia::Comment(text));
            self.columns.push(Some(self.indentation(at)));
            self.offsets.push(at);
            return;
        }
        match self.last.and_then(|(_, key)| key) {
            Some(key) => {
                // After `key:`: placed once the value shows its kind.
                if let Some((_, earlier)) = self.key_comment.replace((key, text)) {
                    self.record(key, Trivia::Comment(earlier));
                }
            }
            None => {
                if let Some((record, key_slot)) = self.from_key.take() {
                    self.check_slot(key_slot);
                    let record = record.checked_sub(self.taken);
                    if let Some(r) = record.and_then(|i| self.trivia.get_mut(i)) {
                        if let Trivia::LineComment(t) = r.1 {
                            *r = (key_slot, Trivia::Comment(t));
                        }
                    }
                }
                self.record(slot, Trivia::LineComment(text));
            }
        }
        self.last = None;
    }

    /// Where the dash of a block list element whose node starts at `at`
    /// is, if only white space lies between them.
    fn dash_before(&self, at: usize) -> Option<usize> {
        let before = self.input.get(..at).unwrap_or(&[]);
        let i = before
            .iter()
            .rposition(|&b| !matches!(b, b' ' | b'\n' | b'\r'))?;
        // A `-` that ends a comment is no dash.
        let line = before.get(self.line_start(i)..i).unwrap_or(&[]);
        (before.get(i) == Some(&b'-') && !line.contains(&b'#')).then_some(i)
    }

    /// Just past the dash of a block list element whose node starts at
    /// `at` (on an earlier line), comment lines and blank lines skipped.
    fn dash_line_before(&self, at: usize) -> usize {
        let mut end = self.line_start(at);
        while end > 0 {
            let start = self.line_start(end - 1);
            let line = self.input.get(start..end).unwrap_or(&[]);
            let text = line.iter().position(|&b| !matches!(b, b' ' | b'\t'));
            match text.and_then(|i| line.get(i)) {
                Some(b'#' | b'\n' | b'\r') | None => end = start,
                // Past the dash: a comment after it on its line follows it.
                Some(_) => return start + text.unwrap_or(0) + 1,
            }
        }
        0
    }

    /// The innermost collection passed whose items are at `column`.
    fn foot_of(&self, column: Option<usize>) -> Option<usize> {
        let found = self.passed.iter().find(|p| p.1.is_some() && p.1 == column);
        found.map(|p| p.0)
    }

    /// Places the pending group, each comment where `decide` says by its
    /// column (a blank line goes with the comment after it, or else the
    /// one before), but none before the one above it, each run that goes
    /// to one place together.
    fn resolve(&mut self, decide: impl Fn(&Self, Option<usize>) -> (usize, Place)) {
        let columns = core::mem::take(&mut self.columns);
        self.offsets.clear();
        let mut decisions: Vec<(usize, Place)> = Vec::with_capacity(columns.len());
        for (i, &c) in columns.iter().enumerate() {
            let c = c.or_else(|| {
                columns
                    .get(i..)
                    .and_then(|r| r.iter().flatten().next().copied())
            });
            let c = c.or_else(|| {
                columns
                    .get(..i)
                    .and_then(|r| r.iter().flatten().last().copied())
            });
            let decision = decide(self, c);
            // Never before the one above it (SPEC-YAML.md §3: the order
            // never changes): records are written in slot order, so a
            // comment whose own place comes earlier (`# y` dedented to an
            // outer foot, then `  # x` to an inner one) goes with it.
            let decision = match decisions.last() {
                Some(&above) if above.0 > decision.0 => above,
                _ => decision,
            };
            decisions.push(decision);
        }
        let pending = core::mem::take(&mut self.pending);
        let mut start = 0;
        while let Some(&decision) = decisions.get(start) {
            let run = decisions.get(start..).unwrap_or(&[]);
            let end = start + run.iter().take_while(|&&d| d == decision).count();
            self.pending = pending.get(start..end).unwrap_or(&[]).to_vec();
            self.place(decision.0, decision.1);
            start = end;
        }
        (self.inside, self.pending, self.columns) = (None, Vec::new(), Vec::new());
        self.passed.clear();
    }

    /// The indentation of the line holding `at`.
    fn indentation(&self, at: usize) -> usize {
        let start = self.line_start(at);
        let line = self.input.get(start..).unwrap_or(&[]);
        line.iter().take_while(|&&b| b == b' ').count()
    }

    pub(super) fn blank_line(&mut self, at: usize) {
        if self.pending.last() != Some(&Trivia::BlankLine) {
            self.pending.push(Trivia::BlankLine);
            self.columns.push(None);
            self.offsets.push(at);
        }
    }

    /// Before a node at `at` whose item (if it is one) would be written
    /// at `slot`; `open` says whether it is a collection and its style.
    pub(super) fn node(&mut self, at: usize, role: Role, open: Option<bool>, slot: usize) {
        self.from_key = None;
        if let Some((key, text)) = self.key_comment {
            match (role, open) {
                (Role::Value, Some(_)) => {
                    self.key_comment = None;
                    self.next_after_close = Some(text);
                }
                // A scalar value: its line comment (`scalar_done`).
                (Role::Value, None) => {}
                _ => {
                    self.key_comment = None;
                    self.record(key + 1, Trivia::LineComment(text));
                }
            }
        }
        let first = self.frames.last().is_none_or(|f| !f.any_item);
        if matches!(role, Role::Key | Role::Element) {
            self.root_head = None;
        }
        if let (Role::Key | Role::Element, Some(frame)) = (role, self.frames.last_mut()) {
            // Where the first item's node starts; its column is found only
            // if a comment needs it (see `item_column`).
            frame.any_item = true;
            frame.first_item.get_or_insert((at, role == Role::Element));
        }
        if self.pending.is_empty() {
            return;
        }
        // A block list element's dash, when only white space is between
        // (else comments are: they follow the dash, on an earlier line).
        let block = self.frames.last().is_some_and(|f| !f.flow);
        let dash = match role == Role::Element && block {
            true => self.dash_before(at),
            false => None,
        };
        let dash_line = match (role == Role::Element && block, dash) {
            (true, None) => Some(self.dash_line_before(at)),
            _ => None,
        };
        let item_at = match role {
            Role::Key => Some(at),
            Role::Element => Some(
                dash.or(dash_line.map(|past| past.saturating_sub(1)))
                    .unwrap_or(at),
            ),
            Role::Root | Role::Value => None,
        };
        let column = item_at.map(|a| self.column_of(a));
        match role {
            Role::Value => {}
            Role::Root => {
                let comments = self.pending.iter().any(|t| *t != Trivia::BlankLine);
                if comments && self.pending.last() == Some(&Trivia::BlankLine) {
                    // Set off from the root by a blank line: above it.
                    self.place(slot, Place::DocumentHead);
                } else if open.is_none() || !comments {
                    self.place(slot, Place::Head { first: true });
                } else {
                    // The head of the root's first item (see `close` for
                    // a root with none).
                    self.root_head = Some((slot, self.pending.len()));
                }
            }
            Role::Key | Role::Element => {
                // Comments after the dash (on its line or below it) go
                // inside the item's brackets; those before it by the rules.
                let inside = match dash_line {
                    Some(past) => Some(self.offsets.iter().take_while(|&&o| o < past).count()),
                    None => self.inside,
                };
                let mut rest = None;
                if let (Some(split), Some(_)) = (inside, open) {
                    let split = split.min(self.pending.len());
                    rest = Some((
                        self.pending.split_off(split),
                        self.columns.split_off(split),
                        self.offsets.split_off(split.min(self.offsets.len())),
                    ));
                }
                let first = first && self.passed.is_empty();
                // Rules (a) and (b): above the next item; else (c).
                self.resolve(|this, c| match this.passed.first() {
                    Some(&(innermost, _)) if c.is_some() && c != column => {
                        (this.foot_of(c).unwrap_or(innermost), Place::Foot)
                    }
                    _ => (slot, Place::Head { first }),
                });
                if let Some((pending, columns, offsets)) = rest {
                    (self.pending, self.columns, self.offsets) = (pending, columns, offsets);
                }
            }
        }
    }

    /// After a scalar or alias value ending at `end` was loaded; `key`:
    /// its item index if it is a key; `slot`: the slot after it.
    pub(super) fn scalar_done(&mut self, end: usize, key: Option<usize>, slot: usize) {
        if key.is_none() {
            if let Some((key_slot, text)) = self.key_comment.take() {
                self.from_key = Some((self.made(), key_slot));
                self.record(slot, Trivia::LineComment(text));
            }
        }
        self.last = Some((end, key));
    }

    /// A collection opened.
    pub(super) fn open(&mut self, flow: bool) {
        self.frames.push(AttachFrame {
            flow,
            after_close: self.next_after_close.take(),
            ..AttachFrame::default()
        });
        self.last = None;
    }

    /// The innermost collection closed at `at`; its closing item is at
    /// `slot`.
    pub(super) fn close(&mut self, at: usize, slot: usize) {
        self.from_key = None;
        let Some(frame) = self.frames.pop() else {
            return;
        };
        if let Some(text) = frame.after_close {
            self.record(slot + 1, Trivia::LineComment(text));
        }
        if let (true, Some((root, count))) = (self.frames.is_empty(), self.root_head.take()) {
            // An empty root: the comments before it stay before it (the
            // head-comment rule with no item to head); those inside follow.
            let inside = self.pending.split_off(count.min(self.pending.len()));
            let columns = self.columns.split_off(count.min(self.columns.len()));
            let offsets = self.offsets.split_off(count.min(self.offsets.len()));
            self.place(root, Place::Head { first: true });
            (self.pending, self.columns, self.offsets) = (inside, columns, offsets);
        }
        if !self.pending.is_empty() {
            match frame.flow {
                // Before the closing bracket.
                true => self.place(slot, Place::Foot),
                false => {
                    let column = frame.first_item.map(|(a, element)| match element {
                        true => self.column_of(self.dash_before(a).unwrap_or(a)),
                        false => self.column_of(a),
                    });
                    self.passed.push((slot, column));
                }
            }
        }
        self.last = frame.flow.then_some((at + 1, None));
    }

    /// A document starts (`explicit`: with `---`): the comments before it
    /// are the previous document's foot (at `prev_end`) when there is one
    /// (it ended with `...`: only then can comments lie between them), with
    /// or without `---` (SPEC-YAML.md §3: they belong to the document they
    /// follow); else, before a `---`, its preamble, and before a bare first
    /// document they stay pending for its root (rule (a)). The range of
    /// preamble records.
    pub(super) fn document_start(
        &mut self,
        explicit: bool,
        prev: Option<&mut (usize, usize)>,
        prev_end: usize,
    ) -> (usize, usize) {
        self.frames.clear();
        self.passed.clear();
        (self.last, self.key_comment, self.from_key) = (None, None, None);
        (self.next_after_close, self.root_head) = (None, None);
        let start = self.preambles.len();
        if !self.pending.is_empty() {
            match prev {
                Some(range) if range.1 == self.made() => {
                    let group = self.take_pending(true, true);
                    for t in group {
                        let t = match t {
                            Trivia::Comment(text) => Trivia::DocumentFoot(text),
                            other => other,
                        };
                        self.record(prev_end, t);
                    }
                    range.1 = self.made();
                }
                _ if explicit => {
                    let group = self.take_pending(true, false);
                    self.preambles.extend(group);
                }
                _ => {}
            }
        }
        self.doc_first = self.made();
        (start, self.preambles.len())
    }

    /// The document ends at `at` with `slot` items (its root included);
    /// the range of its records, ordered by slot.
    pub(super) fn document_end(&mut self, at: usize, slot: usize) -> (usize, usize) {
        if let Some((key, text)) = self.key_comment.take() {
            self.record(key + 1, Trivia::LineComment(text));
        }
        if !self.pending.is_empty() {
            let rest = self.input.get(at..).unwrap_or(&[]);
            let separator = rest.starts_with(b"---") || rest.starts_with(b"...");
            let root_column = self.passed.last().and_then(|p| p.1);
            let after_blank = self.pending.first() == Some(&Trivia::BlankLine);
            self.resolve(|this, c| {
                let innermost = this.passed.first().map(|p| p.0);
                match innermost {
                    Some(innermost)
                        if c.is_some() && !(c == root_column && (after_blank || separator)) =>
                    {
                        (this.foot_of(c).unwrap_or(innermost), Place::Foot)
                    }
                    _ => (slot, Place::DocumentFoot),
                }
            });
        }
        let first = self.doc_first.min(self.made());
        if let Some(records) = self.trivia.get_mut(first.saturating_sub(self.taken)..) {
            records.sort_by_key(|r| r.0);
        }
        self.frames.clear();
        self.passed.clear();
        (self.last, self.from_key) = (None, None);
        self.doc_first = self.made();
        (first, self.made())
    }

    /// Takes the pending group with runs of blank lines made one, leading
    /// ones dropped if `lead`, trailing ones if `trail`.
    fn take_pending(&mut self, lead: bool, trail: bool) -> Vec<Trivia<'a>> {
        let mut group = core::mem::take(&mut self.pending);
        if trail {
            while group.last() == Some(&Trivia::BlankLine) {
                group.pop();
            }
        }
        if lead {
            let blanks = group
                .iter()
                .take_while(|t| **t == Trivia::BlankLine)
                .count();
            group.drain(..blanks);
        }
        self.inside = None;
        self.columns.clear();
        self.offsets.clear();
        self.passed.clear();
        group
    }

    fn place(&mut self, slot: usize, place: Place) {
        let group = match place {
            Place::Head { first } => self.take_pending(first, false),
            Place::Foot => self.take_pending(false, true),
            Place::DocumentHead => {
                let mut group = self.take_pending(true, true);
                group.push(Trivia::BlankLine);
                group
            }
            // A blank line between the root and them is kept.
            Place::DocumentFoot => self.take_pending(false, true),
        };
        let foot = place == Place::DocumentFoot;
        for t in group {
            let t = match t {
                Trivia::Comment(text) if foot => Trivia::DocumentFoot(text),
                other => other,
            };
            self.record(slot, t);
        }
    }
}

/// Where a pending group goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Above the next item; `first`: the first of its collection.
    Head { first: bool },
    /// Before a closing bracket.
    Foot,
    /// Above the root, set off by a blank line.
    DocumentHead,
    /// After the root.
    DocumentFoot,
}

/// What the walk of a document reads next, as [`Settle`] sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// An opening bracket.
    Open,
    /// A closing bracket: the end of a value.
    Close,
    /// A key.
    Key,
    /// A scalar value (or the failure a document ends with).
    Scalar,
}

/// The last thing read before a record, as far as its settling goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    /// An opening bracket: nothing is in its container yet.
    Open,
    /// The end of a value, whose line a line comment may end.
    Value,
    /// A key, a comment, or nothing yet.
    Other,
}

/// The second step of attachment, once the items are loaded: each
/// document's records, met in the order the driver reads them (the walk of
/// its items, aliases and merges replayed, each record where the walk
/// reaches its slot), are settled into exactly what is written, so the
/// source gives them out as they are and the emitter writes each
/// (SPEC-YAML.md §3, §4). Where the items around a record were not written
/// (merged away) or moved (merged in), what is written reads back the
/// same on a second pass:
///
/// - a blank line is kept only if a comment or an item other than a
///   closing bracket follows it, and not right after an opening bracket
///   (so none before a closing bracket, after an opening one or at a
///   document's end, and a run of them is one; attachment leaves none at
///   a document's start). One after an opening bracket is followed by a
///   comment (attachment drops those before a first item), which keeps
///   its list from being cuddled in its stead;
/// - a line comment stays one only right after the value whose line it
///   ends, else it goes on a line of its own;
/// - a document foot comment of a document without a root is an own-line
///   comment like those before it.
#[derive(Clone, Debug)]
pub(super) struct Settle<'a> {
    /// The records settled, every document's in turn.
    pub(super) out: Vec<(usize, Trivia<'a>)>,
    last: Last,
    /// The slot of a blank line that waits for what follows it.
    held: Option<usize>,
    /// The document has no root.
    empty: bool,
}

impl<'a> Settle<'a> {
    pub(super) fn new(records: usize) -> Settle<'a> {
        Settle {
            out: Vec::with_capacity(records),
            last: Last::Other,
            held: None,
            empty: false,
        }
    }

    /// A document (`empty`: without a root) is walked next.
    pub(super) fn document(&mut self, empty: bool) {
        (self.last, self.held, self.empty) = (Last::Other, None, empty);
    }

    /// Whether a blank line waits for what follows it.
    pub(super) fn holds_blank(&self) -> bool {
        self.held.is_some()
    }

    /// The record at `slot` is reached.
    pub(super) fn record(&mut self, slot: usize, trivia: Trivia<'a>) {
        let trivia = match trivia {
            Trivia::BlankLine => {
                self.held.get_or_insert(slot);
                return;
            }
            Trivia::LineComment(_) if self.last == Last::Value && self.held.is_none() => trivia,
            Trivia::LineComment(text) => Trivia::Comment(text),
            // No root to follow: an own line like those before one.
            Trivia::DocumentFoot(text) if self.empty => Trivia::Comment(text),
            other => other,
        };
        self.release_blank();
        self.out.push((slot, trivia));
        self.last = Last::Other;
    }

    /// The walk reads `step`.
    pub(super) fn item(&mut self, step: Step) {
        match step {
            Step::Close => self.held = None,
            _ => self.release_blank(),
        }
        self.last = match step {
            Step::Open => Last::Open,
            Step::Close | Step::Scalar => Last::Value,
            Step::Key => Last::Other,
        };
    }

    /// Writes the held blank line, unless right after an opening bracket.
    fn release_blank(&mut self) {
        if let Some(slot) = self.held.take() {
            if self.last != Last::Open {
                self.out.push((slot, Trivia::BlankLine));
            }
        }
    }
}

#[cfg(test)]
mod tests;
