//! A test-only reader for the flow-style YAML that kyaml writes, into
//! `serde_json::Value`, so tests can round-trip without a YAML dependency.
//!
//! It follows the YAML 1.2.2 spec rather than our encoder's habits, so that
//! it catches the encoder's mistakes instead of sharing them:
//! - double-quoted scalars (§7.3.1) take every escape of §5.7 and fold
//!   lines as the spec says: an escaped line break joins the lines (white
//!   space before its `\` is content), an unescaped one drops the literal
//!   white space before it and becomes a space, or one line feed per empty
//!   line after it; the next line's leading white space is dropped;
//! - plain scalars (§7.3.3) follow the flow-context character rules and
//!   resolve through the YAML 1.2 core schema (§10.3.2);
//! - only printable characters (§5.1) may appear literally, and a document
//!   marker (`---`, `...`) may not start a line inside a document (§9.1.4).
//!
//! It is stricter than YAML where kyaml promises more than YAML requires:
//! a plain scalar that resolves to a string is refused (kyaml quotes every
//! string), so is a plain key that YAML 1.1 reads as a boolean, and so are
//! literal U+0085, U+2028 and U+2029, which YAML 1.1 readers take for line
//! breaks. Plain scalars that continue over lines are refused too: kyaml
//! writes none, and reading them would only hide such a change.

use serde_json::{Map, Number, Value};

pub type Result<T> = std::result::Result<T, String>;

/// Reads a document stream (every document starts with a `---` line).
pub fn read_stream(text: &str) -> Result<Vec<Value>> {
    let mut r = Reader { text, i: 0 };
    let mut docs = Vec::new();
    loop {
        r.skip_space();
        if r.i == text.len() {
            return Ok(docs);
        }
        if !r.at_marker("---") {
            return Err(r.error("a `---` document header"));
        }
        r.i += 3;
        r.skip_space();
        // A document without a node (empty, or only comments) is null.
        match r.i == text.len() || r.at_marker("---") {
            true => docs.push(Value::Null),
            false => docs.push(r.value()?),
        }
    }
}

/// Reads one value with nothing else around it (kyaml's value form).
pub fn read_value(text: &str) -> Result<Value> {
    let mut r = Reader { text, i: 0 };
    let value = r.value()?;
    r.skip_space();
    if r.i != text.len() {
        return Err(r.error("the end of the value"));
    }
    Ok(value)
}

/// The longest implicit key libyaml (serde_yaml) accepts, in bytes.
const IMPLICIT_KEY_MAX: usize = 1024;

const FLOW_INDICATORS: &[char] = &[',', '[', ']', '{', '}'];
const INDICATORS: &[char] = &[
    '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`',
];

struct Reader<'a> {
    text: &'a str,
    i: usize,
}

