//! `kyaml fmt` streams a YAML file's new text where it goes instead of
//! holding it: `--check` compares it with the file as it is made, `-w`
//! writes the temporary file only from the first byte that differs, and
//! printing checks a file of several documents whole first. Standard
//! input is printed document by document, each as soon as it is complete.
//! These tests hold what that must not change: a difference in the last
//! byte is seen, an unchanged file is not touched, an invalid file leaves
//! no temporary file and prints nothing (standard input: nothing of the
//! invalid document), and the byte order mark and CRLF line ends are kept.

use std::fs;
use std::os::unix::fs::MetadataExt;

mod common;
use common::{kyaml, text, Dir, MESSY, TIDY};

/// `fmt --check FILE` on `contents`: its exit status and standard output.
fn check(dir: &Dir, contents: &[u8]) -> (Option<i32>, String) {
    dir.write("a.yaml", contents);
    let out = kyaml(&["fmt", "--check", "a.yaml"]).dir(&dir.0).output();
    (out.status.code(), text(&out.stdout).to_owned())
}

#[test]
fn check_sees_a_difference_in_the_last_byte_alone() {
    let dir = Dir::new("stream-check");
    let listed = (Some(1), String::from("a.yaml\n"));
    assert_eq!(check(&dir, TIDY.as_bytes()), (Some(0), String::new()));
    // The last byte other, missing, or one more.
    let other = format!("{} ", &TIDY[..TIDY.len() - 1]);
    assert_eq!(check(&dir, other.as_bytes()), listed);
    assert_eq!(check(&dir, &TIDY.as_bytes()[..TIDY.len() - 1]), listed);
    assert_eq!(check(&dir, format!("{TIDY}\n").as_bytes()), listed);
    // And each is rewritten to the tidy text.
    for contents in [
        other,
        TIDY[..TIDY.len() - 1].to_owned(),
        format!("{TIDY}\n"),
    ] {
        dir.write("a.yaml", &contents);
        let out = kyaml(&["fmt", "-w", "a.yaml"]).dir(&dir.0).output();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(dir.read("a.yaml"), TIDY, "from {contents:?}");
    }
}

