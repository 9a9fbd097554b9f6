//! Hunk headers' context: the KYAML path of a line of a regular rendering,
//! worked out from the rendering's text alone.
//!
//! The crate's own regular output has a fixed line grammar, which this
//! walker follows line by line, keeping a stack of the open containers:
//!
//! - `---` starts a document (the stack empties, the document count rises);
//! - a line is two spaces per level of indentation, then, inside a map and
//!   unless the line starts with a closer, a key: bare up to the first
//!   `": "`, or double-quoted, or after `? ` (an explicit key); then a run
//!   of brackets and values separated by `,` and spaces: `{` and `[` open a
//!   container, `}` and `]` close one, `{}` and `[]` are empty values, and
//!   anything else is a scalar that ends the line. Cuddled lists make runs
//!   such as `[{`, `}, {`, `[[{`, `}], [`, `[[], {}],`;
//! - a line that is blank or starts with `#` (a comment, from YAML input)
//!   holds no value, and `#` after a line's values starts a comment;
//! - a scalar that is `"\` alone starts a folded string: the lines after it
//!   belong to the string, whatever they hold, for as long as the line
//!   before ends in an odd number of `\` (an escaped line break; `\\` is
//!   an escaped backslash).
//!
//! A path is the keys and list indices from the top: `spec.containers[0].image`,
//! with keys that are not identifiers in brackets and quotes:
//! `metadata.labels["app.kubernetes.io/name"]` (a key the rendering quotes
//! keeps the rendering's escapes). A line's path is that of the first value
//! it starts (for `key: [{`, the member `key`; for `}, {`, the next
//! element), or else of the first container it closes, or else of the
//! innermost open container; a folded string's lines have the string's
//! path. Lines the grammar does not expect (a rendering of invalid input)
//! never panic. A test checks the walker against
//! the tokenizer's own paths on every conformance vector and corpus file,
//! and against the YAML reader's on the YAML comment vectors and corpus.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

/// An open container: a map or a list, where its path ends in `path`, and
/// for a list the index its next element gets.
struct PathLevel {
    map: bool,
    len: usize,
    next: usize,
}

/// Walks a rendering's lines in order and says the path at any of them.
pub(crate) struct PathWalker<'a> {
    rest: &'a str,
    /// The number of the next line to read (0-based).
    line: usize,
    stack: Vec<PathLevel>,
    /// The path of the innermost open container, plus scratch past it.
    path: String,
    /// Documents started so far (`---` lines).
    documents: usize,
    /// Inside a folded string: the line before ended in an escaped break.
    folded: bool,
    /// The last path asked for.
    found: String,
}

