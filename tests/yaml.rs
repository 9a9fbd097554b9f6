//! YAML input, checked against data: what kubectl reads from each
//! conformance input (tests/data/yaml-data.jsonl) and from 238 real
//! manifests (tests/data/corpus-yaml, with corpus-yaml-data.jsonl), what
//! YAML 1.2 reads from the yaml-test-suite cases with an `in.json`, round
//! trips of our own output through the YAML path, random JSON written as
//! block YAML, and hostile input.
//!
//! Our output is read back by the test-only KYAML reader (tests/reader),
//! which follows the YAML 1.2 spec, and compared as data: maps unordered,
//! numbers by value.

#[allow(dead_code)]
mod block_yaml;
mod common;
#[allow(dead_code)]
mod reader;

use std::path::{Path, PathBuf};

use common::random::Data;
use kyaml::{ErrorKind, Form, Input, Options, Schema};
use quickcheck::{QuickCheck, TestResult};
use serde_json::Value;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn yaml() -> Options {
    Options::new().input(Input::Yaml)
}

/// Whether two data are the same: maps unordered (serde_json's map is
/// sorted), numbers by value.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x == y
                || match (x.as_f64(), y.as_f64()) {
                    (Some(p), Some(q)) => p == q || (p - q).abs() <= 1e-12 * p.abs().max(q.abs()),
                    _ => false,
                }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn same_docs(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(p, q)| same(p, q))
}

/// Our KYAML for `input` under `opts`, read back as data.
fn read(opts: Options, input: &str) -> Result<Vec<Value>, String> {
    let out = opts.to_string(input).map_err(|e| format!("kyaml: {e}"))?;
    reader::read_stream(&out).map_err(|e| format!("reading back {out:?}: {e}"))
}

fn jsonl(name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(data_dir().join(name)).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn conformance_inputs_read_as_kubectl_reads_them() {
    let cases = jsonl("yaml-data.jsonl");
    let mut failed = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let input = case["yaml"].as_str().unwrap();
        let got = read(yaml(), input);
        let refused = case.get("kubectl_error").is_some() || case.get("ours_error").is_some();
        match (&got, refused) {
            (Err(_), true) => {}
            (Ok(docs), false) if same_docs(docs, case["kubectl"].as_array().unwrap()) => {}
            _ => failed.push(format!("{name}: {input:?}: got {got:?}, want {case}")),
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} differ:\n{}",
        failed.len(),
        cases.len(),
        failed.join("\n")
    );
}

#[test]
fn refusals_name_their_reason_and_position() {
    let err = |input: &str| yaml().to_string(input).unwrap_err();
    let e = err("a: 1\n~: v\n");
    assert_eq!((e.kind(), e.line(), e.column()), (ErrorKind::Data, 2, 1));
    assert!(e.to_string().contains("null"), "{e}");
    let e = err("? [a, b]\n: c\n");
    assert_eq!((e.kind(), e.line(), e.column()), (ErrorKind::Data, 1, 3));
    let e = err("a: 1\nb: 2\na: 3\n");
    assert_eq!(
        (e.kind(), e.line(), e.column()),
        (ErrorKind::DuplicateKey, 3, 1)
    );
    assert_eq!(e.first_offset(), Some(0));
    let e = err("1: a\n\"1\": b\n");
    assert_eq!((e.kind(), e.line()), (ErrorKind::DuplicateKey, 2));
    let e = err("a: .inf\n");
    assert_eq!((e.kind(), e.line(), e.column()), (ErrorKind::Data, 1, 4));
    assert_eq!(
        yaml()
            .schema(Schema::Yaml12)
            .form(Form::Value)
            .compact(true)
            .to_string("[.inf, -.Inf, .nan]")
            .unwrap(),
        "[.inf, -.inf, .nan]"
    );
    let e = err("a: *nothing\n");
    assert_eq!((e.kind(), e.column()), (ErrorKind::Data, 4));
    let e = err("a: [1, {b: 2}\n");
    assert_eq!(e.kind(), ErrorKind::Syntax);
}

