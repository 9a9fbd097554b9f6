//! Properties over random JSON: what kyaml writes reads back (through the
//! spec-following test reader in tests/reader) as exactly the data that went
//! in, in both layouts and both forms; output is deterministic and does not
//! depend on JSON white space; valid JSON is never rejected.

mod reader;

use kyaml::{Form, Options};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};
use serde_json::{Map, Value};

const TESTS: u64 = 2000;

/// Strings YAML parsers are known to misread, and the characters kyaml
/// escapes or folds.
const NASTY: &[&str] = &[
    "",
    "y",
    "N",
    "yes",
    "Off",
    "on",
    "null",
    "NULL",
    "~",
    "true",
    "False",
    "1",
    "0",
    "-1",
    "+1",
    "0x1F",
    "0o17",
    "0b101",
    "017",
    "1_000",
    "_1",
    ".5",
    "1.",
    "1e10",
    "1E+5",
    "1e400",
    ".inf",
    "-.Inf",
    ".NaN",
    "1:20",
    "2001-12-14",
    "2025-02-30",
    "2024-2-31",
    "<<",
    "=",
    "-",
    "---",
    "...",
    "? a",
    "a: b",
    "a #b",
    "#",
    "&a",
    "*a",
    "!tag",
    "%",
    "@",
    "`",
    "|",
    ">",
    "[",
    "]",
    "{",
    "}",
    ",",
    "'",
    "\"",
    "\\",
    "a/b",
    "app.kubernetes.io/name",
    "a\nb",
    " a\n b",
    "\ta\n\tb",
    "a\r\nb",
    "\n",
    "\n\n",
    "a\n",
    " \n ",
    "a  \nb",
    "a\n\u{a0}b",
    "a\n\u{3000}b",
    "a\n\rb",
    "a\n\u{2028}b",
    "a\n\u{85}b",
    "\u{a0}",
    "\u{2029}",
    "\u{200b}",
    "\u{feff}",
    "\u{202e}",
    "\u{7f}",
    "\u{0}",
    "\u{1b}",
    "\u{7}",
    "\u{b}",
    "\u{c}",
    "😀",
    "e\u{301}",
    "\u{301}",
    "١٢٣",
    "日本",
    "\u{e000}",
    "\u{1fae9}",
    "\u{378}",
    "\u{ad}",
    "x\n  \n  y",
    "\\\n\\",
    "\"\n\"",
];

#[derive(Clone, Debug)]
struct Json(Value);

