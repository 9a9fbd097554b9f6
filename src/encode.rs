//! The driver: one loop that writes a document ([`Pass::write_document`])
//! and one loop over the documents of an input ([`drive`]), generic over
//! the [`Source`] that reads the input, the [`Store`] the plan keeps keys
//! and verdicts in, and the [`Sink`] that takes the output.
//!
//! The sink decides how a document is checked. One that can take back what
//! it got (a `String` that is dropped on an error, a [`Staged`] buffer on
//! the stack that the real sink gets only once the documents in it proved
//! valid) gets each document in one pass that checks as it writes. Any
//! other gets it in a second pass, after a checking pass proved it valid.
//! Either way nothing of an invalid document is left in the output.
//!
//! This module owns the order of the checks (so every entry point reports
//! the same error for the same input; `tests/paths.rs` holds them to it),
//! the one-pass bet on each list's layout, and turning a [`Fault`] into an
//! [`Error`]. It reads no input bytes and writes no KYAML syntax.

use core::fmt::{self, Write};

use crate::emit::{Emitter, KeepsAll, Mark, Room, Sink};
use crate::error::{Error, ErrorKind, Fault};
use crate::options::{Form, Input, Options};
use crate::plan::{Fixed, FixedRoom, ListNumbers, Plan, PlanRoom, Store};
use crate::scan::{AsText, Event, KeyId, Source, Tokenizer};
use crate::tiered::{FullRoom, Tiered};

/// What an invalid document leaves in the sink.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum OnInvalid {
    /// The documents before it, complete (what a filter writes).
    KeepBefore,
    /// Nothing: an input that holds more than one document is checked
    /// whole before its first document is written (a second reading); one
    /// of a single document is read as [`OnInvalid::KeepBefore`] reads it.
    KeepNothing,
}

/// Encodes every document of `input` into `out`, checking each one
/// completely before writing it, with `store` for the checking pass;
/// `on_invalid` says what an invalid one leaves.
pub(crate) fn encode<W: Write + ?Sized, S: Store>(
    input: &[u8],
    opts: Options,
    out: &mut W,
    store: S,
    on_invalid: OnInvalid,
) -> Result<(), Error> {
    run(input, opts, KeepsAll(out), store, on_invalid)
}

/// [`encode`] with the fixed store of the path that never allocates. An
/// input of up to [`Staged::CAPACITY`] bytes is first tried in one pass
/// into a buffer on the stack ([`encode_staged`]), which the sink gets in
/// one write; only output that outgrows the buffer takes the two passes.
pub(crate) fn encode_fixed<W: Write + ?Sized>(
    input: &[u8],
    opts: Options,
    out: &mut W,
) -> Result<(), Error> {
    let mut room = FixedRoom::default();
    if input.len() <= Staged::CAPACITY {
        if let Some(result) = encode_staged(input, opts, out, &mut room) {
            return result;
        }
    }
    encode(
        input,
        opts,
        out,
        Fixed::new(&mut room),
        OnInvalid::KeepBefore,
    )
}

/// Encodes every document of `input` in one pass each into a [`Staged`]
/// buffer, and hands the sink the documents that are complete and valid:
/// all of them, or those before the first error, which is returned. `None`
/// if the output outgrew the buffer; the sink then has had nothing.
fn encode_staged<W: Write + ?Sized>(
    input: &[u8],
    opts: Options,
    out: &mut W,
    room: &mut FixedRoom,
) -> Option<Result<(), Error>> {
    let mut staged_room = None;
    let mut staged = Staged::new(&mut staged_room);
    let result = run(
        input,
        opts,
        &mut staged,
        Fixed::new(room),
        OnInvalid::KeepBefore,
    );
    if staged.overflowed {
        return None;
    }
    // Everything staged came from `&str` writes, so it is UTF-8.
    let delivered = match core::str::from_utf8(staged.bytes()) {
        Ok("") => Ok(()),
        Ok(text) => out.write_str(text),
        Err(_) => Err(fmt::Error),
    };
    if delivered.is_err() {
        // Reported where the first document starts, as the two passes do.
        let src = Tokenizer::new(input, 0, opts.depth_limit());
        let first = src.peek_document().map_or(0, |(pos, _)| pos);
        return Some(Err(locate(sink_failed(first), &src, input)));
    }
    Some(result)
}