#[test]
fn write_does_not_touch_an_unchanged_file() {
    let dir = Dir::new("stream-unchanged");
    let file = dir.write("tidy.yaml", TIDY);
    let stamp = |meta: fs::Metadata| {
        let times = (
            meta.mtime(),
            meta.mtime_nsec(),
            meta.ctime(),
            meta.ctime_nsec(),
        );
        (meta.ino(), times)
    };
    let before = stamp(fs::metadata(&file).unwrap());
    // Unnamed and named temporary files alike: none is made.
    for named in [false, true] {
        let mut run = kyaml(&["fmt", "-w", "tidy.yaml"]).dir(&dir.0);
        if named {
            run = run.env(&[("KYAML_FMT_NAMED_TEMP", "1")]);
        }
        let out = run.output();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    assert_eq!(stamp(fs::metadata(&file).unwrap()), before);
    assert_eq!(dir.names(), ["tidy.yaml"]);
}

/// A first document that changes, then one that does not parse: the new
/// text has started (a temporary file exists) when the error comes.
const BAD_LATE: &str = "a: 1\n---\nb: [\n";

#[test]
fn write_leaves_no_temporary_file_for_an_invalid_file() {
    for named in [false, true] {
        let dir = Dir::new(if named {
            "stream-bad-named"
        } else {
            "stream-bad"
        });
        dir.write("bad.yaml", BAD_LATE);
        dir.write("good.yaml", MESSY);
        let mut run = kyaml(&["fmt", "-w", "bad.yaml", "good.yaml"]).dir(&dir.0);
        if named {
            run = run.env(&[("KYAML_FMT_NAMED_TEMP", "1")]);
        }
        let out = run.output();
        assert_eq!(out.status.code(), Some(2));
        let stderr = text(&out.stderr);
        assert!(stderr.starts_with("bad.yaml:4:1: "), "{stderr}");
        assert_eq!(dir.read("bad.yaml"), BAD_LATE);
        assert_eq!(dir.read("good.yaml"), TIDY);
        assert_eq!(dir.names(), ["bad.yaml", "good.yaml"], "named: {named}");
    }
}

#[test]
fn printing_an_invalid_file_prints_nothing_of_it() {
    let dir = Dir::new("stream-print");
    dir.write("good.yaml", MESSY);
    // Several documents (checked whole first), or one (checked by the
    // writing), the error late in each.
    for bad in [
        BAD_LATE,
        "a: 1\n...\nb: [\n",
        "a: 1\n\u{FEFF}---\nb: [\n",
        "a: 1\u{85}---\nb: [\n",
        "a: 1\r...\rb: [\r",
        "a: 1\nb: [\n",
        "a: [1, 2]\nb: {c: 3}\n]\n",
        "a: 1\na: 2\n",
        "- 1\n- *x\n",
    ] {
        dir.write("bad.yaml", bad);
        let out = kyaml(&["fmt", "bad.yaml", "good.yaml"])
            .dir(&dir.0)
            .output();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert_eq!(text(&out.stdout), TIDY, "{bad:?}");
        assert!(text(&out.stderr).starts_with("bad.yaml:"), "{bad:?}");
    }
}

/// A file of two documents whose second is invalid prints nothing,
/// however large its first document: past every buffer (standard output's
/// 64 KiB, the library's 8 KiB), so writing it before the second is
/// checked would show. Standard input, streamed (`--schema`), prints the first
/// document whole and nothing of the second. The same first document
/// before a valid one, or alone, is printed whole.
#[test]
fn printing_two_documents_the_second_invalid_prints_nothing() {
    let dir = Dir::new("stream-print-two");
    let first: String = (0..20_000).map(|i| format!("key{i}: value\n")).collect();
    let tidy = kyaml(&["fmt", "--schema", "kubectl"])
        .stdin(&first)
        .output();
    assert_eq!(tidy.status.code(), Some(0), "{}", text(&tidy.stderr));
    assert!(tidy.stdout.len() > 1 << 17, "{}", tidy.stdout.len());
    let both = kyaml(&["fmt", "--schema", "kubectl"])
        .stdin(&format!("{first}---\nb: 1\n"))
        .output();
    assert_eq!(both.status.code(), Some(0), "{}", text(&both.stderr));
    assert_eq!(
        both.stdout,
        [&tidy.stdout[..], b"---\n{\n  b: 1,\n}\n"].concat()
    );
    for second in [
        "---\nb: [\n",
        "--- # two\nb: 1\nb: 2\n",
        "...\n--- |\n  text\n ---\n",
        "---\ns: \"a\n--- b\"\n",
        "---\r\nb: [\r\n",
    ] {
        let bad = format!("{first}{second}");
        dir.write("bad.yaml", &bad);
        let from_file = kyaml(&["fmt", "bad.yaml"]).dir(&dir.0).output();
        let from_stdin = kyaml(&["fmt", "--schema", "kubectl"]).stdin(&bad).output();
        for (out, name, printed) in [
            (from_file, "bad.yaml:", &b""[..]),
            (from_stdin, "<stdin>:", &tidy.stdout[..]),
        ] {
            assert_eq!(out.status.code(), Some(2), "{second:?}");
            assert_eq!(out.stdout, printed, "{second:?}");
            // Said at a line of the second document (20,001 on).
            let said = text(&out.stderr);
            assert!(
                said.starts_with(&format!("{name}2000")),
                "{second:?}: {said}"
            );
        }
    }
}

/// `kyaml fmt` on standard input writes each document, comments kept, as
/// soon as the line that starts the next has come, while the input stays
/// open; dressed as its first line is (CRLF here).
#[test]
fn standard_input_is_formatted_document_by_document() {
    use std::io::{Read, Write};
    let mut child = kyaml(&["fmt", "--schema", "kubectl", "-"]).spawn();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut texts = Vec::new();
    for (doc, want) in [
        (
            "# head\r\na: 1 # one\r\n# foot\r\n---\r\n",
            "---\r\n{\r\n  # head\r\n  a: 1, # one\r\n}\r\n# foot\r\n",
        ),
        (
            "b:\r\n- x # two\r\n---\r\n",
            "---\r\n{\r\n  b: [\r\n    \"x\", # two\r\n  ],\r\n}\r\n",
        ),
    ] {
        stdin.write_all(doc.as_bytes()).unwrap();
        stdin.flush().unwrap();
        // Blocks until the tool writes it: it must not wait for the end
        // of its input (stdin stays open).
        let mut got = vec![0; want.len()];
        stdout.read_exact(&mut got).unwrap();
        assert_eq!(text(&got), want);
        texts.push(want);
    }
    stdin.write_all(b"c: 3 # three").unwrap();
    drop(stdin);
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert_eq!(rest, "---\r\n{\r\n  c: 3, # three\r\n}\r\n");
    assert!(child.wait().unwrap().success());
    // As the whole input is formatted from a file.
    let dir = Dir::new("stream-stdin");
    let whole = "# head\r\na: 1 # one\r\n# foot\r\n---\r\nb:\r\n- x # two\r\n---\r\nc: 3 # three";
    dir.write("whole.yaml", whole);
    let from_file = kyaml(&["fmt", "whole.yaml"]).dir(&dir.0).output();
    assert_eq!(
        text(&from_file.stdout),
        format!("{}{}{rest}", texts[0], texts[1])
    );
}

/// `kyaml fmt -` with no schema writes each document as soon as it is
/// complete, as the converter does (`kubectl get -w -o yaml | kyaml
/// fmt`): two documents sent 2 s apart, the first is written before the
/// second is sent. The reader waits for the first output in a thread;
/// the second is sent once it came, or after 30 s (a tool that reads its
/// input whole first), and the test says which.
#[test]
fn standard_input_with_no_schema_is_written_document_by_document() {
    use std::io::{Read, Write};
    use std::sync::mpsc;
    use std::time::{Duration, Instant};
    let mut child = kyaml(&["fmt", "-"]).spawn();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let first = "---\n{\n  a: 1, # one\n}\n";
    let (got, seen) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut out = vec![0; first.len()];
        stdout.read_exact(&mut out).unwrap();
        got.send(()).unwrap();
        stdout.read_to_end(&mut out).unwrap();
        out
    });
    let sent = Instant::now();
    stdin.write_all(b"a: 1 # one\n---\n").unwrap();
    stdin.flush().unwrap();
    let first_before_second = seen.recv_timeout(Duration::from_secs(30)).is_ok();
    std::thread::sleep(Duration::from_secs(2).saturating_sub(sent.elapsed()));
    stdin.write_all(b"b: 2\n").unwrap();
    drop(stdin);
    let out = reader.join().unwrap();
    assert!(
        first_before_second,
        "the first document was not written before the second was sent"
    );
    assert_eq!(text(&out), format!("{first}---\n{{\n  b: 2,\n}}\n"));
    assert!(child.wait().unwrap().success());
}

