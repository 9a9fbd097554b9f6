//! Raw bytes in. Never panics; deterministic; regular and compact accept
//! and reject the same inputs at the same place; the allocating and the
//! non-allocating paths, one pass and two, and reading from an `io::Read`, agree; accepts exactly what serde_json accepts as a
//! stream of values (but for the differences listed at `judge`); on an
//! error, the sink holds exactly the documents before the bad one; `Dump`
//! shows what value form renders.
#![no_main]

use kyaml::{Dump, Error, ErrorKind, Form, Options, MAX_DEPTH};
use libfuzzer_sys::fuzz_target;

#[path = "../common/pieces.rs"]
mod pieces;
use serde::de::IgnoredAny;

type Rendered = (Result<(), Error>, String);

fn render(data: &[u8], opts: Options) -> Rendered {
    let mut out = String::new();
    let result = opts.to_fmt(&mut out, data);
    (result, out)
}

fn place(result: &Result<(), Error>) -> Result<(), (ErrorKind, usize)> {
    result.as_ref().map(|_| ()).map_err(|e| (e.kind(), e.offset()))
}

/// serde_json's verdict on `data` as a stream of values, and the offsets
/// where the values it accepted end.
///
/// `IgnoredAny` over `from_slice` validates without decoding: it reads
/// numbers of any size, has no recursion limit (`ignore_value` keeps its
/// own stack), and, like `StreamDeserializer` everywhere, rejects a number
/// or literal that runs into the next token (`1x`, `truefalse`) but not
/// `[1][2]`, `"a""b"` or `1"a"`. It neither checks that `\u` escapes pair
/// their surrogates nor that string bytes are UTF-8, so a value holding
/// the first invalid UTF-8 byte, and all after it, are not accepted here.
/// A leading byte order mark is skipped, as we do.
fn serde_stream(data: &[u8]) -> (Result<(), String>, Vec<usize>) {
    let skip = if data.starts_with(b"\xef\xbb\xbf") {
        3
    } else {
        0
    };
    let mut stream = serde_json::Deserializer::from_slice(&data[skip..]).into_iter::<IgnoredAny>();
    let mut ends = Vec::new();
    let mut verdict = Ok(());
    while let Some(value) = stream.next() {
        if let Err(e) = value {
            verdict = Err(e.to_string());
            break;
        }
        ends.push(skip + stream.byte_offset());
    }
    if let Err(e) = std::str::from_utf8(&data[skip..]) {
        let bad = skip + e.valid_up_to();
        ends.retain(|&end| end <= bad);
        verdict = Err(e.to_string());
    }
    (verdict, ends)
}

/// How many of serde_json's values end at or before `offset`: the
/// documents that precede an error of ours there.
fn good_before(ends: &[usize], offset: usize) -> usize {
    ends.partition_point(|&end| end <= offset)
}

/// Our verdict against serde_json's. Where serde_json accepts more:
/// duplicate keys (KYAML readers reject them), lone surrogates (YAML cannot
/// hold them), nesting past our limit and numbers past float64's range;
/// these are checked at the offset we report instead. Everything else we
/// reject, serde_json rejects in the same document.
fn judge(data: &[u8], ours: &Result<(), Error>, serde: &Result<(), String>, ends: &[usize]) {
    let Err(e) = ours else {
        assert!(
            serde.is_ok(),
            "we accepted what serde_json rejects: {serde:?}"
        );
        return;
    };
    let at = &data[e.offset()..];
    match e.kind() {
        ErrorKind::DuplicateKey => {
            let first = e
                .first_offset()
                .expect("duplicate key without its first occurrence");
            assert!(
                first < e.offset() && data[first] == b'"' && at[0] == b'"',
                "{e}"
            );
        }
        ErrorKind::LoneSurrogate => assert!(is_surrogate_escape(at), "{e}"),
        // Only inputs nested deeper than `MAX_DEPTH` get here.
        ErrorKind::TooDeep => assert!(matches!(at[0], b'[' | b'{'), "{e}"),
        // serde_json reads numbers of any size into `IgnoredAny`; we refuse
        // one that rounds to infinity, as kubectl and `serde_json::Value`
        // do. Rust's correctly rounded parse is the oracle.
        ErrorKind::NumberOutOfRange => assert!(is_past_f64(at), "{e}"),
        _ => {
            assert!(serde.is_err(), "we rejected what serde_json accepts: {e}");
            let same_document = good_before(ends, e.offset()) == ends.len();
            assert!(
                same_document,
                "{e}, but serde_json failed elsewhere: {serde:?}"
            );
        }
    }
}

