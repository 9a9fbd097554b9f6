//! Indentation: the spaces the emitter writes after a line feed, and the
//! one function that writes `level` indents, for the layout (`mod.rs`) and
//! for folded strings (`string.rs`) alike.

use core::fmt::{Result, Write};

/// A line feed and then enough spaces for the common indent levels.
pub(super) const NEWLINE_SPACES: &str = concat!(
    "\n",
    "                                                                "
);

/// Writes `level` indents of two spaces, in as few writes as possible.
pub(super) fn indent<W: Write + ?Sized>(out: &mut W, level: usize) -> Result {
    let spaces = &NEWLINE_SPACES[1..];
    let mut n = 2 * level;
    while n > 0 {
        let step = n.min(spaces.len());
        out.write_str(&spaces[..step])?;
        n -= step;
    }
    Ok(())
}