impl<'a> PathWalker<'a> {
    /// A walker at the first line of `text`.
    pub(crate) fn new(text: &'a str) -> PathWalker<'a> {
        PathWalker {
            rest: text,
            line: 0,
            stack: Vec::new(),
            path: String::new(),
            documents: 0,
            folded: false,
            found: String::new(),
        }
    }

    /// The path of line `target` (0-based), and the number of its document
    /// (1-based; 0 before any `---`). Targets must not decrease from call to
    /// call; a target past the end gives the path where the text ends.
    pub(crate) fn path_at(&mut self, target: usize) -> (&str, usize) {
        while self.line <= target && !self.rest.is_empty() {
            let (line, rest) = match self.rest.find('\n') {
                Some(i) => (&self.rest[..i], &self.rest[i + 1..]),
                None => (self.rest, ""),
            };
            self.rest = rest;
            let last = self.line == target;
            self.line += 1;
            if last {
                let (mut start, mut close) = (None, None);
                self.step(line, &mut |path, starts| {
                    let slot = if starts { &mut start } else { &mut close };
                    if slot.is_none() {
                        *slot = Some(String::from(path));
                    }
                });
                // A line that starts and closes nothing (a comment, a blank
                // line): the innermost open container's path.
                let top = self.path.get(..self.top()).unwrap_or("");
                self.found = start.or(close).unwrap_or_else(|| String::from(top));
                return (&self.found, self.documents);
            }
            self.step(line, &mut |_, _| {});
        }
        self.found.clear();
        self.found.push_str(&self.path);
        (&self.found, self.documents)
    }

    /// The path length of the innermost open container.
    fn top(&self) -> usize {
        self.stack.last().map_or(0, |f| f.len)
    }

    /// Reads one line. Calls `seen(path, true)` for each value that starts
    /// on it (a folded string's later lines: its own), and `seen(path,
    /// false)` for each container it closes, in order.
    fn step(&mut self, line: &str, seen: &mut dyn FnMut(&str, bool)) {
        if self.folded {
            // A folded string's body; the path still ends at its owner.
            self.folded = ends_in_escaped_break(line);
            seen(&self.path, true);
            return;
        }
        self.path.truncate(self.top());
        if line == "---" {
            self.stack.clear();
            self.path.clear();
            self.documents += 1;
            seen("", true);
            return;
        }
        let mut rest = line.trim_start_matches(' ');
        if rest.is_empty() || rest.starts_with('#') {
            return; // a blank line or a comment line
        }
        // Whether the next value is a map member's (it then takes no index).
        let mut keyed = false;
        if self.stack.last().is_some_and(|f| f.map) && !rest.starts_with(['}', ']']) {
            let body = rest.strip_prefix("? ").unwrap_or(rest);
            let (key, value) = split_key(body);
            push_key(&mut self.path, key);
            rest = value;
            keyed = true;
        }
        loop {
            rest = rest.trim_start_matches([' ', ',']);
            let Some(&first) = rest.as_bytes().first() else {
                return;
            };
            match first {
                b'#' => return, // a comment after the line's values
                b'}' | b']' => {
                    seen(self.path.get(..self.top()).unwrap_or(""), false);
                    self.stack.pop();
                    self.path.truncate(self.top());
                    rest = &rest[1..];
                }
                b'{' | b'[' => {
                    if !keyed {
                        self.begin_element();
                    }
                    keyed = false;
                    seen(&self.path, true);
                    let empty = if first == b'{' { "{}" } else { "[]" };
                    if let Some(after) = rest.strip_prefix(empty) {
                        self.path.truncate(self.top());
                        rest = after;
                    } else {
                        self.stack.push(PathLevel {
                            map: first == b'{',
                            len: self.path.len(),
                            next: 0,
                        });
                        rest = &rest[1..];
                    }
                }
                _ => {
                    // A scalar: the rest of the line, or a folded string's start.
                    if !keyed {
                        self.begin_element();
                    }
                    seen(&self.path, true);
                    // A folded string starts with `"\` alone on the line.
                    self.folded = rest == "\"\\";
                    return;
                }
            }
        }
    }

    /// A value starts in the innermost container: in a list, its index
    /// joins the path.
    fn begin_element(&mut self) {
        if let Some(frame) = self.stack.last_mut() {
            if !frame.map {
                let index = frame.next;
                frame.next += 1;
                let _ = write!(self.path, "[{index}]");
            }
        }
    }
}

/// Splits `key: value` (bare key up to the first `": "`, or a double-quoted
/// key); a line without a key gives it all as the key.
fn split_key(body: &str) -> (&str, &str) {
    let end = if body.starts_with('"') {
        let bytes = body.as_bytes();
        let mut i = 1;
        while i < bytes.len() && bytes[i] != b'"' {
            i += if bytes[i] == b'\\' { 2 } else { 1 };
        }
        (i + 1).min(body.len())
    } else {
        body.find(": ").unwrap_or(body.len())
    };
    let (key, rest) = body.split_at(end);
    (key, rest.strip_prefix(": ").unwrap_or(rest))
}

/// Appends `.key`, or `["key"]` when the key is not a plain identifier
/// (a quoted key keeps its KYAML quoting, which is JSON's for any key that
/// the renderer quotes).
fn push_key(path: &mut String, key: &str) {
    let plain = key
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if plain {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
    } else if key.starts_with('"') {
        path.push('[');
        path.push_str(key);
        path.push(']');
    } else {
        path.push_str("[\"");
        for c in key.chars() {
            if c == '"' || c == '\\' {
                path.push('\\');
            }
            path.push(c);
        }
        path.push_str("\"]");
    }
}

/// Whether `line` ends in an odd number of backslashes: an escaped line
/// break, so the next line continues a folded string.
fn ends_in_escaped_break(line: &str) -> bool {
    line.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1
}

/// The conformance vector files, listed once for the unit tests here and the
/// integration tests.
#[cfg(test)]
#[path = "../../tests/common/vectors.rs"]
mod vectors;

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// The path of every line of `text`.
    fn paths(text: &str) -> Vec<String> {
        let mut walker = PathWalker::new(text);
        (0..text.lines().count())
            .map(|i| String::from(walker.path_at(i).0))
            .collect()
    }