impl Reader<'_> {
    fn error(&self, expected: &str) -> String {
        let context: String = self.rest().chars().take(30).collect();
        format!("expected {expected} at byte {}: {context:?}", self.i)
    }

    fn rest(&self) -> &str {
        &self.text[self.i..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn peek_second(&self) -> Option<char> {
        self.rest().chars().nth(1)
    }

    fn bump(&mut self, c: char) {
        self.i += c.len_utf8();
    }

    fn at_line_start(&self) -> bool {
        self.i == 0 || self.text.as_bytes()[self.i - 1] == b'\n'
    }

    /// At a document marker: `marker` at the start of a line, then white
    /// space, a line break or the end.
    fn at_marker(&self, marker: &str) -> bool {
        self.at_line_start()
            && self.rest().starts_with(marker)
            && matches!(
                self.rest()[3..].chars().next(),
                None | Some(' ' | '\t' | '\n' | '\r')
            )
    }

    /// Refuses a document marker here: inside a document it would end it.
    fn no_marker(&self) -> Result<()> {
        if self.at_marker("---") || self.at_marker("...") {
            return Err(self.error("no document marker inside a document"));
        }
        Ok(())
    }

    fn skip_white(&mut self) {
        while let Some(c @ (' ' | '\t')) = self.peek() {
            self.bump(c);
        }
    }

    /// Skips a line break (CR LF, CR or LF) if there is one.
    fn skip_break(&mut self) -> bool {
        let start = self.i;
        if self.peek() == Some('\r') {
            self.i += 1;
        }
        if self.peek() == Some('\n') {
            self.i += 1;
        }
        self.i > start
    }

    /// Skips white space, line breaks and comments (a `#` after white space).
    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            match c {
                ' ' | '\t' | '\n' | '\r' => self.bump(c),
                '#' if self.i == 0 || self.text[..self.i].ends_with([' ', '\t', '\n', '\r']) => {
                    let line_end = self.rest().find(['\n', '\r']).unwrap_or(self.rest().len());
                    self.i += line_end;
                }
                _ => break,
            }
        }
    }

    /// Skips separation space inside a document.
    fn separate(&mut self) -> Result<()> {
        self.skip_space();
        self.no_marker()
    }

    fn value(&mut self) -> Result<Value> {
        self.separate()?;
        match self.peek() {
            Some('{') => self.map(),
            Some('[') => self.list(),
            Some('"') => self.quoted().map(Value::String),
            Some(_) => {
                let plain = self.plain()?;
                match resolve(&plain)? {
                    Resolved::Json(value) => Ok(value),
                    Resolved::String => Err(format!(
                        "plain scalar {plain:?} is a string: kyaml quotes those"
                    )),
                    Resolved::NotJson => Err(format!("plain scalar {plain:?} is no JSON value")),
                }
            }
            None => Err(self.error("a value")),
        }
    }

    fn map(&mut self) -> Result<Value> {
        self.i += 1;
        let mut map = Map::new();
        loop {
            self.separate()?;
            if self.peek() == Some('}') {
                self.i += 1;
                return Ok(Value::Object(map));
            }
            let key = self.key()?;
            self.separate()?;
            if self.peek() != Some(':') {
                return Err(self.error("`:` after a key"));
            }
            self.i += 1;
            let value = self.value()?;
            if map.insert(key.clone(), value).is_some() {
                return Err(format!("duplicate key {key:?}"));
            }
            self.separate()?;
            match self.peek() {
                Some(',') => self.i += 1,
                Some('}') => {}
                _ => return Err(self.error("`,` or `}`")),
            }
        }
    }

    /// An implicit key of at most 1,024 bytes (YAML 1.2.2 §7.4.2), or an
    /// explicit `? key` of any length.
    fn key(&mut self) -> Result<String> {
        let explicit = self.peek() == Some('?') && matches!(self.peek_second(), Some(' ' | '\t'));
        if explicit {
            self.i += 1;
            self.separate()?;
        }
        let start = self.i;
        let key = if self.peek() == Some('"') {
            self.quoted()?
        } else {
            let plain = self.plain()?;
            check_plain_key(&plain)?;
            plain
        };
        if !explicit && self.i - start > IMPLICIT_KEY_MAX {
            return Err(self.error("an implicit key of at most 1,024 bytes"));
        }
        Ok(key)
    }

    fn list(&mut self) -> Result<Value> {
        self.i += 1;
        let mut items = Vec::new();
        loop {
            self.separate()?;
            if self.peek() == Some(']') {
                self.i += 1;
                return Ok(Value::Array(items));
            }
            items.push(self.value()?);
            self.separate()?;
            match self.peek() {
                Some(',') => self.i += 1,
                Some(']') => {}
                _ => return Err(self.error("`,` or `]`")),
            }
        }
    }

    /// A one-line plain scalar in flow context (ns-plain-one-line(flow-in)).
    fn plain(&mut self) -> Result<String> {
        let start = self.i;
        let first = self.peek().ok_or_else(|| self.error("a value"))?;
        let first_ok = if matches!(first, '-' | '?' | ':') {
            self.peek_second().is_some_and(plain_safe)
        } else {
            ns_char(first) && !INDICATORS.contains(&first)
        };
        if !first_ok {
            return Err(self.error("a plain scalar"));
        }
        self.bump(first);
        let mut end = self.i;
        loop {
            self.skip_white();
            let Some(c) = self.peek() else { break };
            let ok = match c {
                ':' => self.peek_second().is_some_and(plain_safe),
                // `#` after white space starts a comment.
                '#' => self.i == end,
                _ => plain_safe(c),
            };
            if !ok {
                break;
            }
            self.bump(c);
            end = self.i;
        }
        self.i = end;
        Ok(self.text[start..end].to_owned())
    }

    /// A double-quoted scalar, unescaped and folded (YAML 1.2.2 §7.3.1).
    fn quoted(&mut self) -> Result<String> {
        self.i += 1;
        let mut out = String::new();
        // Where the literal white space at the end of `out` starts: an
        // unescaped line break drops it, escaped white space stays.
        let mut white_from = None;
        loop {
            let c = self.peek().ok_or_else(|| self.error("a closing `\"`"))?;
            match c {
                '"' => {
                    self.i += 1;
                    return Ok(out);
                }
                '\\' => {
                    self.escape(&mut out)?;
                    white_from = None;
                }
                '\n' | '\r' => {
                    out.truncate(white_from.take().unwrap_or(out.len()));
                    self.fold(&mut out)?;
                }
                ' ' | '\t' => {
                    white_from.get_or_insert(out.len());
                    out.push(c);
                    self.bump(c);
                }
                _ => {
                    check_literal(c)?;
                    out.push(c);
                    self.bump(c);
                    white_from = None;
                }
            }
        }
    }

    /// After a line break inside a quoted scalar: counts the empty (white
    /// space only) lines that follow and skips the next line's leading
    /// white space (l-empty* s-flow-line-prefix).
    fn empty_lines(&mut self) -> Result<usize> {
        let mut count = 0;
        loop {
            self.no_marker()?;
            self.skip_white();
            if !self.skip_break() {
                return Ok(count);
            }
            count += 1;
        }
    }

    /// An unescaped line break (s-flow-folded): a space, or a line feed for
    /// each empty line after it.
    fn fold(&mut self, out: &mut String) -> Result<()> {
        self.skip_break();
        match self.empty_lines()? {
            0 => out.push(' '),
            n => out.extend(std::iter::repeat_n('\n', n)),
        }
        Ok(())
    }

    /// An escape sequence (§5.7), the `\` at `self.i`.
    fn escape(&mut self, out: &mut String) -> Result<()> {
        self.i += 1;
        let code = self.peek().ok_or_else(|| self.error("an escape"))?;
        if matches!(code, '\n' | '\r') {
            // s-double-escaped: the break is dropped, but not the empty
            // lines after it.
            self.skip_break();
            let n = self.empty_lines()?;
            out.extend(std::iter::repeat_n('\n', n));
            return Ok(());
        }
        self.bump(code);
        let c = match code {
            '0' => '\0',
            'a' => '\u{7}',
            'b' => '\u{8}',
            't' | '\t' => '\t',
            'n' => '\n',
            'v' => '\u{b}',
            'f' => '\u{c}',
            'r' => '\r',
            'e' => '\u{1b}',
            ' ' => ' ',
            '"' => '"',
            '/' => '/',
            '\\' => '\\',
            'N' => '\u{85}',
            '_' => '\u{a0}',
            'L' => '\u{2028}',
            'P' => '\u{2029}',
            'x' => self.hex(2)?,
            'u' => self.hex(4)?,
            'U' => self.hex(8)?,
            other => return Err(format!("unknown escape \\{other}")),
        };
        out.push(c);
        Ok(())
    }

    fn hex(&mut self, digits: usize) -> Result<char> {
        let text = self
            .rest()
            .get(..digits)
            .filter(|t| t.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.error(&format!("{digits} hex digits")))?;
        let code = u32::from_str_radix(text, 16).unwrap();
        self.i += digits;
        char::from_u32(code).ok_or_else(|| format!("escape {code:#x} is not a character"))
    }
}

