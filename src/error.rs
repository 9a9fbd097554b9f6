//! The one error type: where the input went wrong, and how; and beside it
//! [`Warning`], what YAML input holds that reads otherwise elsewhere. Owns
//! turning a byte offset into a line and a column (`line_at`, the one
//! place, which the CLI reaches through [`Error::line_in`]); the passes
//! report a small [`Fault`] (or, the YAML loader, an offset and a message
//! for a warning) and never count lines themselves.

use core::fmt;

/// What went wrong. Match on it; the list may grow, so it is `#[non_exhaustive]`.
///
/// ```
/// let err = kyaml::to_string("[1,]").unwrap_err();
/// assert_eq!(err.kind(), kyaml::ErrorKind::Syntax);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is not JSON: an unexpected byte or the end of input where
    /// something else was expected ([`Error::expected`] says what).
    Syntax,
    /// The input is not UTF-8.
    InvalidUtf8,
    /// A `\u` escape names half of a UTF-16 surrogate pair without the other
    /// half. YAML strings are Unicode scalar values, so no YAML can hold it.
    LoneSurrogate,
    /// An object names the same key twice; [`Error::first_offset`] and
    /// [`Error::first_position`] tell where the first one is.
    DuplicateKey,
    /// Containers nest deeper than [`Options::max_depth`](crate::Options::max_depth).
    TooDeep,
    /// Value form was asked for, but the input holds more than one value.
    TrailingValue,
    /// The sink refused a write (its `fmt::Write` or `io::Write` failed).
    /// The input is not at fault, so such an error names no position in it.
    Write,
    /// YAML input that is well formed but has no JSON data kubectl would
    /// read: a null, list or map key, an integer key past int64, infinity
    /// or NaN under the `kubectl` schema, `!!binary` that is not text, an
    /// alias to an unknown anchor or to its own ancestor, a merge of
    /// something other than maps, or aliases that expand past the limit.
    /// [`Error::expected`] says which.
    Data,
    /// A number past float64's range (`1e400`, `-1e400`: at least
    /// 2<sup>1024</sup> − 2<sup>970</sup> in magnitude, what rounds to
    /// infinity; `1e-400` rounds to 0 and is read): kubectl and serde_json
    /// refuse it, and the message names it. In YAML such a plain scalar is
    /// kubectl's string; only a `.yaml` file kubectl reads as JSON (its
    /// first character `{`) refuses it.
    NumberOutOfRange,
    /// A value's own `Serialize` implementation failed (serde's
    /// `ser::Error::custom`); only the `serde` feature's entry points
    /// (`kyaml::value`) report it.
    Custom,
}

/// The maximum number of key bytes an [`Error`] carries to name a duplicate key.
const KEY_CAP: usize = 40;

/// An invalid document: the byte offset, 1-based line and column (counted in
/// characters), and what was expected there.
///
/// ```
/// let err = kyaml::to_string("{\"a\": 1,\n \"a\": 2}").unwrap_err();
/// assert_eq!(err.kind(), kyaml::ErrorKind::DuplicateKey);
/// assert_eq!((err.line(), err.column(), err.offset()), (2, 2, 10));
/// assert_eq!(err.first_position(), Some((1, 2)));
/// assert_eq!(
///     err.to_string(),
///     "duplicate key \"a\" (first at line 1, column 2) at line 2, column 2"
/// );
/// ```
///
/// `{:?}` is as short as `{}`, for `unwrap` and logs:
///
/// ```
/// let err = kyaml::to_string("{\"a\": [1,,2]}").unwrap_err();
/// assert_eq!(
///     format!("{err:?}"),
///     r#"Error(Syntax, "expected a value", line: 1, column: 10)"#
/// );
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    offset: usize,
    line: usize,
    column: usize,
    said: Said,
    /// The first offset of a duplicate key, the depth limit that was
    /// passed, or the length of a number past float64's range.
    aux: usize,
    /// The line and column of a duplicate key's first occurrence.
    first_line: usize,
    first_column: usize,
    key: [u8; KEY_CAP],
    key_len: u8,
    key_cut: bool,
    /// JSON input with a syntax error that looks like YAML: `Display` says
    /// how to read YAML.
    yaml_hint: bool,
}

