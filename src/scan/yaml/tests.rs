//! The YAML test suite (tests/data/yaml-test-suite) rendered in its own
//! event notation, comments and blank lines, and no panics on broken input.

extern crate std;

use super::parser::Parser;
use super::scalar::Style;
use super::syntax::{Kind, Props, SyntaxEvent};
use crate::options::MAX_DEPTH;
use crate::scan::Piece;
use std::fs;
use std::path::{Path, PathBuf};
use std::string::{String, ToString};
use std::vec::Vec;
use std::{format, println};

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/yaml-test-suite")
}

/// Every case directory (sub-cases included), sorted.
/// A suite case's name: its directory below the suite's.
fn case_name(case: &Path) -> String {
    case.strip_prefix(suite_dir())
        .unwrap()
        .display()
        .to_string()
}

fn cases() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> = fs::read_dir(suite_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for d in dirs {
        if d.join("in.yaml").exists() {
            out.push(d);
        } else {
            let mut subs: Vec<PathBuf> = fs::read_dir(&d)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.join("in.yaml").exists())
                .collect();
            subs.sort();
            out.extend(subs);
        }
    }
    out
}

fn props(out: &mut String, p: &Props<'_>) {
    if let Some(a) = p.anchor {
        out.push_str(" &");
        out.push_str(a);
    }
    if let Some(t) = p.tag {
        out.push_str(" <");
        out.extend(t.chars());
        out.push('>');
    }
}

fn escape(out: &mut String, c: char) {
    match c {
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        '\r' => out.push_str("\\r"),
        '\u{8}' => out.push_str("\\b"),
        '\0' => out.push_str("\\0"),
        c => out.push(c),
    }
}

/// One event in test.event notation, or `None` for comments and blanks.
fn render(e: &SyntaxEvent<'_>) -> Option<String> {
    let mut out = String::new();
    match e.kind {
        Kind::StreamStart => out.push_str("+STR"),
        Kind::StreamEnd => out.push_str("-STR"),
        Kind::DocumentStart { explicit } => {
            out.push_str(if explicit { "+DOC ---" } else { "+DOC" })
        }
        Kind::DocumentEnd { explicit } => out.push_str(if explicit { "-DOC ..." } else { "-DOC" }),
        Kind::MappingStart { props: p, flow } => {
            out.push_str(if flow { "+MAP {}" } else { "+MAP" });
            props(&mut out, &p);
        }
        Kind::MappingEnd => out.push_str("-MAP"),
        Kind::SequenceStart { props: p, flow } => {
            out.push_str(if flow { "+SEQ []" } else { "+SEQ" });
            props(&mut out, &p);
        }
        Kind::SequenceEnd => out.push_str("-SEQ"),
        Kind::Scalar { props: p, scalar } => {
            out.push_str("=VAL");
            props(&mut out, &p);
            out.push(' ');
            out.push(match scalar.style() {
                Style::Plain => ':',
                Style::SingleQuoted => '\'',
                Style::DoubleQuoted => '"',
                Style::Literal => '|',
                Style::Folded => '>',
            });
            for piece in scalar.pieces() {
                match piece {
                    Piece::Run(r) => r.chars().for_each(|c| escape(&mut out, c)),
                    Piece::Char(c) => escape(&mut out, c),
                }
            }
        }
        Kind::Alias { name } => {
            out.push_str("=ALI *");
            out.push_str(name);
        }
        Kind::Comment { .. } | Kind::BlankLine | Kind::Lenient { .. } | Kind::Refused { .. } => {
            return None
        }
    }
    Some(out)
}

/// All events of `input`, or the error's offset.
fn parse(input: &[u8]) -> Result<Vec<SyntaxEvent<'_>>, String> {
    let mut out = Vec::new();
    for e in Parser::new(input, MAX_DEPTH) {
        match e {
            Ok(e) => out.push(e),
            Err(f) => return Err(f.locate(input, None).to_string()),
        }
    }
    Ok(out)
}

fn events_text(input: &[u8]) -> Result<String, String> {
    let mut s = String::new();
    for e in parse(input)? {
        if let Some(line) = render(&e) {
            s.push_str(&line);
            s.push('\n');
        }
    }
    Ok(s)
}

// ERRORS_KUBECTL_READS, VALID_KUBECTL_REFUSES, VALID_KUBECTL_READS_OTHERWISE.
include!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/common/kubectl_suite.rs"
));

/// How a suite case is expected to read: `Some(true)` refused, `Some(false)`
/// read, `None` read with its test.event.
fn suite_expectation(name: &str, error_case: bool) -> Option<bool> {
    match (error_case, ERRORS_KUBECTL_READS.contains(&name)) {
        (true, read) => Some(!read),
        (false, _) if VALID_KUBECTL_REFUSES.contains(&name) => Some(true),
        (false, _) if VALID_KUBECTL_READS_OTHERWISE.contains(&name) => Some(false),
        (false, _) => None,
    }
}

