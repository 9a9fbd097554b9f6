//! The driver: per document of the input, a checking pass then a writing
//! pass, so that nothing of an invalid document reaches the sink; or, for
//! a `String` that is dropped on an error, one pass that checks as it
//! writes.

use core::fmt::Write;

use crate::emit::Emitter;
use crate::error::{Error, ErrorKind, Fault};
use crate::plan::{Plan, Store};
use crate::scan::{Event, Tokenizer};
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
    let mut plan = Plan::new(store);
    let mut emitter = Emitter::new(out, opts);
    while tok.next_document().map_err(|e| e.locate(input))? {
        let start = tok.pos();
        plan.check(&mut tok, !opts.is_compact())
            .map_err(|e| e.locate(input))?;
        if opts.output_form() == Form::Value {
            // One value only, and that is known before anything is written.
            only_value(&tok).map_err(|e| e.locate(input))?;
        }
        write_document::<_, _, false>(&mut tok.at(start), &mut plan, &mut emitter)
            .map_err(|e| e.locate(input))?;
    }
    Ok(())
}

/// Encodes every document of `input` into `out` in one pass each: the
/// tokenizer checks the document as it is written, keys are checked for
/// duplicates as their maps close, and lists get their cuddling verdicts
/// from lookaheads, which skim only what lies inside lists. On an error the
/// caller drops `out`, so writing before checking is safe here.
#[cfg(feature = "alloc")]
pub(crate) fn encode_into_string(
    input: &[u8],
    opts: Options,
    out: &mut alloc::string::String,
) -> Result<(), Error> {
    let mut tok = Tokenizer::new(input, 0, opts.depth_limit());
    let mut plan = Plan::new(crate::plan::Growing::default());
    let mut emitter = Emitter::new(out, opts);
    while tok.next_document().map_err(|e| e.locate(input))? {
        plan.forget_verdicts();
        // The skims check nothing, so errors come in the order the checking
        // pass meets them: the same error as on the other paths.
        write_document::<_, _, true>(&mut tok, &mut plan, &mut emitter)
            .map_err(|e| e.locate(input))?;
        if opts.output_form() == Form::Value {
            only_value(&tok).map_err(|e| e.locate(input))?;
        }
    }
    Ok(())
}

/// Fails if another document follows the one `tok` has just read.
fn only_value(tok: &Tokenizer<'_>) -> Result<(), Fault> {
    let mut rest = tok.clone();
    match rest.next_document()? {
        true => Err(Fault::new(
            ErrorKind::TrailingValue,
            rest.pos(),
            "end of input",
        )),
        false => Ok(()),
    }
}

/// The writing pass over one document. With `CHECK`, it also checks keys
/// for duplicates (the tokenizer checks everything else as it reads);
/// without, the checking pass has accepted the document already.
fn write_document<W: Write + ?Sized, S: Store, const CHECK: bool>(
    tok: &mut Tokenizer<'_>,
    plan: &mut Plan<S>,
    emitter: &mut Emitter<'_, W>,
) -> Result<(), Fault> {
    let pos = tok.pos();
    let failed = |_| Fault::new(ErrorKind::Write, pos, "a sink that accepts the output");
    let mut lists = 0;
    emitter.begin_document().map_err(failed)?;
    while let Some(event) = tok.next_event()? {
        match event {
            Event::MapStart => {
                if CHECK {
                    plan.open_map(tok.depth() - 1);
                }
                emitter.map_start()
            }
            Event::ListStart => {
                let cuddled = !emitter.is_compact() && plan.cuddled(lists, tok.token_start(), tok);
                lists += 1;
                emitter.list_start(cuddled)
            }
            Event::MapEnd => {
                if CHECK {
                    plan.close_map(tok.depth(), tok)?;
                }
                emitter.end()
            }
            Event::ListEnd => emitter.end(),
            Event::Key(key) => {
                if CHECK {
                    plan.push_key(&key, tok.token_start() + 1);
                }
                emitter.key(&key)
            }
            Event::Str(text) => emitter.string(&text),
            Event::Number { text, exponent } => emitter.number(text, exponent),
            Event::Bool(b) => emitter.word(if b { "true" } else { "false" }),
            Event::Null => emitter.word("null"),
        }
        .map_err(failed)?;
    }
    emitter.end_document().map_err(failed)
}
