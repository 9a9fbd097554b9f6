//! `kyaml::Diff`, `assert_kyaml_eq!` and `kyaml diff`: diffs that apply
//! (with a unified-diff reader here, and with `patch` through the CLI),
//! colour, exit statuses and the macro's messages.

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::process::{Command, Stdio};

use kyaml::{assert_kyaml_eq, Diff, Form, Options};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use serde_json::{Map, Value};

mod common;
use common::{kyaml, text, Dir, KYAML};

// ---------------------------------------------------------------- helpers

/// The lines of a rendering as the diff counts them: a final line feed
/// ends the last line.
fn lines(text: &str) -> Vec<&str> {
    if text.is_empty() {
        return Vec::new();
    }
    text.strip_suffix('\n')
        .unwrap_or(text)
        .split('\n')
        .collect()
}

/// Applies a unified diff to `old`'s lines, checking every context and
/// removed line and every hunk's counts; panics on any mismatch.
fn apply(old: &str, diff: &str) -> Vec<String> {
    let old = lines(old);
    let mut diff_lines = lines(diff).into_iter().peekable();
    assert!(diff_lines.next().unwrap().starts_with("--- "), "{diff}");
    assert!(diff_lines.next().unwrap().starts_with("+++ "), "{diff}");
    let mut out: Vec<String> = Vec::new();
    let mut at = 0; // next old line to copy
    while let Some(header) = diff_lines.next() {
        let ranges = header
            .strip_prefix("@@ -")
            .and_then(|h| h.split_once(" @@"))
            .unwrap_or_else(|| panic!("not a hunk header: {header:?}\n{diff}"))
            .0;
        let (minus, plus) = ranges.split_once(" +").unwrap();
        let range = |r: &str| -> (usize, usize) {
            match r.split_once(',') {
                Some((s, n)) => (s.parse().unwrap(), n.parse().unwrap()),
                None => (r.parse().unwrap(), 1),
            }
        };
        let ((old_start, old_count), (_, new_count)) = (range(minus), range(plus));
        let first = if old_count == 0 {
            old_start
        } else {
            old_start - 1
        };
        assert!(first >= at, "hunks out of order in\n{diff}");
        out.extend(old[at..first].iter().map(|s| s.to_string()));
        at = first;
        let (mut seen_old, mut seen_new) = (0, 0);
        while let Some(line) = diff_lines.next_if(|l| !l.starts_with("@@ ")) {
            let (sign, text) = line.split_at(1);
            match sign {
                " " | "-" => {
                    assert_eq!(
                        old.get(at).copied(),
                        Some(text),
                        "line {} in\n{diff}",
                        at + 1
                    );
                    at += 1;
                    seen_old += 1;
                    if sign == " " {
                        out.push(text.to_string());
                        seen_new += 1;
                    }
                }
                "+" => {
                    out.push(text.to_string());
                    seen_new += 1;
                }
                _ => panic!("unexpected line {line:?} in\n{diff}"),
            }
        }
        assert_eq!(
            (seen_old, seen_new),
            (old_count, new_count),
            "{header}\n{diff}"
        );
    }
    out.extend(old[at..].iter().map(|s| s.to_string()));
    out
}

/// Checks that `diff` is empty exactly when the renderings are equal, and
/// that otherwise it turns the left rendering into the right one.
fn check_applies(diff: Diff<'_>, left: &str, right: &str) -> TestResult {
    let text = diff.to_string();
    assert_eq!(text.is_empty(), left == right, "{text}");
    assert_eq!(diff.is_equal(), left == right);
    if left != right {
        assert_eq!(apply(left, &text), lines(right), "{text}");
    }
    TestResult::passed()
}

/// A value-form rendering as its diff shows it: a TAB, which KYAML writes
/// raw in a folded string's lines, as `\t` (the rendering escapes every
/// other character that prints nothing).
fn value_form(json: &str) -> String {
    let rendering = Options::new().form(Form::Value).to_string(json).unwrap();
    rendering.replace('\t', "\\t")
}

