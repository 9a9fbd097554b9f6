//! Whether a test run sweeps the corpora beside the repository (and finds
//! the benchmark corpus, which the package leaves out), decided
//! once for every test: the integration tests through `tests/common`, the
//! crate's unit tests by `#[path]` (so this file uses nothing but `std`).
//!
//! By default (`cargo test`, what a contributor runs often, and what a
//! clone with nothing beside it passes) the tests read the repository's
//! own data only. With `KYAML_FULL_SWEEP=1` (a step of `.ci/run`) the
//! tests that sweep `../shared` read it when it is there; where it is not,
//! they skip, asserting nothing about what they did not read.

use std::path::PathBuf;

/// Whether this run sweeps everything: `KYAML_FULL_SWEEP=1`.
pub fn full() -> bool {
    std::env::var_os("KYAML_FULL_SWEEP").is_some_and(|v| v == "1")
}

/// `../shared/{name}` (the cross-parser harness beside the repository),
/// read only in a full sweep and when it is there; else `None`, after a
/// line saying why.
pub fn shared(name: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(name);
    if !full() {
        std::println!("skipped: ../shared/{name} is read with KYAML_FULL_SWEEP=1 only");
        return None;
    }
    match dir.is_dir() {
        true => Some(dir),
        false => {
            std::println!("skipped: no {} (the shared corpus)", dir.display());
            None
        }
    }
}

/// `benches/data` (the benchmark corpus: JSON and YAML files of a few MB),
/// which the repository has and the package leaves out; else `None`,
/// after a line saying why.
pub fn bench_data() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/data");
    match dir.is_dir() {
        true => Some(dir),
        false => {
            std::println!("skipped: no benches/data (the package leaves it out)");
            None
        }
    }
}
