//! `kyaml [--from json|yaml] [--schema kubectl|yaml-1.2] [--compact] [FILE ...]`:
//! JSON (one value, a stream, or JSON Lines) or YAML in, KYAML documents out.

use std::io::{self, Read, Write};
use std::process::ExitCode;

#[path = "kyaml/diff.rs"]
mod diff;

const USAGE: &str = "\
Usage: kyaml [--from json|yaml] [--schema kubectl|yaml-1.2] [--compact] [FILE ...]
       kyaml diff [OPTIONS] OLD NEW   (see `kyaml diff --help`)

Renders JSON or YAML as KYAML, the YAML dialect of `kubectl get -o kyaml`.
Reads each FILE (`-` or none: standard input); every JSON value, whether
concatenated or one per line (JSON Lines), and every YAML document becomes
one `---` document on standard output.

Options:
      --from LANG     json or yaml. Without it, a `.json` file is JSON, a
                      `.yaml`/`.yml` file YAML, and anything else (standard
                      input too) JSON if it starts with `{`, `[` or `\"` or is
                      valid JSON, else YAML (so valid JSON is always JSON)
      --schema NAME   how YAML plain scalars read: kubectl (the default: what
                      `kubectl apply` reads, `yes`/`on` booleans, `0777` octal)
                      or yaml-1.2; where the two differ, a warning on
                      standard error says so (FILE:LINE:COLUMN: warning: ...)
  -c, --compact   write each document on one line
  -h, --help      print this help
  -V, --version   print the version

An invalid document is reported on standard error as FILE:LINE:COLUMN and
not written; the documents before it are. The exit status is then 1.
";

fn main() -> ExitCode {
    if std::env::args_os().nth(1).is_some_and(|arg| arg == "diff") {
        return diff::main(std::env::args_os().skip(2));
    }
    let mut opts = kyaml::Options::new();
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
        let input = match read(file) {
            Ok(input) => input,
            Err((what, e)) => {
                eprintln!("kyaml: cannot {what} {name}: {}", in_words(&e));
                status = ExitCode::FAILURE;
                continue;
            }
        };
        let opts = opts.input(from.unwrap_or_else(|| detect(file, &input, opts)));
        for warning in opts.warnings(&input) {
            eprintln!(
                "{name}:{}:{}: warning: {}",
                warning.line, warning.column, warning.message
            );
        }
        match opts.to_writer(&input, &mut out) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return status,
            Err(e) => match e.get_ref().and_then(|e| e.downcast_ref::<kyaml::Error>()) {
                Some(err) if e.kind() == io::ErrorKind::InvalidData => {
                    report(&name, &input, err);
                    status = ExitCode::FAILURE;
                }
                _ => {
                    eprintln!("kyaml: cannot write to standard output: {}", in_words(&e));
                    return ExitCode::FAILURE;
                }
            },
        }
    }
    status
}

/// The input language of `file` without `--from`: by its extension
/// (`.json`; `.yaml`, `.yml`), else JSON if the input starts like a JSON
/// container or string (`{`, `[`, `"` after white space) or is valid JSON
/// throughout, else YAML. So a valid JSON stream is read exactly as before
/// YAML input existed, and so is every input that starts like JSON (its
/// errors are JSON's); flow-style YAML starting with `{` needs `--from yaml`.
fn detect(file: &std::ffi::OsStr, input: &[u8], opts: kyaml::Options) -> kyaml::Input {
    let extension = std::path::Path::new(file).extension();
    match extension.and_then(|e| e.to_str()) {
        Some("json") => return kyaml::Input::Json,
        Some("yaml" | "yml") => return kyaml::Input::Yaml,
        _ => {}
    }
    let first = input.iter().find(|b| !b.is_ascii_whitespace());
    // A byte order mark is white space to the JSON reader.
    let first = match input.strip_prefix("\u{FEFF}".as_bytes()) {
        Some(rest) => rest.iter().find(|b| !b.is_ascii_whitespace()),
        None => first,
    };
    let json = opts.input(kyaml::Input::Json);
    match first {
        Some(b'{' | b'[' | b'"') => kyaml::Input::Json,
        _ if json.to_fmt(input, &mut Discard).is_ok() => kyaml::Input::Json,
        _ => kyaml::Input::Yaml,
    }
}

/// A `fmt::Write` that keeps nothing: for checking an input.
struct Discard;

impl std::fmt::Write for Discard {
    fn write_str(&mut self, _: &str) -> std::fmt::Result {
        Ok(())
    }
}

/// Reads a whole file, or standard input for `-`; an error says whether
/// opening or reading failed.
fn read(file: &std::ffi::OsStr) -> Result<Vec<u8>, (&'static str, io::Error)> {
    let mut input = Vec::new();
    if file == "-" {
        io::stdin()
            .lock()
            .read_to_end(&mut input)
            .map_err(|e| ("read", e))?;
        return Ok(input);
    }
    let mut f = std::fs::File::open(file).map_err(|e| ("open", e))?;
    f.read_to_end(&mut input).map_err(|e| ("read", e))?;
    Ok(input)
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

/// Prints `FILE:LINE:COLUMN: message`, the line, and a caret under the column.
fn report(name: &str, input: &[u8], err: &kyaml::Error) {
    let line = String::from_utf8_lossy(err.line_in(input));
    let line = line.trim_end_matches('\r');
    // Show at most 40 characters either side of the column (JSON is often one long line).
    let col = err.column() - 1;
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
