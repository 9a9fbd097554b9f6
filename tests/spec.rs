//! One test per rule of the rendering spec (../shared/SPEC.md), each with
//! inputs chosen to tell the rule apart from its near misses.

use kyaml::{Form, Options};

fn value(json: &str) -> String {
    Options::new().form(Form::Value).to_string(json).unwrap()
}

fn compact(json: &str) -> String {
    Options::new()
        .form(Form::Value)
        .compact(true)
        .to_string(json)
        .unwrap()
}

#[test]
fn documents_have_a_header_and_a_final_line_feed() {
    assert_eq!(kyaml::to_string("1").unwrap(), "---\n1\n");
    let compact_doc = Options::new()
        .compact(true)
        .to_string("{\"a\":[1]}")
        .unwrap();
    assert_eq!(compact_doc, "---\n{a: [1]}\n");
}

#[test]
fn a_stream_of_values_is_a_stream_of_documents() {
    assert_eq!(kyaml::to_string("1 2").unwrap(), "---\n1\n---\n2\n");
    assert_eq!(
        kyaml::to_string("[1][2]").unwrap(),
        "---\n[\n  1,\n]\n---\n[\n  2,\n]\n"
    );
    assert_eq!(
        kyaml::to_string("\"a\"\"b\"").unwrap(),
        "---\n\"a\"\n---\n\"b\"\n"
    );
    assert_eq!(kyaml::to_string("{}\n{}\n").unwrap(), "---\n{}\n---\n{}\n");
    for glued in ["01", "truefalse", "1x", "nullnull", "1.5.3"] {
        assert!(kyaml::to_string(glued).is_err(), "{glued}");
    }
}

#[test]
fn white_space_only_input_writes_nothing() {
    for json in ["", " ", "\n\t\r\n", "\u{feff}", "\u{feff}  \n"] {
        assert_eq!(kyaml::to_string(json).unwrap(), "", "{json:?}");
    }
}

#[test]
fn a_byte_order_mark_is_skipped_only_at_the_start() {
    assert_eq!(kyaml::to_string("\u{feff}[]").unwrap(), "---\n[]\n");
    assert!(kyaml::to_string("[]\u{feff}").is_err());
    assert!(kyaml::to_string("[\u{feff}]").is_err());
}

#[test]
fn literals_are_themselves() {
    assert_eq!(
        value("[true,false,null]"),
        "[\n  true,\n  false,\n  null,\n]"
    );
}

#[test]
fn numbers_keep_their_text() {
    for n in [
        "0",
        "-0",
        "42",
        "-3.25",
        "0.0",
        "123456789012345678901234567890",
        "1.5e-3",
    ] {
        assert_eq!(value(n), n);
    }
}

#[test]
fn exponents_get_a_dot_and_a_sign() {
    let pairs = [
        ("1e10", "1.0e+10"),
        ("1E308", "1.0E+308"),
        ("-2e-3", "-2.0e-3"),
        ("3.5e+2", "3.5e+2"),
        ("0e0", "0.0e+0"),
    ];
    for (json, yaml) in pairs {
        assert_eq!(value(json), yaml);
        assert_eq!(compact(json), yaml);
    }
}