/// What was expected where the error is, or (the `serde` feature's entry
/// points) the message of an error in a value, which has no position: one
/// field, so that the error stays within 120 bytes.
#[derive(Clone, PartialEq, Eq)]
enum Said {
    Expected(&'static str),
    #[cfg(feature = "serde")]
    Owned(alloc::boxed::Box<str>),
}

/// An error as the passes find it: small, so results stay cheap to move.
/// [`Fault::locate`] turns it into the public [`Error`] once, at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    kind: ErrorKind,
    offset: usize,
    /// The first offset of a duplicate key, the depth limit that was
    /// passed, the length of a number past float64's range, or for a
    /// syntax error [`Opened::encode`] (0: none).
    aux: usize,
    expected: &'static str,
}

/// What a syntax error is inside of, for its message. Only the YAML reader
/// (`alloc`) makes such errors; every build reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "alloc"), allow(dead_code))]
pub(crate) enum Opened {
    /// A quoted string.
    String,
    /// A flow collection (`[` or `{`).
    Flow,
}

impl Opened {
    /// The top bit of `aux` tells a string from a flow collection.
    const STRING: usize = 1 << (usize::BITS - 1);

    /// `aux` of a syntax error inside this, opened at byte `at`.
    #[cfg(feature = "alloc")]
    const fn encode(self, at: usize) -> usize {
        let flag = match self {
            Opened::String => Opened::STRING,
            Opened::Flow => 0,
        };
        (at + 1) & !Opened::STRING | flag
    }

    /// The offset `aux` of a syntax error names, if any.
    const fn offset(aux: usize) -> Option<usize> {
        match aux & !Opened::STRING {
            0 => None,
            n => Some(n - 1),
        }
    }

    const fn what(aux: usize) -> &'static str {
        match aux & Opened::STRING {
            0 => "flow collection",
            _ => "string",
        }
    }
}

impl Fault {
    pub(crate) const fn new(kind: ErrorKind, offset: usize, expected: &'static str) -> Fault {
        Fault {
            kind,
            offset,
            aux: 0,
            expected,
        }
    }

    pub(crate) const fn kind(&self) -> ErrorKind {
        self.kind
    }

    pub(crate) const fn offset(&self) -> usize {
        self.offset
    }

    /// A key at `offset` (where it starts) repeats the one at `first`.
    pub(crate) const fn duplicate(offset: usize, first: usize) -> Fault {
        Fault {
            aux: first,
            ..Fault::new(
                ErrorKind::DuplicateKey,
                offset,
                "a key not used before in this object",
            )
        }
    }

    /// A syntax error at `offset` inside a string or flow collection that
    /// opens at `opened`: the message names both places.
    #[cfg(feature = "alloc")]
    pub(crate) const fn inside(
        offset: usize,
        expected: &'static str,
        what: Opened,
        opened: usize,
    ) -> Fault {
        Fault {
            aux: what.encode(opened),
            ..Fault::new(ErrorKind::Syntax, offset, expected)
        }
    }

    /// The number at `offset`, `len` bytes long, is past float64's range:
    /// the message quotes it.
    pub(crate) const fn past_f64(offset: usize, len: usize) -> Fault {
        Fault {
            aux: len,
            ..Fault::new(
                ErrorKind::NumberOutOfRange,
                offset,
                "a number within float64's range",
            )
        }
    }

    /// Containers nested deeper than `limit`.
    pub(crate) const fn too_deep(offset: usize, limit: usize) -> Fault {
        Fault {
            aux: limit,
            ..Fault::new(ErrorKind::TooDeep, offset, "fewer nested containers")
        }
    }

