//! `kyaml fmt`: re-formats YAML (and KYAML) files and the YAML blocks of
//! Markdown pages as KYAML, comments kept; writes them back (`-w`, see
//! `replace`), checks them (`--check`) or shows the change (`-d`).
//! Line ends and a byte order mark are kept.

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::{self, Args, Tool};
use crate::markdown;
use crate::replace::{self, NotReplaced, Stamp};
use crate::walk::{FileKind, Rules, Walk};

const USAGE: &str = "\
Usage: kyaml fmt [OPTIONS] [PATH ...]

Re-formats YAML or KYAML as KYAML, keeping every comment and one blank line
where the input had any between items. A second run changes nothing.
Without PATH, or for `-`, reads standard input and writes standard output.

A directory stands for the *.yaml and *.yml files under it, as git sees
the tree: files that .gitignore (at any level) or .git/info/exclude
ignores are left out, and so are hidden directories, symbolic links, and
the templates/ folder of a Helm chart (a directory holding Chart.yaml). A
file named on the command line is always read.

A Markdown page (*.md) has each ```yaml or ```yml block formatted, and every
other byte kept; a block that is not valid YAML is left as written, with
a warning. A CRLF file is written with CRLF (its first line end decides),
and a byte order mark is kept.

Options:
      --check            write nothing; list each file that would change,
                         and exit 1 if any would (for CI and pre-commit)
  -w, --write            rewrite each file that changes (see the README:
                         atomic, mode and owner kept, and a file changed
                         meanwhile is left as it is, exit 1)
  -d, --diff             print a unified diff of each file that would change
                         (applies with `patch`)
      --exclude GLOB     leave out the paths a walk meets that GLOB matches
                         (gitignore syntax: `vendor`, `**/zz_generated*`,
                         `docs/**`; repeatable)
      --markdown         walks take *.md pages too
      --schema NAME      how plain scalars read: kubectl (the default) or
                         yaml-1.2
  -c, --compact          one line per document (writes no comments)
  -h, --help             print this help

A file that does not parse is reported as FILE:LINE:COLUMN and left as it
is; the other files are still processed.
";

/// What to do with each formatted file.
#[derive(Clone, Copy, Default)]
struct Mode {
    check: bool,
    write: bool,
    diff: bool,
}

/// How `kyaml fmt` went, worst last.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    Clean,
    /// `--check` found a file to format, or `-w` left a changed file.
    Unformatted,
    Trouble,
}

const TOOL: Tool = Tool("kyaml fmt");

/// Runs `kyaml fmt` with the arguments after `fmt`.
pub(crate) fn main(args: impl Iterator<Item = OsString>) -> ExitCode {
    let mut args = Args::new(TOOL, args);
    let mut mode = Mode::default();
    let mut opts = kyaml::Options::new().input(kyaml::Input::Yaml);
    let mut compact = false;
    let mut paths: Vec<PathBuf> = Vec::new();
    let mut walk = Walk {
        excludes: Rules::default(),
        markdown: false,
    };
    let parsed = args.parse(USAGE, &mut opts, None, &mut paths, |flag, args| {
        match flag {
            "--check" => mode.check = true,
            "-w" | "--write" => mode.write = true,
            "-d" | "--diff" => mode.diff = true,
            "-c" | "--compact" => compact = true,
            "--markdown" => walk.markdown = true,
            "--exclude" => walk.excludes.add(args.value("a glob")?.as_bytes()),
            _ => return Err(args.unknown()),
        }
        Ok(())
    });
    if let Err(code) = parsed {
        return code;
    }
    let opts = opts.compact(compact);
    if mode.check && mode.write {
        return TOOL.usage("`--check` writes nothing: it cannot go with `--write`");
    }
    if paths.is_empty() {
        paths.push(PathBuf::from("-"));
    }
    let mut status = Status::Clean;
    let mut files = Vec::new();
    for path in &paths {
        let name = cli::display_name(path);
        match walk.expand(path, &mut files) {
            Ok(0) => {
                TOOL.unreadable(&name, "no YAML files under it");
                status = Status::Trouble;
            }
            Ok(_) => {}
            Err(e) => {
                TOOL.unreadable(&name, cli::in_words(&e));
                status = Status::Trouble;
            }
        }
    }
    let mut warned_compact = false;
    for (file, kind) in &files {
        match format_file(file, *kind, opts, mode) {
            Ok(outcome) => {
                if outcome.changed && mode.check {
                    status = status.max(Status::Unformatted);
                }
                // Said once, of the first file with comments.
                if outcome.dropped_comments && !warned_compact {
                    cli::warn_compact(&cli::display_name(file));
                    warned_compact = true;
                }
            }
            Err(Failed::BrokenPipe) => break,
            Err(Failed::Changed) => status = status.max(Status::Unformatted),
            Err(Failed::Reported) => status = Status::Trouble,
        }
    }
    match status {
        Status::Clean => ExitCode::SUCCESS,
        Status::Unformatted => ExitCode::from(cli::DIFFERENT),
        Status::Trouble => ExitCode::from(cli::TROUBLE),
    }
}

