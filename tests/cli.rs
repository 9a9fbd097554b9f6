//! The `kyaml` command: files, standard input, streams, flags, errors.

use std::io::Write;

mod common;
use common::{kyaml, text};

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
    let out = kyaml(&[]).stdin("{\"a\": [1, \"x\"]}").output();
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout),
        "---\n{\n  a: [\n    1,\n    \"x\",\n  ],\n}\n"
    );
    assert_eq!(text(&out.stderr), "");
    assert_eq!(kyaml(&["-"]).stdin("[]").output().stdout, b"---\n[]\n");
}

#[test]
fn renders_files_in_order_and_the_example() {
    let a = TempFile::new("a.json", b"[1]");
    let b = TempFile::new("b.json", b"{\"b\": true}");
    let out = kyaml(&["--compact", a.path(), "-", b.path()])
        .stdin("\"stdin\"")
        .output();
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout),
        "---\n[1]\n---\n\"stdin\"\n---\n{b: true}\n"
    );
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/pod.json");
    let out = kyaml(&[example]).output();
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("      app.kubernetes.io/name: \"web\",\n"));
}

#[test]
fn json_lines_become_a_stream() {
    let out = kyaml(&["-c"])
        .stdin("{\"id\":1}\n{\"id\":2}\n\n{\"id\":3}\n")
        .output();
    assert_eq!(
        text(&out.stdout),
        "---\n{id: 1}\n---\n{id: 2}\n---\n{id: 3}\n"
    );
}

#[test]
fn a_stream_that_starts_with_a_bare_number_is_json_even_where_json_refuses_its_data() {
    // The cross-parser check's generated stream gen-1-3907 (seed 1): a
    // bare number, then a map holding a number past float64's range. Its
    // first line is JSON, so it is read as JSON and refused as JSON refuses
    // it, not read as YAML's one plain string.
    let stream = "1.0 {\"1.2.3\" :{\"0\":[true],\"toString\":[3.141592653589793238462643383279,\"no\"]},\"+12^\":[[3870613421289832411766.7962E339,\"²\"]]}";
    let out = kyaml(&[]).stdin(stream).output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "---\n1.0\n");
    assert!(
        text(&out.stderr).starts_with(
            "<stdin>:1:88: number 3870613421289832411766.7962E339 is past float64's range"
        ),
        "{}",
        text(&out.stderr)
    );
    // A key twice is JSON's refusal too.
    let out = kyaml(&["-c"]).stdin("1 {\"a\": 1, \"a\": 2}\n").output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "---\n1\n");
    assert!(
        text(&out.stderr)
            .starts_with("<stdin>:1:12: duplicate key \"a\" (first at line 1, column 4)"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn an_invalid_document_is_reported_and_not_written() {
    let bad = TempFile::new(
        "bad.json",
        b"{\"ok\": 1}\n{\"a\": [1,,2]}\n{\"never\": 3}\n",
    );
    let out = kyaml(&[bad.path()]).output();
    assert_eq!(out.status.code(), Some(2));
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
    let out = kyaml(&[]).stdin(&json).output();
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
    let out = kyaml(&[bad.path(), good.path()]).output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "---\n2\n");
}

#[test]
fn the_report_counts_characters_and_drops_the_carriage_return() {
    let json = "{\"a\":1}\r\n{\"b\": [1,\r\n  \"été\", x]}\r\n";
    let out = kyaml(&["-c"]).stdin(json).output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "---\n{a: 1}\n");
    assert_eq!(
        text(&out.stderr),
        "<stdin>:3:10: expected a value\n    \"été\", x]}\n           ^\n"
    );
}

#[test]
fn control_characters_and_bad_bytes_are_shown_harmlessly() {
    // A tab shows as one space, so the caret stays under the column.
    let out = kyaml(&[]).stdin("\"a\tb\"").output();
    assert_eq!(
        text(&out.stderr),
        "<stdin>:1:3: expected `\\u` escape for a control character in a string\n  \"a b\"\n    ^\n"
    );
    let bad = TempFile::new("utf8.json", b"[1,\n\"\xff\"]");
    let out = kyaml(&[bad.path()]).output();
    assert_eq!(out.status.code(), Some(2));
    let want = format!("{}:2:2: invalid UTF-8\n  \"\u{fffd}\"]\n   ^\n", bad.path());
    assert_eq!(text(&out.stderr), want);
}

