//! A test-only writer of JSON data as idiomatic block-style YAML, the way
//! people write manifests, so the YAML input path has inputs whose data is
//! known: the benchmark files (`examples/to_block_yaml.rs` writes
//! `benches/data/*.yaml`) and random documents in property tests.
//!
//! What it writes, for every schema (kubectl's YAML 1.1 reading and YAML
//! 1.2 core) to read as the same data:
//! - block maps (`key: value`), block sequences zero-indented under their key
//!   (`key:` then `- item` at the key's indentation, as `kubectl get -o yaml`
//!   writes them), a map in a sequence compact (`- a: 1` then `  b: 2`), a
//!   sequence in a sequence compact (`- - x`), empty collections as `{}` and
//!   `[]`;
//! - a string plain when no schema could read it as anything else and it is
//!   a valid plain scalar anywhere (no indicator first, no `: ` or ` #`,
//!   nothing that starts like a number, no word any schema resolves, printable
//!   text only), else double-quoted with JSON's escapes plus `\u` for the
//!   characters YAML 1.1 takes for line breaks or refuses; a multi-line string
//!   as a literal block scalar (`|`, `|-` or `|+` by its final line breaks)
//!   when that is exact (printable, no first-line indentation, no `\r`);
//! - a key longer than 1,000 characters as an explicit key (`? "..."`), since
//!   an implicit key is limited to 1,024;
//! - numbers, booleans and null as JSON writes them.

use std::collections::BTreeMap;

use serde_json::value::RawValue;
use serde_json::Value;

/// Parses JSON text with every float exactly the nearest float64 (Rust's
/// parser), where `serde_json::from_str` can be a unit in the last place off
/// without its `float_roundtrip` feature. Maps are sorted by key, as
/// `serde_json::Map` keeps them.
pub fn exact_json(text: &str) -> Result<Value, serde_json::Error> {
    let raw: &RawValue = serde_json::from_str(text)?;
    exact(raw)
}

fn exact(raw: &RawValue) -> Result<Value, serde_json::Error> {
    let text = raw.get();
    Ok(match text.as_bytes().first() {
        Some(b'{') => {
            let map: BTreeMap<String, &RawValue> = serde_json::from_str(text)?;
            let mut out = serde_json::Map::new();
            for (k, v) in map {
                out.insert(k, exact(v)?);
            }
            Value::Object(out)
        }
        Some(b'[') => {
            let items: Vec<&RawValue> = serde_json::from_str(text)?;
            Value::Array(items.into_iter().map(exact).collect::<Result<_, _>>()?)
        }
        _ => match serde_json::from_str(text)? {
            Value::Number(n) if n.is_f64() => {
                text.parse::<f64>().map_or(Value::Number(n), Value::from)
            }
            v => v,
        },
    })
}

/// Writes `json` as one block-style YAML document (no `---`), ending in a
/// line feed.
pub fn write_block_yaml(json: &Value, out: &mut String) {
    match json {
        Value::Object(m) if !m.is_empty() => write_map(m, 0, out),
        Value::Array(a) if !a.is_empty() => write_list(a, 0, out),
        _ => {
            write_inline(json, 2, out);
            out.push('\n');
        }
    }
}

fn indent(n: usize, out: &mut String) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// The entries of a non-empty map at indentation `n`; the first one's
/// indentation is already written when `first_done`.
fn write_entries(m: &serde_json::Map<String, Value>, n: usize, first_done: bool, out: &mut String) {
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 || !first_done {
            indent(n, out);
        }
        if k.chars().count() > 1000 {
            out.push_str("? ");
            write_double_quoted(k, out);
            out.push('\n');
            indent(n, out);
            out.push(':');
        } else {
            write_string_inline(k, out);
            out.push(':');
        }
        match v {
            Value::Object(inner) if !inner.is_empty() => {
                out.push('\n');
                write_map(inner, n + 2, out);
            }
            Value::Array(items) if !items.is_empty() => {
                out.push('\n');
                write_list(items, n, out);
            }
            _ => {
                out.push(' ');
                write_inline(v, n + 2, out);
                out.push('\n');
            }
        }
    }
}

fn write_map(m: &serde_json::Map<String, Value>, n: usize, out: &mut String) {
    write_entries(m, n, false, out);
}

/// The items of a non-empty list, each `- ` at indentation `n`.
fn write_list(items: &[Value], n: usize, out: &mut String) {
    for item in items {
        indent(n, out);
        write_item(item, n, out);
    }
}

/// One item after its indentation: `- ` and the value, compact for
/// collections.
fn write_item(item: &Value, n: usize, out: &mut String) {
    out.push_str("- ");
    match item {
        Value::Object(m) if !m.is_empty() => write_entries(m, n + 2, true, out),
        Value::Array(a) if !a.is_empty() => {
            for (i, inner) in a.iter().enumerate() {
                if i > 0 {
                    indent(n + 2, out);
                }
                write_item(inner, n + 2, out);
            }
        }
        _ => {
            write_inline(item, n + 2, out);
            out.push('\n');
        }
    }
}

/// A scalar or an empty collection after `key: ` or `- `; a literal block
/// scalar's lines go at indentation `n`.
fn write_inline(v: &Value, n: usize, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(x) => out.push_str(&x.to_string()),
        Value::String(s) if literal_exact(s) => write_literal(s, n, out),
        Value::String(s) => write_string_inline(s, out),
        Value::Array(_) => out.push_str("[]"),
        Value::Object(_) => out.push_str("{}"),
    }
}

