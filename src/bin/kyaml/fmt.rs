//! `kyaml fmt`: re-formats YAML (and KYAML) files as KYAML, comments kept;
//! writes them back atomically (`-w`), checks them (`--check`) or shows
//! the change (`-d`).

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "\
Usage: kyaml fmt [OPTIONS] [PATH ...]

Re-formats YAML or KYAML as KYAML, keeping every comment and one blank line
where the input had any between items. A second run changes nothing.
Without PATH, or for `-`, reads standard input and writes standard output.
A directory stands for every *.yaml and *.yml file under it (sorted; hidden
directories skipped).

Options:
      --check            write nothing; list each file that would change,
                         and exit 1 if any would (for CI and pre-commit)
  -w, --write            rewrite each file that changes, atomically (a
                         temporary file in the same directory, then renamed)
  -d, --diff             print a unified diff of each file that would change
                         (applies with `patch`)
      --schema NAME      how plain scalars read: kubectl (the default) or
                         yaml-1.2
  -c, --compact          one line per document (writes no comments)
  -h, --help             print this help

A file that does not parse is reported as FILE:LINE:COLUMN and left as it
is; the other files are still processed. Exit status: 0, 1 when a file
failed or (with --check) would change, 2 on a bad command line.
";

/// What to do with each formatted file.
#[derive(Clone, Copy, Default)]
struct Mode {
    check: bool,
    write: bool,
    diff: bool,
}

/// Runs `kyaml fmt` with the arguments after `fmt`.
pub(crate) fn main(args: impl Iterator<Item = OsString>) -> ExitCode {
    let mut mode = Mode::default();
    let mut opts = kyaml::Options::new().input(kyaml::Input::Yaml);
    let mut paths: Vec<OsString> = Vec::new();
    let mut flags_done = false;
    let mut args = args;
    while let Some(arg) = args.next() {
        let flag = match arg.to_str() {
            Some(flag) if !flags_done && flag.starts_with('-') && flag != "-" => flag,
            _ => {
                paths.push(arg);
                continue;
            }
        };
        match flag {
            "--" => flags_done = true,
            "--check" => mode.check = true,
            "-w" | "--write" => mode.write = true,
            "-d" | "--diff" => mode.diff = true,
            "-c" | "--compact" => opts = opts.compact(true),
            "-h" | "--help" => {
                print!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "--schema" => match args.next().as_deref().and_then(OsStr::to_str) {
                Some("kubectl") => opts = opts.schema(kyaml::Schema::Kubectl),
                Some("yaml-1.2") => opts = opts.schema(kyaml::Schema::Yaml12),
                other => {
                    let other = other.unwrap_or("nothing");
                    return usage(&format!(
                        "`--schema` takes kubectl or yaml-1.2, not `{other}`"
                    ));
                }
            },
            other => return usage(&format!("unknown option `{other}`")),
        }
    }
    if mode.check && mode.write {
        return usage("`--check` writes nothing: it cannot go with `--write`");
    }
    if paths.is_empty() {
        paths.push(OsString::from("-"));
    }
    let mut failed = false;
    let mut changed = false;
    let mut files = Vec::new();
    for path in &paths {
        if let Err(e) = expand(Path::new(path), &mut files) {
            eprintln!("kyaml fmt: {}: {e}", Path::new(path).display());
            failed = true;
        }
    }
    let mut warned_compact = false;
    for file in &files {
        match format_file(file, opts, mode) {
            Ok(outcome) => {
                changed |= outcome.changed;
                if outcome.dropped_comments && !warned_compact {
                    eprintln!(
                        "kyaml fmt: warning: --compact writes no comments; the input's are dropped"
                    );
                    warned_compact = true;
                }
            }
            Err(Failed::BrokenPipe) => break,
            Err(Failed::Reported) => failed = true,
        }
    }
    match failed || (mode.check && changed) {
        true => ExitCode::from(1),
        false => ExitCode::SUCCESS,
    }
}

fn usage(message: &str) -> ExitCode {
    eprintln!("kyaml fmt: {message}\n\n{USAGE}");
    ExitCode::from(2)
}

/// Adds `path` to `files`: itself, or for a directory every `*.yaml` and
/// `*.yml` file under it, sorted, hidden directories skipped.
fn expand(path: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    if path.as_os_str() == "-" || !fs::metadata(path)?.is_dir() {
        files.push(path.to_path_buf());
        return Ok(());
    }
    let mut found = Vec::new();
    let mut dirs = vec![path.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir)? {
            let entry = entry?;
            let name = entry.file_name();
            let file_type = entry.file_type()?;
            let hidden = name.to_str().is_some_and(|n| n.starts_with('.'));
            // A symbolic link counts as what it points to.
            let is_dir = file_type.is_dir()
                || (file_type.is_symlink() && fs::metadata(entry.path()).is_ok_and(|m| m.is_dir()));
            if is_dir {
                // Links to directories are not followed (no cycles).
                if !hidden && !file_type.is_symlink() {
                    dirs.push(entry.path());
                }
                continue;
            }
            let yaml = Path::new(&name)
                .extension()
                .is_some_and(|e| e == "yaml" || e == "yml");
            if yaml {
                found.push(entry.path());
            }
        }
    }
    found.sort();
    files.extend(found);
    Ok(())
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
    /// Standard output is gone: stop quietly.
    BrokenPipe,
}

