//! Tokens to [`Event`]s: the document and collection grammar as an explicit
//! state machine with a fixed-size stack of return states (no recursion),
//! and `%TAG` resolution of tags.
//!
//! Comments and blank lines pass through as soon as they are the next token,
//! whatever the state; every state looks at one token and either consumes
//! it or leaves it for the next state.

use super::scanner::{Scanner, Tok, Token};
use super::{Event, Kind, Props, Scalar, Style, Tag};
use crate::error::{ErrorKind, Fault};
use crate::MAX_DEPTH;

/// Where the parser is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    StreamStart,
    /// Before a document; `implicit`: a bare document may start here.
    DocStart {
        implicit: bool,
    },
    /// After `%` directives: `---` must follow.
    Directives,
    DocContent,
    DocEnd,
    /// A node (properties then content). `block`: block collections may
    /// start; `indentless`: a `-` may start a sequence at the same column.
    Node {
        block: bool,
        indentless: bool,
    },
    BlockSeqEntry,
    /// After `-`.
    BlockSeqEntryNode,
    IndentlessSeqEntry,
    IndentlessSeqEntryNode,
    BlockMapKey,
    /// After `?`.
    BlockMapKeyNode,
    BlockMapValue,
    /// After `:`.
    BlockMapValueNode,
    FlowSeqEntry {
        first: bool,
    },
    /// The end of a single-pair mapping inside a flow sequence (`[a: b]`).
    FlowPairEnd,
    FlowMapKey {
        first: bool,
    },
    /// After `?`. `pair`, here and in the next two: the mapping is a
    /// single pair inside a flow sequence, ended by `,` or `]`.
    FlowMapKeyNode {
        pair: bool,
    },
    FlowMapValue {
        pair: bool,
    },
    /// After `:`.
    FlowMapValueNode {
        pair: bool,
    },
    End,
}

/// `%TAG` directives one document may declare.
const TAG_DIRECTIVES: usize = 16;

/// The YAML pull parser. See the module docs of `scan::yaml`.
pub(crate) struct Parser<'a> {
    scanner: Scanner<'a>,
    state: State,
    stack: [State; MAX_DEPTH + 4],
    depth: usize,
    max_depth: usize,
    /// Properties read for the node being parsed, and where they start.
    anchor: Option<&'a str>,
    tag: Option<Tag<'a>>,
    props_at: Option<usize>,
    tags: [(&'a str, &'a str); TAG_DIRECTIVES],
    n_tags: usize,
    version_seen: bool,
    /// Open collections, as events tell them (a flow pair's mapping counts).
    nesting: usize,
    /// An error was returned: no more events.
    failed: bool,
}

impl<'a> Parser<'a> {
    /// A parser over `input` allowing `max_depth` nested collections (at
    /// most [`MAX_DEPTH`]).
    pub(crate) fn new(input: &'a [u8], max_depth: usize) -> Parser<'a> {
        Parser {
            scanner: Scanner::new(input, max_depth),
            state: State::StreamStart,
            stack: [State::End; MAX_DEPTH + 4],
            depth: 0,
            max_depth: max_depth.min(MAX_DEPTH),
            anchor: None,
            tag: None,
            props_at: None,
            tags: [("", ""); TAG_DIRECTIVES],
            n_tags: 0,
            version_seen: false,
            nesting: 0,
            failed: false,
        }
    }

    /// The input text (up to any invalid UTF-8).
    pub(crate) fn source(&self) -> &'a str {
        self.scanner.source()
    }

