//! The `kyaml` command. This file owns the conversion (`kyaml [--from
//! json|yaml] [--schema kubectl|yaml-1.2] [--compact] [--keep-going] [FILE
//! ...]`: JSON (one value, a stream, or JSON Lines) or YAML in, KYAML
//! documents out, each as soon as it is complete) and sends
//! `kyaml fmt` and `kyaml diff` to their modules; `cli` holds what the
//! three share (arguments, reading, the language guess, messages).

use std::ffi::OsString;
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use cli::{Args, Tool};

mod attrs;
mod cli;
mod config;
mod diff;
mod fmt;
mod leftover;
mod markdown;
mod replace;
mod walk;
mod writers;

const USAGE: &str = "\
Usage: kyaml [--from json|yaml] [--schema kubectl|yaml-1.2] [--compact] [--keep-going] [FILE ...]
       kyaml diff [OPTIONS] OLD NEW   (see `kyaml diff --help`)
       kyaml fmt [OPTIONS] [PATH ...] (see `kyaml fmt --help`)

Renders JSON or YAML as KYAML, the YAML dialect of `kubectl get -o kyaml`.
Reads each FILE (`-` or none: standard input); every JSON value, whether
concatenated or one per line (JSON Lines), and every YAML document becomes
one `---` document on standard output, written as soon as it is complete
(a YAML document at the next line that starts with `---`, or after `...`),
so `tail -f app.jsonl | kyaml` and `kubectl get pods -w -o json | kyaml`
(or `-o yaml`) print each one as it comes.

Options:
      --from LANG     json or yaml. Without it, a `.json` file is JSON, a
                      `.yaml`/`.yml` file YAML, and anything else (standard
                      input too) JSON if it starts with `{`, `[` or `\"` or
                      its first line is JSON or starts it (`1`, `true`),
                      else YAML
      --schema NAME   how YAML plain scalars read: kubectl (the default: what
                      `kubectl apply` reads, `yes`/`on` booleans, `0777` octal)
                      or yaml-1.2; where the two differ, a warning on
                      standard error says so (FILE:LINE:COLUMN: warning: ...)
  -c, --compact     write each document on one line
  -k, --keep-going  after an invalid document, go on at the next line that
                    starts a value (JSON Lines) or the next YAML document
  -h, --help        print this help
  -V, --version     print the version

An invalid document is reported on standard error as FILE:LINE:COLUMN and
not written; the documents before it are. Without -k the rest of its file
is skipped.
";

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1).peekable();
    match args.peek().and_then(|arg| arg.to_str()) {
        Some("diff") => diff::main(args.skip(1)),
        Some("fmt") => fmt::main(args.skip(1)),
        Some(word) if looks_like_a_subcommand(word) => Tool("kyaml").usage(format_args!(
            "unknown subcommand `{word}` (the subcommands are fmt and diff; \
             no file of that name exists either)"
        )),
        None if io::stdin().is_terminal() => {
            // Nothing to read but a terminal: say how to use it.
            eprint!(
                "Usage: kyaml [OPTIONS] [FILE ...]   (JSON or YAML in, KYAML out)\n       \
                 kyaml fmt [--check | -w | -d] PATH ...\n       \
                 kyaml diff OLD NEW\nTry 'kyaml --help' for more.\n"
            );
            ExitCode::from(cli::TROUBLE)
        }
        _ => convert(args),
    }
}

/// Whether the first argument is a word that names no file and looks
/// like a subcommand mistyped (`kyaml format .`): letters and `-` only,
/// not a flag.
fn looks_like_a_subcommand(word: &str) -> bool {
    word.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
        && !word.starts_with('-')
        && !word.is_empty()
        && !Path::new(word).exists()
}