/// Formats one file (`-`: standard input) and does what `mode` says.
fn format_file(file: &Path, opts: kyaml::Options, mode: Mode) -> Result<Outcome, Failed> {
    let stdin = file.as_os_str() == "-";
    let name = match stdin {
        true => String::from("<stdin>"),
        false => file.display().to_string(),
    };
    let input = match read(file, stdin) {
        Ok(input) => input,
        Err(e) => {
            eprintln!("kyaml fmt: {name}: {e}");
            return Err(Failed::Reported);
        }
    };
    // One reading gives the output and the warnings.
    let mut formatted = Vec::new();
    let mut warnings = Vec::new();
    let written = opts.to_writer_with_warnings(&input, &mut formatted, &mut warnings);
    crate::print_warnings(&name, &warnings);
    if let Err(e) = written {
        match crate::invalid(&e) {
            Some(err) => crate::report(&name, err.line_in(&input), 1, err),
            None => eprintln!("kyaml fmt: {name}: {e}"),
        }
        return Err(Failed::Reported);
    }
    // The writer writes only what the emitter wrote: text.
    let formatted = String::from_utf8(formatted)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    let outcome = Outcome {
        changed: formatted.as_bytes() != input.as_slice(),
        dropped_comments: opts.is_compact() && kyaml::has_comments(&input),
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
                let diff = kyaml::LineDiff::new(&old, &formatted).labels(&name, &name);
                write!(stdout, "{diff}")
            }
            false => Ok(()),
        }
    } else if mode.write && !stdin {
        Ok(())
    } else {
        stdout.write_all(formatted.as_bytes())
    };
    match printed.and_then(|()| stdout.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Err(Failed::BrokenPipe),
        Err(e) => {
            eprintln!("kyaml fmt: standard output: {e}");
            return Err(Failed::Reported);
        }
        Ok(()) => {}
    }
    if mode.write && !stdin && outcome.changed {
        if let Err(e) = replace(file, formatted.as_bytes()) {
            eprintln!("kyaml fmt: {name}: not rewritten (left as it was): {e}");
            return Err(Failed::Reported);
        }
    }
    Ok(outcome)
}

fn read(file: &Path, stdin: bool) -> io::Result<Vec<u8>> {
    if stdin {
        let mut input = Vec::new();
        io::stdin().lock().read_to_end(&mut input)?;
        return Ok(input);
    }
    fs::read(file)
}

/// Replaces the contents of `file` (of its target, for a symbolic link)
/// with `bytes` atomically: a temporary file in the same directory,
/// written, given the original's permissions and synced, is renamed over
/// it, so a reader sees the old contents or the new, never a part. On any
/// failure the temporary file is removed and the original is untouched.
fn replace(file: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = fs::canonicalize(file)?;
    let dir = target.parent().unwrap_or(Path::new("."));
    let base = target.file_name().unwrap_or(OsStr::new("file"));
    let permissions = fs::metadata(&target)?.permissions();
    let mut temp_name = OsString::from(".");
    temp_name.push(base);
    temp_name.push(format!(".kyaml-fmt-{}", std::process::id()));
    let temp = dir.join(temp_name);
    let mut out = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)?;
    let written = out
        .write_all(bytes)
        .and_then(|()| out.set_permissions(permissions))
        .and_then(|()| out.sync_all())
        .and_then(|()| injected_fault())
        .and_then(|()| fs::rename(&temp, &target));
    drop(out);
    if let Err(e) = written {
        let _ = fs::remove_file(&temp);
        return Err(e);
    }
    // The rename itself is durable once the directory is synced.
    if let Ok(dir) = fs::File::open(dir) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// In debug builds (the tests'), `KYAML_FMT_FAIL_BEFORE_RENAME` set makes
/// every rewrite fail after the temporary file is written and synced, just
/// before the rename: the test of atomicity.
fn injected_fault() -> io::Result<()> {
    if cfg!(debug_assertions) && std::env::var_os("KYAML_FMT_FAIL_BEFORE_RENAME").is_some() {
        return Err(io::Error::other("injected failure before rename"));
    }
    Ok(())
}