#[test]
fn strings_are_double_quoted_with_yaml_escapes() {
    assert_eq!(value(r#""say \"hi\" \\ bye""#), r#""say \"hi\" \\ bye""#);
    assert_eq!(
        value(r#""\u0007\b\f\r\u000b\u0000\u001b""#),
        r#""\a\b\f\r\v\0\e""#
    );
    assert_eq!(value(r#""\u0085\u00a0\u2028\u2029""#), r#""\N\_\L\P""#);
    assert_eq!(value("\"\\u0001\\u001f\u{7f}\""), r#""\x01\x1f\x7f""#);
    assert_eq!(
        value(r#""\u200b\u202e\ufeff\ue000""#),
        r#""\u200b\u202e\ufeff\ue000""#
    );
    assert_eq!(value("\"\u{f0000}\""), r#""\U000f0000""#);
    // Printable characters stay as they are, escaped in the input or not.
    assert_eq!(
        value(r#""caf\u00e9 \u65e5\u672c \ud83d\ude00 a\/b""#),
        "\"café 日本 😀 a/b\""
    );
    assert_eq!(value("\"e\u{301} ١٢\""), "\"e\u{301} ١٢\"");
}

#[test]
fn unicode_15_decides_what_is_printable() {
    // U+1F6DC (wireless, Unicode 15.0) is printable; U+1FAE9 (Unicode 16.0) is not yet.
    assert_eq!(value("\"\u{1f6dc}\""), "\"\u{1f6dc}\"");
    assert_eq!(value("\"\u{1fae9}\""), r#""\U0001fae9""#);
}

#[test]
fn tabs_and_line_feeds_depend_on_the_layout() {
    assert_eq!(value(r#""a\tb""#), "\"a\tb\"");
    assert_eq!(compact(r#""a\tb""#), r#""a\tb""#);
    assert_eq!(compact(r#""a\nb""#), r#""a\nb""#);
}

#[test]
fn a_string_with_a_line_feed_is_folded() {
    assert_eq!(value(r#""a\nb""#), "\"\\\n   a\\n\\\n   b\\\n  \"");
    // A final line feed does not start an extra line.
    assert_eq!(value(r#""a\n""#), "\"\\\n   a\\n\\\n  \"");
    // Empty lines get the space marker.
    assert_eq!(value(r#""\n\n""#), "\"\\\n   \\n\\\n   \\n\\\n  \"");
    // A leading space or tab gets the `\` marker; other white space does not.
    assert_eq!(
        value(r#""a\n b\n\tc\n\rd""#),
        "\"\\\n   a\\n\\\n  \\ b\\n\\\n  \\\tc\\n\\\n   \\rd\\\n  \""
    );
}

#[test]
fn folded_strings_indent_one_level_below_their_line() {
    assert_eq!(
        value(r#"{"k":"a\nb"}"#),
        "{\n  k: \"\\\n     a\\n\\\n     b\\\n    \",\n}"
    );
    assert_eq!(
        value(r#"[["a\nb"]]"#),
        "[[\n  \"\\\n     a\\n\\\n     b\\\n    \",\n]]"
    );
}

#[test]
fn maps_one_member_per_line_with_trailing_commas() {
    assert_eq!(
        value(r#"{"a":1,"b":{"c":[]}}"#),
        "{\n  a: 1,\n  b: {\n    c: [],\n  },\n}"
    );
    assert_eq!(compact(r#"{"a":1,"b":{"c":[]}}"#), "{a: 1, b: {c: []}}");
    assert_eq!(value("{}"), "{}");
}

#[test]
fn member_order_is_the_input_order() {
    assert_eq!(compact(r#"{"z":1,"a":2,"m":3}"#), "{z: 1, a: 2, m: 3}");
}

#[test]
fn keys_are_bare_only_when_unambiguous() {
    let cases = [
        ("app.kubernetes.io/name", true),
        ("a-b_c.d/e", true),
        ("日本", true),
        ("", false),
        ("-a", false),
        ("a.", false),
        ("with space", false),
        ("a:b", false),
        ("Yes", false),
        ("off", false),
        ("NULL", false),
        ("12", false),
        ("0x1F", false),
        ("1_000", false),
        ("2006-1-2", false),
        ("2025-02-30", false),
        ("1e400", false),
        ("1.2.3", true),
        ("1e101_000", true),
    ];
    for (key, bare) in cases {
        let json = format!("{{{}:1}}", serde_json::to_string(key).unwrap());
        let want = if bare {
            format!("{{{key}: 1}}")
        } else {
            format!("{{{}: 1}}", serde_json::to_string(key).unwrap())
        };
        assert_eq!(compact(&json), want, "{key:?}");
    }
}

#[test]
fn quoted_keys_use_the_one_line_form() {
    assert_eq!(value(r#"{"a\nb\tc":1}"#), "{\n  \"a\\nb\\tc\": 1,\n}");
}

#[test]
fn lists_of_containers_are_cuddled() {
    assert_eq!(value("[{},[]]"), "[{}, []]");
    assert_eq!(
        value(r#"[{"a":1},{"b":2}]"#),
        "[{\n  a: 1,\n}, {\n  b: 2,\n}]"
    );
    assert_eq!(value("[[[1]]]"), "[[[\n  1,\n]]]");
    // One scalar anywhere and the list is not cuddled.
    assert_eq!(value("[{},1]"), "[\n  {},\n  1,\n]");
    assert_eq!(value("[1,{}]"), "[\n  1,\n  {},\n]");
    assert_eq!(value("[]"), "[]");
}

#[test]
fn cuddled_elements_share_the_lists_level() {
    let json = r#"{"a":[{"b":[{"c":"x\ny"}]}]}"#;
    let want = "{\n  a: [{\n    b: [{\n      c: \"\\\n         x\\n\\\n         y\\\n        \",\n    }],\n  }],\n}";
    assert_eq!(value(json), want);
}

#[test]
fn compact_lists_are_one_line() {
    assert_eq!(
        compact(r#"[1,"a",[true,{}],{"k":null}]"#),
        r#"[1, "a", [true, {}], {k: null}]"#
    );
}

#[test]
fn no_alloc_and_alloc_paths_agree_past_the_fixed_tables() {
    // More lists than the fixed verdict table holds, and maps with more keys
    // than the fixed key table holds, in one document.
    let mut json = String::from("[");
    for i in 0..40_000 {
        json.push_str(if i % 3 == 0 { "[1]," } else { "[[],{}]," });
    }
    json.push('{');
    for i in 0..600 {
        json.push_str(&format!("\"k{i}\":[[{i}]],"));
    }
    json.push_str("\"last\":[]}]");
    for opts in [Options::new(), Options::new().compact(true)] {
        let mut fixed = String::new();
        opts.to_fmt(&mut fixed, &json).unwrap();
        assert_eq!(fixed, opts.to_string(&json).unwrap());
    }
}

#[test]
fn keys_longer_than_1024_bytes_as_written_are_explicit() {
    let key_of = |k: &str| compact(&format!("{{\"{k}\": 1}}"));
    let long = "k".repeat(1025);
    assert_eq!(key_of(&long), format!("{{? {long}: 1}}"));
    assert_eq!(key_of(&long[1..]), format!("{{{}: 1}}", &long[1..]));
    // 256 DEL bytes are written as 1,026 bytes: `"` + 256 × `\x7f` + `"`.
    let del = "\u{7f}".repeat(256);
    let written = format!("\"{}\"", "\\x7f".repeat(256));
    assert_eq!(key_of(&del), format!("{{? {written}: 1}}"));
    assert_eq!(
        key_of(&del[1..]),
        format!("{{\"{}\": 1}}", "\\x7f".repeat(255))
    );
    // 513 × `é` is 1,026 bytes: the limit counts bytes, not characters.
    let e = "é".repeat(513);
    assert_eq!(key_of(&e), format!("{{? {e}: 1}}"));
    assert_eq!(
        value(&format!("{{\"{long}\": 1}}")),
        format!("{{\n  ? {long}: 1,\n}}")
    );
}
