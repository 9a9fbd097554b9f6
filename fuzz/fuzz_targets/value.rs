//! Structured JSON: values built by `arbitrary`, written by serde_json both
//! minified and pretty. kyaml must accept both and render them to the same
//! bytes (JSON white space is not data), deterministically; a document is
//! the value form framed by `---` and a line feed; the regular layout has
//! exactly the lines the structure dictates; the compact layout is one line
//! and composes: a container's rendering is its members' renderings joined.
#![no_main]

use arbitrary::Arbitrary;
use kyaml::{Form, Options};
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Number, Value};

/// Nesting deeper than this is cut short (as `null`): depth is the bytes
/// target's business, and the composition check re-renders every subtree.
const DEPTH: usize = 64;

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
            // Not-a-number and the infinities have no JSON form.
            Json::Float(f) => Number::from_f64(*f).map_or(Value::Null, Value::Number),
            Json::Str(s) => Value::String(s.clone()),
            _ if depth >= DEPTH => Value::Null,
            Json::List(items) => items.iter().map(|j| j.to_value(depth + 1)).collect(),
            Json::Map(members) => {
                let map: Map<String, Value> = members
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_value(depth + 1)))
                    .collect();
                Value::Object(map)
            }
        }
    }
}

/// The value form of `value`, compact or regular.
fn value_form(value: &Value, compact: bool) -> String {
    let opts = Options::new().form(Form::Value).compact(compact);
    opts.to_string(serde_json::to_string(value).unwrap())
        .expect("valid JSON rejected")
}

/// The lines `value` takes in the regular layout (see SPEC.md): scalars
/// one, folded strings an opening and a closing line around their own
/// lines, containers an opening and a closing line around their members,
/// except cuddled lists, whose elements share the lines where they meet.
fn regular_lines(value: &Value) -> usize {
    match value {
        Value::String(s) if s.contains('\n') => {
            2 + s.strip_suffix('\n').unwrap_or(s).split('\n').count()
        }
        Value::Array(items) if !items.is_empty() && items.iter().all(is_container) => {
            items.iter().map(regular_lines).sum::<usize>() - (items.len() - 1)
        }
        Value::Array(items) if !items.is_empty() => {
            2 + items.iter().map(regular_lines).sum::<usize>()
        }
        Value::Object(map) if !map.is_empty() => 2 + map.values().map(regular_lines).sum::<usize>(),
        _ => 1,
    }
}

fn is_container(value: &Value) -> bool {
    value.is_array() || value.is_object()
}

/// In the compact layout a container is its members' renderings, joined by
/// `, ` in brackets: an element renders as it does alone, a member as in a
/// map of its own. Checked for every container inside.
fn check_composition(value: &Value) {
    let (joined, children): (String, Vec<&Value>) = match value {
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(|v| value_form(v, true)).collect();
            (format!("[{}]", parts.join(", ")), items.iter().collect())
        }
        Value::Object(map) => {
            let parts: Vec<String> = map.iter().map(|(k, v)| member_form(k, v)).collect();
            (format!("{{{}}}", parts.join(", ")), map.values().collect())
        }
        _ => return,
    };
    assert_eq!(value_form(value, true), joined);
    children.into_iter().for_each(check_composition);
}

/// A member in the compact layout: a map of its own, without the braces.
fn member_form(key: &str, value: &Value) -> String {
    let alone = Value::Object(Map::from_iter([(key.to_owned(), value.clone())]));
    let rendered = value_form(&alone, true);
    rendered[1..rendered.len() - 1].to_owned()
}

fuzz_target!(|json: Json| {
    let value = json.to_value(0);
    let minified = serde_json::to_string(&value).unwrap();
    let pretty = serde_json::to_string_pretty(&value).unwrap();
    for compact in [false, true] {
        let opts = Options::new().compact(compact);
        let doc = opts.to_string(&minified).expect("valid JSON rejected");
        assert_eq!(doc, opts.to_string(&minified).unwrap(), "not deterministic");
        let from_pretty = opts.to_string(&pretty).expect("valid JSON rejected");
        assert_eq!(doc, from_pretty, "JSON white space changed the output");
        let alone = value_form(&value, compact);
        assert_eq!(
            doc,
            format!("---\n{alone}\n"),
            "document is not the framed value"
        );
        let lines = if compact { 1 } else { regular_lines(&value) };
        assert_eq!(alone.split('\n').count(), lines, "{alone}");
    }
    check_composition(&value);
});
