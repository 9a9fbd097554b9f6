//! The hunks: the window of changed lines between two texts (common head
//! and tail taken off as bytes, the middle diffed by `myers.rs`), grouped
//! into `@@` hunks and written, with each hunk's document or KYAML path.

use alloc::vec;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use super::color::{write_colored, write_text};
use super::myers::{self, Budget, Interner, Span};
use super::path::PathWalker;
use super::words::{changed_words, Word};

/// How to write the hunks.
#[derive(Clone, Copy)]
pub(super) struct HunkStyle {
    pub(super) color: bool,
    pub(super) context: usize,
    /// Name the document in hunk headers.
    pub(super) documents: bool,
    /// Name the KYAML path in hunk headers.
    pub(super) paths: bool,
    /// Mark a last line without a line feed (`\ No newline at end of
    /// file`), so that `patch` gets it right; off for the value form, whose
    /// renderings never end in one.
    pub(super) eof_marker: bool,
    /// Write each invisible character of a line as its YAML escape (a TAB
    /// as `\t`: what KYAML writes raw in a folded string's lines and in
    /// comments), for a diff that is read; off for a patch, whose lines
    /// must be the text's own bytes.
    pub(super) escaped: bool,
}

/// One side's lines that a hunk can show, and which of them changed.
pub(super) struct Side<'t> {
    text: &'t str,
    lines: Vec<&'t str>,
    /// The 0-based line number of `lines[0]` in `text`.
    first: usize,
    changed: Vec<bool>,
}

/// The two sides' lines from a little before the first difference to a
/// little after the last, with the changed lines marked.
pub(super) struct Window<'t> {
    left: Side<'t>,
    right: Side<'t>,
}

impl<'t> Window<'t> {
    /// The window of `left` against `right`; `None` when they are equal.
    pub(super) fn new(
        left: &'t str,
        right: &'t str,
        context: usize,
        documents: bool,
    ) -> Option<Window<'t>> {
        let (l, r) = (left.as_bytes(), right.as_bytes());
        // The common head, back to a line start.
        let head = common_prefix(l, r);
        if head == l.len() && head == r.len() {
            return None;
        }
        let head = l[..head]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let (ml, mr) = (&l[head..], &r[head..]);
        // The common tail, forward to a line start on both sides.
        let tail = common_suffix(ml, mr);
        let starts_line = |text: &[u8], at: usize| at == 0 || text.get(at - 1) == Some(&b'\n');
        let mut end_l = ml.len() - tail;
        let mut end_r = mr.len() - tail;
        if !(starts_line(ml, end_l) && starts_line(mr, end_r)) {
            match ml[end_l..].iter().position(|&b| b == b'\n') {
                Some(i) => {
                    end_l += i + 1;
                    end_r += i + 1;
                }
                None => (end_l, end_r) = (ml.len(), mr.len()),
            }
        }
        // All cuts are at line starts or ends, so on character boundaries.
        let (mid_l, mid_r) = (&left[head..head + end_l], &right[head..head + end_r]);
        let (after_l, after_r) = (&left[head + end_l..], &right[head + end_r..]);
        let before_start = lines_back(&left[..head], context);
        let before: Vec<&str> = split_lines(&left[before_start..head]).collect();
        let after: Vec<&str> = split_lines(after_l).take(context).collect();
        debug_assert!(split_lines(after_r).take(context).eq(after.iter().copied()));
        let first = count_lines(&l[..before_start]);

        let mid_l: Vec<&str> = split_lines(mid_l).collect();
        let mid_r: Vec<&str> = split_lines(mid_r).collect();
        let mut interner = Interner::with_capacity(mid_l.len() + mid_r.len());
        let ids_l: Vec<u32> = mid_l.iter().map(|s| interner.id(s)).collect();
        let ids_r: Vec<u32> = mid_r.iter().map(|s| interner.id(s)).collect();
        let spans = document_spans(&mid_l, &mid_r, documents);
        let mut del = vec![false; mid_l.len()];
        let mut ins = vec![false; mid_r.len()];
        let mut budget = Budget::for_lines(mid_l.len() + mid_r.len());
        myers::diff(&ids_l, &ids_r, &spans, &mut del, &mut ins, &mut budget);

