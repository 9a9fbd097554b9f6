//! A scalar as the scanner found it (its source span, style and block
//! header), and its lazy decoding into [`Piece`]s: line folding, escapes,
//! indentation and chomping, without allocating.
//!
//! The scanner has validated the span (escapes, indentation, quotes), so
//! decoding cannot fail.

use super::chars::{block_line, next_of};
use crate::scan::Piece;

/// How a scalar is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    /// `|`
    Literal,
    /// `>`
    Folded,
}

/// A block scalar's chomping indicator: `-`, none, `+`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Chomp {
    Strip,
    Clip,
    Keep,
}

/// A scalar's source and how to decode it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scalar<'a> {
    /// Plain: first to last character. Quoted: between the quotes. Block:
    /// the body lines, from the line after the header, with their
    /// indentation and line breaks (trailing empty lines only for `Keep`).
    raw: &'a str,
    style: Style,
    /// Block scalars: the content indentation in spaces (u32 keeps the
    /// struct at 24 bytes: scalars are moved through every stage).
    indent: u32,
    chomp: Chomp,
    /// Plain and quoted: `raw` spans a line break. Quoted: or holds an escape.
    folds: bool,
    /// Block: whether NEL, U+2028 or U+2029 may end a line (see [`block_line`]).
    odd_breaks: bool,
}

impl<'a> Scalar<'a> {
    pub(crate) fn new(raw: &'a str, style: Style, folds: bool) -> Scalar<'a> {
        Scalar {
            raw,
            style,
            indent: 0,
            chomp: Chomp::Clip,
            folds,
            odd_breaks: false,
        }
    }

    /// A block scalar; `odd_breaks`: whether NEL, U+2028 or U+2029 may end
    /// one of its lines (the input holds one).
    pub(crate) fn block(
        raw: &'a str,
        literal: bool,
        indent: usize,
        chomp: Chomp,
        odd_breaks: bool,
    ) -> Scalar<'a> {
        Scalar {
            raw,
            style: if literal {
                Style::Literal
            } else {
                Style::Folded
            },
            indent: u32::try_from(indent).unwrap_or(u32::MAX),
            chomp,
            folds: true,
            odd_breaks,
        }
    }

    /// The style it was written in.
    pub(crate) fn style(&self) -> Style {
        self.style
    }

    /// The source span (see the field docs for what it covers).
    pub(crate) fn raw(&self) -> &'a str {
        self.raw
    }

    /// The decoded text when it is one source run (a one-line plain scalar,
    /// or a one-line quoted one without escapes): what resolution looks at.
    /// A plain scalar without one folds lines, so its text holds a space or
    /// a line feed between words: never null, a bool or a number.
    pub(crate) fn as_str(&self) -> Option<&'a str> {
        match self.style {
            Style::Plain | Style::SingleQuoted | Style::DoubleQuoted if !self.folds => {
                Some(self.raw)
            }
            _ => None,
        }
    }

    /// Whether it decodes to the empty string.
    #[cfg(test)] // Only the tests call it.
    pub(crate) fn is_empty(&self) -> bool {
        match self.as_str() {
            Some(s) => s.is_empty(),
            None => self.pieces().all(|p| p == Piece::Run("")),
        }
    }

    /// Whether the decoded text holds a line feed.
    #[cfg(test)] // Only the tests call it.
    pub(crate) fn has_line_feed(&self) -> bool {
        if self.as_str().is_some() {
            return false;
        }
        self.pieces().any(|p| match p {
            Piece::Run(r) => r.contains('\n'),
            Piece::Char(c) => c == '\n',
        })
    }

    /// The decoded text, piece by piece (no empty runs).
    pub(crate) fn pieces(&self) -> ScalarPieces<'a> {
        // One source run: it is the whole decoding.
        let (run, at) = match self.as_str() {
            Some(s) => (s, s.len()),
            None => ("", 0),
        };
        ScalarPieces {
            raw: self.raw,
            at,
            style: self.style,
            indent: self.indent as usize,
            chomp: self.chomp,
            newlines: 0,
            space: false,
            run,
            started: false,
            blank_start: false,
            breaks: 0,
            odd_breaks: self.odd_breaks,
            break_at: 0,
            run_end: 0,
            done: false,
        }
    }
}

