//! Bytes to tokens: indentation turned into block collection starts and
//! ends, implicit keys found by a bounded lookahead, scalars delimited and
//! checked (not decoded), comments and blank lines as tokens of their own.
//!
//! Implicit keys: where a key may start (a line's first token in block
//! context, after `-`, `?` or an explicit `:`, or a flow sequence entry), the
//! scanner looks ahead over at most one line and 1024 characters for the
//! `:` that would make the node a key, and if found emits the key token
//! (and a block mapping start) before the node. Flow mappings need no
//! lookahead: every entry there is a key. Each lookahead stops at its line's
//! end, the key's `:` or 4 KiB, so it costs at most a bounded rescan.
//!
//! This file owns the step that finds the next token (with the block
//! line's fast paths), the token queue's use, indentation, implicit keys,
//! comments and line breaks. The rest are files of their own:
//! `scanner/state.rs` the [`Scanner`] struct and its fields, and two seams
//! as `impl Scanner` blocks: `scanner/scalars.rs` delimits and checks
//! quoted, plain and block scalars; `scanner/directives.rs` reads `%`
//! directive lines and tag properties.

mod directives;
mod scalars;
mod state;

use super::chars::{
    char_count, ends_token, flow_end, is_blank_or_end, is_flow_indicator, line_break_at, next_of,
    plain_stop, quoted_end, refused_character, skip_spaces,
};
use super::scalar::{Scalar, Style};
use super::token::{
    Tok, Token, LENIENT_COMMENT, LENIENT_FLOW_INDENT, LENIENT_LINE_BREAK, REFUSED_AFTER_END,
    REFUSED_DASHES_LINE, REFUSED_MARKER_TEXT,
};
use crate::error::{ErrorKind, Fault, Opened};
use crate::options::MAX_DEPTH;
use alloc::vec::Vec;
use core::cell::Cell;
use scalars::ODD_BREAK_IN_TEXT;
pub(super) use state::Scanner;
use state::QUEUE;

/// An implicit key in a flow collection whose `:` is on a later line.
const FLOW_KEY_LINE: &str =
    "':' on the line where its key starts, as kubectl reads no key across lines in a flow collection";

/// `{{` where a node starts: a Go or Helm template, not YAML.
const TEMPLATE: &str = "YAML, not a Go or Helm template: '{{' starts a template action, and kyaml reads YAML, not templates (render the template first, e.g. with `helm template`)";

/// A `?` right after a plain scalar's text in a flow collection.
const FLOW_QUESTION_MARK: &str =
    "a quoted string for text holding '?' in a flow collection (kubectl ends a plain scalar at '?' there and reads it as a key indicator)";

/// The longest implicit key, in characters (YAML 1.2 §7.4 / §8.2).
const KEY_CHARS: usize = 1024;
/// How many bytes a key lookahead may read: 1024 characters of up to four.
const KEY_BYTES: usize = 4 * KEY_CHARS;

/// The most tokens one step queues for a block line's first token: a
/// block sequence's start and `-`, then a block mapping's start, a key, its
/// `:`, two [`Tok::Lenient`]s (a quoted value's odd line break and
/// indentation) and two scalars.
const LINE_TOKENS: usize = 9;

#[cfg(test)]
std::thread_local! {
    /// Tests: the fast paths off, so the slow paths serve as their oracle.
    pub(super) static SLOW_PATHS_ONLY: Cell<bool> = const { Cell::new(false) };
}

/// Sets level `level` of a depth stack kept as deep as the deepest level
/// yet, growing it by one when `level` is new (its length). The scanner's
/// `indents` and the parser's return states are kept so, not as arrays of
/// `MAX_DEPTH`, so that a clone (one per bet of the streaming reader)
/// copies only the levels used.
#[inline(always)]
pub(super) fn set_level<T>(stack: &mut Vec<T>, level: usize, value: T) {
    match stack.get_mut(level) {
        Some(slot) => *slot = value,
        None => stack.push(value),
    }
}

impl<'a> Scanner<'a> {
    pub(super) fn new(input: &'a [u8], max_depth: usize) -> Scanner<'a> {
        let (src, mut cut) = match crate::swar::utf8(input) {
            Ok(s) => (s, None),
            Err(e) => (
                core::str::from_utf8(&input[..e.valid_up_to()]).unwrap_or(""),
                Some(Fault::new(ErrorKind::InvalidUtf8, e.valid_up_to(), "UTF-8")),
            ),
        };
        let (refused, odd_break) = refused_character(src.as_bytes());
        let src = match refused {
            Some(at) => {
                cut = Some(Fault::new(ErrorKind::Syntax, at, NOT_PRINTABLE));
                src.get(..at).unwrap_or("")
            }
            None => src,
        };
        Scanner {
            src,
            cut,
            odd_break,
            pos: 0,
            line_start: 0,
            indents: Vec::new(),
            n_indents: 0,
            flow_maps: [0; MAX_DEPTH / 64],
            flow_level: 0,
            max_depth: max_depth.min(MAX_DEPTH),
            key_allowed: true,
            key_pending: false,
            adjacent_value: false,
            line_has_content: false,
            tab_at: None,
            gap_tab: false,
            after_indicator: false,
            started: false,
            ended: false,
            deferred: None,
            flow_lenient: false,
            warned_break: false,
            flow_open_at: 0,
            entry_line: usize::MAX,
            entry_explicit: false,
            queue: [Token {
                at: 0,
                kind: Tok::StreamEnd,
            }; QUEUE],
            plain_hint: Cell::new((usize::MAX, 0)),
            next_colon: Cell::new((usize::MAX, 0)),
            q_head: 0,
            q_len: 0,
            after_end: false,
            dashes_refused: false,
        }
    }

    pub(super) fn source(&self) -> &'a str {
        self.src
    }

