//! The scanner's state: the [`Scanner`] struct, its fields (where it is,
//! the open block and flow collections, what the next token may be, the
//! token queue and the lookahead memos) and the queue's size. Its methods
//! are in `scanner.rs` (the step, keys, comments, line breaks) and its
//! two seams, `scalars.rs` and `directives.rs`, which each reach the
//! fields from here (so no file imports its enclosing module).

use crate::error::Fault;
use crate::options::MAX_DEPTH;
use crate::scan::yaml::token::Token;
use alloc::vec::Vec;
use core::cell::Cell;

/// How many tokens the queue holds.
pub(super) const QUEUE: usize = 16;

#[derive(Clone)]
pub(crate) struct Scanner<'a> {
    /// The input up to its first invalid UTF-8 or character go-yaml
    /// refuses (`cut` says which).
    pub(super) src: &'a str,
    /// What ends `src` before the input's end: the error there.
    pub(super) cut: Option<Fault>,
    /// Where the first NEL, U+2028 or U+2029 outside a quoted scalar may
    /// be (`usize::MAX`: none in the input): go-yaml reads them as line
    /// breaks, YAML 1.2 as text.
    pub(super) odd_break: usize,
    pub(super) pos: usize,
    pub(super) line_start: usize,
    /// Block indentation columns of the open block collections: the first
    /// `n_indents` (a vector as deep as the deepest yet, so that a clone,
    /// one per bet of the streaming reader, copies only that).
    pub(super) indents: Vec<u32>,
    pub(super) n_indents: usize,
    /// Bit set: the flow collection at that level is a mapping.
    pub(super) flow_maps: [u64; MAX_DEPTH / 64],
    pub(super) flow_level: usize,
    pub(super) max_depth: usize,
    /// A key may start here (block: a line's start, after `-`, `?`, an
    /// explicit `:`; flow: an entry's start).
    pub(super) key_allowed: bool,
    /// Block context: a key token was emitted and its `:` is still ahead.
    pub(super) key_pending: bool,
    /// Flow context: the last token was a quoted scalar or a closing
    /// bracket, so a `:` right after it is a value indicator.
    pub(super) adjacent_value: bool,
    /// A token has been emitted on the current line.
    pub(super) line_has_content: bool,
    /// The column of the first tab in the current line's indentation.
    pub(super) tab_at: Option<usize>,
    /// The white space right before the current token holds a tab.
    pub(super) gap_tab: bool,
    /// The last token was `-`, `?` or `:` in block context.
    pub(super) after_indicator: bool,
    pub(super) started: bool,
    /// No more tokens: the stream's end, or `deferred`.
    pub(super) ended: bool,
    /// An error found after block ends queued before it
    /// ([`Scanner::block_line`]): the next step's.
    pub(super) deferred: Option<Fault>,
    /// Where the outermost open flow collection opens.
    pub(super) flow_open_at: usize,
    /// An odd line break was warned of ([`Scanner::odd_line_break`]).
    pub(super) warned_break: bool,
    /// Flow context: where the line of the current entry's first token
    /// starts (`usize::MAX` before it), and whether it opened with `?`.
    /// go-yaml reads an implicit key only if its `:` is on that line.
    pub(super) entry_line: usize,
    pub(super) entry_explicit: bool,
    /// The outermost open flow collection was already warned of as
    /// [`LENIENT_FLOW_INDENT`](crate::scan::yaml::token::LENIENT_FLOW_INDENT).
    pub(super) flow_lenient: bool,
    /// Tokens found but not yet returned (a step can find up to
    /// [`LINE_TOKENS`](super::LINE_TOKENS) after the block ends of [`Scanner::block_line`]).
    pub(super) queue: [Token<'a>; QUEUE],
    /// Where the last key lookahead found the first line of a plain scalar
    /// to end (its start, its end), so the scalar's scan need not redo it.
    pub(super) plain_hint: Cell<(usize, usize)>,
    /// `(from, at)`: the first `:` at or after `from` is at `at` (or `at` is
    /// the input's length). A key needs a `:` within its lookahead window,
    /// so most lookaheads that cannot find one stop at once, and the search
    /// for it never covers a byte twice.
    pub(super) next_colon: Cell<(usize, usize)>,
    pub(super) q_head: usize,
    pub(super) q_len: usize,
    /// A `...` was read and no `---` line since: kubectl never reads
    /// what follows before the next one ([`REFUSED_AFTER_END`](crate::scan::yaml::token::REFUSED_AFTER_END)).
    pub(super) after_end: bool,
    /// A `---x` line inside a scalar was queued as refused
    /// ([`Scanner::dashes_in_scalar`]): once is enough, the first refusal
    /// ends a kubectl reading.
    pub(super) dashes_refused: bool,
}
