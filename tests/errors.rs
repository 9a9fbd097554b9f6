//! Errors name the exact byte offset, line, column and what was expected;
//! depth is bounded without recursion; streams keep their good documents.

use kyaml::{Dump, ErrorKind, Form, Options};
use ErrorKind::{DuplicateKey as Dup, InvalidUtf8 as Utf8, LoneSurrogate as Lone, Syntax};

/// `(input, kind, offset, line, column, expected)`: one document each, so
/// nothing may be written.
type Case<'a> = (&'a [u8], ErrorKind, usize, usize, usize, &'a str);

const VALUE: &str = "a value";
const LIST_NEXT: &str = "`,` or `]` after a list element";
const COLON: &str = "`:` after an object key";
const ESCAPE: &str = "an escape: one of `\"\\/bfnrtu` after `\\`";
const HEX: &str = "four hex digits after `\\u`";
const CONTROL: &str = "`\\u` escape for a control character in a string";
const PAIR: &str = "a surrogate pair";
const ZERO: &str = "no leading zero in a number";
const DIGIT: &str = "a digit";
const GAP: &str = "white space before the next value";
const NEW_KEY: &str = "a key not used before in this object";
const UTF8: &str = "UTF-8";

#[rustfmt::skip]
const CASES: &[Case] = &[
    // Misplaced and missing punctuation.
    (b"[1,]", Syntax, 3, 1, 4, VALUE),
    (b"[1 2]", Syntax, 3, 1, 4, LIST_NEXT),
    (b"{\"a\" 1}", Syntax, 5, 1, 6, COLON),
    (b"{\"a\":1,}", Syntax, 7, 1, 8, "a string key"),
    (b"{1:2}", Syntax, 1, 1, 2, "a string key or `}`"),
    (b"{\"a\":1]", Syntax, 6, 1, 7, "`,` or `}` after an object member"),
    // Truncated at every kind of place: the error is at the end.
    (b"[", Syntax, 1, 1, 2, "a value or `]`"),
    (b"[1,2", Syntax, 4, 1, 5, LIST_NEXT),
    (b"[1,2,", Syntax, 5, 1, 6, VALUE),
    (b"{", Syntax, 1, 1, 2, "a string key or `}`"),
    (b"{\"a\"", Syntax, 4, 1, 5, COLON),
    (b"{\"a\":", Syntax, 5, 1, 6, VALUE),
    (b"\"", Syntax, 1, 1, 2, "`\"` to close the string"),
    (b"[\"abc", Syntax, 5, 1, 6, "`\"` to close the string"),
    (b"\"\\", Syntax, 2, 1, 3, ESCAPE),
    (b"\"\\u12", Syntax, 5, 1, 6, HEX),
    (b"-", Syntax, 1, 1, 2, DIGIT),
    (b"1.", Syntax, 2, 1, 3, DIGIT),
    (b"1e+", Syntax, 3, 1, 4, DIGIT),
    (b"tru", Syntax, 3, 1, 4, "`true`"),
    // Bad escapes.
    (b"\"\\x41\"", Syntax, 2, 1, 3, ESCAPE),
    (b"\"\\'\"", Syntax, 2, 1, 3, ESCAPE),
    (b"\"\\U0041\"", Syntax, 2, 1, 3, ESCAPE),
    (b"\"\\u12G4\"", Syntax, 5, 1, 6, HEX),
    // Lone surrogates, high and low: the error is at the escape.
    (b"\"\\ud800\"", Lone, 1, 1, 2, PAIR),
    (b"\"\\udc00\"", Lone, 1, 1, 2, PAIR),
    (b"\"\\ud800\\u0041\"", Lone, 1, 1, 2, PAIR),
    (b"\"\\ud800\\ud800\"", Lone, 1, 1, 2, PAIR),
    (b"[\"\\udfff\\ud800\"]", Lone, 2, 1, 3, PAIR),
    // Raw control characters in strings (DEL is allowed).
    (b"\"a\tb\"", Syntax, 2, 1, 3, CONTROL),
    (b"\"a\x00\"", Syntax, 2, 1, 3, CONTROL),
    (b"\"a\nb\"", Syntax, 2, 1, 3, CONTROL),
    (b"\"\x1f\"", Syntax, 1, 1, 2, CONTROL),
    // Numbers.
    (b"01", Syntax, 1, 1, 2, ZERO),
    (b"-01", Syntax, 2, 1, 3, ZERO),
    (b"[00]", Syntax, 2, 1, 3, ZERO),
    (b"1.e1", Syntax, 2, 1, 3, DIGIT),
    (b"1E", Syntax, 2, 1, 3, DIGIT),
    (b"-Infinity", Syntax, 1, 1, 2, DIGIT),
    (b"+1", Syntax, 0, 1, 1, VALUE),
    (b".5", Syntax, 0, 1, 1, VALUE),
    (b"NaN", Syntax, 0, 1, 1, VALUE),
    // Values run together.
    (b"truefalse", Syntax, 4, 1, 5, GAP),
    (b"1x", Syntax, 1, 1, 2, GAP),
    (b"0x1", Syntax, 1, 1, 2, GAP),
    (b"nul l", Syntax, 3, 1, 4, "`null`"),
    // Duplicate keys, also when only their escapes differ, and nested.
    (b"{\"a\":1,\"a\":2}", Dup, 7, 1, 8, NEW_KEY),
    (b"{\"a\":1,\"\\u0061\":2}", Dup, 7, 1, 8, NEW_KEY),
    (b"{\"a\":{\"a\":1},\"b\":{\"k\":1,\"k\":2}}", Dup, 24, 1, 25, NEW_KEY),
    // Invalid UTF-8: the error is at the first byte of the bad sequence.
    (b"\xff", Utf8, 0, 1, 1, UTF8),
    (b"[\xff]", Utf8, 1, 1, 2, UTF8),
    (b"\"\x80\"", Utf8, 1, 1, 2, UTF8),
    (b"\"a\xc3\"", Utf8, 2, 1, 3, UTF8),
    (b"\"a\xc3", Utf8, 2, 1, 3, UTF8),
    (b"\"\xe6\x97\"", Utf8, 1, 1, 2, UTF8),
    (b"\"\xc0\x80\"", Utf8, 1, 1, 2, UTF8),
    (b"\"\xed\xa0\x80\"", Utf8, 1, 1, 2, UTF8),
    (b"\"\xf4\x90\x80\x80\"", Utf8, 1, 1, 2, UTF8),
    (b"{\"\xfe\":1}", Utf8, 2, 1, 3, UTF8),
    (b"[\n\"\xc3\xa9\",\xff]", Utf8, 7, 2, 5, UTF8),
    // A byte order mark only at the very start (the column is below).
    (b"[\xef\xbb\xbf1]", Syntax, 1, 1, 2, "a value or `]`"),
    (b"\xef\xbb", Utf8, 0, 1, 1, UTF8),
    // Lines end at LF (CR LF too); columns count characters, not bytes.
    (b"[1,\r\n 2,\r\n x]", Syntax, 11, 3, 2, VALUE),
    (b"[1,\r x]", Syntax, 5, 1, 6, VALUE),
    ("{\"é\": [\"日本\", @]}".as_bytes(), Syntax, 18, 1, 14, VALUE),
    ("[\"😀\",x]".as_bytes(), Syntax, 8, 1, 6, VALUE),
    ("\n\n  [\n\t\"e\u{301}\" ?]".as_bytes(), Syntax, 13, 4, 7, LIST_NEXT),
];