    /// The public error, with line and column taken from the whole input
    /// the offset refers to; `key` is a duplicate key as spelled in the
    /// input (the source reads it again at the offset).
    pub(crate) fn locate(self, input: &[u8], key: Option<&str>) -> Error {
        let (line, column) = line_column(input, self.offset);
        let mut err = Error {
            kind: self.kind,
            offset: self.offset,
            line,
            column,
            said: Said::Expected(self.expected),
            aux: self.aux,
            first_line: 0,
            first_column: 0,
            key: [0; KEY_CAP],
            key_len: 0,
            key_cut: false,
            yaml_hint: false,
        };
        if let Some(key) = key.filter(|_| self.kind == ErrorKind::DuplicateKey) {
            err.set_key(key.as_bytes());
        }
        if self.kind == ErrorKind::DuplicateKey {
            (err.first_line, err.first_column) = line_column(input, self.aux);
        }
        if self.kind == ErrorKind::NumberOutOfRange {
            let end = self.offset.saturating_add(self.aux);
            err.set_key(input.get(self.offset..end).unwrap_or(&[]));
        }
        if let (ErrorKind::Syntax, Some(opened)) = (self.kind, Opened::offset(self.aux)) {
            (err.first_line, err.first_column) = line_column(input, opened);
        }
        err
    }
}

/// A warning about YAML input: where, and what (see
/// [`Options::warnings`](crate::Options::warnings)).
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Warning {
    /// The byte offset of the scalar or tag warned about.
    pub offset: usize,
    /// Its 1-based line.
    pub line: usize,
    /// Its 1-based column, in characters (as [`Error::column`]).
    pub column: usize,
    /// What is wrong, without the position.
    pub message: alloc::string::String,
    /// Which kind of warning it is, for a program that acts on it (as
    /// `kyaml fmt` leaves a file whose reading is not settled as written).
    pub kind: WarningKind,
}

/// What a [`Warning`] is about. The list may grow, so it is
/// `#[non_exhaustive]`.
///
/// ```
/// let yaml = "on: push\nb: &a [1]\nc: *a\n";
/// let opts = kyaml::Options::new().input(kyaml::Input::Yaml);
/// let kinds: Vec<_> = opts.warnings(yaml).into_iter().map(|w| w.kind).collect();
/// assert_eq!(kinds, [kyaml::WarningKind::SchemasDisagree, kyaml::WarningKind::Expanded]);
/// ```
#[cfg(feature = "alloc")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WarningKind {
    /// A plain scalar that the two schemas read differently (`on`, `yes`,
    /// `0644`, `1_000`).
    SchemasDisagree,
    /// A plain scalar both schemas read alike but YAML 1.1 readers other
    /// than kubectl (PyYAML) read otherwise than the KYAML written: a
    /// base-60 number (`1:20`), a date (`2024-01-31`), or a float that
    /// PyYAML reads as a string (`1e3`).
    Yaml11Readers,
    /// A tag that KYAML does not keep (`!Ref`, `!!python/name:x`, `!!set`
    /// on a map): the data is read as if untagged.
    TagDropped,
    /// An alias replaced by a copy of its anchored node, or a merge key
    /// (`<<`) merged: KYAML has neither, so the output spells them out.
    /// Only the first of a stream is warned of (memory stays bounded).
    Expanded,
    /// Syntax that YAML 1.2 does not allow but kubectl reads; the KYAML
    /// written is valid everywhere.
    Lenient,
}

/// A warning as the YAML loader notes it: the byte offset, the kind and
/// the message, located later ([`Warning`]).
#[cfg(feature = "alloc")]
pub(crate) type NotedWarning = (usize, WarningKind, alloc::string::String);

#[cfg(feature = "alloc")]
impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {}, column {}",
            self.message, self.line, self.column
        )
    }
}

