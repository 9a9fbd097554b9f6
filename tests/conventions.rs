//! The conventions a serde_json user expects: writer first, one error
//! type, a JSON error that says when its input is YAML, and an assertion
//! that says when key order is all that differs.

use kyaml::{ErrorKind, Input, Options};

const YAML_HINT: &str =
    " (the input looks like YAML: read it with `Options::new().input(Input::Yaml)`)";

/// Every JSON entry point's error, shown as `Display` shows it.
fn every_entry_point(input: &str) -> Vec<String> {
    let opts = Options::new();
    let mut shown = vec![
        opts.to_string(input).unwrap_err().to_string(),
        opts.to_fmt(&mut String::new(), input)
            .unwrap_err()
            .to_string(),
        opts.check(input).unwrap_err().to_string(),
    ];
    for io in [
        opts.to_writer(Vec::new(), input).unwrap_err(),
        opts.transcode(input.as_bytes(), Vec::new()).unwrap_err(),
    ] {
        let inner = io.get_ref().and_then(|e| e.downcast_ref::<kyaml::Error>());
        shown.push(inner.expect("an invalid document").to_string());
    }
    shown
}

#[test]
fn yaml_given_as_json_gets_a_hint_from_every_entry_point() {
    for (yaml, position) in [
        ("a: 1\n", "line 1, column 1"),
        (
            "\u{FEFF}\n  apiVersion: v1\nkind: Pod\n",
            "line 2, column 3",
        ),
        ("# a comment\nreplicas: 3\n", "line 1, column 1"),
        ("- web\n- db\n", "line 1, column 2"),
        ("--- {a: 1}\n", "line 1, column 2"),
        ("true: 1\n", "line 1, column 5"),
        // A form feed is no JSON white space: the first value opens with
        // it, and a stream, which frames the documents, agrees.
        ("\u{c}\ra: 1\n", "line 1, column 1"),
        ("\u{c}\n  a: 1\n", "line 1, column 1"),
    ] {
        for shown in every_entry_point(yaml) {
            assert!(
                shown.ends_with(&format!("at {position}{YAML_HINT}")),
                "{yaml:?}: {:?}",
                every_entry_point(yaml)
            );
        }
    }
    // The hint is in `Display`, not in the message a tool prints after
    // its own position, nor in `Debug`.
    let err = kyaml::to_string("a: 1").unwrap_err();
    assert_eq!(err.message().to_string(), "expected a value");
    assert_eq!(
        format!("{err:?}"),
        r#"Error(Syntax, "expected a value", line: 1, column: 1)"#
    );
}

#[test]
fn json_with_an_error_gets_no_hint() {
    for json in [
        "{\"a\": 1,}",
        "[1, 2",
        "{a: 1}",
        "\"text\": 1",
        "1\na: 1\n",
        "{\"a\": 1}\n- b\n",
        "[1,\n2",
    ] {
        for shown in every_entry_point(json) {
            assert!(!shown.contains("looks like YAML"), "{json:?}: {shown}");
        }
    }
    // Nor does an error that is not one of syntax.
    let shown = kyaml::to_string("{\"a\": 1, \"a\": 2}")
        .unwrap_err()
        .to_string();
    assert!(!shown.contains("YAML"), "{shown}");
    // And YAML read as YAML is no JSON error.
    let yaml = Options::new().input(Input::Yaml);
    let shown = yaml.to_string("a: [1\n").unwrap_err().to_string();
    assert!(!shown.contains("looks like YAML"), "{shown}");
    let io = yaml.transcode(&b"a: [1\n"[..], Vec::new()).unwrap_err();
    assert!(!io.to_string().contains("looks like YAML"), "{io}");
}

#[test]
fn sinks_come_first_as_in_serde_json() {
    let mut out = Vec::new();
    kyaml::to_writer(&mut out, "[1]").unwrap();
    Options::new()
        .compact(true)
        .to_writer(&mut out, b"[2]")
        .unwrap();
    let mut text = String::new();
    kyaml::to_fmt(&mut text, String::from("[3]")).unwrap();
    assert_eq!(out, b"---\n[\n  1,\n]\n---\n[2]\n");
    assert_eq!(text, "---\n[\n  3,\n]\n");
}

