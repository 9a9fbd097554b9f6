//! What every mode of the command shares: the argument lexer, the exit
//! statuses, the one reporter of failures and warnings, the one reader of
//! files and standard input, and the one guess of an input's language.

use std::ffi::OsString;
use std::fmt::Display;
use std::io::{self, Read, Write};
use std::path::Path;
use std::process::ExitCode;

/// The end of every mode's `--help`: how flags take values, and the exit
/// statuses, the same in every mode.
pub(crate) const HELP_FOOTER: &str = "\
A flag's value may follow it (`--schema yaml-1.2`) or be joined to it with
`=` (`--schema=yaml-1.2`).

Exit status: 0 on success; 1 when `kyaml diff` finds a difference, when
`kyaml fmt --check` finds a file to format or one left as written (its
YAML 1.1 and 1.2 readings disagree), or when `kyaml fmt -w` leaves a file
that changed while it was being formatted; 2 when an input cannot be read
or is invalid, or on a bad command line or configuration.
";

/// Exit status 1: a difference found (not a failure of the tool).
pub(crate) const DIFFERENT: u8 = 1;
/// Exit status 2: an input could not be read or is invalid, or the
/// command line is wrong.
pub(crate) const TROUBLE: u8 = 2;

/// How a mode is named in messages: `kyaml`, `kyaml fmt`, `kyaml diff`.
#[derive(Clone, Copy)]
pub(crate) struct Tool(pub(crate) &'static str);

impl Tool {
    /// Reports a bad command line: one line, and where help is.
    pub(crate) fn usage(self, message: impl Display) -> ExitCode {
        eprintln!("{}: {message}; try '{} --help'", self.0, self.0);
        ExitCode::from(TROUBLE)
    }

    /// Reports an input that cannot be read: `TOOL: cannot read NAME: WHY`.
    pub(crate) fn unreadable(self, name: &str, why: impl Display) {
        eprintln!("{}: cannot read {name}: {why}", self.0);
    }

    /// Reports any other failure about `name`: `TOOL: NAME: MESSAGE`.
    pub(crate) fn failed(self, name: &str, message: impl Display) {
        eprintln!("{}: {name}: {message}", self.0);
    }
}

/// One command-line argument, as the lexer sees it.
enum Arg {
    /// `-x`, `--name` (its value, if written `--name=value` or `-U3`, is
    /// kept for [`Args::value`]).
    Flag(String),
    /// Anything else: a path, `-`, or anything after `--`.
    Operand(OsString),
}

/// The one argument lexer: `--name value` and `--name=value` for every
/// flag that takes a value, `--` ends the flags, `-` is an operand.
pub(crate) struct Args<I> {
    args: I,
    tool: Tool,
    flags_done: bool,
    /// The value written with the last flag (`--name=value`), not yet taken.
    inline: Option<String>,
    /// The last flag, for messages.
    flag: String,
    /// Whether `--schema` was given (`kyaml fmt`: the reading is settled).
    pub(crate) schema_given: bool,
    /// The value kept in `inline` is the rest of a cluster of short
    /// flags (`-wd`): more flags, unless the last flag takes it.
    cluster: bool,
}

impl<I: Iterator<Item = OsString>> Args<I> {
    pub(crate) fn new(tool: Tool, args: I) -> Args<I> {
        Args {
            args,
            tool,
            flags_done: false,
            inline: None,
            flag: String::new(),
            schema_given: false,
            cluster: false,
        }
    }

    /// The next argument; `Err` (reported) for a flag given a value it
    /// does not take.
    fn next_arg(&mut self) -> Result<Option<Arg>, ExitCode> {
        if let Some(value) = self.inline.take() {
            let mut rest = value.chars();
            if let (true, Some(c)) = (self.cluster, rest.next()) {
                // `-wd`: `-w`, then `-d`.
                self.flag = format!("-{c}");
                self.inline = Some(rest.as_str().to_owned()).filter(|r| !r.is_empty());
                return Ok(Some(Arg::Flag(self.flag.clone())));
            }
            return Err(self.tool.usage(format_args!(
                "`{}` takes no value, not `{value}`",
                self.flag
            )));
        }
        let Some(arg) = self.args.next() else {
            return Ok(None);
        };
        let flag = match arg.to_str() {
            Some("--") if !self.flags_done => {
                self.flags_done = true;
                return self.next_arg();
            }
            Some(flag) if !self.flags_done && flag.starts_with('-') && flag != "-" => flag,
            _ => return Ok(Some(Arg::Operand(arg))),
        };
        let cluster = !flag.starts_with("--") && flag.len() > 2 && flag.is_char_boundary(2);
        let (name, inline) = match flag.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value.to_owned())),
            // `-U3`: a short flag and its value in one; `-wd`: two flags.
            _ if cluster => (&flag[..2], Some(flag[2..].to_owned())),
            _ => (flag, None),
        };
        self.cluster = cluster;
        self.flag = name.to_owned();
        self.inline = inline;
        Ok(Some(Arg::Flag(name.to_owned())))
    }

    /// The value of the flag just read: written with it or the next
    /// argument. `what` says what it takes, for the message if it is
    /// missing.
    pub(crate) fn value(&mut self, what: &str) -> Result<String, ExitCode> {
        if let Some(value) = self.inline.take() {
            return Ok(value);
        }
        match self.args.next().map(OsString::into_string) {
            Some(Ok(value)) => Ok(value),
            Some(Err(value)) => Err(self.bad_value(what, &value.to_string_lossy())),
            None => Err(self
                .tool
                .usage(format_args!("`{}` needs a value: {what}", self.flag))),
        }
    }

    /// Reports a value the flag just read does not take.
    pub(crate) fn bad_value(&self, what: &str, value: &str) -> ExitCode {
        self.tool
            .usage(format_args!("`{}` takes {what}, not `{value}`", self.flag))
    }

    /// Reports the flag just read as unknown.
    pub(crate) fn unknown(&mut self) -> ExitCode {
        self.inline = None;
        self.tool
            .usage(format_args!("unknown option `{}`", self.flag))
    }

    /// Reads every argument: operands into `operands`, the flags every
    /// mode takes into `opts` and `from` (see [`Args::common`]; `--help`
    /// prints `usage` and the common footer), and each other flag through
    /// `flag`, which returns `Err` with the exit status to stop with.
    pub(crate) fn parse(
        &mut self,
        usage: &str,
        opts: &mut kyaml::Options,
        mut from: Option<&mut Option<kyaml::Input>>,
        operands: &mut Vec<std::path::PathBuf>,
        mut flag: impl FnMut(&str, &mut Self) -> Result<(), ExitCode>,
    ) -> Result<(), ExitCode> {
        while let Some(arg) = self.next_arg()? {
            match arg {
                Arg::Operand(operand) => operands.push(operand.into()),
                Arg::Flag(name) => {
                    if !self.common(&name, usage, opts, from.as_deref_mut())? {
                        flag(&name, self)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Handles the flags every mode takes: `-h`/`--help` (prints `usage`
    /// and [`HELP_FOOTER`], then stops with success), `--schema` (into
    /// `opts`), `--from` (into `from`, for the modes that read JSON).
    /// `Ok(false)` if `flag` is none of them.
    fn common(
        &mut self,
        flag: &str,
        usage: &str,
        opts: &mut kyaml::Options,
        from: Option<&mut Option<kyaml::Input>>,
    ) -> Result<bool, ExitCode> {
        match (flag, from) {
            ("-h" | "--help", _) => {
                print!("{usage}\n{HELP_FOOTER}");
                return Err(ExitCode::SUCCESS);
            }
            ("--schema", _) => {
                self.schema_given = true;
                let what = "kubectl or yaml-1.2";
                *opts = match self.value(what)?.as_str() {
                    "kubectl" => opts.schema(kyaml::Schema::Kubectl),
                    "yaml-1.2" => opts.schema(kyaml::Schema::Yaml12),
                    other => return Err(self.bad_value(what, other)),
                };
            }
            ("--from", Some(from)) => {
                let what = "json or yaml";
                *from = match self.value(what)?.as_str() {
                    "json" => Some(kyaml::Input::Json),
                    "yaml" => Some(kyaml::Input::Yaml),
                    other => return Err(self.bad_value(what, other)),
                };
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// The name an input is reported by: `<stdin>` for `-`.
pub(crate) fn display_name(path: &Path) -> String {
    match path.as_os_str() == "-" {
        true => String::from("<stdin>"),
        false => path.display().to_string(),
    }
}

/// Opens the file `path` for reading, with its metadata; a directory is
/// an error.
fn open_file(path: &Path) -> io::Result<(std::fs::File, std::fs::Metadata)> {
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::from(io::ErrorKind::IsADirectory));
    }
    Ok((file, meta))
}

/// Opens `path` for reading as a stream (`-`: standard input).
pub(crate) fn open(path: &Path) -> io::Result<Box<dyn Read>> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(io::stdin().lock()));
    }
    Ok(Box::new(open_file(path)?.0))
}

/// Reads all of `path` (`-`: standard input), with the file's metadata
/// as it was opened (`None` for standard input).
pub(crate) fn read_whole(path: &Path) -> io::Result<(Vec<u8>, Option<std::fs::Metadata>)> {
    let mut input = Vec::new();
    if path.as_os_str() == "-" {
        io::stdin().lock().read_to_end(&mut input)?;
        return Ok((input, None));
    }
    let (mut file, meta) = open_file(path)?;
    // The size is known: no second `statx` and `lseek` for a hint, as
    // `File::read_to_end` would make.
    input.reserve_exact(usize::try_from(meta.len()).unwrap_or(0));
    Read::take(&mut file, u64::MAX).read_to_end(&mut input)?;
    Ok((input, Some(meta)))
}

/// Reads all of `path` (`-`: standard input); a failure is reported.
pub(crate) fn read_all(tool: Tool, path: &Path) -> Option<Vec<u8>> {
    match read_whole(path) {
        Ok((input, _)) => Some(input),
        Err(e) => {
            tool.unreadable(&display_name(path), in_words(&e));
            None
        }
    }
}

/// An I/O error in words: `No such file or directory`, without the
/// `(os error 2)` that follows them.
pub(crate) fn in_words(e: &io::Error) -> String {
    let text = e.to_string();
    match (e.raw_os_error(), text.rfind(" (os error ")) {
        (Some(_), Some(at)) => text[..at].to_owned(),
        _ if e.kind() == io::ErrorKind::IsADirectory => String::from("Is a directory"),
        _ => text,
    }
}

/// The UTF-8 byte order mark.
pub(crate) const BOM: &[u8] = "\u{FEFF}".as_bytes();

/// The one guess of an input's language, from `--from`, the file's
/// extension, or its first bytes `head` (`complete` when they are all of
/// it); `None` while more bytes are needed.
///
/// Without `--from`: a `.json` file is JSON, a `.yaml`/`.yml` file YAML;
/// else, past a byte order mark and white space, JSON if it starts with
/// `{`, `[` or `"`, or if its first line is JSON or the start of JSON
/// (`1`, `true`, `null`, `1 {`: a stream that starts with a bare scalar),
/// its data refused by JSON or not (`1e400`: an error, not YAML's string);
/// else YAML. So the guess never needs more
/// than the first line, and standard input streams whatever it holds.
pub(crate) fn language(
    path: &Path,
    from: Option<kyaml::Input>,
    head: &[u8],
    complete: bool,
) -> Option<kyaml::Input> {
    if let Some(language) = from {
        return Some(language);
    }
    let extension = path.extension().and_then(|e| e.to_str());
    match extension {
        Some("json") => return Some(kyaml::Input::Json),
        Some("yaml" | "yml") => return Some(kyaml::Input::Yaml),
        _ => {}
    }
    if !complete && head.len() < BOM.len() && BOM.starts_with(head) {
        return None;
    }
    let rest = head.strip_prefix(BOM).unwrap_or(head);
    let Some(start) = rest.iter().position(|b| !b.is_ascii_whitespace()) else {
        return complete.then_some(kyaml::Input::Json);
    };
    let rest = &rest[start..];
    if matches!(rest[0], b'{' | b'[' | b'"') {
        return Some(kyaml::Input::Json);
    }
    let line = match rest.iter().position(|&b| b == b'\n') {
        Some(end) => &rest[..end],
        None if complete => rest,
        None => return None,
    };
    let json = kyaml::Options::new().input(kyaml::Input::Json);
    match json.check(line) {
        // Cut off by the line's end: a value that goes on below (`1 {`).
        Err(e) if e.kind() == kyaml::ErrorKind::Syntax && e.offset() >= line.len() => {
            Some(kyaml::Input::Json)
        }
        Err(e) if e.is_syntax() => Some(kyaml::Input::Yaml),
        // JSON, or JSON refused for its data (`1 {"a": 1e400}`): read as
        // JSON, and refused as JSON refuses it.
        _ => Some(kyaml::Input::Json),
    }
}

/// `opts` for the YAML file `input` as kubectl reads it: a file whose
/// first character past white space is `{` kubectl reads as a stream of
/// JSON values (`{"a":1}{"b":2}`, or one per line), so it is read as
/// JSON if it is one (its error too, where kubectl's JSON reading refuses
/// it, as a number past float64's range); else as YAML, as kubectl v1.37
/// falls back to YAML (v1.32 refuses it). YAML reads a single JSON value
/// as the same data, but not a stream of them.
pub(crate) fn as_kubectl_reads(opts: kyaml::Options, input: &[u8]) -> kyaml::Options {
    let first = input
        .iter()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
    if opts.input_language() != kyaml::Input::Yaml || first != Some(&b'{') {
        return opts;
    }
    let json = opts.input(kyaml::Input::Json);
    match json.check(input) {
        Err(e) if e.is_syntax() => opts,
        _ => json,
    }
}

/// Reads from `source` into `head` until its first byte past white space
/// (or its end): whether that is `{`, the sign kubectl reads a file by
/// as JSON ([`as_kubectl_reads`]).
pub(crate) fn starts_like_json(source: &mut dyn Read, head: &mut Vec<u8>) -> io::Result<bool> {
    let mut chunk = [0; 8192];
    loop {
        if let Some(b) = head
            .iter()
            .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        {
            return Ok(*b == b'{');
        }
        match source.read(&mut chunk) {
            Ok(0) => return Ok(false),
            Ok(n) => head.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Reads from `source` into `head` until [`language`] can tell.
pub(crate) fn read_language(
    path: &Path,
    from: Option<kyaml::Input>,
    source: &mut dyn Read,
    head: &mut Vec<u8>,
) -> io::Result<kyaml::Input> {
    let mut chunk = [0; 8192];
    loop {
        if let Some(language) = language(path, from, head, false) {
            return Ok(language);
        }
        match source.read(&mut chunk) {
            Ok(0) => {
                return Ok(language(path, from, head, true).unwrap_or(kyaml::Input::Json));
            }
            Ok(n) => head.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Prints warnings, one `NAME:LINE:COLUMN: warning: MESSAGE` line each,
/// through one buffer: a file with a warning on every line must not cost a
/// system call a line.
///
/// Aliases and merges expanded, and what only YAML 1.1 readers other
/// than kubectl read otherwise, are not said here: they matter to a file
/// whose reading is not settled, which `kyaml fmt` leaves as written
/// (saying why), not to input read as kubectl reads it.
pub(crate) fn warn<'a>(name: &str, warnings: impl IntoIterator<Item = &'a kyaml::Warning>) {
    let mut err = io::BufWriter::new(io::stderr().lock());
    let said = |w: &&kyaml::Warning| {
        !matches!(
            w.kind,
            kyaml::WarningKind::Expanded | kyaml::WarningKind::Yaml11Readers
        )
    };
    for warning in warnings.into_iter().filter(said) {
        let _ = writeln!(
            err,
            "{name}:{}:{}: warning: {}",
            warning.line, warning.column, warning.message
        );
    }
    let _ = err.flush();
}

/// Prints a warning about `name` at `line` and `column`.
pub(crate) fn warn_at(name: &str, line: usize, column: usize, message: impl Display) {
    eprintln!("{name}:{line}:{column}: warning: {message}");
}

/// Warns that `--compact` drops the comments of `name`.
pub(crate) fn warn_compact(name: &str) {
    eprintln!("{name}: warning: --compact writes no comments; the input's are dropped");
}

/// The invalid document behind an error, if that is what it is.
pub(crate) fn invalid(e: &io::Error) -> Option<&kyaml::Error> {
    let err = e.get_ref().and_then(|e| e.downcast_ref::<kyaml::Error>());
    err.filter(|_| e.kind() == io::ErrorKind::InvalidData)
}

/// Reports an invalid input: `NAME:LINE:COLUMN: message`, the line, and a
/// caret under the column. `line` is the error's line as far as it was
/// read, and `first` the column of its first character (past 1 when an
/// earlier document shares the line).
pub(crate) fn report_invalid(name: &str, line: &[u8], first: usize, err: &kyaml::Error) {
    let line = String::from_utf8_lossy(line);
    let line = line.trim_end_matches('\r');
    // The caret's place in the line shown; show at most 40 characters
    // either side of it (JSON is often one long line).
    let col = err.column().saturating_sub(first);
    let skip = col.saturating_sub(40);
    let shown: String = line
        .chars()
        .skip(skip)
        .take(80)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let lead = if skip > 0 { "..." } else { "" };
    let trail = if line.chars().count() > skip + 80 {
        "..."
    } else {
        ""
    };
    let caret = " ".repeat(lead.len() + col - skip);
    let mut stderr = io::stderr().lock();
    let _ = writeln!(
        stderr,
        "{name}:{}:{}: {}",
        err.line(),
        err.column(),
        err.message()
    );
    let _ = writeln!(stderr, "  {lead}{shown}{trail}\n  {caret}^");
}

/// Reports an invalid whole input (`err` found in `input`).
pub(crate) fn report_invalid_in(name: &str, input: &[u8], err: &kyaml::Error) {
    report_invalid(name, err.line_in(input), 1, err);
}

/// A reader that remembers whether a read failed, so that an I/O error
/// can be told apart from one of the output.
pub(crate) struct Watched<R> {
    inner: R,
    pub(crate) failed: bool,
}

impl<R> Watched<R> {
    pub(crate) fn new(inner: R) -> Watched<R> {
        Watched {
            inner,
            failed: false,
        }
    }
}

impl<R: Read> Read for Watched<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf);
        self.failed |= read.is_err();
        read
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kyaml::Input::{Json, Yaml};

    #[test]
    fn the_guess_needs_at_most_the_first_line() {
        let stdin = Path::new("-");
        for (head, complete, want) in [
            (&b"1\n"[..], false, Some(Json)),
            (b"1", false, None),
            (b"1", true, Some(Json)),
            (b"true 2\nnot json", false, Some(Json)),
            (b"1 {\"a\":\n1}", false, Some(Json)),
            // JSON that JSON refuses for its data is JSON, not a YAML string.
            (b"1.0 {\"a\": [1e400]}\n", false, Some(Json)),
            (b"1 {\"a\": 1, \"a\": 2}\n", false, Some(Json)),
            (b"1e400", true, Some(Json)),
            (b"null x\n", false, Some(Yaml)),
            (b"a: 1\n", false, Some(Yaml)),
            (b"- x\n", false, Some(Yaml)),
            (b"# c\n{}", false, Some(Yaml)),
            (b"\xEF\xBB\xBF{a: 1}", false, Some(Json)),
            (b"\xEF\xBB", false, None),
            (b"  \n\"x\"", false, Some(Json)),
            (b"", true, Some(Json)),
            (b" \n ", false, None),
        ] {
            assert_eq!(language(stdin, None, head, complete), want, "{head:?}");
        }
        assert_eq!(language(Path::new("a.yaml"), None, b"{}", true), Some(Yaml));
        assert_eq!(
            language(Path::new("a.json"), None, b"a: 1", true),
            Some(Json)
        );
        assert_eq!(
            language(Path::new("a.json"), Some(Yaml), b"", true),
            Some(Yaml)
        );
    }
}
