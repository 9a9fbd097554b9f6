//! Structured JSON: values built by `arbitrary`, written by serde_json both
//! minified and pretty. kyaml must accept both, render them to the same
//! bytes (JSON white space is not data), and keep the number of lines the
//! structure dictates.
#![no_main]

use arbitrary::Arbitrary;
use kyaml::Options;
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Number, Value};

#[derive(Arbitrary, Debug)]
enum Json {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List(Vec<Json>),
    Map(Vec<(String, Json)>),
}

impl Json {
    fn to_value(&self, depth: usize) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Int(i) => Value::from(*i),
            Json::Float(f) => Number::from_f64(*f).map_or(Value::Null, Value::Number),
            Json::Str(s) => Value::String(s.clone()),
            _ if depth > 64 => Value::Null,
            Json::List(items) => items.iter().map(|j| j.to_value(depth + 1)).collect(),
            Json::Map(members) => {
                let map: Map<String, Value> = members.iter().map(|(k, v)| (k.clone(), v.to_value(depth + 1))).collect();
                Value::Object(map)
            }
        }
    }
}

fuzz_target!(|json: Json| {
    let value = json.to_value(0);
    let minified = serde_json::to_string(&value).unwrap();
    let pretty = serde_json::to_string_pretty(&value).unwrap();
    for opts in [Options::new(), Options::new().compact(true)] {
        let a = opts.to_string(&minified).expect("valid JSON rejected");
        let b = opts.to_string(&pretty).expect("valid JSON rejected");
        assert_eq!(a, b, "JSON white space changed the output");
        assert!(a.starts_with("---\n") && a.ends_with('\n'));
        if opts.is_compact() {
            // Compact: the header and one line, whatever the value.
            assert_eq!(a.lines().count(), 2, "{a}");
        }
    }
});
