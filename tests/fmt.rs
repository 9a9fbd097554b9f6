//! `kyaml fmt`'s formatting: comments and blank lines placed by
//! SPEC-YAML.md §3, byte for byte with the reference on
//! `yaml-comments.jsonl` (both forms), and a fixed point after one pass.

use kyaml::{Input, Options};

fn fmt(yaml: &str, compact: bool) -> Result<String, kyaml::Error> {
    Options::new()
        .input(Input::Yaml)
        .schema(SCHEMA.get())
        .compact(compact)
        .to_string(yaml)
}

thread_local! {
    /// The schema [`fmt`] reads with: `kubectl`, but in tests of YAML
    /// streams kubectl never reads whole (a document after `...` with no
    /// `---` line: tests/kubectl_syntax.rs).
    static SCHEMA: std::cell::Cell<kyaml::Schema> = const { std::cell::Cell::new(kyaml::Schema::Kubectl) };
}

fn cases() -> Vec<serde_json::Value> {
    include_str!("data/yaml-comments.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn yaml_comments_byte_for_byte() {
    let cases = cases();
    assert_eq!(cases.len(), 497);
    let mut failed = Vec::new();
    let (mut regular, mut compact) = (0, 0);
    for case in &cases {
        let name = case["name"].as_str().unwrap_or("?");
        let yaml = case["yaml"].as_str().unwrap_or("");
        for (form, is_compact, count) in [
            ("regular", false, &mut regular),
            ("compact", true, &mut compact),
        ] {
            let expected = case[form].as_str().unwrap_or("");
            match fmt(yaml, is_compact) {
                Ok(out) if out == expected => *count += 1,
                Ok(out) => failed.push(format!(
                    "{name} {form}:\n{}",
                    kyaml::LineDiff::new(expected, &out).labels("expected", "ours")
                )),
                Err(e) => failed.push(format!("{name} {form}: {e}")),
            }
        }
    }
    if !failed.is_empty() {
        let shown: Vec<&String> = failed.iter().take(3).collect();
        panic!(
            "regular {regular}/497, compact {compact}/497; first failures:\n{}",
            shown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

mod common;
#[allow(dead_code)]
mod reader;

/// The comments of `yaml` as the parser reads them, per document, sorted:
/// what must be kept, each the same number of times in the same document.
fn comments_by_document(yaml: &str) -> Vec<Vec<String>> {
    let mut docs: Vec<Vec<String>> = Vec::new();
    for (doc, text) in kyaml::yaml_comments(yaml) {
        if docs.len() <= doc {
            docs.resize(doc + 1, Vec::new());
        }
        docs[doc].push(text.to_string());
    }
    docs.iter_mut().for_each(|d| d.sort());
    docs
}

/// Whether `out` keeps every comment of `input` in its document, and is
/// its own format (a second pass changes nothing).
fn check_fixed_point(name: &str, input: &str, out: &str) -> Result<(), String> {
    if comments_by_document(out) != comments_by_document(input) {
        return Err(format!(
            "{name}: comments differ:\n{:?}\n{:?}",
            comments_by_document(input),
            comments_by_document(out)
        ));
    }
    match fmt(out, false) {
        Ok(again) if again == out => Ok(()),
        Ok(again) => Err(format!(
            "{name}: second pass changes:\n{}",
            kyaml::LineDiff::new(out, &again).labels("first", "second")
        )),
        Err(e) => Err(format!("{name}: second pass fails: {e}")),
    }
}

/// `fmt(input)` is `want` byte for byte, and a fixed point that keeps
/// every comment.
fn check_exact(input: &str, want: &str) -> Result<(), String> {
    match fmt(input, false) {
        Ok(out) if out == want => check_fixed_point(&format!("{input:?}"), input, &out),
        Ok(out) => Err(format!("{input:?}: got {out:?}, want {want:?}")),
        Err(e) => Err(format!("{input:?}: {e}")),
    }
}

#[test]
fn yaml_comments_are_kept_and_fixed_points() {
    let mut failed = Vec::new();
    for case in cases() {
        let name = case["name"].as_str().unwrap_or("?");
        let yaml = case["yaml"].as_str().unwrap_or("");
        let out = fmt(yaml, false).expect("the vectors are valid");
        if let Err(e) = check_fixed_point(name, yaml, &out) {
            failed.push(e);
        }
    }
    assert!(
        failed.is_empty(),
        "{} of 497:\n{}",
        failed.len(),
        failed[..failed.len().min(3)].join("\n")
    );
}

/// The 238 real manifests: formatted, every comment kept in its document,
/// the data what kubectl reads from the original, a second pass a no-op.
#[test]
fn corpus_formats_with_comments_kept() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let index = std::fs::read_to_string(root.join("corpus-yaml-data.jsonl")).expect("the index");
    let (mut files, mut kept, mut data, mut fixed) = (0, 0, 0, 0);
    let mut failed = Vec::new();
    for line in index.lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let path = case["path"].as_str().unwrap_or("");
        let text = std::fs::read_to_string(root.join("corpus-yaml").join(path)).expect("a file");
        files += 1;
        let out = match fmt(&text, false) {
            Ok(out) => out,
            Err(e) => {
                failed.push(format!("{path}: {e}"));
                continue;
            }
        };
        if comments_by_document(&out) == comments_by_document(&text) {
            kept += 1;
        } else {
            failed.push(format!("{path}: comments differ"));
        }
        let want = case["documents"].as_array().cloned().unwrap_or_default();
        match reader::read_stream(&out) {
            Ok(docs)
                if docs.len() == want.len()
                    && docs.iter().zip(&want).all(|(a, b)| common::same_data(a, b)) =>
            {
                data += 1
            }
            _ => failed.push(format!("{path}: data differs")),
        }
        match fmt(&out, false) {
            Ok(again) if again == out => fixed += 1,
            _ => failed.push(format!("{path}: second pass changes it")),
        }
    }
    assert_eq!(files, 238);
    assert!(
        failed.is_empty(),
        "comments kept {kept}/238, data equal {data}/238, fixed points {fixed}/238:\n{}",
        failed.join("\n")
    );
}

/// Random block YAML with comments in every position of SPEC-YAML.md §3
/// (head, line, after `key:`, after a dash, foot, before and after the
/// root, between documents), blank lines, anchors and aliases, merge keys,
/// `...` and documents of only comments: a test-only generator.
#[derive(Clone, Debug)]
struct CommentedYaml(String);

struct Writer<'g> {
    g: &'g mut quickcheck::Gen,
    out: String,
    comments: usize,
    anchors: usize,
}

impl Writer<'_> {
    fn pick(&mut self, n: u8) -> u8 {
        <u8 as quickcheck::Arbitrary>::arbitrary(self.g) % n
    }

    fn comment(&mut self) -> String {
        self.comments += 1;
        let texts = [
            "",
            " note",
            " - item",
            " key: value # nested",
            "#",
            " ---",
            " é",
        ];
        format!(
            "#{}{}",
            texts[self.pick(texts.len() as u8) as usize],
            self.comments
        )
    }

    /// Own-line comments and blank lines, at `indent` (or a random
    /// column), maybe none.
    fn own_lines(&mut self, indent: usize) {
        for _ in 0..self.pick(4).saturating_sub(1) {
            match self.pick(4) {
                0 => self.out.push('\n'),
                1 => {
                    let column = indent + 2 * self.pick(2) as usize;
                    let c = self.comment();
                    self.out.push_str(&format!("{}{c}\n", " ".repeat(column)));
                }
                _ => {
                    let c = self.comment();
                    self.out.push_str(&format!("{}{c}\n", " ".repeat(indent)));
                }
            }
        }
    }

    fn line_end(&mut self) {
        if self.pick(3) == 0 {
            let c = self.comment();
            self.out.push_str(&format!(" {c}"));
        }
        self.out.push('\n');
    }

    fn scalar(&mut self) -> String {
        let words = [
            "1",
            "x",
            "\"q # not\"",
            "'s'",
            "null",
            "true",
            "2.5",
            "[1, 2]",
            "{a: 1}",
        ];
        match (self.anchors, self.pick(12)) {
            (n, 0) if n > 0 => format!("*a{}", self.pick(n as u8)),
            _ => words[self.pick(words.len() as u8) as usize].to_string(),
        }
    }

    /// A collection's contents at `indent`; `depth` bounds the nesting.
    fn collection(&mut self, indent: usize, depth: u8, map: bool) {
        let pad = " ".repeat(indent);
        let mut merged = false;
        for i in 0..1 + self.pick(3) {
            self.own_lines(indent);
            // A merge key: its map's keys may be the enclosing map's too
            // (merged away) or not (merged in).
            let merge = map && depth > 0 && !merged && self.pick(5) == 0;
            merged |= merge;
            let lead = match (map, merge) {
                (true, true) => format!("{pad}<<:"),
                (true, false) => format!("{pad}k{i}:"),
                (false, _) => format!("{pad}-"),
            };
            self.out.push_str(&lead);
            if depth == 0 || !merge && self.pick(2) == 0 {
                let s = self.scalar();
                self.out.push_str(&format!(" {s}"));
                self.line_end();
                continue;
            }
            if self.pick(3) == 0 {
                self.out.push_str(&format!(" &a{}", self.anchors));
                self.anchors += 1;
            }
            self.line_end();
            let inner_map = merge || self.pick(2) == 0;
            let inner = match (map, inner_map) {
                (true, false) if self.pick(2) == 0 => indent,
                _ => indent + 2,
            };
            self.collection(inner, depth - 1, inner_map);
        }
        if self.pick(3) == 0 {
            let c = self.comment();
            self.out.push_str(&format!("{pad}{c}\n"));
        }
    }
}

