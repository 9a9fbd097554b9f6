//! The diff's speed and memory against rendering both sides.
//!
//! `cargo run --release --example bench_diff [-- --rounds N] [--only-a] [--pair A,B]` times, round
//! robin, `Diff::to_string` (which renders both sides itself) and rendering
//! both sides alone (`Options::to_string`, value form, as `Diff` renders),
//! and prints the medians and their ratio for:
//!
//! - (a) `k8s_swagger.json` against a copy with one value changed in the
//!   middle (target: at most 2× the rendering);
//! - (b) unrelated corpus files of a few MB (target: a complete diff in at
//!   most 20× the rendering), and the diff's peak heap beyond the two
//!   renderings, per line of the two, which stays flat if memory is linear
//!   in the lines.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

use kyaml::{Diff, Form, Options};

/// The system allocator, counting the bytes live and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(live, Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        if size > layout.size() {
            let live = LIVE.fetch_add(size - layout.size(), Relaxed) + size - layout.size();
            PEAK.fetch_max(live, Relaxed);
        } else {
            LIVE.fetch_sub(layout.size() - size, Relaxed);
        }
        System.realloc(ptr, layout, size)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn read(name: &str) -> Vec<u8> {
    let path = format!("{}/benches/data/{name}.json", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn render(input: &[u8]) -> String {
    Options::new().form(Form::Value).to_string(input).unwrap()
}

/// Median seconds of the diff and of rendering both sides, interleaved.
fn time(left: &[u8], right: &[u8], rounds: usize) -> (f64, f64, usize) {
    let (mut diff_times, mut render_times) = (Vec::new(), Vec::new());
    let mut size = 0;
    for round in 0..rounds {
        for k in 0..2 {
            let start = Instant::now();
            if (round + k) % 2 == 0 {
                let text = Diff::new(left, right).to_string();
                size = text.len();
                drop(black_box(text));
                diff_times.push(start.elapsed().as_secs_f64());
            } else {
                drop(black_box((render(left), render(right))));
                render_times.push(start.elapsed().as_secs_f64());
            }
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    (median(diff_times), median(render_times), size)
}

/// The diff's peak heap beyond the two renderings, in bytes.
fn extra_peak(left: &[u8], right: &[u8]) -> usize {
    let renderings = render(left).len() + render(right).len();
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    drop(black_box(Diff::new(left, right).to_string()));
    PEAK.load(Relaxed).saturating_sub(base + renderings)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds = args
        .iter()
        .position(|a| a == "--rounds")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(15);

    // (a) One value changed in the middle of k8s_swagger.json.
    let k8s = read("k8s_swagger");
    let mut changed = k8s.clone();
    let middle = changed.len() / 2;
    let at = middle
        + changed[middle..]
            .windows(13)
            .position(|w| w == b"\"description\"")
            .expect("a description");
    // The first letter of that description's text.
    let letter = at
        + changed[at + 14..]
            .iter()
            .position(|b| b.is_ascii_alphabetic())
            .unwrap()
        + 14;
    changed[letter] = if changed[letter] == b'X' { b'Y' } else { b'X' };
    let (d, r, size) = time(&k8s, &changed, rounds);
    println!(
        "(a) k8s_swagger, one value changed: diff {:.2} ms, rendering both {:.2} ms, ratio {:.2} (target <= 2); diff {} bytes",
        d * 1e3,
        r * 1e3,
        d / r,
        size
    );

    if args.iter().any(|a| a == "--only-a") {
        return;
    }
    // (b) Unrelated files.
    let pairs = [
        ("citm_catalog", "canada"),
        ("canada", "k8s_swagger"),
        ("citm_catalog", "k8s_swagger"),
    ];
    let only = args
        .iter()
        .position(|a| a == "--pair")
        .and_then(|i| args.get(i + 1));
    for (a, b) in pairs {
        if only.is_some_and(|only| *only != format!("{a},{b}")) {
            continue;
        }
        let (left, right) = (read(a), read(b));
        let (d, r, size) = time(&left, &right, rounds.div_ceil(3));
        let lines = render(&left).lines().count() + render(&right).lines().count();
        let extra = extra_peak(&left, &right);
        println!(
            "(b) {a} ({:.1} MB) vs {b} ({:.1} MB), {lines} lines: diff {:.1} ms, rendering both {:.1} ms, ratio {:.1} (target <= 20); diff {:.1} MB; peak heap beyond the renderings {:.1} MB = {:.0} bytes per line",
            left.len() as f64 / 1e6,
            right.len() as f64 / 1e6,
            d * 1e3,
            r * 1e3,
            d / r,
            size as f64 / 1e6,
            extra as f64 / 1e6,
            extra as f64 / lines as f64
        );
    }
}