/// Every error case is rejected and every other case's events equal its
/// test.event (comments and blank lines are not in that notation), except
/// where kubectl's reader does otherwise (the two lists above).
#[test]
fn yaml_test_suite() {
    let mut valid = 0;
    let mut valid_ok = 0;
    let mut errors = 0;
    let mut refused = 0;
    let mut failures = Vec::new();
    for case in cases() {
        let name = case_name(&case);
        let input = fs::read(case.join("in.yaml")).unwrap();
        let got = events_text(&input);
        let error_case = case.join("error").exists();
        errors += usize::from(error_case);
        valid += usize::from(!error_case);
        match (suite_expectation(&name, error_case), got) {
            (Some(true), Err(e)) => {
                refused += 1;
                if std::env::var_os("YAML_SHOW_ERRORS").is_some() {
                    println!(
                        "{name} ({}): {e}",
                        fs::read_to_string(case.join("===")).unwrap().trim()
                    );
                }
            }
            (Some(true), Ok(_)) => failures.push(format!("{name}: accepted")),
            (Some(false), Ok(_)) => {}
            (Some(false), Err(e)) => failures.push(format!("{name}: kubectl reads it: {e}")),
            (None, got) => {
                let want = fs::read_to_string(case.join("test.event")).unwrap();
                match got {
                    Ok(g) if g == want => valid_ok += 1,
                    Ok(g) => failures.push(format!(
                        "{name}: events differ\n--- want\n{want}--- got\n{g}"
                    )),
                    Err(e) => failures.push(format!("{name}: rejected: {e}")),
                }
            }
        }
    }
    for f in &failures {
        println!("{f}");
    }
    println!(
        "refused {refused} (error cases and valid ones kubectl refuses), event streams equal {valid_ok}/{valid}"
    );
    assert!(failures.is_empty(), "{failures:?}");
    assert_eq!((errors, valid), (94, 308));
    let kubectl_refuses = VALID_KUBECTL_REFUSES.len();
    assert_eq!(refused, 94 - ERRORS_KUBECTL_READS.len() + kubectl_refuses);
    assert_eq!(
        valid_ok,
        308 - kubectl_refuses - VALID_KUBECTL_READS_OTHERWISE.len()
    );
}

/// Every prefix of every suite input, and each input with bytes replaced by
/// YAML's special characters: the parser ends with events or an error, and
/// never panics or loops (the iterator is drained to its end).
#[test]
fn no_panic_on_truncated_or_mutated_input() {
    const SPECIAL: &[u8] = b"-?:,[]{}#&*!|>'\"%@` \t\n\r\\";
    let mut runs = 0;
    for case in cases() {
        let input = fs::read(case.join("in.yaml")).unwrap();
        for end in 0..=input.len() {
            drain(&input[..end]);
            runs += 1;
        }
        let mut flipped = input.clone();
        for (k, i) in (0..input.len()).step_by(7).enumerate() {
            flipped[i] = SPECIAL[k % SPECIAL.len()];
            drain(&flipped);
            flipped[i] = input[i];
            runs += 1;
        }
    }
    assert!(runs > 20_000, "{runs}");
}

/// Reads all events; at most one error, and it ends the stream.
fn drain(input: &[u8]) {
    let mut parser = Parser::new(input, 64);
    let mut n = 0;
    while let Some(e) = parser.next() {
        n += 1;
        assert!(n < 16 * input.len() + 16, "no progress");
        if let Ok(SyntaxEvent {
            kind: Kind::Scalar { scalar, .. },
            ..
        }) = e
        {
            // Decoding never fails; the queries agree with it.
            let mut text = String::new();
            for piece in scalar.pieces() {
                match piece {
                    Piece::Run(r) => text.push_str(r),
                    Piece::Char(c) => text.push(c),
                }
            }
            assert_eq!(scalar.is_empty(), text.is_empty());
            assert_eq!(scalar.has_line_feed(), text.contains('\n'));
            if let Some(s) = scalar.as_str() {
                assert_eq!(s, text);
            }
        }
        if e.is_err() {
            assert!(parser.next().is_none());
            return;
        }
    }
}

/// Comments and blank lines, with exact text, offsets and whether they
/// follow content, in input order among the other events.
#[test]
fn comments_and_blank_lines_in_order() {
    let input = "# head\n\
                 \n\
                 a: 1 # after a\n\
                 b:   # after b:\n\
                 \x20 # own line, indented\n\
                 \x20 - x\n\
                 \n\
                 \x20 - y #y\n\
                 c: |  # header\n\
                 \x20 # not a comment\n\
                 \n\
                 d: [1, # in flow\n\
                 \x20  2]\n\
                 #tail\n";
    let mut got = Vec::new();
    for e in parse(input.as_bytes()).unwrap() {
        let line = match e.kind {
            Kind::Comment { text, trailing } => format!(
                "{} #{text}{}",
                e.at,
                if trailing { " (trailing)" } else { "" }
            ),
            Kind::BlankLine => format!("{} blank", e.at),
            _ => match render(&e) {
                Some(r) => r,
                None => continue,
            },
        };
        got.push(line);
    }
    let at = |s: &str| input.find(s).unwrap();
    let want = [
        "+STR".to_string(),
        "0 # head".to_string(),
        "7 blank".to_string(),
        "+DOC".to_string(),
        "+MAP".to_string(),
        "=VAL :a".to_string(),
        "=VAL :1".to_string(),
        format!("{} # after a (trailing)", at("# after a")),
        "=VAL :b".to_string(),
        format!("{} # after b: (trailing)", at("# after b")),
        format!("{} # own line, indented", at("# own")),
        "+SEQ".to_string(),
        "=VAL :x".to_string(),
        format!("{} blank", at("  - x\n") + 6),
        "=VAL :y".to_string(),
        format!("{} #y (trailing)", at("#y")),
        "-SEQ".to_string(),
        "=VAL :c".to_string(),
        "=VAL |# not a comment\\n".to_string(),
        format!("{} # header (trailing)", at("# header")),
        format!("{} blank", at("\n\nd:") + 1),
        "=VAL :d".to_string(),
        "+SEQ []".to_string(),
        "=VAL :1".to_string(),
        format!("{} # in flow (trailing)", at("# in flow")),
        "=VAL :2".to_string(),
        "-SEQ".to_string(),
        format!("{} #tail", at("#tail")),
        "-MAP".to_string(),
        "-DOC".to_string(),
        "-STR".to_string(),
    ];
    assert_eq!(got, want);
}