/// The decoding of a [`Scalar`].
#[derive(Clone, Debug)]
pub(crate) struct ScalarPieces<'a> {
    raw: &'a str,
    at: usize,
    style: Style,
    indent: usize,
    chomp: Chomp,
    /// Line feeds owed before anything else.
    newlines: usize,
    /// A folding space owed (after `newlines`).
    space: bool,
    /// A run owed after those.
    run: &'a str,
    /// Block scalars: a content line has been seen.
    started: bool,
    /// Block scalars: the last content line began with white space.
    blank_start: bool,
    /// Block scalars: line breaks since the last content line (its own
    /// included).
    breaks: usize,
    /// Block scalars: a line may end in NEL, U+2028 or U+2029, so each
    /// line feed owed is the break found at `break_at`, as go-yaml reads it.
    odd_breaks: bool,
    /// Block scalars with `odd_breaks`: where the next owed break is.
    break_at: usize,
    /// Block scalars: where `run`'s line ends (its line break starts).
    run_end: usize,
    done: bool,
}

fn is_white(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

impl<'a> ScalarPieces<'a> {
    /// The position just past the line break at `at` (`\n` or `\r\n`).
    fn after_break(&self, at: usize) -> usize {
        let b = self.raw.as_bytes();
        if b.get(at) == Some(&b'\r') && b.get(at + 1) == Some(&b'\n') {
            at + 2
        } else {
            at + 1
        }
    }

    /// From just after a line break in a flow scalar: skips empty lines and
    /// the next line's leading white space, returning how many empty lines.
    fn skip_flow_break(&mut self) -> usize {
        let b = self.raw.as_bytes();
        let mut empty = 0;
        loop {
            let mut i = self.at;
            while i < b.len() && is_white(b[i]) {
                i += 1;
            }
            match b.get(i) {
                Some(b'\n' | b'\r') => {
                    empty += 1;
                    self.at = self.after_break(i);
                }
                _ => {
                    self.at = i;
                    return empty;
                }
            }
        }
    }

    /// The next piece of a plain or quoted scalar.
    fn next_flow(&mut self) -> Option<Piece<'a>> {
        let b = self.raw.as_bytes();
        loop {
            if self.at >= b.len() {
                return None;
            }
            let start = self.at;
            let special = match self.style {
                Style::SingleQuoted => b'\'',
                Style::DoubleQuoted => b'\\',
                _ => b'\n',
            };
            let i = next_of(b, start, special, b'\n', b'\r');
            let mut end = i;
            if i < b.len() && (b[i] == b'\n' || b[i] == b'\r') {
                while end > start && is_white(b[end - 1]) {
                    end -= 1;
                }
            }
            if end > start {
                self.at = i;
                return Some(Piece::Run(self.raw.get(start..end).unwrap_or("")));
            }
            if i >= b.len() {
                self.at = i;
                return None;
            }
            match b[i] {
                b'\'' => {
                    // `''`: one quote.
                    self.at = i + 2;
                    return Some(Piece::Run(self.raw.get(i..i + 1).unwrap_or("")));
                }
                b'\\' => {
                    let (ch, next) = decode_escape(b, i + 1);
                    match ch {
                        Some(c) => {
                            self.at = next;
                            return Some(Piece::Char(c));
                        }
                        None => {
                            // An escaped line break: it and the next
                            // line's indentation go; empty lines stay.
                            self.at = self.after_break(i + 1);
                            let empty = self.skip_flow_break();
                            if empty > 0 {
                                self.newlines = empty - 1;
                                return Some(Piece::Char('\n'));
                            }
                        }
                    }
                }
                _ => {
                    self.at = self.after_break(i);
                    let empty = self.skip_flow_break();
                    if empty == 0 {
                        return Some(Piece::Char(' '));
                    }
                    self.newlines = empty - 1;
                    return Some(Piece::Char('\n'));
                }
            }
        }
    }

    /// Reads block scalar lines until a piece is owed or the body ends.
    fn next_block_line(&mut self) {
        let b = self.raw.as_bytes();
        while self.at < b.len() {
            let line = self.at;
            let (content_end, next, brk) = block_line(b, line, self.odd_breaks);
            let mut sp = 0;
            while sp < self.indent && line + sp < content_end && b[line + sp] == b' ' {
                sp += 1;
            }
            let text_start = line + sp;
            if sp < self.indent || text_start >= content_end {
                // An empty line.
                self.breaks += usize::from(brk.is_some() || content_end > line);
                self.at = next;
                continue;
            }
            let text = self.raw.get(text_start..content_end).unwrap_or("");
            let blank_start = is_white(b[text_start]);
            let breaks = self.breaks;
            // go-yaml folds only a line feed (U+2028 and U+2029 stay).
            if self.started
                && self.style == Style::Folded
                && breaks > 0
                && !self.blank_start
                && !blank_start
                && (!self.odd_breaks || self.peek_break().0 == '\n')
            {
                if self.odd_breaks {
                    // The folded break is not owed.
                    self.break_at = self.peek_break().1;
                }
                if breaks == 1 {
                    self.space = true;
                } else {
                    self.newlines = breaks - 1;
                }
            } else {
                self.newlines = breaks;
            }
            self.started = true;
            self.blank_start = blank_start;
            self.run = text;
            self.at = next;
            self.run_end = content_end;
            // The content line's own break counts toward the next fold.
            self.breaks = 1; // a last line at the input's end counts as ended
            return;
        }
        // The end: chomping.
        self.newlines = match self.chomp {
            Chomp::Strip => 0,
            Chomp::Clip => usize::from(self.started && self.breaks > 0),
            Chomp::Keep => self.breaks,
        };
        self.done = true;
    }

    /// The next owed line break of a block scalar with `odd_breaks`, as
    /// go-yaml reads it (past it, so the next call reads the one after).
    fn owed_break(&mut self) -> char {
        let (brk, next) = self.peek_break();
        self.break_at = next;
        brk
    }

    /// The next owed line break and where the line after it starts.
    fn peek_break(&self) -> (char, usize) {
        let (_, next, brk) = block_line(self.raw.as_bytes(), self.break_at, true);
        (brk.unwrap_or('\n'), next)
    }
}

