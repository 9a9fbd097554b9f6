//! `kyaml [--from json|yaml] [--schema kubectl|yaml-1.2] [--compact]
//! [--keep-going] [FILE ...]`: JSON (one value, a stream, or JSON Lines) or
//! YAML in, KYAML documents out; JSON documents each as soon as it is complete.

use std::io::{self, Read, Write};
use std::process::ExitCode;

#[path = "kyaml/diff.rs"]
mod diff;
#[path = "kyaml/fmt.rs"]
mod fmt;

const USAGE: &str = "\
Usage: kyaml [--from json|yaml] [--schema kubectl|yaml-1.2] [--compact] [--keep-going] [FILE ...]
       kyaml diff [OPTIONS] OLD NEW   (see `kyaml diff --help`)
       kyaml fmt [OPTIONS] [PATH ...] (see `kyaml fmt --help`)

Renders JSON or YAML as KYAML, the YAML dialect of `kubectl get -o kyaml`.
Reads each FILE (`-` or none: standard input); every JSON value, whether
concatenated or one per line (JSON Lines), and every YAML document becomes
one `---` document on standard output. JSON documents are written as soon
as each is complete, so `tail -f app.jsonl | kyaml` and `kubectl get pods
-w -o json | kyaml` print each one as it comes.

Options:
      --from LANG     json or yaml. Without it, a `.json` file is JSON, a
                      `.yaml`/`.yml` file YAML, and anything else (standard
                      input too) JSON if it starts with `{`, `[` or `\"` or is
                      valid JSON, else YAML (so valid JSON is always JSON)
      --schema NAME   how YAML plain scalars read: kubectl (the default: what
                      `kubectl apply` reads, `yes`/`on` booleans, `0777` octal)
                      or yaml-1.2; where the two differ, a warning on
                      standard error says so (FILE:LINE:COLUMN: warning: ...)
  -c, --compact     write each document on one line
  -k, --keep-going  after an invalid JSON document, go on at the next line
                    that starts a value (for JSON Lines)
  -h, --help        print this help
  -V, --version     print the version

An invalid document is reported on standard error as FILE:LINE:COLUMN and
not written; the documents before it are. Without -k (and always for YAML)
the rest of its file is skipped. The exit status is then 1.
";

fn main() -> ExitCode {
    if std::env::args_os().nth(1).is_some_and(|arg| arg == "diff") {
        return diff::main(std::env::args_os().skip(2));
    }
    if std::env::args_os().nth(1).is_some_and(|arg| arg == "fmt") {
        return fmt::main(std::env::args_os().skip(2));
    }
    let mut opts = kyaml::Options::new();
    let mut keep_going = false;
    let mut from = None;
    let mut files = Vec::new();
    let mut flags_done = false;
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("--") if !flags_done => flags_done = true,
            Some(flag @ ("--from" | "--schema")) if !flags_done => {
                let value = args.next();
                match (flag, value.as_ref().and_then(|v| v.to_str())) {
                    ("--from", Some("json")) => from = Some(kyaml::Input::Json),
                    ("--from", Some("yaml")) => from = Some(kyaml::Input::Yaml),
                    ("--schema", Some("kubectl")) => opts = opts.schema(kyaml::Schema::Kubectl),
                    ("--schema", Some("yaml-1.2")) => opts = opts.schema(kyaml::Schema::Yaml12),
                    (_, value) => {
                        let value = value.unwrap_or("nothing");
                        eprintln!("kyaml: `{flag}` does not take `{value}`\n\n{USAGE}");
                        return ExitCode::from(2);
                    }
                }
            }
            Some("-c" | "--compact") if !flags_done => opts = opts.compact(true),
            Some("-k" | "--keep-going") if !flags_done => keep_going = true,
            Some("-h" | "--help") if !flags_done => {
                print!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            Some("-V" | "--version") if !flags_done => {
                println!("kyaml {}", env!("CARGO_PKG_VERSION"));
                return ExitCode::SUCCESS;
            }
            Some(flag) if flag.starts_with('-') && flag != "-" && !flags_done => {
                eprintln!("kyaml: unknown option `{flag}`\n\n{USAGE}");
                return ExitCode::from(2);
            }
            _ => files.push(arg),
        }
    }
    if files.is_empty() {
        files.push("-".into());
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut status = ExitCode::SUCCESS;
    for file in &files {
        let name = if file == "-" {
            "<stdin>".into()
        } else {
            file.to_string_lossy()
        };
        let source: Box<dyn Read> = if file == "-" {
            Box::new(io::stdin().lock())
        } else {
            match std::fs::File::open(file) {
                Ok(f) => Box::new(f),
                Err(e) => {
                    eprintln!("kyaml: cannot open {name}: {}", in_words(&e));
                    status = ExitCode::FAILURE;
                    continue;
                }
            }
        };
        let mut source = Watched {
            inner: source,
            failed: false,
        };
        match render(file, &name, &mut source, opts, from, keep_going, &mut out) {
            Ok(true) => {}
            Ok(false) => status = ExitCode::FAILURE,
            Err(e) if source.failed => {
                eprintln!("kyaml: cannot read {name}: {}", in_words(&e));
                status = ExitCode::FAILURE;
            }
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return status,
            Err(e) => {
                eprintln!("kyaml: cannot write to standard output: {}", in_words(&e));
                return ExitCode::FAILURE;
            }
        }
    }
    status
}

