//! The driver: per document of the input, a checking pass then a writing
//! pass, so that nothing of an invalid document reaches the sink; or one
//! pass that checks as it writes, into a sink that can take back what it
//! got: a `String` that is dropped on an error, or a buffer on the stack
//! that the real sink gets only once the documents in it proved valid.

use core::fmt::{self, Write};

use crate::emit::{Emitter, Room, Written};
use crate::error::{Error, ErrorKind, Fault};
use crate::plan::{Fixed, FixedRoom, ListNumbers, Plan, PlanRoom, Store};
use crate::scan::{Event, KeyId, Source, Tokenizer};
use crate::tiered::{FullRoom, Tiered};
use crate::{Form, Options};

/// Encodes every document of `input` into `out`, checking each one
/// completely before writing it, with `store` for the checking pass.
pub(crate) fn encode<W: Write + ?Sized, S: Store>(
    input: &[u8],
    opts: Options,
    out: &mut W,
    store: S,
) -> Result<(), Error> {
    let mut tok = Tokenizer::new(input, 0, opts.depth_limit());
    let (mut plan_room, mut emit_room) = (PlanRoom::default(), Room::default());
    let mut plan = Plan::new(store, &mut plan_room);
    let mut emitter = Emitter::new(out, opts, &mut emit_room);
    while tok.next_document().map_err(|e| locate(e, &tok, input))? {
        let start = tok.pos();
        plan.check(&mut tok, !opts.is_compact())
            .map_err(|e| locate(e, &tok, input))?;
        if opts.output_form() == Form::Value {
            // One value only, and that is known before anything is written.
            only_value(&tok).map_err(|e| locate(e, &tok, input))?;
        }
        write_document(&mut tok.at(start), &mut plan, &mut emitter)
            .map_err(|e| locate(e, &tok, input))?;
    }
    Ok(())
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
    encode(input, opts, out, Fixed::new(&mut room))
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
    let mut tok = Tokenizer::new(input, 0, opts.depth_limit());
    let (mut plan_room, mut emit_room) = (PlanRoom::default(), Room::default());
    let mut pass = OnePass::new(
        Plan::new(Fixed::new(room), &mut plan_room),
        Emitter::new(&mut staged, opts, &mut emit_room),
    );
    let mut result = Ok(());
    // Where the first document starts: a sink's failure is reported there,
    // as the two passes would.
    let mut first = None;
    loop {
        // The documents before this one are complete.
        let done = pass.emitter.sink().written();
        let fault = match tok.next_document() {
            Ok(false) => break,
            Ok(true) => {
                first = first.or(Some(tok.pos()));
                pass.write_document(&mut tok).err()
            }
            Err(fault) => Some(fault),
        };
        let fault = fault.or_else(|| match opts.output_form() {
            Form::Value => only_value(&tok).err(),
            Form::Document => None,
        });
        if let Some(fault) = fault {
            let staged = pass.emitter.sink();
            if staged.overflowed {
                return None;
            }
            staged.take_back(done);
            result = Err(locate(fault, &tok, input));
            break;
        }
    }
    let staged = pass.emitter.sink().bytes();
    // Everything staged came from `&str` writes, so it is UTF-8.
    let delivered = match core::str::from_utf8(staged) {
        Ok("") => Ok(()),
        Ok(text) => out.write_str(text),
        Err(_) => Err(fmt::Error),
    };
    if delivered.is_err() {
        let fault = sink_failed(first.unwrap_or_default());
        return Some(Err(locate(fault, &tok, input)));
    }
    Some(result)
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

impl Written for Staged<'_> {
    fn written(&self) -> usize {
        self.len
    }

    fn take_back(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
}

/// Encodes every document of `input` into `out` in one pass each: the
/// tokenizer checks the document as it is written, and keys are checked for
/// duplicates as their maps close. On an error the caller drops `out`, so
/// writing before checking is safe here; see [`OnePass`] for the lists.
#[cfg(feature = "alloc")]
pub(crate) fn encode_into_string(
    input: &[u8],
    opts: Options,
    out: &mut alloc::string::String,
) -> Result<(), Error> {
    let mut tok = Tokenizer::new(input, 0, opts.depth_limit());
    let (mut plan_room, mut emit_room) = (PlanRoom::default(), Room::default());
    let mut pass = OnePass::new(
        Plan::new(crate::plan::Growing::default(), &mut plan_room),
        Emitter::new(out, opts, &mut emit_room),
    );
    while tok.next_document().map_err(|e| locate(e, &tok, input))? {
        // Errors come in the order the checking pass meets them (a skim
        // checks nothing): the same error as on the other paths.
        pass.write_document(&mut tok)
            .map_err(|e| locate(e, &tok, input))?;
        if opts.output_form() == Form::Value {
            only_value(&tok).map_err(|e| locate(e, &tok, input))?;
        }
    }
    Ok(())
}

/// The writing pass that checks as it goes, into a sink that can take
/// back what it was given (a `String`, or a [`Staged`] buffer).
///
/// A list is cuddled when all its elements are containers, which only its
/// end proves. This pass bets on the first element: a list that starts with
/// a container is written cuddled. When a later element of a list written
/// so turns out a scalar, the bet is lost: the output and the tokenizer go
/// back to the `[` of the outermost list written on that bet, a skim of that
/// list decides it and every list inside it exactly, and writing resumes.
/// Each byte is written at most twice and skimmed at most once, and lists
/// whose first element tells the truth (nearly all, in real documents) are
/// never skimmed.
struct OnePass<'o, S, W: ?Sized, Src> {
    plan: Plan<'o, S>,
    emitter: Emitter<'o, W>,
    /// The numbers of the lists of the document so far.
    lists: ListNumbers,
    /// Where to go back to if the bet is lost.
    bet: Option<Bet<Src>>,
    /// Inside a list that a skim decided, whose frame is at this depth: its
    /// lists take their verdicts from the plan.
    decided_below: Option<usize>,
}

