//! The YAML loader: the syntax events of the [`Parser`] turned into the
//! data items the YAML [`Source`] gives out, as kubectl reads them
//! (SPEC-YAML.md §1, §2).
//!
//! Owns the meaning of a YAML stream as JSON data: which node is a key and
//! which a value, scalars resolved by [`resolve`] under a [`Schema`], keys
//! converted to text as kubectl converts them, tags applied, anchors and
//! aliases expanded, merge keys (`<<`) merged, and the warnings for plain
//! scalars the two schemas read differently. It does not own YAML syntax
//! (the parser's) nor the duplicate-key check (the plan's, which sees the
//! converted keys).
//!
//! [`Loader::step`] takes one syntax event and pushes the data items it
//! makes, one per data event, whose texts are spans of the input (when a
//! scalar's text is its source) or of a side buffer (decoded scalars that
//! fold or escape, converted keys, numbers, `!!binary` and tagged texts);
//! the loader only tells attachment (`attach.rs`) where each node and
//! record is. `stream.rs` runs it one event at a time, giving items out
//! and dropping them. The items of anchored collections, and of maps that
//! hold a merge key, are also copied into the keep arena ([`Kept`]): an
//! alias is one item that replays the anchored node's items from there,
//! and a merge key one item that replays the entries its merge keeps,
//! decided in the arena when its map closes ([`Kept::merge`]; a reading
//! before says which maps hold one, `stream::merge_maps`); the window then
//! has an [`Item::Held`] in place of that map's start. [`Walk`] is the one
//! order they are read in. This needs `alloc`.
//!
//! Also here: the warnings noted while loading, located
//! ([`locate_warnings`]; the [`Warning`] type is `error.rs`'s).
//!
//! A document that fails ends with the error as its last item, so the
//! driver writes the documents before it and meets the error where a
//! checking pass would.
//!
//! Limits: aliases may expand a document to at most
//! [`expansion_limit`] bytes of source (100 times the input or 100 MB,
//! whichever is larger; "billion laughs" stops there with an error); an
//! alias inside the node its anchor names is an error; expansions count
//! toward the depth limit.

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write as _;

use super::attach::{Attach, Role};
use super::parser::Parser;
use super::scalar::{Scalar, Style};
use super::syntax::{Kind, Props, SyntaxTag};
use crate::error::{ErrorKind, Fault, Lines};
use crate::error::{NotedWarning, Warning, WarningKind};
use crate::scan::resolve::{self, Key, Number, Schema, Tagged, Value};
#[cfg(doc)]
use crate::scan::Source;
use crate::scan::{Spelling, Text};

mod item;
mod kept;
use item::data;
pub(super) use item::{Item, TextRef};
use kept::Kept;

/// One document: where it starts in the input, and its items.
#[derive(Clone, Copy, Debug)]
pub(super) struct Doc {
    pub(super) start: usize,
    pub(super) first: usize,
    pub(super) end: usize,
    /// Its comments and blank lines: a range of attachment's records
    /// (`Attach::document_end`).
    pub(super) trivia: (usize, usize),
    /// Those before its `---`: a range of `Attach::preambles`.
    pub(super) preamble: (usize, usize),
}

/// What the loader has made and the reader has not taken yet: the
/// window of items (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct Loaded<'a> {
    pub(super) store: String,
    /// The items, from number `base` on: slots and item numbers count
    /// from the stream's start (the reader takes the items it gave out).
    pub(super) items: Vec<Item<'a>>,
    pub(super) base: usize,
    pub(super) docs: Vec<Doc>,
    /// An error after the last document (between documents).
    pub(super) after: Option<Fault>,
    /// The warnings noted and not yet taken: byte offset, kind and
    /// message.
    pub(super) warnings: Vec<NotedWarning>,
    /// Comments of an input without any document: a range of
    /// `Attach::preambles`.
    pub(super) tail: (usize, usize),
}

/// How far aliases may expand a document of an input of `len` bytes,
/// counted in source bytes of the nodes they replay: 100 times the input
/// or 100 MB, whichever is larger.
pub(crate) fn expansion_limit(len: usize) -> usize {
    len.saturating_mul(100).max(100 << 20)
}

/// What an anchor names.
#[derive(Clone, Copy, Debug)]
enum Anchor<'a> {
    /// Its node is still being read: an alias to it is its own ancestor.
    Open,
    /// A scalar, read again for each alias (as a key or a value).
    Scalar {
        scalar: Scalar<'a>,
        tag: Option<SyntaxTag<'a>>,
    },
    /// A collection: its items, their expanded source size, and how many
    /// containers deep it goes.
    Node {
        start: usize,
        end: usize,
        weight: usize,
        depth: usize,
    },
}

/// An open collection while loading.
#[derive(Clone, Debug)]
struct LoadFrame<'a> {
    /// Index of its [`Item::Open`].
    start: usize,
    map: bool,
    /// A map: the next node is a key.
    key_next: bool,
    /// Its anchor and the expanded size before it.
    anchor: Option<(&'a str, usize)>,
    /// Where its items start among those an anchor names (the keep
    /// arena's index, or its [`Item::Open`]'s number).
    place: usize,
    /// How many containers deep its contents go (aliases included).
    depth_below: usize,
    /// A map: the [`Item::Merge`] whose value is being read.
    merge: Option<usize>,
    /// A map: where the current value's items start.
    value_start: usize,
    /// A map: where its merges start in [`Loader::merges`].
    merges: usize,
    /// A map that holds a merge key: kept in the arena (see [`Hold`]).
    held: bool,
}

