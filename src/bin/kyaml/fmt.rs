//! `kyaml fmt`: re-formats YAML (and KYAML) files and the YAML blocks of
//! Markdown pages as KYAML, comments kept; writes them back (`-w`, see
//! `replace`), checks them (`--check`) or shows the change (`-d`).
//! Line ends and a byte order mark are kept. Also owns which reading a
//! file gets (SPEC-YAML.md §8): a file of Kubernetes objects kubectl's,
//! any other one formatted only where the warnings' kinds show its data
//! the same under YAML 1.1 and 1.2, else left as written
//! ([`left_as_written`]), unless `--schema` or a `.kyaml.yaml`
//! (`config.rs`) settles it; standard input, unless it stands for a
//! file, gets it document by document ([`stream_yaml`]).

use std::ffi::OsString;
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::{self, Args, Tool};
use crate::config::Configs;
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
the documents before it are written); each document gets the reading
below as a file of it alone would. Standing for a file (--stdin-filepath)
with no schema set, the input is read whole, as that file is.

Which reading: a file whose documents are Kubernetes objects (each a map
with `apiVersion` and `kind`) is read as kubectl reads it. Any other file
(a CI workflow, compose, mkdocs, GitLab CI, Helm values) is formatted only
if its data is the same under YAML 1.1 (kubectl, PyYAML) and YAML 1.2, and
it has no tag KYAML drops and no alias or merge key (`<<`) it would spell
out; else it is left byte for byte as written, and one line says why:
  FILE:LINE:COL: left as written: plain scalar 'on' is ...; quote it, or set its schema
`--check` counts such a file as one to fix (exit 1). A schema named by
--schema, or for the file in a .kyaml.yaml, settles the reading.

Configuration: the .kyaml.yaml nearest each file (in its directory or
above) applies: `exclude: [GLOB, ...]` (gitignore globs, relative to it;
files named on the command line too), `schema: NAME` or `schema: {GLOB:
NAME, ...}` (the last matching glob decides), `markdown: true`.

A directory stands for the *.yaml and *.yml files under it, as git sees
the tree: files that .gitignore (at any level) or .git/info/exclude
ignores are left out, and so are version control folders (.git, .hg,
.svn, .sl, .jj), node_modules, symbolic links, and the templates/ folder
of a Helm chart (a directory holding Chart.yaml). Hidden folders such as
.github/ are walked. A file named on the command line is always read.

A Markdown page (*.md) has each ```yaml or ```yml block formatted, and every
other byte kept; a block that is not valid YAML is left as written, with
a warning. A CRLF file is written with CRLF (its first line end decides),
and a byte order mark is kept.

Options:
      --check            write nothing; list each file that would change,
                         and exit 1 if any would (for CI and pre-commit)
  -w, --write            rewrite each file that changes, and list it (see
                         the README: never lost; mode, owner, ACLs and
                         attributes kept; a file this user may not write
                         refused, exit 2; one changed meanwhile left, exit 1)
  -d, --diff             print a unified diff of each file that would change
                         (applies with `patch`); exit 0, or with --check 1
                         if any would change; with -w, rewrite them too
  -q, --quiet            list no file names (--check and -w)
      --exclude GLOB     leave out the paths a walk meets that GLOB matches
                         (gitignore syntax: `vendor`, `**/zz_generated*`,
                         `docs/**`; repeatable)
      --markdown         walks take *.md pages too
      --schema NAME      how plain scalars read in every file: kubectl or
                         yaml-1.2 (settles the reading: nothing is left
                         as written for its reading)
      --stdin-filepath PATH
                         standard input stands for PATH: its configuration
                         and reading rules apply, and messages name it
      --print-config FILE
                         print what applies to FILE (configuration file,
                         exclusion, schema, Markdown) and exit
  -c, --compact          one line per document (writes no comments)
  -h, --help             print this help

A file that does not parse is reported as FILE:LINE:COLUMN and left as it
is; the other files are still processed.
";

/// What `kyaml fmt` with nothing to read but a terminal says.
const SHORT_USAGE: &str = "\
Usage: kyaml fmt [--check | -w | -d] [OPTIONS] PATH ...
       kyaml fmt [OPTIONS] < FILE        (standard input to standard output)
