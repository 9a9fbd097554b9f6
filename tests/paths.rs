//! The ways of encoding agree: `to_string` writes in one pass and checks
//! as it goes (lists decided by a skim ahead); `to_writer` checks each
//! document first and then writes it; `to_fmt` writes a small input in one
//! pass into a buffer on the stack and falls back to the two passes when
//! the output outgrows it; `transcode` reads from an `io::Read` (here one
//! that gives a byte at a time, and one that gives pieces of changing
//! sizes) and frames each document as it arrives; `check` runs the checking
//! pass alone. Same output for valid
//! input, the same error (and the same documents before it) for invalid
//! input, over every conformance input, every truncation of them,
//! every one-byte change from a set of bytes that matter to JSON, and
//! inputs on both sides of each path's limits.

use kyaml::{Form, Options};

mod common;

fn all_options() -> [Options; 4] {
    [
        Options::new(),
        Options::new().compact(true),
        Options::new().form(Form::Value),
        Options::new().form(Form::Value).compact(true),
    ]
}

/// Asserts that all paths give the same result for `json`; returns
/// whether it was valid.
fn assert_agree(json: &[u8]) -> bool {
    let mut valid = true;
    for opts in all_options() {
        let one_pass = opts.to_string(json);
        let mut out = String::new();
        let fmt = opts.to_fmt(&mut out, json).map(|()| out);
        let mut bytes = Vec::new();
        let written = opts.to_writer(&mut bytes, json);
        let two_pass = match written {
            Ok(()) => Ok(String::from_utf8(bytes.clone()).unwrap()),
            Err(e) => Err(*e.into_inner().unwrap().downcast::<kyaml::Error>().unwrap()),
        };
        let shown = || format!("{opts:?} on {:?}", String::from_utf8_lossy(json));
        assert_eq!(one_pass, two_pass, "to_string, to_writer: {}", shown());
        assert_eq!(fmt, two_pass, "to_fmt, to_writer: {}", shown());
        // The check alone: the same verdict, the same error.
        let checked = opts.check(json);
        assert_eq!(checked, two_pass.clone().map(|_| ()), "check: {}", shown());
        // From a reader, the same documents before the same error.
        let mut readers = vec![Pieces::new(json, &[3, 1, 4, 1, 5, 9, 2, 6, 53, 1000])];
        if json.len() <= 4096 {
            readers.push(Pieces::new(json, &[1]));
        }
        for reader in readers {
            let sizes = reader.sizes;
            let mut streamed = Vec::new();
            let result = opts
                .transcode(reader, &mut streamed)
                .map_err(|e| *e.into_inner().unwrap().downcast::<kyaml::Error>().unwrap());
            let shown = || format!("{} ({sizes:?} bytes per read)", shown());
            assert_eq!(
                result,
                two_pass.clone().map(|_| ()),
                "transcode: {}",
                shown()
            );
            assert_eq!(streamed, bytes, "transcode, to_writer: {}", shown());
        }
        valid &= one_pass.is_ok();
    }
    valid
}

/// A reader that gives its bytes in pieces of the given sizes, in turn.
struct Pieces<'a> {
    rest: &'a [u8],
    sizes: &'a [usize],
    turn: usize,
}

impl<'a> Pieces<'a> {
    fn new(data: &'a [u8], sizes: &'a [usize]) -> Pieces<'a> {
        Pieces {
            rest: data,
            sizes,
            turn: 0,
        }
    }
}

impl std::io::Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.sizes[self.turn % self.sizes.len()]
            .min(buf.len())
            .min(self.rest.len());
        self.turn += 1;
        buf[..n].copy_from_slice(&self.rest[..n]);
        self.rest = &self.rest[n..];
        Ok(n)
    }
}

fn conformance_inputs() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut inputs = Vec::new();
    for (file, _) in common::vectors::VECTOR_FILES {
        let text = std::fs::read_to_string(format!("{dir}/{file}.jsonl")).unwrap();
        for line in text.lines() {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            inputs.push(case["json"].as_str().unwrap().to_owned());
        }
    }
    // Shapes where the skim decides lists: mixed, empty, nested, after
    // strings holding brackets, and deep.
    inputs.extend(
        [
            r#"[[1], {"a": "]"}, [[], [{}]], "[", ["\"]"]]"#,
            r#"{"a": [{"b": [1, {"c": []}]}, {"d": "x\ny"}], "e": [[[[[]]]]]}"#,
            "[{}, [], {\"k\": [\"}\", {}]}, 1]",
            "[[1,2],[3,4]]\n[{\"a\":1},{\"a\":1}]\n[[\"x\"],\"y\"]",
        ]
        .map(String::from),
    );
    inputs
}

#[test]
fn valid_inputs_render_the_same() {
    let inputs = conformance_inputs();
    let valid = inputs.iter().filter(|j| assert_agree(j.as_bytes())).count();
    assert!(valid > 180, "only {valid} of {} inputs valid", inputs.len());
}