#[test]
fn errors_name_the_place_and_what_was_expected() {
    for &(input, kind, offset, line, column, expected) in CASES {
        let shown = String::from_utf8_lossy(input);
        let err = Options::new().to_string(input).expect_err(&shown);
        let got = (
            err.kind(),
            err.offset(),
            err.line(),
            err.column(),
            err.expected(),
        );
        assert_eq!(
            got,
            (kind, offset, line, column, expected),
            "{shown:?}: {err}"
        );
        // The message and the place; and a syntax error in input that
        // does not open as JSON does (`-`, `tru`) on its first line, the
        // hint that it may be YAML (tests/conventions.rs).
        let plain = format!("{} at line {line}, column {column}", err.message());
        let hint = " (the input looks like YAML: read it with `Options::new().input(Input::Yaml)`)";
        let opens_as_json = input
            .trim_ascii_start()
            .first()
            .is_some_and(|b| b"{[\"".contains(b));
        let shown_error = err.to_string();
        assert!(
            shown_error == plain || (!opens_as_json && shown_error == plain.clone() + hint),
            "{shown:?}: {shown_error}"
        );
        // `{:?}` (what `unwrap` shows) is as short as serde_json's.
        let message = format!("{:?}", err.message());
        assert_eq!(
            format!("{err:?}"),
            format!("Error({kind:?}, {message}, line: {line}, column: {column})")
        );
        assert!(format!("{err:?}").len() < 100, "{err:?}");
        // The no-alloc path agrees, in both layouts, and writes nothing.
        for opts in [Options::new(), Options::new().compact(true)] {
            let mut out = String::new();
            assert_eq!(opts.to_fmt(&mut out, input), Err(err.clone()), "{shown:?}");
            assert_eq!(out, "", "{shown:?}");
        }
    }
}