/// A Kubernetes object, then a document that is not one, both with `on:
/// 1` (true to kubectl, "on" to YAML 1.2), on standard input: each gets
/// the reading a file of it alone would get. The object is formatted as
/// kubectl reads it (with the warning); the other is left as written,
/// byte for byte, its line naming where it is in the whole input; and
/// `--check` counts it as one to fix. Standing for a file
/// (`--stdin-filepath`), the input is read whole, as that file is: left
/// as written, all of it.
#[test]
fn standard_input_decides_each_document_reading() {
    let mixed = "apiVersion: v1\nkind: ConfigMap\non: 1\n---\nname: x\non:   1\n";
    let on = "plain scalar 'on' is the boolean true under schema kubectl but the string \"on\" \
              under yaml-1.2; quote it to keep the string";
    let out = kyaml(&["fmt", "-"]).stdin(mixed).output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "---\n{\n  apiVersion: \"v1\",\n  kind: \"ConfigMap\",\n  \"true\": 1,\n}\n\
         ---\nname: x\non:   1\n"
    );
    let said = format!(
        "<stdin>:3:1: warning: {on}\n<stdin>:6:1: left as written: {on}, or set its schema\n"
    );
    assert_eq!(text(&out.stderr), said);
    let check = kyaml(&["fmt", "--check", "-"]).stdin(mixed).output();
    assert_eq!(check.status.code(), Some(1));
    assert_eq!(text(&check.stdout), "<stdin>\n");
    assert_eq!(text(&check.stderr), said);
    let whole = kyaml(&["fmt", "--stdin-filepath", "m.yaml"])
        .stdin(mixed)
        .output();
    assert_eq!(whole.status.code(), Some(0));
    assert_eq!(text(&whole.stdout), mixed);
    assert_eq!(
        text(&whole.stderr),
        format!("m.yaml:3:1: left as written: {on}, or set its schema\n")
    );
}