Try 'kyaml fmt --help' for more.
";

/// What to do with each formatted file.
#[derive(Clone, Copy, Default)]
struct Mode {
    check: bool,
    write: bool,
    diff: bool,
    /// `-q`: `--check` and `-w` list no file names.
    quiet: bool,
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

/// How a file is read: its options, and whether its reading is settled
/// (a schema named on the command line or in a configuration). A file
/// whose reading is not settled is read as kubectl reads it, and left as
/// written where that is not safe ([`left_as_written`]).
#[derive(Clone, Copy)]
struct Reading {
    opts: kyaml::Options,
    settled: bool,
}

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
        configs: Configs::default(),
    };
    let mut stdin_path: Option<PathBuf> = None;
    let mut print_config: Option<PathBuf> = None;
    let parsed = args.parse(USAGE, &mut opts, None, &mut paths, |flag, args| {
        match flag {
            "--stdin-filepath" => stdin_path = Some(args.value("a path")?.into()),
            "--print-config" => print_config = Some(args.value("a file")?.into()),
            "--check" => mode.check = true,
            "-w" | "--write" => mode.write = true,
            "-d" | "--diff" => mode.diff = true,
            "-q" | "--quiet" => mode.quiet = true,
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
    let schema_given = args.schema_given;
    if mode.check && mode.write {
        return TOOL.usage("`--check` writes nothing: it cannot go with `--write`");
    }
    if let Some(file) = print_config {
        return show_config(&file, &mut walk, schema_given.then_some(opts));
    }
    if paths.is_empty() && stdin_path.is_none() && io::stdin().is_terminal() {
        // Nothing to read but a terminal: say how to use it.
        eprint!("{}", SHORT_USAGE);
        return ExitCode::from(cli::TROUBLE);
    }
    if paths.is_empty() {
        paths.push(PathBuf::from("-"));
    }
    let no_mode = !(mode.check || mode.write || mode.diff);
    let mut status = Status::Clean;
    let mut found = Found::default();
    for path in &paths {
        let name = cli::display_name(path);
        match walk.expand(path, &mut found) {
            Ok(0) => {
                TOOL.unreadable(&name, "no YAML files under it");
                status = Status::Trouble;
            }
            // Printing every file of a tree in a row helps no one.
            Ok(_) if no_mode && path.is_dir() => {
                return TOOL.usage(format_args!(
                    "{name} is a directory: add -w to rewrite its files, --check to \
                     list those that would change, or -d to show the changes"
                ));
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
        // Standard input stands for `--stdin-filepath`, if given.
        let stands_for = match (file.as_os_str() == "-", &stdin_path) {
            (true, Some(path)) => path,
            _ => file,
        };
        let name = cli::display_name(stands_for);
        let applied = match stands_for.as_os_str() == "-" {
            true => None,
            false => match walk.configs.applied(stands_for, false) {
                Ok(applied) => Some(applied),
                Err(message) => {
                    eprintln!("{}: {message}", TOOL.0);
                    status = Status::Trouble;
                    continue;
                }
            },
        };
        let excluded = applied.as_ref().is_some_and(|a| a.excluded);
        if excluded && file.as_os_str() != "-" {
            continue;
        }
        let reading = match applied.and_then(|a| a.schema) {
            _ if schema_given => Reading {
                opts,
                settled: true,
            },
            Some((schema, _)) => Reading {
                opts: opts.schema(schema),
                settled: true,
            },
            None => Reading {
                opts,
                settled: false,
            },
        };
        if excluded {
            // Standard input standing for an excluded path: passed through.
            if pass_through(&name, mode) == Err(Failed::BrokenPipe) {
                break;
            }
            continue;
        }
        // Standard input is formatted document by document, unless it
        // stands for a file whose reading is not settled.
        let streams = reading.settled || stdin_path.is_none();
        match format_file(file, &name, *kind, reading, mode, streams) {
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
            Err(Failed::Left) if mode.check => {
                status = status.max(Status::Unformatted);
                let listed = mode.quiet || mode.diff;
                if !listed && to_stdout(|out| writeln!(out, "{name}")) == Err(Failed::BrokenPipe) {
                    break;
                }
            }
            Err(Failed::Left) => {}
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
#[derive(PartialEq, Eq)]
enum Failed {
    /// Said on standard error.
    Reported,
    /// It changed while it was formatted: left as it is (said).
    Changed,
    /// Its reading is not settled and the two readings disagree, or
    /// formatting would drop a tag or spell out an alias: left as written
    /// (said, [`left_as_written`]).
    Left,
    /// Standard output is gone: stop quietly.
    BrokenPipe,
}

/// Formats one file (`-`: standard input) and does what `mode` says. A
/// YAML file's new text is streamed where it goes (standard output, a
/// comparison, the temporary file of `-w`), never held whole; a diff
/// needs it whole, and so does a Markdown page (its blocks are small).
/// `streams`: standard input is formatted document by document.
fn format_file(
    file: &Path,
    name: &str,
    kind: FileKind,
    reading: Reading,
    mode: Mode,
    streams: bool,
) -> Result<Outcome, Failed> {
    let opts = reading.opts;
    // Standard input streams, document by document ([`stream_yaml`]),
    // unless it stands for a file (`--stdin-filepath`) whose reading is
    // not settled: an editor writes it back into that file, which gets
    // one reading for all of its documents (SPEC-YAML.md §8), and it is
    // read whole. A diff needs it whole too.
    if file.as_os_str() == "-" && kind == FileKind::Yaml && streams && !mode.diff {
        let outcome = stream_yaml(name, reading, mode.check)?;
        if mode.check && outcome.changed && !mode.quiet {
            to_stdout(|out| writeln!(out, "{name}"))?;
        }
        return Ok(outcome);
    }
    let (input, stamp) = match cli::read_whole(file) {
        Ok((input, meta)) => (input, meta.as_ref().map(Stamp::of)),
        Err(e) => {
            TOOL.unreadable(name, cli::in_words(&e));
            return Err(Failed::Reported);
        }
    };
    // `-w` on a file (standard input has no stamp: it is printed).
    let rewrite = stamp.filter(|_| mode.write);
    let changed = match kind {
        FileKind::Yaml if mode.check && !mode.diff => check_yaml(name, &input, reading)?,
        FileKind::Yaml if !mode.diff => match rewrite {
            Some(stamp) => rewrite_yaml(file, name, &input, stamp, reading)?,
            None => print_yaml(name, &input, reading).map(|()| false)?,
        },
        _ => whole_file(file, name, &input, kind, reading, mode, rewrite)?,
    };
    // Listed like gofmt -l: what `--check` would change, what `-w` changed
    // (a diff names them itself).
    if (mode.check || rewrite.is_some()) && changed && !mode.diff && !mode.quiet {
        match to_stdout(|out| writeln!(out, "{name}")) {
            // `-w` rewrote the file: a list that could not be written is
            // said (by `to_stdout`), and the run goes on as it went.
            Err(Failed::Reported) if !mode.check => {}
            listed => listed?,
        }
    }
    Ok(Outcome {
        changed,
        dropped_comments: opts.compact_layout() && kyaml::has_comments(&input),
    })
}

/// Formats standard input document by document, each written and
/// flushed as soon as it is complete (`kubectl get -w -o yaml | kyaml
/// fmt`), dressed as its first line is; with `check`, writes nothing and
/// says whether any document would change. Each document gets the reading
/// a file with its text alone would get ([`left_as_written`],
/// [`refused_by_kubectl_alone`]): a document left as written is copied
/// byte for byte, its line saying where in the whole input. An invalid
/// document is reported, and the documents before it are written.
fn stream_yaml(name: &str, reading: Reading, check: bool) -> Result<Outcome, Failed> {
    let opts = reading.opts;
    let mut stdin = io::stdin().lock();
    let mut head = Vec::new();
    if let Err(e) = stdin.read_until(b'\n', &mut head) {
        TOOL.unreadable(name, cli::in_words(&e));
        return Err(Failed::Reported);
    }
    // Every document is dressed as the input's first line; a byte order
    // mark goes before the first alone.
    let later_head = head.strip_prefix(cli::BOM).unwrap_or(&head).to_vec();
    let mut dress_like = &head[..];
    let mut stdin = cli::Watched::new(stdin);
    let staged = Staged::default();
    let mut docs = opts.transcoder(io::Cursor::new(&head).chain(&mut stdin), staged.clone());
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let (mut warnings, mut dropped_comments, mut changed) = (Vec::new(), false, false);
    let mut copied_before = false;
    let ended = loop {
        let next = docs.next_document_with_warnings(&mut warnings);
        let next = docs.flush().and(next);
        let doc = docs.last_document();
        let new_text = staged.take();
        let left = match next {
            Ok(false) => break Ok(()),
            Ok(true) => match left_as_written(doc, reading, &warnings) {
                Some(why) => {
                    say_left(name, why, "left as written");
                    true
                }
                None => {
                    cli::warn(name, &warnings);
                    false
                }
            },
            Err(e) => match cli::invalid(&e) {
                // Refused by kubectl alone (nothing of it was written).
                Some(err) if refused_by_kubectl_alone(doc, reading) => {
                    say_refused_by_kubectl(name, err, false);
                    true
                }
                _ => break Err(e),
            },
        };
        warnings.clear();
        dropped_comments |= opts.compact_layout() && kyaml::has_comments(doc);
        // A document's text starts with a blank line only where the one
        // before ends with it unwritten (`Transcoder`'s seam); a document
        // copied as written kept its own.
        let new_text = match copied_before {
            true => new_text.strip_prefix(b"\n").unwrap_or(&new_text),
            false => &new_text[..],
        };
        copied_before = left;
        let dressed = match left {
            true => doc.to_vec(),
            false => dressed_like(dress_like, new_text).map_err(|e| unwritten(name, e))?,
        };
        dress_like = &later_head;
        changed |= left || dressed != doc;
        if !check {
            out.write_all(&dressed)
                .and_then(|()| out.flush())
                .map_err(stdout_failed)?;
        }
    };
    let rejected = docs
        .rejected_line()
        .map(|(line, first)| (line.to_vec(), first));
    drop(docs);
    if let Err(e) = ended {
        if let (Some(err), Some((line, first))) = (cli::invalid(&e), rejected) {
            cli::report_invalid(name, &line, first, err);
        } else if stdin.failed {
            TOOL.unreadable(name, cli::in_words(&e));
        } else {
            return Err(unwritten(name, e));
        }
        return Err(Failed::Reported);
    }
    Ok(Outcome {
        changed,
        dropped_comments,
    })
}

/// The KYAML `text` dressed as `input` is ([`Dressed`]).
fn dressed_like(input: &[u8], text: &[u8]) -> io::Result<Vec<u8>> {
    let mut dressed = Dressed::like(input, Vec::with_capacity(text.len() + text.len() / 8));
    dressed.write_all(text)?;
    dressed.finish()
}

/// Where a [`kyaml::Transcoder`] writes one document's output, to be
/// taken ([`Staged::take`]) before it goes on: shared with it.
#[derive(Clone, Default)]
struct Staged(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

impl Staged {
    /// What was written since the last call.
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.borrow_mut())
    }
}

impl Write for Staged {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Does what `mode` says with the whole new text of a file (a Markdown
/// page, or the diff of a YAML file); returns whether it changed.
/// `rewrite`: `-w` on a file read with this stamp.
fn whole_file(
    file: &Path,
    name: &str,
    input: &[u8],
    kind: FileKind,
    reading: Reading,
    mode: Mode,
    rewrite: Option<Stamp>,
) -> Result<bool, Failed> {
    let formatted = format_whole(name, input, kind, reading)?;
    let changed = formatted != input;
    match (mode.check, mode.diff, rewrite) {
        (_, true, _) if changed => {
            let old = String::from_utf8_lossy(input);
            let new = String::from_utf8_lossy(&formatted);
            let diff = kyaml::LineDiff::new(&old, &new).labels(name, name);
            to_stdout(|out| write!(out, "{diff}"))?;
        }
        // `--check` alone: the caller lists it.
        (false, false, None) => to_stdout(|out| out.write_all(&formatted))?,
        _ => {}
    }
    if let (Some(stamp), true) = (rewrite, changed) {
        replace::replace(file, &formatted, stamp).map_err(|e| not_rewritten(name, e))?;
    }
    Ok(changed)
}

/// `--check` of a YAML file: whether its text would change.
fn check_yaml(name: &str, input: &[u8], reading: Reading) -> Result<bool, Failed> {
    let compared = UntilDifferent::new(input, || Ok(io::sink()));
    let compared = write_yaml(name, input, reading, compared, false, |e| {
        unwritten(name, e)
    })?;
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
    reading: Reading,
) -> Result<bool, Failed> {
    let new_text = || Replacement::start(file, stamp).map(io::BufWriter::new);
    let compared = UntilDifferent::new(input, new_text);
    let failed = |e| not_rewritten(name, e);
    // Left as written: the temporary file, if started, is dropped.
    let compared = write_yaml(name, input, reading, compared, false, failed)?;
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
/// whole before the first is written, a second reading). A file whose
/// reading is not settled has its warnings read first (one more reading,
/// streamed: memory stays bounded), and is printed as written if it is
/// left so.
fn print_yaml(name: &str, input: &[u8], reading: Reading) -> Result<(), Failed> {
    if let Some(why) = left_as_written(input, reading, &reading.opts.warnings(input)) {
        // An invalid file is reported as such, below.
        if reading.opts.check(input).is_ok() {
            say_left(name, why, "left as written");
            return to_stdout(|out| out.write_all(input));
        }
    }
    let out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    match write_yaml(name, input, reading, out, true, stdout_failed) {
        Ok(mut out) => out.flush().map_err(stdout_failed),
        // Refused by kubectl alone (nothing of it was written): as it is.
        Err(Failed::Left) => to_stdout(|out| out.write_all(input)),
        Err(failed) => Err(failed),
    }
}

/// Standard input standing for a path its configuration excludes: printed
/// as it is (nothing in `--check` and `-d`).
fn pass_through(name: &str, mode: Mode) -> Result<(), Failed> {
    let (input, _) = cli::read_whole(Path::new("-")).map_err(|e| {
        TOOL.unreadable(name, cli::in_words(&e));
        Failed::Reported
    })?;
    match mode.check || mode.diff {
        true => Ok(()),
        false => to_stdout(|out| out.write_all(&input)),
    }
}

/// The new text of a file, whole: a YAML file's, or a Markdown page's
/// with each YAML block formatted (a block that is not valid is left as
/// written, with a warning).
fn format_whole(
    name: &str,
    input: &[u8],
    kind: FileKind,
    reading: Reading,
) -> Result<Vec<u8>, Failed> {
    let page = match kind {
        FileKind::Yaml => {
            let out = Vec::with_capacity(input.len() + input.len() / 4);
            return write_yaml(name, input, reading, out, false, |e| unwritten(name, e));
        }
        FileKind::Markdown => input,
    };
    Ok(markdown::rewrite(page, |block| {
        let mut warnings = Vec::new();
        let text = dress_yaml(&block.text, reading.opts, Vec::new(), false, &mut warnings);
        for warning in &mut warnings {
            warning.line += block.line - 1;
            warning.column += block.indent;
        }
        let e = match text {
            Ok(text) => match left_as_written(&block.text, reading, &warnings) {
                Some(why) => {
                    say_left(name, why, "this YAML block is left as written");
                    return None;
                }
                None => {
                    cli::warn(name, &warnings);
                    return Some(text);
                }
            },
            Err(e) => e,
        };
        let (line, column, why) = match cli::invalid(&e) {
            Some(err) => {
                let line = block.line + err.line() - 1;
                let mut why = err.message().to_string();
                // The other place the message names, on the page too.
                if let Some((l, c)) = err.first_position().or(err.opened_position()) {
                    why = why.replace(
                        &format!("line {l}, column {c}"),
                        &format!("line {}, column {}", block.line + l - 1, c + block.indent),
                    );
                }
                (line, err.column() + block.indent, why)
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
    reading: Reading,
    out: W,
    all_or_nothing: bool,
    failed: impl FnOnce(io::Error) -> Failed,
) -> Result<W, Failed> {
    let mut warnings = Vec::new();
    let written = dress_yaml(input, reading.opts, out, all_or_nothing, &mut warnings);
    if let Err(Some(err)) = written.as_ref().map_err(cli::invalid) {
        if refused_by_kubectl_alone(input, reading) {
            say_refused_by_kubectl(name, err, true);
            return Err(Failed::Left);
        }
        cli::report_invalid_in(name, input, err);
        return Err(Failed::Reported);
    }
    if written.is_ok() {
        if let Some(why) = left_as_written(input, reading, &warnings) {
            say_left(name, why, "left as written");
            return Err(Failed::Left);
        }
    }
    cli::warn(name, &warnings);
    written.map_err(failed)
}

/// Why a YAML text (a file, or a Markdown block) whose reading is not
/// settled is left as written: the first of its `warnings` that says its
/// data would not be the same under YAML 1.1 and YAML 1.2, or that a tag
/// would be dropped or an alias or merge spelled out (every kind but
/// [`kyaml::WarningKind::Lenient`]), unless every document is a
/// Kubernetes object. `None`: it may be written.
fn left_as_written<'w>(
    input: &[u8],
    reading: Reading,
    warnings: &'w [kyaml::Warning],
) -> Option<&'w kyaml::Warning> {
    if reading.settled {
        return None;
    }
    let first = warnings
        .iter()
        .find(|w| w.kind != kyaml::WarningKind::Lenient)?;
    (!kubernetes_objects(input, reading.opts)).then_some(first)
}

/// Whether a YAML text whose reading is not settled, and that kubectl's
/// reading refuses (a `\\/` escape, a `%YAML` directive, text after `---`
/// on its line, content after `...`: kubectl's edges, SPEC-YAML.md), is
/// one that kubectl does not read: YAML 1.2's reading takes it, and no
/// document is a Kubernetes object. Its readers (pre-commit's PyYAML,
/// GitHub's YAML 1.2) take it as it is, so it is left as written rather
/// than refused; a file with a Kubernetes object keeps kubectl's error.
fn refused_by_kubectl_alone(input: &[u8], reading: Reading) -> bool {
    let yaml_1_2 = reading.opts.schema(kyaml::Schema::Yaml12);
    !reading.settled
        && yaml_1_2.check(input).is_ok()
        && top_keys(input, yaml_1_2).is_some_and(|keys| keys.objects == 0)
}

/// Whether every document of the YAML `input` (at least one; empty ones
/// aside) is a Kubernetes object: a map with `apiVersion` and `kind`,
/// which kubectl reads. Read from its compact KYAML, streamed through
/// [`TopKeys`] (memory stays bounded whatever the input's size).
fn kubernetes_objects(input: &[u8], opts: kyaml::Options) -> bool {
    top_keys(input, opts).is_some_and(|keys| !keys.other && keys.objects > 0)
}

/// What [`TopKeys`] found in the documents of the YAML `input`; `None`
/// if it is not valid.
fn top_keys(input: &[u8], opts: kyaml::Options) -> Option<TopKeys> {
    let mut keys = TopKeys::default();
    let mut warnings = Vec::new();
    let opts = opts.compact(true);
    let read = opts.to_writer_with_warnings(&mut keys, input, &mut warnings);
    read.is_ok().then_some(keys)
}

/// A writer of compact KYAML (a `---` line, then each document on one
/// line: strings escape their line feeds) that keeps only whether each
/// document is a map with the top-level keys `apiVersion` and `kind`.
#[derive(Default)]
struct TopKeys {
    objects: usize,
    /// Some document so far was neither such a map nor null.
    other: bool,
    /// The first byte of the current line, if any yet.
    first: Option<u8>,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// Reading a key of the top-level map, and its bytes so far (only
    /// the short ones matter).
    at_key: bool,
    key: Vec<u8>,
    api_version: bool,
    kind: bool,
}

impl TopKeys {
    fn byte(&mut self, b: u8) {
        let Some(first) = self.first else {
            self.first = Some(b);
            self.depth = usize::from(b == b'{');
            self.at_key = b == b'{';
            return;
        };
        if b == b'\n' {
            match first {
                b'{' if self.api_version && self.kind => self.objects += 1,
                b'-' | b'n' => {}
                _ => self.other = true,
            }
            *self = TopKeys {
                objects: self.objects,
                other: self.other,
                ..TopKeys::default()
            };
            return;
        }
        if first != b'{' {
            return;
        }
        if self.in_string {
            match (self.escaped, b) {
                (true, _) => self.escaped = false,
                (false, b'\\') => self.escaped = true,
                (false, b'"') => self.in_string = false,
                _ => {}
            }
            if self.at_key && self.key.len() < 16 {
                self.key.push(b);
            }
            return;
        }
        match b {
            b'"' => self.in_string = true,
            b'{' | b'[' => self.depth += 1,
            b'}' | b']' => self.depth = self.depth.saturating_sub(1),
            b',' if self.depth == 1 => {
                self.at_key = true;
                self.key.clear();
            }
            b':' if self.depth == 1 && self.at_key => {
                let key = self.key.trim_ascii();
                let key = key.strip_suffix(b"\"").unwrap_or(key);
                self.api_version |= key == b"apiVersion";
                self.kind |= key == b"kind";
                self.at_key = false;
            }
            _ if self.at_key && self.key.len() < 16 => self.key.push(b),
            _ => {}
        }
    }
}

impl Write for TopKeys {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            self.byte(b);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Says that `name` (or a block of it) is left as written, and why:
/// `NAME:LINE:COLUMN: WHAT: MESSAGE; ...`.
fn say_left(name: &str, why: &kyaml::Warning, what: &str) {
    let advice = match why.kind {
        kyaml::WarningKind::SchemasDisagree | kyaml::WarningKind::Yaml11Readers => {
            ", or set its schema"
        }
        _ => "; set its schema to format it anyway",
    };
    eprintln!(
        "{name}:{}:{}: {what}: {}{advice}",
        why.line, why.column, why.message
    );
}

/// Says that a file (or, streamed, a document: `whole` false)
/// [`refused_by_kubectl_alone`] is left as written, at kubectl's error.
fn say_refused_by_kubectl(name: &str, err: &kyaml::Error, whole: bool) {
    let what = match whole {
        true => "this file is not Kubernetes objects",
        false => "this document is not a Kubernetes object",
    };
    eprintln!(
        "{name}:{}:{}: left as written: only kubectl's reading refuses it, and {what}: {}; set \
         its schema to yaml-1.2 to format it",
        err.line(),
        err.column(),
        err.message()
    );
}

/// `kyaml fmt --print-config FILE`: what applies to FILE. `given`: the
/// options of a `--schema` given on the command line.
fn show_config(file: &Path, walk: &mut Walk, given: Option<kyaml::Options>) -> ExitCode {
    let is_dir = std::fs::metadata(file).is_ok_and(|m| m.is_dir());
    let applied = match walk.configs.applied(file, is_dir) {
        Ok(applied) => applied,
        Err(message) => {
            eprintln!("{}: {message}", TOOL.0);
            return ExitCode::from(cli::TROUBLE);
        }
    };
    let config = applied
        .config
        .as_ref()
        .map_or("none".into(), |c| crate::config::shown(&c.path));
    let schema = match (given, &applied.schema) {
        (Some(opts), _) => format!("{} (--schema)", schema_name(opts.yaml_schema())),
        (None, Some((schema, glob))) => format!("{} (glob {glob:?})", schema_name(*schema)),
        (None, None) => "not set: kubectl's reading for Kubernetes objects; any other file \
             is formatted only where YAML 1.1 and 1.2 read it alike"
            .into(),
    };
    let markdown = walk.markdown || applied.config.as_ref().is_some_and(|c| c.markdown);
    println!("file: {}", cli::display_name(file));
    println!("config: {config}");
    println!("excluded: {}", applied.excluded);
    println!("schema: {schema}");
    println!("markdown in walks: {markdown}");
    ExitCode::SUCCESS
}

/// A schema's name on the command line.
fn schema_name(schema: kyaml::Schema) -> &'static str {
    match schema {
        kyaml::Schema::Yaml12 => "yaml-1.2",
        _ => "kubectl",
    }
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