#[test]
fn every_kind_has_its_message() {
    let message = |json: &str| kyaml::to_string(json).unwrap_err().message().to_string();
    assert_eq!(message("[1,]"), "expected a value");
    assert_eq!(
        message("\"\\udc00\""),
        "lone surrogate in a \\u escape (YAML cannot hold it)"
    );
    let utf8 = kyaml::to_fmt(&mut String::new(), b"[\xff]").unwrap_err();
    assert_eq!(utf8.message().to_string(), "invalid UTF-8");
    assert_eq!(
        message(&"[".repeat(1001)),
        "containers nested deeper than 1000 levels"
    );
    let trailing = Options::new().form(Form::Value).to_string("1 2");
    assert_eq!(
        trailing.unwrap_err().message().to_string(),
        "expected end of input (value form holds one value)"
    );
}

/// `(input, offset, first offset, message)`.
#[rustfmt::skip]
const DUPLICATES: &[(&str, usize, usize, &str)] = &[
    ("{\"a\":1,\"a\":2}", 7, 1, "duplicate key \"a\" (first at line 1, column 2)"),
    ("{\"name\": 1, \"other\": 2, \"name\": 3}", 24, 1, "duplicate key \"name\" (first at line 1, column 2)"),
    ("{\"a\":1,\"\\u0061\":2}", 7, 1, "duplicate key \"\\u0061\" (first at line 1, column 2)"),
    ("{\"\\/\":1,\"/\":2}", 8, 1, "duplicate key \"/\" (first at line 1, column 2)"),
    ("{\"\\ud83d\\ude00\":1,\"😀\":2}", 18, 1, "duplicate key \"😀\" (first at line 1, column 2)"),
    ("[{\"x\":{\"k\":1,\"k\":2}}]", 13, 7, "duplicate key \"k\" (first at line 1, column 8)"),
    ("{\"a\":{\"a\":1},\"b\":{\"k\":1,\"k\":2}}", 24, 18, "duplicate key \"k\" (first at line 1, column 19)"),
    ("{\"a\":1,\n \"b\":2,\n \"a\":3}", 17, 1, "duplicate key \"a\" (first at line 1, column 2)"),
    ("{\n \"é\":1,\n \"é\":2}", 12, 3, "duplicate key \"é\" (first at line 2, column 2)"),
];

