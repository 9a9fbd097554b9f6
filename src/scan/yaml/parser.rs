//! Tokens to [`SyntaxEvent`]s: the document and collection grammar as an explicit
//! state machine with a fixed-size stack of return states (no recursion),
//! and `%TAG` resolution of tags.
//!
//! Comments, blank lines and leniencies pass through as soon as they are the next token,
//! whatever the state; every state looks at one token and either consumes
//! it or leaves it for the next state.

use super::scalar::{Scalar, Style};
use super::scanner::{set_level, Scanner};
use super::syntax::{Kind, Props, SyntaxEvent, SyntaxTag};
use super::token::Tok;
use crate::error::Fault;
use crate::options::MAX_DEPTH;
use alloc::vec::Vec;

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
    /// A single-pair mapping inside a flow sequence.
    FlowPairKey,
    FlowPairValue,
    FlowPairValueNode,
    FlowPairEnd,
    FlowMapKey {
        first: bool,
    },
    FlowMapKeyNode,
    FlowMapValue,
    FlowMapValueNode,
    End,
}

/// What a parser step gives: `None` when it made no event (another step
/// follows), else the event or the error, in the type
/// [`Parser::next_event`] returns, so it is built where it is returned.
type Step<'a> = Option<Result<SyntaxEvent<'a>, Fault>>;

/// `?` for a step: the error of a `Result<_, Fault>` as the step's.
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(fault) => return Parser::fail(fault),
        }
    };
}

/// `%TAG` directives one document may declare.
const TAG_DIRECTIVES: usize = 16;