/// Over every suite input: each comment event points at a `#` and carries
/// the rest of its line; comments come in input order.
#[test]
fn suite_comments_are_exact() {
    let mut comments = 0;
    for case in cases() {
        let input = fs::read(case.join("in.yaml")).unwrap();
        let Ok(events) = parse(&input) else { continue };
        let mut last = None;
        for e in events {
            if let Kind::Comment { text, .. } = e.kind {
                assert_eq!(input[e.at], b'#', "{}", case.display());
                let rest = &input[e.at + 1..];
                let eol = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                let line = rest[..eol].strip_suffix(b"\r").unwrap_or(&rest[..eol]);
                assert_eq!(text.as_bytes(), line, "{}", case.display());
                assert!(last < Some(e.at), "{}", case.display());
                last = Some(e.at);
                comments += 1;
            }
        }
    }
    assert!(comments > 100, "{comments}");
}

/// The decoded text of a scalar.
fn text_of(scalar: &super::scalar::Scalar<'_>) -> String {
    let mut text = String::new();
    for piece in scalar.pieces() {
        match piece {
            Piece::Run(r) => text.push_str(r),
            Piece::Char(c) => text.push(c),
        }
    }
    text
}

/// A test oracle only: a plain scalar read by the YAML 1.2 core schema
/// (the real resolution lives elsewhere), as JSON.
fn core_schema(s: &str) -> serde_json::Value {
    use serde_json::Value;
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        _ => {}
    }
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(i) = s.parse::<i64>() {
            return Value::from(i);
        }
        if let Ok(u) = s.trim_start_matches('+').parse::<u64>() {
            return Value::from(u);
        }
    }
    if let Some(h) = s.strip_prefix("0x") {
        if let Ok(u) = u64::from_str_radix(h, 16) {
            return Value::from(u);
        }
    }
    if let Some(o) = s.strip_prefix("0o") {
        if let Ok(u) = u64::from_str_radix(o, 8) {
            return Value::from(u);
        }
    }
    let float = {
        let (mant, exp) = match digits.find(['e', 'E']) {
            Some(e) => (&digits[..e], Some(&digits[e + 1..])),
            None => (digits, None),
        };
        let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
        let all_digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
        (!int.is_empty() || !frac.is_empty())
            && all_digits(int)
            && all_digits(frac)
            && (mant.contains('.') || exp.is_some())
            && exp.is_none_or(|e| {
                let e = e.strip_prefix(['-', '+']).unwrap_or(e);
                !e.is_empty() && all_digits(e)
            })
    };
    if float {
        if let Some(n) = s.parse::<f64>().ok().and_then(serde_json::Number::from_f64) {
            return Value::Number(n);
        }
    }
    Value::String(s.to_string())
}

/// Test oracle: the documents of `input` as JSON values (core schema,
/// aliases expanded), or the error.
fn documents(input: &[u8]) -> Result<Vec<serde_json::Value>, String> {
    use serde_json::{Map, Value};
    use std::collections::HashMap;
    enum Open {
        Seq(Vec<Value>, Option<String>),
        Map(Map<String, Value>, Option<String>, Option<String>),
    }
    let mut docs = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut anchors: HashMap<String, Value> = HashMap::new();
    for e in Parser::new(input, MAX_DEPTH) {
        let e = e.map_err(|f| f.locate(input, None).to_string())?;
        let (value, anchor) = match e.kind {
            Kind::SequenceStart { props, .. } => {
                stack.push(Open::Seq(Vec::new(), props.anchor.map(str::to_string)));
                continue;
            }
            Kind::MappingStart { props, .. } => {
                stack.push(Open::Map(
                    Map::new(),
                    None,
                    props.anchor.map(str::to_string),
                ));
                continue;
            }
            Kind::SequenceEnd | Kind::MappingEnd => match stack.pop() {
                Some(Open::Seq(v, a)) => (Value::Array(v), a),
                Some(Open::Map(m, _, a)) => (Value::Object(m), a),
                None => return Err("unbalanced".into()),
            },
            Kind::Scalar { props, scalar } => {
                let text = text_of(&scalar);
                let tag = props.tag.map(|t| t.chars().collect::<String>());
                let v = match (tag.as_deref(), scalar.style()) {
                    (Some("tag:yaml.org,2002:str"), _) => Value::String(text),
                    (
                        Some(
                            "tag:yaml.org,2002:int"
                            | "tag:yaml.org,2002:float"
                            | "tag:yaml.org,2002:bool"
                            | "tag:yaml.org,2002:null",
                        ),
                        _,
                    ) => core_schema(&text),
                    (None, Style::Plain) => core_schema(&text),
                    _ => Value::String(text),
                };
                (v, props.anchor.map(str::to_string))
            }
            Kind::Alias { name } => (anchors.get(name).cloned().ok_or("unknown alias")?, None),
            _ => continue,
        };
        if let Some(a) = anchor {
            anchors.insert(a, value.clone());
        }
        match stack.last_mut() {
            None => docs.push(value),
            Some(Open::Seq(v, _)) => v.push(value),
            Some(Open::Map(m, key, _)) => match key.take() {
                None => {
                    *key = Some(match value {
                        Value::String(s) => s,
                        Value::Null => "null".to_string(),
                        other => other.to_string(),
                    })
                }
                Some(k) => {
                    m.insert(k, value);
                }
            },
        }
    }
    Ok(docs)
}

