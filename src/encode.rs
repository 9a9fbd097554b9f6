//! The driver: for each document of the input, a checking pass, then a
//! writing pass. Nothing of a document reaches the sink until the whole
//! document has proved valid.

use core::fmt::Write;

use crate::emit::Emitter;
use crate::error::{Error, ErrorKind, Fault};
use crate::plan::{Plan, Store};
use crate::scan::{Event, Tokenizer};
use crate::{Form, Options};

/// Encodes every document of `input` into `out`, using `store` for the
/// first pass's bookkeeping.
pub(crate) fn encode<W: Write + ?Sized, S: Store>(
    input: &[u8],
    opts: Options,
    out: &mut W,
    store: S,
) -> Result<(), Error> {
    let mut tok = Tokenizer::new(input, 0, opts.depth_limit());
    let mut plan = Plan::new(store);
    let mut emitter = Emitter::new(out, opts);
    while tok.next_document().map_err(|e| e.locate(input))? {
        let start = tok.pos();
        plan.check(&mut tok, !opts.is_compact())
            .map_err(|e| e.locate(input))?;
        if opts.output_form() == Form::Value {
            // One value only, and that is known before anything is written.
            let mut rest = tok.clone();
            if rest.next_document().map_err(|e| e.locate(input))? {
                return Err(
                    Fault::new(ErrorKind::TrailingValue, rest.pos(), "end of input").locate(input),
                );
            }
        }
        write_document(&tok.at(start), &mut plan, &mut emitter).map_err(|e| e.locate(input))?;
    }
    Ok(())
}

/// The writing pass over one document that the checking pass accepted.
fn write_document<W: Write + ?Sized, S: Store>(
    tok: &Tokenizer<'_>,
    plan: &mut Plan<S>,
    emitter: &mut Emitter<'_, W>,
) -> Result<(), Fault> {
    let failed = |_| {
        Fault::new(
            ErrorKind::Write,
            tok.pos(),
            "a sink that accepts the output",
        )
    };
    let mut tok = tok.clone();
    let mut lists = 0;
    emitter.begin_document().map_err(failed)?;
    while let Some(event) = tok.next_event()? {
        match event {
            Event::MapStart => emitter.map_start(),
            Event::ListStart => {
                let cuddled =
                    !emitter.is_compact() && plan.cuddled(lists, tok.token_start(), &tok)?;
                lists += 1;
                emitter.list_start(cuddled)
            }
            Event::MapEnd | Event::ListEnd => emitter.end(),
            Event::Key(key) => emitter.key(&key),
            Event::Str(text) => emitter.string(&text),
            Event::Number(text) => emitter.number(text),
            Event::Bool(b) => emitter.word(if b { "true" } else { "false" }),
            Event::Null => emitter.word("null"),
        }
        .map_err(failed)?;
    }
    emitter.end_document().map_err(failed)
}