/// Encodes every document of `input` into `out` in one pass each: the
/// tokenizer checks the document as it is written, and keys are checked for
/// duplicates as their maps close.
#[cfg(feature = "alloc")]
pub(crate) fn encode_into_string(
    input: &[u8],
    opts: Options,
    out: &mut crate::emit::TextBuf,
) -> Result<(), Error> {
    let store = crate::plan::Growing::default();
    run(input, opts, out, store, OnInvalid::KeepBefore)
}

/// Checks every document of `input` with the checking pass alone
/// ([`Plan::check`], the pass [`drive`] runs before writing to a sink that
/// cannot take back), writing nothing: the error is the one an encoding
/// would return. With `alloc`, duplicate keys are checked exactly.
pub(crate) fn check(input: &[u8], opts: Options) -> Result<(), Error> {
    #[cfg(feature = "alloc")]
    let store = crate::plan::Growing::default();
    #[cfg(not(feature = "alloc"))]
    let mut room = FixedRoom::default();
    #[cfg(not(feature = "alloc"))]
    let store = Fixed::new(&mut room);
    match opts.input_language() {
        Input::Json => {
            let mut src = Tokenizer::new(input, 0, opts.depth_limit());
            check_all(&mut src, opts, store).map_err(|fault| locate_json(fault, &src, input))
        }
        #[cfg(feature = "alloc")]
        Input::Yaml => {
            let (schema, depth) = (opts.yaml_schema(), opts.depth_limit());
            let mut src = crate::scan::StreamSource::new(input, schema, depth, None);
            check_all(&mut src, opts, store).map_err(|fault| locate(fault, &src, input))
        }
    }
}

/// The checking pass over every document `src` reads.
fn check_all<'a, Src: Source<'a>, S: Store>(
    src: &mut Src,
    opts: Options,
    store: S,
) -> Result<(), Fault> {
    let mut plan_room = PlanRoom::default();
    check_documents(src, opts, &mut Plan::new(store, &mut plan_room))
}

/// The checking pass over the documents `src` reads from where it is.
fn check_documents<'a, Src: Source<'a>, S: Store>(
    src: &mut Src,
    opts: Options,
    plan: &mut Plan<'_, S>,
) -> Result<(), Fault> {
    while src.next_document()? {
        check_document(src, opts, plan, false)?;
    }
    Ok(())
}

/// The checking pass over the document `src` is at, keeping the verdicts
/// of its lists if `verdicts` (for the writing pass that follows).
#[inline(always)]
fn check_document<'a, Src: Source<'a>, S: Store>(
    src: &mut Src,
    opts: Options,
    plan: &mut Plan<'_, S>,
    verdicts: bool,
) -> Result<(), Fault> {
    plan.check(src, verdicts)?;
    if opts.output_form() == Form::Value {
        // One value only, and that is known before anything is written.
        only_value(src)?;
    }
    Ok(())
}

/// [`drive`] over `input` in the input language of `opts`, the error
/// located in it. Each language is its own monomorphisation of the driver.
#[inline(always)]
fn run<K: Sink, S: Store>(
    input: &[u8],
    opts: Options,
    out: K,
    store: S,
    on_invalid: OnInvalid,
) -> Result<(), Error> {
    match opts.input_language() {
        Input::Json => {
            let mut src = Tokenizer::new(input, 0, opts.depth_limit());
            let driven = drive(&mut src, opts, out, store, on_invalid);
            driven.map_err(|fault| locate_json(fault, &src, input))
        }
        #[cfg(feature = "alloc")]
        Input::Yaml => run_yaml(input, opts, out, store, None, on_invalid),
    }
}

