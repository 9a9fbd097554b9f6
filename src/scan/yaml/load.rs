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
//! record is. Two readers run it: `stream.rs` one event at a time, giving
//! items out and dropping them, for every input without a scalar written
//! `<<`, a merge key (the items
//! of anchored collections are also copied into its keep arena, [`Kept`],
//! for the aliases that replay them); and, for the others, [`load`],
//! which reads the whole stream once into a [`Loaded`], the flat list of
//! its items, comments and blank lines settled once it is, read by the
//! cursor of `cursor.rs`. An alias is one item that replays the anchored
//! node's items (from the arena, or from the loaded items) and a merge
//! one item that replays the entries it keeps; [`Walk`] is the one order
//! they are read in. This needs `alloc`.
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

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write as _;

use super::attach::{Attach, Role, Settle, Step};
use super::parser::Parser;
use super::scalar::{Scalar, Style};
use super::syntax::{Kind, Props, SyntaxTag};
use crate::error::{ErrorKind, Fault, Lines};
use crate::error::{NotedWarning, Warning, WarningKind};
use crate::scan::resolve::{self, Key, Number, Schema, Tagged, Value};
#[cfg(doc)]
use crate::scan::Source;
use crate::scan::{Spelling, Text, Trivia};

/// A string of a key or value: a span of the input, or of the side buffer.
#[derive(Clone, Copy, Debug)]
pub(super) enum TextRef<'a> {
    Input(Text<'a>),
    Stored { start: usize, end: usize },
}

/// One data event of a document, or an instruction to replay others.
#[derive(Clone, Copy, Debug)]
pub(super) enum Item<'a> {
    /// A map or list opens; `close` is the index of its [`Item::Close`].
    Open {
        at: usize,
        map: bool,
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
    /// to the end of `to`.
    pub(super) fn stored_again(self, from: &str, to: &mut String) -> Self {
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

    /// What [`Settle`] is told when a walk reads this item.
    #[inline(always)]
    pub(super) fn step(&self) -> Step {
        match self {
            Item::Open { .. } => Step::Open,
            Item::Close { .. } => Step::Close,
            Item::Key { .. } => Step::Key,
            _ => Step::Scalar,
        }
    }
}

/// One document: where it starts in the input, and its items.
#[derive(Clone, Copy, Debug)]
pub(super) struct Doc {
    pub(super) start: usize,
    pub(super) first: usize,
    pub(super) end: usize,
    /// Its comments and blank lines: a range of [`Loaded::trivia`].
    pub(super) trivia: (usize, usize),
    /// Those before its `---`: a range of [`Loaded::preambles`].
    pub(super) preamble: (usize, usize),
}

/// A YAML stream read into data items (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct Loaded<'a> {
    pub(super) store: String,
    /// The items, from number `base` on: slots and item numbers count
    /// from the stream's start (a streaming reader takes the items it gave
    /// out; [`load`] keeps them all, and only it meets anchors and merges,
    /// whose numbers index `items` directly).
    pub(super) items: Vec<Item<'a>>,
    pub(super) base: usize,
    /// Map entries a merge keeps: the range of items from a key to the
    /// end of its value.
    pub(super) entries: Vec<(usize, usize)>,
    pub(super) docs: Vec<Doc>,
    /// An error after the last document (between documents).
    pub(super) after: Option<Fault>,
    /// Every key by where it starts, for [`Source::key_at`].
    pub(super) keys: Vec<(usize, TextRef<'a>)>,
    pub(super) warnings: Vec<NotedWarning>,
    /// Comments and blank lines as they are written, each with the index
    /// of the item it is written before (attached and settled, see
    /// `attach.rs`), ordered within each document.
    pub(super) trivia: Vec<(usize, Trivia<'a>)>,
    /// Comments before a document's `---`, and of an input without any
    /// document ([`Loaded::tail`]).
    pub(super) preambles: Vec<Trivia<'a>>,
    pub(super) tail: (usize, usize),
}

impl Loaded<'_> {
    /// The warnings, in input order: each plain scalar the two schemas
    /// read differently, each tag dropped, each alias and merge expanded.
    /// Byte offset, kind and message.
    pub(crate) fn warnings(&self) -> &[NotedWarning] {
        &self.warnings
    }
}

/// The keep arena of a streaming reader (docs/yaml-streaming.md §1): the
/// items of the current document's anchored collections, copied as they
/// are read (their decoded texts into `store`), which an [`Item::Alias`]
/// replays by index through a [`Walk`]. Every reading of one stream shares
/// it (a bet's clone, a skim, the re-reading of [`Source::at`]): reading is
/// the same from the same place, so an item already kept at the index a
/// reading reaches is that item, and is not kept twice.
#[derive(Debug, Default)]
pub(super) struct Kept<'a> {
    pub(super) items: Vec<Item<'a>>,
    pub(super) store: String,
}