/// A node on a line of its own goes deeper than the block collection it
/// is in, unless it is one of that map's keys (YAML 1.2 §8.2.2: a value
/// is indented more than its key). `b:` then `t` at `b`'s column is an
/// error in every parser of `compat/`; we read it as `{b: "t"}` until the
/// `fmt` fuzz target found it (three of its inputs relied on it).
#[test]
fn a_node_on_its_own_line_is_indented_past_its_collection() {
    for (input, line, column) in [
        ("b:\nt\n", 2, 1),
        ("a:\n  e:\n  b:\n  t\n", 4, 3),
        ("- b:\n  t\n", 2, 3),
        ("- a\nb\n", 2, 1),
        ("k:\n- a\nb\n", 3, 1),
        ("k:\n[a]\n", 2, 1),
        ("k:\n|\n x\n", 2, 1),
        ("k:\n&x\n", 2, 1),
        ("k:\n!!str\n", 2, 1),
        ("k:\n*x\n", 2, 1),
        ("k:\n\"q\"\n", 2, 1),
    ] {
        let e = yaml().to_string(input).unwrap_err();
        assert_eq!(
            (e.kind(), e.line(), e.column()),
            (ErrorKind::Syntax, line, column),
            "{input:?}: {e}"
        );
        assert!(e.to_string().contains("more indentation"), "{e}");
    }
    for (name, input, line) in [
        (
            "crash-d4896216",
            &include_bytes!("data/fuzz-fmt/crash-d4896216d540c3db7a72d09466bd3295a276eeda")[..],
            22,
        ),
        (
            "crash-fc5bdd0f",
            include_bytes!("data/fuzz-fmt/crash-fc5bdd0fcabe3ab9aaa4280a5b96dcf2f2c9b5d5"),
            12,
        ),
        (
            "crash-02b8684b",
            include_bytes!("data/fuzz-fmt/crash-02b8684b6bf375d7baf857763e6563c7c7cbd85c"),
            233,
        ),
    ] {
        // Their control bytes made printable (kubectl refuses them first).
        let input: Vec<u8> = input
            .iter()
            .map(|&b| match b {
                b'\t' | b'\n' | b'\r' => b,
                0..0x20 | 0x7F => b'0',
                _ => b,
            })
            .collect();
        let e = yaml().to_string(&input).unwrap_err();
        assert_eq!(
            (e.kind(), e.line(), e.column()),
            (ErrorKind::Syntax, line, 3),
            "{name}: {e}"
        );
    }
    for (input, want) in [
        ("? a\n: b\n", "{a: \"b\"}"),
        ("a:\n  b\nc: d\n", "{a: \"b\", c: \"d\"}"),
        ("k:\n- a\nc: d\n", "{k: [\"a\"], c: \"d\"}"),
        ("&x\na: b\n", "{a: \"b\"}"),
        ("k:\n  &x\n  a: b\n", "{k: {a: \"b\"}}"),
        ("a: b\n c\n", "{a: \"b c\"}"),
        ("- a\n  b\n", "[\"a b\"]"),
        ("-\n  a\n", "[\"a\"]"),
        ("a\nb\n", "\"a b\""),
    ] {
        let out = yaml().compact(true).to_string(input);
        assert_eq!(out, Ok(format!("---\n{want}\n")), "{input:?}");
    }
}

#[test]
fn nothing_of_a_bad_document_is_written() {
    let mut out = Vec::new();
    let err = yaml()
        .to_writer(&mut out, "a: 1\n---\nb: 2\nb: 3\n")
        .unwrap_err();
    assert_eq!(String::from_utf8(out).unwrap(), "---\n{\n  a: 1,\n}\n");
    assert!(err.to_string().contains("duplicate key"), "{err}");
    let mut out = String::new();
    yaml().to_fmt(&mut out, "- 1\n--- [2, ~: 3]\n").unwrap_err();
    assert_eq!(out, "---\n[\n  1,\n]\n");
    assert!(yaml().to_string("- 1\n--- [2, ~: 3]\n").is_err());
}

#[test]
fn documents() {
    let compact = yaml().compact(true);
    assert_eq!(compact.to_string("").unwrap(), "");
    assert_eq!(compact.to_string("# only a comment\n").unwrap(), "");
    // A document without a node reads as null and is written as its
    // header (SPEC-YAML.md §2); in the value form, as `null`.
    assert_eq!(compact.to_string("---\n").unwrap(), "---\n");
    assert_eq!(
        compact.form(Form::Value).to_string("---\n").unwrap(),
        "null"
    );
    // A directive and nodes on `---` lines: YAML 1.2 that kubectl
    // refuses (tests/kubectl_syntax.rs), so the `yaml-1.2` schema's.
    let stream = "%YAML 1.2\n--- a\n...\n---\n--- [b]\n";
    assert!(compact.to_string(stream).is_err());
    assert_eq!(
        compact.schema(Schema::Yaml12).to_string(stream).unwrap(),
        "---\n\"a\"\n---\n---\n[\"b\"]\n"
    );
    assert_eq!(compact.to_string("---\nnull\n").unwrap(), "---\nnull\n");
    // No final line break: a block scalar keeps its line break (kubectl).
    assert_eq!(
        compact.to_string("a: |\n  x").unwrap(),
        "---\n{a: \"x\\n\"}\n"
    );
}