/// [`encode`] for YAML input with the growing store, its warnings
/// appended to `warnings` (from the same reading of the input).
#[cfg(feature = "std")]
pub(crate) fn encode_yaml<W: Write + ?Sized>(
    input: &[u8],
    opts: Options,
    out: &mut W,
    warnings: &mut alloc::vec::Vec<crate::error::Warning>,
    on_invalid: OnInvalid,
) -> Result<(), Error> {
    let store = crate::plan::Growing::default();
    run_yaml(
        input,
        opts,
        KeepsAll(out),
        store,
        Some(warnings),
        on_invalid,
    )
}

/// [`run`] for YAML input: streamed (`scan::yaml::stream`) when it holds
/// no merge key, else read into items first (see
/// `scan::yaml::load`), then driven like any source; its warnings go to
/// `warnings`, if asked for (all of the stream's, as loading notes them,
/// whatever error ends the writing).
#[cfg(feature = "alloc")]
#[inline(never)]
fn run_yaml<K: Sink, S: Store>(
    input: &[u8],
    opts: Options,
    out: K,
    store: S,
    warnings: Option<&mut alloc::vec::Vec<crate::error::Warning>>,
    on_invalid: OnInvalid,
) -> Result<(), Error> {
    use alloc::rc::Rc;
    use core::cell::RefCell;
    let noted = warnings
        .is_some()
        .then(|| Rc::new(RefCell::new(crate::scan::Noted::default())));
    let (schema, depth) = (opts.yaml_schema(), opts.depth_limit());
    let mut src = crate::scan::StreamSource::new(input, schema, depth, noted.clone());
    if K::TAKES_BACK {
        // One pass, with bets to go back to.
        src.one_pass();
    }
    let driven = drive(&mut src, opts, out, store, on_invalid);
    let result = driven.map_err(|fault| locate(fault, &src, input));
    if let (Some(warnings), Some(noted)) = (warnings, noted) {
        src.read_rest();
        let noted = noted.borrow();
        warnings.extend(crate::scan::locate_warnings(input, &noted.warnings));
    }
    result
}

/// Writes every document `src` reads into `out`: in one pass each if the
/// sink can take back what it got, else checked first. On an error the
/// documents before the bad one are in `out`, complete, and nothing of it;
/// with [`OnInvalid::KeepNothing`], nothing at all.
fn drive<'a, Src: Source<'a>, S: Store, K: Sink>(
    src: &mut Src,
    opts: Options,
    out: K,
    store: S,
    on_invalid: OnInvalid,
) -> Result<(), Fault> {
    let (mut plan_room, mut emit_room) = (PlanRoom::default(), Room::default());
    let mut pass = Pass::new(
        Plan::new(store, &mut plan_room),
        Emitter::new(out, opts, &mut emit_room),
    );
    // Whether the rest of the input must prove valid before the first
    // document is written.
    let mut check_rest = on_invalid == OnInvalid::KeepNothing;
    loop {
        // The documents before this one are complete.
        let done = match on_invalid {
            OnInvalid::KeepBefore => pass.emitter.sink().written(),
            OnInvalid::KeepNothing => 0,
        };
        let result = match src.next_document() {
            Ok(false) => {
                // An input of nothing but comments keeps them.
                return pass.write_preamble(src).map_err(|_| sink_failed(src.pos()));
            }
            Ok(true) => document(src, opts, &mut pass, core::mem::take(&mut check_rest)),
            Err(fault) => Err(fault),
        };
        if let Err(fault) = result {
            pass.emitter.sink().take_back(done);
            return Err(fault);
        }
    }
}