/// The outermost open map that holds a merge key: the reader gives out
/// nothing from its [`Item::Open`] on until it closes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Hold {
    /// The number of its [`Item::Open`] in the window.
    pub(super) open: usize,
    /// Where its items start in the arena, and the arena's store and
    /// entries then.
    place: usize,
    store: usize,
    entries: usize,
    /// Nothing an alias may name is kept inside it (no anchored
    /// collection holds it or is in it): once given out, its items may
    /// leave the arena.
    transient: bool,
}

/// The maps a reader holds (see [`Loader::merging`]).
#[derive(Clone, Debug)]
pub(super) struct Merging {
    /// Maps opened in the stream so far: the next one's number.
    maps: u32,
    /// The numbers of the maps that hold a merge key (sorted), found by a
    /// reading before (`stream::merge_maps`), and how many of them are
    /// behind.
    held: alloc::rc::Rc<[u32]>,
    held_next: usize,
    /// The outermost held map open, if any.
    pub(super) hold: Option<Hold>,
    /// The last held map closed whose items may leave the arena once
    /// given out.
    pub(super) transient: Option<Transient>,
}

impl Merging {
    /// Holding the maps numbered `held` (sorted).
    pub(super) fn new(held: alloc::rc::Rc<[u32]>) -> Merging {
        Merging {
            maps: 0,
            held,
            held_next: 0,
            hold: None,
            transient: None,
        }
    }

    /// Whether the next map to open holds a merge key.
    fn holds_next_map(&mut self) -> bool {
        let number = self.maps;
        self.maps += 1;
        while self.held.get(self.held_next).is_some_and(|&n| n < number) {
            self.held_next += 1;
        }
        self.held.get(self.held_next) == Some(&number)
    }
}

/// The arena's extent of the last map held that nothing else needs once
/// given out (see [`Hold::transient`]): its items, and the store and
/// entries before them.
#[derive(Clone, Copy, Debug)]
pub(super) struct Transient {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) store: usize,
    pub(super) entries: usize,
}

#[derive(Clone)]
pub(super) struct Loader<'a> {
    pub(super) parser: Parser<'a>,
    schema: Schema,
    depth_limit: usize,
    pub(super) out: Loaded<'a>,
    frames: Vec<LoadFrame<'a>>,
    anchors: BTreeMap<&'a str, Anchor<'a>>,
    /// Source bytes of the document so far, aliases expanded.
    weight: usize,
    limit: usize,
    pub(super) doc_open: bool,
    /// Where comments and blank lines go.
    pub(super) attach: Attach<'a>,
    /// A streaming reader's keep arena (see [`Kept`]): then anchors name
    /// items there (a reader without one meets no alias: it only notes
    /// warnings).
    pub(super) keep: Option<alloc::rc::Rc<core::cell::RefCell<Kept<'a>>>>,
    /// How many items of the current document this reading has kept.
    pub(super) kept_len: usize,
    /// How many open collections are anchored or held (their items are
    /// kept).
    keeping: usize,
    /// The merges of the open maps, innermost last: each merge item and
    /// the range of `offers` its value offers (the entries it merges, in
    /// order of precedence). Kept from one map to the next.
    merges: Vec<(usize, usize, usize)>,
    offers: Vec<(usize, usize)>,
    /// Maps that hold a merge key, in a stream that has any (out of line:
    /// a reader is cloned for each bet, and most streams have none).
    pub(super) merging: Option<alloc::boxed::Box<Merging>>,
    /// An alias or merge key was warned of: only the first one of a
    /// stream is (the warning says the output spells them out; one per
    /// alias would cost memory in proportion to the input, which a
    /// streamed reading never does).
    expansion_warned: bool,
}

// Data errors are printed as they are: each one a sentence.
const COMPLEX_KEY: &str =
    "a map or list as a key has no JSON form, and kubectl refuses it: write the key as a scalar";
const UNKNOWN_ALIAS: &str = "this alias names no anchor defined before it in the same document";
const RECURSIVE_ALIAS: &str =
    "this alias is inside the node its anchor names, and a node that holds itself has no JSON form";
const EXPANSION: &str = "aliases expand past 100 times the input or 100 MB, whichever is larger, so reading stops (a \"billion laughs\" input?)";

const UNSEEN_MERGE: &str = "a merge key the reading before this one did not see (a bug in kyaml)";

/// A text that needs no decoding, flagged printable when it is: verbatim,
/// or [`Spelling::Unescaped`] when it holds `"`, `\` or C0 controls.
pub(super) fn verbatim(s: &str) -> Text<'_> {
    // One word-at-a-time pass: the first `"`, `\` or C0 control, and
    // whether every byte before it is printable ASCII.
    match crate::swar::string_special_printable(s.as_bytes(), 0) {
        (at, true) if at == s.len() => Text::printable(s),
        (at, false) if at == s.len() => Text::new(s, Spelling::Verbatim, false),
        _ => Text::new(s, Spelling::Unescaped, s.contains('\n')),
    }
}