#[cfg(feature = "alloc")]
impl Warning {
    /// The warning as it stands in a longer input, in which the text it
    /// was found in starts at byte `offset`, on `line` and `column` (as
    /// [`Error::within`]).
    #[cfg(feature = "std")]
    pub(crate) fn within(&mut self, offset: usize, line: usize, column: usize) {
        self.offset += offset;
        (self.line, self.column) = shift_line_column((self.line, self.column), line, column);
    }
}

/// A line and column in a text as they stand in a longer input in which
/// the text starts on `line` and `column`.
#[cfg(feature = "std")]
fn shift_line_column((l, c): (usize, usize), line: usize, column: usize) -> (usize, usize) {
    (l + line - 1, if l == 1 { c + column - 1 } else { c })
}

/// The line of `input` that holds byte `offset`, as a range of bytes: from
/// the byte after the line feed before it (or past a byte order mark that
/// opens the input) to its line feed or the end. The one place lines and
/// columns are found, for [`Error::column`] and [`Error::line_in`] (and a
/// stream's rejected document, which is a part of its input).
pub(crate) fn line_at(input: &[u8], offset: usize) -> core::ops::Range<usize> {
    let offset = offset.min(input.len());
    let start = input[..offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    // A byte order mark opens the input without being part of line 1.
    let bom = "\u{FEFF}".as_bytes();
    let start = match start == 0 && offset >= bom.len() && input.starts_with(bom) {
        true => bom.len(),
        false => start,
    };
    let end = input[offset..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(input.len(), |i| offset + i);
    start..end
}

/// The 1-based line and column (in characters, from the start of the
/// [`line_at`] the offset) of byte `offset` of `input`.
fn line_column(input: &[u8], offset: usize) -> (usize, usize) {
    Lines::new(input).line_column(offset)
}

/// Lines and columns of many offsets in one input, found by counting on
/// from the last offset asked for: offsets asked in increasing order cost
/// one pass over the input together, not one each (a file with a warning
/// on every line stays linear). The one counter [`line_column`] uses.
pub(crate) struct Lines<'a> {
    input: &'a [u8],
    /// The byte counted up to, and its line and column.
    offset: usize,
    line: usize,
    column: usize,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(input: &'a [u8]) -> Self {
        // A byte order mark opens the input without being part of line 1:
        // counting starts past it.
        let bom = "\u{FEFF}".as_bytes();
        Lines {
            input,
            offset: if input.starts_with(bom) { bom.len() } else { 0 },
            line: 1,
            column: 1,
        }
    }

    /// The line and column of byte `offset`, as [`line_at`] finds lines.
    pub(crate) fn line_column(&mut self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.input.len());
        if offset < self.offset {
            *self = Lines::new(self.input);
            if offset < self.offset {
                // Inside the byte order mark.
                return (1, 1);
            }
        }
        let between = &self.input[self.offset..offset];
        // Columns count characters: every byte but UTF-8 continuation bytes.
        let characters = |bytes: &[u8]| bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count();
        match between.iter().rposition(|&b| b == b'\n') {
            Some(last) => {
                self.line += 1 + between[..last].iter().filter(|&&b| b == b'\n').count();
                self.column = 1 + characters(&between[last + 1..]);
            }
            None => self.column += characters(between),
        }
        self.offset = offset;
        (self.line, self.column)
    }
}

impl Error {
    /// An error in a value (no input, so no position): its kind and message.
    #[cfg(feature = "serde")]
    pub(crate) fn in_value(kind: ErrorKind, message: alloc::boxed::Box<str>) -> Error {
        Error {
            line: 0,
            column: 0,
            said: Said::Owned(message),
            ..Fault::new(kind, 0, "").locate(&[], None)
        }
    }

    /// The error, with or without the hint that JSON input looks like
    /// YAML (`scan::looks_like_yaml`).
    pub(crate) fn with_yaml_hint(self, hint: bool) -> Error {
        Error {
            yaml_hint: hint,
            ..self
        }
    }

