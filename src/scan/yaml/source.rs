//! The YAML [`Source`]: the syntax events of the [`Parser`] turned into
//! the data events the driver writes, as kubectl reads them
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
//! [`load`] reads the whole stream once into a [`Loaded`]: a flat list of
//! items, one per data event, whose texts are spans of the input (when a
//! scalar's text is its source) or of a side buffer (decoded scalars that
//! fold or escape, converted keys, numbers, `!!binary` and tagged texts). An alias is one item that
//! replays the anchored node's items; a merge is one item that replays the
//! entries it keeps. [`YamlSource`] is a cursor over that list: cloning it
//! saves a place, as the driver needs. This needs `alloc`.
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

use super::attach::{Attach, Role};
use super::parser::Parser;
use super::scalar::{Scalar, Style};
use super::syntax::{Kind, Props, SyntaxTag};
use crate::error::{ErrorKind, Fault, Lines};
use crate::scan::resolve::{self, Key, Number, Schema, Tagged, Value};
use crate::scan::{Event, Shapes, Source, Spelling, Text, Trivia};

/// A string of a key or value: a span of the input, or of the side buffer.
#[derive(Clone, Copy, Debug)]
enum TextRef<'a> {
    Input(Text<'a>),
    Stored { start: usize, end: usize },
}

/// One data event of a document, or an instruction to replay others.
#[derive(Clone, Copy, Debug)]
enum Item<'a> {
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

/// One document: where it starts in the input, and its items.
#[derive(Clone, Copy, Debug)]
struct Doc {
    start: usize,
    first: usize,
    end: usize,
    /// Its comments and blank lines: a range of [`Loaded::trivia`].
    trivia: (usize, usize),
    /// Those before its `---`: a range of [`Loaded::preambles`].
    preamble: (usize, usize),
}

/// A YAML stream read into data items (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct Loaded<'a> {
    store: String,
    items: Vec<Item<'a>>,
    /// Map entries a merge keeps: the range of items from a key to the
    /// end of its value.
    entries: Vec<(usize, usize)>,
    docs: Vec<Doc>,
    /// An error after the last document (between documents).
    after: Option<Fault>,
    /// Every key by where it starts, for [`Source::key_at`].
    keys: Vec<(usize, TextRef<'a>)>,
    warnings: Vec<(usize, String)>,
    /// Comments and blank lines, each with the index of the item it is
    /// written before (see `attach.rs`), ordered within each document.
    trivia: Vec<(usize, Trivia<'a>)>,
    /// Comments before a document's `---`, and of an input without any
    /// document ([`Loaded::tail`]).
    preambles: Vec<Trivia<'a>>,
    tail: (usize, usize),
}

impl Loaded<'_> {
    /// The warnings, in input order: each plain scalar the two schemas
    /// read differently, each tag dropped. Byte offset and message.
    pub(crate) fn warnings(&self) -> &[(usize, String)] {
        &self.warnings
    }
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
    let mut loader = Loader {
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
    };
    while let Some(event) = loader.parser.next_event() {
        let step = event.and_then(|e| loader.step(e.at, e.kind));
        if let Err(fault) = step {
            loader.fail(fault);
            break;
        }
    }
    // What is left: the last document's foot, or an input of comments.
    let last = loader.out.docs.last_mut().map(|d| (&mut d.trivia, d.end));
    let (range, end) = last.map_or((None, 0), |(r, e)| (Some(r), e));
    loader.out.tail = loader.attach.document_start(true, range, end);
    let mut out = loader.out;
    out.trivia = core::mem::take(&mut loader.attach.trivia);
    out.preambles = core::mem::take(&mut loader.attach.preambles);
    out.keys.sort_by_key(|&(at, _)| at);
    out.keys.dedup_by_key(|&mut (at, _)| at);
    out
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
#[derive(Debug)]
struct LoadFrame<'a> {
    /// Index of its [`Item::Open`].
    start: usize,
    map: bool,
    /// A map: the next node is a key.
    key_next: bool,
    /// Its anchor and the expanded size before it.
    anchor: Option<(&'a str, usize)>,
    /// How many containers deep its contents go (aliases included).
    depth_below: usize,
    /// A map: the [`Item::Merge`] whose value is being read.
    merge: Option<usize>,
    /// A map: where the current value's items start.
    value_start: usize,
    /// A map: each merge item and the entries its value offers, in order.
    merges: Vec<(usize, Vec<(usize, usize)>)>,
}

struct Loader<'a> {
    parser: Parser<'a>,
    schema: Schema,
    depth_limit: usize,
    out: Loaded<'a>,
    frames: Vec<LoadFrame<'a>>,
    anchors: BTreeMap<&'a str, Anchor<'a>>,
    /// Source bytes of the document so far, aliases expanded.
    weight: usize,
    limit: usize,
    doc_open: bool,
    /// Where comments and blank lines go.
    attach: Attach<'a>,
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
fn verbatim(s: &str) -> Text<'_> {
    // One word-at-a-time pass: the first `"`, `\` or C0 control, and
    // whether every byte before it is printable ASCII.
    match crate::swar::string_special_printable(s.as_bytes(), 0) {
        (at, true) if at == s.len() => Text::printable(s),
        (at, false) if at == s.len() => Text::new(s, Spelling::Verbatim, false),
        _ => Text::new(s, Spelling::Unescaped, s.contains('\n')),
    }
}

