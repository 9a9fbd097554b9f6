//! Random test data for quickcheck properties: JSON values
//! ([`Data`], [`value`]) and JSON texts whose numbers take every spelling
//! JSON allows ([`JsonText`]).

use quickcheck::{Arbitrary, Gen};
use serde_json::Value;

/// Random JSON data.
#[derive(Clone, Debug)]
pub struct Data(pub Value);

impl Arbitrary for Data {
    fn arbitrary(g: &mut Gen) -> Data {
        Data(value(g, 4))
    }
}

const WORDS: &[&str] = &[
    "",
    "a",
    "yes",
    "on",
    "null",
    "~",
    "0777",
    "1_000",
    "0x1F",
    ".5",
    "1e3",
    "- x",
    "a: b",
    "#c",
    "x\ny",
    "\n",
    " lead",
    "trail ",
    "é",
    "\t",
    "\"",
    "'",
    "<<",
    "key with spaces",
    "---",
    "...",
];

pub fn string(g: &mut Gen) -> String {
    match u8::arbitrary(g) % 3 {
        0 => String::arbitrary(g),
        _ => (*g.choose(WORDS).unwrap()).to_string(),
    }
}

pub fn value(g: &mut Gen, depth: usize) -> Value {
    let pick = u8::arbitrary(g) % if depth == 0 { 5 } else { 7 };
    match pick {
        0 => Value::Null,
        1 => Value::Bool(bool::arbitrary(g)),
        2 => Value::from(i64::arbitrary(g) >> (u8::arbitrary(g) % 64)),
        3 => serde_json::Number::from_f64(f64::arbitrary(g)).map_or(Value::Null, Value::Number),
        4 => Value::String(string(g)),
        5 => Value::Array(
            (0..u8::arbitrary(g) % 4)
                .map(|_| value(g, depth - 1))
                .collect(),
        ),
        _ => Value::Object(
            (0..u8::arbitrary(g) % 4)
                .map(|_| (string(g), value(g, depth - 1)))
                .collect(),
        ),
    }
}

/// A JSON text: like [`Data`], with numbers spelled as JSON allows
/// (exponents, `E`, signs, underflow to 0, past 64 bits) rather than as
/// serde_json writes them (past float64's range is an error: not here).
#[derive(Clone, Debug)]
pub struct JsonText(pub String);

impl Arbitrary for JsonText {
    fn arbitrary(g: &mut Gen) -> JsonText {
        let mut out = String::new();
        json_text(g, 4, &mut out);
        JsonText(out)
    }
}

const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1e10",
    "2.5E3",
    "-1e-7",
    "1e+21",
    "1.7976931348623157E308",
    "-17976931348623158e292",
    "0e0",
    "1.5e-3",
    "10E-2",
    "1.0E+308",
    "123456789012345678901234567890",
    "18446744073709551617",
    "-9223372036854775809",
    "0.000001",
    "1e-400",
    "3.14",
];

fn json_text(g: &mut Gen, depth: usize, out: &mut String) {
    match u8::arbitrary(g) % if depth == 0 { 3 } else { 5 } {
        0 => out.push_str(g.choose(NUMBERS).unwrap()),
        1 => out.push_str(&Value::String(string(g)).to_string()),
        2 => out.push_str(&value(g, 0).to_string()),
        3 => {
            out.push('[');
            for i in 0..u8::arbitrary(g) % 4 {
                if i > 0 {
                    out.push(',');
                }
                json_text(g, depth - 1, out);
            }
            out.push(']');
        }
        _ => {
            out.push('{');
            for i in 0..u8::arbitrary(g) % 4 {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(format!("{}{i}", string(g))).to_string());
                out.push(':');
                json_text(g, depth - 1, out);
            }
            out.push('}');
        }
    }
}
