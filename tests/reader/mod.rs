//! A test-only reader for the flow-style YAML that kyaml writes, into
//! `serde_json::Value`, so tests can round-trip without a YAML dependency.
//!
//! It follows the YAML 1.2.2 spec rather than our encoder's habits, so that
//! it can catch the encoder's mistakes: double-quoted scalars take every
//! escape of §5.7 and fold lines as §7.3.1 says (an escaped line break joins
//! lines, an unescaped one folds to a space or to its empty lines' line
//! feeds, leading and trailing white space of inner lines is dropped); plain
//! scalars resolve through the YAML 1.2 core schema; and a plain key that
//! resolves to anything but a string, or that YAML 1.1 reads as a boolean,
//! is an error, because kyaml must quote it.

use serde_json::{Map, Number, Value};

type Result<T> = std::result::Result<T, String>;

/// Reads a document stream (`---` headers) into its documents.
pub fn read_stream(text: &str) -> Result<Vec<Value>> {
    let mut docs = Vec::new();
    let mut r = Reader {
        s: text.as_bytes(),
        text,
        i: 0,
    };
    loop {
        r.skip_space();
        if r.i == r.s.len() {
            return Ok(docs);
        }
        if !(r.at_line_start()
            && r.s[r.i..].starts_with(b"---")
            && matches!(r.s.get(r.i + 3), None | Some(b'\n' | b' ')))
        {
            return Err(r.error("a `---` document header"));
        }
        r.i += 3;
        docs.push(r.value()?);
    }
}

/// Reads one value with nothing around it (kyaml's value form).
pub fn read_value(text: &str) -> Result<Value> {
    let mut r = Reader {
        s: text.as_bytes(),
        text,
        i: 0,
    };
    let value = r.value()?;
    r.skip_space();
    if r.i != r.s.len() {
        return Err(r.error("the end of the value"));
    }
    Ok(value)
}

struct Reader<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
}