impl quickcheck::Arbitrary for CommentedYaml {
    fn arbitrary(g: &mut quickcheck::Gen) -> CommentedYaml {
        let mut w = Writer {
            g,
            out: String::new(),
            comments: 0,
            anchors: 0,
        };
        for doc in 0..1 + w.pick(2) {
            if doc > 0 || w.pick(3) == 0 {
                w.out.push_str("---");
                w.line_end();
            }
            w.own_lines(0);
            w.anchors = 0;
            // Now and then a document of only comments (or nothing).
            if doc == 0 || w.pick(4) != 0 {
                let map = w.pick(2) == 0;
                w.collection(0, 3, map);
            }
            w.own_lines(0);
            if w.pick(4) == 0 {
                w.out.push_str("...\n");
                w.own_lines(0);
            }
        }
        CommentedYaml(w.out)
    }
}

#[test]
fn random_commented_yaml_keeps_comments_and_is_a_fixed_point() {
    fn prop(input: CommentedYaml) -> quickcheck::TestResult {
        let Ok(out) = fmt(&input.0, false) else {
            // An alias inside its own anchor's node, say: not for this test.
            return quickcheck::TestResult::discard();
        };
        if let Err(e) = check_fixed_point("random", &input.0, &out) {
            return quickcheck::TestResult::error(format!(
                "{e}\ninput:\n{}\noutput:\n{out}",
                input.0
            ));
        }
        // The data is what the input holds.
        let data = |text: &str| fmt(text, true);
        if data(&input.0) != data(&out) {
            return quickcheck::TestResult::error(format!("data differs:\n{}\n{out}", input.0));
        }
        quickcheck::TestResult::passed()
    }
    quickcheck::QuickCheck::new()
        .tests(2000)
        .quickcheck(prop as fn(CommentedYaml) -> quickcheck::TestResult);
}