fn write_string_inline(s: &str, out: &mut String) {
    if plain_safe(s) {
        out.push_str(s);
    } else {
        write_double_quoted(s, out);
    }
}

/// Characters that YAML 1.1 readers take for line breaks (U+0085, U+2028,
/// U+2029) or refuse (C0 and C1 controls, DEL, U+FEFF, U+FFFE, U+FFFF),
/// which only an escape can carry.
fn needs_escape(c: char) -> bool {
    matches!(c, '\0'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}')
}

fn write_double_quoted(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if needs_escape(c) => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Words some schema resolves to null or a boolean (kubectl's list is a
/// superset of YAML 1.2 core's).
const WORDS: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false",
    "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "~", "=",
    "<<",
];

/// Whether `s` can be written plain and every schema reads it as this string.
fn plain_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    // Indicators, and anything a number, `.inf` or a timestamp starts with.
    if "-?:,[]{}#&*!|>'\"%@`.+0123456789 \t".contains(first) || WORDS.contains(&s) {
        return false;
    }
    !s.ends_with([' ', ':'])
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.contains('\t')
        && !s.chars().any(needs_escape)
}

/// Whether a literal block scalar writes `s` exactly: more than one line,
/// printable text (tabs aside), no `\r`, a first line that starts with
/// neither a space nor a line break (no indentation indicator needed).
fn literal_exact(s: &str) -> bool {
    s.contains('\n')
        && !s.starts_with([' ', '\t', '\n'])
        && s.trim().chars().next().is_some()
        && !s.chars().any(|c| c != '\n' && c != '\t' && needs_escape(c))
}

/// `|` (one final line break), `|-` (none) or `|+` (more), then each line
/// at indentation `n` (an empty line left empty).
fn write_literal(s: &str, n: usize, out: &mut String) {
    let body = s.trim_end_matches('\n');
    let breaks = s.len() - body.len();
    out.push_str(match breaks {
        0 => "|-",
        1 => "|",
        _ => "|+",
    });
    for line in body.split('\n') {
        out.push('\n');
        if !line.is_empty() {
            indent(n, out);
            out.push_str(line);
        }
    }
    // The final line breaks: the last line's own, then one per empty line.
    for _ in 1..breaks {
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::write_block_yaml;
    use serde_json::json;

    fn yaml(v: serde_json::Value) -> String {
        let mut out = String::new();
        write_block_yaml(&v, &mut out);
        out
    }

    #[test]
    fn collections() {
        assert_eq!(
            yaml(json!({"a": 1, "b": {"c": [1, {"d": null, "e": [true]}, [], {}, [2, [3]]]}, "f": []})),
            "a: 1\nb:\n  c:\n  - 1\n  - d: null\n    e:\n    - true\n  - []\n  - {}\n  - - 2\n    - - 3\nf: []\n"
        );
        assert_eq!(
            yaml(json!([[["x"]], {"k": {"m": 1}}])),
            "- - - x\n- k:\n    m: 1\n"
        );
        assert_eq!(yaml(json!({})), "{}\n");
        assert_eq!(yaml(json!("top")), "top\n");
    }

    #[test]
    fn strings() {
        for (s, want) in [
            ("hello world", "hello world"),
            ("yes", "\"yes\""),
            ("Off", "\"Off\""),
            ("12", "\"12\""),
            (".5", "\".5\""),
            ("a: b", "\"a: b\""),
            ("a #b", "\"a #b\""),
            ("a#b", "a#b"),
            ("http://x/y?z#w", "http://x/y?z#w"),
            ("-x", "\"-x\""),
            ("", "\"\""),
            ("ключ", "ключ"),
            ("a\u{85}b\u{2028}", "\"a\\u0085b\\u2028\""),
            ("say \"hi\"\\", "say \"hi\"\\"),
            ("\"q", "\"\\\"q\""),
            ("a\tb", "\"a\\tb\""),
            ("end:", "\"end:\""),
            ("<<", "\"<<\""),
            ("{x}", "\"{x}\""),
            ("x, [y]", "x, [y]"),
            ("trailing ", "\"trailing \""),
        ] {
            assert_eq!(yaml(json!({ "k": s })), format!("k: {want}\n"), "{s:?}");
            assert_eq!(yaml(json!({ s: 1 })), format!("{want}: 1\n"), "{s:?}");
        }
    }

    #[test]
    fn literal_blocks() {
        assert_eq!(
            yaml(json!({"a": "x\ny\n", "b": "x\n\n  y", "c": "x\n\n\n", "d": [" x\ny", "x\r\ny"]})),
            "a: |\n  x\n  y\nb: |-\n  x\n\n    y\nc: |+\n  x\n\n\nd:\n- \" x\\ny\"\n- \"x\\r\\ny\"\n"
        );
        assert_eq!(yaml(json!(["a\nb"])), "- |-\n  a\n  b\n");
    }

    #[test]
    fn long_keys_are_explicit() {
        let long = "k".repeat(1001);
        assert_eq!(
            yaml(json!({ long.clone(): 1 })),
            format!("? \"{long}\"\n: 1\n")
        );
        assert_eq!(
            yaml(json!([{ long.clone(): {"a": 1} }])),
            format!("- ? \"{long}\"\n  :\n    a: 1\n")
        );
    }
}