    #[test]
    fn paths_of_a_deployment() {
        let json = r#"{"kind": "Deployment", "metadata": {"labels": {"app.kubernetes.io/name": "web", "on": "x"}},
            "spec": {"replicas": 2, "template": {"spec": {"containers": [{"name": "web", "image": "nginx:1",
            "args": ["-a", "b\nc"], "env": [{"name": "A"}, {"name": "B"}]}, {"name": "side"}]}}}}"#;
        let text = crate::Options::new().to_string(json).unwrap();
        let got = paths(&text);
        let lines: Vec<&str> = text.lines().collect();
        let pairs: Vec<(&str, &str)> = lines
            .iter()
            .copied()
            .zip(got.iter().map(|s| s.as_str()))
            .collect();
        assert_eq!(
            pairs,
            vec![
                ("---", ""),
                ("{", ""),
                ("  kind: \"Deployment\",", "kind"),
                ("  metadata: {", "metadata"),
                ("    labels: {", "metadata.labels"),
                (
                    "      app.kubernetes.io/name: \"web\",",
                    "metadata.labels[\"app.kubernetes.io/name\"]"
                ),
                ("      \"on\": \"x\",", "metadata.labels[\"on\"]"),
                ("    },", "metadata.labels"),
                ("  },", "metadata"),
                ("  spec: {", "spec"),
                ("    replicas: 2,", "spec.replicas"),
                ("    template: {", "spec.template"),
                ("      spec: {", "spec.template.spec"),
                ("        containers: [{", "spec.template.spec.containers"),
                (
                    "          name: \"web\",",
                    "spec.template.spec.containers[0].name"
                ),
                (
                    "          image: \"nginx:1\",",
                    "spec.template.spec.containers[0].image"
                ),
                ("          args: [", "spec.template.spec.containers[0].args"),
                (
                    "            \"-a\",",
                    "spec.template.spec.containers[0].args[0]"
                ),
                (
                    "            \"\\",
                    "spec.template.spec.containers[0].args[1]"
                ),
                (
                    "               b\\n\\",
                    "spec.template.spec.containers[0].args[1]"
                ),
                (
                    "               c\\",
                    "spec.template.spec.containers[0].args[1]"
                ),
                (
                    "              \",",
                    "spec.template.spec.containers[0].args[1]"
                ),
                ("          ],", "spec.template.spec.containers[0].args"),
                ("          env: [{", "spec.template.spec.containers[0].env"),
                (
                    "            name: \"A\",",
                    "spec.template.spec.containers[0].env[0].name"
                ),
                ("          }, {", "spec.template.spec.containers[0].env[1]"),
                (
                    "            name: \"B\",",
                    "spec.template.spec.containers[0].env[1].name"
                ),
                ("          }],", "spec.template.spec.containers[0].env[1]"),
                ("        }, {", "spec.template.spec.containers[1]"),
                (
                    "          name: \"side\",",
                    "spec.template.spec.containers[1].name"
                ),
                ("        }],", "spec.template.spec.containers[1]"),
                ("      },", "spec.template.spec"),
                ("    },", "spec.template"),
                ("  },", "spec"),
                ("}", ""),
            ]
        );
    }

    #[test]
    fn folded_lines_that_look_like_keys_are_not_keys() {
        let json = r#"{"a": "x: {\n  b: [\n\\", "c": ["y\n", 1]}"#;
        let text = crate::Options::new().to_string(json).unwrap();
        let got = paths(&text);
        let lines: Vec<&str> = text.lines().collect();
        for (line, path) in lines.iter().zip(&got) {
            if line.ends_with("1,") {
                assert_eq!(path, "c[1]");
            }
        }
        assert_eq!(got.last().map(String::as_str), Some(""));
        assert!(got[2..7].iter().all(|p| p == "a"), "{lines:?} {got:?}");
    }

    #[test]
    fn any_text_walks_without_panicking() {
        // Lines of the grammar's characters in random order: not KYAML.
        let alphabet = [
            '{', '}', '[', ']', ',', ' ', ':', '"', '\\', '?', '-', 'a', 'é', '\n',
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            let text: String = (0..seed % 60)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    alphabet[(seed % alphabet.len() as u64) as usize]
                })
                .collect();
            let mut walker = PathWalker::new(&text);
            for line in 0..text.lines().count() + 1 {
                let _ = walker.path_at(line);
            }
        }
    }

    #[test]
    fn quoted_and_explicit_keys() {
        let long = "k".repeat(1100);
        let json = alloc::format!(r#"{{"a b": {{"{long}": [1], "x\"y": 2}}}}"#);
        let text = crate::Options::new().to_string(&json).unwrap();
        let got = paths(&text);
        assert_eq!(got[3], alloc::format!("[\"a b\"].{long}"));
        assert_eq!(got[4], alloc::format!("[\"a b\"].{long}[0]"));
        assert_eq!(got[6], "[\"a b\"][\"x\\\"y\"]");
    }

    #[test]
    fn documents_are_counted_and_targets_can_be_skipped() {
        let text = "---\n[\n  1,\n]\n---\n{\n  a: 2,\n}\n";
        let mut walker = PathWalker::new(text);
        assert_eq!(walker.path_at(2), ("[0]", 1));
        assert_eq!(walker.path_at(6), ("a", 2));
        assert_eq!(walker.path_at(99), ("", 2));
    }

    /// One step of a path: a key (decoded) or a list index.
    #[derive(Clone, Debug, PartialEq)]
    enum Seg {
        Key(String),
        Index(usize),
    }

    /// The oracle: the path of every value of each document of `json`, in
    /// document order, from the tokenizer's events.
    fn value_paths(input: &str, opts: crate::Options) -> Vec<Vec<Seg>> {
        use crate::scan::{StreamSource, Tokenizer};
        match opts.input_language() {
            crate::Input::Json => {
                value_paths_of(&mut Tokenizer::new(input.as_bytes(), 0, opts.depth_limit()))
            }
            crate::Input::Yaml => {
                let (schema, depth) = (opts.yaml_schema(), opts.depth_limit());
                value_paths_of(&mut StreamSource::new(
                    input.as_bytes(),
                    schema,
                    depth,
                    None,
                ))
            }
        }
    }

    fn value_paths_of<'a, S: crate::scan::Source<'a>>(tokens: &mut S) -> Vec<Vec<Seg>> {
        use crate::scan::Event;
        let mut out = Vec::new();
        while tokens.next_document().unwrap() {
            // Per open container: the path to it, and for a list the next index.
            let mut stack: Vec<(Vec<Seg>, Option<usize>)> = Vec::new();
            let mut key: Option<String> = None;
            while let Some(event) = tokens.next_event().unwrap() {
                let path = |stack: &mut Vec<(Vec<Seg>, Option<usize>)>,
                            key: &mut Option<String>| {
                    let Some((base, index)) = stack.last_mut() else {
                        return Vec::new();
                    };
                    let mut path = base.clone();
                    match index {
                        Some(i) => {
                            path.push(Seg::Index(*i));
                            *i += 1;
                        }
                        None => path.push(Seg::Key(key.take().unwrap())),
                    }
                    path
                };
                match event {
                    Event::Trivia(_) => {}
                    Event::Key(text) => key = Some(text.chars().collect()),
                    Event::MapEnd | Event::ListEnd => {
                        stack.pop();
                    }
                    Event::MapStart | Event::ListStart => {
                        let here = path(&mut stack, &mut key);
                        out.push(here.clone());
                        let list = matches!(event, Event::ListStart).then_some(0);
                        stack.push((here, list));
                    }
                    _ => out.push(path(&mut stack, &mut key)),
                }
            }
        }
        out
    }

    /// Parses a walker path back into steps, undoing KYAML's escapes.
    fn parse_path(path: &str) -> Vec<Seg> {
        let mut out = Vec::new();
        let mut rest = path;
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix("[\"") {
                let mut key = String::new();
                let mut chars = r.char_indices();
                let end = loop {
                    let (i, c) = chars.next().expect("unterminated key");
                    match c {
                        '"' => break i,
                        '\\' => {
                            let (_, e) = chars.next().unwrap();
                            let hex = |n: usize, chars: &mut core::str::CharIndices| {
                                let digits: String =
                                    (0..n).map(|_| chars.next().unwrap().1).collect();
                                char::from_u32(u32::from_str_radix(&digits, 16).unwrap()).unwrap()
                            };
                            key.push(match e {
                                '0' => '\0',
                                'a' => '\u{7}',
                                'b' => '\u{8}',
                                't' => '\t',
                                'n' => '\n',
                                'v' => '\u{b}',
                                'f' => '\u{c}',
                                'r' => '\r',
                                'e' => '\u{1b}',
                                'N' => '\u{85}',
                                '_' => '\u{a0}',
                                'L' => '\u{2028}',
                                'P' => '\u{2029}',
                                'x' => hex(2, &mut chars),
                                'u' => hex(4, &mut chars),
                                'U' => hex(8, &mut chars),
                                other => other,
                            });
                        }
                        c => key.push(c),
                    }
                };
                out.push(Seg::Key(key));
                rest = r[end + 1..].strip_prefix(']').expect("no ] after a key");
            } else if let Some(r) = rest.strip_prefix('[') {
                let end = r.find(']').unwrap();
                out.push(Seg::Index(r[..end].parse().unwrap()));
                rest = &r[end + 1..];
            } else {
                let r = rest.strip_prefix('.').unwrap_or(rest);
                let end = r.find(['.', '[']).unwrap_or(r.len());
                out.push(Seg::Key(String::from(&r[..end])));
                rest = &r[end..];
            }
        }
        out
    }

    /// The walker against the oracle on `json`'s regular rendering: the
    /// paths of the values the lines start, each the first time it
    /// appears, are exactly the values' paths in order. Returns the lines
    /// checked.
    fn check_against_oracle(json: &str) -> usize {
        check_against_oracle_as(json, crate::Options::new())
    }

    fn check_against_oracle_as(input: &str, opts: crate::Options) -> usize {
        let Ok(text) = opts.to_string(input) else {
            return 0;
        };
        let expected = value_paths(input, opts);
        let mut seen = std::collections::HashSet::new();
        let mut walker = PathWalker::new(&text);
        let mut got = Vec::new();
        let mut document = 0;
        for line in text.lines() {
            let mut starts = Vec::new();
            walker.step(line, &mut |path, start| {
                if start {
                    starts.push(String::from(path));
                }
            });
            if walker.documents != document {
                // Each document starts afresh (its root is seen again).
                document = walker.documents;
                seen.clear();
            }
            for path in starts {
                if seen.insert(path.clone()) {
                    got.push(parse_path(&path));
                }
            }
        }
        let lines = text.lines().count();
        let mut want = expected.iter();
        for path in &got {
            let next = want
                .next()
                .unwrap_or_else(|| panic!("extra path {path:?} in\n{text}"));
            assert_eq!(next, path, "in\n{text}");
        }
        assert_eq!(want.next(), None, "paths missing in\n{text}");
        lines
    }

    #[test]
    fn paths_agree_with_the_tokenizer_on_every_vector_and_corpus_file() {
        let root = env!("CARGO_MANIFEST_DIR");
        let mut lines = 0;
        for (file, _) in super::vectors::VECTOR_FILES {
            let data =
                std::fs::read_to_string(alloc::format!("{root}/tests/data/{file}.jsonl")).unwrap();
            for case in data.lines() {
                lines += check_against_oracle(&field(case, "json").unwrap());
            }
        }
        assert!(lines > 700, "{lines}");
        if let Some(data) = crate::sweep::bench_data() {
            for file in ["twitter", "citm_catalog", "canada", "k8s_swagger"] {
                let json = std::fs::read_to_string(data.join(alloc::format!("{file}.json")));
                assert!(check_against_oracle(&json.unwrap()) > 10_000);
            }
        }
    }

    #[test]
    fn paths_agree_with_the_yaml_source_on_yaml_with_comments() {
        // The comment vectors and the YAML corpus files: their renderings
        // hold comment lines, blank lines and comments after values.
        let root = env!("CARGO_MANIFEST_DIR");
        let yaml = crate::Options::new().input(crate::Input::Yaml);
        let (mut lines, mut comments) = (0, 0);
        let data = std::fs::read_to_string(alloc::format!("{root}/tests/data/yaml-comments.jsonl"))
            .unwrap();
        let mut inputs: Vec<String> = data
            .lines()
            .filter_map(|case| field(case, "yaml"))
            .collect();
        let mut dirs = vec![std::path::PathBuf::from(alloc::format!(
            "{root}/tests/data/corpus-yaml"
        ))];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "yaml") {
                    inputs.push(std::fs::read_to_string(path).unwrap());
                }
            }
        }
        for input in &inputs {
            lines += check_against_oracle_as(input, yaml);
            let text = yaml.to_string(input).unwrap_or_default();
            comments += text.lines().filter(|l| l.contains('#')).count();
        }
        assert!(
            inputs.len() > 500 && lines > 10_000 && comments > 1_000,
            "{} {lines} {comments}",
            inputs.len()
        );
    }

    #[test]
    fn paths_agree_with_the_tokenizer_on_awkward_keys_and_strings() {
        for json in [
            r#"{"a\nb": {"x.y": ["\u0007", {"\u00a0": "m\nn"}], "": [[], {}]}, "é": [{"k": 1}, [2], {"k": "a\\\nb"}]}"#,
            r#"[{"a": [{"b": [{"c": "\n"}]}]}, {"d": "x"}]"#,
            r#"{"\\": {"\"": "\\\n"}, "e5": 1, "? a": {"a: b": 2}}"#,
            "[\"x\\n\", \"y\"]\n{\"z\": [\"q\\n\"]}",
        ] {
            assert!(check_against_oracle(json) > 3, "{json}");
        }
    }

    /// The JSON string field `name` of a one-line JSON object, decoded.
    fn field(line: &str, name: &str) -> Option<String> {
        let key = alloc::format!("\"{name}\": ");
        let start = line.find(&key)? + key.len();
        use crate::scan::Source;
        let mut json = crate::scan::Tokenizer::new(line.as_bytes(), start, 10).at(start);
        match json.next_event() {
            Ok(Some(crate::scan::Event::Str(text))) => Some(text.chars().collect()),
            _ => None,
        }
    }
}