/// The state just after the `[` of the outermost list written on a bet.
struct Bet<Src> {
    tok: Src,
    list: usize,
    emitter: crate::emit::Mark,
    keys: usize,
}

impl<'o, 'a, S: Store, W: Written + ?Sized, Src: Source<'a>> OnePass<'o, S, W, Src> {
    fn new(plan: Plan<'o, S>, emitter: Emitter<'o, W>) -> OnePass<'o, S, W, Src> {
        OnePass {
            plan,
            emitter,
            lists: ListNumbers::default(),
            bet: None,
            decided_below: None,
        }
    }

    fn write_document(&mut self, tok: &mut Src) -> Result<(), Fault> {
        let pos = tok.pos();
        let failed = |_| sink_failed(pos);
        (self.lists, self.bet, self.decided_below) = (ListNumbers::default(), None, None);
        self.plan.forget_verdicts();
        self.emitter.begin_document().map_err(failed)?;
        while let Some(event) = tok.next_event()? {
            let mut cuddled = false;
            match event {
                Event::MapStart => self.plan.open_map(tok.depth() - 1),
                Event::MapEnd => self.plan.close_map(tok.depth(), tok)?,
                Event::Key(ref key) => {
                    // One identity for both the duplicate check and the
                    // quoting cache.
                    let id = KeyId::of(key);
                    self.plan.push_key(&id, tok.token_start());
                    self.emitter.key(key, &id).map_err(failed)?;
                    continue;
                }
                Event::ListStart => cuddled = self.list_verdict(tok),
                Event::ListEnd => self.list_closed(tok.depth()),
                Event::Trivia(_) => continue,
                _ if self.emitter.in_cuddled_list() => {
                    self.lose_bet(tok)?;
                    continue;
                }
                _ => {}
            }
            emit(&mut self.emitter, event, cuddled).map_err(failed)?;
        }
        self.emitter.end_document().map_err(failed)
    }

    /// Whether the list just opened is cuddled: known if it does not start
    /// with a container or a skim decided it, else a bet.
    fn list_verdict(&mut self, tok: &Src) -> bool {
        if self.emitter.is_compact() {
            return false;
        }
        let Some(n) = self.lists.number(tok.list_starts_with_container()) else {
            return false;
        };
        if self.decided_below.is_some() {
            return self.plan.verdict_or_skim(n, tok);
        }
        if self.bet.is_none() {
            self.bet = Some(Bet {
                tok: tok.clone(),
                list: n,
                emitter: self.emitter.mark(),
                keys: self.plan.keys_len(),
            });
        }
        true
    }

    /// Forgets the bet or the skim's window when their list closes.
    fn list_closed(&mut self, depth: usize) {
        if self
            .bet
            .as_ref()
            .is_some_and(|b| b.tok.depth() - 1 == depth)
        {
            self.bet = None;
        }
        if self.decided_below == Some(depth) {
            self.decided_below = None;
        }
    }

    /// A list written cuddled has a scalar element: goes back to the bet,
    /// skims its list and opens it again with the skim's verdict.
    fn lose_bet(&mut self, tok: &mut Src) -> Result<(), Fault> {
        // Only a bet writes a list cuddled outside a skimmed list.
        let Some(bet) = self.bet.take() else {
            return Err(Fault::new(
                ErrorKind::Write,
                tok.pos(),
                "a consistent writer",
            ));
        };
        *tok = bet.tok;
        self.emitter.rewind(bet.emitter);
        self.plan.truncate_keys(bet.keys);
        self.lists = ListNumbers::from(bet.list + 1);
        let start = tok.token_start();
        self.decided_below = Some(tok.depth() - 1);
        let cuddled = self.plan.verdict_or_skim(bet.list, tok);
        self.emitter
            .list_start(cuddled)
            .map_err(|_| sink_failed(start))
    }
}