/// Numbers equal by value (an integer-valued float equals the integer; a
/// float within an ulp or two, as serde_json's fast float parsing is not
/// always correctly rounded).
fn same_data(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x == y
                || x.as_f64().zip(y.as_f64()).is_some_and(|(x, y)| {
                    x == y || (x - y).abs() <= 4.0 * f64::EPSILON * x.abs().max(y.abs())
                })
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_data(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_data(v, w)))
        }
        _ => a == b,
    }
}

/// Every valid suite case with an `in.json` reads as that data (under a
/// test-only core-schema reading of plain scalars).
#[test]
fn suite_data_equals_in_json() {
    let (mut total, mut equal) = (0, 0);
    let mut failures = Vec::new();
    for case in cases() {
        let name = case_name(&case);
        if case.join("error").exists()
            || !case.join("in.json").exists()
            || VALID_KUBECTL_REFUSES.contains(&name.as_str())
            || VALID_KUBECTL_READS_OTHERWISE.contains(&name.as_str())
        {
            continue;
        }
        total += 1;
        let input = fs::read(case.join("in.yaml")).unwrap();
        let json = fs::read_to_string(case.join("in.json")).unwrap();
        let want: Vec<serde_json::Value> = serde_json::Deserializer::from_str(&json)
            .into_iter()
            .map(Result::unwrap)
            .collect();
        match documents(&input) {
            Ok(got)
                if got.len() == want.len()
                    && got.iter().zip(&want).all(|(a, b)| same_data(a, b)) =>
            {
                equal += 1
            }
            got => failures.push(format!("{}: {got:?}", case.display())),
        }
    }
    for f in &failures {
        println!("{f}");
    }
    println!("in.json cases equal {equal}/{total}");
    assert_eq!(equal, total);
}

/// The block-style renderings of the bench corpus read as their JSON files.
/// With `--release --nocapture` it also prints the parse speed.
#[test]
fn bench_yaml_reads_as_its_json() {
    let Some(dir) = crate::sweep::bench_data() else {
        return;
    };
    for name in ["twitter", "citm_catalog", "canada", "k8s_swagger"] {
        let yaml = fs::read(dir.join(format!("{name}.yaml"))).unwrap();
        let json: serde_json::Value =
            serde_json::from_slice(&fs::read(dir.join(format!("{name}.json"))).unwrap()).unwrap();
        let docs = documents(&yaml).unwrap();
        assert_eq!(docs.len(), 1, "{name}");
        assert!(
            same_data(&docs[0], &json),
            "{name}: {:?}",
            first_difference(&docs[0], &json)
        );
        // Events and every scalar decoded, no tree: the parser's own cost,
        // the fastest of a few runs (the machine is shared).
        let mut secs = f64::MAX;
        let mut pieces = 0usize;
        for _ in 0..5 {
            let start = std::time::Instant::now();
            pieces = 0;
            for e in Parser::new(&yaml, MAX_DEPTH) {
                if let Kind::Scalar { scalar, .. } = e.unwrap().kind {
                    pieces += scalar.pieces().count();
                }
            }
            secs = secs.min(start.elapsed().as_secs_f64());
        }
        println!(
            "{name}.yaml: {} bytes, {pieces} pieces, {:.0} MB/s",
            yaml.len(),
            yaml.len() as f64 / secs / 1e6
        );
    }
}

/// Where two values first differ (for failure messages).
fn first_difference(a: &serde_json::Value, b: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    match (a, b) {
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (a, b))| first_difference(a, b).map(|d| format!("[{i}]{d}"))),
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
            x.iter().find_map(|(k, v)| match y.get(k) {
                Some(w) => first_difference(v, w).map(|d| format!(".{k}{d}")),
                None => Some(format!(".{k} missing")),
            })
        }
        _ if same_data(a, b) => None,
        _ => Some(format!(": {a} vs {b}")),
    }
}

/// The error of `input`, as (kind, offset).
fn error_of(input: &[u8]) -> Option<(crate::ErrorKind, usize)> {
    Parser::new(input, MAX_DEPTH)
        .find_map(Result::err)
        .map(|f| {
            let e = f.locate(input, None);
            (e.kind(), e.offset())
        })
}

/// Nesting past the depth limit is an error in every kind of collection,
/// never a stack overflow; at the limit it reads.
#[test]
fn nesting_past_the_depth_limit_is_an_error() {
    let deep = MAX_DEPTH + 1;
    let flow_seq = "[".repeat(deep) + &"]".repeat(deep);
    let flow_map = "{a: ".repeat(deep) + &"}".repeat(deep);
    let pairs = "[a: ".repeat(deep) + &"]".repeat(deep);
    let block_seq = "- ".repeat(deep) + "x\n";
    let mut block_map = String::new();
    for i in 0..deep {
        block_map.push_str(&" ".repeat(i));
        block_map.push_str("a:\n");
    }
    for input in [&flow_seq, &flow_map, &pairs, &block_seq, &block_map] {
        let err = error_of(input.as_bytes());
        assert_eq!(
            err.map(|e| e.0),
            Some(crate::ErrorKind::TooDeep),
            "{}",
            &input[..20]
        );
    }
    let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
    assert_eq!(error_of(ok.as_bytes()), None);
    let ok = "- ".repeat(MAX_DEPTH) + "x\n";
    assert_eq!(error_of(ok.as_bytes()), None);
}