/// The byte order mark is neither a column nor shown on the line, so the
/// caret sits under the `]`, not one character right of it.
#[test]
fn a_byte_order_mark_does_not_move_the_caret() {
    let out = kyaml(&[]).stdin("\u{feff}[1,]").output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "<stdin>:1:4: expected a value\n  [1,]\n     ^\n"
    );
}

#[test]
fn empty_input_writes_nothing() {
    let out = kyaml(&[]).stdin(" \n").output();
    assert!(out.status.success());
    assert_eq!((text(&out.stdout), text(&out.stderr)), ("", ""));
}

#[test]
fn a_missing_file_is_reported_and_the_rest_still_render() {
    let good = TempFile::new("after-missing.json", b"[true]");
    let out = kyaml(&["-c", "/nonexistent/kyaml-test.json", good.path()]).output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "---\n[true]\n");
    let stderr = text(&out.stderr);
    // What failed, in words: no `(os error 2)`.
    assert_eq!(
        stderr,
        "kyaml: cannot read /nonexistent/kyaml-test.json: No such file or directory\n"
    );
}

#[test]
fn a_directory_is_reported_in_words() {
    let out = kyaml(&["/"]).output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stderr), "kyaml: cannot read /: Is a directory\n");
}

#[test]
fn each_document_appears_before_the_input_ends() {
    use std::io::Read;
    let mut child = kyaml(&["-c"]).spawn();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    for (doc, want) in [
        ("{\"a\": 1}\n", "---\n{a: 1}\n"),
        ("[\"é\", 2]\n", "---\n[\"é\", 2]\n"),
    ] {
        stdin.write_all(doc.as_bytes()).unwrap();
        stdin.flush().unwrap();
        // Blocks until the tool writes it: it must not wait for the end
        // of its input (stdin stays open).
        let mut got = vec![0; want.len()];
        stdout.read_exact(&mut got).unwrap();
        assert_eq!(text(&got), want);
    }
    drop(stdin);
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert_eq!(rest, "");
    assert!(child.wait().unwrap().success());
}

/// The same when the first value is a bare scalar: the guess of the
/// language needs only the first line.
#[test]
fn a_stream_of_bare_scalars_is_not_held_back() {
    use std::io::Read;
    let mut child = kyaml(&[]).spawn();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    for (doc, want) in [("1\n", "---\n1\n"), ("true\n", "---\ntrue\n")] {
        stdin.write_all(doc.as_bytes()).unwrap();
        stdin.flush().unwrap();
        // Blocks until the tool writes it: it must not wait for the end
        // of its input (stdin stays open).
        let mut got = vec![0; want.len()];
        stdout.read_exact(&mut got).unwrap();
        assert_eq!(text(&got), want);
    }
    drop(stdin);
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert_eq!(rest, "");
    assert!(child.wait().unwrap().success());
}

/// YAML too: each document is written once the line that starts the next
/// has come, while the input stays open.
#[test]
fn each_yaml_document_appears_before_the_input_ends() {
    use std::io::Read;
    // A document after `...` with no `---` line: YAML 1.2, which kubectl
    // never reads (the `kubectl` schema refuses it: tests/kubectl_syntax.rs).
    let mut child = kyaml(&["-c", "--schema", "yaml-1.2"]).spawn();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    for (doc, want) in [
        ("a: 1 # one\n---\n", "---\n{a: 1}\n"),
        // After `...`, the comments still belong to it: the next
        // document's first line ends it.
        ("b: [x, é]\n...\n# foot\nc", "---\n{b: [\"x\", \"é\"]}\n"),
    ] {
        stdin.write_all(doc.as_bytes()).unwrap();
        stdin.flush().unwrap();
        // Blocks until the tool writes it: it must not wait for the end
        // of its input (stdin stays open).
        let mut got = vec![0; want.len()];
        stdout.read_exact(&mut got).unwrap();
        assert_eq!(text(&got), want);
    }
    stdin.write_all(b": 3\n").unwrap();
    drop(stdin);
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert_eq!(rest, "---\n{c: 3}\n");
    let mut said = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut said)
        .unwrap();
    assert_eq!(
        said,
        "<stdin>: warning: --compact writes no comments; the input's are dropped\n"
    );
    assert!(child.wait().unwrap().success());
}

