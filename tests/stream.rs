//! Streaming: from an `io::Read` that delivers one byte at a time and
//! waits between documents, each document (JSON or YAML) is written before
//! the next one is read; a bad document is reported and, with a `Transcoder`, skipped.
//! (That the streamed output and errors equal `to_writer`'s on every
//! conformance input, cut and changed, is in tests/paths.rs.)

use std::io::{self, Read, Write};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kyaml::{ErrorKind, Options};

/// Documents that split anywhere when read a byte at a time: inside
/// multi-byte characters, escapes, numbers and literals.
const DOCUMENTS: [&str; 5] = [
    "{\"name\": \"é😀\", \"esc\": \"a\\\"b\\u00e9\\ud83d\\ude00\"}\n",
    "[1.5e10, -0.25, true, null]\n",
    "\"top\\nlevel\"\n",
    "12345\n",
    "{\"k8s\": [{\"a\": 1}, {\"b\": [2]}]}\n",
];

/// A reader fed through a channel: it gives one byte per read, blocks
/// when it has none, and notes what the writer had got each time it was
/// about to block.
struct OneByteAtATime {
    pending: Vec<u8>,
    from: Receiver<Vec<u8>>,
    written: Arc<Mutex<Vec<u8>>>,
    seen_when_blocking: Arc<Mutex<Vec<Vec<u8>>>>,
}

impl Read for OneByteAtATime {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pending.is_empty() {
            let written = self.written.lock().unwrap().clone();
            self.seen_when_blocking.lock().unwrap().push(written);
            match self.from.recv() {
                Ok(bytes) => self.pending = bytes,
                Err(_) => return Ok(0),
            }
        }
        if buf.is_empty() || self.pending.is_empty() {
            return Ok(0);
        }
        buf[0] = self.pending.remove(0);
        Ok(1)
    }
}

/// A writer that keeps what it got and says so on each write.
struct Recorder {
    written: Arc<Mutex<Vec<u8>>>,
    tell: Sender<()>,
}