/// The YAML pull parser. See the module docs of `scan::yaml`. A clone
/// is a saved place: its stacks are vectors as deep as the deepest yet,
/// so a clone (one per bet of the streaming reader) copies only those.
#[derive(Clone)]
pub(crate) struct Parser<'a> {
    scanner: Scanner<'a>,
    state: State,
    /// Return states: the first `depth` (see [`Parser`]).
    stack: Vec<State>,
    depth: usize,
    max_depth: usize,
    /// Properties read for the node being parsed, and where they start.
    anchor: Option<&'a str>,
    tag: Option<SyntaxTag<'a>>,
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
            stack: Vec::new(),
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

    fn take(&mut self) {
        self.scanner.bump();
    }

    /// A syntax error; the scanner adds where the flow collection it is
    /// in opens.
    fn err(&self, at: usize, expected: &'static str) -> Fault {
        self.scanner.err(at, expected)
    }

    fn push(&mut self, s: State) -> Result<(), Fault> {
        // Return states are pushed once per open collection and node, so
        // the depth check on collection starts bounds this; stay safe anyway.
        if self.depth >= MAX_DEPTH + 4 {
            return Err(Fault::too_deep(0, self.max_depth));
        }
        set_level(&mut self.stack, self.depth, s);
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

    /// The next event, `None` after the stream's end. Inlined into its
    /// callers (the loop only; each step stays one function): one copy of
    /// the 80-byte event less per event (kubectl_pods −0.4% instructions,
    /// fastest of 100 calls −3%).
    #[inline(always)]
    pub(crate) fn next_event(&mut self) -> Option<Result<SyntaxEvent<'a>, Fault>> {
        if self.failed || self.state == State::End {
            return None;
        }
        loop {
            // A step's answer is returned as it is: built where it is
            // returned, not copied there (an event is 80 bytes).
            let step = self.step();
            match step {
                None => {}
                Some(Err(_)) => {
                    self.failed = true;
                    return step;
                }
                Some(Ok(_)) => return step,
            }
        }
    }

    fn event(at: usize, kind: Kind<'a>) -> Step<'a> {
        Some(Ok(SyntaxEvent { at, kind }))
    }

    /// A step's error.
    fn fail(fault: Fault) -> Step<'a> {
        Some(Err(fault))
    }

    fn empty_scalar(&self, at: usize) -> Step<'a> {
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
    fn step(&mut self) -> Step<'a> {
        // The token is read where it lies in the scanner's queue: each arm
        // copies out only what it uses (the whole 48-byte token copied to
        // the stack, as it was, cost ~40 instructions a step).
        let tok = tri!(self.scanner.peek());
        if matches!(
            tok.kind,
            Tok::Comment { .. } | Tok::Blank | Tok::Lenient(_) | Tok::Refused(_)
        ) {
            return self.trivia();
        }
        let at = tok.at;
        use State as S;
        match self.state {
            S::StreamStart => {
                self.take();
                self.state = S::DocStart { implicit: true };
                Self::event(at, Kind::StreamStart)
            }
            S::DocStart { implicit } => match tok.kind {
                Tok::StreamEnd => {
                    self.take();
                    self.state = S::End;
                    Self::event(at, Kind::StreamEnd)
                }
                Tok::DocEnd if implicit => {
                    // A stray `...` between documents.
                    self.take();
                    None
                }
                Tok::Version | Tok::TagDirective { .. } | Tok::Reserved if implicit => {
                    self.state = S::Directives;
                    None
                }
                Tok::DocStart => {
                    self.take();
                    tri!(self.push(S::DocEnd));
                    self.state = S::DocContent;
                    Self::event(at, Kind::DocumentStart { explicit: true })
                }
                _ if implicit => {
                    tri!(self.push(S::DocEnd));
                    self.state = S::Node {
                        block: true,
                        indentless: false,
                    };
                    Self::event(at, Kind::DocumentStart { explicit: false })
                }
                _ => Self::fail(self.err(at, "'---' (a new document) or the end")),
            },
            S::Directives => match tok.kind {
                Tok::Version => {
                    if self.version_seen {
                        return Self::fail(self.err(at, "one %YAML directive per document"));
                    }
                    self.version_seen = true;
                    self.take();
                    None
                }
                Tok::TagDirective { handle, prefix } => {
                    if self.tags[..self.n_tags].iter().any(|&(h, _)| h == handle) {
                        return Self::fail(self.err(at, "one %TAG directive per handle"));
                    }
                    if self.n_tags == TAG_DIRECTIVES {
                        return Self::fail(self.err(at, "at most 16 %TAG directives per document"));
                    }
                    self.tags[self.n_tags] = (handle, prefix);
                    self.n_tags += 1;
                    self.take();
                    None
                }
                Tok::Reserved => {
                    self.take();
                    None
                }
                Tok::DocStart => {
                    self.take();
                    tri!(self.push(S::DocEnd));
                    self.state = S::DocContent;
                    Self::event(at, Kind::DocumentStart { explicit: true })
                }
                _ => Self::fail(self.err(at, "'---' after the directives")),
            },
            S::DocContent => match tok.kind {
                Tok::Version
                | Tok::TagDirective { .. }
                | Tok::Reserved
                | Tok::DocStart
                | Tok::DocEnd
                | Tok::StreamEnd => {
                    self.pop();
                    self.empty_scalar(at)
                }
                _ => {
                    self.state = S::Node {
                        block: true,
                        indentless: false,
                    };
                    None
                }
            },
            S::DocEnd => {
                let explicit = matches!(tok.kind, Tok::DocEnd);
                if explicit {
                    self.take();
                } else if !matches!(tok.kind, Tok::DocStart | Tok::StreamEnd) {
                    return Self::fail(self.err(
                        at,
                        "the end of the document ('---', '...' or no more content)",
                    ));
                }
                self.n_tags = 0;
                self.version_seen = false;
                self.state = S::DocStart { implicit: explicit };
                Self::event(at, Kind::DocumentEnd { explicit })
            }
            S::Node { block, indentless } => self.node(at, block, indentless),
            S::BlockSeqEntry => match tok.kind {
                Tok::BlockEntry => {
                    self.take();
                    self.node_after_indicator(S::BlockSeqEntryNode, S::BlockSeqEntry)
                }
                Tok::BlockEnd => {
                    self.take();
                    self.pop();
                    self.close();
                    Self::event(at, Kind::SequenceEnd)
                }
                _ => Self::fail(self.err(at, "'-' (a sequence entry) or less indentation")),
            },
            S::BlockSeqEntryNode => match tok.kind {
                Tok::BlockEntry | Tok::BlockEnd => self.empty_then(at, S::BlockSeqEntry),
                _ => self.enter_node(at, S::BlockSeqEntry, true, false),
            },
            S::IndentlessSeqEntry => match tok.kind {
                Tok::BlockEntry => {
                    self.take();
                    self.node_after_indicator(S::IndentlessSeqEntryNode, S::IndentlessSeqEntry)
                }
                _ => {
                    self.pop();
                    self.close();
                    Self::event(at, Kind::SequenceEnd)
                }
            },
            S::IndentlessSeqEntryNode => match tok.kind {
                Tok::BlockEntry | Tok::Key | Tok::Value | Tok::BlockEnd => {
                    self.empty_then(at, S::IndentlessSeqEntry)
                }
                _ => self.enter_node(at, S::IndentlessSeqEntry, true, false),
            },
            S::BlockMapKey => match tok.kind {
                Tok::Key => {
                    self.take();
                    self.node_after_indicator(S::BlockMapKeyNode, S::BlockMapValue)
                }
                Tok::BlockEnd => {
                    self.take();
                    self.pop();
                    self.close();
                    Self::event(at, Kind::MappingEnd)
                }
                Tok::Value => self.empty_then(at, S::BlockMapValue),
                _ => Self::fail(self.err(at, "a key ('key: value') or less indentation")),
            },
            S::BlockMapKeyNode => match tok.kind {
                Tok::Key | Tok::Value | Tok::BlockEnd => self.empty_then(at, S::BlockMapValue),
                _ => self.enter_node(at, S::BlockMapValue, true, true),
            },
            S::BlockMapValue => match tok.kind {
                Tok::Value => {
                    self.take();
                    self.node_after_indicator(S::BlockMapValueNode, S::BlockMapKey)
                }
                Tok::Key | Tok::BlockEnd => self.empty_then(at, S::BlockMapKey),
                _ => Self::fail(self.err(at, "':' after the key")),
            },
            S::BlockMapValueNode => match tok.kind {
                Tok::Key | Tok::Value | Tok::BlockEnd => self.empty_then(at, S::BlockMapKey),
                _ => self.enter_node(at, S::BlockMapKey, true, true),
            },
            // FlowSeqEntry and FlowMapKey open with the same three arms (the
            // closing bracket, the comma, the error). Kept twice on purpose:
            // one shared function for them (and for the collection starts)
            // made this loop's code 20% slower on block YAML at fewer
            // instructions (docs/performance.md, "YAML parser layout").
            S::FlowSeqEntry { first } => match tok.kind {
                Tok::FlowSeqEnd => {
                    self.take();
                    self.pop();
                    self.close();
                    Self::event(at, Kind::SequenceEnd)
                }
                Tok::FlowEntry if !first => {
                    self.take();
                    self.state = S::FlowSeqEntry { first: true };
                    None
                }
                _ if !first => Self::fail(self.err(at, "',' or ']'")),
                Tok::Key | Tok::Value => {
                    if matches!(tok.kind, Tok::Key) {
                        self.take();
                    }
                    tri!(self.open(at));
                    self.state = S::FlowPairKey;
                    Self::event(
                        at,
                        Kind::MappingStart {
                            props: Props::default(),
                            flow: true,
                        },
                    )
                }
                _ => self.enter_node(at, S::FlowSeqEntry { first: false }, false, false),
            },
            S::FlowPairKey => match tok.kind {
                Tok::Value | Tok::FlowEntry | Tok::FlowSeqEnd => {
                    self.empty_then(at, S::FlowPairValue)
                }
                _ => self.enter_node(at, S::FlowPairValue, false, false),
            },
            S::FlowPairValue => match tok.kind {
                Tok::Value => {
                    self.take();
                    self.state = S::FlowPairValueNode;
                    None
                }
                _ => self.empty_then(at, S::FlowPairEnd),
            },
            S::FlowPairValueNode => match tok.kind {
                Tok::FlowEntry | Tok::FlowSeqEnd => self.empty_then(at, S::FlowPairEnd),
                _ => self.enter_node(at, S::FlowPairEnd, false, false),
            },
            S::FlowPairEnd => {
                self.close();
                self.state = S::FlowSeqEntry { first: false };
                Self::event(at, Kind::MappingEnd)
            }
            S::FlowMapKey { first } => match tok.kind {
                Tok::FlowMapEnd => {
                    self.take();
                    self.pop();
                    self.close();
                    Self::event(at, Kind::MappingEnd)
                }
                Tok::FlowEntry if !first => {
                    self.take();
                    self.state = S::FlowMapKey { first: true };
                    None
                }
                _ if !first => Self::fail(self.err(at, "',' or '}'")),
                Tok::Key => {
                    self.take();
                    self.state = S::FlowMapKeyNode;
                    None
                }
                Tok::Value => self.empty_then(at, S::FlowMapValue),
                _ => self.enter_node(at, S::FlowMapValue, false, false),
            },
            S::FlowMapKeyNode => match tok.kind {
                Tok::Value | Tok::FlowEntry | Tok::FlowMapEnd => {
                    self.empty_then(at, S::FlowMapValue)
                }
                _ => self.enter_node(at, S::FlowMapValue, false, false),
            },
            S::FlowMapValue => match tok.kind {
                Tok::Value => {
                    self.take();
                    self.state = S::FlowMapValueNode;
                    None
                }
                _ => self.empty_then(at, S::FlowMapKey { first: false }),
            },
            S::FlowMapValueNode => match tok.kind {
                Tok::FlowEntry | Tok::FlowMapEnd => {
                    self.empty_then(at, S::FlowMapKey { first: false })
                }
                _ => self.enter_node(at, S::FlowMapKey { first: false }, false, false),
            },
            S::End => None,
        }
    }

    /// A comment, blank line or leniency token (`tok`, the next): its
    /// event, in any state. Out of line: it keeps the state machine's
    /// step small.
    #[inline(never)]
    fn trivia(&mut self) -> Step<'a> {
        let tok = *self.scanner.head();
        self.take();
        let kind = match tok.kind {
            Tok::Comment { text, trailing } => Kind::Comment { text, trailing },
            Tok::Lenient(what) => Kind::Lenient { what },
            Tok::Refused(what) => Kind::Refused { what },
            _ => Kind::BlankLine,
        };
        Self::event(tok.at, kind)
    }

    /// A node follows, at the token at `at` (the next); then `next`. A
    /// scalar or alias without properties (the usual node) is read at once
    /// rather than through the node state.
    fn enter_node(&mut self, at: usize, next: State, block: bool, indentless: bool) -> Step<'a> {
        match self.scanner.head().kind {
            Tok::Scalar(scalar) => self.bare_scalar(at, scalar, next),
            Tok::Alias(name) => {
                self.take();
                self.state = next;
                Self::event(at, Kind::Alias { name })
            }
            _ => {
                tri!(self.push(next));
                self.state = State::Node { block, indentless };
                None
            }
        }
    }

    /// After a block indicator (`-`, `?`, `:`) was taken: the state
    /// `node` for the node after it, whose next state is `next`. The
    /// usual node, a scalar with no properties, is read here at once, as
    /// `node`'s step would read it (through [`Parser::enter_node`]), not
    /// in a step of its own: a block line is then one step per event. So
    /// is a block collection's start with no properties, which took two
    /// more steps (the indicator's node state, then the node state).
    #[inline(always)]
    fn node_after_indicator(&mut self, node: State, next: State) -> Step<'a> {
        #[cfg(test)]
        if super::scanner::SLOW_PATHS_ONLY.with(core::cell::Cell::get) {
            self.state = node;
            return None;
        }
        let tok = tri!(self.scanner.peek());
        let at = tok.at;
        match tok.kind {
            Tok::Scalar(scalar) => self.bare_scalar(at, scalar, next),
            // A block collection with no properties: `- - x`, `key:` and
            // its block map on the next line.
            Tok::BlockSeqStart | Tok::BlockMapStart => {
                let map = matches!(tok.kind, Tok::BlockMapStart);
                tri!(self.push(next));
                self.block_collection(at, at, Props::default(), map)
            }
            _ => {
                self.state = node;
                None
            }
        }
    }

    /// A block collection opens at its start token at `at` (the next), as
    /// the node state reads it: its node's properties `props` start at
    /// `start`; the start taken, its event.
    #[inline(always)]
    fn block_collection(
        &mut self,
        at: usize,
        start: usize,
        props: Props<'a>,
        map: bool,
    ) -> Step<'a> {
        tri!(self.open(at));
        self.take();
        if map {
            self.state = State::BlockMapKey;
            Self::event(start, Kind::MappingStart { props, flow: false })
        } else {
            self.state = State::BlockSeqEntry;
            Self::event(start, Kind::SequenceStart { props, flow: false })
        }
    }

    /// The scalar token `scalar` at `at`, the next, with no properties
    /// (the usual node): taken, its event, then `next`.
    #[inline(always)]
    fn bare_scalar(&mut self, at: usize, scalar: Scalar<'a>, next: State) -> Step<'a> {
        self.take();
        self.state = next;
        Self::event(
            at,
            Kind::Scalar {
                props: Props::default(),
                scalar,
            },
        )
    }

    /// An empty node (`key:` with no value) at `at`; then `next`.
    fn empty_then(&mut self, at: usize, next: State) -> Step<'a> {
        self.state = next;
        self.empty_scalar(at)
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

    /// The node state, at the token at `at` (the next): properties, then
    /// the content.
    fn node(&mut self, at: usize, block: bool, indentless: bool) -> Step<'a> {
        let start = self.props_at.unwrap_or(at);
        match self.scanner.head().kind {
            Tok::Alias(name) => {
                if self.props_at.is_some() {
                    return Self::fail(
                        self.err(at, "an alias without properties (no anchor or tag on '*')"),
                    );
                }
                self.take();
                self.pop();
                Self::event(at, Kind::Alias { name })
            }
            Tok::Anchor(name) => {
                if self.anchor.is_some() {
                    return Self::fail(self.err(at, "one anchor per node"));
                }
                self.anchor = Some(name);
                self.props_at.get_or_insert(at);
                self.take();
                None
            }
            Tok::Tag { handle, suffix } => {
                if self.tag.is_some() {
                    return Self::fail(self.err(at, "one tag per node"));
                }
                let tag = tri!(self.resolve_tag(at, handle, suffix));
                self.tag = Some(tag);
                self.props_at.get_or_insert(at);
                self.take();
                None
            }
            Tok::Scalar(scalar) => {
                self.take();
                self.pop();
                let props = self.take_props();
                Self::event(start, Kind::Scalar { props, scalar })
            }
            Tok::BlockEntry if indentless => {
                tri!(self.open(at));
                let props = self.take_props();
                self.state = State::IndentlessSeqEntry;
                Self::event(start, Kind::SequenceStart { props, flow: false })
            }
            Tok::FlowSeqStart => {
                tri!(self.open(at));
                self.take();
                let props = self.take_props();
                self.state = State::FlowSeqEntry { first: true };
                Self::event(start, Kind::SequenceStart { props, flow: true })
            }
            Tok::FlowMapStart => {
                tri!(self.open(at));
                self.take();
                let props = self.take_props();
                self.state = State::FlowMapKey { first: true };
                Self::event(start, Kind::MappingStart { props, flow: true })
            }
            Tok::BlockSeqStart | Tok::BlockMapStart if block => {
                let map = matches!(self.scanner.head().kind, Tok::BlockMapStart);
                let props = self.take_props();
                self.block_collection(at, start, props, map)
            }
            _ if self.props_at.is_some() => {
                self.pop();
                let props = self.take_props();
                let src = self.scanner.source();
                let raw = src.get(at.min(src.len())..at.min(src.len())).unwrap_or("");
                Self::event(
                    start,
                    Kind::Scalar {
                        props,
                        scalar: Scalar::new(raw, Style::Plain, false),
                    },
                )
            }
            _ => Self::fail(self.err(at, "a node (a value, '[', '{', '-' or a key)")),
        }
    }

    fn resolve_tag(
        &self,
        at: usize,
        handle: &'a str,
        suffix: &'a str,
    ) -> Result<SyntaxTag<'a>, Fault> {
        if handle.is_empty() {
            return Ok(SyntaxTag { prefix: "", suffix });
        }
        if let Some(&(_, prefix)) = self.tags[..self.n_tags].iter().find(|&&(h, _)| h == handle) {
            return Ok(SyntaxTag { prefix, suffix });
        }
        match handle {
            "!!" => Ok(SyntaxTag {
                prefix: SyntaxTag::CORE,
                suffix,
            }),
            "!" => Ok(SyntaxTag {
                prefix: "!",
                suffix,
            }),
            _ => Err(self.err(at, "a tag handle declared by %TAG")),
        }
    }
}

impl<'a> Iterator for Parser<'a> {
    type Item = Result<SyntaxEvent<'a>, Fault>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_event()
    }
}