/// Comments take the same place on every entry point: one pass into a
/// `String` (lists bet on, a lost bet rewound), and a checking pass then a
/// writing pass (`to_writer`, `to_fmt`).
#[test]
fn every_entry_point_places_comments_alike() {
    let mut inputs: Vec<String> = cases()
        .iter()
        .map(|c| c["yaml"].as_str().unwrap_or("").to_string())
        .collect();
    inputs.push("# only\n\n# comments\n".into());
    inputs.push("# before\n---\na: 1\n\n# foot\n---\n# c\n".into());
    for input in &inputs {
        let opts = Options::new().input(Input::Yaml);
        let one = opts.to_string(input).expect("valid");
        let mut two = String::new();
        opts.to_fmt(&mut two, input).expect("valid");
        let mut three = Vec::new();
        opts.to_writer(&mut three, input).expect("valid");
        assert_eq!(two, one, "{input}");
        assert_eq!(String::from_utf8(three).expect("UTF-8"), one, "{input}");
    }
}

/// Blank lines, documents, and the places SPEC-YAML.md §2–§3 name, byte
/// for byte.
#[test]
fn blank_lines_and_documents() {
    let cases: &[(&str, &str)] = &[
        // Only comments: kept as they are.
        ("# only\n\n\n# comments\n", "# only\n\n# comments\n"),
        // Before the first `---`: before it.
        ("# license\n---\na: 1\n", "# license\n---\n{\n  a: 1,\n}\n"),
        // Set off from the root by a blank line: above its bracket.
        ("# head\n\na: 1\n", "---\n# head\n\n{\n  a: 1,\n}\n"),
        // After the root, before the next `---`: after its bracket.
        (
            "a: 1\n# end\n---\nb: 2\n",
            "---\n{\n  a: 1,\n}\n# end\n---\n{\n  b: 2,\n}\n",
        ),
        // Runs of blank lines become one; none after `{` or before `}`.
        (
            "a:\n\n  b: 1\n\n\n  c: 2\n\nd: 3\n",
            "---\n{\n  a: {\n    b: 1,\n\n    c: 2,\n  },\n\n  d: 3,\n}\n",
        ),
        // A comment on the key and one on its value: both kept.
        ("k: # a\n  v # b\n", "---\n{\n  # a\n  k: \"v\", # b\n}\n"),
        // After `key:` of a collection: after its bracket.
        (
            "a: # k\n  - 1\nb: 1\n",
            "---\n{\n  a: [\n    1,\n  ], # k\n  b: 1,\n}\n",
        ),
        // An anchored node's comments are written once, not per alias.
        (
            "x: &a\n  # in\n  m: 1\nz: *a\n",
            "---\n{\n  x: {\n    # in\n    m: 1,\n  },\n  z: {\n    m: 1,\n  },\n}\n",
        ),
        // A head comment of a list's item uncuddles the list; one after a
        // dash goes inside the item and keeps it cuddled.
        (
            "- a: 1\n# h\n- b: 2\n",
            "---\n[\n  {\n    a: 1,\n  },\n  # h\n  {\n    b: 2,\n  },\n]\n",
        ),
        (
            "- a: 1\n- # d\n  b: 2\n",
            "---\n[{\n  a: 1,\n}, {\n  # d\n  b: 2,\n}]\n",
        ),
        // Both: the group above the item, the dash's comment inside it.
        (
            "l:\n  - x\n  # h\n  - # d\n    a: 1\n",
            "---\n{\n  l: [\n    \"x\",\n    # h\n    {\n      # d\n      a: 1,\n    },\n  ],\n}\n",
        ),
        (
            "# h\n- # d\n  - a\n",
            "---\n[\n  # h\n  [\n    # d\n    \"a\",\n  ],\n]\n",
        ),
    ];
    for (input, want) in cases {
        let opts = Options::new()
            .input(Input::Yaml)
            .schema(kyaml::Schema::Yaml12);
        let got = opts.to_string(input).expect("valid");
        assert_eq!(&got, want, "{input:?}");
        assert_eq!(
            opts.to_string(&got).as_deref(),
            Ok(got.as_str()),
            "{input:?}"
        );
    }
}

