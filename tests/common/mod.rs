//! Helpers shared by the integration tests: running the built `kyaml`
//! command, the list of conformance vector files (`vectors.rs`, which
//! the crate's unit tests include as well), and random data for
//! properties (`random.rs`).
//!
//! Every test crate that says `mod common;` compiles its own copy and uses
//! only part of it, so what one crate leaves unused is not dead code.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

pub mod random;
pub mod stored;
pub mod sweep;
pub mod vectors;

/// The built `kyaml` binary.
pub const KYAML: &str = env!("CARGO_BIN_EXE_kyaml");

/// `kyaml` with `args`, to run with [`Run::output`]: standard input empty
/// unless [`Run::stdin`] gives it, output captured. `NO_COLOR` is removed
/// from the environment, so the developer's shell cannot change a result.
pub fn kyaml(args: &[&str]) -> Run {
    let mut command = Command::new(KYAML);
    command
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    Run {
        command,
        stdin: String::new(),
    }
}

/// A `kyaml` run being set up (see [`kyaml`]).
pub struct Run {
    command: Command,
    stdin: String,
}

impl Run {
    /// Further arguments, after the ones given so far.
    pub fn args(mut self, args: &[&str]) -> Run {
        self.command.args(args);
        self
    }

    /// What the command reads on its standard input.
    pub fn stdin(mut self, text: &str) -> Run {
        self.stdin = text.to_string();
        self
    }

    /// Environment variables to set.
    pub fn env(mut self, vars: &[(&str, &str)]) -> Run {
        self.command.envs(vars.iter().copied());
        self
    }

    /// The directory the command runs in.
    pub fn dir(mut self, dir: &Path) -> Run {
        self.command.current_dir(dir);
        self
    }

    /// Runs the command to its end with the standard input given.
    pub fn output(mut self) -> Output {
        let mut child = self.command.spawn().expect("kyaml runs");
        let mut input = child.stdin.take().expect("kyaml's standard input");
        input
            .write_all(self.stdin.as_bytes())
            .expect("standard input written");
        drop(input);
        child.wait_with_output().expect("kyaml ends")
    }

    /// Starts the command, its standard streams pipes for the test to use.
    pub fn spawn(mut self) -> Child {
        self.command.spawn().expect("kyaml runs")
    }
}

/// Output bytes as text (they must be UTF-8).
pub fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("UTF-8 output")
}

/// A YAML file that `kyaml fmt` changes, and what it writes for it.
pub const MESSY: &str = "# head\na: 1 # one\n\nb:\n- x # two\n";
pub const TIDY: &str = "---\n{\n  # head\n  a: 1, # one\n\n  b: [\n    \"x\", # two\n  ],\n}\n";

/// A fresh directory for one test, removed when dropped.
pub struct Dir(pub std::path::PathBuf);

impl Dir {
    pub fn new(name: &str) -> Dir {
        Dir::under(&std::env::temp_dir(), name)
    }

    fn under(base: &Path, name: &str) -> Dir {
        let path = base.join(format!("kyaml-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("a temporary directory");
        Dir(path)
    }

    /// A fresh directory that other users can reach, for a test that runs
    /// `kyaml` as one: mode 0755 in the system's temporary folder (`/tmp`,
    /// whatever `TMPDIR` says, which may be private). `None`, said on
    /// standard output, if a folder above it is closed to others.
    #[cfg(unix)]
    pub fn reachable_by_others(name: &str) -> Option<Dir> {
        use std::os::unix::fs::PermissionsExt;
        let dir = Dir::under(Path::new("/tmp"), name);
        let open = std::fs::Permissions::from_mode(0o755);
        std::fs::set_permissions(&dir.0, open).expect("a mode");
        for folder in dir.0.ancestors().skip(1) {
            let mode = std::fs::metadata(folder).map_or(0, |m| m.permissions().mode());
            if mode & 0o001 == 0 {
                println!("skipped: other users cannot reach {}", folder.display());
                return None;
            }
        }
        Some(dir)
    }

    /// The `kyaml` binary where another user can run it: a copy in a
    /// folder [`Dir::reachable_by_others`] (the build's own folder may sit
    /// under a private one, as in a clone inside a 0700 `mktemp -d`); None,
    /// saying why, when no such folder can be made.
    pub fn kyaml_for_others() -> Option<(Dir, std::path::PathBuf)> {
        use std::os::unix::fs::PermissionsExt;
        let dir = Dir::reachable_by_others("kyaml-bin")?;
        let bin = dir.0.join("kyaml");
        std::fs::copy(KYAML, &bin).expect("a copy of kyaml");
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).expect("a mode");
        Some((dir, bin))
    }

    /// Writes `contents` to `name` (its folders made), returning its path.
    pub fn write(&self, name: &str, contents: impl AsRef<[u8]>) -> std::path::PathBuf {
        let path = self.0.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("a directory");
        }
        std::fs::write(&path, contents).expect("a file");
        path
    }

    /// [`Dir::write`], the path as text for a command line.
    pub fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> String {
        let path = self.write(name, contents);
        path.to_str().expect("a UTF-8 path").to_owned()
    }

    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.0.join(name)).expect("a file")
    }

    /// The names of the files in the directory (temporary ones included).
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)
            .expect("a directory")
            .map(|e| {
                e.expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The same JSON data, numbers compared by value (kubectl writes `1e+39`,
/// kyaml `1e39`).
pub fn same_data(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_data(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_data(v, w)))
        }
        _ => a == b,
    }
}
