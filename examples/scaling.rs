//! Scaling check: time per input byte must not grow with input size.
//!
//! `cargo run --release --example scaling` renders hostile shapes at 64 KB,
//! 1 MB and 16 MB (and one string of 1 MB and 100 MB) with every entry
//! point, and YAML shapes with a warning or a comment on every line at
//! 2,500, 20,000 and 160,000 lines, and exits with status 1 if the time
//! per byte of any of them grows more than 3x on both steps: the sign of
//! a quadratic path (lookahead that rescans, duplicate-key checks that
//! compare every pair, warnings located from the start of the input, ...);
//! or if a YAML shape with warnings or comments takes more than 3x the
//! time of its twin without. Times are CPU time where Linux gives it (else
//! the fastest of many runs) over batches of about 300 ms; a step over the
//! limit is measured again, alternating, up to six times over half a
//! minute; and the lesser step is judged, as the largest input alone
//! slows under other jobs' cache use: so a busy machine does not fail it.

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
        // 1,000 characters each, within float64's range (a 1,000-digit
        // integer is past it, an error as kubectl and serde_json make it),
        // so the range check reads every digit.
        name: "a list of 1000-digit numbers",
        build: |n| {
            repeat_in("[", "]", n, |i| {
                format!("{}.{}", i % 9 + 1, "7".repeat(998))
            })
        },
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
            let _ = Options::new().to_fmt(&mut counter, json);
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

/// The CPU time this thread has used, in nanoseconds, from
/// /proc/thread-self/stat (Linux: user and system time in clock ticks of
/// 10 ms). Unlike the wall clock, it leaves out the time other processes
/// held the CPU: on a busy machine, that is most of the noise.
fn cpu_time_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The fields after the command name (in parentheses, which may hold
    // spaces) start at the third: utime and stime are the 14th and 15th.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
    Some((ticks(11)? + ticks(12)?) * 10_000_000)
}

/// Nanoseconds per input byte of `run` on `input`: where the CPU time is
/// known ([`cpu_time_ns`]), its mean over a batch of at least `runs` runs
/// sized (by a first run's wall time) to take about 300 ms, which ticks of
/// 10 ms measure to a few per cent; else the fewest of at least `runs`
/// runs and as many more as fit in 200 ms of wall time (other processes
/// only ever add time). A first run of over a second is the finding: no
/// more runs.
fn ns_per_byte(input: &str, run: fn(&str) -> usize, runs: usize) -> f64 {
    let bytes = input.len() as f64;
    let once = || {
        let start = Instant::now();
        black_box(run(black_box(input)));
        start.elapsed().as_nanos() as f64
    };
    let first = once();
    if first >= 1e9 {
        return first / bytes;
    }
    let batch = ((3e8 / first.max(1.0)).ceil() as usize).clamp(runs, 1_000_000);
    if let Some(start) = cpu_time_ns() {
        (0..batch).for_each(|_| {
            black_box(run(black_box(input)));
        });
        if let Some(end) = cpu_time_ns() {
            return end.saturating_sub(start).max(1) as f64 / (batch as f64 * bytes);
        }
    }
    let started = Instant::now();
    let mut best = first / bytes;
    for done in 1..=batch {
        best = best.min(once() / bytes);
        if done >= runs && started.elapsed().as_millis() >= 200 {
            break;
        }
    }
    best
}

/// The time per byte of `x` and of `y` under `run`, each the least of up
/// to six measurements, alternating, with pauses of 1, 2, 4, 8 and 16 s
/// between them while `enough` says no: a burst of load (another job's
/// build) passes, a real quadratic path shows on every measurement.
fn least_pair(
    x: &str,
    y: &str,
    run: fn(&str) -> usize,
    enough: impl Fn(f64, f64) -> bool,
) -> (f64, f64) {
    let (mut a, mut b) = (f64::INFINITY, f64::INFINITY);
    for attempt in 0..6 {
        if attempt > 0 {
            std::thread::sleep(std::time::Duration::from_secs(1 << (attempt - 1)));
        }
        a = a.min(ns_per_byte(x, run, 5));
        b = b.min(ns_per_byte(y, run, 3));
        if enough(a, b) {
            break;
        }
    }
    (a, b)
}

