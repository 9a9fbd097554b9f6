//! Hunk headers' context: the KYAML path of a line of a regular rendering,
//! worked out from the rendering's text alone.
//!
//! The crate's own regular output has a fixed line grammar, which this
//! walker follows line by line, keeping a stack of the open containers:
//!
//! - `---` starts a document (the stack empties, the document count rises);
//! - a line is two spaces per level of indentation, then either a closer
//!   (`}`, `]`, `}]`, each maybe with `,`; or `}, {`, which closes one element
//!   of a cuddled list and opens the next), or a member `KEY: VALUE` inside a
//!   map (`KEY` bare, up to the first `": "`, or double-quoted; `? KEY: VALUE`
//!   for an explicit key), or an element `VALUE` inside a list or at the top;
//! - `VALUE` opens a map (`{`), a list (`[`), a cuddled list and its first
//!   map (`[{`), or a folded string (`"\`), or is complete on its line;
//! - a folded string's lines after the first belong to it, whatever they
//!   hold, for as long as the line before ends in an odd number of `\`
//!   (an escaped line break; `\\` is an escaped backslash).
//!
//! A path is the keys and list indices from the top: `spec.containers[0].image`,
//! with keys that are not plain identifiers quoted as JSON strings in
//! brackets: `metadata.labels["app.kubernetes.io/name"]`. A line's path is
//! that of the member or element it starts (for `key: [{`, the member);
//! a closing line's is that of the container it closes (for `}, {`, the
//! element it opens). Lines the grammar does not expect (a rendering of
//! invalid input) never panic; they leave the path as it was.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

/// An open container: a map or a list, where its path ends in `path`, and
/// for a list the index its next element gets.
struct Frame {
    map: bool,
    len: usize,
    next: usize,
}

/// Walks a rendering's lines in order and says the path at any of them.
pub(crate) struct PathWalker<'a> {
    rest: &'a str,
    /// The number of the next line to read (0-based).
    line: usize,
    stack: Vec<Frame>,
    /// The path of the innermost open container, plus scratch past it.
    path: String,
    /// Documents started so far (`---` lines).
    documents: usize,
    /// Inside a folded string: the line before ended in an escaped break.
    folded: bool,
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
        }
    }

    /// The path of line `target` (0-based), and the number of its document
    /// (1-based; 0 before any `---`). Targets must not decrease from call to
    /// call; a target past the end gives the path where the text ends.
    pub(crate) fn path_at(&mut self, target: usize) -> (&str, usize) {
        let mut here = self.path.len();
        while self.line <= target && !self.rest.is_empty() {
            let (line, rest) = match self.rest.find('\n') {
                Some(i) => (&self.rest[..i], &self.rest[i + 1..]),
                None => (self.rest, ""),
            };
            self.rest = rest;
            let last = self.line == target;
            self.line += 1;
            here = self.step(line);
            if last {
                break;
            }
        }
        (self.path.get(..here).unwrap_or(""), self.documents)
    }

    /// The path length of the innermost open container.
    fn top(&self) -> usize {
        self.stack.last().map_or(0, |f| f.len)
    }

    /// Reads one line; returns the length of its path in `self.path`.
    fn step(&mut self, line: &str) -> usize {
        let folded = self.folded;
        self.folded = ends_in_escaped_break(line);
        if folded {
            // A folded string's body: the path of its owner, kept in `path`.
            return self.path.len();
        }
        if line == "---" {
            self.stack.clear();
            self.path.clear();
            self.documents += 1;
            return 0;
        }
        let body = line.trim_start_matches(' ');
        self.path.truncate(self.top());
        if body.starts_with('}') || body.starts_with(']') {
            return self.close(body);
        }
        let in_map = self.stack.last().is_some_and(|f| f.map);
        let value = if in_map {
            let body = body.strip_prefix("? ").unwrap_or(body);
            let (key, value) = split_key(body);
            push_key(&mut self.path, key);
            value
        } else {
            if let Some(frame) = self.stack.last_mut() {
                let index = frame.next;
                frame.next += 1;
                let _ = write!(self.path, "[{index}]");
            }
            body
        };
        let here = self.path.len();
        self.open(value);
        if self.folded {
            // Keep the owner's path while the string's lines go by.
            self.path.truncate(here);
        }
        here
    }

    /// Pushes the containers `value` opens (`{`, `[`, `[{`).
    fn open(&mut self, value: &str) {
        let value = value.strip_suffix(',').unwrap_or(value);
        match value {
            "{" => self.push(true),
            "[" => self.push(false),
            "[{" => {
                self.push(false);
                if let Some(frame) = self.stack.last_mut() {
                    frame.next = 1;
                }
                self.path.push_str("[0]");
                self.push(true);
            }
            _ => {}
        }
    }

    fn push(&mut self, map: bool) {
        self.stack.push(Frame {
            map,
            len: self.path.len(),
            next: 0,
        });
    }

    /// A closing line: `}`, `]`, `}]`, `}, {`, each maybe with `,`.
    fn close(&mut self, body: &str) -> usize {
        let here = self.top();
        let mut chars = body.chars();
        while let Some(c) = chars.next() {
            match c {
                '}' | ']' => {
                    self.stack.pop();
                }
                ',' => {}
                ' ' if chars.as_str() == "{" => {
                    // `}, {`: the next element of a cuddled list opens.
                    if let Some(frame) = self.stack.last_mut() {
                        let index = frame.next;
                        frame.next += 1;
                        self.path.truncate(frame.len);
                        let _ = write!(self.path, "[{index}]");
                    }
                    self.push(true);
                    break;
                }
                _ => break,
            }
        }
        self.path
            .truncate(self.top().max(here).min(self.path.len()));
        here.min(self.path.len())
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

    #[test]
    fn every_vector_and_corpus_line_gets_a_path_without_panicking() {
        // The conformance vectors' regular renderings: each non-closing line
        // of a map member must end its path with that member's key.
        for file in ["values", "escapes", "keys", "regressions"] {
            let data = std::fs::read_to_string(alloc::format!(
                "{}/tests/data/{file}.jsonl",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap();
            for case in data.lines() {
                let Some(regular) = field(case, "regular") else {
                    continue;
                };
                let _ = paths(&regular);
            }
        }
    }

    /// The JSON string field `name` of a one-line JSON object, decoded.
    fn field(line: &str, name: &str) -> Option<String> {
        let key = alloc::format!("\"{name}\": ");
        let start = line.find(&key)? + key.len();
        let json = crate::scan::Tokenizer::new(line.as_bytes(), start, 10).at(start);
        let mut json = json;
        match json.next_event() {
            Ok(Some(crate::scan::Event::Str(text))) => Some(text.chars().collect()),
            _ => None,
        }
    }
}