/// The error for a sink that refused a write of the document at `pos`.
fn sink_failed(pos: usize) -> Fault {
    Fault::new(ErrorKind::Write, pos, "a sink that accepts the output")
}

/// Fails if another document follows the one `tok` has just read.
fn only_value<'a>(tok: &impl Source<'a>) -> Result<(), Fault> {
    match tok.peek_document()? {
        (pos, true) => Err(Fault::new(ErrorKind::TrailingValue, pos, "end of input")),
        (_, false) => Ok(()),
    }
}

/// The writing pass over one document that the checking pass accepted.
fn write_document<'a, W: Write + ?Sized, S: Store>(
    tok: &mut impl Source<'a>,
    plan: &mut Plan<'_, S>,
    emitter: &mut Emitter<'_, W>,
) -> Result<(), Fault> {
    let pos = tok.pos();
    let failed = |_| sink_failed(pos);
    let mut lists = ListNumbers::default();
    emitter.begin_document().map_err(failed)?;
    while let Some(event) = tok.next_event()? {
        let mut cuddled = false;
        if matches!(event, Event::ListStart) && !emitter.is_compact() {
            if let Some(n) = lists.number(tok.list_starts_with_container()) {
                cuddled = plan.verdict_or_skim(n, tok);
            }
        }
        emit(emitter, event, cuddled).map_err(failed)?;
    }
    emitter.end_document().map_err(failed)
}

/// Writes one event; `cuddled` is the verdict for a `ListStart`. Inlined
/// into both passes, so events stay in registers.
#[inline(always)]
fn emit<W: Write + ?Sized, T>(
    emitter: &mut Emitter<'_, W>,
    event: Event<'_, T>,
    cuddled: bool,
) -> fmt::Result {
    match event {
        Event::MapStart => emitter.map_start(),
        Event::ListStart => emitter.list_start(cuddled),
        Event::MapEnd | Event::ListEnd => emitter.end(),
        Event::Key(key) => emitter.key(&key, &KeyId::of(&key)),
        Event::Str(text) => emitter.string(&text),
        Event::Number { text, exponent } => emitter.number(text, exponent),
        Event::Bool(b) => emitter.bool_or_null(if b { "true" } else { "false" }),
        Event::Null => emitter.bool_or_null("null"),
        // Not written yet: the JSON source never produces them.
        Event::Trivia(_) => Ok(()),
    }
}

/// The public error for `fault`, found by `src` in `input`.
fn locate<'a>(fault: Fault, src: &impl Source<'a>, input: &[u8]) -> Error {
    let key = (fault.kind() == ErrorKind::DuplicateKey).then(|| src.key_at(fault.offset()));
    fault.locate(input, key.as_ref().map(|k| k.raw()))
}