#[test]
fn an_error_converts_to_io_error_with_itself_inside() {
    fn convert() -> std::io::Result<String> {
        Ok(kyaml::to_string("[1,]")?)
    }
    let io = convert().unwrap_err();
    assert_eq!(io.kind(), std::io::ErrorKind::InvalidData);
    let inner = io.get_ref().and_then(|e| e.downcast_ref::<kyaml::Error>());
    assert_eq!(
        inner.map(|e| (e.kind(), e.column())),
        Some((ErrorKind::Syntax, 4))
    );
}

#[cfg(feature = "serde")]
mod values {
    use super::*;
    use serde::ser::{Serialize, SerializeMap, Serializer};

    /// A map that serializes its entries in the order given, as a
    /// `HashMap` does in an order of its own.
    struct InOrder(Vec<(&'static str, u32)>);

    impl Serialize for InOrder {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let mut map = serializer.serialize_map(Some(self.0.len()))?;
            for (key, value) in &self.0 {
                map.serialize_entry(key, value)?;
            }
            map.end()
        }
    }

    fn panic_message(run: impl FnOnce() + std::panic::UnwindSafe) -> String {
        let panic = std::panic::catch_unwind(run).unwrap_err();
        *panic.downcast::<String>().unwrap()
    }

    #[test]
    fn text_and_values_share_one_error_type() {
        fn both() -> Result<(String, String), kyaml::Error> {
            let text = kyaml::to_string("[1]")?;
            let value = kyaml::value::to_string(&std::collections::BTreeMap::from([((1, 2), 3)]))?;
            Ok((text, value))
        }
        let err: kyaml::value::Error = both().unwrap_err();
        assert_eq!(
            (err.kind(), err.line(), err.column()),
            (ErrorKind::Data, 0, 0)
        );
        assert_eq!(err.to_string(), "key must be a string");
        assert_eq!((err.first_offset(), err.first_position()), (None, None));
        let twice = InOrder(vec![("a", 1), ("a", 2)]);
        let err = kyaml::value::to_string(&twice).unwrap_err();
        assert_eq!(err.to_string(), "duplicate key \"a\"");
        assert_eq!(
            (err.kind(), err.first_position()),
            (ErrorKind::DuplicateKey, None)
        );
        let io = std::io::Error::from(err.clone());
        assert_eq!(io.kind(), std::io::ErrorKind::InvalidData);
        assert_eq!(
            io.get_ref().unwrap().downcast_ref::<kyaml::Error>(),
            Some(&err)
        );
    }

    #[test]
    fn values_go_writer_first() {
        let mut out = Vec::new();
        kyaml::value::to_writer(&mut out, &[1, 2]).unwrap();
        let mut text = String::new();
        Options::new()
            .compact(true)
            .value_to_fmt(&mut text, &"x")
            .unwrap();
        assert_eq!(
            (out.as_slice(), text.as_str()),
            (&b"---\n[\n  1,\n  2,\n]\n"[..], "---\n\"x\"\n")
        );
    }

    #[test]
    fn a_failure_of_key_order_alone_says_so_first() {
        let left = InOrder(vec![("a", 1), ("b", 2)]);
        let right = InOrder(vec![("b", 2), ("a", 1)]);
        kyaml::assert_kyaml_eq!(value, unordered: left, right);
        let message = panic_message(|| kyaml::assert_kyaml_eq!(value: left, right, "in {}", "web"));
        assert_eq!(
            message,
            "assertion `left == right` failed as KYAML (only the order of map keys differs, as between \
             two equal `HashMap`s: `assert_kyaml_eq!(value, unordered: left, right)` compares maps \
             unordered): in web\n--- left\n+++ right\n@@ -1,4 +1,4 @@ a\n {\n-  a: 1,\n   b: 2,\n+  a: 1,\n }\n"
        );
        // Text: the same, naming its own arm.
        let message =
            panic_message(|| kyaml::assert_kyaml_eq!(r#"{"a": 1, "b": 2}"#, r#"{"b": 2, "a": 1}"#));
        assert!(
            message.starts_with(
                "assertion `left == right` failed as KYAML (only the order of map keys differs, as \
                 between two equal `HashMap`s: `assert_kyaml_eq!(unordered: left, right)` compares \
                 maps unordered)\n"
            ),
            "{message}"
        );
        // A difference beyond the order gets the plain first line.
        let other = InOrder(vec![("b", 3), ("a", 1)]);
        let message = panic_message(|| kyaml::assert_kyaml_eq!(value: left, other));
        assert!(
            message.starts_with("assertion `left == right` failed as KYAML\n"),
            "{message}"
        );
    }
}