/// What became of one file.
struct Outcome {
    changed: bool,
    dropped_comments: bool,
}

/// Why a file was not done.
enum Failed {
    /// Said on standard error.
    Reported,
    /// It changed while it was formatted: left as it is (said).
    Changed,
    /// Standard output is gone: stop quietly.
    BrokenPipe,
}

/// Formats one file (`-`: standard input) and does what `mode` says.
fn format_file(
    file: &Path,
    kind: FileKind,
    opts: kyaml::Options,
    mode: Mode,
) -> Result<Outcome, Failed> {
    let stdin = file.as_os_str() == "-";
    let name = cli::display_name(file);
    let (input, stamp) = match cli::read_whole(file) {
        Ok((input, meta)) => (input, meta.as_ref().map(Stamp::of)),
        Err(e) => {
            TOOL.unreadable(&name, cli::in_words(&e));
            return Err(Failed::Reported);
        }
    };
    let formatted = match kind {
        FileKind::Yaml => match format_yaml(&input, opts) {
            (Ok(text), warnings) => {
                cli::warn(&name, &warnings);
                text
            }
            (Err(err), _) => {
                cli::report_invalid_in(&name, &input, &err);
                return Err(Failed::Reported);
            }
        },
        FileKind::Markdown => markdown::rewrite(&input, |block| {
            let (text, mut warnings) = format_yaml(&block.text, opts);
            for warning in &mut warnings {
                warning.line += block.line - 1;
                warning.column += block.indent;
            }
            cli::warn(&name, &warnings);
            match text {
                Ok(text) => Some(text),
                Err(err) => {
                    cli::warn_at(
                        &name,
                        block.line + err.line() - 1,
                        err.column() + block.indent,
                        format_args!("this YAML block is left as written: {}", err.message()),
                    );
                    None
                }
            }
        }),
    };
    let outcome = Outcome {
        changed: formatted != input,
        dropped_comments: opts.compact_layout() && kyaml::has_comments(&input),
    };
    let mut stdout = io::stdout().lock();
    let printed = if mode.check {
        match outcome.changed {
            true => writeln!(stdout, "{name}"),
            false => Ok(()),
        }
    } else if mode.diff {
        match outcome.changed {
            true => {
                let old = String::from_utf8_lossy(&input);
                let new = String::from_utf8_lossy(&formatted);
                let diff = kyaml::LineDiff::new(&old, &new).labels(&name, &name);
                write!(stdout, "{diff}")
            }
            false => Ok(()),
        }
    } else if mode.write && !stdin {
        Ok(())
    } else {
        stdout.write_all(&formatted)
    };
    match printed.and_then(|()| stdout.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Err(Failed::BrokenPipe),
        Err(e) => {
            TOOL.failed("standard output", cli::in_words(&e));
            return Err(Failed::Reported);
        }
        Ok(()) => {}
    }
    if let (true, false, true, Some(stamp)) = (mode.write, stdin, outcome.changed, stamp) {
        match replace::replace(file, &formatted, stamp) {
            Ok(()) => {}
            Err(NotReplaced::Changed) => {
                TOOL.failed(&name, "changed while it was being formatted; left as it is");
                return Err(Failed::Changed);
            }
            Err(NotReplaced::Io(e)) => {
                TOOL.failed(
                    &name,
                    format_args!("not rewritten (left as it was): {}", cli::in_words(&e)),
                );
                return Err(Failed::Reported);
            }
        }
    }
    Ok(outcome)
}

/// Formats one YAML text, with the warnings of its reading. A byte order
/// mark is kept, and CRLF line ends if its first line has one.
fn format_yaml(
    input: &[u8],
    opts: kyaml::Options,
) -> (Result<Vec<u8>, kyaml::Error>, Vec<kyaml::Warning>) {
    let bom = input.starts_with(cli::BOM);
    let crlf = input
        .iter()
        .position(|&b| b == b'\n')
        .is_some_and(|end| end > 0 && input[end - 1] == b'\r');
    let mut formatted = Vec::with_capacity(input.len() + input.len() / 4);
    let mut warnings = Vec::new();
    let written = opts.to_writer_with_warnings(input, &mut formatted, &mut warnings);
    if let Err(e) = written {
        let err = match cli::invalid(&e) {
            Some(err) => *err,
            // A `Vec` takes every write: only invalid input fails.
            None => unreachable!("writing to memory failed: {e}"),
        };
        return (Err(err), warnings);
    }
    if !bom && !crlf {
        return (Ok(formatted), warnings);
    }
    let mut out = Vec::with_capacity(formatted.len() + formatted.len() / 16 + 8);
    if bom && !formatted.starts_with(cli::BOM) {
        out.extend_from_slice(cli::BOM);
    }
    if crlf {
        for line in formatted.split_inclusive(|&b| b == b'\n') {
            match line.strip_suffix(b"\n") {
                Some(text) => {
                    out.extend_from_slice(text.strip_suffix(b"\r").unwrap_or(text));
                    out.extend_from_slice(b"\r\n");
                }
                None => out.extend_from_slice(line),
            }
        }
    } else {
        out.extend_from_slice(&formatted);
    }
    (Ok(out), warnings)
}