impl Reader<'_> {
    fn error(&self, expected: &str) -> String {
        let context: String = self.text[self.i.min(self.text.len())..]
            .chars()
            .take(30)
            .collect();
        format!("expected {expected} at byte {}: {context:?}", self.i)
    }

    fn at_line_start(&self) -> bool {
        self.i == 0 || self.s[self.i - 1] == b'\n'
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    /// Skips white space, line breaks and comments.
    fn skip_space(&mut self) {
        while let Some(b) = self.peek() {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => self.i += 1,
                b'#' if self.i == 0 || matches!(self.s[self.i - 1], b' ' | b'\t' | b'\n') => {
                    while self.peek().is_some_and(|b| b != b'\n') {
                        self.i += 1;
                    }
                }
                _ => break,
            }
        }
    }

    fn value(&mut self) -> Result<Value> {
        self.skip_space();
        match self.peek() {
            Some(b'{') => self.map(),
            Some(b'[') => self.list(),
            Some(b'"') => self.quoted().map(Value::String),
            Some(_) => {
                let plain = self.plain()?;
                match resolve(&plain) {
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
            self.skip_space();
            if self.peek() == Some(b'}') {
                self.i += 1;
                return Ok(Value::Object(map));
            }
            let key = match self.peek() {
                Some(b'"') => self.quoted()?,
                _ => {
                    let plain = self.plain()?;
                    check_plain_key(&plain)?;
                    plain
                }
            };
            if self.peek() != Some(b':') {
                return Err(self.error("`:` after a key"));
            }
            self.i += 1;
            let value = self.value()?;
            if map.insert(key.clone(), value).is_some() {
                return Err(format!("duplicate key {key:?}"));
            }
            self.skip_space();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {}
                _ => return Err(self.error("`,` or `}`")),
            }
        }
    }

    fn list(&mut self) -> Result<Value> {
        self.i += 1;
        let mut items = Vec::new();
        loop {
            self.skip_space();
            if self.peek() == Some(b']') {
                self.i += 1;
                return Ok(Value::Array(items));
            }
            items.push(self.value()?);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {}
                _ => return Err(self.error("`,` or `]`")),
            }
        }
    }

    /// A plain scalar in flow context: up to `,`, `]`, `}`, `: `, ` #` or a
    /// line break (kyaml never continues one over lines).
    fn plain(&mut self) -> Result<String> {
        let start = self.i;
        while let Some(b) = self.peek() {
            let next = self.s.get(self.i + 1).copied();
            let ends = match b {
                b',' | b'[' | b']' | b'{' | b'}' | b'\n' | b'\r' => true,
                b':' => matches!(next, None | Some(b' ' | b'\t' | b'\n' | b',' | b']' | b'}')),
                b'#' => self.i > start && self.s[self.i - 1] == b' ',
                _ => false,
            };
            if ends {
                break;
            }
            self.i += 1;
        }
        let plain = self.text[start..self.i].trim_end_matches([' ', '\t']);
        if plain.is_empty() {
            return Err(self.error("a plain scalar"));
        }
        if matches!(plain.as_bytes()[0], b'-' | b'?' | b':') && plain.len() == 1
            || plain.starts_with(['&', '*', '!', '|', '>', '\'', '%', '@', '`'])
        {
            return Err(format!("plain scalar {plain:?} starts with an indicator"));
        }
        Ok(plain.to_owned())
    }

    /// A double-quoted scalar, folded and unescaped (YAML 1.2.2 §7.3.1).
    fn quoted(&mut self) -> Result<String> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let Some(b) = self.peek() else {
                return Err(self.error("a closing `\"`"));
            };
            match b {
                b'"' => {
                    self.i += 1;
                    return Ok(out);
                }
                b'\\' => self.escape(&mut out)?,
                b'\n' | b'\r' => self.fold(&mut out),
                _ => {
                    let c = self.text[self.i..].chars().next().unwrap();
                    if c != '\t' && (c as u32) < 0x20 {
                        return Err(format!(
                            "unescaped control character {c:?} in a quoted scalar"
                        ));
                    }
                    out.push(c);
                    self.i += c.len_utf8();
                }
            }
        }
    }

    /// An unescaped line break: trailing white space of the line is
    /// dropped; the break becomes a space, or one `\n` per empty line after
    /// it; leading white space of the next line is dropped.
    fn fold(&mut self, out: &mut String) {
        while out.ends_with([' ', '\t']) {
            out.pop();
        }
        let mut empty_lines = 0;
        self.skip_break();
        loop {
            while matches!(self.peek(), Some(b' ' | b'\t')) {
                self.i += 1;
            }
            if matches!(self.peek(), Some(b'\n' | b'\r')) {
                self.skip_break();
                empty_lines += 1;
            } else {
                break;
            }
        }
        if empty_lines == 0 {
            out.push(' ');
        }
        out.extend(std::iter::repeat_n('\n', empty_lines));
    }

    fn skip_break(&mut self) {
        if self.peek() == Some(b'\r') {
            self.i += 1;
        }
        if self.peek() == Some(b'\n') {
            self.i += 1;
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<()> {
        let code = self
            .s
            .get(self.i + 1)
            .copied()
            .ok_or_else(|| self.error("an escape"))?;
        self.i += 2;
        let c = match code {
            b'0' => '\0',
            b'a' => '\u{7}',
            b'b' => '\u{8}',
            b't' | b'\t' => '\t',
            b'n' => '\n',
            b'v' => '\u{b}',
            b'f' => '\u{c}',
            b'r' => '\r',
            b'e' => '\u{1b}',
            b' ' => ' ',
            b'"' => '"',
            b'/' => '/',
            b'\\' => '\\',
            b'N' => '\u{85}',
            b'_' => '\u{a0}',
            b'L' => '\u{2028}',
            b'P' => '\u{2029}',
            b'x' => self.hex(2)?,
            b'u' => self.hex(4)?,
            b'U' => self.hex(8)?,
            b'\n' | b'\r' => {
                // An escaped line break: nothing, and the next line's
                // leading white space is dropped.
                self.i -= 1;
                self.skip_break();
                while matches!(self.peek(), Some(b' ' | b'\t')) {
                    self.i += 1;
                }
                return Ok(());
            }
            other => return Err(format!("unknown escape \\{}", other as char)),
        };
        out.push(c);
        Ok(())
    }

    fn hex(&mut self, digits: usize) -> Result<char> {
        let text = self
            .text
            .get(self.i..self.i + digits)
            .ok_or_else(|| self.error("hex digits"))?;
        let code =
            u32::from_str_radix(text, 16).map_err(|e| format!("bad hex escape {text:?}: {e}"))?;
        self.i += digits;
        char::from_u32(code).ok_or_else(|| format!("escape {code:#x} is not a character"))
    }
}

/// What a plain scalar is under the YAML 1.2 core schema.
enum Resolved {
    String,
    Json(Value),
    /// An infinity, a NaN, a hex or octal int: not JSON data.
    NotJson,
}

fn resolve(s: &str) -> Resolved {
    match s {
        "null" | "Null" | "NULL" | "~" => return Resolved::Json(Value::Null),
        "true" | "True" | "TRUE" => return Resolved::Json(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Resolved::Json(Value::Bool(false)),
        _ => {}
    }
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if !body.is_empty() && digits(body) {
        return Resolved::Json(match s.trim_start_matches('+').parse::<i64>() {
            Ok(i) => Value::from(i),
            Err(_) => s
                .parse::<u64>()
                .map(Value::from)
                .unwrap_or_else(|_| float(s)),
        });
    }
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
    if mantissa_ok && exponent_ok {
        return Resolved::Json(float(s));
    }
    let hex = s
        .strip_prefix("0x")
        .is_some_and(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()));
    let octal = s
        .strip_prefix("0o")
        .is_some_and(|o| !o.is_empty() && o.bytes().all(|b| (b'0'..=b'7').contains(&b)));
    let special = [".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN"].contains(&body);
    if hex || octal || special {
        Resolved::NotJson
    } else {
        Resolved::String
    }
}

/// A float as serde_json holds it; past float64's range, `null` (which
/// differs from any number the tests compare it with).
fn float(s: &str) -> Value {
    s.parse()
        .ok()
        .and_then(Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

/// A plain key must read as a string in YAML 1.2 and in YAML 1.1.
fn check_plain_key(key: &str) -> Result<()> {
    if !matches!(resolve(key), Resolved::String) {
        return Err(format!("plain key {key:?} does not read as a string"));
    }
    const YAML11_BOOL: [&str; 8] = ["y", "yes", "n", "no", "on", "off", "true", "false"];
    if YAML11_BOOL.iter().any(|w| w.eq_ignore_ascii_case(key)) {
        return Err(format!("plain key {key:?} is a YAML 1.1 boolean"));
    }
    Ok(())
}