impl Write for Recorder {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.written.lock().unwrap().extend_from_slice(buf);
        let _ = self.tell.send(());
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn each_document_is_written_before_the_next_is_read() {
    let opts = Options::new().compact(true);
    let rendered: Vec<String> = DOCUMENTS
        .iter()
        .map(|d| opts.to_string(d).unwrap())
        .collect();
    assert_each_written_before_the_next_is_read(opts, &DOCUMENTS, &rendered, "");
}

/// YAML: a document is complete once the line that starts the next has
/// come (`---` and the blank after it); a document ended by `...` once a
/// line that is not a comment has come (the comments after it are its).
#[test]
fn each_yaml_document_is_written_before_the_next_is_read() {
    // `--- [2, ...]` and a document after `...`: YAML 1.2 streams, which
    // kubectl refuses or never reads (tests/kubectl_syntax.rs).
    let opts = Options::new()
        .input(kyaml::Input::Yaml)
        .schema(kyaml::Schema::Yaml12);
    let pieces = [
        "# head\na: é # one\n--- ",
        "[2, \"😀\"]\n# foot\n...\n# after\n\nc",
        ": 3\n",
    ];
    let rendered = [
        "---\n{\n  # head\n  a: \"é\", # one\n}\n",
        "---\n[\n  2,\n  \"😀\",\n]\n# foot\n# after\n",
        // The last document is complete at the end of the input.
        "",
    ];
    let last = "---\n{\n  c: 3,\n}\n";
    let whole = opts.to_string(pieces.concat()).unwrap();
    assert_eq!(whole, rendered.concat() + last);
    assert_each_written_before_the_next_is_read(opts, &pieces, &rendered, last);
}

/// Sends `pieces` one by one to a transcoder (as one byte per read), and
/// checks that each time it is about to wait for more, the writer has the
/// `rendered` output of every piece sent so far; `at_end` is written once
/// the input ends.
fn assert_each_written_before_the_next_is_read(
    opts: Options,
    pieces: &[&str],
    rendered: &[impl AsRef<str>],
    at_end: &str,
) {
    let (send_input, input) = channel();
    let (tell, told) = channel();
    let written = Arc::new(Mutex::new(Vec::new()));
    let seen_when_blocking = Arc::new(Mutex::new(Vec::new()));
    let reader = OneByteAtATime {
        pending: Vec::new(),
        from: input,
        written: written.clone(),
        seen_when_blocking: seen_when_blocking.clone(),
    };
    let writer = Recorder {
        written: written.clone(),
        tell,
    };
    let transcoding = std::thread::spawn(move || opts.transcode(reader, writer));
    let mut expected = String::new();
    for (piece, out) in pieces.iter().zip(rendered) {
        send_input.send(piece.as_bytes().to_vec()).unwrap();
        expected += out.as_ref();
        // The next piece goes only once this one is out: if it were
        // held back until more input came, this would wait for ever (the
        // timeout only turns that into a failure).
        while *written.lock().unwrap() != expected.as_bytes() {
            match told.recv_timeout(Duration::from_secs(60)) {
                Ok(()) => {}
                Err(RecvTimeoutError::Timeout) => {
                    panic!("{piece:?} not written while the input waits for more")
                }
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    }
    drop(send_input);
    transcoding.join().unwrap().unwrap();
    assert_eq!(
        String::from_utf8(written.lock().unwrap().clone()).unwrap(),
        expected + at_end
    );
    // Each time the reader was about to wait, the writer had every
    // document sent so far: before the first, nothing; then one more each
    // time; the last wait is for the end of the input.
    let seen = seen_when_blocking.lock().unwrap();
    let mut want = vec![String::new()];
    for out in rendered {
        want.push(want.last().unwrap().clone() + out.as_ref());
    }
    let seen: Vec<String> = seen
        .iter()
        .map(|s| String::from_utf8(s.clone()).unwrap())
        .collect();
    assert_eq!(seen, want);
}

/// A reader over `data` that gives one byte per read.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&b, rest)), Some(slot)) => {
                *slot = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

fn inner(e: &io::Error) -> kyaml::Error {
    e.get_ref()
        .unwrap()
        .downcast_ref::<kyaml::Error>()
        .unwrap()
        .clone()
}

/// A document framed early (a bad escape ends it) ends after a whole
/// character: cut inside one, the encoder found invalid UTF-8 there and
/// said so instead of the bad escape that `to_writer` reports (from the
/// bytes fuzz target).
#[test]
fn a_document_cut_at_a_bad_escape_keeps_its_last_character_whole() {
    let crash = include_bytes!("data/fuzz-bytes/crash-11040ead146b8f5d57eaf8d89e7f34d68ad5dd6e");
    for input in [
        &crash[..],
        "[\"\\ud83d\\ude0ъ0\"]".as_bytes(),
        "\"\\u12€\"".as_bytes(),
    ] {
        let whole = kyaml::to_string(input).unwrap_err();
        let err = kyaml::transcode(Trickle(input), io::sink()).unwrap_err();
        assert_eq!(inner(&err), whole, "{input:?}");
        assert_eq!(whole.kind(), kyaml::ErrorKind::Syntax, "{input:?}");
    }
}

#[test]
fn errors_are_positioned_in_the_whole_stream() {
    // Documents: the second starts mid-line and spans two lines.
    let input = "{\"a\": 1} [2,\n  3] {\"é\": \"x\", \"b\": [1,,2]}\n";
    let mut out = Vec::new();
    let err = kyaml::transcode(Trickle(input.as_bytes()), &mut out).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    let err = inner(&err);
    let whole = kyaml::to_string(input).unwrap_err();
    assert_eq!(err, whole);
    assert_eq!((err.line(), err.column(), err.offset()), (2, 25, 38));
    assert_eq!(out, b"---\n{\n  a: 1,\n}\n---\n[\n  2,\n  3,\n]\n");
    // A duplicate key's first position, too.
    let input = "[1]\n\n  {\"k\": 1,\n\"k\": 2}";
    let err = inner(&kyaml::transcode(Trickle(input.as_bytes()), io::sink()).unwrap_err());
    assert_eq!(err, kyaml::to_string(input).unwrap_err());
    assert_eq!(err.first_position(), Some((3, 4)));
    assert_eq!(
        err.to_string(),
        "duplicate key \"k\" (first at line 3, column 4) at line 4, column 1"
    );
}

#[test]
fn a_transcoder_goes_on_at_the_next_line_that_starts_a_value() {
    let lines = [
        "{\"n\": 1}\n",
        "{\"n\": 2, oops}\n",
        "   {\"skipped\": \"indented, after a bad line\"}\n",
        "{\"n\": [3\n",
        "{\"n\": 4}\n",
        "garbage\n",
        "[5] [6,]\n",
        "7\n",
    ];
    let input = lines.concat();
    let at = |line: usize| lines[..line - 1].concat().len();
    let mut out = Vec::new();
    let mut docs = Options::new()
        .compact(true)
        .transcoder(input.as_bytes(), &mut out);
    let mut errors = Vec::new();
    loop {
        match docs.next_document() {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                let err = inner(&e);
                let (line, first) = docs.rejected_line().unwrap();
                let line = String::from_utf8(line.to_vec()).unwrap();
                errors.push((err.line(), err.column(), err.offset(), line, first));
            }
        }
    }
    drop(docs);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "---\n{\"n\": 1}\n---\n{\"n\": 4}\n---\n[5]\n---\n7\n"
    );
    assert_eq!(
        errors,
        [
            // The bad line alone.
            (2, 10, at(2) + 9, lines[1].trim_end().to_owned(), 1),
            // A line that leaves a bracket open takes the lines after it
            // along as far as they keep it open (here to the end of the
            // input), and is found bad on one of them; reading goes on at
            // the line after its first. The indented line before it does
            // not start a value.
            (5, 1, at(5), lines[4].trim_end().to_owned(), 1),
            (6, 1, at(6), "garbage".to_owned(), 1),
            // The second document of a line goes with its line; the line
            // shown starts with it.
            (7, 8, at(7) + 7, "[6,]".to_owned(), 5),
        ]
    );
}

#[test]
fn value_form_waits_for_the_end_or_a_second_value() {
    let opts = Options::new().form(kyaml::Form::Value);
    let mut out = Vec::new();
    opts.transcode(Trickle(b" [1] \n"), &mut out).unwrap();
    assert_eq!(out, b"[\n  1,\n]");
    let mut out = Vec::new();
    let err = inner(&opts.transcode(Trickle(b"[1]\n2"), &mut out).unwrap_err());
    assert_eq!(err.kind(), ErrorKind::TrailingValue);
    assert_eq!(err, opts.to_string("[1]\n2").unwrap_err());
    assert_eq!(out, b"");
}

#[test]
fn a_byte_order_mark_is_skipped_only_at_the_start() {
    let mut out = Vec::new();
    kyaml::transcode(Trickle("\u{FEFF}[1]".as_bytes()), &mut out).unwrap();
    assert_eq!(out, b"---\n[\n  1,\n]\n");
    let input = "[1] \u{FEFF}[2]";
    let err = inner(&kyaml::transcode(Trickle(input.as_bytes()), io::sink()).unwrap_err());
    assert_eq!(err, kyaml::to_string(input).unwrap_err());
    let input = "\u{FEFF}[1,]";
    let err = inner(&kyaml::transcode(Trickle(input.as_bytes()), io::sink()).unwrap_err());
    assert_eq!((err.offset(), err.column()), (6, 4));
}

#[test]
fn a_failing_writer_or_reader_returns_its_own_error() {
    struct Refusing;
    impl Write for Refusing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::other("disk full"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let err = kyaml::transcode(&b"[1]"[..], Refusing).unwrap_err();
    assert_eq!(err.to_string(), "disk full");
    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::BrokenPipe, "gone"))
        }
    }
    let err = kyaml::transcode(Broken, io::sink()).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::BrokenPipe);
}

