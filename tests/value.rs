//! `kyaml::value` (the `serde` feature) against its oracle, the two-step
//! route: `serde_json::to_string(&v)` and then `kyaml::to_string`. Same
//! bytes when that route succeeds, an error when it fails, over generated
//! values of nested types that serialize in every way serde has (derived
//! structs, every enum representation, flatten, maps with any key type,
//! bytes, 128-bit integers, floats of every kind).
#![cfg(feature = "serde")]

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use kyaml::{ErrorKind, Form, Options};
use quickcheck::{Arbitrary, Gen, QuickCheck};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// A value of one of many shapes; `Serialize` picks the serde call.
#[derive(Clone, Debug)]
enum Node {
    Null,
    Unit,
    Bool(bool),
    I64(i64),
    U64(u64),
    I128(i128),
    U128(u128),
    F64(f64),
    F32(f32),
    Str(String),
    Char(char),
    Bytes(Vec<u8>),
    Some(Box<Node>),
    Seq(Vec<Node>),
    Tuple(Box<(Node, Node)>),
    /// Written with `serialize_map`: keys may repeat.
    Map(Vec<(Key, Node)>),
    Record(Box<Record>),
    External(Box<External>),
    Internal(Box<Internal>),
    Adjacent(Box<Adjacent>),
    Untagged(Box<Untagged>),
}

/// A map key of any type serde_json knows (most of which it refuses).
#[derive(Clone, Debug)]
enum Key {
    Str(String),
    Word(&'static str),
    I32(i32),
    U64(u64),
    I128(i128),
    F64(f64),
    F32(f32),
    Bool(bool),
    Char(char),
    UnitVariant(Variant),
    Option(Option<String>),
    Newtype(Newtype),
    Unit,
    Bytes(Vec<u8>),
    Seq(Vec<u8>),
    NewtypeVariant(Box<External>),
}

#[derive(Clone, Debug, Serialize)]
enum Variant {
    Alpha,
    #[serde(rename = "app.kubernetes.io/name")]
    Beta,
}

#[derive(Clone, Debug, Serialize)]
struct Newtype(String);

#[derive(Clone, Debug, Serialize)]
struct Record {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    replicas: Option<i32>,
    items: Vec<Node>,
    #[serde(rename = "on")]
    flag: bool,
    /// Its keys may repeat the fields': a duplicate key.
    #[serde(flatten)]
    extra: BTreeMap<String, Node>,
}

#[derive(Clone, Debug, Serialize)]
enum External {
    Unit,
    Newtype(Node),
    Tuple(i8, Node),
    Struct { a: Node, b: bool },
}

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind")]
enum Internal {
    Unit,
    Struct {
        x: Node,
    },
    /// A newtype of anything but a map or struct: serde's own error.
    /// (Of a leaf: a `Node` would nest serde's tagging serializer in
    /// itself without end.)
    Newtype(Leaf),
    Map(BTreeMap<String, Node>),
}

#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
enum Leaf {
    Int(i64),
    Text(String),
    Inner { v: Vec<i32> },
}

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Unit,
    Newtype(Node),
    Tuple(Node, Node),
}

#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
enum Untagged {
    Unit,
    Newtype(Node),
    Struct { y: i32, z: Node },
}

impl Serialize for Node {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Node::Null => s.serialize_none(),
            Node::Unit => s.serialize_unit(),
            Node::Bool(b) => s.serialize_bool(*b),
            Node::I64(n) => s.serialize_i64(*n),
            Node::U64(n) => s.serialize_u64(*n),
            Node::I128(n) => s.serialize_i128(*n),
            Node::U128(n) => s.serialize_u128(*n),
            Node::F64(f) => s.serialize_f64(*f),
            Node::F32(f) => s.serialize_f32(*f),
            Node::Str(t) => s.serialize_str(t),
            Node::Char(c) => s.serialize_char(*c),
            Node::Bytes(b) => s.serialize_bytes(b),
            Node::Some(n) => s.serialize_some(n),
            Node::Seq(items) => items.serialize(s),
            Node::Tuple(pair) => pair.serialize(s),
            Node::Map(entries) => {
                let mut map = s.serialize_map(None)?;
                for (k, v) in entries {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
            Node::Record(r) => r.serialize(s),
            Node::External(e) => e.serialize(s),
            Node::Internal(e) => e.serialize(s),
            Node::Adjacent(e) => e.serialize(s),
            Node::Untagged(e) => e.serialize(s),
        }
    }
}