#[test]
fn truncated_and_changed_inputs_fail_the_same() {
    let mut invalid = 0;
    // Long inputs (1,025-byte keys) add time, not cases.
    for json in conformance_inputs().iter().filter(|j| j.len() <= 200) {
        let bytes = json.as_bytes();
        for cut in 0..bytes.len() {
            invalid += usize::from(!assert_agree(&bytes[..cut]));
            for b in *b"[]{},:\"\\1 x" {
                let mut changed = bytes.to_vec();
                changed[cut] = b;
                invalid += usize::from(!assert_agree(&changed));
            }
        }
    }
    assert!(invalid > 10_000, "only {invalid} invalid variants");
    println!("{invalid} invalid variants, same error on every path");
}

#[test]
fn documents_past_the_small_tables_render_the_same() {
    // Each path clears small tables per call and sets up the full ones when
    // a document first goes past them (64 levels, 32 keys, 512 lists, the
    // key cache at the 32nd key, the window of list verdicts): both sides of
    // every boundary, and the corpus files, which cross several of them.
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    for depth in [63, 64, 65, 66, 200] {
        // Alternating maps and lists, cuddled and not, closing with scalars.
        let mut json = String::new();
        for d in 0..depth {
            json += if d % 3 == 0 { "{\"k\": " } else { "[" };
        }
        json += "1";
        for d in (0..depth).rev() {
            json += if d % 3 == 0 { ", \"z\": [2]}" } else { ", 3]" };
        }
        inputs.push(json.into_bytes());
    }
    for keys in [31, 32, 33, 511, 512, 513, 600] {
        let members: Vec<String> = (0..keys).map(|i| format!("\"k{i}\": {i}")).collect();
        inputs.push(format!("{{{}}}", members.join(", ")).into_bytes());
        // The same with one more key repeating the first, while the fixed
        // store (512 keys) still checks it.
        if keys < 512 {
            let mut repeated = members.clone();
            repeated.push("\"k0\": 0".into());
            inputs.push(format!("{{{}}}", repeated.join(", ")).into_bytes());
        }
    }
    for lists in [511, 512, 513, 2000] {
        let cuddled = vec!["[{}]"; lists].join(", ");
        let mixed: Vec<String> = (0..lists)
            .map(|i| match i % 3 {
                0 => "[1]".into(),
                1 => "[[2], [3]]".into(),
                _ => format!("[{{\"a\": [{i}]}}]"),
            })
            .collect();
        inputs.push(format!("[{cuddled}]").into_bytes());
        inputs.push(format!("[{}]", mixed.join(", ")).into_bytes());
    }
    // Lists that start with a container, each needing a verdict, around
    // the fixed store's window of 32,768 (past it, a skim fills the window
    // again): cuddled ones, and ones whose later scalar loses the bet, with
    // lists that start with a scalar, which are not numbered, in between.
    for lists in [32_767, 32_768, 32_769, 40_000] {
        let items: Vec<&str> = (0..lists)
            .map(|i| match i % 3 {
                0 => "[[1]]",
                1 => "[{}, 2]",
                _ => "[[], [3, [4]]]",
            })
            .collect();
        inputs.push(format!("[{}]", items.join(", ")).into_bytes());
    }
    if let Some(data) = common::sweep::bench_data() {
        for file in ["twitter", "citm_catalog", "canada", "k8s_swagger"] {
            inputs.push(std::fs::read(data.join(format!("{file}.json"))).unwrap());
        }
    }
    for json in &inputs {
        let valid = assert_agree(json);
        let repeats = json.ends_with(b"\"k0\": 0}");
        assert_eq!(
            valid,
            !repeats,
            "{}",
            String::from_utf8_lossy(&json[..80.min(json.len())])
        );
    }
}

#[test]
fn inputs_around_the_one_pass_buffer_render_the_same() {
    // to_fmt writes an input of up to 2 KiB in one pass into a buffer of
    // 2 KiB, whose first 256 bytes are set up first: output just under and
    // over each (the regular form's is longer), a second document that
    // outgrows them, and errors before and after they fill, in one document
    // and in the second of two.
    for n in [18, 20, 21, 22, 24, 25, 26, 27, 150, 180, 200, 230, 250, 400] {
        let items = vec!["\"abcdef\""; n].join(",");
        assert!(assert_agree(format!("[{items}]").as_bytes()));
        for invalid in [
            format!("[{items},]"),
            format!("[{items}]\n[1,]"),
            format!("[1]\n[{items},]"),
            format!("[1]\n{{\"a\": [{items}], \"a\": 1}}"),
        ] {
            assert!(!assert_agree(invalid.as_bytes()), "{invalid}");
        }
        // Valid as a stream of documents, not as one value.
        let stream = format!("[1]\n[{items}]");
        assert!(!assert_agree(stream.as_bytes()));
        assert!(Options::new().to_string(&stream).is_ok());
    }
}