    /// Whether the error has a place in an input: not one in a value, nor
    /// a failed sink.
    fn has_position(&self) -> bool {
        self.line != 0 && self.kind != ErrorKind::Write
    }

    /// The line of `input` (the input this error was found in) that the
    /// error is on, without its line feed and without a byte order mark
    /// that opens the input: the text whose characters
    /// [`column`](Error::column) counts.
    ///
    /// ```
    /// let input = "[1,\n 2 3]";
    /// let err = kyaml::to_string(input).unwrap_err();
    /// assert_eq!(err.line_in(input.as_bytes()), b" 2 3]");
    /// assert_eq!(err.column(), 4);
    ///
    /// let input = "\u{FEFF}[x]\n";
    /// let err = kyaml::to_string(input).unwrap_err();
    /// assert_eq!((err.line_in(input.as_bytes()), err.column()), (&b"[x]"[..], 2));
    /// ```
    pub fn line_in<'a>(&self, input: &'a [u8]) -> &'a [u8] {
        input.get(line_at(input, self.offset)).unwrap_or_default()
    }

    /// The error as it stands in a longer input, in which the text it was
    /// found in starts at byte `offset`, on `line` and `column`.
    #[cfg(feature = "std")]
    pub(crate) fn within(mut self, offset: usize, line: usize, column: usize) -> Error {
        let shift = |at| shift_line_column(at, line, column);
        self.offset += offset;
        (self.line, self.column) = shift((self.line, self.column));
        if self.kind == ErrorKind::DuplicateKey
            || (self.kind == ErrorKind::Syntax && Opened::offset(self.aux).is_some())
        {
            self.aux += offset;
            (self.first_line, self.first_column) = shift((self.first_line, self.first_column));
        }
        self
    }

    /// Keeps the start of the key spelled `raw`, cut on a character
    /// boundary.
    fn set_key(&mut self, raw: &[u8]) {
        let mut len = raw.len().min(KEY_CAP);
        while len < raw.len() && len > 0 && raw[len] & 0xC0 == 0x80 {
            len -= 1;
        }
        self.key[..len].copy_from_slice(&raw[..len]);
        self.key_len = len as u8;
        self.key_cut = len < raw.len();
    }

    /// What kind of error this is.
    ///
    /// ```
    /// let err = kyaml::to_string("[[[").unwrap_err();
    /// assert_eq!(err.kind(), kyaml::ErrorKind::Syntax);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// Whether the text's syntax is at fault ([`ErrorKind::Syntax`],
    /// [`ErrorKind::TrailingValue`]), as serde_json's `Error::is_syntax`,
    /// rather than its data (a key twice, a number past float64's range),
    /// its encoding, its depth or the sink. A text whose JSON reading fails
    /// only by its data has JSON's syntax, so it is no YAML text either
    /// (the `kyaml` command's input guess uses this).
    ///
    /// ```
    /// let json = kyaml::Options::new().input(kyaml::Input::Json);
    /// assert!(json.check("{a: 1}").unwrap_err().is_syntax());
    /// assert!(!json.check(r#"{"b": 1e400}"#).unwrap_err().is_syntax());
    /// ```
    pub fn is_syntax(&self) -> bool {
        matches!(self.kind, ErrorKind::Syntax | ErrorKind::TrailingValue)
    }

    /// The byte offset into the input where the error was found.
    ///
    /// ```
    /// assert_eq!(kyaml::to_string("[1 2]").unwrap_err().offset(), 3);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The 1-based line of [`offset`](Error::offset) (lines end at `\n`).
    ///
    /// ```
    /// assert_eq!(kyaml::to_string("[\n\n x]").unwrap_err().line(), 3);
    /// ```
    pub fn line(&self) -> usize {
        self.line
    }

    /// The 1-based column of [`offset`](Error::offset), in characters, as an
    /// editor shows it: a byte order mark at the start is not counted.
    ///
    /// ```
    /// assert_eq!(kyaml::to_string("[\"é\" x]").unwrap_err().column(), 6);
    /// assert_eq!(kyaml::to_string("\u{FEFF}[x]").unwrap_err().column(), 2);
    /// ```
    pub fn column(&self) -> usize {
        self.column
    }

    /// What the encoder expected at the error's position, in words.
    ///
    /// ```
    /// let err = kyaml::to_string("{\"a\" 1}").unwrap_err();
    /// assert_eq!(err.expected(), "`:` after an object key");
    /// ```
    pub fn expected(&self) -> &'static str {
        match self.said {
            Said::Expected(expected) => expected,
            #[cfg(feature = "serde")]
            Said::Owned(_) => "",
        }
    }

    /// For [`ErrorKind::DuplicateKey`], the offset of the key's first occurrence.
    ///
    /// ```
    /// let err = kyaml::to_string("{\"k\":1,\"k\":2}").unwrap_err();
    /// assert_eq!((err.first_offset(), err.offset()), (Some(1), 7));
    /// ```
    pub fn first_offset(&self) -> Option<usize> {
        (self.kind == ErrorKind::DuplicateKey && self.line != 0).then_some(self.aux)
    }

    /// For [`ErrorKind::DuplicateKey`], the line and column of the key's
    /// first occurrence, counted as [`line`](Error::line) and
    /// [`column`](Error::column) are.
    ///
    /// ```
    /// let err = kyaml::to_string("{\"k\": 1,\n \"k\": 2}").unwrap_err();
    /// assert_eq!(err.first_position(), Some((1, 2)));
    /// assert_eq!((err.line(), err.column()), (2, 2));
    /// ```
    pub fn first_position(&self) -> Option<(usize, usize)> {
        (self.kind == ErrorKind::DuplicateKey && self.line != 0)
            .then_some((self.first_line, self.first_column))
    }

    /// For a [`ErrorKind::Syntax`] error inside a quoted string or a flow
    /// collection (an unterminated `"`, an unclosed `[`), where that
    /// string or collection opens: line and column, counted as
    /// [`line`](Error::line) and [`column`](Error::column) are.
    ///
    /// ```
    /// let opts = kyaml::Options::new().input(kyaml::Input::Yaml);
    /// let err = opts.to_string("a: \"text\nb: 1\n").unwrap_err();
    /// assert_eq!(err.opened_position(), Some((1, 4)));
    /// assert_eq!(
    ///     err.message().to_string(),
    ///     "expected '\"' closing the string (inside the string that opens at line 1, column 4)"
    /// );
    /// ```
    pub fn opened_position(&self) -> Option<(usize, usize)> {
        match (self.kind, Opened::offset(self.aux)) {
            (ErrorKind::Syntax, Some(_)) => Some((self.first_line, self.first_column)),
            _ => None,
        }
    }

    /// The message alone, without the position: what a tool prints after
    /// its own `FILE:LINE:COLUMN:` prefix. `{:?}` shows it quoted.
    ///
    /// ```
    /// let err = kyaml::to_string("nul").unwrap_err();
    /// assert_eq!(err.message().to_string(), "expected `null`");
    /// assert_eq!(format!("{:?}", err.message()), "\"expected `null`\"");
    /// ```
    pub fn message(&self) -> impl fmt::Display + fmt::Debug + '_ {
        Message(self)
    }
}