/// Renders one input to `out`: `Ok(false)` if an invalid document was
/// reported. JSON goes through a transcoder, each document written as
/// soon as it is complete; YAML is read whole.
///
/// The language without `--from`: by the file's extension (`.json`;
/// `.yaml`, `.yml`), else JSON if the input starts like a JSON container or
/// string (`{`, `[`, `"` after white space; known from its first bytes) or
/// is valid JSON throughout (which needs all of it), else YAML. So a valid
/// JSON stream is read exactly as before YAML input existed, and so is
/// every input that starts like JSON (its errors are JSON's); flow-style
/// YAML starting with `{` needs `--from yaml`.
fn render(
    file: &std::ffi::OsStr,
    name: &str,
    source: &mut impl Read,
    opts: kyaml::Options,
    from: Option<kyaml::Input>,
    keep_going: bool,
    out: &mut impl Write,
) -> io::Result<bool> {
    let extension = std::path::Path::new(file).extension();
    let by_extension = match extension.and_then(|e| e.to_str()) {
        Some("json") => Some(kyaml::Input::Json),
        Some("yaml" | "yml") => Some(kyaml::Input::Yaml),
        _ => None,
    };
    let mut head = Vec::new();
    let language = match from.or(by_extension) {
        Some(language) => language,
        None => match first_byte(source, &mut head)? {
            Some(b'{' | b'[' | b'"') => kyaml::Input::Json,
            _ => {
                source.read_to_end(&mut head)?;
                let json = opts.input(kyaml::Input::Json);
                match json.to_fmt(&head, &mut Discard) {
                    Ok(()) => kyaml::Input::Json,
                    Err(_) => kyaml::Input::Yaml,
                }
            }
        },
    };
    let opts = opts.input(language);
    if language == kyaml::Input::Json {
        let input = io::Cursor::new(head).chain(source);
        return transcode(name, input, opts, keep_going, out);
    }
    source.read_to_end(&mut head)?;
    if opts.is_compact() && kyaml::has_comments(&head) {
        eprintln!("{name}: warning: --compact writes no comments; the input's are dropped");
    }
    let mut warnings = Vec::new();
    let written = opts.to_writer_with_warnings(&head, out, &mut warnings);
    print_warnings(name, &warnings);
    match written {
        Ok(()) => Ok(true),
        Err(e) => match invalid(&e) {
            Some(err) => {
                report(name, err.line_in(&head), 1, err);
                Ok(false)
            }
            None => Err(e),
        },
    }
}