        let side = |text, mid: Vec<&'t str>, marks: Vec<bool>| {
            let mut lines = before.clone();
            lines.extend(mid);
            lines.extend(after.iter().copied());
            let mut changed = vec![false; before.len()];
            changed.extend(marks);
            changed.resize(lines.len(), false);
            Side {
                text,
                lines,
                first,
                changed,
            }
        };
        Some(Window {
            left: side(left, mid_l, del),
            right: side(right, mid_r, ins),
        })
    }

    /// The runs of changed lines: `(a0, a1, b0, b1)`, left lines `a0..a1`
    /// replaced by right lines `b0..b1`, in window coordinates.
    fn blocks(&self) -> Vec<[usize; 4]> {
        let (del, ins) = (&self.left.changed, &self.right.changed);
        let (mut i, mut j) = (0, 0);
        let mut blocks = Vec::new();
        while i < del.len() || j < ins.len() {
            if i < del.len() && j < ins.len() && !del[i] && !ins[j] {
                i += 1;
                j += 1;
                continue;
            }
            let (a0, b0) = (i, j);
            while i < del.len() && del[i] {
                i += 1;
            }
            while j < ins.len() && ins[j] {
                j += 1;
            }
            if (i, j) == (a0, b0) {
                break; // unreachable: the unchanged lines pair up
            }
            blocks.push([a0, i, b0, j]);
        }
        blocks
    }

    pub(super) fn write(
        &self,
        f: &mut fmt::Formatter<'_>,
        labels: [&str; 2],
        style: HunkStyle,
    ) -> fmt::Result {
        let (bold, reset) = if style.color {
            ("\x1b[1m", "\x1b[0m")
        } else {
            ("", "")
        };
        writeln!(f, "{bold}--- {}{reset}", labels[0])?;
        writeln!(f, "{bold}+++ {}{reset}", labels[1])?;
        let blocks = self.blocks();
        let ctx = style.context;
        let mut walkers = [
            PathWalker::new(self.left.text),
            PathWalker::new(self.right.text),
        ];
        let mut rest = &blocks[..];
        while let Some(first) = rest.first() {
            // This hunk takes the blocks less than two contexts apart.
            let mut n = 1;
            while n < rest.len() && rest[n][0] - rest[n - 1][1] <= ctx.saturating_mul(2) {
                n += 1;
            }
            let (hunk, next) = rest.split_at(n);
            rest = next;
            let last = hunk[hunk.len() - 1];
            let lead = ctx.min(first[0]).min(first[2]);
            let trail = ctx
                .min(self.left.lines.len() - last[1])
                .min(self.right.lines.len() - last[3]);
            let (a0, b0) = (first[0] - lead, first[2] - lead);
            let (a1, b1) = (last[1] + trail, last[3] + trail);
            let (path, document) = if !style.paths {
                ("", 0)
            } else if first[1] > first[0] {
                walkers[0].path_at(self.left.first + first[0])
            } else {
                walkers[1].path_at(self.right.first + first[2])
            };
            let (cyan, plain) = if style.color {
                ("\x1b[36m", "\x1b[0m")
            } else {
                ("", "")
            };
            write!(
                f,
                "{cyan}@@ -{} +{} @@{plain}",
                Range(self.left.first + a0, a1 - a0),
                Range(self.right.first + b0, b1 - b0)
            )?;
            if style.documents {
                write!(f, " document {document}")?;
                if !path.is_empty() {
                    write!(f, ":")?;
                }
            }
            if !path.is_empty() {
                write!(f, " {path}")?;
            }
            f.write_char('\n')?;
            let mut i = a0;
            for block in hunk.iter().chain([&[a1, a1, b1, b1]]) {
                while i < block[0] {
                    write_line(f, " ", self.left.lines[i], style)?;
                    i += 1;
                }
                self.write_block(f, block, style)?;
                i = block[1];
            }
        }
        Ok(())
    }

    /// One block's removed lines, then its added lines; in colour, the
    /// words that differ between the `k`-th removed and `k`-th added line
    /// are highlighted.
    fn write_block(
        &self,
        f: &mut fmt::Formatter<'_>,
        block: &[usize; 4],
        style: HunkStyle,
    ) -> fmt::Result {
        let [a0, a1, b0, b1] = *block;
        let old = &self.left.lines[a0..a1];
        let new = &self.right.lines[b0..b1];
        if !style.color {
            for line in old {
                write_line(f, "-", line, style)?;
            }
            for line in new {
                write_line(f, "+", line, style)?;
            }
            return Ok(());
        }
        let pairs = old.len().min(new.len());
        let mut marks: Vec<(Vec<Word>, Vec<Word>)> = Vec::with_capacity(pairs);
        for k in 0..pairs {
            marks.push(changed_words(body(old[k]), body(new[k])));
        }
        for (k, line) in old.iter().enumerate() {
            let words = marks.get(k).map(|m| &m.0[..]);
            write_colored(f, "\x1b[31m-", body(line), words, style.escaped)?;
            write_missing_newline(f, line, style.eof_marker)?;
        }
        for (k, line) in new.iter().enumerate() {
            let words = marks.get(k).map(|m| &m.1[..]);
            write_colored(f, "\x1b[32m+", body(line), words, style.escaped)?;
            write_missing_newline(f, line, style.eof_marker)?;
        }
        Ok(())
    }
}