struct Message<'a>(&'a Error);

/// Shows the message as a quoted string, escaped as `str`'s `Debug` does.
impl fmt::Debug for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        /// Escapes what it is given on the way to the formatter.
        struct Escaped<'f, 'g>(&'f mut fmt::Formatter<'g>);
        impl fmt::Write for Escaped<'_, '_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                s.chars().try_for_each(|c| match c {
                    '\'' => self.0.write_str("'"),
                    c => write!(self.0, "{}", c.escape_debug()),
                })
            }
        }
        f.write_str("\"")?;
        fmt::write(&mut Escaped(f), format_args!("{self}"))?;
        f.write_str("\"")
    }
}

impl fmt::Display for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.0;
        #[cfg(feature = "serde")]
        if let Said::Owned(message) = &e.said {
            return f.write_str(message);
        }
        match e.kind {
            ErrorKind::Syntax => {
                write!(f, "expected {}", e.expected())?;
                match Opened::offset(e.aux) {
                    Some(_) => write!(
                        f,
                        " (inside the {} that opens at line {}, column {})",
                        Opened::what(e.aux),
                        e.first_line,
                        e.first_column
                    ),
                    None => Ok(()),
                }
            }
            ErrorKind::InvalidUtf8 => f.write_str("invalid UTF-8"),
            ErrorKind::LoneSurrogate => {
                f.write_str("lone surrogate in a \\u escape (YAML cannot hold it)")
            }
            ErrorKind::DuplicateKey => {
                // The key bytes are a prefix of valid UTF-8 cut on a boundary.
                let key = core::str::from_utf8(&e.key[..usize::from(e.key_len)]).unwrap_or("");
                let cut = if e.key_cut { "..." } else { "" };
                write!(
                    f,
                    "duplicate key \"{key}{cut}\" (first at line {}, column {})",
                    e.first_line, e.first_column
                )
            }
            ErrorKind::NumberOutOfRange => {
                let number = core::str::from_utf8(&e.key[..usize::from(e.key_len)]).unwrap_or("");
                let cut = if e.key_cut { "..." } else { "" };
                write!(
                    f,
                    "number {number}{cut} is past float64's range (kubectl and serde_json refuse it; quote it to keep the text)"
                )
            }
            ErrorKind::TooDeep => write!(f, "containers nested deeper than {} levels", e.aux),
            ErrorKind::TrailingValue => {
                f.write_str("expected end of input (value form holds one value)")
            }
            ErrorKind::Write => f.write_str("the output sink failed"),
            ErrorKind::Data | ErrorKind::Custom => f.write_str(e.expected()),
        }
    }
}