impl<'a> Iterator for ScalarPieces<'a> {
    type Item = Piece<'a>;

    fn next(&mut self) -> Option<Piece<'a>> {
        loop {
            if self.newlines > 0 {
                self.newlines -= 1;
                if self.odd_breaks {
                    return Some(Piece::Char(self.owed_break()));
                }
                return Some(Piece::Char('\n'));
            }
            if self.space {
                self.space = false;
                return Some(Piece::Char(' '));
            }
            if !self.run.is_empty() {
                // The breaks owed after this run start with its line's own.
                self.break_at = self.run_end;
                return Some(Piece::Run(core::mem::take(&mut self.run)));
            }
            match self.style {
                Style::Literal | Style::Folded => {
                    if self.done {
                        return None;
                    }
                    self.next_block_line();
                }
                _ => return self.next_flow(),
            }
        }
    }
}

/// Decodes the escape whose letter is at `at` (just after a `\`): the
/// character and the position after the escape, or `None` for an escaped
/// line break. The scanner has checked it, so a bad one cannot occur; it
/// decodes as U+FFFD if it does.
pub(super) fn decode_escape(b: &[u8], at: usize) -> (Option<char>, usize) {
    let simple = match b.get(at) {
        Some(b'0') => '\0',
        Some(b'a') => '\u{7}',
        Some(b'b') => '\u{8}',
        Some(b't' | b'\t') => '\t',
        Some(b'n') => '\n',
        Some(b'v') => '\u{B}',
        Some(b'f') => '\u{C}',
        Some(b'r') => '\r',
        Some(b'e') => '\u{1B}',
        Some(b' ') => ' ',
        Some(b'"') => '"',
        // Not YAML 1.2: go-yaml's (a `Tok::Lenient` says so).
        Some(b'\'') => '\'',
        Some(b'/') => '/',
        Some(b'\\') => '\\',
        Some(b'N') => '\u{85}',
        Some(b'_') => '\u{A0}',
        Some(b'L') => '\u{2028}',
        Some(b'P') => '\u{2029}',
        Some(b'\n' | b'\r') => return (None, at),
        Some(&c @ (b'x' | b'u' | b'U')) => {
            let len = match c {
                b'x' => 2,
                b'u' => 4,
                _ => 8,
            };
            let digits = b.get(at + 1..at + 1 + len).unwrap_or(&[]);
            let mut v: u32 = 0;
            for &d in digits {
                v = v.wrapping_mul(16) | (d as char).to_digit(16).unwrap_or(0);
            }
            return (
                Some(char::from_u32(v).unwrap_or('\u{FFFD}')),
                at + 1 + digits.len(),
            );
        }
        _ => '\u{FFFD}',
    };
    (Some(simple), at + 1)
}

/// Checks the escape at `at` (just after a `\`): the position after it, or
/// `None` if it is not a YAML escape (an escaped line break is one).
pub(super) fn check_escape(b: &[u8], at: usize) -> Option<usize> {
    let len = match b.get(at)? {
        b'0' | b'a' | b'b' | b't' | b'\t' | b'n' | b'v' | b'f' | b'r' | b'e' | b' ' | b'"'
        | b'\'' | b'/' | b'\\' | b'N' | b'_' | b'L' | b'P' | b'\n' => return Some(at + 1),
        b'\r' => return Some(at + 1),
        b'x' => 2,
        b'u' => 4,
        b'U' => 8,
        _ => return None,
    };
    let digits = b.get(at + 1..at + 1 + len)?;
    if !digits.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    match decode_escape(b, at) {
        (Some('\u{FFFD}'), _) if !digits.eq_ignore_ascii_case(b"fffd") && len > 2 => None,
        (_, next) => Some(next),
    }
}
