//! `kyaml [--compact] [FILE ...]`: JSON (one value, a stream, or JSON Lines)
//! in, KYAML documents out.

use std::io::{self, Read, Write};
use std::process::ExitCode;

#[path = "kyaml/diff.rs"]
mod diff;

const USAGE: &str = "\
Usage: kyaml [--compact] [FILE ...]
       kyaml diff [OPTIONS] OLD NEW   (see `kyaml diff --help`)

Renders JSON as KYAML, the YAML dialect of `kubectl get -o kyaml`.
Reads each FILE (`-` or none: standard input); every JSON value, whether
concatenated or one per line (JSON Lines), becomes one `---` document on
standard output.

Options:
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
    let mut files = Vec::new();
    let mut flags_done = false;
    for arg in std::env::args_os().skip(1) {
        match arg.to_str() {
            Some("--") if !flags_done => flags_done = true,
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
            Err(e) => {
                eprintln!("kyaml: {name}: {e}");
                status = ExitCode::FAILURE;
                continue;
            }
        };
        match opts.to_writer(&input, &mut out) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return status,
            Err(e) => match e.get_ref().and_then(|e| e.downcast_ref::<kyaml::Error>()) {
                Some(err) if e.kind() == io::ErrorKind::InvalidData => {
                    report(&name, &input, err);
                    status = ExitCode::FAILURE;
                }
                _ => {
                    eprintln!("kyaml: writing output: {e}");
                    return ExitCode::FAILURE;
                }
            },
        }
    }
    status
}

/// Reads a whole file, or standard input for `-`.
fn read(file: &std::ffi::OsStr) -> io::Result<Vec<u8>> {
    if file == "-" {
        let mut input = Vec::new();
        io::stdin().lock().read_to_end(&mut input)?;
        return Ok(input);
    }
    std::fs::read(file)
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
