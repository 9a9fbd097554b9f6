//! Writing to `std::io::Write` through a buffer on the stack.

use core::fmt;
use std::io;

use crate::encode::{self, OnInvalid};
use crate::error::{Error, ErrorKind};
use crate::options::Options;
use crate::plan;

/// A `fmt::Write` in front of an `io::Write`: gathers small writes into
/// one buffer, and keeps the I/O error that `fmt::Error` cannot carry.
pub(crate) struct Buffered<W> {
    inner: W,
    buf: [u8; 8192],
    len: usize,
    error: Option<io::Error>,
}

impl<W: io::Write> Buffered<W> {
    pub(crate) fn new(inner: W) -> Buffered<W> {
        Buffered {
            inner,
            buf: [0; 8192],
            len: 0,
            error: None,
        }
    }

    /// Hands what is buffered to the inner writer.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        let len = core::mem::take(&mut self.len);
        self.inner.write_all(&self.buf[..len])
    }

    /// Hands what is buffered to the inner writer, and flushes that.
    pub(crate) fn deliver(&mut self) -> io::Result<()> {
        self.flush()?;
        self.inner.flush()
    }

    /// The I/O error behind the last failed write, if any.
    pub(crate) fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }

    pub(crate) fn inner(&self) -> &W {
        &self.inner
    }

    pub(crate) fn into_inner(self) -> W {
        self.inner
    }

    fn fail(&mut self, error: io::Error) -> fmt::Error {
        self.error = Some(error);
        fmt::Error
    }
}

impl<W: io::Write> Buffered<W> {
    /// Writes `s`: [`fmt::Write::write_str`] for bytes that may not be
    /// whole characters (a text written in parts).
    pub(crate) fn write_bytes(&mut self, s: &[u8]) -> fmt::Result {
        if self.len + s.len() > self.buf.len() {
            self.flush().map_err(|e| self.fail(e))?;
            if s.len() >= self.buf.len() {
                return self.inner.write_all(s).map_err(|e| self.fail(e));
            }
        }
        self.buf[self.len..self.len + s.len()].copy_from_slice(s);
        self.len += s.len();
        Ok(())
    }
}

impl<W: io::Write> fmt::Write for Buffered<W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.write_bytes(s.as_bytes())
    }
}

/// Writes the KYAML of `json` to `out`; `on_invalid` says what an invalid
/// document leaves there.
pub(crate) fn to_writer<W: io::Write>(
    json: &[u8],
    opts: Options,
    out: W,
    on_invalid: OnInvalid,
) -> io::Result<()> {
    let mut sink = Buffered::new(out);
    let checked = encode_into(json, opts, &mut sink, on_invalid)?;
    // Documents before an invalid one are complete: deliver them.
    sink.deliver()?;
    checked.map_err(invalid)
}

/// [`to_writer`] for YAML input, its warnings appended to `warnings`.
#[cfg(feature = "alloc")]
pub(crate) fn yaml_to_writer<W: io::Write>(
    input: &[u8],
    opts: Options,
    out: W,
    warnings: &mut std::vec::Vec<crate::error::Warning>,
    on_invalid: OnInvalid,
) -> io::Result<()> {
    let mut sink = Buffered::new(out);
    let checked = match encode::encode_yaml(input, opts, &mut sink, warnings, on_invalid) {
        Err(e) if e.kind() == ErrorKind::Write => {
            return Err(sink.take_error().unwrap_or_else(|| io::Error::other(e)));
        }
        checked => checked,
    };
    // Documents before an invalid one are complete: deliver them.
    sink.deliver()?;
    checked.map_err(invalid)
}

/// Encodes `json` into `sink`, checking each document before writing it:
/// the writer's error if a write failed, else whether `json` was valid.
pub(crate) fn encode_into<W: io::Write>(
    json: &[u8],
    opts: Options,
    sink: &mut Buffered<W>,
    on_invalid: OnInvalid,
) -> io::Result<Result<(), Error>> {
    match encode::encode(json, opts, sink, plan::Growing::default(), on_invalid) {
        Err(e) if e.kind() == ErrorKind::Write => {
            Err(sink.take_error().unwrap_or_else(|| io::Error::other(e)))
        }
        checked => Ok(checked),
    }
}

/// An invalid document as an I/O error: `InvalidData`, holding the
/// [`Error`] (its `From`).
pub(crate) fn invalid(e: Error) -> io::Error {
    io::Error::from(e)
}