/// Writes each JSON document of `input` as soon as it is complete:
/// `Ok(false)` if an invalid one was reported (and, with `keep_going`,
/// reading went on at the next line that starts a value).
fn transcode(
    name: &str,
    input: impl Read,
    opts: kyaml::Options,
    keep_going: bool,
    out: &mut impl Write,
) -> io::Result<bool> {
    let mut docs = opts.transcoder(input, out);
    let mut valid = true;
    loop {
        match docs.next_document() {
            Ok(true) => {}
            Ok(false) => return Ok(valid),
            Err(e) => {
                let Some(err) = invalid(&e) else {
                    return Err(e);
                };
                let (line, first) = docs.rejected_line().unwrap_or((b"", 1));
                report(name, line, first, err);
                valid = false;
                if !keep_going {
                    return Ok(false);
                }
            }
        }
    }
}

/// Writes `warnings` of the file `name` to standard error, one
/// `NAME:LINE:COLUMN: warning: ...` line each, buffered (a file with a
/// warning on every line must not cost a few system calls a line).
fn print_warnings(name: &str, warnings: &[kyaml::Warning]) {
    let mut err = io::BufWriter::new(io::stderr().lock());
    for warning in warnings {
        let _ = writeln!(
            err,
            "{name}:{}:{}: warning: {}",
            warning.line, warning.column, warning.message
        );
    }
    let _ = err.flush();
}

/// The invalid document behind an error, if that is what it is.
fn invalid(e: &io::Error) -> Option<&kyaml::Error> {
    let err = e.get_ref().and_then(|e| e.downcast_ref::<kyaml::Error>());
    err.filter(|_| e.kind() == io::ErrorKind::InvalidData)
}

/// Reads from `source` into `head` as far as the first byte that is not
/// white space (a byte order mark at the start counts as white space), and
/// returns it; `None` if the input ends first.
fn first_byte(source: &mut impl Read, head: &mut Vec<u8>) -> io::Result<Option<u8>> {
    let bom = "\u{FEFF}".as_bytes();
    let mut chunk = [0; 4096];
    loop {
        // Part of a byte order mark may still be on its way.
        let partial_bom = head.len() < bom.len() && bom.starts_with(head);
        let rest = head.strip_prefix(bom).unwrap_or(head);
        let first = rest.iter().find(|b| !b.is_ascii_whitespace()).copied();
        if first.is_some() && !partial_bom {
            return Ok(first);
        }
        match source.read(&mut chunk) {
            Ok(0) => return Ok(first),
            Ok(n) => head.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// A `fmt::Write` that keeps nothing: for checking an input.
struct Discard;

impl std::fmt::Write for Discard {
    fn write_str(&mut self, _: &str) -> std::fmt::Result {
        Ok(())
    }
}

/// A reader that remembers whether a read failed, so that an I/O error
/// can be told apart from one of the output.
struct Watched<R> {
    inner: R,
    failed: bool,
}

impl<R: Read> Read for Watched<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf);
        self.failed |= read.is_err();
        read
    }
}

/// An I/O error in words: `No such file or directory`, without the
/// `(os error 2)` that follows them.
fn in_words(e: &io::Error) -> String {
    let text = e.to_string();
    match (e.raw_os_error(), text.rfind(" (os error ")) {
        (Some(_), Some(at)) => text[..at].to_owned(),
        _ => text,
    }
}

/// Prints `FILE:LINE:COLUMN: message`, the line, and a caret under the
/// column. `line` is the error's line as far as it was read, and `first`
/// the column of its first character (past 1 when an earlier document
/// shares the line).
fn report(name: &str, line: &[u8], first: usize, err: &kyaml::Error) {
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
    let (lead, trail) = (
        if skip > 0 { "..." } else { "" },
        if line.chars().count() > skip + 80 {
            "..."
        } else {
            ""
        },
    );
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
