//! The no-alloc path allocates nothing: a counting global allocator watches
//! `to_fmt`, `Options::to_fmt` and `Dump` over the corpus (`$KYAML_CORPUS`,
//! or benches/data) and every conformance input, in every form. Streamed
//! YAML allocates, but no more for a longer document (below).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::fmt::{self, Write};
use std::path::{Path, PathBuf};

use kyaml::{Dump, Form, Input, Options};

struct Counting;

thread_local! {
    /// Allocations made by this thread while counting is on.
    static COUNT: Cell<Option<usize>> = const { Cell::new(None) };
    /// Bytes this thread holds (allocated less freed, from any thread's
    /// blocks: a test frees only what it allocated) and their high-water
    /// mark since counting began.
    static HELD: Cell<(isize, isize)> = const { Cell::new((0, 0)) };
}

fn note_allocation() {
    // `try_with`: the allocator may run while thread locals are torn down.
    let _ = COUNT.try_with(|c| c.set(c.get().map(|n| n + 1)));
}

fn note_bytes(change: isize) {
    let _ = HELD.try_with(|h| {
        let (now, peak) = h.get();
        h.set((now + change, peak.max(now + change)));
    });
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counter only reads and writes a thread-local `Cell`, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation();
        note_bytes(layout.size() as isize);
        // SAFETY: forwarded with the caller's own layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note_bytes(-(layout.size() as isize));
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation();
        note_bytes(new_size as isize - layout.size() as isize);
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

/// Runs `f`; returns how many allocations it made on this thread and the
/// most bytes it held at once beyond what it started with.
fn allocations_and_peak(f: impl FnOnce()) -> (usize, usize) {
    HELD.with(|h| h.set((0, 0)));
    let n = allocations(f);
    let (_, peak) = HELD.with(Cell::get);
    (n, peak.unsigned_abs())
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
            let _ = opts.to_fmt(&mut sink, json);
        });
        assert_eq!(n, 0, "{name}: {n} allocations with {opts:?}");
        written += sink.len;
    }
    let mut sink = Digest::default();
    let n = allocations(|| {
        let _ = kyaml::to_fmt(&mut sink, json);
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
            opts.to_fmt(&mut out, json).unwrap();
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

// YAML input needs `alloc` on every entry point (the YAML reader is built
// only with it), so none of the above holds for it. The parser itself
// allocates nothing (its stacks are fixed arrays), but the reader that
// streams its events (`scan::yaml::stream`) keeps a clone of itself per
// document on the heap, to read the document again (the parser's stacks
// are most of the 28 KB measured), and a window of the items a comment
// group holds back; the loader's frames and `Attach`'s records of comments
// and blank lines are vectors; warnings are collected in a list; and
// `to_string` and `to_writer` keep the keys of the open maps in a growing
// store. What streaming promises instead: for YAML without anchors,
// aliases or merge keys (which still load the whole item list), comments
// or warnings, the allocations do not grow with the document. The same
// number for 1,000 list items as for 100,000, and the same peak of bytes
// held, the output aside. The one thing held per item is a key of a map
// still open (16 bytes, docs/yaml-streaming.md §4), so one map of many
// keys is held to that.

/// `n` block-list items, each a map of two keys closed before the next.
fn block_list(n: usize) -> String {
    "- name: x\n  value: \"1\"\n".repeat(n)
}

/// One block map of `n` keys.
fn block_map(n: usize) -> String {
    (0..n).map(|i| format!("key{i}: {i}\n")).collect()
}

/// A flow list of `n` integers.
fn flow_ints(n: usize) -> String {
    let mut text = String::from("[");
    for i in 0..n {
        write!(text, "{i}, ").unwrap();
    }
    text + "]\n"
}

/// `n` block-list items whose strings hold `&` and `*` (a URL query, a
/// glob): no anchor or alias, so they stream.
fn ampersands_and_stars(n: usize) -> String {
    "- url: http://x/?a=1&b=2\n  glob: \"src/*.rs & *\"\n".repeat(n)
}

/// `n` block-list items whose strings hold `<<` (a shell here-document,
/// a shift): no merge key, so they stream.
fn here_documents(n: usize) -> String {
    "- run: |\n    cat <<EOF\n    x\n    EOF\n  shift: \"a << b\"\n".repeat(n)
}

/// An anchored block map and block list, then `n` aliases of them: the
/// keep arena holds the two, the aliases are replayed from it.
fn aliases(n: usize) -> String {
    let anchors = "- &m\n  name: x\n  list: &l\n    - 1\n    - {a: b}\n";
    anchors.to_string() + &"- *m\n- *l\n".repeat(n / 2)
}

/// A list of `n` maps, each holding a merge key (`<<: *d`, its map
/// anchored first) and a key the merge would set, before it and after it,
/// with a comment: each map is held until it closes.
fn merges(n: usize) -> String {
    let anchor = "- &d {a: 1, b: 2}\n";
    anchor.to_string() + &"- c: 0\n  # c\n  <<: *d\n  b: 3\n".repeat(n - 1)
}

/// A document measured: a name and how to make one of `n` items.
type Shape = (&'static str, fn(usize) -> String);

/// The documents measured.
const SHAPES: [Shape; 7] = [
    ("block list of maps", block_list),
    ("block map", block_map),
    ("flow list of ints", flow_ints),
    ("strings with & and *", ampersands_and_stars),
    ("aliases of a map and a list", aliases),
    ("strings with <<", here_documents),
    ("merge keys", merges),
];

/// A `fmt::Write` that keeps nothing, so the output costs no memory.
struct Discard;

impl Write for Discard {
    fn write_str(&mut self, _: &str) -> fmt::Result {
        Ok(())
    }
}

/// The YAML entry points measured.
const ENTRY_POINTS: [&str; 3] = ["to_fmt", "to_writer", "to_string"];

/// Allocations and peak bytes held by each of [`ENTRY_POINTS`] on `yaml`
/// with `opts`: `to_fmt` into a sink that keeps nothing and `to_writer`
/// into `io::sink()` (each a check pass, then a write pass), and
/// `to_string` (one pass), whose peak leaves out the `String` it returns.
fn yaml_costs(opts: Options, yaml: &str) -> [(usize, usize); 3] {
    let opts = opts.input(Input::Yaml);
    let to_fmt = allocations_and_peak(|| opts.to_fmt(&mut Discard, yaml).unwrap());
    let to_writer = allocations_and_peak(|| opts.to_writer(std::io::sink(), yaml).unwrap());
    let mut output = 0;
    let (n, peak) = allocations_and_peak(|| output = opts.to_string(yaml).unwrap().capacity());
    [to_fmt, to_writer, (n, peak.saturating_sub(output))]
}

#[test]
fn streamed_yaml_allocates_the_same_for_1000_and_100000_items() {
    for (shape, make) in SHAPES {
        let small = yaml_costs(Options::new(), &make(1_000));
        let large = yaml_costs(Options::new(), &make(100_000));
        for ((entry, (n_small, peak_small)), (n_large, peak_large)) in
            ENTRY_POINTS.iter().zip(small).zip(large)
        {
            println!(
                "{shape}, {entry}: 1,000 items {n_small} allocations, \
                 {peak_small} bytes; 100,000 items {n_large}, {peak_large} bytes"
            );
            // `to_fmt` checks keys in fixed room (see its docs); the other
            // two keep every key of the one map: 16 bytes each, in a
            // vector that doubles.
            let keys_held = shape == "block map" && *entry != "to_fmt";
            // One pass keeps the held maps it gave out until the document
            // ends (a bet's mark may go back to them).
            let maps_held = shape == "merge keys" && *entry == "to_string";
            if keys_held {
                assert!(
                    n_large <= n_small + 8,
                    "{shape}, {entry}: {n_large} allocations"
                );
                assert!(peak_large <= peak_small + 32 * 100_000, "{shape}, {entry}");
            } else if maps_held {
                assert!(peak_large > peak_small, "{shape}, {entry}");
            } else if shape == "merge keys" {
                // Each merge is decided with a few allocations of its own
                // (the keys it compares), freed as its map is given out;
                // what stays is the number of each map that holds a merge
                // key (`stream::merge_maps`: 4 bytes, in a vector that
                // doubles, then copied).
                assert!(n_large > n_small, "{shape}, {entry}");
                assert!(
                    peak_large <= peak_small + 12 * 100_000,
                    "{shape}, {entry}: {peak_large} bytes"
                );
            } else {
                assert_eq!(n_large, n_small, "{shape}, {entry}: allocations");
                assert_eq!(peak_large, peak_small, "{shape}, {entry}: peak bytes");
            }
        }
    }
}

#[test]
fn yaml_whose_root_is_anchored_allocates_more_for_more_items() {
    // The instrument above would see an item list come back: the same
    // documents with their root anchored (the keep arena then holds all
    // of each) cost more with more items.
    for (shape, make) in SHAPES {
        let anchored = |n| format!("&root\n{}", make(n));
        let small = yaml_costs(Options::new(), &anchored(1_000));
        let large = yaml_costs(Options::new(), &anchored(10_000));
        for ((entry, (n_small, peak_small)), (n_large, peak_large)) in
            ENTRY_POINTS.iter().zip(small).zip(large)
        {
            assert!(n_large > n_small, "{shape}, {entry}: {n_large} allocations");
            assert!(
                peak_large > 5 * peak_small,
                "{shape}, {entry}: {peak_large} bytes"
            );
        }
    }
}
