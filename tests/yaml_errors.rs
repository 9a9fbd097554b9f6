//! Errors people can act on: each bad YAML input below is pinned to its
//! whole message, what is wrong and where (and, inside a quoted string or
//! a flow collection, where that opens: an unterminated `"` or an unclosed
//! `[` is named where it starts, not only where reading gave up).
//!
//! A changed message fails here: read it as a user would before updating
//! the table.

use kyaml::{Input, Options};

/// (input, `Error::to_string()`).
const CASES: &[(&str, &str)] = &[
    ("a: \"text\nb: 1\n", "expected '\"' closing the string (inside the string that opens at line 1, column 4) at line 3, column 1"),
    ("a: 'text\nb: 1\n", "expected \"'\" closing the string (inside the string that opens at line 1, column 4) at line 3, column 1"),
    ("a: \"x\n---\nb: 1\n", "expected the closing quote before a document marker (inside the string that opens at line 1, column 4) at line 2, column 1"),
    ("a: [1, 2\nb: 3\n", "expected ':' on the line where its key starts, as kubectl reads no key across lines in a flow collection (inside the flow collection that opens at line 1, column 4) at line 2, column 2"),
    ("a: [1, 2\n", "expected ',' or ']' (inside the flow collection that opens at line 1, column 4) at line 2, column 1"),
    ("a: {b: 1\n", "expected ',' or '}' (inside the flow collection that opens at line 1, column 4) at line 2, column 1"),
    ("a: {b: 1, c: [2\n", "expected ',' or ']' (inside the flow collection that opens at line 1, column 4) at line 2, column 1"),
    ("a: [1, {b: 2}\n", "expected ',' or ']' (inside the flow collection that opens at line 1, column 4) at line 2, column 1"),
    ("name: {{ .Values.name }}\n", "expected YAML, not a Go or Helm template: '{{' starts a template action, and kyaml reads YAML, not templates (render the template first, e.g. with `helm template`) at line 1, column 7"),
    ("{{- if .Values.enabled }}\na: 1\n{{- end }}\n", "expected YAML, not a Go or Helm template: '{{' starts a template action, and kyaml reads YAML, not templates (render the template first, e.g. with `helm template`) at line 1, column 1"),
    ("a: b: c\n", "expected a key before ':' (one line of at most 1024 characters, not after another key's ':') at line 1, column 5"),
    ("a: 1\n b: 2\n", "expected a key before ':' (one line of at most 1024 characters, not after another key's ':') at line 2, column 3"),
    ("- a\nb: 1\n", "expected '-' (a sequence entry) or less indentation at line 2, column 1"),
    ("a:\n  - x\n  y: 1\n", "expected '-' (a sequence entry) or less indentation at line 3, column 3"),
    ("a: 1\n\tb: 2\n", "expected indentation by spaces, not tabs at line 2, column 2"),
    ("a:\n\t- x\n", "expected indentation by spaces, not tabs at line 2, column 2"),
    ("key: value\n- item\n", "expected a key ('key: value') or less indentation at line 2, column 1"),
    ("a: \"\\q\"\n", "expected a YAML escape (\\n, \\t, \\\\, \\\", \\x41, \\u0041, ...) at line 1, column 5"),
    ("a: \"\\x4\"\n", "expected a YAML escape (\\n, \\t, \\\\, \\\", \\x41, \\u0041, ...) at line 1, column 5"),
    ("a: |0\n  x\n", "expected an indentation indicator from 1 to 9 at line 1, column 5"),
    ("a: | x\n  y\n", "expected a comment or line break after the block scalar header at line 1, column 6"),
    ("a: &\n", "expected an anchor name at line 1, column 5"),
    ("a: *\n", "expected an alias name at line 1, column 5"),
    ("a: *nope\n", "this alias names no anchor defined before it in the same document at line 1, column 4"),
    ("a: &x [*x]\n", "this alias is inside the node its anchor names, and a node that holds itself has no JSON form at line 1, column 8"),
    ("? [a]\n: 1\n", "a map or list as a key has no JSON form, and kubectl refuses it: write the key as a scalar at line 1, column 3"),
    ("{[a]: 1}\n", "a map or list as a key has no JSON form, and kubectl refuses it: write the key as a scalar at line 1, column 2"),
    ("~: 1\n", "a null key has no JSON form (a JSON key is a string), and kubectl refuses it at line 1, column 1"),
    ("a: ]\n", "expected a node, not a closing bracket at line 1, column 4"),
    ("a: }\n", "expected a node, not a closing bracket at line 1, column 4"),
    ("a: @x\n", "expected a node (this character cannot start one) at line 1, column 4"),
    ("a: `x`\n", "expected a node (this character cannot start one) at line 1, column 4"),
    ("a: x\u{1}y\n", "expected a printable character (kubectl refuses control characters anywhere; in a double-quoted string write an escape such as \\x7F) at line 1, column 5"),
    ("a: 1 # c\0\n", "expected a printable character (kubectl refuses control characters anywhere; in a double-quoted string write an escape such as \\x7F) at line 1, column 9"),
    ("a: \"x\u{7f}y\"\n", "expected a printable character (kubectl refuses control characters anywhere; in a double-quoted string write an escape such as \\x7F) at line 1, column 6"),
    ("a: x\u{2028}y\n", "expected more indentation, or ': ' after this key at line 1, column 6"),
    ("a: 1 # c\u{2028}d\n", "expected no NEL, U+2028 or U+2029 in a plain scalar or a comment (kubectl reads them as line breaks there; quote the text and write \\u2028) at line 1, column 9"),
    ("a: 'x\u{85}y'\n", "expected no NEL (U+0085) in a quoted string (kubectl folds it as a line break there; write \\N in a double-quoted string to keep it) (inside the string that opens at line 1, column 4) at line 1, column 6"),
    ("k: [http://x?a=b]\n", "expected a quoted string for text holding '?' in a flow collection (kubectl ends a plain scalar at '?' there and reads it as a key indicator) (inside the flow collection that opens at line 1, column 4) at line 1, column 13"),
    ("k: {\n  k\n  : v\n}\n", "expected ':' on the line where its key starts, as kubectl reads no key across lines in a flow collection (inside the flow collection that opens at line 1, column 4) at line 3, column 3"),
    ("a: [-c, - d]\n", "expected a node (this character cannot start one) (inside the flow collection that opens at line 1, column 4) at line 1, column 9"),
    ("a: \"x\"y\n", "expected a key ('key: value') or less indentation at line 1, column 7"),
    ("%YAML x\n---\na\n", "expected a version number (%YAML 1.2) at line 1, column 7"),
    ("%TAG ! \n---\na\n", "expected a tag prefix at line 1, column 8"),
    ("---\na\n... b\n", "expected a line break after '...' at line 3, column 5"),
    ("a: !<x\n", "expected '>' closing a verbatim tag at line 1, column 7"),
    ("a: !x!\n", "expected a tag name after the handle at line 1, column 7"),
    ("a: !!str%zz x\n", "expected two hex digits after '%' in a tag at line 1, column 9"),
    ("<<: 1\n", "a merge key `<<` takes a map, an alias of a map, or a list of those, and this value is none of them at line 1, column 5"),
    ("a: !!binary \"%%%\"\n", "this !!binary value is not base64 of UTF-8 text at line 1, column 4"),
    ("a: .inf\n", "kubectl refuses infinity and NaN (JSON has no such number); quote it to keep the string at line 1, column 4"),
    ("a: 1\na: 2\n", "duplicate key \"a\" (first at line 1, column 1) at line 2, column 1"),
    ("- [\n- x\n", "expected a node (this character cannot start one) (inside the flow collection that opens at line 1, column 3) at line 2, column 1"),
    ("a: 'it''s\n", "expected \"'\" closing the string (inside the string that opens at line 1, column 4) at line 2, column 1"),
    ("a: |\n  x\n y\n", "expected a key ('key: value') or less indentation at line 3, column 2"),
    ("[a, b]]\n", "expected a node, not a closing bracket at line 1, column 7"),
    ("a: 1\n...\n---\nb\n... x\n", "expected a line break after '...' at line 5, column 5"),
];