/// The JSON path's output is already formatted: `fmt(kyaml(json)) ==
/// kyaml(json)` for the conformance vectors, in both forms.
#[test]
fn json_path_output_is_a_fixed_point() {
    let mut checked = 0;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for (name, _) in common::vectors::VECTOR_FILES {
        let file = std::fs::read_to_string(dir.join(format!("{name}.jsonl"))).expect("the vectors");
        for line in file.lines() {
            let case: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let Some(json) = case.get("json").and_then(|j| j.as_str()) else {
                continue;
            };
            for compact in [false, true] {
                let Ok(kyaml) = Options::new().compact(compact).to_string(json) else {
                    continue;
                };
                assert_eq!(
                    fmt(&kyaml, compact).as_deref(),
                    Ok(kyaml.as_str()),
                    "{json}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 360, "{checked}");
    eprintln!("fmt(kyaml(json)) == kyaml(json): {checked} renderings");
}

/// `fmt(kyaml(json)) == kyaml(json)` for random JSON texts, numbers in
/// every spelling JSON allows (up to float64's limit, past 64 bits) and
/// strings YAML readers could misread, both forms.
#[test]
fn json_path_output_of_random_json_is_a_fixed_point() {
    fn prop(json: common::random::JsonText) -> quickcheck::TestResult {
        for compact in [false, true] {
            let kyaml = Options::new()
                .compact(compact)
                .to_string(&json.0)
                .expect("valid JSON");
            let again = fmt(&kyaml, compact);
            if again.as_deref() != Ok(kyaml.as_str()) {
                let e = format!("{}\nkyaml: {kyaml:?}\nfmt: {again:?}", json.0);
                return quickcheck::TestResult::error(e);
            }
        }
        quickcheck::TestResult::passed()
    }
    quickcheck::QuickCheck::new()
        .tests(2000)
        .quickcheck(prop as fn(common::random::JsonText) -> quickcheck::TestResult);
}

/// Comments between documents stay with the document they follow
/// (SPEC-YAML.md §3), whatever ends it (`...`, a stray second `...`) and
/// whatever starts the next (`---` or a bare node); comments before the
/// first document stay in it. Byte for byte, each comment in its document
/// (`kyaml::yaml_comments`), and a fixed point. From the `fmt` fuzz target.
#[test]
fn comments_between_documents_stay_with_the_one_they_follow() {
    // Bare documents after `...`: YAML 1.2 streams, which kubectl never
    // reads whole (the `kubectl` schema refuses them).
    assert!(fmt("a\n...\nb\n", false).is_err());
    SCHEMA.set(kyaml::Schema::Yaml12);
    let cases: &[(&str, &str)] = &[
        // A stray `...` after the comment, then a bare document.
        ("a\n...\n#c1\n...\nb\n", "---\n\"a\"\n#c1\n---\n\"b\"\n"),
        ("a\n...\n\n#c1\n...\nb\n", "---\n\"a\"\n#c1\n---\n\"b\"\n"),
        // Followed by `---`: already right, kept so.
        ("a\n...\n#c1\n---\nb\n", "---\n\"a\"\n#c1\n---\n\"b\"\n"),
        // A bare document right after the comment.
        ("a\n...\n#c1\nb\n", "---\n\"a\"\n#c1\n---\n\"b\"\n"),
        // `...` twice before the comment, and twice after.
        ("a\n...\n...\n#c1\nb\n", "---\n\"a\"\n#c1\n---\n\"b\"\n"),
        (
            "a\n...\n#c1\n...\n...\nb\n",
            "---\n\"a\"\n#c1\n---\n\"b\"\n",
        ),
        // Comment-only segments between `...` markers, and a foot after
        // the last document's stray `...`.
        (
            "a\n...\n#c1\n...\n#c2\n...\nb\n#c3\n...\n...\n#c4\n",
            "---\n\"a\"\n#c1\n#c2\n---\n\"b\"\n#c3\n#c4\n",
        ),
        (
            "k: 1\n...\n# one\n\n# two\n...\n- x\n",
            "---\n{\n  k: 1,\n}\n# one\n\n# two\n---\n[\n  \"x\",\n]\n",
        ),
        // A blank line between the root and its foot comments is kept.
        ("a: 1\n\n# foot\n", "---\n{\n  a: 1,\n}\n\n# foot\n"),
        (
            "- 1\n\n\n# f1\n\n# f2\n\n---\nb: 2\n",
            "---\n[\n  1,\n]\n\n# f1\n\n# f2\n---\n{\n  b: 2,\n}\n",
        ),
        (
            "a: 1\n# foot\n---\nb\n",
            "---\n{\n  a: 1,\n}\n# foot\n---\n\"b\"\n",
        ),
        // A document of only comments is its header and its comments,
        // with no `null` (it reads as null all the same).
        (
            "a: 1\n---\n# off: b\n---\nc: 2\n",
            "---\n{\n  a: 1,\n}\n---\n# off: b\n---\n{\n  c: 2,\n}\n",
        ),
        ("---\n# c\n\n# d\n", "---\n# c\n\n# d\n"),
        ("---\n---\n", "---\n---\n"),
        // Its foot comments too (from the fuzz target: written as the
        // foot of a root that is not there, the next `---` went into one).
        ("---\n...\n#", "---\n#\n"),
        ("---\n...\n#\n---\nb\n", "---\n#\n---\n\"b\"\n"),
        ("---\n# a\n\n# b\n...\n# c\n", "---\n# a\n\n# b\n# c\n"),
        ("---\n\n# a\n---\n", "---\n# a\n---\n"),
        // Before the first document, after a leading `...`: in it.
        ("...\n#c0\n...\na\n", "---\n#c0\n\"a\"\n"),
        ("#c0\n...\na\n", "---\n#c0\n\"a\"\n"),
        (
            "...\n#c0\n---\na\n...\n#c1\nb\n",
            "#c0\n---\n\"a\"\n#c1\n---\n\"b\"\n",
        ),
    ];
    let mut failed: Vec<String> = cases
        .iter()
        .filter_map(|(input, want)| check_exact(input, want).err())
        .collect();
    // The fuzz input: `...` pairs with comments between, bare documents.
    // Its control characters made printable: kubectl refuses them.
    let crash = &include_str!("data/fuzz-fmt/crash-75ac3840c774a57e407a041fe50b19e35ff8be19")
        .replace('\u{1}', "1");
    let out = fmt(crash, false).expect("valid");
    assert_eq!(comments_by_document(crash).len(), 2, "{out}");
    if let Err(e) = check_fixed_point("fuzz crash-75ac3840", crash, &out) {
        failed.push(e);
    }
    // And one with empty documents and their foot comments.
    let crash = &include_str!("data/fuzz-fmt/crash-23bb1a9877c6de40d614c43e4be28b49147199e5")
        .replace('\0', "0");
    let out = fmt(crash, false).expect("valid");
    if let Err(e) = check_fixed_point("fuzz crash-23bb1a98", crash, &out) {
        failed.push(e);
    }
    // A comment after a block scalar's header that a lone CR cut short
    // (fuzz crash-8e0a4df6): kept with the CR, it was written raw and the
    // output read back as other documents. kubectl ends the comment at
    // the CR, the block scalar at the `---` after it, and drops the rest
    // of the file unread (a new document that its LF-line splitter never
    // sees); kyaml refuses at that `---` rather than lose it.
    let crash = include_str!("data/fuzz-fmt/crash-8e0a4df6992e78532f9f882b4dbf7220939b3cc4");
    match fmt(crash, false) {
        Err(e) => assert_eq!((e.line(), e.column()), (27, 47), "{e}"),
        Ok(out) => failed.push(format!("fuzz crash-8e0a4df6: read, as {out:?}")),
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Around map entries a merge key (`<<`) takes in or leaves out, the
/// comments and blank lines keep to what the emitter writes and a second
/// pass reads back the same: no blank line before a closing bracket, nor
/// two in a row, a line comment only after a value. Regressions from the
/// fuzz targets (`fmt` and `yaml`): a blank line before a key merged away
/// came out before the closing bracket, two blank lines around one came
/// out as two, and a line comment after a blank line (the entry between
/// merged away) came out at column 1.
#[test]
fn no_blank_line_before_a_closing_bracket_nor_two_in_a_row() {
    // Its NUL bytes made printable: kubectl refuses them.
    let crash = include_str!("data/fuzz-yaml/crash-c8f6bba97c6e7931cb33bef3019e863738f29e95")
        .replace('\0', "0");
    let inputs = [
        ("yaml crash-c8f6bba9", crash.as_str()),
        ("merged duplicate", "<<:\n  a: 1\n\n  a: 2\nb: 3\n"),
        (
            "merged between blanks",
            "<<:\n  a: 1\n\n  a: 2\n\n  c: 3\nb: 4\n",
        ),
        ("blank before the end", "a:\n  b: 1\n\n# c\n\n"),
        ("fmt crash-02b8684b, cut down", "<<:\n  e:\n\n  x: t #\n"),
        ("merged away last", "<<:\n  a: 1\n\n  b: 2 # b\nb: 3\n"),
        ("merged away first", "<<:\n  b: 2 # b\n\n  a: 1\nb: 3\n"),
    ];
    let mut failed = Vec::new();
    for (name, input) in inputs {
        let out = fmt(input, false).expect("valid");
        if out.contains("\n\n}") || out.contains("\n\n]") {
            failed.push(format!(
                "{name}: a blank line before a closing bracket:\n{out}"
            ));
        }
        if out.contains("\n\n\n") {
            failed.push(format!("{name}: two blank lines in a row:\n{out}"));
        }
        if let Err(e) = check_fixed_point(name, input, &out) {
            failed.push(e);
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Comments in a merge key's map are written with the entries it merges
/// in, where they were; those of an entry the map's own keys override stay
/// in input order, before the next item written (a line comment there on
/// a line of its own). Byte for byte, and fixed points.
#[test]
fn comments_in_a_merged_map_stay_with_their_entries() {
    let cases = [
        (
            "<<:\n  # head a\n  a: 1 # line a\n\n  # head b\n  b: 2 # line b\nb: 3\nc: 4\n",
            "---\n{\n  # head a\n  a: 1, # line a\n\n  # head b\n  # line b\n  b: 3,\n  c: 4,\n}\n",
        ),
        (
            "<<:\n  e:\n\n  x: t #\n",
            "---\n{\n  e: null,\n\n  x: \"t\", #\n}\n",
        ),
        (
            "base: &b\n  x: 1 # x\nm:\n  # m\n  <<: [*b, {z: 3, x: 9}] # after\n  w: 5\n",
            "---\n{\n  base: {\n    x: 1, # x\n  },\n  m: {\n    # m\n    x: 1,\n    z: 3, # after\n    w: 5,\n  },\n}\n",
        ),
    ];
    let failed: Vec<String> = cases
        .iter()
        .filter_map(|(input, want)| check_exact(input, want).err())
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// A comment before an empty root collection stays before it (the
/// head-comment rule with no item to head, issue 20 item 9); one inside
/// stays inside.
#[test]
fn comment_before_an_empty_root_stays_before_it() {
    for (input, want) in [
        ("---\n# note\n{}\n", "---\n# note\n{}\n"),
        ("# note\n[]\n", "---\n# note\n[]\n"),
        ("---\n# note\n{ # in\n}\n", "---\n# note\n{\n  # in\n}\n"),
        ("# a\n[]\n---\n# b\n{}\n", "---\n# a\n[]\n---\n# b\n{}\n"),
    ] {
        check_exact(input, want).unwrap();
    }
}

/// An entry that a later merge overwrites (kubectl's order) is dropped;
/// its comments are kept, before the merged entry.
#[test]
fn comments_of_an_entry_a_merge_overwrites_are_kept() {
    check_exact(
        "m:\n  # about a\n  a: 0 # line a\n  <<: {a: 1}\n",
        "---\n{\n  m: {\n    # about a\n    # line a\n    a: 1,\n  },\n}\n",
    )
    .unwrap();
}

/// The canonical form of a JSON value that tools/corpus_yaml_digests.py
/// writes (see there): numbers by their float64 value, maps by sorted key.
fn canonical(v: &serde_json::Value, out: &mut Vec<u8>) {
    use serde_json::Value;
    match v {
        Value::Null => out.push(b'n'),
        Value::Bool(b) => out.push(if *b { b't' } else { b'f' }),
        Value::Number(n) => {
            let x = n.as_f64().unwrap_or(f64::NAN);
            out.push(b'#');
            match x == 0.0 {
                true => out.push(b'0'),
                false => out.extend(format!("{x:e}").bytes()),
            }
        }
        Value::String(s) => {
            out.extend(format!("s{}:", s.len()).bytes());
            out.extend(s.bytes());
        }
        Value::Array(items) => {
            out.push(b'[');
            items.iter().for_each(|item| canonical(item, out));
            out.push(b']');
        }
        Value::Object(map) => {
            out.push(b'{');
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            for k in keys {
                canonical(&Value::String(k.clone()), out);
                canonical(&map[k], out);
            }
            out.push(b'}');
        }
    }
}

/// FNV-1a (64 bits) of [`canonical`], as tools/corpus_yaml_digests.py writes it.
fn digest(v: &serde_json::Value) -> String {
    let mut bytes = Vec::new();
    canonical(v, &mut bytes);
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// Every .yaml/.yml file under `dir`, relative to `root`, sorted.
fn yaml_files(root: &std::path::Path, dir: &std::path::Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            yaml_files(root, &path, out);
        } else if kind.is_file()
            && matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("yaml" | "yml")
            )
        {
            let relative = path.strip_prefix(root).unwrap_or(&path);
            out.push(relative.to_string_lossy().into_owned());
        }
    }
}

/// Every file of ../shared/corpus-yaml (whole repositories: argo-workflows,
/// tekton-pipeline, microservices-demo, kubernetes-examples): each one
/// kubectl reads goes through `fmt` with the data kubectl reads
/// (corpus-yaml-digests.jsonl, from tools/corpus_yaml_digests.py), every
/// comment in its document, and as a fixed point; each one kubectl refuses
/// gets an error with a line and column. Run in a full sweep
/// (`KYAML_FULL_SWEEP=1`), and skipped (saying so) where the folder is
/// absent.
#[test]
fn shared_corpus_reads_as_kubectl_reads() {
    let Some(root) = common::sweep::shared("corpus-yaml") else {
        return;
    };
    let index = include_str!("data/corpus-yaml-digests.jsonl");
    let mut on_disk = Vec::new();
    yaml_files(&root, &root, &mut on_disk);
    on_disk.sort();
    let listed: Vec<String> = index
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).expect("a JSON line")["path"].to_string()
        })
        .map(|p| p.trim_matches('"').to_string())
        .collect();
    let missing: Vec<&String> = on_disk.iter().filter(|p| !listed.contains(p)).collect();
    let gone: Vec<&String> = listed.iter().filter(|p| !on_disk.contains(p)).collect();
    assert!(
        missing.is_empty() && gone.is_empty(),
        "corpus-yaml-digests.jsonl is out of date (run tools/corpus_yaml_digests.py): \
         not in it {missing:?}, not on disk {gone:?}"
    );
    let (mut read, mut refused) = (0, 0);
    let mut failed = Vec::new();
    for line in index.lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let path = case["path"].as_str().unwrap_or("");
        let text = std::fs::read_to_string(root.join(path)).unwrap_or_default();
        if case.get("error").is_some() {
            match fmt(&text, false) {
                Err(e) if e.line() > 0 && e.column() > 0 => refused += 1,
                Err(e) => failed.push(format!("{path}: error without a position: {e}")),
                Ok(_) => failed.push(format!("{path}: kubectl refuses it, kyaml reads it")),
            }
            continue;
        }
        let out = match fmt(&text, false) {
            Ok(out) => out,
            Err(e) => {
                failed.push(format!("{path}: refused: {e}"));
                continue;
            }
        };
        let want: Vec<&str> = case["documents"]
            .as_array()
            .map(|d| d.iter().filter_map(|h| h.as_str()).collect())
            .unwrap_or_default();
        match reader::read_stream(&out) {
            Ok(docs)
                if docs
                    .iter()
                    .map(digest)
                    .eq(want.iter().map(|h| h.to_string())) => {}
            Ok(_) => failed.push(format!("{path}: data differs")),
            Err(e) => failed.push(format!("{path}: the output does not read back: {e}")),
        }
        if let Err(e) = check_fixed_point(path, &text, &out) {
            failed.push(e.lines().next().unwrap_or("").to_string());
        }
        read += 1;
    }
    eprintln!(
        "shared corpus: {} files: {read} read by kubectl formatted, {refused} refused by both",
        listed.len()
    );
    assert!(
        failed.is_empty(),
        "{} failures:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// Own-line comments keep their order whatever their indentation
/// (SPEC-YAML.md §3): a comment that its own indentation would place
/// before the one above it (an inner collection's foot after an outer
/// one's) goes where the one above it went.
#[test]
fn own_line_comments_keep_their_order() {
    let cases = [
        (
            "a:\n  b:\n    c: 1\n  # x\n# y\nd: 2\n",
            "---\n{\n  a: {\n    b: {\n      c: 1,\n    },\n    # x\n  },\n  # y\n  d: 2,\n}\n",
        ),
        (
            "a:\n  b:\n    c: 1\n# x\n  # y\nd: 2\n",
            "---\n{\n  a: {\n    b: {\n      c: 1,\n    },\n  },\n  # x\n  # y\n  d: 2,\n}\n",
        ),
        (
            "a:\n  b:\n    c: 1\n  # x\n    # y\n# z\n",
            "---\n{\n  a: {\n    b: {\n      c: 1,\n    },\n    # x\n    # y\n  },\n  # z\n}\n",
        ),
        (
            "- a:\n    b: 1\n# x\n    # y\n- c\n",
            "---\n[\n  {\n    a: {\n      b: 1,\n    },\n  },\n  # x\n  # y\n  \"c\",\n]\n",
        ),
    ];
    let failed: Vec<String> = cases
        .iter()
        .filter_map(|(input, want)| check_exact(input, want).err())
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