impl<'a> Loader<'a> {
    /// Ends the stream with `fault`: in the open document, or after the
    /// last one.
    fn fail(&mut self, fault: Fault) {
        match self.doc_open {
            true => {
                self.out.items.push(Item::Fail(fault));
                self.end_document(fault.offset());
            }
            false => self.out.after = Some(fault),
        }
    }

    fn step(&mut self, at: usize, kind: Kind<'a>) -> Result<(), Fault> {
        match kind {
            Kind::DocumentStart { explicit } => {
                let first = self.out.items.len();
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
                self.weight = 0;
            }
            Kind::DocumentEnd { .. } => self.end_document(at),
            Kind::MappingStart { props, flow } | Kind::SequenceStart { props, flow } => {
                let map = matches!(kind, Kind::MappingStart { .. });
                let slot = self.out.items.len();
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
                let (role, slot) = (self.role(), self.out.items.len());
                self.attach.node(at, role, None, slot);
                self.scalar(at, scalar, props.tag, true)?;
                // Where the scalar's text ends in the input.
                let raw = scalar.raw();
                let input = self.parser.source().as_ptr() as usize;
                let start = (raw.as_ptr() as usize).saturating_sub(input);
                let key = (role == Role::Key).then_some(slot);
                self.attach
                    .scalar_done(start + raw.len(), key, self.out.items.len());
                self.node_done()?;
            }
            Kind::Alias { name } => {
                let (role, slot) = (self.role(), self.out.items.len());
                self.attach.node(at, role, None, slot);
                self.alias(at, name)?;
                let key = (role == Role::Key).then_some(slot);
                self.attach
                    .scalar_done(at + 1 + name.len(), key, self.out.items.len());
                self.node_done()?;
            }
            Kind::Comment { text, trailing } => {
                let slot = self.out.items.len();
                self.attach.comment(at, text, trailing, slot);
            }
            Kind::BlankLine => self.attach.blank_line(at),
            Kind::Lenient { what } => self.warn(
                at,
                alloc::format!(
                    "{what}: not YAML 1.2, but kubectl reads it; the KYAML written is valid YAML everywhere"
                ),
            ),
            Kind::StreamStart | Kind::StreamEnd => {}
        }
        Ok(())
    }

    fn end_document(&mut self, at: usize) {
        if !self.doc_open {
            return;
        }
        self.doc_open = false;
        let len = self.out.items.len();
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
        self.warn(at, ambiguity.to_string());
    }

