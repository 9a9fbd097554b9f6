//! The conformance vector files, listed once for every test that reads
//! them: the integration tests through `tests/common`, the crate's unit
//! tests by `#[path]` (so this file uses nothing outside `core`).

/// The form a vector file's expected outputs are in (tests/data/README.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VectorForm {
    /// No `---` header and no final line feed (the reference's `Marshal`).
    Value,
    /// A `---` header and a final line feed (`kubectl get -o kyaml`).
    Document,
}

/// The conformance vectors, `tests/data/{name}.jsonl`: the reference
/// encoder's cases, our deviations and the regressions we pinned. Each line
/// is a case: `json` the input, `regular` and `compact` the exact output.
pub const VECTOR_FILES: [(&str, VectorForm); 6] = [
    ("values", VectorForm::Value),
    ("escapes", VectorForm::Value),
    ("keys", VectorForm::Value),
    ("regressions", VectorForm::Value),
    ("documents", VectorForm::Document),
    ("deviations", VectorForm::Document),
];