/// Runs `kyaml` (the conversion) with its arguments.
fn convert(args: impl Iterator<Item = OsString>) -> ExitCode {
    let tool = Tool("kyaml");
    let mut args = Args::new(tool, args);
    let mut opts = kyaml::Options::new();
    let (mut compact, mut keep_going) = (false, false);
    let mut from = None;
    let mut files = Vec::new();
    let parsed = args.parse(
        USAGE,
        &mut opts,
        Some(&mut from),
        &mut files,
        |flag, args| {
            match flag {
                "-c" | "--compact" => compact = true,
                "-k" | "--keep-going" => keep_going = true,
                "-V" | "--version" => {
                    println!("kyaml {}", env!("CARGO_PKG_VERSION"));
                    return Err(ExitCode::SUCCESS);
                }
                _ => return Err(args.unknown()),
            }
            Ok(())
        },
    );
    if let Err(code) = parsed {
        return code;
    }
    let opts = opts.compact(compact);
    if files.is_empty() {
        files.push("-".into());
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut status = ExitCode::SUCCESS;
    for file in &files {
        let name = cli::display_name(file);
        let source = match cli::open(file) {
            Ok(source) => source,
            Err(e) => {
                tool.unreadable(&name, cli::in_words(&e));
                status = ExitCode::from(cli::TROUBLE);
                continue;
            }
        };
        let mut source = cli::Watched::new(source);
        match render(file, &name, &mut source, opts, from, keep_going, &mut out) {
            Ok(true) => {}
            Ok(false) => status = ExitCode::from(cli::TROUBLE),
            Err(e) if source.failed => {
                tool.unreadable(&name, cli::in_words(&e));
                status = ExitCode::from(cli::TROUBLE);
            }
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return status,
            Err(e) => {
                tool.failed("standard output", cli::in_words(&e));
                return ExitCode::from(cli::TROUBLE);
            }
        }
    }
    status
}

/// Renders one input to `out`: `Ok(false)` if an invalid document was
/// reported. Its language is [`cli::language`]'s guess, which needs at
/// most its first line.
fn render(
    file: &Path,
    name: &str,
    source: &mut dyn Read,
    opts: kyaml::Options,
    from: Option<kyaml::Input>,
    keep_going: bool,
    out: &mut impl Write,
) -> io::Result<bool> {
    let mut head = Vec::new();
    let language = cli::read_language(file, from, source, &mut head)?;
    let mut opts = opts.input(language);
    if language == kyaml::Input::Yaml && cli::starts_like_json(source, &mut head)? {
        // kubectl reads such a file as JSON values if it is: read whole
        // to tell (`cli::as_kubectl_reads`).
        source.read_to_end(&mut head)?;
        opts = cli::as_kubectl_reads(opts, &head);
    }
    let input = io::Cursor::new(head).chain(source);
    transcode(name, input, opts, keep_going, out)
}

/// Writes each document of `input` as soon as it is complete, and its
/// warnings: `Ok(false)` if an invalid one was reported (and, with
/// `keep_going`, reading went on at the next line that starts a value, or
/// the next YAML document).
fn transcode(
    name: &str,
    input: impl Read,
    opts: kyaml::Options,
    keep_going: bool,
    out: &mut impl Write,
) -> io::Result<bool> {
    let mut docs = opts.transcoder(input, out);
    let mut valid = true;
    let mut warnings = Vec::new();
    // `--compact` drops comments: said once, at the first.
    let mut comments_unseen = opts.compact_layout() && opts.input_language() == kyaml::Input::Yaml;
    loop {
        let next = docs.next_document_with_warnings(&mut warnings);
        if comments_unseen && kyaml::has_comments(docs.last_document()) {
            cli::warn_compact(name);
            comments_unseen = false;
        }
        cli::warn(name, warnings.drain(..).as_slice());
        match next {
            Ok(true) => {}
            Ok(false) => return Ok(valid),
            Err(e) => {
                let Some(err) = cli::invalid(&e) else {
                    return Err(e);
                };
                let (line, first) = docs.rejected_line().unwrap_or((b"", 1));
                cli::report_invalid(name, line, first, err);
                valid = false;
                if !keep_going {
                    return Ok(false);
                }
            }
        }
    }
}