impl Serialize for Key {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Key::Str(t) => s.serialize_str(t),
            Key::Word(t) => s.serialize_str(t),
            Key::I32(n) => s.serialize_i32(*n),
            Key::U64(n) => s.serialize_u64(*n),
            Key::I128(n) => s.serialize_i128(*n),
            Key::F64(f) => s.serialize_f64(*f),
            Key::F32(f) => s.serialize_f32(*f),
            Key::Bool(b) => s.serialize_bool(*b),
            Key::Char(c) => s.serialize_char(*c),
            Key::UnitVariant(v) => v.serialize(s),
            Key::Option(o) => o.serialize(s),
            Key::Newtype(n) => n.serialize(s),
            Key::Unit => s.serialize_unit(),
            Key::Bytes(b) => s.serialize_bytes(b),
            Key::Seq(b) => b.serialize(s),
            Key::NewtypeVariant(e) => e.serialize(s),
        }
    }
}

/// Words that collide with each other, with YAML's special words, and
/// with numbers written as keys.
const WORDS: [&str; 10] = [
    "a", "b", "name", "on", "1", "1.5", "true", "null", "", "kind",
];

fn pick<T: Clone>(g: &mut Gen, items: &[T]) -> T {
    g.choose(items).unwrap().clone()
}

fn float(g: &mut Gen) -> f64 {
    match u8::arbitrary(g) % 4 {
        0 => f64::arbitrary(g),
        1 => f64::from_bits(u64::arbitrary(g)),
        // Near the edges of serde_json's plain decimal range.
        2 => {
            let e = i32::from(i8::arbitrary(g) % 24);
            (f64::from(u16::arbitrary(g)) + 0.5) * 10f64.powi(e)
        }
        _ => pick(
            g,
            &[
                0.0,
                -0.0,
                1.0,
                1e15,
                1e16,
                1e-5,
                1e-6,
                0.1,
                f64::NAN,
                f64::INFINITY,
                5e-324,
                f64::MAX,
            ],
        ),
    }
}

fn string(g: &mut Gen) -> String {
    match u8::arbitrary(g) % 3 {
        0 => pick(g, &WORDS).to_string(),
        1 => String::arbitrary(g),
        _ => pick(
            g,
            &[
                "a\nb",
                "  lead",
                "#x",
                "x: y",
                "- z",
                "\"q\"",
                "\\",
                "\t",
                "é\u{2028}",
                "line\n\n",
            ],
        )
        .to_string(),
    }
}

fn key(g: &mut Gen) -> Key {
    match u8::arbitrary(g) % 20 {
        0..=5 => Key::Word(pick(g, &WORDS)),
        6 | 7 => Key::Str(string(g)),
        8 => Key::I32(i32::arbitrary(g) % 3),
        9 => Key::U64(u64::arbitrary(g)),
        10 => Key::I128(i128::arbitrary(g)),
        11 => Key::F64(float(g)),
        12 => Key::F32(float(g) as f32),
        13 => Key::Bool(bool::arbitrary(g)),
        14 => Key::Char(char::arbitrary(g)),
        15 => Key::UnitVariant(pick(g, &[Variant::Alpha, Variant::Beta])),
        16 => Key::Option(Option::<String>::arbitrary(g)),
        17 => Key::Newtype(Newtype(pick(g, &WORDS).to_string())),
        18 => pick(g, &[Key::Unit, Key::Bytes(vec![1]), Key::Seq(vec![])]),
        _ => Key::NewtypeVariant(Box::new(External::Newtype(Node::Null))),
    }
}