/// How far aliases may expand a document of an input of `len` bytes,
/// counted in source bytes of the nodes they replay: 100 times the input
/// or 100 MB, whichever is larger.
pub(crate) fn expansion_limit(len: usize) -> usize {
    len.saturating_mul(100).max(100 << 20)
}

/// Reads the YAML stream `input` under `schema`, nesting at most
/// `depth_limit` containers (aliases included).
pub(crate) fn load(input: &[u8], schema: Schema, depth_limit: usize) -> Loaded<'_> {
    let mut loader = Loader::new(input, schema, depth_limit, true);
    while let Some(event) = loader.parser.next_event() {
        let step = event.and_then(|e| loader.step(e.at, e.kind));
        if let Err(fault) = step {
            loader.fail(fault);
            break;
        }
        // What a streaming reader would release here (checked in debug
        // builds: no record is made behind it later).
        #[cfg(debug_assertions)]
        loader.attach.release(loader.next_slot());
    }
    loader.finish();
    let mut out = loader.out;
    out.preambles = core::mem::take(&mut loader.attach.preambles);
    settle(&mut out, &loader.attach.trivia);
    out.keys.sort_by_key(|&(at, _)| at);
    out.keys.dedup_by_key(|&mut (at, _)| at);
    out
}

/// Settles the comments and blank lines attached in `records` into
/// `loaded`'s, which the source gives out as they are: each document that
/// has any is walked as the source will read it, and [`Settle`] decides
/// at each record. A walk stops after the last record is settled.
fn settle<'a>(loaded: &mut Loaded<'a>, records: &[(usize, Trivia<'a>)]) {
    let mut settle = Settle::new(records.len());
    for i in 0..loaded.docs.len() {
        let Some(&doc) = loaded.docs.get(i) else {
            break;
        };
        let start = settle.out.len();
        let (mut next, end) = doc.trivia;
        settle.document(doc.first == doc.end);
        let mut walk = Walk::new(doc.first, doc.end);
        // What the last item read was, until a record needs it: only the
        // last one before a record counts, unless a blank line waits.
        let mut unsettled = None;
        loop {
            let record = records.get(next).filter(|_| next < end);
            if let Some(&(slot, trivia)) = record.filter(|r| walk.reaches(r.0)) {
                if let Some(step) = unsettled.take() {
                    settle.item(step);
                }
                settle.record(slot, trivia);
                next += 1;
                continue;
            }
            if record.is_none() && !settle.holds_blank() {
                break;
            }
            if let (Some(&(slot, _)), false) = (record, settle.holds_blank()) {
                // Up to the record, only the last item counts.
                if let Some(last) = walk.skip_plain(loaded, slot) {
                    unsettled = loaded.items.get(last).map(Item::step);
                    continue;
                }
            }
            let item = match walk.next_item(&loaded.items, &loaded.entries) {
                None => break,
                Some(None) => continue,
                Some(Some(item)) => item,
            };
            match settle.holds_blank() {
                true => settle.item(item.step()),
                false => unsettled = Some(item.step()),
            }
            if let Item::Fail(_) = item {
                break;
            }
        }
        if let Some(d) = loaded.docs.get_mut(i) {
            d.trivia = (start, settle.out.len());
        }
    }
    loaded.trivia = settle.out;
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
    /// A map: each merge item and the entries its value offers, in order.
    merges: Vec<(usize, Vec<(usize, usize)>)>,
}

#[derive(Clone)]
pub(super) struct Loader<'a> {
    pub(super) parser: Parser<'a>,
    schema: Schema,
    depth_limit: usize,
    pub(super) out: Loaded<'a>,
    /// Keys are noted for [`Source::key_at`] ([`load`]'s; a streaming
    /// reader reads them again).
    note_keys: bool,
    frames: Vec<LoadFrame<'a>>,
    anchors: BTreeMap<&'a str, Anchor<'a>>,
    /// Source bytes of the document so far, aliases expanded.
    weight: usize,
    limit: usize,
    pub(super) doc_open: bool,
    /// Where comments and blank lines go.
    pub(super) attach: Attach<'a>,
    /// A streaming reader's keep arena (see [`Kept`]): then anchors name
    /// items there, else (for [`load`]) in `out.items`.
    pub(super) keep: Option<alloc::rc::Rc<core::cell::RefCell<Kept<'a>>>>,
    /// How many items of the current document this reading has kept.
    pub(super) kept_len: usize,
    /// How many open collections are anchored (their items are kept).
    keeping: usize,
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
const BAD_MERGE: &str =
    "a merge key `<<` takes a map, an alias of a map, or a list of those, and this value is none of them";

fn data(at: usize, message: &'static str) -> Fault {
    Fault::new(ErrorKind::Data, at, message)
}

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
    /// A loader of the YAML stream `input` (see [`load`]); `note_keys`:
    /// keys are noted for [`Source::key_at`].
    pub(super) fn new(
        input: &'a [u8],
        schema: Schema,
        depth_limit: usize,
        note_keys: bool,
    ) -> Loader<'a> {
        Loader {
            parser: Parser::new(input, depth_limit),
            schema,
            depth_limit,
            out: Loaded::default(),
            note_keys,
            frames: Vec::new(),
            anchors: BTreeMap::new(),
            weight: 0,
            limit: expansion_limit(input.len()),
            doc_open: false,
            attach: Attach::new(input),
            keep: None,
            kept_len: 0,
            keeping: 0,
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
        }
        self.kept_len = 0;
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
        if n < kept.items.len() {
            // Kept by another reading of this document: the same item.
            return;
        }
        let item = item.stored_again(&self.out.store, &mut kept.store);
        kept.items.push(item);
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
                self.out.items.push(Item::Fail(fault));
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
        if let Some(name) = props.anchor {
            self.anchors.insert(name, Anchor::Open);
            if self.keep.is_some() {
                self.keeping += 1;
            }
        }
        let start = self.next_slot();
        self.push(Item::Open { at, map, close: 0 });
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
            merges: Vec::new(),
        });
        Ok(())
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
        if !frame.merges.is_empty() {
            self.merge(&frame);
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
        if let Some(parent) = self.frames.last_mut() {
            parent.depth_below = parent.depth_below.max(depth);
        }
        self.node_done()
    }

    /// A node is complete: the map it is in expects the other of key and
    /// value next; a merge key's value is taken in.
    fn node_done(&mut self) -> Result<(), Fault> {
        let len = self.next_slot();
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
        let offered = self.merge_value(value_start)?;
        if let Some(Item::Merge { skip_to, .. }) = self.out.items.get_mut(merge) {
            *skip_to = len;
        }
        if let Some(frame) = self.frames.last_mut() {
            frame.merges.push((merge, offered));
        }
        Ok(())
    }

    /// The entries a merge key's value (at item `i`) offers, in order of
    /// precedence: a map's, an alias of a map's, or a list of those.
    fn merge_value(&self, i: usize) -> Result<Vec<(usize, usize)>, Fault> {
        let items = &self.out.items;
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
            .filter(|&(k, _)| seen.insert(self.key_string(k)))
            .collect();
        kept.reverse();
        out.extend(kept);
    }

    fn is_map(&self, i: usize) -> bool {
        matches!(self.out.items.get(i), Some(Item::Open { map: true, .. }))
    }

    /// Where item `i` (or the value it replays) starts in the input.
    fn at_of(&self, i: usize) -> usize {
        match self.out.items.get(i) {
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
        let items = &self.out.items;
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
                    out.extend(self.out.entries.get(first..last).unwrap_or_default());
                    i = skip_to;
                }
                _ => break,
            }
        }
    }

    /// The decoded text of the key item `i`.
    fn key_string(&self, i: usize) -> String {
        match self.out.items.get(i) {
            Some(Item::Key { text, .. }) => match *text {
                TextRef::Input(t) => t.chars().collect(),
                TextRef::Stored { start, end } => {
                    self.out.store.get(start..end).unwrap_or("").to_string()
                }
            },
            _ => String::new(),
        }
    }

    /// Decides the merges of the map `frame` just closed as kubectl's
    /// go-yaml v2 applies them: in input order, each entry and each merge
    /// setting its keys over what came before, and a merged list's maps
    /// last to first (its first map wins). So the last writer of a key
    /// wins: going through the writers backwards, the first to name a key
    /// keeps it; an entry written here that a later merge overwrites is
    /// skipped (its key item becomes an empty merge that jumps past it).
    fn merge(&mut self, frame: &LoadFrame<'a>) {
        let mut own = Vec::new();
        self.map_entries(frame.start, &mut own);
        // Every writer by item index: (index, end of entry or which merge, is a merge).
        let mut writers: Vec<(usize, usize, bool)> = own
            .iter()
            .map(|&(k, end)| (k, end, false))
            .chain(
                frame
                    .merges
                    .iter()
                    .enumerate()
                    .map(|(n, &(merge, _))| (merge, n, true)),
            )
            .collect();
        writers.sort_unstable();
        let mut seen = BTreeSet::new();
        for &(index, other, is_merge) in writers.iter().rev() {
            if !is_merge {
                let overwritten = !seen.insert(self.key_string(index));
                if let (true, Some(item)) = (overwritten, self.out.items.get_mut(index)) {
                    *item = Item::Merge {
                        first: 0,
                        last: 0,
                        skip_to: other,
                    };
                }
                continue;
            }
            let first = self.out.entries.len();
            for &(k, end) in frame.merges[other].1.iter() {
                if seen.insert(self.key_string(k)) {
                    self.out.entries.push((k, end));
                }
            }
            let last = self.out.entries.len();
            if let Some(Item::Merge {
                first: f, last: l, ..
            }) = self.out.items.get_mut(index)
            {
                (*f, *l) = (first, last);
            }
        }
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
                let merge = self.next_slot();
                self.out.items.push(Item::Merge {
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
        if let (Item::Key { at, text }, true) = (item, self.note_keys) {
            self.out.keys.push((at, text));
        }
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

    /// Restarts the walk at the items `first..end`.
    pub(super) fn restart(&mut self, first: usize, end: usize) {
        self.run = Run {
            next: first,
            end,
            entries: false,
        };
        self.stack.clear();
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
    /// due now: the records are in slot order and each is due once, when
    /// the run reading the document's own items, or a merge replaying
    /// entries of an inline map (which lie in slot order past the merge
    /// key), reaches its slot. Alias replays never reach one: an anchor's
    /// items come before the alias, and their records were due there.
    #[inline(always)]
    pub(super) fn reaches(&self, slot: usize) -> bool {
        !self.run.entries && slot <= self.run.next
    }

    /// Reads at once the items of the current run before item `until`
    /// that replay nothing (as [`Walk::next_item`] would, one by one):
    /// the index of the last one read, if any.
    #[inline(always)]
    pub(super) fn skip_plain(&mut self, loaded: &Loaded<'_>, until: usize) -> Option<usize> {
        let start = self.run.next;
        if self.run.entries {
            return None;
        }
        let until = until.min(self.run.end);
        while self.run.next < until {
            match loaded.items.get(self.run.next) {
                Some(Item::Alias { .. } | Item::Merge { .. } | Item::Fail(_)) | None => break,
                Some(_) => self.run.next += 1,
            }
        }
        (self.run.next > start).then(|| self.run.next - 1)
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