impl<'a> Loader<'a> {
    /// A loader of the YAML stream `input`.
    pub(super) fn new(input: &'a [u8], schema: Schema, depth_limit: usize) -> Loader<'a> {
        Loader {
            parser: Parser::new(input, depth_limit),
            schema,
            depth_limit,
            out: Loaded::default(),
            frames: Vec::new(),
            anchors: BTreeMap::new(),
            weight: 0,
            limit: expansion_limit(input.len()),
            doc_open: false,
            attach: Attach::new(input),
            keep: None,
            kept_len: 0,
            keeping: 0,
            merges: Vec::new(),
            offers: Vec::new(),
            merging: None,
            expansion_warned: false,
        }
    }

    /// Empties the keep arena, for the next document (a streaming reader
    /// calls it when it opens one: the items of the one before may be
    /// replayed until then).
    pub(super) fn drop_kept(&mut self) {
        if let Some(keep) = &self.keep {
            let mut kept = keep.borrow_mut();
            kept.items.clear();
            kept.store.clear();
            kept.entries.clear();
        }
        self.kept_len = 0;
        if let Some(merging) = &mut self.merging {
            merging.transient = None;
        }
    }

    /// The outermost held map open, if any.
    #[inline(always)]
    pub(super) fn hold(&self) -> Option<&Hold> {
        self.merging.as_ref().and_then(|m| m.hold.as_ref())
    }

    /// The reader has given out the held map `start..end` of the arena:
    /// if nothing may name its items and nothing was kept after them,
    /// they leave the arena (so a file with a merge in each of its
    /// entries keeps one entry at a time).
    pub(super) fn release_held(&mut self, start: usize, end: usize) {
        let transient = self.merging.as_ref().and_then(|m| m.transient);
        let (Some(t), Some(keep)) = (transient, &self.keep) else {
            return;
        };
        if t.start != start || t.end != end || self.kept_len != end {
            return;
        }
        let mut kept = keep.borrow_mut();
        kept.items.truncate(start);
        kept.store.truncate(t.store);
        kept.entries.truncate(t.entries);
        self.kept_len = start;
        if let Some(merging) = &mut self.merging {
            merging.transient = None;
        }
    }

    /// Where the next item goes among those an anchor names: the keep
    /// arena's index, or the item's number.
    fn anchor_place(&self) -> usize {
        match self.keep {
            Some(_) => self.kept_len,
            None => self.next_slot(),
        }
    }

    /// Sets the kept [`Item::Open`] at `open` to close at the next kept
    /// item.
    #[inline(never)]
    fn kept_close(&mut self, open: usize) {
        if let Some(keep) = &self.keep {
            let close = self.kept_len;
            if let Some(Item::Open { close: c, .. }) = keep.borrow_mut().items.get_mut(open) {
                *c = close;
            }
        }
    }

    /// Copies `item`, just read, into the keep arena (an anchored
    /// collection is open).
    #[inline(never)]
    fn copy_to_arena(&mut self, item: Item<'a>) {
        let Some(keep) = &self.keep else {
            return;
        };
        let mut kept = keep.borrow_mut();
        let n = self.kept_len;
        self.kept_len += 1;
        let held = self.hold().is_some();
        if n < kept.items.len() && !held {
            // Kept by another reading of this document: the same item.
            return;
        }
        let item = item.stored_again(&self.out.store, &mut kept.store);
        match kept.items.get_mut(n) {
            // A held map's merges rewrite its items: each reading keeps
            // its own, as they are read.
            Some(old) => *old = item,
            None => kept.items.push(item),
        }
    }

    /// The number of the next item: its slot.
    #[inline(always)]
    pub(super) fn next_slot(&self) -> usize {
        self.out.base + self.out.items.len()
    }

    /// The stream has ended (or failed): what is left of the comments is
    /// the last document's foot, or the comments of an input without
    /// documents ([`Loaded::tail`]).
    pub(super) fn finish(&mut self) {
        let last = self.out.docs.last_mut().map(|d| (&mut d.trivia, d.end));
        let (range, end) = last.map_or((None, 0), |(r, e)| (Some(r), e));
        self.out.tail = self.attach.document_start(true, range, end);
    }

    /// Ends the stream with `fault`: in the open document, or after the
    /// last one.
    pub(super) fn fail(&mut self, fault: Fault) {
        match self.doc_open {
            true => {
                match self.hold().is_some() {
                    // Kept with the held map, whose walk meets it.
                    true => {
                        self.push(Item::Fail(fault));
                        self.end_hold(self.next_slot() - 1);
                    }
                    false => self.out.items.push(Item::Fail(fault)),
                }
                self.end_document(fault.offset());
            }
            false => self.out.after = Some(fault),
        }
    }

    pub(super) fn step(&mut self, at: usize, kind: Kind<'a>) -> Result<(), Fault> {
        match kind {
            Kind::DocumentStart { explicit } => {
                let first = self.next_slot();
                let prev = self.out.docs.last_mut().map(|d| (&mut d.trivia, d.end));
                let (range, end) = prev.map_or((None, 0), |(r, e)| (Some(r), e));
                let preamble = self.attach.document_start(explicit, range, end);
                self.out.docs.push(Doc {
                    start: at,
                    first,
                    end: first,
                    trivia: (0, 0),
                    preamble,
                });
                self.doc_open = true;
                self.anchors.clear();
                self.frames.clear();
                self.merges.clear();
                self.offers.clear();
                self.keeping = 0;
                self.weight = 0;
            }
            Kind::DocumentEnd { .. } => self.end_document(at),
            Kind::MappingStart { props, flow } | Kind::SequenceStart { props, flow } => {
                let map = matches!(kind, Kind::MappingStart { .. });
                let slot = self.next_slot();
                self.attach.node(at, self.role(), Some(flow), slot);
                self.open(at, props, map)?;
                self.attach.open(flow);
            }
            Kind::MappingEnd | Kind::SequenceEnd => self.close(at)?,
            Kind::Scalar { props, scalar } => {
                if let Some(name) = props.anchor {
                    let tag = props.tag;
                    self.anchors.insert(name, Anchor::Scalar { scalar, tag });
                }
                let (role, slot) = (self.role(), self.next_slot());
                self.attach.node(at, role, None, slot);
                self.scalar(at, scalar, props.tag, true)?;
                // Where the scalar's text ends in the input.
                let raw = scalar.raw();
                let input = self.parser.source().as_ptr() as usize;
                let start = (raw.as_ptr() as usize).saturating_sub(input);
                let key = (role == Role::Key).then_some(slot);
                self.attach
                    .scalar_done(start + raw.len(), key, self.next_slot());
                self.node_done()?;
            }
            Kind::Alias { name } => {
                let (role, slot) = (self.role(), self.next_slot());
                self.attach.node(at, role, None, slot);
                self.alias(at, name)?;
                self.warn_expanded(at, Some(name));
                let key = (role == Role::Key).then_some(slot);
                self.attach
                    .scalar_done(at + 1 + name.len(), key, self.next_slot());
                self.node_done()?;
            }
            Kind::Comment { text, trailing } => {
                let slot = self.next_slot();
                self.attach.comment(at, text, trailing, slot);
            }
            Kind::BlankLine => self.attach.blank_line(at),
            Kind::Lenient { what } => self.warn(
                at,
                WarningKind::Lenient,
                alloc::format!(
                    "{what}: not YAML 1.2, but kubectl reads it; the KYAML written is valid YAML everywhere"
                ),
            ),
            Kind::Refused { what } if self.schema == Schema::Kubectl => {
                return Err(Fault::new(ErrorKind::Syntax, at, what));
            }
            Kind::Refused { .. } | Kind::StreamStart | Kind::StreamEnd => {}
        }
        Ok(())
    }

    fn end_document(&mut self, at: usize) {
        if !self.doc_open {
            return;
        }
        self.doc_open = false;
        let len = self.next_slot();
        let Some(doc) = self.out.docs.last_mut() else {
            return;
        };
        // A document without a node (empty, or only comments) has no
        // items: it reads as null, and is written as its header and
        // comments (`Source::document_is_empty`).
        doc.end = len;
        doc.trivia = self.attach.document_end(at, doc.end);
    }

    /// What the next node is to the collection it is in.
    fn role(&self) -> Role {
        match self.frames.last() {
            None => Role::Root,
            Some(f) if f.map && f.key_next => Role::Key,
            Some(f) if f.map => Role::Value,
            Some(_) => Role::Element,
        }
    }

    /// Whether the next node is a map key.
    fn key_next(&self) -> bool {
        self.frames.last().is_some_and(|f| f.map && f.key_next)
    }

    /// Warns of a plain scalar the schemas read differently.
    #[inline(never)]
    fn warn_ambiguity(&mut self, at: usize, ambiguity: resolve::Ambiguity<'_>) {
        let kind = match ambiguity.yaml11 {
            Some(_) => WarningKind::Yaml11Readers,
            None => WarningKind::SchemasDisagree,
        };
        self.warn(at, kind, ambiguity.to_string());
    }

    /// Warns that an alias (`Some` anchor name) or a merge key (`None`)
    /// is spelled out in the output: the first of the stream.
    #[inline(never)]
    fn warn_expanded(&mut self, at: usize, alias: Option<&str>) {
        if core::mem::replace(&mut self.expansion_warned, true) {
            return;
        }
        let message = match alias {
            Some(name) => alloc::format!(
                "alias *{name} expanded (KYAML has no anchors: the anchored node is written again)"
            ),
            None => String::from(
                "merge key `<<` merged (KYAML has no merge keys: the merged entries are written)",
            ),
        };
        self.warn(at, WarningKind::Expanded, message);
    }

    fn warn(&mut self, at: usize, kind: WarningKind, message: String) {
        self.out.warnings.push((at, kind, message));
    }

    /// What `tag` means to the data, and its name as the user would
    /// write it (`!!set` for `tag:yaml.org,2002:set`).
    fn tag_kind(tag: SyntaxTag<'_>) -> (resolve::TagKind<'static>, String) {
        let name: String = tag.chars().collect();
        let kind = match resolve::TagKind::of(&name) {
            resolve::TagKind::Other(_) => resolve::TagKind::Other(""),
            resolve::TagKind::Str => resolve::TagKind::Str,
            resolve::TagKind::Int => resolve::TagKind::Int,
            resolve::TagKind::Float => resolve::TagKind::Float,
            resolve::TagKind::Bool => resolve::TagKind::Bool,
            resolve::TagKind::Null => resolve::TagKind::Null,
            resolve::TagKind::Timestamp => resolve::TagKind::Timestamp,
            resolve::TagKind::Binary => resolve::TagKind::Binary,
            resolve::TagKind::Map => resolve::TagKind::Map,
            resolve::TagKind::Seq => resolve::TagKind::Seq,
            resolve::TagKind::NonSpecific => resolve::TagKind::NonSpecific,
            resolve::TagKind::Merge => resolve::TagKind::Merge,
        };
        let name = match name.strip_prefix("tag:yaml.org,2002:") {
            Some(short) => alloc::format!("!!{short}"),
            None => name,
        };
        (kind, name)
    }

    /// Warns that the tag `name` on a scalar was dropped: kubectl reads
    /// the scalar as a string.
    fn warn_scalar_tag(&mut self, at: usize, kind: resolve::TagKind<'_>, name: &str) {
        let message = match kind {
            resolve::TagKind::Merge => alloc::format!(
                "tag {name} dropped (kubectl merges only on a key `<<` with it; \
                 it reads this scalar as a string)"
            ),
            resolve::TagKind::Other(_) => {
                alloc::format!("tag {name} dropped (kubectl reads the scalar as a string)")
            }
            _ => return,
        };
        self.warn(at, WarningKind::TagDropped, message);
    }

    fn open(&mut self, at: usize, props: Props<'a>, map: bool) -> Result<(), Fault> {
        if self.key_next() {
            return Err(data(at, COMPLEX_KEY));
        }
        if let Some(tag) = props.tag {
            // kubectl reads a collection as if untagged, whatever the tag.
            let (kind, name) = Self::tag_kind(tag);
            let fits = match kind {
                resolve::TagKind::Map => map,
                resolve::TagKind::Seq => !map,
                _ => kind == resolve::TagKind::NonSpecific,
            };
            if !fits {
                let what = if map { "map" } else { "list" };
                self.warn(
                    at,
                    WarningKind::TagDropped,
                    alloc::format!(
                        "tag {name} on a {what} dropped (kubectl reads the {what} as if untagged)"
                    ),
                );
            }
        }
        let place = self.anchor_place();
        let start = self.next_slot();
        let held = match &mut self.merging {
            Some(merging) if map => merging.holds_next_map(),
            _ => false,
        };
        if held {
            self.hold_map(start, place);
        }
        if let Some(name) = props.anchor {
            self.anchors.insert(name, Anchor::Open);
            if self.keep.is_some() {
                self.keeping += 1;
            }
            if let Some(hold) = self.merging.as_mut().and_then(|m| m.hold.as_mut()) {
                // An alias may name what is kept from here on.
                hold.transient = false;
            }
        }
        self.push(Item::Open { at, map, close: 0 });
        if held && self.hold().is_some_and(|h| h.open == start) {
            // The window's start of the outermost held map: the reader
            // waits there until the map has closed (`end_hold`).
            if let Some(item) = self.out.items.last_mut() {
                *item = Item::Held {
                    start: place,
                    end: 0,
                    close: usize::MAX,
                };
            }
        }
        self.weight += 1;
        self.frames.push(LoadFrame {
            start,
            map,
            key_next: true,
            anchor: props.anchor.map(|name| (name, self.weight)),
            place,
            depth_below: 0,
            merge: None,
            value_start: 0,
            merges: self.merges.len(),
            held,
        });
        Ok(())
    }

    /// A map that holds a merge key opens, its [`Item::Open`] numbered
    /// `start` in the window and kept at `place` in the arena: it is kept
    /// there, and the outermost one is held.
    #[inline(never)]
    fn hold_map(&mut self, start: usize, place: usize) {
        let (Some(keep), Some(merging)) = (&self.keep, &mut self.merging) else {
            return;
        };
        if merging.hold.is_none() {
            let kept = keep.borrow();
            merging.hold = Some(Hold {
                open: start,
                place,
                store: kept.store.len(),
                entries: kept.entries.len(),
                transient: self.keeping == 0,
            });
        }
        self.keeping += 1;
    }

    /// The outermost held map ends with item `last` (its close, or the
    /// document's failure): its [`Item::Open`] in the window becomes an
    /// [`Item::Held`] naming its merged items in the arena.
    fn end_hold(&mut self, last: usize) {
        let Some(merging) = &mut self.merging else {
            return;
        };
        let Some(hold) = merging.hold.take() else {
            return;
        };
        let end = self.kept_len;
        merging.transient = hold.transient.then_some(Transient {
            start: hold.place,
            end,
            store: hold.store,
            entries: hold.entries,
        });
        let open = hold.open.checked_sub(self.out.base);
        if let Some(item) = open.and_then(|i| self.out.items.get_mut(i)) {
            *item = Item::Held {
                start: hold.place,
                end,
                close: last,
            };
        }
    }

    fn close(&mut self, at: usize) -> Result<(), Fault> {
        let Some(frame) = self.frames.pop() else {
            return Ok(());
        };
        let close = self.next_slot();
        if self.keeping > 0 {
            // Its open was kept too (an anchored collection holds it).
            self.kept_close(frame.place);
        }
        self.push(Item::Close { at, map: frame.map });
        self.attach.close(at, close);
        self.weight += 1;
        let open = frame.start.checked_sub(self.out.base);
        if let Some(Item::Open { close: c, .. }) = open.and_then(|i| self.out.items.get_mut(i)) {
            *c = close;
        }
        if let (Some(&(_, offers, _)), Some(keep)) = (self.merges.get(frame.merges), &self.keep) {
            let merges = self.merges.get(frame.merges..).unwrap_or_default();
            keep.borrow_mut().merge(frame.place, merges, &self.offers);
            self.merges.truncate(frame.merges);
            self.offers.truncate(offers);
        }
        let depth = 1 + frame.depth_below;
        if let Some((name, before)) = frame.anchor {
            let start = frame.place;
            if self.keep.is_some() {
                self.keeping = self.keeping.saturating_sub(1);
            }
            let node = Anchor::Node {
                start,
                end: self.anchor_place(),
                weight: self.weight - before + 1,
                depth,
            };
            self.anchors.insert(name, node);
        }
        if frame.held {
            self.keeping = self.keeping.saturating_sub(1);
            if self.hold().is_some_and(|h| h.open == frame.start) {
                self.end_hold(close);
            }
        }
        if let Some(parent) = self.frames.last_mut() {
            parent.depth_below = parent.depth_below.max(depth);
        }
        self.node_done()
    }

    /// A node is complete: the map it is in expects the other of key and
    /// value next; a merge key's value is taken in.
    fn node_done(&mut self) -> Result<(), Fault> {
        // Merges are decided in the arena (see `Kept`): places there.
        let len = self.kept_len;
        let Some(frame) = self.frames.last_mut() else {
            return Ok(());
        };
        if !frame.map {
            return Ok(());
        }
        if frame.key_next {
            frame.key_next = false;
            frame.value_start = len;
            return Ok(());
        }
        frame.key_next = true;
        let Some(merge) = frame.merge.take() else {
            return Ok(());
        };
        let value_start = frame.value_start;
        let Some(keep) = &self.keep else {
            return Ok(());
        };
        let mut kept = keep.borrow_mut();
        let from = self.offers.len();
        kept.merge_value(value_start, &mut self.offers)?;
        if let Some(Item::Merge { skip_to, .. }) = kept.items.get_mut(merge) {
            *skip_to = len;
        }
        self.merges.push((merge, from, self.offers.len()));
        Ok(())
    }

    fn alias(&mut self, at: usize, name: &'a str) -> Result<(), Fault> {
        match self.anchors.get(name).copied() {
            None => Err(data(at, UNKNOWN_ALIAS)),
            Some(Anchor::Open) => Err(data(at, RECURSIVE_ALIAS)),
            Some(Anchor::Scalar { scalar, tag }) => self.scalar(at, scalar, tag, false),
            Some(Anchor::Node {
                start,
                end,
                weight,
                depth,
            }) => {
                if self.key_next() {
                    return Err(data(at, COMPLEX_KEY));
                }
                self.weight = self.weight.saturating_add(weight);
                if self.weight > self.limit {
                    return Err(data(at, EXPANSION));
                }
                if self.frames.len() + depth > self.depth_limit {
                    return Err(Fault::too_deep(at, self.depth_limit));
                }
                if let Some(frame) = self.frames.last_mut() {
                    frame.depth_below = frame.depth_below.max(depth);
                }
                self.push(Item::Alias { start, end });
                Ok(())
            }
        }
    }

    /// A scalar as a key or a value; `fresh` when read where it is written
    /// (not replayed by an alias), so it warns.
    fn scalar(
        &mut self,
        at: usize,
        scalar: Scalar<'a>,
        tag: Option<SyntaxTag<'a>>,
        fresh: bool,
    ) -> Result<(), Fault> {
        self.weight = self.weight.saturating_add(scalar.raw().len() + 1);
        let key = self.key_next();
        let refused = |r: resolve::Refusal| data(at, r.message);
        let item = match (tag, scalar.style(), scalar.as_str()) {
            // Only where it is written: kubectl reads an alias of a scalar
            // `<<` as the key `<<`.
            (tag, style, Some("<<"))
                if key && fresh && self.schema == Schema::Kubectl && merges(tag, style) =>
            {
                if fresh {
                    self.warn_expanded(at, None);
                }
                if !self.frames.last().is_some_and(|f| f.held) || self.keep.is_none() {
                    // The reading before (`stream::merge_maps`) sees every
                    // key written `<<`: never met.
                    return Err(data(at, UNSEEN_MERGE));
                }
                // Its number in the arena, where the merge is decided.
                let merge = self.kept_len;
                self.push(Item::Merge {
                    first: 0,
                    last: 0,
                    skip_to: merge + 1,
                });
                if let Some(frame) = self.frames.last_mut() {
                    frame.merge = Some(merge);
                }
                return Ok(());
            }
            (Some(tag), ..) => {
                let (kind, name) = Self::tag_kind(tag);
                if fresh {
                    self.warn_scalar_tag(at, kind, &name);
                }
                return self.tagged(at, scalar, kind, key);
            }
            (None, Style::Plain, Some(text)) => {
                let (reading, ambiguity) = resolve::resolve_plain_warned(text, self.schema);
                if let (true, Some(ambiguity)) = (fresh, ambiguity) {
                    if !key || ambiguity.as_keys() {
                        self.warn_ambiguity(at, ambiguity);
                    }
                }
                match key {
                    true => {
                        let key = resolve::plain_key(text, reading).map_err(refused)?;
                        Item::Key {
                            at,
                            text: self.key_text(key),
                        }
                    }
                    false => match reading.map_err(refused)? {
                        // A document without a node (empty, or only
                        // comments) has no items: see `end_document`.
                        Value::Null if text.is_empty() && self.frames.is_empty() => return Ok(()),
                        Value::Null => Item::Null { at },
                        Value::Bool(value) => Item::Bool { at, value },
                        Value::Number(n) => self.number(at, &n),
                        Value::Str(s) => Item::Str {
                            at,
                            text: TextRef::Input(verbatim(s)),
                        },
                    },
                }
            }
            _ => {
                let text = self.string_text(scalar);
                match key {
                    true => Item::Key { at, text },
                    false => Item::Str { at, text },
                }
            }
        };
        self.push(item);
        Ok(())
    }

    /// Pushes a data item, noting keys for [`Source::key_at`], and keeps it
    /// if an anchored collection is open: every data item goes through
    /// here, so the keep arena misses none.
    fn push(&mut self, item: Item<'a>) {
        self.out.items.push(item);
        if self.keeping > 0 {
            self.copy_to_arena(item);
        }
    }

    fn number(&mut self, at: usize, n: &Number<'_>) -> Item<'a> {
        let start = self.out.store.len();
        // Writing to a String cannot fail.
        let _ = n.write_json(&mut self.out.store);
        Item::Number {
            at,
            start,
            end: self.out.store.len(),
        }
    }

    fn stored(&mut self, write: impl FnOnce(&mut String) -> core::fmt::Result) -> TextRef<'a> {
        let start = self.out.store.len();
        let _ = write(&mut self.out.store);
        TextRef::Stored {
            start,
            end: self.out.store.len(),
        }
    }

    fn key_text(&mut self, key: Key<'a>) -> TextRef<'a> {
        match key {
            Key::Str(s) => TextRef::Input(verbatim(s)),
            other => self.stored(|out| other.write_text(out)),
        }
    }

    /// A quoted, block or multi-line plain scalar as a string: its span
    /// when that is the string, else decoded into the side buffer (decoding
    /// there once keeps [`Text`] and its pieces the JSON path's).
    fn string_text(&mut self, scalar: Scalar<'a>) -> TextRef<'a> {
        if let Some(s) = scalar.as_str() {
            return TextRef::Input(verbatim(s));
        }
        self.stored(|out| {
            scalar.pieces().try_for_each(|p| match p {
                crate::scan::Piece::Run(run) => out.write_str(run),
                crate::scan::Piece::Char(c) => out.write_char(c),
            })
        })
    }

    /// A tagged scalar as a key or a value.
    fn tagged(
        &mut self,
        at: usize,
        scalar: Scalar<'a>,
        tag: resolve::TagKind<'_>,
        key: bool,
    ) -> Result<(), Fault> {
        let refused = |r: resolve::Refusal| data(at, r.message);
        // A tag known to mean nothing is a string's; YAML 1.2's core
        // schema has no `!!binary` (the text stays as written).
        let tag = match (tag, self.schema) {
            (resolve::TagKind::Other(_), _) | (resolve::TagKind::Binary, Schema::Yaml12) => {
                resolve::TagKind::Str
            }
            (other, _) => other,
        };
        let text: String = match tag {
            // Base64 skips white space: the source lines serve.
            resolve::TagKind::Binary => scalar.raw().into(),
            _ => scalar
                .pieces()
                .map(|p| match p {
                    crate::scan::Piece::Run(run) => run.into(),
                    crate::scan::Piece::Char(c) => String::from(c),
                })
                .collect(),
        };
        let item = match resolve::resolve_tagged(tag, &text, self.schema).map_err(refused)? {
            Tagged::Binary(binary) => {
                let text = self.stored(|out| binary.write_text(out));
                match key {
                    true => Item::Key { at, text },
                    false => Item::Str { at, text },
                }
            }
            Tagged::Value(value) if key => {
                let key = resolve::key_of(value).map_err(refused)?;
                let text = self.stored(|out| key.write_text(out));
                Item::Key { at, text }
            }
            Tagged::Value(Value::Null) => Item::Null { at },
            Tagged::Value(Value::Bool(value)) => Item::Bool { at, value },
            Tagged::Value(Value::Number(n)) => self.number(at, &n),
            Tagged::Value(Value::Str(s)) => {
                let text = self.stored(|out| out.write_str(s));
                Item::Str { at, text }
            }
        };
        self.push(item);
        Ok(())
    }
}

/// Whether a key `<<` with `tag` in `style` is a merge key to kubectl:
/// plain and untagged, or tagged `!!merge` or `!` (go-yaml v2 reads a
/// scalar tagged `!` as untagged plain, whatever its style).
fn merges(tag: Option<SyntaxTag<'_>>, style: Style) -> bool {
    match tag {
        None => style == Style::Plain,
        Some(tag) => {
            let name: String = tag.chars().collect();
            matches!(
                resolve::TagKind::of(&name),
                resolve::TagKind::Merge | resolve::TagKind::NonSpecific
            )
        }
    }
}

/// One run of items being read: `items[next..end]`, or, for a merge,
/// the entries `entries[next..end]`, each a run of items.
#[derive(Clone, Copy, Debug)]
struct Run {
    next: usize,
    end: usize,
    entries: bool,
}

/// The order a document's items are read in: its own items, each alias
/// and merge replaying the items it names where it stands. The one walk
/// the source reads and the settling of the trivia (`attach.rs`) follow.
#[derive(Clone, Debug)]
pub(super) struct Walk {
    run: Run,
    /// The runs an alias or a merge interrupted.
    stack: Vec<Run>,
}

impl Walk {
    /// A walk of the items `first..end`.
    pub(super) fn new(first: usize, end: usize) -> Walk {
        Walk {
            run: Run {
                next: first,
                end,
                entries: false,
            },
            stack: Vec::new(),
        }
    }

    /// Moves this walk to where `other` is.
    pub(super) fn follow(&mut self, other: &Walk) {
        self.run = other.run;
        self.stack.clear();
        self.stack.extend_from_slice(&other.stack);
    }

    /// The index of the item read next in the current run.
    #[inline(always)]
    pub(super) fn next_index(&self) -> usize {
        self.run.next
    }

    /// Whether every run is read to its end (nothing is left to read).
    pub(super) fn is_done(&self) -> bool {
        self.run.next >= self.run.end && self.stack.iter().all(|r| r.next >= r.end)
    }

    /// Whether the comment or blank line written before item `slot` is
    /// due now, where the item numbered `number` is the arena's `index`:
    /// the records are in slot order and each is due once, when the run
    /// reading the held map's own items, or a merge replaying entries of
    /// an inline map (which lie in slot order past the merge key), reaches
    /// its slot. Alias replays never reach one: an anchor's items come
    /// before the alias (in the arena, before the held map, or inside it,
    /// before the alias), and their records were due there.
    #[inline(always)]
    pub(super) fn reaches(&self, slot: usize, index: usize, number: usize) -> bool {
        let next = self.run.next;
        !self.run.entries && next >= index && slot <= next - index + number
    }

    /// The next item that is data (replays followed); `Some(None)` where
    /// one run of items ends or a merged entry's begins (comments may be
    /// due there).
    #[inline(always)]
    pub(super) fn next_item<'a>(
        &mut self,
        items: &[Item<'a>],
        entries: &[(usize, usize)],
    ) -> Option<Option<Item<'a>>> {
        loop {
            if self.run.next >= self.run.end {
                self.run = self.stack.pop()?;
                return Some(None);
            }
            let i = self.run.next;
            self.run.next += 1;
            if self.run.entries {
                let &(next, end) = entries.get(i)?;
                self.stack.push(self.run);
                self.run = Run {
                    next,
                    end,
                    entries: false,
                };
                return Some(None);
            }
            match *items.get(i)? {
                Item::Alias { start, end } => {
                    self.stack.push(self.run);
                    self.run = Run {
                        next: start,
                        end,
                        entries: false,
                    };
                }
                Item::Merge {
                    first,
                    last,
                    skip_to,
                } => {
                    self.run.next = skip_to;
                    self.stack.push(self.run);
                    self.run = Run {
                        next: first,
                        end: last,
                        entries: true,
                    };
                }
                Item::Fail(fault) => {
                    // Stay on the failure.
                    self.run.next = i;
                    return Some(Some(Item::Fail(fault)));
                }
                item => return Some(Some(item)),
            }
        }
    }
}

/// The warnings `loaded` noted, with lines and columns in `input`, in the
/// order noted: located in order of offset, so that all of them together
/// cost one pass over the input.
pub(crate) fn locate_warnings(input: &[u8], noted: &[NotedWarning]) -> Vec<Warning> {
    let mut order: Vec<usize> = (0..noted.len()).collect();
    order.sort_by_key(|&i| noted[i].0);
    let mut lines = Lines::new(input);
    let mut places = alloc::vec![(0, 0); noted.len()];
    for i in order {
        places[i] = lines.line_column(noted[i].0);
    }
    noted
        .iter()
        .zip(places)
        .map(|((offset, kind, message), (line, column))| Warning {
            offset: *offset,
            line,
            column,
            message: message.clone(),
            kind: *kind,
        })
        .collect()
}