    fn bytes(&self) -> &'a [u8] {
        self.src.as_bytes()
    }

    fn at(&self, i: usize) -> Option<u8> {
        self.bytes().get(i).copied()
    }

    /// A syntax error at `at`; at the end of `src` cut short, the reason
    /// it was cut (what is wrong there is the character, not the syntax).
    /// Inside a flow collection, the error names where it opens. Cold and
    /// out of line: it keeps `fetch` small enough to inline.
    #[cold]
    #[inline(never)]
    pub(super) fn err(&self, at: usize, expected: &'static str) -> Fault {
        match self.cut {
            Some(cut) if at >= self.src.len() => cut,
            _ if self.flow_level > 0 && self.flow_open_at < at => {
                Fault::inside(at, expected, Opened::Flow, self.flow_open_at)
            }
            _ => Fault::new(ErrorKind::Syntax, at, expected),
        }
    }

    /// A syntax error inside the quoted string that opens at `opened`.
    #[cold]
    #[inline(never)]
    fn err_in_string(&self, at: usize, expected: &'static str, opened: usize) -> Fault {
        match self.cut {
            Some(cut) if at >= self.src.len() => cut,
            _ => Fault::inside(at, expected, Opened::String, opened),
        }
    }

    /// The current block indentation (-1 outside any block collection).
    fn indent(&self) -> i64 {
        if self.n_indents == 0 {
            -1
        } else {
            i64::from(self.indents[self.n_indents - 1])
        }
    }

    fn column(&self) -> usize {
        self.pos - self.line_start
    }

    fn push(&mut self, at: usize, kind: Tok<'a>) {
        let i = (self.q_head + self.q_len) % QUEUE;
        self.queue[i] = Token { at, kind };
        self.q_len += 1;
    }

    /// The next token, left in place for [`Scanner::bump`]. Inlined, with
    /// the scanning out of line ([`Scanner::refill`]): a token already
    /// queued (a block line queues several) is then a pointer in
    /// registers, not a `Result` returned through memory and read back.
    #[inline(always)]
    pub(super) fn peek(&mut self) -> Result<&Token<'a>, Fault> {
        if self.q_len == 0 {
            self.refill()?;
        }
        Ok(self.head())
    }

    /// Queues the next tokens, for [`Scanner::peek`] with none queued.
    #[inline(never)]
    fn refill(&mut self) -> Result<(), Fault> {
        self.fetch()?;
        if self.q_len == 0 {
            return Err(self.err(self.pos, "more input"));
        }
        Ok(())
    }

    /// The token the last [`Scanner::peek`] returned, still in the queue
    /// (call only after a `peek` that succeeded, before the `bump`): read in
    /// place, so a parser step copies out only the fields it uses.
    #[inline]
    pub(super) fn head(&self) -> &Token<'a> {
        &self.queue[self.q_head % QUEUE]
    }

    /// Consumes the token [`Scanner::peek`] returned.
    #[inline]
    pub(super) fn bump(&mut self) {
        if self.q_len > 0 {
            self.q_head = (self.q_head + 1) % QUEUE;
            self.q_len -= 1;
        }
    }

    /// Queues one or more tokens.
    #[inline(always)]
    fn fetch(&mut self) -> Result<(), Fault> {
        if !self.started {
            self.started = true;
            if self.src.starts_with('\u{FEFF}') {
                self.pos = 3;
                self.line_start = 3;
            }
            self.push(0, Tok::StreamStart);
            return Ok(());
        }
        if self.ended {
            if let Some(fault) = self.deferred.take() {
                return Err(fault);
            }
            self.push(self.pos, Tok::StreamEnd);
            return Ok(());
        }
        if self.block_line()? {
            return Ok(());
        }
        if self.skip_to_token()? {
            return Ok(());
        }
        let pos = self.pos;
        let Some(c) = self.at(pos) else {
            if let Some(cut) = self.cut {
                return Err(cut);
            }
            if self.n_indents > 0 {
                self.n_indents -= 1;
                self.push(pos, Tok::BlockEnd);
                return Ok(());
            }
            if self.flow_level > 0 {
                return Err(self.err(pos, "a closing bracket"));
            }
            self.ended = true;
            self.push(pos, Tok::StreamEnd);
            return Ok(());
        };
        let col = self.column();
        let line_first = !self.line_has_content;
        let at_col0 = pos == self.line_start;
        let marker = at_col0 && self.document_marker(pos);
        // The first line starts the input, after its byte order mark if
        // it has one.
        let first_line = pos == 0 || (pos == 3 && self.src.starts_with('\u{FEFF}'));
        if marker && !first_line && self.bytes()[pos - 1] != b'\n' {
            return Err(self.err(pos, MARKER_AFTER_ODD_BREAK));
        }
        if self.flow_level == 0 {
            let target = if marker { -1 } else { col as i64 };
            if self.indent() > target {
                self.n_indents -= 1;
                self.push(pos, Tok::BlockEnd);
                return Ok(());
            }
        } else if line_first
            && (self.tab_at.unwrap_or(col) as i64) <= self.indent()
            && !core::mem::replace(&mut self.flow_lenient, true)
        {
            // go-yaml checks no indentation inside flow collections.
            self.push(pos, Tok::Lenient(LENIENT_FLOW_INDENT));
        }
        if marker {
            if self.flow_level > 0 {
                return Err(self.err(
                    pos,
                    "the flow collection to close before the document marker",
                ));
            }
            let end = c == b'.';
            self.pos += 3;
            self.key_allowed = false;
            self.key_pending = false;
            self.adjacent_value = false;
            self.line_has_content = true;
            if end {
                self.after_document_end()?;
            }
            self.push(pos, if end { Tok::DocEnd } else { Tok::DocStart });
            if end {
                // go-yaml reads one document of the piece: a `...` before
                // any node ends an empty one, or (first in the input) is
                // an error; either way kubectl reads nothing after it.
                self.after_end = true;
            } else {
                self.after_end = false;
                self.after_document_start();
            }
            return Ok(());
        }
        if self.after_end || (at_col0 && c == b'-') {
            self.kubectl_never_reads(pos, at_col0);
        }
        if at_col0 && c == b'%' && self.flow_level == 0 {
            return self.directive();
        }
        let after_indicator = core::mem::take(&mut self.after_indicator);
        if self.flow_level > 0 || c == b'[' || c == b'{' {
            self.track_flow_entry(c);
        }
        if self.flow_level == 0 {
            if let Some(tab) = self.tab_at.filter(|_| line_first) {
                if (tab as i64) <= self.indent() || self.indent_sensitive(c) {
                    return Err(self.err(pos, "indentation by spaces, not tabs"));
                }
            }
            if after_indicator && self.gap_tab && self.indent_sensitive(c) {
                return Err(self.err(pos, "spaces, not tabs, before a nested block collection"));
            }
        }
        self.line_has_content = true;
        let next = self.at(pos + 1);
        let flow = self.flow_level > 0;
        match c {
            b'[' | b'{' => {
                if c == b'{' && next == Some(b'{') {
                    // A map as a key of a map: kubectl refuses it anyway.
                    return Err(self.err(pos, TEMPLATE));
                }
                self.maybe_key(pos, col, line_first)?;
                if self.flow_level >= self.max_depth {
                    return Err(Fault::too_deep(pos, self.max_depth));
                }
                let word = self.flow_level / 64;
                let bit = 1u64 << (self.flow_level % 64);
                if c == b'{' {
                    self.flow_maps[word] |= bit;
                } else {
                    self.flow_maps[word] &= !bit;
                }
                if self.flow_level == 0 {
                    self.flow_lenient = false;
                    self.flow_open_at = pos;
                }
                self.flow_level += 1;
                self.pos += 1;
                self.key_allowed = true;
                self.adjacent_value = false;
                self.push(
                    pos,
                    if c == b'{' {
                        Tok::FlowMapStart
                    } else {
                        Tok::FlowSeqStart
                    },
                );
            }
            b']' | b'}' => {
                if self.flow_level == 0 {
                    return Err(self.err(pos, "a node, not a closing bracket"));
                }
                self.flow_level -= 1;
                self.pos += 1;
                self.key_allowed = false;
                self.adjacent_value = true;
                self.push(
                    pos,
                    if c == b'}' {
                        Tok::FlowMapEnd
                    } else {
                        Tok::FlowSeqEnd
                    },
                );
            }
            b',' => {
                self.pos += 1;
                self.key_allowed = true;
                self.adjacent_value = false;
                self.push(pos, Tok::FlowEntry);
            }
            b'-' if !flow && is_blank_or_end(next.as_ref()) => self.block_entry(pos, col, next)?,
            // go-yaml: in a flow collection `?` is always a key indicator.
            b'?' if flow || is_blank_or_end(next.as_ref()) => {
                if flow {
                    if pos > 0
                        && !matches!(
                            self.bytes()[pos - 1],
                            b' ' | b'\t' | b'\n' | b'\r' | b',' | b'[' | b'{'
                        )
                    {
                        return Err(self.err(pos, FLOW_QUESTION_MARK));
                    }
                    self.entry_explicit = true;
                } else {
                    if !self.key_allowed {
                        return Err(self.err(
                            pos,
                            "a line break before '?' (an explicit key starts its own line)",
                        ));
                    }
                    self.roll_indent(pos, col, Tok::BlockMapStart)?;
                }
                self.pos += 1;
                // In flow context the key after `?` is a node, not a pair.
                self.key_allowed = !flow;
                self.after_indicator = !flow;
                self.adjacent_value = false;
                self.push(pos, Tok::Key);
            }
            b':' if is_blank_or_end(next.as_ref())
                || (flow && (self.adjacent_value || next.is_some_and(is_flow_indicator))) =>
            {
                if flow {
                    if !self.entry_explicit && self.entry_line != self.line_start {
                        return Err(self.err(pos, FLOW_KEY_LINE));
                    }
                    self.key_allowed = false;
                } else if self.key_pending {
                    self.key_pending = false;
                    self.key_allowed = false;
                } else {
                    if !self.key_allowed {
                        return Err(
                            self.err(pos, "a key before ':' (one line of at most 1024 characters, not after another key's ':')")
                        );
                    }
                    self.roll_indent(pos, col, Tok::BlockMapStart)?;
                    self.key_allowed = true;
                }
                self.pos += 1;
                self.adjacent_value = false;
                self.after_indicator = !flow;
                self.push(pos, Tok::Value);
            }
            b'*' => {
                self.maybe_key(pos, col, line_first)?;
                let end = self.name_end(pos + 1);
                if end == pos + 1 {
                    return Err(self.err(pos + 1, "an alias name"));
                }
                self.pos = end;
                self.after_node(false);
                self.push(pos, Tok::Alias(self.slice(pos + 1, end)));
            }
            b'&' => {
                self.maybe_key(pos, col, line_first)?;
                let end = self.name_end(pos + 1);
                if end == pos + 1 {
                    return Err(self.err(pos + 1, "an anchor name"));
                }
                self.pos = end;
                self.key_allowed = false;
                self.adjacent_value = false;
                self.push(pos, Tok::Anchor(self.slice(pos + 1, end)));
            }
            b'!' => {
                self.maybe_key(pos, col, line_first)?;
                let (handle, suffix, end) = self.tag(pos)?;
                self.pos = end;
                self.key_allowed = false;
                self.adjacent_value = false;
                self.push(pos, Tok::Tag { handle, suffix });
            }
            b'|' | b'>' if !flow => {
                self.indented_past_collection(pos, col, line_first)?;
                let (scalar, comment) = self.block_scalar(pos, c == b'|')?;
                self.adjacent_value = false;
                self.push(pos, Tok::Scalar(scalar));
                if let Some((at, text)) = comment {
                    self.push(
                        at,
                        Tok::Comment {
                            text,
                            trailing: true,
                        },
                    );
                }
            }
            b'\'' | b'"' => {
                self.maybe_key(pos, col, line_first)?;
                self.quoted_token(pos, c == b'"')?;
            }
            _ => {
                let plain_start = match c {
                    // go-yaml: `-` then a flow indicator is the plain `-`.
                    b'-' => !is_blank_or_end(next.as_ref()),
                    b'?' | b':' => next.is_some_and(|n| !ends_token(Some(&n), flow)),
                    b'#' => return Err(self.err(pos, "white space before a comment")),
                    b'|' | b'>' | b'%' | b'@' | b'`' | b'\t' => false,
                    _ => true,
                };
                if !plain_start {
                    return Err(self.err(pos, "a node (this character cannot start one)"));
                }
                self.plain_node(pos, col, line_first)?;
            }
        }
        Ok(())
    }

    /// A block sequence entry's `-` at `at` (column `col`), `next` the
    /// byte after it.
    #[inline]
    fn block_entry(&mut self, at: usize, col: usize, next: Option<u8>) -> Result<(), Fault> {
        if !self.key_allowed {
            return Err(self.err(
                at,
                "a line break before '-' (a sequence entry starts its own line)",
            ));
        }
        self.roll_indent(at, col, Tok::BlockSeqStart)?;
        self.pos = at + 1;
        self.key_allowed = true;
        self.after_indicator = true;
        self.push(at, Tok::BlockEntry);
        if next == Some(b' ') {
            self.plain_right_after_entry()?;
        }
        Ok(())
    }

    /// The common block line's fast path, at the line break (LF or CR
    /// LF) ending a line with content: if the next line is indented by
    /// spaces alone, no less than the current block indentation, and
    /// starts with a plain scalar ([`Scanner::plain_start_at`]) or `- `,
    /// its first token is what the next step would find after
    /// [`Scanner::skip_to_token`] and the preamble's questions, none of
    /// which can stop it (no blank line or comment, no tab, no document
    /// marker or directive, no block end, not in a flow collection). It is
    /// queued now, with the state they would leave. Returns whether it
    /// queued it.
    #[inline]
    fn block_line(&mut self) -> Result<bool, Fault> {
        #[cfg(test)]
        if SLOW_PATHS_ONLY.with(Cell::get) {
            return Ok(false);
        }
        let b = self.bytes();
        let start = match b.get(self.pos) {
            Some(b'\n') => self.pos + 1,
            Some(b'\r') if b.get(self.pos + 1) == Some(&b'\n') => self.pos + 2,
            _ => return Ok(false),
        };
        if self.flow_level > 0 || !self.line_has_content {
            return Ok(false);
        }
        let at = skip_spaces(b, start);
        let col = at - start;
        let next = b.get(at + 1).copied();
        let entry = b.get(at) == Some(&b'-') && next == Some(b' ');
        if !(entry || self.plain_start_at(at)) {
            return Ok(false);
        }
        // After `...`, and `---x` at a line's start: the slow path queues
        // what kubectl refuses there.
        if self.after_end || (col == 0 && !entry && b.get(at) == Some(&b'-')) {
            return Ok(false);
        }
        // The block collections the line closes: as many block ends as
        // the steps before its token would queue, if the queue holds them
        // and what the line's fast paths queue after them.
        let mut open = self.n_indents;
        while open > 0 && i64::from(self.indents[open - 1]) > col as i64 {
            open -= 1;
        }
        let ends = self.n_indents - open;
        if ends > QUEUE - LINE_TOKENS {
            return Ok(false);
        }
        for _ in 0..ends {
            self.push(at, Tok::BlockEnd);
        }
        self.n_indents = open;
        if let Err(fault) = self.block_line_token(at, start, col, next, entry) {
            self.defer(fault, ends)?;
        }
        Ok(true)
    }

    /// A fast path found `fault` after the first `queued` tokens of this
    /// step, which the slow path gives out first, in steps of their own,
    /// then the error: they stay queued (alone), the error waits for the
    /// next step.
    #[cold]
    #[inline(never)]
    fn defer(&mut self, fault: Fault, queued: usize) -> Result<(), Fault> {
        if queued == 0 {
            return Err(fault);
        }
        self.q_len = queued;
        self.ended = true;
        self.deferred = Some(fault);
        Ok(())
    }

    /// The token starting the line [`Scanner::block_line`] found at `at`.
    #[inline]
    fn block_line_token(
        &mut self,
        at: usize,
        start: usize,
        col: usize,
        next: Option<u8>,
        entry: bool,
    ) -> Result<(), Fault> {
        // What the line break, the indentation and the preamble leave.
        self.pos = at;
        self.line_start = start;
        self.tab_at = None;
        self.gap_tab = false;
        self.key_allowed = true;
        self.after_indicator = false;
        self.line_has_content = true;
        if entry {
            self.block_entry(at, col, next)
        } else {
            self.plain_node(at, col, true)
        }
    }

    /// A node that is a plain scalar, at `at` (column `col`), and what
    /// comes with it: the key token before it if it is a key, and the
    /// common block line's fast path after.
    #[inline]
    fn plain_node(&mut self, at: usize, col: usize, own_line: bool) -> Result<(), Fault> {
        self.maybe_key(at, col, own_line)?;
        self.plain_token(at)?;
        if self.key_pending {
            self.value_right_after_key()?;
        }
        Ok(())
    }

    /// Whether a plain scalar starts at `at` that the fast paths may queue
    /// early: a letter or digit, or `-` and a digit, so no indicator.
    fn plain_start_at(&self, at: usize) -> bool {
        let b = self.bytes();
        match b.get(at) {
            Some(b'-') => b.get(at + 1).is_some_and(u8::is_ascii_digit),
            Some(c) => c.is_ascii_alphanumeric(),
            None => false,
        }
    }

    /// The block sequence entry's fast path, after `-` and a space: if a
    /// plain scalar starts right after them (see [`Scanner::plain_start_at`]),
    /// it is the node the next step would find, with nothing to check
    /// before it (no tab in the gap, right of the `-`'s column, no line
    /// start); it is queued now, as that step would queue it, when it has
    /// no error to report: no NEL, U+2028 or U+2029 in the input and room
    /// for one more block mapping. Out of line, so `fetch` stays small.
    #[inline(never)]
    fn plain_right_after_entry(&mut self) -> Result<(), Fault> {
        #[cfg(test)]
        if SLOW_PATHS_ONLY.with(Cell::get) {
            return Ok(());
        }
        let at = self.pos + 1;
        if self.plain_start_at(at)
            && self.odd_break == usize::MAX
            && self.n_indents < self.max_depth
        {
            // What the next step's white space skip and preamble would
            // leave: no tab in the gap, the indicator before it taken.
            self.gap_tab = false;
            self.after_indicator = false;
            self.pos = at;
            return self.plain_node(at, at - self.line_start, false);
        }
        Ok(())
    }

    /// A plain scalar's token, the node starting at `at`: built where it
    /// is queued, from where it ends. A `Scalar` returned by `plain` and
    /// copied into the queue was read back across its fields' byte-sized
    /// stores, a store-forwarding stall (docs/performance-notes.md).
    #[inline]
    fn plain_token(&mut self, at: usize) -> Result<(), Fault> {
        let (end, multiline) = self.plain(at)?;
        self.after_node(false);
        let raw = self.slice(at, end);
        self.push(at, Tok::Scalar(Scalar::new(raw, Style::Plain, multiline)));
        Ok(())
    }

    /// The common block line's fast path, after a key's plain scalar (out
    /// of line, so `fetch` stays small for the others). If it ends right
    /// at its `:`, followed by a space or a line break, that `:` is the
    /// value indicator the next step would find, with nothing to check
    /// before it (not at a line's start, right of the key's column, so no
    /// indentation, tab or marker question; not the input's cut), so it is
    /// queued now, as that step would queue it. If one space and a plain
    /// scalar follow ([`Scanner::plain_start_at`]), so is the one the step after would find
    /// there: no key may start there, and without NEL, U+2028 or U+2029 in
    /// the input a block plain scalar has no error to report. So is a
    /// quoted scalar there, whose error waits ([`Scanner::defer`]).
    #[inline(never)]
    fn value_right_after_key(&mut self) -> Result<(), Fault> {
        #[cfg(test)]
        if SLOW_PATHS_ONLY.with(Cell::get) {
            return Ok(());
        }
        let b = self.bytes();
        if self.flow_level == 0
            && b.get(self.pos) == Some(&b':')
            && matches!(b.get(self.pos + 1), Some(b' ' | b'\n'))
        {
            let at = self.pos;
            self.key_pending = false;
            self.key_allowed = false;
            self.pos += 1;
            self.adjacent_value = false;
            self.push(at, Tok::Value);
            if b[at + 1] == b' ' && self.plain_start_at(at + 2) && self.odd_break == usize::MAX {
                // What the next step's white space skip and preamble would
                // leave: no tab in the gap, no indicator before the node.
                self.gap_tab = false;
                self.pos = at + 2;
                return self.plain_token(at + 2);
            }
            if let (b' ', Some(&q @ (b'"' | b'\''))) = (b[at + 1], b.get(at + 2)) {
                // The same for a quoted scalar; its error, if any, waits
                // behind the tokens before it.
                self.gap_tab = false;
                self.pos = at + 2;
                let queued = self.q_len;
                if let Err(fault) = self.quoted_token(at + 2, q == b'"') {
                    self.defer(fault, queued)?;
                }
                return Ok(());
            }
            self.after_indicator = true;
        }
        Ok(())
    }

    /// Notes where the current flow entry starts, at a token starting
    /// with `c` (see `entry_line`). Out of line: it keeps `fetch` small.
    #[inline(never)]
    fn track_flow_entry(&mut self, c: u8) {
        match c {
            b'[' | b'{' | b',' => {
                self.entry_line = usize::MAX;
                self.entry_explicit = false;
            }
            b']' | b'}' => self.entry_line = self.line_start,
            _ if self.entry_line == usize::MAX => self.entry_line = self.line_start,
            _ => {}
        }
    }

    /// Whether a token starting with `c` at a line's start cares about its
    /// column (so a tab before it is indentation, which YAML forbids).
    fn indent_sensitive(&self, c: u8) -> bool {
        let next = self.at(self.pos + 1);
        match c {
            b'-' | b'?' | b':' => is_blank_or_end(next.as_ref()),
            _ => self.key_allowed && self.key_ahead(self.pos),
        }
    }

    fn slice(&self, from: usize, to: usize) -> &'a str {
        self.src.get(from..to).unwrap_or("")
    }

    fn after_node(&mut self, json_like: bool) {
        self.key_allowed = false;
        self.adjacent_value = json_like && self.flow_level > 0;
    }

    /// Whether a `---` or `...` marker starts at `at` (a line's start).
    /// `---#` is one too: kubectl's splitter cuts the file there, and the
    /// `#` starts a comment ([`LENIENT_COMMENT`]).
    fn document_marker(&self, at: usize) -> bool {
        let b = self.bytes();
        match b.get(at..at + 3) {
            Some(b"---") if b.get(at + 3) == Some(&b'#') => true,
            Some(b"---" | b"...") => {
                is_blank_or_end(b.get(at + 3)) || self.line_break_len(at + 3) > 0
            }
            _ => false,
        }
    }

    /// After `---` (at `self.pos`): kubectl's splitter refuses anything
    /// but white space and a comment on the rest of its line.
    fn after_document_start(&mut self) {
        let b = self.bytes();
        let mut i = self.pos;
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        if !matches!(b.get(i), None | Some(b'#')) && self.line_break_len(i) == 0 {
            self.push(i, Tok::Refused(REFUSED_MARKER_TEXT));
        }
    }

    /// A token at `at` that is no document marker, after a `...` with no
    /// `---` line since, or a `-` at a line's start (`at_col0`): what kubectl
    /// refuses or never reads there is queued as [`Tok::Refused`].
    #[cold]
    #[inline(never)]
    fn kubectl_never_reads(&mut self, at: usize, at_col0: bool) {
        if self.after_end {
            // A directive there is kubectl's to drop (`directive`).
            if !(at_col0 && self.bytes().get(at) == Some(&b'%')) {
                self.after_end = false;
                self.push(at, Tok::Refused(REFUSED_AFTER_END));
            }
        } else if at_col0 && self.splitter_refuses(at) {
            self.push(at, Tok::Refused(REFUSED_MARKER_TEXT));
        }
    }

    /// Whether the line starting at `line`, no document marker, starts
    /// with `---` (`---x`, `----`): kubectl's splitter refuses such a line
    /// wherever it is, inside a scalar too (`invalid Yaml document
    /// separator`).
    fn splitter_refuses(&self, line: usize) -> bool {
        self.bytes().get(line..line + 3) == Some(b"---")
    }

    /// A scalar goes on over the line starting at `line`, no document
    /// marker: if kubectl's splitter refuses it, that is queued as
    /// [`Tok::Refused`] (once in the input: the queue holds few tokens).
    fn dashes_in_scalar(&mut self, line: usize) {
        if !self.dashes_refused && self.splitter_refuses(line) {
            self.dashes_refused = true;
            self.push(line, Tok::Refused(REFUSED_DASHES_LINE));
        }
    }

    /// After `...`: only a comment may follow on the line.
    fn after_document_end(&mut self) -> Result<(), Fault> {
        let b = self.bytes();
        let mut i = self.pos;
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        match b.get(i) {
            None | Some(b'\n' | b'\r') => Ok(()),
            Some(b'#') if i > self.pos => Ok(()),
            _ => Err(self.err(i, "a line break after '...'")),
        }
    }

    /// Emits a block collection start if `col` is deeper than the current
    /// indentation (block context only).
    fn roll_indent(&mut self, at: usize, col: usize, start: Tok<'a>) -> Result<(), Fault> {
        if self.flow_level > 0 || self.indent() >= col as i64 {
            return Ok(());
        }
        if self.n_indents >= self.max_depth {
            return Err(Fault::too_deep(at, self.max_depth));
        }
        let col = u32::try_from(col).unwrap_or(u32::MAX);
        set_level(&mut self.indents, self.n_indents, col);
        self.n_indents += 1;
        self.push(at, start);
        Ok(())
    }

    /// At a node's first token (`own_line`: the first on its line): if it
    /// starts an implicit key, queue the key token (and in block context
    /// the mapping start).
    fn maybe_key(&mut self, at: usize, col: usize, own_line: bool) -> Result<(), Fault> {
        if self.flow_level > 0 {
            if self.key_allowed && !self.in_flow_map() && self.key_ahead(at) {
                self.push(at, Tok::Key);
            }
            return Ok(());
        }
        if self.key_allowed && self.key_ahead(at) {
            self.roll_indent(at, col, Tok::BlockMapStart)?;
            self.key_pending = true;
            self.push(at, Tok::Key);
            return Ok(());
        }
        self.indented_past_collection(at, col, own_line)
    }

    /// A node that is not a key, on a line of its own, goes deeper than
    /// the block collection it is in (YAML 1.2 §8.2: a value is indented
    /// more than its key, an entry's node more than its `-`).
    fn indented_past_collection(&self, at: usize, col: usize, own_line: bool) -> Result<(), Fault> {
        match own_line && col as i64 <= self.indent() {
            true => Err(self.err(at, "more indentation, or ': ' after this key")),
            false => Ok(()),
        }
    }

    fn in_flow_map(&self) -> bool {
        let l = self.flow_level - 1;
        self.flow_maps[l / 64] & (1 << (l % 64)) != 0
    }

    /// The end of an anchor or alias name starting at `from`.
    fn name_end(&self, from: usize) -> usize {
        let b = self.bytes();
        let mut i = from;
        while let Some(&c) = b.get(i) {
            if matches!(c, b' ' | b'\t' | b'\n' | b'\r') || is_flow_indicator(c) {
                break;
            }
            i += 1;
        }
        i
    }

    /// Looks ahead from a node's first token at `from` for the `:` that
    /// makes it an implicit key: on the same line, within 1024 characters.
    fn key_ahead(&self, from: usize) -> bool {
        let full = self.bytes();
        let flow = self.flow_level > 0;
        let limit = full.len().min(from + KEY_BYTES);
        let (memo_from, memo_at) = self.next_colon.get();
        let colon = if memo_from <= from && from <= memo_at {
            memo_at
        } else {
            let at = next_of(full, from, b':', b':', b':');
            self.next_colon.set((from, at));
            at
        };
        if colon >= limit {
            return false;
        }
        let b = &full[..limit];
        let mut i = from;
        let skip_white = |mut i: usize| {
            while matches!(b.get(i), Some(b' ' | b'\t')) {
                i += 1;
            }
            i
        };
        // Properties.
        loop {
            match b.get(i) {
                Some(b'&') => i = self.name_end(i + 1).min(limit),
                Some(b'!') => {
                    if b.get(i + 1) == Some(&b'<') {
                        i += 2;
                        while b.get(i).is_some_and(|&c| c != b'>' && c != b'\n') {
                            i += 1;
                        }
                        i += 1;
                    } else {
                        while b.get(i).is_some_and(|&c| !ends_token(Some(&c), flow)) {
                            i += 1;
                        }
                    }
                }
                _ => break,
            }
            i = skip_white(i);
        }
        let mut json_like = false;
        match b.get(i) {
            None => return false,
            Some(b'*') => i = self.name_end(i + 1).min(limit),
            Some(&q @ (b'"' | b'\'')) => {
                let Some(end) = quoted_end(b, i, q == b'"') else {
                    return false;
                };
                i = end;
                json_like = true;
            }
            Some(b'[' | b'{') => {
                let Some(end) = flow_end(b, i) else {
                    return false;
                };
                i = end;
                json_like = true;
            }
            Some(b':') if ends_token(full.get(i + 1), flow) => {}
            Some(&c) => {
                let next = b.get(i + 1);
                let plain = match c {
                    b'-' | b'?' | b':' => !ends_token(next, flow),
                    b'#' | b'|' | b'>' | b'%' | b'@' | b'`' | b',' | b']' | b'}' | b'\n'
                    | b'\r' => false,
                    _ => true,
                };
                if !plain {
                    return false;
                }
                // The plain scalar: up to `: `, ` #` or the line's end.
                let mut j = i + 1;
                loop {
                    j = plain_stop(b, j, flow);
                    match b.get(j) {
                        Some(b':') => {
                            let n = full.get(j + 1);
                            if is_blank_or_end(n)
                                || (flow && n.is_some_and(|&n| is_flow_indicator(n)))
                            {
                                break;
                            }
                            j += 1;
                        }
                        Some(b'#') if !matches!(b[j - 1], b' ' | b'\t') => j += 1,
                        _ => {
                            if j < limit || limit == full.len() {
                                self.plain_hint.set((i, j));
                            }
                            return false;
                        }
                    }
                }
                self.plain_hint.set((i, j));
                i = j;
            }
        }
        i = skip_white(i);
        if b.get(i) != Some(&b':') {
            return false;
        }
        let n = full.get(i + 1);
        let is_value =
            is_blank_or_end(n) || (flow && (json_like || n.is_some_and(|&n| is_flow_indicator(n))));
        is_value && (i - from <= KEY_CHARS || char_count(&b[from..i]) <= KEY_CHARS)
    }

    /// Skips white space, line breaks, comments and blank lines up to the
    /// next token; returns true when it queued a comment or blank line.
    fn skip_to_token(&mut self) -> Result<bool, Fault> {
        let b = self.bytes();
        loop {
            if self.pos == self.line_start {
                self.tab_at = None;
            }
            let mut i = self.pos;
            self.gap_tab = false;
            while let Some(&c) = b.get(i) {
                match c {
                    b' ' => {
                        i = skip_spaces(b, i);
                        continue;
                    }
                    b'\t' => {
                        self.gap_tab = true;
                        if self.tab_at.is_none() && !self.line_has_content {
                            self.tab_at = Some(i - self.line_start);
                        }
                    }
                    _ => break,
                }
                i += 1;
            }
            let line_break = match b.get(i) {
                Some(b'\n') => 1,
                Some(b'\r' | 0xC2 | 0xE2) => self.line_break_len(i),
                _ => 0,
            };
            match b.get(i) {
                Some(_) if line_break > 0 => {
                    if b[i] != b'\n' {
                        self.odd_line_break(i, line_break);
                    }
                    let blank = !self.line_has_content;
                    let at = self.line_start;
                    self.pos = i + line_break;
                    self.line_start = self.pos;
                    self.line_has_content = false;
                    if self.flow_level == 0 {
                        self.key_allowed = true;
                    }
                    if blank {
                        self.push(at, Tok::Blank);
                        return Ok(true);
                    }
                }
                Some(b'#') => {
                    let end = self.comment_end(i)?;
                    if i == self.pos && self.pos != self.line_start {
                        // Right after a quoted scalar or a bracket: go-yaml
                        // reads a comment at any token's start.
                        self.push(i, Tok::Lenient(LENIENT_COMMENT));
                    }
                    self.pos = end;
                    self.push(
                        i,
                        Tok::Comment {
                            text: self.slice(i + 1, end),
                            trailing: self.line_has_content,
                        },
                    );
                    // The line is not blank.
                    self.line_has_content = true;
                    return Ok(true);
                }
                _ => {
                    self.pos = i;
                    return Ok(false);
                }
            }
        }
    }

    /// The end of the comment whose `#` is at `i`: the first CR or LF (a
    /// lone CR ends it too, as go-yaml reads it, so no comment text holds a
    /// line break). NEL, U+2028 and U+2029, which go-yaml also reads as
    /// line breaks, are refused inside a comment.
    fn comment_end(&self, i: usize) -> Result<usize, Fault> {
        let end = next_of(self.bytes(), i, b'\n', b'\r', b'\r');
        if self.odd_break < end {
            if let Some(k) = (i..end).find(|&k| self.line_break_len(k) > 0) {
                return Err(self.err(k, ODD_BREAK_IN_TEXT));
            }
        }
        Ok(end)
    }

    /// Warns (once per input) of the line break at `i` of `len` bytes if it
    /// is not LF or CR LF: go-yaml reads NEL, U+2028, U+2029 and a lone CR
    /// as line breaks.
    #[inline(never)]
    fn odd_line_break(&mut self, i: usize, len: usize) {
        let b = self.bytes();
        if b[i] != b'\n' && !(b[i] == b'\r' && len == 2) && !self.warned_break {
            self.warned_break = true;
            self.push(i, Tok::Lenient(LENIENT_LINE_BREAK));
        }
    }

    /// The length of the line break at `i`, or 0: LF, CR LF, a lone CR,
    /// and (go-yaml's, not YAML 1.2's) NEL, U+2028, U+2029.
    fn line_break_len(&self, i: usize) -> usize {
        let b = self.bytes();
        match b.get(i) {
            Some(b'\n') => 1,
            // NEL, U+2028 and U+2029 only from the first one on
            // (`refused_character` found it).
            Some(b'\r') => line_break_at(b, i).map_or(0, |(len, _)| len),
            Some(0xC2 | 0xE2) if i >= self.odd_break => {
                line_break_at(b, i).map_or(0, |(len, _)| len)
            }
            _ => 0,
        }
    }
}

/// A document marker whose line starts after a lone CR, NEL, U+2028 or
/// U+2029: go-yaml ends the document there, but kubectl splits a stream
/// only at LF lines and reads the first document of each piece, so it
/// drops all that follows up to the next LF `---` line.
const MARKER_AFTER_ODD_BREAK: &str = "a document marker at the start of a line that a line feed begins (after a lone CR, NEL, U+2028 or U+2029, kubectl drops the document that follows it unread; end the line before it with LF)";

/// A character go-yaml refuses anywhere in its input, as YAML 1.2 does.
const NOT_PRINTABLE: &str = "a printable character (kubectl refuses control characters anywhere; in a double-quoted string write an escape such as \\x7F)";
