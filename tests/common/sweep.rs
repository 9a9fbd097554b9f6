//! How much of the expensive sweeps a test run covers, decided once for
//! every test: the integration tests through `tests/common`, the crate's
//! unit tests by `#[path]` (so this file uses nothing but `std`).
//!
//! By default (`cargo test`, what a contributor runs often) a sweep that
//! tries every position of every input (each cut, each changed byte), or
//! runs the command once per file, covers every [`STRIDE`]th of them, a
//! different residue for each input, so that the run stays short. With
//! `KYAML_FULL_SWEEP=1` (a step of `.ci/run`) every sweep covers all of
//! them, and the tests that read `../shared` read it (they skip without
//! it, asserting nothing about what they did not read).

use std::path::PathBuf;

/// One in how many positions or files a sampled sweep covers.
pub const STRIDE: usize = 5;

/// Whether this run sweeps everything: `KYAML_FULL_SWEEP=1`.
pub fn full() -> bool {
    std::env::var_os("KYAML_FULL_SWEEP").is_some_and(|v| v == "1")
}

/// The indices `0..n` that a sweep covers: all of them in a full sweep,
/// else every [`STRIDE`]th, from `seed % STRIDE` (give each input its own
/// seed, so that together they cover every residue).
pub fn indices(n: usize, seed: usize) -> impl Iterator<Item = usize> {
    let (from, step) = match full() {
        true => (0, 1),
        false => (seed % STRIDE, STRIDE),
    };
    (from..n).step_by(step)
}

/// The items a sweep covers (see [`indices`]), with seed 0.
pub fn items<T>(items: std::vec::Vec<T>) -> std::vec::Vec<T> {
    match full() {
        true => items,
        false => items.into_iter().step_by(STRIDE).collect(),
    }
}

/// The least count a sweep must reach: `full` in a full sweep, a
/// [`STRIDE`]th of it in a sampled one.
pub fn at_least(full_count: usize) -> usize {
    match full() {
        true => full_count,
        false => full_count / STRIDE,
    }
}

/// `../shared/{name}` (the cross-parser harness beside the repository),
/// read only in a full sweep and when it is there; else `None`, after a
/// line saying why.
pub fn shared(name: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared").join(name);
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