#[test]
fn duplicate_keys_name_both_positions() {
    for &(json, offset, first, message) in DUPLICATES {
        let err = kyaml::to_string(json).unwrap_err();
        // The first position, as line and column, is where the first key's
        // offset is.
        let before = &json[..first];
        let line = 1 + before.matches('\n').count();
        let column = 1 + before[before.rfind('\n').map_or(0, |i| i + 1)..]
            .chars()
            .count();
        assert_eq!(err.first_position(), Some((line, column)), "{json}");
        assert!(message.ends_with(&format!("(first at line {line}, column {column})")));
        assert_eq!(err.kind(), ErrorKind::DuplicateKey, "{json}");
        assert_eq!(
            (err.offset(), err.first_offset()),
            (offset, Some(first)),
            "{json}"
        );
        assert_eq!(err.message().to_string(), message);
    }
    // The same key in different objects is no duplicate.
    assert!(kyaml::to_string("[{\"a\":1},{\"a\":2},{\"b\":{\"a\":3}}]").is_ok());
    // Other kinds have no first offset.
    assert_eq!(kyaml::to_string("[1,]").unwrap_err().first_offset(), None);
    assert_eq!(kyaml::to_string("[1,]").unwrap_err().first_position(), None);
}

#[test]
fn long_duplicate_keys_are_shortened_on_a_character_boundary() {
    let key = "é".repeat(30);
    let err = kyaml::to_string(format!("{{\"{key}\":1,\"{key}\":2}}")).unwrap_err();
    assert_eq!(
        err.message().to_string(),
        format!(
            "duplicate key \"{}...\" (first at line 1, column 2)",
            "é".repeat(20)
        )
    );
}

#[test]
fn duplicate_keys_in_huge_maps_are_found() {
    let mut json = String::from("{");
    for i in 0..100_000 {
        json.push_str(&format!("\"k{i}\":{i},"));
    }
    json.push_str("\"k77777\":0}");
    let err = kyaml::to_string(&json).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DuplicateKey);
    assert_eq!(err.first_offset(), json.find("\"k77777\""));
    assert_eq!(err.offset(), json.rfind("\"k77777\"").unwrap());
}

#[test]
fn a_byte_order_mark_at_the_start_is_skipped() {
    assert_eq!(
        kyaml::to_string("\u{feff}[1]").unwrap(),
        "---\n[\n  1,\n]\n"
    );
    let err = kyaml::to_string("\u{feff}\u{feff}[]").unwrap_err();
    assert_eq!(
        (err.kind(), err.offset(), err.expected()),
        (ErrorKind::Syntax, 3, VALUE)
    );
}

/// A leading byte order mark is no column: the column is the one an editor
/// shows.
#[test]
fn a_skipped_byte_order_mark_is_not_a_column() {
    let err = kyaml::to_string("\u{feff}[1,]").unwrap_err();
    assert_eq!((err.offset(), err.line()), (6, 1));
    assert_eq!(err.column(), 4, "the BOM was counted as a column");
}

#[test]
fn white_space_only_input_writes_nothing() {
    for json in ["", " ", "\n\t\r\n", "\u{feff}", "\u{feff} \n"] {
        for form in [Form::Document, Form::Value] {
            for compact in [false, true] {
                let mut out = String::new();
                let opts = Options::new().form(form).compact(compact);
                assert_eq!(opts.to_fmt(&mut out, json), Ok(()), "{json:?}");
                assert_eq!(out, "", "{json:?} {opts:?}");
            }
        }
    }
}

/// Runs `f` on a thread with a small stack: proof that nothing recurses.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn a_hundred_thousand_levels_are_an_error_not_a_crash() {
    for open in ["[", "{\"a\":"] {
        for limit in [1000, kyaml::MAX_DEPTH] {
            let json = open.repeat(100_000);
            let err = on_small_stack(move || {
                let mut out = String::new();
                let result = Options::new().max_depth(limit).to_fmt(&mut out, &json);
                assert_eq!(out, "");
                result.unwrap_err()
            });
            assert_eq!(err.kind(), ErrorKind::TooDeep);
            // At the opening of the first container past the limit.
            assert_eq!(err.offset(), limit * open.len());
            assert_eq!(
                err.message().to_string(),
                format!("containers nested deeper than {limit} levels")
            );
        }
    }
}

#[test]
fn the_deepest_allowed_nesting_renders_on_a_small_stack() {
    let depth = kyaml::MAX_DEPTH;
    let json = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let out = on_small_stack(move || Options::new().max_depth(depth).to_string(&json).unwrap());
    assert_eq!(
        out,
        format!("---\n{}{}\n", "[".repeat(depth), "]".repeat(depth))
    );
}

