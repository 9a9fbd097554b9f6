//! `kyaml::value` (the `serde` feature) against the two-step route it
//! replaces: `serde_json::to_string(&v)` and then `kyaml::to_string`.
//!
//! `cargo run --release --features serde --example bench_value [-- --rounds N]`
//! times both round-robin (the order rotating each round) on each corpus
//! file held as a `serde_json::Value`, and on a struct-shaped log record
//! (`Dump` in a log line), and prints each one's median and the ratio.
//!
//! On a loaded machine, count instructions instead: `--only two-step` or
//! `--only value` runs one route, each file (or those in
//! `KYAML_BENCH_FILES`, comma-separated) `--rounds` times, for
//! `valgrind --tool=callgrind` (minus a run of `--rounds 0`, which only
//! reads the files); `--only record-two-step` and `--only record-value`
//! format the log record `--rounds` times.

#[path = "shared/timing.rs"]
mod timing;

use std::fmt::Write;
use std::hint::black_box;

use serde::Serialize;
use timing::median_seconds;

const FILES: [&str; 4] = ["twitter", "citm_catalog", "canada", "k8s_swagger"];

/// A logger's record, as a Rust type.
#[derive(Serialize)]
struct Record<'a> {
    level: &'a str,
    msg: &'a str,
    user: &'a str,
    status: u16,
    ms: f64,
    path: Vec<&'a str>,
}

/// The record a logger's line shows.
fn record() -> Record<'static> {
    Record {
        level: "info",
        msg: "request done",
        user: "ana",
        status: 200,
        ms: 12.5,
        path: vec!["api", "v1", "pods"],
    }
}

fn two_step<T: Serialize>(value: &T, opts: kyaml::Options) -> String {
    let json = serde_json::to_string(value).unwrap();
    opts.to_string(json).unwrap()
}

fn main() {
    let (rounds, arguments) = timing::rounds_and_arguments(11);
    match arguments.as_slice() {
        [] => {}
        [flag, route] if flag == "--only" => return one_route(route, rounds),
        _ => panic!("usage: bench_value [--rounds N] [--only ROUTE]"),
    }
    println!("`to_string` of a serde_json::Value, {rounds} rounds, medians:\n");
    println!("| file | serde_json + kyaml ms | kyaml::value ms | speed-up |");
    println!("|---|---|---|---|");
    let opts = kyaml::Options::new();
    for name in FILES {
        let path = format!("{}/benches/data/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let value: serde_json::Value = serde_json::from_slice(&text).unwrap();
        assert_eq!(
            opts.value_to_string(&value).unwrap(),
            two_step(&value, opts)
        );
        let times = median_seconds(2, rounds, |i| match i {
            0 => drop(black_box(two_step(&value, opts))),
            _ => drop(black_box(opts.value_to_string(&value).unwrap())),
        });
        println!(
            "| {name} | {:.2} | {:.2} | {:.2}x |",
            times[0] * 1e3,
            times[1] * 1e3,
            times[0] / times[1]
        );
    }

    let record = record();
    let mut line = String::new();
    const CALLS: u32 = 10_000;
    let value_form = kyaml::Options::new().compact(true).form(kyaml::Form::Value);
    assert_eq!(
        kyaml::value::Dump(&record).to_string(),
        two_step(&record, value_form)
    );
    let times = median_seconds(2, rounds, |i| {
        for _ in 0..CALLS {
            line.clear();
            match i {
                0 => {
                    let json = serde_json::to_string(black_box(&record)).unwrap();
                    write!(line, "{}", kyaml::Dump(&json)).unwrap();
                }
                _ => write!(line, "{}", kyaml::value::Dump(black_box(&record))).unwrap(),
            }
            black_box(&line);
        }
    });
    println!(
        "\nlog record in a log line (`Dump`, compact), ns per call:\n\n\
         | serde_json + kyaml::Dump | kyaml::value::Dump | speed-up |\n|---|---|---|\n\
         | {:.0} | {:.0} | {:.2}x |",
        times[0] * 1e9 / f64::from(CALLS),
        times[1] * 1e9 / f64::from(CALLS),
        times[0] / times[1]
    );
}

/// Runs one route only, for counting its instructions.
fn one_route(route: &str, rounds: usize) {
    if let Some(route) = route.strip_prefix("record-") {
        let record = record();
        let mut line = String::new();
        for _ in 0..rounds {
            line.clear();
            match route {
                "two-step" => {
                    let json = serde_json::to_string(black_box(&record)).unwrap();
                    write!(line, "{}", kyaml::Dump(&json)).unwrap();
                }
                _ => write!(line, "{}", kyaml::value::Dump(black_box(&record))).unwrap(),
            }
            black_box(&line);
        }
        return;
    }
    let files = std::env::var("KYAML_BENCH_FILES").unwrap_or_else(|_| FILES.join(","));
    let opts = kyaml::Options::new();
    for name in files.split(',') {
        let path = format!("{}/benches/data/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let value: serde_json::Value = serde_json::from_slice(&text).unwrap();
        for _ in 0..rounds {
            match route {
                "two-step" => drop(black_box(two_step(&value, opts))),
                _ => drop(black_box(opts.value_to_string(&value).unwrap())),
            }
        }
    }
}