/// c-printable, minus the line breaks (§5.1, §5.4).
fn printable(c: char) -> bool {
    matches!(c, '\t' | ' '..='~' | '\u{85}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}')
        || c >= '\u{10000}'
}

/// ns-char: printable, not white space, not a byte order mark.
fn ns_char(c: char) -> bool {
    printable(c) && !matches!(c, ' ' | '\t' | '\u{feff}')
}

/// ns-plain-safe(flow-in).
fn plain_safe(c: char) -> bool {
    ns_char(c) && !FLOW_INDICATORS.contains(&c)
}

/// A character written as itself inside quotes must be printable, and not
/// one that YAML 1.1 reads as a line break.
fn check_literal(c: char) -> Result<()> {
    if !printable(c) {
        return Err(format!("unprintable {c:?} written literally"));
    }
    if matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}') {
        return Err(format!("{c:?} written literally: a line break to YAML 1.1"));
    }
    Ok(())
}

/// What a plain scalar is under the YAML 1.2 core schema.
enum Resolved {
    String,
    Json(Value),
    /// An infinity, a NaN, a hex or octal int: not JSON data.
    NotJson,
}

fn resolve(s: &str) -> Result<Resolved> {
    let json = |v| Ok(Resolved::Json(v));
    match s {
        "null" | "Null" | "NULL" | "~" => return json(Value::Null),
        "true" | "True" | "TRUE" => return json(Value::Bool(true)),
        "false" | "False" | "FALSE" => return json(Value::Bool(false)),
        _ => {}
    }
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if !body.is_empty() && digits(body) {
        return integer(s).map(Resolved::Json);
    }
    if is_core_float(body) {
        return float(s).map(Resolved::Json);
    }
    let radix = |prefix, ok: fn(u8) -> bool| {
        s.strip_prefix(prefix)
            .is_some_and(|d: &str| !d.is_empty() && d.bytes().all(ok))
    };
    let hex = radix("0x", |b| b.is_ascii_hexdigit());
    let octal = radix("0o", |b| (b'0'..=b'7').contains(&b));
    let special = [".inf", ".Inf", ".INF"].contains(&body) || [".nan", ".NaN", ".NAN"].contains(&s);
    Ok(if hex || octal || special {
        Resolved::NotJson
    } else {
        Resolved::String
    })
}

