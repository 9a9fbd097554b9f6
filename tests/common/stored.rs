//! Outputs held to stored digests: a test computes, for each input it
//! reads, a text (what a reader gave out, what an entry point wrote) and
//! compares its digest with the one a file of `tests/data` stores for that
//! input's name. The digests were written by the build the test guards a
//! change against (`KYAML_STORE_DIGESTS=1` writes the file instead of
//! comparing), so a change of output shows as the inputs it changed.
//! The crate's unit tests include this file by `#[path]` too, so it uses
//! nothing but `std`.

use std::collections::BTreeMap;
use std::format;
use std::path::PathBuf;
use std::string::String;
use std::vec::Vec;

/// FNV-1a, 64 bits, as 16 hex digits: stable across builds and platforms.
pub fn digest(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in text.as_bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// Holds `got` (each input's name and text) to `tests/data/{file}`, a line
/// `DIGEST NAME` per input: every name stored is read, no other, and each
/// text has its digest. With `KYAML_STORE_DIGESTS=1`, writes the file.
/// Panics naming the inputs that differ, with the first one's text.
pub fn hold_to_digests(file: &str, got: &[(String, String)]) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(file);
    let ours: BTreeMap<&str, String> = got
        .iter()
        .map(|(name, text)| (name.as_str(), digest(text)))
        .collect();
    assert_eq!(ours.len(), got.len(), "{file}: two inputs of one name");
    if std::env::var_os("KYAML_STORE_DIGESTS").is_some_and(|v| v == "1") {
        let lines: String = ours
            .iter()
            .map(|(name, digest)| format!("{digest} {name}\n"))
            .collect();
        std::fs::write(&path, lines).unwrap();
        return;
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let stored: BTreeMap<&str, &str> = text
        .lines()
        .filter_map(|line| line.split_once(' '))
        .map(|(digest, name)| (name, digest))
        .collect();
    let missing: Vec<&&str> = stored.keys().filter(|n| !ours.contains_key(*n)).collect();
    assert!(missing.is_empty(), "{file}: not read: {missing:?}");
    let differ: Vec<&str> = ours
        .iter()
        .filter(|(name, digest)| stored.get(*name) != Some(&digest.as_str()))
        .map(|(name, _)| *name)
        .collect();
    if let Some(first) = differ.first() {
        let text = got.iter().find(|(n, _)| n == first).map(|(_, t)| t);
        panic!(
            "{file}: {} of {} inputs differ from the stored digests: {differ:?}\nfirst, {first}:\n{}",
            differ.len(),
            ours.len(),
            text.map_or("", String::as_str)
        );
    }
}