#[test]
fn the_depth_limit_is_exact() {
    for limit in [0, 1, 2, 10, 1000, kyaml::MAX_DEPTH] {
        let opts = Options::new().max_depth(limit);
        for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
            let ok = format!("{}0{}", open.repeat(limit), close.repeat(limit));
            assert!(opts.to_string(&ok).is_ok(), "depth {limit} rejected");
            let deep = format!("{open}{ok}{close}");
            let err = opts.to_string(&deep).unwrap_err();
            assert_eq!(
                (err.kind(), err.offset()),
                (ErrorKind::TooDeep, limit * open.len()),
                "depth {}",
                limit + 1
            );
        }
    }
    assert_eq!(Options::new().depth_limit(), 1000);
    assert_eq!(
        Options::new().max_depth(usize::MAX).depth_limit(),
        kyaml::MAX_DEPTH
    );
}

#[test]
fn a_stream_keeps_the_documents_before_an_error() {
    for (compact, before) in [
        (true, "---\n{a: 1}\n---\n[2]\n"),
        (false, "---\n{\n  a: 1,\n}\n---\n[\n  2,\n]\n"),
    ] {
        let mut out = String::new();
        let err = Options::new()
            .compact(compact)
            .to_fmt(&mut out, "{\"a\":1}\n[2]\n[3,\"x\",]\n[4]\n")
            .unwrap_err();
        assert_eq!(out, before);
        assert_eq!((err.line(), err.column(), err.offset()), (3, 8, 19));
    }
    // A bad second document right after the first, or a late BOM.
    for json in ["[1]x", "[1]\u{feff}"] {
        let mut out = String::new();
        let err = kyaml::to_fmt(&mut out, json).unwrap_err();
        assert_eq!(out, "---\n[\n  1,\n]\n");
        assert_eq!((err.offset(), err.column(), err.expected()), (3, 4, VALUE));
    }
    // Also when the bad document is only bad at its very end.
    let mut out = String::new();
    let err = kyaml::to_fmt(&mut out, "1 {\"a\":[1,2,3]").unwrap_err();
    assert_eq!(out, "---\n1\n");
    assert_eq!(err.offset(), 14);
}

#[test]
fn value_form_holds_one_value() {
    let opts = Options::new().form(Form::Value);
    let err = opts.to_string("[1] [2]").unwrap_err();
    assert_eq!((err.kind(), err.offset()), (ErrorKind::TrailingValue, 4));
    assert_eq!(err.expected(), "end of input");
    for json in ["1 2", "{}{}", "\"a\"\"b\"", "1\n["] {
        let mut out = String::new();
        let err = opts.to_fmt(&mut out, json).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TrailingValue, "{json}");
        assert_eq!(out, "", "value form wrote the first of two values");
    }
    assert_eq!(opts.to_string("  [1]  \n").unwrap(), "[\n  1,\n]");
    // What follows the value is looked at, not skipped: bad UTF-8 there is
    // the error, where it starts.
    for to_fmt in [false, true] {
        let json = b"[1] \n\xff";
        let mut out = String::new();
        let err = match to_fmt {
            false => opts.to_string(json).unwrap_err(),
            true => opts.to_fmt(&mut out, json).unwrap_err(),
        };
        assert_eq!((err.kind(), err.offset()), (ErrorKind::InvalidUtf8, 5));
        assert_eq!(out, "");
    }
}

#[test]
fn a_failing_sink_is_a_write_error() {
    struct Full;
    impl std::fmt::Write for Full {
        fn write_str(&mut self, _: &str) -> std::fmt::Result {
            Err(std::fmt::Error)
        }
    }
    let err = kyaml::to_fmt(&mut Full, "[1]").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Write);
    // The input is not at fault: no position in it is named.
    assert_eq!(err.to_string(), "the output sink failed");
    assert_eq!(
        format!("{err:?}"),
        r#"Error(Write, "the output sink failed")"#
    );
    // Into an `io::Write`, the sink's own error comes back.
    let err = kyaml::to_writer(Refusing, "[1]").unwrap_err();
    assert_eq!(err.to_string(), "disk full");
}

