//! `kyaml fmt`'s formatting: comments and blank lines placed by
//! SPEC-YAML.md §3, byte for byte with the reference on
//! `yaml-comments.jsonl` (both forms), and a fixed point after one pass.

use kyaml::{Input, Options};

fn fmt(yaml: &str, compact: bool) -> Result<String, kyaml::Error> {
    Options::new()
        .input(Input::Yaml)
        .compact(compact)
        .to_string(yaml)
}

fn cases() -> Vec<serde_json::Value> {
    include_str!("data/yaml-comments.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn yaml_comments_byte_for_byte() {
    let cases = cases();
    assert_eq!(cases.len(), 497);
    let mut failed = Vec::new();
    let (mut regular, mut compact) = (0, 0);
    for case in &cases {
        let name = case["name"].as_str().unwrap_or("?");
        let yaml = case["yaml"].as_str().unwrap_or("");
        for (form, is_compact, count) in [
            ("regular", false, &mut regular),
            ("compact", true, &mut compact),
        ] {
            let expected = case[form].as_str().unwrap_or("");
            match fmt(yaml, is_compact) {
                Ok(out) if out == expected => *count += 1,
                Ok(out) => failed.push(format!(
                    "{name} {form}:\n{}",
                    kyaml::LineDiff::new(expected, &out).labels("expected", "ours")
                )),
                Err(e) => failed.push(format!("{name} {form}: {e}")),
            }
        }
    }
    if !failed.is_empty() {
        let shown: Vec<&String> = failed.iter().take(3).collect();
        panic!(
            "regular {regular}/497, compact {compact}/497; first failures:\n{}",
            shown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

#[allow(dead_code)]
mod reader;

/// The comments of `yaml` as the parser reads them, per document, sorted:
/// what must be kept, each the same number of times in the same document.
fn comments_by_document(yaml: &str) -> Vec<Vec<String>> {
    let mut docs: Vec<Vec<String>> = Vec::new();
    for (doc, text) in kyaml::yaml_comments(yaml) {
        if docs.len() <= doc {
            docs.resize(doc + 1, Vec::new());
        }
        docs[doc].push(text.to_string());
    }
    docs.iter_mut().for_each(|d| d.sort());
    docs
}

/// Whether `out` keeps every comment of `input` in its document, and is
/// its own format (a second pass changes nothing).
fn check_fixed_point(name: &str, input: &str, out: &str) -> Result<(), String> {
    if comments_by_document(out) != comments_by_document(input) {
        return Err(format!(
            "{name}: comments differ:\n{:?}\n{:?}",
            comments_by_document(input),
            comments_by_document(out)
        ));
    }
    match fmt(out, false) {
        Ok(again) if again == out => Ok(()),
        Ok(again) => Err(format!(
            "{name}: second pass changes:\n{}",
            kyaml::LineDiff::new(out, &again).labels("first", "second")
        )),
        Err(e) => Err(format!("{name}: second pass fails: {e}")),
    }
}

#[test]
fn yaml_comments_are_kept_and_fixed_points() {
    let mut failed = Vec::new();
    for case in cases() {
        let name = case["name"].as_str().unwrap_or("?");
        let yaml = case["yaml"].as_str().unwrap_or("");
        let out = fmt(yaml, false).expect("the vectors are valid");
        if let Err(e) = check_fixed_point(name, yaml, &out) {
            failed.push(e);
        }
    }
    assert!(
        failed.is_empty(),
        "{} of 497:\n{}",
        failed.len(),
        failed[..failed.len().min(3)].join("\n")
    );
}

fn same(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// The 238 real manifests: formatted, every comment kept in its document,
/// the data what kubectl reads from the original, a second pass a no-op.
#[test]
fn corpus_formats_with_comments_kept() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let index = std::fs::read_to_string(root.join("corpus-yaml-data.jsonl")).expect("the index");
    let (mut files, mut kept, mut data, mut fixed) = (0, 0, 0, 0);
    let mut failed = Vec::new();
    for line in index.lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let path = case["path"].as_str().unwrap_or("");
        let text = std::fs::read_to_string(root.join("corpus-yaml").join(path)).expect("a file");
        files += 1;
        let out = match fmt(&text, false) {
            Ok(out) => out,
            Err(e) => {
                failed.push(format!("{path}: {e}"));
                continue;
            }
        };
        if comments_by_document(&out) == comments_by_document(&text) {
            kept += 1;
        } else {
            failed.push(format!("{path}: comments differ"));
        }
        let want = case["documents"].as_array().cloned().unwrap_or_default();
        match reader::read_stream(&out) {
            Ok(docs)
                if docs.len() == want.len() && docs.iter().zip(&want).all(|(a, b)| same(a, b)) =>
            {
                data += 1
            }
            _ => failed.push(format!("{path}: data differs")),
        }
        match fmt(&out, false) {
            Ok(again) if again == out => fixed += 1,
            _ => failed.push(format!("{path}: second pass changes it")),
        }
    }
    assert_eq!(files, 238);
    assert!(
        failed.is_empty(),
        "comments kept {kept}/238, data equal {data}/238, fixed points {fixed}/238:\n{}",
        failed.join("\n")
    );
}
