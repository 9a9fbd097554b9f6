//! Writes JSON files as block-style YAML (the test-only writer in
//! `tests/block_yaml`), for the YAML benchmark inputs:
//! `cargo run --example to_block_yaml -- benches/data/twitter.json ...`
//! writes `benches/data/twitter.yaml` beside each file.
//! `tools/check_block_yaml.py` checks that kubectl reads each as its JSON's data.

#[path = "../tests/block_yaml/mod.rs"]
mod block_yaml;

fn main() {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: to_block_yaml FILE.json ...");
        std::process::exit(2);
    }
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let json = block_yaml::exact_json(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut yaml = String::new();
        block_yaml::write_block_yaml(&json, &mut yaml);
        let out = format!("{}.yaml", path.strip_suffix(".json").unwrap_or(&path));
        std::fs::write(&out, &yaml).unwrap_or_else(|e| panic!("{out}: {e}"));
        println!("{out}: {} bytes (JSON {} bytes)", yaml.len(), text.len());
    }
}