/// An implicit key holds at most 1024 characters (counted as characters,
/// not bytes); a longer one is an error at its `:`.
#[test]
fn implicit_keys_hold_at_most_1024_characters() {
    for (key, ok) in [
        ("k".repeat(1024), true),
        ("k".repeat(1025), false),
        ("é".repeat(1024), true),
        ("é".repeat(1025), false),
        (format!("\"{}\"", "k".repeat(1022)), true),
        (format!("\"{}\"", "k".repeat(1023)), false),
    ] {
        let block = format!("{key}: v\n");
        let flow = format!("[{key}: v]\n");
        for input in [block, flow] {
            match error_of(input.as_bytes()) {
                None => assert!(ok, "{} accepted", key.len()),
                Some((kind, at)) => {
                    assert!(!ok, "{} refused", key.len());
                    assert_eq!(kind, crate::ErrorKind::Syntax);
                    assert_eq!(at, input.find(": v").unwrap(), "{}", key.len());
                }
            }
        }
    }
}

/// Large and hostile inputs read to their end with the right events:
/// a long plain line, a 20 MB literal block scalar, 200,000 keys, a long
/// one-line run of nested flow sequences (each entry's key lookahead stops
/// at 4 KiB), a long multi-line plain scalar.
#[test]
fn large_inputs_read_through() {
    let count = |input: &[u8]| {
        let mut n = 0usize;
        for e in Parser::new(input, MAX_DEPTH) {
            if let Kind::Scalar { scalar, .. } = e.unwrap().kind {
                n += scalar.pieces().count();
            }
        }
        n
    };
    let long_plain = format!("k: {}\n", "word ".repeat(2_000_000).trim_end());
    assert_eq!(count(long_plain.as_bytes()), 2);
    let line = "0123456789".repeat(10);
    let block = format!("k: |\n{}", format!("  {line}\n").repeat(200_000));
    // The key, then a run and a line feed per line.
    assert_eq!(count(block.as_bytes()), 1 + 2 * 200_000);
    let mut keys = String::new();
    for i in 0..200_000 {
        keys.push_str(&format!("key{i}: {i}\n"));
    }
    assert_eq!(count(keys.as_bytes()), 400_000);
    let nested = "[".repeat(4000) + &"]".repeat(4000);
    let nested = format!(
        "[{}]\n",
        std::iter::repeat_n(nested.as_str(), 50)
            .collect::<Vec<_>>()
            .join(", ")
    );
    assert_eq!(count(nested.as_bytes()), 0);
    let folded = format!("k: {}\n", "word\n ".repeat(1_000_000));
    // Words joined by folding spaces.
    assert_eq!(count(folded.as_bytes()), 1 + 1_000_000 + (1_000_000 - 1));
}

/// Every manifest of tests/data/corpus-yaml reads as the documents kubectl
/// reads from it (tests/data/corpus-yaml-data.jsonl), under the test-only
/// core-schema oracle; files where the two schemas read a plain scalar
/// differently would be failures (there are none). Its README counts 1,192
/// comments as a YAML scanner sees them: so does the parser.
#[test]
fn corpus_yaml_reads_as_kubectl_reads_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let lines = fs::read_to_string(root.join("corpus-yaml-data.jsonl")).unwrap();
    let (mut total, mut equal, mut comments) = (0, 0, 0);
    let mut failures = Vec::new();
    for line in lines.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let path = record["path"].as_str().unwrap();
        let want = record["documents"].as_array().unwrap();
        let input = fs::read(root.join("corpus-yaml").join(path)).unwrap();
        total += 1;
        comments += parse(&input)
            .unwrap()
            .iter()
            .filter(|e| matches!(e.kind, Kind::Comment { .. }))
            .count();
        match documents(&input) {
            Ok(got) => {
                // kubectl skips empty documents.
                let got: Vec<_> = got.into_iter().filter(|d| !d.is_null()).collect();
                if got.len() == want.len() && got.iter().zip(want).all(|(a, b)| same_data(a, b)) {
                    equal += 1;
                } else {
                    let diff = got
                        .iter()
                        .zip(want)
                        .find_map(|(a, b)| first_difference(a, b));
                    failures.push(format!(
                        "{path}: {} vs {} documents, {diff:?}",
                        got.len(),
                        want.len()
                    ));
                }
            }
            Err(e) => failures.push(format!("{path}: {e}")),
        }
    }
    for f in &failures {
        println!("{f}");
    }
    println!("corpus files equal {equal}/{total}, {comments} comments");
    assert_eq!((equal, total), (238, 238));
    assert_eq!(comments, 1192);
}

/// CRLF line breaks read like LF ones: every valid suite case, its line
/// feeds turned into CR LF, gives the same events (a scalar's line breaks
/// decode to line feeds); every error case stays an error.
#[test]
fn crlf_reads_like_lf() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in cases() {
        let input = fs::read_to_string(case.join("in.yaml")).unwrap();
        if input.contains('\r') {
            continue;
        }
        let crlf = input.replace('\n', "\r\n");
        let got = events_text(crlf.as_bytes());
        let name = case_name(&case);
        match suite_expectation(&name, case.join("error").exists()) {
            Some(refused) => {
                if got.is_err() != refused {
                    failures.push(format!("{name}: {got:?}"));
                }
            }
            None => {
                let want = fs::read_to_string(case.join("test.event")).unwrap();
                if got.as_ref() != Ok(&want) {
                    failures.push(format!("{name}: {got:?}"));
                }
            }
        }
        checked += 1;
    }
    for f in &failures {
        println!("{f}");
    }
    assert!(failures.is_empty(), "{} of {checked}", failures.len());
    assert!(checked > 390, "{checked}");
}

