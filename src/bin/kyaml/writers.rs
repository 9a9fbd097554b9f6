//! The writers `kyaml fmt` streams a file's new text through, so that the
//! text is never held whole: [`Dressed`] gives it the input's byte order
//! mark and line ends (the one place those rules live), and
//! [`UntilDifferent`] compares it with the input, keeping nothing until
//! the two differ.

use std::io::{self, Write};

use crate::cli::BOM;

/// Writes KYAML into `out` dressed as its input was: with a byte order
/// mark first if the input had one (and the text has none of its own),
/// and with CRLF line ends if the input's first line ended in CRLF (each
/// `\n` becomes `\r\n`; a `\r\n` stays as it is). [`Dressed::finish`]
/// ends the text.
pub(crate) struct Dressed<W> {
    out: W,
    bom: Bom,
    crlf: bool,
    /// A `\r` held back from the end of a write: a `\n` next makes one
    /// line end of the two.
    held_cr: bool,
}

/// Where the byte order mark stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bom {
    /// Written, or not wanted.
    Done,
    /// Wanted if the text does not start with one: this many of its
    /// first bytes are, so far, the mark's first bytes (held back).
    Pending(usize),
}

impl<W: Write> Dressed<W> {
    /// A writer into `out` that dresses text as `input` is dressed.
    pub(crate) fn like(input: &[u8], out: W) -> Dressed<W> {
        let crlf = input
            .iter()
            .position(|&b| b == b'\n')
            .is_some_and(|end| end > 0 && input[end - 1] == b'\r');
        Dressed {
            out,
            bom: match input.starts_with(BOM) {
                true => Bom::Pending(0),
                false => Bom::Done,
            },
            crlf,
            held_cr: false,
        }
    }

    /// Ends the text (a byte order mark still owed, a `\r` held back) and
    /// returns the writer it went to, unflushed.
    pub(crate) fn finish(mut self) -> io::Result<W> {
        if let Bom::Pending(seen) = self.bom {
            // The text is shorter than the mark: it has none of its own.
            self.out.write_all(BOM)?;
            self.out.write_all(&BOM[..seen])?;
        }
        if self.held_cr {
            self.out.write_all(b"\r")?;
        }
        Ok(self.out)
    }

    /// Takes the text's first bytes while they may be its own byte order
    /// mark; returns the rest, after writing whatever the mark's question
    /// settled.
    fn settle_bom<'b>(&mut self, buf: &'b [u8]) -> io::Result<&'b [u8]> {
        let Bom::Pending(seen) = self.bom else {
            return Ok(buf);
        };
        let take = buf.len().min(BOM.len() - seen);
        if buf[..take] == BOM[seen..seen + take] {
            if seen + take < BOM.len() {
                self.bom = Bom::Pending(seen + take);
                return Ok(&buf[take..]);
            }
            // The text's own mark.
            self.out.write_all(BOM)?;
            self.bom = Bom::Done;
            return Ok(&buf[take..]);
        }
        // The text starts otherwise: the mark, then the bytes held back.
        self.out.write_all(BOM)?;
        self.out.write_all(&BOM[..seen])?;
        self.bom = Bom::Done;
        Ok(buf)
    }

    /// Writes `buf` with CRLF line ends.
    fn write_crlf(&mut self, mut buf: &[u8]) -> io::Result<()> {
        while let Some(end) = buf.iter().position(|&b| b == b'\n') {
            let line = &buf[..end];
            if !line.is_empty() && self.held_cr {
                // The `\r` held back was not the end of a line.
                self.out.write_all(b"\r")?;
            }
            self.out
                .write_all(line.strip_suffix(b"\r").unwrap_or(line))?;
            self.out.write_all(b"\r\n")?;
            self.held_cr = false;
            buf = &buf[end + 1..];
        }
        if buf.is_empty() {
            return Ok(());
        }
        if self.held_cr {
            self.out.write_all(b"\r")?;
        }
        self.held_cr = buf.ends_with(b"\r");
        self.out.write_all(buf.strip_suffix(b"\r").unwrap_or(buf))
    }
}

impl<W: Write> Write for Dressed<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let rest = self.settle_bom(buf)?;
        match self.crlf {
            true => self.write_crlf(rest)?,
            false => self.out.write_all(rest)?,
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Compares the text written into it with `old`, keeping nothing while
/// the two agree; from the first byte that differs on, everything goes to
/// the writer `open` makes then, starting with the part that agreed.
/// [`UntilDifferent::finish`] says whether the texts differ.
pub(crate) struct UntilDifferent<'a, W, F> {
    old: &'a [u8],
    /// How many bytes of `old` the text has matched (while `out` is `None`).
    same: usize,
    open: F,
    out: Option<W>,
}