/// The time per byte of `small` and of `large` under `run`, and the
/// growth between them ([`least_pair`]; a run of the large input over a
/// second is too slow for noise to be the cause: measured enough).
fn growth(small: &str, large: &str, run: fn(&str) -> usize) -> (f64, f64, f64) {
    let len = large.len() as f64;
    let (a, b) = least_pair(small, large, run, |a, b| b / a <= LIMIT || b * len > 1e9);
    (a, b, b / a)
}

/// The times per byte of three sizes, each 8x-16x the one before, and the
/// growth judged: the lesser of the two steps'. On a machine whose caches
/// other jobs fill, the largest input (out of cache) slows more than the
/// others in CPU time too, by up to 7x under a load of 8 on 2 cores, while
/// the two smaller ones stay in cache; a quadratic path grows on both
/// steps. (A path that turns superlinear only past the middle size is
/// left to the quiet runs, where every step is printed.)
fn growth3(sizes: [&str; 3], run: fn(&str) -> usize) -> ([f64; 3], f64) {
    let (a, b, low) = growth(sizes[0], sizes[1], run);
    let c = ns_per_byte(sizes[2], run, 3);
    if low.min(c / b) <= LIMIT {
        return ([a, b, c], low.min(c / b));
    }
    let (b2, c2, high) = growth(sizes[1], sizes[2], run);
    ([a, b.min(b2), c.min(c2)], low.min(high))
}

/// A YAML shape: its name, one line of it (the `i`th), and the shape its
/// time is compared with (the same lines without what this one adds).
struct YamlShape {
    name: &'static str,
    line: fn(usize) -> String,
    twin: Option<&'static str>,
}

const YAML_SHAPES: [YamlShape; 5] = [
    YamlShape {
        name: "YAML: flow maps, one a line",
        line: |i| format!("- {{k: x, i: {i}}}\n"),
        twin: None,
    },
    // A warning a line (`on` is a boolean to kubectl, a string to YAML
    // 1.2): each warning is located by line and column.
    YamlShape {
        name: "YAML: one warning a line",
        line: |i| format!("- {{k: on, i: {i}}}\n"),
        twin: Some("YAML: flow maps, one a line"),
    },
    YamlShape {
        name: "YAML: one line comment a line",
        line: |i| format!("- {{k: x, i: {i}}} # note {i}\n"),
        twin: Some("YAML: flow maps, one a line"),
    },
    // One map whose keys all hash alike (same length, same first 16 and
    // last 8 bytes): the duplicate check sorts them by text, and the
    // streaming reader reads the document again for texts (once, not per
    // question: per question it took 9 s for 3,000 keys).
    YamlShape {
        name: "YAML: one map of keys that hash alike",
        line: |i| format!("xxxxxxxxxxxxxxxx{i:07}xxxxxxxxxxxx: 1\n"),
        twin: None,
    },
    YamlShape {
        name: "YAML: one own-line comment a line",
        line: |i| match i % 2 {
            0 => format!("# note {i}\n"),
            _ => format!("- {{k: x, i: {i}}}\n"),
        },
        twin: None,
    },
];

/// YAML read with its warnings located, as `kyaml` and `kyaml fmt` read it.
fn yaml_with_warnings(yaml: &str) -> usize {
    let (mut out, mut warnings) = (Vec::new(), Vec::new());
    let opts = Options::new().input(kyaml::Input::Yaml);
    let _ = opts.to_writer_with_warnings(&mut out, yaml, &mut warnings);
    out.len() + warnings.len()
}

