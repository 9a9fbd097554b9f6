//! `kyaml fmt`: re-formats YAML (and KYAML) files and the YAML blocks of
//! Markdown pages as KYAML, comments kept; writes them back (`-w`, see
//! `replace`), checks them (`--check`) or shows the change (`-d`).
//! Line ends and a byte order mark are kept.

use std::ffi::OsString;
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::{self, Args, Tool};
use crate::leftover;
use crate::markdown;
use crate::replace::{self, Replacement, Stamp};
use crate::walk::{FileKind, Found, Rules, Walk};
use crate::writers::{Dressed, UntilDifferent};

const USAGE: &str = "\
Usage: kyaml fmt [OPTIONS] [PATH ...]

Re-formats YAML or KYAML as KYAML, keeping every comment and one blank line
where the input had any between items. A second run changes nothing.
Without PATH, or for `-`, reads standard input and writes standard output,
each document as soon as it is complete (an invalid one is reported, and
the documents before it are written).

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
                         never lost; mode, owner, ACLs and attributes
                         kept; a file this user may not write refused,
                         exit 2; one changed meanwhile left, exit 1)
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
    let mut found = Found::default();
    for path in &paths {
        let name = cli::display_name(path);
        match walk.expand(path, &mut found) {
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
    let settled = leftover::settle(TOOL, &found, mode.write);
    if settled.trouble {
        status = Status::Trouble;
    }
    let mut warned_compact = false;
    for (file, kind) in &found.files {
        if settled.skips(file) {
            continue;
        }
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
    /// It would change (as far as the mode looked: printing does not
    /// compare).
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

/// Formats one file (`-`: standard input) and does what `mode` says. A
/// YAML file's new text is streamed where it goes (standard output, a
/// comparison, the temporary file of `-w`), never held whole; a diff
/// needs it whole, and so does a Markdown page (its blocks are small).
fn format_file(
    file: &Path,
    kind: FileKind,
    opts: kyaml::Options,
    mode: Mode,
) -> Result<Outcome, Failed> {
    let name = cli::display_name(file);
    if file.as_os_str() == "-" && kind == FileKind::Yaml && !mode.check && !mode.diff {
        return stream_yaml(&name, opts);
    }
    let (input, stamp) = match cli::read_whole(file) {
        Ok((input, meta)) => (input, meta.as_ref().map(Stamp::of)),
        Err(e) => {
            TOOL.unreadable(&name, cli::in_words(&e));
            return Err(Failed::Reported);
        }
    };
    // `-w` on a file (standard input has no stamp: it is printed).
    let rewrite = stamp.filter(|_| mode.write);
    let changed = match kind {
        FileKind::Yaml if mode.check => check_yaml(&name, &input, opts)?,
        FileKind::Yaml if !mode.diff => match rewrite {
            Some(stamp) => rewrite_yaml(file, &name, &input, stamp, opts)?,
            None => print_yaml(&name, &input, opts).map(|()| false)?,
        },
        _ => whole_file(file, &name, &input, kind, opts, mode, rewrite)?,
    };
    if mode.check && changed {
        to_stdout(|out| writeln!(out, "{name}"))?;
    }
    Ok(Outcome {
        changed,
        dropped_comments: opts.compact_layout() && kyaml::has_comments(&input),
    })
}

/// Prints the KYAML of standard input, document by document, each as
/// soon as it is complete (`kubectl get -w -o yaml | kyaml fmt`), dressed
/// as its first line is. An invalid document is reported, and the
/// documents before it are printed.
fn stream_yaml(name: &str, opts: kyaml::Options) -> Result<Outcome, Failed> {
    let mut stdin = io::stdin().lock();
    let mut head = Vec::new();
    if let Err(e) = stdin.read_until(b'\n', &mut head) {
        TOOL.unreadable(name, cli::in_words(&e));
        return Err(Failed::Reported);
    }
    let mut stdin = cli::Watched::new(stdin);
    let out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let out = Dressed::like(&head, out);
    let mut docs = opts.transcoder(io::Cursor::new(head).chain(&mut stdin), out);
    let (mut warnings, mut dropped_comments) = (Vec::new(), false);
    let ended = loop {
        let next = docs.next_document_with_warnings(&mut warnings);
        dropped_comments |= opts.compact_layout() && kyaml::has_comments(docs.last_document());
        match next {
            Ok(true) => cli::warn(name, warnings.drain(..).as_slice()),
            Ok(false) => break Ok(()),
            Err(e) => break Err(e),
        }
    };
    let rejected = docs
        .rejected_line()
        .map(|(line, first)| (line.to_vec(), first));
    let (_, out) = docs.into_inner();
    let written = out.finish().and_then(|mut out| out.flush());
    match ended {
        Ok(()) => written.map_err(stdout_failed)?,
        Err(e) => {
            if let (Some(err), Some((line, first))) = (cli::invalid(&e), rejected) {
                cli::report_invalid(name, &line, first, err);
            } else if stdin.failed {
                TOOL.unreadable(name, cli::in_words(&e));
            } else {
                return Err(stdout_failed(e));
            }
            return Err(Failed::Reported);
        }
    }
    Ok(Outcome {
        changed: false,
        dropped_comments,
    })
}

/// Does what `mode` says with the whole new text of a file (a Markdown
/// page, or the diff of a YAML file); returns whether it changed.
/// `rewrite`: `-w` on a file read with this stamp.
fn whole_file(
    file: &Path,
    name: &str,
    input: &[u8],
    kind: FileKind,
    opts: kyaml::Options,
    mode: Mode,
    rewrite: Option<Stamp>,
) -> Result<bool, Failed> {
    let formatted = format_whole(name, input, kind, opts)?;
    let changed = formatted != input;
    match (mode.check, mode.diff, rewrite) {
        // The caller lists it.
        (true, _, _) => {}
        (false, true, _) if changed => {
            let old = String::from_utf8_lossy(input);
            let new = String::from_utf8_lossy(&formatted);
            let diff = kyaml::LineDiff::new(&old, &new).labels(name, name);
            to_stdout(|out| write!(out, "{diff}"))?;
        }
        (false, false, None) => to_stdout(|out| out.write_all(&formatted))?,
        _ => {}
    }
    if let (Some(stamp), true) = (rewrite, changed) {
        replace::replace(file, &formatted, stamp).map_err(|e| not_rewritten(name, e))?;
    }
    Ok(changed)
}

/// `--check` of a YAML file: whether its text would change.
fn check_yaml(name: &str, input: &[u8], opts: kyaml::Options) -> Result<bool, Failed> {
    let compared = UntilDifferent::new(input, || Ok(io::sink()));
    let compared = write_yaml(name, input, opts, compared, false, |e| unwritten(name, e))?;
    match compared.finish() {
        Ok(differs) => Ok(differs.is_some()),
        Err(e) => Err(unwritten(name, e)),
    }
}

/// `-w` of a YAML file: its text goes into the temporary file of a
/// [`Replacement`] opened at the first byte that differs, and replaces the
/// file if any did (whether it changed is returned). An unchanged file is
/// never written, and an invalid one is left with no temporary file.
fn rewrite_yaml(
    file: &Path,
    name: &str,
    input: &[u8],
    stamp: Stamp,
    opts: kyaml::Options,
) -> Result<bool, Failed> {
    let new_text = || Replacement::start(file, stamp).map(io::BufWriter::new);
    let compared = UntilDifferent::new(input, new_text);
    let failed = |e| not_rewritten(name, e);
    let compared = write_yaml(name, input, opts, compared, false, failed)?;
    let replaced = compared.finish().and_then(|new| match new {
        None => Ok(false),
        Some(new) => {
            let new = new.into_inner().map_err(io::IntoInnerError::into_error)?;
            new.finish().map(|()| true)
        }
    });
    replaced.map_err(|e| not_rewritten(name, e))
}

/// Prints a YAML file's text on standard output, if the file is valid:
/// nothing of an invalid file is printed (the library's
/// `to_writer_all_or_nothing`: a file of several documents is checked
/// whole before the first is written, a second reading).
fn print_yaml(name: &str, input: &[u8], opts: kyaml::Options) -> Result<(), Failed> {
    let out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut out = write_yaml(name, input, opts, out, true, stdout_failed)?;
    out.flush().map_err(stdout_failed)
}

/// The new text of a file, whole: a YAML file's, or a Markdown page's
/// with each YAML block formatted (a block that is not valid is left as
/// written, with a warning).
fn format_whole(
    name: &str,
    input: &[u8],
    kind: FileKind,
    opts: kyaml::Options,
) -> Result<Vec<u8>, Failed> {
    let page = match kind {
        FileKind::Yaml => {
            let out = Vec::with_capacity(input.len() + input.len() / 4);
            return write_yaml(name, input, opts, out, false, |e| unwritten(name, e));
        }
        FileKind::Markdown => input,
    };
    Ok(markdown::rewrite(page, |block| {
        let mut warnings = Vec::new();
        let text = dress_yaml(&block.text, opts, Vec::new(), false, &mut warnings);
        for warning in &mut warnings {
            warning.line += block.line - 1;
            warning.column += block.indent;
        }
        cli::warn(name, &warnings);
        let e = match text {
            Ok(text) => return Some(text),
            Err(e) => e,
        };
        let (line, column, why) = match cli::invalid(&e) {
            Some(err) => {
                let line = block.line + err.line() - 1;
                (line, err.column() + block.indent, err.message().to_string())
            }
            None => (block.line, block.indent + 1, cli::in_words(&e)),
        };
        // (`format_args!` in the call: Rust 1.87 cannot keep it in a `let`.)
        cli::warn_at(
            name,
            line,
            column,
            format_args!("this YAML block is left as written: {why}"),
        );
        None
    }))
}

/// Writes the KYAML of the YAML `input` into `out`, dressed like it
/// ([`dress_yaml`], `all_or_nothing` too), and prints its warnings;
/// returns `out`. An invalid input is reported, and `failed` says what any
/// other error means.
fn write_yaml<W: Write>(
    name: &str,
    input: &[u8],
    opts: kyaml::Options,
    out: W,
    all_or_nothing: bool,
    failed: impl FnOnce(io::Error) -> Failed,
) -> Result<W, Failed> {
    let mut warnings = Vec::new();
    let written = dress_yaml(input, opts, out, all_or_nothing, &mut warnings);
    if let Err(Some(err)) = written.as_ref().map_err(cli::invalid) {
        cli::report_invalid_in(name, input, err);
        return Err(Failed::Reported);
    }
    cli::warn(name, &warnings);
    written.map_err(failed)
}

/// Writes the KYAML of the YAML `input` into `out` through a [`Dressed`]
/// writer (the input's byte order mark and line ends kept), its warnings
/// appended to `warnings`; returns `out`. With `all_or_nothing`, an
/// invalid input leaves nothing in `out` (for a writer that cannot drop
/// what it got: standard output), else the documents before the invalid
/// one (for one that drops all on an error anyway: no second reading).
fn dress_yaml<W: Write>(
    input: &[u8],
    opts: kyaml::Options,
    out: W,
    all_or_nothing: bool,
    warnings: &mut Vec<kyaml::Warning>,
) -> io::Result<W> {
    let mut dressed = Dressed::like(input, out);
    // One copy of the library's writing for every writer.
    let writer: &mut dyn Write = &mut dressed;
    let opts = cli::as_kubectl_reads(opts, input);
    match all_or_nothing {
        true => opts.to_writer_all_or_nothing(writer, input, warnings)?,
        false => opts.to_writer_with_warnings(writer, input, warnings)?,
    }
    dressed.finish()
}

/// Writes to standard output with `print`, then flushes it.
fn to_stdout(
    print: impl FnOnce(&mut io::StdoutLock<'static>) -> io::Result<()>,
) -> Result<(), Failed> {
    let mut stdout = io::stdout().lock();
    print(&mut stdout)
        .and_then(|()| stdout.flush())
        .map_err(stdout_failed)
}

/// A failed write to standard output: a broken pipe stops quietly, any
/// other error is said.
fn stdout_failed(e: io::Error) -> Failed {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return Failed::BrokenPipe;
    }
    TOOL.failed("standard output", cli::in_words(&e));
    Failed::Reported
}

/// A file that `-w` could not rewrite: said, with the state it is in.
fn not_rewritten(name: &str, e: io::Error) -> Failed {
    if replace::changed_meanwhile(&e) {
        TOOL.failed(name, "changed while it was being formatted; left as it is");
        return Failed::Changed;
    }
    TOOL.failed(name, replace::not_rewritten(&e));
    Failed::Reported
}

/// An error of a writer in memory, which takes every write: said, should
/// it come.
fn unwritten(name: &str, e: io::Error) -> Failed {
    TOOL.failed(name, cli::in_words(&e));
    Failed::Reported
}
