//! Scaling check: time per input byte must not grow with input size.
//!
//! `cargo run --release --example scaling` renders hostile shapes at 1 MB and
//! 16 MB (and one 100 MB string) with every entry point, and exits with
//! status 1 if the time per byte of any of them grows more than 3x from the
//! smallest size to the largest: the sign of a quadratic path (lookahead
//! that rescans, duplicate-key checks that compare every pair, ...).

use std::hint::black_box;
use std::time::Instant;

use kyaml::{ErrorKind, Options};

const MB: usize = 1 << 20;
const LIMIT: f64 = 3.0;

/// A shape: its name, a function that builds about `n` bytes of it, and
/// the outcome it must have. Checking the outcome first keeps an early error
/// from passing for a fast path.
struct Shape {
    name: &'static str,
    build: fn(usize) -> String,
    expect: Result<(), ErrorKind>,
}

const SHAPES: [Shape; 11] = [
    Shape {
        name: "nesting past the depth limit",
        build: |n| "[".repeat(n),
        expect: Err(ErrorKind::TooDeep),
    },
    Shape {
        name: "one long string with escapes",
        build: long_string,
        expect: Ok(()),
    },
    Shape {
        name: "one object with many keys",
        build: |n| repeat_in("{", "}", n, |i| format!("\"k{i:08}\":{i}")),
        expect: Ok(()),
    },
    Shape {
        name: "a list of empty objects",
        build: |n| repeat_in("[", "]", n, |_| "{}".into()),
        expect: Ok(()),
    },
    // With the outer list, exactly the default depth limit: the shape where
    // a lookahead that rescans nested content would show.
    Shape {
        name: "lists nested 1000 deep, repeated",
        build: |n| {
            repeat_in("[", "]", n, |_| {
                format!("{}1{}", "[".repeat(999), "]".repeat(999))
            })
        },
        expect: Ok(()),
    },
    Shape {
        name: "lists of lists of lists",
        build: |n| repeat_in("[", "]", n, |i| format!("[[{i}],[[]],{{}}]")),
        expect: Ok(()),
    },
    Shape {
        name: "a list of 1000-digit numbers",
        build: |n| repeat_in("[", "]", n, |i| format!("{}{}", i % 9 + 1, "7".repeat(999))),
        expect: Ok(()),
    },
    Shape {
        name: "JSON Lines of small documents",
        build: json_lines,
        expect: Ok(()),
    },
    Shape {
        name: "maps in cuddled lists, deep",
        build: |n| {
            repeat_in("[", "]", n, |i| {
                format!("{{\"a\":[{{\"b\":[{{\"c\":\"x\\ny{i}\"}}]}}]}}")
            })
        },
        expect: Ok(()),
    },
    // to_string writes a list cuddled when its first element is a
    // container and goes back when a scalar follows: lost bets, shallow and
    // 100 deep, must not rewrite anything more than once (deeper, the
    // regular form's indentation makes the output, not the bets, the cost).
    Shape {
        name: "lists that start with a container, then a scalar",
        build: |n| repeat_in("{", "}", n, |i| format!("\"k{i}\":[{{}},[[]],1]")),
        expect: Ok(()),
    },
    Shape {
        name: "lost bets nested 100 deep, repeated",
        build: |n| {
            repeat_in("[", "]", n, |_| {
                format!("{}{{}}{}", "[".repeat(100), "],1".repeat(100))
            })
        },
        expect: Ok(()),
    },
];

fn long_string(n: usize) -> String {
    let chunk = "line with \\\"quotes\\\" and caf\\u00e9\\n  indented\\ttab \u{65e5}\u{672c}\\n";
    format!("\"{}\"", chunk.repeat(n / chunk.len()))
}

fn json_lines(n: usize) -> String {
    let mut out = String::with_capacity(n + 64);
    for i in 0.. {
        if out.len() >= n {
            break;
        }
        out.push_str(&format!(
            "{{\"id\":{i},\"tags\":[\"a\",\"b\"],\"msg\":\"hello\\nworld\"}}\n"
        ));
    }
    out
}

/// `open` item `,` item ... `close`, about `n` bytes long.
fn repeat_in(open: &str, close: &str, n: usize, item: impl Fn(usize) -> String) -> String {
    let mut out = String::with_capacity(n + 64);
    out.push_str(open);
    for i in 0.. {
        if out.len() >= n {
            break;
        }
        if i > 0 {
            out.push(',');
        }
        out.push_str(&item(i));
    }
    out.push_str(close);
    out
}

/// An entry point: its name and a run that returns the output length.
type Entry = (&'static str, fn(&str) -> usize);

/// The entry points timed: every one must scale.
fn entry_points() -> [Entry; 3] {
    [
        ("to_string", |json| {
            Options::new().to_string(json).map_or(0, |s| s.len())
        }),
        ("compact", |json| {
            Options::new()
                .compact(true)
                .to_string(json)
                .map_or(0, |s| s.len())
        }),
        ("to_fmt (no alloc)", |json| {
            let mut counter = Counter(0);
            let _ = Options::new().to_fmt(json, &mut counter);
            counter.0
        }),
    ]
}

/// A sink that only counts, so the no-alloc path is timed without a buffer.
struct Counter(usize);

impl std::fmt::Write for Counter {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

/// The fewest nanoseconds per input byte of `runs` runs.
fn ns_per_byte(json: &str, run: fn(&str) -> usize, runs: usize) -> f64 {
    let times: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            black_box(run(black_box(json)));
            start.elapsed().as_nanos() as f64 / json.len() as f64
        })
        .collect();
    // The fastest run: other processes on a shared machine only ever add
    // time, and a memory-bound scan of 16 MB (out of cache) is the most
    // exposed to them. A quadratic path is slow on every run.
    times.into_iter().fold(f64::INFINITY, f64::min)
}

fn main() {
    let mut failures = Vec::new();
    println!("| shape | entry point | 1 MB ns/B | 16 MB ns/B | growth |");
    println!("|---|---|---|---|---|");
    for Shape {
        name,
        build,
        expect,
    } in SHAPES
    {
        let small = build(MB);
        let large = build(16 * MB);
        for json in [&small, &large] {
            let got = Options::new()
                .to_string(json)
                .map(drop)
                .map_err(|e| e.kind());
            if got != expect {
                eprintln!("{name}: expected {expect:?}, got {got:?}");
                std::process::exit(1);
            }
        }
        for (entry, run) in entry_points() {
            let a = ns_per_byte(&small, run, 5);
            let b = ns_per_byte(&large, run, 3);
            let growth = b / a;
            println!("| {name} | {entry} | {a:.2} | {b:.2} | {growth:.2}x |");
            if growth > LIMIT {
                failures.push(format!(
                    "{name} via {entry}: {a:.2} -> {b:.2} ns/byte ({growth:.1}x)"
                ));
            }
        }
    }
    let huge = long_string(100 * MB);
    let small = long_string(MB);
    let run = entry_points()[0].1;
    let (a, b) = (ns_per_byte(&small, run, 5), ns_per_byte(&huge, run, 1));
    println!(
        "| one 100 MB string | to_string | {a:.2} (1 MB) | {b:.2} (100 MB) | {:.2}x |",
        b / a
    );
    if b / a > LIMIT {
        failures.push(format!("100 MB string: {a:.2} -> {b:.2} ns/byte"));
    }
    if !failures.is_empty() {
        eprintln!(
            "\ntime per byte grew more than {LIMIT}x:\n  {}",
            failures.join("\n  ")
        );
        std::process::exit(1);
    }
    println!("\nscaling: ok (no shape grew more than {LIMIT}x)");
}