impl<'a, W: Write, F: FnMut() -> io::Result<W>> UntilDifferent<'a, W, F> {
    pub(crate) fn new(old: &'a [u8], open: F) -> UntilDifferent<'a, W, F> {
        UntilDifferent {
            old,
            same: 0,
            open,
            out: None,
        }
    }

    /// `None` if the text was `old`, else the writer that has it, flushed.
    pub(crate) fn finish(mut self) -> io::Result<Option<W>> {
        if self.out.is_none() && self.same < self.old.len() {
            // The text is a part of `old`.
            self.diverge()?;
        }
        if let Some(out) = &mut self.out {
            out.flush()?;
        }
        Ok(self.out)
    }

    /// Opens the writer and gives it the part that agreed.
    fn diverge(&mut self) -> io::Result<&mut W> {
        let mut out = (self.open)()?;
        out.write_all(&self.old[..self.same])?;
        Ok(self.out.insert(out))
    }
}

impl<W: Write, F: FnMut() -> io::Result<W>> Write for UntilDifferent<'_, W, F> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let out = match &mut self.out {
            Some(out) => out,
            None => {
                let rest = &self.old[self.same..];
                if rest.starts_with(buf) {
                    self.same += buf.len();
                    return Ok(buf.len());
                }
                self.diverge()?
            }
        };
        out.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.out {
            Some(out) => out.flush(),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` dressed like `input`, written in the pieces `cuts` makes.
    fn dressed(input: &[u8], text: &[u8], cuts: &[usize]) -> Vec<u8> {
        let mut out = Dressed::like(input, Vec::new());
        let mut from = 0;
        for &cut in cuts.iter().chain([&text.len()]) {
            out.write_all(&text[from..cut]).unwrap();
            from = cut;
        }
        out.finish().unwrap()
    }

    /// Every way to cut `text` in two or three pieces gives `expected`.
    fn every_cut(input: &[u8], text: &[u8], expected: &[u8]) {
        for i in 0..=text.len() {
            for j in i..=text.len() {
                let out = dressed(input, text, &[i, j]);
                assert_eq!(out, expected, "cut at {i} and {j}");
            }
        }
    }

    #[test]
    fn plain_input_leaves_the_text_as_it_is() {
        every_cut(b"a: 1\n", b"---\na: 1\n", b"---\na: 1\n");
        every_cut(b"", b"", b"");
    }

    #[test]
    fn a_byte_order_mark_is_kept_once() {
        let bom = "\u{FEFF}";
        let input = format!("{bom}a: 1\n");
        every_cut(input.as_bytes(), b"---\n", format!("{bom}---\n").as_bytes());
        // The text has its own: not a second one.
        let own = format!("{bom}---\n");
        every_cut(input.as_bytes(), own.as_bytes(), own.as_bytes());
        // Texts shorter than the mark, or that start like it.
        every_cut(input.as_bytes(), b"", bom.as_bytes());
        every_cut(input.as_bytes(), b"\xEF\xBB", b"\xEF\xBB\xBF\xEF\xBB");
        every_cut(input.as_bytes(), b"\xEF\xBBx\n", b"\xEF\xBB\xBF\xEF\xBBx\n");
    }

    #[test]
    fn crlf_input_gets_crlf_line_ends() {
        let input = b"a: 1\r\nb: 2\n";
        every_cut(
            input,
            b"---\n{\n  a: 1,\n}\n",
            b"---\r\n{\r\n  a: 1,\r\n}\r\n",
        );
        // A CRLF written in two pieces is one line end, a `\r` alone stays.
        assert_eq!(dressed(input, b"a\r\nb", &[2]), b"a\r\nb");
        assert_eq!(dressed(input, b"a\r\r\n", &[2]), b"a\r\r\n");
        every_cut(input, b"a\rb\n\r", b"a\rb\r\n\r");
        every_cut(input, b"\n\n", b"\r\n\r\n");
        // Only the first line decides.
        every_cut(b"a: 1\nb: 2\r\n", b"x\n", b"x\n");
        every_cut(b"\xEF\xBB\xBF\r\n", b"x\n", b"\xEF\xBB\xBFx\r\n");
    }

    /// What `UntilDifferent` over `old` makes of `text` in the pieces
    /// `cuts` makes: `None` if the same, else what its writer got.
    fn compared(old: &[u8], text: &[u8], cuts: &[usize]) -> Option<Vec<u8>> {
        let mut opened = 0;
        let mut out = UntilDifferent::new(old, || {
            opened += 1;
            Ok(Vec::new())
        });
        let mut from = 0;
        for &cut in cuts.iter().chain([&text.len()]) {
            out.write_all(&text[from..cut]).unwrap();
            from = cut;
        }
        let got = out.finish().unwrap();
        assert!(opened <= 1);
        got
    }

    #[test]
    fn until_different_opens_its_writer_only_for_a_different_text() {
        let old = b"---\n{\n  a: 1,\n}\n";
        for i in 0..=old.len() {
            assert_eq!(compared(old, old, &[i]), None, "cut at {i}");
            // Differs in the last byte, a byte short, a byte long.
            let mut last = old.to_vec();
            *last.last_mut().unwrap() = b' ';
            assert_eq!(compared(old, &last, &[i]), Some(last.clone()));
            let short = &old[..old.len() - 1];
            assert_eq!(
                compared(old, short, &[i.min(short.len())]),
                Some(short.to_vec())
            );
            let long = [&old[..], b"\n"].concat();
            assert_eq!(compared(old, &long, &[i]), Some(long.clone()));
        }
        assert_eq!(compared(b"", b"", &[]), None);
        assert_eq!(compared(b"x", b"", &[]), Some(Vec::new()));
    }
}