/// Checks and writes the document `src` is at. Errors come in the order a
/// checking pass meets them (a skim checks nothing), whichever the sink:
/// the same error on every path. With `check_rest`, the documents after
/// this one, if any, are checked before it is written (a sink that can
/// take back needs no such care: the driver takes back all it got).
#[inline(always)]
fn document<'a, Src: Source<'a>, S: Store, K: Sink>(
    src: &mut Src,
    opts: Options,
    pass: &mut Pass<'_, S, K, Src>,
    check_rest: bool,
) -> Result<(), Fault> {
    if K::TAKES_BACK {
        pass.write_document(src)?;
        if opts.output_form() == Form::Value {
            only_value(src)?;
        }
        return Ok(());
    }
    let start = src.pos();
    let verdicts = !opts.compact_layout();
    check_document(src, opts, &mut pass.plan, verdicts)?;
    // The parser has read to the next document's start (or the input's
    // end): whether one follows is known, exactly, at no cost.
    if check_rest && src.peek_document()?.1 {
        // This document is read again from its start, and checked again
        // for its verdicts, which the rest's checking replaced.
        let again = src.at(start);
        check_documents(src, opts, &mut pass.plan)?;
        *src = again;
        check_document(src, opts, &mut pass.plan, verdicts)?;
    }
    pass.write_document(&mut src.at(start))
}

/// A buffer on the stack that takes an encoder's writes until it is full,
/// then refuses them and says so. Its first [`Staged::SMALL`] bytes are
/// set up at once and the rest only for output that needs them (see
/// [`Tiered`]): clearing all of it cost every log line.
struct Staged<'r> {
    buf: Tiered<'r, u8, { Staged::SMALL }, { Staged::CAPACITY }>,
    len: usize,
    overflowed: bool,
}

impl<'r> Staged<'r> {
    /// Enough for a log line or a small resource (2 KiB).
    const CAPACITY: usize = 2048;
    /// Enough for most log lines.
    const SMALL: usize = 256;

    fn new(room: &'r mut FullRoom<u8, { Staged::CAPACITY }>) -> Staged<'r> {
        Staged {
            buf: Tiered::new(0, room),
            len: 0,
            overflowed: false,
        }
    }

    /// What has been written, as bytes.
    fn bytes(&mut self) -> &[u8] {
        self.buf.first_mut(self.len)
    }
}

impl Write for Staged<'_> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end > Staged::CAPACITY {
            self.overflowed = true;
            return Err(fmt::Error);
        }
        self.buf.first_mut(end)[self.len..].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

impl<'r> Sink for &mut Staged<'r> {
    type Out = Staged<'r>;
    const TAKES_BACK: bool = true;

    #[inline(always)]
    fn out(&mut self) -> &mut Staged<'r> {
        self
    }

    fn written(&self) -> usize {
        self.len
    }

    fn take_back(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
}

/// The writing pass over one document, into sink `K`.
///
/// When the sink cannot take back, a checking pass ([`Plan::check`]) has
/// read the document before and kept the verdicts of its lists; this pass
/// reads them back. When it can, this pass checks as it goes: keys are
/// checked for duplicates as their maps close, and lists are bet on.
///
/// A list is cuddled when all its elements are containers, which only its
/// end proves. The one pass bets on the first element: a list that starts
/// with a container is written cuddled. When a later element of a list
/// written so turns out a scalar, the bet is lost: the output and the
/// source go back to the start of the outermost list written on that bet, a
/// skim of that list decides it and every list inside it exactly, and
/// writing resumes. Each byte is written at most twice and skimmed at most
/// once, and lists whose first element tells the truth (nearly all, in real
/// documents) are never skimmed.
struct Pass<'o, S, K, Src> {
    plan: Plan<'o, S>,
    emitter: Emitter<'o, K>,
    /// The numbers of the lists of the document so far.
    lists: ListNumbers,
    /// Where to go back to if the bet is lost.
    bet: Option<Bet<Src>>,
    /// Inside a list that a skim decided, whose frame is at this depth: its
    /// lists take their verdicts from the plan.
    decided_below: Option<usize>,
}