fn node(g: &mut Gen, depth: usize) -> Node {
    let leaves = 12;
    let kinds = if depth == 0 { leaves } else { leaves + 9 };
    match usize::arbitrary(g) % kinds {
        0 => Node::Null,
        1 => Node::Unit,
        2 => Node::Bool(bool::arbitrary(g)),
        3 => Node::I64(i64::arbitrary(g)),
        4 => Node::U64(u64::arbitrary(g)),
        5 => match bool::arbitrary(g) {
            true => Node::I128(i128::arbitrary(g)),
            false => Node::U128(u128::arbitrary(g)),
        },
        6 => Node::F64(float(g)),
        7 => Node::F32(float(g) as f32),
        8 | 9 => Node::Str(string(g)),
        10 => Node::Char(char::arbitrary(g)),
        11 => Node::Bytes(Vec::arbitrary(g).into_iter().take(4).collect()),
        12 => Node::Some(Box::new(node(g, depth - 1))),
        13 | 14 => Node::Seq(nodes(g, depth - 1)),
        15 => Node::Tuple(Box::new((node(g, depth - 1), node(g, depth - 1)))),
        16 | 17 => Node::Map(
            (0..usize::arbitrary(g) % 4)
                .map(|_| (key(g), node(g, depth - 1)))
                .collect(),
        ),
        18 => Node::Record(Box::new(Record {
            name: string(g),
            replicas: Option::arbitrary(g),
            items: nodes(g, depth - 1),
            flag: bool::arbitrary(g),
            extra: (0..usize::arbitrary(g) % 3)
                .map(|_| (pick(g, &WORDS).to_string(), node(g, depth - 1)))
                .collect(),
        })),
        19 => Node::External(Box::new(match u8::arbitrary(g) % 4 {
            0 => External::Unit,
            1 => External::Newtype(node(g, depth - 1)),
            2 => External::Tuple(i8::arbitrary(g), node(g, depth - 1)),
            _ => External::Struct {
                a: node(g, depth - 1),
                b: bool::arbitrary(g),
            },
        })),
        _ => match u8::arbitrary(g) % 9 {
            0 => Node::Internal(Box::new(Internal::Unit)),
            1 => Node::Internal(Box::new(Internal::Struct {
                x: node(g, depth - 1),
            })),
            2 => Node::Internal(Box::new(Internal::Newtype(match u8::arbitrary(g) % 3 {
                0 => Leaf::Int(i64::arbitrary(g)),
                1 => Leaf::Text(string(g)),
                _ => Leaf::Inner {
                    v: Vec::arbitrary(g),
                },
            }))),
            3 => Node::Internal(Box::new(Internal::Map(
                [(pick(g, &WORDS).to_string(), node(g, depth - 1))].into(),
            ))),
            4 => Node::Adjacent(Box::new(Adjacent::Unit)),
            5 => Node::Adjacent(Box::new(Adjacent::Newtype(node(g, depth - 1)))),
            6 => Node::Adjacent(Box::new(Adjacent::Tuple(
                node(g, depth - 1),
                node(g, depth - 1),
            ))),
            7 => Node::Untagged(Box::new(Untagged::Newtype(node(g, depth - 1)))),
            _ => Node::Untagged(Box::new(match bool::arbitrary(g) {
                true => Untagged::Unit,
                false => Untagged::Struct {
                    y: 1,
                    z: node(g, depth - 1),
                },
            })),
        },
    }
}

/// Up to four nodes; often all containers, so lists are cuddled, and
/// sometimes a container then a scalar, so the bet is lost.
fn nodes(g: &mut Gen, depth: usize) -> Vec<Node> {
    let n = usize::arbitrary(g) % 5;
    let containers = depth > 0 && bool::arbitrary(g);
    (0..n)
        .map(|_| match containers {
            true => container(g, depth),
            false => node(g, depth),
        })
        .collect()
}

/// A list or a map, of nodes `depth - 1` deep (`depth` > 0).
fn container(g: &mut Gen, depth: usize) -> Node {
    match u8::arbitrary(g) % 3 {
        0 => Node::Seq(nodes(g, depth - 1)),
        1 => Node::Map(vec![(key(g), node(g, depth - 1))]),
        _ => Node::Map(vec![]),
    }
}

impl Arbitrary for Node {
    fn arbitrary(g: &mut Gen) -> Node {
        node(g, 4)
    }
}

/// The two-step route: serde_json's text, then the JSON path.
fn two_step(value: &Node, opts: Options) -> Option<String> {
    let json = serde_json::to_string(value).ok()?;
    opts.to_string(json).ok()
}

/// How many values rendered, and how many failed, in [`agrees`].
static RENDERED: AtomicUsize = AtomicUsize::new(0);
static FAILED: AtomicUsize = AtomicUsize::new(0);

fn agrees(value: &Node, opts: Options) -> bool {
    let direct = opts.value_to_string(value);
    let counter = if direct.is_ok() { &RENDERED } else { &FAILED };
    counter.fetch_add(1, Ordering::Relaxed);
    let oracle = two_step(value, opts);
    if direct.as_ref().ok() != oracle.as_ref() {
        eprintln!("{value:?}\ndirect: {direct:?}\noracle: {oracle:?}");
        return false;
    }
    true
}

#[test]
fn same_bytes_and_same_failures_as_serde_json_then_kyaml() {
    fn prop(value: Node) -> bool {
        [
            Options::new(),
            Options::new().compact(true),
            Options::new().form(Form::Value),
        ]
        .into_iter()
        .all(|opts| agrees(&value, opts))
    }
    QuickCheck::new()
        .tests(2000)
        .max_tests(4000)
        .quickcheck(prop as fn(Node) -> bool);
    // Both outcomes are common, so neither side of the property is vacuous.
    let (rendered, failed) = (
        RENDERED.load(Ordering::Relaxed),
        FAILED.load(Ordering::Relaxed),
    );
    assert!(
        rendered > 2000 && failed > 200,
        "{rendered} rendered, {failed} failed"
    );
}

