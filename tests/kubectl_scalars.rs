//! Tags, merge keys and plain scalars as the real kubectl reads them
//! (issue 20, items 3 and 8): each case is a snippet under `spec:` of a
//! ConfigMap, with the `spec` kubectl v1.32 printed for it (`None`: kubectl
//! refuses it; its message in the comment). kyaml must read each alike.
//! Where `kubectl` is on PATH, the test also asks it again (the readable
//! cases in one multi-document file, each refused one alone) and fails if
//! its answers changed; where it is not, it says it skipped that part.

use kyaml::{Input, Options};

#[allow(dead_code)]
mod reader;

mod common;

/// (snippet under `spec:`, kubectl's `spec` as JSON or `None` if refused).
const CASES: &[(&str, Option<&str>)] = &[
    ("!!binary aGVsbG8=: x", Some("{\"hello\": \"x\"}")),
    ("!!bool yes: x", Some("{\"true\": \"x\"}")),
    ("!!float 1: x", Some("{\"1\": \"x\"}")),
    ("!!int \"42\": x", Some("{\"42\": \"x\"}")),
    ("!!merge foo: x", Some("{\"foo\": \"x\"}")),
    ("!!null \"\": x", None), // unsupported map key of type: %!s(<nil>), key: <nil>, value: "x"
    ("!!null ~: x", None),    // unsupported map key of type: %!s(<nil>), key: <nil>, value: "x"
    ("!!set foo: x", Some("{\"foo\": \"x\"}")),
    ("!!str 42: x", Some("{\"42\": \"x\"}")),
    ("!!timestamp 2001-12-14: x", Some("{\"2001-12-14\": \"x\"}")),
    ("+.NaN: x", Some("{\"+.NaN\": \"x\"}")),
    ("+.inf: x", Some("{\".inf\": \"x\"}")),
    ("+0b1: x", Some("{\"1\": \"x\"}")),
    ("+0o7: x", Some("{\"7\": \"x\"}")),
    ("+0x1: x", Some("{\"1\": \"x\"}")),
    ("-.Inf: x", Some("{\"-.inf\": \"x\"}")),
    ("-.NaN: x", Some("{\"-.NaN\": \"x\"}")),
    ("-0b1: x", Some("{\"-1\": \"x\"}")),
    ("-0x1: x", Some("{\"-1\": \"x\"}")),
    ("-1e39: x", Some("{\"-.inf\": \"x\"}")),
    (".INF: x", Some("{\".inf\": \"x\"}")),
    (".NaN: x", Some("{\".nan\": \"x\"}")),
    (".Nan: x", Some("{\".Nan\": \"x\"}")),
    (".inF: x", Some("{\".inF\": \"x\"}")),
    (".inf: x", Some("{\".inf\": \"x\"}")),
    (".nan: x", Some("{\".nan\": \"x\"}")),
    ("0+7: x", Some("{\"0+7\": \"x\"}")),
    ("0.1234567890123: x", Some("{\"0.12345679\": \"x\"}")),
    ("0B+1: x", Some("{\"0B+1\": \"x\"}")),
    ("0b+1: x", Some("{\"1\": \"x\"}")),
    ("0b+: x", Some("{\"0b+\": \"x\"}")),
    ("0b-1: x", Some("{\"-1\": \"x\"}")),
    ("0o+7: x", Some("{\"0o+7\": \"x\"}")),
    ("0o-7: x", Some("{\"0o-7\": \"x\"}")),
    ("0x+1: x", Some("{\"0x+1\": \"x\"}")),
    ("0x+f: x", Some("{\"0x+f\": \"x\"}")),
    ("0x-1: x", Some("{\"0x-1\": \"x\"}")),
    ("1.5: x", Some("{\"1.5\": \"x\"}")),
    ("1e38: x", Some("{\"1e+38\": \"x\"}")),
    ("1e39: x", Some("{\".inf\": \"x\"}")),
    ("1e400: x", Some("{\"1e400\": \"x\"}")),
    ("3.5e38: x", Some("{\".inf\": \"x\"}")),
    (
        "b: &b {x: 1, y: 2}\nm:\n  ! <<: *b",
        Some("{\"b\": {\"true\": 2, \"x\": 1}, \"m\": {\"true\": 2, \"x\": 1}}"),
    ),
    (
        "b: &b {x: 1, y: 2}\nm:\n  !!merge \"<<\": *b\n  y: 3",
        Some("{\"b\": {\"true\": 2, \"x\": 1}, \"m\": {\"true\": 3, \"x\": 1}}"),
    ),
    (
        "b: &b {x: 1, y: 2}\nm:\n  !!merge <<: *b\n  y: 3",
        Some("{\"b\": {\"true\": 2, \"x\": 1}, \"m\": {\"true\": 3, \"x\": 1}}"),
    ),
    (
        "b: &b {x: 1, y: 2}\nm:\n  !!merge <<: [*b, {z: 1}]\n  x: 0",
        Some("{\"b\": {\"true\": 2, \"x\": 1}, \"m\": {\"true\": 2, \"x\": 0, \"z\": 1}}"),
    ),
    (
        "b: &b {x: 1, y: 2}\nm:\n  !!str <<: *b",
        Some("{\"b\": {\"true\": 2, \"x\": 1}, \"m\": {\"<<\": {\"true\": 2, \"x\": 1}}}"),
    ),
    (
        "b: &b {x: 1, y: 2}\nm:\n  !<tag:yaml.org,2002:merge> <<: *b",
        Some("{\"b\": {\"true\": 2, \"x\": 1}, \"m\": {\"true\": 2, \"x\": 1}}"),
    ),
    (
        "b: &b {x: 1, y: 2}\nm:\n  \"<<\": *b",
        Some("{\"b\": {\"true\": 2, \"x\": 1}, \"m\": {\"<<\": {\"true\": 2, \"x\": 1}}}"),
    ),
    ("m: !!merge {<<: {a: 1}}", Some("{\"m\": {\"a\": 1}}")),
    (
        "m: {!!merge <<: {a: 1}, b: 2}",
        Some("{\"m\": {\"a\": 1, \"b\": 2}}"),
    ),
    ("m:\n  ! \"<<\": {a: 1}", Some("{\"m\": {\"a\": 1}}")),
    ("m:\n  ! <<: {a: 1}\n  a: 2", Some("{\"m\": {\"a\": 2}}")),
    ("m:\n  !!merge  <<  : {a: 1}", Some("{\"m\": {\"a\": 1}}")),
    ("m:\n  !!merge '<<': {a: 1}", Some("{\"m\": {\"a\": 1}}")),
    ("m:\n  !!merge <<: 5", None), // yaml: map merge requires map or sequence of maps as the value
    (
        "m:\n  !!merge <<: {a: 1}\n  !!merge <<: {a: 2, c: 3}",
        Some("{\"m\": {\"a\": 2, \"c\": 3}}"),
    ),
    (
        "m:\n  !!merge <<: {a: 1}\n  <<: {a: 2, b: 3}",
        Some("{\"m\": {\"a\": 2, \"b\": 3}}"),
    ),
    (
        "m:\n  <<: [{a: 1}, {a: 2, b: 2}]\n  b: 0",
        Some("{\"m\": {\"a\": 1, \"b\": 0}}"),
    ),
    (
        "m:\n  <<: {a: 1, b: 1}\n  a: 0\n  <<: {a: 2, b: 2, c: 2}",
        Some("{\"m\": {\"a\": 2, \"b\": 2, \"c\": 2}}"),
    ),
    (
        "m:\n  <<: {a: 1}\n  <<: {a: 2, b: 3}",
        Some("{\"m\": {\"a\": 2, \"b\": 3}}"),
    ),
    ("m:\n  a: 0\n  <<: {a: 1}", Some("{\"m\": {\"a\": 1}}")),
    ("v: ! 42", Some("{\"v\": \"42\"}")),
    ("v: !!binary", Some("{\"v\": \"\"}")),
    ("v: !!binary \"!!\"", None), // yaml: !!binary value contains invalid base64 data
    ("v: !!binary aGVsbG8=", Some("{\"v\": \"hello\"}")),
    ("v: !!bool", None), // yaml: cannot decode !!null `` as a !!bool
    ("v: !!bool \"off\"", Some("{\"v\": false}")),
    ("v: !!bool \"true\"", Some("{\"v\": true}")),
    ("v: !!bool 1", None), // yaml: cannot decode !!int `1` as a !!bool
    ("v: !!bool True", Some("{\"v\": true}")),
    ("v: !!bool yes", Some("{\"v\": true}")),
    ("v: !!float", None), // yaml: cannot decode !!null `` as a !!float
    ("v: !!float \"1.5\"", Some("{\"v\": 1.5}")),
    ("v: !!float .inf", None), // json: unsupported value: +Inf
    ("v: !!float 1", Some("{\"v\": 1}")),
    ("v: !!float 1_000.5", Some("{\"v\": 1000.5}")),
    ("v: !!float 1e400", None), // yaml: cannot decode !!str `1e400` as a !!float
    (
        "v: !!float 99999999999999999999",
        Some("{\"v\": 100000000000000000000}"),
    ),
    ("v: !!float abc", None), // yaml: cannot decode !!str `abc` as a !!float
    ("v: !!foo [1]", Some("{\"v\": [1]}")),
    ("v: !!int", None), // yaml: cannot decode !!null `` as a !!int
    ("v: !!int \"42\"", Some("{\"v\": 42}")),
    ("v: !!int +12", Some("{\"v\": 12}")),
    ("v: !!int 017", Some("{\"v\": 15}")),
    ("v: !!int 0b101", Some("{\"v\": 5}")),
    ("v: !!int 0o17", Some("{\"v\": 15}")),
    ("v: !!int 0x1F", Some("{\"v\": 31}")),
    ("v: !!int 1.5", None), // yaml: cannot decode !!float `1.5` as a !!int
    ("v: !!int 1_000", Some("{\"v\": 1000}")),
    ("v: !!int 42", Some("{\"v\": 42}")),
    ("v: !!int 99999999999999999999", None), // yaml: cannot decode !!float `99999999999999999999` as a !!int
    ("v: !!int [1]", Some("{\"v\": [1]}")),
    ("v: !!int abc", None),     // yaml: cannot decode !!str `abc` as a !!int
    ("v: !!int on", None),      // yaml: cannot decode !!bool `on` as a !!int
    ("v: !!int |\n  42", None), // ` as a !!int
    ("v: !!int ~", None),       // yaml: cannot decode !!null `~` as a !!int
    ("v: !!map foo", Some("{\"v\": \"foo\"}")),
    ("v: !!map {a: 1}", Some("{\"v\": {\"a\": 1}}")),
    ("v: !!merge <<", Some("{\"v\": \"<<\"}")),
    ("v: !!merge foo", Some("{\"v\": \"foo\"}")),
    ("v: !!null", Some("{\"v\": null}")),
    ("v: !!null \"\"", Some("{\"v\": null}")),
    ("v: !!null Null", Some("{\"v\": null}")),
    ("v: !!null []", Some("{\"v\": []}")),
    ("v: !!null foo", None), // yaml: cannot decode !!str `foo` as a !!null
    ("v: !!null null", Some("{\"v\": null}")),
    ("v: !!null ~", Some("{\"v\": null}")),
    ("v: !!omap [{a: 1}]", Some("{\"v\": [{\"a\": 1}]}")),
    ("v: !!omap foo", Some("{\"v\": \"foo\"}")),
    ("v: !!pairs foo", Some("{\"v\": \"foo\"}")),
    ("v: !!seq foo", Some("{\"v\": \"foo\"}")),
    ("v: !!seq {a: 1}", Some("{\"v\": {\"a\": 1}}")),
    ("v: !!set foo", Some("{\"v\": \"foo\"}")),
    (
        "v: !!set {a, b}",
        Some("{\"v\": {\"a\": null, \"b\": null}}"),
    ),
    ("v: !!str", Some("{\"v\": \"\"}")),
    ("v: !!str 'a'", Some("{\"v\": \"a\"}")),
    ("v: !!str 42", Some("{\"v\": \"42\"}")),
    ("v: !!str true", Some("{\"v\": \"true\"}")),
    ("v: !!str {a: 1}", Some("{\"v\": {\"a\": 1}}")),
    ("v: !!str ~", Some("{\"v\": \"~\"}")),
    ("v: !!timestamp", None), // yaml: cannot decode !!null `` as a !!timestamp
    (
        "v: !!timestamp \"2001-12-14\"",
        Some("{\"v\": \"2001-12-14\"}"),
    ),
    ("v: !!timestamp 2001-02-30", None), // yaml: cannot decode !!str `2001-02-30` as a !!timestamp
    ("v: !!timestamp 2001-1-4", Some("{\"v\": \"2001-1-4\"}")),
    ("v: !!timestamp 2001-12-14", Some("{\"v\": \"2001-12-14\"}")),
    (
        "v: !!timestamp 2001-12-14  21:59:43",
        Some("{\"v\": \"2001-12-14  21:59:43\"}"),
    ),
    (
        "v: !!timestamp 2001-12-14 1:2:3",
        Some("{\"v\": \"2001-12-14 1:2:3\"}"),
    ),
    (
        "v: !!timestamp 2001-12-14 21:59:43.10",
        Some("{\"v\": \"2001-12-14 21:59:43.10\"}"),
    ),
    ("v: !!timestamp 2001-12-14 21:59:43.10 -5", None), // yaml: cannot decode !!str `2001-12-14 21:59:43.10 -5` as a !!timestamp
    ("v: !!timestamp 2001-12-14T21:59:43", None), // yaml: cannot decode !!str `2001-12-14T21:59:43` as a !!timestamp
    ("v: !!timestamp 2001-12-14T21:59:43+0500", None), // yaml: cannot decode !!str `2001-12-14T21:59:43+0500` as a !!timestamp
    (
        "v: !!timestamp 2001-12-14T21:59:43Z",
        Some("{\"v\": \"2001-12-14T21:59:43Z\"}"),
    ),
    (
        "v: !!timestamp 2001-12-14t21:59:43.10-05:00",
        Some("{\"v\": \"2001-12-14t21:59:43.10-05:00\"}"),
    ),
    ("v: !!timestamp 2001-13-4", None), // yaml: cannot decode !!str `2001-13-4` as a !!timestamp
    ("v: !!timestamp 20011214", None),  // yaml: cannot decode !!int `20011214` as a !!timestamp
    ("v: !!timestamp foo", None),       // yaml: cannot decode !!str `foo` as a !!timestamp
    ("v: !!value foo", Some("{\"v\": \"foo\"}")),
    ("v: !!yaml foo", Some("{\"v\": \"foo\"}")),
    ("v: !foo bar", Some("{\"v\": \"bar\"}")),
    ("v: +0b1", Some("{\"v\": 1}")),
    ("v: +0o7", Some("{\"v\": 7}")),
    ("v: +0x1", Some("{\"v\": 1}")),
    ("v: -.inf", None), // json: unsupported value: -Inf
    ("v: -0b1", Some("{\"v\": -1}")),
    ("v: -0o7", Some("{\"v\": -7}")),
    ("v: -0x1", Some("{\"v\": -1}")),
    ("v: .NaN", None), // json: unsupported value: NaN
    ("v: .inf", None), // json: unsupported value: +Inf
    ("v: 0+7", Some("{\"v\": \"0+7\"}")),
    ("v: 00+7", Some("{\"v\": \"00+7\"}")),
    ("v: 0B+1", Some("{\"v\": \"0B+1\"}")),
    ("v: 0_b+1", Some("{\"v\": 1}")),
    ("v: 0b+", Some("{\"v\": \"0b+\"}")),
    ("v: 0b+-1", Some("{\"v\": \"0b+-1\"}")),
    ("v: 0b+1", Some("{\"v\": 1}")),
    (
        "v: 0b+111111111111111111111111111111111111111111111111111111111111111",
        Some("{\"v\": 9223372036854775807}"),
    ),
    (
        "v: 0b+1111111111111111111111111111111111111111111111111111111111111111",
        Some("{\"v\": \"0b+1111111111111111111111111111111111111111111111111111111111111111\"}"),
    ),
    (
        "v: 0b+11111111111111111111111111111111111111111111111111111111111111111",
        Some("{\"v\": \"0b+11111111111111111111111111111111111111111111111111111111111111111\"}"),
    ),
    ("v: 0b+1_0", Some("{\"v\": 2}")),
    ("v: 0b+_1", Some("{\"v\": 1}")),
    ("v: 0b--1", Some("{\"v\": \"0b--1\"}")),
    ("v: 0b-0", Some("{\"v\": 0}")),
    ("v: 0b-1", Some("{\"v\": -1}")),
    (
        "v: 0b-1000000000000000000000000000000000000000000000000000000000000000",
        Some("{\"v\": -9223372036854775808}"),
    ),
    (
        "v: 0b-1000000000000000000000000000000000000000000000000000000000000001",
        Some("{\"v\": \"0b-1000000000000000000000000000000000000000000000000000000000000001\"}"),
    ),
    ("v: 0b1_0", Some("{\"v\": 2}")),
    ("v: 0o+7", Some("{\"v\": \"0o+7\"}")),
    ("v: 0o-7", Some("{\"v\": \"0o-7\"}")),
    ("v: 0x+1", Some("{\"v\": \"0x+1\"}")),
    ("v: 0x+f", Some("{\"v\": \"0x+f\"}")),
    ("v: 0x-1", Some("{\"v\": \"0x-1\"}")),
    ("v: 0x_1", Some("{\"v\": 1}")),
    ("v: 1_000: ", None), // yaml: line 5: mapping values are not allowed in this context
    ("v: 1e39", Some("{\"v\": 1e+39}")),
    ("v: <<", Some("{\"v\": \"<<\"}")),
    // Merge precedence: in input order, a list's first map first.
    ("a: &a {x: 1, z: 1}\nb: &b {x: 2, w: 2}\nm:\n  x: 0\n  <<: [*a, *b]\n  w: 0", Some("{\"a\": {\"x\": 1, \"z\": 1}, \"b\": {\"w\": 2, \"x\": 2}, \"m\": {\"w\": 0, \"x\": 1, \"z\": 1}}")),
    ("a: &a {x: 1}\nb: &b\n  <<: *a\n  x: 2\nm:\n  <<: *b\n  x: 3", Some("{\"a\": {\"x\": 1}, \"b\": {\"x\": 2}, \"m\": {\"x\": 3}}")),
    ("a: &a {x: 1}\nm:\n  <<: *a\n  x: 0\n  <<: {x: 5}", Some("{\"a\": {\"x\": 1}, \"m\": {\"x\": 5}}")),
    ("m: {<<: [{a: 1}, {a: 2, b: 2}], b: 0, <<: {b: 9}}", Some("{\"m\": {\"a\": 1, \"b\": 9}}")),
    ("m:\n  !!merge <<: [{a: 1}]\n  !!str <<: 2", Some("{\"m\": {\"<<\": 2, \"a\": 1}}")),
];