#[test]
fn anchors_aliases_and_merges() {
    let compact = yaml().compact(true).form(Form::Value);
    let text = compact
        .to_string("a: &x {k: 1, j: [2, &y 3]}\nb: *x\nc: *y\n*y : d\n")
        .unwrap();
    assert_eq!(
        text,
        "{a: {k: 1, j: [2, 3]}, b: {k: 1, j: [2, 3]}, c: 3, \"3\": \"d\"}"
    );
    let text = compact
        .to_string("base: &b {a: 1, b: 2}\nmore: &m {b: 3, c: 4}\nx:\n  <<: [*b, *m]\n  c: 5\n")
        .unwrap();
    assert_eq!(
        text,
        "{base: {a: 1, b: 2}, more: {b: 3, c: 4}, x: {a: 1, b: 2, c: 5}}"
    );
    // kubectl (go-yaml v2) sets keys in input order: a merge after a key
    // overwrites it (kubectl_read.py, like PyYAML, keeps c: 0).
    let text = compact.to_string("x: {c: 0, <<: {c: 1, d: 2}}").unwrap();
    assert_eq!(text, "{x: {c: 1, d: 2}}");
    let text = compact.to_string("x: {<<: {c: 1, d: 2}, c: 0}").unwrap();
    assert_eq!(text, "{x: {d: 2, c: 0}}");
    // Two merges: the later wins; `!!merge` and `!` merge too.
    let text = compact
        .to_string(
            "x:
  !!merge <<: {a: 1}
  ! <<: {a: 2, b: 3}
",
        )
        .unwrap();
    assert_eq!(text, "{x: {a: 2, b: 3}}");
    // Under YAML 1.2, `<<` is a key like any other.
    let text = compact.schema(Schema::Yaml12).to_string("{<<: 1}").unwrap();
    assert_eq!(text, "{\"<<\": 1}");
    for bad in [
        "a: {<<: 1}",
        "a: &a [1]\nb: {<<: *a}",
        "a: {<<: [{b: 1}, 2]}",
    ] {
        let e = compact.to_string(bad).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Data, "{bad}");
    }
}

#[test]
fn hostile_input_stops_with_an_error() {
    // Billion laughs: ten levels of ten aliases each.
    let mut laughs = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let p = i - 1;
        laughs.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        ));
    }
    let e = yaml().to_string(&laughs).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Data);
    assert!(e.to_string().contains("expand"), "{e}");
    // A few levels are fine.
    let small: String = laughs.lines().take(3).map(|l| format!("{l}\n")).collect();
    assert!(yaml().to_string(&small).is_ok());
    // An alias inside its own anchor's node.
    for recursive in ["a: &a [1, *a]\n", "&a {b: *a}\n", "a: &a\n  b: *a\n"] {
        let e = yaml().to_string(recursive).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Data, "{recursive}");
    }
    // Deep nesting, written and through aliases.
    let deep = "[".repeat(5000) + &"]".repeat(5000);
    assert_eq!(
        yaml().to_string(&deep).unwrap_err().kind(),
        ErrorKind::TooDeep
    );
    let half = "[".repeat(600) + &"]".repeat(600);
    let twice = format!(
        "a: &a {half}\nb: [{}*a{}]\n",
        "[".repeat(500),
        "]".repeat(500)
    );
    assert_eq!(
        yaml().to_string(&twice).unwrap_err().kind(),
        ErrorKind::TooDeep
    );
    assert!(yaml().max_depth(2000).to_string(&twice).is_ok());
}

#[test]
fn warnings_name_both_readings() {
    let warnings = yaml().warnings("a: yes\nb: 0777\nc: \"on\"\nd: !foo x\n");
    let lines: Vec<(usize, usize)> = warnings.iter().map(|w| (w.line, w.column)).collect();
    assert_eq!(lines, [(1, 4), (2, 4), (4, 4)]);
    assert!(warnings[1].message.contains("511"), "{}", warnings[1]);
    assert!(warnings[2].message.contains("!foo"), "{}", warnings[2]);
    assert!(Options::new().warnings("a: yes").is_empty());
}

/// The corpus files and what kubectl reads from each.
fn corpus() -> Vec<(String, String, Vec<Value>)> {
    jsonl("corpus-yaml-data.jsonl")
        .into_iter()
        .map(|case| {
            let path = case["path"].as_str().unwrap().to_string();
            let text = std::fs::read_to_string(data_dir().join("corpus-yaml").join(&path)).unwrap();
            (path, text, case["documents"].as_array().unwrap().clone())
        })
        .collect()
}