#[test]
fn each_bad_input_has_its_message() {
    let opts = Options::new().input(Input::Yaml);
    let mut failed = Vec::new();
    for (input, want) in CASES {
        match opts.to_string(input) {
            Ok(out) => failed.push(format!("{input:?}: accepted as {out:?}")),
            Err(e) if e.to_string() == *want => {}
            Err(e) => failed.push(format!("{input:?}:\n  want {want}\n  got  {e}")),
        }
    }
    assert!(CASES.len() >= 40);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Where the string or flow collection opens is also a field, and names
/// the opening character itself.
#[test]
fn the_opening_is_where_the_quote_or_bracket_is() {
    let opts = Options::new().input(Input::Yaml);
    for (input, opener) in [
        ("a: 1\nb: \"text\nc: 2\n", '"'),
        ("a: 1\nb:   'x\n", '\''),
        ("a: 1\nb: [1, {c: 2}\n", '['),
        ("- {a: [1]\n", '{'),
    ] {
        let err = opts.to_string(input).unwrap_err();
        let (line, column) = err.opened_position().expect("an opening");
        let at = input.lines().nth(line - 1).unwrap().chars().nth(column - 1);
        assert_eq!(at, Some(opener), "{input:?}: {err}");
    }
    // Outside any string or flow collection there is none.
    let err = opts.to_string("a: b: c\n").unwrap_err();
    assert_eq!(err.opened_position(), None);
}

/// A template names itself wherever `{{` starts a node.
#[test]
fn templates_are_named_as_templates() {
    let opts = Options::new().input(Input::Yaml);
    for input in [
        "name: {{ .Values.name }}\n",
        "{{ include \"x\" . }}\n",
        "a:\n  - {{ .Values.x | quote }}\n",
        "a: [{{ .x }}]\n",
    ] {
        let err = opts.to_string(input).unwrap_err();
        assert!(
            err.to_string().contains("Go or Helm template"),
            "{input:?}: {err}"
        );
    }
    // In a scalar's text it is text, as kubectl reads it.
    assert!(opts.to_string("a: x {{ y }}\nb: \"{{ z }}\"\n").is_ok());
}