/// The core schema float, without its sign:
/// `(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
fn is_core_float(body: &str) -> bool {
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(e) => (&body[..e], Some(&body[e + 1..])),
        None => (body, None),
    };
    let (int, frac) = mantissa
        .split_once('.')
        .map_or((mantissa, None), |(a, b)| (a, Some(b)));
    let mantissa_ok = digits(int)
        && frac.is_none_or(digits)
        && !(int.is_empty() && frac.is_none_or(str::is_empty));
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    mantissa_ok && exponent_ok
}

/// A core-schema int: i64 or u64 when it fits, else the nearest float.
fn integer(s: &str) -> Result<Value> {
    let unsigned = s.strip_prefix('+').unwrap_or(s);
    if let Ok(i) = unsigned.parse::<i64>() {
        return Ok(Value::from(i));
    }
    if let Ok(u) = unsigned.parse::<u64>() {
        return Ok(Value::from(u));
    }
    float(s)
}

/// A float, correctly rounded. serde_json cannot hold an infinity, so a
/// float past float64's range is an error (tests keep their numbers in range).
fn float(s: &str) -> Result<Value> {
    let f: f64 = s.parse().map_err(|e| format!("float {s:?}: {e}"))?;
    Number::from_f64(f)
        .map(Value::Number)
        .ok_or_else(|| format!("float {s:?} is outside float64's range"))
}

/// A plain key must read as a string in YAML 1.2 and in YAML 1.1.
fn check_plain_key(key: &str) -> Result<()> {
    if !matches!(resolve(key)?, Resolved::String) {
        return Err(format!("plain key {key:?} does not read as a string"));
    }
    const YAML11_BOOL: [&str; 8] = ["y", "yes", "n", "no", "on", "off", "true", "false"];
    if YAML11_BOOL.iter().any(|w| w.eq_ignore_ascii_case(key)) {
        return Err(format!("plain key {key:?} is a YAML 1.1 boolean"));
    }
    Ok(())
}
