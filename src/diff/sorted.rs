//! Unordered maps: the input rewritten as compact JSON with every map's
//! members sorted by decoded key, so that key order alone is never a
//! difference. The one place that reads input events for the diff: through
//! the [`Source`] trait and [`Text`] decoding, so JSON and YAML input alike.
//! A source lends each event's text only until the next, and sorting needs
//! the whole document: the decoded texts are copied into one `String`
//! (the diff holds its inputs whole anyway).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;
use core::ops::Range;

use crate::options::{Input, Options};
use crate::scan::{Event, Source, StreamSource, Text, Tokenizer};

/// One token of the input, in document order. Texts are ranges of the
/// document's decoded texts ([`Document::texts`]).
enum InputToken {
    /// `{` or `[`, and the index of its closing token.
    Open {
        map: bool,
        close: usize,
    },
    Close,
    /// A key, decoded.
    Key(Range<usize>),
    /// A string value, decoded.
    Str(Range<usize>),
    /// A number, `true`, `false` or `null`, as JSON text.
    Scalar(Range<usize>),
}

/// The tokens of one document, and the texts they hold.
#[derive(Default)]
struct Document {
    tokens: Vec<InputToken>,
    texts: String,
}

impl Document {
    /// The range of `texts` that `push` appends.
    fn copy(&mut self, push: impl FnOnce(&mut String)) -> Range<usize> {
        let start = self.texts.len();
        push(&mut self.texts);
        start..self.texts.len()
    }

    /// The decoded text of the key or string at `at`, if it is one.
    fn text(&self, at: usize) -> Option<&str> {
        match self.tokens.get(at)? {
            InputToken::Key(range) | InputToken::Str(range) => self.texts.get(range.clone()),
            _ => None,
        }
    }

    /// The key at `at`, if it is one.
    fn key(&self, at: usize) -> Option<&str> {
        match self.tokens.get(at)? {
            InputToken::Key(_) => self.text(at),
            _ => None,
        }
    }
}

/// `input` (in the language `opts` names) as JSON with each map's members
/// sorted by key (code point order of the decoded keys; equal keys keep
/// their order), one compact JSON value per document, separated by line
/// feeds. `None` when the input is not valid (a syntax error, too deep, a
/// duplicate key, ...): the caller then renders the input as it is, which
/// reports the same error at its real position.
pub(crate) fn sort_keys(input: &[u8], opts: Options) -> Option<String> {
    match opts.input_language() {
        Input::Json => sort_source(
            &mut Tokenizer::new(input, 0, opts.depth_limit()),
            input.len(),
        ),
        Input::Yaml => {
            let (schema, depth) = (opts.yaml_schema(), opts.depth_limit());
            sort_source(
                &mut StreamSource::new(input, schema, depth, None),
                input.len(),
            )
        }
    }
}

/// [`sort_keys`] over any [`Source`].
fn sort_source<'a, S: Source<'a>>(source: &mut S, len: usize) -> Option<String> {
    let mut out = String::with_capacity(len);
    let mut doc = Document::default();
    let mut open: Vec<usize> = Vec::new();
    while source.next_document().ok()? {
        doc.tokens.clear();
        doc.texts.clear();
        while let Some(event) = source.next_event().ok()? {
            let token = match event {
                Event::MapStart | Event::ListStart => {
                    open.push(doc.tokens.len());
                    InputToken::Open {
                        map: matches!(event, Event::MapStart),
                        close: 0,
                    }
                }
                Event::MapEnd | Event::ListEnd => {
                    let start = open.pop()?;
                    let close = doc.tokens.len();
                    if let Some(InputToken::Open { close: c, .. }) = doc.tokens.get_mut(start) {
                        *c = close;
                    }
                    InputToken::Close
                }
                Event::Key(text) => InputToken::Key(doc.copy(|t| decode(&text, t))),
                Event::Str(text) => InputToken::Str(doc.copy(|t| decode(&text, t))),
                Event::Number { text, .. } => InputToken::Scalar(doc.copy(|t| t.push_str(text))),
                Event::Bool(b) => InputToken::Scalar(doc.copy(|t| {
                    t.push_str(if b { "true" } else { "false" });
                })),
                Event::Null => InputToken::Scalar(doc.copy(|t| t.push_str("null"))),
                Event::Trivia(_) => continue,
            };
            doc.tokens.push(token);
        }
        if !out.is_empty() {
            out.push('\n');
        }
        write_sorted(&doc, &mut out)?;
    }
    Some(out)
}

/// Appends the decoded string of `text` to `out`.
fn decode(text: &Text<'_>, out: &mut String) {
    match text.as_plain() {
        Some(plain) => out.push_str(plain),
        None => out.extend(text.chars()),
    }
}

/// Writes `text` as a JSON string.
fn write_json_string(out: &mut String, text: &str) {
    out.push('"');
    let needs_escape = |c: char| c == '"' || c == '\\' || c < ' ';
    match text.contains(needs_escape) {
        false => out.push_str(text),
        true => {
            for c in text.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    c if c < ' ' => {
                        let _ = write!(out, "\\u{:04x}", u32::from(c));
                    }
                    c => out.push(c),
                }
            }
        }
    }
    out.push('"');
}

