//! The scanner's scalars, delimited and checked (not decoded): quoted
//! scalars (escapes checked, continuation lines and go-yaml's leniencies
//! there), plain scalars (where a run ends, the lines it goes on over) and
//! block scalars (header, indentation detected or given, chomping). Each
//! gives where its text is; `scanner.rs` decides where a scalar may start
//! and queues its token. Moved out of `scanner.rs` as they were.

use super::state::Scanner;
use crate::error::Fault;
use crate::scan::yaml::chars::{
    block_line, ends_token, is_flow_indicator, next_of, plain_stop, skip_spaces,
};
use crate::scan::yaml::scalar::{check_escape, Chomp, Scalar, Style};
use crate::scan::yaml::token::{
    Tok, LENIENT_BLOCK_EMPTY_LINES, LENIENT_COMMENT, LENIENT_FLOW_INDENT, LENIENT_QUOTED_INDENT,
    LENIENT_QUOTE_ESCAPE, REFUSED_SLASH_ESCAPE,
};

/// NEL, U+2028 or U+2029 in a plain scalar or a comment.
pub(super) const ODD_BREAK_IN_TEXT: &str = "no NEL, U+2028 or U+2029 in a plain scalar or a comment (kubectl reads them as line breaks there; quote the text and write \\u2028)";
/// NEL in a quoted scalar.
const NEL_IN_QUOTED: &str = "no NEL (U+0085) in a quoted string (kubectl folds it as a line break there; write \\N in a double-quoted string to keep it)";

impl<'a> Scanner<'a> {
    /// The spaces a continuation line of a flow scalar (or a flow
    /// collection's line) needs: one more than the block indentation.
    fn min_continuation(&self) -> usize {
        (self.indent() + 1).max(0) as usize
    }

    /// Checks a continuation line that starts at `line` inside a multi-line
    /// quoted scalar: not a document marker. A line that holds text and is
    /// indented no deeper than the block it is in is not YAML 1.2, but
    /// go-yaml reads it: the first such line of the scalar is queued as
    /// [`Tok::Lenient`] (`lenient` tells whether one was).
    fn check_quoted_line(
        &mut self,
        line: usize,
        opened: usize,
        lenient: &mut bool,
    ) -> Result<(), Fault> {
        let b = self.bytes();
        if self.document_marker(line) {
            return Err(self.err_in_string(
                line,
                "the closing quote before a document marker",
                opened,
            ));
        }
        self.dashes_in_scalar(line);
        let sp = skip_spaces(b, line);
        let mut k = sp;
        while matches!(b.get(k), Some(b' ' | b'\t')) {
            k += 1;
        }
        let empty = matches!(b.get(k), Some(b'\n' | b'\r') | None);
        if !empty && sp - line < self.min_continuation() && !*lenient {
            *lenient = true;
            self.push(sp, Tok::Lenient(LENIENT_QUOTED_INDENT));
        }
        Ok(())
    }

    /// A quoted scalar's token, the node opening at `at`: built where it
    /// is queued, from where it closes (as for a plain scalar's,
    /// [`Scanner::plain_token`]).
    #[inline]
    pub(super) fn quoted_token(&mut self, at: usize, double: bool) -> Result<(), Fault> {
        let (close, folds) = self.quoted(at, double)?;
        self.after_node(true);
        let style = match double {
            true => Style::DoubleQuoted,
            false => Style::SingleQuoted,
        };
        let raw = self.slice(at + 1, close);
        self.push(at, Tok::Scalar(Scalar::new(raw, style, folds)));
        Ok(())
    }

    /// A quoted scalar opening at `at`: where its closing quote is, and
    /// whether it folds (spans a line break or holds an escape).
    fn quoted(&mut self, at: usize, double: bool) -> Result<(usize, bool), Fault> {
        let b = self.bytes();
        let mut i = at + 1;
        let mut folds = false;
        let mut lenient = false;
        // `\/` and `\'` were queued (once a scalar is enough).
        let (mut slash, mut quote) = (false, false);
        loop {
            i = if double {
                crate::swar::string_special(b, i)
            } else {
                next_of(b, i, b'\'', b'\n', b'\r')
            };
            let Some(&c) = b.get(i) else {
                return Err(self.err_in_string(
                    i,
                    if double {
                        "'\"' closing the string"
                    } else {
                        "\"'\" closing the string"
                    },
                    at,
                ));
            };
            match c {
                b'"' if double => break,
                b'\'' if !double => {
                    if b.get(i + 1) == Some(&b'\'') {
                        folds = true;
                        i += 2;
                        continue;
                    }
                    break;
                }
                b'\\' => {
                    folds = true;
                    match b.get(i + 1) {
                        Some(b'/') if !slash => {
                            slash = true;
                            self.push(i, Tok::Refused(REFUSED_SLASH_ESCAPE));
                        }
                        Some(b'\'') if !quote => {
                            quote = true;
                            self.push(i, Tok::Lenient(LENIENT_QUOTE_ESCAPE));
                        }
                        _ => {}
                    }
                    match check_escape(b, i + 1) {
                        Some(next) => i = next,
                        None => {
                            return Err(self.err(
                                i,
                                "a YAML escape (\\n, \\t, \\\\, \\\", \\x41, \\u0041, ...)",
                            ))
                        }
                    }
                    if matches!(b.get(i - 1), Some(b'\n' | b'\r')) {
                        i = self.quoted_break(i - 1, at, &mut lenient)?;
                    }
                }
                b'\n' | b'\r' => {
                    folds = true;
                    i = self.quoted_break(i, at, &mut lenient)?;
                }
                b'\t' => i += 1,
                _ => {
                    return Err(self.err(
                        i,
                        "a printable character (a control character must be escaped)",
                    ))
                }
            }
        }
        if self.odd_break < i {
            // go-yaml folds a NEL in a quoted scalar as a line break, where
            // YAML 1.2 reads text (U+2028 and U+2029 both keep).
            if let Some(k) = (at..i).find(|&k| b.get(k..k + 2) == Some(&[0xC2, 0x85][..])) {
                return Err(self.err_in_string(k, NEL_IN_QUOTED, at));
            }
        }
        self.pos = i + 1;
        Ok((i, folds))
    }