/// The state just after the start of the outermost list written on a bet.
struct Bet<Src> {
    src: Src,
    list: usize,
    emitter: Mark,
    keys: usize,
}

impl<'o, 'a, S: Store, K: Sink, Src: Source<'a>> Pass<'o, S, K, Src> {
    fn new(plan: Plan<'o, S>, emitter: Emitter<'o, K>) -> Pass<'o, S, K, Src> {
        Pass {
            plan,
            emitter,
            lists: ListNumbers::default(),
            bet: None,
            decided_below: None,
        }
    }

    /// The one loop that writes a document. Each event's bookkeeping and
    /// its writing are one arm, inlined together, so an event is matched
    /// once and stays in registers.
    fn write_document(&mut self, src: &mut Src) -> Result<(), Fault> {
        // Whether this pass checks the document (else one did before).
        let checks = K::TAKES_BACK;
        let pos = src.pos();
        let failed = |_| sink_failed(pos);
        (self.lists, self.bet, self.decided_below) = (ListNumbers::default(), None, None);
        if checks {
            self.plan.forget_verdicts();
        }
        self.write_preamble(src).map_err(failed)?;
        self.emitter.begin_document().map_err(failed)?;
        while let Some(event) = src.next_event()? {
            let written = match event {
                Event::MapStart => {
                    if checks {
                        self.plan.open_map(src.depth() - 1);
                    }
                    self.emitter.map_start()
                }
                Event::ListStart => {
                    let cuddled = self.list_verdict(src);
                    self.emitter.list_start(cuddled)
                }
                Event::MapEnd => {
                    if checks {
                        self.plan.close_map(src.depth(), src)?;
                    }
                    self.emitter.end()
                }
                Event::ListEnd => {
                    if checks {
                        self.list_closed(src.depth());
                    }
                    self.emitter.end()
                }
                Event::Key(key) => {
                    // One identity for both the duplicate check and the
                    // quoting cache. The key's text borrows the source, so
                    // where it started is asked once it is written.
                    let id = KeyId::of(&key);
                    let written = self.emitter.key(&key, &id);
                    if checks {
                        self.plan.push_key(&id, src.token_start());
                    }
                    written
                }
                // A scalar is written unless it loses the bet (the last
                // arm); the guard asks without the source, which the
                // scalar's text borrows.
                Event::Str(text) if !self.bet_would_be_lost() => self.emitter.string(&text),
                Event::Number { text, exponent } if !self.bet_would_be_lost() => {
                    self.emitter.number(text, exponent)
                }
                Event::Bool(b) if !self.bet_would_be_lost() => {
                    self.emitter.bool_or_null(if b { "true" } else { "false" })
                }
                Event::Null if !self.bet_would_be_lost() => self.emitter.bool_or_null("null"),
                // The JSON source never produces it: this arm is gone
                // from its loop. Directly in a list, it uncuddles it.
                Event::Trivia(trivia) if !self.bet_would_be_lost() => {
                    self.emitter.trivia(trivia.into())
                }
                // A scalar (or trivia) in a list written cuddled on a bet:
                // the event is done with, and the source goes back.
                Event::Str(_)
                | Event::Number { .. }
                | Event::Bool(_)
                | Event::Null
                | Event::Trivia(_) => {
                    self.lose_bet(src)?;
                    continue;
                }
            };
            written.map_err(failed)?;
        }
        self.emitter
            .end_document(src.document_is_empty())
            .map_err(failed)
    }

    /// Writes the comments the source has before the document's header
    /// (or, after the last document, those of an input with no other).
    #[inline(always)]
    fn write_preamble(&mut self, src: &mut Src) -> fmt::Result {
        while let Some(trivia) = src.preamble() {
            self.emitter.trivia(trivia.into())?;
        }
        Ok(())
    }

    /// Asked at each scalar: whether it is an element of a list written
    /// cuddled on a bet, which it loses (see [`Pass::lose_bet`]). Only a
    /// bet writes a list cuddled that holds a scalar: the verdicts of a
    /// checking pass or of a skim are exact. Asks nothing of the source,
    /// which the scalar's text may borrow.
    #[inline(always)]
    fn bet_would_be_lost(&self) -> bool {
        K::TAKES_BACK && self.emitter.in_cuddled_list() && self.bet.is_some()
    }

    /// Whether the list just opened is cuddled: known if it does not start
    /// with a container, or from the plan (after a checking pass, or inside
    /// a list a skim decided); else a bet.
    #[inline(always)]
    fn list_verdict(&mut self, src: &Src) -> bool {
        if self.emitter.is_compact() {
            return false;
        }
        let Some(n) = self.lists.number(src.list_starts_with_container()) else {
            return false;
        };
        if !K::TAKES_BACK || self.decided_below.is_some() {
            return self.plan.verdict_or_skim(n, src);
        }
        if self.bet.is_none() {
            self.place_bet(n, src);
        }
        true
    }

    /// Bets that list number `n`, which `src` has just opened, is cuddled.
    /// Out of line: it copies the source, and the loop stays smaller.
    #[inline(never)]
    fn place_bet(&mut self, n: usize, src: &Src) {
        self.bet = Some(Bet {
            src: src.clone(),
            list: n,
            emitter: self.emitter.mark(),
            keys: self.plan.keys_len(),
        });
    }

    /// Forgets the bet or the skim's window when their list closes.
    fn list_closed(&mut self, depth: usize) {
        if self
            .bet
            .as_ref()
            .is_some_and(|b| b.src.depth() - 1 == depth)
        {
            self.bet = None;
        }
        if self.decided_below == Some(depth) {
            self.decided_below = None;
        }
    }

    /// A list written cuddled on the bet has a scalar element (as
    /// [`Pass::bet_would_be_lost`] said): goes back to the bet, skims its
    /// list and opens it again with the skim's verdict.
    fn lose_bet(&mut self, src: &mut Src) -> Result<(), Fault> {
        let Some(bet) = self.bet.take() else {
            return Ok(());
        };
        self.emitter.rewind(bet.emitter);
        self.plan.truncate_keys(bet.keys);
        self.lists = ListNumbers::from(bet.list + 1);
        let start = bet.src.token_start();
        self.decided_below = Some(bet.src.depth() - 1);
        let cuddled = self.plan.verdict_after_rewind(bet.list, src, bet.src);
        self.emitter
            .list_start(cuddled)
            .map_err(|_| sink_failed(start))
    }
}