/// Serializes `value` with each object's members in an order drawn from
/// `seed` (serde_json's own order is sorted).
fn shuffled_json(value: &Value, seed: &mut u64) -> String {
    // A stack of values still to write and closers still to come.
    enum Step<'a> {
        Value(&'a Value),
        Text(String),
    }
    let mut out = String::new();
    let mut steps = vec![Step::Value(value)];
    while let Some(step) = steps.pop() {
        match step {
            Step::Text(text) => out.push_str(&text),
            Step::Value(Value::Array(items)) => {
                out.push('[');
                steps.push(Step::Text("]".into()));
                for (i, item) in items.iter().enumerate().rev() {
                    steps.push(Step::Value(item));
                    if i > 0 {
                        steps.push(Step::Text(",".into()));
                    }
                }
            }
            Step::Value(Value::Object(members)) => {
                let mut members: Vec<(&String, &Value)> = members.iter().collect();
                for i in (1..members.len()).rev() {
                    *seed ^= *seed << 13;
                    *seed ^= *seed >> 7;
                    *seed ^= *seed << 17;
                    members.swap(i, (*seed % (i as u64 + 1)) as usize);
                }
                out.push('{');
                steps.push(Step::Text("}".into()));
                for (i, (key, item)) in members.into_iter().enumerate().rev() {
                    steps.push(Step::Value(item));
                    let comma = if i > 0 { "," } else { "" };
                    steps.push(Step::Text(format!(
                        "{comma}{}:",
                        Value::String(key.clone())
                    )));
                }
            }
            Step::Value(scalar) => out.push_str(&scalar.to_string()),
        }
    }
    out
}

// ------------------------------------------------------ random JSON values

#[rustfmt::skip]
const WORDS: &[&str] = &[
    "", "a", "b", "web", "nginx:1.25", "on", "yes", "null", "1", "-", "---", "a: b", "# x",
    "a\nb", "a\n", "\n\n", " lead", "x\\", "\\\n", "é", "日本", "\u{7}", "\t", "\"q\"", "}, {",
];

#[derive(Clone, Debug)]
struct Json(Value);

fn scalar(g: &mut Gen) -> Value {
    match u8::arbitrary(g) % 6 {
        0 => Value::Null,
        1 => Value::Bool(bool::arbitrary(g)),
        2 => Value::from(i64::arbitrary(g) % 1000),
        3 => Value::from(f64::from(i16::arbitrary(g)) / 8.0),
        4 => Value::String(String::arbitrary(g)),
        _ => Value::String(g.choose(WORDS).unwrap().to_string()),
    }
}

fn value(g: &mut Gen, depth: usize) -> Value {
    match u8::arbitrary(g) % if depth == 0 { 1 } else { 3 } {
        0 => scalar(g),
        1 => Value::Array(
            (0..usize::arbitrary(g) % 5)
                .map(|_| value(g, depth - 1))
                .collect(),
        ),
        _ => Value::Object(
            (0..usize::arbitrary(g) % 5)
                .map(|_| (g.choose(WORDS).unwrap().to_string(), value(g, depth - 1)))
                .collect::<Map<_, _>>(),
        ),
    }
}

impl Arbitrary for Json {
    fn arbitrary(g: &mut Gen) -> Json {
        Json(value(g, 4))
    }
}

/// `value` with one change somewhere: a scalar replaced, an element or a
/// member added or removed, a subtree replaced.
fn mutate(value: &mut Value, g: &mut Gen) {
    let mut at = value;
    loop {
        let len = match at {
            Value::Array(items) => items.len(),
            Value::Object(members) => members.len(),
            _ => 0,
        };
        if len > 0 && bool::arbitrary(g) {
            let i = usize::arbitrary(g) % len;
            at = match at {
                Value::Array(items) => &mut items[i],
                Value::Object(members) => members.values_mut().nth(i).unwrap(),
                _ => unreachable!(),
            };
            continue;
        }
        match at {
            Value::Array(items) => {
                let i = usize::arbitrary(g) % (items.len() + 1);
                match u8::arbitrary(g) % 2 {
                    0 if i < items.len() => {
                        items.remove(i);
                    }
                    _ => items.insert(i, self::value(g, 2)),
                }
            }
            Value::Object(members) => {
                let key = g.choose(WORDS).unwrap().to_string();
                if members.remove(&key).is_none() {
                    members.insert(key, self::value(g, 2));
                }
            }
            scalar => *scalar = self::value(g, 2),
        }
        return;
    }
}