/// A unified diff's line range: `start,count` with the start 1-based, `start`
/// alone for one line, and for no lines the number of the line before.
pub(super) struct Range(usize, usize);

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.1 {
            0 => write!(f, "{},0", self.0),
            1 => write!(f, "{}", self.0 + 1),
            n => write!(f, "{},{n}", self.0 + 1),
        }
    }
}

/// The spans to diff each on its own: one for value form; in document form,
/// the `k`-th document of the middle lines on each side against the other's.
fn document_spans(left: &[&str], right: &[&str], documents: bool) -> Vec<Span> {
    let starts = |lines: &[&str]| -> Vec<usize> {
        let mut starts = vec![0];
        if documents {
            starts.extend(
                lines
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| body(l) == "---")
                    .map(|(i, _)| i),
            );
        }
        starts.push(lines.len());
        starts
    };
    let (sl, sr) = (starts(left), starts(right));
    let count = sl.len().max(sr.len()) - 1;
    (0..count)
        .map(|k| {
            let range = |s: &[usize], len: usize| {
                (
                    s.get(k).copied().unwrap_or(len),
                    s.get(k + 1).copied().unwrap_or(len),
                )
            };
            let (a0, a1) = range(&sl, left.len());
            let (b0, b1) = range(&sr, right.len());
            Span { a0, a1, b0, b1 }
        })
        .collect()
}

/// The lines of `text`, each with its line feed (all but maybe the last
/// have one), so that a last line without one differs from the same text
/// with one.
pub(super) fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    text.split_inclusive('\n')
}

/// A line without its line feed.
fn body(line: &str) -> &str {
    line.strip_suffix('\n').unwrap_or(line)
}

/// Writes `sign` and the line (escaped as `style` says); then, if the line
/// has no line feed (the text's last line) and the style marks that, the
/// unified format's marker that says so.
fn write_line(f: &mut fmt::Formatter<'_>, sign: &str, line: &str, style: HunkStyle) -> fmt::Result {
    f.write_str(sign)?;
    write_text(f, body(line), style.escaped)?;
    f.write_char('\n')?;
    write_missing_newline(f, line, style.eof_marker)
}

fn write_missing_newline(f: &mut fmt::Formatter<'_>, line: &str, marker: bool) -> fmt::Result {
    if marker && !line.ends_with('\n') {
        f.write_str("\\ No newline at end of file\n")?;
    }
    Ok(())
}

/// Where the `n`-th last line of `text` starts (`text` ends at a line start).
pub(super) fn lines_back(text: &str, n: usize) -> usize {
    let bytes = text.as_bytes();
    let mut at = bytes.len();
    for _ in 0..n {
        if at == 0 {
            break;
        }
        at = bytes[..at - 1]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
    }
    at
}

fn count_lines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// The length of the common prefix, compared a block at a time.
pub(super) fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 128;
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// The length of the common suffix, compared a block at a time.
pub(super) fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 128;
    let n = a.len().min(b.len());
    let (la, lb) = (a.len(), b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[la - i - BLOCK..la - i] == b[lb - i - BLOCK..lb - i] {
        i += BLOCK;
    }
    while i < n && a[la - i - 1] == b[lb - i - 1] {
        i += 1;
    }
    i
}
