//! The scanner's directives and tags: a `%YAML`, `%TAG` or reserved
//! directive line, checked to its end and queued as its token (with the
//! [`Tok::Refused`] kubectl's reading adds), and a node's tag property
//! (`!`, `!!`, `!name!` or verbatim `!<...>`) split into handle and suffix,
//! its `%` escapes checked. Moved out of `scanner.rs` as they were; the
//! parser resolves the handles (`parser.rs`).

use super::state::Scanner;
use crate::error::Fault;
use crate::scan::yaml::chars::{ends_token, is_flow_indicator, is_uri_char};
use crate::scan::yaml::token::{Tok, REFUSED_DIRECTIVE};

impl<'a> Scanner<'a> {
    /// `%YAML` / `%TAG` / another directive, at a line's start.
    pub(super) fn directive(&mut self) -> Result<(), Fault> {
        let b = self.bytes();
        let at = self.pos;
        let name_end = {
            let mut i = at + 1;
            while b
                .get(i)
                .is_some_and(|&c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
            {
                i += 1;
            }
            i
        };
        let name = &b[at + 1..name_end];
        let words = |from: usize| {
            let mut i = from;
            while matches!(b.get(i), Some(b' ' | b'\t')) {
                i += 1;
            }
            let s = i;
            while b
                .get(i)
                .is_some_and(|&c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
            {
                i += 1;
            }
            (s, i)
        };
        let tok;
        let mut end;
        match name {
            b"YAML" => {
                let (s, e) = words(name_end);
                let v = &b[s..e];
                let ok = s > name_end
                    && matches!(v.iter().position(|&c| c == b'.'), Some(d) if d > 0 && d + 1 < v.len()
                        && v.iter().enumerate().all(|(k, c)| k == d || c.is_ascii_digit()));
                if !ok {
                    return Err(self.err(s, "a version number (%YAML 1.2)"));
                }
                tok = Tok::Version;
                end = e;
            }
            b"TAG" => {
                let (hs, he) = words(name_end);
                let (ps, pe) = words(he);
                let handle = &b[hs..he];
                let handle_ok = hs > name_end
                    && handle.first() == Some(&b'!')
                    && handle.last() == Some(&b'!')
                    && handle[1..]
                        .iter()
                        .rev()
                        .skip(1)
                        .all(|&c| c.is_ascii_alphanumeric() || c == b'-');
                if !handle_ok {
                    return Err(self.err(hs, "a tag handle (!, !! or !name!)"));
                }
                if ps == he || pe == ps || is_flow_indicator(b[ps]) {
                    return Err(self.err(ps, "a tag prefix"));
                }
                tok = Tok::TagDirective {
                    handle: self.slice(hs, he),
                    prefix: self.slice(ps, pe),
                };
                end = pe;
            }
            _ => {
                tok = Tok::Reserved;
                end = name_end;
                while b
                    .get(end)
                    .is_some_and(|&c| c != b'\n' && c != b'\r' && c != b'#')
                {
                    end += 1;
                }
                while end > name_end && matches!(b[end - 1], b' ' | b'\t') {
                    end -= 1;
                }
            }
        }
        // Only a comment may follow.
        let mut i = end;
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        match b.get(i) {
            None | Some(b'\n' | b'\r') => {}
            Some(b'#') if i > end => {}
            _ => return Err(self.err(i, "the end of the directive")),
        }
        self.pos = end;
        self.line_has_content = true;
        // After `...` (no `---` line since), kubectl drops a `%YAML`
        // unread; a `%TAG` it drops too, so its documents read otherwise.
        if !(self.after_end && tok == Tok::Version) {
            self.push(at, Tok::Refused(REFUSED_DIRECTIVE));
        }
        self.push(at, tok);
        Ok(())
    }

    /// A tag at `at` (`!`): its handle, suffix and end.
    pub(super) fn tag(&self, at: usize) -> Result<(&'a str, &'a str, usize), Fault> {
        let b = self.bytes();
        let flow = self.flow_level > 0;
        if b.get(at + 1) == Some(&b'<') {
            let s = at + 2;
            let mut i = s;
            while b
                .get(i)
                .is_some_and(|&c| is_uri_char(c) || c == b'!' || is_flow_indicator(c))
            {
                i += 1;
            }
            if b.get(i) != Some(&b'>') || i == s {
                return Err(self.err(i, "'>' closing a verbatim tag"));
            }
            self.check_percent(s, i)?;
            let end = i + 1;
            if !ends_token(b.get(end), flow) {
                return Err(self.err(end, "white space after a tag"));
            }
            return Ok(("", self.slice(s, i), end));
        }
        // `!`, `!!` or `!word!`, then the suffix.
        let mut i = at + 1;
        while b
            .get(i)
            .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'-')
        {
            i += 1;
        }
        let (handle_end, suffix_start) = if b.get(i) == Some(&b'!') {
            (i + 1, i + 1)
        } else {
            (at + 1, at + 1)
        };
        let mut j = suffix_start;
        // go-yaml takes `,` into a tag in block context too (`!!str,`).
        while b
            .get(j)
            .is_some_and(|&c| is_uri_char(c) || (c == b',' && !flow))
        {
            j += 1;
        }
        self.check_percent(suffix_start, j)?;
        if !ends_token(b.get(j), flow) {
            return Err(self.err(j, "white space after a tag"));
        }
        if j == suffix_start && handle_end > at + 1 && handle_end - at > 2 {
            return Err(self.err(j, "a tag name after the handle"));
        }
        Ok((self.slice(at, handle_end), self.slice(suffix_start, j), j))
    }

    fn check_percent(&self, from: usize, to: usize) -> Result<(), Fault> {
        let b = self.bytes();
        let mut i = from;
        while i < to {
            if b[i] == b'%' {
                if !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                    && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
                {
                    return Err(self.err(i, "two hex digits after '%' in a tag"));
                }
                i += 3;
            } else {
                i += 1;
            }
        }
        Ok(())
    }
}
