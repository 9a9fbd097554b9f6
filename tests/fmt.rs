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