    fn warn(&mut self, at: usize, message: String) {
        self.out.warnings.push((at, message));
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
        self.warn(at, message);
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
                    alloc::format!(
                        "tag {name} on a {what} dropped (kubectl reads the {what} as if untagged)"
                    ),
                );
            }
        }
        if let Some(name) = props.anchor {
            self.anchors.insert(name, Anchor::Open);
        }
        let start = self.out.items.len();
        self.out.items.push(Item::Open { at, map, close: 0 });
        self.weight += 1;
        self.frames.push(LoadFrame {
            start,
            map,
            key_next: true,
            anchor: props.anchor.map(|name| (name, self.weight)),
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
        let close = self.out.items.len();
        self.out.items.push(Item::Close { at, map: frame.map });
        self.attach.close(at, close);
        self.weight += 1;
        if let Some(Item::Open { close: c, .. }) = self.out.items.get_mut(frame.start) {
            *c = close;
        }
        if !frame.merges.is_empty() {
            self.merge(&frame);
        }
        let depth = 1 + frame.depth_below;
        if let Some((name, before)) = frame.anchor {
            let node = Anchor::Node {
                start: frame.start,
                end: self.out.items.len(),
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
        let len = self.out.items.len();
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
                            self.map_entries(j, &mut offered);
                            j = close + 1;
                        }
                        Item::Alias { start, end } if self.is_map(start) => {
                            self.map_entries(start, &mut offered);
                            j += 1;
                            let _ = end;
                        }
                        _ => return Err(data(self.at_of(j), BAD_MERGE)),
                    }
                }
            }
            Some(Item::Open { map: true, .. }) => self.map_entries(i, &mut offered),
            Some(&Item::Alias { start, .. }) if self.is_map(start) => {
                self.map_entries(start, &mut offered)
            }
            _ => return Err(data(self.at_of(i), BAD_MERGE)),
        }
        Ok(offered)
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
                self.out.items.push(Item::Alias { start, end });
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
            (tag, style, Some("<<"))
                if key && self.schema == Schema::Kubectl && merges(tag, style) =>
            {
                let merge = self.out.items.len();
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

    /// Pushes an item, noting keys for [`Source::key_at`].
    fn push(&mut self, item: Item<'a>) {
        if let Item::Key { at, text } = item {
            self.out.keys.push((at, text));
        }
        self.out.items.push(item);
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

/// A cursor over a [`Loaded`] stream: the YAML [`Source`].
#[derive(Clone, Debug)]
pub(crate) struct YamlSource<'l> {
    loaded: &'l Loaded<'l>,
    /// The document [`Source::next_document`] opens next.
    next_doc: usize,
    run: Run,
    /// The runs an alias or a merge interrupted.
    stack: Vec<Run>,
    depth: usize,
    at: usize,
    /// The current document's comments and blank lines not yet read: a
    /// range of [`Loaded::trivia`].
    trivia: (usize, usize),
    /// The last event given out ended a value (a scalar or a closing
    /// bracket): a line comment may follow on its line.
    after_value: bool,
    /// A blank line is due: written only if a comment or an item other
    /// than a closing bracket comes before the document ends.
    held_blank: bool,
    /// The item read while a held blank line waited for it: given out
    /// next, after the blank line.
    queued: Option<Item<'l>>,
    /// Records of [`YamlSource::trivia`] are left, or one is held or
    /// queued: events take the way that gives them out.
    with_trivia: bool,
    /// Those before its header: a range of [`Loaded::preambles`].
    preamble: (usize, usize),
}

impl<'l> YamlSource<'l> {
    pub(crate) fn new(loaded: &'l Loaded<'l>) -> YamlSource<'l> {
        YamlSource {
            loaded,
            next_doc: 0,
            run: Run {
                next: 0,
                end: 0,
                entries: false,
            },
            stack: Vec::new(),
            depth: 0,
            at: 0,
            trivia: (0, 0),
            after_value: false,
            held_blank: false,
            queued: None,
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
        self.run = Run {
            next: doc.first,
            end: doc.end,
            entries: false,
        };
        self.stack.clear();
        self.depth = 0;
        self.at = doc.start;
        (self.trivia, self.preamble) = (doc.trivia, doc.preamble);
        (self.after_value, self.held_blank, self.queued) = (false, false, None);
        self.with_trivia = doc.trivia.0 < doc.trivia.1;
        true
    }

    /// The comment or blank line due before the item read next: records
    /// are in slot order and each is given out once, when the run reading
    /// the document's own items, or a merge replaying entries of an inline
    /// map (which lie in slot order past the merge key), reaches its
    /// slot. Alias replays never reach one: an anchor's items come before
    /// the alias, and their records were given out there.
    fn due_trivia(&mut self) -> Option<Trivia<'l>> {
        let (next, end) = self.trivia;
        if next >= end || self.run.entries {
            return None;
        }
        let &(slot, trivia) = self.loaded.trivia.get(next)?;
        if slot > self.run.next {
            return None;
        }
        self.trivia.0 += 1;
        Some(trivia)
    }

    /// The event for a due comment or blank line, if any now: the records
    /// as attached, made what a second pass reads back the same
    /// (SPEC-YAML.md §3, §4) where the items around them were not written
    /// (merged away) or moved (merged in). A blank line is held until a
    /// comment or an item other than a closing bracket follows (so none
    /// comes before a closing bracket or a document's end, and a run of
    /// them is one; the emitter drops one after an opening bracket, and
    /// attachment leaves none at a document's start); a document foot
    /// comment of a document without a root is an own-line comment like
    /// those before it; a line comment stays one only right after the
    /// value whose line it ends, else it goes on a line of its own.
    fn trivia_event(&mut self, trivia: Trivia<'l>) -> Option<Event<'l, Trivia<'l>>> {
        let trivia = match trivia {
            Trivia::BlankLine => {
                self.held_blank = true;
                return None;
            }
            Trivia::LineComment(_) if self.after_value && !self.held_blank => trivia,
            Trivia::LineComment(text) => Trivia::Comment(text),
            // No root to follow: an own line like those before one.
            Trivia::DocumentFoot(text) if self.document_is_empty() => Trivia::Comment(text),
            other => other,
        };
        self.after_value = false;
        if core::mem::take(&mut self.held_blank) {
            // The record is due again, after the blank line.
            self.trivia.0 -= 1;
            return Some(Event::Trivia(Trivia::BlankLine));
        }
        Some(Event::Trivia(trivia))
    }

    /// [`Source::next_event`] while comments or blank lines of the
    /// document are still to come or held: out of line, so that documents
    /// without them (and the rest of one after its last) read items only.
    #[inline(never)]
    fn next_event_with_trivia(&mut self) -> Result<Option<Event<'l, Trivia<'l>>>, Fault> {
        let event = self.next_item_or_trivia();
        self.with_trivia =
            self.trivia.0 < self.trivia.1 || self.held_blank || self.queued.is_some();
        event
    }

    fn next_item_or_trivia(&mut self) -> Result<Option<Event<'l, Trivia<'l>>>, Fault> {
        if let Some(item) = self.queued.take() {
            return self.item_event(item);
        }
        let item = loop {
            if let Some(trivia) = self.due_trivia() {
                match self.trivia_event(trivia) {
                    Some(event) => return Ok(Some(event)),
                    None => continue,
                }
            }
            match self.next_item() {
                None => {
                    self.held_blank = false;
                    return Ok(None);
                }
                Some(None) => continue,
                Some(Some(item)) => break item,
            }
        };
        if self.held_blank {
            self.held_blank = false;
            if !matches!(item, Item::Close { .. }) {
                self.queued = Some(item);
                self.after_value = false;
                return Ok(Some(Event::Trivia(Trivia::BlankLine)));
            }
        }
        self.item_event(item)
    }

    /// The event of a data item, where it is given out: the position and
    /// depth it sets are what the driver asks for next.
    #[inline(always)]
    fn item_event(&mut self, item: Item<'l>) -> Result<Option<Event<'l, Trivia<'l>>>, Fault> {
        let event = match item {
            Item::Open { at, map, .. } => {
                (self.at, self.after_value) = (at, false);
                self.depth += 1;
                match map {
                    true => Event::MapStart,
                    false => Event::ListStart,
                }
            }
            Item::Close { at, map } => {
                (self.at, self.after_value) = (at, true);
                self.depth = self.depth.saturating_sub(1);
                match map {
                    true => Event::MapEnd,
                    false => Event::ListEnd,
                }
            }
            Item::Key { at, text } => {
                (self.at, self.after_value) = (at, false);
                Event::Key(self.text(text))
            }
            Item::Str { at, text } => {
                (self.at, self.after_value) = (at, true);
                Event::Str(self.text(text))
            }
            Item::Number { at, start, end } => {
                (self.at, self.after_value) = (at, true);
                Event::Number {
                    text: self.loaded.store.get(start..end).unwrap_or("0"),
                    exponent: false,
                }
            }
            Item::Bool { at, value } => {
                (self.at, self.after_value) = (at, true);
                Event::Bool(value)
            }
            Item::Null { at } => {
                (self.at, self.after_value) = (at, true);
                Event::Null
            }
            Item::Fail(fault) => return Err(fault),
            // `next_item` follows replays.
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

    /// The next item that is data (replays followed); `Some(None)` where
    /// one run of items ends or a merged entry's begins (comments may be
    /// due there).
    #[inline(always)]
    fn next_item(&mut self) -> Option<Option<Item<'l>>> {
        let loaded = self.loaded;
        loop {
            if self.run.next >= self.run.end {
                self.run = self.stack.pop()?;
                return Some(None);
            }
            let i = self.run.next;
            self.run.next += 1;
            if self.run.entries {
                let &(next, end) = loaded.entries.get(i)?;
                self.stack.push(self.run);
                self.run = Run {
                    next,
                    end,
                    entries: false,
                };
                return Some(None);
            }
            match *loaded.items.get(i)? {
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

impl<'l> Source<'l> for YamlSource<'l> {
    type Trivia = crate::scan::Trivia<'l>;

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

    fn next_event(&mut self) -> Result<Option<Event<'l, Self::Trivia>>, Fault> {
        if self.with_trivia {
            return self.next_event_with_trivia();
        }
        loop {
            match self.next_item() {
                None => return Ok(None),
                Some(None) => continue,
                Some(Some(item)) => return self.item_event(item),
            }
        }
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
        match items.get(self.run.next) {
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
        while let Ok(Some(event)) = cursor.next_event() {
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

/// A warning about YAML input: where, and what (see
/// [`Options::warnings`](crate::Options::warnings)).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Warning {
    /// The byte offset of the scalar or tag warned about.
    pub offset: usize,
    /// Its 1-based line.
    pub line: usize,
    /// Its 1-based column, in characters (as [`Error::column`](crate::Error::column)).
    pub column: usize,
    /// What is wrong, without the position.
    pub message: String,
}

impl core::fmt::Display for Warning {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} at line {}, column {}",
            self.message, self.line, self.column
        )
    }
}

/// The warnings of the YAML `input` under `opts`, located.
pub(crate) fn warnings(input: &[u8], opts: crate::Options) -> Vec<Warning> {
    locate_warnings(input, &load(input, opts.yaml_schema(), opts.depth_limit()))
}

/// The warnings `loaded` noted, with lines and columns in `input`, in the
/// order noted: located in order of offset, so that all of them together
/// cost one pass over the input.
pub(crate) fn locate_warnings(input: &[u8], loaded: &Loaded<'_>) -> Vec<Warning> {
    let noted = loaded.warnings();
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
        .map(|((offset, message), (line, column))| Warning {
            offset: *offset,
            line,
            column,
            message: message.clone(),
        })
        .collect()
}