/// An invalid YAML document is reported at its place in the whole stream,
/// with the warnings before it; `-k` goes on at the next document.
#[test]
fn yaml_errors_and_warnings_are_placed_in_the_stream() {
    let input = "a: yes\n---\nb: [1,\n---\nc: on\n";
    let said = concat!(
        "<stdin>:1:4: warning: plain scalar 'yes' is the boolean true under schema kubectl but the string \"yes\" under yaml-1.2; quote it to keep the string\n",
        "<stdin>:4:1: expected the flow collection to close before the document marker (inside the flow collection that opens at line 3, column 4)\n",
        "  ---\n  ^\n",
    );
    let out = kyaml(&["-c"]).stdin(input).output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "---\n{a: true}\n");
    assert_eq!(text(&out.stderr), said);
    let out = kyaml(&["-c", "-k"]).stdin(input).output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "---\n{a: true}\n---\n{c: true}\n");
    let c_warned = "<stdin>:5:4: warning: plain scalar 'on' is the boolean true under schema kubectl but the string \"on\" under yaml-1.2; quote it to keep the string\n";
    assert_eq!(text(&out.stderr), format!("{said}{c_warned}"));
}

#[test]
fn keep_going_reports_each_bad_line_and_renders_the_rest() {
    let input = "{\"a\": 1}\n{\"a\": [1,,2]}\n{\"b\": 2}\nnope\n[3]\n";
    let out = kyaml(&["-c", "--keep-going"]).stdin(input).output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "---\n{a: 1}\n---\n{b: 2}\n---\n[3]\n");
    assert_eq!(
        text(&out.stderr),
        concat!(
            "<stdin>:2:10: expected a value\n  {\"a\": [1,,2]}\n           ^\n",
            "<stdin>:4:2: expected `null`\n  nope\n   ^\n",
        )
    );
    // A document that starts mid-line is shown from its start, the caret
    // under its column.
    let out = kyaml(&["-c"]).stdin("[1] [2,]\n").output();
    assert_eq!(
        text(&out.stderr),
        "<stdin>:1:8: expected a value\n  [2,]\n     ^\n"
    );
    // Without it, the first bad document ends the file.
    let out = kyaml(&["-c"]).stdin(input).output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "---\n{a: 1}\n");
    assert_eq!(text(&out.stderr).lines().count(), 3);
    let out = kyaml(&["-k"]).stdin("[1]\n").output();
    assert!(out.status.success());
}

#[test]
fn help_and_version() {
    for flag in ["--help", "-h"] {
        let help = kyaml(&[flag]).output();
        assert!(help.status.success());
        assert!(text(&help.stdout).starts_with(
            "Usage: kyaml [--from json|yaml] [--schema kubectl|yaml-1.2] [--compact] [--keep-going] [FILE ...]\n"
        ));
        assert!(text(&help.stdout).contains("  -c, --compact "));
    }
    for flag in ["--version", "-V"] {
        let version = kyaml(&[flag]).output();
        assert!(version.status.success());
        assert_eq!(
            text(&version.stdout),
            format!("kyaml {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
}

#[test]
fn an_unknown_flag_is_a_usage_error() {
    let good = TempFile::new("before-flag.json", b"1");
    // Flags are read before any file, so nothing is written.
    let bad = kyaml(&[good.path(), "--frobnicate"]).output();
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(text(&bad.stdout), "");
    assert_eq!(
        text(&bad.stderr),
        "kyaml: unknown option `--frobnicate`; try 'kyaml --help'\n"
    );
    // After `--`, a dash-led name is a file.
    let out = kyaml(&["--", "--help"]).output();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("kyaml: cannot read --help: "));
}

#[test]
fn compact_yaml_says_once_that_it_drops_comments() {
    let out = kyaml(&["-c"])
        .stdin("# head\na: 1 # one\nb: 2 # two\n")
        .output();
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "---\n{a: 1, b: 2}\n");
    assert_eq!(
        text(&out.stderr),
        "<stdin>: warning: --compact writes no comments; the input's are dropped\n"
    );
    // Regular output keeps them, and input without comments is not warned about.
    let out = kyaml(&[]).stdin("a: 1 # one\n").output();
    assert_eq!(text(&out.stdout), "---\n{\n  a: 1, # one\n}\n");
    assert_eq!(text(&out.stderr), "");
    assert_eq!(text(&kyaml(&["-c"]).stdin("a: 1\n").output().stderr), "");
}

#[test]
fn yaml_input_is_detected_and_warned_about() {
    // `kubectl get -o yaml | kyaml`: not JSON, so YAML.
    let out = kyaml(&["-c"])
        .stdin("apiVersion: v1\nkind: ConfigMap\ndata:\n  on: yes\n")
        .output();
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout),
        "---\n{apiVersion: \"v1\", kind: \"ConfigMap\", data: {\"true\": true}}\n"
    );
    assert_eq!(
        text(&out.stderr),
        "<stdin>:4:3: warning: plain scalar 'on' is the boolean true under schema kubectl but the string \"on\" under yaml-1.2; quote it to keep the string\n\
         <stdin>:4:7: warning: plain scalar 'yes' is the boolean true under schema kubectl but the string \"yes\" under yaml-1.2; quote it to keep the string\n"
    );
    let out = kyaml(&["-c", "--schema", "yaml-1.2"])
        .stdin("a: yes\n")
        .output();
    assert_eq!(text(&out.stdout), "---\n{a: \"yes\"}\n");
    // Valid JSON stays JSON (`1_000` is not JSON, so YAML reads it).
    assert_eq!(
        text(&kyaml(&["-c"]).stdin("1 2").output().stdout),
        "---\n1\n---\n2\n"
    );
    assert_eq!(
        text(&kyaml(&["-c"]).stdin("1_000").output().stdout),
        "---\n1000\n"
    );
    // Flow YAML starting like JSON needs --from yaml.
    assert_eq!(
        kyaml(&["-c"]).stdin("{a: 1}").output().status.code(),
        Some(2)
    );
    let out = kyaml(&["-c", "--from", "yaml"]).stdin("{a: 1}").output();
    assert_eq!(text(&out.stdout), "---\n{a: 1}\n");
    let bad = TempFile::new("bad.yaml", b"a: 1\n---\nb: [1\n");
    let out = kyaml(&[bad.path()]).output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "---\n{\n  a: 1,\n}\n");
    assert!(
        text(&out.stderr).starts_with(&format!("{}:4:1: expected", bad.path())),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(kyaml(&["--from", "toml"]).output().status.code(), Some(2));
}