#[test]
fn corpus_reads_as_kubectl_reads_it() {
    let cases = corpus();
    let mut failed = Vec::new();
    for (path, text, want) in &cases {
        match read(yaml(), text) {
            Ok(docs) if same_docs(&docs, want) => {}
            got => failed.push(format!("{path}: {:?}", got.map(|_| "different data"))),
        }
    }
    assert_eq!(cases.len(), 238);
    assert!(
        failed.is_empty(),
        "{} of 238:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// Our output, read again by the YAML path, is written the same: KYAML is
/// a fixed point, and the JSON path's output too.
#[test]
fn output_reads_back_as_itself() {
    let mut inputs: Vec<(String, Options)> = Vec::new();
    for (_, text, _) in corpus() {
        inputs.push((text, yaml()));
    }
    for case in jsonl("yaml-data.jsonl") {
        inputs.push((case["yaml"].as_str().unwrap().to_string(), yaml()));
    }
    let vectors = common::vectors::VECTOR_FILES.map(|(name, _)| name);
    for name in vectors.into_iter().chain(["reference-outputs"]) {
        for case in jsonl(&format!("{name}.jsonl")) {
            if let Some(json) = case.get("json").and_then(Value::as_str) {
                inputs.push((json.to_string(), Options::new()));
            }
        }
    }
    let mut checked = 0;
    for (input, opts) in &inputs {
        for compact in [false, true] {
            let Ok(first) = opts.compact(compact).to_string(input) else {
                continue;
            };
            let again = yaml().compact(compact).to_string(&first);
            assert_eq!(again.as_deref(), Ok(first.as_str()), "input {input:?}");
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
    // A number past float64's range: the JSON path refuses it (as
    // kubectl and serde_json do); in YAML, kubectl reads `1.0e+400` as
    // that text, and so does the YAML path, which writes it quoted (other
    // readers read infinity where it is bare), as it writes `1e400`.
    let err = Options::new().form(Form::Value).to_string("1e400");
    assert_eq!(err.unwrap_err().kind(), kyaml::ErrorKind::NumberOutOfRange);
    let written = yaml().form(Form::Value).to_string("1.0e+400").unwrap();
    assert_eq!(written, "\"1.0e+400\"");
    assert_eq!(
        yaml().form(Form::Value).to_string(&written).unwrap(),
        written
    );
    let as_key = yaml()
        .form(Form::Value)
        .compact(true)
        .to_string("1.0e+400: 1e400");
    assert_eq!(as_key.unwrap(), "{\"1.0e+400\": \"1e400\"}");
}

include!("common/kubectl_suite.rs");

/// yaml-test-suite cases with an `in.json` read under YAML 1.2 as that
/// data; every `error` case is refused with a position; nothing panics.
/// Where kubectl's reader departs from YAML 1.2 (common/kubectl_suite.rs),
/// kubectl's reading: those error cases read, those valid cases refused
/// with a position or not compared with `in.json`.
#[test]
fn yaml_test_suite() {
    let dir = data_dir().join("yaml-test-suite");
    let mut cases = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.join("in.yaml").exists() {
            cases.push(path);
        } else if path.is_dir() {
            for sub in std::fs::read_dir(&path).unwrap() {
                let sub = sub.unwrap().path();
                if sub.join("in.yaml").exists() {
                    cases.push(sub);
                }
            }
        }
    }
    cases.sort();
    let opts = yaml().schema(Schema::Yaml12);
    let (mut json_ok, mut json_total, mut errors_ok, mut errors_total) = (0, 0, 0, 0);
    let mut failed = Vec::new();
    for case in &cases {
        let input = std::fs::read(case.join("in.yaml")).unwrap();
        let result = opts.to_string(&input);
        let name = case.strip_prefix(&dir).unwrap().display().to_string();
        let refused = case.join("error").exists() != ERRORS_KUBECTL_READS.contains(&name.as_str())
            || VALID_KUBECTL_REFUSES.contains(&name.as_str());
        if refused {
            errors_total += 1;
            match result {
                Err(e) if e.line() >= 1 => errors_ok += 1,
                _ => failed.push(format!("{name}: error case accepted")),
            }
        } else if ERRORS_KUBECTL_READS.contains(&name.as_str()) {
            if let Err(e) = result {
                failed.push(format!("{name}: kubectl reads it: {e}"));
            }
        } else if VALID_KUBECTL_READS_OTHERWISE.contains(&name.as_str()) {
            // kubectl's data is pinned in tests/kubectl_syntax.rs.
        } else if let Ok(json) = std::fs::read_to_string(case.join("in.json")) {
            json_total += 1;
            let want: Vec<Value> = serde_json::Deserializer::from_str(&json)
                .into_iter()
                .collect::<Result<_, _>>()
                .unwrap();
            let got = result
                .map_err(|e| e.to_string())
                .and_then(|out| reader::read_stream(&out).map_err(|e| format!("{out:?}: {e}")));
            match got {
                Ok(docs) if same_docs(&docs, &want) => json_ok += 1,
                got => failed.push(format!("{name}: {got:?}, want {want:?}")),
            }
        }
    }
    eprintln!(
        "yaml-test-suite: in.json {json_ok}/{json_total}, errors refused {errors_ok}/{errors_total}"
    );
    eprintln!("{}", failed.join("\n"));
    assert_eq!(errors_ok, errors_total, "{}", failed.join("\n"));
    assert_eq!(json_ok, json_total, "{}", failed.join("\n"));
    let (kubectl_reads, kubectl_refuses) =
        (ERRORS_KUBECTL_READS.len(), VALID_KUBECTL_REFUSES.len());
    let with_json_refused = VALID_KUBECTL_REFUSES
        .iter()
        .chain(VALID_KUBECTL_READS_OTHERWISE)
        .filter(|name| dir.join(name).join("in.json").exists())
        .count();
    assert_eq!(
        (json_total, errors_total),
        (
            279 - with_json_refused,
            94 - kubectl_reads + kubectl_refuses
        )
    );
}

#[test]
fn block_yaml_converts_as_its_json_does() {
    fn prop(data: Data) -> TestResult {
        let json = data.0.to_string();
        let mut block = String::new();
        block_yaml::write_block_yaml(&data.0, &mut block);
        for compact in [false, true] {
            let want = Options::new().compact(compact).to_string(&json).unwrap();
            let got = yaml().compact(compact).to_string(&block);
            if got.as_deref() != Ok(want.as_str()) {
                return TestResult::error(format!("block {block:?}: got {got:?}, want {want:?}"));
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Data) -> TestResult);
}

/// Every entry point writes the same for YAML input: `to_string` (one
/// pass, lists bet on), `to_writer` (checked, then written) and `to_fmt`
/// (the fixed store; a stack buffer first for small input), in both
/// layouts and both schemas; an invalid input fails the same way on each,
/// after the same documents; and what is written re-reads as itself. Over
/// the corpus, yaml-data.jsonl and every yaml-test-suite input (what the
/// fuzz target `yaml` asserts on any bytes). `transcode`, which frames
/// each document and reads it alone, writes the same and fails the same.
#[test]
fn every_entry_point_writes_the_same() {
    let mut inputs: Vec<String> = corpus().into_iter().map(|(_, text, _)| text).collect();
    for case in jsonl("yaml-data.jsonl") {
        inputs.push(case["yaml"].as_str().unwrap().to_string());
    }
    inputs.push("- [a, [b]]\n- [[c], d]\n- [[e], [f], g]\n- {h: [[1], 2]}\n".into());
    inputs.push("x: &x [[1], [2]]\ny: [*x, *x, 3]\nz: [[0], *x]\n".into());
    // Frames part at a blank line between two comments.
    inputs.push("a: 1\n... # c\n\n%YAML 1.1\n# d\n---\nb: 2\n".into());
    for path in walk(&data_dir().join("yaml-test-suite")) {
        if path.ends_with("in.yaml") {
            inputs.push(String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned());
        }
    }
    let options = [false, true]
        .map(|compact| [yaml(), yaml().schema(Schema::Yaml12)].map(|o| o.compact(compact)));
    for input in &inputs {
        for opts in options.into_iter().flatten() {
            let string = opts.to_string(input);
            let mut fmt = String::new();
            let fmt_result = opts.to_fmt(&mut fmt, input);
            let mut writer = Vec::new();
            let writer_result = opts.to_writer(&mut writer, input);
            let writer = String::from_utf8(writer).unwrap();
            // Framed document by document, as a pipe is read.
            let mut streamed = Vec::new();
            let streamed_result = opts.transcode(input.as_bytes(), &mut streamed);
            assert_eq!(String::from_utf8(streamed).unwrap(), writer, "{input:?}");
            assert_eq!(
                streamed_result.map_err(|e| e.to_string()),
                writer_result
                    .as_ref()
                    .map(|_| ())
                    .map_err(|e| e.to_string()),
                "{input:?}"
            );
            match &string {
                Ok(out) => {
                    assert_eq!(fmt_result, Ok(()), "{input:?}");
                    assert!(writer_result.is_ok(), "{input:?}");
                    assert_eq!((&fmt, &writer), (out, out), "{input:?}");
                    // What we write re-reads as itself.
                    assert_eq!(opts.to_string(out).as_ref(), Ok(out), "{input:?}");
                }
                Err(e) => {
                    assert_eq!(fmt_result, Err(e.clone()), "{input:?}");
                    let inner = writer_result.unwrap_err();
                    let inner = inner
                        .get_ref()
                        .and_then(|e| e.downcast_ref::<kyaml::Error>());
                    assert_eq!(inner, Some(e), "{input:?}");
                    assert_eq!(fmt, writer, "{input:?}");
                }
            }
        }
    }
}

/// No input panics: every prefix of every yaml-test-suite input, and each
/// with one byte replaced by YAML's indicators, under both schemas and
/// through both passes.
#[test]
fn cut_and_changed_inputs_never_panic() {
    let dir = data_dir().join("yaml-test-suite");
    let mut inputs = Vec::new();
    for entry in walk(&dir) {
        if entry.ends_with("in.yaml") {
            inputs.push(std::fs::read(&entry).unwrap());
        }
    }
    assert!(inputs.len() > 300);
    let mut runs = 0;
    for input in &inputs {
        for cut in 0..=input.len().min(200) {
            let part = &input[..cut];
            for opts in [yaml(), yaml().schema(Schema::Yaml12).compact(true)] {
                let _ = opts.to_string(part);
                let _ = opts.to_writer(std::io::sink(), part);
                runs += 1;
            }
        }
        for (i, b) in b"*&!:-[]{}?|>'\"#%,\n\t ".iter().enumerate() {
            let mut changed = input.clone();
            if let Some(slot) = changed.get_mut((i * 7) % input.len().max(1)) {
                *slot = *b;
            }
            let _ = yaml().to_string(&changed);
            let _ = yaml().to_writer(std::io::sink(), &changed);
            runs += 1;
        }
    }
    assert!(runs > 10_000, "{runs}");
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// What the YAML reader writes of every yaml-test-suite case and every
/// file of tests/data/corpus-yaml and tests/data/yaml-merges, through
/// `to_string` (one pass, bets), `to_writer_with_warnings` (a checking
/// pass, then the writing one), `check` and `warnings`, regular and
/// compact, is what the stored digests say
/// (`tests/data/yaml-written.txt`): they were stored by the build that
/// had two readers, whose outputs the differential test above held equal,
/// and hold the one reader left to both.
#[test]
fn yaml_writes_the_stored_outputs() {
    let is_yaml = |p: &PathBuf| p.extension().is_some_and(|e| e == "yaml" || e == "yml");
    let mut files: Vec<PathBuf> = walk(&data_dir().join("yaml-test-suite"))
        .into_iter()
        .filter(|p| p.ends_with("in.yaml"))
        .collect();
    for dir in ["corpus-yaml", "yaml-merges"] {
        files.extend(walk(&data_dir().join(dir)).into_iter().filter(is_yaml));
    }
    let mut got = Vec::new();
    for file in &files {
        let input = std::fs::read(file).unwrap();
        let name = file.strip_prefix(data_dir()).unwrap().display().to_string();
        for compact in [false, true] {
            let opts = yaml().compact(compact);
            let mut out = Vec::new();
            let mut warnings = Vec::new();
            let written = opts.to_writer_with_warnings(&mut out, &input, &mut warnings);
            let text = format!(
                "to_string {:?}\nto_writer {:?}\n{}\nwarnings {warnings:?}\ncheck {:?}\nwarnings {:?}\n",
                opts.to_string(&input).map_err(|e| e.to_string()),
                written.map_err(|e| e.to_string()),
                String::from_utf8_lossy(&out),
                opts.check(&input).map_err(|e| e.to_string()),
                opts.warnings(&input),
            );
            got.push((format!("{name} compact {compact}"), text));
        }
    }
    assert!(got.len() > 1200, "only {} outputs", got.len());
    common::stored::hold_to_digests("yaml-written.txt", &got);
}

/// What the YAML reader makes of `input`, regular and compact:
/// `to_string`, `to_writer_with_warnings` (its output, result and
/// warnings), `check` and `warnings`; each must agree with the others
/// (the one-pass `to_string` with the checked writing).
fn written(input: &[u8], name: &str) -> Result<String, String> {
    let mut regular = None;
    for compact in [false, true] {
        let opts = yaml().compact(compact);
        let mut out = Vec::new();
        let mut warnings = Vec::new();
        let written = opts.to_writer_with_warnings(&mut out, input, &mut warnings);
        let string = opts.to_string(input).map_err(|e| e.to_string());
        let out = String::from_utf8(out).unwrap();
        match &string {
            Ok(text) => assert_eq!(text, &out, "{name} (compact {compact})"),
            Err(e) => assert_eq!(written.map_err(|e| e.to_string()), Err(e.clone()), "{name}"),
        }
        let checked = opts.check(input).map_err(|e| e.to_string());
        assert_eq!(
            checked.is_ok(),
            string.is_ok(),
            "{name} (compact {compact})"
        );
        assert_eq!(
            format!("{:?}", opts.warnings(input)),
            format!("{warnings:?}"),
            "{name}"
        );
        regular.get_or_insert(string);
    }
    regular.unwrap()
}

/// Anchors and aliases stream (docs/yaml-streaming.md §8, step 4), the
/// one-pass writing as the checked one: aliases of block maps and lists
/// in a large document, with comments; an anchor in a list whose bet
/// `to_string` loses (the skim keeps what it reads, and an alias in it is
/// replayed from the keep arena), and a list an alias replays losing its
/// bet; the errors of aliases with their places.
#[test]
fn anchors_and_aliases_stream() {
    let mut large = String::from(
        "# the defaults\nbase: &base\n  image: nginx # pinned\n  ports: &ports\n    - 80\n    - {name: https, port: 443}\n  env: &env [a, \"b&c\"]\n",
    );
    for i in 0..1_000 {
        large += &format!("item{i}:\n  # item {i}\n  spec: *base\n  ports: *ports\n\n  env: *env\n  url: \"http://x/?a={i}&b=*\"\n");
    }
    let string = written(large.as_bytes(), "large").unwrap();
    assert_eq!(
        string.matches("image: \"nginx\"").count(),
        1_001,
        "{}",
        &string[..2_000]
    );
    assert_eq!(string.matches("# item 999\n").count(), 1);
    let cases: [(&str, Result<&str, &str>); 8] = [
        // An anchor in a list whose bet is lost (a scalar after a map).
        (
            "a:\n- &m {x: 1}\n- *m\n- 3\n- &l [1, *m]\nb: [*m, *l]\n",
            Ok(""),
        ),
        // A comment directly in the list loses the bet.
        ("a:\n- &m {x: 1}\n# note\n- *m\nb: *m\n", Ok("")),
        // A list the alias replays loses its bet.
        ("a: &a [[1], 2]\nb: *a\nc: [*a, *a]\n", Ok("")),
        ("- &a [{k: v}, x]\n- *a\n", Ok("")),
        (
            "---\na: &a [1]\nb: *a\n--- # two\nc: &a {d: 1}\ne: *a\n...\n# foot\n",
            Ok(""),
        ),
        ("a: *x\nb: &x 1\n", Err("at line 1, column 4")),
        (
            "a: *x\nb: &x {c: 1}\n",
            Err("names no anchor defined before it"),
        ),
        (
            "a: &x [1, *x]\n",
            Err("is inside the node its anchor names"),
        ),
    ];
    for (input, expected) in cases {
        let string = written(input.as_bytes(), input);
        match (string, expected) {
            (Ok(text), Ok(expected)) => {
                assert!(expected.is_empty() || text == expected, "{input}:\n{text}");
                assert!(!text.contains("null"), "{input}:\n{text}");
            }
            (Err(error), Err(part)) => assert!(error.contains(part), "{input}: {error}"),
            (got, _) => panic!("{input}: {got:?}"),
        }
    }
    // Billion laughs: the same error (the first level is one long string,
    // so that little is written before the limit is met).
    let mut laughs = format!("a0: &a0 [{}]\n", "lol".repeat(40_000));
    for i in 1..4 {
        let p = i - 1;
        laughs += &format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
        );
    }
    let streamed = yaml().to_string(&laughs).unwrap_err().to_string();
    assert!(
        streamed.contains("billion laughs") && streamed.contains("line 4, column"),
        "{streamed}"
    );
}

/// `to_writer_all_or_nothing` with `opts` on `input` writes what
/// `to_string` makes (all of it, with `to_writer_with_warnings`'s
/// warnings) or nothing, with the same error; returns whether
/// `to_writer_with_warnings` (which keeps the documents before an invalid
/// one) wrote something of an invalid input, where the two differ.
fn writes_all_or_nothing(opts: Options, input: &[u8]) -> bool {
    let (mut out, mut warnings) = (Vec::new(), Vec::new());
    let written = opts.to_writer_all_or_nothing(&mut out, input, &mut warnings);
    let (mut before, mut warned) = (Vec::new(), Vec::new());
    let kept = opts.to_writer_with_warnings(&mut before, input, &mut warned);
    let shown = String::from_utf8_lossy(input);
    assert_eq!(format!("{warnings:?}"), format!("{warned:?}"), "{shown:?}");
    match opts.to_string(input) {
        Ok(text) => {
            assert!(written.is_ok(), "{shown:?}: {written:?}");
            assert_eq!(String::from_utf8(out).unwrap(), text, "{shown:?}");
            false
        }
        Err(err) => {
            assert_eq!(out, b"", "{shown:?}");
            let said = written.map_err(|e| e.to_string());
            assert_eq!(said, Err(err.to_string()), "{shown:?}");
            assert_eq!(kept.map_err(|e| e.to_string()), said, "{shown:?}");
            !before.is_empty()
        }
    }
}

/// An invalid input leaves nothing in `to_writer_all_or_nothing`'s
/// writer, whether it holds one document (checked, then written) or
/// several (checked whole first): the parser says whether a second
/// document follows the first, so a line break other than LF, a byte
/// order mark, or a `---` line inside a string or a block scalar never
/// makes it wrong (what `kyaml fmt`'s own search of the text for markers
/// had to be careful of). Each input of several documents whose last is
/// invalid has its first written by `to_writer_with_warnings`: the two
/// differ there. Then every yaml-test-suite case, alone and before an
/// invalid document, with both readers.
#[test]
fn all_or_nothing_writes_nothing_of_an_invalid_input() {
    let one = [
        "",
        "a: 1\n",
        "---\na: 1\n",
        "\u{FEFF}--- [1]\n",
        "a: --- ...\n",
        "a: 1\r\nb: [\r\n",
        "a: |\n  ---\n  ...\nb: [\n",
        "a: \"x\n  --- y\"\nb: [\n",
        "a: 'x\n  ... y'\nb: 1\nb: 2\n",
        "# ---\na: 1\n# ...\n",
        "a: 1\nb: [\n",
        // After `...`: a document kubectl never reads, refused.
        "...\na: 1\n---\nb: {\n",
    ];
    let several = [
        "a: 1\n---\nb: [\n",
        "a: 1\n...\nb: [\n",
        "a: 1\n--- # c\nb: 1\nb: 2\n",
        "a: 1\r\n---\r\nb: [\r\n",
        "a: 1\r\n...\r\n--- |\r\n  x\r\n ---\r\n",
        "a: |\n  x\n---\ns: \"y\n--- z\"\n",
        "a: |\n  x\n...\n---\n- [\n",
        "---\na: 1\n---\nb\n--- [\n",
    ];
    // Odd line breaks before a marker: kubectl's reader errs there, in
    // the first document.
    let odd = [
        "a: 1\r---\nb: 2\n",
        "a: 1\n\u{FEFF}---\nb: [\n",
        "a: 1\u{85}---\nb: 2\n",
        "a: 1\u{2028}---\nb: 2\n",
        "a: 1\u{2029}...\nb: 2\n",
    ];
    {
        for compact in [false, true] {
            let opts = yaml().compact(compact);
            for input in one.iter().chain(&odd) {
                assert!(!writes_all_or_nothing(opts, input.as_bytes()), "{input:?}");
            }
            for input in several {
                assert!(writes_all_or_nothing(opts, input.as_bytes()), "{input:?}");
            }
            // Several valid documents are written whole.
            // Several valid documents are written whole, the first's lists
            // laid out by its own verdicts (not the last document's).
            let valid = "a: [[1], {b: 2}]\nc: [[3]]\n---\nd: |\n  ---\n...\n---\n[4, [5]]\n";
            assert!(!writes_all_or_nothing(opts, valid.as_bytes()));
        }
    }
    // JSON too: a stream of values, the last invalid.
    assert!(writes_all_or_nothing(
        Options::new(),
        b"{\"a\": 1}\n[2]\n[3,"
    ));
    assert!(!writes_all_or_nothing(Options::new(), b"{\"a\": 1}\n[2]\n"));
    let suite = data_dir().join("yaml-test-suite");
    let mut cases = 0;
    for file in walk(&suite).iter().filter(|p| p.ends_with("in.yaml")) {
        let input = std::fs::read(file).unwrap();
        let then_invalid = [&input[..], b"\n--- [\n"].concat();
        writes_all_or_nothing(yaml(), &input);
        writes_all_or_nothing(yaml(), &then_invalid);
        cases += 1;
    }
    assert!(cases > 300, "{cases}");
}

/// A blank line before a document's `...` belongs to that document (and
/// is dropped: nothing follows it there); the streaming reader gave it
/// to the next document, which then did not format to itself (found by
/// the fmt fuzzer).
#[test]
fn a_blank_line_before_a_document_end_stays_in_its_document() {
    let input = "---\n# c\n\n...\nv\n...\nw\n";
    let want = "---\n# c\n---\n\"v\"\n---\n\"w\"\n";
    // `w`, after `...` with no `---` line, is a document kubectl never
    // reads: the `kubectl` schema refuses it.
    assert!(yaml().to_string(input).is_err());
    let opts = yaml().schema(Schema::Yaml12);
    assert_eq!(opts.to_string(input).as_deref(), Ok(want));
    assert_eq!(opts.to_string(want).as_deref(), Ok(want));
}

/// A lost bet's list is read once more by the reader and then replayed
/// from what that skim kept: what follows the loss (an error, a duplicate
/// key, a warning, another lost bet, the next document) comes out as the
/// checked writing, which bets nothing, has it.
#[test]
fn a_lost_bets_list_replays_as_the_checked_writing_reads_it() {
    let inputs = [
        "- - a\n  # c\n  - b\n- x: 1\n  x: 2\n",
        "- - a\n  # c\n  - b\n- [1, 2\n",
        "- - a\n  # c\n  - yes\n- on\n",
        "- - a\n  # c\n- b\n---\n- - c\n  - d\n  # e\n- f: g\n  # h\n- 1\n",
        "- # c\n  - a\n  - b\n- - c # d\n\n  - - e\n    - f\n  # g\n",
        "k:\n- - 1\n  - 2\n- 3 # c\nl:\n- - 4\n  # d\n  - [5, 6]\n- - 7\n",
        "- - a\n  # c\n  - b\n- - c\n  - d\n- e\n...\n# f\n--- x\n",
    ];
    for input in inputs {
        // The one-pass `to_string` (which loses the bets) writes what the
        // checked writing does, with the same error and warnings.
        let _ = written(input.as_bytes(), input);
    }
}

/// Each warning says its kind, for a program that acts on it (as `kyaml
/// fmt` leaves a file whose reading is not settled as written).
#[test]
fn warnings_say_their_kind() {
    use kyaml::WarningKind::*;
    let opts = kyaml::Options::new().input(kyaml::Input::Yaml);
    let yaml = "on: 1\nt: !Ref x\nd: &d {a: 1}\nm:\n  <<: *d\nb: 22:22\nc: 2024-01-31\n";
    let got: Vec<_> = opts
        .warnings(yaml)
        .into_iter()
        .map(|w| (w.line, w.column, w.kind))
        .collect();
    assert_eq!(
        got,
        [
            (1, 1, SchemasDisagree),
            (2, 4, TagDropped),
            // The first alias or merge of the stream only.
            (5, 3, Expanded),
            (6, 4, Yaml11Readers),
            (7, 4, Yaml11Readers),
        ]
    );
    // Replayed by an alias, a scalar is not warned of again.
    let got = opts.warnings("a: &x on\nb: *x\n");
    let kinds: Vec<_> = got.iter().map(|w| w.kind).collect();
    assert_eq!(kinds, [SchemasDisagree, Expanded]);
}
