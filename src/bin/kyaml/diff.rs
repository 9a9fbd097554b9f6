//! `kyaml diff`: a unified diff of two inputs (JSON or YAML) as their
//! KYAML renderings, which applies with `patch` to `kyaml OLD`'s output.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::{self, Args, Tool};

const USAGE: &str = "\
Usage: kyaml diff [OPTIONS] OLD NEW

Shows what changed between two inputs, JSON or YAML, as a unified diff of
their KYAML renderings (`-` reads standard input). Streams of documents are compared
document by document. Each hunk header names the KYAML path of its first
changed line. Applied with `patch` to the output of `kyaml OLD`, the diff
gives the output of `kyaml NEW` (with --comments, for YAML with comments).

Options:
      --unordered          compare maps without regard to key order (both
                           sides are rendered with their keys sorted, and
                           the diff applies to those renderings)
      --comments           show YAML comments and blank lines in the diff
                           (by default the data alone is shown; not with
                           --unordered). The exit status is 1 only when
                           the data differ, comments or not
  -U, --context N          lines of context around each change (default 3)
      --color WHEN         auto (default: on a terminal, unless NO_COLOR is
                           set), always or never
      --from LANG          json or yaml, for both inputs. Without it, each
                           is chosen as `kyaml` chooses (see `kyaml --help`)
      --schema NAME        how YAML plain scalars read: kubectl (default)
                           or yaml-1.2
  -h, --help               print this help
";

/// When to colour the output.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Color {
    Auto,
    Always,
    Never,
}

/// Runs `kyaml diff` with the arguments after `diff`.
pub(crate) fn main(args: impl Iterator<Item = OsString>) -> ExitCode {
    let tool = Tool("kyaml diff");
    let mut args = Args::new(tool, args);
    let mut files: Vec<PathBuf> = Vec::new();
    let (mut unordered, mut context, mut color) = (false, 3usize, Color::Auto);
    let mut comments = false;
    let mut from = None;
    let mut opts = kyaml::Options::new();
    let parsed = args.parse(
        USAGE,
        &mut opts,
        Some(&mut from),
        &mut files,
        |flag, args| {
            match flag {
                "--unordered" => unordered = true,
                "--comments" => comments = true,
                "-U" | "--context" => {
                    let what = "a number of lines";
                    let n = args.value(what)?;
                    context = n.parse().map_err(|_| args.bad_value(what, &n))?;
                }
                "--color" | "--colour" => {
                    let what = "auto, always or never";
                    color = match args.value(what)?.as_str() {
                        "auto" => Color::Auto,
                        "always" => Color::Always,
                        "never" => Color::Never,
                        other => return Err(args.bad_value(what, other)),
                    }
                }
                _ => return Err(args.unknown()),
            }
            Ok(())
        },
    );
    if let Err(code) = parsed {
        return code;
    }
    let [old, new] = match <[PathBuf; 2]>::try_from(files) {
        Ok(files) => files,
        Err(files) => {
            return tool.usage(format_args!(
                "expected two inputs, OLD and NEW, not {}",
                files.len()
            ))
        }
    };
    if comments && unordered {
        return tool.usage("`--unordered` compares the data alone: it cannot go with `--comments`");
    }
    let Some(old_input) = cli::read_all(tool, &old) else {
        return ExitCode::from(cli::TROUBLE);
    };
    let new_input = if new.as_os_str() == "-" && old.as_os_str() == "-" {
        Some(old_input.clone())
    } else {
        cli::read_all(tool, &new)
    };
    let Some(new_input) = new_input else {
        return ExitCode::from(cli::TROUBLE);
    };
    let (old_name, new_name) = (cli::display_name(&old), cli::display_name(&new));
    // A diff's labels are the paths as given (`-` for standard input).
    let (old_label, new_label) = (old.to_string_lossy(), new.to_string_lossy());
    let language = |path: &Path, input: &[u8]| {
        cli::language(path, from, input, true).unwrap_or(kyaml::Input::Json)
    };
    let old_language = language(&old, &old_input);
    let new_language = language(&new, &new_input);
    let mut valid = true;
    for (name, input, language) in [
        (&old_name, &old_input, old_language),
        (&new_name, &new_input, new_language),
    ] {
        if let Err(err) = opts.input(language).check(input) {
            cli::report_invalid_in(name, input, &err);
            valid = false;
        }
    }
    if !valid {
        return ExitCode::from(cli::TROUBLE);
    }
    let color = match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    let diff = kyaml::Diff::new(&old_input, &new_input)
        .form(kyaml::Form::Document)
        .labels(&old_label, &new_label)
        .context(context)
        .unordered(unordered)
        .inputs(old_language, new_language)
        .schema(opts.yaml_schema())
        .color(color);
    let text = diff.comments(comments).to_string();
    // The exit status says whether the data differ, whatever the comments.
    let equal = text.is_empty() || (comments && diff.comments(false).is_equal());
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Err(e) => {
            tool.failed("standard output", cli::in_words(&e));
            return ExitCode::from(cli::TROUBLE);
        }
    }
    match equal {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(cli::DIFFERENT),
    }
}
