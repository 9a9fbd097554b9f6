//! Merge keys (`<<`) held to stored outputs: each input of
//! `tests/data/yaml-merges/` (docker-compose and GitLab CI files, nested
//! and listed merges, comments around merged entries, tags, precedence,
//! refused values) written by the CLI, regular and `--compact`, must give
//! the stdout, stderr and exit status `tests/data/yaml-merges.jsonl`
//! stores (`tools/capture_merges.py`, captured from the loading reader
//! before merges streamed). Where `kubectl` is on PATH, kyaml's reading of
//! each single-document input must also be kubectl's, and an input kyaml
//! refuses must be one kubectl refuses.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

#[allow(dead_code)]
mod reader;

mod common;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

struct Case {
    file: String,
    args: Vec<String>,
    stdout: String,
    stderr: String,
    status: i32,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(data_dir().join("yaml-merges.jsonl")).unwrap();
    text.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            Case {
                file: v["file"].as_str().unwrap().into(),
                args: v["args"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| a.as_str().unwrap().into())
                    .collect(),
                stdout: v["stdout"].as_str().unwrap().into(),
                stderr: v["stderr"].as_str().unwrap().into(),
                status: v["status"].as_i64().unwrap() as i32,
            }
        })
        .collect()
}

fn input(file: &str) -> Vec<u8> {
    std::fs::read(data_dir().join("yaml-merges").join(file)).unwrap()
}

/// Runs `program args` with `stdin`: stdout, stderr, exit status.
fn run(program: &str, args: &[&str], stdin: &[u8]) -> (String, String, i32) {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn merges_write_as_stored() {
    let cases = cases();
    assert_eq!(cases.len(), 40, "20 inputs, regular and compact");
    let mut failed = Vec::new();
    for case in &cases {
        let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
        let got = run(env!("CARGO_BIN_EXE_kyaml"), &args, &input(&case.file));
        let want = (case.stdout.clone(), case.stderr.clone(), case.status);
        if got != want {
            failed.push(format!(
                "{} {:?}:\nwant {want:?}\ngot  {got:?}",
                case.file, case.args
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

/// `snippet` as the `spec` of a ConfigMap.
fn object(snippet: &str) -> String {
    let mut doc = String::from("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\nspec:\n");
    for line in snippet.lines() {
        doc.push_str("  ");
        doc.push_str(line);
        doc.push('\n');
    }
    doc
}

#[test]
fn kubectl_reads_the_merges_as_kyaml_does() {
    let installed = Command::new("kubectl")
        .args(["version", "--client"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        eprintln!("skipped: kubectl is not on PATH (the stored outputs are checked by merges_write_as_stored)");
        return;
    }
    let mut compared = 0;
    let mut failed = Vec::new();
    for case in cases() {
        // One document, kubectl's schema, the regular layout.
        let text = String::from_utf8(input(&case.file)).unwrap();
        if case.args.len() != 2 || text.contains("---") {
            continue;
        }
        let (out, err, status) = run(
            "kubectl",
            &["label", "--local", "-f", "-", "probe=1", "-o", "json"],
            object(&text).as_bytes(),
        );
        compared += 1;
        match (case.status, status) {
            (0, 0) => {
                let kubectl: serde_json::Value = serde_json::from_str(&out).unwrap();
                let docs = reader::read_stream(&case.stdout).expect("kyaml's output reads back");
                if !common::same_data(&kubectl["spec"], &docs[0]) {
                    failed.push(format!(
                        "{}: kubectl {}, kyaml {}",
                        case.file, kubectl["spec"], docs[0]
                    ));
                }
            }
            (2, 0) => failed.push(format!("{}: kyaml refuses, kubectl reads {out}", case.file)),
            (0, _) => failed.push(format!(
                "{}: kyaml reads, kubectl refuses: {err}",
                case.file
            )),
            _ => {}
        }
    }
    assert!(compared >= 15, "{compared} inputs compared");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