/// Random documents built from YAML's significant pieces (a fixed-seed
/// generator, so failures repeat): every one ends in events or one error,
/// never a panic or a hang, and its scalars decode as their queries say.
#[test]
fn no_panic_on_random_yaml_shaped_input() {
    const PIECES: &[&str] = &[
        "- ",
        ": ",
        ":",
        "\n",
        "  ",
        " ",
        "[",
        "]",
        "{",
        "}",
        ", ",
        "#c",
        " #c",
        "'",
        "''",
        "\"",
        "\\",
        "\\n",
        "\\x4",
        "|",
        "|-",
        ">+2",
        "&a ",
        "*a",
        "!t ",
        "!!str ",
        "!<x> ",
        "? ",
        "---",
        "...",
        "a",
        "key",
        "1",
        "\t",
        "\r\n",
        "%YAML 1.2",
        "%TAG !e! p:",
        "\n  ",
        "\n    ",
        "é",
    ];
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut errors = 0;
    for _ in 0..20_000 {
        let len = (next() % 40) as usize;
        let doc: String = (0..len)
            .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
            .collect();
        drain(doc.as_bytes());
        errors += usize::from(error_of(doc.as_bytes()).is_some());
    }
    // Most are errors, some are not: both paths were taken.
    assert!(errors > 10_000 && errors < 20_000, "{errors}");
}

/// The YAML inputs the attachment of comments is held to: every case of
/// the yaml-test-suite, every file of tests/data/corpus-yaml and, in a full
/// sweep, of the fmt corpus (../shared/corpus-yaml, when present), and every `yaml` of the
/// tests' JSON-lines vectors.
fn attachment_inputs() -> Vec<(String, Vec<u8>)> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out: Vec<(String, Vec<u8>)> = cases()
        .iter()
        .map(|c| (case_name(c), fs::read(c.join("in.yaml")).unwrap()))
        .collect();
    let mut dirs = std::vec![manifest.join("tests/data/corpus-yaml")];
    dirs.extend(crate::sweep::shared("corpus-yaml"));
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let yaml = path.extension().is_some_and(|e| e == "yaml" || e == "yml");
            if path.is_dir() {
                dirs.push(path);
            } else if yaml {
                out.push((path.display().to_string(), fs::read(&path).unwrap()));
            }
        }
    }
    for vectors in [
        "yaml-comments.jsonl",
        "yaml-inputs.jsonl",
        "yaml-data.jsonl",
    ] {
        let text = fs::read_to_string(manifest.join("tests/data").join(vectors)).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            if let Some(yaml) = record["yaml"].as_str() {
                let name = format!("{vectors}: {}", record["name"]);
                out.push((name, yaml.as_bytes().to_vec()));
            }
        }
    }
    out
}

/// Slots are the items' running sequence numbers, and attachment never
/// makes a record behind the horizon it reported (`Attach::horizon`):
/// reading every attachment input with the debug check on
/// (`Attach::release` after each syntax event) proves that the reader
/// may give out the items and records before the horizon as soon
/// as it moves. Also with CR LF line breaks.
#[test]
#[cfg(debug_assertions)]
fn no_record_is_placed_behind_the_horizon() {
    let inputs = attachment_inputs();
    assert!(inputs.len() > 1500, "only {} inputs", inputs.len());
    let mut comments = 0;
    for (name, input) in &inputs {
        let crlf = String::from_utf8_lossy(input).replace('\n', "\r\n");
        for input in [&input[..], crlf.as_bytes()] {
            let loaded = std::panic::catch_unwind(|| {
                use crate::scan::{Event, Source};
                let schema = crate::scan::resolve::Schema::Kubectl;
                let mut stream = super::stream::StreamSource::new(input, schema, MAX_DEPTH, None);
                let mut records = 0;
                while let Ok(true) = stream.next_document() {
                    while let Ok(Some(event)) = stream.next_event() {
                        records += usize::from(matches!(event, Event::Trivia(_)));
                    }
                }
                records
            });
            match loaded {
                Ok(records) => comments += records,
                Err(_) => panic!("{name}: a record behind the horizon"),
            }
        }
    }
    assert!(comments > 10_000, "only {comments} records");
}

/// What a reader gives out over a whole stream, written down: every
/// document's preamble, events with position and depth, each list's
/// first-element answer, emptiness, what `peek_document` says, the error.
macro_rules! transcript {
    ($src:expr, $keys:expr) => {{
        let src = &mut $src;
        let mut out = Vec::new();
        loop {
            match src.next_document() {
                Ok(true) => {}
                Ok(false) => {
                    while let Some(t) = src.preamble() {
                        out.push(format!("tail {t:?}"));
                    }
                    break;
                }
                Err(e) => {
                    out.push(format!("error between {e:?}"));
                    break;
                }
            }
            out.push(format!("document at {}", src.pos()));
            while let Some(t) = src.preamble() {
                out.push(format!("preamble {t:?}"));
            }
            let (mut failed, mut keys) = (false, 0);
            loop {
                let line = match src.next_event() {
                    Ok(None) => break,
                    Ok(Some(event)) => format!("{event:?}"),
                    Err(e) => {
                        out.push(format!("error {e:?}"));
                        failed = true;
                        break;
                    }
                };
                out.push(format!("{line} {} {}", src.pos(), src.depth()));
                if line.starts_with("ListStart") {
                    out.push(format!("first {}", src.list_starts_with_container()));
                }
                // Each key reads the document again: only the first ones.
                if line.starts_with("Key") && keys < 20 {
                    keys += 1;
                    let key = $keys(&*src, src.pos());
                    out.push(format!("key_at {key}"));
                }
            }
            if failed {
                break;
            }
            out.push(format!("empty {}", src.document_is_empty()));
            out.push(format!("peek {:?}", src.peek_document()));
        }
        out
    }};
}