/// Checks the YAML shapes at 20,000 and 160,000 lines: time per line must
/// not grow more than [`LIMIT`]x, and a shape with a warning or comment a
/// line must stay within [`LIMIT`]x of its twin without them.
fn yaml_shapes(failures: &mut Vec<String>, only: &str) {
    let mut larges: Vec<(&str, String)> = Vec::new();
    for YamlShape { name, line, twin } in YAML_SHAPES {
        if !name.contains(only) {
            continue;
        }
        let build = |n: usize| (0..n).map(line).collect::<String>();
        let (tiny, small, large) = (build(2_500), build(20_000), build(160_000));
        if let Err(e) = Options::new().input(kyaml::Input::Yaml).to_string(&large) {
            eprintln!("{name}: expected Ok, got {e}");
            std::process::exit(1);
        }
        let ([a, b, c], growth) = growth3([&tiny, &small, &large], yaml_with_warnings);
        println!(
            "| {name} | with warnings | {a:.2} (2.5k lines) | {b:.2} (20k lines) | {c:.2} (160k lines) | {growth:.2}x |"
        );
        if growth > LIMIT {
            failures.push(format!(
                "{name}: {a:.2} -> {b:.2} -> {c:.2} ns/byte ({growth:.1}x)"
            ));
        }
        let other = twin.and_then(|t| larges.iter().find(|l| l.0 == t));
        if let (Some(twin), Some((_, other))) = (twin, other) {
            // Both large inputs timed again, alternating: their times per
            // run, not per byte, compared.
            let (len_t, len) = (other.len() as f64, large.len() as f64);
            let (t, w) = least_pair(other, &large, yaml_with_warnings, |t, w| {
                w * len <= LIMIT * t * len_t || w * len > 1e9
            });
            let ratio = (w * len) / (t * len_t);
            println!("| {name} | against its twin | | | 160k lines | {ratio:.2}x |");
            if ratio > LIMIT {
                failures.push(format!("{name}: {ratio:.1}x the time of {twin}"));
            }
        }
        larges.push((name, large));
    }
}

fn main() {
    let mut failures = Vec::new();
    println!("| shape | entry point | 64 KB ns/B | 1 MB ns/B | 16 MB ns/B | growth |");
    println!("|---|---|---|---|---|---|");
    // `cargo run --release --example scaling -- WORD`: only the shapes
    // whose name holds WORD.
    let only = std::env::args().nth(1).unwrap_or_default();
    for Shape {
        name,
        build,
        expect,
    } in SHAPES.into_iter().filter(|s| s.name.contains(&only))
    {
        let tiny = build(MB / 16);
        let small = build(MB);
        let large = build(16 * MB);
        for json in [&tiny, &small, &large] {
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
            let ([a, b, c], growth) = growth3([&tiny, &small, &large], run);
            println!("| {name} | {entry} | {a:.2} | {b:.2} | {c:.2} | {growth:.2}x |");
            if growth > LIMIT {
                failures.push(format!(
                    "{name} via {entry}: {a:.2} -> {b:.2} -> {c:.2} ns/byte ({growth:.1}x)"
                ));
            }
        }
    }
    yaml_shapes(&mut failures, &only);
    if !only.is_empty() {
        return finish(failures);
    }
    let huge = long_string(100 * MB);
    let small = long_string(MB);
    let run = entry_points()[0].1;
    let (a, b, _) = growth(&small, &huge, run);
    println!(
        "| one 100 MB string | to_string | | {a:.2} (1 MB) | {b:.2} (100 MB) | {:.2}x |",
        b / a
    );
    if b / a > LIMIT {
        failures.push(format!("100 MB string: {a:.2} -> {b:.2} ns/byte"));
    }
    finish(failures);
}

/// Reports the failures, if any, and exits with status 1 then.
fn finish(failures: Vec<String>) {
    if !failures.is_empty() {
        eprintln!(
            "\ntime per byte grew more than {LIMIT}x:\n  {}",
            failures.join("\n  ")
        );
        std::process::exit(1);
    }
    println!("\nscaling: ok (no shape grew more than {LIMIT}x)");
}