/// What is left to write of one open container.
enum SortedContainer {
    /// The key indices of a map's members, sorted, and how many are written.
    Map(Vec<usize>, usize),
    /// The next element's index and the list's closing index.
    List(usize, usize),
}

/// Writes `doc` with sorted maps; `None` on a duplicate key.
fn write_sorted(doc: &Document, out: &mut String) -> Option<()> {
    let tokens = &doc.tokens;
    let mut stack: Vec<SortedContainer> = Vec::new();
    // The next value to write, if any, before going back to the stack.
    let mut next = Some(0);
    loop {
        if let Some(at) = next.take() {
            match tokens.get(at)? {
                InputToken::Open { map: true, close } => {
                    out.push('{');
                    let keys = sorted_members(doc, at + 1, *close)?;
                    stack.push(SortedContainer::Map(keys, 0));
                }
                InputToken::Open { map: false, close } => {
                    out.push('[');
                    stack.push(SortedContainer::List(at + 1, *close));
                }
                InputToken::Str(_) => write_json_string(out, doc.text(at)?),
                InputToken::Scalar(range) => out.push_str(doc.texts.get(range.clone())?),
                InputToken::Key(_) | InputToken::Close => return None,
            }
        }
        let Some(frame) = stack.last_mut() else {
            return Some(());
        };
        match frame {
            SortedContainer::Map(keys, done) => match keys.get(*done) {
                Some(&key) => {
                    if *done > 0 {
                        out.push(',');
                    }
                    *done += 1;
                    write_json_string(out, doc.key(key)?);
                    out.push(':');
                    next = Some(key + 1);
                }
                None => {
                    out.push('}');
                    stack.pop();
                }
            },
            SortedContainer::List(at, close) => {
                if *at < *close {
                    if !matches!(tokens.get(*at - 1), Some(InputToken::Open { .. })) {
                        out.push(',');
                    }
                    next = Some(*at);
                    *at = after(tokens, *at);
                } else {
                    out.push(']');
                    stack.pop();
                }
            }
        }
    }
}

/// The index just past the value starting at `at`.
fn after(tokens: &[InputToken], at: usize) -> usize {
    match tokens.get(at) {
        Some(InputToken::Open { close, .. }) => close + 1,
        _ => at + 1,
    }
}

/// The key indices of the map whose members lie in `tokens[start..close]`,
/// sorted by decoded key; `None` if two keys are equal.
/// Decoded keys compare as `str`s: UTF-8's byte order is code point order.
fn sorted_members(doc: &Document, start: usize, close: usize) -> Option<Vec<usize>> {
    let mut keys = Vec::new();
    let mut at = start;
    while at < close {
        keys.push(at);
        at = after(&doc.tokens, at + 1);
    }
    keys.sort_by(|&x, &y| doc.key(x).cmp(&doc.key(y)));
    match keys
        .windows(2)
        .any(|pair| doc.key(pair[0]) == doc.key(pair[1]))
    {
        true => None,
        false => Some(keys),
    }
}

#[cfg(test)]
mod tests {
    use super::sort_keys;
    use crate::{Input, Options};

    fn depth(n: usize) -> Options {
        Options::new().max_depth(n)
    }

    #[test]
    fn sorts_every_map_by_decoded_key_and_keeps_lists_in_order() {
        let json = r#"{"b": [3, {"z": 1, "\u0061": "x\n"}, 1], "a": {}, "é": null, "e": [[]]}"#;
        assert_eq!(
            sort_keys(json.as_bytes(), depth(1000)).unwrap(),
            r#"{"a":{},"b":[3,{"a":"x\u000a","z":1},1],"e":[[]],"é":null}"#
        );
    }

    #[test]
    fn streams_become_one_value_per_line() {
        assert_eq!(
            sort_keys(b"{\"b\":1,\"a\":2} [true, false] 1.5e3", depth(1000)).unwrap(),
            "{\"a\":2,\"b\":1}\n[true,false]\n1.5e3"
        );
        assert_eq!(sort_keys(b"  ", depth(1000)).unwrap(), "");
    }

    #[test]
    fn yaml_input_is_read_as_data() {
        let yaml = b"b: 1\na: [x, {d: \"q\\\"\", c: on}]\n---\nz: 0x1F\n";
        assert_eq!(
            sort_keys(yaml, Options::new().input(Input::Yaml)).unwrap(),
            "{\"a\":[\"x\",{\"c\":true,\"d\":\"q\\\"\"}],\"b\":1}\n{\"z\":31}"
        );
        assert_eq!(
            sort_keys(b"a: 1\na: 2\n", Options::new().input(Input::Yaml)),
            None
        );
    }

    #[test]
    fn invalid_input_gives_none() {
        for bad in [
            &b"{\"a\": 1, \"\\u0061\": 2}"[..],
            b"{\"a\": 1,}",
            b"[[[1]]]",
            b"\"\\ud800\"",
            b"[1] [",
        ] {
            assert_eq!(
                sort_keys(bad, depth(2)),
                None,
                "{:?}",
                core::str::from_utf8(bad)
            );
        }
    }
}