/// What the YAML reader gives out over every committed attachment input
/// (and its CR LF form), under both schemas, is what the stored digests
/// say (`tests/data/yaml-transcripts.txt`): each document's events with
/// positions, depths, list answers and the first keys read again, its
/// emptiness, what comes after it, and the warnings noted. The digests
/// were stored by the build that had two readers (the streaming one, and
/// the loading one for input with a merge key), whose transcripts the
/// differential test above held equal: they hold the one reader left to
/// both.
#[test]
fn the_reader_gives_out_the_stored_transcripts() {
    use super::stream::{Noted, StreamSource};
    use crate::scan::resolve::Schema;
    use crate::scan::{AsText, Source};
    use std::cell::RefCell;
    use std::rc::Rc;
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = manifest.join("../shared").display().to_string();
    let mut got = Vec::new();
    for (name, input) in attachment_inputs() {
        if name.starts_with(&shared) {
            continue;
        }
        let name = name.replace(&format!("{}/", manifest.display()), "");
        let crlf = String::from_utf8_lossy(&input).replace('\n', "\r\n");
        for (form, input) in [("lf", &input[..]), ("crlf", crlf.as_bytes())] {
            for schema in [Schema::Kubectl, Schema::Yaml12] {
                let (lines, warnings) = reader_transcript(input, schema);
                let text = format!("{}\nwarnings {warnings}\n", lines.join("\n"));
                got.push((format!("{name} {form} {schema:?}"), text));
            }
        }
    }
    assert!(got.len() > 4000, "only {} transcripts", got.len());
    crate::stored::hold_to_digests("yaml-transcripts.txt", &got);
    // Every map held as if it held a merge key, given out from the keep
    // arena by the held map's walk: the same transcripts.
    super::stream::HOLD_ALL.with(|all| all.set(true));
    let mut differ = Vec::new();
    for (name, input) in attachment_inputs() {
        let crlf = String::from_utf8_lossy(&input).replace('\n', "\r\n");
        for input in [&input[..], crlf.as_bytes()] {
            let (all, _) = reader_transcript(input, Schema::Kubectl);
            super::stream::HOLD_ALL.with(|all| all.set(false));
            let (some, _) = reader_transcript(input, Schema::Kubectl);
            super::stream::HOLD_ALL.with(|all| all.set(true));
            if all != some {
                let at = all.iter().zip(&some).position(|(a, b)| a != b);
                let at = at.unwrap_or(all.len().min(some.len()));
                differ.push(format!(
                    "{name}: line {at}: held {:?}, not {:?}\n{}",
                    all.get(at),
                    some.get(at),
                    String::from_utf8_lossy(input)
                ));
            }
        }
    }
    super::stream::HOLD_ALL.with(|all| all.set(false));
    assert!(
        differ.is_empty(),
        "{} differ; first: {}",
        differ.len(),
        differ[0]
    );

    /// The transcript of the reader that reads `input`, and the warnings
    /// it noted.
    fn reader_transcript(input: &[u8], schema: Schema) -> (Vec<String>, String) {
        let noted = Rc::new(RefCell::new(Noted::default()));
        let mut stream = StreamSource::new(input, schema, MAX_DEPTH, Some(noted.clone()));
        let lines = transcript!(stream, |s: &StreamSource<'_>, p| {
            s.key_at(p).as_text().chars().collect::<String>()
        });
        let warnings = format!("{:?}", noted.borrow().warnings);
        (lines, warnings)
    }
}

/// Every token the scanner gives for `input`, up to the stream's end or
/// the first error, with the fast paths on or off.
fn tokens(input: &[u8], fast: bool) -> Vec<Result<super::token::Token<'_>, crate::error::Fault>> {
    use super::scanner::{Scanner, SLOW_PATHS_ONLY};
    SLOW_PATHS_ONLY.with(|slow| slow.set(!fast));
    let mut scanner = Scanner::new(input, MAX_DEPTH);
    let mut out = Vec::new();
    loop {
        let tok = scanner.peek().copied();
        scanner.bump();
        let end = !matches!(tok, Ok(t) if t.kind != super::token::Tok::StreamEnd);
        out.push(tok);
        if end || out.len() > 1_000_000 {
            break;
        }
    }
    SLOW_PATHS_ONLY.with(|slow| slow.set(false));
    out
}

fn same_tokens_fast_and_slow(input: &[u8]) {
    assert_eq!(
        tokens(input, true),
        tokens(input, false),
        "{:?}",
        String::from_utf8_lossy(input)
    );
}

/// The inputs the fast paths are held to their slow paths on: every suite
/// case and benchmark file, and block lines around a key's `:` and an
/// entry's `-` with every byte value inserted or replaced at every
/// position, and every prefix.
fn fast_path_inputs(mut check: impl FnMut(&[u8])) {
    for case in cases() {
        check(&fs::read(case.join("in.yaml")).unwrap());
    }
    if let Some(data) = crate::sweep::bench_data() {
        for name in ["twitter", "citm_catalog", "canada", "k8s_swagger"] {
            check(&fs::read(data.join(format!("{name}.yaml"))).unwrap());
        }
    }
    let bases: [&[u8]; 22] = [
        b"a:\n  b: \"c\"\n  d: 'e'\nf: \"g\\\"h\"\n",
        b"- a: \"b\r c\"\n- d: 'e\n f'\n",
        b"a:\n  b:\n    c: \"d\\q\"\ne: 'f''g'\n",
        b"a:\n  b:\n    c: d\ne: f\n",
        b"- - 1\n  - 2\n- 3\n",
        b"a:\n- b\n- c: d\n  e: f\ng: h\n",
        b"a: b\r\nc:\r\n  - d\r\n",
        b"- a: b\r c\n- d\n",
        b"a:\n  b:\n    c:\n      d: e\n  f: g\nh: i\n",
        b"ab: cd\nef: gh\n",
        b"- 1\n- -2\n- - a\n",
        b"a: -1\n- b: c\n",
        b"ab: c\n d\xc2\x85e: f\n",
        b"ab: - c\n",
        b"ab: ? c\n",
        b"a:\n  bc: d\n  e: f\n",
        b"- ab: c\n  de: f\n",
        b"&x ab: c\n!t d: e\n",
        b"a:\n  - b: c\n    d: e\nf: g",
        b"ab: cd\n",
        b"{ab: cd}\n",
        b"ab:\tc\n",
    ];
    for base in bases {
        for at in 0..=base.len() {
            for b in 0..=255u8 {
                let mut inserted = base.to_vec();
                inserted.insert(at, b);
                check(&inserted);
                if at < base.len() {
                    let mut replaced = base.to_vec();
                    replaced[at] = b;
                    check(&replaced);
                }
            }
            check(&base[..at]);
        }
    }
}

