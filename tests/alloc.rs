//! The no-alloc path allocates nothing: a counting global allocator watches
//! `to_fmt`, `Options::to_fmt` and `Dump` over the benchmark corpus and every
//! conformance input, in every form.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::fmt::{self, Write};

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

/// Asserts zero allocations for every option on `json`; returns bytes written.
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

#[test]
fn the_corpus_renders_without_allocating() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    assert_eq!(files.len(), 4, "the corpus is four files");
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
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut cases = 0;
    for file in ["values", "escapes", "keys", "documents", "deviations"] {
        let text = std::fs::read_to_string(format!("{dir}/{file}.jsonl")).unwrap();
        for line in text.lines() {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_no_allocations(file, case["json"].as_str().unwrap().as_bytes());
            cases += 1;
        }
    }
    assert_eq!(cases, 185);
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