#[test]
fn yaml_input_is_written_as_to_writer_writes_it() {
    let opts = Options::new().input(kyaml::Input::Yaml);
    let yaml = "a: 1\n---\nb: [2, 3]\n";
    let mut want = Vec::new();
    opts.to_writer(&mut want, yaml).unwrap();
    let mut out = Vec::new();
    opts.transcode(Trickle(yaml.as_bytes()), &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        String::from_utf8(want).unwrap()
    );
    let bad = "a: 1\nb: [2\n";
    let err = inner(
        &opts
            .transcode(Trickle(bad.as_bytes()), io::sink())
            .unwrap_err(),
    );
    assert_eq!(err, opts.to_string(bad).unwrap_err());
}

/// A YAML document after `...` is framed apart, and read as the whole
/// input's reader reads it there: under the kubectl schema, a `%YAML`
/// (which kubectl drops unread) is read, content before a `---` line (which
/// kubectl never reads) and a `%TAG` are refused, at the same place.
#[test]
fn yaml_after_document_end_reads_as_in_the_whole_input() {
    let kubectl = Options::new().input(kyaml::Input::Yaml);
    let yaml12 = kubectl.schema(kyaml::Schema::Yaml12);
    for (opts, input, want) in [
        (
            kubectl,
            "a: 1\n...\n%YAML 1.1\n---\nb: 2\n",
            Ok("---\n{\n  a: 1,\n}\n---\n{\n  b: 2,\n}\n"),
        ),
        (
            kubectl,
            "a: 1\n... # c\n%YAML 1.1\n# d\n---\nb: 2\n",
            Ok("---\n{\n  a: 1,\n}\n# c\n# d\n---\n{\n  b: 2,\n}\n"),
        ),
        // A blank line between a comment after `...` and one before the
        // next `---` is the whole input's, though the frames part there.
        (
            kubectl,
            "a: 1\n... # c\n\n%YAML 1.1\n# d\n---\nb: 2\n",
            Ok("---\n{\n  a: 1,\n}\n# c\n\n# d\n---\n{\n  b: 2,\n}\n"),
        ),
        (
            yaml12,
            "a: 1\n...\n# c\n \n\n%YAML 1.2\n# d\n---\nb: 2\n",
            Ok("---\n{\n  a: 1,\n}\n# c\n\n# d\n---\n{\n  b: 2,\n}\n"),
        ),
        // And none where the whole input's writer has none.
        (
            kubectl,
            "a: 1\n...\n\n%YAML 1.1\n# d\n---\nb: 2\n",
            Ok("---\n{\n  a: 1,\n}\n# d\n---\n{\n  b: 2,\n}\n"),
        ),
        (
            kubectl,
            "a: 1\n... # c\n\n%YAML 1.1\n---\nb: 2\n",
            Ok("---\n{\n  a: 1,\n}\n# c\n---\n{\n  b: 2,\n}\n"),
        ),
        (kubectl, "a: 1\n...\n  b: 2\n", Err((3, 3))),
        (
            kubectl,
            "a: 1\n...\n%TAG !e! tag:e.com,2000:\n---\nb: 2\n",
            Err((3, 1)),
        ),
        (
            yaml12,
            "a: 1\n...\n%TAG !e! tag:e.com,2000:\n---\nb: !e!x 2\n",
            Ok("---\n{\n  a: 1,\n}\n---\n{\n  b: \"2\",\n}\n"),
        ),
    ] {
        let whole = opts.to_string(input);
        let mut out = Vec::new();
        let streamed = opts.transcode(Trickle(input.as_bytes()), &mut out);
        match want {
            Ok(want) => {
                assert_eq!(whole.as_deref(), Ok(want), "{input:?}");
                assert!(streamed.is_ok(), "{input:?}: {streamed:?}");
                assert_eq!(String::from_utf8(out).unwrap(), want, "{input:?}");
            }
            Err(place) => {
                let whole = whole.unwrap_err();
                assert_eq!((whole.line(), whole.column()), place, "{input:?}: {whole}");
                assert_eq!(inner(&streamed.unwrap_err()), whole, "{input:?}");
                assert_eq!(String::from_utf8(out).unwrap(), "---\n{\n  a: 1,\n}\n");
            }
        }
    }
}