/// The object holding `snippet` under `spec:`, named `name`.
fn object(name: &str, snippet: &str) -> String {
    let mut doc = format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: {name}}}\nspec:\n");
    for line in snippet.lines() {
        doc.push_str("  ");
        doc.push_str(line);
        doc.push('\n');
    }
    doc
}

/// kyaml's reading of `snippet`'s `spec`, or `None` if it refuses it.
fn kyaml_spec(snippet: &str) -> Option<serde_json::Value> {
    let out = Options::new()
        .input(Input::Yaml)
        .to_string(object("x", snippet))
        .ok()?;
    let docs = reader::read_stream(&out).expect("kyaml's output reads back");
    docs.first().map(|doc| doc["spec"].clone())
}

#[test]
fn kyaml_reads_as_kubectl_reads() {
    let mut failed = Vec::new();
    for &(snippet, want) in CASES {
        let want = want.map(|w| serde_json::from_str::<serde_json::Value>(w).unwrap());
        let got = kyaml_spec(snippet);
        let alike = match (&want, &got) {
            (Some(w), Some(g)) => common::same_data(w, g),
            (None, None) => true,
            _ => false,
        };
        if !alike {
            failed.push(format!("{snippet:?}: kubectl {want:?}, kyaml {got:?}"));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {}:\n{}",
        failed.len(),
        CASES.len(),
        failed.join("\n")
    );
}

/// Runs `kubectl label --local -f - probe=1 -o json` on `input`: each
/// object's `spec`, or `None` if kubectl refuses the input.
fn kubectl(input: &str) -> Option<Vec<serde_json::Value>> {
    use std::io::Write;
    let mut child = std::process::Command::new("kubectl")
        .args(["label", "--local", "-f", "-", "probe=1", "-o", "json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(input.as_bytes()).ok()?;
    let out = child.wait_with_output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let objects = serde_json::Deserializer::from_str(&text).into_iter::<serde_json::Value>();
    Some(
        objects
            .map(|o| o.expect("kubectl's JSON")["spec"].clone())
            .collect(),
    )
}

#[test]
fn kubectl_still_reads_the_cases_so() {
    let installed = std::process::Command::new("kubectl")
        .args(["version", "--client"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        eprintln!("skipped: kubectl is not on PATH (the stored readings are checked by kyaml_reads_as_kubectl_reads)");
        return;
    }
    // The cases kubectl reads, one document each, in one file.
    let readable: Vec<(&str, &str)> = CASES.iter().filter_map(|&(s, w)| Some((s, w?))).collect();
    let file: String = readable
        .iter()
        .enumerate()
        .map(|(i, (snippet, _))| format!("---\n{}", object(&format!("x{i}"), snippet)))
        .collect();
    let specs = kubectl(&file).expect("kubectl reads every readable case");
    assert_eq!(specs.len(), readable.len());
    let mut failed = Vec::new();
    for ((snippet, want), got) in readable.iter().zip(&specs) {
        let want: serde_json::Value = serde_json::from_str(want).unwrap();
        if !common::same_data(&want, got) {
            failed.push(format!("{snippet:?}: stored {want}, kubectl now {got}"));
        }
    }
    // Each refused case alone (one refusal stops a whole file).
    for &(snippet, _) in CASES.iter().filter(|c| c.1.is_none()) {
        if let Some(got) = kubectl(&object("x", snippet)) {
            failed.push(format!(
                "{snippet:?}: stored as refused, kubectl now reads {got:?}"
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "kubectl's readings changed:\n{}",
        failed.join("\n")
    );
}
