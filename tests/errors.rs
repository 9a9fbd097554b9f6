//! Errors name the exact byte offset, line, column and what was expected;
//! depth is bounded without recursion; streams keep their good documents.

use kyaml::{Dump, ErrorKind, Form, Options};

/// `(input, kind, offset, line, column, expected or message fragment)`.
#[rustfmt::skip]
const CASES: &[(&str, ErrorKind, usize, usize, usize, &str)] = &[
    ("[1,]", ErrorKind::Syntax, 3, 1, 4, "a value"),
    ("[1 2]", ErrorKind::Syntax, 3, 1, 4, "`,` or `]` after a list element"),
    ("{\"a\" 1}", ErrorKind::Syntax, 5, 1, 6, "`:` after an object key"),
    ("{\"a\":1,}", ErrorKind::Syntax, 7, 1, 8, "a string key"),
    ("{1:2}", ErrorKind::Syntax, 1, 1, 2, "a string key or `}`"),
    ("{\"a\":1]", ErrorKind::Syntax, 6, 1, 7, "`,` or `}` after an object member"),
    ("[", ErrorKind::Syntax, 1, 1, 2, "a value or `]`"),
    ("[\"abc", ErrorKind::Syntax, 5, 1, 6, "`\"` to close the string"),
    ("\"a\tb\"", ErrorKind::Syntax, 2, 1, 3, "`\\u` escape for a control character"),
    ("\"\\x41\"", ErrorKind::Syntax, 2, 1, 3, "an escape"),
    ("\"\\u12G4\"", ErrorKind::Syntax, 5, 1, 6, "four hex digits"),
    ("\"\\ud800\"", ErrorKind::LoneSurrogate, 1, 1, 2, "a surrogate pair"),
    ("\"\\udc00\"", ErrorKind::LoneSurrogate, 1, 1, 2, "a surrogate pair"),
    ("\"\\ud800\\u0041\"", ErrorKind::LoneSurrogate, 1, 1, 2, "a surrogate pair"),
    ("01", ErrorKind::Syntax, 1, 1, 2, "no leading zero"),
    ("-", ErrorKind::Syntax, 1, 1, 2, "a digit"),
    ("1.", ErrorKind::Syntax, 2, 1, 3, "a digit"),
    ("1e+", ErrorKind::Syntax, 3, 1, 4, "a digit"),
    ("truefalse", ErrorKind::Syntax, 4, 1, 5, "white space before the next value"),
    ("1x", ErrorKind::Syntax, 1, 1, 2, "white space before the next value"),
    ("tru", ErrorKind::Syntax, 3, 1, 4, "`true`"),
    ("nul l", ErrorKind::Syntax, 3, 1, 4, "`null`"),
    ("NaN", ErrorKind::Syntax, 0, 1, 1, "a value"),
    ("[1,\r\n 2,\r\n x]", ErrorKind::Syntax, 11, 3, 2, "a value"),
    ("{\"é\": [\"日本\", @]}", ErrorKind::Syntax, 18, 1, 14, "a value"),
    ("{\"a\":1,\n \"b\":2,\n \"a\":3}", ErrorKind::DuplicateKey, 17, 3, 2, "duplicate key \"a\" (first at byte 1)"),
    ("{\"a\":1,\"\\u0061\":2}", ErrorKind::DuplicateKey, 7, 1, 8, "duplicate key \"\\u0061\" (first at byte 1)"),
    ("[{\"x\":{\"k\":1,\"k\":2}}]", ErrorKind::DuplicateKey, 13, 1, 14, "duplicate key \"k\" (first at byte 7)"),
    ("[1\u{feff}]", ErrorKind::Syntax, 2, 1, 3, "`,` or `]` after a list element"),
];

#[test]
fn errors_name_the_place_and_what_was_expected() {
    for &(input, kind, offset, line, column, expected) in CASES {
        let err = kyaml::to_string(input).expect_err(input);
        let got = (err.kind(), err.offset(), err.line(), err.column());
        assert_eq!(got, (kind, offset, line, column), "{input:?}: {err}");
        let text = format!("{} | {}", err.expected(), err);
        assert!(
            text.contains(expected),
            "{input:?}: {text:?} lacks {expected:?}"
        );
        assert!(
            err.to_string()
                .ends_with(&format!("at line {line}, column {column}")),
            "{err}"
        );
        // The no-alloc path agrees and writes nothing.
        let mut out = String::new();
        assert_eq!(Options::new().to_fmt(input, &mut out), Err(err));
        assert_eq!(out, "");
    }
}

