//! The no-alloc path allocates nothing: a counting global allocator watches
//! `to_fmt`, `Options::to_fmt` and `Dump` over the corpus (`$KYAML_CORPUS`,
//! or benches/data) and every conformance input, in every form.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::fmt::{self, Write};
use std::path::{Path, PathBuf};

use kyaml::{Dump, Form, Options};

struct Counting;

thread_local! {
    /// Allocations made by this thread while counting is on.
    static COUNT: Cell<Option<usize>> = const { Cell::new(None) };
}

fn note_allocation() {
    // `try_with`: the allocator may run while thread locals are torn down.
    let _ = COUNT.try_with(|c| c.set(c.get().map(|n| n + 1)));
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counter only reads and writes a thread-local `Cell`, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        // SAFETY: forwarded with the caller's own layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        // SAFETY: forwarded unchanged; `ptr` came from this allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns how many allocations it made on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    COUNT.with(|c| c.set(Some(0)));
    f();
    COUNT.with(|c| c.replace(None)).unwrap_or(0)
}

/// A sink that keeps a checksum and a length, in fixed memory.
#[derive(Default)]
struct Digest {
    len: usize,
    hash: u64,
}

impl Write for Digest {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.len += s.len();
        for b in s.bytes() {
            self.hash = (self.hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        Ok(())
    }
}

fn all_options() -> [Options; 4] {
    [
        Options::new(),
        Options::new().compact(true),
        Options::new().form(Form::Value),
        Options::new().form(Form::Value).compact(true),
    ]
}

/// Asserts zero allocations for every way to render `json` without
/// allocating; returns the bytes written in the four forms.
fn assert_no_allocations(name: &str, json: &[u8]) -> usize {
    let mut written = 0;
    for opts in all_options() {
        let mut sink = Digest::default();
        let n = allocations(|| {
            let _ = opts.to_fmt(json, &mut sink);
        });
        assert_eq!(n, 0, "{name}: {n} allocations with {opts:?}");
        written += sink.len;
    }
    let mut sink = Digest::default();
    let n = allocations(|| {
        let _ = kyaml::to_fmt(json, &mut sink);
    });
    assert_eq!(n, 0, "{name}: {n} allocations in kyaml::to_fmt");
    if let Ok(text) = std::str::from_utf8(json) {
        let mut sink = Digest::default();
        let n = allocations(|| {
            let _ = write!(sink, "{}", Dump(text));
            let _ = write!(sink, "{:#}", Dump(text));
        });
        assert_eq!(n, 0, "{name}: {n} allocations in Dump");
    }
    written
}

/// The corpus: `$KYAML_CORPUS`, else the benchmark data in the crate, else
/// the shared corpus next to it. `None` when there is none.
fn corpus_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("KYAML_CORPUS") {
        return Some(dir.into());
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    [root.join("benches/data"), root.join("../shared/corpus")]
        .into_iter()
        .find(|dir| dir.is_dir())
}

#[test]
fn the_corpus_renders_without_allocating() {
    let Some(dir) = corpus_dir() else {
        println!("SKIPPED: no corpus (set KYAML_CORPUS to a directory of .json files)");
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: no .json files", dir.display());
    for path in files {
        let json = std::fs::read(&path).unwrap();
        let written = assert_no_allocations(&path.display().to_string(), &json);
        assert!(
            written > json.len(),
            "{}: only {written} bytes written",
            path.display()
        );
        println!(
            "{}: 0 allocations, {written} bytes written in 4 forms",
            path.display()
        );
    }
}

#[test]
fn every_conformance_input_renders_without_allocating() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let (mut cases, mut written) = (0, 0);
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            // yaml-inputs.jsonl holds YAML, not JSON: nothing to render.
            if let Some(json) = case["json"].as_str() {
                written += assert_no_allocations(&path.display().to_string(), json.as_bytes());
                cases += 1;
            }
        }
    }
    assert!(cases >= 185, "only {cases} conformance inputs");
    println!("{cases} conformance inputs: 0 allocations, {written} bytes written in 4 forms");
}

#[test]
fn a_string_with_room_is_not_grown() {
    let json = r#"{"kind": "Pod", "spec": {"containers": [{"name": "web", "args": ["a\nb"]}]}}"#;
    let mut out = String::with_capacity(4096);
    let n = allocations(|| {
        for opts in all_options() {
            opts.to_fmt(json, &mut out).unwrap();
        }
        write!(out, "{}{:#}", Dump(json), Dump(json)).unwrap();
    });
    assert_eq!(n, 0);
    assert!(out.contains("      args: [\n        \"\\\n"), "{out}");
}

#[test]
fn errors_do_not_allocate_either() {
    for bad in [
        &b"[1,]"[..],
        b"{\"a\":1,\"a\":2}",
        b"\"\\ud800\"",
        b"[\xff]",
        &[b'['; 5000][..],
    ] {
        assert_no_allocations("bad input", bad);
    }
}

#[test]
fn the_counter_sees_allocations() {
    // Proof that the instrument works: the alloc path does allocate.
    let n = allocations(|| {
        let _ = kyaml::to_string("[1]");
    });
    assert!(n > 0);
}
