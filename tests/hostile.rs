//! Hostile input: every truncation and every invalid UTF-8 byte of real
//! documents is an error at the right place, never a panic, and nothing of
//! the bad document reaches the sink. (Sizes and time: examples/scaling.rs.)

use kyaml::{ErrorKind, Options};

/// Documents that exercise every token kind, escapes and non-ASCII text.
const DOCS: [&str; 4] = [
    r#"{"kind": "Pod", "metadata": {"name": "web-1", "labels": {"app": "é\u00e9"}}, "n": [1, -2.5e+3, true, false, null]}"#,
    r#"[{"a": "x\ny\t\"z\"\\\/\ud83d\ude00"}, [], {}, [[0.5]]]"#,
    "\"日本語 text\"",
    "-0.125E-2",
];

/// Renders `json` with the no-alloc path into a String; returns the result
/// and what reached the sink.
fn render(json: &[u8], opts: Options) -> (Result<(), kyaml::Error>, String) {
    let mut out = String::new();
    let result = opts.to_fmt(&mut out, json);
    (result, out)
}

#[test]
fn every_truncation_is_an_error_and_writes_nothing() {
    for doc in DOCS {
        let full = doc.as_bytes();
        for cut in 1..full.len() {
            let part = &full[..cut];
            // A prefix may be a valid stream by itself (`-0.1` of a number,
            // or a cut that stops right after a complete value).
            if serde_json::Deserializer::from_slice(part)
                .into_iter::<serde_json::Value>()
                .all(|v| v.is_ok())
            {
                continue;
            }
            for opts in [Options::new(), Options::new().compact(true)] {
                let (result, out) = render(part, opts);
                let err = result.expect_err(&String::from_utf8_lossy(part));
                assert!(out.is_empty(), "{part:?} wrote {out:?}");
                assert!(
                    err.offset() <= cut,
                    "{part:?}: offset {} past the end",
                    err.offset()
                );
                assert!(
                    matches!(err.kind(), ErrorKind::Syntax | ErrorKind::InvalidUtf8),
                    "{part:?}: {err}"
                );
            }
        }
    }
}

#[test]
fn invalid_utf8_anywhere_is_an_error_at_that_byte() {
    for doc in DOCS {
        for at in 0..doc.len() {
            for bad in [0xFFu8, 0x80, 0xC0, 0xED] {
                let mut bytes = doc.as_bytes().to_vec();
                bytes.insert(at, bad);
                let (result, out) = render(&bytes, Options::new());
                let err = result.expect_err("invalid UTF-8 accepted");
                assert!(out.is_empty(), "wrote {out:?} for {bytes:?}");
                if doc.is_char_boundary(at) {
                    // Everything before is a valid prefix: the bad byte is the error.
                    assert_eq!(
                        (err.kind(), err.offset()),
                        (ErrorKind::InvalidUtf8, at),
                        "{bytes:?}"
                    );
                } else {
                    // Inside a character the byte may complete a different one: the
                    // break shows at most a character later.
                    assert_eq!(err.kind(), ErrorKind::InvalidUtf8, "{bytes:?}");
                    assert!(
                        err.offset() <= at + 3,
                        "{bytes:?}: error at {}",
                        err.offset()
                    );
                }
            }
        }
    }
}

#[test]
fn a_bad_document_after_good_ones_keeps_the_good_ones() {
    let stream = b"{\"a\": 1}\n[2]\n{\"b\": \xff}\n[3]\n";
    let (result, out) = render(stream, Options::new());
    assert_eq!(out, "---\n{\n  a: 1,\n}\n---\n[\n  2,\n]\n");
    let err = result.unwrap_err();
    assert_eq!(
        (err.kind(), err.line(), err.column(), err.offset()),
        (ErrorKind::InvalidUtf8, 3, 7, 19)
    );
}

#[test]
fn overlong_and_surrogate_utf8_encodings_are_rejected() {
    for bytes in [
        &b"\"\xc0\xaf\""[..],
        b"\"\xed\xa0\x80\"",
        b"\"\xf4\x90\x80\x80\"",
        b"\"\xe2\x82\"",
    ] {
        let (result, out) = render(bytes, Options::new());
        assert_eq!(
            result.unwrap_err().kind(),
            ErrorKind::InvalidUtf8,
            "{bytes:?}"
        );
        assert!(out.is_empty());
    }
}

#[test]
fn huge_numbers_pass_through() {
    let digits = "9".repeat(100_000);
    // Within float64's range however long: written as they are.
    let json = format!("[0.{digits}, -{digits}.{digits}e-{digits}]");
    let out = Options::new().compact(true).to_string(&json).unwrap();
    assert_eq!(
        out,
        format!("---\n[0.{digits}, -{digits}.{digits}e-{digits}]\n")
    );
    // Past it: refused, as kubectl and serde_json refuse it.
    let err = Options::new()
        .to_string(format!("[1, {digits}]"))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NumberOutOfRange);
    assert_eq!(err.column(), 5);
}