    fn peek(&mut self) -> Result<Token<'a>, Fault> {
        self.scanner.peek().copied()
    }

    fn take(&mut self) {
        self.scanner.bump();
    }

    fn err(at: usize, expected: &'static str) -> Fault {
        Fault::new(ErrorKind::Syntax, at, expected)
    }

    fn push(&mut self, s: State) -> Result<(), Fault> {
        // Return states are pushed once per open collection and node, so
        // the depth check on collection starts bounds this; stay safe anyway.
        if self.depth >= self.stack.len() {
            return Err(Fault::too_deep(0, self.max_depth));
        }
        self.stack[self.depth] = s;
        self.depth += 1;
        Ok(())
    }

    fn pop(&mut self) {
        self.state = if self.depth == 0 {
            State::End
        } else {
            self.depth -= 1;
            self.stack[self.depth]
        };
    }

    /// The next event, `None` after the stream's end.
    pub(crate) fn next_event(&mut self) -> Option<Result<Event<'a>, Fault>> {
        if self.failed || self.state == State::End {
            return None;
        }
        loop {
            match self.step() {
                Ok(Some(e)) => {
                    if e.kind == Kind::StreamEnd {
                        self.state = State::End;
                    }
                    return Some(Ok(e));
                }
                Ok(None) => {}
                Err(f) => {
                    self.failed = true;
                    return Some(Err(f));
                }
            }
        }
    }

    fn event(at: usize, kind: Kind<'a>) -> Option<Event<'a>> {
        Some(Event { at, kind })
    }

    fn empty_scalar(&self, at: usize) -> Option<Event<'a>> {
        let src = self.scanner.source();
        let raw = src.get(at.min(src.len())..at.min(src.len())).unwrap_or("");
        Self::event(
            at,
            Kind::Scalar {
                props: Props::default(),
                scalar: Scalar::new(raw, Style::Plain, false),
            },
        )
    }

    /// One state transition; an event if it produced one.
    fn step(&mut self) -> Result<Option<Event<'a>>, Fault> {
        let tok = self.peek()?;
        match tok.kind {
            Tok::Comment { text, trailing } => {
                self.take();
                return Ok(Self::event(tok.at, Kind::Comment { text, trailing }));
            }
            Tok::Blank => {
                self.take();
                return Ok(Self::event(tok.at, Kind::BlankLine));
            }
            _ => {}
        }
        let at = tok.at;
        let kind = tok.kind;
        use State as S;
        match self.state {
            S::StreamStart => {
                self.take();
                self.state = S::DocStart { implicit: true };
                Ok(Self::event(at, Kind::StreamStart))
            }
            S::DocStart { implicit } => match kind {
                Tok::StreamEnd => {
                    self.take();
                    self.state = S::End;
                    Ok(Self::event(at, Kind::StreamEnd))
                }
                Tok::DocEnd if implicit => {
                    // A stray `...` between documents.
                    self.take();
                    Ok(None)
                }
                Tok::Version | Tok::TagDirective { .. } | Tok::Reserved if implicit => {
                    self.state = S::Directives;
                    Ok(None)
                }
                Tok::DocStart => self.explicit_document_start(at),
                _ if implicit => {
                    self.push(S::DocEnd)?;
                    self.state = S::Node {
                        block: true,
                        indentless: false,
                    };
                    Ok(Self::event(at, Kind::DocumentStart { explicit: false }))
                }
                _ => Err(Self::err(at, "'---' (a new document) or the end")),
            },
            S::Directives => match kind {
                Tok::Version => {
                    if self.version_seen {
                        return Err(Self::err(at, "one %YAML directive per document"));
                    }
                    self.version_seen = true;
                    self.take();
                    Ok(None)
                }
                Tok::TagDirective { handle, prefix } => {
                    if self.tags[..self.n_tags].iter().any(|&(h, _)| h == handle) {
                        return Err(Self::err(at, "one %TAG directive per handle"));
                    }
                    if self.n_tags == TAG_DIRECTIVES {
                        return Err(Self::err(at, "at most 16 %TAG directives per document"));
                    }
                    self.tags[self.n_tags] = (handle, prefix);
                    self.n_tags += 1;
                    self.take();
                    Ok(None)
                }
                Tok::Reserved => {
                    self.take();
                    Ok(None)
                }
                Tok::DocStart => self.explicit_document_start(at),
                _ => Err(Self::err(at, "'---' after the directives")),
            },
            S::DocContent => match kind {
                Tok::Version
                | Tok::TagDirective { .. }
                | Tok::Reserved
                | Tok::DocStart
                | Tok::DocEnd
                | Tok::StreamEnd => {
                    self.pop();
                    Ok(self.empty_scalar(at))
                }
                _ => {
                    self.state = S::Node {
                        block: true,
                        indentless: false,
                    };
                    Ok(None)
                }
            },
            S::DocEnd => {
                let explicit = kind == Tok::DocEnd;
                if explicit {
                    self.take();
                } else if !matches!(kind, Tok::DocStart | Tok::StreamEnd) {
                    return Err(Self::err(
                        at,
                        "the end of the document ('---', '...' or no more content)",
                    ));
                }
                self.n_tags = 0;
                self.version_seen = false;
                self.state = S::DocStart { implicit: explicit };
                Ok(Self::event(at, Kind::DocumentEnd { explicit }))
            }
            S::Node { block, indentless } => self.node(at, kind, block, indentless),
            S::BlockSeqEntry => match kind {
                Tok::BlockEntry => {
                    self.take();
                    self.state = S::BlockSeqEntryNode;
                    Ok(None)
                }
                Tok::BlockEnd => {
                    self.take();
                    self.pop();
                    self.close();
                    Ok(Self::event(at, Kind::SequenceEnd))
                }
                _ => Err(Self::err(at, "'-' (a sequence entry) or less indentation")),
            },
            S::BlockSeqEntryNode => match kind {
                Tok::BlockEntry | Tok::BlockEnd => self.empty_then(at, S::BlockSeqEntry),
                _ => self.enter_node(at, kind, S::BlockSeqEntry, true, false),
            },
            S::IndentlessSeqEntry => match kind {
                Tok::BlockEntry => {
                    self.take();
                    self.state = S::IndentlessSeqEntryNode;
                    Ok(None)
                }
                _ => {
                    self.pop();
                    self.close();
                    Ok(Self::event(at, Kind::SequenceEnd))
                }
            },
            S::IndentlessSeqEntryNode => match kind {
                Tok::BlockEntry | Tok::Key | Tok::Value | Tok::BlockEnd => {
                    self.empty_then(at, S::IndentlessSeqEntry)
                }
                _ => self.enter_node(at, kind, S::IndentlessSeqEntry, true, false),
            },
            S::BlockMapKey => match kind {
                Tok::Key => {
                    self.take();
                    self.state = S::BlockMapKeyNode;
                    Ok(None)
                }
                Tok::BlockEnd => {
                    self.take();
                    self.pop();
                    self.close();
                    Ok(Self::event(at, Kind::MappingEnd))
                }
                Tok::Value => self.empty_then(at, S::BlockMapValue),
                _ => Err(Self::err(at, "a key ('key: value') or less indentation")),
            },
            S::BlockMapKeyNode => match kind {
                Tok::Key | Tok::Value | Tok::BlockEnd => self.empty_then(at, S::BlockMapValue),
                _ => self.enter_node(at, kind, S::BlockMapValue, true, true),
            },
            S::BlockMapValue => match kind {
                Tok::Value => {
                    self.take();
                    self.state = S::BlockMapValueNode;
                    Ok(None)
                }
                Tok::Key | Tok::BlockEnd => self.empty_then(at, S::BlockMapKey),
                _ => Err(Self::err(at, "':' after the key")),
            },
            S::BlockMapValueNode => match kind {
                Tok::Key | Tok::Value | Tok::BlockEnd => self.empty_then(at, S::BlockMapKey),
                _ => self.enter_node(at, kind, S::BlockMapKey, true, true),
            },
            S::FlowSeqEntry { first } => match self.flow_end_or_comma(at, kind, first, false) {
                Some(done) => done,
                None => match kind {
                    Tok::Key | Tok::Value => {
                        if kind == Tok::Key {
                            self.take();
                        }
                        self.open(at)?;
                        self.state = S::FlowMapKeyNode { pair: true };
                        Ok(Self::event(
                            at,
                            Kind::MappingStart {
                                props: Props::default(),
                                flow: true,
                            },
                        ))
                    }
                    _ => self.enter_node(at, kind, S::FlowSeqEntry { first: false }, false, false),
                },
            },
            S::FlowPairEnd => {
                self.close();
                self.state = S::FlowSeqEntry { first: false };
                Ok(Self::event(at, Kind::MappingEnd))
            }
            S::FlowMapKey { first } => match self.flow_end_or_comma(at, kind, first, true) {
                Some(done) => done,
                None => match kind {
                    Tok::Key => {
                        self.take();
                        self.state = S::FlowMapKeyNode { pair: false };
                        Ok(None)
                    }
                    Tok::Value => self.empty_then(at, S::FlowMapValue { pair: false }),
                    _ => self.enter_node(at, kind, S::FlowMapValue { pair: false }, false, false),
                },
            },
            S::FlowMapKeyNode { pair } => {
                let next = S::FlowMapValue { pair };
                if kind == Tok::Value || Self::ends_flow_node(kind, pair) {
                    self.empty_then(at, next)
                } else {
                    self.enter_node(at, kind, next, false, false)
                }
            }
            S::FlowMapValue { pair } => match kind {
                Tok::Value => {
                    self.take();
                    self.state = S::FlowMapValueNode { pair };
                    Ok(None)
                }
                _ => self.empty_then(at, Self::after_flow_value(pair)),
            },
            S::FlowMapValueNode { pair } => {
                let next = Self::after_flow_value(pair);
                if Self::ends_flow_node(kind, pair) {
                    self.empty_then(at, next)
                } else {
                    self.enter_node(at, kind, next, false, false)
                }
            }
            S::End => Ok(None),
        }
    }

    /// What a flow collection's entry state (`FlowSeqEntry`, or `FlowMapKey`
    /// when `map`) reads before an entry: its closing bracket (`]` or `}`)
    /// ends the collection; after an entry (`first` false) only `,` may
    /// come instead, and the next entry is a first one. `None`: an entry
    /// starts here, for the caller to read.
    fn flow_end_or_comma(
        &mut self,
        at: usize,
        kind: Tok<'a>,
        first: bool,
        map: bool,
    ) -> Option<Result<Option<Event<'a>>, Fault>> {
        let (close, end, again, expected) = if map {
            (
                Tok::FlowMapEnd,
                Kind::MappingEnd,
                State::FlowMapKey { first: true },
                "',' or '}'",
            )
        } else {
            (
                Tok::FlowSeqEnd,
                Kind::SequenceEnd,
                State::FlowSeqEntry { first: true },
                "',' or ']'",
            )
        };
        if kind == close {
            self.take();
            self.pop();
            self.close();
            Some(Ok(Self::event(at, end)))
        } else if first {
            None
        } else if kind == Tok::FlowEntry {
            self.take();
            self.state = again;
            Some(Ok(None))
        } else {
            Some(Err(Self::err(at, expected)))
        }
    }

    /// Whether `kind` ends a flow mapping's node before it starts, so the
    /// node is empty: `,`, or the closing bracket (`]` for a flow `pair`,
    /// which the sequence closes).
    fn ends_flow_node(kind: Tok<'a>, pair: bool) -> bool {
        let close = if pair {
            Tok::FlowSeqEnd
        } else {
            Tok::FlowMapEnd
        };
        kind == Tok::FlowEntry || kind == close
    }

    /// Where a flow mapping goes after a value: to its next key (or its
    /// end), or for a flow `pair` to the pair's end.
    fn after_flow_value(pair: bool) -> State {
        if pair {
            State::FlowPairEnd
        } else {
            State::FlowMapKey { first: false }
        }
    }

    /// `---` at `at`: a document starts, its content next.
    fn explicit_document_start(&mut self, at: usize) -> Result<Option<Event<'a>>, Fault> {
        self.take();
        self.push(State::DocEnd)?;
        self.state = State::DocContent;
        Ok(Self::event(at, Kind::DocumentStart { explicit: true }))
    }

    /// A node follows; then `next`. A scalar or alias without properties
    /// (the usual node) is read at once rather than through the node state.
    fn enter_node(
        &mut self,
        at: usize,
        kind: Tok<'a>,
        next: State,
        block: bool,
        indentless: bool,
    ) -> Result<Option<Event<'a>>, Fault> {
        match kind {
            Tok::Scalar(scalar) => {
                self.take();
                self.state = next;
                Ok(Self::event(
                    at,
                    Kind::Scalar {
                        props: Props::default(),
                        scalar,
                    },
                ))
            }
            Tok::Alias(name) => {
                self.take();
                self.state = next;
                Ok(Self::event(at, Kind::Alias { name }))
            }
            _ => {
                self.push(next)?;
                self.state = State::Node { block, indentless };
                Ok(None)
            }
        }
    }

    /// An empty node (`key:` with no value) at `at`; then `next`.
    fn empty_then(&mut self, at: usize, next: State) -> Result<Option<Event<'a>>, Fault> {
        self.state = next;
        Ok(self.empty_scalar(at))
    }

    /// A collection opens: checks the depth limit.
    fn open(&mut self, at: usize) -> Result<(), Fault> {
        if self.nesting >= self.max_depth {
            return Err(Fault::too_deep(at, self.max_depth));
        }
        self.nesting += 1;
        Ok(())
    }

    fn close(&mut self) {
        self.nesting = self.nesting.saturating_sub(1);
    }

    fn take_props(&mut self) -> Props<'a> {
        self.props_at = None;
        Props {
            anchor: self.anchor.take(),
            tag: self.tag.take(),
        }
    }

    /// The node state: properties, then the content.
    fn node(
        &mut self,
        at: usize,
        kind: Tok<'a>,
        block: bool,
        indentless: bool,
    ) -> Result<Option<Event<'a>>, Fault> {
        let start = self.props_at.unwrap_or(at);
        match kind {
            Tok::Alias(name) => {
                if self.props_at.is_some() {
                    return Err(Self::err(
                        at,
                        "an alias without properties (no anchor or tag on '*')",
                    ));
                }
                self.take();
                self.pop();
                Ok(Self::event(at, Kind::Alias { name }))
            }
            Tok::Anchor(name) => {
                if self.anchor.is_some() {
                    return Err(Self::err(at, "one anchor per node"));
                }
                self.anchor = Some(name);
                self.props_at.get_or_insert(at);
                self.take();
                Ok(None)
            }
            Tok::Tag { handle, suffix } => {
                if self.tag.is_some() {
                    return Err(Self::err(at, "one tag per node"));
                }
                let tag = self.resolve_tag(at, handle, suffix)?;
                self.tag = Some(tag);
                self.props_at.get_or_insert(at);
                self.take();
                Ok(None)
            }
            Tok::Scalar(scalar) => {
                self.take();
                self.pop();
                let props = self.take_props();
                Ok(Self::event(start, Kind::Scalar { props, scalar }))
            }
            Tok::BlockEntry if indentless => {
                self.start_collection(at, start, State::IndentlessSeqEntry)
            }
            Tok::FlowSeqStart => {
                self.start_collection(at, start, State::FlowSeqEntry { first: true })
            }
            Tok::FlowMapStart => {
                self.start_collection(at, start, State::FlowMapKey { first: true })
            }
            Tok::BlockSeqStart if block => self.start_collection(at, start, State::BlockSeqEntry),
            Tok::BlockMapStart if block => self.start_collection(at, start, State::BlockMapKey),
            _ if self.props_at.is_some() => {
                self.pop();
                let props = self.take_props();
                let src = self.scanner.source();
                let raw = src.get(at.min(src.len())..at.min(src.len())).unwrap_or("");
                Ok(Self::event(
                    start,
                    Kind::Scalar {
                        props,
                        scalar: Scalar::new(raw, Style::Plain, false),
                    },
                ))
            }
            _ => Err(Self::err(at, "a node (a value, '[', '{', '-' or a key)")),
        }
    }

    /// A collection starts at `at`, its first state `next` telling which
    /// kind: checks the depth limit, reads the opening token (not the `-`
    /// of an indentless sequence, which its first entry reads), and gives
    /// the start event with the node's properties, at `start` (where they
    /// start).
    fn start_collection(
        &mut self,
        at: usize,
        start: usize,
        next: State,
    ) -> Result<Option<Event<'a>>, Fault> {
        self.open(at)?;
        if next != State::IndentlessSeqEntry {
            self.take();
        }
        let props = self.take_props();
        let flow = matches!(next, State::FlowSeqEntry { .. } | State::FlowMapKey { .. });
        let kind = if matches!(next, State::FlowMapKey { .. } | State::BlockMapKey) {
            Kind::MappingStart { props, flow }
        } else {
            Kind::SequenceStart { props, flow }
        };
        self.state = next;
        Ok(Self::event(start, kind))
    }

    fn resolve_tag(&self, at: usize, handle: &'a str, suffix: &'a str) -> Result<Tag<'a>, Fault> {
        if handle.is_empty() {
            return Ok(Tag { prefix: "", suffix });
        }
        if let Some(&(_, prefix)) = self.tags[..self.n_tags].iter().find(|&&(h, _)| h == handle) {
            return Ok(Tag { prefix, suffix });
        }
        match handle {
            "!!" => Ok(Tag {
                prefix: Tag::CORE,
                suffix,
            }),
            "!" => Ok(Tag {
                prefix: "!",
                suffix,
            }),
            _ => Err(Self::err(at, "a tag handle declared by %TAG")),
        }
    }
}

impl<'a> Iterator for Parser<'a> {
    type Item = Result<Event<'a>, Fault>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_event()
    }
}
