//! Every conformance vector (tests/data/*.jsonl, produced by running the
//! reference encoder, plus our documented deviations), byte for byte, in
//! both the regular and the compact form.

use kyaml::{Form, Options};
use serde_json::Value;

mod common;
use common::vectors::{VectorForm, VECTOR_FILES};

struct Case {
    file: &'static str,
    name: String,
    json: String,
    regular: String,
    compact: String,
}

/// The cases of `tests/data/{file}.jsonl`.
fn cases(file: &'static str) -> Vec<Case> {
    let path = format!("{}/tests/data/{file}.jsonl", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            let field = |k: &str| {
                v[k].as_str()
                    .unwrap_or_else(|| panic!("{file}: no {k} in {line}"))
                    .to_owned()
            };
            Case {
                file,
                name: field("name"),
                json: field("json"),
                regular: field("regular"),
                compact: field("compact"),
            }
        })
        .collect()
}

/// Runs every case of the vector file `file` in its form (as
/// [`VECTOR_FILES`] gives it), and checks that there are `expected_count`.
fn check(file: &'static str, expected_count: usize) {
    let form = match VECTOR_FILES.iter().find(|(name, _)| *name == file) {
        Some((_, VectorForm::Value)) => Form::Value,
        Some((_, VectorForm::Document)) => Form::Document,
        None => panic!("{file} is not in VECTOR_FILES"),
    };
    let cases = cases(file);
    assert_eq!(cases.len(), expected_count, "{file}: number of vectors");
    let mut failures = Vec::new();
    for case in &cases {
        for (compact, want) in [(false, &case.regular), (true, &case.compact)] {
            let opts = Options::new().form(form).compact(compact);
            let got = opts.to_string(&case.json);
            // The no-alloc path must agree byte for byte.
            let mut fmt_out = String::new();
            let fmt_result = opts.to_fmt(&mut fmt_out, &case.json);
            match got {
                Ok(got) if &got == want && fmt_result.is_ok() && fmt_out == got => {}
                got => failures.push(format!(
                    "{}: {} (compact: {compact})\n  json: {:?}\n  want: {want:?}\n  got:  {got:?}\n  fmt:  {fmt_out:?}",
                    case.file, case.name, case.json
                )),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        2 * cases.len(),
        failures.join("\n")
    );
}

#[test]
fn values() {
    check("values", 71);
}

#[test]
fn escapes() {
    check("escapes", 54);
}

#[test]
fn keys() {
    check("keys", 51);
}

/// Cases the cross-parser check found (tests/compat/run), fixed since.
#[test]
fn regressions() {
    check("regressions", 10);
}

#[test]
fn documents() {
    check("documents", 4);
}

#[test]
fn deviations() {
    check("deviations", 5);
}

/// The document form of every value case is `---\n` + value form + `\n`.
#[test]
fn document_form_wraps_value_form() {
    let value_form = VECTOR_FILES
        .iter()
        .filter(|(_, form)| *form == VectorForm::Value);
    for (file, _) in value_form {
        for case in cases(file) {
            let doc = kyaml::to_string(&case.json).unwrap();
            assert_eq!(doc, format!("---\n{}\n", case.regular), "{}", case.name);
        }
    }
}