    /// At a line break inside a quoted scalar: past it, with the next line
    /// checked; tracks the line start.
    fn quoted_break(
        &mut self,
        i: usize,
        opened: usize,
        lenient: &mut bool,
    ) -> Result<usize, Fault> {
        let len = self.line_break_len(i);
        self.odd_line_break(i, len);
        let next = i + len;
        self.line_start = next;
        self.check_quoted_line(next, opened, lenient)?;
        Ok(next)
    }

    /// A plain scalar starting at `at`: where it ends, and whether it
    /// spans lines.
    pub(super) fn plain(&mut self, at: usize) -> Result<(usize, bool), Fault> {
        let b = self.bytes();
        let flow = self.flow_level > 0;
        let min_col = self.min_continuation();
        let mut i = at;
        let mut end; // just past the last content character
        let mut multiline = false;
        let mut lenient_at = None;
        loop {
            let run = i;
            // One line's run (on the first line perhaps known already).
            let hint = self.plain_hint.get();
            if hint.0 == at && i == at {
                i = hint.1;
            }
            loop {
                i = plain_stop(b, i, flow);
                match b.get(i) {
                    Some(b':') => {
                        let n = b.get(i + 1);
                        if ends_token(n, flow) {
                            break;
                        }
                        i += 1;
                    }
                    Some(b'#') => {
                        if matches!(b[i - 1], b' ' | b'\t') {
                            break;
                        }
                        i += 1;
                    }
                    _ => break,
                }
            }
            if self.odd_break < i {
                // go-yaml ends the line at NEL, U+2028, U+2029.
                if let Some(k) = (run..i).find(|&k| b[k] >= 0x80 && self.line_break_len(k) > 0) {
                    i = k;
                }
            }
            end = i;
            while end > at && matches!(b[end - 1], b' ' | b'\t') {
                end -= 1;
            }
            // A line break: does the scalar go on on a later line?
            if self.line_break_len(i) == 0 {
                break;
            }
            let mut j = i;
            let mut line = self.line_start;
            let mut odd_seen = false;
            loop {
                match b.get(j) {
                    Some(b'\n') => j += 1,
                    _ => match self.line_break_len(j) {
                        0 => break,
                        len => {
                            self.odd_line_break(j, len);
                            odd_seen |= b[j] >= 0x80;
                            j += len;
                        }
                    },
                }
                line = j;
                j = skip_spaces(b, j);
                let indent_end = j;
                while matches!(b.get(j), Some(b' ' | b'\t')) {
                    j += 1;
                }
                if !matches!(b.get(j), Some(b'\n' | b'\r')) {
                    if indent_end - line < min_col {
                        if !flow {
                            j = usize::MAX;
                        } else if !core::mem::replace(&mut self.flow_lenient, true) {
                            // go-yaml checks no indentation inside flow collections.
                            lenient_at = Some(indent_end);
                        }
                    }
                    break;
                }
            }
            if j == usize::MAX {
                break;
            }
            let c = match b.get(j) {
                Some(&c) => c,
                None => break,
            };
            if self.document_marker(line)
                || c == b'#'
                || (flow && is_flow_indicator(c))
                || (c == b':' && {
                    let n = b.get(j + 1);
                    ends_token(n, flow)
                })
            {
                break;
            }
            if odd_seen {
                // go-yaml keeps it in the text, where YAML 1.2 reads text.
                return Err(self.err(i, ODD_BREAK_IN_TEXT));
            }
            self.dashes_in_scalar(line);
            multiline = true;
            self.line_start = line;
            i = j;
        }
        // Resume at the scalar's end: what follows is rescanned.
        self.pos = end;
        match lenient_at {
            // Warned of only if the scalar goes on on that line.
            Some(at) if at < end => self.push(at, Tok::Lenient(LENIENT_FLOW_INDENT)),
            Some(_) => self.flow_lenient = false,
            None => {}
        }
        if multiline {
            // line_start must be that of the line holding `end`.
            let mut ls = end;
            while ls > 0 && !matches!(b[ls - 1], b'\n' | b'\r') {
                ls -= 1;
            }
            self.line_start = ls;
        }
        Ok((end, multiline))
    }

