//! The `kyaml` command: files, standard input, streams, flags, errors.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn kyaml(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kyaml"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap()
}

/// A temporary file holding `contents`, removed when dropped.
struct TempFile(std::path::PathBuf);

impl TempFile {
    fn new(name: &str, contents: &[u8]) -> TempFile {
        let path = std::env::temp_dir().join(format!("kyaml-cli-{}-{name}", std::process::id()));
        std::fs::write(&path, contents).unwrap();
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn renders_standard_input() {
    let out = kyaml(&[], "{\"a\": [1, \"x\"]}");
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout),
        "---\n{\n  a: [\n    1,\n    \"x\",\n  ],\n}\n"
    );
    assert_eq!(text(&out.stderr), "");
    assert_eq!(kyaml(&["-"], "[]").stdout, b"---\n[]\n");
}

#[test]
fn renders_files_in_order_and_the_example() {
    let a = TempFile::new("a.json", b"[1]");
    let b = TempFile::new("b.json", b"{\"b\": true}");
    let out = kyaml(&["--compact", a.path(), "-", b.path()], "\"stdin\"");
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout),
        "---\n[1]\n---\n\"stdin\"\n---\n{b: true}\n"
    );
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/pod.json");
    let out = kyaml(&[example], "");
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("      app.kubernetes.io/name: \"web\",\n"));
}

#[test]
fn json_lines_become_a_stream() {
    let out = kyaml(&["-c"], "{\"id\":1}\n{\"id\":2}\n\n{\"id\":3}\n");
    assert_eq!(
        text(&out.stdout),
        "---\n{id: 1}\n---\n{id: 2}\n---\n{id: 3}\n"
    );
}

#[test]
fn an_invalid_document_is_reported_and_not_written() {
    let bad = TempFile::new(
        "bad.json",
        b"{\"ok\": 1}\n{\"a\": [1,,2]}\n{\"never\": 3}\n",
    );
    let out = kyaml(&[bad.path()], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "---\n{\n  ok: 1,\n}\n");
    let want = format!(
        "{}:2:10: expected a value\n  {{\"a\": [1,,2]}}\n           ^\n",
        bad.path()
    );
    assert_eq!(text(&out.stderr), want);
}

#[test]
fn long_lines_are_shown_around_the_column() {
    let json = format!("[{}x]", "1,".repeat(100));
    let out = kyaml(&[], &json);
    let stderr = text(&out.stderr);
    let mut lines = stderr.lines();
    assert_eq!(lines.next(), Some("<stdin>:1:202: expected a value"));
    let (shown, caret) = (lines.next().unwrap(), lines.next().unwrap());
    assert!(shown.starts_with("  ...") && shown.len() < 100, "{shown}");
    assert_eq!(
        shown.chars().nth(caret.len() - 1),
        Some('x'),
        "{shown}\n{caret}"
    );
}

#[test]
fn later_files_still_render_after_a_bad_one() {
    let bad = TempFile::new("bad2.json", b"[");
    let good = TempFile::new("good.json", b"2");
    let out = kyaml(&[bad.path(), good.path()], "");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "---\n2\n");
}

#[test]
fn a_missing_file_is_reported() {
    let out = kyaml(&["/nonexistent/kyaml-test.json"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("kyaml: /nonexistent/kyaml-test.json: "),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn help_version_and_bad_flags() {
    let help = kyaml(&["--help"], "");
    assert!(help.status.success());
    assert!(text(&help.stdout).starts_with("Usage: kyaml [--compact] [FILE ...]"));
    let version = kyaml(&["-V"], "");
    assert_eq!(
        text(&version.stdout),
        format!("kyaml {}\n", env!("CARGO_PKG_VERSION"))
    );
    let bad = kyaml(&["--frobnicate"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).starts_with("kyaml: unknown option `--frobnicate`"));
    // After `--`, a dash-led name is a file.
    let out = kyaml(&["--", "--help"], "");
    assert_eq!(out.status.code(), Some(1));
}