#[derive(Clone, Debug)]
struct Mutation(Value, Value, u64);

impl Arbitrary for Mutation {
    fn arbitrary(g: &mut Gen) -> Mutation {
        let old = value(g, 5);
        let mut new = old.clone();
        for _ in 0..1 + usize::arbitrary(g) % 3 {
            mutate(&mut new, g);
        }
        Mutation(old, new, u64::arbitrary(g) | 1)
    }
}

// ------------------------------------------------------- library: Diff

/// Applies a unified diff to `old` byte for byte: a line followed by the
/// `\ No newline at end of file` marker has no line feed.
fn apply_exact(old: &str, diff: &str) -> String {
    let old: Vec<&str> = old.split_inclusive('\n').collect();
    let mut lines = diff.split_inclusive('\n').skip(2).peekable();
    let (mut out, mut at) = (String::new(), 0);
    while let Some(header) = lines.next() {
        let minus = header
            .strip_prefix("@@ -")
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let (start, count) = match minus.split_once(',') {
            Some((s, n)) => (s.parse::<usize>().unwrap(), n.parse::<usize>().unwrap()),
            None => (minus.parse().unwrap(), 1),
        };
        let first = if count == 0 { start } else { start - 1 };
        old[at..first].iter().for_each(|l| out.push_str(l));
        at = first;
        while let Some(line) = lines.next_if(|l| !l.starts_with("@@ ")) {
            let mut text = line[1..].to_string();
            if lines.next_if(|l| l.starts_with('\\')).is_some() {
                text.pop();
            }
            match &line[..1] {
                "+" => out.push_str(&text),
                sign => {
                    assert_eq!(old[at], text, "line {} in\n{diff}", at + 1);
                    at += 1;
                    if sign == " " {
                        out.push_str(&text);
                    }
                }
            }
        }
    }
    old[at..].iter().for_each(|l| out.push_str(l));
    out
}

#[test]
fn line_diffs_apply_byte_for_byte() {
    fn prop(a: Vec<u8>, b: Vec<u8>, ends: (bool, bool), context: u8) -> TestResult {
        let text = |v: &[u8], end: bool| {
            let lines: Vec<&str> = v
                .iter()
                .map(|x| ["a", "b", "c", "", "  d"][*x as usize % 5])
                .collect();
            let mut text = lines.join("\n");
            if end && !v.is_empty() {
                text.push('\n');
            }
            text
        };
        let (a, b) = (text(&a, ends.0), text(&b, ends.1));
        let diff = kyaml::LineDiff::new(&a, &b)
            .context(usize::from(context % 4))
            .to_string();
        assert_eq!(diff.is_empty(), a == b);
        if a != b {
            assert_eq!(apply_exact(&a, &diff), b, "{diff}");
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(2000)
        .quickcheck(prop as fn(Vec<u8>, Vec<u8>, (bool, bool), u8) -> TestResult);
}

#[test]
fn random_pairs_apply() {
    fn prop(a: Json, b: Json, context: u8) -> TestResult {
        let (a, b) = (a.0.to_string(), b.0.to_string());
        let diff = Diff::new(&a, &b).context(usize::from(context % 5));
        check_applies(diff, &value_form(&a), &value_form(&b))
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Json, Json, u8) -> TestResult);
}

#[test]
fn a_value_and_its_mutation_apply() {
    fn prop(m: Mutation) -> TestResult {
        let (a, b) = (m.0.to_string(), m.1.to_string());
        check_applies(Diff::new(&a, &b), &value_form(&a), &value_form(&b));
        // The same change, each side's keys in a random order, unordered:
        // applies to the renderings of the key-sorted values.
        let mut seed = m.2;
        let (sa, sb) = (
            shuffled_json(&m.0, &mut seed),
            shuffled_json(&m.1, &mut seed),
        );
        assert!(Diff::new(&sa, &a).unordered(true).is_equal(), "{sa}");
        check_applies(
            Diff::new(&sa, &sb).unordered(true),
            &value_form(&a),
            &value_form(&b),
        )
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Mutation) -> TestResult);
}

