//! `kyaml diff`: a unified diff of two inputs (JSON or YAML) as their
//! KYAML renderings, which applies with `patch` to `kyaml OLD`'s output.

use std::ffi::{OsStr, OsString};
use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;

const USAGE: &str = "\
Usage: kyaml diff [OPTIONS] OLD NEW

Shows what changed between two inputs, JSON or YAML, as a unified diff of
their KYAML renderings (`-` reads standard input). Streams of documents are compared
document by document. Each hunk header names the KYAML path of its first
changed line. Applied with `patch` to the output of `kyaml OLD`, the diff
gives the output of `kyaml NEW`.

Options:
      --unordered          compare maps without regard to key order (both
                           sides are rendered with their keys sorted, and
                           the diff applies to those renderings)
  -U, --context N          lines of context around each change (default 3)
      --color WHEN         auto (default: on a terminal, unless NO_COLOR is
                           set), always or never
      --from LANG          json or yaml, for both inputs. Without it, each
                           is chosen as `kyaml` chooses: a `.json` file is
                           JSON, a `.yaml`/`.yml` file YAML, anything else
                           JSON if it starts with `{`, `[` or `\"` or is
                           valid JSON, else YAML
      --schema NAME        how YAML plain scalars read: kubectl (default)
                           or yaml-1.2
  -h, --help               print this help

Exit status: 0 when the renderings are the same, 1 when they differ,
2 on an error (a bad command line, an unreadable file, invalid input).
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
    match run(args) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("kyaml diff: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: impl Iterator<Item = OsString>) -> Result<ExitCode, String> {
    let mut args = args;
    let mut files: Vec<OsString> = Vec::new();
    let (mut unordered, mut context, mut color) = (false, 3usize, Color::Auto);
    let (mut from, mut schema) = (None, kyaml::Schema::Kubectl);
    let mut flags_done = false;
    while let Some(arg) = args.next() {
        let flag = match arg.to_str() {
            Some(flag) if !flags_done && flag.starts_with('-') && flag != "-" => flag,
            _ => {
                files.push(arg);
                continue;
            }
        };
        // `--name=value` or `--name value`; `-U3` or `-U 3`.
        let (name, inline) = match flag.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value.to_owned())),
            _ if flag.starts_with("-U") && flag.len() > 2 => ("-U", Some(flag[2..].to_owned())),
            _ => (flag, None),
        };
        let mut value = |what: &str| -> Result<String, String> {
            match inline.clone() {
                Some(value) => Ok(value),
                None => args
                    .next()
                    .and_then(|v| v.into_string().ok())
                    .ok_or_else(|| format!("`{name}` needs {what}\n\n{USAGE}")),
            }
        };
        match name {
            "--" => flags_done = true,
            "--unordered" => unordered = true,
            "-U" | "--context" => {
                let n = value("a number of lines")?;
                context = n
                    .parse()
                    .map_err(|_| format!("`{name}`: expected a number of lines, not `{n}`"))?;
            }
            "--color" | "--colour" => {
                color = match value("auto, always or never")?.as_str() {
                    "auto" => Color::Auto,
                    "always" => Color::Always,
                    "never" => Color::Never,
                    other => {
                        return Err(format!(
                            "`--color`: expected auto, always or never, not `{other}`"
                        ))
                    }
                }
            }
            "--from" => match value("json or yaml")?.as_str() {
                "json" => from = Some(kyaml::Input::Json),
                "yaml" => from = Some(kyaml::Input::Yaml),
                other => return Err(format!("`--from`: expected json or yaml, not `{other}`")),
            },
            "--schema" => match value("kubectl or yaml-1.2")?.as_str() {
                "kubectl" => schema = kyaml::Schema::Kubectl,
                "yaml-1.2" => schema = kyaml::Schema::Yaml12,
                other => {
                    return Err(format!(
                        "`--schema`: expected kubectl or yaml-1.2, not `{other}`"
                    ))
                }
            },
            "-h" | "--help" => {
                print!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            _ => return Err(format!("unknown option `{flag}`\n\n{USAGE}")),
        }
    }
    let [old, new] = <[OsString; 2]>::try_from(files).map_err(|files| {
        format!(
            "expected two inputs, OLD and NEW, not {}\n\n{USAGE}",
            files.len()
        )
    })?;
    let old_input = read(&old)?;
    let new_input = if new == "-" && old == "-" {
        old_input.clone()
    } else {
        read(&new)?
    };
    let (old_name, new_name) = (old.to_string_lossy(), new.to_string_lossy());
    let opts = kyaml::Options::new().schema(schema);
    let old_language = language(&old, &old_input, from);
    let new_language = language(&new, &new_input, from);
    check(&old_name, &old_input, opts.input(old_language))?;
    check(&new_name, &new_input, opts.input(new_language))?;
    let color = match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    let diff = kyaml::Diff::new(&old_input, &new_input)
        .form(kyaml::Form::Document)
        .labels(&old_name, &new_name)
        .context(context)
        .unordered(unordered)
        .inputs(old_language, new_language)
        .schema(schema)
        .color(color);
    let text = diff.to_string();
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(format!("writing output: {e}")),
    }
    Ok(if text.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Reads a whole file, or standard input for `-`; an error says so in words.
fn read(file: &OsStr) -> Result<Vec<u8>, String> {
    let result = if file == "-" {
        let mut input = Vec::new();
        io::stdin().lock().read_to_end(&mut input).map(|_| input)
    } else {
        std::fs::read(file)
    };
    result.map_err(|e| {
        format!(
            "cannot read {}: {}",
            file.to_string_lossy(),
            super::in_words(&e)
        )
    })
}

/// The language of one input, chosen as `kyaml` chooses (see its
/// `render`): `--from`, else the file's extension, else JSON if the input
/// starts like JSON (`{`, `[`, `"` after white space) or is valid JSON,
/// else YAML.
fn language(file: &OsStr, input: &[u8], from: Option<kyaml::Input>) -> kyaml::Input {
    let extension = std::path::Path::new(file).extension();
    let by_extension = match extension.and_then(|e| e.to_str()) {
        Some("json") => Some(kyaml::Input::Json),
        Some("yaml" | "yml") => Some(kyaml::Input::Yaml),
        _ => None,
    };
    from.or(by_extension).unwrap_or_else(|| {
        let first = input.iter().find(|b| !b.is_ascii_whitespace());
        let json = kyaml::Options::new().input(kyaml::Input::Json);
        if matches!(first, Some(b'{' | b'[' | b'"'))
            || json.to_fmt(input, &mut super::Discard).is_ok()
        {
            kyaml::Input::Json
        } else {
            kyaml::Input::Yaml
        }
    })
}

/// Checks that `input` renders; an invalid one is an error (exit 2) that
/// names the file, line and column.
fn check(name: &str, input: &[u8], opts: kyaml::Options) -> Result<(), String> {
    let err = match opts.to_writer(input, io::sink()) {
        Ok(()) => return Ok(()),
        Err(err) => err,
    };
    match err.get_ref().and_then(|e| e.downcast_ref::<kyaml::Error>()) {
        Some(e) => Err(format!(
            "{name}:{}:{}: {}",
            e.line(),
            e.column(),
            e.message()
        )),
        None => Err(format!("{name}: {err}")),
    }
}