#[test]
fn duplicate_keys_name_both_positions() {
    let err = kyaml::to_string("{\"name\": 1, \"other\": 2, \"name\": 3}").unwrap_err();
    assert_eq!((err.first_offset(), err.offset()), (Some(1), 24));
    assert_eq!(
        err.message().to_string(),
        "duplicate key \"name\" (first at byte 1)"
    );
    // Other kinds have no first offset.
    assert_eq!(kyaml::to_string("[1,]").unwrap_err().first_offset(), None);
}

#[test]
fn long_duplicate_keys_are_shortened_on_a_character_boundary() {
    let key = "é".repeat(30);
    let err = kyaml::to_string(&format!("{{\"{key}\":1,\"{key}\":2}}")).unwrap_err();
    assert_eq!(
        err.message().to_string(),
        format!("duplicate key \"{}...\" (first at byte 1)", "é".repeat(20))
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
        let json = open.repeat(100_000);
        let err = on_small_stack(move || {
            let mut out = String::new();
            let err = Options::new()
                .max_depth(kyaml::MAX_DEPTH)
                .to_fmt(&json, &mut out)
                .unwrap_err();
            assert!(out.is_empty());
            err
        });
        assert_eq!(err.kind(), ErrorKind::TooDeep);
        assert_eq!(err.offset(), kyaml::MAX_DEPTH * open.len());
        assert_eq!(
            err.message().to_string(),
            format!("containers nested deeper than {} levels", kyaml::MAX_DEPTH)
        );
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
    for limit in [0, 1, 2, 10, 1000] {
        let opts = Options::new().max_depth(limit);
        let ok = format!("{}0{}", "[".repeat(limit), "]".repeat(limit));
        assert!(opts.to_string(&ok).is_ok(), "depth {limit} rejected");
        let deep = format!("[{ok}]");
        let err = opts.to_string(&deep).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::TooDeep, limit),
            "depth {}",
            limit + 1
        );
    }
    assert_eq!(Options::new().depth_limit(), 1000);
}

#[test]
fn a_stream_keeps_the_documents_before_an_error() {
    let mut out = String::new();
    let err = Options::new()
        .compact(true)
        .to_fmt("{\"a\":1}\n[2]\n[3,]\n[4]\n", &mut out)
        .unwrap_err();
    assert_eq!(out, "---\n{a: 1}\n---\n[2]\n");
    assert_eq!((err.line(), err.column()), (3, 4));
}

#[test]
fn value_form_holds_one_value() {
    let opts = Options::new().form(Form::Value);
    let err = opts.to_string("[1] [2]").unwrap_err();
    assert_eq!((err.kind(), err.offset()), (ErrorKind::TrailingValue, 4));
    let mut out = String::new();
    assert!(opts.to_fmt("1 2", &mut out).is_err());
    assert_eq!(out, "", "value form wrote the first of two values");
    assert_eq!(opts.to_string("  [1]  \n").unwrap(), "[\n  1,\n]");
}

#[test]
fn a_failing_sink_is_a_write_error() {
    struct Full;
    impl std::fmt::Write for Full {
        fn write_str(&mut self, _: &str) -> std::fmt::Result {
            Err(std::fmt::Error)
        }
    }
    assert_eq!(
        kyaml::to_fmt("[1]", &mut Full).unwrap_err().kind(),
        ErrorKind::Write
    );
}

#[test]
fn dump_falls_back_to_a_quoted_string_and_a_comment() {
    assert_eq!(
        format!("{}", Dump("[1,")),
        "\"[1,\" # invalid JSON: expected a value at line 1, column 4"
    );
    assert_eq!(
        format!("{:#}", Dump("{\"a\":\n\t\"b\u{7}\"")),
        "\"{\\\"a\\\":\\n\\t\\\"b\\a\\\"\" # invalid JSON: expected `\\u` escape for a control character in a string at line 2, column 4"
    );
    assert_eq!(format!("{}", Dump("1 2")), "\"1 2\" # invalid JSON: expected end of input (value form holds one value) at line 1, column 3");
    assert_eq!(
        format!("{:#}", Dump("{\"a\":[1]}")),
        "{\n  a: [\n    1,\n  ],\n}"
    );
}
