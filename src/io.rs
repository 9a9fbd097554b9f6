//! Writing to `std::io::Write` through a buffer on the stack.

use core::fmt;
use std::io;

use crate::error::ErrorKind;
use crate::{encode, plan, Options};

/// A `fmt::Write` in front of an `io::Write`: gathers small writes into
/// one buffer, and keeps the I/O error that `fmt::Error` cannot carry.
struct Buffered<W: io::Write> {
    inner: W,
    buf: [u8; 8192],
    len: usize,
    error: Option<io::Error>,
}

impl<W: io::Write> Buffered<W> {
    fn flush(&mut self) -> io::Result<()> {
        let len = core::mem::take(&mut self.len);
        self.inner.write_all(&self.buf[..len])
    }

    fn fail(&mut self, error: io::Error) -> fmt::Error {
        self.error = Some(error);
        fmt::Error
    }
}

impl<W: io::Write> fmt::Write for Buffered<W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.len + s.len() > self.buf.len() {
            self.flush().map_err(|e| self.fail(e))?;
            if s.len() >= self.buf.len() {
                return self.inner.write_all(s.as_bytes()).map_err(|e| self.fail(e));
            }
        }
        self.buf[self.len..self.len + s.len()].copy_from_slice(s.as_bytes());
        self.len += s.len();
        Ok(())
    }
}

pub(crate) fn to_writer<W: io::Write>(json: &[u8], opts: Options, out: W) -> io::Result<()> {
    let mut sink = Buffered {
        inner: out,
        buf: [0; 8192],
        len: 0,
        error: None,
    };
    let result = encode::encode(json, opts, &mut sink, plan::Growing::default());
    if let Some(error) = sink.error.take() {
        return Err(error);
    }
    // Documents before an invalid one are complete: deliver them.
    sink.flush()?;
    sink.inner.flush()?;
    match result {
        Err(e) if e.kind() != ErrorKind::Write => {
            Err(io::Error::new(io::ErrorKind::InvalidData, e))
        }
        Err(e) => Err(io::Error::other(e)),
        Ok(()) => Ok(()),
    }
}