/// The scanner's fast paths against its slow paths: the same tokens and
/// errors on every [`fast_path_inputs`] input.
#[test]
fn fast_paths_give_the_slow_paths_tokens() {
    fast_path_inputs(same_tokens_fast_and_slow);
}

/// Every event the parser gives for `input`, up to the stream's end or
/// the first error, with the fast paths (the scanner's and the parser's)
/// on or off.
fn events(input: &[u8], fast: bool) -> Vec<Result<SyntaxEvent<'_>, crate::error::Fault>> {
    use super::scanner::SLOW_PATHS_ONLY;
    SLOW_PATHS_ONLY.with(|slow| slow.set(!fast));
    let out = Parser::new(input, MAX_DEPTH).collect();
    SLOW_PATHS_ONLY.with(|slow| slow.set(false));
    out
}

/// The parser's fast paths (and the scanner's) against the slow paths:
/// the same events and errors on every [`fast_path_inputs`] input.
#[test]
fn fast_paths_give_the_slow_paths_events() {
    fast_path_inputs(|input| {
        assert_eq!(
            events(input, true),
            events(input, false),
            "{:?}",
            String::from_utf8_lossy(input)
        );
    });
}

/// Only a map with a key written `<<` is held (`stream::merge_maps`),
/// wherever the `<<` falls in the 16-byte blocks of the byte search: one
/// in a string, a comment, a value or after the parser's first error
/// holds nothing, and neither do anchors and aliases.
#[test]
fn only_a_map_with_a_key_written_merge_is_held() {
    use super::stream::merge_maps;
    for pad in 0..40 {
        let lead = "x".repeat(pad);
        for (tail, held) in [
            ("", false),
            ("a: <", false),
            ("a: a < b <c", false),
            ("<<: {a: 1}", true),
            ("a: <<", false),
            ("- [b, <<]", false),
            ("a: '<<'", false),
            ("a: !!merge <<", false),
            ("? &m <<\n: {a: 1}", true),
            ("a: cat <<EOF", false),
            ("a: cat << EOF", false),
            ("a: cat <<'EOF'", false),
            ("a: <<-EOF", false),
            ("<<", false),
            ("<<\r\n", false),
            ("{<<: {a: 1}}", true),
            ("[<<,a]", false),
            ("- a: \"<<\"", false),
            ("- \"<<\": {a: 1}", true),
            ("a: {!!merge '<<': {b: 1}}", true),
            ("a: <<<", false),
            ("a: x <<\t# <<", false),
            ("a: \"x << y\"", false),
            ("a: |\n  <<\n", false),
            ("a: 1 # <<", false),
            ("a: < <<", false),
            ("a: x<<", false),
            ("&", false),
            ("*", false),
            ("a: &x <x< *a", false),
            ("]\n<<: {a: 1}", false),
        ] {
            let input = format!("# {lead}\n{tail}\n# {lead}\n");
            assert_eq!(merge_maps(input.as_bytes()).is_some(), held, "{input:?}");
        }
    }
    for (input, held) in [
        ("\u{feff}<<: {a: 1}", &[0][..]),
        ("{\"a\":<<}", &[]),
        ("<<", &[]),
        (
            "a: {b: 1}\nc:\n  d: [{e: 1}]\n  <<: {f: 1}\n  g: {<<: {}}\n",
            &[2, 5],
        ),
        ("- {<<: {}}\n---\n- {a: {}}\n- {<<: {}}\n", &[0, 4]),
    ] {
        let got = merge_maps(input.as_bytes());
        assert_eq!(got.as_deref().unwrap_or_default(), held, "{input:?}");
    }
}

/// The parse-only count of the bench (`Options::yaml_syntax_events`) is
/// the parser's events, comments and blank lines included, on every
/// suite case; an invalid input gives the parser's first error.
#[test]
fn syntax_events_counts_the_parsers_events() {
    let yaml = crate::Options::new().input(crate::Input::Yaml);
    assert_eq!(
        yaml.yaml_syntax_events("a: 1 # c\n\n- b\n")
            .map_err(|e| e.offset()),
        Err(10)
    );
    assert_eq!(
        yaml.yaml_syntax_events("a: 1 # c\n\nb: [x]\n").ok(),
        Some(14)
    );
    for case in cases() {
        let input = fs::read(case.join("in.yaml")).unwrap();
        let counted = yaml.yaml_syntax_events(&input).map_err(|e| e.to_string());
        let parsed = parse(&input).map(|events| events.len());
        assert_eq!(counted, parsed, "{}", case_name(&case));
    }
}