/// A document on standard input that only kubectl's reading refuses is
/// left as written, and the line says "this document" (a file's says
/// "this file").
#[test]
fn standard_input_names_a_document_refused_by_kubectl_alone() {
    let out = kyaml(&["fmt", "-"])
        .stdin("a: \"x\\/y\"\n---\nb: 2\n")
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "a: \"x\\/y\"\n---\n{\n  b: 2,\n}\n");
    assert!(
        text(&out.stderr).starts_with(
            "<stdin>:1:6: left as written: only kubectl's reading refuses it, and this document \
             is not a Kubernetes object: expected '/' without a backslash"
        ),
        "{}",
        text(&out.stderr)
    );
}

/// A blank line between a comment after `...` and one before the next
/// `---` is kept once, as a whole file's: when the document before it is
/// formatted, and when it is left as written (it has the line already).
#[test]
fn a_blank_line_where_documents_part_is_kept_once() {
    for (input, want) in [
        (
            "a: 1\n... # c\n\n%YAML 1.1\n# d\n---\nb: 2\n",
            "---\n{\n  a: 1,\n}\n# c\n\n# d\n---\n{\n  b: 2,\n}\n",
        ),
        (
            "a: on\n... # c\n\n%YAML 1.1\n# d\n---\nb: 2\n",
            "a: on\n... # c\n\n# d\n---\n{\n  b: 2,\n}\n",
        ),
    ] {
        let out = kyaml(&["fmt", "-"]).stdin(input).output();
        assert_eq!(text(&out.stdout), want, "{input:?}");
    }
}

#[test]
fn byte_order_mark_and_crlf_are_kept_in_every_mode() {
    let dir = Dir::new("stream-dress");
    let crlf = |s: &str| s.replace('\n', "\r\n");
    let messy = format!("\u{FEFF}{}", crlf(MESSY));
    let tidy = format!("\u{FEFF}{}", crlf(TIDY));
    dir.write("a.yaml", &messy);
    let out = kyaml(&["fmt", "a.yaml"]).dir(&dir.0).output();
    assert_eq!(text(&out.stdout), tidy);
    assert_eq!(check(&dir, messy.as_bytes()).0, Some(1));
    // Formatted text, mark and CRLF included, is left as it is.
    assert_eq!(check(&dir, tidy.as_bytes()).0, Some(0));
    dir.write("a.yaml", &messy);
    let out = kyaml(&["fmt", "-w", "a.yaml"]).dir(&dir.0).output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(dir.read("a.yaml"), tidy);
    // The diff is made in memory, through the same writer.
    dir.write("a.yaml", &messy);
    let out = kyaml(&["fmt", "-d", "a.yaml"]).dir(&dir.0).output();
    assert!(text(&out.stdout).contains("+  a: 1, # one\r\n"));
}

#[test]
fn a_file_with_two_names_is_rewritten_for_both() {
    let dir = Dir::new("stream-links");
    let file = dir.write("a.yaml", MESSY);
    fs::hard_link(&file, dir.0.join("b.yaml")).unwrap();
    let inode = fs::metadata(&file).unwrap().ino();
    let out = kyaml(&["fmt", "-w", "a.yaml"]).dir(&dir.0).output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(dir.read("a.yaml"), TIDY);
    assert_eq!(dir.read("b.yaml"), TIDY);
    assert_eq!(fs::metadata(&file).unwrap().ino(), inode);
    assert_eq!(dir.names(), ["a.yaml", "b.yaml"]);
}