#[test]
fn a_lost_bet_and_lists_inside_it() {
    let value = Node::Seq(vec![
        Node::Seq(vec![Node::Map(vec![]), Node::Seq(vec![Node::Null])]),
        Node::Seq(vec![Node::Seq(vec![]), Node::I64(1)]),
        Node::Str("x".into()),
    ]);
    assert!(agrees(&value, Options::new()));
    assert_eq!(
        kyaml::value::to_string(&value).unwrap(),
        "---\n[\n  [{}, [\n    null,\n  ]],\n  [\n    [],\n    1,\n  ],\n  \"x\",\n]\n"
    );
}

#[test]
fn the_errors_of_the_two_step_route() {
    let kind = |v: &Node| kyaml::value::to_string(v).unwrap_err().kind();
    let twice = Node::Map(vec![
        (Key::Word("a"), Node::Null),
        (Key::Str("a".into()), Node::Null),
    ]);
    assert_eq!(kind(&twice), ErrorKind::DuplicateKey);
    let flattened = Node::Record(Box::new(Record {
        name: "x".into(),
        replicas: None,
        items: vec![],
        flag: true,
        extra: [("name".to_string(), Node::Null)].into(),
    }));
    assert_eq!(kind(&flattened), ErrorKind::DuplicateKey);
    let nan_key = Node::Map(vec![(Key::F64(f64::NAN), Node::Null)]);
    assert_eq!(kind(&nan_key), ErrorKind::Data);
    let list_key = Node::Map(vec![(Key::Seq(vec![1]), Node::Null)]);
    assert_eq!(kind(&list_key), ErrorKind::Data);
    let tagged_number = Node::Internal(Box::new(Internal::Newtype(Leaf::Int(1))));
    assert_eq!(kind(&tagged_number), ErrorKind::Custom);
    // serde_json's error comes first, as on the two-step route.
    let both = Node::Seq(vec![twice.clone(), list_key]);
    assert_eq!(kind(&both), ErrorKind::Data);
    for v in [twice, flattened, nan_key, tagged_number] {
        assert!(two_step(&v, Options::new()).is_none());
    }
}

#[test]
fn nesting_past_the_limit() {
    let mut value = Node::Null;
    for _ in 0..5 {
        value = Node::Seq(vec![value]);
    }
    let opts = Options::new().max_depth(5);
    assert!(opts.value_to_string(&value).is_ok());
    let err = opts.max_depth(4).value_to_string(&value).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TooDeep);
    assert!(agrees(&value, opts.max_depth(4)));
}

#[test]
fn dump_diff_and_assert_of_values() {
    let old = Node::Map(vec![(Key::Word("a"), Node::I64(1))]);
    let new = Node::Map(vec![(Key::Word("a"), Node::I64(2))]);
    assert_eq!(kyaml::value::Dump(&old).to_string(), "{a: 1}");
    let diff = kyaml::value::Diff::new(&old, &new).labels("old", "new");
    assert_eq!(
        diff.to_string(),
        "--- old\n+++ new\n@@ -1,3 +1,3 @@ a\n {\n-  a: 1,\n+  a: 2,\n }\n"
    );
    kyaml::assert_kyaml_eq!(value: old, old.clone());
    let failed =
        std::panic::catch_unwind(|| kyaml::assert_kyaml_eq!(value: old, new, "in {}", "test"));
    let message = *failed.unwrap_err().downcast::<String>().unwrap();
    assert!(
        message.starts_with("assertion `left == right` failed as KYAML: in test\n--- left\n"),
        "{message}"
    );
}

#[test]
fn duplicates_in_large_maps() {
    let keys = |n: usize| (0..n).map(|i| (Key::Str(format!("k{i}")), Node::Null));
    for n in [17, 40, 300] {
        let distinct = Node::Map(keys(n).collect());
        assert!(kyaml::value::to_string(&distinct).is_ok());
        for (first, second) in [(0, n - 1), (n / 2, n / 2 + 1), (n - 2, n - 1)] {
            let mut entries: Vec<_> = keys(n).collect();
            entries[second].0 = Key::Str(format!("k{first}"));
            let twice = Node::Map(entries);
            let err = kyaml::value::to_string(&twice).unwrap_err();
            assert_eq!(err.to_string(), format!("duplicate key \"k{first}\""));
            assert!(agrees(&twice, Options::new()));
        }
    }
}