/// An `io::Write` that fails every write.
struct Refusing;

impl std::io::Write for Refusing {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("disk full"))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn debug_shows_kind_message_and_position_only() {
    let err = kyaml::to_string("{\"a\": [1,,2]}").unwrap_err();
    assert_eq!(
        format!("{err:?}"),
        r#"Error(Syntax, "expected a value", line: 1, column: 10)"#
    );
    // Quotes in the message are escaped, as `str`'s `Debug` does.
    let err = kyaml::to_string("{\"a\\\"b\":1,\"a\\\"b\":2}").unwrap_err();
    assert_eq!(
        format!("{:?}", err.message()),
        r#""duplicate key \"a\\\"b\" (first at line 1, column 2)""#
    );
    assert_eq!(
        format!("{err:?}"),
        r#"Error(DuplicateKey, "duplicate key \"a\\\"b\" (first at line 1, column 2)", line: 1, column: 11)"#
    );
}

#[test]
fn every_entry_point_takes_str_bytes_string_and_vec() {
    let want = "---\n[\n  1,\n]\n";
    let inputs: [&dyn Fn() -> Result<String, kyaml::Error>; 4] = [
        &|| kyaml::to_string("[1]"),
        &|| kyaml::to_string(b"[1]"),
        &|| kyaml::to_string(String::from("[1]")),
        &|| kyaml::to_string(vec![b'[', b'1', b']']),
    ];
    for input in inputs {
        assert_eq!(input().unwrap(), want);
    }
    let mut out = String::new();
    kyaml::to_fmt(&mut out, vec![b'[', b'1', b']']).unwrap();
    Options::new()
        .to_fmt(&mut out, String::from("[1]"))
        .unwrap();
    assert_eq!(out, want.repeat(2));
    let mut bytes = Vec::new();
    kyaml::to_writer(&mut bytes, &b"[1]"[..]).unwrap();
    Options::new()
        .to_writer(&mut bytes, String::from("[1]"))
        .unwrap();
    assert_eq!(bytes, want.repeat(2).as_bytes());
    assert_eq!(
        Options::new().to_string(vec![b'[', b'1', b']']).unwrap(),
        want
    );
    assert_eq!(format!("{}", Dump(b"[1]")), "[1]");
    assert_eq!(format!("{}", Dump(String::from("[1]"))), "[1]");
    assert_eq!(format!("{}", Dump(vec![b'[', b'1', b']'])), "[1]");
    assert_eq!(format!("{}", Dump(&b"[1]"[..])), "[1]");
}

#[test]
fn dump_falls_back_to_a_quoted_string_and_a_comment() {
    assert_eq!(
        format!("{}", Dump("[1,")),
        "\"[1,\" # invalid JSON: expected a value at line 1, column 4"
    );
    assert_eq!(
        format!("{:#}", Dump("[1,")),
        "\"[1,\" # invalid JSON: expected a value at line 1, column 4"
    );
    // The fallback string is always the one-line form, even with `{:#}`.
    assert_eq!(
        format!("{:#}", Dump("{\"a\":\n\t\"b\u{7}\"")),
        "\"{\\\"a\\\":\\n\\t\\\"b\\a\\\"\" # invalid JSON: expected `\\u` escape for a control character in a string at line 2, column 4"
    );
    assert_eq!(
        format!("{}", Dump("1 2")),
        "\"1 2\" # invalid JSON: expected end of input (value form holds one value) at line 1, column 3"
    );
    assert_eq!(
        format!("{}", Dump("{\"a\":1,\"a\":2}")),
        "\"{\\\"a\\\":1,\\\"a\\\":2}\" # invalid JSON: duplicate key \"a\" (first at line 1, column 2) at line 1, column 8"
    );
    assert_eq!(format!("{}", Dump("{\"a\":[1]}")), "{a: [1]}");
    assert_eq!(
        format!("{:#}", Dump("{\"a\":[1]}")),
        "{\n  a: [\n    1,\n  ],\n}"
    );
}