#[test]
fn streams_apply_document_by_document() {
    fn prop(docs: Vec<Json>, m: Mutation) -> TestResult {
        let old: Vec<String> = docs.iter().map(|d| d.0.to_string()).collect();
        let mut new = old.clone();
        new.insert(new.len() / 2, m.0.to_string());
        new.push(m.1.to_string());
        let (old, new) = (old.join("\n"), new.join(" "));
        let diff = Diff::new(&old, &new).form(Form::Document);
        check_applies(
            diff,
            &kyaml::to_string(&old).unwrap(),
            &kyaml::to_string(&new).unwrap(),
        )
    }
    QuickCheck::new()
        .tests(200)
        .quickcheck(prop as fn(Vec<Json>, Mutation) -> TestResult);
}

#[test]
fn any_bytes_diff_without_panicking() {
    // Random bytes, and JSON cut short or with a byte changed: every option.
    fn prop(a: Vec<u8>, b: Json, cut: usize, flip: u8) -> TestResult {
        let mut b = b.0.to_string().into_bytes();
        let mut c = b.clone();
        c.truncate(cut % (b.len() + 1));
        if let Some(byte) = b.get_mut(cut % 7) {
            *byte ^= flip;
        }
        for (left, right) in [(&a, &b), (&b, &c), (&c, &a)] {
            for form in [Form::Value, Form::Document] {
                for unordered in [false, true] {
                    let diff = Diff::new(left, right).form(form).unordered(unordered);
                    let text = format!("{diff:#}");
                    assert_eq!(text.is_empty(), diff.is_equal());
                    assert!(Diff::new(left, left)
                        .form(form)
                        .unordered(unordered)
                        .is_equal());
                }
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(Vec<u8>, Json, usize, u8) -> TestResult);
}

#[test]
fn a_deployment_whose_image_and_replicas_changed() {
    let old = r#"{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
        "spec": {"replicas": 2, "template": {"spec": {"containers": [
            {"name": "web", "image": "nginx:1.25", "ports": [{"containerPort": 80}]}]}}}}"#;
    let new = old
        .replace("nginx:1.25", "nginx:1.27")
        .replace("\"replicas\": 2", "\"replicas\": 3");
    let caught = catch_unwind(|| assert_kyaml_eq!(old, new)).unwrap_err();
    let message = caught.downcast_ref::<String>().unwrap();
    assert_eq!(
        message,
        r#"assertion `left == right` failed as KYAML
--- left
+++ right
@@ -5,12 +5,12 @@ spec.replicas
     name: "web",
   },
   spec: {
-    replicas: 2,
+    replicas: 3,
     template: {
       spec: {
         containers: [{
           name: "web",
-          image: "nginx:1.25",
+          image: "nginx:1.27",
           ports: [{
             containerPort: 80,
           }],
"#
    );
    // With one line of context, two hunks, each named by its path.
    let diff = Diff::new(old, &new).context(1).to_string();
    let headers: Vec<&str> = diff.lines().filter(|l| l.starts_with("@@")).collect();
    assert_eq!(
        headers,
        [
            "@@ -7,3 +7,3 @@ spec.replicas",
            "@@ -12,3 +12,3 @@ spec.template.spec.containers[0].image"
        ]
    );
}

// ---------------------------------------------------- the macro

fn panic_message(f: impl FnOnce()) -> Option<String> {
    let caught = catch_unwind(AssertUnwindSafe(f)).err()?;
    Some(caught.downcast_ref::<String>().cloned().unwrap_or_default())
}

#[test]
fn the_macro_passes_on_equal_data_and_fails_with_the_diff() {
    // Equal as data, different as text: passes.
    assert_kyaml_eq!(
        "{\"a\": \"\\u00e9\", \"b\": [1, 2]}",
        "{\"a\":\"é\",\"b\":[1,2]}"
    );
    assert_kyaml_eq!(String::from("[]"), b"[ ]".to_vec());
    assert_kyaml_eq!(unordered: r#"{"a": {"x": 1, "y": 2}, "b": 3}"#, r#"{"b": 3, "a": {"y": 2, "x": 1}}"#,);
    // Key order alone fails without `unordered:`, and says so.
    let message =
        panic_message(|| assert_kyaml_eq!(r#"{"a": 1, "b": 2}"#, r#"{"b": 2, "a": 1}"#)).unwrap();
    assert_eq!(
        message,
        "assertion `left == right` failed as KYAML (only the order of map keys differs, as between \
         two equal `HashMap`s: `assert_kyaml_eq!(unordered: left, right)` compares maps unordered)\n--- left\n+++ right\n@@ -1,4 +1,4 @@ a\n {\n-  a: 1,\n   b: 2,\n+  a: 1,\n }\n"
    );
    // A message with arguments, and the unordered form's.
    let message =
        panic_message(|| assert_kyaml_eq!("[1]", "[2]", "case {} of {}", 3, "x")).unwrap();
    assert!(
        message.starts_with("assertion `left == right` failed as KYAML: case 3 of x\n--- left\n"),
        "{message}"
    );
    let message =
        panic_message(|| assert_kyaml_eq!(unordered: r#"{"b": 1, "a": 2}"#, r#"{"a": 3, "b": 1}"#))
            .unwrap();
    assert_eq!(
        message,
        "assertion `left == right` failed as KYAML (maps unordered)\n--- left\n+++ right\n@@ -1,4 +1,4 @@ a\n {\n-  a: 2,\n+  a: 3,\n   b: 1,\n }\n"
    );
    // Invalid input never panics inside, never hides the other side.
    let message = panic_message(|| assert_kyaml_eq!("{\"a\": 1,}", "{\"a\": 1}")).unwrap();
    assert!(
        message.contains("-\"{\\\"a\\\": 1,}\" # invalid JSON: expected a string key at line 1, column 9\n+{\n+  a: 1,\n+}\n"),
        "{message}"
    );
}

#[test]
fn the_macro_never_fails_with_an_empty_diff() {
    fn prop(a: Json, m: Mutation) -> TestResult {
        let (a, b) = (a.0.to_string(), m.1.to_string());
        match panic_message(|| assert_kyaml_eq!(a, b)) {
            None => assert_eq!(value_form(&a), value_form(&b)),
            Some(message) => {
                assert_ne!(value_form(&a), value_form(&b));
                assert!(message.contains("\n@@ -"), "{message}");
            }
        }
        TestResult::passed()
    }
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    QuickCheck::new()
        .tests(200)
        .quickcheck(prop as fn(Json, Mutation) -> TestResult);
    std::panic::set_hook(hook);
}

// ---------------------------------------------------- the command line

#[test]
fn cli_exit_status_labels_and_errors() {
    let dir = Dir::new("status");
    let a = dir.file("a.json", br#"{"a": [1, 2]}"#);
    let b = dir.file("b.json", br#"{"a": [1, 3]}"#);
    let out = kyaml(&["diff", &a, &a]).output();
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(0), ""));
    let out = kyaml(&["diff", "-U1", &a, "-"])
        .stdin(r#"{"a":[1,3]}"#)
        .output();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        format!("--- {a}\n+++ -\n@@ -4,3 +4,3 @@ a[1]\n     1,\n-    2,\n+    3,\n   ],\n")
    );
    for args in [
        &["diff", "--context", "1", &a, &b][..],
        &["diff", "--context=1", "--from", "json", &a, &b],
    ] {
        let out = kyaml(args).output();
        assert_eq!(out.status.code(), Some(1));
        assert!(
            text(&out.stdout).contains("@@ -4,3 +4,3 @@ a[1]\n"),
            "{}",
            text(&out.stdout)
        );
    }
    // Key order: a difference, unless --unordered.
    let c = dir.file("c.json", br#"{"y": 1, "x": 2}"#);
    let d = dir.file("d.json", br#"{"x": 2, "y": 1}"#);
    assert_eq!(kyaml(&["diff", &c, &d]).output().status.code(), Some(1));
    assert_eq!(
        kyaml(&["diff", "--unordered", &c, &d])
            .output()
            .status
            .code(),
        Some(0)
    );
    // Errors: exit 2 and a message naming what is wrong.
    let bad = dir.file("bad.json", b"{\"a\": 1}\n[1,,2]");
    let out = kyaml(&["diff", &a, &bad]).output();
    assert_eq!((out.status.code(), text(&out.stdout)), (Some(2), ""));
    assert_eq!(
        text(&out.stderr),
        format!("{bad}:2:4: expected a value\n  [1,,2]\n     ^\n")
    );
    let bad_yaml = dir.file("bad.yaml", b"a: [1\n");
    let out = kyaml(&["diff", &bad_yaml, &a]).output();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with(&format!("{bad_yaml}:")),
        "{}",
        text(&out.stderr)
    );
    for args in [
        &["diff", &a][..],
        &["diff", "-U", "x", &a, &b],
        &["diff", "--color=often", &a, &b],
        &["diff", "--bogus", &a, &b],
    ] {
        let out = kyaml(args).output();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).starts_with("kyaml diff: "),
            "{}",
            text(&out.stderr)
        );
    }
    let out = kyaml(&["diff", &a, "/nonexistent/x.json"]).output();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "kyaml diff: cannot read /nonexistent/x.json: No such file or directory\n"
    );
    assert!(kyaml(&["diff", "--help"]).output().status.success());
}

#[test]
fn cli_yaml_against_json_and_yaml() {
    let dir = Dir::new("yaml");
    let json = dir.file("a.json", br#"{"a": [1, true], "b": "x"}"#);
    let yaml = dir.file("a.yaml", b"# the same data\nb: x\na:\n- 1\n- on\n");
    let piped = b"a: [1, on]\nb: x\n";
    // By extension, by content, and with --from; key order and comments
    // (which the rendering keeps) count unless --unordered.
    let out = kyaml(&["diff", &json, &yaml]).output();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        // The YAML side's comment is in its rendering, as `kyaml` writes it.
        format!("--- {json}\n+++ {yaml}\n@@ -1,8 +1,8 @@ b\n ---\n {{\n+  b: \"x\",\n   a: [\n     1,\n     true,\n   ],\n-  b: \"x\",\n }}\n")
    );
    let out = kyaml(&["diff", "--comments", &json, &yaml]).output();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        // The YAML side's comment is in its rendering, as `kyaml` writes it.
        format!("--- {json}\n+++ {yaml}\n@@ -1,8 +1,9 @@\n ---\n {{\n+  # the same data\n+  b: \"x\",\n   a: [\n     1,\n     true,\n   ],\n-  b: \"x\",\n }}\n")
    );
    // A change of comments alone: exit 0 in both modes, shown only with
    // --comments.
    let commented = dir.file("c.yaml", b"b: x # the same\na: [1, on]\n");
    let plain = dir.file("p.yaml", b"b: x\na: [1, on]\n");
    for args in [
        &["diff", &commented, &plain][..],
        &["diff", "--unordered", &commented, &plain],
    ] {
        let out = kyaml(args).output();
        assert_eq!(
            (out.status.code(), text(&out.stdout)),
            (Some(0), ""),
            "{args:?}"
        );
    }
    let out = kyaml(&["diff", "--comments", &commented, &plain]).output();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).contains("-  b: \"x\", # the same\n+  b: \"x\",\n"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(
        kyaml(&["diff", "--unordered", &json, &yaml])
            .output()
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        kyaml(&["diff", &json, "-"])
            .stdin(std::str::from_utf8(piped).unwrap())
            .output()
            .status
            .code(),
        Some(0)
    );
    let no_extension = dir.file("a", piped);
    assert_eq!(
        kyaml(&[
            "diff",
            "--from",
            "yaml",
            &no_extension,
            &yaml,
            "--unordered"
        ])
        .output()
        .status
        .code(),
        Some(0)
    );
    assert_eq!(
        kyaml(&["diff", &no_extension, &json])
            .output()
            .status
            .code(),
        Some(0)
    );
    // The schema: `on` is a string under YAML 1.2.
    let out = kyaml(&["diff", "--schema", "yaml-1.2", &json, &no_extension]).output();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("-    true,\n+    \"on\",\n"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn cli_colour_and_no_color() {
    let dir = Dir::new("colour");
    let a = dir.file("a.json", br#"{"image": "nginx:1.25"}"#);
    let b = dir.file("b.json", br#"{"image": "nginx:1.26"}"#);
    let plain = "@@ -1,4 +1,4 @@ image\n ---\n {\n-  image: \"nginx:1.25\",\n+  image: \"nginx:1.26\",\n }\n";
    let colour = "\x1b[36m@@ -1,4 +1,4 @@\x1b[0m image\n ---\n {\n\x1b[31m-  image: \"nginx:1.\x1b[7m25\x1b[27m\",\x1b[0m\n\x1b[32m+  image: \"nginx:1.\x1b[7m26\x1b[27m\",\x1b[0m\n }\n";
    let run = |args: &[&str], env: &[(&str, &str)]| {
        text(&kyaml(args).env(env).output().stdout).to_string()
    };
    assert!(run(&["diff", "--color=always", &a, &b], &[]).ends_with(colour));
    assert!(run(&["diff", "--color", "always", &a, &b], &[("NO_COLOR", "1")]).ends_with(colour));
    assert!(run(&["diff", "--color=never", &a, &b], &[]).ends_with(plain));
    // `auto` (the default) into a pipe: plain.
    assert!(run(&["diff", &a, &b], &[]).ends_with(plain));
    // `auto` on a terminal: colour, unless NO_COLOR is set (and not empty).
    if Command::new("script").arg("--version").output().is_err() {
        println!("skipped the terminal half: no `script` command to make a terminal");
        return;
    }
    let on_terminal = |no_color: Option<&str>| {
        let mut command = Command::new("script");
        command
            .args(["-qec", &format!("{KYAML} diff {a} {b}"), "/dev/null"])
            .env_remove("NO_COLOR");
        if let Some(v) = no_color {
            command.env("NO_COLOR", v);
        }
        String::from_utf8(command.output().unwrap().stdout)
            .unwrap()
            .replace("\r\n", "\n")
    };
    assert!(
        on_terminal(None).ends_with(colour),
        "{:?}",
        on_terminal(None)
    );
    assert!(on_terminal(Some("1")).ends_with(plain));
    assert!(on_terminal(Some("")).ends_with(colour));
}

/// The JSON inputs of the conformance vectors that render.
fn vector_inputs() -> Vec<String> {
    let mut inputs = Vec::new();
    for (file, _) in common::vectors::VECTOR_FILES {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/{file}.jsonl"));
        for line in std::fs::read_to_string(path).unwrap().lines() {
            let case: Value = serde_json::from_str(line).unwrap();
            let json = case["json"].as_str().unwrap().to_string();
            if kyaml::to_string(&json).is_ok() {
                inputs.push(json);
            }
        }
    }
    inputs
}

/// `kyaml OLD | patch` with `kyaml diff OLD NEW` gives `kyaml NEW`; returns
/// how many document pairs that covered.
fn patch_round_trip(dir: &Dir, old: &[u8], new: &[u8]) -> usize {
    patch_round_trip_as(dir, "json", old, new)
}

/// [`patch_round_trip`] on files named `*.{extension}`.
fn patch_round_trip_as(dir: &Dir, extension: &str, old: &[u8], new: &[u8]) -> usize {
    let old_json = dir.file(&format!("old.{extension}"), old);
    let new_json = dir.file(&format!("new.{extension}"), new);
    let render = |file: &str| kyaml(&[file]).output().stdout;
    let (old_yaml, new_yaml) = (render(&old_json), render(&new_json));
    // With --comments the diff is of `kyaml`'s renderings, comments and
    // all; the exit status says whether the data (the compact renderings,
    // which have no comments) differ.
    let data = |file: &str| kyaml(&["-c", file]).output().stdout;
    let data_differ = data(&old_json) != data(&new_json);
    let out = kyaml(&["diff", "--comments", &old_json, &new_json]).output();
    let documents = text(&old_yaml)
        .matches("---\n")
        .count()
        .max(text(&new_yaml).matches("---\n").count());
    if old_yaml == new_yaml {
        assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0));
        return documents;
    }
    let status = Some(i32::from(data_differ));
    assert_eq!(out.status.code(), status, "{}", text(&out.stderr));
    let old_file = dir.file("old.yaml", &old_yaml);
    let patched = dir.0.join("patched.yaml");
    let status = Command::new("patch")
        .args(["-s", "-o", patched.to_str().unwrap(), &old_file])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(&out.stdout)?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(
        status.status.success(),
        "patch failed: {}",
        text(&status.stdout)
    );
    assert!(
        std::fs::read(&patched).unwrap() == new_yaml,
        "patched output differs"
    );
    documents
}

fn have_patch() -> bool {
    let found = Command::new("patch").arg("--version").output().is_ok();
    if !found {
        println!("skipped: no `patch` command (apt-get install -y patch)");
    }
    found
}

#[test]
fn cli_diff_applies_with_patch_on_vector_pairs() {
    if !have_patch() {
        return;
    }
    let dir = Dir::new("vectors");
    let inputs = vector_inputs();
    let n = inputs.len();
    // Every ordered pair of two different vectors, in one run: the old
    // stream repeats the vectors n - 1 times, the new one holds every
    // rotation of them, and streams are compared document by document.
    let old = vec![inputs.join("\n"); n - 1].join("\n");
    let new: Vec<String> = (1..n)
        .map(|shift| {
            let mut rotated = inputs.clone();
            rotated.rotate_left(shift);
            rotated.join("\n")
        })
        .collect();
    let mut pairs = patch_round_trip(&dir, old.as_bytes(), new.join("\n").as_bytes());
    // At least: a few vectors are streams of two documents.
    assert!(pairs >= n * (n - 1), "{pairs}");
    // Fewer documents on one side, and more.
    let some = inputs[..n / 2].join("\n");
    pairs += patch_round_trip(&dir, inputs.join("\n").as_bytes(), some.as_bytes());
    pairs += patch_round_trip(&dir, some.as_bytes(), inputs.join("\n").as_bytes());
    println!("patch round trip: {pairs} document pairs from {n} vectors");
}

#[test]
fn cli_diff_applies_with_patch_on_corpus_files() {
    if !have_patch() {
        return;
    }
    let Some(data) = common::sweep::bench_data() else {
        return;
    };
    let dir = Dir::new("corpus");
    let files: Vec<Vec<u8>> = ["twitter", "citm_catalog", "canada", "k8s_swagger"]
        .iter()
        .map(|f| std::fs::read(data.join(format!("{f}.json"))).unwrap())
        .collect();
    // Every pair of two different files, in one run of streams compared
    // document by document (the unrelated pairs run out of the diff's work
    // budget: a valid diff that is not minimal).
    let (mut old, mut new) = (Vec::new(), Vec::new());
    for i in 0..files.len() {
        for j in i + 1..files.len() {
            old.extend_from_slice(&files[i]);
            old.push(b'\n');
            new.extend_from_slice(&files[j]);
            new.push(b'\n');
        }
    }
    let mut pairs = patch_round_trip(&dir, &old, &new);
    // Each file against an edit of itself: every 997th digit 3 made a 4,
    // except in digits that end a string (keys such as "205705994", which
    // could then repeat).
    for file in &files {
        let mut edited = file.clone();
        let threes: Vec<usize> = (0..file.len()).filter(|&i| file[i] == b'3').collect();
        for &i in threes.iter().step_by(997) {
            let after = file[i..].iter().find(|b| !b.is_ascii_digit());
            if after != Some(&b'"') {
                edited[i] = b'4';
            }
        }
        assert!(kyaml::to_string(std::str::from_utf8(&edited).unwrap()).is_ok());
        pairs += patch_round_trip(&dir, file, &edited);
    }
    println!("patch round trip: {pairs} corpus pairs");
    assert_eq!(pairs, 6 + 4);
}

#[test]
fn cli_diff_applies_with_patch_on_yaml_corpus_pairs() {
    if !have_patch() {
        return;
    }
    let dir = Dir::new("yaml-corpus");
    let mut files = Vec::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corpus-yaml")];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            files.push(path);
        }
    }
    files.sort();
    let opts = Options::new().input(kyaml::Input::Yaml);
    let inputs: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .filter(|text| opts.to_string(text).is_ok())
        .collect();
    let n = inputs.len();
    assert!(n > 200, "{n}");
    // Streams of every file, against the same streams rotated: each file
    // against several others, document by document.
    let stream = |files: &[String]| files.join("\n---\n");
    let old = vec![stream(&inputs); 8].join("\n---\n");
    let new: Vec<String> = [1, 2, 3, 5, 8, 13, 21, 34]
        .iter()
        .map(|&shift| {
            let mut rotated = inputs.clone();
            rotated.rotate_left(shift);
            stream(&rotated)
        })
        .collect();
    let pairs = patch_round_trip_as(&dir, "yaml", old.as_bytes(), new.join("\n---\n").as_bytes());
    println!("patch round trip: {pairs} document pairs of {n} YAML corpus files");
    assert!(pairs >= 8 * n, "{pairs}");
}