/// Runs `kyaml ARGS` with a terminal (a pseudo-terminal that `script`
/// makes) on its standard input and output; its exit status and what the
/// terminal showed, or `None`, said, without `script`. A run that is
/// still waiting after a minute (for input, which never comes) is killed
/// and fails the test.
fn on_a_terminal(args: &str) -> Option<(Option<i32>, String)> {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    // util-linux's `script` (BSD's takes other flags, and no --version).
    if !Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        println!("skipped: no util-linux `script` command to make a terminal");
        return None;
    }
    let command = format!("'{}' {args}", common::KYAML);
    let spawned = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = spawned.expect("script runs");
    // Standard input stays open: only a terminal is there to read.
    let input = child.stdin.take();
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("`kyaml {args}` on a terminal waited for input");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    if text(&out.stderr).contains("failed to create pseudo-terminal") {
        println!("skipped: no pseudo-terminal here: {}", text(&out.stderr));
        return None;
    }
    let shown = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
    Some((out.status.code(), shown))
}

/// With no file and a terminal on standard input, `kyaml` and `kyaml
/// fmt` (whatever its mode) print a short usage and exit 2, rather than
/// wait silently for input (prettier prints its usage too).
#[test]
fn no_argument_on_a_terminal_prints_the_usage() {
    for (args, first) in [
        (
            "",
            "Usage: kyaml [OPTIONS] [FILE ...]   (JSON or YAML in, KYAML out)\n",
        ),
        (
            "fmt",
            "Usage: kyaml fmt [--check | -w | -d] [OPTIONS] PATH ...\n",
        ),
        (
            "fmt -w",
            "Usage: kyaml fmt [--check | -w | -d] [OPTIONS] PATH ...\n",
        ),
        (
            "fmt --check",
            "Usage: kyaml fmt [--check | -w | -d] [OPTIONS] PATH ...\n",
        ),
    ] {
        let Some((code, shown)) = on_a_terminal(args) else {
            return;
        };
        assert_eq!(code, Some(2), "kyaml {args}: {shown}");
        assert!(shown.starts_with(first), "kyaml {args}: {shown}");
        assert!(
            shown.contains("--help' for more.\n"),
            "kyaml {args}: {shown}"
        );
    }
    // A file named is read, terminal or not.
    let file = TempFile::new("terminal.yaml", b"a: 1\n");
    let Some((code, shown)) = on_a_terminal(&format!("fmt '{}'", file.path())) else {
        return;
    };
    assert_eq!((code, &*shown), (Some(0), "---\n{\n  a: 1,\n}\n"));
}