impl Arbitrary for Json {
    fn arbitrary(g: &mut Gen) -> Json {
        Json(value(g, 4))
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Json>> {
        let children: Vec<Value> = match &self.0 {
            Value::Array(items) => items.clone(),
            Value::Object(map) => map.values().cloned().collect(),
            _ => Vec::new(),
        };
        let smaller: Vec<Json> = match &self.0 {
            Value::Array(items) => (0..items.len())
                .map(|i| {
                    let mut fewer = items.clone();
                    fewer.remove(i);
                    Json(Value::Array(fewer))
                })
                .collect(),
            Value::Object(map) => map
                .keys()
                .map(|k| {
                    let mut fewer = map.clone();
                    fewer.remove(k);
                    Json(Value::Object(fewer))
                })
                .collect(),
            _ => Vec::new(),
        };
        Box::new(children.into_iter().map(Json).chain(smaller))
    }
}

fn string(g: &mut Gen) -> String {
    match u8::arbitrary(g) % 4 {
        0 | 1 => g.choose(NASTY).unwrap().to_string(),
        2 => String::arbitrary(g),
        _ => (0..1 + usize::arbitrary(g) % 4)
            .map(|_| *g.choose(NASTY).unwrap())
            .collect(),
    }
}

fn value(g: &mut Gen, depth: usize) -> Value {
    let pick = u8::arbitrary(g) % if depth == 0 { 6 } else { 9 };
    match pick {
        0 => Value::Null,
        1 => Value::Bool(bool::arbitrary(g)),
        2 => Value::from(i64::arbitrary(g)),
        3 => Value::from(u64::arbitrary(g)),
        4 => serde_json::Number::from_f64(f64::arbitrary(g)).map_or(Value::Null, Value::Number),
        5 => Value::String(string(g)),
        6 => {
            // Only containers, sometimes, so that lists are cuddled.
            let containers = bool::arbitrary(g);
            let len = usize::arbitrary(g) % 5;
            Value::Array(
                (0..len)
                    .map(|_| match containers {
                        true if bool::arbitrary(g) => Value::Array(vec![value(g, depth - 1)]),
                        true => Value::Object(Map::new()),
                        false => value(g, depth - 1),
                    })
                    .collect(),
            )
        }
        _ => {
            let len = usize::arbitrary(g) % 5;
            Value::Object((0..len).map(|_| (string(g), value(g, depth - 1))).collect())
        }
    }
}

fn render(json: &str, form: Form, compact: bool) -> Result<String, kyaml::Error> {
    Options::new().form(form).compact(compact).to_string(json)
}

fn reads_back(Json(v): Json) -> TestResult {
    let json = serde_json::to_string(&v).unwrap();
    for compact in [false, true] {
        let yaml = match render(&json, Form::Value, compact) {
            Ok(yaml) => yaml,
            Err(e) => return TestResult::error(format!("valid JSON rejected: {e}\n{json}")),
        };
        match reader::read_value(&yaml) {
            Ok(read) if read == v => {}
            Ok(read) => {
                return TestResult::error(format!("read back {read}\nfrom {yaml}\nfor {json}"))
            }
            Err(e) => return TestResult::error(format!("unreadable: {e}\n{yaml}\nfor {json}")),
        }
    }
    TestResult::passed()
}

#[test]
fn what_is_written_reads_back_as_the_input() {
    QuickCheck::new()
        .tests(TESTS)
        .quickcheck(reads_back as fn(Json) -> TestResult);
}

fn streams_read_back(values: Vec<Json>) -> TestResult {
    let json: String = values
        .iter()
        .map(|Json(v)| serde_json::to_string(v).unwrap() + "\n")
        .collect();
    let want: Vec<Value> = values.into_iter().map(|Json(v)| v).collect();
    for compact in [false, true] {
        let yaml = render(&json, Form::Document, compact).unwrap();
        match reader::read_stream(&yaml) {
            Ok(read) if read == want => {}
            other => return TestResult::error(format!("{other:?}\nfrom {yaml}")),
        }
    }
    TestResult::passed()
}

#[test]
fn json_lines_read_back_as_a_document_stream() {
    QuickCheck::new()
        .tests(TESTS / 4)
        .quickcheck(streams_read_back as fn(Vec<Json>) -> TestResult);
}

fn forms_agree(Json(v): Json) -> bool {
    let minified = serde_json::to_string(&v).unwrap();
    let pretty = serde_json::to_string_pretty(&v).unwrap();
    [false, true].into_iter().all(|compact| {
        let value = render(&minified, Form::Value, compact).unwrap();
        let document = render(&minified, Form::Document, compact).unwrap();
        // Deterministic, white-space blind, and the document wraps the value.
        value == render(&minified, Form::Value, compact).unwrap()
            && document == render(&pretty, Form::Document, compact).unwrap()
            && document == format!("---\n{value}\n")
            && (!compact || !value.contains('\n'))
    })
}

#[test]
fn output_is_deterministic_white_space_blind_and_wrapped() {
    QuickCheck::new()
        .tests(TESTS)
        .quickcheck(forms_agree as fn(Json) -> bool);
}

/// A number's parts: sign, integer digits, fraction digits, and exponent
/// (upper case?, sign: `Some(true)` for `+`, digits).
type Parts = Vec<(bool, u64, Option<u16>, Option<(bool, Option<bool>, u16)>)>;

/// A JSON number in any notation: sign, digits, fraction, exponent.
fn number_text(
    negative: bool,
    int: u64,
    frac: Option<u16>,
    exp: Option<(char, Option<char>, u16)>,
) -> String {
    let mut s = format!("{}{int}", if negative { "-" } else { "" });
    if let Some(f) = frac {
        s += &format!(".{f}");
    }
    if let Some((e, sign, n)) = exp {
        s.push(e);
        s.extend(sign);
        s += &(n % 400).to_string();
    }
    s
}

fn numbers_read_back(parts: Parts) -> TestResult {
    let texts: Vec<String> = parts
        .into_iter()
        .map(|(neg, int, frac, exp)| {
            let exp = exp.map(|(upper, sign, n)| {
                (
                    if upper { 'E' } else { 'e' },
                    sign.map(|s| if s { '+' } else { '-' }),
                    n,
                )
            });
            number_text(neg, int, frac, exp)
        })
        .collect();
    let json = format!("[{}]", texts.join(","));
    // Rust's parse rounds correctly; serde_json's default parse may not.
    let exact = |t: &String| match t.parse::<i64>() {
        Ok(i) => Some(Value::from(i)),
        Err(_) => t
            .parse::<u64>()
            .ok()
            .map(Value::from)
            .or_else(|| serde_json::Number::from_f64(t.parse().ok()?).map(Value::Number)),
    };
    let Some(want) = texts.iter().map(exact).collect::<Option<Vec<Value>>>() else {
        return TestResult::discard();
    };
    let want = Value::Array(want);
    let yaml = render(&json, Form::Value, true).unwrap();
    match reader::read_value(&yaml) {
        Ok(read) if read == want => TestResult::passed(),
        other => TestResult::error(format!("{other:?} from {yaml} for {json}")),
    }
}

#[test]
fn numbers_in_every_notation_keep_their_value() {
    QuickCheck::new()
        .tests(TESTS)
        .quickcheck(numbers_read_back as fn(Parts) -> TestResult);
}

/// The reader is strict enough to catch an encoder that forgets to quote.
#[test]
fn the_reader_rejects_what_kyaml_must_never_write() {
    for bad in [
        "{on: 1}",
        "{1: 1}",
        "{null: 1}",
        "{1e10: 1}",
        "[abc]",
        "[.inf]",
        "{a: 0x1F}",
        "\"\\q\"",
    ] {
        assert!(reader::read_value(bad).is_err(), "{bad}");
    }
    assert_eq!(
        reader::read_value("\"a\\\n  \\ b\\n\\\n c\"").unwrap(),
        "a b\nc"
    );
    assert_eq!(reader::read_value("\"a  \n\n  b\n c\"").unwrap(), "a\nb c");
    assert_eq!(
        reader::read_value("{a: [1, {b: 2.5e+3,},],}").unwrap(),
        serde_json::json!({"a": [1, {"b": 2500.0}]})
    );
}