    /// A block scalar whose header starts at `at`, and its header comment.
    #[allow(clippy::type_complexity)]
    pub(super) fn block_scalar(
        &mut self,
        at: usize,
        literal: bool,
    ) -> Result<(Scalar<'a>, Option<(usize, &'a str)>), Fault> {
        let b = self.bytes();
        let mut i = at + 1;
        let mut chomp = None;
        let mut explicit = None;
        for _ in 0..2 {
            match b.get(i) {
                Some(b'+') | Some(b'-') if chomp.is_none() => {
                    chomp = Some(if b[i] == b'+' {
                        Chomp::Keep
                    } else {
                        Chomp::Strip
                    });
                    i += 1;
                }
                Some(&d @ b'1'..=b'9') if explicit.is_none() => {
                    explicit = Some(usize::from(d - b'0'));
                    i += 1;
                }
                Some(b'0') => return Err(self.err(i, "an indentation indicator from 1 to 9")),
                _ => break,
            }
        }
        let chomp = chomp.unwrap_or(Chomp::Clip);
        let mut lenient_empty = None;
        let header_end = i;
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        let mut comment = None;
        if b.get(i) == Some(&b'#') {
            if i == header_end {
                self.push(i, Tok::Lenient(LENIENT_COMMENT));
            }
            let end = self.comment_end(i)?;
            comment = Some((i, self.slice(i + 1, end)));
            // At the CR or LF that ends it, or the input's end.
            i = end;
        }
        // Past the header's line break (any go-yaml reads).
        let header_break = self.line_break_len(i);
        if header_break > 0 {
            self.odd_line_break(i, header_break);
        } else if i < b.len() {
            return Err(self.err(i, "a comment or line break after the block scalar header"));
        }
        let body = i + header_break;
        let parent = self.indent();
        let min_indent = (parent + 1).max(0) as usize;
        let indent = match explicit {
            Some(m) => (parent + m as i64).max(0) as usize,
            None => {
                // The first non-empty line sets it.
                let mut j = body;
                let mut max_empty = 0;
                let mut detected;
                loop {
                    let line = j;
                    while b.get(j) == Some(&b' ') {
                        j += 1;
                    }
                    let sp = j - line;
                    let line_break = self.line_break_len(j);
                    match b.get(j) {
                        Some(_) if line_break > 0 => {
                            max_empty = max_empty.max(sp);
                            j += line_break;
                        }
                        None => {
                            // No content: the empty lines set it.
                            detected = max_empty.max(sp).max(min_indent);
                            break;
                        }
                        _ => {
                            detected = sp.max(min_indent);
                            if sp >= min_indent && max_empty > sp {
                                // go-yaml: the empty lines set the
                                // indentation, and this line ends the scalar.
                                lenient_empty = Some(line);
                                detected = max_empty;
                            }
                            break;
                        }
                    }
                }
                detected
            }
        };
        if let Some(line) = lenient_empty {
            self.push(line, Tok::Lenient(LENIENT_BLOCK_EMPTY_LINES));
        }
        // The body: lines indented by `indent`, and empty lines.
        let odd_breaks = self.odd_break < b.len();
        let mut j = body;
        let mut content_end = body;
        let mut last_end = body;
        // Whether the last line read ends in a line break (the header's, if
        // the input ends there).
        let mut last_broken = header_break > 0;
        while j < b.len() {
            let line = j;
            let mut sp = 0;
            while sp < indent && b.get(j) == Some(&b' ') {
                j += 1;
                sp += 1;
            }
            let (text_end, next, brk) = block_line(b, j, odd_breaks);
            if j < text_end && sp < indent {
                if b[j] == b'\t' {
                    return Err(self.err(j, "indentation by spaces, not tabs"));
                }
                // Less indented content ends the scalar.
                break;
            }
            if indent == 0 {
                // Only there can a line of the scalar start at column 0.
                if self.document_marker(line) {
                    break;
                }
                self.dashes_in_scalar(line);
            }
            if j < text_end {
                content_end = next;
            }
            if next > text_end && b[text_end] != b'\n' {
                self.odd_line_break(text_end, next - text_end);
            }
            last_end = next;
            last_broken = brk.is_some();
            j = next;
        }
        let end = if chomp == Chomp::Keep {
            last_end
        } else {
            content_end
        };
        let end = if content_end == body && chomp != Chomp::Keep {
            body
        } else {
            end
        };
        self.pos = end;
        self.line_start = end;
        // The scanner resumes at a line's start (or the input's end).
        if end > 0 && end == b.len() && !last_broken {
            let mut ls = end;
            while ls > 0 && !matches!(b[ls - 1], b'\n' | b'\r') {
                ls -= 1;
            }
            self.line_start = ls;
            self.line_has_content = true;
        } else {
            self.line_has_content = false;
            self.key_allowed = true;
        }
        Ok((
            Scalar::block(self.slice(body, end), literal, indent, chomp, odd_breaks),
            comment,
        ))
    }
}