/// The error for a sink that refused a write of the document at `pos`.
fn sink_failed(pos: usize) -> Fault {
    Fault::new(ErrorKind::Write, pos, "a sink that accepts the output")
}

/// Fails if another document follows the one `src` has just read.
fn only_value<'a>(src: &impl Source<'a>) -> Result<(), Fault> {
    match src.peek_document()? {
        (pos, true) => Err(Fault::new(ErrorKind::TrailingValue, pos, "end of input")),
        (_, false) => Ok(()),
    }
}

/// [`locate`] for JSON input: a syntax error in input that looks like
/// YAML says so ([`Error`]'s `Display` names `Input::Yaml`).
fn locate_json<'a>(fault: Fault, src: &impl Source<'a>, input: &[u8]) -> Error {
    let hint =
        fault.kind() == ErrorKind::Syntax && crate::scan::looks_like_yaml(input, fault.offset());
    locate(fault, src, input).with_yaml_hint(hint)
}

/// The public error for `fault`, found by `src` in `input`.
fn locate<'a>(fault: Fault, src: &impl Source<'a>, input: &[u8]) -> Error {
    let key = (fault.kind() == ErrorKind::DuplicateKey).then(|| src.key_at(fault.offset()));
    let text = key.as_ref().map(AsText::as_text);
    fault.locate(input, text.as_ref().map(|t| t.raw()))
}
