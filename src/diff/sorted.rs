//! Unordered maps: the input rewritten as compact JSON with every map's
//! members sorted by decoded key, so that key order alone is never a
//! difference. The one place that reads input events for the diff: through
//! the [`Source`] trait and [`Text`] decoding, so JSON and YAML input alike.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

use crate::options::{Input, Options};
use crate::scan::{load_yaml, Event, Source, Text, Tokenizer, YamlSource};

/// One token of the input, in document order.
enum InputToken<'a> {
    /// `{` or `[`, and the index of its closing token.
    Open {
        map: bool,
        close: usize,
    },
    Close,
    Key(Text<'a>),
    Str(Text<'a>),
    /// A number, `true`, `false` or `null`, as JSON text.
    Scalar(&'a str),
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
            let loaded = load_yaml(input, opts.yaml_schema(), opts.depth_limit());
            sort_source(&mut YamlSource::new(&loaded), input.len())
        }
    }
}

/// [`sort_keys`] over any [`Source`].
fn sort_source<'a, S: Source<'a>>(source: &mut S, len: usize) -> Option<String> {
    let mut out = String::with_capacity(len);
    let mut list: Vec<InputToken<'a>> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    while source.next_document().ok()? {
        list.clear();
        while let Some(event) = source.next_event().ok()? {
            let token = match event {
                Event::MapStart | Event::ListStart => {
                    open.push(list.len());
                    InputToken::Open {
                        map: matches!(event, Event::MapStart),
                        close: 0,
                    }
                }
                Event::MapEnd | Event::ListEnd => {
                    let start = open.pop()?;
                    let close = list.len();
                    if let Some(InputToken::Open { close: c, .. }) = list.get_mut(start) {
                        *c = close;
                    }
                    InputToken::Close
                }
                Event::Key(text) => InputToken::Key(text),
                Event::Str(text) => InputToken::Str(text),
                Event::Number { text, .. } => InputToken::Scalar(text),
                Event::Bool(true) => InputToken::Scalar("true"),
                Event::Bool(false) => InputToken::Scalar("false"),
                Event::Null => InputToken::Scalar("null"),
                Event::Trivia(_) => continue,
            };
            list.push(token);
        }
        if !out.is_empty() {
            out.push('\n');
        }
        write_sorted(&list, &mut out)?;
    }
    Some(out)
}

/// Writes the decoded string of `text` as a JSON string.
fn write_json_string(out: &mut String, text: &Text<'_>) {
    out.push('"');
    let needs_escape = |c: char| c == '"' || c == '\\' || c < ' ';
    match text.as_plain() {
        Some(plain) if !plain.contains(needs_escape) => out.push_str(plain),
        _ => {
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

/// Writes the document in `tokens` with sorted maps; `None` on a duplicate key.
fn write_sorted(tokens: &[InputToken<'_>], out: &mut String) -> Option<()> {
    let mut stack: Vec<SortedContainer> = Vec::new();
    // The next value to write, if any, before going back to the stack.
    let mut next = Some(0);
    loop {
        if let Some(at) = next.take() {
            match tokens.get(at)? {
                InputToken::Open { map: true, close } => {
                    out.push('{');
                    let keys = sorted_members(tokens, at + 1, *close)?;
                    stack.push(SortedContainer::Map(keys, 0));
                }
                InputToken::Open { map: false, close } => {
                    out.push('[');
                    stack.push(SortedContainer::List(at + 1, *close));
                }
                InputToken::Str(text) => write_json_string(out, text),
                InputToken::Scalar(text) => out.push_str(text),
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
                    let Some(InputToken::Key(text)) = tokens.get(key) else {
                        return None;
                    };
                    write_json_string(out, text);
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
fn after(tokens: &[InputToken<'_>], at: usize) -> usize {
    match tokens.get(at) {
        Some(InputToken::Open { close, .. }) => close + 1,
        _ => at + 1,
    }
}

/// The key indices of the map whose members lie in `tokens[start..close]`,
/// sorted by decoded key; `None` if two keys are equal.
fn sorted_members(tokens: &[InputToken<'_>], start: usize, close: usize) -> Option<Vec<usize>> {
    let mut keys = Vec::new();
    let mut at = start;
    while at < close {
        keys.push(at);
        at = after(tokens, at + 1);
    }
    let text = |i: usize| match tokens.get(i) {
        Some(InputToken::Key(text)) => Some(*text),
        _ => None,
    };
    keys.sort_by(|&x, &y| match (text(x), text(y)) {
        (Some(x), Some(y)) => x.cmp_decoded(&y),
        _ => core::cmp::Ordering::Equal,
    });
    for pair in keys.windows(2) {
        if let (Some(x), Some(y)) = (text(pair[0]), text(pair[1])) {
            if x.decodes_same(&y) {
                return None;
            }
        }
    }
    Some(keys)
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