/// What a syntax error in JSON input that looks like YAML adds.
const YAML_HINT: &str = match cfg!(feature = "alloc") {
    true => " (the input looks like YAML: read it with `Options::new().input(Input::Yaml)`)",
    false => " (the input looks like YAML: `Input::Yaml` reads it, with the `alloc` feature)",
};

/// The message and, if the error has a place in an input, where: `expected
/// a value at line 1, column 10`; `the output sink failed`; `key must be a
/// string` (in a value). A syntax error in JSON input that looks like YAML
/// (its first line is no JSON) says how to read YAML.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.has_position() {
            false => write!(f, "{}", self.message())?,
            true => write!(
                f,
                "{} at line {}, column {}",
                self.message(),
                self.line,
                self.column
            )?,
        }
        if self.yaml_hint {
            f.write_str(YAML_HINT)?;
        }
        Ok(())
    }
}

/// Short, like serde_json's: `Error(Syntax, "expected a value", line: 1,
/// column: 10)`, or without a position `Error(Write, "the output sink
/// failed")`, `Error(Data, "key must be a string")`.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut t = f.debug_tuple("Error");
        t.field(&self.kind).field(&self.message());
        if self.has_position() {
            t.field(&format_args!("line: {}", self.line))
                .field(&format_args!("column: {}", self.column));
        }
        t.finish()
    }
}

impl core::error::Error for Error {}

#[cfg(feature = "std")]
impl From<Error> for std::io::Error {
    /// `InvalidData`, or `Other` for a failed sink, with the error inside
    /// (`get_ref` and `downcast_ref::<kyaml::Error>` give it back).
    fn from(err: Error) -> std::io::Error {
        let kind = match err.kind() {
            ErrorKind::Write => std::io::ErrorKind::Other,
            _ => std::io::ErrorKind::InvalidData,
        };
        std::io::Error::new(kind, err)
    }
}