/// Whether the JSON number at the start of `at` (read by JSON's grammar)
/// rounds to float64 infinity.
fn is_past_f64(at: &[u8]) -> bool {
    let digits = |i: usize| {
        i + at[i.min(at.len())..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut end = digits(usize::from(at.first() == Some(&b'-')));
    if at.get(end) == Some(&b'.') {
        end = digits(end + 1);
    }
    if matches!(at.get(end), Some(b'e' | b'E')) {
        end = digits(end + 1 + usize::from(matches!(at.get(end + 1), Some(b'+' | b'-'))));
    }
    std::str::from_utf8(&at[..end.min(at.len())])
        .ok()
        .and_then(|text| text.parse::<f64>().ok())
        .is_some_and(f64::is_infinite)
}

/// `\uD800` to `\uDFFF`, any case.
fn is_surrogate_escape(at: &[u8]) -> bool {
    at.len() >= 6
        && at[..3].eq_ignore_ascii_case(b"\\ud")
        && matches!(at[3].to_ascii_lowercase(), b'8'..=b'9' | b'a'..=b'f')
        && at[4..6].iter().all(u8::is_ascii_hexdigit)
}

/// An error past the depth limit must not hide an earlier one: with the
/// largest limit, the input reads on past that point.
fn check_depth(data: &[u8], regular: &Rendered) -> Rendered {
    let deep = render(data, Options::new().max_depth(MAX_DEPTH));
    match &regular.0 {
        Err(e) if e.kind() == ErrorKind::TooDeep => {
            assert!(
                deep.0.as_ref().map_or_else(|d| d.offset() > e.offset(), |()| true),
                "{e}, but {:?}",
                deep.0
            );
        }
        _ => assert_eq!(&deep, regular, "the depth limit changed an input within it"),
    }
    deep
}

/// `to_string` checks every duplicate key; `to_fmt`'s fixed store only the
/// first 512 keys of the maps open at once. Otherwise they agree.
fn check_growing(data: &[u8], regular: &Rendered) {
    match (Options::new().to_string(data), regular.0.clone()) {
        (Ok(out), fixed) => assert_eq!((Ok(()), out), (fixed, regular.1.clone())),
        (Err(e), fixed) if place(&Err(e.clone())) == place(&fixed) => {}
        (Err(e), fixed) => {
            assert_eq!(
                e.kind(),
                ErrorKind::DuplicateKey,
                "to_string: {e}, to_fmt: {fixed:?}"
            );
            assert!(
                fixed.as_ref().map_or_else(|f| f.offset() > e.offset(), |()| true),
                "to_string: {e}, to_fmt: {fixed:?}"
            );
        }
    }
}

/// `to_writer` checks each document, then writes it, with the same growing
/// store as `to_string`'s one pass: the same output, or the same error.
fn check_two_pass(data: &[u8]) {
    for opts in [Options::new(), Options::new().compact(true)] {
        let mut bytes = Vec::new();
        let two_pass = match opts.to_writer(&mut bytes, data) {
            Ok(()) => Ok(String::from_utf8(bytes.clone()).expect("to_writer wrote UTF-8")),
            Err(e) => Err(*e
                .into_inner()
                .and_then(|e| e.downcast::<Error>().ok())
                .expect("to_writer's error is ours")),
        };
        assert_eq!(
            opts.to_string(data),
            two_pass,
            "to_string and to_writer disagree"
        );
        check_stream(data, opts, &bytes, two_pass.as_ref().err());
    }
}

/// `transcode`, reading the input in pieces of 1 and 7 bytes in turn,
/// frames each document as it arrives: the same output, the same error,
/// and on an error the same documents before it as `to_writer`.
fn check_stream(data: &[u8], opts: Options, want: &[u8], error: Option<&Error>) {
    let (streamed, out) = pieces::transcoded(data, opts);
    assert_eq!(
        streamed.as_ref(),
        error,
        "transcode and to_writer disagree"
    );
    assert_eq!(
        out, want,
        "transcode and to_writer wrote different documents"
    );
}

/// On an error, the sink holds the KYAML of the documents before the bad
/// one, complete, and nothing of the bad one.
fn check_prefix(data: &[u8], regular: &Rendered, ends: &[usize]) {
    let Err(e) = &regular.0 else { return };
    let expected = match good_before(ends, e.offset()) {
        0 => String::new(),
        n => {
            let prefix = render(&data[..ends[n - 1]], Options::new());
            assert!(prefix.0.is_ok(), "{:?}", prefix.0);
            prefix.1
        }
    };
    assert_eq!(
        regular.1, expected,
        "output before the error ({e}) is not the good documents"
    );
}

/// `Dump` is value form, or on an error the text and a comment naming it.
fn check_dump(text: &str) {
    for (compact, shown) in [
        (true, format!("{}", Dump(text))),
        (false, format!("{:#}", Dump(text))),
    ] {
        match render(
            text.as_bytes(),
            Options::new().form(Form::Value).compact(compact),
        ) {
            (Ok(()), out) => assert_eq!(shown, out),
            (Err(e), _) => assert!(shown.ends_with(&format!(" # invalid JSON: {e}")), "{shown}"),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let regular = render(data, Options::new());
    assert_eq!(regular, render(data, Options::new()), "not deterministic");
    let compact = render(data, Options::new().compact(true));
    assert_eq!(
        place(&regular.0),
        place(&compact.0),
        "regular and compact disagree"
    );
    check_growing(data, &regular);
    check_two_pass(data);

    let deep = check_depth(data, &regular);
    let (serde, ends) = serde_stream(data);
    judge(data, &deep.0, &serde, &ends);
    check_prefix(data, &regular, &ends);

    if let Ok(text) = std::str::from_utf8(data) {
        check_dump(text);
    }
});