/// [`assert_agree`] for YAML input, whose reader is streamed when the
/// input has no anchor, alias or merge key: `to_string`, `to_fmt`,
/// `to_writer` and `check` agree, and agree with the reader that loads the
/// whole input first; and a transcoder, which reads it a document at a
/// time from an `io::Read`, writes the same bytes with the same warnings
/// (an invalid input: up to its error). Returns whether it was valid.
fn assert_yaml_agree(yaml: &[u8]) -> bool {
    let mut valid = true;
    for opts in all_options() {
        let opts = opts.input(kyaml::Input::Yaml);
        let run = |opts: Options| {
            let one_pass = opts.to_string(yaml);
            let mut out = String::new();
            let fmt = opts.to_fmt(&mut out, yaml).map(|()| out);
            let mut bytes = Vec::new();
            let two_pass = match opts.to_writer(&mut bytes, yaml) {
                Ok(()) => Ok(String::from_utf8(bytes).unwrap()),
                Err(e) => Err(*e.into_inner().unwrap().downcast::<kyaml::Error>().unwrap()),
            };
            // What was written before the error: the documents before it.
            (one_pass, fmt, two_pass, opts.check(yaml))
        };
        let shown = || format!("{opts:?} on {:?}", String::from_utf8_lossy(yaml));
        let (one_pass, fmt, two_pass, checked) = run(opts);
        assert_eq!(one_pass, two_pass, "to_string, to_writer: {}", shown());
        assert_eq!(fmt, two_pass, "to_fmt, to_writer: {}", shown());
        assert_eq!(checked, two_pass.clone().map(|_| ()), "check: {}", shown());
        assert_yaml_transcoded(opts, yaml);
        valid &= one_pass.is_ok();
    }
    valid
}

/// A transcoder fed `yaml` in pieces writes what `to_writer` writes, with
/// the same first error and the warnings `to_writer` gives up to it.
fn assert_yaml_transcoded(opts: Options, yaml: &[u8]) {
    let mut whole = Vec::new();
    let mut whole_warnings = Vec::new();
    let whole_result = opts
        .to_writer_with_warnings(&mut whole, yaml, &mut whole_warnings)
        .map_err(|e| *e.into_inner().unwrap().downcast::<kyaml::Error>().unwrap());
    for sizes in [&[3, 1, 4, 1, 5, 9, 2, 6, 53, 1000][..], &[1]] {
        let mut streamed = Vec::new();
        let mut warnings = Vec::new();
        let mut docs = opts.transcoder(Pieces::new(yaml, sizes), &mut streamed);
        let result = loop {
            match docs.next_document_with_warnings(&mut warnings) {
                Ok(true) => {}
                Ok(false) => break Ok(()),
                Err(e) => {
                    break Err(*e.into_inner().unwrap().downcast::<kyaml::Error>().unwrap());
                }
            }
        };
        drop(docs);
        let shown = || {
            format!(
                "{opts:?} on {:?} ({sizes:?} bytes per read)",
                String::from_utf8_lossy(yaml)
            )
        };
        assert_eq!(result, whole_result, "transcoder: {}", shown());
        assert_eq!(
            String::from_utf8_lossy(&streamed),
            String::from_utf8_lossy(&whole),
            "transcoder, to_writer: {}",
            shown()
        );
        match result {
            Ok(()) => assert_eq!(warnings, whole_warnings, "warnings: {}", shown()),
            // Those of the documents after the invalid one are not read.
            Err(_) => assert!(
                whole_warnings.starts_with(&warnings),
                "warnings: {}",
                shown()
            ),
        }
    }
}

/// YAML inputs (tests/data/yaml-inputs.jsonl and yaml-comments.jsonl),
/// every truncation and every one-byte change from a set of bytes that
/// matter to YAML: the same output, or the same error with the same
/// documents before it, on every path and from both YAML readers.
#[test]
fn yaml_inputs_cut_and_changed_agree() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let (mut valid, mut invalid) = (0, 0);
    for (file, take) in [("yaml-inputs", 40), ("yaml-comments", 6)] {
        let text = std::fs::read_to_string(format!("{dir}/{file}.jsonl")).unwrap();
        // Short ones: long inputs add time, not cases.
        for line in text.lines().take(take) {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            let yaml = case["yaml"].as_str().unwrap().as_bytes();
            if yaml.len() > 200 {
                continue;
            }
            valid += usize::from(assert_yaml_agree(yaml));
            for cut in 0..yaml.len() {
                invalid += usize::from(!assert_yaml_agree(&yaml[..cut]));
                for b in *b"-:#[{,\"\n " {
                    let mut changed = yaml.to_vec();
                    changed[cut] = b;
                    invalid += usize::from(!assert_yaml_agree(&changed));
                }
            }
        }
    }
    assert!(valid > 20, "only {valid} valid inputs");
    assert!(invalid > 500, "only {invalid} invalid variants");
    println!("{valid} valid YAML inputs, {invalid} invalid variants, same on every path");
}
