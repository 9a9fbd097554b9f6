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
