//! Raw bytes in. Never panics; deterministic; regular and compact accept
//! and reject the same inputs at the same place; accepts exactly what
//! serde_json accepts as a stream of values (but for the documented
//! differences below); on an error, the sink holds exactly the documents
//! before the bad one; `Dump` never panics.
#![no_main]

use kyaml::{ErrorKind, Options};
use libfuzzer_sys::fuzz_target;
use serde::de::IgnoredAny;

fn render(data: &[u8], opts: Options) -> (Result<(), kyaml::Error>, String) {
    let mut out = String::new();
    let result = opts.to_fmt(data, &mut out);
    (result, out)
}

/// serde_json's verdict on `data` as a stream of values, and the byte
/// offsets where its values end. The values are validated, not decoded:
/// `IgnoredAny` reads numbers of any size and does not check that `\u`
/// escapes pair their surrogates. serde_json reads `&str` for UTF-8 checks,
/// so the stream is read up to the first invalid byte, which then fails it.
/// A leading byte order mark is skipped, as we do (serde_json rejects it).
fn serde_stream(data: &[u8]) -> (Result<(), String>, Vec<usize>) {
    let skip = if data.starts_with(b"\xef\xbb\xbf") { 3 } else { 0 };
    let (text, utf8) = match std::str::from_utf8(&data[skip..]) {
        Ok(text) => (text, Ok(())),
        Err(e) => (std::str::from_utf8(&data[skip..skip + e.valid_up_to()]).unwrap(), Err(e.to_string())),
    };
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<IgnoredAny>();
    let mut ends = Vec::new();
    while let Some(value) = stream.next() {
        if let Err(e) = value {
            return (Err(e.to_string()), ends);
        }
        ends.push(skip + stream.byte_offset());
    }
    (utf8, ends)
}

fuzz_target!(|data: &[u8]| {
    let regular = render(data, Options::new());
    assert_eq!(regular, render(data, Options::new()), "not deterministic");
    let compact = render(data, Options::new().compact(true));
    let place = |r: &Result<(), kyaml::Error>| r.as_ref().map_err(|e| (e.kind(), e.offset())).copied();
    assert_eq!(place(&regular.0), place(&compact.0), "regular and compact disagree");

    let (serde, ends) = serde_stream(data);
    match (&regular.0, &serde) {
        (Ok(()), Ok(())) => {}
        (Ok(()), Err(e)) => {
            // serde_json stops at 128 levels; we allow 1,000.
            assert!(e.contains("recursion limit"), "we accepted what serde_json rejects: {e}");
        }
        (Err(ours), serde) => {
            match ours.kind() {
                // serde_json keeps the last of duplicate keys; we reject them.
                ErrorKind::DuplicateKey => {}
                // Past our depth limit (or serde_json's), the verdicts differ.
                ErrorKind::TooDeep => {}
                // YAML cannot hold a lone surrogate; serde_json does not look.
                ErrorKind::LoneSurrogate => {}
                _ => assert!(serde.is_err(), "we rejected what serde_json accepts: {ours}"),
            }
            // The sink holds exactly the documents before the bad one.
            let written = regular.1.matches("---\n").count();
            if let Some(&end) = written.checked_sub(1).and_then(|n| ends.get(n)) {
                let (prefix, out) = render(&data[..end], Options::new());
                assert!(prefix.is_ok());
                assert_eq!(out, regular.1, "output before the error is not the good documents");
            } else {
                assert!(regular.1.is_empty(), "wrote part of a bad first document");
            }
        }
    }

    if let Ok(text) = std::str::from_utf8(data) {
        let _ = format!("{}{:#}", kyaml::Dump(text), kyaml::Dump(text));
    }
});
