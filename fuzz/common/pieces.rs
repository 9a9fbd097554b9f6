//! Reading from an `io::Read` that gives the input in pieces of 1 and 7
//! bytes in turn, as a pipe may: what `transcode` writes and its error.

use kyaml::{Error, Options};

struct Pieces<'a>(&'a [u8], usize);

impl std::io::Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.1 += 1;
        let n = [1, 7][self.1 % 2].min(buf.len()).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// `opts.transcode` of `data` read in pieces: its error (always kyaml's
/// own) and all it wrote.
pub fn transcoded(data: &[u8], opts: Options) -> (Option<Error>, Vec<u8>) {
    let mut out = Vec::new();
    let streamed = opts.transcode(Pieces(data, 0), &mut out).map_err(|e| {
        *e.into_inner()
            .and_then(|e| e.downcast::<Error>().ok())
            .expect("transcode's error is ours")
    });
    (streamed.err(), out)
}
